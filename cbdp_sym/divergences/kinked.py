"""f-divergences for generators with kinks (max, |.|, indicators, piecewise), split where the ratio crosses them.

``D_f(P, Q) = E_Q[f(p/q)]`` for a generator such as the hockey-stick ``(t - e^eps)_+`` cannot be
integrated as one piece: the integrand changes formula where the likelihood ratio ``p/q`` crosses a
kink ``t_k`` of ``f``.  :func:`kinked_f_divergence` derives it by

1. writing ``f`` as a piecewise function of ``t`` (``Max``, ``Min``, ``Abs``, ``sign``, ``Heaviside``
   and ``Piecewise`` all rewrite to one) and reading its kinks ``t_k > 0`` (the ratio is positive);
2. splitting the line at the densities' own kinks, where the log-ratio ``L = log p - log q`` is a
   polynomial (affine for Laplace and equal-variance Gaussian laws);
3. solving ``L(x) = log t_k`` on each piece and keeping the roots inside it;
4. integrating ``q f(e^L)`` on each resulting cell with the formula of ``f`` that holds there.

Where the position of a root or the sign of ``L - log t_k`` depends on the parameters and SymPy
cannot decide it, the derivation splits into the two cases (recorded on the tape) and the value is a
``Piecewise`` in the parameters (e.g. the Laplace profile is 0 for ``eps >= v/b``).

Finite laws are sums over the joint support with the same case analysis per atom; products of
Gaussian laws whose log-ratio is affine are reduced to the one-dimensional law of the log-ratio
(a sufficient statistic: ``D_f`` is unchanged).

>>> import sympy as sp
>>> from cbdp_sym.laws.distributions import Laplace
>>> b, v = sp.symbols("b v", positive=True)
>>> e = sp.Symbol("epsilon", nonnegative=True)
>>> t = sp.Symbol("t", real=True)
>>> kinked_f_divergence(sp.Max(t - sp.exp(e), 0), t, Laplace(0, b), Laplace(v, b))[0]
Piecewise((0, epsilon - v/b > 0), (1 - exp((b*epsilon - v)/(2*b)), True))
"""
from __future__ import annotations

import sympy as sp

from cbdp_sym.calculus.symbolic import find_kinks, integrate_split, order_points, resolve_abs, simplify
from cbdp_sym.laws.distributions import X, Distribution, Finite, Normal, Product, joint_support
from cbdp_sym.core.errors import DerivationError, ParameterError
from cbdp_sym.core.printing import latex
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.core.timelimit import time_limit

oo = sp.oo
_KINKED = (sp.Max, sp.Min, sp.Heaviside, sp.Piecewise, sp.sign)
_MAX_CASES = 4


def has_kinks(f, t) -> bool:
    """Whether the generator ``f(t)`` has a kink that the plain split integration cannot read."""
    return any(a.has(t) for a in f.atoms(*_KINKED)) or any(a.has(t) for a in f.atoms(sp.Abs))


class _Undecided(Exception):
    def __init__(self, expr):
        super().__init__(str(expr))
        self.expr = expr


def _sign(e, assumed):
    """+1 / -1 / 0 for the sign of ``e`` under the symbols' assumptions and the case hypotheses ``assumed``
    (expressions known positive); raises :class:`_Undecided` when neither settles it."""
    with time_limit(20, "deciding a sign"):
        e = sp.simplify(e)
    if e.is_zero:
        return 0
    if e.is_positive:
        return 1
    if e.is_negative:
        return -1
    for k in assumed:
        with time_limit(20, "deciding a sign under a case hypothesis"):
            r = sp.simplify(e / k)
            if r.is_positive:
                return 1
            if r.is_negative:
                return -1
            if sp.simplify(e - k).is_nonnegative:
                return 1
            if sp.simplify(e + k).is_nonpositive:
                return -1
    raise _Undecided(e)


