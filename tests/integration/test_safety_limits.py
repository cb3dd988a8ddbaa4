"""Issue 19: time limits enforced from outside the work; check before computing; atomic writes; a lock."""
import os
import subprocess
import sys
import time

import pytest

import cbdp_sym.app.cli as cli
from ..conftest import ROOT


def _cli(*args, timeout=120):
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run([sys.executable, "-m", "cbdp_sym", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


# -- check before computing, write atomically, one audit per folder ----------------------------------
@pytest.fixture
def no_work(monkeypatch):
    import cbdp_sym.app.audit as audit

    def boom(*a, **k):
        raise AssertionError("work started before the output paths were checked")

    monkeypatch.setattr(audit, "run", boom)


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
