"""From Rényi curves to (epsilon, delta) guarantees, and exact privacy profiles from the definitions.

Conventions used throughout (all papers):

* An **RDP curve** is a callable ``curve(alpha) -> mpf`` giving ``eps(alpha)``, an upper bound on
  ``D_alpha(P || Q)`` for every neighbouring pair; ``alpha > 1`` and, where the curve is finite there,
  ``alpha = mp.inf`` (pure DP).  Curves add under composition (Mironov, Prop. 1).
* A **privacy profile** is ``delta(eps) = sup_S P(S) - e^eps Q(S)`` (the hockey-stick divergence
  ``E_eps(P || Q)``), so that the pair is ``(eps, delta(eps))``-DP in the direction ``P`` vs ``Q``.
* Logarithms are natural.  Everything is computed at the working precision (``mp.mp.dps``); nothing is
  converted to double precision.

Conversions at one order (``r`` the RDP value at order ``alpha``):

=====================  ==========================================================  =========================
function               formula                                                     source
=====================  ==========================================================  =========================
:func:`eps_mironov`    ``r + log(1/delta)/(alpha - 1)``                            Mironov 2017, Prop. 3
:func:`eps_improved`   ``r + log1p(-1/alpha) - log(delta alpha)/(alpha - 1)``      Canonne-Kamath-Steinke 2020
                                                                                   Prop. 12; Asoodeh et al.
                                                                                   2020; as in dp_accounting
:func:`delta_mironov`  ``exp((alpha - 1)(r - eps))``                               Mironov 2017, Prop. 3
:func:`delta_improved` ``exp((alpha-1)(r - eps + log1p(-1/alpha)) - log alpha)``   CKS 2020, Prop. 12
=====================  ==========================================================  =========================

The optimisation over ``alpha`` (:func:`best_over_alpha`) is either over a finite list of orders
(what accountants do) or continuous over ``alpha in (1, oo)`` (plus ``alpha = oo`` when the curve is
finite there), by a coarse scan in ``t = log(alpha - 1)`` and golden-section refinement.

Exact profiles: :func:`hockey_stick` (numeric, from the densities or the probability masses),
:func:`hockey_stick_sym` (derived closed form for laws whose log-density ratio is affine in ``x``,
e.g. the Gaussian mechanism), and for compositions of finite mechanisms the privacy-loss atoms
(:func:`loss_atoms`, :func:`compose_atoms`), their profile (:func:`delta_atoms`) and the
Neyman-Pearson maximum of ``P(S)`` at a given ``Q(S)`` (:func:`np_max`).

>>> import mpmath as mp
>>> with mp.workdps(30):
...     mp.nstr(eps_mironov(mp.mpf(1), 2, mp.mpf("1e-5")), 10)
'12.51292546'
"""
from __future__ import annotations

from typing import Callable

import mpmath as mp
import sympy as sp

from cbdp_sym.laws.distributions import X, Distribution, Finite
import cbdp_sym.core.symcache as symcache
from cbdp_sym.core.errors import DerivationError, ParameterError
from cbdp_sym.divergences.numeric import _mp_joint, bisect_roots
from cbdp_sym.calculus.optimize import golden_section, ranked
from cbdp_sym.core.printing import latex
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.core.numbers import to_mpf
from cbdp_sym.calculus.symbolic import integrate_split

__all__ = ["eps_mironov", "eps_improved", "delta_mironov", "delta_improved", "best_over_alpha", "eps_from_curve",
           "delta_from_curve", "prob_bound", "delta_tv_bound", "eps_from_profile", "hockey_stick", "hockey_stick_sym", "loss_atoms", "compose_atoms",
           "delta_atoms", "np_max"]


def _mpf(x):
    if isinstance(x, mp.mpf):
        return x
    if isinstance(x, float):
        return mp.mpf(x)
    return to_mpf(x)


def _check_order(alpha):
    if not alpha > 1:
        raise ParameterError(f"the conversion needs an order alpha > 1, got {alpha}")


