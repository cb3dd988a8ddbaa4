"""Restricted divergences over ``lin`` / ``poly_k`` for laws on the integers, through the engine's restricted solver.

A law on the integers with infinite support is replaced by the finite law of its atoms in a window ``[a, b]`` whose
outside mass is below ``10^-(2 dps + 20)`` (bounded by the law's tail forms, :mod:`cbdp_sym.laws.discrete`); the
solver of :mod:`cbdp_sym.restricted.solver` then runs on finite laws (sums, exact).  The truncation's effect is
bounded *at the optimum* ``h``: the tails beyond the window of ``E_P[|h|]`` and of ``E_Q[f*(h)]`` (KL: ``e^{h - 1}``;
the alpha-divergence: ``|h|^A``), bounded analytically by the laws' tail forms times the growth of ``h`` (for ``h``
of degree <= 2); the window is widened until that bound is below ``10^-(dps + 5)`` of the value.  The bound and the
window are stated in the result's notes.  Beyond degree 2 (or with a conjugate of bounded domain) the window's outside
mass alone is stated.

>>> import mpmath as mp
>>> from cbdp_sym.laws.discrete import DiscreteGaussian
>>> from cbdp_sym.restricted.solver import restricted
>>> with mp.workdps(20):
...     r = restricted("kl", "lin", DiscreteGaussian(0, 1), DiscreteGaussian(1, 1), second=False)
>>> mp.nstr(r.value, 12)
'0.5'
"""
from __future__ import annotations

import mpmath as mp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.laws.discrete import LatticeLaw, TailForm
from cbdp_sym.laws.distributions import Finite
from cbdp_sym.restricted.common import parse_class

__all__ = ["lattice_restricted", "window"]


def _mass_tail(law, d, X):
    forms = law.upper_forms(d)
    if forms is None:
        return mp.mpf(0)
    return mp.fsum(f.tail(X) for f in forms)


def window(law, tol):
    """``(a, b)``: integers with the law's mass outside ``[a, b]`` below ``tol`` (each tail below ``tol / 2``)."""
    lo, hi = law.mp_bounds()
    m = law.mp_mode()
    ends = []
    for d, end in ((-1, lo), (1, hi)):
        if end is not None:
            ends.append(end)
            continue
        step, x = 1, d * m + 1
        while True:
            forms = law.upper_forms(d)
            if all(x >= f.x0 for f in forms) and _mass_tail(law, d, x) < tol / 2:
                break
            x += step
            step *= 2
        ends.append(d * (x - 1))
    return ends[0], ends[1]


def _finite(law, a, b):
    if not isinstance(law, LatticeLaw):
        return law
    pts = list(range(a, b + 1))
    probs = [law.mp_pmf_at(k) for k in pts]
    keep = [(k, p) for k, p in zip(pts, probs) if p > 0]
    tot = mp.fsum(p for _k, p in keep)
    return Finite([k for k, _p in keep], [p / tot for _k, p in keep])


def _poly_bound(coeffs):
    """``(C, m)`` with ``|h(x)| <= C (1 + |x|)^m`` for ``h = sum_j coeffs[j] x^j``."""
    m = max((j for j, c in enumerate(coeffs) if c != 0), default=0)
    return mp.fsum(abs(c) for c in coeffs) or mp.mpf(1), m


def _outside(law, a, b, forms_of_term):
    """``sum_{k outside [a, b]}`` of a term bounded by ``forms_of_term(law_form)`` in each tail."""
    total = mp.mpf(0)
    for d, start in ((1, b + 1), (-1, -(a - 1))):
        forms = law.upper_forms(d) if isinstance(law, LatticeLaw) else None
        if forms is None:
            continue
        fs = [forms_of_term(f, d) for f in forms]
        total += mp.fsum(f.tail(max(start, f.x0)) for f in fs)
    return total


def _tail_bound(divergence, P, Q, a, b, coeffs, A=None):
    """A bound of ``|J_full(h) - J_window(h)|`` at the optimum ``h`` (``None`` beyond degree 2)."""
    deg = max((j for j, c in enumerate(coeffs) if c != 0), default=0)
    C, m = _poly_bound(coeffs)
    eP = _outside(P, a, b, lambda f, d: f.with_poly(m, C))
    if divergence == "kl":
        if deg > 2:
            return None
        c = list(coeffs) + [mp.mpf(0)] * 3

        def term(f, d):  # e^{h(x) - 1} q(x), h(d x) = c2 x^2 + d c1 x + c0
            return f.plus(TailForm(a2=c[2], a1=d * c[1], a0=c[0] - 1))

        eQ = _outside(Q, a, b, term)
    else:
        eQ = _outside(Q, a, b, lambda f, d: f.with_poly(m * A, C**A))
    return eP + eQ


def lattice_restricted(solve, divergence, cls, P, Q, alpha=None, second=True, features=None):
    """The restricted divergence of a pair involving a law on the integers, by ``solve`` (the engine's
    :func:`cbdp_sym.restricted.solver.restricted`) on windows of the laws, widened until the bound of the
    truncation's effect at the optimum is below ``10^-(dps + 5)`` of the value (see the module docstring)."""
    if features is not None:
        raise ParameterError("a feature map applies to product laws; laws on the integers are one-dimensional")
    parse_class(cls)
    dps = mp.mp.dps
    tol = mp.mpf(10) ** -(2 * dps + 20)
    div = str(divergence).lower()
    A = None
    if div in ("alpha", "renyi"):
        al = mp.mpf(alpha) if not hasattr(alpha, "p") else mp.mpf(alpha.p) / alpha.q
        A = al / (al - 1)
    for _ in range(6):
        ends = [window(L, tol) for L in (P, Q) if isinstance(L, LatticeLaw)]
        a = min(e[0] for e in ends)
        b = max(e[1] for e in ends)
        FP, FQ = _finite(P, a, b), _finite(Q, a, b)
        res = solve(divergence, cls, FP, FQ, alpha=alpha, second=second)
        if res.infinite or div == "tv":
            res.notes.append(f"laws on the integers: solved on the atoms of [{a}, {b}] (outside mass < {mp.nstr(tol, 3)})")
            return res
        bound = _tail_bound("kl" if div == "kl" else "power", P, Q, a, b, [mp.mpf(c) for c in res.optimum], A)
        if bound is None:
            res.notes.append(f"laws on the integers: solved on the atoms of [{a}, {b}] (outside mass < "
                             f"{mp.nstr(tol, 3)}); no analytic bound of h's tails beyond degree 2")
            return res
        scale = abs(res.f_value) + mp.mpf(10) ** -dps
        if bound <= mp.mpf(10) ** -(dps + 5) * scale or not mp.isfinite(res.value):
            res.notes.append(f"laws on the integers: solved on the atoms of [{a}, {b}]; the tails of the optimum's "
                             f"integrands beyond them are below {mp.nstr(bound, 3)} (analytic bound)")
            return res
        tol = tol * mp.mpf(10) ** -(dps + 10)
    raise ParameterError("the restricted optimum's integrands have heavy tails beyond every window tried (the supremum "
                         "may sit at the boundary of the feasible set): not computed")

