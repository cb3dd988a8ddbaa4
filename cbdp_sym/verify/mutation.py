"""The mutation battery: every verdict must be able to move.

For each audited claim with a numeric side, the claimed side of its stored evidence (``audit.json``'s
``evidence.tree``) is perturbed and the engine's decision (:func:`cbdp_sym.verify.evidence.decide`) re-run on it:

* a ``verified`` claim: the claimed side of one comparison multiplied by ``1 + 10^-(tol - 2)`` (``tol = dps - 5``;
  an exact or infinite side moved off its value, a printed decimal by two units of its last digit) must no
  longer be verified;
* a claim that ``holds`` with smallest slack ``s``: the bound at its worst comparison tightened by ``2 s`` (at least
  ``10^-(e - 2)`` relative, ``e`` the digits established there) must be ``refuted``;
* a ``refuted`` claim: its counterexample's bound relaxed past the computed value must hold there.

A claim whose verdict does not move is a defect: :func:`battery` lists it.

>>> import mpmath as mp
>>> from cbdp_sym.verify.evidence import Compare, collect, over, to_json
>>> ev = collect(over("n", range(1, 4), lambda n: Compare(claimed=n * n, computed=mp.mpf(n) ** 2, at={"n": n})), 30)
>>> [o.moved for o in mutate({"tree": to_json(ev, 30)}, "verified", 30)]
[True]
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import mpmath as mp
import sympy as sp

from cbdp_sym.core.numbers import Estimate
from cbdp_sym.core.verdict import Status
from cbdp_sym.verify.evidence import (INF, Compare, Group, _established, _is_exact, _is_symbolic, _leaves, _to_mp,
                                      decide, decide_leaf, from_json)


@dataclass
class Outcome:
    """One mutation: what was changed, the status before and after, and whether it moved as required."""

    claim: str
    how: str
    before: str
    after: str
    moved: bool


def _numeric(c: Compare) -> bool:
    return not (_is_symbolic(c.claimed) or _is_symbolic(c.computed))


def _perturb_identity(c: Compare, dps: int) -> str:
    tol = dps - 5 if c.needs is None else min(dps - 5, c.needs)  # an identity checked to fewer digits (needs=)
    if c.rel == "~":
        p = str(c.claimed)
        d = len(p.split(".")[1]) if "." in p else 0
        step = mp.mpf(2) / mp.mpf(10) ** d
        c.claimed = f"{float(mp.mpf(p) + step):.{d}f}" if d else str(int(mp.mpf(p) + step))
        return f"printed value moved by two units of its last digit to {c.claimed}"
    if _is_symbolic(c.claimed):
        c.claimed = sp.sympify(c.claimed) + sp.Rational(1, 7)
        return "claimed form + 1/7"
    x = _to_mp(c.claimed)
    if mp.isinf(x):
        c.claimed = Estimate(mp.mpf(10) ** 30 * (1 if x > 0 else -1), dps)
        return "claimed infinity replaced by 1e30"
    if x == 0:
        y = _to_mp(c.computed)
        c.claimed = Estimate(mp.mpf(10) ** -(tol - 2) * max(1, abs(y) if mp.isfinite(y) else 1), dps)
        return f"claimed 0 moved to 1e-{tol - 2}"
    c.claimed = Estimate(x * (1 + mp.mpf(10) ** -(tol - 2)), dps)
    return f"claimed side times (1 + 1e-{tol - 2})"


def _bound_gap(c: Compare, dps: int):
    est = min(_established(c.claimed, dps), _established(c.computed, dps), dps - 5)
    return mp.mpf(10) ** -(int(est) - 2) if est != INF else mp.mpf(10) ** -(dps - 7)


def _tighten(c: Compare, dps: int) -> str:
    q, b = _to_mp(c.computed), _to_mp(c.claimed)
    upper = c.rel in ("<=", "<")
    if mp.isinf(q):
        return ""
    gap = max(abs(b - q) if mp.isfinite(b) else 0, abs(q) * _bound_gap(c, dps), _bound_gap(c, dps) if q == 0 else 0)
    c.claimed = Estimate(q - gap if upper else q + gap, dps)
    return "bound tightened past the computed value at its worst comparison"


def _relax(c: Compare, dps: int) -> str:
    q, b = _to_mp(c.computed), _to_mp(c.claimed)
    if c.rel == "=":
        c.claimed = c.computed
        return "claimed side set to the computed value"
    if c.rel == "~":
        p = str(c.claimed)
        d = len(p.split(".")[1]) if "." in p else 0
        c.claimed = f"{float(q):.{d}f}" if d else str(int(mp.nint(q)))
        return "printed value set to the computed value's rounding"
    if mp.isinf(q):
        c.claimed = sp.oo if c.rel in ("<=", "<") else -sp.oo
        return "bound relaxed to infinity"
    gap = max(abs(b - q) if mp.isfinite(b) else abs(q), abs(q) * _bound_gap(c, dps), _bound_gap(c, dps))
    c.claimed = Estimate(q + 2 * gap if c.rel in ("<=", "<") else q - 2 * gap, dps)
    return "bound relaxed past the computed value at the counterexample"


def mutate(evidence: dict, status: str, dps: int, claim: str = "") -> list[Outcome]:
    """The mutations of one claim's stored evidence (see the module docstring); ``[]`` when the claim has no numeric
    comparison or its status has no rule (inconclusive, ambiguous, definitions)."""
    if not evidence or "tree" not in evidence:
        return []
    dps = int(evidence.get("dps", dps))
    tree = from_json(evidence["tree"])
    with mp.workdps(dps + 10):
        memo = {}
        leaves = [c for _p, c in _leaves(tree)]
        decided = [(c, decide_leaf(c, dps)) for c in leaves]
        out = []
        if status == Status.VERIFIED:
            cands = [c for c, lf in decided if lf.status == Status.VERIFIED]
            if not cands:
                return []
            t2 = copy.deepcopy(tree)
            target = [c for _p, c in _leaves(t2)][leaves.index(cands[0])]
            how = _perturb_identity(target, dps)
            after = decide(t2, dps).status.value
            out.append(Outcome(claim, how, status, after, after != Status.VERIFIED))
        elif status == Status.HOLDS:
            cands = [(c, lf) for c, lf in decided if lf.status == Status.HOLDS and lf.slack is not None
                     and c.rel in ("<=", "<", ">=", ">") and mp.isfinite(_to_mp(c.computed))]
            if not cands:
                cands2 = [c for c, lf in decided if lf.status == Status.VERIFIED]
                if not cands2:
                    return []
                t2 = copy.deepcopy(tree)
                target = [c for _p, c in _leaves(t2)][leaves.index(cands2[0])]
                how = _perturb_identity(target, dps)
                after = decide(t2, dps).status.value
                return [Outcome(claim, how, status, after, after not in (Status.HOLDS, Status.VERIFIED))]
            c, lf = min(cands, key=lambda t: t[1].slack)
            t2 = copy.deepcopy(tree)
            target = [x for _p, x in _leaves(t2)][leaves.index(c)]
            how = _tighten(target, dps)
            after = decide(t2, dps).status.value
            out.append(Outcome(claim, how, status, after, after == Status.REFUTED))
        elif status == Status.REFUTED:
            bad = [c for c, lf in decided if lf.status == Status.REFUTED]
            if not bad:
                return [Outcome(claim, "no failing comparison in the stored evidence", status, status, False)]
            c = bad[0]
            target = copy.deepcopy(c)
            how = _relax(target, dps)
            after = decide_leaf(target, dps).status.value
            out.append(Outcome(claim, how, status, after, after in (Status.HOLDS, Status.VERIFIED)))
        return out


def battery(doc: dict) -> tuple[list[Outcome], list[str]]:
    """Every claim of an ``audit.json`` document through :func:`mutate`: ``(outcomes, defects)``, a defect being a
    claim whose verdict did not move (or whose stored evidence no longer decides its own status)."""
    dps = int(doc.get("dps", 50))
    outcomes, defects = [], []
    for c in doc["claims"]:
        ev = c.get("evidence")
        if not ev:
            continue
        status = c["status"]
        if status not in (Status.VERIFIED, Status.HOLDS, Status.REFUTED):
            continue
        with mp.workdps(int(ev.get("dps", dps)) + 10):
            again = decide(from_json(ev["tree"]), int(ev.get("dps", dps))).status.value
        own = ev.get("decision", status)
        if again != own:
            defects.append(f"{c['id']}: the stored evidence decides {again}, the audit said {own}")
        got = mutate(ev, status, dps, c["id"])
        outcomes += got
        defects += [f"{o.claim}: {o.how}: {o.before} -> {o.after}" for o in got if not o.moved]
    return outcomes, defects
