"""The whole audit through the CLI, as README's main command runs it (slow)."""
import json

import pytest

from cbdp_sym.cli import main
from cbdp_sym.report import latexmk_available

EXPECTED = {
    "CBDP-D2": "definition", "CBDP-EQ1": "verified", "CBDP-EQ1-KL": "verified", "CBDP-EQ1-TV": "verified", "CBDP-EQ1-ALPHA": "verified",
    "CBDP-L1": "verified", "CBDP-T8": "verified", "CBDP-T9": "verified", "CBDP-T10": "verified",
    "CBDP-TAB1-KL-LAP-LIN": "verified", "CBDP-TAB1-KL-LAP-UNR": "verified", "CBDP-TAB1-KL-GAU-LIN": "verified",
    "CBDP-TAB1-KL-GAU-UNR": "verified", "CBDP-S5-LAPKL": "holds", "CBDP-S5-GAUKL": "verified",
}


@pytest.mark.slow
def test_full_audit_at_50_digits(tmp_path):
    args = ["audit", "--strict", "--out", str(tmp_path)] + ([] if latexmk_available() else ["--no-pdf"])
    assert main(args) == 0
    doc = json.loads((tmp_path / "audit.json").read_text())
    got = {c["id"]: c["status"] for c in doc["claims"]}
    assert got == EXPECTED
    for c in doc["claims"]:
        if c["status"] == "verified":
            assert min(ch["digits"] for ch in c["checks"]) >= 45
