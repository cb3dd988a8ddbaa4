"""CBDP's (lin, Rényi) proof helpers: Lemma 5's one-variable supremum (:func:`power_sup`), the constants of the
alpha-divergence conjugate ``f^*(s) = C |s|^A + K`` (:func:`conjugate_constants`, Lemma 3) and Theorem 13's proof
chain (:func:`orthant_chain_bound`), each derived step by step.  Moved here from the engine's
``cbdp_sym.divergences.shifted`` in 0.3 (only this paper uses them; the old paths warn for one release).  The
paper's modules import them from ``._shared``; the registry skips files starting with ``_``.

>>> import sympy as sp
>>> X, a = sp.Symbol("X", positive=True), sp.Symbol("alpha", positive=True)
>>> sp.simplify(power_sup(X, a, replay=False)[1] - (a - 1) ** (a - 1) / (a**a * X ** (a - 1)))
0
"""
from __future__ import annotations

import functools

import sympy as sp

from cbdp_sym import Tex, alpha_generator, record
from cbdp_sym.calculus import DerivationError, cached_derivation, maximize, recording, simplify
from cbdp_sym.divergences import I_, conjugate_structure

__all__ = ["power_sup", "conjugate_constants", "orthant_chain_bound"]


@functools.lru_cache(maxsize=None)
def _power_sup_general():
    t = sp.Symbol("t", positive=True)
    Xs = sp.Symbol("X", positive=True)
    k = sp.Symbol("k_alpha", positive=True)  # alpha - 1 > 0
    with recording() as tape:
        arg, val = maximize(t - Xs * t ** ((k + 1) / k), t, 0, sp.oo, name=Tex(r"f(t)"))
    return t, Xs, k, arg, val, tuple(tape.steps)


def power_sup(Xval, alpha, replay=True):
    """``sup_{t > 0} t - X t^(alpha/(alpha - 1))`` and its argmax, derived (stationarity + concavity).

    Returns ``(argmax, value)`` with ``X`` replaced by ``Xval`` and ``alpha - 1`` written back.
    """
    t, Xs, k, arg, val, steps = _power_sup_general()
    if replay:
        for st in steps:
            record(st.lhs, st.rhs, st.note, st.rel)

    def tidy(e):
        e = e.subs(k, alpha - 1)
        e = sp.powsimp(sp.expand_power_base(e, force=True), force=True)
        return simplify(e).subs(Xs, Xval)

    return tidy(arg), tidy(val)


@cached_derivation
def conjugate_constants(alpha):
    """``(A, C, K)`` with the alpha-divergence conjugate ``f^*(s) = C |s|^A + K`` (read off the derived conjugate)."""

    st = conjugate_structure(alpha_generator(alpha) if not alpha.is_Symbol else alpha_generator())
    if st.kind != "power":
        raise DerivationError("the alpha-divergence conjugate is not of the form C|s|^A + K")
    record(Tex(r"f^*(s)"), st.C * sp.Abs(sp.Symbol("s", real=True)) ** st.A + st.K,
           "the derived conjugate, read as $C|s|^A + K$")
    return st.A, st.C, st.K


def orthant_chain_bound(alpha, K, d, v, i=I_, b_weight=1, lhs=None):
    """The upper bound that CBDP's Theorem 13 proof chain produces, derived step by step.

    After Lemma 4 and the orthant bound ``E_Q|a.x + b|^A >= 2^{-d} sum_i |a_i|^A K + w_b b^A`` (``w_b = 1`` as
    printed, ``w_b = 2^{-d}`` when the orthant's probability also multiplies ``b^A``), the supremum splits into
    ``d`` one-variable suprema ``sup_{t > 0} t |v_i| - C 2^{-d} K t^A`` and ``sup_{b > 0} b - C w_b b^A``, each
    by Lemma 5 (:func:`power_sup`), minus ``1/(alpha^2 - alpha)``.  ``C`` is read off the derived conjugate.
    Returns ``(alpha_divergence_bound, renyi_bound)`` as expressions with ``Sum(|v[i]|^alpha, (i, 1, d))``.
    """
    A, C, Kc = conjugate_constants(alpha)
    u = sp.Symbol("u", positive=True)  # |v_i|
    kap = sp.Symbol("k_alpha", positive=True)  # alpha - 1 > 0 while powers are combined

    def tidy(e):
        e = sp.sympify(e).subs(alpha, kap + 1)
        e = sp.powdenest(sp.powsimp(sp.expand_power_base(e, force=True), force=True), force=True)
        e = simplify(sp.powsimp(sp.expand(e), force=True))
        return e.subs(kap, alpha - 1)

    Xi = C * K / 2**d
    arg, val = power_sup(Xi / u, alpha)
    term = tidy(u * val)
    record(Tex(r"\sup_{a_i} a_i v_i - \tfrac{C_\alpha K}{2^d}|a_i|^{A}"), term,
           "$a_i v_i = |a_i||v_i|$ (Lemma 4's signs); pull $|v_i|$ out and apply Lemma 5 with "
           "$X = C_\\alpha K/(2^d |v_i|)$, $u = |v_i|$")
    _, bval = power_sup(C * b_weight, alpha, replay=False)
    bval = tidy(bval)
    record(Tex(r"\sup_{b > 0} b - C_\alpha w_b b^{A}"), bval,
           "Lemma 5 with $X = C_\\alpha w_b$, $w_b = " + sp.latex(b_weight) + "$")
    coeff = tidy(term / u**alpha)
    if coeff.has(u):
        raise DerivationError(f"the coordinate term is not proportional to |v_i|^alpha: {term}")
    norm = sp.Sum(sp.Abs(v[i]) ** alpha, (i, 1, d))
    total = tidy(coeff * sp.Symbol("N_v", positive=True) + bval - Kc).subs(sp.Symbol("N_v", positive=True), norm)
    record(lhs or Tex(r"\mathcal D^{lin}_\alpha(P, Q)"), total,
           "sum of the suprema minus the constant $1/(\\alpha^2 - \\alpha)$ of Lemma 3; $\\sum_i |v_i|^\\alpha = "
           "\\lVert v\\rVert_\\alpha^\\alpha$", rel=r"\le")
    nv = sp.Symbol("N_v", positive=True)
    inner = tidy(1 + alpha * (alpha - 1) * total.subs(norm, nv))
    ren = (sp.log(sp.factor(inner)) / (alpha - 1)).subs(nv, norm)
    record(Tex(r"\mathcal D^{lin}_{R,\alpha}(P, Q)"), ren, "through Eq. (3)", rel=r"\le")
    return total, ren
