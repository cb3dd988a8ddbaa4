"""Issue 33: a cache that cannot lie or run code, outputs that never clobber, one claim that can never sink the audit,
user LaTeX by allow-list, limits everywhere; and issue 30's robust user folders.  Each test names the failure of the
red-team round it guards against ("Before: ...").  The unit tests of the same guards live beside their modules
(tests/core/test_store.py, test_serial.py, test_safeeval.py, tests/report/test_usertex.py, ...)."""
import contextlib
import io
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

import cbdp_sym.app.cli as cli
import cbdp_sym.core.store as store

from ..conftest import ROOT, tex_required

pytestmark = pytest.mark.xdist_group("security")


def _cli(*args, timeout=180, env=None, cwd=ROOT):
    full = dict(os.environ, PYTHONHASHSEED="0", **(env or {}))
    return subprocess.run([sys.executable, "-m", "cbdp_sym", *args], cwd=cwd, env=full, capture_output=True,
                          text=True, timeout=timeout)


def _main(capsys, *args):
    code = cli.main(list(args))
    out = capsys.readouterr()
    return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)


def _paper(root: Path, key: str, body: str, paper_extra: str = "") -> Path:
    d = root / key
    d.mkdir(parents=True)
    (d / "_paper.py").write_text(f"PAPER = {{'key': {key!r}, 'title': {key!r}, 'prefix': {key.upper() + '-'!r}"
                                 f"{paper_extra}}}\n")
    (d / "claims.py").write_text("import sympy as sp\nfrom cbdp_sym import Claim, Param\n"
                                 "x = sp.Symbol('x', positive=True)\n" + body)
    return root


def _claim(cid, label="a claim", **kw):
    fields = {"kind": "'identity'", "statement": "'x = x'", "params": "[Param.positive('x', x)]",
              "derive": "lambda: x", "claimed": "lambda: x", "numeric": "lambda v: v['x']"}
    fields.update(kw)
    inner = ", ".join(f"{k}={v}" for k, v in fields.items())
    return f"{cid.replace('-', '_')} = Claim(id={cid!r}, label={label!r}, {inner})\n"


@pytest.fixture
def no_work(monkeypatch):
    import cbdp_sym.app.audit as audit

    def boom(*a, **k):
        raise AssertionError("work started before the output paths were checked")

    monkeypatch.setattr(audit, "run", boom)