def generator_kink_points(f, t) -> list:
    """The kinks ``t_k > 0`` of a generator ``f(t)`` (where its formula changes: the conditions of its
    piecewise form and the zeros of ``Abs``/``sign`` arguments), sorted; the one reading of a generator's
    kinks (:func:`generator_pieces`, :func:`cbdp_sym.divergences.numeric.generator_kinks`).

    >>> t = sp.Symbol("t", real=True)
    >>> generator_kink_points(sp.Abs(t - 1) / 2, t)
    [1]
    """
    return _kink_points(sp.piecewise_fold(sp.sympify(f).rewrite(sp.Piecewise)), t)


def generator_pieces(f, t):
    """The kinks ``t_k > 0`` of ``f`` and its formula on each cell of ``(0, oo)``: ``(kinks, [(lo, hi, f_piece)])``.

    >>> t = sp.Symbol("t", real=True)
    >>> generator_pieces(sp.Max(t - 2, 0), t)
    ([2], [(0, 2, 0), (2, oo, t - 2)])
    """
    pw = sp.piecewise_fold(sp.sympify(f).rewrite(sp.Piecewise))
    kinks = _kink_points(pw, t)
    pts = [sp.Integer(0)] + kinks + [oo]
    pieces = []
    for lo, hi in zip(pts[:-1], pts[1:]):
        mid = (lo + hi) / 2 if hi != oo else lo + 1
        pieces.append((lo, hi, _branch_at(pw, t, mid, lo, hi)))
    return kinks, pieces


def _kink_points(pw, t):
    kinks = []
    for rel in sorted(pw.atoms(sp.core.relational.Relational), key=sp.default_sort_key):
        if not rel.has(t):
            continue
        with time_limit(20, "solving for a kink of the generator"):
            sols = sp.solve(sp.Eq(rel.lhs - rel.rhs, 0), t)
        for s in sols:
            if s.is_positive is False or s.is_zero:
                continue
            if s.is_positive is None:
                raise DerivationError(f"cannot decide whether the kink t = {s} of the generator is positive")
            kinks.append(s)
    for k in find_kinks(pw, t):
        if k.is_positive:
            kinks.append(k)
    return order_points(kinks) if kinks else []


def _branch_at(pw, t, mid, lo, hi):
    """The formula of a piecewise expression on ``(lo, hi)``, chosen by its conditions at ``mid``."""
    if isinstance(pw, sp.Piecewise):
        for expr, cond in pw.args:
            c = cond.subs(t, mid)
            c = sp.simplify(c) if c not in (sp.true, sp.false) else c
            if c is sp.true:
                return _branch_at(expr, t, mid, lo, hi)
            if c is not sp.false:
                raise DerivationError(f"cannot decide the condition {cond} of the generator on ({lo}, {hi})")
        raise DerivationError(f"the generator is undefined on ({lo}, {hi})")
    return resolve_abs(pw, t, lo, hi) if pw.has(sp.Abs, sp.sign) else pw


def _cases(fn, note_lhs, depth=0, assumed=()):
    """Run ``fn(assumed)``; where a sign is undecided, run it under each case and join the values."""
    try:
        return fn(assumed)
    except _Undecided as u:
        if depth >= _MAX_CASES:
            raise DerivationError(f"cannot decide the sign of {u.expr} (too many case splits)") from None
        e = u.expr
        record(note_lhs, Tex(r"\text{cases } %s > 0 \text{ and } %s < 0" % (latex(e), latex(e))),
               f"the sign of ${latex(e)}$ depends on the parameters: the derivation splits into two cases")
        pos, c1 = _cases(fn, note_lhs, depth + 1, assumed + (e,))
        neg, c2 = _cases(fn, note_lhs, depth + 1, assumed + (-e,))
        conds = list(c1) + [c for c in c2 if c not in c1]
        if sp.simplify(pos - neg) == 0:
            return pos, conds
        return sp.Piecewise((pos, e > 0), (neg, True)), conds


