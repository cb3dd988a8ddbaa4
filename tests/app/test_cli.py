import json
import subprocess
import sys

import pytest

from cbdp_sym.app.cli import main

from ..conftest import FIXTURES


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
    assert {"id", "params", "derived", "numeric", "claimed", "kind", "verdict"} <= set(doc)
    assert doc["derived"][:25] == doc["numeric"][:25] == doc["claimed"][:25]
    assert doc["kind"] == "identity" and doc["verdict"] == "agrees" and doc["digits"] >= 25


@pytest.mark.parametrize("args,needle", [
    (["eval", "CBDP-T8", "--at", "eps=abc"], "not a number"),
    (["eval", "CBDP-T8", "--at", "eps=0"], "must be positive"),
    (["eval", "CBDP-T8", "--at", "eps"], "NAME=VALUE"),
    (["eval", "CBDP-T8"], "needs --at eps"),
    (["eval", "CBDP-T8", "--at", "eps=1", "--at", "beta=2"], "no parameter"),
    (["eval", "CBDP-EQ1-ALPHA", "--at", "s=1", "--at", "alpha=1"], "greater than 1"),
    (["eval", "CBDP-EQ1-ALPHA", "--at", "s=1", "--at", "alpha=1/2"], "greater than 1"),
    (["show", "CBDP-NOPE"], "unknown claim"),
    (["--path", str(FIXTURES / "mutants"), "audit", "MUT-UNENCODED", "--no-pdf"], "not encoded yet"),
    (["eval", "CBDP-T8", "--at", "eps=1", "--dps", "2"], "--dps"),
])
def test_bad_input_is_one_line_error(args, needle, capsys):
    """In this process (main() returns the exit code; argparse's own errors exit with it)."""
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert needle in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("args,needle", [
    (["eval", "CBDP-T8", "--at", "eps=abc"], "not a number"),
    (["--path", str(FIXTURES / "mutants"), "audit", "MUT-UNENCODED", "--no-pdf"], "not encoded yet"),
])
def test_bad_input_is_one_line_error_in_a_new_interpreter(args, needle):
    proc = run(*args)
    assert proc.returncode == 2
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_audit_exit_codes_with_refuted_and_error_fixtures(tmp_path):
    proc = run("--path", str(FIXTURES / "mutants"), "audit", "MUT-T8-SIGN", "--dps", "20", "--no-pdf", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "audit-subset.json").read_text())
    (c,) = doc["claims"]
    assert c["status"] == "refuted" and c["counterexample"]["certified"]
    proc = run("--path", str(FIXTURES / "mutants"), "audit", "MUT-CRASH", "--dps", "20", "--no-pdf", "--out", str(tmp_path), "--strict")
    assert proc.returncode == 1
    proc = run("--path", str(FIXTURES / "mutants"), "audit", "MUT-CRASH", "--dps", "20", "--no-pdf", "--out", str(tmp_path))
    assert proc.returncode == 0


def test_audit_json_schema(tmp_path):
    assert main(["audit", "CBDP-T8", "CBDP-EQ1-TV", "--dps", "20", "--no-pdf", "--out", str(tmp_path), "--jobs", "1"]) == 0
    doc = json.loads((tmp_path / "audit-subset.json").read_text())
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


# -- CLI conventions (issue 17) ------------------------------------------------------------------------
def test_version_prints_version_and_commit(capsys):
    import cbdp_sym

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith(f"cbdp-sym {cbdp_sym.__version__} (commit ")
    assert cbdp_sym.__version__ == "0.2.0"
    # a checkout: a 40-hex commit from git (an installed copy says "recorded at build time" or "unknown")
    commit = out.split("(commit ", 1)[1]
    assert len(commit.split()[0].strip(")")) == 40 or commit.startswith("unknown")


def test_ids_are_matched_case_insensitively(capsys, registry):
    assert registry.get("cbdp-t8") is registry.get("CBDP-T8")
    assert main(["show", "cbdp-t9"]) == 0
    assert capsys.readouterr().out.startswith("CBDP-T9: ")


