"""Failure regions of refuted bounds: where, along each swept parameter, a bound starts to fail.

For a refuted bound with one or two swept parameters, :func:`failure_region` starts at the counterexample
and, for each swept parameter with the others fixed there, walks outwards in the parameter's search
coordinate (log for scales and for ``alpha - 1``, logit for probabilities) with doubling steps until the
relative slack changes sign or the range ends (the claim's search box, else a factor ``e^12`` either side).
Each sign change is a bracket; the boundary is its root at the working precision (the Illinois method,
:func:`cbdp_sym.calculus.implicit.root_bracketed`), and where both sides of the bound are closed forms the bracket is
certified in Arb ball arithmetic (``claimed - quantity`` changes sign across a bracket a few ulps wide).
The slack is that of the audit: the derived closed form when there is one (it agreed with the numeric
definition at every audited point), else the numeric definition at the claim's search precision with a
budget of evaluations (a count, so reports stay reproducible).

Where the quantity is computed by a solver (a restricted supremum: seconds per point, minutes in some
corners), the walk runs only when the claim carries the tag ``failure-region`` or the environment sets
``CBDP_SYM_REGIONS=all``.  By default :func:`grid_region` brackets the boundary on the claim's own sweep grid
(values the audit has computed) and refines each bracket with a counted budget of solver points and a stall
guard per point; the failing end of a bracket is certified through the claim's certificate hook.

The result is a list of ``{"param", "fixed", "fails_on", "boundaries", ...}`` entries, one per swept
parameter, written into audit.json (``failure_region``) and as a table in the report.
"""
from __future__ import annotations

import os

import mpmath as mp
import sympy as sp

from cbdp_sym.core.errors import CbdpError, DerivationError
from cbdp_sym.core.numbers import mp_str
from cbdp_sym.core.printing import key_tex
from cbdp_sym.verify.points import _from_search, _slack, _to_search, _Unevaluable, evaluate, parse_exact
from cbdp_sym.core.timelimit import TimeLimitExceeded, time_limit
from cbdp_sym.calculus.certify import substitute_point
from cbdp_sym.calculus.implicit import certify_root, root_bracketed

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
        claim.check_constraint(pt)
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


def _hypothesis_fn(claim, base, name, param):
    """``y -> `` whether the point ``base`` with ``name`` at the search coordinate ``y`` satisfies the claim's
    hypotheses (its ``constraint``; the parameter's own domain is the search coordinate's range)."""
    def inside(y):
        if claim.constraint is None:
            return True
        pt = dict(base)
        x = mp.mpf(_from_search(param, y))
        pt[name] = _exact(x)
        try:
            claim.constraint(pt)
        except CbdpError:
            return False
        return True

    return inside


def _hypothesis_edge(inside, y_in, y_out, steps: int = 60):
    """The last search coordinate inside the hypotheses between ``y_in`` (inside) and ``y_out`` (outside), by
    bisection on the constraint (a predicate: no quantity is evaluated)."""
    a, b = mp.mpf(y_in), mp.mpf(y_out)
    for _ in range(steps):
        m = (a + b) / 2
        if inside(m):
            a = m
        else:
            b = m
    return a


