"""Verification: derived vs numeric vs claimed, and the verdict.

* ``digits(x, y) = -log10(|x - y| / max(|x|, |y|))``; numerics run at ``dps + 10`` and an identity
  passes at ``dps - 5`` digits.
* Statuses: ``verified``, ``holds`` (bound, no violation on the sweep, smallest relative slack),
  ``refuted`` (counterexample, certified with Arb where the forms are closed), ``inconclusive``
  (one-line reason), ``error`` (a crash, with its message), ``definition`` / ``cited``.
* SymPy failing to simplify a difference to 0 is *unknown*, never a refutation.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

import mpmath as mp
import sympy as sp

from .certify import certify_different, certify_less
from .claims import Claim
from .divergences import Expect
from .errors import CbdpError, DerivationError, DerivationTimeout
from .numbers import digits, mp_str, to_mpf
from .tape import Step, recording
from .timelimit import time_limit


@dataclass
class Check:
    params: dict
    claimed: str | None = None
    derived: str | None = None
    numeric: str | None = None
    digits: float | None = None  # numeric vs claimed (vs derived when nothing is claimed)
    digits_derived: float | None = None  # numeric vs derived
    slack: str | None = None  # bounds: relative slack (claimed - quantity) / |claimed|, signed

    def as_json(self):
        out = {"params": self.params, "claimed": self.claimed, "derived": self.derived,
               "numeric": self.numeric, "digits": self.digits, "digits_derived": self.digits_derived}
        if self.slack is not None:
            out["slack"] = self.slack
        return out


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
    seconds: float = 0.0  # not written into reports (reproducibility)

    @property
    def id(self):
        return self.claim.id

    def min_digits(self):
        vals = [c.digits for c in self.checks if c.digits is not None]
        return min(vals) if vals else None


def _round_digits(d, cap):
    if d is None:
        return None
    if mp.isinf(d):
        return float(cap)
    return float(min(round(float(d), 1), cap))


def evaluate(expr, point: dict, claim: Claim):
    """Evaluate a closed form at an exact point, at the working precision (mpf)."""
    syms = claim.symbols()
    e = sp.sympify(expr).subs({syms[n]: v for n, v in point.items()})
    if e.has(Expect):
        if claim.laws is None:
            raise CbdpError(f"{claim.id}: an expectation needs an instance of the laws")
        from .distributions import X
        from .numeric import expect_mp

        laws = claim.laws(point)
        reps = {}
        for atom in sorted(e.atoms(Expect), key=sp.default_sort_key):
            law = laws[str(atom.args[0])]
            body = sp.lambdify(X, atom.args[1], modules="mpmath")
            reps[atom] = sp.Float(mp_str(expect_mp(law, body), mp.mp.dps), mp.mp.dps)
        e = e.xreplace(reps)
    if e.free_symbols:
        raise CbdpError(f"{claim.id}: free symbols {sorted(map(str, e.free_symbols))} after substitution")
    return to_mpf(e)


def symbolic_difference(derived, claimed, seconds=30):
    """``True`` if ``derived - claimed`` simplifies to 0, ``None`` if SymPy cannot tell."""
    try:
        with time_limit(seconds, "symbolic comparison"):
            d = sp.simplify(derived - claimed)
            if d == 0:
                return True
            d2 = sp.simplify(sp.expand_log(sp.expand(d), force=True))
            if d2 == 0:
                return True
    except DerivationTimeout:
        return None
    return None


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
    except DerivationTimeout as exc:
        res = Result(claim, "inconclusive", str(exc), dps)
    except Exception as exc:  # noqa: BLE001 - reported, never hidden
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0]
        res = Result(claim, "error", msg, dps)
        res.steps = [Step("traceback", "", traceback.format_exc(limit=3).splitlines()[-1])]
    res.seconds = time.perf_counter() - t0
    return res


def _audit(claim: Claim, dps: int, points) -> Result:
    if claim.kind in ("definition", "cited") and claim.derive is None:
        return Result(claim, claim.kind, f"listed as {claim.kind}, not audited", dps)
    claimed = claim.claimed() if claim.claimed else None
    derived, steps = (None, [])
    derivation_problem = None
    if claim.derive:
        try:
            with time_limit(claim.timeout, f"derivation of {claim.id}"):
                derived, steps = derive(claim)
        except DerivationTimeout as exc:
            derivation_problem = f"inconclusive: {exc}"
        except DerivationError as exc:
            derivation_problem = f"the derivation failed: {exc}"
    if claim.kind == "check" and derivation_problem is None:
        # a claim with its own verdict logic (figure claims, numeric claims): the engine supplies
        # the working precision; the check returns its status, message and evidence
        with mp.workdps(dps + 10):
            out = claim.check(dps)
        res = Result(claim, out["status"], out["message"], dps, derived, claimed, steps)
        res.checks = list(out.get("checks", []))
        res.counterexample = out.get("counterexample")
        return res
    if claim.kind == "definition":
        msg = "definition; sanity checks of the derivation: " + ("passed" if derivation_problem is None else derivation_problem)
        return Result(claim, "definition", msg, dps, derived, claimed, steps)
    res = Result(claim, "inconclusive", "", dps, derived, claimed, steps)
    if derivation_problem:
        res.message = derivation_problem
        return res
    bound = claim.kind in ("upper", "lower", "strict-upper")
    pts = points or (claim.sweep_points() if bound else claim.default_points())
    work = dps + 10
    cap = work
    tol = dps - 5
    worst = None
    with mp.workdps(work):
        for pt in pts:
            shown = {k: str(v) for k, v in pt.items()}
            num = claim.numeric(pt) if claim.numeric else None
            try:
                der = evaluate(derived, pt, claim) if derived is not None else None
            except (CbdpError, TypeError, ValueError) as exc:
                res.status = "inconclusive"
                res.message = f"the derived form cannot be evaluated at {shown}: {exc}"
                return res
            cla = evaluate(claimed, pt, claim) if claimed is not None else None
            ref = num if num is not None else der
            chk = Check(shown, mp_str(cla, dps) if cla is not None else None, mp_str(der, dps) if der is not None else None,
                        mp_str(num, dps) if num is not None else None)
            if num is not None and der is not None:
                chk.digits_derived = _round_digits(digits(num, der), cap)
            if bound:
                if cla is None or ref is None:
                    raise CbdpError(f"{claim.id}: a bound needs the claimed side and the quantity")
                if claim.kind in ("upper", "strict-upper"):
                    slack = (cla - ref) / abs(cla) if cla != 0 else cla - ref
                else:
                    slack = (ref - cla) / abs(cla) if cla != 0 else ref - cla
                chk.slack = mp_str(slack, 15)
                chk.digits = _round_digits(digits(ref, cla), cap)
                if worst is None or slack < worst[0]:
                    worst = (slack, pt, cla, ref, der)
            else:
                other = cla if cla is not None else der
                if other is not None and ref is not None:
                    chk.digits = _round_digits(digits(ref, other), cap)
            res.checks.append(chk)
    # derived vs numeric must agree for the derivation to stand
    bad = [c for c in res.checks if c.digits_derived is not None and c.digits_derived < tol]
    if bad:
        c = bad[0]
        res.status = "inconclusive"
        res.message = (f"the derived form disagrees with the numeric definition at {c.params} "
                       f"({c.digits_derived} digits < {tol}): derived {c.derived}, numeric {c.numeric}")
        return res
    if bound:
        return _bound_verdict(claim, res, worst, tol)
    return _identity_verdict(claim, res, tol)


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
    if not failing:
        res.status = "verified"
        res.message = (f"{res.symbolic}; claimed = numeric to >= {res.min_digits()} digits at {len(res.checks)} points")
        return res
    c = min(failing, key=lambda c: c.digits if c.digits is not None else -1)
    if sym:
        res.status = "inconclusive"
        res.message = f"symbolically equal but numerics disagree at {c.params} ({c.digits} digits)"
        return res
    point = claim.parse_point(c.params)
    cert = None
    if res.derived_expr is not None:
        cert = certify_different(res.claimed_expr, res.derived_expr, point, claim.symbols())
    res.status = "refuted"
    res.counterexample = {"params": c.params, "claimed": c.claimed, "derived": c.derived, "numeric": c.numeric,
                          "digits": c.digits, "certified": cert is not None,
                          "certificate": cert or "not certified (no closed form on both sides in ball arithmetic)"}
    res.message = (f"claimed {c.claimed} but the definition gives {c.numeric or c.derived} at "
                   + ", ".join(f"{k}={v}" for k, v in c.params.items()) + (" (certified)" if cert else ""))
    return res


def _bound_verdict(claim, res, worst, tol):
    slack, pt, cla, ref, der = worst
    rel = {"upper": r"\le", "strict-upper": "<", "lower": r"\ge"}[claim.kind]
    where = ", ".join(f"{k}={v}" for k, v in pt.items())
    strict = claim.kind == "strict-upper"
    eps_num = mp.mpf(10) ** (-tol)
    violated = slack <= 0 if strict else slack < -eps_num
    if not violated:
        res.status = "holds"
        res.message = (f"no violation at {len(res.checks)} points; smallest relative slack {mp_str(slack, 6)} at {where}")
        res.counterexample = None
        return res
    cert = None
    if res.derived_expr is not None:
        syms = claim.symbols()
        if claim.kind == "lower":
            cert = certify_less(res.derived_expr, res.claimed_expr, pt, syms)
        else:
            cert = certify_less(res.claimed_expr, res.derived_expr, pt, syms)
    res.status = "refuted"
    res.counterexample = {"params": {k: str(v) for k, v in pt.items()}, "claimed": mp_str(cla, res.dps),
                          "derived": mp_str(der, res.dps) if der is not None else None, "numeric": mp_str(ref, res.dps),
                          "relative_slack": mp_str(slack, 6), "certified": cert is not None,
                          "certificate": cert or "not certified"}
    res.message = f"the bound ${rel}$ fails at {where}: quantity {mp_str(ref, 12)}, bound {mp_str(cla, 12)}"
    return res
