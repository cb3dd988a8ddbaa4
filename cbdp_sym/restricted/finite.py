"""Restricted divergences and IPMs between finite laws, over convex classes cut out by linear constraints.

For laws on finitely many atoms every quantity of CBDP's Sections 2-6 is a finite-dimensional
optimisation, and it can be solved to any precision *and certified*:

* a **function class** is ``H = {h = sum_j theta_j phi_j (+ b) : A theta <= c}``: features ``phi_j``
  (any exact functions of an atom), linear constraints on the coefficients (a box ``|theta_j| <= B_j``,
  a range ``|h(x)| <= R`` on a set of atoms, general rows), and optionally a free constant ``b``
  (the class is then *translation invariant*, ``H = H_0 + R``).  Such a class is convex; whether it is
  closed under negation, contains a constant, and its range are decided exactly per instance
  (:func:`hypotheses`).  :class:`FiniteSetClass` is a finite set of functions (not convex).
* the **IPM** ``sup_h |E_P h - E_Q h|`` is a linear programme with rational data, solved exactly
  (rational simplex, Bland's rule, in python-flint's ``fmpq``); the optimal dual vector is the
  certificate (``A^T y = Phi^T (p - q)``, ``y >= 0``, value ``c . y``).
* the **restricted f-divergence** ``sup_h E_P[h] - E_Q[f^*(h)]`` (CBDP's Eq. (2), with the engine's
  derived conjugate) is the maximum of a concave function over a polytope: a primal active-set Newton
  method (20 digits, then polished at the working precision) returns the maximiser, the active
  constraints and their multipliers (the KKT point).  Its **certificate** is an interval ``[L, U]``
  computed in ball arithmetic (Arb): ``L = J(theta')`` at an exactly feasible rational ``theta'``, and
  ``U = mu . c + sum_x q(x) f(r(x)/q(x))`` for multipliers ``mu >= 0`` and a dual measure ``r`` on the
  support of ``Q`` with ``Phi^T r + A^T mu = Phi^T p`` exactly (weak duality: for feasible ``theta``,
  ``J(theta) = r . h + mu . A theta - q . f^*(h) <= mu . c + sum q f(r/q)`` by Fenchel-Young).  An
  infinite supremum is decided by an exact linear programme over the recession directions (a ray
  along which ``J`` grows linearly), never reported as a large number.
* the restricted Rényi divergence of order ``alpha`` is CBDP's Eq. (3) applied to the restricted
  α-divergence (a monotone map, so the enclosure maps to an enclosure).

It also generates **instance families** (seeded, deterministic random finite laws with rational
probabilities) and runs **adversarial searches** with a budget counted in evaluations
(:func:`budgeted_search`).  Nothing here knows a paper.

>>> from fractions import Fraction as F
>>> P = FiniteND([(0,), (1,), (2,)], [F(1, 2), F(1, 4), F(1, 4)])
>>> Q = FiniteND([(0,), (1,), (2,)], [F(1, 4), F(1, 4), F(1, 2)])
>>> H = bounded([coord(0)], 1)          # {a x : |a x| <= 1 on the support}
>>> ipm(P, Q, H).value                  # exact: sup |E_P h - E_Q h| = |a| |E_P x - E_Q x| with |a| <= 1/2
Fraction(1, 4)
>>> import mpmath as mp
>>> with mp.workdps(30):
...     r = restricted_finite("kl", translate(H), P, Q)   # H + R: the slope sits on its bound a = -1/2
>>> r.certified, mp.nstr(r.value, 12), r.upper - r.lower < mp.mpf(10) ** -40, mp.nstr(r.theta[0], 5)
(True, '0.160165473332', True, '-0.5')
"""
from __future__ import annotations

import functools
import itertools
import math
import random
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import mpmath as mp
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import mp_str, parse_number
from cbdp_sym.calculus.optimize import precision_ramp
from cbdp_sym.core.verdict import relative_slack
from cbdp_sym.core.display import restricted_markdown, restricted_repr
from cbdp_sym.laws.distributions import Finite, Product
from cbdp_sym.calculus.certify import NotCertifiable, arb_function
from cbdp_sym.divergences.fdiv import conj_triple_mp
from cbdp_sym.divergences.generators import ALPHA_DIV, KL, S, T, TV

try:
    import flint
except ImportError:  # pragma: no cover - python-flint is a declared dependency
    flint = None

__all__ = [
    "Family", "run_family", "family_verdict", "family_counterexample", "family_row", "num_text", "law_text", "rel_slack", "lift", "sum_class", "lp_max",
    "FiniteND", "as_pmf", "pushforward", "mixture", "product", "linear_map", "Feature", "coord", "monomial",
    "indicator", "FunctionClass", "FiniteSetClass", "lin", "poly", "span", "bounded", "box", "translate",
    "all_functions", "hypotheses", "sup_diff", "ipm", "LPResult", "restricted_finite", "FiniteRestrictedResult",
    "random_law", "perturb_law", "budgeted_search", "SearchResult", "to_fraction", "arb_ball",
    "exact_mpf", "joint_law", "arb_to_mpf", "solve_exact",
]


# -- exact numbers -----------------------------------------------------------------------------------
def to_fraction(x) -> Fraction:
    """An exact rational from an int, Fraction, SymPy rational, decimal/ratio string or mpf (exact binary value)."""
    if isinstance(x, bool):
        raise ParameterError(f"{x!r} is not a number")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, mp.mpf):
        if not mp.isfinite(x):
            raise ParameterError(f"{x} is not a finite number")
        sign, man, exp, _bc = x._mpf_
        v = Fraction(int(man)) * (Fraction(2) ** int(exp))
        return -v if sign else v
    if isinstance(x, str):
        x = parse_number(x)
    if isinstance(x, sp.Basic):
        x = sp.nsimplify(x) if x.is_Float else x
        if x.is_Rational:
            return Fraction(int(x.p), int(x.q))
    if flint is not None and isinstance(x, flint.fmpq):
        return Fraction(int(x.p), int(x.q))
    raise ParameterError(f"{x!r} is not an exact rational number (finite laws and classes need exact data)")


def _fq(x):
    """Fraction -> flint.fmpq."""
    x = to_fraction(x)
    return flint.fmpq(x.numerator, x.denominator)


def exact_mpf(x) -> mp.mpf:
    """The exact rational ``x`` (see :func:`to_fraction`) as an mpf at the working precision.

    >>> str(exact_mpf("1/4"))
    '0.25'
    """
    x = to_fraction(x)
    return mp.mpf(x.numerator) / x.denominator


def _atom(x) -> tuple:
    if isinstance(x, tuple):
        return tuple(to_fraction(v) for v in x)
    if isinstance(x, (list,)):
        return tuple(to_fraction(v) for v in x)
    return (to_fraction(x),)


# -- finite laws -------------------------------------------------------------------------------------
class FiniteND:
    """A law on finitely many atoms of ``R^d`` (tuples of rationals) with rational probabilities.

    >>> FiniteND([(0, 1), (1, 0)], [Fraction(1, 3), Fraction(2, 3)]).dim
    2
    >>> FiniteND([(0,), (0,)], [Fraction(1, 2), Fraction(1, 2)])
    Traceback (most recent call last):
    ...
    cbdp_sym.core.errors.ParameterError: FiniteND: the atoms must be distinct (use pushforward to merge)
    """

    def __init__(self, points, probs, label: str = ""):
        atoms = [_atom(x) for x in points]
        ps = [to_fraction(p) for p in probs]
        if not atoms or len(atoms) != len(ps):
            raise ParameterError(f"FiniteND: need as many probabilities as atoms, got {len(atoms)} and {len(ps)}")
        if len({len(a) for a in atoms}) != 1:
            raise ParameterError("FiniteND: all atoms must have the same dimension")
        if len(set(atoms)) != len(atoms):
            raise ParameterError("FiniteND: the atoms must be distinct (use pushforward to merge)")
        if any(p < 0 for p in ps):
            raise ParameterError("FiniteND: probabilities must be non-negative")
        if sum(ps) != 1:
            raise ParameterError(f"FiniteND: probabilities must sum to 1, got {sum(ps)}")
        order = sorted(range(len(atoms)), key=lambda i: atoms[i])
        self.atoms = tuple(atoms[i] for i in order)
        self.probs = tuple(ps[i] for i in order)
        self.label = label

    @property
    def dim(self) -> int:
        return len(self.atoms[0])

    def pmf(self) -> dict:
        return {a: p for a, p in zip(self.atoms, self.probs) if p != 0}

    def support(self) -> tuple:
        return tuple(a for a, p in zip(self.atoms, self.probs) if p != 0)

    def __repr__(self):
        inner = ", ".join(f"{_fmt_atom(a)}: {p}" for a, p in zip(self.atoms, self.probs))
        return f"FiniteND({{{inner}}})"

    def __eq__(self, other):
        return isinstance(other, FiniteND) and self.pmf() == other.pmf()

    def __hash__(self):
        return hash(tuple(sorted(self.pmf().items())))

    def latex(self) -> str:
        def one(a):
            return ",".join(_tex_q(v) for v in a) if len(a) > 1 else _tex_q(a[0])

        terms = [rf"{_tex_q(p)}\,\delta_{{({one(a)})}}" if len(a) > 1 else rf"{_tex_q(p)}\,\delta_{{{one(a)}}}"
                 for a, p in zip(self.atoms, self.probs) if p != 0]
        return " + ".join(terms)