def _certify(claim, derived, claimed, base, name, root):
    """Arb proof that ``claimed - derived`` changes sign across a narrow bracket around ``root``."""

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
    names = swept_params(claim)
    if not names:
        return {"skipped": "no swept scalar parameter"}
    if len(names) > 2:
        return {"skipped": f"{len(names)} swept parameters (boundaries are computed for one or two)"}
    closed = derived is not None
    if not closed and "failure-region" not in claim.tags and os.environ.get("CBDP_SYM_REGIONS") != "all":
        # a supremum from the solver costs seconds per point (a new order alpha is a new SymPy conjugate), and
        # the walk outwards reaches corners where one point took minutes: by default the boundary is bracketed
        # on the claim's own sweep grid and refined with a counted budget (grid_region); the walk is opt-in
        return grid_region(claim, pt, claimed, dps=dps)
    work = dps + 10 if closed else (claim.search.dps if claim.search else claim.search_dps)
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
        inside = _hypothesis_fn(claim, base, name, p)
        for direction in (-1, 1):
            limit = lo_y if direction < 0 else hi_y
            step, prev_y, found, edge = 0.125, y0, None, None
            while count[0] < budget:
                y = y0 + direction * step
                at_limit = (y <= limit) if direction < 0 else (y >= limit)
                if at_limit:
                    y = limit
                if not inside(y):  # the claim's hypotheses end between prev_y and y: so does its failure region
                    edge = _hypothesis_edge(inside, prev_y, y)
                    break
                count[0] += 1
                v = s(mp.mpf(_from_search(p, y)))
                if v is not None and v >= 0:
                    found = (prev_y, y)
                    break
                prev_y = y
                if at_limit:
                    break
                step *= 2
            if edge is not None:
                ends.append({"end": mp_str(mp.mpf(_from_search(p, edge)), 8), "kind": "hypothesis boundary"})
                continue
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

        def status(b):
            if b["certified"]:
                return "certified"
            if "bracket" in b:
                return (f"in [{short(b['bracket'][0])}, {short(b['bracket'][1])}]; failing end "
                        + ("certified" if b.get("fails_certified") else "not certified")
                        + ("; the failing grid point certified" if b.get("grid_fails_certified") else ""))
            return "not certified"

        bnd = "; ".join(f"{short(b['value'])} ({status(b)})" for b in e["boundaries"]) or "--"
        a, z = (t.strip() for t in e["fails_on"].strip("()").split(","))
        rows.append([key_tex(e["param"]), ", ".join(f"{k}={v}" for k, v in e["fixed"].items()) or "--",
                     f"from {short(a)} ({e['ends'][0]}) to {short(z)} ({e['ends'][1]})", bnd])
    if not rows:
        return None
    return {"title": "Failure region around the counterexample (each parameter with the others fixed)",
            "columns": ["parameter", "fixed at", "the bound fails on", "boundary"], "rows": rows,
            "note": ("the boundary is the root of the relative slack; an end marked hypothesis boundary is where the claim's "
                     "hypotheses stop (no point outside them counts); ends marked range limit (grid end) are the end of "
                     "the searched range (of the sweep grid), not a boundary"
                     + ("; solver quantities: bracketed on the sweep grid and refined by false position with a budget of "
                        f"{region.get('budget')} new solver calls, the root interpolated in the final bracket"
                        if region.get("method") == "grid" else ""))}


# -- bounded regions for a quantity computed by a solver (the default there) ---------------------------
GRID_EVALS = 14       # new solver calls per claim, points and certificates (a count: reports stay reproducible)
BRACKET_EVALS = 5     # at most this many points refine one grid bracket
BISECT_DPS = 20       # working digits of the refining points (moderate: the sign of the slack is what counts)
TRIAL_DIGITS = 4      # trial points are rationals with this many significant digits (the solver derives a
#                       conjugate per order alpha, and a long rational exponent makes SymPy's integers explode)
REL_WIDTH = 2e-3      # a bracket this narrow (relative to its upper end) is refined enough
POINT_SECONDS = 120.0  # stall guard per new point (wall clock, generous for a loaded machine: a point costs ~1 s CPU)
_POINT_WHAT = "failure-region point"


class _Stalled(Exception):
    pass


def _grid_lines(claim, name):
    """``[(fixed, [values of name])]``: the sweep's lines along ``name`` (the other parameters fixed), in
    the order of the sweep, each line's values sorted."""
    lines: dict = {}
    for q in claim.sweep_points():
        key = tuple((k, str(v)) for k, v in q.items() if k != name)
        lines.setdefault(key, ({k: v for k, v in q.items() if k != name}, {}))[1][str(q[name])] = q[name]
    return [(fixed, sorted(vals.values(), key=lambda x: sp.Rational(x))) for fixed, vals in lines.values()]


