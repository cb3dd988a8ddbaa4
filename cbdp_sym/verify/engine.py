"""Verification: derived vs numeric vs claimed, and the verdict.

* ``digits(x, y) = -log10(|x - y| / max(|x|, |y|))``; numerics run at ``dps + 10`` and an identity
  passes at ``dps - 5`` digits.
* Statuses: ``verified``, ``holds`` (bound, no violation on the sweep, smallest relative slack),
  ``refuted`` (counterexample, certified with Arb where the forms are closed), ``inconclusive``
  (one-line reason), ``error`` (a crash, with its message), ``definition`` / ``cited``.
* SymPy failing to simplify a difference to 0 is *unknown*, never a refutation.
"""
from __future__ import annotations

import math
import time
import traceback
from dataclasses import dataclass, field

import mpmath as mp
import sympy as sp

from cbdp_sym.calculus.certify import certify_different, certify_less
from cbdp_sym.verify.claims import BY_ID, Claim, using
from cbdp_sym.core.errors import CbdpError, DerivationError, DerivationTimeout
from cbdp_sym.verify.findings import infer_error_kind
from cbdp_sym.core.verdict import BOUND_KINDS, Check, CheckResult, Status, identity_digits, violated
from cbdp_sym.core.numbers import digits, established, mp_str
from cbdp_sym.core.symcache import cached_op
from cbdp_sym.core.tape import Step, recording
from cbdp_sym.core.timelimit import TimeLimitExceeded, set_phase, time_limit
from cbdp_sym.core.display import Derivation, result_markdown, result_repr
from cbdp_sym.verify.points import (_from_search, _slack, _to_search, _Unevaluable, evaluate, parse_exact,  # noqa: F401
                                    point_simplicity)
from cbdp_sym.verify.regions import failure_region, region_table
from cbdp_sym.verify.evidence import Skipped, collect_evidence, counterexample, decide, is_evidence, params_json
from cbdp_sym.verify.evidence import Compare, Group, _leaves, collect, decide_leaf, to_json


@dataclass
class Result:
    claim: Claim
    status: str
    message: str
    dps: int
    derived_expr: sp.Expr | None = None
    claimed_expr: sp.Expr | None = None
    steps: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    counterexample: dict | None = None
    symbolic: str = ""  # what the symbolic comparison found
    tables: list = field(default_factory=list)  # extra evidence: [{"title", "columns", "rows", "note"}]
    corrected: "Result | None" = None  # the audit of the corrected statement, when the claim has one
    search: dict | None = None  # what the adversarial search did (bounds)
    failure_region: dict | None = None  # refuted bounds: where the bound starts to fail (cbdp_sym.verify.regions)
    seconds: float = 0.0  # not written into reports (reproducibility)
    error_kind: str | None = None  # refuted: "result", "proof-step", "typo" or "reading" (cbdp_sym.verify.findings)
    readings: list = field(default_factory=list)  # per-reading verdicts: [{"name", "status", "message", "seeds"}]
    finding: str | None = None  # the ID of the finding this refutation belongs to (set by the report)
    precision_limited: bool = False  # inconclusive only for want of precision (a higher one may decide it)
    against_corrected: "Result | None" = None  # the audit with the claims it uses read as corrected (Claim.uses)
    evidence: dict | None = None  # what decided the verdict: the collected evidence and its summary (check claims)

    @property
    def id(self):
        return self.claim.id

    def min_digits(self):
        vals = [c.digits for c in self.checks if c.digits is not None]
        return min(vals) if vals else None

    # notebook display (cbdp_sym.core.display): a one-line repr, Markdown with mathematics, the derivation
    def __repr__(self):
        return result_repr(self)

    def _repr_markdown_(self):
        return result_markdown(self)

    @property
    def derivation(self):
        """The recorded steps and the derived form (:class:`cbdp_sym.core.display.Derivation`)."""
        return Derivation(self.id, self.steps, self.derived_expr, self.claimed_expr)


def _round_digits(d, cap):
    if d is None:
        return None
    if mp.isinf(d):
        return float(cap)
    return float(min(round(float(d), 1), cap))



def _simplifies_to_zero(derived, claimed):
    d = sp.simplify(derived - claimed)
    if d == 0:
        return True
    d2 = sp.simplify(sp.expand_log(sp.expand(d), force=True))
    if d2 == 0:
        return True
    return None