# -- conversions at one order ----------------------------------------------------------------------
def eps_mironov(r, alpha, delta):
    """Mironov's Prop. 3: an ``(alpha, r)``-RDP mechanism is ``(r + log(1/delta)/(alpha - 1), delta)``-DP.

    ``alpha = oo`` gives ``r`` (pure DP).
    """
    r, a, d = _mpf(r), _mpf(alpha), _mpf(delta)
    if not 0 < d < 1:
        raise ParameterError(f"delta must lie in (0, 1), got {delta}")
    if a == mp.inf:
        return r
    _check_order(a)
    return r + mp.log(1 / d) / (a - 1)


def eps_improved(r, alpha, delta):
    """The improved conversion ``r + log1p(-1/alpha) - log(delta alpha)/(alpha - 1)`` (Canonne, Kamath,
    Steinke 2020, Prop. 12; the formula dp_accounting's ``compute_epsilon`` uses for ``alpha > 1.01``,
    without its clipping at 0).  ``alpha = oo`` gives ``r``."""
    r, a, d = _mpf(r), _mpf(alpha), _mpf(delta)
    if not 0 < d < 1:
        raise ParameterError(f"delta must lie in (0, 1), got {delta}")
    if a == mp.inf:
        return r
    _check_order(a)
    return r + mp.log1p(-1 / a) - mp.log(d * a) / (a - 1)


def delta_mironov(r, alpha, eps):
    """Prop. 3 solved for delta: ``exp((alpha - 1)(r - eps))``, capped at 1."""
    r, a, e = _mpf(r), _mpf(alpha), _mpf(eps)
    if a == mp.inf:
        return mp.mpf(0) if r <= e else mp.mpf(1)
    _check_order(a)
    return min(mp.exp((a - 1) * (r - e)), mp.mpf(1))


def delta_improved(r, alpha, eps):
    """CKS 2020 Prop. 12 solved for delta: ``exp((alpha - 1)(r - eps + log1p(-1/alpha)) - log alpha)``, capped at 1."""
    r, a, e = _mpf(r), _mpf(alpha), _mpf(eps)
    if a == mp.inf:
        return mp.mpf(0) if r <= e else mp.mpf(1)
    _check_order(a)
    return min(mp.exp((a - 1) * (r - e + mp.log1p(-1 / a)) - mp.log(a)), mp.mpf(1))


def delta_tv_bound(r):
    """``sqrt(1 - e^{-r})``: for ``r >= D_alpha(P || Q)`` with ``alpha >= 1``, a bound on
    ``delta(0) = TV(P, Q) >= delta(eps)`` (Bretagnolle-Huber, ``TV <= sqrt(1 - e^{-KL})``, and
    ``KL <= D_alpha``); dp_accounting takes it into account in both directions of its conversions."""
    r = _mpf(r)
    return mp.sqrt(-mp.expm1(-r)) if r > 0 else mp.mpf(0)