def _point_slack(claim, claimed, fixed, name, x, work, *, guard):
    """The relative slack at ``fixed`` with ``name = x`` (exact), at ``work`` digits; ``None`` where the
    quantity is not available (a solver failure); raises :class:`_Stalled` at the stall guard."""
    q = dict(fixed)
    q[name] = x
    try:
        if claim.constraint is not None:
            claim.constraint(q)
        with time_limit(POINT_SECONDS if guard else None, _POINT_WHAT, hard=True), mp.workdps(work):
            v = _slack(claim.kind, evaluate(claimed, q, claim), claim.numeric(q))
    except TimeLimitExceeded as exc:
        if _POINT_WHAT not in str(exc):
            raise  # the claim's own limit: not ours to swallow
        raise _Stalled(f"the solver at {name} = {x} exceeded the {POINT_SECONDS:g} s stall guard") from None
    except (CbdpError, _Unevaluable, ZeroDivisionError, ValueError, OverflowError, TypeError):
        return None
    return v if mp.isfinite(v) else None


def _short_rational(x, digits=TRIAL_DIGITS):
    return sp.Rational(mp.nstr(x, digits, min_fixed=-mp.inf, max_fixed=mp.inf))


def _smooth(kind, s):
    """The slack as a log-ratio of the two sides (``log bound/quantity`` for an upper bound): of one sign with
    the slack, and near-linear in the search coordinate where both sides are powers of the parameter."""
    s = mp.mpf(s)
    if kind == "lower":
        return float(mp.log1p(s)) if s > -1 else float(s)
    return float(-mp.log1p(-s)) if s < 1 else float(s)


def _refine(claim, claimed, fixed, name, p, good, bad, s_good, s_bad, count):
    """Narrow the grid bracket between ``good`` (the bound holds) and ``bad`` (it fails) by false position on
    the log-ratio of the two sides in the search coordinate, each trial at a short rational and nudged past the
    interpolated root towards the end that did not move (so that both ends close in).  Returns
    ``(good, bad, s_good, s_bad, note)``."""
    yg, yb = _to_search(p, good), _to_search(p, bad)
    fg, fb = _smooth(claim.kind, s_good), _smooth(claim.kind, s_bad)
    moved = None
    for _ in range(BRACKET_EVALS):
        hi = max(abs(float(good)), abs(float(bad)))
        if abs(float(good) - float(bad)) <= REL_WIDTH * hi:
            return good, bad, s_good, s_bad, None
        if count[0] >= GRID_EVALS:
            return good, bad, s_good, s_bad, "evaluation budget"
        t = fg / (fg - fb) if fg != fb else 0.5
        nudge = REL_WIDTH / 3 / max(abs(yb - yg), 1e-300)
        if moved == "good":
            t += nudge
        elif moved == "bad":
            t -= nudge
        t = min(max(t, 0.02), 0.98)  # keep the trial inside, off the ends
        with mp.workdps(BISECT_DPS):
            x = _short_rational(mp.mpf(_from_search(p, yg + t * (yb - yg))))
        if x in (good, bad):
            return good, bad, s_good, s_bad, None
        count[0] += 1
        v = _point_slack(claim, claimed, fixed, name, x, BISECT_DPS, guard=True)
        if v is None:
            return good, bad, s_good, s_bad, f"no value at {name} = {x}"
        if v >= 0:
            good, s_good, yg, fg, moved = x, v, _to_search(p, x), _smooth(claim.kind, v), "good"
        else:
            bad, s_bad, yb, fb, moved = x, v, _to_search(p, x), _smooth(claim.kind, v), "bad"
    hi = max(abs(float(good)), abs(float(bad)))
    return good, bad, s_good, s_bad, (None if abs(float(good) - float(bad)) <= REL_WIDTH * hi
                                      else f"{BRACKET_EVALS} points per bracket")


def _try_certify(claim, q):
    try:
        with time_limit(POINT_SECONDS, _POINT_WHAT, hard=True):
            return claim.certify(q)
    except TimeLimitExceeded as exc:
        if _POINT_WHAT not in str(exc):
            raise
    except Exception:  # noqa: BLE001 - a failed certificate leaves the end uncertified
        pass
    return None