def symbolic_difference(derived, claimed, seconds=30):
    """``True`` if ``derived - claimed`` simplifies to 0, ``None`` if SymPy cannot tell.

    The answer is SymPy's for the two trees alone, so it goes through the cache of SymPy operations
    (:func:`cbdp_sym.core.symcache.cached_op`): a claim audited again (at another precision, as a claim another one
    uses, in another worker) and claims that derive and print the same forms ask it once.  A timeout is not an
    answer and is never stored.

    >>> x = sp.Symbol("x", positive=True)
    >>> symbolic_difference(sp.log(x**2), 2 * sp.log(x)), symbolic_difference(x, x + 1)
    (True, None)
    """
    try:
        with time_limit(seconds, "symbolic comparison"):
            return cached_op("symbolic_difference", _simplifies_to_zero, derived, claimed)
    except DerivationTimeout:
        return None


def _combine_readings(res) -> None:
    """Every plausible reading audited: refuted only when all fail, ``ambiguous`` when some fail and others do
    not (hold, verify, or stay undecided); the literal reading's evidence stays on the result, the per-reading
    verdicts in ``res.readings``."""
    statuses = [r["status"] for r in res.readings]
    failing = [s for s in statuses if s == Status.REFUTED]
    others = [s for s in statuses if s != Status.REFUTED]
    if failing and others and Status.ERROR not in statuses:  # some reading is not refuted: not "refuted"
        res.status = Status.AMBIGUOUS.value
        res.error_kind = "reading"
        res.message = ("readings disagree: " + "; ".join(f"{r['name']}: {r['status']}" for r in res.readings)
                       + ". " + res.message)
    elif failing and len(failing) == len(statuses) and res.status != Status.REFUTED:
        res.status = Status.REFUTED.value


def with_readings(literal, *others):
    """A ``check`` over several readings of a printed statement (the shape of a ``reading`` claim).

    ``literal`` is ``(name, check)`` for the text as printed; each of ``others`` is ``(name, check, seeds)``
    with ``seeds`` saying which extraction supports it.  Every reading is audited; the engine then makes
    the claim ``refuted`` only when every reading fails and ``ambiguous`` when their verdicts differ.
    The literal reading's evidence (checks, tables, counterexample) is the claim's; the others' tables follow.
    """
    def check(dps):
        out = CheckResult.of(literal[1](dps))
        rows = [{"name": literal[0], "status": out.status.value, "message": out.message, "seeds": "", "literal": True}]
        tables = list(out.tables)
        for name, fn, seeds in others:
            o = CheckResult.of(fn(dps))
            rows.append({"name": name, "status": o.status.value, "message": o.message, "seeds": seeds})
            tables.extend(o.tables)
        out.readings, out.tables = rows, tables
        return out

    check.__qualname__ = "with_readings_" + getattr(literal[1], "__qualname__", "check")
    return check


def derive(claim: Claim):
    """Run the claim's derivation; returns ``(expr, steps)``."""
    with recording() as tape:
        expr = claim.derive()
    return expr, list(tape.steps)