def test_unknown_id_suggests_the_closest_and_mentions_path(capsys):
    assert main(["show", "cbdp-t9x"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert "did you mean CBDP-T9" in line and "--path" in line
    assert main(["eval", "zzzz-nothing-like-it"]) == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err and "--path" in err


def test_progress_is_plain_lines_when_stderr_is_not_a_tty(tmp_path):
    proc = run("audit", "CBDP-T8", "--dps", "20", "--no-pdf", "--jobs", "1", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "\r" not in proc.stderr and "%|" not in proc.stderr
    assert any(ln.startswith("[  1/1] CBDP-T8") and "verified" in ln for ln in proc.stderr.splitlines())


def test_subset_audit_does_not_replace_the_full_reports(tmp_path, capsys):
    full_json, full_tex = tmp_path / "audit.json", tmp_path / "appendix-cbdp.tex"
    full_json.write_text('{"the": "full audit"}')
    full_tex.write_text("% the full appendix")
    assert main(["audit", "cbdp-t8", "--dps", "20", "--no-pdf", "--jobs", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert full_json.read_text() == '{"the": "full audit"}' and full_tex.read_text() == "% the full appendix"
    doc = json.loads((tmp_path / "audit-subset.json").read_text())
    assert [c["id"] for c in doc["claims"]] == ["CBDP-T8"]
    assert (tmp_path / "appendix-cbdp-subset.tex").exists() and (tmp_path / "appendix-cbdp-subset-body.tex").exists()
    assert r"\input{appendix-cbdp-subset-body" in (tmp_path / "appendix-cbdp-subset.tex").read_text()
    assert "subset" in out and "left as they are" in out
    # an explicit --json is honoured
    assert main(["audit", "CBDP-T8", "--dps", "20", "--no-pdf", "--jobs", "1", "--out", str(tmp_path),
                 "--json", str(tmp_path / "mine.json")]) == 0
    assert json.loads((tmp_path / "mine.json").read_text())["claims"][0]["id"] == "CBDP-T8"


def test_eval_of_a_violated_bound_names_the_sides_and_the_slack(capsys):
    assert main(["--path", str(FIXTURES / "mutants"), "eval", "MUT-BOUND", "--at", "eps=1", "--dps", "20", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "upper" and doc["verdict"] == "violated"
    assert doc["sides"] == {"quantity": "numeric", "bound": "claimed"} and doc["relation"] == "quantity <= bound"
    # KL(Lap(0,1), Lap(1,1)) = 1/e against the false bound 1/4: slack (1/4 - 1/e) / (1/4)
    import math

    assert abs(float(doc["relative_slack"]) - (0.25 - math.exp(-1)) / 0.25) < 1e-5
    assert main(["--path", str(FIXTURES / "mutants"), "eval", "mut-bound", "--at", "eps=1", "--dps", "20"]) == 0
    out = capsys.readouterr().out
    assert "MUT-BOUND (upper)" in out and "VIOLATED at this point" in out and "relative slack" in out


def test_eval_of_a_bound_that_holds(capsys):
    assert main(["eval", "CBDP-S5-LAPKL", "--at", "eps=1", "--dps", "20"]) == 0
    out = capsys.readouterr().out
    assert "(strict-upper)" in out and "quantity < bound" in out and "holds at this point" in out
    assert "-" not in out.split("relative slack", 1)[1].split("=", 2)[-1].split(":")[0]  # a positive slack


def test_eval_of_a_false_identity(capsys):
    assert main(["--path", str(FIXTURES / "mutants"), "eval", "MUT-T8-SIGN", "--at", "eps=1", "--dps", "20", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "identity" and doc["verdict"] == "differs" and doc["digits"] < 15


@pytest.mark.slow
@pytest.mark.acceptance
def test_audit_on_a_terminal_draws_a_bar(tmp_path):
    """stderr on a pseudo-terminal of 30 x 100: a tqdm bar with [elapsed<remaining]; of size 0: plain lines.  Two
    new interpreters on a real terminal (about 2.4 CPU-s): an acceptance test, run by CI's ``-m acceptance`` step; the
    fast set draws the bar on a stream that says it is a terminal (tests/app/test_audit.py) and checks the plain lines
    of a process whose stderr is a pipe (test_progress_is_plain_lines_when_stderr_is_not_a_tty below)."""
    import fcntl
    import os
    import pty
    import struct
    import termios

    def run_on_pty(rows, cols):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        proc = subprocess.Popen([sys.executable, "-m", "cbdp_sym", "audit", "CBDP-T8", "--dps", "20", "--no-pdf",
                                 "--jobs", "1", "--out", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        assert proc.wait(timeout=600) == 0
        os.close(master)
        return b"".join(chunks).decode(errors="replace")

    text = run_on_pty(30, 100)
    assert "claims 100%|" in text and "1/1 [" in text and "<00:00]" in text and "[  1/1]" not in text
    text = run_on_pty(0, 0)
    assert "[  1/1] CBDP-T8" in text and "%|" not in text


def test_provenance_commit_for_every_kind_of_install(monkeypatch):
    """A checkout reads git; a built copy reports the commit recorded at build time; else 'unknown', plainly."""
    import types

    import cbdp_sym.core.version as version
    import cbdp_sym.report.latex as report
    assert len(report.source_commit().split()[0]) == 40  # this checkout
    monkeypatch.setattr(version, "_git", lambda args, cwd: None)  # as if there were no git checkout
    monkeypatch.setitem(sys.modules, "cbdp_sym._build_info", types.SimpleNamespace(COMMIT="0123abc"))
    assert report.source_commit() == "0123abc (recorded at build time)"
    assert ("commit", "0123abc (recorded at build time)") in report.provenance(20)
    monkeypatch.setitem(sys.modules, "cbdp_sym._build_info", types.SimpleNamespace(COMMIT=None))
    assert report.source_commit().startswith("unknown (")


def test_eval_verdict_respects_the_digits_the_numeric_side_established():
    """As in the audit: an identity whose numeric side established fewer digits than the tolerance, and agrees
    to all of them, is inconclusive at the point, not refuted; a plain disagreement differs."""
    from types import SimpleNamespace

    import mpmath as mp

    from cbdp_sym.app.cli import _verdict_at
    from cbdp_sym.core.numbers import Estimate

    ident = SimpleNamespace(kind="identity")
    with mp.workdps(60):
        close = mp.pi + mp.mpf(10) ** -20
        assert _verdict_at(ident, mp.pi, None, Estimate(close, 20), 50)[0]["verdict"] == "inconclusive"
        assert _verdict_at(ident, mp.pi, None, close, 50)[0]["verdict"] == "differs"
        assert _verdict_at(ident, mp.pi, None, +mp.pi, 50)[0]["verdict"] == "agrees"
        assert _verdict_at(ident, None, mp.pi, None, 50)[0]["verdict"] is None


def test_cli_restricted_json(capsys):
    rc = main(["restricted", "renyi", "lin", "--P", "normal(0,1)", "--Q", "normal(1,1)", "--alpha", "2", "--dps", "20",
               "--json", "--no-cache"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("value", "optimum", "gradient_norm", "hessian", "second_method_digits", "infinite"):
        assert key in out
    assert out["value"].startswith("0.69314718055994530")  # log 2: alpha = 2, sigma = 1 (log(1 + 1/sigma^2))
    assert out["infinite"] is False and float(out["second_method_digits"]) > 12


def test_cli_restricted_bad_spec_is_one_line(capsys):
    rc = main(["restricted", "kl", "lin", "--P", "normal(0,1", "--Q", "normal(1,1)"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "not understood" in err


def test_version_and_help_start_without_the_engine():
    """`cbdp-sym --version` and `--help` import no SymPy, SciPy, mpmath or solver (issue 31: 1 s before, ~0.05 s)."""
    code = ("import sys, io, contextlib\n"
            "from cbdp_sym.app.cli import main\n"
            "for argv in (['--version'], ['--help'], ['profile', '--help']):\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        try:\n"
            "            main(argv)\n"
            "        except SystemExit:\n"
            "            pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'scipy', 'mpmath', 'numpy', 'flint')"
            " or m.startswith(('cbdp_sym.laws', 'cbdp_sym.calculus', 'cbdp_sym.divergences', 'cbdp_sym.restricted'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    assert run("--version").stdout.startswith("cbdp-sym ")
