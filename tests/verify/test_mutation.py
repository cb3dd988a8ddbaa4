"""The mutation battery (cbdp_sym.verify.mutation): every verdict with a numeric side must be able to move.

The fast test audits a sample of cheap claims of each paper (identities, bounds, check claims; verified, holds and
refuted) and perturbs their stored evidence; the slow test does the same on every claim of a full audit."""
import json

import pytest

from cbdp_sym.app.cli import main
from cbdp_sym.verify.mutation import battery

from ..conftest import once

SAMPLE = ["CBDP-L3-CONJ-CS", "RDP-INTRO", "RDP-BAD", "RDP-P7", "ZCDP-L2.4"]


def _audit(tmp_path_factory, ids):
    """The sample audited at 20 digits: the battery perturbs the stored evidence and asks whether the verdict moves,
    at whatever precision the evidence carries (the slow test runs it on a full audit at 50)."""
    out = tmp_path_factory.mktemp("mut")
    assert main(["audit", *ids, "--dps", "20", "--no-pdf", "--out", str(out)]) == 0
    return json.loads((out / "audit-subset.json").read_text())


@pytest.mark.xdist_group("mutations")
def test_the_battery_moves_every_sampled_verdict(tmp_path_factory):
    doc = once("mutation-sample", lambda: _audit(tmp_path_factory, SAMPLE))
    outs, defects = battery(doc)
    assert not defects, defects
    exercised = {o.claim for o in outs}
    statuses = {c["status"] for c in doc["claims"] if c["id"] in exercised}
    assert statuses >= {"verified", "holds", "refuted"}, statuses
    # every sampled claim with stored evidence is exercised
    with_numbers = {c["id"] for c in doc["claims"] if c.get("evidence") and c["status"] in ("verified", "holds", "refuted")}
    assert exercised == with_numbers


@pytest.mark.slow
@pytest.mark.timeout(3000)
def test_the_battery_on_a_full_audit(tmp_path):
    assert main(["audit", "--no-pdf", "--out", str(tmp_path)]) == 0
    doc = json.loads((tmp_path / "audit.json").read_text())
    outs, defects = battery(doc)
    assert not defects, "\n".join(defects)
    decided = [c for c in doc["claims"] if c["status"] in ("verified", "holds", "refuted")]
    missing = [c["id"] for c in decided if not c.get("evidence")]
    assert not missing, f"claims decided without stored evidence: {missing}"
    print(f"mutation battery: {len(outs)} mutations over {len({o.claim for o in outs})} claims")
