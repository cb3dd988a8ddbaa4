"""Failure regions of refuted bounds: where, along each swept parameter, a bound starts to fail.

For a refuted bound with one or two swept parameters, :func:`failure_region` starts at the counterexample
and, for each swept parameter with the others fixed there, walks outwards in the parameter's search
coordinate (log for scales and for ``alpha - 1``, logit for probabilities) with doubling steps until the
relative slack changes sign or the range ends (the claim's search box, else a factor ``e^12`` either side).
Each sign change is a bracket; the boundary is its root at the working precision (the Illinois method,
:func:`cbdp_sym.implicit.root_bracketed`), and where both sides of the bound are closed forms the bracket is
certified in Arb ball arithmetic (``claimed - quantity`` changes sign across a bracket a few ulps wide).
The slack is that of the audit: the derived closed form when there is one (it agreed with the numeric
definition at every audited point), else the numeric definition at the claim's search precision with a
budget of evaluations (a count, so reports stay reproducible).

Regions are computed by default where the quantity is a closed form; for a quantity computed by a
solver (a restricted supremum) only when the claim carries the tag ``failure-region`` or the environment
sets ``CBDP_SYM_REGIONS=all`` (each point costs seconds to minutes there).

The result is a list of ``{"param", "fixed", "fails_on", "boundaries", ...}`` entries, one per swept
parameter, written into audit.json (``failure_region``) and as a table in the report.
"""
from __future__ import annotations

import os

import mpmath as mp
import sympy as sp

from .errors import CbdpError, DerivationError
from .numbers import mp_str
from .points import _from_search, _slack, _to_search, _Unevaluable, evaluate, parse_exact

_SKIP_DOMAINS = ("vector", "positive-int")


def _exact(x):
    """An mpf as an exact SymPy rational (``man * 2**exp``)."""
    x = mp.mpf(x)
    man, exp = x.man, x.exp
    return sp.Rational(int(man)) * sp.Rational(2) ** int(exp) if man else sp.Integer(0)


def swept_params(claim) -> list:
    """Scalar parameters whose value varies over the claim's sweep (restricted to the search box if that has fewer)."""
    pts = claim.sweep_points()
    names = [p.name for p in claim.params if p.domain not in _SKIP_DOMAINS
             and len({str(pt[p.name]) for pt in pts}) > 1]
    if len(names) > 2 and claim.search:
        names = [n for n in names if n in claim.search]
    return names


def _slack_fn(claim, derived, claimed, base, name, prec_dps):
    def s(x):
        pt = dict(base)
        # a numeric quantity gets a short decimal (10 digits): the solver derives per exact parameter value
        pt[name] = _exact(x) if derived is not None else sp.Rational(mp.nstr(x, 10))
        if claim.constraint is not None:
            claim.constraint(pt)
        with mp.workdps(prec_dps):
            cla = evaluate(claimed, pt, claim)
            if derived is not None:
                ref = evaluate(derived, pt, claim)
            else:
                ref = claim.numeric(pt)
            return _slack(claim.kind, cla, ref)

    def safe(x):
        try:
            v = s(x)
        except (CbdpError, _Unevaluable, ZeroDivisionError, ValueError, OverflowError, TypeError):
            return None
        return v if mp.isfinite(v) else None

    return safe


def _certify(claim, derived, claimed, base, name, root):
    """Arb proof that ``claimed - derived`` changes sign across a narrow bracket around ``root``."""
    from .certify import substitute_point
    from .implicit import certify_root

    if derived is None:
        return None, "not certified (the quantity has no closed form)"
    syms = claim.symbols()
    var = syms[name]
    others = {k: v for k, v in base.items() if k != name}
    try:
        g = substitute_point(sp.sympify(claimed) - sp.sympify(derived), others, syms)
        lo, hi, sentence = certify_root(g, var, root)
        return (lo, hi), sentence
    except (DerivationError, CbdpError, TypeError, ValueError) as exc:
        return None, f"not certified ({str(exc)[:80]})"


