"""Tests of :mod:`cbdp_sym.app.workers`."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cbdp_sym.app import workers

from ..conftest import ROOT

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


@pytest.mark.slow
@pytest.mark.acceptance
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


@pytest.mark.slow
@pytest.mark.acceptance
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


# the order of a run (issue 18): a claim that reuses another's values waits for it, the others go ahead
needs_fork = pytest.mark.skipif(not workers.available(), reason="needs fork")


def _timed(item):
    name, seconds = item
    start = time.monotonic()
    time.sleep(seconds)
    return name, start, time.monotonic()


def _run(items, jobs, waits=None):
    out = {}
    workers.run_items(_timed, items, jobs, lambda item: (30, None), lambda i, v: out.__setitem__(v[0], v[1:]),
                      lambda *a: pytest.fail(f"timeout {a}"), lambda *a: pytest.fail(f"crash {a}"), waits=waits)
    return out


@needs_fork
def test_waiting_item_starts_after_its_prerequisite_and_others_go_ahead():
    items = [("long", 0.6), ("chain", 0.05), ("short1", 0.05), ("short2", 0.05)]
    out = _run(items, 2, waits={1: {0}})
    assert out["chain"][0] >= out["long"][1]  # started after "long" finished
    # the free worker did not wait: the short items started before "long" finished
    assert out["short1"][0] < out["long"][1] and out["short2"][0] < out["long"][1]


@needs_fork
def test_without_waits_the_same_items_overlap():
    # (what the waits change: the test above could not pass by accident of timing)
    items = [("long", 0.6), ("chain", 0.05), ("short1", 0.05), ("short2", 0.05)]
    out = _run(items, 2)
    assert out["chain"][0] < out["long"][1]


@needs_fork
def test_a_wait_on_an_item_outside_the_run_does_not_stall():
    out = _run([("a", 0.01), ("b", 0.01)], 1, waits={0: {7}})
    assert set(out) == {"a", "b"}
