import json
import subprocess
import sys

import pytest

from cbdp_sym.cli import main

from .conftest import FIXTURES


def run(*args):
    return subprocess.run([sys.executable, "-m", "cbdp_sym", *args], capture_output=True, text=True, timeout=600)


def test_list_shows_ids_and_coverage(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "CBDP-T9" in out and "coverage cbdp:" in out and "coverage rdp:" in out and "coverage zcdp:" in out


def test_list_counts_encoded_catalogue_entries(capsys):
    assert main(["--path", str(FIXTURES / "mutants"), "list"]) == 0
    out = capsys.readouterr().out
    n = len([ln for ln in (FIXTURES / "mutants" / "mut" / "catalogue.tsv").read_text().splitlines()
             if ln and not ln.startswith("#")])
    assert f"coverage mut: {n - 1}/{n} " in out


def test_show_prints_the_stationarity_equation(capsys):
    assert main(["show", "CBDP-T9"]) == 0
    out = capsys.readouterr().out
    assert "a**2 - 2*a - epsilon**2 = 0" in out


def test_eval_json(capsys):
    assert main(["eval", "CBDP-T8", "--at", "eps=7/2", "--dps", "30", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"id", "params", "derived", "numeric", "claimed"}
    assert doc["derived"][:25] == doc["numeric"][:25] == doc["claimed"][:25]


@pytest.mark.parametrize("args,needle", [
    (["eval", "CBDP-T8", "--at", "eps=abc"], "not a number"),
    pytest.param(["eval", "CBDP-T8", "--at", "eps=0"], "must be positive", marks=pytest.mark.slow),
    pytest.param(["eval", "CBDP-T8", "--at", "eps"], "NAME=VALUE", marks=pytest.mark.slow),
    (["eval", "CBDP-T8"], "needs --at eps"),
    pytest.param(["eval", "CBDP-T8", "--at", "eps=1", "--at", "beta=2"], "no parameter", marks=pytest.mark.slow),
    pytest.param(["eval", "CBDP-EQ1-ALPHA", "--at", "s=1", "--at", "alpha=1"], "greater than 1", marks=pytest.mark.slow),
    pytest.param(["eval", "CBDP-EQ1-ALPHA", "--at", "s=1", "--at", "alpha=1/2"], "greater than 1", marks=pytest.mark.slow),
    (["show", "CBDP-NOPE"], "unknown claim"),
    (["--path", str(FIXTURES / "mutants"), "audit", "MUT-UNENCODED", "--no-pdf"], "not encoded yet"),
    pytest.param(["eval", "CBDP-T8", "--at", "eps=1", "--dps", "2"], "--dps", marks=pytest.mark.slow),
])
def test_bad_input_is_one_line_error(args, needle):
    proc = run(*args)
    assert proc.returncode == 2
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_audit_exit_codes_with_refuted_and_error_fixtures(tmp_path):
    proc = run("--path", str(FIXTURES / "mutants"), "audit", "MUT-T8-SIGN", "--dps", "20", "--no-pdf", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "audit.json").read_text())
    (c,) = doc["claims"]
    assert c["status"] == "refuted" and c["counterexample"]["certified"]
    proc = run("--path", str(FIXTURES / "mutants"), "audit", "MUT-CRASH", "--dps", "20", "--no-pdf", "--out", str(tmp_path), "--strict")
    assert proc.returncode == 1
    proc = run("--path", str(FIXTURES / "mutants"), "audit", "MUT-CRASH", "--dps", "20", "--no-pdf", "--out", str(tmp_path))
    assert proc.returncode == 0


def test_audit_json_schema(tmp_path):
    assert main(["audit", "CBDP-T8", "CBDP-EQ1-TV", "--dps", "20", "--no-pdf", "--out", str(tmp_path), "--jobs", "1"]) == 0
    doc = json.loads((tmp_path / "audit.json").read_text())
    assert doc["dps"] == 20
    for c in doc["claims"]:
        assert {"id", "paper", "label", "status", "claimed_latex", "derived_latex", "checks", "counterexample", "message"} <= set(c)
        for chk in c["checks"]:
            assert {"params", "claimed", "derived", "numeric", "digits"} <= set(chk)


def test_installed_console_script_works_from_any_directory(tmp_path):
    import os
    import shutil

    exe = shutil.which("cbdp-sym")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("CI installs the package: cbdp-sym must be on PATH")
        pytest.skip("cbdp-sym is not installed")
    proc = subprocess.run([exe, "list"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "CBDP-T9" in proc.stdout