# == a cache that cannot lie or run code =========================================================================
def _forge_all(cache: Path, edit) -> int:
    """Edit every entry's value and recompute its checksum the way anyone can (a plain SHA-256 of key and value)."""
    import hashlib

    n = 0
    for path in sorted(cache.rglob("*.json")):
        doc = json.loads(path.read_text())
        if "value" not in doc:  # (the claim index: its own forgery test is in tests/app/test_claimindex.py)
            continue
        new = edit(doc["value"])
        if new == doc["value"]:
            continue
        doc["value"] = new
        body = json.dumps([doc["key"], doc["value"]], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        for field in ("sha256", "mac"):
            if field in doc:
                doc[field] = hashlib.sha256(body.encode()).hexdigest()
        path.write_text(json.dumps(doc))
        n += 1
    return n


def _double_mpf(value):
    text = json.dumps(value)

    def walk(o):
        if isinstance(o, dict):
            if isinstance(o.get("mpf"), list) and len(o["mpf"]) == 2:
                man, exp = o["mpf"]
                return {**o, "mpf": [man, format(int(exp, 16) + 1, "x") if not exp.startswith("-")
                                     else "-" + format(int(exp[1:], 16) - 1, "x")]}
            return {k: walk(v) for k, v in o.items()}
        if isinstance(o, list):
            return [walk(v) for v in o]
        return o

    return walk(json.loads(text))


@pytest.mark.slow
@pytest.mark.acceptance
def test_forged_values_with_recomputed_sha256_change_no_output(tmp_path):
    """Before: a forged value with a recomputed SHA-256 made ``eval`` print 1.5097 instead of 0.7549.  After: every
    forged entry is rejected with one warning each, recomputed, and the output is the same."""
    env = {"CBDP_SYM_CACHE": str(tmp_path / "cache")}
    args = ("eval", "RDP-P6", "--at", "alpha=7/2", "--at", "lam=3/2")
    first = _cli(*args, env=env)
    assert first.returncode == 0, first.stderr
    assert _forge_all(tmp_path / "cache", _double_mpf) > 0
    again = _cli(*args, env=env)
    assert again.returncode == 0 and again.stdout == first.stdout
    warned = [ln for ln in again.stderr.splitlines() if "discarded cache entry" in ln]
    assert warned and len(warned) == len(set(warned)) and all("authentication failed" in w for w in warned)


def test_a_cache_folder_others_can_write_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    """Before: the cache folder's owner and permissions were never checked."""
    cache = tmp_path / "cache"
    cache.mkdir()
    os.chmod(cache, 0o775)
    monkeypatch.setenv("CBDP_SYM_CACHE", str(cache))
    monkeypatch.setattr(store, "_TRUST", {})
    # (RDP-P7's eval: 0.2 s where RDP-P6's took 2 s; the cache check, not the claim, is under test)
    out = _main(capsys, "eval", "RDP-P7", "--at", "alpha=2", "--at", "sigma=1", "--at", "mu=1")
    assert out.returncode == 2 and out.stdout == ""
    (line,) = out.stderr.strip().splitlines()
    assert "writable by its group" in line and "--no-cache" in line
    ok = _main(capsys, "eval", "RDP-P7", "--at", "alpha=2", "--at", "sigma=1", "--at", "mu=1", "--no-cache")
    assert ok.returncode == 0 and "RDP-P7" in ok.stdout
    store.set_enabled(True)


# == outputs that never clobber ===================================================================================
def _special(tmp_path, kind):
    p = tmp_path / "target"
    outside = tmp_path / "outside.json"
    if kind == "fifo":
        os.mkfifo(p)
    elif kind == "symlink":
        outside.write_text("keep me")
        p.symlink_to(outside)
    elif kind == "dangling":
        p.symlink_to(tmp_path / "elsewhere.json")
    elif kind == "folder-link":
        (tmp_path / "d").mkdir()
        p.symlink_to(tmp_path / "d")
    elif kind == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(p, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of our own
    return p, outside


@pytest.mark.parametrize("kind", ["fifo", "symlink", "dangling", "folder-link", "device"])
def test_json_at_a_special_file_or_a_link_is_refused_before_any_work(tmp_path, no_work, capsys, kind):
    """Before: ``--json`` replaced a device node, a FIFO or a symlink with a regular file (as root, ``--json
    /dev/null`` would destroy /dev/null)."""
    target, outside = _special(tmp_path, kind)
    before = os.lstat(target)
    out = _main(capsys, "audit", "RDP-P6", "--out", str(tmp_path / "out"), "--json", str(target))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert "not a regular file" in line
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    if kind == "symlink":
        assert outside.read_text() == "keep me"
    if kind == "dangling":
        assert not (tmp_path / "elsewhere.json").exists()


@pytest.mark.parametrize("name", ["audit-subset.json", "appendix-rdp-subset.tex", "figures"])
def test_links_planted_in_the_report_folder_are_refused(tmp_path, no_work, capsys, name):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    victim = tmp_path / "victim"
    victim.mkdir() if name == "figures" else victim.write_text("keep me")
    (out_dir / name).symlink_to(victim)
    out = _main(capsys, "audit", "RDP-P6", "--out", str(out_dir))
    assert out.returncode == 2 and ("not a regular file" in out.stderr or "not a folder" in out.stderr)
    assert victim.is_dir() or victim.read_text() == "keep me"


def test_a_symlinked_report_folder_is_refused(tmp_path, no_work, capsys):
    (tmp_path / "real").mkdir()
    (tmp_path / "out").symlink_to(tmp_path / "real")
    out = _main(capsys, "audit", "RDP-P6", "--out", str(tmp_path / "out"))
    assert out.returncode == 2 and "symbolic link" in out.stderr


def test_a_symlinked_lock_creates_nothing_elsewhere(tmp_path):
    """Before: a symlinked ``.cbdp-sym.lock`` created its target elsewhere."""
    from cbdp_sym.core.errors import CbdpError
    from cbdp_sym.report.outputs import folder_lock

    out = tmp_path / "out"
    out.mkdir()
    (out / ".cbdp-sym.lock").symlink_to(tmp_path / "created-elsewhere")
    with pytest.raises(CbdpError, match="symbolic link"):
        with folder_lock(out):
            pass
    assert not (tmp_path / "created-elsewhere").exists()


def test_report_files_get_the_permissions_of_the_umask(tmp_path):
    """Before: every report file was written 0600 (mkstemp's mode), whatever the umask: the reader-side check
    ``report_check.py --only modes`` failed."""
    from cbdp_sym.report.outputs import file_mode, umask, write_atomic

    write_atomic(tmp_path / "audit.json", "{}")
    mode = stat.S_IMODE(os.stat(tmp_path / "audit.json").st_mode)
    assert mode == file_mode() == 0o666 & ~umask()
    want = 0o444 & ~umask()
    assert mode & want == want


# == nothing lost silently ========================================================================================
@pytest.mark.slow
@pytest.mark.acceptance
def test_a_closed_stdout_never_stops_the_audit(tmp_path):
    """Before: ``audit ... 2>&1 | head -1`` stopped at the first progress line: exit 0, no reports.  A real pipeline
    (a new interpreter, SIGPIPE's exit code 141; about 3 CPU-s): an acceptance test, run by CI's ``-m acceptance``
    step; ``test_a_reader_that_leaves_never_stops_the_audit`` below is its fast form, in this process."""
    out = tmp_path / "out"
    cmd = (f"{sys.executable} -m cbdp_sym audit RDP-P6 RDP-P5-KL --no-pdf --out {out} 2>&1 | head -1; "
           "echo \"rc=${PIPESTATUS[0]}\" >&2")
    proc = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=dict(os.environ, PYTHONHASHSEED="0"),
                          capture_output=True, text=True, timeout=300)
    assert "rc=141" in proc.stderr, proc.stderr
    assert (out / "audit-subset.json").is_file() and (out / "appendix-rdp-subset.tex").is_file()
    doc = json.loads((out / "audit-subset.json").read_text())
    assert {c["id"] for c in doc["claims"]} == {"RDP-P6", "RDP-P5-KL"}


def test_a_reader_that_leaves_never_stops_the_audit(tmp_path, monkeypatch):
    """The fast form of the test above, in this process: standard output and error are one stream whose reader leaves
    after the first line (``2>&1 | head -1``); the audit goes on, writes its reports and exits with 141."""
    class HeadOne(io.StringIO):
        def write(self, text):
            if "\n" in self.getvalue():
                raise BrokenPipeError(32, "Broken pipe")
            super().write(text.split("\n", 1)[0] + "\n" if "\n" in text else text)  # (head keeps one line)
            return len(text)

    stream = HeadOne()
    monkeypatch.setattr(sys, "stdout", stream)
    monkeypatch.setattr(sys, "stderr", stream)
    out = tmp_path / "out"
    # two cheap claims at 20 digits (the pipeline test audits RDP-P6 and RDP-P5-KL at 50): what matters is that the
    # second progress line and everything after it meet a reader that left
    code = cli.main(["audit", "RDP-GAUSS-NODP", "RDP-P4-CHAIN", "--dps", "20", "--no-pdf", "--out", str(out)])
    assert code == 141 and stream.getvalue().count("\n") == 1
    assert (out / "audit-subset.json").is_file() and (out / "appendix-rdp-subset.tex").is_file()
    doc = json.loads((out / "audit-subset.json").read_text())
    assert {c["id"] for c in doc["claims"]} == {"RDP-GAUSS-NODP", "RDP-P4-CHAIN"}


def test_sys_exit_in_a_user_module_is_that_papers_error(tmp_path, capsys):
    """Before: a ``--path`` module calling ``sys.exit(0)`` ended the command with exit 0 and nothing printed."""
    root = _paper(tmp_path, "quits", "import sys\nsys.exit(0)\n")
    out = _main(capsys, "--path", str(root), "list")
    assert out.returncode == 0 and "CBDP-T9" in out.stdout
    (line,) = out.stderr.strip().splitlines()
    assert "claims.py" in line and "sys.exit(0)" in line


def test_sys_exit_in_a_claims_code_is_an_error(tmp_path, capsys):
    """Before: ``eval`` of a claim whose derivation calls ``sys.exit(0)`` ended with exit 0 and nothing printed."""
    root = _paper(tmp_path / "papers", "ex", "import sys\n" + _claim("EX-1", derive="lambda: sys.exit(0)"))
    out = _main(capsys, "--path", str(root), "eval", "EX-1", "--at", "x=2")
    assert out.returncode == 2 and "sys.exit(0)" in out.stderr


def test_a_result_that_cannot_be_rendered_is_that_claims_error(tmp_path, capsys):
    """Before: a derivation returning ``object()`` or an integer of more than 4,300 digits crashed the rendering:
    a traceback, no report at all."""
    body = (_claim("BAD-OBJ", derive="lambda: object()", numeric="None")
            + _claim("BAD-BIG", derive="lambda: 10**5000 + 0 * x", claimed="lambda: 10**5000", numeric="None")
            + _claim("BAD-GOOD"))
    root = _paper(tmp_path / "papers", "bad", body)
    out_dir = tmp_path / "out"
    out = _main(capsys, "--path", str(root), "audit", "BAD-OBJ", "BAD-BIG", "BAD-GOOD", "--no-pdf", "--out",
                str(out_dir))
    assert out.returncode == 0 and "Traceback" not in out.stderr
    doc = json.loads((out_dir / "audit-subset.json").read_text())
    by = {c["id"]: c for c in doc["claims"]}
    assert by["BAD-OBJ"]["status"] == by["BAD-BIG"]["status"] == "error"
    assert "cannot be rendered" in by["BAD-OBJ"]["message"] and "4300" in by["BAD-BIG"]["message"]
    assert by["BAD-GOOD"]["status"] == "verified"
    assert (out_dir / "supplement-bad-subset.tex").is_file()


# == user LaTeX by allow-list =====================================================================================
@pytest.mark.parametrize("statement,why", [
    (r"x \pdfcatalog{/OpenAction << /S /JavaScript /JS (app.alert(1)) >>}", r"\pdfcatalog"),
    (r"x \pdfannot{/Subtype /Launch}", r"\pdfannot"),
    (r"x \end{aligned}\enddocument", r"\end{aligned}"),
    (r"x \stop", r"\stop"),
    (r"\begin{input}{/etc/hostname}\end{input}", "input is not an allowed environment"),
    (r"x \@@input /etc/hostname", r"\@@input"),
    (r"\loop\iftrue\repeat", r"\loop"),
    (r"x \begin{cases} 1 ", "without its"),
    ("x } \\\\", "closing brace"),
])
def test_latex_outside_the_allow_list_is_refused_naming_the_claim(tmp_path, capsys, statement, why):
    """Before (a blocklist): ``\\pdfcatalog`` (JavaScript on open) and ``\\pdfannot`` (launch) reached the PDF,
    ``\\end{align*}\\enddocument`` and ``\\stop`` truncated it, ``\\begin{input}``, ``\\@@input`` and ``\\loop``
    passed."""
    root = _paper(tmp_path, "tex", _claim("TEX-1", statement=repr(statement)))
    out = _main(capsys, "--path", str(root), "list")
    assert out.returncode == 0 and "TEX-1" not in out.stdout
    (line,) = out.stderr.strip().splitlines()
    assert "TEX-1" in line and "statement" in line and why in line


def test_ansi_escapes_never_reach_the_terminal(tmp_path, capsys):
    """Before: ANSI escapes in a label or an argument were printed raw."""
    root = _paper(tmp_path, "ansi", _claim("ANSI-1", label="red \x1b[31m label"))
    out = _main(capsys, "--path", str(root), "list")
    assert "\x1b" not in out.stdout + out.stderr and "ANSI-1" in out.stderr
    out = _main(capsys, "eval", "CBDP-T9\x1b[2J", "--at", "eps=1")
    assert out.returncode == 2 and "\x1b" not in out.stderr and "\\x1b" in out.stderr


def test_latex_runs_under_the_audits_timeout(tmp_path, monkeypatch, capsys):
    """Before: LaTeX ignored ``--timeout`` (a loop ran 300 s)."""
    import cbdp_sym.app.audit as audit

    seen = []

    def build(tex, epoch=None, timeout=None):
        seen.append(timeout)
        return True, [], "", False

    monkeypatch.setattr(audit, "build_pdf_if_changed", build)
    monkeypatch.setattr(audit, "latexmk_available", lambda: True)
    # (a claim of 0.1 s: the PDF step, not the claim, is under test; RDP-P6 spent 2 s on its audit here)
    out = _main(capsys, "audit", "RDP-GAUSS-NODP", "--out", str(tmp_path), "--timeout", "7")
    assert out.returncode == 0 and seen and set(seen) == {7.0}


def _empty_lists(tex: str) -> list[str]:
    """The ``itemize`` / ``enumerate`` environments of ``tex`` without an ``\\item`` (LaTeX stops on them)."""
    import re

    return re.findall(r"\\begin\{(itemize|enumerate)\}(?:(?!\\item\b|\\end\{\1\}).)*\\end\{\1\}", tex, re.S)


def test_an_empty_conventions_list_writes_no_empty_list(tmp_path, capsys):
    """The fast form of the compile below (in this process, no LaTeX): with ``PAPER["conventions"] = []`` the
    supplement has no list without an item (an empty itemize is what stopped its compile)."""
    assert _empty_lists("a \\begin{itemize}\n\\end{itemize} b") == ["itemize"]  # (the check can fail)
    assert _empty_lists("\\begin{itemize}\n  \\item x\n\\end{itemize}") == []
    root = _paper(tmp_path / "papers", "noconv", _claim("NOCONV-1"), paper_extra=", 'conventions': []")
    out = _main(capsys, "--path", str(root), "audit", "NOCONV-1", "--out", str(tmp_path / "out"), "--no-pdf")
    assert out.returncode == 0, out.stderr
    for name in ("supplement-noconv-subset-body.tex", "appendix-noconv-subset-body.tex"):
        assert _empty_lists((tmp_path / "out" / name).read_text()) == [], name


@pytest.mark.slow
@pytest.mark.acceptance
@pytest.mark.tex
def test_an_empty_conventions_list_still_compiles(tmp_path, capsys):
    """Before: ``PAPER["conventions"] = []`` made the supplement fail to compile (an empty itemize).  A TeX compile of
    the whole supplement (about 2.3 CPU-s): an acceptance test, run by CI's ``-m acceptance`` step; the fast form
    above checks the written source."""
    from cbdp_sym.report.latex import latexmk_available

    if not latexmk_available():
        if tex_required():
            pytest.fail("CI=true but latexmk/pdflatex is missing")
        pytest.skip("latexmk not installed")
    root = _paper(tmp_path / "papers", "noconv", _claim("NOCONV-1"), paper_extra=", 'conventions': []")
    out = _main(capsys, "--path", str(root), "audit", "NOCONV-1", "--out", str(tmp_path / "out"), "--strict")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "out" / "supplement-noconv-subset.pdf").is_file()