def _cell_integral(qpiece, Lpiece, fpiece, t, a, b):
    integrand = sp.exp(qpiece) * fpiece.subs(t, sp.exp(Lpiece))
    integrand = sp.powsimp(sp.expand(sp.powsimp(integrand)))
    if integrand == 0:
        return sp.Integer(0), []
    return integrate_split(integrand, X, a, b,
                           lhs=Tex(r"\int_{%s}^{%s} q(x)\, f\!\left(\tfrac{p(x)}{q(x)}\right) dx" % (latex(a), latex(b))),
                           note="on this cell, with the formula of $f$ that holds there")


def _continuous(f, t, P, Q, lhs):
    L = sp.expand(P.log_pdf() - Q.log_pdf())
    logq = Q.log_pdf()
    record(Tex(r"\log\frac{p(x)}{q(x)}"), L, "log-density ratio")
    tkinks, tpieces = generator_pieces(f, t)
    record(Tex("f(t)"), sp.Piecewise(*[(fp, sp.And(t > lo, t < hi) if hi != oo else t > lo) for lo, hi, fp in tpieces]),
           "the generator on the cells between its kinks " + ", ".join(f"$t = {latex(k)}$" for k in tkinks))
    lkinks = [sp.expand_log(sp.log(k), force=True) for k in tkinks]
    dens_kinks = order_points(list(P.kinks()) + list(Q.kinks())) if (P.kinks() or Q.kinks()) else []
    pts = [-oo] + dens_kinks + [oo]

    def run(assumed):
        total, conds = sp.Integer(0), []
        for l, r in zip(pts[:-1], pts[1:]):
            Lp = sp.expand(resolve_abs(L, X, l, r))
            qp = sp.expand(resolve_abs(logq, X, l, r))
            cuts = []
            if Lp.has(X):
                if not Lp.is_polynomial(X) or sp.degree(Lp, X) > 2:
                    raise DerivationError(f"the log-ratio {Lp} is not a polynomial of degree <= 2 on ({l}, {r})")
                for lk in lkinks:
                    with time_limit(20, "solving for the crossing of a kink"):
                        roots = sp.solve(sp.Eq(Lp, lk), X)
                    for x0 in roots:
                        if x0.is_real is False:
                            continue
                        x0 = sp.simplify(x0)
                        if l != -oo and _sign(x0 - l, assumed) <= 0:
                            continue
                        if r != oo and _sign(r - x0, assumed) <= 0:
                            continue
                        cuts.append(x0)
            if len(cuts) > 1:  # (two crossings: a quadratic log-ratio) ordered by decided signs
                ordered = [cuts[0]]
                for c in cuts[1:]:
                    i = 0
                    while i < len(ordered) and _sign(c - ordered[i], assumed) > 0:
                        i += 1
                    ordered.insert(i, c)
                cuts = ordered
            cps = [l] + cuts + [r]
            for a, b in zip(cps[:-1], cps[1:]):
                if a == -oo and b == oo:
                    m = sp.Integer(0)
                else:
                    m = (a + b) / 2 if (a != -oo and b != oo) else (b - 1 if a == -oo else a + 1)
                Lm = Lp.subs(X, m)
                fpiece = None
                for (lo_t, hi_t, fp), k_lo, k_hi in zip(tpieces, [None] + lkinks, lkinks + [None]):
                    if k_lo is not None and _sign(Lm - k_lo, assumed) <= 0:
                        continue
                    if k_hi is not None and _sign(k_hi - Lm, assumed) <= 0:
                        continue
                    fpiece = fp
                    break
                if fpiece is None:  # pragma: no cover - the cells cover (0, oo)
                    raise DerivationError("the ratio lies on no cell of the generator")
                v, c = _cell_integral(qp, Lp, fpiece, t, a, b)
                total += v
                conds += [x for x in c if x not in conds]
        return simplify(total), conds

    return _cases(run, lhs)


