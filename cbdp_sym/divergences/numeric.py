"""Independent numerics in mpmath: split quadrature, f-divergences, restricted suprema.

Nothing here reads a claim's derived or claimed form: quadratures integrate densities and
generators, and suprema maximise the defining objective.  The one engine object the restricted
supremum uses is the generator's conjugate, which the audit checks separately against a numeric
supremum (claims ``CBDP-EQ1-*``).
"""
from __future__ import annotations

import dataclasses
import functools

import mpmath as mp
import mpmath.libmp as _lm
import sympy as sp

from cbdp_sym.core.cache import cached_numeric
from cbdp_sym.core.memo import memo_numeric
from cbdp_sym.laws.distributions import Distribution, Finite, Laplace, Mixture, Normal, PointMass, Product
from cbdp_sym.divergences.generators import KL
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.divergences.kinked import generator_kink_points
from cbdp_sym.divergences.lattice_numeric import fdiv_lattice, involves_lattice, renyi_lattice
from cbdp_sym.calculus.optimize import bracket_max, golden_section


class _TanhSinh(mp.calculus.quadrature.TanhSinh):
    """mpmath's tanh-sinh rule, its node transformation done on raw mpmath values.

    ``transform_nodes`` maps the standard nodes to an interval at each degree of every new interval (about an eighth of
    a claim's quadrature time: the solver's intervals move with each Newton step).  Here it runs the same operations, in
    the same order, at the same precision and rounding as mpmath's own (``D + C x`` and ``C w`` on a finite interval;
    ``u = 2/(x + 1)``, ``b + 1 - u`` or ``a - 1 + u`` and ``w (u^2/2)`` on a half-line), on ``x._mpf_`` tuples: the nodes
    are bit for bit mpmath's (tested), without a Python-level mpf object per operation.  The caches are mpmath's own
    (shared with ``mp.quad``'s rule), so nodes computed by either serve both.
    """

    def __init__(self, ctx):
        super().__init__(ctx)
        stock = ctx._tanh_sinh
        self.standard_cache = stock.standard_cache
        self.transformed_cache = stock.transformed_cache
        self.interval_count = stock.interval_count

    def transform_nodes(self, nodes, a, b, verbose=False):
        ctx = self.ctx
        a, b = ctx.convert(a), ctx.convert(b)
        one = ctx.one
        if (a, b) == (-one, one):
            return nodes
        fin_a, fin_b = ctx.isfinite(a), ctx.isfinite(b)
        if not (fin_a or fin_b) or (not fin_a and a == ctx.inf) or (not fin_b and b == ctx.ninf):
            return super().transform_nodes(nodes, a, b, verbose)  # (-inf, inf) and reversed intervals: mpmath's
        prec, rnd = ctx._prec_rounding
        make = ctx.make_mpf
        add, sub, mul = _lm.mpf_add, _lm.mpf_sub, _lm.mpf_mul
        if fin_a and fin_b:
            c, d = ((b - a) / 2)._mpf_, ((b + a) / 2)._mpf_
            return [(make(add(d, mul(c, x._mpf_, prec, rnd), prec, rnd)), make(mul(c, w._mpf_, prec, rnd)))
                    for x, w in nodes]
        half, one_ = ctx.mpf(0.5)._mpf_, one._mpf_
        rdiv, powi = _lm.mpf_rdiv_int, _lm.mpf_pow_int
        out = []
        if not fin_a:  # [-inf, b]: x -> b + 1 - u
            b1 = (b + 1)._mpf_
            for x, w in nodes:
                u = rdiv(2, add(x._mpf_, one_, prec, rnd), prec, rnd)
                out.append((make(sub(b1, u, prec, rnd)),
                            make(mul(w._mpf_, mul(half, powi(u, 2, prec, rnd), prec, rnd), prec, rnd))))
        else:  # [a, inf]: x -> a - 1 + u
            a1 = (a - 1)._mpf_
            for x, w in nodes:
                u = rdiv(2, add(x._mpf_, one_, prec, rnd), prec, rnd)
                out.append((make(add(a1, u, prec, rnd)),
                            make(mul(w._mpf_, mul(half, powi(u, 2, prec, rnd), prec, rnd), prec, rnd))))
        return out