def _bracket_entry(claim, name, fixed, good, bad, s_good, s_bad, note, direction, count, grid_bad=None):
    """One boundary: the bracket, its interpolated root, and what certifies each end."""
    with mp.workdps(20):
        g, b = mp.mpf(good.p) / good.q, mp.mpf(bad.p) / bad.q
        fg, fb = _smooth(claim.kind, s_good), _smooth(claim.kind, s_bad)
        root = g + (b - g) * mp.mpf(fg) / (mp.mpf(fg) - mp.mpf(fb))
        value = mp.nstr(root, 6)
        half = mp.nstr(abs(b - g) / 2, 3)
    cert, why, grid_cert = None, "no ball-arithmetic certificate at this point", False
    if claim.certify is None:
        why = "the claim has no certificate hook"
    elif count[0] >= GRID_EVALS:
        why = "the evaluation budget is spent"
    else:
        count[0] += 1
        q = dict(fixed)
        q[name] = bad
        cert = _try_certify(claim, q)
        if cert is None and grid_bad is not None and grid_bad != bad and count[0] < GRID_EVALS:
            # the refined end is too close to the boundary (or at an order the certificate cannot handle): the
            # failing grid point bounds the boundary instead
            count[0] += 1
            q[name] = grid_bad
            c2 = _try_certify(claim, q)
            if c2 is not None:
                why = (f"no ball-arithmetic certificate at this point; the grid point {name} = {grid_bad}, where it also "
                       f"fails, is certified: {c2}")
                grid_cert = True
    fails = f"fails at {name} = {bad}: " + (cert if cert else f"not certified ({why})")
    holds = (f"holds at {name} = {good} by the solver's value (not certified: an upper bound on a supremum needs a "
             "dual certificate, which the engine does not make)")
    return {"side": "below" if direction < 0 else "above", "value": value, "bracket": [str(min(good, bad)), str(max(good, bad))],
            "certified": False, "fails_certified": cert is not None, "grid_fails_certified": grid_cert,
            "certificate": fails + "; " + holds,
            "bracket_half_width": half, **({"refinement_stopped": note} if note else {})}


def grid_region(claim, pt, claimed, *, dps=50) -> dict:
    """Failure regions of a bound whose quantity comes from a solver, at bounded cost.

    Along each swept parameter, on every line of the claim's sweep (the other parameters fixed at their
    grid values; the counterexample's line first), the audit's own values at the grid points (already
    computed and cached) locate the runs where the bound fails; each end of a run that has a holding grid
    neighbour is a bracket, refined by false position at :data:`BISECT_DPS` digits with at most
    :data:`GRID_EVALS` new solver calls per claim (points and certificates; :data:`BRACKET_EVALS` points per bracket) and a stall guard of
    :data:`POINT_SECONDS` per point.  The failing end of each bracket is certified with the claim's
    certificate hook where it has one; the holding end rests on the solver's value (not certified).
    A run that reaches the end of the grid is reported as such (the grid's end is not a boundary)."""
    names = swept_params(claim)
    params = {p.name: p for p in claim.params}
    work = dps + 10
    count = [0]
    out, stalled = [], None
    # the counterexample's line along each parameter first, then the other lines, those with more grid values
    # first (the finer direction: e.g. the order alpha at each eps of a grid), in the sweep's order
    todo = []
    for rank, name in enumerate(names):
        here = tuple((k, str(v)) for k, v in pt.items() if k != name)
        for j, (fixed, vals) in enumerate(_grid_lines(claim, name)):
            mine = tuple((k, str(v)) for k, v in fixed.items()) == here
            todo.append(((0 if mine else 1, 0 if mine else -len(vals), rank, j), name, fixed, vals))
    todo.sort(key=lambda t: t[0])
    for _key, name, fixed, vals in todo:
        before = count[0]
        if len(vals) < 2:
            continue
        slacks = []
        for x in vals:
            try:
                slacks.append(_point_slack(claim, claimed, fixed, name, x, work, guard=False))
            except _Stalled:  # pragma: no cover - no guard on grid points (the audit computed them)
                slacks.append(None)
        runs, i = [], 0
        while i < len(vals):
            if slacks[i] is not None and slacks[i] < 0:
                j = i
                while j + 1 < len(vals) and slacks[j + 1] is not None and slacks[j + 1] < 0:
                    j += 1
                runs.append((i, j))
                i = j + 1
            else:
                i += 1
        for i, j in runs:
            ends, bounds = [], []
            for direction, k, nb in ((-1, i, i - 1), (1, j, j + 1)):
                if nb < 0 or nb >= len(vals):
                    ends.append({"end": str(vals[k]), "kind": "grid end"})
                    continue
                if slacks[nb] is None:
                    ends.append({"end": str(vals[k]), "kind": "no value at the neighbouring grid point"})
                    continue
                if stalled is not None:
                    note = "not refined (an earlier point stalled)"
                    good, bad, sg, sb = vals[nb], vals[k], slacks[nb], slacks[k]
                else:
                    try:
                        good, bad, sg, sb, note = _refine(claim, claimed, fixed, name, params[name], vals[nb], vals[k],
                                                          slacks[nb], slacks[k], count)
                    except _Stalled as exc:
                        stalled = str(exc)
                        good, bad, sg, sb, note = vals[nb], vals[k], slacks[nb], slacks[k], "stalled: " + stalled
                b = _bracket_entry(claim, name, fixed, good, bad, sg, sb, note, direction, count, grid_bad=vals[k])
                bounds.append(b)
                ends.append({"end": b["value"], "kind": "boundary"})
            left, right = ends
            out.append({"param": name, "fixed": {k: str(v) for k, v in fixed.items()},
                        "fails_on": f"({left['end']}, {right['end']})", "ends": [left["kind"], right["kind"]],
                        "boundaries": bounds, "digits": 6, "grid": [str(x) for x in vals],
                        "from": "the numeric definition (solver) on the sweep grid, refined by false position",
                        "evaluations": count[0] - before})
    if not out:
        return {"skipped": "no line of the sweep grid through a failing point has two values"}
    res = {"params": out, "method": "grid", "new_points": count[0], "budget": GRID_EVALS,
           "summary": [_summary(e) for e in out]}
    if stalled:
        res["stalled"] = stalled
    return res