def audit_claim(claim: Claim, dps: int = 50, points: list | None = None) -> Result:
    """Audit one claim at ``dps`` digits and return its :class:`Result`."""
    t0 = time.perf_counter()
    try:
        res = _audit(claim, dps, points)
        for k in PRECISION_RAMP:  # a bound undecided only for want of precision: decide it at a higher one
            if not (res.status == "inconclusive" and res.precision_limited and claim.kind != "check"):
                break
            hi = _audit(claim, dps * k, points)
            hi.dps = dps
            if not (hi.status == "inconclusive" and hi.precision_limited):
                hi.message += (f" (decided at {dps * k} digits: at {dps} the two sides agreed to every digit "
                               "established)")
            res = hi
    except TimeLimitExceeded as exc:  # a hard limit (not an Exception: nothing below could swallow it)
        res = Result(claim, "inconclusive", f"timeout in {exc.phase or 'audit'}: {exc}", dps)
    except DerivationTimeout as exc:
        res = Result(claim, "inconclusive", str(exc), dps)
    except Skipped as exc:  # an optional library is missing: outside the verdict counts
        res = Result(claim, "skipped", f"{exc}; install with: {exc.install}" if exc.install else str(exc), dps)
    except Exception as exc:  # noqa: BLE001 - reported, never hidden
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0]
        res = Result(claim, "error", msg, dps)
        res.steps = [Step("traceback", "", traceback.format_exc(limit=3).splitlines()[-1])]
    if claim.readings and res.status not in ("error", "skipped"):
        import dataclasses

        res.readings = [{"name": "as printed", "status": res.status, "message": res.message, "seeds": "",
                         "literal": True}]
        for rd in claim.readings:
            alt = dataclasses.replace(claim, claimed=rd.claimed, readings=(), corrected=None, certify=None,
                                      statement=rd.statement or claim.statement)
            r2 = audit_claim(alt, dps, points)
            res.readings.append({"name": rd.name, "status": r2.status, "message": r2.message, "seeds": rd.seeds,
                                 "statement_latex": rd.statement or None})
        _combine_readings(res)
    if claim.corrected is not None and res.status not in ("error", "skipped"):
        import dataclasses

        # (a certificate hook proves the printed side wrong: it cannot speak for the corrected one)
        if claim.kind == "check":  # a check claim's corrected statement is a check of its own (evidence)
            fixed = dataclasses.replace(claim, check=claim.corrected, corrected=None, certify=None, readings=(), uses=(),
                                        statement=claim.corrected_statement or claim.statement)
        else:
            fixed = dataclasses.replace(claim, claimed=claim.corrected, corrected=None, certify=None, readings=(), uses=(),
                                        statement=claim.corrected_statement or claim.statement)
        res.corrected = audit_claim(fixed, dps, points)
    used = [BY_ID[u] for u in claim.uses if u in BY_ID and BY_ID[u].corrected is not None]
    if used and res.status not in ("error", "skipped", "definition", "cited"):
        # knock-on: the claim re-audited with the statements it uses read as corrected
        import dataclasses

        alt = dataclasses.replace(claim, uses=(), readings=(), corrected=None)
        res.against_corrected = using("corrected", lambda: audit_claim(alt, dps, points))
        res.against_corrected.message = ("with " + ", ".join(u.id for u in used) + " as corrected: "
                                         + res.against_corrected.message)
    if res.status == "refuted" and res.error_kind is None:
        res.error_kind = infer_error_kind(claim)
    if res.status == "refuted" and isinstance(res.counterexample, dict) and res.evidence is not None:
        # the counterexample re-evaluated by the engine: a refutation whose point does not fail again is an error
        try:
            again = counterexample_holds(res, dps)
            why = "the claim does not fail there when evaluated again"
        except Exception as exc:  # noqa: BLE001 - reported as the claim's error
            again, why = False, f"{type(exc).__name__}: {str(exc)[:200]}"
        if not again:
            res.status = "error"
            res.message = f"the counterexample at {res.counterexample.get('params')} does not re-evaluate: {why}"
    cx = res.counterexample
    if res.status in (Status.REFUTED, Status.AMBIGUOUS) and isinstance(cx, dict) and not cx.get("certified"):
        # every refutation says whether it is certified, and why not
        why = str(cx.get("certificate") or "").strip()
        why = why[len("not certified"):].strip(" :()") if why.startswith("not certified") else why
        res.counterexample = dict(cx, certified=False, certificate="not certified: " + (why or (
            "the check evaluates its members with mpmath at the working precision (proof chains, figures and "
            "prose claims have no ball-arithmetic hook)")))
    res.seconds = time.perf_counter() - t0
    return res


