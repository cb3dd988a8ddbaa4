"""Exact structure of a restricted supremum, derived from the generator's conjugate.

For a class ``H`` that is a linear space of functions containing the constants (``lin``, ``poly_k``,
``{a . G x + b}``), the restricted supremum ``sup_{h in H} E_P[h] - E_Q[f^*(h)]`` (CBDP Eq. (2)) loses one
or two variables to calculus, depending on the shape of the derived conjugate ``f^*``:

* **exponential** (``f^*(s) = C e^s``; KL: ``C = e^{-1}``).  With ``h = b + g`` the constant ``b``
  enters as ``b - C e^b E_Q[e^g]``; maximising over ``b`` by stationarity (Lemma 1's step) leaves
  ``E_P[g] + V(Z)`` with ``Z = E_Q[e^g]`` and ``V`` derived here (``V(Z) = -log Z`` for KL).
* **power** (``f^*(s) = C |s|^A + K``; the alpha-divergence: ``A = alpha/(alpha - 1)``).  With
  ``h = lambda h_0`` the scale enters as ``lambda L - C lambda^A M - K`` (``L = E_P[h_0]``,
  ``M = E_Q[|h_0|^A]``); maximising over ``lambda > 0`` (Lemma 5's step) leaves a decreasing function
  ``V(M)`` of ``M`` at ``L = 1``, so that ``D^H = V(M_min)`` with
  ``M_min = min { E_Q |h|^A : h in H, E_P[h] = 1 }``, a convex minimisation; through Eq. (3) the
  restricted Rényi divergence is ``-log M_min``.
* **bounded** (the conjugate is finite only on an interval; TV): on a law with full support only
  constant ``h`` are feasible, and the best constant gives ``f(1) = 0``.

Each profile is derived with :func:`cbdp_sym.calculus.symbolic.maximize` on symbols (the steps are recorded and
can be shown), then specialised to the generator's constants.

>>> from cbdp_sym.divergences.generators import KL, ALPHA_DIV
>>> conjugate_structure(KL).kind
'exp'
>>> st = conjugate_structure(ALPHA_DIV, {"alpha": sp.Rational(3)})
>>> st.kind, st.A
('power', 3/2)
>>> profile(st).value_of_m     # D^H as a function of M_min, at alpha = 3
(1 - M**2)/(6*M**2)
>>> profile(st).renyi_of_m
-log(M)
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import sympy as sp

from cbdp_sym.calculus.symbolic import maximize, simplify
from cbdp_sym.divergences.generators import ALPHA_DIV, S, Generator
from cbdp_sym.core.errors import DerivationError
from cbdp_sym.core.tape import Tex, record, recording

L_, M_, Z_ = sp.symbols("L M Z", positive=True)
C_ = sp.Symbol("C", positive=True)
K_ = sp.Symbol("K", real=True)
KAPPA_ = sp.Symbol("kappa", positive=True)  # A - 1 > 0
LAM_ = sp.Symbol("lambda", positive=True)
B_ = sp.Symbol("b", real=True)


@dataclass(frozen=True)
class Structure:
    """The shape of a conjugate: ``kind`` in {exp, power, bounded, general} and its exact constants."""

    kind: str
    A: sp.Expr | None = None  # exponent of |s| (power)
    C: sp.Expr | None = None  # coefficient (exp: f^* = C e^s; power: C |s|^A)
    K: sp.Expr | None = None  # constant term (power)
    alpha: sp.Expr | None = None  # the generator's order, when it has one
    lo: sp.Expr | None = None  # bounded: the interval where f^* is finite
    hi: sp.Expr | None = None
    # where the structure was read at numbers for a generator's symbolic parameters: ``(generator, ((symbol,
    # value), ...))``, so that :func:`profile` may specialise the generator's symbolic profile (not part of equality)
    family: tuple | None = field(default=None, compare=False, hash=False, repr=False)


def conjugate_structure(gen: Generator, params: dict | None = None) -> Structure:
    """Recognise the derived conjugate's shape (SymPy identities, not names) at the given parameters."""
    params = params or {}
    conj = gen.conjugate()
    sub = {p: sp.sympify(params[str(p)]) for p in gen.params if str(p) in params}
    back = {}
    for p in gen.params:  # a symbolic order: alpha = kappa + 1 with kappa > 0 while deciding signs
        if p not in sub and p in gen._shift:
            fwd, kappa, orig = gen._shift[p]
            sub[p], back[kappa] = fwd, orig
    expr = sp.sympify(conj.expr).subs(sub)
    alpha = sub.get(gen.params[0]).subs(back) if gen.params else None
    family = None
    if gen.params and not back and all(sub.get(p) is not None and sub[p].is_Rational for p in gen.params):
        family = (gen, tuple((p, sub[p]) for p in gen.params))
    if conj.lo.is_finite or conj.hi.is_finite:
        return Structure("bounded", lo=conj.lo, hi=conj.hi, alpha=alpha)
    if expr.has(sp.exp):
        if simplify(sp.diff(expr, S) - expr) == 0:
            return Structure("exp", C=simplify(expr.subs(S, 0)), alpha=alpha)
        return Structure("general", alpha=alpha)
    u = sp.Symbol("u", positive=True)
    g = simplify(expr.subs(S, u) - expr.subs(S, 0))
    if simplify(expr.subs(S, -u) - expr.subs(S, u)) != 0 or g == 0:
        return Structure("general", alpha=alpha)
    A = simplify(u * sp.diff(g, u) / g)
    if A.has(u) or not (A.is_positive and (A - 1).is_positive is not False):
        return Structure("general", alpha=alpha)
    C = simplify(g.subs(u, 1))
    return Structure("power", A=simplify(A.subs(back)), C=simplify(C.subs(back)), K=simplify(expr.subs(S, 0).subs(back)),
                     alpha=alpha, family=family)