# -- optimisation over the order -------------------------------------------------------------------
def best_over_alpha(objective: Callable, orders=None, lo_t=-25, hi_t=25, include_inf=True, scan=0.25, enclose=None,
                    locate=None):
    """``min_alpha objective(alpha)``; returns ``(value, alpha*)``.

    ``orders``: a finite list (each may be ``mp.inf``); the minimum over it.  ``None``: continuous over
    ``alpha = 1 + e^t``, ``t in [lo_t, hi_t]``: a scan with step ``scan`` in ``t`` finds the best grid
    point, golden-section search refines it inside its two neighbouring cells (exact for an objective
    unimodal in ``t`` at the scan's resolution, which holds for the convex curves of the basic
    mechanisms), and ``alpha = oo`` is a candidate when ``include_inf`` (the objective may return
    ``mp.inf`` there).  Values are compared as mpf; ``inf`` where undefined.

    ``enclose`` (optional, continuous case): ``alpha -> `` a python-flint ``arb`` ball holding the value
    ``objective(alpha)`` returns at the working precision, its rounding included (``None`` where it has none).
    The scan computes ``objective`` only at the grid points whose balls are not certainly above the best ball
    (:func:`cbdp_sym.calculus.optimize.ranked`), and the first golden-section steps are decided by the balls (:func:`cbdp_sym.calculus.optimize.golden_section`): the grid
    point found, the steps and the value returned are those without it (only an exception the objective would
    raise at a point the balls exclude is not raised).

    With ``enclose``, the grid point found by the balls is refined the same way: its cells' minimiser located at 53
    bits, Newton's polish at the working precision, the golden section (decided by the balls where they can) where
    the polish declines.

    ``locate`` (optional, continuous case, without ``enclose``): the objective in binary64 (``alpha -> `` a float, the
    same function).  The order is then *located* in double precision: the scan and the golden section run on
    ``locate`` (or, without it, on ``objective`` at 53 bits), and only the minimum is polished at the working
    precision, by Newton steps on the derivative (central differences, :func:`_newton_min`) inside the grid cells of
    the located point.  The value returned is the least of the objective at the polished order and at the best grid
    point, both at the working precision (and ``alpha = oo``).  Where the polish cannot decide (a kink, a flat or
    non-convex minimum, a step leaving the cells) the golden section at the working precision refines the located
    cells as before; where the working precision contradicts the located grid point (its value differs by more than
    ``10^-6``, or a neighbouring grid point is lower), or the locator has no finite value, the scan too runs at the
    working precision.  The value agrees with the golden section's to the
    working precision; the order to about half of it (what the golden section established).
    """
    def val(a):
        try:
            v = objective(a)
        except (ZeroDivisionError, ValueError, OverflowError, ParameterError):
            return mp.inf
        return v if mp.isfinite(v) or v == mp.inf else mp.inf

    if orders is not None:
        best = (mp.inf, None)
        for a in orders:
            v = val(_mpf(a) if a != mp.inf else a)
            if v < best[0]:
                best = (v, a)
        return best
    f = lambda t: val(1 + mp.exp(t))  # noqa: E731
    n = int(round((hi_t - lo_t) / scan))
    ts = [mp.mpf(lo_t) + scan * i for i in range(n + 1)]
    if enclose is None:
        best = _located_min(f, ts, locate)
        if best is None:
            vs = [f(t) for t in ts]
            i = min(range(len(ts)), key=lambda j: vs[j])
            best = _refine(f, ts, i, vs[i], None, None)
    else:
        def ball(t):
            return enclose(1 + mp.exp(t))

        def neg(t):
            b_ = ball(t)
            return None if b_ is None else -b_

        i, vs = _scan_ranked(f, ball, ts)
        best = _refine(f, ts, i, vs[i], _locate_in_cells(f, ts, i), neg)
    if include_inf:
        vi = val(mp.inf)
        if vi < best[0]:
            best = (vi, mp.inf)
    return best


def _cells(ts, i):
    return ts[max(i - 1, 0)], ts[min(i + 1, len(ts) - 1)]


def _locate_in_cells(f, ts, i):
    """The minimiser of ``f`` in the grid cells around ``ts[i]`` located at 53 bits (golden section to ``10^-10``)."""
    with mp.workprec(53):
        a, b, _ = golden_section(lambda t: -f(t), *_cells(ts, i), tol=mp.mpf(10) ** -10)
    return (a + b) / 2