def _audit(claim: Claim, dps: int, points) -> Result:
    if claim.kind in ("definition", "cited") and claim.derive is None:
        return Result(claim, claim.kind, f"listed as {claim.kind}, not audited", dps)
    claimed = claim.claimed() if claim.claimed else None
    derived, steps = (None, [])
    derivation_problem = None
    if claim.derive:
        set_phase("derivation")
        try:
            with time_limit(claim.timeout, f"derivation of {claim.id}", hard=True):
                derived, steps = derive(claim)
        except (DerivationTimeout, TimeLimitExceeded) as exc:
            derivation_problem = f"timeout in derivation: {exc}"
        except DerivationError as exc:
            derivation_problem = f"the derivation failed: {exc}"
    if claim.kind == "check" and derivation_problem is None:
        # a check claim returns evidence (cbdp_sym.verify.evidence): the engine decides its verdict
        set_phase("checks")
        with mp.workdps(dps + 10):
            raw = claim.check(dps)
        if is_evidence(raw):
            return _evidence_result(claim, raw, dps, derived, claimed, steps)
        with mp.workdps(dps + 10):
            out = CheckResult.of(raw)  # a legacy check: its own status (being retired: see evidence.py)
        res = Result(claim, out.status.value, out.message, dps, derived, claimed, steps)
        res.checks = list(out.checks)
        res.counterexample = out.counterexample
        res.tables = list(out.tables)
        res.error_kind = out.error_kind
        res.readings = list(out.readings)
        if res.readings:
            _combine_readings(res)
        return res
    if claim.kind == "definition":
        msg = "definition; sanity checks of the derivation: " + ("passed" if derivation_problem is None else derivation_problem)
        return Result(claim, "definition", msg, dps, derived, claimed, steps)
    res = Result(claim, "inconclusive", "", dps, derived, claimed, steps)
    if derivation_problem:
        res.message = derivation_problem
        return res
    bound = claim.kind in BOUND_KINDS
    pts = points or (claim.sweep_points() if bound else claim.default_points())
    work = dps + 10
    cap = work
    tol = identity_digits(dps)
    worst = None
    slacks = []
    values = []  # (point, claimed, derived, numeric, origin): the comparisons the verdict is decided from
    set_phase("numerics")
    with mp.workdps(work):
        for pt in pts:
            shown = {k: str(v) for k, v in pt.items()}
            try:
                cla, der, num = _values_at(claim, derived, claimed, pt)
            except _Unevaluable as exc:
                res.status = "inconclusive"
                res.message = f"the derived form cannot be evaluated at {shown}: {exc}"
                return res
            chk, slack = _check_of(claim, shown, cla, der, num, dps, cap)
            if slack is not None:
                slacks.append((slack, pt))
                if worst is None or slack < worst[0]:
                    worst = (slack, pt, cla, der if num is None else num, der)
            res.checks.append(chk)
            values.append((pt, cla, der, num, "grid"))
    if bound and claim.search:
        set_phase("search")
        found = adversarial_search(claim, derived, claimed, slacks)
        res.search = found["summary"]
        if found["point"] is not None and found["point"] not in pts:
            pt = found["point"]
            with mp.workdps(work):
                cla, der, num = _values_at(claim, derived, claimed, pt)
                chk, slack = _check_of(claim, {k: str(v) for k, v in pt.items()}, cla, der, num, dps, cap)
            chk.origin = "search"
            res.checks.append(chk)
            values.append((pt, cla, der, num, "search"))
            slacks.append((slack, pt))
            if slack < worst[0]:
                worst = (slack, pt, cla, der if num is None else num, der)
    # derived vs numeric must agree for the derivation to stand
    bad = [c for c in res.checks if c.digits_derived is not None and c.digits_derived < tol]
    if bad:
        c = bad[0]
        res.status = "inconclusive"
        res.message = (f"the derived form disagrees with the numeric definition at {c.params} "
                       f"({c.digits_derived} digits < {tol}): derived {c.derived}, numeric {c.numeric}")
        return res
    res.evidence = _engine_evidence(claim, values, dps)
    res._values = values
    if bound:
        return _bound_verdict(claim, res, worst, tol, slacks, derived, claimed)
    return _identity_verdict(claim, res, tol)


_KIND_REL = {"identity": "=", "upper": "<=", "strict-upper": "<", "lower": ">="}


def _engine_leaves(claim, values):
    """The comparisons of an identity or bound claim (the printed side against the definition's value at every
    point), as :class:`~cbdp_sym.verify.evidence.Compare` leaves."""
    rel = _KIND_REL[claim.kind]
    out = []
    for pt, cla, der, num, origin in values:
        ref = num if num is not None else der
        other = cla if cla is not None else der
        if ref is None or other is None or (claim.kind == "identity" and cla is None and num is None):
            continue
        out.append(Compare(claimed=other, computed=ref, rel=rel, at=dict(pt), origin=origin))
    return out


def _engine_evidence(claim, values, dps):
    """The stored evidence of an identity or bound claim (what the mutation battery re-decides)."""
    leaves = _engine_leaves(claim, values)
    if not leaves:
        return None
    tree = collect(Group("family" if any(p.finite for p in claim.params) else "sample", leaves,
                         domain="the claim's points" + (" and the adversarial search" if claim.search else "")), dps)
    dec = decide(tree, dps)
    return {"summary": dec.evidence, "tree": to_json(tree, dps), "dps": dps, "decision": dec.status.value}


def _short15(text):
    """A value string shortened to 15 significant digits for a message (the full value is in the checks)."""
    try:
        with mp.workdps(20):
            return mp.nstr(mp.mpf(text), 15)
    except (TypeError, ValueError):
        return str(text)