def _fmt_atom(a):
    return "(" + ", ".join(str(v) for v in a) + ")" if len(a) > 1 else str(a[0])


def _tex_q(v: Fraction) -> str:
    v = to_fraction(v)
    if v.denominator == 1:
        return str(v.numerator)
    s = "-" if v < 0 else ""
    return rf"{s}\tfrac{{{abs(v.numerator)}}}{{{v.denominator}}}"


def as_pmf(law) -> dict:
    """``{atom (tuple of Fractions): probability}`` of a finite law (FiniteND, Finite, PointMass, or a
    Product of finite laws); zero-probability atoms are dropped."""
    if isinstance(law, FiniteND):
        return law.pmf()
    if isinstance(law, Finite):
        out = {}
        for x, p in law.pmf():
            a, pr = (to_fraction(x),), to_fraction(p)
            if pr:
                out[a] = out.get(a, Fraction(0)) + pr
        return out
    if isinstance(law, Product):
        parts = [as_pmf(c) for c in law.components]
        out = {}
        for combo in itertools.product(*[sorted(pt.items()) for pt in parts]):
            atom = tuple(v for a, _p in combo for v in a)
            pr = Fraction(1)
            for _a, p in combo:
                pr *= p
            out[atom] = pr
        return out
    raise ParameterError(f"not a finite law: {law!r} (use FiniteND, Finite, PointMass or a Product of them)")


def pushforward(law, g: Callable) -> FiniteND:
    """The law of ``g(X)`` (atoms with the same image merge): ``g`` maps an atom (tuple) to a number or tuple."""
    out: dict = {}
    for a, p in as_pmf(law).items():
        b = _atom(g(a))
        out[b] = out.get(b, Fraction(0)) + p
    return FiniteND(list(out), list(out.values()))


def mixture(lam, A, B) -> FiniteND:
    """``lam A + (1 - lam) B`` (a coin with bias ``lam`` picks the law; both laws on the same space)."""
    lam = to_fraction(lam)
    if not 0 <= lam <= 1:
        raise ParameterError(f"mixture weight must lie in [0, 1], got {lam}")
    pa, pb = as_pmf(A), as_pmf(B)
    if len({len(a) for a in list(pa) + list(pb)}) != 1:
        raise ParameterError("mixture: both laws must live on the same space")
    out: dict = {}
    for pm, w in ((pa, lam), (pb, 1 - lam)):
        for a, p in pm.items():
            out[a] = out.get(a, Fraction(0)) + w * p
    return FiniteND(list(out), list(out.values()))


def product(*laws) -> FiniteND:
    """The law of independent blocks ``(X_1, ..., X_k)`` (atoms concatenated)."""
    parts = [sorted(as_pmf(L).items()) for L in laws]
    atoms, probs = [], []
    for combo in itertools.product(*parts):
        atoms.append(tuple(v for a, _p in combo for v in a))
        pr = Fraction(1)
        for _a, p in combo:
            pr *= p
        probs.append(pr)
    return FiniteND(atoms, probs)


def linear_map(G) -> Callable:
    """``x -> G x`` for a matrix ``G`` (a list of rows of rationals), exact."""
    rows = [[to_fraction(v) for v in row] for row in G]
    if not rows or len({len(r) for r in rows}) != 1:
        raise ParameterError("linear_map: G must be a non-empty list of rows of equal length")

    def g(x):
        if len(x) != len(rows[0]):
            raise ParameterError(f"linear_map: G has {len(rows[0])} columns, the atom has {len(x)} coordinates")
        return tuple(sum((r * v for r, v in zip(row, x)), Fraction(0)) for row in rows)

    return g


# -- function classes --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Feature:
    """A feature ``phi``: an exact function of an atom, with a LaTeX label."""

    label: str
    fn: Callable

    def __call__(self, atom) -> Fraction:
        return to_fraction(self.fn(atom))


def coord(i: int) -> Feature:
    """``x_{i+1}`` (0-based index ``i``); in one dimension ``x``."""
    return Feature(f"x_{{{i + 1}}}", lambda a, i=i: a[i])


def monomial(i: int, k: int) -> Feature:
    """``x_{i+1}^k``."""
    return Feature(f"x_{{{i + 1}}}^{{{k}}}" if k > 1 else f"x_{{{i + 1}}}", lambda a, i=i, k=k: a[i] ** k)


def indicator(atom) -> Feature:
    atom = _atom(atom)
    return Feature(r"\mathbf{1}_{%s}" % _fmt_atom(atom), lambda a, atom=atom: Fraction(int(a == atom)))


@dataclass(frozen=True)
class FunctionClass:
    """``H = {sum_j theta_j phi_j (+ b) : constraints}``, a convex class given by features and linear constraints.

    * ``coef_bounds``: ``|theta_j| <= B_j`` (``None`` entries: free);
    * ``range_bound``: ``|sum_j theta_j phi_j(x)| <= R`` at every atom of ``domain`` (``None``: the union of
      the supports of the two laws compared);
    * ``rows``: extra constraints ``a . theta <= c`` (``c >= 0``, so that ``h = 0`` belongs to the class);
    * ``intercept``: a free constant ``b`` is added (``H = H_0 + R``, translation invariant).
    * ``every_atom``: one indicator feature per atom of the problem (all functions on the support).
    """

    name: str
    features: tuple = ()
    coef_bounds: tuple | None = None
    range_bound: Fraction | None = None
    domain: tuple | None = None
    rows: tuple = ()
    intercept: bool = False
    every_atom: bool = False
    latex: str = ""

    def with_name(self, name, latex=""):
        from dataclasses import replace

        return replace(self, name=name, latex=latex or self.latex)


@dataclass(frozen=True)
class FiniteSetClass:
    """A finite set of functions (not convex unless it has one element)."""

    name: str
    functions: tuple  # Feature objects
    latex: str = ""


def lin(dim: int = 1) -> FunctionClass:
    """``{a . x + b}`` on ``R^dim`` (translation invariant, closed under negation, unbounded)."""
    return FunctionClass("lin", tuple(coord(i) for i in range(dim)), intercept=True,
                         latex=r"\{a^\top x + b\}")


def poly(k: int, dim: int = 1) -> FunctionClass:
    """Polynomials of degree ``<= k`` in each coordinate separately, with a free constant."""
    feats = tuple(monomial(i, j) for i in range(dim) for j in range(1, k + 1))
    return FunctionClass(f"poly{k}", feats, intercept=True, latex=rf"\{{\text{{poly}}_{k}\}}")


def span(features, intercept=True, name="span") -> FunctionClass:
    """All linear combinations of ``features`` (plus a constant if ``intercept``)."""
    return FunctionClass(name, tuple(features), intercept=intercept)


def bounded(features, bound=1, domain=None, name=None) -> FunctionClass:
    """``{h = sum_j theta_j phi_j : |h(x)| <= bound on the domain}``: convex, closed under negation, range
    ``[-bound, bound]``; ``domain`` defaults to the support of the laws compared."""
    dom = None if domain is None else tuple(_atom(a) for a in domain)
    return FunctionClass(name or f"bounded{len(tuple(features))}", tuple(features), range_bound=to_fraction(bound),
                         domain=dom)


def box(features, bounds, intercept=False, name=None) -> FunctionClass:
    """``{sum_j theta_j phi_j : |theta_j| <= B_j}`` (plus a free constant if ``intercept``)."""
    feats = tuple(features)
    bs = tuple(to_fraction(b) for b in bounds)
    if len(bs) != len(feats):
        raise ParameterError("box: one bound per feature")
    return FunctionClass(name or "box", feats, coef_bounds=bs, intercept=intercept)


def translate(cls: FunctionClass) -> FunctionClass:
    """``H + R``: the class with a free constant added (translation invariant)."""
    from dataclasses import replace

    return replace(cls, intercept=True, name=cls.name + "+R", latex=(cls.latex + r" + \mathbb{R}") if cls.latex else "")


def all_functions() -> FunctionClass:
    """Every function on the atoms (one free indicator coefficient per atom): the unrestricted class."""
    return FunctionClass("all", every_atom=True, latex=r"\mathcal{F}")


# -- the problem on the joint support ----------------------------------------------------------------
@dataclass
class _Problem:
    atoms: list
    p: list          # Fractions
    q: list
    phi: list        # rows: atoms, columns: coefficients (Fractions); the intercept is the last column
    A: list          # constraint rows (Fractions)
    c: list
    n: int
    intercept: bool
    labels: list     # feature labels (LaTeX)
    range_rows: int  # how many of A's rows come from the class (the rest from the conjugate's domain)


def joint_law(P, Q):
    """The two finite laws on their common support: ``(atoms, p, q)``, atoms sorted, masses exact rationals.

    >>> from cbdp_sym.laws.distributions import Finite, PointMass
    >>> atoms, p, q = joint_law(Finite([0, 1], ["1/2", "1/2"]), PointMass(1))
    >>> len(atoms), p, q
    (2, [Fraction(1, 2), Fraction(1, 2)], [Fraction(0, 1), Fraction(1, 1)])
    """
    pp, qq = as_pmf(P), as_pmf(Q)
    dims = {len(a) for a in list(pp) + list(qq)}
    if len(dims) != 1:
        raise ParameterError("the two laws live in different dimensions")
    atoms = sorted(set(pp) | set(qq))
    return atoms, [pp.get(a, Fraction(0)) for a in atoms], [qq.get(a, Fraction(0)) for a in atoms]


