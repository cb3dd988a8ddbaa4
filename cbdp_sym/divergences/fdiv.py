"""Divergences between laws: f-divergences (derived and numeric), expectations, Rényi divergences.

The generators and their conjugates live in :mod:`cbdp_sym.divergences.generators` (import them from there).
A :class:`Generator` holds ``f`` as printed by the paper, on the domain where it is finite (outside,
``f = +inf``).  :meth:`Generator.conjugate` *derives* ``f^*(s) = sup_t t s - f(t)``: it splits the
domain at the kinks of ``f``, solves the stationarity equation ``s = f'(t)`` on each smooth piece
(keeping the root inside the piece, which is a condition on ``s``), takes each kink for the range of
``s`` in its subdifferential, and reads off where the supremum is infinite.

>>> from cbdp_sym.divergences.generators import KL, TV
>>> KL.conjugate().expr
exp(s - 1)
>>> TV.conjugate().expr
Piecewise((s, (s >= -1/2) & (s <= 1/2)), (oo, True))
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import mpmath as mp
import sympy as sp

from cbdp_sym.calculus.symbolic import integrate_split, simplify
from cbdp_sym.laws.distributions import Distribution, Finite, Product, X, joint_support
import cbdp_sym.core.symcache as symcache
from cbdp_sym.core.errors import DerivationError, ParameterError
from cbdp_sym.core.printing import latex
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.divergences.kinked import _KINKED, kinked_f_divergence
from cbdp_sym.divergences.generators import ALPHA, S, T, KAPPA, Generator, oo
from cbdp_sym.divergences.lattice_symbolic import lattice_expect, lattice_f_divergence, lattice_renyi_divergence
from cbdp_sym.laws.discrete import LatticeLaw
from cbdp_sym.core.safeeval import compile_mp
from cbdp_sym.core.serial import register_function


@register_function
class Expect(sp.Function):
    """An unevaluated expectation ``E_law[body]`` (for claims about arbitrary laws)."""

    nargs = 2

    def _eval_is_real(self):
        return True

    def _eval_is_positive(self):
        body = self.args[1]
        if isinstance(body, sp.exp) or (body.is_Pow and body.base == sp.E):
            return True
        return None


@dataclass(frozen=True)
class AbstractLaw:
    """A law known only by name: expectations stay symbolic, with linearity applied.

    >>> P = AbstractLaw("P")
    >>> a, b = sp.symbols("a b", real=True)
    >>> P.expect(a * X + b)
    (a*Expect(P, x) + b, [])
    """

    name: str

    @property
    def symbol(self):
        return sp.Symbol(self.name)

    def expect(self, g, lhs=None):
        g = sp.expand(sp.sympify(g), power_exp=True, mul=True, log=False, multinomial=False)
        out = []
        for term in sp.Add.make_args(g):
            coeff, dep = term.as_independent(X, as_Add=False)
            out.append(coeff if dep == 1 else coeff * Expect(self.symbol, dep))
        value = sp.Add(*out)
        if lhs is not None:
            record(lhs, value, "linearity of expectation")
        return value, []


def expect(law, g, lhs=None):
    """``E_law[g(x)]``: symbolic integration split at kinks (or linearity for an abstract law).

    Returns ``(value, conditions)``; ``conditions`` say where the expectation is finite.
    """
    if isinstance(law, AbstractLaw):
        return law.expect(g, lhs)
    if isinstance(law, LatticeLaw):  # a law on the integers: a sum (cbdp_sym.divergences.lattice_symbolic)
        return lattice_expect(law, g, lhs, var=X)

    if isinstance(law, Finite):
        value = simplify(law.expect_sym(g))
        if lhs is not None:
            record(lhs, value, "expectation as a finite sum over the support")
        return value, []
    if not isinstance(law, Distribution):
        raise ParameterError(f"not a law: {law!r}")
    return integrate_split(sp.sympify(g) * law.pdf(), X, lhs=lhs,
                           note="expectation as an integral against the density")


def f_divergence(gen: Generator, P: Distribution, Q: Distribution, lhs=None):
    """``D_f(P, Q) = int q f(p/q) dx`` derived by split integration; returns ``(value, conditions)``.

    For two finite laws the integral is the sum ``sum_x q(x) f(p(x)/q(x))`` over the union of the
    supports (a point where ``q = 0 < p`` gives ``+oo`` unless ``f`` grows sublinearly).
    """
    if isinstance(P, LatticeLaw) or isinstance(Q, LatticeLaw):  # sums over the integers
        return lattice_f_divergence(gen, P, Q, lhs)
    if any(a.has(T) for a in gen.f.atoms(*_KINKED)):
        # max, sign, indicators, piecewise: split where the likelihood ratio crosses the kinks
        return kinked_f_divergence(gen.f, T, P, Q, lhs)
    if isinstance(P, Finite) and isinstance(Q, Finite):
        return _f_divergence_finite(gen, P, Q, lhs), []
    try:
        return _f_divergence_plain(gen, P, Q, lhs)
    except DerivationError:
        if not gen.f.has(sp.Abs):
            raise
        return kinked_f_divergence(gen.f, T, P, Q, lhs)


def _f_divergence_plain(gen, P, Q, lhs):
    L = sp.expand(P.log_pdf() - Q.log_pdf())
    ratio = sp.exp(L)
    integrand = sp.exp(Q.log_pdf()) * gen.f.subs(T, ratio)
    integrand = sp.powsimp(sp.expand_log(sp.simplify(sp.logcombine(integrand)), force=True))
    integrand = sp.powsimp(sp.expand(integrand))
    record(lhs or Tex(r"D_f(P, Q)"), Tex(r"\int q(x)\, f\!\left(\frac{p(x)}{q(x)}\right) dx"),
           f"definition of the f-divergence with $f(t) = {latex(gen.f)}$")
    record(Tex(r"\log\frac{p(x)}{q(x)}"), L, "log-density ratio")
    return integrate_split(integrand, X, lhs=lhs or Tex(r"D_f(P, Q)"), note="integrand $q f(p/q)$")


@functools.lru_cache(maxsize=None)
def conj_triple_mp(gen):
    """``s -> (f^*(s), f^*'(s), f^*''(s))`` in mpmath, from the derived conjugate, with shared work.

    The derivatives are SymPy's, taken on each side of the kink ``s = 0`` with ``|s|`` written as a
    positive symbol (no ``sign``/``Abs``/``DiracDelta`` left), and the three expressions share
    common subexpressions (one power per node for the α-divergence, one exponential for KL).
    Returns ``None`` when the conjugate's kinks are not ``{}`` or ``{0}`` (the caller falls back to
    :meth:`Generator.conj_mp`).  The expressions are evaluated by :func:`cbdp_sym.core.safeeval.compile_mp`
    (``lambdify``'s values, without running printed code: the conjugate may come from the cache).
    """
    c = gen.conjugate()
    kinks = [k for k in c.kinks]
    if c.lo.is_finite or c.hi.is_finite or any(k != 0 for k in kinks):
        return None
    r = sp.Symbol("r", positive=True)
    args = (r,) + tuple(gen.params)
    if not kinks:
        exprs = [sp.diff(c.expr, S, k).subs(S, r) for k in range(3)]
        f = compile_mp(args, exprs, cse=True)
        return lambda s, *p: f(s, *p)
    sides = []
    for sgn in (1, -1):
        base = sp.powsimp(symcache.simplify(c.expr.subs(S, sgn * r)), force=True)
        exprs = [sp.powsimp(symcache.simplify(sgn**k * sp.diff(base, r, k)), force=True) for k in range(3)]
        sides.append(compile_mp(args, exprs, cse=True))
    pos, neg = sides
    c0 = gen.conj_mp(0)

    def triple(s, *p):
        if s > 0:
            return pos(s, *p)
        if s < 0:
            return neg(-s, *p)
        return [c0(s, *p), mp.mpf(0), mp.mpf(0)]  # h = 0 to the last bit: an integrable singularity

    return triple


def _f_divergence_finite(gen, P, Q, lhs):
    terms = []
    for x, p, q in joint_support(P, Q):
        if q == 0:
            if p == 0:
                continue
            slope = sp.limit(gen.f.subs(T, T) / T, T, oo)  # f(t)/t as t -> oo: the mass outside Q's support
            terms.append(p * slope)
        else:
            term = gen.f.subs(T, p / q)
            if p == 0 and term is sp.nan:  # f(0) as the limit from the right (KL: 0 log 0 = 0), not 0 * zoo
                term = sp.limit(gen.f, T, 0, "+")
            terms.append(q * term)
    record(lhs or Tex(r"D_f(P, Q)"), Tex(r"\sum_x q(x)\, f\!\left(\frac{p(x)}{q(x)}\right)"),
           f"definition of the f-divergence for finite laws, $f(t) = {latex(gen.f)}$")
    value = simplify(sp.Add(*terms))
    record(lhs or Tex(r"D_f(P, Q)"), value, "sum over the union of the supports")
    return value


def renyi_divergence(P, Q, alpha=ALPHA, lhs=None):
    """``D_alpha(P || Q) = log(int p^alpha q^(1 - alpha)) / (alpha - 1)``, derived; returns ``(value, conditions)``.

    ``alpha > 1`` (symbolic or a number).  Continuous laws: the integrand ``exp(alpha log p + (1 - alpha)
    log q)`` is integrated split at the kinks (with the convergence condition of each tail); finite
    laws: a sum over the union of the supports; products: Fubini, one factor per coordinate.

    >>> from cbdp_sym.laws.distributions import Normal
    >>> v, sg = sp.symbols("v sigma", positive=True)
    >>> renyi_divergence(Normal(0, sg), Normal(v, sg))[0]
    alpha*v**2/(2*sigma**2)
    """
    alpha = sp.sympify(alpha)
    if alpha.is_number and not alpha > 1:
        raise ParameterError(f"the Renyi divergence is derived here for alpha > 1, got alpha = {alpha}")
    if isinstance(P, LatticeLaw) or isinstance(Q, LatticeLaw):  # sums over the integers
        return lattice_renyi_divergence(P, Q, alpha, lhs)
    name = lhs or Tex(r"D_\alpha(P \| Q)")
    kappa = KAPPA if alpha.is_Symbol else alpha - 1  # alpha - 1 > 0 during the derivation
    al = kappa + 1
    if isinstance(P, Product) or isinstance(Q, Product):
        if not (isinstance(P, Product) and isinstance(Q, Product)) or P.dim != Q.dim:
            raise ParameterError("the Renyi divergence of product laws needs two products of the same dimension")
        record(name, Tex(r"\frac{1}{\alpha - 1} \log \prod_{i} \int p_i(x)^\alpha q_i(x)^{1-\alpha}\, dx"),
               "independent coordinates: the integral of a product density factorises (Fubini)")
        factors, conds = [], []
        for i, (Pi, Qi) in enumerate(zip(P.components, Q.components), 1):
            f_i, c_i = _renyi_integral(Pi, Qi, al, Tex(r"\int p_{%d}^\alpha q_{%d}^{1-\alpha}" % (i, i)))
            factors.append(f_i)
            conds += [c for c in c_i if c not in conds]
        integral = sp.Mul(*factors)
    else:
        if isinstance(P, Finite) != isinstance(Q, Finite):
            raise ParameterError("the Renyi divergence between a finite law and a law with a density is infinite "
                                 "or undefined: both laws must be of the same kind")
        integral, conds = _renyi_integral(P, Q, al, Tex(r"\int p^\alpha q^{1-\alpha}"))
    value = sp.expand_log(sp.log(integral), force=True) / kappa
    value = simplify(value)
    back = {KAPPA: alpha - 1}
    value = simplify(value.subs(back))
    conds = [c.subs(back) for c in conds]
    record(name, value, "definition: $\\frac{1}{\\alpha-1}\\log$ of the integral")
    return value, conds


def _renyi_integral(P, Q, al, lhs):
    back = {KAPPA: ALPHA - 1}
    if isinstance(P, Finite):
        terms = []
        for x, p, q in joint_support(P, Q):
            if p == 0:
                continue
            if q == 0:
                raise ParameterError("P has mass outside the support of Q: the Renyi divergence of order > 1 is infinite")
            terms.append(p**al * q ** (1 - al))
        value = simplify(sp.Add(*terms))
        record(lhs, value.subs(back), "sum over the support of $P$")
        return value, []
    L = sp.expand(al * P.log_pdf() - (al - 1) * Q.log_pdf())
    integrand = sp.powsimp(sp.expand(sp.exp(L)))
    record(Tex(r"\alpha \log p(x) + (1 - \alpha) \log q(x)"), L.subs(back), "log of the integrand")
    value, conds = integrate_split(integrand, X, lhs=lhs, note="the integrand $p^\\alpha q^{1-\\alpha}$")
    return value, conds
