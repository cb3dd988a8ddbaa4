"""A law against its shift, coordinate by coordinate: derivations with a symbolic dimension.

For ``P = P_0^{(d)}`` (independent coordinates) and ``Q`` the same law shifted by ``v = (v_1, ..., v_d)``
the integral ``int p^alpha q^(1 - alpha)`` is a product over coordinates (Fubini), so the Rényi divergence is
a sum and the alpha-divergence is ``(prod_i I(v_i) - 1)/(alpha^2 - alpha)``.  The one-dimensional factor is
derived by the engine (split integration) for a positive and for a negative shift; when the two branches are
mirror images the factor is written with ``|v_i|``.  The dimension ``d`` and the shift stay symbols: the
results are ``Sum``/``Product`` over ``i = 1..d`` of expressions in ``v[i]`` (an ``IndexedBase``, 1-based).

Also here: absolute moments ``E|Y|^gamma`` of a law symmetric about 0 (derived through the symmetry,
``2 int_0^oo x^gamma q(x) dx``, Gamma functions).

CBDP's proof helpers (``power_sup``, ``conjugate_constants``, ``orthant_chain_bound``) moved into the CBDP paper's
folder in 0.3 (``derivations/cbdp/_shared.py``); their old paths here warn for one release.

>>> import sympy as sp
>>> from cbdp_sym.laws.distributions import Laplace
>>> eps = sp.Symbol("epsilon", positive=True)
>>> abs_moment(Laplace(0, 1 / eps), sp.Integer(2))
2/epsilon**2
"""
from __future__ import annotations

import sympy as sp

from cbdp_sym import _api
from cbdp_sym.calculus.symbolic import integrate_split, simplify
from cbdp_sym.laws.distributions import X, Distribution
from cbdp_sym.divergences.fdiv import renyi_divergence
from cbdp_sym.core.errors import DerivationError
from cbdp_sym.core.printing import latex
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.core.serial import register_function

I_ = sp.Symbol("i", integer=True, positive=True)  # the coordinate index of sums over i = 1..d


@register_function
class Log1p(sp.Function):
    """``log(1 + x)``, printed as such, evaluated without cancellation when ``x`` is tiny.

    SymPy's ``evalf`` of ``log(1 + x)`` rounds ``1 + x`` to 1 for ``x`` below the working precision and returns 0
    (e.g. a Rényi bound ``log(1 + 2^{alpha-1} eps^alpha)/(alpha - 1)`` at ``eps = 10^-3``, ``alpha = 30``); a printed
    statement of that form is encoded with this function so that its value at such points is right.

    >>> x = sp.Rational(1, 10**90)
    >>> float(Log1p(x).evalf(30) * 10**90)
    1.0
    >>> sp.log(1 + x).evalf(30)
    0
    """

    nargs = 1

    def _eval_evalf(self, prec):
        import mpmath as _mp

        x = self.args[0]._eval_evalf(prec + 20)
        if x is None or not x.is_real:
            return None
        with _mp.workprec(prec + 20):
            val = _mp.log1p(x._to_mpmath(prec + 20))
        return sp.Float._new(_mp.mpf(val)._mpf_, prec)

    def _eval_rewrite_as_log(self, x, **kwargs):
        return sp.log(1 + x)

    def fdiff(self, argindex=1):
        return 1 / (1 + self.args[0])

    def _eval_is_real(self):
        x = self.args[0]
        if x.is_real and (x + 1).is_positive:
            return True
        return None

    def _eval_is_positive(self):
        if self.args[0].is_positive:
            return True
        return None

    def _latex(self, printer):
        return r"\log{\left(1 + %s \right)}" % printer._print(self.args[0])

W_POS = sp.Symbol("w", positive=True)  # a coordinate's shift, positive branch
W_NEG = sp.Symbol("w", negative=True)  # negative branch
W_REAL = sp.Symbol("w", real=True)


def _is_even(expr, var) -> bool:
    with time_limit(30, "symmetry check"):
        return simplify(expr.subs(var, -var) - expr) == 0


def symmetric_about_zero(law: Distribution) -> bool:
    """``q(-x) = q(x)`` for the law's symbolic density (SymPy decides; recorded)."""
    q = law.pdf()
    ok = _is_even(q, X)
    record(Tex(r"q(-x) - q(x)"), sp.Integer(0) if ok else simplify(q.subs(X, -X) - q),
           f"symmetry of ${law.latex()}$ about 0" + ("" if ok else " fails"))
    return ok