def _values_at(claim, derived, claimed, pt):
    """``(claimed, derived, numeric)`` at an exact point, at the working precision (``None`` where absent)."""
    num = claim.numeric(pt) if claim.numeric else None
    try:
        der = evaluate(derived, pt, claim) if derived is not None else None
    except (CbdpError, TypeError, ValueError) as exc:
        raise _Unevaluable(str(exc)) from None
    cla = evaluate(claimed, pt, claim) if claimed is not None else None
    return cla, der, num



def _check_of(claim, shown, cla, der, num, dps, cap):
    bound = claim.kind in ("upper", "lower", "strict-upper")
    ref = num if num is not None else der
    chk = Check(shown, mp_str(cla, dps) if cla is not None else None, mp_str(der, dps) if der is not None else None,
                mp_str(num, dps) if num is not None else None)
    est = established(num)
    if est is not None:  # agreement cannot be claimed beyond the digits the numeric side established
        chk.established = est
        cap = min(cap, est)
    if num is not None and der is not None:
        chk.digits_derived = _round_digits(digits(num, der), cap)
    slack = None
    if bound:
        if cla is None or ref is None:
            raise CbdpError(f"{claim.id}: a bound needs the claimed side and the quantity")
        slack = _slack(claim.kind, cla, ref)
        chk.slack = mp_str(slack, 15)
        chk.digits = _round_digits(digits(ref, cla), cap)
    else:
        other = cla if cla is not None else der
        if other is not None and ref is not None:
            chk.digits = _round_digits(digits(ref, other), cap)
    return chk, slack




def _simple_rational(x: float, param):
    """A short rational near ``x`` (a counterexample anyone can re-run), inside the parameter's domain."""
    from fractions import Fraction

    if param.domain == "positive-int":
        return sp.Integer(max(1, round(x)))
    for den in (1, 2, 4, 10, 20, 100, 1000, 10**4, 10**6):
        fr = Fraction(x).limit_denominator(den)
        if fr == 0 and x != 0:  # a tiny value must not round to 0: keep its first digits
            continue
        if abs(fr - Fraction(x)) <= 1e-3 * max(abs(x), 1e-6) or den == 10**6:
            try:
                return param.validate(sp.Rational(fr.numerator, fr.denominator))
            except CbdpError:
                continue
    e10 = 10 ** max(0, -int(math.floor(math.log10(abs(x)))) + 6) if x else 1
    return param.validate(sp.Rational(round(x * e10), e10))