_RULES: dict = {}


def tanh_sinh(ctx=None):
    """The tanh-sinh rule of :class:`_TanhSinh` for mpmath's context (one per process): ``mp.quad(f, pts,
    method=tanh_sinh)`` gives mpmath's default rule's values, bit for bit."""
    ctx = ctx or mp.mp
    rule = _RULES.get(id(ctx))
    if rule is None:
        rule = _RULES[id(ctx)] = _TanhSinh(ctx)
    return rule


def quad_split(f, kinks=(), lo=-mp.inf, hi=mp.inf):
    """``int_lo^hi f`` with the interval split at every kink (mpmath's tanh-sinh on each piece)."""
    pts = sorted({mp.mpf(k) for k in kinks if lo < k < hi})
    # tanh-sinh's stopping rule is partly absolute: integrate O(1) values
    scale = mp.mpf(0)
    for p in pts or [mp.mpf(0)]:
        try:
            v = abs(f(p))
        except (ValueError, ZeroDivisionError):
            continue
        if mp.isfinite(v) and v > scale:
            scale = v
    if scale == 0:
        return mp.quad(f, [lo, *pts, hi], method=tanh_sinh)
    return mp.quad(lambda x: f(x) / scale, [lo, *pts, hi], method=tanh_sinh) * scale


def expect_mp(law: Distribution, g, kinks=()):
    """``E_law[g(x)]`` by split quadrature (a finite sum for a finite law)."""
    if law.atomic:
        return law.mp_expect(g)
    return quad_split(lambda x: g(x) * law.mp_pdf(x), list(law.mp_breaks()) + list(kinks))


def peak_breaks(logf, x0, w0):
    """Breakpoints ``m + w k`` around the maximum ``m`` of a unimodal log-integrand.

    Tanh-sinh quadrature on a half-line loses digits when the mass sits far from the end point or
    at a very different scale; splitting around the peak at its own width restores them.  Found at
    low precision: the points only guide the quadrature, they do not enter the value.
    """
    with mp.workdps(20):
        x0, w0 = mp.mpf(x0), mp.mpf(w0)
        f = lambda x: logf(x)  # noqa: E731
        lo, hi = bracket_max(f, x0, w0, w0 / 64, max_steps=200)
        lo, hi, _ = golden_section(f, lo, hi, iters=80, reuse=False)
        m = (lo + hi) / 2
        h = w0 / 1000
        curv = (f(m + h) - 2 * f(m) + f(m - h)) / h**2
        w = 1 / mp.sqrt(-curv) if curv < 0 else w0
        w = min(w, w0)
    return [m + w * k for k in (-8, -2, 0, 2, 8)]


def fdiv_mp(gen, P: Distribution, Q: Distribution, **params):
    """``D_f(P, Q) = int q f(p/q) dx`` by split quadrature: at the kinks of both densities **and** where the
    likelihood ratio ``p/q`` crosses a kink of the generator (``t = 1`` for TV's ``|t - 1|/2``); a sum for finite laws.

    >>> import sympy as sp
    >>> from cbdp_sym import TV, Laplace
    >>> with mp.workdps(30):
    ...     got = fdiv_mp(TV, Laplace(0, sp.Rational(1, 3)), Laplace(2, sp.Rational(1, 3)))
    ...     bool(abs(got - (1 - mp.exp(-3))) < mp.mpf(10) ** -25)
    True
    """
    if involves_lattice(P, Q):  # sums over the integers with tail bounds
        return fdiv_lattice(gen, P, Q, **params)
    if P.atomic or Q.atomic:
        return _fdiv_finite(gen, P, Q, **params)

    def integrand(x):
        lp, lq = P.mp_log_pdf(x), Q.mp_log_pdf(x)
        q = mp.exp(lq)
        if q == 0:
            return mp.mpf(0)
        return q * gen.mp_f(mp.exp(lp - lq), **params)

    breaks = list(P.mp_breaks()) + list(Q.mp_breaks())
    for t in _kinks_cached(gen, tuple(sorted((k, str(v)) for k, v in params.items())), mp.mp.dps):
        if t > 0:
            breaks += ratio_crossings(P, Q, mp.log(t), breaks)
    return quad_split(integrand, breaks)