@dataclass(frozen=True)
class Profile:
    """The supremum over the eliminated variable, as derived expressions and their steps."""

    kind: str
    value_of_z: sp.Expr | None = None  # exp: V(Z), Z = E_Q[e^g]
    value_of_m: sp.Expr | None = None  # power: D^H = V(M) at L = 1
    renyi_of_m: sp.Expr | None = None  # power: Eq. (3) applied to V(M)
    scale_of_m: sp.Expr | None = None  # power: the optimal scale lambda*(M) at L = 1
    intercept_of_z: sp.Expr | None = None  # exp: the optimal constant b*(Z)
    steps: tuple = ()


@functools.lru_cache(maxsize=None)
def _general_profiles():
    """The two eliminations on symbols (once): over the constant for ``C e^s``, over the scale for ``C|s|^A + K``."""
    with recording() as t1:
        bstar, vz = maximize(B_ - C_ * sp.exp(B_) * Z_, B_, name=Tex(r"\psi(b)"))
    with recording() as t2:
        lstar, vm = maximize(LAM_ * L_ - C_ * LAM_ ** (KAPPA_ + 1) * M_ - K_, LAM_, 0, sp.oo,
                             name=Tex(r"\psi(\lambda)"))
    return (bstar, vz, tuple(t1.steps)), (lstar, vm, tuple(t2.steps))


def profile(st: Structure) -> Profile:
    """Derive the profile of the eliminated variable for a structure (steps replayed on the tape)."""
    if st.kind == "exp":
        (bstar, vz, steps), _ = _general_profiles()
        for s_ in steps:
            record(s_.lhs, s_.rhs, s_.note, s_.rel)
        v = simplify(sp.expand_log(vz.subs(C_, st.C), force=True))
        b = simplify(sp.expand_log(bstar.subs(C_, st.C), force=True))
        record(Tex(r"\sup_b\ b - \mathbb{E}_Q[f^*(b + g)]"), v,
               "optimal constant eliminated, with $Z = \\mathbb{E}_Q[e^{g}]$")
        return Profile("exp", value_of_z=v, intercept_of_z=b, steps=tuple(steps))
    if st.kind == "power":
        _, (lstar, vm, steps) = _general_profiles()
        for s_ in steps:
            record(s_.lhs, s_.rhs, s_.note, s_.rel)
        fast = _specialised(st)
        if fast is not None:
            v, ren, lam = fast
            record(Tex(r"D^{\mathcal H}_f"), v, "optimal scale eliminated at $\\mathbb{E}_P[h] = 1$, "
                   "$M = \\min_h \\mathbb{E}_Q|h|^{A}$ (decreasing in $M$)")
            if ren is not None:
                record(Tex(r"D^{\mathcal H}_{R,\alpha}"), ren, "through Eq. (3)")
            return Profile("power", value_of_m=v, renyi_of_m=ren, scale_of_m=lam, steps=tuple(steps))
        fwd, back = {}, {}
        if st.alpha is not None and st.alpha.is_Symbol:  # alpha = k + 1, k > 0, while simplifying powers
            k = sp.Symbol("k_alpha", positive=True)
            fwd, back = {st.alpha: k + 1}, {k: st.alpha - 1}
        rep = {KAPPA_: (st.A - 1).subs(fwd), C_: st.C.subs(fwd), K_: st.K.subs(fwd), L_: 1}

        def tidy(e):
            e = sp.powsimp(sp.powdenest(sp.expand_power_base(e.subs(rep), force=True), force=True), force=True)
            return simplify(sp.factor_terms(simplify(e))).subs(back)

        v = tidy(vm)
        lam = tidy(lstar)
        record(Tex(r"D^{\mathcal H}_f"), v, "optimal scale eliminated at $\\mathbb{E}_P[h] = 1$, "
               "$M = \\min_h \\mathbb{E}_Q|h|^{A}$ (decreasing in $M$)")
        ren = None
        if st.alpha is not None:
            a = st.alpha.subs(fwd)
            vv = v.subs(fwd)
            ren = simplify(sp.expand_log(sp.log(simplify(1 + a * (a - 1) * vv)) / (a - 1), force=True)).subs(back)
            record(Tex(r"D^{\mathcal H}_{R,\alpha}"), ren, "through Eq. (3)")
        return Profile("power", value_of_m=v, renyi_of_m=ren, scale_of_m=lam, steps=tuple(steps))
    raise DerivationError(f"no profile for a conjugate of kind {st.kind!r}")