# == limits everywhere ============================================================================================
def test_a_claim_that_allocates_without_end_fails_alone(tmp_path, capsys):
    """Before: no memory limit per claim (3 GB allocated)."""
    body = _claim("MEM-HOG", derive="lambda: (bytes(4 << 30), x)[1]") + _claim("MEM-OK")  # (4 GB, zero pages)
    root = _paper(tmp_path / "papers", "mem", body)
    out = _main(capsys, "--path", str(root), "audit", "MEM-HOG", "MEM-OK", "--no-pdf", "--out", str(tmp_path / "o"),
                "--memory-limit", "2G")
    assert out.returncode == 0
    doc = {c["id"]: c for c in json.loads((tmp_path / "o" / "audit-subset.json").read_text())["claims"]}
    assert doc["MEM-HOG"]["status"] == "error" and "out of memory" in doc["MEM-HOG"]["message"]
    assert doc["MEM-OK"]["status"] == "verified"


@pytest.mark.slow
@pytest.mark.acceptance
def test_a_module_that_loops_at_import_is_stopped_at_the_timeout(tmp_path):
    """Before: a ``--path`` module looping at import ignored ``--timeout`` (the command never ended)."""
    _paper(tmp_path, "loops", "while True:\n    pass\n")
    _paper(tmp_path, "ok", _claim("OK-1"))
    # a 3 s limit (10 s before): the looping import burns a core until the limit, and 3 s still leaves the other
    # paper's import (SymPy and the engine are already imported by then) ample room on a loaded machine
    t0 = time.monotonic()
    proc = _cli("--path", str(tmp_path), "eval", "OK-1", "--at", "x=2", "--timeout", "3", timeout=120)
    assert time.monotonic() - t0 < 90
    assert proc.returncode == 0 and "OK-1" in proc.stdout  # (the other paper works; the looping one is set aside)
    (line,) = proc.stderr.strip().splitlines()
    assert "loops" in line and "did not finish within 3 s" in line


