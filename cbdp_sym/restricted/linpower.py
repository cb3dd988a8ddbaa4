"""Linear adversaries against the alpha-divergence: exact values, objectives at a given ``h``, moments.

CBDP's alpha-divergence generator ``(|t|^alpha - 1)/(alpha^2 - alpha)`` has the derived conjugate
``f^*(s) = C |s|^A + K`` with ``A = alpha/(alpha - 1)``; for a class that is a linear space containing the
constants the restricted Rényi divergence (Eq. (3)) is ``-log min { E_Q|h|^A : h in H, E_P[h] = 1 }``,
and for any one ``h`` with ``E_P[h] > 0``

    ``D^H_{R,alpha}(P, Q) >= A log E_P[h] - log E_Q|h|^A``     (a feasible ``h`` bounds the supremum below).

This module computes, in mpmath at the working precision:

* :func:`lin_renyi` -- the exact ``(lin, Rényi)`` value from the restricted solver
  (:func:`cbdp_sym.restricted.solver.restricted_record`, cached on disk), with its maximising ``h``;
* :func:`shift_laws` -- ``P`` unshifted, ``Q`` shifted by ``v`` (one law in one dimension, products in ``d``);
* :func:`abs_power_mean` -- ``E_Q|a . x + b|^A`` by quadrature split at the kinks and at the zero of ``h``
  (a Gaussian product through the exact law of ``a . x``; a Laplace product through the law of ``a . x``,
  :class:`cbdp_sym.restricted.products.SumLaw`, any mix of equal and distinct ``|a_i|``);
* :func:`orthant_power_mean` -- ``E_Q[|a . x + b|^A 1{sign x = sign a}]`` (the first step of CBDP's
  Theorem 13), for one or two coordinates;
* :func:`abs_moment_mp`, :func:`alpha_div_mp` (the one-variable maximisers :func:`golden_max` and
  :func:`sup_positive` are :mod:`cbdp_sym.calculus.optimize`'s).

Nothing here reads a claim's printed or derived form.
"""
from __future__ import annotations


import mpmath as mp
import sympy as sp

from cbdp_sym.laws.distributions import Distribution, Laplace, Normal, Product
from cbdp_sym.core.errors import CbdpError, ParameterError
from cbdp_sym.core.numbers import Estimate, to_mpf
from cbdp_sym.core.cache import cached_numeric
from cbdp_sym.divergences.generators import alpha_generator
from cbdp_sym.core.memo import memo_numeric
from cbdp_sym.divergences.numeric import fdiv_mp, quad_split, renyi_mp
from cbdp_sym.restricted.solver import restricted_record
from cbdp_sym.restricted.products import SumLaw


class SolverFailure(CbdpError):
    """The restricted solver did not certify its optimum at a point."""


# -- laws --------------------------------------------------------------------------------------------
def shift_laws(family: str, scale, shift) -> tuple:
    """``(P, Q)``: ``P`` the centred law (``lap``: scale ``scale``; ``gau``: standard deviation ``scale``),
    ``Q`` the same law shifted by ``shift`` (a number or a tuple; one coordinate gives one-dimensional laws).

    >>> shift_laws("lap", sp.Rational(1, 2), (1,))
    (Laplace(loc=0, scale=1/2), Laplace(loc=1, scale=1/2))
    """
    make = {"lap": Laplace, "gau": Normal}.get(family)
    if make is None:
        raise ParameterError(f"unknown noise family {family!r} (lap or gau)")
    vs = tuple(shift) if isinstance(shift, (tuple, list, sp.Tuple)) else (shift,)
    vs = tuple(sp.sympify(x) for x in vs)
    if len(vs) == 1:
        return make(0, scale), make(vs[0], scale)
    return Product(*[make(0, scale) for _ in vs]), Product(*[make(x, scale) for x in vs])


