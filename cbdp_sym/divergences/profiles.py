"""Privacy profiles ``delta_{P,Q}(eps) = E_Q[(dP/dQ - e^eps)_+]``: derived, computed, inverted.

* :func:`hockey_stick_generator` (``E_gamma``): the generator ``f(t) = (t - e^eps)_+`` (printed with a
  ``Max``); :func:`cbdp_sym.f_divergence` splits its integral where ``p/q`` crosses ``e^eps``.
* :func:`profile_sym` derives ``delta(eps)`` with the engine (Laplace, Gaussian, finite laws such as
  randomized response, products of Gaussians) and writes every error function through ``erfc`` and the
  standard normal CDF :class:`Phi`, so that the tails keep their relative digits (``1 - erf(x)`` at
  ``x = 30`` has none in floating point; ``erfc(30)`` has all of them).
* :func:`profile_mp` computes ``delta(eps)`` from the definition by quadrature that keeps **relative**
  precision however small ``delta`` is (far below 1e-300): the cells where ``p > e^eps q`` are found by
  bisection on the log-ratio, the integrand ``p (1 - e^{eps - L})`` is rescaled by its largest value on
  the cell, and each cell is integrated from the kink outward over geometrically growing pieces whose
  first length is the integrand's local decay length there.
* :func:`value_with_digits` evaluates a closed form at two precisions and refuses a value without
  significant digits (after trying the ``erfc`` rewrite).
* :func:`eps_for_delta`: ``eps(delta)``, the root of ``log delta(eps) = log delta`` in a bracket, solved
  at the working precision and certified in Arb ball arithmetic when the profile has a closed form.
* :func:`privacy_profile`: the public function behind ``cbdp-sym profile`` (one value, JSON-ready).

>>> import sympy as sp
>>> from cbdp_sym.laws.distributions import Normal
>>> s = sp.Symbol("sigma", positive=True)
>>> profile_sym(Normal(0, s), Normal(1, s))
(-exp(epsilon)*Phi(-epsilon*sigma - 1/(2*sigma)) + Phi(-epsilon*sigma + 1/(2*sigma)), [])
"""
from __future__ import annotations

import hashlib
import json
import math
import warnings

import mpmath as mp
import mpmath.libmp as _lm
import sympy as sp

from cbdp_sym.laws.distributions import Distribution, Finite, Laplace, Normal, Phi, Product
from cbdp_sym.laws.floats import np_log_pdf
from cbdp_sym.divergences.fdiv import f_divergence
from cbdp_sym.divergences.generators import T, Generator
from cbdp_sym.core.errors import DerivationError, DerivationTimeout, ParameterError
from cbdp_sym.core.numbers import digits as _digits
from cbdp_sym.divergences.numeric import _mp_joint, bisect_roots, raw_log_pdf
from cbdp_sym.core.numbers import parse_number, to_mpf
from cbdp_sym.core.tape import Tex, cached_derivation, record
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.calculus.certify import arb_closed
from cbdp_sym.calculus.implicit import certify_root, root_bracketed
from cbdp_sym.calculus.optimize import golden_max
from cbdp_sym.divergences.mechanisms import gaussian_mechanism, laplace_mechanism, randomized_response
from cbdp_sym.laws.spec import parse_law, split_args
from cbdp_sym.core.printing import latex
from cbdp_sym.core.cache import cached_numeric, code_version
from cbdp_sym.core.safeeval import compile_mp
from cbdp_sym.core.serial import round_trips
import cbdp_sym.core.store as store
from cbdp_sym.divergences.kinked import loss_law
from cbdp_sym.divergences.lattice_numeric import hockey_lattice, involves_lattice
from cbdp_sym.divergences.lattice_symbolic import lattice_profile_sym, mp_callable

EPS = sp.Symbol("epsilon", nonnegative=True)

__all__ = ["EPS", "Phi", "hockey_stick_generator", "E_gamma", "profile_sym", "profile_mp", "symmetric_profile_mp",
           "erfc_form", "value_with_digits", "eps_for_delta", "exact_eps", "privacy_profile", "parse_profile_law",
           "profile_locator"]


def hockey_stick_generator(eps=EPS):
    """The hockey-stick generator ``f(t) = (t - e^eps)_+`` (``E_gamma`` with ``gamma = e^eps``): its
    f-divergence is the privacy profile ``delta_{P,Q}(eps)``."""
    eps = sp.sympify(eps)
    if eps.is_number and eps.is_negative:
        raise ParameterError(f"the hockey-stick divergence needs eps >= 0, got eps = {eps}")
    params = (eps,) if eps.is_Symbol else ()
    return Generator("hockey", r"E_{e^{\varepsilon}}", sp.Max(T - sp.exp(eps), 0), params=params,
                     convention="$f(t) = (t - e^{\\varepsilon})_+$ on $t \\ge 0$ (the hockey-stick divergence)")


E_gamma = hockey_stick_generator()


def erfc_form(expr):
    """``expr`` with every ``erf(z)`` written ``1 - erfc(z)`` (the constants cancel symbolically, not in
    floating point) and every ``erfc(z)`` as ``2 Phi(-sqrt(2) z)``."""
    e = sp.sympify(expr)
    if not e.has(sp.erf, sp.erfc):
        return e
    e = e.replace(sp.erf, lambda z: 1 - sp.erfc(z))
    e = sp.expand(e)
    e = e.replace(sp.erfc, lambda z: 2 * Phi(sp.expand(-sp.sqrt(2) * z)))
    with time_limit(30, "collecting the Phi form"):
        e = sp.expand(e)
    return e


def _prepare(P, Q):
    if not isinstance(P, Distribution) or not isinstance(Q, Distribution):
        raise ParameterError("the profile needs two laws")
    if involves_lattice(P, Q):  # laws on the integers (with finite laws): sums (lattice_numeric, lattice_symbolic)
        return
    if isinstance(P, Finite) != isinstance(Q, Finite):
        raise ParameterError("a point mass or finite law against a law with a density is not comparable "
                             "(no likelihood ratio): both laws must be finite or both have densities")
    if isinstance(P, Product) != isinstance(Q, Product) or (isinstance(P, Product) and P.dim != Q.dim):
        raise ParameterError("a product law is comparable only with a product law of the same dimension")


@cached_derivation
def _profile_sym(P, Q, eps):
    name = Tex(r"\delta_{P,Q}(\varepsilon)")
    record(name, Tex(r"E_Q\left[\left(\frac{dP}{dQ} - e^{\varepsilon}\right)_+\right]"),
           "privacy profile: the f-divergence of the hockey-stick generator $(t - e^{\\varepsilon})_+$")
    value, conds = f_divergence(hockey_stick_generator(eps), P, Q, lhs=name)
    if value.has(sp.erf, sp.erfc):
        value = erfc_form(value)
        record(name, value, "error functions written through $\\operatorname{erfc}$ and $\\Phi(x) = "
                            "\\operatorname{erfc}(-x/\\sqrt{2})/2$: no cancellation in the tails")
    return value, tuple(conds)


def profile_sym(P, Q, eps=EPS):
    """The privacy profile ``delta_{P,Q}(eps)`` derived with the engine (steps on the tape).  Returns
    ``(value, conditions)`` like :func:`cbdp_sym.f_divergence` (whose hockey-stick divergence it is): the conditions
    the derivation needed (laws on the integers: none, the sums are closed)."""
    _prepare(P, Q)
    if involves_lattice(P, Q):
        return lattice_profile_sym(P, Q, sp.sympify(eps)), []
    value, conds = _profile_sym(P, Q, sp.sympify(eps))
    return value, list(conds)