def _refine(f, ts, i, vi, t0, neg):
    """``(value, alpha)``: the least of ``f`` at the working precision in the grid cells around ``ts[i]`` (``vi`` its
    value there): Newton's polish from ``t0`` (located in double precision; :func:`_newton_min`), else the golden
    section at the working precision (decided by the balls of ``neg`` where they can, as :func:`best_over_alpha` says)."""
    lo, hi = _cells(ts, i)
    atol = mp.mpf(2) ** (-mp.mp.prec // 2 - 4)
    tm = _newton_min(f, mp.mpf(t0), lo, hi, atol=atol) if t0 is not None else None
    if tm is None and t0 is not None and i in (0, len(ts) - 1) and abs(t0 - ts[i]) <= mp.mpf(10) ** -8 * (1 + abs(ts[i])):
        # the least value at the end of the grid (a monotone objective): located there, and rising from it at the
        # working precision, the golden section would close in on the end and return the end's value ``vi``
        inward = ts[i] + (1 if i == 0 else -1) * mp.mpf(2) ** (-(mp.mp.prec // 3))
        if f(inward) > vi:
            return vi, 1 + mp.exp(ts[i])
    if tm is None:  # a kink, a flat or non-convex minimum, the grid's end, or nothing located
        a, b, _ = golden_section(lambda t: -f(t), lo, hi, iters=int(mp.mp.prec * 1.45) + 10, atol=atol, enclose=neg)
        tm = (a + b) / 2
    return min([(f(tm), 1 + mp.exp(tm)), (vi, 1 + mp.exp(ts[i]))], key=lambda p: p[0])


def _float_val(objective):
    """``t -> objective(1 + e^t)`` in binary64, ``inf`` where it has no finite value."""
    import math

    def g(t):
        try:
            v = float(objective(1 + math.exp(t)))
        except (ZeroDivisionError, ValueError, OverflowError, ParameterError, TypeError):
            return math.inf
        return v if math.isfinite(v) else math.inf

    return g


def _located_min(f, ts, locate):
    """``(value, alpha)``: the least of ``f`` (the objective in ``t = log(alpha - 1)`` at the working precision) over
    ``[ts[0], ts[-1]]``, its order located in double precision and polished (see :func:`best_over_alpha`), or ``None``
    when the polish cannot decide (the caller then runs the working-precision scan and golden section)."""
    import math

    n = len(ts) - 1
    if locate is not None:
        g = _float_val(locate)
        tf = [float(t) for t in ts]
        vs = [g(t) for t in tf]
        i = min(range(n + 1), key=lambda j: vs[j])
        if not math.isfinite(vs[i]):
            return None
        a, b, _ = golden_section(lambda t: -g(t), tf[max(i - 1, 0)], tf[min(i + 1, n)], tol=1e-10,
                                 arithmetic="binary64")
        t0, vloc = (a + b) / 2, vs[i]
    else:
        with mp.workprec(53):
            vs = [f(t) for t in ts]
        i = min(range(n + 1), key=lambda j: vs[j])
        if not mp.isfinite(vs[i]):
            return None
        t0, vloc = _locate_in_cells(f, ts, i), float(vs[i])
    vi = f(ts[i])  # the best grid point at the working precision: the located value must be its value
    if not (mp.isfinite(vi) and abs(vi - vloc) <= 1e-6 * abs(vi) + mp.mpf(10) ** -300):
        return None
    for j in (i - 1, i + 1):  # a least grid value at the working precision too (a locator that overflows past the
        if 0 <= j <= n and f(ts[j]) < vi:  # optimum puts its least value at the edge of where it is finite)
            return None
    return _refine(f, ts, i, vi, t0, None)


def _newton_min(f, t, lo, hi, atol, steps=6):
    """A minimiser of a smooth ``f`` near ``t`` (located in double precision) at the working precision: Newton steps on
    ``f'`` with ``f'`` and ``f''`` from central differences of step ``2^(-prec/3)`` (their errors, ``h^2`` and
    rounding over ``h^2``, are below half the working precision), until a step is below ``atol`` (the golden section's
    tolerance).  ``None`` where a step leaves ``[lo, hi]``, ``f''`` is not positive there, a value is not finite, or
    ``steps`` steps do not settle."""
    h = mp.mpf(2) ** (-(mp.mp.prec // 3))
    for _ in range(steps):
        fm, f0, fp = f(t - h), f(t), f(t + h)
        if not (mp.isfinite(fm) and mp.isfinite(f0) and mp.isfinite(fp)):
            return None
        d2 = fp - 2 * f0 + fm
        if not d2 > 0:
            return None
        step = -(fp - fm) * h / (2 * d2)
        t = t + step
        if not lo <= t <= hi:
            return None
        if abs(step) <= atol:
            return t
    return None


def _scan_ranked(f, ball, ts):
    """``(i, vs)``: the first grid index where ``f`` is least, and ``f``'s values there and at every grid point it
    could be (``vs`` a dict), computing ``f`` only where ``ball``'s ball is not far above the lowest one
    (:func:`cbdp_sym.calculus.optimize.ranked`); every point when the balls cannot tell."""
    balls = [ball(t) for t in ts]
    live = [j for j, b_ in enumerate(balls) if b_ is not None and b_.is_finite()]
    vs = {}
    if live:
        top = min(live, key=lambda j: balls[j].upper())  # (an arb: the least upper end)
        cand = [j for j in range(len(ts)) if ranked(balls[j], balls[top]) is not True]
        for j in cand:
            vs[j] = f(ts[j])
        i = min(cand, key=lambda j: vs[j])
        if mp.isfinite(vs[i]):
            return i, vs
    for j in range(len(ts)):  # the balls cannot tell: every grid point
        if j not in vs:
            vs[j] = f(ts[j])
    return min(range(len(ts)), key=lambda j: vs[j]), vs


def _eps_float(method, delta):
    """The conversion ``(r, alpha) -> eps`` of :func:`eps_mironov` / :func:`eps_improved` in binary64 (a locator's)."""
    import math

    ld = math.log(float(delta))
    if method == "mironov":
        return lambda r, a: r - ld / (a - 1)
    return lambda r, a: r + math.log1p(-1 / a) - (ld + math.log(a)) / (a - 1)


def eps_from_curve(curve: Callable, delta, orders=None, method="mironov", locate=None):
    """``min_alpha eps(curve(alpha), alpha, delta)`` with ``method`` "mironov" (Prop. 3) or "improved";
    returns ``(eps, alpha*)``.  ``locate`` (optional): the curve in binary64 (``alpha`` a float, finite), which
    locates the order (:func:`best_over_alpha`'s ``locate``); the value is the curve's at the working precision."""
    conv = {"mironov": eps_mironov, "improved": eps_improved}[method]
    floc = None
    if locate is not None:
        cf = _eps_float(method, delta)
        floc = lambda a: cf(locate(a), a)  # noqa: E731
    return best_over_alpha(lambda a: conv(curve(a), a, delta), orders, locate=floc)


def delta_from_curve(curve: Callable, eps, orders=None, method="mironov"):
    """``min_alpha delta(curve(alpha), alpha, eps)``; returns ``(delta, alpha*)``."""
    conv = {"mironov": delta_mironov, "improved": delta_improved}[method]
    return best_over_alpha(lambda a: conv(curve(a), a, eps), orders)


def prob_bound(curve: Callable, q, orders=None, locate=None):
    """Probability preservation (Mironov, Prop. 10) optimised over the order:
    ``min_alpha (e^{curve(alpha)} q)^{(alpha - 1)/alpha}`` (at ``alpha = oo``: ``e^{curve(oo)} q``).
    Returns ``(bound, alpha*)``; computed as ``exp((1 - 1/alpha)(curve(alpha) + log q))``.  ``locate`` (optional):
    the curve in binary64 (finite ``alpha``), which locates the order (:func:`best_over_alpha`'s ``locate``)."""
    q = _mpf(q)
    if not 0 < q <= 1:
        raise ParameterError(f"a probability in (0, 1] is needed, got {q}")
    lq = mp.log(q)

    def obj(a):
        r = curve(a)
        if a == mp.inf:
            return mp.exp(r + lq) if mp.isfinite(r) else mp.inf
        return mp.exp((1 - 1 / a) * (r + lq))

    floc = None
    if locate is not None:
        import math

        lqf = float(lq)
        floc = lambda a: math.exp((1 - 1 / a) * (locate(a) + lqf))  # noqa: E731
    return best_over_alpha(obj, orders, locate=floc)


# -- exact privacy profiles ------------------------------------------------------------------------
def _ratio_roots(L, eps, pts):
    """Points in ``pts`` (sorted, finite) plus the roots of ``L(x) = eps`` between consecutive ones."""
    return bisect_roots(L, eps, pts)


def hockey_stick(P, Q, eps):
    """The exact privacy profile ``delta(eps) = sup_S P(S) - e^eps Q(S) = int (p - e^eps q)_+`` from
    the definitions, at the working precision.

    Finite laws: the sum over the joint support (mass of P outside Q's support counts fully).
    Laws with densities on the line: the roots of ``log p(x) - log q(x) = eps`` are located by
    bisection between the laws' kinks and quadrature breakpoints (the log-ratio of the basic
    mechanisms is monotone between kinks, so each cell holds at most one root), and
    ``p - e^eps q`` is integrated, by split tanh-sinh quadrature, over the cells where it is positive;
    integrating the positive difference avoids subtracting ``e^eps Q(S)`` from ``P(S)``.
    """
    e = _mpf(eps)
    if isinstance(P, Finite) or isinstance(Q, Finite):
        return delta_atoms(loss_atoms(P, Q), e)
    L = lambda x: P.mp_log_pdf(x) - Q.mp_log_pdf(x)  # noqa: E731
    far = 10 * (P.mp_reach() + Q.mp_reach() + abs(P.mp_loc()) + abs(Q.mp_loc()) + 1)
    brk = sorted({mp.mpf(b) for b in list(P.mp_breaks()) + list(Q.mp_breaks()) + [-far, far]})
    pts = _ratio_roots(L, e, brk)
    def g(x):
        lp, lq = P.mp_log_pdf(x), Q.mp_log_pdf(x)
        return mp.exp(lp) * (-mp.expm1(e + lq - lp)) if lp - lq > e else mp.mpf(0)

    total = mp.mpf(0)
    cells = [(-mp.inf, pts[0])] + list(zip(pts[:-1], pts[1:])) + [(pts[-1], mp.inf)]
    for a, b in cells:
        mid = (a + b) / 2 if mp.isfinite(a) and mp.isfinite(b) else (b - 1 if mp.isfinite(b) else a + 1)
        if not L(mid) > e:
            continue
        total += mp.quad(g, [a, b])
    return total


def hockey_stick_sym(P: Distribution, Q: Distribution, eps, lhs=None):
    """Derive the privacy profile ``int (p - e^eps q)_+`` for two laws whose log-density ratio is affine
    in ``x`` with a slope of known sign (e.g. equal-variance Gaussians): the set ``{p > e^eps q}`` is a
    half-line ending at the root of ``log p - log q = eps``, and ``p - e^eps q`` is integrated over it
    with the engine (steps recorded).  Returns ``(value, conditions)`` like :func:`cbdp_sym.f_divergence`: the
    closed form (error functions for Gaussians) and the conditions the integration needed (empty for Gaussians).

    >>> import sympy as sp
    >>> from cbdp_sym.laws.distributions import Normal
    >>> value, conds = hockey_stick_sym(Normal(0, 1), Normal(1, 1), sp.Integer(0))
    >>> conds, sp.simplify(value - sp.erf(sp.sqrt(2) / 4))
    ([], 0)
    """
    name = lhs or Tex(r"\delta(\varepsilon)")
    record(name, Tex(r"\sup_S P(S) - e^{\varepsilon} Q(S) = \int \left(p(x) - e^{\varepsilon} q(x)\right)_+ dx"),
           "hockey-stick divergence (the privacy profile)")
    L = sp.expand(P.log_pdf() - Q.log_pdf())
    record(Tex(r"\log\frac{p(x)}{q(x)}"), L, "log-density ratio")
    if not L.is_polynomial(X) or sp.degree(L, X) != 1:
        raise DerivationError("hockey_stick_sym needs a log-density ratio affine in x")
    slope = sp.diff(L, X)
    sign = 1 if slope.is_positive else (-1 if slope.is_negative else 0)
    if sign == 0:
        raise DerivationError(f"cannot decide the sign of the slope {slope}")
    with time_limit(30, "solving for the boundary"):
        (root,) = symcache.solve(sp.Eq(L, eps), X)
    root = symcache.simplify(root)
    lo, hi = (root, sp.oo) if sign > 0 else (-sp.oo, root)
    record(Tex(r"\{x : p(x) > e^{\varepsilon} q(x)\}"), Tex(r"\left(%s, %s\right)" % (latex(lo), latex(hi))),
           f"the log-ratio is affine with slope ${latex(slope)}$: a half-line")
    integrand = P.pdf() - sp.exp(eps) * Q.pdf()
    value, conds = integrate_split(integrand, X, lo, hi, lhs=name, note="integral of $p - e^{\\varepsilon} q$ over the half-line")
    with time_limit(30, "simplifying the profile"):
        value = symcache.simplify(value)
    record(name, value, "privacy profile")
    return value, list(conds)


def eps_from_profile(profile: Callable, delta, lo=0, hi=None):
    """The smallest ``eps >= lo`` with ``profile(eps) <= delta`` for a non-increasing profile (exact
    epsilon at a given delta): ``log profile(eps) = log delta`` solved by bisection on a bracket
    (``hi`` doubled until the profile is below ``delta``), then polished by the secant method
    (Anderson) in log space so that tiny deltas keep their digits."""
    d = _mpf(delta)
    a = _mpf(lo)
    if profile(a) <= d:
        return a
    b = _mpf(hi) if hi is not None else a + 1
    while profile(b) > d:
        a, b = b, 2 * b + 1
    f = lambda e: mp.log(profile(e)) - mp.log(d)  # noqa: E731
    for _ in range(30):  # a rough bracket first: the profile's log is smooth inside
        m = (a + b) / 2
        if profile(m) > d:
            a = m
        else:
            b = m
    try:
        return mp.findroot(f, (a, b), solver="anderson")
    except (ValueError, ZeroDivisionError):  # pragma: no cover - fall back to bisection to full precision
        for _ in range(mp.mp.prec):
            m = (a + b) / 2
            if profile(m) > d:
                a = m
            else:
                b = m
        return (a + b) / 2


# -- finite mechanisms and their compositions ------------------------------------------------------
def loss_atoms(P: Finite, Q: Finite):
    """Privacy-loss atoms ``[(L, p, q)]`` of two finite laws: for each point of the joint support, the
    log-ratio ``L = log p/q`` (``+inf`` where ``q = 0``) and both masses, sorted by ``L`` descending."""
    out = []
    for _x, p, q in _mp_joint(P, Q):
        if p == 0 and q == 0:
            continue
        L = mp.inf if q == 0 else (-mp.inf if p == 0 else mp.log(p / q))
        out.append((L, p, q))
    out.sort(key=lambda t: -t[0] if mp.isfinite(t[0]) else (-mp.inf if t[0] > 0 else mp.inf))
    return out


def compose_atoms(atoms, n: int):
    """The privacy-loss atoms of the ``n``-fold composition (independent repetitions) of a finite pair.

    Exact: outcomes are grouped by how often each atom occurs (multinomial counts), so the number of
    atoms is ``C(n + m - 1, m - 1)`` for ``m`` input atoms (``n + 1`` for randomized response).
    """
    if not (isinstance(n, int) and n >= 1):
        raise ParameterError(f"the number of compositions must be a positive integer, got {n}")
    m = len(atoms)
    logp = [mp.log(a[1]) if a[1] > 0 else -mp.inf for a in atoms]
    logq = [mp.log(a[2]) if a[2] > 0 else -mp.inf for a in atoms]
    out = []

    def rec(i, left, counts):
        if i == m - 1:
            counts = counts + [left]
            lc = mp.loggamma(n + 1) - mp.fsum(mp.loggamma(c + 1) for c in counts)
            lp = lc + mp.fsum(c * logp[j] for j, c in enumerate(counts) if c)
            lq = lc + mp.fsum(c * logq[j] for j, c in enumerate(counts) if c)
            L = mp.fsum(c * atoms[j][0] for j, c in enumerate(counts) if c)
            out.append((L, mp.exp(lp) if lp != -mp.inf else mp.mpf(0), mp.exp(lq) if lq != -mp.inf else mp.mpf(0)))
            return
        for c in range(left, -1, -1):
            rec(i + 1, left - c, counts + [c])

    rec(0, n, [])
    out.sort(key=lambda t: -t[0] if mp.isfinite(t[0]) else (-mp.inf if t[0] > 0 else mp.inf))
    return out


def delta_atoms(atoms, eps):
    """``sum_{L > eps} (p - e^eps q)`` over privacy-loss atoms: the exact profile of a finite pair."""
    e = _mpf(eps)
    ee = mp.exp(e)
    return mp.fsum(p - ee * q for L, p, q in atoms if L > e)


def np_max(atoms, q):
    """``sup { P(S) : Q(S) <= q }`` over randomized tests (Neyman-Pearson): atoms are taken in order of
    decreasing likelihood ratio until ``Q``'s mass reaches ``q``, the last one fractionally."""
    q = _mpf(q)
    acc_q, acc_p = mp.mpf(0), mp.mpf(0)
    for _L, p, qq in atoms:
        if qq == 0:
            acc_p += p
            continue
        if acc_q + qq <= q:
            acc_q += qq
            acc_p += p
        else:
            return acc_p + p * (q - acc_q) / qq
    return acc_p