# -- the exact value -----------------------------------------------------------------------------------
def lin_renyi(P: Distribution, Q: Distribution, alpha, features=None) -> dict:
    """The exact ``(lin, Rényi)`` record ``{"value", "f_value", "a", "b", ...}`` at the working precision.

    ``a`` is the list of slopes and ``b`` the constant of the maximising ``h = a . x + b`` (scaled as the
    solver returns it).  Raises :class:`SolverFailure` when the solver does not certify its optimum.
    """
    rec = restricted_record("renyi", "lin", P, Q, str(sp.sympify(alpha)), False, features)
    if not rec.get("converged", True) or (rec.get("value") is not None and mp.isnan(rec["value"])):
        raise SolverFailure(f"the restricted solver did not converge for P={P!r}, Q={Q!r}, alpha={alpha}")
    out = dict(rec)
    opt = list(rec.get("optimum") or [])
    if opt and not rec.get("infinite"):
        out["b"], out["a"] = opt[0], list(opt[1:])
    return out


def lin_renyi_value(P, Q, alpha):
    return lin_renyi(P, Q, alpha)["value"]


# -- expectations at a given h ----------------------------------------------------------------------
def _law_components(Q):
    return list(Q.components) if isinstance(Q, Product) else [Q]


def abs_power_mean(Q: Distribution, a, b, A):
    """``E_Q|a . x + b|^A`` at the working precision (see the module docstring for the method)."""
    comps = _law_components(Q)
    a = [to_mpf(x) for x in (a if isinstance(a, (list, tuple)) else [a])]
    b, A = to_mpf(b), to_mpf(A)
    if len(a) != len(comps):
        raise ParameterError(f"h has {len(a)} slopes but Q has {len(comps)} coordinates")
    act = [(ai, L) for ai, L in zip(a, comps) if ai != 0]
    if not act:
        return abs(b) ** A
    if len(act) == 1:
        ai, L = act[0]
        z = -b / ai
        f = lambda x: abs(ai * x + b) ** A * L.mp_pdf(x)  # noqa: E731
        return quad_split(f, list(L.mp_breaks()) + [z])
    if all(isinstance(L, Normal) for _a, L in act):
        loc = mp.fsum(ai * L.mp_loc() for ai, L in act) + b
        sd = mp.sqrt(mp.fsum((ai * L.mp_width()) ** 2 for ai, L in act))
        return abs_power_mean(Normal(loc, sd), [1], 0, A)
    if all(isinstance(L, Laplace) for _a, L in act):
        scales = [abs(ai) * L.mp_width() for ai, L in act]
        m = mp.fsum(ai * L.mp_loc() for ai, L in act)
        law = SumLaw.of_scales(scales)  # the one law of a sum of Laplace variables (restricted_dd's)
        w = max(scales)
        pts = [m, -b, m - 8 * w, m + 8 * w, m - 2 * w, m + 2 * w]
        return quad_split(lambda y: abs(y + b) ** A * law.values(y - m)[0], pts)
    raise ParameterError("abs_power_mean: products of Laplace or of Gaussian laws only")


def orthant_power_mean(Q: Distribution, a, b, A):
    """``E_Q[|a . x + b|^A ; sign(x_i) = sign(a_i) for all i]`` for a centred law in one or two coordinates.

    On that orthant ``a . x = sum_i |a_i| |x_i|``; one coordinate: a half-line quadrature; two: nested.
    """
    comps = _law_components(Q)
    a = [to_mpf(x) for x in (a if isinstance(a, (list, tuple)) else [a])]
    b, A = to_mpf(b), to_mpf(A)
    if any(ai == 0 for ai in a):
        raise ParameterError("orthant_power_mean needs non-zero slopes")
    if len(comps) == 1:
        (L,), (ai,) = comps, a
        f = lambda t: (abs(ai) * t + b) ** A * L.mp_pdf(mp.sign(ai) * t)  # noqa: E731
        return quad_split(f, [0, L.mp_width(), 8 * L.mp_width()], lo=0)
    if len(comps) == 2:
        (L1, L2), (a1, a2) = comps, a
        w1, w2 = L1.mp_width(), L2.mp_width()

        def inner(t1):
            g = lambda t2: (abs(a1) * t1 + abs(a2) * t2 + b) ** A * L2.mp_pdf(mp.sign(a2) * t2)  # noqa: E731
            return mp.quad(g, [0, w2, 8 * w2, mp.inf]) * L1.mp_pdf(mp.sign(a1) * t1)

        return mp.quad(inner, [0, w1, 8 * w1, mp.inf])
    raise ParameterError("orthant_power_mean: one or two coordinates")


