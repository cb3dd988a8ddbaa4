"""Issue 19: time limits enforced from outside the work; check before computing; atomic writes; a lock."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cbdp_sym.app.cli as cli
from cbdp_sym.core.errors import DerivationTimeout
from cbdp_sym.core.timelimit import TimeLimitExceeded, time_limit

ROOT = Path(__file__).resolve().parent.parent

PAPER = '''
import time
import mpmath as mp
import sympy as sp
from cbdp_sym import Claim

def _swallow():
    t0 = time.monotonic()
    while time.monotonic() - t0 < 15:
        try:
            time.sleep(0.05)
        except Exception:  # what the engine's fallbacks do
            pass
    return sp.Integer(1)

def _swallow_all():
    t0 = time.monotonic()
    while time.monotonic() - t0 < 15:
        try:
            time.sleep(0.05)
        except BaseException:  # noqa - even this cannot outlive the limit
            pass
    return sp.Integer(1)

def _slow_numeric(v):
    time.sleep(20)
    return mp.mpf(1)

SWALLOW = Claim(id="LIM-SWALLOW", paper="lim", label="swallows Exception", kind="identity", statement="1",
                derive=_swallow, claimed=lambda: sp.Integer(1), numeric=lambda v: mp.mpf(1), timeout=2)
SWALLOW_ALL = Claim(id="LIM-SWALLOW-ALL", paper="lim", label="swallows BaseException", kind="identity",
                    statement="1", derive=_swallow_all, claimed=lambda: sp.Integer(1),
                    numeric=lambda v: mp.mpf(1), timeout=2)
SLOWNUM = Claim(id="LIM-SLOWNUM", paper="lim", label="slow numerics", kind="identity", statement="1",
                derive=lambda: sp.Integer(1), claimed=lambda: sp.Integer(1), numeric=_slow_numeric)
FINE = Claim(id="LIM-FINE", paper="lim", label="fine", kind="identity", statement="1",
             derive=lambda: sp.Integer(1), claimed=lambda: sp.Integer(1), numeric=lambda v: mp.mpf(1))
'''


@pytest.fixture
def lim_root(tmp_path):
    d = tmp_path / "root" / "lim"
    d.mkdir(parents=True)
    (d / "_paper.py").write_text("PAPER = {'key': 'lim', 'title': 'Limits'}\n")
    (d / "claims.py").write_text(PAPER)
    return d.parent


def _cli(*args, timeout=120):
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run([sys.executable, "-m", "cbdp_sym", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_timeout_is_not_an_exception():
    assert not issubclass(TimeLimitExceeded, Exception)
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.2, "test", hard=True):
            t0 = time.monotonic()
            while time.monotonic() - t0 < 5:
                try:
                    time.sleep(0.01)
                except Exception:
                    pass


def test_nested_limits():
    """An ordinary limit nests inside another ordinary one; inside a hard limit it is off (the hard one
    governs).  Run in a child: pytest-timeout's own timer switches ordinary limits off in this process."""
    code = (
        "import time\n"
        "from cbdp_sym.core.timelimit import time_limit\n"
        "from cbdp_sym.core.errors import DerivationTimeout\n"
        "t0 = time.monotonic()\n"
        "with time_limit(10, 'outer'):\n"
        "    try:\n"
        "        with time_limit(0.2, 'inner'):\n"
        "            time.sleep(3)\n"
        "    except DerivationTimeout:\n"
        "        print('inner fired', time.monotonic() - t0 < 2.5)\n"
        "with time_limit(1.5, 'claim', hard=True):\n"
        "    with time_limit(0.2, 'inner'):\n"
        "        time.sleep(0.5)\n"
        "    print('inner off under a hard limit')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.split("\n")[:2] == ["inner fired True", "inner off under a hard limit"], out.stderr


def test_swallowed_timeouts_end_inconclusive_and_the_audit_goes_on(lim_root, tmp_path):
    """Before: a claim with a 2 s limit whose code swallows the timeout finished `verified` after 15 s."""
    out = tmp_path / "out"
    t0 = time.monotonic()
    run = _cli("--path", str(lim_root), "audit", "LIM-SWALLOW", "LIM-SWALLOW-ALL", "LIM-SLOWNUM", "LIM-FINE",
               "--no-pdf", "--out", str(out), "--timeout", "4", "--jobs", "2")
    elapsed = time.monotonic() - t0
    assert run.returncode == 0, run.stderr
    got = {c["id"]: c for c in json.loads((out / "audit-subset.json").read_text())["claims"]}
    assert got["LIM-SWALLOW"]["status"] == "inconclusive"
    assert got["LIM-SWALLOW"]["message"].startswith("timeout in derivation")
    assert got["LIM-SWALLOW-ALL"]["status"] == "inconclusive"
    assert got["LIM-SWALLOW-ALL"]["message"].startswith("timeout in derivation")
    assert got["LIM-SLOWNUM"]["status"] == "inconclusive"
    assert got["LIM-SLOWNUM"]["message"] == "timeout in numerics (limit 4 s)"
    assert got["LIM-FINE"]["status"] == "verified"
    assert elapsed < 60  # not 15 s per swallowing claim plus 20 s of numerics, serially


def test_workers_die_with_the_parent(lim_root, tmp_path):
    """Before: after `kill -9` of the audit, pool workers kept computing."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.Popen([sys.executable, "-m", "cbdp_sym", "--path", str(lim_root), "audit", "LIM-SLOWNUM",
                             "LIM-FINE", "--no-pdf", "--out", str(tmp_path / "o"), "--jobs", "2"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not children:
        time.sleep(0.2)
        try:
            children = [int(p) for t in Path(f"/proc/{proc.pid}/task").iterdir()
                        for p in (t / "children").read_text().split()]
        except OSError:
            pass
    assert children, "no worker started"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    alive = children
    while time.monotonic() < deadline and alive:
        time.sleep(0.2)
        alive = [c for c in children if Path(f"/proc/{c}").exists()
                 and "Z" not in Path(f"/proc/{c}/stat").read_text().split(")")[-1].split()[0]]
    assert not alive


def test_eval_and_restricted_have_a_time_limit():
    t0 = time.monotonic()
    run = _cli("restricted", "alpha", "poly8", "--P", "laplace(0,1)", "--Q", "laplace(1,1)", "--alpha", "3",
               "--timeout", "2")
    assert time.monotonic() - t0 < 30
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "time limit" in lines[0] and "Traceback" not in run.stderr


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_bad_timeout_is_refused(value):
    assert cli.main(["eval", "RDP-P6", "--at", "alpha=2", "--at", "lam=1", "--timeout", value]) == 2


# -- check before computing, write atomically, one audit per folder ----------------------------------
@pytest.fixture
def no_work(monkeypatch):
    import cbdp_sym.app.audit as audit

    def boom(*a, **k):
        raise AssertionError("work started before the output paths were checked")

    monkeypatch.setattr(audit, "run", boom)


def test_bad_out_fails_before_any_work(tmp_path, no_work, capsys):
    """Before: `--out FILE` was checked after the whole computation (a traceback; results lost)."""
    f = tmp_path / "a-file"
    f.write_text("x")
    assert cli.main(["audit", "RDP-P6", "--out", str(f)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert cli.main(["audit", "RDP-P6", "--out", str(f / "sub")]) == 2
    assert cli.main(["audit", "RDP-P6", "--out", str(tmp_path / "ok"), "--json", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert cli.main(["audit", "RDP-P6", "--out", str(tmp_path), "--jobs", "0"]) == 2


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write into a read-only folder")
def test_read_only_out_fails_before_any_work(tmp_path, no_work, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        assert cli.main(["audit", "RDP-P6", "--out", str(ro)]) == 2
        assert "not writable" in capsys.readouterr().err
    finally:
        ro.chmod(0o700)


def test_second_audit_into_a_locked_folder_is_refused(tmp_path, capsys, monkeypatch):
    from cbdp_sym.report.outputs import folder_lock

    import cbdp_sym.app.audit as audit

    monkeypatch.setattr(audit, "run", lambda *a, **k: pytest.fail("ran while the folder was locked"))
    with folder_lock(tmp_path):
        code = subprocess.run([sys.executable, "-m", "cbdp_sym", "audit", "RDP-P6", "--no-pdf", "--out",
                               str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert code.returncode == 2 and "another audit is writing" in code.stderr
    assert "Traceback" not in code.stderr


def test_write_atomic_never_leaves_a_truncated_file(tmp_path, monkeypatch):
    import cbdp_sym.report.outputs as outputs
    from cbdp_sym.core.errors import CbdpError

    target = tmp_path / "a.tex"
    target.write_text("old complete text")
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[:5])
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    with pytest.raises(CbdpError, match="No space left"):
        outputs.write_atomic(target, "new text " * 100)
    assert target.read_text() == "old complete text"
    assert [p.name for p in tmp_path.iterdir()] == ["a.tex"]


def test_figure_phase_is_stopped_at_its_limit(monkeypatch, tmp_path):
    """Before: the figures' precomputation had no limit."""
    import mpmath as mp

    import cbdp_sym.core.store as store
    from cbdp_sym.app.executor import precompute
    from cbdp_sym.verify.figures import Curve, Figure

    def slow(x):
        if x == "2":
            time.sleep(60)
        return mp.mpf(x)

    monkeypatch.setattr(store, "_ENABLED", [False])
    fig = Figure("LIM-FIG", "lim", "t", "c", "x", "y", ("1", "2"), [Curve("y", "y", slow)])
    t0 = time.monotonic()
    precompute([fig], jobs=2, limit=3)
    assert time.monotonic() - t0 < 20
    assert ("y", "1") in fig._memo and ("y", "2") not in fig._memo
    # the reports are written after the limit: they leave the point out (nan), they do not compute it unlimited
    from cbdp_sym.report.latex import _figure_view

    t0 = time.monotonic()
    text = fig.csv(compute=False)
    view = _figure_view(fig)
    assert time.monotonic() - t0 < 5
    assert "# 1 point(s) not computed within the audit's limits: nan" in text and "\n2,nan\n" in text
    assert "\n1,1.0\n" in text
    assert view["curves"][0]["coords"] == "(1,1.0)" and "1 point not computed" in view["caption"]
    assert fig.missing() == 1