def _build(cls: FunctionClass, P, Q, conj_domain=None) -> _Problem:
    atoms, p, q = joint_law(P, Q)
    feats = list(cls.features)
    if cls.every_atom:
        feats = [indicator(a) for a in atoms]
    labels = [f.label for f in feats]
    n0 = len(feats)
    phi = [[f(a) for f in feats] for a in atoms]
    if cls.intercept:
        for row in phi:
            row.append(Fraction(1))
        labels.append("1")
    n = n0 + (1 if cls.intercept else 0)
    A, c = [], []
    if cls.coef_bounds is not None:
        for j, B in enumerate(cls.coef_bounds):
            if B is None:
                continue
            for s in (1, -1):
                row = [Fraction(0)] * n
                row[j] = Fraction(s)
                A.append(row)
                c.append(to_fraction(B))
    if cls.range_bound is not None:
        dom = atoms if cls.domain is None else list(cls.domain)
        for a in dom:
            vals = [f(a) for f in feats] + ([Fraction(0)] if cls.intercept else [])
            for s in (1, -1):
                A.append([s * v for v in vals])
                c.append(cls.range_bound)
    for row, cc in cls.rows:
        row = [to_fraction(v) for v in row] + ([Fraction(0)] if cls.intercept else [])
        if len(row) != n:
            raise ParameterError(f"class {cls.name}: a constraint row has {len(row)} entries, expected {n}")
        A.append(row)
        c.append(to_fraction(cc))
    nrows = len(A)
    if conj_domain is not None:  # lo <= h(x) <= hi where q(x) > 0 (the conjugate is finite only there)
        lo, hi = conj_domain
        for i, a in enumerate(atoms):
            if q[i] == 0:
                continue
            if hi is not None:
                A.append(list(phi[i]))
                c.append(hi)
            if lo is not None:
                A.append([-v for v in phi[i]])
                c.append(-lo)
    if any(v < 0 for v in c):
        raise ParameterError(f"class {cls.name}: h = 0 must belong to the class (constraint right-hand sides >= 0)")
    return _Problem(atoms, p, q, phi, A, c, n, cls.intercept, labels, nrows)


# -- exact linear programming ------------------------------------------------------------------------
@dataclass
class LPResult:
    """``max obj . x`` over ``A x <= c``: exact value (Fraction, or ``math.inf``), maximiser, dual certificate."""

    value: object
    x: list | None
    dual: list | None        # y >= 0 with A^T y = obj and c . y = value (the certificate)
    ray: list | None = None  # when unbounded: a direction d with A d <= 0 and obj . d > 0
    pivots: int = 0

    @property
    def infinite(self) -> bool:
        return self.value == math.inf


def lp_max(obj, A, c) -> LPResult:
    """Exact LP ``max obj . x`` s.t. ``A x <= c`` with ``x`` free and ``c >= 0``, by the simplex method with
    Bland's rule on ``x = u - w`` and slacks, in exact rationals (python-flint ``fmpq``).

    >>> r = lp_max([1, 1], [[1, 0], [0, 1], [-1, 0], [0, -1]], [1, 2, 1, 1])
    >>> r.value, r.x, r.dual
    (Fraction(3, 1), [Fraction(1, 1), Fraction(2, 1)], [Fraction(1, 1), Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)])
    """
    n = len(obj)
    m = len(A)
    fq = flint.fmpq
    if any(to_fraction(v) < 0 for v in c):
        raise ParameterError("lp_max needs c >= 0 (x = 0 feasible)")
    if m == 0:
        if all(to_fraction(v) == 0 for v in obj):
            return LPResult(Fraction(0), [Fraction(0)] * n, [], None, 0)
        d = [to_fraction(v) for v in obj]
        return LPResult(math.inf, None, None, d, 0)
    ncol = 2 * n + m
    T = []
    for i in range(m):
        row = [_fq(v) for v in A[i]] + [-_fq(v) for v in A[i]] + [fq(1) if k == i else fq(0) for k in range(m)]
        row.append(_fq(c[i]))
        T.append(row)
    z = [-_fq(v) for v in obj] + [_fq(v) for v in obj] + [fq(0)] * m + [fq(0)]  # reduced costs, value
    basis = [2 * n + i for i in range(m)]
    pivots = 0
    while True:
        enter = next((j for j in range(ncol) if z[j] < 0), None)
        if enter is None:
            break
        best, leave = None, None
        for i in range(m):
            t = T[i][enter]
            if t > 0:
                ratio = T[i][-1] / t
                if best is None or ratio < best or (ratio == best and basis[i] < basis[leave]):
                    best, leave = ratio, i
        if leave is None:  # unbounded: the entering column is a ray
            dvar = [fq(0)] * ncol
            dvar[enter] = fq(1)
            for i in range(m):
                dvar[basis[i]] = -T[i][enter]
            ray = [Fraction(int((dvar[j] - dvar[n + j]).p), int((dvar[j] - dvar[n + j]).q)) for j in range(n)]
            return LPResult(math.inf, None, None, ray, pivots)
        piv = T[leave][enter]
        T[leave] = [v / piv for v in T[leave]]
        for i in range(m):
            if i != leave and T[i][enter] != 0:
                f = T[i][enter]
                Ti, Tl = T[i], T[leave]
                T[i] = [a - f * b for a, b in zip(Ti, Tl)]
        if z[enter] != 0:
            f = z[enter]
            z = [a - f * b for a, b in zip(z, T[leave])]
        basis[leave] = enter
        pivots += 1
    xv = [fq(0)] * ncol
    for i in range(m):
        xv[basis[i]] = T[i][-1]
    x = [Fraction(int((xv[j] - xv[n + j]).p), int((xv[j] - xv[n + j]).q)) for j in range(n)]
    y = [Fraction(int(z[2 * n + i].p), int(z[2 * n + i].q)) for i in range(m)]
    value = Fraction(int(z[-1].p), int(z[-1].q))
    # the certificate, checked exactly
    objf = [to_fraction(v) for v in obj]
    for j in range(n):
        if sum((y[i] * to_fraction(A[i][j]) for i in range(m)), Fraction(0)) != objf[j]:
            raise ArithmeticError("lp_max: dual certificate failed (A^T y != obj)")  # pragma: no cover
    if sum((y[i] * to_fraction(c[i]) for i in range(m)), Fraction(0)) != value or any(v < 0 for v in y):
        raise ArithmeticError("lp_max: dual certificate failed")  # pragma: no cover
    return LPResult(value, x, y, None, pivots)


def sup_diff(P, Q, cls) -> LPResult:
    """``sup_{h in H} E_P[h] - E_Q[h]`` exactly (an LP; the constant of a translation-invariant class cancels)."""
    if isinstance(cls, FiniteSetClass):
        atoms, p, q = joint_law(P, Q)
        vals = [sum((pi - qi) * f(a) for a, pi, qi in zip(atoms, p, q)) for f in cls.functions]
        k = max(range(len(vals)), key=lambda i: vals[i])
        return LPResult(vals[k], [Fraction(int(i == k)) for i in range(len(vals))], None)
    prob = _build(cls, P, Q)
    n0 = prob.n - (1 if prob.intercept else 0)
    obj = [sum(((pi - qi) * row[j] for pi, qi, row in zip(prob.p, prob.q, prob.phi)), Fraction(0)) for j in range(n0)]
    A = [row[:n0] for row in prob.A[:prob.range_rows]]
    return lp_max(obj, A, prob.c[:prob.range_rows])


def ipm(P, Q, cls) -> LPResult:
    """``IPM^H(P, Q) = sup_h |E_P h - E_Q h|`` exactly: the larger of the two one-sided suprema."""
    a, b = sup_diff(P, Q, cls), sup_diff(Q, P, cls)
    return a if a.value >= b.value else b


# -- hypotheses of the structural theorems, decided per instance --------------------------------------
def hypotheses(cls, P, Q) -> dict:
    """Which properties the class has on the instance (exact): ``convex``, ``closed_under_negation``,
    ``translation_invariant``, ``contains_constant``, ``range`` (``sup |h(x)|`` over the class and the
    support, ``math.inf`` if unbounded), ``range_in_unit`` (range within ``[-1, 1]``)."""
    if isinstance(cls, FiniteSetClass):
        atoms, _p, _q = joint_law(P, Q)
        fs = cls.functions
        vals = {f.label: tuple(f(a) for a in atoms) for f in fs}
        neg = all(tuple(-v for v in vs) in set(vals.values()) for vs in vals.values())
        const = any(len(set(vs)) == 1 for vs in vals.values())
        rng = max(abs(v) for vs in vals.values() for v in vs)
        return {"convex": len(set(vals.values())) == 1, "closed_under_negation": neg, "translation_invariant": False,
                "contains_constant": const, "range": rng, "range_in_unit": rng <= 1}
    prob = _build(cls, P, Q)
    A, c = prob.A[:prob.range_rows], prob.c[:prob.range_rows]
    rows = {(tuple(a), cc) for a, cc in zip(A, c)}
    neg = all((tuple(-v for v in a), cc) in rows for a, cc in rows)
    if not neg:  # a symmetric polytope need not list its rows in +- pairs: decide by LPs
        neg = all(lp_max([-v for v in a], A, c).value <= cc for a, cc in zip(A, c))
    if prob.intercept:
        rng = math.inf
    else:
        rng = Fraction(0)
        for row in prob.phi:
            for s in (1, -1):
                r = lp_max([s * v for v in row], A, c)
                if r.infinite:
                    rng = math.inf
                    break
                rng = max(rng, r.value)
            if rng == math.inf:
                break
    return {"convex": True, "closed_under_negation": bool(neg), "translation_invariant": bool(prob.intercept),
            "contains_constant": True, "range": rng, "range_in_unit": rng != math.inf and rng <= 1}


