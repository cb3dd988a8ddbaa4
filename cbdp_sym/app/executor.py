"""Where the work runs: the local process pool (the default) or a Dask cluster.

An executor runs the two kinds of parallel work of an audit: the figures' points
(:func:`precompute`) and the claims (:func:`cbdp_sym.app.audit.run`).  The outcome is the
same whichever executor runs them (the audit's JSON is byte-identical); only where and how fast differs.

* :class:`LocalExecutor` (default): worker processes forked from this one.  Claims run in
  :func:`cbdp_sym.app.workers.run_items` (a fresh fork per claim, stopped from outside at its limits); figure
  points in a fork pool that is stopped at the figure phase's limit.
* :class:`DaskExecutor` (``--scheduler ADDRESS``, or ``--scheduler local`` for a ``LocalCluster`` on this
  machine; needs ``pip install "cbdp-sym[dask]"``).  Claims and figures hold closures (not picklable), so
  a task carries the claim's or figure's ID and the derivation folders it came from; each Dask worker
  process loads the registry once (cached) and looks the ID up.  On the worker, each claim runs exactly as
  in the local pool: in a process forked from the worker (:func:`cbdp_sym.app.workers.run_items` with one
  slot), so no claim sees what an earlier claim left in memory, and the same limits apply with the same
  ``timeout in <phase>`` messages.  Results come back as data (a :class:`~cbdp_sym.verify.engine.Result` with its
  claim detached), and the parent re-attaches the claim.  The figure points the parent holds are sent with
  each claim that reads them (the local pool's workers inherit them by forking).

What differs on Dask: a figure point runs in the worker's thread and cannot be stopped there; at the
figure phase's limit the points not started are cancelled, the ones running finish on their worker (on a
``LocalCluster`` that this process started, its workers are restarted instead), and the points left are
computed by the claims, under their limits, as with the local pool.  The scheduler must be able to import
cbdp-sym (Dask unpickles the tasks there) and the workers must run the same version (checked when connecting) and see every ``--path`` folder at the same path; the on-disk cache is
each worker's own (``CBDP_SYM_CACHE`` in the worker's environment), and ``--no-cache`` is passed on.  Dask's
nanny starts its workers with ``PYTHONHASHSEED=6640`` (it replaces 0): the reports do not depend on the hash
seed (the engine sorts what comes from sets), and the test of byte-identical reports runs the local pool at 0.
"""
from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import logging
import multiprocessing as mproc
import os
import sys
import threading
import time
import uuid
from pathlib import Path

import cbdp_sym.core.store as store

import cbdp_sym.app.workers as workers
from cbdp_sym.core.datastack import on_large_stack
from cbdp_sym.core.errors import CbdpError
from cbdp_sym.core.timelimit import die_with_parent, limit_this_process
from cbdp_sym.divergences.generators import derive_standard_conjugates
from cbdp_sym.divergences.reduction import derive_standard_profiles
from cbdp_sym.verify.engine import audit_claim
from cbdp_sym.app.registry import Registry, builtin_root
from cbdp_sym.verify.claims import Claim

LOCAL = "local"  # --scheduler local: a LocalCluster on this machine

# Modules that claims import on first use, so that every forked worker imported them again: SymPy's ``simplify``
# imports ``sympy.physics.units`` (about 0.15 s, in most claims), the adversarial searches import
# ``scipy.optimize`` (about 0.35 s, with NumPy's and SciPy's submodules).  The process that forks the workers
# imports them once (:func:`preload_modules`); a worker then finds them loaded.  Importing them changes no value.
PRELOAD = ("sympy.physics.units", "scipy.optimize",
           # what SymPy's integrate imports on its first definite integral (about 0.03 s)
           "sympy.integrals.meijerint", "sympy.tensor.array.expressions", "sympy.tensor.array.array_derivatives",
           "sympy.matrices.expressions.applyfunc", "sympy.polys.domains.old_fractionfield",
           "sympy.polys.domains.old_polynomialring")


