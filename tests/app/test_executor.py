"""Issue 18: the audit runs on local processes or on a Dask cluster, with the same results."""
import json
import os
import pickle
import subprocess
import sys
import time

import pytest

import cbdp_sym.app.cli as cli
from cbdp_sym.core.errors import CbdpError
from cbdp_sym.app.executor import LocalExecutor, _roots_for, make_executor

from ..conftest import ROOT


PAPER = '''
import os
import time
import mpmath as mp
import sympy as sp
from cbdp_sym import Claim
from cbdp_sym.families import Curve, Figure

def _count(x):
    with open(os.environ["EXEC_TEST_LOG"], "a") as f:  # one line per computed point
        f.write(x + "\\n")
    return mp.mpf(x) ** 2

FIG = Figure("EX-FIG", "ex", "squares", "", "x", "y", ("1", "2", "3"), [Curve("y", "y", _count)])

def _spin():
    t0 = time.monotonic()
    while time.monotonic() - t0 < 15:
        try:
            time.sleep(0.05)
        except Exception:  # a fallback that swallows the timeout
            pass
    return sp.Integer(1)

def _slow(v):
    time.sleep(20)
    return mp.mpf(1)

FIGSUM = Claim(id="EX-FIGSUM", paper="ex", label="reads a figure", kind="identity", statement="14",
               derive=lambda: sp.Integer(14), claimed=lambda: sp.Integer(14),
               numeric=lambda v: sum(y for _, y in FIG.data()["y"]), figures=(FIG,))
WRONG = Claim(id="EX-WRONG", paper="ex", label="refuted", kind="identity", statement="15",
              derive=lambda: sp.Integer(14), claimed=lambda: sp.Integer(15),
              numeric=lambda v: sum(y for _, y in FIG.data()["y"]), figures=(FIG,))
SPIN = Claim(id="EX-SPIN", paper="ex", label="slow derivation", kind="identity", statement="1",
             derive=_spin, claimed=lambda: sp.Integer(1), numeric=lambda v: mp.mpf(1), timeout=1)
def _sleepy(x):
    if x == "2":
        time.sleep(8)  # beyond --timeout 4 (and the report computes it again: keep it short)
    return mp.mpf(x)

SLOWFIG = Figure("EX-SLOWFIG", "ex", "slow points", "", "x", "y", ("1", "2"), [Curve("y", "y", _sleepy)])
FIGSLOW = Claim(id="EX-FIGSLOW", paper="ex", label="reads a slow figure", kind="identity", statement="3",
                derive=lambda: sp.Integer(3), claimed=lambda: sp.Integer(3),
                numeric=lambda v: sum(y for _, y in SLOWFIG.data()["y"]), figures=(SLOWFIG,))
SLOW = Claim(id="EX-SLOW", paper="ex", label="slow numerics", kind="identity", statement="1",
             derive=lambda: sp.Integer(1), claimed=lambda: sp.Integer(1), numeric=_slow)
'''


@pytest.fixture
def ex_root(tmp_path):
    d = tmp_path / "root" / "ex"
    d.mkdir(parents=True)
    (d / "_paper.py").write_text("PAPER = {'key': 'ex', 'title': 'Executors'}\n")
    (d / "claims.py").write_text(PAPER)
    return d.parent


