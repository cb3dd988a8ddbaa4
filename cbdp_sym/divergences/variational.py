"""The variational (Fenchel-dual) form restricted to a function class, derived symbolically.

``D^H_f(P, Q) = sup_{h in H} E_P[h] - E_Q[f^*(h)]`` (CBDP Eq. (2)).  For the class
``lin = {a x + b}`` :func:`lin_objective` derives ``J(a, b)`` with the expectations integrated split
at the kinks (or kept symbolic for an abstract law) and the domain where ``J`` is finite, and
:func:`eliminate_intercept` maximises over ``b`` by stationarity (Lemma 1's step).
"""
from __future__ import annotations

import sympy as sp

from cbdp_sym.calculus.symbolic import maximize, simplify
from cbdp_sym.laws.distributions import X
from cbdp_sym.divergences.fdiv import expect
from cbdp_sym.divergences.generators import S, Generator
from cbdp_sym.core.errors import DerivationError
from cbdp_sym.core.printing import latex
from cbdp_sym.core.symbols import a as A, b as B
from cbdp_sym.core.tape import Tex, record


def interval_from_conditions(conditions, var):
    """The interval ``(lo, hi)`` of ``var`` where every linear condition holds."""
    lo, hi = -sp.oo, sp.oo
    for cond in conditions:
        expr = cond.lhs - cond.rhs
        greater = isinstance(cond, (sp.StrictGreaterThan, sp.GreaterThan))
        if not expr.has(var):
            continue
        c = sp.diff(expr, var)
        if c.has(var):
            raise DerivationError(f"non-linear finiteness condition {cond} in {var}")
        root = sp.solve(sp.Eq(expr, 0), var)[0]
        positive_c = c.is_positive
        if positive_c is None:
            raise DerivationError(f"cannot decide the sign of {c} in {cond}")
        # expr > 0 with c > 0 -> var > root
        if greater == bool(positive_c):
            lo = root if lo == -sp.oo else sp.Max(lo, root)
        else:
            hi = root if hi == sp.oo else sp.Min(hi, root)
    return sp.simplify(lo), sp.simplify(hi)


def lin_objective(gen: Generator, P, Q, a=A, b=B):
    """Derive ``J(a, b) = E_P[a x + b] - E_Q[f^*(a x + b)]``; returns ``(J, (lo, hi))`` for ``a``."""
    conj = gen.conjugate()
    h = a * X + b
    record(Tex(r"h(x)"), h, r"a member of $\mathrm{lin} = \{a x + b\}$")
    ep, c1 = expect(P, h, lhs=Tex(r"\mathbb{E}_P[h]"))
    fh = conj.expr.subs(S, h)
    eq, c2 = expect(Q, fh, lhs=Tex(r"\mathbb{E}_Q[f^*(h)]"))
    J = ep - eq
    record(Tex(r"J(a, b)"), J, r"restricted variational objective $\mathbb{E}_P[h] - \mathbb{E}_Q[f^*(h)]$ (Eq. (2))")
    lo, hi = interval_from_conditions(c1 + c2, a)
    if lo != -sp.oo or hi != sp.oo:
        record(Tex(latex(lo) + " < a < " + latex(hi)), Tex(""), r"where $\mathbb{E}_Q[f^*(h)]$ is finite (tails of the integrals)", rel="")
    return J, (lo, hi)


def eliminate_intercept(J, b=B, samples=()):
    """Maximise ``J`` over the intercept ``b`` by stationarity; returns ``(b*, J(a, b*))``."""
    bstar, value = maximize(J, b, samples=samples, name=Tex(r"J(a, b)"))
    value = simplify(sp.expand_log(value, force=True))
    record(Tex(r"\sup_b J(a, b)"), value, "optimal intercept substituted")
    return bstar, value