def abs_moment_mp(law: Distribution, gamma):
    """``E|Y|^gamma`` by quadrature split at 0."""
    g = to_mpf(gamma)
    return quad_split(lambda x: abs(x) ** g * law.mp_pdf(x), list(law.mp_breaks()) + [0])


def alpha_div_mp(P: Distribution, Q: Distribution, alpha):
    """CBDP's alpha-divergence ``int q f(p/q)`` with ``f(t) = (|t|^alpha - 1)/(alpha^2 - alpha)``.

    One dimension: :func:`cbdp_sym.divergences.numeric.fdiv_mp` with the generator.  Products: the integrand is
    ``(prod_i p_i^alpha q_i^(1-alpha) - prod_i q_i)/(alpha^2 - alpha)`` (``p, q > 0``), and its integral over
    ``R^d`` is ``(prod_i int p_i^alpha q_i^(1-alpha) - 1)/(alpha^2 - alpha)`` (Fubini); each factor by split
    quadrature of the coordinate's densities.
    """
    al = to_mpf(alpha)
    if not isinstance(P, Product):
        return fdiv_mp(alpha_generator(sp.nsimplify(alpha) if not isinstance(alpha, sp.Basic) else alpha), P, Q,
                       alpha=alpha)
    with mp.workdps(mp.mp.dps + 20):  # prod - 1 cancels when the shift is small
        prod = mp.mpf(1)
        for Pi, Qi in zip(P.components, Q.components):
            f = lambda x, Pi=Pi, Qi=Qi: mp.exp(al * Pi.mp_log_pdf(x) + (1 - al) * Qi.mp_log_pdf(x))  # noqa: E731
            prod *= quad_split(f, list(Pi.mp_breaks()) + list(Qi.mp_breaks()))
        return (prod - 1) / (al**2 - al)


# -- cached values for claims (one cache entry per law pair, shared by every claim that asks) -------------
LIN_DIGITS = 30  # working digits of the restricted solver for bound claims (see exact_lin_renyi)


def exact_lin_renyi(family: str, scale, shift, alpha):
    """The exact ``(lin, Rényi)`` value of ``shift_laws(family, scale, shift)``, cached on disk.

    Computed at ``min(working precision, LIN_DIGITS)`` digits and rounded to ``LIN_DIGITS - 5`` significant
    digits: a bound's verdict needs the sign and size of its slack, not 45 digits, and the solver's cost grows
    quickly with the precision (at 60 digits some corners, e.g. ``Lap(0, 1/100)`` at alpha = 1.001, do not
    converge).  Raises :class:`SolverFailure` where the solver does not certify its optimum.
    """
    shift = tuple(shift) if isinstance(shift, (tuple, list, sp.Tuple)) else (shift,)
    digits = min(mp.mp.dps, LIN_DIGITS)
    with mp.workdps(digits):
        # the entry (memo and disk, both keyed by the precision in force) is that of the solver's precision, not the
        # caller's: Theorem 13 at 60 digits, its chain at 40 and the Table 1 cells share one value per law pair
        out = _exact_cached(str(family), sp.sympify(scale), tuple(sp.sympify(x) for x in shift), str(sp.sympify(alpha)),
                            digits)
    if isinstance(out, str):  # the rounded decimal: established to its digits, never printed with more
        return Estimate(mp.mpf(out), LIN_DIGITS - 5)
    return out


def lin_renyi_bracket(family, scale, shift, alpha):
    """Two independent bounds on the exact ``(lin, Rényi)`` value of ``shift_laws(family, scale, shift)``:
    below, the value of the one function ``h_0(x) = 1 - v.x/|v|^2`` (``E_P h_0 = 1``), ``-log E_Q|h_0|^A``; above,
    the unrestricted Rényi divergence (a restricted divergence never exceeds it).  Working precision."""
    P, Q = shift_laws(family, scale, shift)
    vs = [to_mpf(x) for x in shift]
    n2 = mp.fsum(x**2 for x in vs)
    al = to_mpf(sp.sympify(alpha))
    A = al / (al - 1)
    low = -mp.log(abs_power_mean(Q, [-x / n2 for x in vs], 1, A))
    return low, renyi_mp(P, Q, al)