def _cli(*args, env=None, timeout=300):
    env = dict(os.environ, PYTHONHASHSEED="0", **(env or {}))
    return subprocess.run([sys.executable, "-m", "cbdp_sym", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _have_dask():
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


# in CI (the test extra installs Dask) a missing Dask fails the tests instead of skipping them
_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
needs_dask = pytest.mark.skipif(not _have_dask() and not _CI,
                                reason="dask.distributed is not installed (pip install 'cbdp-sym[dask]')")


def test_missing_dask_is_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    assert cli.main(["audit", "ZCDP-L4.3", "--scheduler", "local", "--no-pdf", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("cbdp-sym: error: --scheduler needs Dask: pip install 'cbdp-sym[dask]'")
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_empty_scheduler_is_refused(tmp_path, capsys):
    assert cli.main(["audit", "ZCDP-L4.3", "--scheduler", " ", "--no-pdf", "--out", str(tmp_path / "o")]) == 2
    assert "--scheduler needs a Dask scheduler's address" in capsys.readouterr().err


def test_default_is_the_local_pool():
    assert isinstance(make_executor(None, 3), LocalExecutor) and make_executor(None, 3).jobs == 3
    ex = LocalExecutor(2)
    assert make_executor(ex) is ex


def test_claims_are_sent_by_id_with_their_folder(registry, ex_root):
    from cbdp_sym import Claim
    from cbdp_sym.app.registry import Registry

    assert _roots_for([registry.get("ZCDP-L4.3")]) == ()  # the built-in root: every worker has it
    mine = Registry([ex_root])
    assert _roots_for([mine.get("EX-FIGSUM"), mine.get("ZCDP-L4.3")]) == (str(ex_root.resolve()),)
    assert _roots_for(mine.get("EX-FIGSUM").figures) == (str(ex_root.resolve()),)
    loose = Claim(id="LOOSE-1", paper="x", label="made here", kind="identity", statement="1",
                  derive=lambda: 1, claimed=lambda: 1)
    with pytest.raises(CbdpError, match="LOOSE-1 was not loaded from a derivations folder"):
        _roots_for([loose])


def test_a_detached_result_travels_as_data(registry):
    """What a Dask worker sends back: the Result without its claim (closures), picklable."""
    from cbdp_sym.app.audit import _audit_detached

    res = _audit_detached((registry.get("ZCDP-PA.1-V"), 20))
    back = pickle.loads(pickle.dumps(res))
    assert back.claim is None and back.status == res.status == "refuted"
    assert back.message == res.message


def _both(ex_root, tmp_path, ids, *args):
    """Audit ``ids`` of the test folder on local processes and on a LocalCluster (no cache): the two JSON texts."""
    outs = {}
    # (one Dask worker: it starts faster, and the number of workers does not change the reports either)
    for name, extra in (("local", ["--jobs", "2"]), ("dask", ["--scheduler", "local", "--jobs", "1"])):
        log = tmp_path / f"{name}.log"
        run = _cli("--path", str(ex_root), "audit", *ids, "--no-pdf", "--no-cache", "--out", str(tmp_path / name),
                   *args, *extra, env={"EXEC_TEST_LOG": str(log)})
        assert run.returncode == 0, run.stderr
        outs[name] = (tmp_path / name / "audit-subset.json").read_bytes()
        if any(i in ("EX-FIGSUM", "EX-WRONG") for i in ids):
            assert sorted(log.read_text().split()) == ["1", "2", "3"]  # each point once, in the figure phase
    return outs


@pytest.mark.slow
@pytest.mark.acceptance
@needs_dask
def test_local_cluster_gives_the_same_audit(ex_root, tmp_path):
    """Figures computed once on the workers and passed to the claims; a refutation; a derivation stopped at the
    claim's own limit: the same audit.json as local processes, byte for byte."""
    outs = _both(ex_root, tmp_path, ["EX-FIGSUM", "EX-WRONG", "EX-SPIN"])
    got = {c["id"]: c for c in json.loads(outs["dask"])["claims"]}
    assert got["EX-FIGSUM"]["status"] == "verified"
    assert got["EX-WRONG"]["status"] == "refuted"
    assert got["EX-SPIN"]["status"] == "inconclusive"
    assert got["EX-SPIN"]["message"].startswith("timeout in derivation")
    assert outs["dask"] == outs["local"]


@needs_dask
@pytest.mark.slow
def test_local_cluster_stops_a_claim_at_the_timeout(ex_root, tmp_path):
    """--timeout stops a claim's numerics, and the figure phase (whose point left is then the claim's to compute,
    under its own limit), on both executors alike."""
    outs = _both(ex_root, tmp_path, ["EX-SLOW", "EX-FIGSLOW"], "--timeout", "4")
    got = {c["id"]: c for c in json.loads(outs["dask"])["claims"]}
    assert got["EX-SLOW"]["status"] == "inconclusive"
    assert got["EX-SLOW"]["message"] == "timeout in numerics (limit 4 s)"
    assert got["EX-FIGSLOW"]["status"] == "inconclusive"
    assert got["EX-FIGSLOW"]["message"].startswith("timeout in ") and got["EX-FIGSLOW"]["message"].endswith("(limit 4 s)")
    assert outs["dask"] == outs["local"]


@needs_dask
@pytest.mark.slow
def test_local_cluster_audit_json_is_byte_identical(tmp_path):
    """Built-in claims, cold (separate empty caches): a figure claim that is refuted (RDP-FIG2-B, 288 figure
    points), two more refutations and a claim that holds."""
    ids = ["RDP-FIG2-B", "ZCDP-L4.3", "RDP-EQ1-EQ", "RDP-FIG2-A"]
    outs = {}
    for name, extra in (("local", []), ("dask", ["--scheduler", "local"])):
        run = _cli("audit", *ids, "--no-pdf", "--strict", "--out", str(tmp_path / name), "--jobs", "2", *extra,
                   env={"CBDP_SYM_CACHE": str(tmp_path / f"cache-{name}")})
        assert run.returncode == 0, run.stderr
        outs[name] = (tmp_path / name / "audit-subset.json").read_bytes()
    statuses = {c["id"]: c["status"] for c in json.loads(outs["dask"])["claims"]}
    assert statuses == {"RDP-FIG2-B": "refuted", "ZCDP-L4.3": "refuted", "RDP-EQ1-EQ": "refuted",
                        "RDP-FIG2-A": "holds"}
    assert outs["dask"] == outs["local"]


@pytest.mark.slow
@pytest.mark.acceptance
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
    precompute([fig], jobs=2, limit=10)  # (room for point "1" on a loaded machine; point "2" takes 60 s)
    assert time.monotonic() - t0 < 40
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


def test_modules_claims_import_on_first_use_are_loaded_before_the_workers_fork(monkeypatch):
    """A claim's worker finds SymPy's units (imported by ``simplify``) and SciPy's optimiser already loaded, so no
    forked worker imports them again; a missing module is reported, not raised."""
    import cbdp_sym.app.executor as ex

    assert "sympy.physics.units" in ex.PRELOAD and "scipy.optimize" in ex.PRELOAD
    assert ex.preload_modules(("sympy.physics.units", "no_such_module_cbdp")) == ["no_such_module_cbdp"]
    assert "sympy.physics.units" in sys.modules
    import sympy.integrals.meijerint as meijer

    assert meijer._lookup_table  # SymPy's table of Meijer G rewrites, built once here
    seen = []
    monkeypatch.setattr(ex, "preload_modules", lambda names=ex.PRELOAD: seen.append(names) or [])
    from cbdp_sym import Claim

    got = []
    LocalExecutor(1).run_claims(lambda item: item[0].id, [Claim("EX-C", "")], (), 60, lambda i, v: got.append(v),
                                lambda *a: None, lambda *a: None)
    assert got == ["EX-C"] and seen == [ex.PRELOAD]


def test_workers_fork_from_a_frozen_heap_and_the_audit_process_thaws_after():
    """Claim and figure workers are forked with the audit process's objects frozen out of the garbage collector
    (their collections skip the inherited heap); the audit process itself is thawed once they are done."""
    import gc

    import mpmath as mp

    from cbdp_sym import Claim
    from cbdp_sym.families import Curve, Figure
    from cbdp_sym.app.executor import frozen_heap

    gc.unfreeze()
    got = []
    LocalExecutor(2).run_claims(lambda item: gc.get_freeze_count(), [Claim("EX-C", "")], (), 60,
                                lambda i, v: got.append(v), lambda *a: None, lambda *a: None)
    assert got and got[0] > 1000 and gc.get_freeze_count() == 0
    fig = Figure("EX-FIG", "ex", "t", "c", "x", "y", ("1",), [Curve("k", "k", lambda x: mp.mpf(gc.get_freeze_count()))])
    pts = []
    LocalExecutor(2).figure_points([(fig, "k", "1")], None, lambda i, v: pts.append(v))
    assert pts and pts[0] > 1000 and gc.get_freeze_count() == 0
    with frozen_heap():
        assert gc.get_freeze_count() > 1000
        with frozen_heap():  # nested: only the outermost thaws
            pass
        assert gc.get_freeze_count() > 1000
    assert gc.get_freeze_count() == 0