# -- a numeric order: the symbolic-order profile, specialised ------------------------------------------------------
# The solver asks for the profile at each order alpha it meets (a figure's grid, a golden-section search over alpha,
# a failure region's trial points): simplifying the eliminations again at every rational order cost 0.05-0.5 s of
# SymPy per order (about half of CBDP-F2B-DECR).  The profile is derived once with the order symbolic (alpha > 1,
# the generator's own assumption) and specialised by substitution, when the structure read at the order is exactly
# the symbolic structure specialised (its A, C and K compared as trees); it is then written in the shape a direct
# simplification gives (expanded where M carries a non-integer power; tests compare the two trees over many orders).

@functools.lru_cache(maxsize=None)
def _symbolic_profile(gen):
    """``(structure, profile)`` of ``gen`` with its parameters symbolic (the steps are not recorded), or ``None``."""
    with recording():
        try:
            st = conjugate_structure(gen)
            if st.kind != "power" or st.alpha is None or not st.alpha.is_Symbol:
                return None
            return st, profile(st)
        except Exception:  # noqa: BLE001 - the direct derivation at the number runs instead, and reports
            return None


def derive_standard_profiles() -> None:
    """Derive the alpha-divergence's profile with the order symbolic now: a process that forks workers calls it once
    (after :func:`cbdp_sym.divergences.generators.derive_standard_conjugates`), and no worker derives it again; the
    restricted solver specialises it at every numeric order it meets, in most figure and claim workers."""
    _symbolic_profile(ALPHA_DIV)


def _specialised(st: Structure):
    """``(value_of_m, renyi_of_m, scale_of_m)`` for a power structure read at numbers, from the symbolic profile;
    ``None`` where that does not apply (the direct derivation runs)."""
    if st.family is None or st.alpha is None or not st.alpha.is_Rational:
        return None
    gen, values = st.family
    for p, v in values:  # the symbolic derivation assumed the shifted parameter's offset positive (alpha - 1 > 0)
        if p in gen._shift and gen._shift[p][2].subs(p, v).is_positive is not True:
            return None
    sym = _symbolic_profile(gen)
    if sym is None:
        return None
    sst, sprof = sym
    rep = dict(values)
    if sst.alpha not in rep or rep[sst.alpha] != st.alpha:
        return None
    if (sst.A.subs(rep), sst.C.subs(rep), sst.K.subs(rep)) != (st.A, st.C, st.K):
        return None

    def shaped(e):
        if e is None:
            return None
        e = e.subs(rep)
        if any(not b.exp.is_integer for b in e.atoms(sp.Pow) if b.base.has(M_)):
            e = sp.expand(e)
        return e

    return shaped(sprof.value_of_m), (sprof.renyi_of_m.subs(rep) if sprof.renyi_of_m is not None else None), \
        sprof.scale_of_m.subs(rep)