def _branches(factor_of, make):
    """``factor_of(P, Q)`` for a positive and a negative shift; the even form in ``|w|`` when they mirror."""
    pos = factor_of(*make(W_POS))
    if not pos.has(W_POS):
        return pos
    neg = factor_of(*make(W_NEG))
    with time_limit(60, "comparing the two branches"):
        mirror = simplify(neg - pos.subs(W_POS, -W_NEG)) == 0
    if not mirror:
        return sp.Piecewise((pos.subs(W_POS, W_REAL), W_REAL >= 0), (neg.subs(W_NEG, W_REAL), True))
    record(Tex(r"\text{value at } w < 0"), Tex(r"\text{value at } -w > 0"),
           "the branch for a negative shift is the mirror image of the positive one: the factor depends on $|w|$")
    return pos.subs(W_POS, sp.Abs(W_REAL))


def renyi_shift_sum(make, v, d, alpha, lhs=None):
    """``D_alpha(P, Q)`` for ``P = prod_i P_i``, ``Q = prod_i Q_i`` with ``(P_i, Q_i) = make(v_i)``, derived.

    Returns ``Sum(g(v[i]), (i, 1, d))`` where ``g(w) = D_alpha(make(w))`` is derived in one dimension.
    """
    def one(P, Q):
        return renyi_divergence(P, Q, alpha, lhs=Tex(r"D_\alpha(P_i \| Q_i)"))[0]

    g = _branches(one, make)
    total = sp.Sum(g.subs(W_REAL, v[I_]), (I_, 1, d))
    record(lhs or Tex(r"D_{R,\alpha}(P, Q)"), total,
           "independent coordinates: $\\int \\prod_i p_i^\\alpha q_i^{1-\\alpha} = \\prod_i \\int p_i^\\alpha q_i^{1-\\alpha}$ "
           "(Fubini), and the logarithm of the product is the sum over $i = 1, \\ldots, d$")
    return total


def alpha_integral(P, Q, alpha):
    """``int p^alpha q^(1 - alpha) dx`` in one dimension, split at the kinks (derived)."""
    L = sp.expand(alpha * P.log_pdf() - (alpha - 1) * Q.log_pdf())
    integrand = sp.powsimp(sp.expand(sp.exp(L)))
    record(Tex(r"\alpha \log p_i(x) + (1 - \alpha) \log q_i(x)"), L, "log of the integrand")
    value, _ = integrate_split(integrand, X, lhs=Tex(r"\int p_i^\alpha q_i^{1-\alpha}\, dx"),
                               note="the integrand $p_i^\\alpha q_i^{1-\\alpha}$")
    return simplify(value)


def alpha_div_shift_product(make, v, d, alpha, generator_f, t_symbol, lhs=None):
    """``D_f(P, Q)`` for the alpha-divergence generator on product laws, derived.

    ``q f(p/q) = (p^alpha q^(1 - alpha) - q)/(alpha^2 - alpha)`` for ``p, q > 0`` (derived from ``generator_f``),
    ``int q = 1``, and the integral of the product density is the product of the coordinates' integrals.
    """
    pp, qq = sp.symbols("p q", positive=True)
    integrand = simplify(sp.powsimp(sp.expand_power_base(qq * generator_f.subs(t_symbol, pp / qq), force=True), force=True))
    record(Tex(r"q\, f\!\left(\tfrac{p}{q}\right)"), integrand, "the generator at the density ratio ($p, q > 0$)")
    g = _branches(lambda P, Q: alpha_integral(P, Q, alpha), make)
    prod = sp.Product(g.subs(W_REAL, v[I_]), (I_, 1, d))
    value = (prod - 1) / (alpha**2 - alpha)
    record(lhs or Tex(r"D_\alpha(P, Q)"), value,
           "$\\int q = 1$; the integral of $p^\\alpha q^{1-\\alpha}$ over $\\mathbb{R}^d$ is the product of the "
           "coordinates' integrals (Fubini)")
    return value


def abs_moment(law: Distribution, gamma, lhs=None):
    """``E|Y|^gamma`` for a law symmetric about 0: ``2 int_0^oo x^gamma q(x) dx`` (derived, Gamma functions)."""
    if not symmetric_about_zero(law):
        raise DerivationError(f"{law!r} is not symmetric about 0")
    xp = sp.Symbol("x", positive=True)
    q = law.pdf().subs(X, xp)
    integrand = 2 * xp**gamma * q
    with time_limit(60, "absolute moment"):
        val = sp.integrate(integrand, (xp, 0, sp.oo), conds="none")
    if val.has(sp.Integral):
        raise DerivationError(f"SymPy could not integrate {integrand}")
    val = simplify(sp.powsimp(val, force=True))
    record(lhs or Tex(r"\mathbb{E}|Y|^{%s}" % latex(gamma)), Tex(r"2 \int_0^\infty x^{%s}\, q(x)\, dx" % latex(gamma)),
           "symmetry about 0")
    record(lhs or Tex(r"\mathbb{E}|Y|^{%s}" % latex(gamma)), val, "integration (Euler's Gamma integral)")
    return val


def __getattr__(name):  # noqa: N807  (the helpers moved into derivations/cbdp/, deprecated one release)
    paper, names = _api.MOVED[__name__]
    if name in names:
        return _api.moved(__name__, name, paper)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