def _check_digits(digits):
    """Working digits of the checks of a ``digits``-digit solver value (its objective at its maximiser, the bracket):
    their tolerance is ``10^-(digits // 2)``, so 8 digits more than that resolve them (they cost about half as much
    as at ``digits``)."""
    return min(digits, digits // 2 + 8)


def _exact_cached_impl(family, scale, shift, alpha, digits):
    P, Q = shift_laws(family, scale, shift)
    with mp.workdps(digits):
        rec = lin_renyi(P, Q, alpha)
        val = rec["value"]
        if mp.isfinite(val) and rec.get("a") is not None and rec["b"] > 0:
            # the value must be the objective at the solver's own maximiser, recomputed here by quadrature
            al = to_mpf(sp.sympify(alpha))
            A = al / (al - 1)
            try:
                with mp.workdps(_check_digits(digits)):
                    at_h = A * mp.log(rec["b"]) - mp.log(abs_power_mean(Q, rec["a"], rec["b"], A))
            except ParameterError:  # equal slopes in d dimensions: no mixture formula, rely on the bracket
                at_h = None
            if at_h is not None and abs(at_h - val) > mp.mpf(10) ** (-(digits // 2)) * max(1, abs(val)):
                raise SolverFailure(f"the restricted solver's value {mp.nstr(val, 12)} for {family} scale {scale} shift "
                                    f"{shift} alpha {alpha} is not its objective at its maximiser ({mp.nstr(at_h, 12)})")
        if mp.isfinite(val) and val > (digits - 8) * mp.log(10):
            raise SolverFailure(f"the (lin,Rényi) value {mp.nstr(val, 8)} for {family} scale {scale} shift {shift} alpha "
                                f"{alpha} means E_Q|h|^A below 10^-{digits - 8}: beyond what {digits} digits resolve")
        if mp.isfinite(val) and any(x != 0 for x in shift):
            # the solver's value must lie between a feasible h's value and the unrestricted divergence
            with mp.workdps(_check_digits(digits)):
                try:
                    low, high = lin_renyi_bracket(family, scale, shift, alpha)
                except ParameterError:
                    low, high = -mp.inf, renyi_mp(P, Q, to_mpf(sp.sympify(alpha)))
            tol = mp.mpf(10) ** (-(digits // 2))
            if val < low - tol * abs(low) or val > high + tol * abs(high):
                raise SolverFailure(f"the restricted solver's value {mp.nstr(val, 12)} for {family} scale {scale} shift "
                                    f"{shift} alpha {alpha} is outside [{mp.nstr(low, 12)}, {mp.nstr(high, 12)}] "
                                    "(a feasible h's value, the unrestricted divergence)")
        text = mp.nstr(val, digits - 5) if mp.isfinite(val) else None
    return text if text is not None else val  # (exact_lin_renyi reads the text at the caller's precision)


def renyi_shift_mp(family: str, scale, shift, alpha):
    """``D_alpha(P || Q)`` for ``shift_laws(family, scale, shift)`` by quadrature (products: a sum over
    coordinates, Fubini), at the working precision, cached on disk."""
    shift = tuple(shift) if isinstance(shift, (tuple, list, sp.Tuple)) else (shift,)
    return _renyi_cached(str(family), sp.sympify(scale), tuple(sp.sympify(x) for x in shift), str(sp.sympify(alpha)),
                         mp.mp.dps)


def _renyi_cached_impl(family, scale, shift, alpha, dps):
    if len(shift) > 1:
        # a product: the sum over coordinates (as renyi_mp sums them), each coordinate's value cached on its own, so
        # that a shift repeated in a vector, or met in another claim's vector, is integrated once (about 40% of
        # the coordinate integrals of CBDP-C1 and TAB1-REN-LAPD-UNR are repeats)
        return mp.fsum(_renyi_cached(family, scale, (x,), alpha, dps) for x in shift)
    P, Q = shift_laws(family, scale, shift)
    return renyi_mp(P, Q, to_mpf(sp.sympify(alpha)))


def _cached(fn):
    """On disk (:mod:`cbdp_sym.core.cache`) and in-process (:mod:`cbdp_sym.core.memo`): one value per law pair, shared by
    Theorem 13, its chain, Corollary 2, the Table 1 cells and the figures."""
    return memo_numeric(cached_numeric(fn), failures=(SolverFailure,))


_exact_cached = _cached(_exact_cached_impl)
_renyi_cached = _cached(_renyi_cached_impl)
