"""Instance families and adversarial search for claims about *all* distributions.

A statement such as "``D_alpha(P || Q) >= 0`` for arbitrary ``P, Q``" cannot be derived for every law;
it is checked on instance families:

* the basic mechanisms (randomized response, Laplace, Gaussian pairs) at chosen parameters,
* randomized finite laws with exact rational probabilities, drawn from a seeded generator (Python's
  ``random.Random(seed)``: the same seed gives the same instances on every platform),
* an adversarial search: Nelder-Mead (SciPy) over unconstrained coordinates (softmax logits for
  probability vectors, logs for scales), minimising the relative slack, with an **evaluation budget**
  (a count, never a time, so that reports are reproducible).

:func:`bound_check` turns the evaluations into a ``check`` result for :class:`~cbdp_sym.verify.claims.Claim`
(status ``holds`` with the smallest relative slack and where, or ``refuted`` with the instance),
with one table row per family.

The random finite laws are in :mod:`cbdp_sym.laws.finite_laws`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import mpmath as mp

from cbdp_sym.laws.finite_laws import describe, events, finite_from_logits, joint_adaptive, mass, push_forward, random_finite, random_kernel, random_pmf, rational_pmf, softmax
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.verdict import Check, CheckResult, relative_slack
from cbdp_sym.core.numbers import mp_str
from cbdp_sym.core.cache import _file_version, cached_numeric
from cbdp_sym.core.serial import round_trips
from cbdp_sym.core.tape import Step, record, recording
import cbdp_sym.core.cache as _cache
import cbdp_sym.core.store as _store
from cbdp_sym.verify.claims import _USING
from cbdp_sym.verify.evidence import Collected, Compare, Group, collect_evidence, is_evidence

__all__ = ["Instance", "random_pmf", "random_finite", "random_kernel", "push_forward", "joint_adaptive", "events",
           "mass", "softmax", "finite_from_logits", "describe", "search_min", "bound_check", "bound_evidence", "slack_of", "rational_pmf"]


@dataclass
class Instance:
    """One instance of a family: a short label (shown in reports) and its data (laws, parameters)."""

    family: str
    label: str
    data: dict = field(default_factory=dict)


# -- random finite laws ----------------------------------------------------------------------------
def search_min(fun: Callable, starts: list, budget: int, dim: int, box: float = 12.0):
    """Minimise ``fun(y)`` (``y`` a list of floats) by Nelder-Mead from each start, with at most
    ``budget`` evaluations in all; coordinates are clipped to ``[-box, box]``.

    Returns ``{"value", "y", "evaluations", "starts"}``.  The budget is a count: the same inputs give
    the same result.
    """
    import numpy as np
    from scipy.optimize import minimize

    left = [budget]
    best = [mp.inf, None]

    def f(y):
        if left[0] <= 0:
            raise StopIteration
        left[0] -= 1
        yy = [min(max(float(v), -box), box) for v in y]
        try:
            v = fun(yy)
        except (ZeroDivisionError, ValueError, OverflowError, ParameterError):
            return 1e300
        if not mp.isfinite(v):
            return 1e300
        if v < best[0]:
            best[0], best[1] = v, yy
        return float(v)

    used = 0
    for y0 in starts:
        if left[0] <= 0:
            break
        used += 1
        try:
            minimize(f, np.array(y0[:dim], dtype=float), method="Nelder-Mead",
                     options={"maxfev": max(10, budget // max(len(starts), 1)), "xatol": 1e-6, "fatol": 1e-14})
        except StopIteration:
            break
    return {"value": best[0], "y": best[1], "evaluations": budget - left[0], "starts": used}


def slack_of(kind: str, quantity, bound):
    """Signed slack of a bound, positive when it holds: :func:`cbdp_sym.core.verdict.relative_slack`
    (relative to ``|bound|``, absolute when the bound is 0)."""
    return relative_slack(kind, bound, quantity)


def bound_check(kind: str, families: dict, evaluate: Callable, dps: int, search: dict | None = None,
                certify: Callable | None = None, what: str = "the bound", quantity_name: str = "quantity",
                bound_name: str = "bound") -> dict:
    """Evaluate a bound on instance families (and an adversarial search); return a check result.

    ``families``: ``{name: [Instance, ...]}``; ``evaluate(instance) -> (quantity, bound)`` (mpf, at the
    working precision).  ``search``: ``{"name", "make": y -> Instance, "starts": [y0, ...], "dim",
    "budget", "dps"}``: the slack is minimised over ``y`` at ``dps`` digits and the best instance is
    re-evaluated at the working precision.  ``certify(instance) -> str | None`` proves a violation in
    ball arithmetic where possible.

    Status ``holds`` (smallest relative slack and where) or ``refuted`` (the worst violating instance;
    a violation must exceed ``10^-(dps - 5)`` relative, or any amount for ``strict-upper`` at 0).
    """
    tol = mp.mpf(10) ** (-(dps - 5))
    rows, checks, worst = [], [], None
    for fam, insts in families.items():
        fam_worst = None
        for inst in insts:
            q, b = evaluate(inst)
            s = slack_of(kind, q, b)
            if fam_worst is None or s < fam_worst[0]:
                fam_worst = (s, inst, q, b)
        if fam_worst is None:
            continue
        s, inst, q, b = fam_worst
        rows.append([fam, str(len(insts)), mp_str(s, 6), inst.label])
        checks.append(Check({"family": fam, "at": inst.label}, claimed=mp_str(b, dps), numeric=mp_str(q, dps),
                            slack=mp_str(s, 15)))
        if worst is None or s < worst[0]:
            worst = fam_worst
    summary = None
    if search:
        sdps = search.get("dps", 20)

        def fun(y):
            with mp.workdps(sdps):
                q, b = evaluate(search["make"](y))
                return slack_of(kind, q, b)

        res = search_min(fun, search["starts"], search["budget"], search["dim"])
        summary = f"{res['evaluations']} evaluations from {res['starts']} starts at {sdps} digits"
        if res["y"] is not None:
            inst = search["make"](res["y"])
            q, b = evaluate(inst)
            s = slack_of(kind, q, b)
            rows.append([search["name"] + " (search)", str(res["evaluations"]), mp_str(s, 6), inst.label])
            checks.append(Check({"family": search["name"] + " (search)", "at": inst.label},
                                claimed=mp_str(b, dps), numeric=mp_str(q, dps), slack=mp_str(s, 15), origin="search"))
            if worst is None or s < worst[0]:
                worst = (s, inst, q, b)
    s, inst, q, b = worst
    table = {"title": f"Instance families for {what}", "columns": ["family", "instances", "smallest slack", "where"],
             "rows": rows, "note": (" relative slack (bound - quantity)/|bound| (absolute where the bound is 0); "
                                    + (f"adversarial search: {summary}" if summary else "no search"))}
    violated = (s <= 0 and q != b) if kind == "strict-upper" else s < -tol
    n = sum(len(v) for v in families.values())
    if not violated:
        shown = mp_str(s, 6) if s >= 0 else f"0 (equality to {dps - 5} digits: {mp_str(s, 3)})"
        return CheckResult("holds", (f"no violation on {n} instances in {len(families)} families"
                                     + (f" and the search ({summary})" if summary else "")
                                     + f"; smallest relative slack {shown} at {inst.family}: {inst.label}"),
                           checks=checks, tables=[table])
    cert = certify(inst) if certify else None
    cx = {"instance": f"{inst.family}: {inst.label}", quantity_name: mp_str(q, dps), bound_name: mp_str(b, dps),
          "relative_slack": mp_str(s, 6), "certified": cert is not None, "certificate": cert or "not certified"}
    return CheckResult("refuted", (f"{what} fails at {inst.family}: {inst.label}: {quantity_name} {mp_str(q, 12)} vs "
                                   f"{bound_name} {mp_str(b, 12)} (relative slack {mp_str(s, 4)})"
                                   + (" (certified)" if cert else "")),
                       checks=checks, tables=[table], counterexample=cx)


_KIND_REL = {"upper": "<=", "strict-upper": "<", "lower": ">=", "strict-lower": ">"}


def bound_evidence(kind: str, families: dict, evaluate: Callable, search: dict | None = None,
                   certify: Callable | None = None, what: str = "", quantity_name: str = "quantity",
                   bound_name: str = "bound", at: Callable | None = None):
    """A bound over instance families (and an adversarial search) as evidence: the engine decides
    (:mod:`cbdp_sym.verify.evidence`).

    ``families``: ``{name: [Instance, ...]}``, every instance evaluated; ``evaluate(instance) -> (quantity,
    bound)`` at the working precision; ``search`` as for :func:`bound_check` (the best instance found is one more
    comparison, marked ``search``); ``certify(instance) -> str | None`` proves a violation in ball arithmetic.
    ``kind``: ``upper`` (quantity <= bound), ``strict-upper``, ``lower``, ``strict-lower``.  ``at(instance) -> dict``:
    the instance's typed parameter point (by default its label, ``{"instance": "family: label"}``).

    >>> import mpmath as mp
    >>> from cbdp_sym.verify.evidence import collect, decide
    >>> insts = [Instance("squares", f"x={k}", {"x": mp.mpf(k)}) for k in range(1, 4)]
    >>> ev = bound_evidence("upper", {"small x": insts}, lambda i: (i.data["x"] ** 2, 2 ** i.data["x"]),
    ...                     what="$x^2 < 2^x$")
    >>> decide(collect(ev, 30), 30).status.value
    'refuted'
    """
    rel = _KIND_REL[kind]
    named = f"{quantity_name} against {bound_name}" if (quantity_name, bound_name) != ("quantity", "bound") else ""

    def leaf(inst, origin="grid"):
        q, b = evaluate(inst)
        return Compare(claimed=b, computed=q, rel=rel,
                       at=at(inst) if at is not None else {"instance": f"{inst.family}: {inst.label}"},
                       what=named, certify=(lambda inst=inst: certify(inst)) if certify else None, origin=origin)

    parts = [Group("sample", [leaf(i) for i in insts], domain=fam) for fam, insts in families.items() if insts]
    if search:
        sdps = search.get("dps", 20)

        def fun(y):
            with mp.workdps(sdps):
                q, b = evaluate(search["make"](y))
                return slack_of(kind.replace("strict-", ""), q, b)

        res = search_min(fun, search["starts"], search["budget"], search["dim"])
        if res["y"] is not None:
            parts.append(Group("sample", [leaf(search["make"](res["y"]), origin="search")],
                               domain=f"{search['name']} (adversarial search: {res['evaluations']} evaluations from "
                                      f"{res['starts']} starts at {sdps} digits)"))
    return Group("all", parts, what)


# -- caching a check's result ------------------------------------------------------------------------
def _jsonable(obj):
    if isinstance(obj, CheckResult):
        return {"__check_result__": {k: _jsonable(getattr(obj, k) if k != "status" else obj.status.value)
                                     for k in obj.__dataclass_fields__}}
    if isinstance(obj, Check):
        return {"__check__": {"params": obj.params, "claimed": obj.claimed, "derived": obj.derived, "numeric": obj.numeric,
                              "digits": obj.digits, "digits_derived": obj.digits_derived, "slack": obj.slack,
                              "origin": obj.origin}}
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, mp.mpf):
        return mp.nstr(obj, mp.mp.dps)
    if isinstance(obj, float) and not (obj == obj and abs(obj) != float("inf")):
        return repr(obj)
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    return str(obj)


def _restore(obj):
    if isinstance(obj, dict):
        if "__check__" in obj:
            return Check(**obj["__check__"])
        if "__check_result__" in obj:
            return CheckResult(**{k: _restore(v) for k, v in obj["__check_result__"].items()})
        return {k: _restore(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_restore(v) for v in obj]
    return obj


def _cell_ok(cell):
    try:
        cell.cell_contents
        return True
    except ValueError:  # an empty cell
        return False


def cached_check(fn):
    """Cache a check claim's result on disk (``fn(dps) -> dict``, see :class:`~cbdp_sym.verify.claims.Claim`).

    The key holds the function's name, a hash of the file that defines it, the engine's code version,
    ``dps`` and the working precision (through :func:`cbdp_sym.core.cache.cached_numeric`); the stored form
    is JSON (Check objects as dicts), so a report built from the cache is byte-identical to one built
    from scratch.  Checks over instance families and searches are the expensive part of an audit.
    """
    import inspect
    import json
    from pathlib import Path

    src = inspect.getsourcefile(fn) or ""
    # closures built by a factory share a qualname: their simple captured values tell them apart
    simple = (str, int, float, bool, mp.mpf, type(None))
    cells = [c.cell_contents for c in (fn.__closure__ or ()) if _cell_ok(c)]
    extra = [repr(v) if not isinstance(v, mp.mpf) else mp.nstr(v, 30) for v in cells
             if isinstance(v, simple) or (isinstance(v, tuple) and all(isinstance(x, simple) for x in v))]
    name = f"{Path(src).name}:{fn.__qualname__}" + (f"{extra}" if extra else "")

    @cached_numeric
    def _cached_check_result(key, version, dps):
        out = fn(dps)
        if is_evidence(out):  # evidence: collected (families enumerated, certificates made) and stored as data
            return json.dumps({"__evidence__": collect_evidence(out, dps).as_json(dps)}, sort_keys=True)
        return json.dumps(_jsonable(out), sort_keys=True)

    def wrapper(dps):
        key = name if _USING[0] == "printed" else f"{name} [used claims as {_USING[0]}]"
        data = json.loads(_cached_check_result(key, _file_version(src), dps))
        if isinstance(data, dict) and "__evidence__" in data:
            return Collected.from_json(data["__evidence__"])
        return _restore(data)

    wrapper.__wrapped__ = fn
    wrapper.__qualname__ = fn.__qualname__
    return wrapper


def cached_point(key: str, fn):
    """Cache a claim's numeric function ``fn(values) -> mpf`` on disk, per parameter point.

    ``key`` must be unique (the claim's ID); the cache key also holds a hash of the file defining
    ``fn``, the engine's code version and the working precision (:func:`cbdp_sym.core.cache.cached_numeric`).
    """
    import inspect
    from pathlib import Path

    src = inspect.getsourcefile(fn) or ""

    @cached_numeric
    def _cached_point_value(name, version, point):
        return fn(dict(point))

    def wrapper(values):
        point = tuple(sorted((k, v if not isinstance(v, (list, tuple)) else tuple(v)) for k, v in values.items()))
        return _cached_point_value(f"{key}:{Path(src).name}", _file_version(src), _PointKey(point, values))

    return wrapper


class _PointKey:
    """A parameter point for :func:`cached_point`: hashed by its text, evaluated with its exact values."""

    def __init__(self, items, values):
        self.items, self.values = items, values

    def __str__(self):
        return repr([(k, str(v)) for k, v in self.items])

    def __iter__(self):
        return iter(self.values.items())


def disk_cached_derivation(fn):
    """:func:`cbdp_sym.core.tape.cached_derivation` (steps replayed onto the current tape) with a disk cache.

    A derivation's value and recorded steps are stored as data (a JSON tree of whitelisted SymPy
    classes, :mod:`cbdp_sym.core.serial`; never pickle) under the cache folder, keyed by the function's file
    and name, its arguments and the code version of its file and what it imports (as
    :func:`cbdp_sym.core.cache.cached_numeric`), so a warm audit does not re-run SymPy.  An entry is stored
    only if it decodes to the identical tree (same ``srepr``), so reports from the cache are identical;
    a damaged entry is reported once and recomputed.  Disabled with the numeric cache (``--no-cache``,
    ``CBDP_SYM_NO_CACHE=1``).
    """
    import functools
    import hashlib
    import inspect
    from pathlib import Path


    src = inspect.getsourcefile(fn) or ""
    memo: dict = {}

    def compute(args):
        with recording() as tape:
            value = fn(*args)
        return (value, tuple(tape.steps))

    @functools.wraps(fn)
    def wrapper(*args):
        if args not in memo:
            if _store._ENABLED[0]:
                key_src = repr([Path(src).name, fn.__qualname__, [str(a) for a in args],
                                _cache.code_version(src)])
                key = hashlib.sha256(key_src.encode()).hexdigest()
                path = _store.cache_dir() / "derivations" / f"{key}.json"
                got = _store.read_valid(path, key_src, lambda v: (
                    isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], tuple) and all(isinstance(st, Step) for st in v[1])),
                    "not a derivation")
                if got is not None:
                    memo[args] = got
                else:
                    memo[args] = compute(args)
                    if round_trips(memo[args]):
                        _store.write_entry(path, key_src, memo[args])
            else:
                memo[args] = compute(args)
        value, steps = memo[args]
        for st in steps:
            record(st.lhs, st.rhs, st.note, st.rel)
        return value

    wrapper.cache_clear = memo.clear
    return wrapper