# -- numerics from the definition ------------------------------------------------------------------
def _mpf(x):
    return x if isinstance(x, mp.mpf) else to_mpf(x)


def _loss_atoms(P, Q):
    out = []
    for _x, p, q in _mp_joint(P, Q):
        if p == 0:
            continue
        out.append((mp.inf if q == 0 else mp.log(p) - mp.log(q), p))
    return out


def _roots(L, e, pts):
    return bisect_roots(L, e, pts, rtol=mp.eps * 4)


def _one_family_one_width(P, Q):
    """Two Normal laws of one width or two Laplace laws of one scale (a mechanism's pair).  Then ``L = log p - log
    q`` is monotone between the break points for certain: affine (Normal) or piecewise affine with kinks at the
    locations (Laplace)."""
    return type(P) is type(Q) and type(P) in (Normal, Laplace) and P.mp_width() == Q.mp_width()


def _turning_points(L, a, b, n=32):
    """The interior extrema of ``L`` on ``(a, b)``: located on ``n + 3`` samples (53-bit arithmetic; two of them
    just inside the ends), each sample larger (smaller) than its neighbours refined by golden section at the
    working precision on the bracket of its neighbours.  Exact for a ``L`` with one extremum (concave or convex,
    as Normal against Laplace or Normal laws of two widths): the samples are then unimodal."""
    d = b - a
    xs = [a, a + d * mp.mpf(2) ** -30] + [a + d * k / n for k in range(1, n)] + [b - d * mp.mpf(2) ** -30, b]
    with mp.workprec(53):
        ys = [L(x) for x in xs]
    out = []
    tol = mp.mpf(2) ** (-(mp.mp.prec // 2) - 8)  # L at the argmax is its maximum to the working precision
    for i in range(1, len(xs) - 1):
        for sense in (1, -1):
            if sense * ys[i - 1] < sense * ys[i] and sense * ys[i] >= sense * ys[i + 1]:
                x = golden_max(lambda t: sense * L(t), xs[i - 1], xs[i + 1], tol=tol)[0]
                if a < x < b:
                    out.append(x)
    return sorted(set(out))


def _split_at_turning_points(L, e, brk):
    """``brk`` plus, on each segment between break points where ``L - e`` changes sign more often across the
    interior extrema of ``L`` than across the segment's ends (so that ``bisect_roots`` would miss roots: ``L``
    rises above ``e`` and falls back between two breaks), those extrema.  Other segments are left alone, so the
    roots found there (and everything computed from them) are unchanged."""
    out = list(brk)
    for a, b in zip(brk[:-1], brk[1:]):
        tp = _turning_points(L, a, b)
        if not tp:
            continue
        signs = [L(x) > e for x in [a] + tp + [b]]
        if sum(u != v for u, v in zip(signs[:-1], signs[1:])) > (signs[0] != signs[-1]):
            out += tp
    return sorted(set(out))


def _expm1_raw(y, prec, rnd):
    """``mp.expm1`` of a real mpf value ``y`` at ``prec`` bit for bit (mpmath 1.x: ``defun_wrapped`` adds 10
    bits; ``exp(y) - 1`` by ``sum_accurately``, which adds precision while the subtraction cancels)."""
    if y == _lm.fzero:  # (`if not x` of expm1)
        r = _lm.fzero
    else:
        wp = prec + 10
        if mp.mp._mpf_mag(y) < -wp:
            r = _lm.mpf_add(y, _lm.mpf_mul(_lm.mpf_pow_int(y, 2, wp, rnd), _lm.from_float(0.5), wp, rnd), wp, rnd)
        else:
            extra = 10
            one_mag = 1  # mag(-1)
            while True:
                p = wp + extra + 5
                t = _lm.mpf_exp(y, p, rnd)
                s = _lm.mpf_add(_lm.fzero, t, p, rnd)
                tmag = mp.mp._mpf_mag(t)
                smag = mp.mp._mpf_mag(s)
                if smag - tmag > p:  # (never: the loop of sum_accurately stops after its first term)
                    cancel = tmag - smag
                else:
                    s = _lm.mpf_add(s, _lm.from_int(-1), p, rnd)
                    smag = mp.mp._mpf_mag(s)
                    cancel = max(tmag, one_mag) - smag
                if cancel != cancel or cancel < extra:
                    break
                extra += min(p, cancel)
            r = s
    return _lm.mpf_pos(r, prec, rnd)


def _fast_integrand(P, Q, e, M):
    """The integrand ``p (1 - e^{eps - L}) / e^M`` of :func:`_profile_line` for Normal and Laplace laws, computed on
    raw mpmath values with the operations of the generic one (identical results, fewer Python objects), or
    ``None`` for other laws.  Every value it returns equals the generic integrand's (tests compare them)."""
    lpP, lpQ = raw_log_pdf(P), raw_log_pdf(Q)
    if lpP is None or lpQ is None or not getattr(mp.mp, "_mpf_mag", None):
        return None
    e_, M_ = e._mpf_, M._mpf_
    ctx = mp.mp
    make = ctx.make_mpf
    zero = ctx.mpf(0)

    def g(x):
        prec, rnd = ctx._prec_rounding
        xv = x._mpf_
        lp, lq = lpP(xv, prec, rnd), lpQ(xv, prec, rnd)
        if not _lm.mpf_gt(_lm.mpf_sub(lp, lq, prec, rnd), e_):
            return zero
        a = _lm.mpf_exp(_lm.mpf_sub(lp, M_, prec, rnd), prec, rnd)
        b = _lm.mpf_neg(_expm1_raw(_lm.mpf_sub(_lm.mpf_add(e_, lq, prec, rnd), lp, prec, rnd), prec, rnd), prec, rnd)
        return make(_lm.mpf_mul(a, b, prec, rnd))

    return g


def _profile_line(P, Q, e):
    L = lambda x: P.mp_log_pdf(x) - Q.mp_log_pdf(x)  # noqa: E731
    w0 = min(P.mp_width(), Q.mp_width())
    far = 10 * (P.mp_reach() + Q.mp_reach() + abs(P.mp_loc()) + abs(Q.mp_loc()) + 1)
    far = far + 4 * abs(e) * (P.mp_width() + Q.mp_width()) ** 2 / max(abs(P.mp_loc() - Q.mp_loc()), w0) + 4 * abs(e) * w0
    brk = sorted({mp.mpf(b) for b in list(P.mp_breaks()) + list(Q.mp_breaks()) + [-far, far]})
    if not _one_family_one_width(P, Q):
        brk = _split_at_turning_points(L, e, brk)  # L monotone on each piece: the sign changes find every root
    pts = _roots(L, e, brk)
    cells = [(-mp.inf, pts[0])] + list(zip(pts[:-1], pts[1:])) + [(pts[-1], mp.inf)]
    kinks = sorted(set(P.mp_kinks()) | set(Q.mp_kinks()) | {P.mp_loc()})
    tiny = -(mp.mp.prec + 40) * mp.log(2)
    total = mp.mpf(0)
    for a, b in cells:
        mid = (a + b) / 2 if mp.isfinite(a) and mp.isfinite(b) else (b - w0 if mp.isfinite(b) else a + w0)
        if not L(mid) > e:
            continue
        inner = [k for k in kinks if a < k < b]
        cand = [x for x in [a, b] + inner if mp.isfinite(x)]
        M = max(P.mp_log_pdf(x) for x in cand) if cand else P.mp_log_pdf(mid)

        def g(x, M=M):
            lp, lq = P.mp_log_pdf(x), Q.mp_log_pdf(x)
            if not lp - lq > e:
                return mp.mpf(0)
            return mp.exp(lp - M) * (-mp.expm1(e + lq - lp))

        fast = _fast_integrand(P, Q, e, M)

        nodes = set([a, b] + inner)
        cut = {}  # an infinite end is cut where p / e^M is below the working precision (log-concave tails)
        for end, direction in ((a, 1), (b, -1)):
            if not mp.isfinite(end):
                continue
            h = mp.mpf(10) ** -8 * (abs(end) + w0)
            slope = abs(P.mp_log_pdf(end + direction * h) - P.mp_log_pdf(end)) / h
            step = min(w0, 1 / slope) if slope > 0 else w0
            step = max(step, w0 * mp.mpf(10) ** -30)
            x = end
            for _ in range(80):
                x = x + direction * step
                if not (a < x < b):
                    break
                nodes.add(x)
                if P.mp_log_pdf(x) - M < tiny and not mp.isfinite(b if direction > 0 else a):
                    cut[direction] = x
                    break
                step *= 4
        for k in inner:
            nodes.add(k)
        nodes = sorted(x for x in nodes if cut.get(1, mp.inf) >= x >= cut.get(-1, -mp.inf))
        total += mp.exp(M) * mp.fsum(mp.quad(fast or g, [u, v]) for u, v in zip(nodes[:-1], nodes[1:]))
    return total


def _float_laws(P, Q):
    """``((log p, loc, width), (log q, loc, width))`` in floats for two Normal or two Laplace laws of the same
    width (a mechanism's pair), or ``None``."""
    if not _one_family_one_width(P, Q):
        return None
    return tuple((np_log_pdf(D), float(to_mpf(D.loc)), float(D.mp_width())) for D in (P, Q))


def profile_locator(P, Q):
    """A double-precision estimate of ``delta_{P,Q}(eps)`` (SciPy quadrature of ``p (1 - e^{eps - L})`` over the
    cells where ``L = log p/q > eps``), or ``None`` for laws it does not know.  It only *locates*: the root
    finder of :func:`eps_for_delta` uses it to skip the evaluations whose sign it decides with a wide margin;
    every value that enters the result is computed at the working precision."""
    laws = _float_laws(P, Q)
    if laws is None:
        return None
    (lp, mP, wP), (lq, mQ, wQ) = laws
    w = min(wP, wQ)
    span = 60 * (wP + wQ) + abs(mP) + abs(mQ) + 1
    knots = sorted({mP, mQ})

    def est(e):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _est(float(e))

    def _est(e):
        # (imported at the first estimate: SciPy's import costs 0.4 s, and a root polished from its double-precision
        # start, as `profile` and exact_eps find it, asks the locator for nothing)
        from scipy import integrate as _sint, optimize as _sopt

        L = lambda x: lp(x) - lq(x) - e  # noqa: E731
        lo, hi = knots[0] - span - 4 * e * (wP + wQ), knots[-1] + span + 4 * e * (wP + wQ)
        grid = sorted(set([lo + (hi - lo) * k / 4000 for k in range(4001)] + knots))
        pts = []
        for u, v in zip(grid[:-1], grid[1:]):
            fu, fv = L(u), L(v)
            if fu == 0:
                pts.append(u)
            elif (fu > 0) != (fv > 0) and fv != 0:
                pts.append(_sopt.brentq(L, u, v, xtol=1e-15 * max(1.0, abs(u)), rtol=1e-15))
        ends = [-math.inf] + pts + [math.inf]
        total, err = 0.0, 0.0
        for a, b in zip(ends[:-1], ends[1:]):
            if math.isfinite(a) and math.isfinite(b):
                mid = (a + b) / 2
            else:
                mid = b - w if math.isfinite(b) else (a + w if math.isfinite(a) else mP)
            if not L(mid) > 0:
                continue

            def f(x):
                d = L(x)
                return math.exp(lp(x)) * -math.expm1(-d) if d > 0 else 0.0

            inner = [k for k in knots if a < k < b]
            if math.isfinite(a) and math.isfinite(b):
                v, er = _sint.quad(f, a, b, points=inner or None, epsabs=0, epsrel=1e-11, limit=400)
            else:
                # split at a finite point so that scipy's infinite-range transform sees one tail
                c = (a + w) if math.isfinite(a) else ((b - w) if math.isfinite(b) else mP)
                parts = [(a, c), (c, b)]
                v = er = 0.0
                for u, z in parts:
                    pi = [k for k in inner if u < k < z]
                    if math.isfinite(u) and math.isfinite(z):
                        r = _sint.quad(f, u, z, points=pi or None, epsabs=0, epsrel=1e-11, limit=400)
                    else:
                        r = _sint.quad(f, u, z, epsabs=0, epsrel=1e-11, limit=400)
                    v, er = v + r[0], er + r[1]
            total, err = total + v, err + er
        if not (math.isfinite(total) and total > 1e-290) or err > 1e-8 * total:
            return None
        return total

    return est


_GL: dict = {}


def _legendre_rule(n: int):
    """Gauss-Legendre nodes and weights of ``n`` points on ``[-1, 1]`` in floats: Newton's method on the Legendre
    polynomial from the usual starting guesses ``cos(pi (i - 1/4) / (n + 1/2))`` (to the last bit; NumPy's
    ``leggauss`` gives the same rule, but NumPy costs 50 ms to import and the command line waits for it)."""
    xs, ws = [], []
    for i in range(1, n + 1):
        x = math.cos(math.pi * (i - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for k in range(2, n + 1):
                p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
            dp = n * (x * p1 - p0) / (x * x - 1)
            dx = p1 / dp
            x -= dx
            if abs(dx) <= 1e-16 * max(1.0, abs(x)):
                break
        p0, p1 = 1.0, x
        for k in range(2, n + 1):
            p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
        dp = n * (x * p1 - p0) / (x * x - 1)
        xs.append(x)
        ws.append(2 / ((1 - x * x) * dp * dp))
    return xs, ws


def _gauss_legendre(f, a, b, scale=None):
    """``int_a^b f`` in double precision for a smooth ``f`` of a float (``a`` or ``b`` may be infinite: the
    piece is mapped by ``x = c + t / (1 - t^2)``): Gauss-Legendre with 20 and 40 nodes (:func:`_legendre_rule`),
    halving a piece while the two rules differ by more than ``2^-47`` of ``scale`` (default: the first estimate of the
    whole integral; ``inf``: that first estimate only), at most 64 pieces (where rounding keeps the two rules apart,
    more pieces would not help).  Written here because SciPy's QUADPACK costs 0.4 s to import and mpmath's
    double-precision tanh-sinh keeps only about 10 digits on a Gaussian tail; it serves the quick check of
    :func:`profile_float` only."""
    if not _GL:
        _GL.update({n: _legendre_rule(n) for n in (20, 40)})
    if math.isinf(a) or math.isinf(b):
        c = b - 1.0 if math.isinf(a) else (a + 1.0 if math.isinf(b) else (a + b) / 2)
        lo = -1.0 if math.isinf(a) else _inv_map(a - c)
        hi = 1.0 if math.isinf(b) else _inv_map(b - c)
        g = lambda t: f(c + t / (1 - t * t)) * (1 + t * t) / (1 - t * t) ** 2  # noqa: E731
        return _gauss_legendre(g, lo, hi, scale)
    (x1, w1), (x2, w2) = _GL[20], _GL[40]

    def rules(u, v):
        half, mid = (v - u) / 2, (u + v) / 2
        return (half * math.fsum(w * f(mid + half * x) for x, w in zip(x1, w1)),
                half * math.fsum(w * f(mid + half * x) for x, w in zip(x2, w2)))

    todo = [(a, b, *rules(a, b))]
    if scale is None:
        scale = abs(todo[0][3])
    elif math.isinf(scale):  # (one pass of each rule: the first estimate)
        return todo[0][3]
    total, pieces = [], 1
    while todo:
        u, v, r1, r2 = todo.pop()
        if abs(r2 - r1) <= 2.0**-47 * scale or pieces >= 64 or not math.isfinite(r2):
            total.append(r2)
            continue
        m = (u + v) / 2
        todo += [(u, m, *rules(u, m)), (m, v, *rules(m, v))]
        pieces += 1
    return math.fsum(total)


def _inv_map(y):
    """``t`` in (-1, 1) with ``t / (1 - t^2) = y``."""
    return 0.0 if y == 0 else 2 * y / (1 + math.sqrt(1 + 4 * y * y))


def _positive(L, x) -> bool:
    """``L(x) > 0``, false where ``L`` has no value (``nan`` compares false, as on a NumPy array)."""
    try:
        return L(x) > 0
    except (OverflowError, ValueError, ZeroDivisionError):
        return False


def profile_float(P, Q):
    """``delta_{P,Q}(eps)`` from the definition in double precision, as a function of ``eps`` (a float), or ``None``
    for laws without double-precision log-densities (finite laws need none: their profile is a finite sum).

    The cells where ``L = log p - log q > eps`` are found on a grid of 2,000 steps (plus the laws' break points,
    in floats) by bisection of ``L - eps`` in floats; ``p (1 - e^{eps - L})`` is integrated over each cell, split at the break
    points inside and, from each finite end outward, into pieces of the local decay length growing 4-fold, by
    :func:`_gauss_legendre`.  About a millisecond for two Gaussians, with 14 or more correct digits
    (13 in the far tails); fewer where ``log p - log q - eps`` cancels over the whole cell (two Laplace laws at ``eps``
    just below their largest log-ratio: 7 digits at ``delta = 10^-10``); ``nan`` where doubles cannot represent the
    value (``delta`` below ``1e-280``).  It is the quick independent check of ``cbdp-sym profile``
    (:func:`privacy_profile`): a derived closed form is compared with it at the answer's point, the working-precision
    quadrature (:func:`profile_mp`) runs with ``check=True``.

    >>> from cbdp_sym.laws.distributions import Laplace
    >>> f = profile_float(Laplace(0, 1), Laplace(1, 1))
    >>> abs(f(0.5) / -math.expm1((0.5 - 1) / 2) - 1) < 1e-12
    True
    """
    if isinstance(P, Product) and isinstance(Q, Product):
        try:
            P, Q = loss_law(P, Q)
        except (DerivationError, ParameterError):
            return None
    lp, lq = np_log_pdf(P), np_log_pdf(Q)
    if lp is None or lq is None:
        return None
    mP, mQ = float(P.mp_loc()), float(Q.mp_loc())
    wP, wQ = float(P.mp_width()), float(Q.mp_width())
    w0 = min(wP, wQ)
    breaks = sorted({float(b) for b in list(P.mp_breaks()) + list(Q.mp_breaks())})
    reach = float(P.mp_reach() + Q.mp_reach())

    def delta(eps):
        e = float(eps)
        L = lambda x: float(lp(x) - lq(x)) - e  # noqa: E731
        far = reach + abs(mP) + abs(mQ) + 1 + 4 * e * (wP + wQ) ** 2 / max(abs(mP - mQ), w0) + 4 * e * w0
        lo, hi = min(mP, mQ) - far, max(mP, mQ) + far
        step = (hi - lo) / 2000  # (the points of NumPy's linspace)
        grid = sorted([i * step + lo for i in range(2000)] + [hi] + [b for b in breaks if lo < b < hi])
        pos = [_positive(L, x) for x in grid]
        roots = []
        for i in (i for i in range(len(grid) - 1) if pos[i] != pos[i + 1]):
            a, b = grid[i], grid[i + 1]
            up = L(a) > 0
            if up == (L(b) > 0):
                continue
            for _ in range(80):  # bisection to the last bit of a double
                m = (a + b) / 2
                if not a < m < b:
                    break
                if (L(m) > 0) == up:
                    a = m
                else:
                    b = m
            roots.append((a + b) / 2)
        ends = [-math.inf] + roots + [math.inf]
        total, cells = 0.0, 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (exp underflows to 0 far out: the integrand is 0 there)
            for a, b in zip(ends[:-1], ends[1:]):
                mid = (a + b) / 2 if math.isfinite(a) and math.isfinite(b) else (b - w0 if math.isfinite(b) else a + w0)
                if not L(mid) > 0:
                    continue
                cells += 1

                def f(x):  # (at one abscissa)
                    try:
                        lpx = float(lp(x))
                        d = lpx - float(lq(x)) - e
                        return math.exp(lpx) * -math.expm1(-d) if d > 0 else 0.0
                    except OverflowError:
                        return math.inf
                    except (ValueError, ZeroDivisionError):
                        return math.nan

                pts = {a, b} | {k for k in breaks if a < k < b}
                for end, direction in ((a, 1), (b, -1)):  # from a finite end outward, pieces of the local decay
                    if not math.isfinite(end):  # length growing 4-fold (a tail far out is steep: one piece would
                        continue  # put too few nodes where the mass is)
                    h = 1e-7 * (abs(end) + w0)
                    slope = abs(float(lp(end + direction * h) - lp(end))) / h
                    step = max(min(w0, 1 / slope) if slope > 0 else w0, 1e-12 * w0)
                    x = end
                    for _ in range(60):
                        x += direction * step
                        if not a < x < b or abs(x) > abs(end) + 2 * far:
                            break
                        pts.add(x)
                        step *= 4
                ordered = sorted(pts)
                pieces = list(zip(ordered[:-1], ordered[1:]))
                # the tolerance of every piece is relative to the whole cell (a first estimate): a piece whose share
                # is below the double precision of the cell is not refined further
                scale = math.fsum(abs(_gauss_legendre(f, u, v, scale=math.inf)) for u, v in pieces)
                total += math.fsum(_gauss_legendre(f, u, v, scale=scale) for u, v in pieces)
        if cells == 0:
            return 0.0
        return total if math.isfinite(total) and total > 1e-280 else math.nan

    return delta


def profile_mp(P, Q, eps):
    """``delta_{P,Q}(eps) = int (p - e^eps q)_+`` from the definition at the working precision, with
    relative precision at any magnitude (see the module's docstring).  Finite laws: the sum of
    ``p (1 - e^{eps - L})`` over atoms with log-ratio ``L > eps`` (``p`` where ``q = 0``).  Products of
    Gaussians: the one-dimensional laws of the (affine) log-ratio, which leave the profile unchanged."""
    _prepare(P, Q)
    e = _mpf(eps)
    if e < 0:
        raise ParameterError(f"eps must be >= 0, got {mp.nstr(e, 10)}")
    if involves_lattice(P, Q):
        return hockey_lattice(P, Q, e)
    if isinstance(P, Finite):
        return mp.fsum(p if L == mp.inf else p * (-mp.expm1(e - L)) for L, p in _loss_atoms(P, Q) if L > e)
    if isinstance(P, Product):
        P, Q = loss_law(P, Q)
    return _profile_line(P, Q, e)


def symmetric_profile_mp(P, Q, eps):
    """``max(delta_{P,Q}(eps), delta_{Q,P}(eps))``: the profile of the pair in both directions."""
    return max(profile_mp(P, Q, eps), profile_mp(Q, P, eps))


# -- evaluation with a check of the significant digits ----------------------------------------------
def value_with_digits(expr, subs=None, dps=None):
    """``(value, digits)``: the closed form at ``subs`` (exact numbers), cancellation-free rewrite first
    (``erf`` through ``erfc``, :func:`erfc_form`), then evaluated in fixed-precision mpmath arithmetic at
    ``dps`` and at ``2 dps + 20`` digits; ``digits`` is the relative agreement of the two (capped at
    ``dps``).  Fixed precision matters: SymPy's adaptive ``evalf`` can return the same digitless value
    at both precisions (``1 - erf(30)`` gives ``0.e-160``, or 16 wrong digits).  A value with fewer than
    5 significant digits is refused (:class:`DerivationError`), never returned."""
    dps = dps or mp.mp.dps
    e = erfc_form(sp.sympify(expr).subs(subs or {}))
    if e.free_symbols:
        raise DerivationError(f"free symbols {sorted(map(str, e.free_symbols))} remain in the closed form")
    fn = mp_callable(e) if e.has(sp.Sum) else compile_mp((), e, {"Phi": Phi.mp})
    vals = []
    for n in (dps, 2 * dps + 20):
        with mp.workdps(n):
            try:
                v = mp.mpf(fn())
            except (TypeError, ValueError, ZeroDivisionError) as exc:
                raise DerivationError(f"cannot evaluate the closed form: {exc}") from None
            vals.append(v)
    lo, hi = vals
    if lo == hi == 0:
        return mp.mpf(0), mp.mpf(dps)
    d = _digits(lo, hi)
    if lo == 0 or hi == 0 or (lo > 0) != (hi > 0):
        d = mp.mpf(0)
    if d >= 5:
        return hi, min(d, mp.mpf(dps))
    raise DerivationError(f"the closed form evaluates to a number without significant digits ({mp.nstr(lo, 5)} "
                          f"at {dps} digits, {mp.nstr(hi, 5)} at {2 * dps + 20})")


# -- eps(delta) ------------------------------------------------------------------------------------
def _bracket(profile, d, above=lambda e: False):
    """``(lo, hi)`` with ``profile(lo) > d >= profile(hi)``, or ``None`` when ``profile(0) <= d`` (eps = 0).
    ``above(e)``: true only where ``profile(e) > d`` is certain without computing it (see :func:`eps_for_delta`)."""
    lo = mp.mpf(0)
    if not above(lo) and profile(lo) <= d:
        return None
    hi = mp.mpf(1)
    while above(hi) or profile(hi) > d:
        lo, hi = hi, 2 * hi
        if hi > mp.mpf(10) ** 8:
            raise ParameterError("the profile stays above delta for every eps: no finite eps(delta)")
    return lo, hi


def _memo_by_point(profile):
    """``profile`` remembering its values by the exact point and the working precision: the bracket's ends are
    evaluated by the bracket search and again by the root finder (the same value both times)."""
    seen = {}

    def f(e):
        key = (_mpf(e)._mpf_, mp.mp.prec)
        if key not in seen:
            seen[key] = profile(e)
        return seen[key]

    return f


def eps_for_delta(profile, delta, locate=None, start=None):
    """The exact ``eps(delta) = min{eps >= 0 : profile(eps) <= delta}`` for a non-increasing mpmath
    ``profile``: bracketed, then the root of ``log profile - log delta`` at the working precision.

    ``locate`` (optional): a double-precision estimate of the profile (:func:`profile_locator`), used only to skip
    the bracket search's and the bisection's evaluations where it puts the profile above ``delta`` by a wide margin
    (0.1 %, some 10^6 times its error): the steps taken, every value used and the result are those without it.

    ``start`` (optional): the root located in double precision (:func:`float_root`); the root is then polished at the
    working precision in a bracket of relative width ``10^-12`` around it (widened if the root is not inside), without
    the 20-digit bracket search (``cbdp-sym profile`` without a closed form; the audit's roots do not pass it)."""
    d = _mpf(delta)
    if not 0 < d < 1:
        raise ParameterError(f"delta must lie in (0, 1), got {mp.nstr(d, 10)}")
    ld = mp.log(d)
    profile = _memo_by_point(profile)

    def g(e):
        v = profile(e)
        return mp.log(v) - ld if v > 0 else -mp.inf

    dfl = float(d)

    def above(e):
        if locate is None:
            return False
        try:
            v = locate(e)
        except (ArithmeticError, ValueError):
            return False
        return v is not None and v > dfl * 1.001

    if start is not None and start > 0:
        r0 = mp.mpf(start)
        polished = _secant_polish(profile, d, r0)
        if polished is not None:
            return polished
        w = abs(r0) * mp.mpf(10) ** -12
        for _ in range(6):
            a, b = max(r0 - w, mp.mpf(0)), r0 + w
            ga = g(a)
            gb = g(b) if ga > 0 else None
            if ga > 0 and not gb > 0:
                return root_bracketed(g, a, b, rough=0, flo=ga, fhi=gb)
            w *= 100
    with mp.workdps(20):  # the bracket and ~15 digits at low precision (cheap)
        br = _bracket(profile, d, above)
        if br is None:
            return mp.mpf(0)
        lo_side = g(br[0]) > 0  # (the bracket's lower end; remembered, root_bracketed reads the same value)
        r0 = root_bracketed(g, *br, like_lo=above if lo_side else None)  # (above vouches for g > 0)
    w = abs(r0) * mp.mpf(10) ** -13 + mp.mpf(10) ** -30
    a, b = max(r0 - w, mp.mpf(0)), r0 + w
    for _ in range(6):  # at the working precision the root may sit just outside: widen
        ga = g(a)
        gb = g(b) if ga > 0 else None
        if ga > 0 and not gb > 0:
            return root_bracketed(g, a, b, rough=0, flo=ga, fhi=gb)  # (the ends' values are not computed again)
        w *= 100
        a, b = max(r0 - w, mp.mpf(0)), r0 + w
    return root_bracketed(g, *br, rough=0)


def _secant_polish(profile, d, r0, steps=8):
    """The root of ``profile(e) = d`` at the working precision from ``r0``, the root located in double precision
    (:func:`float_root`, 14 or more correct digits), or ``None`` (then :func:`eps_for_delta` brackets it as before).

    Secant steps on ``u(e) = profile(e) / d - 1`` (smooth near the root: the log of a profile is nearly singular where
    ``delta`` vanishes linearly, at the largest log-ratio of two Laplace laws) from ``r0`` and ``r0 (1 + 2^-47)``.
    The secant's error obeys ``e_{n+1} = K e_n e_{n-1}`` with ``K = u'' / (2 u')``; ``K`` is estimated once from the
    first three points (spread ``~1e-14``, far above the quadrature's noise), and the iteration stops at the first
    step whose predicted error ``K |x_{n+1} - x_n| |x_{n+1} - x_{n-1}|`` is below ``2^-(prec - 4)`` of the root with a
    safety factor of 1000 (the root is the secant's last point, not evaluated again).  Four evaluations of the
    profile for a Gaussian or Laplace pair at 60 digits, where the bracketed Illinois polish took six to twelve.
    ``None`` (no decision taken) when a value is not finite, a step leaves ``[0, oo)``, a secant is flat, or the
    steps do not settle within ``steps`` evaluations."""
    tol = mp.mpf(2) ** (-mp.mp.prec + 4)

    def u(e):
        v = profile(e)
        return v / d - 1 if mp.isfinite(v) else mp.nan

    pts = [(r0, u(r0))]
    x1 = r0 + abs(r0) * mp.mpf(2) ** -47
    pts.append((x1, u(x1)))
    K = None
    for _ in range(steps):
        (xa, ua), (xb, ub) = pts[-2], pts[-1]
        if ub == 0:
            return xb
        if not (mp.isfinite(ua) and mp.isfinite(ub)) or ua == ub:
            return None
        x = xb - ub * (xb - xa) / (ub - ua)
        if not (mp.isfinite(x) and x > 0):
            return None
        if K is None and len(pts) >= 3:
            (x0, u0), (x1_, u1) = pts[0], pts[1]
            s01, s12 = (u1 - u0) / (x1_ - x0), (ub - u1) / (xb - x1_)
            K = abs((s12 - s01) / (xb - x0) / s12)
        if K is not None and abs(x - xb) <= abs(x) * mp.mpf(10) ** -6:
            if 1000 * K * abs(x - xb) * abs(x - xa) <= tol * abs(x):
                return x
        pts.append((x, u(x)))
    return None


def float_root(profile, delta):
    """The root ``eps >= 0`` of ``profile(eps) = delta`` in double precision for a non-increasing float ``profile``
    (:func:`profile_float`), or ``None`` (``profile(0) <= delta``, or a value doubles cannot hold): a bracket by
    doubling, then the project's root finder at 53 bits (:func:`cbdp_sym.calculus.implicit.root_bracketed`)."""
    ld = math.log(delta)

    def g(e):
        v = profile(float(e))
        if not math.isfinite(v):
            raise ArithmeticError("not representable in double precision")
        return mp.mpf(math.log(v) - ld) if v > 0 else mp.mpf("-inf")

    try:
        with mp.workprec(53):
            if not g(0) > 0:
                return None
            lo, hi = mp.mpf(0), mp.mpf(1)
            while g(hi) > 0:
                lo, hi = hi, 2 * hi
                if hi > 1e8:
                    return None
            return float(root_bracketed(g, lo, hi))
    except (ArithmeticError, ParameterError, ValueError):
        return None


def parse_profile_law(spec: str):
    """A law from a CLI spec: the language of ``restricted`` (:func:`cbdp_sym.laws.spec.parse_law`) plus
    ``rr(p)`` / ``rr0(p)`` (randomized response's output law when the truth is 1 / 0) and
    ``finite(x1:p1, x2:p2, ...)``.

    >>> parse_profile_law("rr(3/4)")
    Finite(points=(0, 1), probs=(1/4, 3/4))
    """
    import re


    s = str(spec).strip()
    m = re.match(r"^\s*(rr0?|finite)\s*\((.*)\)\s*$", s, re.I)
    if not m:
        return parse_law(s)
    kind, args = m.group(1).lower(), split_args(m.group(2))
    if kind.startswith("rr"):
        if len(args) != 1:
            raise ParameterError(f"law spec {spec!r}: rr() takes one probability")
        p = parse_number(args[0], "rr probability")
        if not 0 <= p <= 1:
            raise ParameterError(f"law spec {spec!r}: the probability must lie in [0, 1]")
        P, Q = randomized_response(p)
        return P if kind == "rr" else Q
    pts, probs = [], []
    for a in args:
        x, sep, q = a.partition(":")
        if not sep:
            raise ParameterError(f"law spec {spec!r}: finite() takes point:probability pairs")
        pts.append(parse_number(x, "point"))
        probs.append(parse_number(q, "probability"))
    return Finite(pts, probs)


def exact_eps(P, Q, delta, closed=None, quadrature=True):
    """The exact ``eps(delta)`` of the pair ``(P, Q)`` at the working precision: ``{"eps", "numeric", "digits",
    "certificate"}`` (mpf values).  ``closed``: the derived profile as a SymPy expression in :data:`EPS` (other
    parameters substituted); its root is the value and is certified in Arb; ``numeric`` is the root of the
    quadrature profile (:func:`profile_mp`), an independent computation of the definition (skipped when
    ``quadrature`` is false), located in double precision and polished at the working precision."""
    d = _mpf(delta)
    num = None
    if quadrature:
        # located in double precision (:func:`profile_float`, an independent computation of the definition), then
        # polished once at the working precision (issue 31); without a double-precision value, bracketed at 20 digits
        floats = profile_float(P, Q)
        start = float_root(floats, float(d)) if floats is not None else None
        num = eps_for_delta(lambda e: profile_mp(P, Q, e), d, locate=profile_locator(P, Q), start=start)
    out = {"eps": num, "numeric": num, "digits": None, "certificate": None}
    if closed is not None:
        fn = mp_callable(closed, EPS) if closed.has(sp.Sum) else compile_mp(EPS, closed, {"Phi": Phi.mp})
        der = eps_for_delta(fn, d)
        out["eps"] = der
        if der > 0:
            dq = sp.Rational(mp.nstr(d, mp.mp.dps + 5, strip_zeros=False)) if not isinstance(delta, sp.Basic) else sp.sympify(delta)
            try:
                out["certificate"] = certify_root(closed - dq, EPS, der)[2]
            except DerivationError as exc:
                out["certificate"] = f"not certified: {exc}"
        if num is not None:
            out["digits"] = _digits(der, num) if der != num else mp.mpf(mp.mp.dps)
    return out


# -- one value, as the CLI prints it ---------------------------------------------------------------
# finite laws with more atoms than this (either law) are not derived symbolically for `profile`: the engine's case
# analysis of the hockey stick takes 1 s for 2 atoms, 2 s for 3, 5 s for 4 and gives up at 5; the profile's piece at
# the answer is exact and certified instead (:func:`_finite_piece`)
FINITE_DERIVE_ATOMS = 3


_DERIVED: dict = {}  # (P, Q) text -> closed form or None, this process


def _derived_safe(P, Q, seconds=60):
    """The derived profile of ``(P, Q)`` in :data:`EPS`, or ``None`` when the engine finds no closed form; remembered
    in this process and in the cache folder (``profiles/``, keyed by the laws and the code version of this module and
    what it imports), a failure too (a second ``profile`` of a pair the engine cannot derive does not try for 30 s
    again).  A time limit hit is not remembered (it says more about the machine than about the pair)."""
    if isinstance(P, Finite) and max(len(P.points), len(Q.points)) > FINITE_DERIVE_ATOMS:
        return None
    text = f"{type(P).__name__}:{P!r} | {type(Q).__name__}:{Q!r}"
    if text in _DERIVED:
        return _DERIVED[text]
    path = key = None
    if store._ENABLED[0]:
        key = json.dumps(["profile-derivation", 1, text, code_version(__file__)])
        path = store.cache_dir() / "profiles" / (hashlib.sha256(key.encode()).hexdigest() + ".json")
        got = store.read_valid(path, key, lambda v: (
            isinstance(v, tuple) and len(v) == 2 and v[0] in ("closed", "none") and (v[1] is None or isinstance(v[1], sp.Basic))),
            "not a profile derivation")
        if got is not None:
            _DERIVED[text] = got[1]
            return got[1]
    try:
        with time_limit(seconds, "deriving the profile"):
            value = profile_sym(P, Q, EPS)[0]
    except DerivationTimeout:
        return None
    except (DerivationError, NotImplementedError, TypeError, ValueError):  # no closed form: reported as null
        value = None
    _DERIVED[text] = value
    if path is not None:
        entry = ("closed", value) if value is not None else ("none", None)
        if round_trips(entry):
            store.write_entry(path, key, entry)
    return value


def _dstr(x, n):
    if x is None:
        return None
    return mp.nstr(x, n, strip_zeros=False, min_fixed=-4, max_fixed=6)


def _law_text(law, limit=120) -> str:
    """A law as the output names it: its ``repr``, or for a long finite law its size and range (never the whole law
    echoed back)."""
    text = repr(law)
    if len(text) <= limit or not isinstance(law, Finite):
        return text
    pts = [to_mpf(x) for x in law.points]
    return f"Finite({len(pts)} atoms on [{mp.nstr(min(pts), 6)}, {mp.nstr(max(pts), 6)}])"


def _finite_piece(P, Q, delta, root):
    """``(closed form, certificate)`` of ``eps(delta)`` for finite laws at a numeric ``root``: on the piece of the
    profile where the atoms ``S = {L_i > eps}`` are active, ``delta(eps) = P(S) - e^eps Q(S)``, so ``eps = log((P(S) -
    delta) / Q(S))``.  Certified in Arb: the piece's root has a sign change in a narrow bracket around ``root``, and
    every atom's log-ratio lies on its side of the bracket (so the piece is the profile there).  ``(None, reason)``
    when it cannot be (a bracket holding a kink, ``Q(S) = 0``)."""
    d = sp.Rational(mp.nstr(delta, mp.mp.dps + 5, strip_zeros=False)) if not isinstance(delta, sp.Basic) else delta
    joint = {}  # point -> [p, q], exact
    for law, k in ((P, 0), (Q, 1)):
        for x, w in zip(law.points, law.probs):
            joint.setdefault(sp.sympify(x), [sp.Integer(0), sp.Integer(0)])[k] += sp.sympify(w)
    atoms = [(p, q) for p, q in joint.values() if p != 0]
    active = [(p, q) for p, q in atoms if q == 0 or mp.log(to_mpf(p)) - mp.log(to_mpf(q)) > root]
    PS, QS = sum((p for p, _ in active), sp.Integer(0)), sum((q for _, q in active), sp.Integer(0))
    if QS == 0 or PS <= d:
        return None, "not certified: no piece of the profile with a root here"
    closed = sp.log((PS - d) / QS)
    try:
        lo, hi, sent = certify_root(PS - sp.exp(EPS) * QS - d, EPS, root)
    except DerivationError as exc:
        return None, f"not certified: {exc}"
    bits = int(mp.mp.prec * 2 + 64)
    for p, q in atoms:
        if q == 0:
            continue
        inside = (p, q) in active
        # L_i > hi for an active atom, L_i < lo for the others: p - e^hi q > 0, or p - e^lo q < 0
        side = arb_closed(p - sp.exp(hi) * q, bits) if inside else arb_closed(sp.exp(lo) * q - p, bits)
        if not bool(side > 0):
            return None, "not certified: an atom's log-ratio lies in the root's bracket"
    return closed, (sent + f"; on it the active atoms are the {len(active)} of {len(atoms)} with log(p/q) above the "
                           "bracket (checked in Arb), so the profile there is P(S) - e^eps Q(S)")


def profile_point(eps, delta):
    """``(eps, delta)`` of a profile question as exact SymPy numbers (``None`` where not given), or a
    :class:`ParameterError`: ``eps`` finite and ``>= 0``, ``delta`` strictly between 0 and 1."""
    ev = parse_number(str(eps), "eps") if eps is not None else None
    dv = parse_number(str(delta), "delta") if delta is not None else None
    if ev is not None and not (ev.is_finite and ev >= 0):
        raise ParameterError(f"eps must be a finite number >= 0, got {eps}")
    if dv is not None and not (0 < dv < 1):
        raise ParameterError(f"delta must lie strictly between 0 and 1, got {delta}")
    return ev, dv


def privacy_profile(P, Q, eps=None, delta=None, dps=50, symmetric=False, check=False):
    """One point of the privacy profile of ``(P, Q)``: at ``eps`` the value ``delta``, or at ``delta`` the
    exact ``eps(delta)``.  Returns ``{"delta", "eps", "derived", "digits", "check", "certificate", ...}``
    (values as decimal strings with ``dps`` significant digits; ``derived`` the LaTeX of the closed form
    or ``None``).

    With a derived closed form the value is the closed form's (its root certified in Arb for ``delta``), and the
    definition is checked at that point:

    * by default in double precision (:func:`profile_float`, about a millisecond): ``digits`` are those on which
      the closed form and the quadrature of the definition agree there (at most about 15), ``numeric_delta`` the
      definition's value at the point;
    * with ``check=True`` at the working precision, as before issue 31 (:func:`profile_mp`, a second or more):
      ``digits`` up to ``dps``, and ``numeric_eps`` the root of the quadrature profile itself.

    Without a closed form the value is the definition's at the working precision, and ``digits`` those it keeps
    between two precisions (``eps``) or ``None`` (``delta``).  Finite laws of more than
    :data:`FINITE_DERIVE_ATOMS` atoms are not derived: their ``eps(delta)`` is the exact root of the finite sum,
    and its piece of the profile (:func:`_finite_piece`) gives the closed form and the certificate.

    >>> from cbdp_sym.laws.distributions import Laplace
    >>> privacy_profile(Laplace(0, 1), Laplace(1, 1), eps="1/2", dps=20)["delta"]
    '0.22119921692859513175'
    """

    if (eps is None) == (delta is None):
        raise ParameterError("give exactly one of eps and delta")
    if not 5 <= int(dps) <= 1000:
        raise ParameterError(f"dps must be between 5 and 1000, got {dps}")
    _prepare(P, Q)
    ev, dv = profile_point(eps, delta)
    pairs = [(P, Q), (Q, P)] if symmetric else [(P, Q)]
    closed = [_derived_safe(a, b) for a, b in pairs]
    closed = None if any(c is None for c in closed) else closed
    expr = None if closed is None else (closed[0] if len(closed) == 1 else sp.Max(*closed))
    work = dps + 10
    out = {"P": _law_text(P), "Q": _law_text(Q), "symmetric": bool(symmetric), "dps": dps,
           "derived": latex(expr) if expr is not None else None}
    quick = None
    if expr is not None and not check:
        floats = [profile_float(a, b) for a, b in pairs]
        if all(f is not None for f in floats):
            quick = lambda e: max(f(e) for f in floats)  # noqa: E731
    with mp.workdps(work):
        num_profile = (lambda x: max(profile_mp(a, b, x) for a, b in pairs))  # noqa: E731
        if ev is not None:
            if expr is not None:
                der, _d = value_with_digits(expr, {EPS: ev}, work)
                val = der
                if quick is not None:
                    num, dg, how = _quick_check(quick, float(ev), der)
                else:
                    num = num_profile(to_mpf(ev))
                    dg = _digits(der, num) if (der != 0 or num != 0) else mp.inf
                    how = f"the definition's quadrature at {work} digits"
            else:
                num = num_profile(to_mpf(ev))
                with mp.workdps(work + 20):
                    num2 = num_profile(to_mpf(ev))
                dg = _digits(num, num2) if (num != 0 or num2 != 0) else mp.inf
                val = num
                how = f"no closed form: the definition at {work} and {work + 20} digits"
            out.update({"eps": _dstr(to_mpf(ev), dps), "delta": _dstr(val, dps),
                        "numeric_delta": _dstr(num, dps if quick is None else 15),
                        "digits": _dstr(min(dg, mp.mpf(dps)), 4), "check": how, "certificate": None})
            _note_disagreement(out, dg)
            return out
        d = to_mpf(dv)
        cert = None
        num = None
        if expr is not None:
            fn = mp_callable(expr, EPS) if expr.has(sp.Sum) else compile_mp(EPS, expr, {"Phi": Phi.mp})
            der = eps_for_delta(lambda x: fn(x), d)
            if der > 0:
                g = expr - dv
                try:
                    lo, hi, cert = certify_root(g, EPS, der)
                except DerivationError as exc:
                    cert = f"not certified: {exc}"
            val = der
            if quick is not None:
                num_d, dg, how = _quick_check(quick, float(der), d)
                out["numeric_delta"] = _dstr(num_d, 15)
            else:
                num = eps_for_delta(num_profile, d)
                dg = _digits(der, num) if (der != 0 or num != 0) else mp.inf
                how = f"the root of the definition at {work} digits"
        else:
            floats = [profile_float(a, b) for a, b in pairs]
            start = None if any(f is None for f in floats) else float_root(lambda e: max(f(e) for f in floats), float(d))
            locate = profile_locator(P, Q) if len(pairs) == 1 and start is None else None
            num = eps_for_delta(num_profile, d, locate=locate, start=start)  # (located in double precision, polished)
            val = num
            dg = None
            how = f"no closed form: the root of the definition at {work} digits"
            if isinstance(P, Finite) and len(pairs) == 1 and num > 0:
                piece, cert = _finite_piece(P, Q, dv, num)
                if piece is not None:
                    out["derived"] = latex(piece)
                    val = to_mpf(piece)
                    dg = _digits(val, num) if val != num else mp.mpf(dps)
                    how = (f"the exact finite sum's root at {work} digits (a finite law of {len(P.points)} atoms: its "
                           f"piece of the profile is the closed form)")
        out.update({"delta": _dstr(d, dps), "eps": _dstr(val, dps), "numeric_eps": _dstr(num, dps),
                    "digits": None if dg is None else _dstr(min(dg, mp.mpf(dps)), 4), "check": how,
                    "certificate": cert})
    _note_disagreement(out, dg)
    return out


def _note_disagreement(out, dg):
    """A note in ``out`` when the closed form and the definition disagree at the point (fewer than 5 digits)."""
    if out.get("derived") is not None and dg is not None and dg < 5:
        out["note"] = (f"the closed form and the definition agree to only {mp.nstr(dg, 3)} digits at this point: the "
                       "value printed is the closed form's")


def _quick_check(quick, point, target):
    """``(definition's value, digits, sentence)``: the double-precision profile at ``point`` against ``target`` (the
    closed form's value there, or the delta asked for at the closed form's root)."""
    v = quick(point)
    if not math.isfinite(v):
        return None, mp.mpf(0), ("the definition in double precision cannot represent this point (use --check for the "
                                 "working precision)")
    t = float(target)
    dg = mp.mpf(16) if v == t else (mp.mpf(0) if t == 0 or v == 0 else -mp.log10(abs(v - t) / max(abs(v), abs(t))))
    dg = min(dg, mp.mpf(16))
    return mp.mpf(v), dg, ("the definition's quadrature in double precision at this point (--check: the working "
                           "precision)")


# -- conversions audited against the exact profile (shared by the papers' conversion tables) ---------
_MECH_SYMS = {"gaussian": sp.Symbol("sigma", positive=True), "laplace": sp.Symbol("lam", positive=True)}


def mechanism_pair(mech, value):
    """``(label, P, Q)`` for a basic mechanism at sensitivity 1 with an exact parameter: ``gaussian`` (std),
    ``laplace`` (scale), ``rr`` (Mironov's probability ``p`` of the truth)."""
    v = sp.sympify(value)
    if mech == "gaussian":
        return f"Gaussian, $\\sigma = {sp.latex(v)}$", *gaussian_mechanism(v, 1)
    if mech == "laplace":
        return f"Laplace, $\\lambda = {sp.latex(v)}$", *laplace_mechanism(v, 1)
    if mech == "rr":
        return f"RR, $p = {sp.latex(v)}$", *randomized_response(v)
    raise ParameterError(f"unknown mechanism {mech!r}")


@cached_derivation
def mechanism_profile(mech):
    """The derived profile of a mechanism with its parameter a symbol (Gaussian, Laplace) -- steps on the tape."""
    s = _MECH_SYMS[mech]
    P, Q = gaussian_mechanism(s, 1) if mech == "gaussian" else laplace_mechanism(s, 1)
    return profile_sym(P, Q)[0]


def _cached(fn):
    return cached_numeric(fn)


@_cached
def mechanism_exact_eps(mech, value, delta):
    """``exact_eps`` for a basic mechanism: the derived profile (symbolic parameter, then substituted; finite
    laws derived at the value) inverted and certified, and the quadrature / sum profile inverted."""
    _label, P, Q = mechanism_pair(mech, value)
    if mech == "rr":
        closed = profile_sym(P, Q)[0]
    else:
        closed = mechanism_profile(mech).subs(_MECH_SYMS[mech], sp.sympify(value))
    return exact_eps(P, Q, sp.sympify(delta), closed=closed)


def slack_table(rows, title, note=""):
    """A check claim's table from rows ``(case, delta, conversion, value, exact, status)`` (mpf values):
    the relative slack ``(eps_conv - eps_exact)/eps_exact`` to 3 digits, values to 12."""
    body = []
    for case, d, name, val, exact, status in rows:
        if val is None or not mp.isfinite(val):
            sl = "--"
            vs = "--" if val is None else r"$\infty$"
        else:
            sl = mp.nstr((val - exact) / exact, 3) if exact != 0 else mp.nstr(val, 3)
            vs = mp.nstr(val, 12)
        body.append([f"{case}, $\\delta = {d}$", name, vs, mp.nstr(exact, 12), sl + (f", {status}" if status else "")])
    return {"title": title, "columns": ["mechanism", "conversion", r"$\varepsilon$", r"exact $\varepsilon(\delta)$",
                                        "rel. slack"], "rows": body, "note": note}