@functools.lru_cache(maxsize=256)
def _kinks_cached(gen, params: tuple, dps: int):
    return generator_kinks(gen, **{k: sp.Rational(v) if "/" in v or v.lstrip("-").isdigit() else sp.Float(v, dps)
                                   for k, v in params})


def generator_kinks(gen, **params) -> list:
    """The points ``t > 0`` where the generator ``f`` is not differentiable (read by
    :func:`cbdp_sym.divergences.kinked.generator_kink_points` from ``f`` with the parameters substituted), as mpfs at the
    current precision.  Kinks at ``t <= 0`` are not listed: a likelihood ratio is positive.

    >>> from cbdp_sym import TV, KL
    >>> generator_kinks(TV), generator_kinks(KL)
    ([mpf('1.0')], [])
    """
    f = gen.f
    t = sorted(f.free_symbols - set(gen.params), key=str)
    if len(t) != 1:
        return []
    t = t[0]
    subs = {p: sp.sympify(params[str(p)]) for p in gen.params if str(p) in params}
    out = {sp.nsimplify(r) for r in generator_kink_points(f.subs(subs), t) if r.is_real and r.is_number}
    return [mp.mpf(sp.N(r, mp.mp.dps + 5)) if not r.is_Rational else mp.mpf(int(r.p)) / int(r.q)
            for r in sorted(out)]


def bisect_roots(L, level, pts, rtol=None) -> list:
    """The points ``pts`` (sorted, finite) plus the roots of ``L(x) = level`` between consecutive ones, by
    bisection (robust where ``L`` is flat or has kinks): ``prec + 10`` halvings, or fewer once the bracket is
    below ``rtol * |x|`` when ``rtol`` is given.

    >>> [mp.nstr(r, 10) for r in bisect_roots(lambda x: x ** 2, 2, [mp.mpf(0), mp.mpf(3)])]
    ['0.0', '1.414213562', '3.0']
    """
    out = list(pts)
    for a, b in zip(pts[:-1], pts[1:]):
        fa, fb = L(a) - level, L(b) - level
        if fa == 0 or fb == 0 or (fa > 0) == (fb > 0):
            continue
        lo, hi = a, b
        for _ in range(mp.mp.prec + 10):
            m = (lo + hi) / 2
            fm = L(m) - level
            if fm == 0:
                lo = hi = m
                break
            if (fm > 0) == (fa > 0):
                lo = m
            else:
                hi = m
            if rtol is not None and hi - lo <= abs(m) * rtol:
                break
        out.append((lo + hi) / 2)
    return sorted(set(out))


def ratio_crossings(P, Q, level, breaks=()) -> list:
    """The points ``x`` where ``log p(x) - log q(x) = level`` (sign changes on each interval between the
    densities' kinks, tails explored outwards; each root by the Illinois method on its bracket)."""
    g = lambda x: P.mp_log_pdf(x) - Q.mp_log_pdf(x) - level  # noqa: E731
    pts = sorted({mp.mpf(b) for b in breaks if mp.isfinite(b)})
    if not pts:
        pts = [mp.mpf(0)]
    samples = []
    lo, hi = pts[0], pts[-1]
    samples += [lo - mp.mpf(2) ** k for k in range(60, -1, -1)]
    for a, b in zip(pts, pts[1:]):
        samples += [a + (b - a) * mp.mpf(j) / 8 for j in range(8)]
    samples += [hi] + [hi + mp.mpf(2) ** k for k in range(0, 61)]
    out = []
    prev_x, prev_g = None, None
    for x in samples:
        try:
            gx = g(x)
        except (ValueError, ZeroDivisionError):
            prev_x, prev_g = None, None
            continue
        if not mp.isfinite(gx):
            prev_x, prev_g = None, None
            continue
        if gx == 0:
            out.append(x)
        elif prev_g is not None and prev_g * gx < 0:
            try:
                out.append(mp.findroot(g, (prev_x, x), solver="illinois"))
            except (ValueError, ZeroDivisionError):
                pass
        prev_x, prev_g = x, gx
    return out