def preload_modules(names=PRELOAD) -> list:
    """Import ``names`` in this process before it forks workers, and derive the standard generators' conjugates
    (:func:`cbdp_sym.divergences.generators.derive_standard_conjugates`), which most CBDP claims would otherwise
    derive each in its own worker; returns the modules that could not be imported (an optional one may be missing:
    the claim that needs it says so itself)."""
    import importlib

    missing = []
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    derive_standard_conjugates()  # (KL, TV and the alpha-divergence: most CBDP claims use one; 0.1-0.5 s each)
    derive_standard_profiles()  # (the alpha-divergence's, order symbolic: specialised at each numeric order)
    _meijer_table()
    return missing


def _meijer_table() -> None:
    """Build SymPy's table of Meijer G rewrites (``sympy.integrals.meijerint``), which its first definite integral
    builds in every worker (about 0.07 s); the same table, built by SymPy's own function.  (Private to SymPy: if it
    moves, the workers build the table themselves, as before.)"""
    try:
        import sympy.integrals.meijerint as meijer

        if not meijer._lookup_table:
            table: dict = {}
            meijer._create_lookup_table(table)
            meijer._lookup_table = table
    except (ImportError, AttributeError):  # pragma: no cover - another SymPy
        pass


def make_executor(scheduler=None, jobs=None):
    """The executor for ``scheduler``: ``None`` the local process pool; ``"local"`` a Dask ``LocalCluster``
    with ``jobs`` worker processes; an address (``tcp://host:8786``) a running Dask scheduler; an executor
    (or a ``distributed.Client``) is used as it is."""
    if scheduler is None:
        return LocalExecutor(jobs)
    if isinstance(scheduler, (LocalExecutor, DaskExecutor)):
        return scheduler
    return DaskExecutor(scheduler, jobs)


class LocalExecutor:
    """Worker processes forked from this one (the behaviour and limits of every release so far)."""

    name = "local processes"

    def __init__(self, jobs=None):
        self.jobs = jobs or os.cpu_count() or 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        pass

    splits_points = True  # (run_claims takes a claim's numeric instances as items of their own)

    def run_claims(self, fn, claims, args, limit, on_result, on_timeout, on_crash, points=(), on_point=None):
        """Call ``fn((claim, *args))`` for each claim, each in a fresh worker stopped at ``limit`` seconds (and at
        ``claim.timeout`` in its derivation); outcomes go to the callbacks (see :func:`workers.run_items`).

        ``points``: ``[(claim index, item)]``, items of their own (``fn(item)``, a fresh worker each, stopped at
        ``limit``) that run before the claim they belong to, first in the queue; ``on_point(k, value)`` receives
        their values in this process before that claim's worker is forked.  A point that fails or is stopped is
        left to its claim (no callback)."""
        if workers.available():
            preload_modules()
            points = list(points)
            off = len(points)
            work = [item for _ci, item in points] + [(c, *args) for c in claims]
            waits = {off + i: {off + j for j in w} for i, w in claim_waits(claims).items()}
            for k, (ci, _item) in enumerate(points):
                waits.setdefault(off + ci, set()).add(k)

            def result(i, value):
                if i >= off:
                    on_result(i - off, value)
                elif on_point is not None:
                    on_point(i, value)

            with frozen_heap():
                workers.run_items(fn, work, min(self.jobs, max(1, len(work))),
                                  lambda item: (limit, None) if isinstance(item[0], str) else (limit, item[0].timeout),
                                  result, lambda i, ph, sec: i >= off and on_timeout(i - off, ph, sec),
                                  lambda i, msg: i >= off and on_crash(i - off, msg), waits=waits)
        else:  # pragma: no cover - no fork: in-process (the derivation limit still applies)
            for i, c in enumerate(claims):
                on_result(i, audit_claim(c, *args))

    def figure_points(self, todo, limit, on_point):
        """Compute ``fig.point(key, x)`` for each ``(fig, key, x)`` of ``todo``; ``on_point(i, value)`` in completion
        order.  At ``limit`` seconds the workers are stopped and the call returns (points left are not computed)."""
        # always in worker processes where fork exists (also for one job): the audit's own process then
        # holds the same state whatever the number of jobs, and so do the claim workers forked from it
        if "fork" in mproc.get_all_start_methods():
            preload_modules()
            _WORK["jobs"] = todo
            ctx = mproc.get_context("fork")
            deadline = None if limit is None else time.monotonic() + limit
            try:
                with frozen_heap(), ctx.Pool(min(self.jobs, len(todo)), initializer=_pool_worker_init) as pool:  # workers die with the audit
                    it = pool.imap_unordered(_point_worker, range(len(todo)))
                    for _ in range(len(todo)):
                        try:
                            i, val = it.next(None if deadline is None else max(0.0, deadline - time.monotonic()))
                        except mproc.TimeoutError:
                            pool.terminate()  # the figure phase's limit: stopped from outside
                            break
                        on_point(i, val)
            finally:
                _WORK.clear()
        else:  # pragma: no cover - no fork
            for i, (f, k, x) in enumerate(todo):
                on_point(i, f.point(k, x))