# -- ball arithmetic ---------------------------------------------------------------------------------
def arb_ball(x):
    """An exact Arb ball of a rational (Fraction / int / SymPy rational / mpf)."""
    v = to_fraction(x)
    return flint.arb(flint.fmpq(v.numerator, v.denominator))


def arb_to_mpf(x, upper: bool) -> mp.mpf:
    """The upper (or lower) end of an Arb ball as an mpf (exact: an Arb endpoint is a binary number)."""
    old = flint.ctx.prec
    flint.ctx.prec = max(old, x.mid().bits() + 64, 128)  # endpoints are rounded outwards at this precision
    try:
        end = x.upper() if upper else x.lower()
    finally:
        flint.ctx.prec = old
    if not end.is_finite():
        return mp.inf if upper else -mp.inf
    man, exp = end.man_exp()
    with mp.workprec(max(int(man).bit_length() + 8, 53)):  # exact: keep every bit of the endpoint
        return mp.ldexp(mp.mpf(int(man)), int(exp))


def _arb_compile(expr, var):
    """A closure ``arb -> arb`` evaluating a SymPy expression of one variable in ball arithmetic (the engine's one
    SymPy -> Arb evaluator, :func:`cbdp_sym.calculus.certify.arb_function`)."""
    try:
        return arb_function(expr, var)
    except NotCertifiable as exc:
        raise ParameterError(f"no ball arithmetic for {expr}: {exc}") from None


# -- generators and their derived conjugates -----------------------------------------------------------
_DIVS = ("kl", "alpha", "renyi", "tv")


def _generator(divergence, alpha):
    d = str(divergence).strip().lower()
    if d not in _DIVS:
        raise ParameterError(f"divergence {divergence!r} not understood: use kl, alpha, renyi or tv")
    if d in ("kl", "tv"):
        if alpha is not None:
            raise ParameterError(f"alpha is meaningless for {d}")
        return (KL if d == "kl" else TV), (), d
    if alpha is None:
        raise ParameterError(f"{d} needs alpha > 1")
    a = to_fraction(alpha)
    if not a > 1:
        raise ParameterError(f"{d} needs alpha > 1, got alpha = {a}")
    return ALPHA_DIV, (a,), d


@functools.lru_cache(maxsize=None)
def _conj_parts(gen, params):
    """``(f* expr in s, f expr in t, linear (k1, k0) or None, domain (lo, hi) of f*, domain of f, f'(1))`` with
    the parameters substituted (exact)."""
    conj = gen.conjugate()
    sub = dict(zip(gen.params, [sp.Rational(p.numerator, p.denominator) for p in params]))
    expr = conj.expr
    lo = None if conj.lo == -sp.oo else to_fraction(conj.lo.subs(sub))
    hi = None if conj.hi == sp.oo else to_fraction(conj.hi.subs(sub))
    if isinstance(expr, sp.Piecewise):
        expr = expr.args[0][0]
    expr = sp.sympify(expr).subs(sub)
    linear = None
    if sp.diff(expr, S, 2) == 0:
        k1 = sp.diff(expr, S)
        k0 = expr.subs(S, 0)
        linear = (to_fraction(k1), to_fraction(k0))
    f = sp.sympify(gen.f).subs(sub)
    flo = None if gen.lo == -sp.oo else to_fraction(gen.lo)
    fhi = None if gen.hi == sp.oo else to_fraction(gen.hi)
    d1 = sp.diff(f, T).subs(T, 1)
    best_const = to_fraction(sp.nsimplify(sp.simplify(d1))) if sp.simplify(d1).is_Rational else None
    return expr, f, linear, (lo, hi), (flo, fhi), best_const


def _renyi_of(alpha: Fraction, D):
    """CBDP's Eq. (3): ``log(1 + alpha (alpha - 1) D)/(alpha - 1)`` (mpf or Arb)."""
    if isinstance(D, mp.mpf) or isinstance(D, (int, float)):
        a = exact_mpf(alpha)
        if not mp.isfinite(D):
            return D
        arg = 1 + a * (a - 1) * D
        return mp.log(arg) / (a - 1) if arg > 0 else -mp.inf
    old = flint.ctx.prec
    flint.ctx.prec = _arb_bits()
    try:
        a = arb_ball(alpha)
        return (1 + a * (a - 1) * D).log() / (a - 1)
    finally:
        flint.ctx.prec = old


# -- the concave objective on the polytope -------------------------------------------------------------
class _Objective:
    """``J(theta) = sum_x p(x) h(x) - sum_{q(x) > 0} q(x) f^*(h(x))`` with ``h = Phi theta``, at the current precision."""

    def __init__(self, prob: _Problem, gen, params):
        self.prob, self.gen, self.params = prob, gen, params
        self.triple = conj_triple_mp(gen)
        if self.triple is None:  # pragma: no cover - only generators with an unbounded conjugate domain get here
            raise ParameterError(f"{gen.key}: the conjugate needs an unbounded domain for the Newton solver")
        self.S = [i for i, qi in enumerate(prob.q) if qi > 0]
        self._prec = None

    def _setup(self):
        if self._prec == mp.mp.prec:
            return
        pr = self.prob
        self.pm = [exact_mpf(v) for v in pr.p]
        self.qm = [exact_mpf(v) for v in pr.q]
        self.phim = [[exact_mpf(v) for v in row] for row in pr.phi]
        self.pars = tuple(exact_mpf(v) for v in self.params)
        self.mean_p = [mp.fsum(self.pm[i] * self.phim[i][j] for i in range(len(self.pm))) for j in range(pr.n)]
        self._prec = mp.mp.prec

    def h(self, th):
        self._setup()
        return [mp.fdot(row, th) for row in self.phim]

    def value(self, th):
        self._setup()
        hs = self.h(th)
        out = mp.fdot(self.mean_p, th)
        for i in self.S:
            out -= self.qm[i] * self.triple(hs[i], *self.pars)[0]
        return out

    def slope(self, th, d):
        """``d/dt J(theta + t d)`` at ``t = 0``."""
        self._setup()
        hs = self.h(th)
        out = mp.fdot(self.mean_p, d)
        for i in self.S:
            hd = mp.fdot(self.phim[i], d)
            if hd:
                out -= self.qm[i] * self.triple(hs[i], *self.pars)[1] * hd
        return out

    def jgh(self, th):
        """Value, gradient and minus the Hessian (positive semi-definite)."""
        self._setup()
        n = self.prob.n
        hs = self.h(th)
        J = mp.fdot(self.mean_p, th)
        g = list(self.mean_p)
        Hn = [[mp.mpf(0)] * n for _ in range(n)]
        for i in self.S:
            f0, f1, f2 = self.triple(hs[i], *self.pars)
            qi, row = self.qm[i], self.phim[i]
            J -= qi * f0
            w1, w2 = qi * f1, qi * f2
            for j in range(n):
                if row[j]:
                    g[j] -= w1 * row[j]
                    wr = w2 * row[j]
                    for k in range(j, n):
                        if row[k]:
                            Hn[j][k] += wr * row[k]
        for j in range(n):
            for k in range(j):
                Hn[j][k] = Hn[k][j]
        return J, g, Hn


def _independent(rows, new, tol):
    """Is ``new`` linearly independent of ``rows`` (Gram-Schmidt residual relative to its norm)?"""
    v = list(new)
    basis = []
    for r in rows:
        u = list(r)
        for b in basis:
            c = mp.fdot(u, b)
            u = [x - c * y for x, y in zip(u, b)]
        nu = mp.sqrt(mp.fdot(u, u))
        if nu > tol:
            basis.append([x / nu for x in u])
    for b in basis:
        c = mp.fdot(v, b)
        v = [x - c * y for x, y in zip(v, b)]
    return mp.sqrt(mp.fdot(v, v)) > tol * (1 + mp.sqrt(mp.fdot(new, new)))


@dataclass
class _Run:
    theta: list
    W: list
    mu: list
    value: mp.mpf
    iterations: int
    evaluations: int
    converged: bool
    step: mp.mpf