def _finite(f, t, P, Q, lhs):
    tkinks, tpieces = generator_pieces(f, t)
    support = joint_support(P, Q)

    def run(assumed):
        terms = []
        for x, p, q in support:
            if q == 0:
                if p == 0:
                    continue
                terms.append(p * sp.limit(tpieces[-1][2] / t, t, oo))
                continue
            ratio = sp.simplify(p / q)
            fp = None
            for (lo_t, hi_t, piece), k_lo, k_hi in zip(tpieces, [None] + tkinks, tkinks + [None]):
                if k_lo is not None and _sign(ratio - k_lo, assumed) <= 0:
                    continue
                if k_hi is not None and _sign(k_hi - ratio, assumed) <= 0:
                    continue
                fp = piece
                break
            if fp is None:
                # the ratio sits exactly on a kink: f is continuous there, either side's formula
                fp = tpieces[0][2]
            terms.append(q * fp.subs(t, ratio))
        return simplify(sp.Add(*terms)), []

    record(lhs, Tex(r"\sum_x q(x)\, f\!\left(\frac{p(x)}{q(x)}\right)"),
           f"definition of the f-divergence for finite laws, $f(t) = {latex(f)}$, each ratio placed on a cell of $f$")
    value, conds = _cases(run, lhs)
    record(lhs, value, "sum over the union of the supports")
    return value, conds


def loss_law(P: Product, Q: Product, lhs=None):
    """For products of Gaussian laws with equal standard deviations per coordinate, the log-ratio
    ``L = sum_i a_i x_i + c`` is affine; returns ``(P_L, Q_L)``, its (Normal) laws under ``P`` and ``Q``."""
    if not (isinstance(P, Product) and isinstance(Q, Product)) or P.dim != Q.dim:
        raise ParameterError("two product laws of the same dimension are needed")
    if not all(isinstance(c, Normal) for c in P.components + Q.components):
        raise DerivationError("the log-ratio of these products is not affine (Gaussian coordinates are needed)")
    xs = P.symbols()
    L = sp.expand(P.log_pdf(xs) - Q.log_pdf(xs))
    if not all(sp.Poly(L, x).degree() <= 1 for x in xs):
        raise DerivationError("the log-ratio of these products is not affine: equal standard deviations are needed")
    record(Tex(r"L(x) = \log\frac{p(x)}{q(x)}"), L, "log-density ratio of the products: affine in x")
    a = [sp.diff(L, x) for x in xs]
    c = sp.simplify(L.subs({x: 0 for x in xs}))
    mP = simplify(c + sp.Add(*[ai * Pi.loc for ai, Pi in zip(a, P.components)]))
    mQ = simplify(c + sp.Add(*[ai * Qi.loc for ai, Qi in zip(a, Q.components)]))
    s = simplify(sp.sqrt(sp.Add(*[ai**2 * Qi.std**2 for ai, Qi in zip(a, Q.components)])))
    record(Tex(r"L \sim"), Tex(r"\mathcal{N}\left(%s, %s\right) \text{ under } P,\ \mathcal{N}\left(%s, %s\right) \text{ under } Q"
                               % (latex(mP), latex(s**2), latex(mQ), latex(s**2))),
           "an affine function of independent Gaussian coordinates is Gaussian")
    return Normal(mP, s), Normal(mQ, s)


def kinked_f_divergence(f, t, P: Distribution, Q: Distribution, lhs=None):
    """``D_f(P, Q) = E_Q[f(p/q)]`` for a generator ``f(t)`` with kinks; returns ``(value, conditions)``."""
    lhs = lhs or Tex(r"D_f(P, Q)")
    if isinstance(P, Finite) != isinstance(Q, Finite):
        raise ParameterError("a point mass or finite law against a law with a density is not comparable "
                             "(no likelihood ratio): both laws must be finite or both have densities")
    if isinstance(P, Finite):
        return _finite(f, t, P, Q, lhs)
    record(lhs, Tex(r"\int q(x)\, f\!\left(\frac{p(x)}{q(x)}\right) dx"),
           f"definition of the f-divergence with $f(t) = {latex(f)}$")
    if isinstance(P, Product) or isinstance(Q, Product):
        PL, QL = loss_law(P, Q)
        record(lhs, Tex(r"D_f(P_L, Q_L)"), "the log-ratio is a sufficient statistic: the divergence of its two laws")
        return _continuous(f, t, PL, QL, lhs)
    return _continuous(f, t, P, Q, lhs)