def vquad(f, points, n: int, ref=1, loose=0):
    """Tanh-sinh quadrature of a vector integrand ``f(x) -> [f_1(x), ..., f_n(x)]`` over ``points``.

    mpmath's own degree-doubling rule (its node cache, its error estimate) applied to all
    components on the same nodes, so that a value, a gradient and a Hessian at one point cost one
    pass.  An interval is done when every component's estimated error is below ``eps * max(ref,
    |I_i|)`` (mpmath's ``quad`` uses ``eps`` absolutely; ``ref`` is the magnitude of the total).
    The last ``loose`` components (a Hessian, which Newton's method needs only roughly) do not
    take part in the stopping rule: they are summed on the nodes the others needed.  (Where the
    conjugate's second derivative has an integrable singularity at a zero of ``h``, tanh-sinh
    cannot resolve it to full precision anyway: nodes nearer to the zero than the working
    precision see rounding noise.)
    """
    ctx = mp.mp
    rule = tanh_sinh(ctx)
    prec = ctx.prec
    eps = ctx.eps / 8
    max_degree = rule.guess_degree(prec)
    pts = sorted({mp.mpf(p) if not mp.isinf(p) else p for p in points})
    total = [mp.mpf(0)] * n
    with mp.extraprec(20):
        for a, b in zip(pts[:-1], pts[1:]):
            if a == b:
                continue
            results = []
            for degree in range(1, max_degree + 1):
                nodes = rule.get_nodes(a, b, degree, prec)
                h = ctx.mpf(2) ** (-degree)
                S = [r / (2 * h) for r in results[-1]] if results else [ctx.zero] * n
                ws, vals = [], []
                for x, w in nodes:
                    ws.append(w)
                    vals.append(f(x))
                for i in range(n):
                    S[i] += ctx.fdot(ws, [v[i] for v in vals])
                results.append([h * s for s in S])
                if degree > 1:
                    done = True
                    for i in range(n - loose):
                        comp = [r[i] for r in results]
                        tol = eps * max(ref, abs(comp[-1]))
                        if rule.estimate_error(comp, prec, tol) > tol:
                            done = False
                            break
                    if done:
                        break
            total = [t + r for t, r in zip(total, results[-1])]
    return [+t for t in total]


def _mp_joint(P, Q):

    if not (P.atomic and Q.atomic):
        raise ParameterError("a finite law against a law with a density: use two finite laws or two densities")
    pts = {}
    for L, k in ((P, 0), (Q, 1)):
        for x, p in L.mp_pmf():
            pts.setdefault(x, [mp.mpf(0), mp.mpf(0)])[k] += p
    return [(x, pq[0], pq[1]) for x, pq in sorted(pts.items())]