def adversarial_search(claim, derived, claimed, slacks):
    """Minimise a bound's relative slack over ``claim.search`` (a box of parameters), from the worst sweep points.

    Nelder-Mead (SciPy) in unconstrained coordinates (log for scales and for ``alpha - 1``, logit for
    probabilities), at ``claim.search_dps`` digits, with at most ``claim.search_evals`` evaluations in
    all: a count, so that the same inputs give the same report.  The best point is rounded to a short
    rational in the box; the caller re-evaluates it at full precision.  Returns ``{"point", "summary"}``.
    """
    import math

    import numpy as np
    from scipy.optimize import minimize

    params = {p.name: p for p in claim.params}
    names = [n for n in claim.search if n in params]
    box = {n: tuple(float(parse_exact(v)) for v in claim.search[n]) for n in names}
    lo = [_to_search(params[n], box[n][0]) for n in names]
    hi = [_to_search(params[n], box[n][1]) for n in names]
    starts = [pt for _s, pt in sorted(slacks, key=lambda t: t[0])[:3]]
    budget = [claim.search.evals]
    best = [None, None]  # slack, exact point

    def point_of(y):
        pt = None
        vals = {}
        for n, yi in zip(names, y):
            yi = min(max(float(yi), lo[names.index(n)]), hi[names.index(n)])
            vals[n] = _simple_rational(_from_search(params[n], yi), params[n])
        return vals

    def objective(y, base):
        if budget[0] <= 0:
            raise StopIteration
        budget[0] -= 1
        pt = dict(base)
        try:
            pt.update(point_of(y))
            pt = claim.parse_point({k: str(v) for k, v in pt.items()})
            with mp.workdps(claim.search.dps):
                cla, der, num = _values_at(claim, derived, claimed, pt)
                ref = num if num is not None else der
                sl = _slack(claim.kind, cla, ref)
        except (CbdpError, _Unevaluable, ZeroDivisionError, ValueError, OverflowError):
            return 1e300
        if not mp.isfinite(sl):
            return 1e300
        if best[0] is None or sl < best[0]:
            best[0], best[1] = sl, pt
        return float(sl)

    runs = 0
    for base in starts:
        y0 = [min(max(_to_search(params[n], base[n]), lo[i]), hi[i]) for i, n in enumerate(names)]
        if budget[0] <= 0:
            break
        runs += 1
        try:
            minimize(objective, np.array(y0), args=(base,), method="Nelder-Mead",
                     bounds=list(zip(lo, hi)), options={"maxfev": max(10, claim.search.evals // max(len(starts), 1)),
                                                        "xatol": 1e-4, "fatol": 1e-12})
        except StopIteration:
            break
    used = claim.search.evals - budget[0]
    summary = {"box": {n: list(claim.search[n]) for n in names}, "starts": runs, "evaluations": used,
               "digits": claim.search.dps,
               "best": None if best[1] is None else {k: str(v) for k, v in best[1].items()},
               "best_slack": None if best[0] is None else mp_str(best[0], 6)}
    if math.isfinite(float(best[0])) if best[0] is not None else False:
        return {"point": best[1], "summary": summary}
    return {"point": None, "summary": summary}



def _identity_verdict(claim, res, tol):
    if res.claimed_expr is None:
        agree = all(c.digits is not None and c.digits >= tol for c in res.checks)
        res.status = "verified" if agree else "inconclusive"
        res.message = (f"derived form agrees with the numeric definition to >= {min(c.digits for c in res.checks)} digits "
                       f"at {len(res.checks)} points (nothing printed to compare)" if agree else "numeric check failed")
        return res
    sym = symbolic_difference(res.derived_expr, res.claimed_expr) if res.derived_expr is not None else None
    res.symbolic = "derived - claimed simplifies to 0" if sym else "SymPy could not simplify derived - claimed to 0"
    failing = [c for c in res.checks if c.digits is None or c.digits < tol]
    short = [c for c in failing if c.established is not None and c.established < tol
             and c.digits is not None and c.digits >= c.established - 1]
    if failing and len(short) == len(failing):
        c = short[0]
        res.status = "inconclusive"
        res.message = (f"the numeric side established only {c.established} digits at {c.params} (agreeing to all of "
                       f"them), fewer than the {tol} an identity needs")
        return res
    if not failing:
        res.status = "verified"
        res.message = (f"{res.symbolic}; claimed = numeric to >= {res.min_digits()} digits at {len(res.checks)} points")
        return res
    c = min(failing, key=lambda c: c.digits if c.digits is not None else -1)  # the worst disagreement
    if sym:
        res.status = "inconclusive"
        res.message = f"symbolically equal but numerics disagree at {c.params} ({c.digits} digits)"
        return res
    worst_c = c
    cert = None
    if res.derived_expr is not None:
        # the simplest failing point that certifies (small rationals, moderate magnitudes) is the headline
        for cand in sorted(failing, key=lambda k: point_simplicity(k.params)):
            cert = certify_different(res.claimed_expr, res.derived_expr, claim.parse_point(cand.params), claim.symbols())
            if cert is not None:
                c = cand
                break
    else:
        c = min(failing, key=lambda k: point_simplicity(k.params))
    res.status = "refuted"

    def typed(params):  # vectors as arrays, as a bound's point gives them (a shown 1-vector reads "(1,)")
        vecs = {p.name for p in claim.params if p.domain == "vector"}
        try:
            pt = claim.parse_point(params) if vecs & set(params) else {}
        except Exception:  # noqa: BLE001 - a point the claim cannot parse again stays as shown
            pt = {}
        return {k: (params_json({k: pt[k]})[k] if k in vecs and k in pt else v) for k, v in params.items()}

    res.counterexample = counterexample(
        typed(c.params), relation="=", quantity=c.numeric or c.derived, bound=c.claimed,
        derived=c.derived if c.numeric else None, digits=c.digits, certified=cert is not None,
        certificate=cert or ("not certified: " + ("no derived closed form to set against the printed one in ball "
                                                  "arithmetic" if res.derived_expr is None else
                                                  "ball arithmetic could not separate the two closed forms")),
        worst=({"params": typed(worst_c.params), "bound": worst_c.claimed, "quantity": worst_c.numeric or worst_c.derived,
                "digits": worst_c.digits} if worst_c is not c else None))
    res.message = (f"claimed {_short15(c.claimed)} but the definition gives {_short15(c.numeric or c.derived)} at "
                   + ", ".join(f"{k}={v}" for k, v in c.params.items()) + (" (certified)" if cert else ""))
    return res


def _bound_certificate(claim, res, pt):
    """A ball-arithmetic proof that the bound fails at ``pt`` (closed forms, or the claim's own hook), or None."""
    cert = None
    if res.derived_expr is not None:
        syms = claim.symbols()
        if claim.kind == "lower":
            cert = certify_less(res.derived_expr, res.claimed_expr, pt, syms)
        else:
            cert = certify_less(res.claimed_expr, res.derived_expr, pt, syms)
    if cert is None and claim.certify is not None:
        try:
            cert = claim.certify(pt)
        except Exception:  # noqa: BLE001 - a failed certificate leaves the refutation uncertified
            cert = None
    return cert


def _point_values(claim, derived, claimed, pt, dps):
    """``(claimed, derived, quantity, slack)`` of a bound at one point, at the working precision."""
    with mp.workdps(dps + 10):
        cla, der, num = _values_at(claim, derived, claimed, pt)
        ref = num if num is not None else der
        return cla, der, ref, _slack(claim.kind, cla, ref)


def _bound_verdict(claim, res, worst, tol, slacks=(), derived=None, claimed=None):
    slack, pt, cla, ref, der = worst
    rel = {"upper": r"\le", "strict-upper": "<", "lower": r"\ge"}[claim.kind]
    where = ", ".join(f"{k}={v}" for k, v in pt.items())
    leaves = _engine_leaves(claim, getattr(res, "_values", ()))
    decided = [(c.at, decide_leaf(c, res.dps)) for c in leaves]
    failing = [at for at, lf in decided if lf.status == Status.REFUTED]
    undecided = [(at, lf) for at, lf in decided if lf.status == Status.INCONCLUSIVE]
    if not failing and undecided:
        at, lf = undecided[0]
        res.status = "inconclusive"
        res.precision_limited = lf.precision
        res.message = (f"undecided at {', '.join(f'{k}={v}' for k, v in at.items())}: {lf.reason}")
        res.counterexample = None
        return res
    if not failing:
        res.status = "holds"
        shown = mp_str(slack, 6)
        at_worst = [lf for at, lf in decided if at == pt]
        if at_worst and at_worst[0].equal:
            shown = f"0 (equal to {tol} digits)"
        res.message = (f"no violation at {len(res.checks)} points; smallest relative slack {shown} at {where}")
        res.counterexample = None
        return res
    worst_pt, worst_slack = pt, slack
    bad = []
    for s_, p in sorted(slacks, key=lambda t: point_simplicity({k: str(v) for k, v in t[1].items()})):
        if p in failing and p not in bad:
            bad.append(p)
    cert = None
    # the simplest violating points first: the headline counterexample is the simplest one that certifies
    for p in bad[:6]:
        c = _bound_certificate(claim, res, p)
        if c is not None:
            cert = c
            if p != pt:
                pt, (cla, der, ref, slack) = p, _point_values(claim, derived, claimed, p, res.dps)
                where = ", ".join(f"{k}={v}" for k, v in pt.items())
            break
    if cert is None and bad and bad[0] != pt:
        pt, (cla, der, ref, slack) = bad[0], _point_values(claim, derived, claimed, bad[0], res.dps)
        where = ", ".join(f"{k}={v}" for k, v in pt.items())
    res.status = "refuted"
    res.counterexample = counterexample(
        params_json(pt), relation=_KIND_REL[claim.kind], quantity=mp_str(ref, res.dps), bound=mp_str(cla, res.dps),
        derived=mp_str(der, res.dps) if (der is not None and der is not ref) else None,
        relative_slack=mp_str(slack, 6), certified=cert is not None,
        certificate=cert or ("not certified: " + ("the quantity has no closed form and the claim has no certificate "
                                                  "hook" if res.derived_expr is None and claim.certify is None else
                                                  "ball arithmetic could not separate the two sides")),
        worst=({"params": params_json(worst_pt), "relative_slack": mp_str(worst_slack, 6)} if pt != worst_pt else None))
    res.message = f"the bound ${rel}$ fails at {where}: quantity {mp_str(ref, 12)}, bound {mp_str(cla, 12)}"
    _add_failure_region(claim, res, pt, derived, claimed)
    return res


def _add_failure_region(claim, res, pt, derived, claimed):
    """The boundary of the failure region around the counterexample (audit.json and a report table)."""
    try:
        res.failure_region = failure_region(claim, pt, derived, claimed, dps=res.dps)
    except Exception as exc:  # noqa: BLE001 - a failed region leaves the refutation as it is
        res.failure_region = {"skipped": f"{type(exc).__name__}: {str(exc)[:120]}"}
    tab = region_table(res.failure_region)
    if tab is not None:
        res.tables.append(tab)


#: a check claim whose evidence is undecided for want of precision is re-run at these multiples of ``dps``
PRECISION_RAMP = (2, 4)


def _evidence_result(claim, raw, dps, derived, claimed, steps) -> Result:
    """The result of a check claim from its evidence: collected, decided by the engine's one rule; where a
    comparison is undecided only for want of precision, the check is re-run at a higher precision (twice at
    most) before it is called ``inconclusive``."""
    got = collect_evidence(raw, dps)
    dec = decide(got.tree, dps)
    used = dps
    for k in PRECISION_RAMP:
        if not dec.precision_limited:
            break
        hi = dps * k
        with mp.workdps(hi + 10):
            got2 = collect_evidence(claim.check(hi), hi)
        dec2 = decide(got2.tree, hi)
        got, dec, used = got2, dec2, hi
    res = Result(claim, dec.status.value, dec.message, dps, derived, claimed, steps)
    if used != dps:
        res.message += f" (decided at {used} digits: at {dps} the sides agreed to every digit established)"
    res.checks = list(dec.checks)
    res.counterexample = dec.counterexample
    res.tables = list(got.tables)
    res.readings = list(dec.readings)
    res.error_kind = got.error_kind or dec.error_kind
    res.evidence = {"summary": dec.evidence, "tree": got.as_json(used)["tree"], "dps": used, "decision": dec.status.value}
    return res


# -- one point, re-evaluated (``cbdp-sym eval``, and the findings' counterexamples) -------------------------------
def _same_value(a, b) -> bool:
    """Two parameter values the same (``"0.5" == "1/2"``, vectors coordinate by coordinate)."""
    if isinstance(a, list) or isinstance(b, list):
        a = a if isinstance(a, list) else str(a).strip("()[] ").split(",")
        b = b if isinstance(b, list) else str(b).strip("()[] ").split(",")
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    sa, sb = str(a).strip(), str(b).strip()
    if sa == sb:
        return True
    try:
        return parse_exact(sa) == parse_exact(sb)
    except Exception:  # noqa: BLE001 - labels, not numbers
        return False


def check_leaves_at(claim: Claim, raw: dict, dps: int = 50) -> list:
    """The comparisons of a check claim at the point ``raw`` (``{name: text}``), re-computed by running the check
    and re-decided by the engine: ``[(Compare, Leaf), ...]`` (empty when no comparison has that point)."""
    with mp.workdps(dps + 10):
        got = collect_evidence(claim.check(dps), dps)
        out = []
        for _p, c in _leaves(got.tree):
            at = params_json(c.at)
            if raw and all(k in at and _same_value(at[k], v) for k, v in raw.items()):
                out.append((c, decide_leaf(c, dps)))
    return out


def counterexample_holds(res: Result, dps: int | None = None) -> bool:
    """Whether a refuted result's counterexample still fails when the engine evaluates the claim there again: a
    check claim's comparisons at that point re-computed and re-decided, an identity or bound claim's sides
    re-evaluated at the point.  (A finding whose counterexample does not re-evaluate is an error, never shown.)"""
    cx = res.counterexample or {}
    params = cx.get("params")
    dps = dps or res.dps
    claim = res.claim
    if not isinstance(params, dict):
        return False
    if claim.kind == "check":
        if not params:  # a comparison without a point: the whole check re-run and re-decided
            with mp.workdps(dps + 10):
                return decide(collect_evidence(claim.check(dps), dps).tree, dps).status == Status.REFUTED
        return any(lf.status == Status.REFUTED for _c, lf in check_leaves_at(claim, params, dps))
    point = claim.parse_point({k: (",".join(v) if isinstance(v, list) else v) for k, v in params.items()})
    derived = derive(claim)[0] if claim.derive else None
    claimed = claim.claimed() if claim.claimed else None
    with mp.workdps(dps + 10):
        cla, der, num = _values_at(claim, derived, claimed, point)
        ref = num if num is not None else der
        leaf = decide_leaf(Compare(claimed=cla, computed=ref, rel=_KIND_REL[claim.kind], at=point), dps)
    return leaf.status == Status.REFUTED