@contextlib.contextmanager
def frozen_heap():
    """This process's objects moved out of the garbage collector's reach (``gc.freeze``) while it forks workers, and
    back after.  A worker's collections then skip the inherited heap (SymPy, the registry, the derived
    generators): they neither spend time on it nor touch its pages, which would copy them (copy-on-write).  It
    changes no value: only when the collector looks at what.  Nested (or inside a caller's own ``gc.freeze``),
    only the outermost thaws.  Only the young generations are collected first: a full collection walks the whole heap
    (0.1-0.3 s in a long-lived process such as a test session, per audit), and older garbage frozen with the rest
    stays only until the thaw, when the collector takes it as before."""
    outer = gc.get_freeze_count() > 0
    gc.collect(1)
    gc.freeze()
    try:
        yield
    finally:
        if not outer:
            gc.unfreeze()


def claim_waits(claims) -> dict:
    """``{i: indices}``: claim ``i`` starts once the claims it names in ``Claim.after`` (those in the batch) are done,
    so it reads their values from the cache instead of computing them at the same time.

    >>> from cbdp_sym import Claim
    >>> claim_waits([Claim("A", ""), Claim("A-CHAIN", "", after=("A", "Z"))])
    {1: {0}}
    """
    ids = {c.id: i for i, c in enumerate(claims)}
    out = {}
    for i, c in enumerate(claims):
        w = {ids[a] for a in c.after if a in ids}
        if w:
            out[i] = w
    return out


_WORK: dict = {}  # the figure points of the running precomputation (read by the forked pool workers)


def _pool_worker_init():
    """A figure-point worker: dies with the audit, and computes under the claims' memory limit."""
    die_with_parent()
    limit_this_process(group=False)  # (the pool stops its workers itself)


def _point_worker(i):
    fig, key, x = _WORK["jobs"][i]
    return i, on_large_stack(fig.point, key, x)  # (frames on one large data-stack chunk: core/datastack.py)


# -- Dask --------------------------------------------------------------------------------------------
def _distributed():
    try:
        import distributed
    except ImportError:
        raise CbdpError("--scheduler needs Dask: pip install 'cbdp-sym[dask]' (or pip install 'dask[distributed]'), "
                        "or leave --scheduler out to use local processes") from None
    return distributed


def check_dask(scheduler: str) -> None:
    """What can be checked about ``--scheduler`` before anything is loaded: an address or ``local``, and Dask."""
    if not str(scheduler).strip():
        raise CbdpError("--scheduler needs a Dask scheduler's address (tcp://host:8786) or `local`")
    _distributed()
    if scheduler != LOCAL:
        from distributed.comm.addressing import parse_address, parse_host_port

        try:
            scheme, loc = parse_address(str(scheduler))
            if scheme in ("tcp", "tls", "ws", "wss"):
                parse_host_port(loc)
        except (ValueError, TypeError) as exc:
            raise CbdpError(f"--scheduler {str(scheduler)[:80]!r}: not a Dask scheduler's address ({exc}); give "
                            "tcp://HOST:PORT or `local`") from None