def _processes_with(marker: str) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError):
                if marker in (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                    out.append(int(d.name))
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_a_forking_claim_leaves_no_orphan(tmp_path, capsys):
    """Before: a claim that started a process left it running after the audit (an orphan)."""
    marker = f"{time.time_ns() % 10**6}.25"  # `sleep 3600.<n>.25` is ours alone
    body = ("import subprocess\n"
            + _claim("FORK-1", derive=f"lambda: (subprocess.Popen(['sleep', '3{marker}']), x)[1]"))
    root = _paper(tmp_path / "papers", "fork", body)
    try:
        out = _main(capsys, "--path", str(root), "audit", "FORK-1", "--no-pdf", "--out", str(tmp_path / "o"))
        assert out.returncode == 0
        time.sleep(0.5)
        assert _processes_with(f"sleep 3{marker}") == []
    finally:
        for pid in _processes_with(f"sleep 3{marker}"):
            with contextlib.suppress(OSError):
                os.kill(pid, 9)


def test_scheduler_garbage_is_one_line(capsys):
    """Before: ``--scheduler garbage`` ended in a ValueError traceback."""
    pytest.importorskip("distributed")
    out = _main(capsys, "audit", "RDP-P6", "--scheduler", "garbage", "--no-pdf", "--out", "/nonexistent-never-made")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert "not a Dask scheduler's address" in line


def test_an_ascii_only_stdout_gets_escapes_not_a_traceback():
    """Before: ``show`` on an ASCII-only stdout ended in a UnicodeEncodeError traceback."""
    proc = _cli("show", "RDP-P6", env={"PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr and "RDP-P6" in proc.stdout


def test_a_300_character_paper_key_is_one_line(tmp_path, capsys):
    """Before: ``new`` with a 300-character key ended in an OSError traceback (file name too long)."""
    out = _main(capsys, "new", "a" * 300, "--path", str(tmp_path))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1 and "at most 64" in out.stderr


def test_error_lines_are_short(capsys):
    """Before: an error echoing a 100 KB argument printed a 100 KB line."""
    out = _main(capsys, "eval", "X" * 100_000, "--at", "eps=1")
    assert out.returncode == 2
    (line,) = out.stderr.strip().splitlines()
    assert len(line) < 600 and "more characters" in line


def test_a_parameter_given_twice_is_refused(capsys):
    """Before: ``--at eps=1 --at eps=2`` silently took the last."""
    out = _main(capsys, "eval", "CBDP-T8", "--at", "eps=1", "--at", "eps=2")
    assert out.returncode == 2 and "given twice" in out.stderr


def test_a_claim_named_twice_is_audited_once(tmp_path, capsys):
    """Before: ``audit RDP-P6 rdp-p6`` audited the claim twice (two rows, twice the work)."""
    out = _main(capsys, "audit", "RDP-P6", "rdp-p6", "--no-pdf", "--out", str(tmp_path))
    assert out.returncode == 0 and "named twice" in out.stderr
    doc = json.loads((tmp_path / "audit-subset.json").read_text())
    assert [c["id"] for c in doc["claims"]] == ["RDP-P6"]


@pytest.mark.slow
@pytest.mark.acceptance
@pytest.mark.tex
def test_sigterm_during_latex_removes_its_temporary_folder(tmp_path):
    """Before: SIGTERM during LaTeX left the build's temporary folder (and pdflatex) behind."""
    import signal
    import tempfile

    from cbdp_sym.report.latex import latexmk_available

    if not latexmk_available():
        if tex_required():
            pytest.fail("CI=true but latexmk/pdflatex is missing")
        pytest.skip("latexmk not installed")
    tex = tmp_path / "a.tex"
    tex.write_text("\\documentclass{article}\n\\begin{document}\n"
                   "\\loop\\ifnum\\count255<400000 \\advance\\count255 by 1 \\the\\count255\\newpage\\repeat\n"
                   "\\end{document}\n")
    code = ("from pathlib import Path; from cbdp_sym.report.latex import compile_pdf; "
            f"compile_pdf(Path({str(tex)!r}), '0')")
    tmpdir = Path(tempfile.gettempdir())
    before = set(tmpdir.glob("cbdp-sym-latex-*"))
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, start_new_session=True)
    build = None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and build is None:
        time.sleep(0.2)
        new = set(tmpdir.glob("cbdp-sym-latex-*")) - before
        build = next((d for d in new if (d / "a.log").exists()), None)
    try:
        assert build is not None, "LaTeX never started"
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=30)
        time.sleep(1.0)
        assert not build.exists()
        assert _processes_with(str(build)) == []
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        if build is not None:
            import shutil

            shutil.rmtree(build, ignore_errors=True)


# == issue 30: robust user folders ================================================================================
def test_a_checkout_beside_the_papers_is_never_imported(tmp_path, capsys):
    """Before: ``--path`` at a folder holding a checkout imported its ``setup.py`` as a paper (and ran it)."""
    marker = tmp_path / "SETUP-RAN"
    checkout = tmp_path / "cbdp-sym"
    checkout.mkdir()
    (checkout / "setup.py").write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit(1)\n")
    (tmp_path / "venv").mkdir()
    (tmp_path / "venv" / "activate_this.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    _paper(tmp_path, "mine", _claim("MINE-1"))
    out = _main(capsys, "--path", str(tmp_path), "list")
    assert out.returncode == 0 and "MINE-1" in out.stdout and out.stderr == ""
    assert not marker.exists()


def test_a_broken_paper_is_one_line_and_the_others_work(tmp_path, capsys):
    _paper(tmp_path, "good", _claim("GOOD-1"))
    _paper(tmp_path, "broken", "1 / 0\n")
    out = _main(capsys, "--path", str(tmp_path), "list")
    assert out.returncode == 0 and "GOOD-1" in out.stdout
    (line,) = out.stderr.strip().splitlines()
    assert "broken" in line and "ZeroDivisionError" in line
    ok = _main(capsys, "--path", str(tmp_path), "eval", "GOOD-1", "--at", "x=2")
    assert ok.returncode == 0 and "GOOD-1" in ok.stdout


def test_a_constraint_that_is_false_refuses_the_point(tmp_path, capsys):
    """Before: a ``constraint`` returning False was ignored (only raising worked)."""
    root = _paper(tmp_path, "con", _claim("CON-1", constraint="lambda v: v['x'] > 1"))
    out = _main(capsys, "--path", str(root), "eval", "CON-1", "--at", "x=1/2")
    assert out.returncode == 2
    (line,) = out.stderr.strip().splitlines()
    assert "CON-1" in line and "constraint" in line
    assert _main(capsys, "--path", str(root), "eval", "CON-1", "--at", "x=2").returncode == 0
    bad = _paper(tmp_path / "b", "con2", _claim("CON2-1", constraint="lambda v: 'yes'"))
    out = _main(capsys, "--path", str(bad), "eval", "CON2-1", "--at", "x=2")
    assert out.returncode == 2 and "True or False" in out.stderr


def test_global_options_after_the_command(tmp_path, capsys):
    """Before: ``cbdp-sym new demo --path DIR`` was refused (only ``cbdp-sym --path DIR new demo`` worked)."""
    out = _main(capsys, "new", "demo", "--path", str(tmp_path))
    assert out.returncode == 0 and (tmp_path / "demo" / "claims.py").is_file()
    out = _main(capsys, "list", "--path", str(tmp_path))
    assert out.returncode == 0 and "DEMO-T1" in out.stdout
    out = _main(capsys, "--path", str(tmp_path), "list", "--no-cache")
    assert out.returncode == 0 and "DEMO-T1" in out.stdout
    store.set_enabled(True)