def _summary(e) -> str:
    """One sentence for a grid-region entry: where the bound fails along the parameter, and what is certified."""
    name, grid = e["param"], e["grid"]
    at = ", ".join(f"{k} = {v}" for k, v in e["fixed"].items())
    below = next((b for b in e["boundaries"] if b["side"] == "below"), None)
    above = next((b for b in e["boundaries"] if b["side"] == "above"), None)
    def edge(b, rel):
        if b.get("refinement_stopped"):
            return (f"{name} {'above' if rel == '>' else 'below'} a boundary in [{b['bracket'][0]}, {b['bracket'][1]}] "
                    f"(refinement stopped: {b['refinement_stopped']})")
        return f"{name} {rel} {b['value']} (bracket [{b['bracket'][0]}, {b['bracket'][1]}])"

    lo = edge(below, ">") if below else None
    hi = edge(above, "<") if above else None
    a, z = (t.strip() for t in e["fails_on"].strip("()").split(","))
    if lo and hi:
        where = f"{lo} and {hi}"
    elif lo:
        where = f"{lo} (to {z}, the grid's end)" if e["ends"][1] == "grid end" else f"{lo} (to {z}: {e['ends'][1]})"
    elif hi:
        where = f"{hi} (from {a}, the grid's end)" if e["ends"][0] == "grid end" else f"{hi} (from {a}: {e['ends'][0]})"
    else:
        where = f"{name} in [{a}, {z}] (every grid value on the line: {', '.join(grid)})"

    def status(b):
        side = f"{name} {'>' if b['side'] == 'below' else '<'} boundary"
        if b.get("fails_certified"):
            return f"{side}: the failing end of the bracket is certified in Arb"
        if b.get("grid_fails_certified"):
            return f"{side}: the failing end is not certified, the failing grid point is"
        why = b["certificate"].split(";")[0]
        why = why[why.find("not certified"):] if "not certified" in why else "not certified"
        return f"{side}: {why}"

    parts = [status(b) for b in (below, above) if b]
    return f"at {at}: fails for {where}" + (f"; {'; '.join(parts)}" if parts else "")