def _fdiv_finite(gen, P, Q, **params):
    total = mp.mpf(0)
    for _x, p, q in _mp_joint(P, Q):
        if q == 0:
            if p == 0:
                continue
            t = mp.mpf(10) ** (mp.mp.dps // 2)  # f(t)/t at large t: the slope at infinity
            slope = gen.mp_f(t, **params) / t
            if slope > mp.mpf(10) ** (mp.mp.dps // 8):
                return mp.inf
            total += p * mp.limit(lambda u: gen.mp_f(u, **params) / u, mp.inf)
            continue
        total += q * gen.mp_f(p / q, **params)
    return total


# -- an in-process memo of renyi_mp --------------------------------------------------------------------
# Claims ask for the same divergence more than once (two readings of one statement over the same instances, a
# search that revisits a point, a product's coordinates): the value is a deterministic function of the laws'
# parameters, the order and the working precision, so it is remembered by exactly those (parameters by type and
# exact value: an mpf by its bits, a SymPy number by its structure).  Laws of other classes are not memoised.
_LAW_TYPES = (Laplace, Normal, Finite, PointMass, Mixture, Product)


def _exact_key(v):
    """A hashable key equal for two values only when they are the same number of the same type (``None``: no key)."""
    if isinstance(v, mp.mpf):
        return ("mpf", v._mpf_)
    if type(v) in _LAW_TYPES:
        parts = [type(v).__name__]
        for f in dataclasses.fields(v):
            k = _exact_key(getattr(v, f.name))
            if k is None:
                return None
            parts.append(k)
        return tuple(parts)
    if isinstance(v, tuple):
        parts = tuple(_exact_key(x) for x in v)
        return None if any(k is None for k in parts) else ("tuple", parts)
    if isinstance(v, sp.Float):
        return ("Float", v._mpf_, v._prec)
    if isinstance(v, sp.Basic) and v.is_number:
        return (type(v).__name__, sp.srepr(v))
    if type(v) in (int, float, str, bool):
        return (type(v).__name__, v)
    return None


def raw_log_pdf(D):
    """``D.mp_log_pdf`` on raw mpmath values (``x._mpf_``) at ``prec``, for the laws whose density the profile
    quadrature evaluates most (Normal, Laplace), or ``None``.  The same operations as ``mp_log_pdf``, in the same
    order and with the same rounding (``-((x - loc) ** 2) * c - lognorm``, ``-abs(x - loc) * inv - log2b``), so
    the value is bit for bit the same: only the Python-level mpf objects are skipped."""
    kind = type(D)
    if kind not in (Normal, Laplace):
        return None
    consts = {}  # prec -> the raw constants of D._mp() (which the caller's working precision, prec, keys)

    def raw(prec):
        v = consts.get(prec)
        if v is None:
            v = consts[prec] = tuple(u._mpf_ for u in D._mp())
        return v

    if kind is Normal:
        def lp(x, prec, rnd):
            loc, c, _norm, lognorm = raw(prec)
            t = _lm.mpf_neg(_lm.mpf_pow_int(_lm.mpf_sub(x, loc, prec, rnd), 2, prec, rnd), prec, rnd)
            return _lm.mpf_sub(_lm.mpf_mul(t, c, prec, rnd), lognorm, prec, rnd)
        return lp

    def lp(x, prec, rnd):
        loc, inv, _half, log2b = raw(prec)
        t = _lm.mpf_neg(_lm.mpf_abs(_lm.mpf_sub(x, loc, prec, rnd), prec, rnd), prec, rnd)
        return _lm.mpf_sub(_lm.mpf_mul(t, inv, prec, rnd), log2b, prec, rnd)
    return lp


def raw_log_pdf_or_mixture(D):
    """:func:`raw_log_pdf`, and also for a :class:`Mixture` of Normal and Laplace laws: ``D.mp_log_pdf`` on raw values
    with its operations in its order (``log w_i + log p_i``, the largest term first as ``max`` picks it, ``top +
    log(fsum(exp(t - top)))``), so the value is bit for bit the same; ``None`` for other laws.  (Kept apart from
    :func:`raw_log_pdf`, whose other callers, the profile's and the restricted solver's integrands, take the mixture's
    generic path.)"""
    if type(D) is not Mixture:
        return raw_log_pdf(D)
    parts = [raw_log_pdf(c) for w, c in zip(D.weights, D.components) if w != 0]
    if not parts or any(f is None for f in parts):
        return None
    logw = {}  # prec -> the raw log-weights (Mixture._mp_log_weights, keyed by the working precision, prec)
    bad = (_lm.finf, _lm.fninf, _lm.fnan)
    add, sub, exp, gt = _lm.mpf_add, _lm.mpf_sub, _lm.mpf_exp, _lm.mpf_gt

    def lp(x, prec, rnd):
        lws = logw.get(prec)
        if lws is None:
            lws = logw[prec] = [u._mpf_ for u, _c in D._mp_log_weights()]
        terms = [add(lw, f(x, prec, rnd), prec, rnd) for lw, f in zip(lws, parts)]
        top = terms[0]
        for t in terms[1:]:
            if gt(t, top):  # (max keeps the first of equal terms)
                top = t
        if top in bad:
            return top
        s = _lm.mpf_sum([exp(sub(t, top, prec, rnd), prec, rnd) for t in terms], prec, rnd)
        return add(top, _lm.mpf_log(s, prec, rnd), prec, rnd)

    return lp


def _log_integrand(P, Q, al):
    """``x -> al log p(x) + (1 - al) log q(x)``: on raw values for mixtures of Normal and Laplace laws
    (:func:`raw_log_pdf_or_mixture`, the operations of the generic expression in its
    order, bit for bit the same values: a test compares them), else through ``mp_log_pdf``."""
    rawP, rawQ = raw_log_pdf_or_mixture(P), raw_log_pdf_or_mixture(Q)
    if rawP is None or rawQ is None or not isinstance(al, mp.mpf):
        return lambda x: al * P.mp_log_pdf(x) + (1 - al) * Q.mp_log_pdf(x)
    ctx = mp.mp
    make, mpf = ctx.make_mpf, ctx.mpf
    al_, one = al._mpf_, _lm.from_int(1)
    add, sub, mul = _lm.mpf_add, _lm.mpf_sub, _lm.mpf_mul

    def logf(x):
        prec, rnd = ctx._prec_rounding
        xv = (x if type(x) is mpf else mpf(x))._mpf_
        a = mul(al_, rawP(xv, prec, rnd), prec, rnd)
        return make(add(a, mul(sub(one, al_, prec, rnd), rawQ(xv, prec, rnd), prec, rnd), prec, rnd))

    return logf


def _renyi_integrand_raw(P, Q, al, top):
    """``exp(alpha log p + (1 - alpha) log q - top)`` (the integrand of :func:`renyi_mp`) on raw mpmath values for
    Normal and Laplace laws and their mixtures, with the operations and roundings of the generic one (identical
    values), or ``None``."""
    lpP, lpQ = raw_log_pdf_or_mixture(P), raw_log_pdf_or_mixture(Q)
    if lpP is None or lpQ is None:
        return None
    ctx = mp.mp
    make = ctx.make_mpf
    al_, top_, one = al._mpf_, top._mpf_, _lm.from_int(1)

    def f(x):
        prec, rnd = ctx._prec_rounding
        xv = x._mpf_
        a = _lm.mpf_mul(al_, lpP(xv, prec, rnd), prec, rnd)
        b = _lm.mpf_mul(_lm.mpf_sub(one, al_, prec, rnd), lpQ(xv, prec, rnd), prec, rnd)
        return make(_lm.mpf_exp(_lm.mpf_sub(_lm.mpf_add(a, b, prec, rnd), top_, prec, rnd), prec, rnd))

    return f


def renyi_mp(P: Distribution, Q: Distribution, alpha):
    """``D_alpha(P || Q) = log(int p^alpha q^(1 - alpha)) / (alpha - 1)`` from the densities, at the working precision.

    ``alpha > 1`` by split quadrature of ``exp(alpha log p + (1 - alpha) log q)`` (kinks of both laws and
    the peak of the integrand); ``alpha = 1``: the KL integral; ``alpha = inf``: ``log sup p/q``
    (the maximum of the log-ratio, over the support points or by a search on the line).  Finite laws:
    sums.  Products: the sum over coordinates (independent coordinates).

    Values are remembered by the laws' exact parameters, the order and the working precision (the same arguments give
    the same bits): in-process, and in the cache folder when one took at least 5 ms to compute (claims run in fresh
    workers and ask for the same divergences); not when the numeric cache is off (``--no-cache`` computes
    everything).
    """
    al = mp.mpf(alpha) if not isinstance(alpha, mp.mpf) else alpha
    return _renyi_remembered(P, Q, al)


def _renyi_key(P, Q, al):
    """The memo's key of ``renyi_mp(P, Q, al)``: the laws' exact keys and the order's bits (``None``: not kept)."""
    kp, kq = _exact_key(P), _exact_key(Q)
    if kp is None or kq is None:
        return None
    return (kp, kq, al._mpf_)


def _renyi_disk_key(P, Q, al):
    """The disk cache's key of ``renyi_mp(P, Q, al)``: the text of the exact key (``None``: not cached)."""
    k = _renyi_key(P, Q, al)
    return None if k is None else repr(k)


@functools.partial(memo_numeric, key=_renyi_key, max_size=20000, deepcopy=False)  # an mpf is immutable
@cached_numeric(key=_renyi_disk_key, min_seconds=0.005)  # shared between claims (each runs in a fresh worker)
def _renyi_remembered(P, Q, al):
    return _renyi_mp(P, Q, al)


def _renyi_mp(P: Distribution, Q: Distribution, al):
    if al < 1 or mp.isnan(al):
        raise ParameterError(f"the Renyi divergence needs alpha >= 1, got {al}")
    if isinstance(P, Product) or isinstance(Q, Product):
        if not (isinstance(P, Product) and isinstance(Q, Product)) or P.dim != Q.dim:
            raise ParameterError("the Renyi divergence of product laws needs two products of the same dimension")
        return mp.fsum(renyi_mp(p, q, al) for p, q in zip(P.components, Q.components))
    if involves_lattice(P, Q):  # sums over the integers with tail bounds
        return renyi_lattice(P, Q, al)
    if al == 1:
        return fdiv_mp(KL, P, Q)
    if P.atomic or Q.atomic:
        joint = _mp_joint(P, Q)
        if mp.isinf(al):
            return max(mp.log(p / q) if q > 0 else mp.inf for _x, p, q in joint if p > 0)
        if any(q == 0 and p > 0 for _x, p, q in joint):
            return mp.inf
        return mp.log(mp.fsum(p**al * q ** (1 - al) for _x, p, q in joint if p > 0)) / (al - 1)
    if mp.isinf(al):
        return _max_log_ratio(P, Q)

    logf = _log_integrand(P, Q, al)
    ks = list(P.mp_breaks()) + list(Q.mp_breaks())
    try:
        pk = peak_breaks(logf, P.mp_loc(), P.mp_width())
        ks += pk
        top = logf(pk[2])
    except (ValueError, ZeroDivisionError):  # pragma: no cover - defensive
        top = logf(P.mp_loc())
    if not mp.isfinite(top):
        top = mp.mpf(0)
    fast = _renyi_integrand_raw(P, Q, al, top) if isinstance(top, mp.mpf) else None
    val = mp.quad(fast or (lambda x: mp.exp(logf(x) - top)), [-mp.inf, *sorted(set(ks)), mp.inf], method=tanh_sinh)
    return (mp.log(val) + top) / (al - 1)


def _max_log_ratio(P, Q):
    """``sup_x log p(x)/q(x)`` for laws with densities: the kinks, then golden section between them,
    and the behaviour at both tails (``+inf`` when the log-ratio grows without bound)."""
    def r(x):
        return P.mp_log_pdf(x) - Q.mp_log_pdf(x)

    far = 10 * (P.mp_reach() + Q.mp_reach() + abs(P.mp_loc()) + abs(Q.mp_loc()) + 1)
    for sgn in (1, -1):
        a, b = r(sgn * far), r(2 * sgn * far)
        if b > a + mp.mpf(10) ** (-mp.mp.dps // 2) * (1 + abs(a)):
            return mp.inf
    pts = sorted(set(list(P.mp_kinks()) + list(Q.mp_kinks()) + [-far, far]))
    best = max(r(x) for x in pts)
    for lo, hi in zip(pts[:-1], pts[1:]):
        a, b, _ = golden_section(r, lo, hi, iters=int(mp.mp.prec * 1.5), reuse=False)
        best = max(best, r((a + b) / 2))
    return best


mp_joint = _mp_joint  # public name (paper modules use it)