def failure_region(claim, pt, derived, claimed, *, dps=50, budget=None) -> dict:
    """The boundary of the failure region around the counterexample ``pt`` (see the module's docstring)."""
    from .implicit import root_bracketed
    names = swept_params(claim)
    if not names:
        return {"skipped": "no swept scalar parameter"}
    if len(names) > 2:
        return {"skipped": f"{len(names)} swept parameters (boundaries are computed for one or two)"}
    closed = derived is not None
    if not closed and "failure-region" not in claim.tags and os.environ.get("CBDP_SYM_REGIONS") != "all":
        # a supremum from the solver costs seconds to minutes per point (a new order alpha is a new SymPy
        # conjugate): opt in with the claim tag "failure-region" or CBDP_SYM_REGIONS=all
        return {"skipped": "the quantity has no closed form (opt in: tag failure-region or CBDP_SYM_REGIONS=all)"}
    work = dps + 10 if closed else claim.search_dps
    # closed forms are cheap: the walk may take 40 steps and the root all digits; a numeric quantity (a
    # supremum from the solver) costs a second or so per point: 16 steps and 8 digits
    budget = budget or (40 if closed else 16)
    rel = None if closed else mp.mpf(10) ** -8
    params = {p.name: p for p in claim.params}
    out = []
    for name in names:
        p = params[name]
        base = dict(pt)
        s = _slack_fn(claim, derived, claimed, base, name, work)
        with mp.workdps(work):
            x0 = mp.mpf(sp.Rational(pt[name]).p) / sp.Rational(pt[name]).q
        s0 = s(x0)
        if s0 is None or s0 >= 0:
            out.append({"param": name, "skipped": "the slack at the counterexample is not negative"})
            continue
        y0 = _to_search(p, x0)
        if claim.search and name in claim.search:
            lo_y, hi_y = (_to_search(p, float(parse_exact(v))) for v in claim.search[name])
        else:
            lo_y, hi_y = y0 - 12, y0 + 12
        count = [0]
        ends, bounds = [], []
        for direction in (-1, 1):
            limit = lo_y if direction < 0 else hi_y
            step, prev_y, found = 0.125, y0, None
            while count[0] < budget:
                y = y0 + direction * step
                at_limit = (y <= limit) if direction < 0 else (y >= limit)
                if at_limit:
                    y = limit
                count[0] += 1
                v = s(mp.mpf(_from_search(p, y)))
                if v is not None and v >= 0:
                    found = (prev_y, y)
                    break
                prev_y = y
                if at_limit:
                    break
                step *= 2
            if found is None:
                ends.append({"end": mp_str(mp.mpf(_from_search(p, prev_y)), 8), "kind": "range limit" if count[0] < budget
                             else "evaluation budget"})
                continue
            a, b = sorted(mp.mpf(_from_search(p, t)) for t in found)

            def g(x):
                v = s(x)
                return v if v is not None else mp.mpf(0)

            with mp.workdps(work):
                try:
                    root = root_bracketed(g, a, b, rel=rel)
                except CbdpError:
                    ends.append({"end": mp_str(b if direction > 0 else a, 8), "kind": "no sign change"})
                    continue
            with mp.workdps(work):
                bracket, cert = _certify(claim, derived, claimed, base, name, root) if closed else (
                    None, "not certified (numeric quantity)")
            shown = min(work - 10, 30) if closed else 8
            ends.append({"end": mp_str(root, shown), "kind": "boundary"})
            bounds.append({"side": "below" if direction < 0 else "above", "value": mp_str(root, shown),
                           "certified": bracket is not None, "certificate": cert,
                           "bracket_half_width": (mp.nstr(mp.mpf((bracket[1] - bracket[0]).p) / (bracket[1] - bracket[0]).q / 2, 3)
                                                  if bracket else None)})
        left, right = ends
        out.append({"param": name, "fixed": {k: str(v) for k, v in pt.items() if k != name},
                    "fails_on": f"({left['end']}, {right['end']})", "ends": [left["kind"], right["kind"]],
                    "boundaries": bounds, "digits": min(work - 10, 30) if closed else 8,
                    "from": "the derived closed form" if closed else "the numeric definition",
                    "evaluations": count[0]})
    return {"params": out}


def region_table(region) -> dict | None:
    """The failure region as a report table, or ``None``."""
    if not region or "params" not in region:
        return None
    rows = []
    for e in region["params"]:
        if "skipped" in e:
            continue
        def short(x):
            with mp.workdps(20):
                return mp.nstr(mp.mpf(x), 10)

        bnd = "; ".join(f"{short(b['value'])} ({'certified' if b['certified'] else 'not certified'})"
                        for b in e["boundaries"]) or "--"
        a, z = (t.strip() for t in e["fails_on"].strip("()").split(","))
        rows.append([e["param"], ", ".join(f"{k}={v}" for k, v in e["fixed"].items()) or "--",
                     f"from {short(a)} ({e['ends'][0]}) to {short(z)} ({e['ends'][1]})", bnd])
    if not rows:
        return None
    return {"title": "Failure region around the counterexample (each parameter with the others fixed)",
            "columns": ["parameter", "fixed at", "the bound fails on", "boundary"], "rows": rows,
            "note": ("the boundary is the root of the relative slack; ends marked range limit are the end of the "
                     "searched range, not a boundary")}