@functools.lru_cache(maxsize=None)
def code_fingerprint() -> str:
    """A hash of the engine's and the built-in derivations' source (read once per process): workers with another
    version of the code could give other results."""
    h = hashlib.sha256()
    for folder in (Path(__file__).resolve().parent.parent, builtin_root()):
        for p in sorted(folder.rglob("*")):
            rel = p.relative_to(folder)
            # (the derivations sit inside the package when installed, beside it in a checkout; the commit recorded
            # at build time is not code)
            if (p.suffix in (".py", ".tsv") and "__pycache__" not in rel.parts and p.name != "_build_info.py"
                    and not (folder.name != "derivations" and rel.parts[0] == "derivations")):
                h.update(rel.as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _derivation_roots() -> dict:
    """``{id(obj): root}`` for the claims and figures of every loaded derivation module (``None``: the built-in
    root).  A figure is found as a module-level object, in a module-level list or tuple, or in a claim's
    ``figures``."""

    builtin = builtin_root().resolve()
    out = {}
    for name, mod in list(sys.modules.items()):
        parts = name.split(".")
        if len(parts) != 4 or parts[0] != "cbdp_sym_derivations" or mod is None:
            continue
        pkg = sys.modules.get(".".join(parts[:2]))
        if pkg is None or not getattr(pkg, "__path__", None):
            continue
        root = Path(pkg.__path__[0]).resolve()
        root = None if root == builtin else str(root)
        for v in list(vars(mod).values()):
            objs = [v]
            if isinstance(v, (list, tuple)):
                objs = list(v)
            elif isinstance(v, Claim):
                objs = [v, *v.figures]
            for o in objs:
                out.setdefault(id(o), root)
    return out


def _roots_for(objs) -> tuple:
    """The extra derivation roots that a worker must load to find every object of ``objs`` by its ID."""
    known = _derivation_roots()
    roots = []
    for o in objs:
        if id(o) not in known:
            kind = "figure" if hasattr(o, "xs") else "claim"
            raise CbdpError(f"{kind} {o.id} was not loaded from a derivations folder: a Dask worker cannot load it "
                            "by its ID (run it on local processes, without --scheduler)")
        r = known[id(o)]
        if r is not None and r not in roots:
            roots.append(r)
    return tuple(roots)


# in a Dask worker process: the registries loaded so far (by their extra roots) and a lock for loading
_REGISTRIES: dict = {}
_LOAD = threading.Lock()


def _registry(roots):
    with _LOAD:
        reg = _REGISTRIES.get(roots)
        if reg is None:
            reg = _REGISTRIES[roots] = Registry(list(roots))
        return reg


def _preload(roots):
    _registry(roots)
    preload_modules()


def _find_figure(reg, fid):
    for paper in reg.papers.values():
        for f in paper.figures:
            if f.id == fid:
                return f
        for c in paper.claims:
            for f in c.figures:
                if f.id == fid:
                    return f
    raise CbdpError(f"figure {fid} not found on the Dask worker")


_DAEMON = {"lock": threading.Lock(), "inside": 0, "was": None}


@contextlib.contextmanager
def _children_allowed():
    """Let this process fork a claim's worker even if it is a daemon (Dask workers are): the claim's worker
    dies with it all the same (``PR_SET_PDEATHSIG`` and a watch on the parent, :mod:`cbdp_sym.app.workers`).
    Tasks of a multi-threaded worker may overlap: the flag comes back when the last one ends."""
    config = mproc.current_process()._config
    with _DAEMON["lock"]:
        if _DAEMON["inside"] == 0:
            _DAEMON["was"] = config.get("daemon")
            config["daemon"] = False
        _DAEMON["inside"] += 1
    try:
        yield
    finally:
        with _DAEMON["lock"]:
            _DAEMON["inside"] -= 1
            if _DAEMON["inside"] == 0 and _DAEMON["was"] is not None:
                config["daemon"] = _DAEMON["was"]


def _remote_claim(fn, roots, cid, args, limit, use_cache, memos):
    """A Dask task: audit claim ``cid`` of the registry of ``roots`` in a process forked from this worker, under
    the same limits as on local processes.  Returns ``("result", value)``, ``("timeout", phase, seconds)`` or
    ``("crash", message)``."""
    store.set_enabled(use_cache)
    claim = _registry(roots).get(cid)
    for f in claim.figures:
        f._memo.update(memos.get(f.id, {}))
    out = []
    if workers.available():
        with _children_allowed():
            workers.run_items(fn, [(claim, *args)], 1, lambda item: (limit, claim.timeout),
                              lambda i, v: out.append(("result", v)),
                              lambda i, phase, s: out.append(("timeout", phase, s)),
                              lambda i, m: out.append(("crash", m)))
    else:  # pragma: no cover - no fork on the worker: in its thread, without the limits
        try:
            out.append(("result", fn((claim, *args))))
        except Exception as exc:  # noqa: BLE001 - reported as the claim's crash
            out.append(("crash", f"{type(exc).__name__}: {exc}".splitlines()[0]))
    return out[0] if out else ("crash", "the worker process gave no result")


def _remote_points(roots, points, use_cache):
    """A Dask task: figure points ``[(figure ID, curve key, x), ...]`` (in the worker's thread)."""
    store.set_enabled(use_cache)
    reg = _registry(roots)
    return [on_large_stack(_find_figure(reg, fid).point, key, x) for fid, key, x in points]


class DaskExecutor:
    """A Dask cluster: ``scheduler`` is an address (``tcp://host:8786``), ``"local"`` (a ``LocalCluster`` of
    ``jobs`` single-threaded worker processes, started here and closed with the executor) or a
    ``distributed.Client``."""

    def __init__(self, scheduler=LOCAL, jobs=None):
        distributed = _distributed()
        self.cluster = None
        self._own_client = True
        if isinstance(scheduler, distributed.Client):
            self.client, self._own_client = scheduler, False
            self.name = f"Dask scheduler {scheduler.scheduler.address}"
        elif scheduler in (None, "", LOCAL):
            self.cluster = distributed.LocalCluster(n_workers=jobs or os.cpu_count() or 1, threads_per_worker=1,
                                                    processes=True, dashboard_address=None,
                                                    silence_logs=logging.ERROR)
            self.client = distributed.Client(self.cluster)
            self.name = f"Dask LocalCluster ({len(self.cluster.workers)} workers)"
        else:
            try:
                self.client = distributed.Client(str(scheduler), timeout="10s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise CbdpError(f"--scheduler {scheduler}: cannot connect to a Dask scheduler there "
                                f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no answer'})") from None
            self.name = f"Dask scheduler {scheduler}"
        try:
            self._check_versions()
        except BaseException:
            self.close()
            raise

    def _check_versions(self):
        mine = code_fingerprint()
        theirs = self.client.run(code_fingerprint)
        other = sorted(w for w, got in theirs.items() if got != mine)
        if other:
            raise CbdpError(f"the Dask worker{'s' if len(other) > 1 else ''} {', '.join(other)} run{'' if len(other) > 1 else 's'} "
                            "another version of cbdp-sym or of its derivations: install the same version everywhere")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self._own_client and getattr(self, "client", None) is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        self.client = self.cluster = None

    def run_claims(self, fn, claims, args, limit, on_result, on_timeout, on_crash):
        distributed = _distributed()
        roots = _roots_for(claims)
        use = store._ENABLED[0]
        self.client.run(_preload, roots)  # every worker loads the derivations now, not inside a claim's limit
        run = uuid.uuid4().hex[:12]  # (keys of their own: another audit on the same cluster has other tasks)
        futures = {}
        for i, c in enumerate(claims):
            memos = {f.id: dict(f._memo) for f in c.figures if f._memo}
            fut = self.client.submit(_remote_claim, fn, roots, c.id, tuple(args), limit, use, memos,
                                     key=f"cbdp-claim-{run}-{i}-{c.id}")
            futures[fut] = i
        for fut in distributed.as_completed(list(futures)):
            i = futures[fut]
            try:
                out = fut.result()
            except Exception as exc:  # noqa: BLE001 - a worker lost, a task that failed on the worker
                on_crash(i, f"Dask: {type(exc).__name__}: {exc}".splitlines()[0])
                continue
            if out[0] == "result":
                on_result(i, out[1])
            elif out[0] == "timeout":
                on_timeout(i, out[1], out[2])
            else:
                on_crash(i, out[1])

    def figure_points(self, todo, limit, on_point):
        distributed = _distributed()
        roots = _roots_for([f for f, _, _ in todo])
        use = store._ENABLED[0]
        self.client.run(_preload, roots)  # every worker loads the derivations now, not inside the phase's limit
        # a few consecutive points per task (a task costs a round trip through the scheduler), about eight tasks
        # per worker thread so that the costly points first still balance the load
        threads = max(1, sum(self.client.nthreads().values()))
        size = max(1, min(16, len(todo) // (8 * threads)))
        run = uuid.uuid4().hex[:12]
        futures = {}
        for start in range(0, len(todo), size):  # in the given order: the costly points first
            idx = list(range(start, min(start + size, len(todo))))
            fut = self.client.submit(_remote_points, roots, [(todo[i][0].id, todo[i][1], todo[i][2]) for i in idx], use,
                                     key=f"cbdp-points-{run}-{start}", priority=len(todo) - start)
            futures[fut] = idx
        deadline = None if limit is None else time.monotonic() + limit
        left = set(futures)
        try:
            for fut in distributed.as_completed(list(futures), timeout=None if deadline is None else
                                                max(0.0, deadline - time.monotonic())):
                left.discard(fut)
                try:
                    vals = fut.result()
                except Exception as exc:  # noqa: BLE001 - one line: which points, and why
                    f, k, x = todo[futures[fut][0]]
                    self.client.cancel(list(left))
                    raise CbdpError(f"Dask: figure {f.id} {k} from x={x}: {type(exc).__name__}: "
                                    f"{str(exc).splitlines()[0] if str(exc) else ''} (the scheduler and the workers need "
                                    "the same cbdp-sym installed as this process)") from None
                for i, val in zip(futures[fut], vals):
                    on_point(i, val)
        except TimeoutError:  # the figure phase's limit
            self.client.cancel(list(left))
            if self.cluster is not None:
                with contextlib.suppress(Exception):
                    self.client.restart()  # our own workers: stop the points still running


# -- parallel precomputation -----------------------------------------------------------------------
def precompute(figures, jobs=None, progress=None, limit=None, executor=None):
    """Compute every point of ``figures`` (on ``jobs`` processes, or on ``executor``: see
    this module), filling their memos.

    ``limit`` (seconds) bounds the whole precomputation: at the limit the worker processes are stopped
    and the points left are computed by the figure claims themselves (each under its own limit)."""
    todo = [(f, k, x) for f in figures for (k, x) in f.jobs() if (k, x) not in f._memo]
    todo.sort(key=lambda t: -t[0].cost)  # stable: longest first keeps every core busy to the end
    if not todo:
        return
    done = 0

    def got(i, val):
        nonlocal done
        f, k, x = todo[i]
        f._memo[(k, x)] = val
        done += 1
        if progress:
            progress(done, len(todo), f, k, x)

    (executor or LocalExecutor(jobs)).figure_points(todo, limit, got)