def _active_set(F: _Objective, A, c, theta, W, max_iter=400) -> _Run:
    """Primal active-set Newton method for ``max J`` over ``A theta <= c`` (``J`` concave), from a feasible start.

    Each iteration solves the equality-constrained Newton system on the working set ``W`` (with a
    Levenberg shift where the Hessian is singular), moves along the step up to the first blocking
    constraint with backtracking on ``J``, adds the blocking constraint, and drops a constraint whose
    multiplier is negative once the step vanishes.
    """
    n = len(theta)
    Am = [[exact_mpf(v) for v in row] for row in A]
    cm = [exact_mpf(v) for v in c]
    th = list(theta)
    W = list(W)
    tol = mp.mpf(10) ** (-mp.mp.dps + 6)
    nu = mp.mpf(0)
    evals = 0
    J = None
    lam = []
    dnorm = mp.inf
    for it in range(max_iter):
        if W:  # keep the working set's equalities exact: minimal-norm correction onto {A_W theta = c_W}
            res_w = [cm[w] - mp.fdot(Am[w], th) for w in W]
            if any(res_w):
                G = mp.matrix([[mp.fdot(Am[u], Am[w]) for w in W] for u in W])
                try:
                    y = mp.lu_solve(G, mp.matrix(res_w))
                    th = [t + mp.fsum(y[r] * Am[W[r]][j] for r in range(len(W))) for j, t in enumerate(th)]
                except ZeroDivisionError:  # pragma: no cover - W is kept independent
                    pass
        J, g, Hn = F.jgh(th)
        evals += 1
        scale = 1 + max(abs(v) for v in g) + max((abs(Hn[j][j]) for j in range(n)), default=0)
        k = len(W)
        M = mp.zeros(n + k, n + k)
        rhs = mp.zeros(n + k, 1)
        for i in range(n):
            rhs[i] = g[i]
            for j in range(n):
                M[i, j] = Hn[i][j]
            M[i, i] += nu + mp.mpf(10) ** (-mp.mp.dps) * scale
        for r, wi in enumerate(W):
            for j in range(n):
                M[n + r, j] = Am[wi][j]
                M[j, n + r] = Am[wi][j]
        try:
            sol = mp.lu_solve(M, rhs)
        except ZeroDivisionError:
            nu = max(nu * 100, mp.mpf(10) ** -12 * scale)
            continue
        d = [sol[i] for i in range(n)]
        lam = [sol[n + r] for r in range(k)]
        dnorm = max((abs(v) for v in d), default=mp.mpf(0))
        thn = max((abs(v) for v in th), default=mp.mpf(0))
        red = max((abs(g[j] - mp.fsum(lam[r] * Am[W[r]][j] for r in range(k))) for j in range(n)), default=0)
        if dnorm <= tol * (1 + thn) and red <= tol * scale:
            if k and min(lam) < -mp.sqrt(tol) * scale:
                W.pop(min(range(k), key=lambda r: lam[r]))
                continue
            return _Run(th, W, lam, J, it, evals, True, dnorm)
        tmax, block = mp.inf, None
        for i in range(len(Am)):
            if i in W:
                continue
            ad = mp.fdot(Am[i], d)
            if ad > 0:
                t = (cm[i] - mp.fdot(Am[i], th)) / ad
                if t < tmax:
                    tmax, block = max(t, mp.mpf(0)), i
        slope = mp.fdot(g, d)
        t, cand, evals_ls = _wolfe(F, th, d, slope, tmax)
        evals += evals_ls
        if t is None:
            if nu > mp.mpf(10) ** 30 * scale:
                return _Run(th, W, lam, J, it, evals, False, dnorm)
            nu = max(nu * 100, mp.mpf(10) ** -8 * scale)
            continue
        nu = nu / 100 if nu > mp.mpf(10) ** (-mp.mp.dps) * scale else mp.mpf(0)
        th = cand
        if block is not None and t == tmax and _independent([Am[w] for w in W], Am[block], mp.mpf(10) ** (-mp.mp.dps // 2)):
            W.append(block)
    return _Run(th, W, lam, J if J is not None else F.value(th), max_iter, evals, False, dnorm)


def _wolfe(F, th, d, slope, tmax):
    """A step along the ascent direction ``d`` of the concave ``J``: ``t = 1`` when it already nearly zeroes the
    directional derivative (the Newton regime), otherwise the maximiser of ``phi(t) = J(theta + t d)`` on
    ``[0, tmax]`` to a loose relative accuracy (bracketing, then Illinois steps on ``phi'``).  Returns
    ``(t, theta + t d, evaluations)``, ``t = None`` if no increase was found."""
    evals = 0
    tol = mp.mpf(10) ** (-mp.mp.dps + 6)

    def dphi(t):
        return F.slope([x + t * y for x, y in zip(th, d)], d)

    if slope <= 0:
        return None, th, evals
    a, fa = mp.mpf(0), slope
    t = min(mp.mpf(1), tmax)
    ft = dphi(t)
    evals += 1
    if abs(ft) <= slope / 10 or (t == tmax and ft >= 0):
        return t, [x + t * y for x, y in zip(th, d)], evals
    if ft > 0:  # expand the bracket
        while ft > 0 and t < tmax and t < 2**40:
            a, fa = t, ft
            t = min(2 * t, tmax)
            ft = dphi(t)
            evals += 1
        if ft >= 0:  # increasing up to the blocking constraint
            return t, [x + t * y for x, y in zip(th, d)], evals
    b, fb = t, ft
    side = 0
    for _ in range(60):
        c = (a * fb - b * fa) / (fb - fa) if fb != fa else (a + b) / 2
        if not (a < c < b):
            c = (a + b) / 2
        fc = dphi(c)
        evals += 1
        if abs(fc) <= slope / 10 or b - a <= tol * (1 + b):
            a = c if fc >= 0 else a
            t = c
            break
        if fc > 0:
            a, fa = c, fc
            if side == 1:
                fb /= 2
            side = 1
        else:
            b, fb = c, fc
            if side == -1:
                fa /= 2
            side = -1
        t = c
    if t <= 0:
        return None, th, evals
    return t, [x + t * y for x, y in zip(th, d)], evals


# -- exact linear algebra for the certificate ----------------------------------------------------------
def solve_exact(M, e):
    """A solution ``z`` of ``M z = e`` in exact rationals (free variables set to 0), or ``None`` if inconsistent."""
    m, n = len(M), len(M[0]) if M else 0
    aug = flint.fmpq_mat(m, n + 1, [_fq(v) for row, ev in zip(M, e) for v in list(row) + [ev]])
    R, rank = aug.rref()
    z = [Fraction(0)] * n
    for i in range(rank):
        piv = next(j for j in range(n + 1) if R[i, j] != 0)
        if piv == n:
            return None
        val = R[i, n]
        z[piv] = Fraction(int(val.p), int(val.q))
    return z


# -- the public solver ---------------------------------------------------------------------------------
@dataclass
class FiniteRestrictedResult:
    """A restricted divergence between finite laws, with its KKT point and certified enclosure.

    ``value`` is the restricted divergence (Rényi through Eq. (3) for ``renyi``), ``f_value`` the
    restricted f-divergence; ``lower_arb`` / ``upper_arb`` are Arb balls with
    ``lower_arb <= value <= upper_arb`` certified (``lower``/``upper`` their outer ends as mpf).
    """

    divergence: str
    cls: str
    value: mp.mpf
    f_value: mp.mpf
    theta: list = field(default_factory=list)
    h: list = field(default_factory=list)
    active: list = field(default_factory=list)       # constraint rows active at the optimum
    multipliers: list = field(default_factory=list)  # their multipliers (>= 0 at a KKT point)
    kkt_step: object = None                          # size of the last Newton step (the KKT residual)
    infinite: bool = False
    ray: list | None = None
    exact: object = None                             # exact value (Fraction) when the problem is an LP
    lower_arb: object = None
    upper_arb: object = None
    lower: object = None
    upper: object = None
    certified: bool = False
    iterations: int = 0
    evaluations: int = 0
    converged: bool = True
    notes: list = field(default_factory=list)

    @property
    def width(self):
        if self.lower is None or self.upper is None:
            return None
        return self.upper - self.lower

    def __repr__(self):
        return restricted_repr(self)

    def _repr_markdown_(self):
        return restricted_markdown(self)


def _arb_bits():
    return max(256, 2 * mp.mp.prec + 64)


def _ray_lp(prob: _Problem, fdom):
    """Is ``sup J = +inf``?  An exact LP over recession directions ``d`` of the class (``A d <= 0``) that keep
    ``f^*(h + t Phi d)`` from growing superlinearly on the support of Q (``Phi d`` in the recession cone of
    the generator's domain): ``J`` grows like ``t (Phi^T p) . d - t sum_x q(x) sigma(Phi d(x))``."""
    lo, hi = fdom
    n = prob.n
    obj = [sum((pi * row[j] for pi, row in zip(prob.p, prob.phi)), Fraction(0)) for j in range(n)]
    A = [list(r) for r in prob.A[:prob.range_rows]]
    c = [Fraction(0)] * len(A)
    for i, qi in enumerate(prob.q):
        if qi == 0:
            continue
        row = prob.phi[i]
        if hi is None:  # Phi d <= 0 here
            A.append(list(row))
            c.append(Fraction(0))
        if lo is None:  # Phi d >= 0 here
            A.append([-v for v in row])
            c.append(Fraction(0))
        if lo is not None and lo != 0 and hi is None:  # sigma(u) = lo u for u <= 0
            obj = [o - qi * lo * v for o, v in zip(obj, row)]
        if hi is not None and hi != 0 and lo is None:  # pragma: no cover - no such generator in CBDP
            obj = [o - qi * hi * v for o, v in zip(obj, row)]
    for j in range(n):
        for s in (1, -1):
            r = [Fraction(0)] * n
            r[j] = Fraction(s)
            A.append(r)
            c.append(Fraction(1))
    res = lp_max(obj, A, c)
    return res.value > 0, res.x


def _reduce(prob: _Problem):
    """Drop coefficients whose column of ``[Phi; A]`` (values on every atom, and every constraint) depends on the
    others: ``J`` and the constraints see ``theta`` only through ``Phi theta`` and ``A theta``, so the reduced
    problem has the same supremum and no flat directions.  Returns ``(problem, kept column indices)``."""
    rows = [list(r) for r in prob.phi] + [list(r) for r in prob.A]
    n = prob.n
    M = flint.fmpq_mat(len(rows), n, [_fq(v) for r in rows for v in r])
    R, rank = M.rref()
    if rank == n:
        return prob, list(range(n))
    pivots = []
    for i in range(rank):
        pivots.append(next(j for j in range(n) if R[i, j] != 0))
    keep = sorted(pivots)
    sub = lambda r: [r[j] for j in keep]  # noqa: E731
    red = _Problem(prob.atoms, prob.p, prob.q, [sub(r) for r in prob.phi], [sub(r) for r in prob.A], list(prob.c),
                   len(keep), prob.intercept and (n - 1) in keep, [prob.labels[j] for j in keep], prob.range_rows)
    return red, keep


def _constant_start(prob: _Problem, const):
    """Coefficients of the constant function ``h = f'(1)`` (the best constant, value 0) if the class holds it
    on the support, else ``None``."""
    if const is None or const == 0:
        return None
    n = prob.n
    M = [[sum((row[j] * row[k] for row in prob.phi), Fraction(0)) for k in range(n)] for j in range(n)]
    e = [const * sum((row[j] for row in prob.phi), Fraction(0)) for j in range(n)]
    z = solve_exact(M, e)
    if z is None:
        return None
    if any(sum((a * v for a, v in zip(row, z)), Fraction(0)) != const for row in prob.phi):
        return None
    if any(sum((a * v for a, v in zip(row, z)), Fraction(0)) > cc for row, cc in zip(prob.A, prob.c)):
        return None
    return z


def _lp_restricted(prob, linear, divergence, params):
    """A conjugate that is affine on a bounded domain (TV): the restricted divergence is an exact LP."""
    k1, k0 = linear
    n = prob.n
    obj = [sum(((pi - k1 * qi) * row[j] for pi, qi, row in zip(prob.p, prob.q, prob.phi)), Fraction(0)) for j in range(n)]
    res = lp_max(obj, prob.A, prob.c)
    const = -k0 * sum(prob.q)
    if res.infinite:
        return FiniteRestrictedResult(divergence, "", mp.inf, mp.inf, infinite=True, ray=res.ray, certified=True,
                                      notes=["an exact LP (the conjugate is affine on its domain): unbounded"])
    val = res.value + const
    ball = arb_ball(val)
    th = [exact_mpf(v) for v in res.x]
    hs = [mp.fdot([exact_mpf(v) for v in row], th) for row in prob.phi]
    active = [i for i, y in enumerate(res.dual) if y > 0]
    return FiniteRestrictedResult(divergence, "", exact_mpf(val), exact_mpf(val), th, hs, active,
                                  [exact_mpf(res.dual[i]) for i in active], mp.mpf(0), exact=val, lower_arb=ball,
                                  upper_arb=ball, lower=exact_mpf(val), upper=exact_mpf(val), certified=True,
                                  notes=["an exact LP (the conjugate is affine on its domain); dual certificate checked"])


def _finite_set_restricted(cls, P, Q, gen, params, divergence):
    atoms, p, q = joint_law(P, Q)
    fexpr = _conj_parts(gen, params)[0]

    best = None
    old = flint.ctx.prec
    flint.ctx.prec = _arb_bits()
    try:
        fs = _arb_compile(fexpr, S)
        for f in cls.functions:
            hv = [f(a) for a in atoms]
            J = sum((arb_ball(pi) * arb_ball(v) for pi, v in zip(p, hv)), flint.arb(0))
            for qi, v in zip(q, hv):
                if qi:
                    J -= arb_ball(qi) * fs(arb_ball(v))
            if best is None or arb_to_mpf(J, False) > arb_to_mpf(best[0], False):
                best = (J, f)
    finally:
        flint.ctx.prec = old
    J, f = best
    lo, hi = arb_to_mpf(J, False), arb_to_mpf(J, True)
    val = (lo + hi) / 2
    return FiniteRestrictedResult(divergence, cls.name, val, val, [], [], [], [], None, lower_arb=J, upper_arb=J,
                                  lower=lo, upper=hi, certified=True,
                                  notes=[f"a finite class: the maximum over its {len(cls.functions)} functions, "
                                         f"attained at ${f.label}$"])


def restricted_finite(divergence, cls, P, Q, alpha=None, certify: bool = True) -> FiniteRestrictedResult:
    """``D^H(P, Q) = sup_{h in H} E_P[h] - E_Q[f^*(h)]`` for finite laws, at the working precision, certified.

    ``divergence``: ``kl``, ``tv``, ``alpha`` (CBDP's α-divergence generator on all of R) or ``renyi``
    (Eq. (3) applied to the restricted α-divergence); ``cls``: a :class:`FunctionClass` or
    :class:`FiniteSetClass`.  Solved at 20 digits, polished at the working precision; with ``certify``
    the value is enclosed in Arb balls (see the module docstring).

    >>> from fractions import Fraction as F
    >>> P = FiniteND([(0,), (1,)], [F(3, 4), F(1, 4)]); Q = FiniteND([(0,), (1,)], [F(1, 4), F(3, 4)])
    >>> with mp.workdps(30):
    ...     r = restricted_finite("kl", all_functions(), P, Q)   # all functions: the KL divergence itself
    >>> mp.nstr(r.value, 15), mp.nstr(mp.log(3) / 2, 15)
    ('0.549306144334055', '0.549306144334055')
    """
    gen, params, key = _generator(divergence, alpha)
    if isinstance(cls, FiniteSetClass):
        res = _finite_set_restricted(cls, P, Q, gen, params, key)
        if key == "renyi":
            res.value = _renyi_of(params[0], res.f_value)
            res.lower_arb, res.upper_arb = _renyi_of(params[0], res.lower_arb), _renyi_of(params[0], res.upper_arb)
            res.lower, res.upper = arb_to_mpf(res.lower_arb, False), arb_to_mpf(res.upper_arb, True)
        return res
    fexpr, fgen, linear, cdom, fdom, best_const = _conj_parts(gen, params)
    bounded_dom = cdom[0] is not None or cdom[1] is not None
    prob = _build(cls, P, Q, conj_domain=cdom if bounded_dom else None)
    if bounded_dom:
        if linear is None:  # pragma: no cover - no such generator in CBDP
            raise ParameterError(f"{gen.key}: a conjugate with a bounded domain must be affine there")
        out = _lp_restricted(prob, linear, key, params)
        out.cls = cls.name
        return out
    infinite, ray = _ray_lp(prob, fdom)
    if infinite:
        return FiniteRestrictedResult(key, cls.name, mp.inf, mp.inf, infinite=True, ray=ray, certified=True,
                                      notes=["the objective grows linearly along a ray of the class (exact LP): "
                                             "the supremum is infinite"])
    full_n = prob.n
    prob, pivots = _reduce(prob)
    F = _Objective(prob, gen, params)
    n = prob.n
    A, c = prob.A, prob.c

    def stage(prev, _sd, _last):  # 20 digits from the best constant, then polished at the working precision
        if prev is None:
            th0 = [mp.mpf(0)] * n
            start = _constant_start(prob, best_const)
            if start is not None:
                th0 = [exact_mpf(v) for v in start]
            r = _active_set(F, A, c, th0, [i for i in range(len(A)) if c[i] == 0])
        else:
            r = _active_set(F, A, c, [mp.mpf(v) for v in prev.theta], prev.W)
        return r, r

    run, run2 = precision_ramp(stage, None, [20, mp.mp.dps])
    notes = []
    th = run2.theta
    fval = F.value(th)
    res = FiniteRestrictedResult(key, cls.name, fval, fval, th, F.h(th), list(run2.W), list(run2.mu), run2.step,
                                 iterations=run.iterations + run2.iterations, evaluations=run.evaluations + run2.evaluations,
                                 converged=run2.converged, notes=notes)
    if certify:
        _certify(res, prob, F, fexpr, fgen, fdom)
    if len(pivots) < full_n:  # coefficients in the original parametrisation (the dropped ones are 0)
        full = [mp.mpf(0)] * full_n
        for j, v in zip(pivots, res.theta):
            full[j] = v
        res.theta = full
        res.notes.append(f"{full_n - len(pivots)} coefficient(s) act on no atom and no constraint independently of the "
                         "others (dependent features on the support): fixed to 0")
    tight = (res.certified and res.width is not None
             and res.width <= mp.mpf(10) ** (-mp.mp.dps + 5) * (1 + abs(fval)))
    if not run2.converged:
        if tight:
            res.converged = True
            res.notes.append("the Newton steps did not vanish (the supremum is approached at infinity, not attained), "
                             "but the certified enclosure is tight to the working precision")
        else:
            res.notes.append("NOT CONVERGED: the active-set Newton method stopped before its step vanished")
    if key == "renyi":
        a = params[0]
        res.value = _renyi_of(a, fval)
        if res.lower_arb is not None:
            res.lower_arb = _renyi_of(a, res.lower_arb)
            res.lower = arb_to_mpf(res.lower_arb, False)
        if res.upper_arb is not None:
            res.upper_arb = _renyi_of(a, res.upper_arb)
            res.upper = arb_to_mpf(res.upper_arb, True)
    return res


def _certify(res: FiniteRestrictedResult, prob: _Problem, F: _Objective, fexpr, fgen, fdom):
    """Fill ``lower_arb``/``upper_arb``: a feasible rational point (lower) and a dual pair (upper), in Arb."""
    n = prob.n
    n0 = n - (1 if prob.intercept else 0)
    thq = [to_fraction(v) for v in res.theta]
    # an exactly feasible point: shrink the constrained coordinates towards h = 0 if rounding left a violation
    t = Fraction(1)
    for row, cc in zip(prob.A, prob.c):
        ah = sum((a * v for a, v in zip(row, thq)), Fraction(0))
        if ah > cc:
            if cc <= 0:
                res.notes.append("lower bound not certified: a constraint with right-hand side 0 is violated by rounding")
                return
            t = min(t, cc / ah)
    if t < 1:
        t = Fraction(math.floor(t * 10**30), 10**30) if t > Fraction(1, 10**30) else t
        thq = [v * t if j < n0 else v for j, v in enumerate(thq)]
        for row, cc in zip(prob.A, prob.c):  # the intercept enters no class row: still feasible
            assert sum((a * v for a, v in zip(row, thq)), Fraction(0)) <= cc
    hq = [sum((a * v for a, v in zip(row, thq)), Fraction(0)) for row in prob.phi]
    old = flint.ctx.prec
    flint.ctx.prec = _arb_bits()
    try:
        fstar = _arb_compile(fexpr, S)
        fgen_a = _arb_compile(fgen, T)
        L = flint.arb(0)
        for pi, qi, hv in zip(prob.p, prob.q, hq):
            if pi:
                L += arb_ball(pi) * arb_ball(hv)
            if qi:
                L -= arb_ball(qi) * fstar(arb_ball(hv))
        res.lower_arb = L
        res.lower = arb_to_mpf(L, False)
        # the dual pair: multipliers mu >= 0 on the active rows, r on supp Q with Phi^T r + A^T mu = Phi^T p,
        # corrected jointly (least-norm, exact rationals) from the numeric KKT point
        Sidx = [i for i, qi in enumerate(prob.q) if qi > 0]
        meanp = [sum((pi * row[j] for pi, row in zip(prob.p, prob.phi)), Fraction(0)) for j in range(n)]
        r0 = {}
        for i in Sidx:
            f1 = F.triple(res.h[i], *F.pars)[1]
            r0[i] = to_fraction(F.qm[i] * f1)
        active = [w for w, m in zip(res.active, res.multipliers) if m > 0]
        mu0 = {w: to_fraction(m) for w, m in zip(res.active, res.multipliers) if m > 0}
        for _attempt in range(3):
            cols = [prob.phi[i] for i in Sidx] + [prob.A[w] for w in active]
            u0 = [r0[i] for i in Sidx] + [mu0[w] for w in active]
            e = [meanp[j] - sum((u * col[j] for u, col in zip(u0, cols)), Fraction(0)) for j in range(n)]
            M = [[sum((col[j] * col[k] for col in cols), Fraction(0)) for k in range(n)] for j in range(n)]
            y = solve_exact(M, e)
            if y is None:
                res.notes.append("upper bound not certified: the moment equations of the dual measure are inconsistent")
                return
            u = [u0k + sum((col[j] * y[j] for j in range(n)), Fraction(0)) for u0k, col in zip(u0, cols)]
            r = dict(zip(Sidx, u[:len(Sidx)]))
            mu = dict(zip(active, u[len(Sidx):]))
            neg = [w for w, m in mu.items() if m < 0]
            if not neg:
                break
            active = [w for w in active if w not in neg]  # a multiplier that is really 0: drop its row
        else:
            res.notes.append("upper bound not certified: a multiplier stays negative")
            return
        for j in range(n):  # the dual identity, exactly
            lhs = sum((r[i] * prob.phi[i][j] for i in Sidx), Fraction(0)) + sum(
                (m * prob.A[w][j] for w, m in mu.items()), Fraction(0))
            if lhs != meanp[j]:
                res.notes.append("upper bound not certified: the dual identity failed")  # pragma: no cover
                return
        lo, hi = fdom
        U = sum((arb_ball(m) * arb_ball(prob.c[w]) for w, m in mu.items()), flint.arb(0))
        for i in Sidx:
            tq = r[i] / prob.q[i]
            if (lo is not None and tq < lo) or (hi is not None and tq > hi):
                res.notes.append("upper bound not certified: the dual measure leaves the generator's domain")
                return
            fv = flint.arb(0) if (tq == 0 and fgen.has(sp.log)) else fgen_a(arb_ball(tq))
            U += arb_ball(prob.q[i]) * fv
        res.upper_arb = U
        res.upper = arb_to_mpf(U, True)
        res.certified = bool(L.is_finite() and U.is_finite())
    finally:
        flint.ctx.prec = old


# -- classes on product spaces --------------------------------------------------------------------------
def lift(cls: FunctionClass, coords, domain) -> FunctionClass:
    """``cls`` acting on the coordinates ``coords`` of a product space, with its range constraints materialised
    on ``domain`` (atoms of the block's own space): the features are composed with the projection."""
    coords = tuple(coords)
    feats = tuple(Feature(f.label.replace("x_{1}", f"x_{{{coords[0] + 1}}}") if len(coords) == 1 else f.label,
                          lambda a, f=f, coords=coords: f(tuple(a[i] for i in coords)))
                  for f in cls.features)
    rows = []
    if cls.coef_bounds is not None:
        for j, B in enumerate(cls.coef_bounds):
            if B is None:
                continue
            for s in (1, -1):
                row = [Fraction(0)] * len(feats)
                row[j] = Fraction(s)
                rows.append((tuple(row), to_fraction(B)))
    if cls.range_bound is not None:
        dom = list(cls.domain) if cls.domain is not None else [_atom(a) for a in domain]
        for a in dom:
            vals = [f(a) for f in cls.features]
            for s in (1, -1):
                rows.append((tuple(s * v for v in vals), cls.range_bound))
    rows += [(tuple(to_fraction(v) for v in r), to_fraction(cc)) for r, cc in cls.rows]
    return FunctionClass(cls.name, feats, rows=tuple(rows), intercept=cls.intercept, latex=cls.latex)


def sum_class(*blocks, name=None) -> FunctionClass:
    """``H_1 + H_2 + ...`` on a product space: each block is a class already lifted with :func:`lift`; the
    features are concatenated, the constraints act block-wise, and one free constant is kept if any block
    has one (the sum of translation-invariant classes is translation invariant)."""
    feats, rows = [], []
    sizes = [len(b.features) for b in blocks]
    total = sum(sizes)
    off = 0
    for b, k in zip(blocks, sizes):
        if b.coef_bounds is not None or b.range_bound is not None:
            raise ParameterError("sum_class: lift each block first (its constraints must be explicit rows)")
        feats += list(b.features)
        for r, cc in b.rows:
            full = [Fraction(0)] * total
            full[off:off + k] = list(r)
            rows.append((tuple(full), cc))
        off += k
    return FunctionClass(name or " + ".join(b.name for b in blocks), tuple(feats), rows=tuple(rows),
                         intercept=any(b.intercept for b in blocks))


# -- instance families and adversarial search ----------------------------------------------------------
def random_law(rng: random.Random, atoms, max_weight: int = 12, zero_prob: float = 0.0) -> FiniteND:
    """A random law on ``atoms`` with rational probabilities (integer weights in ``[1, max_weight]``, an atom
    left out with probability ``zero_prob``), drawn from ``rng`` (seeded: deterministic)."""
    atoms = [_atom(a) for a in atoms]
    while True:
        w = [0 if rng.random() < zero_prob else rng.randint(1, max_weight) for _ in atoms]
        if sum(w):
            break
    tot = sum(w)
    return FiniteND(atoms, [Fraction(x, tot) for x in w])


def perturb_law(rng: random.Random, law, strength: float = 0.5, max_den: int = 1000) -> FiniteND:
    """A nearby law: each probability multiplied by ``exp(strength * U)``, ``U`` uniform in ``[-1, 1]``,
    rounded to denominators at most ``max_den`` and renormalised (exact); zero atoms stay zero."""
    pm = as_pmf(law) if not isinstance(law, FiniteND) else dict(zip(law.atoms, law.probs))
    atoms = sorted(pm)
    w = []
    for a in atoms:
        p = float(pm[a])
        w.append(0 if p == 0 else max(1, round(p * math.exp(strength * (2 * rng.random() - 1)) * max_den)))
    tot = sum(w)
    return FiniteND(atoms, [Fraction(x, tot) for x in w])


@dataclass
class SearchResult:
    """What :func:`budgeted_search` did: the smallest value found, where, and how many evaluations."""

    best: object
    best_value: object
    evaluations: int
    skipped: int
    trace: list           # (evaluation number, best value so far) at each improvement
    explored: int
    local: int


def budgeted_search(evaluate, sample, perturb, budget: int, seed: int, explore: float = 0.5, label: str = "search",
                    progress_every: int = 100, stream=None) -> SearchResult:
    """Minimise ``evaluate(instance)`` (a number, or ``None`` when the instance is not admissible) over a family.

    A budget of ``budget`` evaluations (a count, so that the same seed gives the same report): the first
    ``explore`` fraction draws fresh instances with ``sample(rng)``, the rest perturbs the three best so
    far with ``perturb(instance, rng, strength)`` at a strength that shrinks with the remaining budget.
    Progress goes to ``stream`` (standard error) every ``progress_every`` evaluations.
    """
    rng = random.Random(seed)
    stream = stream if stream is not None else sys.stderr
    pool = []  # (value, k, instance)
    trace = []
    skipped = 0
    n_explore = max(1, int(budget * explore))
    local = 0
    for k in range(budget):
        if k < n_explore or not pool:
            inst = sample(rng)
        else:
            local += 1
            base = sorted(pool, key=lambda t: (t[0], t[1]))[rng.randrange(min(3, len(pool)))][2]
            strength = 0.8 * (1 - (k - n_explore) / max(1, budget - n_explore)) + 0.05
            inst = perturb(base, rng, strength)
        val = evaluate(inst)
        if val is None:
            skipped += 1
        else:
            if not pool or val < min(t[0] for t in pool):
                trace.append((k + 1, val))
            pool.append((val, k, inst))
            pool = sorted(pool, key=lambda t: (t[0], t[1]))[:10]
        if progress_every and budget >= 2 * progress_every and (k + 1) % progress_every == 0:
            best = pool[0][0] if pool else None
            print(f"[{label} {k + 1}/{budget}] best {mp.nstr(mp.mpf(best), 6) if best is not None else '--'}",
                  file=stream, flush=True)
    if not pool:
        return SearchResult(None, None, budget, skipped, trace, n_explore, local)
    val, _k, inst = pool[0]
    return SearchResult(inst, val, budget, skipped, trace, n_explore, local)


# -- structural claims on instance families ---------------------------------------------------------------
def rel_slack(bound, value):
    """Signed relative slack of ``value <= bound`` (positive: holds): :func:`cbdp_sym.core.verdict.relative_slack`."""
    return relative_slack("upper", bound, value)


def _equal_within(out: dict, tol):
    """Two sides that agree to within ``tol`` times ``max(1, |lhs|, |rhs|)`` are equal to the precision: their
    relative slack (noise when both are near 0) is set to 0."""
    lhs, rhs = out.get("lhs"), out.get("rhs")
    if lhs is None or rhs is None or not (mp.isfinite(lhs) and mp.isfinite(rhs)):
        return out
    if abs(lhs - rhs) <= tol * max(mp.mpf(1), abs(lhs), abs(rhs)) and out["slack"] < 0:
        out["slack"] = mp.mpf(0)
    return out


@dataclass
class Family:
    """A family of instances of a structural claim.

    ``evaluate(instance) -> {"slack": mpf, "lhs": mpf, "rhs": mpf, "where": str}`` (or ``None`` when the
    instance is not admissible) at the working precision; ``hypotheses`` says in words which of the
    claim's hypotheses hold on every instance of the family, ``holds`` whether they all hold (a violation
    then refutes the claim; otherwise it shows that a hypothesis is needed).  ``instances`` are
    enumerated first; ``sample``/``perturb`` drive the adversarial search (``budget`` evaluations,
    ``seed``); ``certify(instance) -> str | None`` proves a violation in ball arithmetic.
    """

    key: str
    description: str
    hypotheses: str
    holds: bool
    evaluate: Callable
    instances: tuple = ()
    sample: Callable | None = None
    perturb: Callable | None = None
    budget: int = 0
    seed: int = 0
    certify: Callable | None = None
    describe: Callable | None = None  # instance -> short text (for the table)
    tol_digits: int | None = None     # a slack above -10^-tol_digits is equality within the precision
    eval_dps: int | None = None       # evaluate the worst instance at this precision (default: working)

    def tol(self, dps):
        return mp.mpf(10) ** (-(self.tol_digits if self.tol_digits is not None else dps - 8))


def run_family(fam: Family, search_dps: int = 20, label: str = "") -> dict:
    """Evaluate the enumerated instances and run the budgeted search at ``search_dps`` digits, then recompute
    the worst instance at the working precision (and certify it when it violates the claim).

    Returns a cache-friendly dict: ``evaluations``, ``enumerated``, ``skipped``, ``min_slack`` (mpf),
    ``worst`` (text), ``lhs``/``rhs`` at the worst instance, ``violations`` (count at search precision),
    ``certificate`` (text or ``None``).
    """
    work = mp.mp.dps
    records = []
    skipped = 0
    violations = 0

    def ev(inst):
        nonlocal skipped, violations
        try:
            out = fam.evaluate(inst)
        except (ParameterError, ZeroDivisionError, ArithmeticError, ValueError):
            out = None
        if out is None:
            skipped += 1
            return None
        _equal_within(out, fam.tol(search_dps))
        if out["slack"] < -fam.tol(search_dps):
            violations += 1
        records.append((out["slack"], len(records), inst))
        return out["slack"]

    with mp.workdps(search_dps):
        for inst in fam.instances:
            ev(inst)
        searched = 0
        if fam.budget and fam.sample is not None:
            sr = budgeted_search(ev, fam.sample, fam.perturb or (lambda x, rng, s: fam.sample(rng)), fam.budget,
                                 fam.seed, label=label or fam.key, progress_every=50)
            searched = sr.evaluations
            if fam.budget >= 20:
                best = mp.nstr(mp.mpf(sr.best_value), 6) if sr.best_value is not None else "--"
                print(f"[{label or fam.key}] searched {searched} instances ({sr.skipped} skipped), "
                      f"smallest slack {best}", file=sys.stderr, flush=True)
    if not records:
        return {"evaluations": len(fam.instances) + searched, "enumerated": len(fam.instances), "skipped": skipped,
                "min_slack": None, "worst": "no admissible instance", "lhs": None, "rhs": None, "violations": 0,
                "violated": False, "certificate": None, "dps": work}
    records.sort(key=lambda t: (t[0], t[1]))
    _s, _k, worst = records[0]
    work = min(work, fam.eval_dps) if fam.eval_dps else work
    with mp.workdps(work):
        out = fam.evaluate(worst)
        _equal_within(out, fam.tol(work))
        violated = out["slack"] < -fam.tol(work)
        cert = fam.certify(worst) if (fam.certify is not None and violated) else None
    return {"evaluations": len(fam.instances) + searched, "enumerated": len(fam.instances), "skipped": skipped,
            "min_slack": out["slack"], "worst": (fam.describe(worst) if fam.describe else str(worst)),
            "where": out.get("where", ""), "lhs": out.get("lhs"), "rhs": out.get("rhs"), "violations": violations,
            "violated": bool(violated), "certificate": cert, "dps": work}


def family_verdict(results: dict, families) -> tuple:
    """``(status, message)`` over the families: ``refuted`` if a family where every hypothesis holds has a
    violation at the working precision, else ``holds`` with the smallest relative slack over those families."""
    good = [(f, results[f.key]) for f in families if f.holds and results[f.key]["min_slack"] is not None]
    bad = [(f, r) for f, r in good if r["violated"]]
    if bad:
        f, r = min(bad, key=lambda t: t[1]["min_slack"])
        cert = f"certified: {r['certificate']}" if r["certificate"] else "not certified"
        return "refuted", (f"violated on family {f.key}: {r['worst']}; relative slack {mp.nstr(r['min_slack'], 6)} "
                           f"({cert})")
    if not good:
        return "inconclusive", "no instance where the hypotheses hold was evaluated"
    f, r = min(good, key=lambda t: t[1]["min_slack"])
    n = sum(r2["evaluations"] for _f, r2 in good)
    eq = " (equality to the working precision)" if r["min_slack"] <= 0 else ""
    return "holds", (f"no violation in {n} instances of {len(good)} families where the hypotheses hold; smallest "
                     f"relative slack {mp.nstr(r['min_slack'], 6)}{eq} (family {f.key}: {r['worst']})")


def num_text(x, n: int = 10) -> str:
    """A value for a report: ``--`` for ``None``, a ``Fraction`` exactly, anything else to ``n`` digits."""
    if x is None:
        return "--"
    if isinstance(x, Fraction):
        return str(x)
    return mp_str(mp.mpf(x), n)


def law_text(L) -> str:
    """A finite law as ``{atom: probability, ...}``, atoms sorted."""
    pm = as_pmf(L)
    return "{" + ", ".join(f"{_fmt_atom(a)}: {p}" for a, p in sorted(pm.items())) + "}"


def family_counterexample(results: dict, families) -> dict | None:
    """The counterexample behind a ``refuted`` :func:`family_verdict`: the worst violating instance of a family
    where every hypothesis holds, both sides at the working precision and its certificate (``None`` if none)."""
    bad = [(f, results[f.key]) for f in families
           if f.holds and results[f.key]["min_slack"] is not None and results[f.key]["violated"]]
    if not bad:
        return None
    f, r = min(bad, key=lambda t: t[1]["min_slack"])
    out = {"family": f.key, "instance": r["worst"] + (("; " + r["where"]) if r.get("where") else "")}
    for side, key in (("left side", "lhs"), ("right side", "rhs")):
        if r.get(key) is not None:
            out[side] = num_text(r[key], 20)
    out["relative slack"] = mp.nstr(r["min_slack"], 6)
    out["certified"] = bool(r["certificate"])
    out["certificate"] = r["certificate"] or "not certified"
    return out


def family_row(fam: Family, r: dict) -> list:
    """A table row for a family's result: description, hypotheses, search performed, result, worst instance."""
    if r["min_slack"] is None:
        result = "no admissible instance"
    elif r["violated"]:
        result = (f"VIOLATED (relative slack {mp.nstr(r['min_slack'], 6)}); "
                  + ("certified: " + r["certificate"] if r["certificate"] else "not certified"))
    else:
        result = f"holds; smallest relative slack {mp.nstr(r['min_slack'], 6)}"
        if r["min_slack"] <= 0:
            result += " (equality to the working precision)"
    search = f"{r['evaluations']} instances"
    if fam.instances:
        search += f" ({len(fam.instances)} enumerated"
        search += f", {fam.budget} searched)" if fam.budget else ")"
    elif fam.budget:
        search += " (searched)"
    if r.get("skipped"):
        search += f"; {r['skipped']} skipped"
    worst = r["worst"] + (("; " + r["where"]) if r.get("where") else "")
    return [fam.description, fam.hypotheses, search, result, worst]



