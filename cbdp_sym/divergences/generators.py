"""f-divergence generators: the class :class:`Generator` (a convex ``f`` on its domain, its convex conjugate derived
by splitting at the kinks and solving the stationarity equation) and the standard generators :data:`KL`,
:data:`TV`, :data:`ALPHA_DIV` (:func:`alpha_generator`).  The symbols ``t`` (:data:`T`), ``s`` (:data:`S`) and
``alpha`` (:data:`ALPHA`) are the toolkit's names for a likelihood ratio, a conjugate variable and an order.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import mpmath as mp
import sympy as sp

from cbdp_sym.calculus.symbolic import simplify, split_at_kinks
from cbdp_sym.core.errors import DerivationError, ParameterError
from cbdp_sym.calculus.optimize import golden_section
from cbdp_sym.core.printing import latex
from cbdp_sym.core.tape import Tex, record, recording
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.core.numbers import to_mpf

T = sp.Symbol("t", real=True)
S = sp.Symbol("s", real=True)
ALPHA = sp.Symbol("alpha", positive=True)
#: ``alpha - 1`` as a positive symbol (``alpha_m1``): derivations at ``alpha > 1`` substitute ``alpha = KAPPA + 1``
#: so that SymPy knows the sign of ``alpha - 1`` (public: paper modules use it to state claims the same way)
KAPPA = sp.Symbol("alpha_m1", positive=True)
oo = sp.oo



@dataclass(frozen=True)
class Conjugate:
    """A derived conjugate: ``expr`` in :data:`S`, finite on ``(lo, hi)`` (closed where attained)."""

    expr: sp.Expr
    lo: sp.Expr
    hi: sp.Expr
    kinks: tuple


class Generator:
    """An f-divergence generator ``f(t)``, finite on ``(lo, hi)`` and ``+inf`` outside.

    ``convention`` is the sentence a report prints about the generator's domain.
    """

    def __init__(self, key, label, f, lo=-oo, hi=oo, convention="", params=(), shift=None):
        self.key = key
        self.label = label
        self.f = sp.sympify(f)
        self.lo, self.hi = sp.sympify(lo), sp.sympify(hi)
        self.convention = convention
        self.params = tuple(params)
        self._shift = shift or {}  # symbol -> (replacement, back-substitution) for derivations

    def __repr__(self):
        return f"Generator({self.key!r}, f={self.f})"

    # -- the symbolic side -------------------------------------------------------------------
    @functools.lru_cache(maxsize=None)
    def _conjugate_cached(self):
        with recording() as tape:
            conj = self._derive_conjugate()
        return conj, tuple(tape.steps)

    def conjugate(self) -> Conjugate:
        """Derive ``f^*`` (cached); the derivation steps are replayed onto the current tape."""
        conj, steps = self._conjugate_cached()
        for st in steps:
            record(st.lhs, st.rhs, st.note, st.rel)
        return conj

    def _derive_conjugate(self) -> Conjugate:
        fwd = {k: v[0] for k, v in self._shift.items()}
        back = {v[1]: v[2] for v in self._shift.values()}
        f = self.f.subs(fwd)
        record(Tex("f(t)"), self.f, "generator as printed" + (f" ({self.convention})" if self.convention else ""))
        record(Tex("f^*(s)"), Tex(r"\sup_{t \in (%s, %s)} \left(t s - f(t)\right)" % (latex(self.lo), latex(self.hi))),
               "Fenchel conjugate (Eq. (1))")
        pieces = split_at_kinks(f, T, self.lo, self.hi)
        cases = []  # (value, lower, upper, closed_lower, closed_upper)
        slopes = []
        for l, r, fp in pieces:
            tv = T
            if (l.is_nonnegative if l != -oo else False):
                tv = sp.Symbol("t", positive=True)
            elif (r.is_nonpositive if r != oo else False):
                tv = sp.Symbol("t", negative=True)
            fpt = fp.subs(T, tv)
            with time_limit(60, "derivative of the generator"):
                d = simplify(sp.diff(fpt, tv))
                s_lo = sp.limit(d, tv, l, "+") if l != -oo else sp.limit(d, tv, -oo)
                s_hi = sp.limit(d, tv, r, "-") if r != oo else sp.limit(d, tv, oo)
            slopes.append((l, r, s_lo, s_hi, fp))
            if not d.has(tv):
                record(Tex("f'(t)"), d, f"constant slope on $({latex(l)}, {latex(r)})$: no interior stationary point")
                continue
            with time_limit(60, "stationarity of the conjugate"):
                roots = sp.solve(sp.Eq(S, d), tv)
            if len(roots) != 1:
                raise DerivationError(f"expected one stationary point of t s - f(t) on ({l}, {r}), got {roots}")
            t_star = roots[0]
            record(Tex(r"s = f'(t) = " + latex(d.subs(back))), Tex(r"t^* = " + latex(t_star.subs(back))), rel=r"\iff",
                   note=
                   f"stationarity on $({latex(l)}, {latex(r)})$, valid for ${latex(s_lo.subs(back))} < s < {latex(s_hi.subs(back))}$")
            with time_limit(60, "value of the conjugate"):
                val = t_star * S - fpt.subs(tv, t_star)
                # on a one-signed range of s every base is positive: combine powers there
                U = sp.Symbol("u", positive=True)
                sign = 1 if (s_lo.is_nonnegative if s_lo != -oo else False) else (
                    -1 if (s_hi.is_nonpositive if s_hi != oo else False) else 0)
                if sign:
                    vu = val.subs(S, sign * U)
                    vu = simplify(sp.powsimp(sp.expand_power_base(vu, force=True), force=True))
                    val = vu.subs(U, sign * S)
                else:
                    val = simplify(val)
                val = _tidy(val)
            record(Tex("f^*(s)"), val.subs(back), f"value at $t^*$ for ${latex(s_lo.subs(back))} < s < {latex(s_hi.subs(back))}$")
            cases.append((val, s_lo, s_hi, False, False))
        # kinks of f: the subdifferential interval
        for (l1, r1, _a, left_slope, fp1), (l2, _r2, right_slope, _b, _fp2) in zip(slopes[:-1], slopes[1:]):
            k = r1
            fk = simplify(fp1.subs(T, k))
            val = k * S - fk
            if sp.simplify(right_slope - left_slope) == 0:
                cases.append((val, left_slope, right_slope, True, True))
                record(Tex("f^*(s)"), val.subs(back), f"at the kink $t = {latex(k)}$ (smooth there), for $s = {latex(left_slope.subs(back))}$")
            else:
                cases.append((val, left_slope, right_slope, True, True))
                record(Tex("f^*(s)"), val.subs(back),
                       f"maximum at the kink $t = {latex(k)}$ for ${latex(left_slope.subs(back))} \\le s \\le {latex(right_slope.subs(back))}$ (subdifferential)")
        # outside the range of slopes
        lo_slope, hi_slope = slopes[0][2], slopes[-1][3]
        if hi_slope != oo:
            if self.hi == oo:
                record(Tex("f^*(s)"), oo, f"for $s > {latex(hi_slope.subs(back))}$: $t s - f(t) \\to \\infty$ as $t \\to \\infty$")
            else:  # pragma: no cover - no such generator yet
                raise DerivationError("finite right end of the domain with bounded slope is not supported")
        if lo_slope != -oo:
            if self.lo == -oo:
                record(Tex("f^*(s)"), oo, f"for $s < {latex(lo_slope.subs(back))}$: $t s - f(t) \\to \\infty$ as $t \\to -\\infty$")
            else:  # pragma: no cover
                raise DerivationError("finite left end of the domain with bounded slope is not supported")
        # assemble
        cases.sort(key=lambda c: (sp.default_sort_key(c[1]),))
        expr = self._assemble(cases, lo_slope, hi_slope, back).subs(back)
        lo_s, hi_s = lo_slope.subs(back), hi_slope.subs(back)
        kinks = tuple(sorted({c[1].subs(back) for c in cases if c[3] and c[1].is_finite}, key=sp.default_sort_key))
        record(Tex("f^*(s)"), expr, "derived conjugate")
        return Conjugate(expr, lo_s, hi_s, kinks)

    def _assemble(self, cases, lo_slope, hi_slope, back):
        interior = [c for c in cases if not (c[3] and sp.simplify(c[1] - c[2]) == 0)]
        points = [c for c in cases if c[3] and sp.simplify(c[1] - c[2]) == 0]
        # an even conjugate from two mirrored open pieces meeting at a smooth point: one |s| formula
        if len(interior) == 2 and len(points) == 1:
            (v1, a1, b1, *_), (v2, a2, b2, *_) = sorted(interior, key=lambda c: sp.default_sort_key(c[1]))
            if a1 == -oo and b2 == oo and sp.simplify(v1.subs(S, -S) - v2) == 0:
                pos = v2.subs(S, sp.Abs(S))
                at0 = sp.simplify(pos.subs(S, points[0][1]) - points[0][0])
                if at0 == 0:
                    pos = _tidy(pos.subs(back))
                    record(Tex("f^*(s)"), pos, "the two branches are mirror images and meet continuously at $s = 0$: even in $s$")
                    return pos
        if len(interior) == 1 and not points and lo_slope == -oo and hi_slope == oo:
            return interior[0][0]
        pieces = []
        for val, a, b, ca, cb in interior + [p for p in cases if p[3] and p not in points]:
            cond = sp.And(S >= a if ca else S > a, S <= b if cb else S < b)
            pieces.append((val, cond))
        for val, a, *_ in points:
            pieces.append((val, sp.Eq(S, a)))
        pieces.append((oo, True))
        return sp.Piecewise(*pieces)

    def check_definition(self):
        """Derive ``f(1) = 0`` and ``f'' >= 0`` on each smooth piece; returns (f1, convex_how)."""
        fwd = {k: v[0] for k, v in self._shift.items()}
        f = self.f.subs(fwd)
        f1 = simplify(f.subs(T, 1))
        record(Tex("f(1)"), f1.subs({v[1]: v[2] for v in self._shift.values()}), "normalisation of the generator")
        hows = []
        for l, r, fp in split_at_kinks(f, T, self.lo, self.hi):
            tv = sp.Symbol("t", positive=True) if (l != -oo and l.is_nonnegative) else (
                sp.Symbol("t", negative=True) if (r != oo and r.is_nonpositive) else T)
            d2 = simplify(sp.diff(fp.subs(T, tv), tv, 2))
            ok = d2.is_nonnegative
            record(Tex("f''(t)"), d2.subs({v[1]: v[2] for v in self._shift.values()}),
                   f"on $({latex(l)}, {latex(r)})$: " + ("non-negative" if ok else "sign not proved"), rel="=")
            hows.append(bool(ok))
        return f1, all(hows)

    # -- the numeric side --------------------------------------------------------------------
    def mp_f(self, t, **params):
        """``f(t)`` in mpmath (``+inf`` outside the domain)."""
        sub = {p: to_mpf(params[str(p)]) for p in self.params}
        lo = to_mpf(self.lo) if self.lo != -oo else -mp.inf
        hi = to_mpf(self.hi) if self.hi != oo else mp.inf
        if t < lo or t > hi:
            return mp.inf
        fn = _mp_lambda(self.f, (T,) + self.params)
        if t == lo or t == hi:  # the closed end: the limit
            return mp.limit(lambda u: fn(u, *sub.values()), t, direction=1 if t == lo else -1)
        return fn(t, *sub.values())

    def conjugate_sup_mp(self, s, **params):
        """``sup_t t s - f(t)`` by a bracketing search and golden section at the working precision.

        Independent of the derived conjugate: it only evaluates ``f``.  Returns ``mp.inf`` when the
        objective increases without bound.
        """
        s = mp.mpf(s)
        g = lambda t: t * s - self.mp_f(t, **params)  # noqa: E731

        lo = to_mpf(self.lo) if self.lo != -oo else -mp.inf
        hi = to_mpf(self.hi) if self.hi != oo else mp.inf
        t0 = mp.mpf(1) if lo < 1 < hi else (lo + 1 if mp.isfinite(lo) else hi - 1)
        step = mp.mpf(1)
        g0 = g(t0)
        limit = mp.mpf(10) ** (mp.mp.dps // 2 + 5)
        # pick the ascending direction
        direction = 1 if g(t0 + step / 1024) > g0 else -1
        left, mid = t0 - direction * step / 1024, t0
        while True:
            nxt = mid + direction * step
            if direction > 0 and nxt >= hi:
                nxt = hi if mp.isfinite(hi) else nxt
            if direction < 0 and nxt <= lo:
                nxt = (lo + mid) / 2 if mp.isfinite(lo) else nxt
            gn = g(nxt)
            if gn <= g(mid):
                a, b = sorted([left, nxt])
                break
            left, mid = mid, nxt
            step *= 2
            if abs(mid) > limit:
                return mp.inf
            if mp.isfinite(lo) and abs(mid - lo) < mp.mpf(10) ** (-mp.mp.dps):
                return g(lo)
        return golden_section(g, a, b, tol=mp.mpf(10) ** (-mp.mp.dps + 2))[2]

    def conj_mp(self, order: int = 0):
        """The derived conjugate (or its ``order``-th derivative) as an mpmath function of s."""
        return _conj_lambda(self, order)


@functools.lru_cache(maxsize=None)
def _mp_lambda(expr, args):
    return sp.lambdify(args, expr, modules="mpmath")


@functools.lru_cache(maxsize=None)
def _conj_lambda(gen, order):
    expr = gen.conjugate().expr
    if order:
        # derivatives away from the kinks (the quadrature splits there): drop the point masses
        expr = sp.diff(expr, S, order).replace(sp.DiracDelta, lambda *a: sp.S.Zero)
    fn = sp.lambdify((S,) + gen.params, expr, modules="mpmath")
    return fn


def _tidy(expr):
    """Collect powers of a positive parameter so that conjugates print as a reader expects."""
    out = []
    for term in sp.Add.make_args(sp.expand(expr)):
        out.append(sp.powsimp(sp.factor(term)))
    expr = sp.Add(*out)
    return expr.replace(lambda e: e.is_Pow and not e.exp.is_number, lambda e: sp.Pow(e.base, sp.together(e.exp)))


def _kl():
    return Generator("kl", r"\mathrm{KL}", T * sp.log(T), lo=0, hi=oo,
                     convention="$f(t) = t \\log t$ on $t \\ge 0$ ($0 \\log 0 = 0$), $+\\infty$ for $t < 0$")


def _tv():
    return Generator("tv", r"\mathrm{TV}", sp.Abs(T - 1) / 2,
                     convention="$f(t) = |t - 1|/2$ on all of $\\mathbb{R}$, as printed")


_ALPHA_GENERATORS: dict = {}


def alpha_generator(alpha=ALPHA):
    """CBDP's alpha-divergence generator ``(|t|^alpha - 1)/(alpha^2 - alpha)`` on all of R (alpha > 1).

    One object per order (the same SymPy number of the same type), so that its derived conjugate (cached on the
    object) is derived once per process, not at every call."""
    alpha = sp.sympify(alpha)
    key = (type(alpha), alpha)
    gen = _ALPHA_GENERATORS.get(key)
    if gen is None:
        gen = _ALPHA_GENERATORS[key] = _alpha_generator(alpha)
    return gen


def _alpha_generator(alpha):
    if alpha.is_number and not alpha > 1:
        raise ParameterError(f"the alpha-divergence needs alpha > 1, got alpha = {alpha}")
    shift = {}
    params = ()
    if alpha.is_Symbol:
        shift = {alpha: (KAPPA + 1, KAPPA, alpha - 1)}
        params = (alpha,)
    return Generator("alpha", r"\alpha", (sp.Abs(T) ** alpha - 1) / (alpha**2 - alpha), params=params, shift=shift,
                     convention="$f(t) = (|t|^\\alpha - 1)/(\\alpha^2 - \\alpha)$ on all of $\\mathbb{R}$, as printed (not the $t \\ge 0$ convention)")


KL = _kl()
TV = _tv()
ALPHA_DIV = alpha_generator()


def derive_standard_conjugates() -> None:
    """Derive the conjugates of :data:`KL`, :data:`TV` and :data:`ALPHA_DIV` now (cached on the generators): a process
    that forks workers calls it once, and no worker derives them again.  A failure is left for the claim that needs
    the conjugate to meet and report."""
    for gen in (KL, TV, ALPHA_DIV):
        try:
            gen._conjugate_cached()
        except Exception:  # noqa: BLE001 - the claim that uses the conjugate derives it again and reports
            pass
