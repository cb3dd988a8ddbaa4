r"""Restricted divergences between d-dimensional product laws over linear adversaries.

``D^H_f(P, Q) = sup_{h in H} E_P[h] - E_Q[f^*(h)]`` (CBDP Eq. (2)) for ``P = P_1 x ... x P_d`` and
``Q = Q_1 x ... x Q_d`` with Laplace or Gaussian coordinates, and ``H = lin = {a . x + b}`` or, with a
``k x d`` feature matrix ``G``, ``H = {a . (G x) + b : a in R^k, b in R}`` (post-processing by ``G``, as in
CBDP's Theorem 1).  The entry point is :func:`restricted_lin_product`.

Exact structure used (:mod:`cbdp_sym.divergences.reduction` derives the eliminations from the conjugate's shape):

* Only ``c = G^T a`` (``c = a`` for ``lin``) enters: ``a . G x = c . x``.  Under ``Q``,
  ``x = mu_Q + Y`` with ``Y`` centred, symmetric and with independent coordinates; write
  ``v = mu_Q - mu_P`` (only the means of ``P`` enter a linear class).
* **exp** (KL): the constant is profiled out, ``J(c) = c . mu_P + V(Z(c))`` with ``Z = E_Q e^{c . x}``
  and ``V = -log`` (derived), i.e. ``J(c) = -c . v - sum_i Lambda_i(c_i)`` where ``Lambda_i`` is the
  log-MGF of ``Y_i``, derived from the density by :func:`cbdp_sym.divergences.fdiv.expect` (split
  integration, with its finiteness domain: ``|c_i| < 1/scale_i`` for a Laplace coordinate).  ``J`` is
  concave; with ``G = I`` it is a sum of one-dimensional problems (separable).
* **power** (alpha-divergence): ``M_min = min_c F(c)``, ``F(c) = E_Q |1 + c . (x - mu_P)|^A``
  (``E_P h = 1`` built in), ``A = alpha/(alpha - 1)``; ``D = V(M_min)`` and Eq. (3) gives
  ``-log M_min`` (derived profiles).  ``F(c) = E|m + S|^A`` with ``m = 1 + c . v`` and the
  one-dimensional law of ``S = c . Y``:

  - Gaussian ``Q``: ``S ~ N(0, tau^2)``, ``tau^2 = sum c_i^2 sigma_i^2``;
  - Laplace ``Q``: ``S`` is a sum of independent ``Laplace(0, b_i)``, ``b_i = |c_i| s_i``; its
    characteristic function ``prod_j (1 + b_j^2 t^2)^{-n_j}`` (equal rates grouped, multiplicity
    ``n_j``) is split in partial fractions in ``t^2``, so the density is the exact finite combination
    ``sum_j sum_k w_jk l_k(x; b_j)`` of densities of sums of ``k`` i.i.d. Laplace laws,
    ``l_k(x; b) = e^{-|x|/b} P_k(|x|/b)/b`` with ``P_k`` derived by SymPy (convolution of the
    engine's Laplace densities, split at the kinks).  Close rates cost cancellation: the weights are
    computed and the density evaluated with extra digits measured from the weights.

  Derivatives come from the same 1-D laws: ``F = Phi(m, beta)`` with ``beta_i = c_i^2 s_i^2``;
  ``d/dbeta_i`` of the characteristic function multiplies it by ``-t^2/(1 + beta_i t^2)``, i.e.
  ``d f_S / d beta_i = f''_{S + L_i}`` (``L_i`` an independent copy of coordinate ``i``'s term), and
  for Gaussians ``d f / d tau^2 = f''/2`` (heat equation).  Integrating by parts puts the derivatives
  on ``g(y) = |y|^A``, so value, gradient and Hessian are one-dimensional integrals of ``g, g', g''``
  against ``f_S, f_{S+L_j}, f'_{S+L_j}, f''_{S+L_j+L_l}``, all on shared nodes.  The integrals are
  split at the zero of ``h`` and at the density's kink; next to the zero of ``h`` the substitution
  ``y = t^{alpha - 1}`` makes ``g'' dy = A dt`` bounded (no singular integrand at any alpha).
* **bounded** (TV): on full-support laws only constant ``h`` are feasible: the value is ``f(1) = 0``.
* Symmetry (class ``lin`` only): ``F`` and ``-J`` are strictly convex and invariant under swapping two
  coordinates with the same law of ``Y_i`` and the same shift ``v_i``, and under ``(c_i, v_i) ->
  (-c_i, -v_i)``; so the (unique) optimum has ``c_i = 0`` where ``v_i = 0`` and ``c_i = sign(v_i)
  gamma_g`` on each group ``g`` of coordinates with the same family, scale and ``|v_i|``.  The problem
  is solved in the group coordinates ``gamma`` (exact equal rates, no near-degenerate partial fractions).

Solving: Newton's method with backtracking (pseudo-inverse of the Hessian), from the exact optimum at
``A = 2`` (a quadratic) for the power case and from ``c = 0`` for KL, on a precision ramp (15 digits, about
half the target above 30 digits, then the target; each stage stops when a full Newton step is small
enough that the next iterate is good to its precision: the value's error is quadratic in the
maximiser's).  Certificate: the gradient norm and the Hessian's definiteness at the returned point (the
last point evaluated at the working precision).  Where ``1 - M`` (or a log-MGF term) is small, the value
is polished with as many extra digits as the cancellation costs.

Second method (``second=True``): the full, unprofiled objective ``E_P[h] - E_Q[f^*(h)]`` with the engine's
derived conjugate ``f^*`` (:meth:`~cbdp_sym.divergences.generators.Generator.conj_mp`), ``h = w + c . (x - mu_Q)`` in
(reduced coefficients, ``w``), maximised by BFGS with forward-difference gradients (a scale search along
the start ray and a finite-difference Hessian to start it; 10 digits, then 22).  ``E_Q[f^*(h)]`` is one
quadrature against the law of ``S`` (the engine's Gaussian density, or the Laplace-sum density): no
profile, no closed-form MGF, no derivative formulas; it shares with the main method only the 1-D law of
``S`` (tested separately against numeric convolution) and the symmetry reduction.

Limits: Q's active coordinates must be all Laplace or all Gaussian for the alpha-divergence (mixed
products: KL only); ``alpha = inf`` is not supported; close but unequal Laplace rates cost extra digits
(measured); ``alpha`` near 1 (large ``A``) and large ``alpha`` make the quadratures and the second method
slower.

>>> import mpmath as mp
>>> from cbdp_sym.laws.distributions import Normal, Product
>>> with mp.workdps(20):
...     r = restricted_lin_product("kl", Product(Normal(0, 1), Normal(0, 1)),
...                                Product(Normal(1, 1), Normal(2, 1)), second=False)
>>> mp.nstr(r.value, 12)   # sum of the one-dimensional values (1/2 + 2)
'2.5'
"""
from __future__ import annotations

import functools
from operator import mul

import mpmath as mp
import sympy as sp

from cbdp_sym.core.cache import cached_numeric
from cbdp_sym.calculus.symbolic import split_at_kinks
from cbdp_sym.laws.distributions import X, Distribution, Laplace, Normal, Product
from cbdp_sym.divergences.fdiv import expect
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.memo import memo_numeric
from cbdp_sym.core.numbers import digits, parse_number, to_mpf
from cbdp_sym.divergences.numeric import vquad
from cbdp_sym.divergences.reduction import M_, Z_
from cbdp_sym.restricted.common import RestrictedResult, generator_for, structure_and_profile
from cbdp_sym.divergences.variational import interval_from_conditions
from cbdp_sym.calculus.optimize import bfgs, definite, golden_section, newton, norm as _norm, pinv_step as _solve_sym, precision_ramp, ramp_stages

import mpmath.libmp as _lm
from mpmath.libmp import from_man_exp, to_fixed

__all__ = ["restricted_lin_product", "laplace_sum_poly", "sum_density", "SumLaw", "FAMILIES"]

FAMILIES = (Laplace, Normal)
_SECOND_DPS = 22  # the second method's precision


# -- derived one-dimensional objects ---------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _laplace_sum_poly_cached(k: int) -> tuple:
    with mp.workdps(15):  # the disk cache's key holds the precision: fix it
        return tuple(sp.Rational(c) for c in _derive_sum_poly_disk(k))


def _derive_sum_poly(k: int) -> list:
    """Coefficients of ``P_k`` (density of ``L_1 + ... + L_k``, i.i.d. ``Laplace(0, 1)``, is ``e^{-z} P_k(z)``,
    ``z = |x|``), derived by SymPy: convolution of the engine's Laplace densities, split at the kinks."""
    y = sp.Symbol("y", real=True)
    x = sp.Symbol("x", positive=True)
    if k == 1:
        dens = Laplace(0, 1).pdf(x)  # exp(-x)/2 for x > 0
        poly = sp.Poly(sp.expand(dens * sp.exp(x)), x)
        return [str(poly.coeff_monomial(x**i)) for i in range(poly.degree() + 1)]
    prev = [sp.Rational(c) for c in _derive_sum_poly_disk(k - 1)]
    lk = sp.exp(-sp.Abs(y)) * sp.Add(*[c * sp.Abs(y) ** i for i, c in enumerate(prev)])
    total = sp.Integer(0)
    for lo, hi, piece in split_at_kinks(lk * Laplace(0, 1).pdf(x - y), y):
        piece = sp.powsimp(sp.expand(piece * sp.exp(x)))  # e^{x} (l_{k-1} * l_1): a polynomial times e^{a y}
        val = sp.integrate(piece, (y, lo, hi), conds="none", risch=False)
        if val.has(sp.Integral):  # pragma: no cover - SymPy integrates polynomials times exponentials
            raise ParameterError(f"SymPy could not integrate the convolution piece {piece}")
        total += val
    poly = sp.Poly(sp.expand(sp.powsimp(sp.expand(total))), x)
    return [str(poly.coeff_monomial(x**i)) for i in range(poly.degree() + 1)]


def _derive_sum_poly_disk(k: int) -> list:
    fn = _DISK.get("f")
    if fn is None:
        fn = _DISK["f"] = cached_numeric(_derive_sum_poly_entry)
    return fn(k)


def _derive_sum_poly_entry(k):
    return _derive_sum_poly(int(k))


_DISK: dict = {}


def laplace_sum_poly(k: int) -> tuple:
    """Exact coefficients (constant first) of ``P_k``: the density of a sum of ``k`` i.i.d. ``Laplace(0, 1)``
    variables is ``e^{-|x|} P_k(|x|)`` (derived by convolution; cached in memory and on disk).

    >>> laplace_sum_poly(2)
    (1/4, 1/4)
    """
    k = int(k)
    if k < 1:
        raise ParameterError(f"a sum of k Laplace variables needs k >= 1, got {k}")
    return _laplace_sum_poly_cached(k)


@functools.lru_cache(maxsize=None)
def _sum_poly_mp(k: int, r: int, prec: int) -> tuple:
    """``Q_{k,r}`` with ``d^r/dz^r [e^{-z} P_k(z)] = e^{-z} Q_{k,r}(z)`` (``z > 0``), as mpf at ``prec`` bits."""
    z = sp.Symbol("z", positive=True)
    P = sp.Add(*[c * z**i for i, c in enumerate(laplace_sum_poly(k))])
    d = sp.expand(sp.diff(P * sp.exp(-z), z, r) * sp.exp(z))
    poly = sp.Poly(d, z)
    with mp.workprec(prec):
        return tuple(to_mpf(poly.coeff_monomial(z**i)) for i in range(poly.degree() + 1))


@functools.lru_cache(maxsize=None)
def _log_mgf(family) -> tuple:
    """``(Lambda, Lambda', Lambda'', lo, hi)`` as mpmath functions of ``(t, scale)``: the log-MGF of the centred
    law (``Laplace(0, s)`` or ``Normal(0, s)``), derived by split integration, and its finiteness domain."""
    t = sp.Symbol("t", real=True)
    s = sp.Symbol("s", positive=True)
    mgf, conds = expect(family(0, s), sp.exp(t * X))
    lo, hi = interval_from_conditions(conds, t)
    lam = sp.log(sp.factor(mgf))  # no forced expansion: log(1/(1 - s^2 t^2)) stays real on the domain
    fns = [sp.lambdify((t, s), sp.diff(lam, t, j), modules="mpmath") for j in range(3)]
    lo_f = sp.lambdify((s,), lo, modules="mpmath")
    hi_f = sp.lambdify((s,), hi, modules="mpmath")
    return (*fns, lo_f, hi_f, lam, (lo, hi))


@functools.lru_cache(maxsize=None)
def _normal_density_derivs():
    """``phi_tau, phi_tau', phi_tau''`` (the centred Gaussian density of standard deviation ``tau`` and its
    x-derivatives, SymPy's), as one mpmath function of ``(x, tau)`` returning the three values."""
    tau = sp.Symbol("tau", positive=True)
    dens = Normal(0, tau).pdf(X)
    exprs = [sp.diff(dens, X, j) for j in range(3)]
    return sp.lambdify((X, tau), exprs, modules="mpmath", cse=True)


# -- the law of S = c . Y for Laplace coordinates -----------------------------------------------------
def _pf_weights(betas, mults):
    """Partial fractions ``prod_j (1 + beta_j u)^{-n_j} = sum_j sum_k w_jk (1 + beta_j u)^{-k}`` (distinct betas).

    ``w_jk`` is the coefficient of ``y^{n_j - k}`` in ``prod_{l != j} (1 - beta_l/beta_j + (beta_l/beta_j) y)^{-n_l}``
    (the expansion at the pole ``y = 1 + beta_j u = 0``).
    """
    out = []
    for j, (bj, nj) in enumerate(zip(betas, mults)):
        ser = [mp.mpf(1)] + [mp.mpf(0)] * (nj - 1)
        for l, (bl, nl) in enumerate(zip(betas, mults)):
            if l == j:
                continue
            al = (bj - bl) / bj
            ratio = -(bl / bj) / al
            base = al ** (-nl)
            fac = [base * mp.binomial(nl + r - 1, r) * ratio**r for r in range(nj)]
            ser = [mp.fsum(ser[i] * fac[q - i] for i in range(q + 1)) for q in range(nj)]
        out.append([ser[nj - k] for k in range(1, nj + 1)])
    return out


class SumLaw:
    """Densities (and x-derivatives) of sums of independent centred Laplace variables with rates ``b_j``.

    ``rates``: distinct positive rates ``b_j``; ``specs``: a list of ``(mults, r)``, each the multiplicities
    ``n_j`` of the rates in one sum (0 allowed) and the derivative order ``r``.  :meth:`values` returns the
    densities' ``r``-th derivatives at ``x``, computed with :attr:`extra` more digits than the working
    precision (measured from the partial-fraction weights: close rates cancel).
    """

    def __init__(self, rates, specs):
        self.rates = [mp.mpf(b) for b in rates]
        self.specs = [(tuple(int(n) for n in mults), int(r)) for mults, r in specs]
        dps = mp.mp.dps
        # digits lost in the weights: each close pair of rates costs -log10(gap) per unit of multiplicity
        est = 0
        for j, bj in enumerate(self.rates):
            for bl in self.rates[j + 1:]:
                gap = abs(bj * bj - bl * bl) / max(bj * bj, bl * bl)
                est += max(0, -int(mp.floor(mp.log10(gap))))
        tot = max(sum(m) for m, _ in self.specs) if self.specs else 1
        wdps = dps + 15 + est * tot
        for _attempt in range(3):
            with mp.workdps(wdps):
                tables, loss = self._tables()
            if loss + 10 <= wdps - dps:
                break
            wdps = dps + int(loss) + 25
        self.extra = max(0, int(loss)) + 8
        self.tables = tables
        self.wdps = wdps

    def _tables(self):
        prec = mp.mp.prec
        B = max(self.rates)
        tables, loss = [], 0
        for mults, r in self.specs:
            idx = [j for j, n in enumerate(mults) if n > 0]
            w = _pf_weights([self.rates[j] ** 2 for j in idx], [mults[j] for j in idx])
            per_rate = {}
            for jj, j in enumerate(idx):
                b = self.rates[j]
                acc = []
                for k, wk in enumerate(w[jj], start=1):
                    qk = _sum_poly_mp(k, r, prec)
                    sc = wk * (B / b) ** (r + 1)  # in units of the largest rate: f^(r) B^(r+1)
                    for i, q in enumerate(qk):
                        if i >= len(acc):
                            acc.append(mp.mpf(0))
                        acc[i] += sc * q
                per_rate[j] = acc
                big = max(abs(a) for a in acc) if acc else 0
                if big > 0:
                    loss = max(loss, float(mp.log10(big)))
            tables.append((per_rate, r))
        return tables, loss

    def _fixed(self):
        """Fixed-point tables: one integer row per spec over the (rate, power) pairs (fast evaluation)."""
        key = mp.mp.prec
        cache = self.__dict__.setdefault("_fx", {})
        if key not in cache:
            W = mp.mp.prec + int(3.33 * self.extra) + 20
            B = max(self.rates)
            W2 = W + 3 * max(0, int(mp.ceil(mp.log(B, 2))))  # the rows carry B^-(r+1): keep their relative digits
            with mp.workprec(W2 + 20):
                deg = [0] * len(self.rates)
                for per_rate, _r in self.tables:
                    for j, cs in per_rate.items():
                        deg[j] = max(deg[j], len(cs) - 1)
                offs, o = [], 0
                for dj in deg:
                    offs.append(o)
                    o += dj + 1
                rows = []
                for per_rate, r in self.tables:
                    row = [0] * o
                    sc = mp.mpf(B) ** -(r + 1)
                    for j, cs in per_rate.items():
                        for k, c in enumerate(cs):
                            row[offs[j] + k] = to_fixed((c * sc)._mpf_, W2)
                    rows.append((row, r % 2))
                jB = self.rates.index(B)
                inv = [1 / b for b in self.rates]
                invB = 1 / B
            cache[key] = (W, W2, rows, inv, invB, jB, deg)
        return cache[key]

    def scaled(self, x):
        """``(e^{-|x|/B}, [f_spec(x) e^{|x|/B}])``: the densities without their common exponential factor."""
        W, W2, rows, inv, invB, jB, deg = self._fixed()
        with mp.workprec(W):
            ax = abs(mp.mpf(x))
            zB = ax * invB
            V = []
            one = 1 << W
            for j, ij in enumerate(inv):
                z = ax * ij
                Z = to_fixed(z._mpf_, W)
                R = one if j == jB else to_fixed(mp.exp(zB - z)._mpf_, W)  # e^{-(z_j - z_B)} in (0, 1]
                p = R
                V.append(p)
                for _ in range(deg[j]):
                    p = (p * Z) >> W
                    V.append(p)
            eB = mp.exp(-zB)
        sh = -(W + W2)
        neg = x < 0
        out = []
        for row, odd in rows:
            acc = sum(map(mul, row, V))
            out.append(mp.mpf(from_man_exp(-acc if odd and neg else acc, sh)))
        return eB, out

    @classmethod
    def of_scales(cls, scales, r: int = 0) -> "SumLaw":
        """The law of ``sum_i Laplace(0, scales_i)`` (independent terms; equal scales grouped exactly into
        multiplicities) with one spec, the ``r``-th derivative of its density."""
        rates, mults = [], []
        for s in scales:
            s = to_mpf(s)
            if not s > 0:
                raise ParameterError(f"a sum of Laplace variables needs positive scales, got {s}")
            for j, b in enumerate(rates):
                if b == s:
                    mults[j] += 1
                    break
            else:
                rates.append(s)
                mults.append(1)
        return cls(rates, [(mults, r)])

    def values(self, x):
        """The specs' densities at ``x`` (a list of mpf, good to the working precision).

        Fixed-point integer arithmetic: ``f = e^{-z_B} sum_j e^{-(z_j - z_B)} sum_k C_jk z_j^k`` with
        ``z_j = |x|/b_j`` and ``z_B`` the smallest (the largest rate), so every factor is at most 1.
        """
        eB, out = self.scaled(x)
        return [eB * v for v in out]


def sum_density(scales, x, r: int = 0):
    """The ``r``-th derivative at ``x`` of the density of ``sum_i Laplace(0, scales_i)`` (independent terms).

    Equal scales are grouped (multiplicities); the density is the exact partial-fraction combination.

    >>> import mpmath as mp
    >>> with mp.workdps(30):
    ...     v = sum_density([1, 1], 0)   # Laplace(0,1) + Laplace(0,1) at 0: P_2(0) = 1/4
    >>> mp.nstr(v, 20)
    '0.25'
    """
    law = _sum_law(tuple(to_mpf(v) for v in scales), int(r))
    return law.values(to_mpf(x))[0]


# a law's weights and tables, made once per (scales, r) and working precision for the points of a quadrature or a
# derivative (the project's in-process memo; a SumLaw is read, never changed)
_sum_law = memo_numeric(lambda scales, r: SumLaw.of_scales(scales, r), key=lambda scales, r: (scales, r), max_size=64,
                        deepcopy=False)


# -- input -----------------------------------------------------------------------------------------
def _components(L, role: str) -> list:
    comps = list(L.components) if isinstance(L, Product) else [L]
    for i, c in enumerate(comps):
        if not isinstance(c, FAMILIES):
            raise ParameterError(f"{role}: coordinate {i + 1} must be a Laplace or Normal law for the d-dimensional "
                                 f"lin solver, got {type(c).__name__}")
        if any(not isinstance(p, mp.mpf) and sp.sympify(p).free_symbols for p in (c.loc, _scale(c))):
            raise ParameterError(f"{role}: coordinate {i + 1} has symbolic parameters; give numbers")
    return comps


def _scale(c):
    return c.scale if isinstance(c, Laplace) else c.std


def _parse_features(G, d: int):
    """``G`` as exact rows (SymPy numbers), validated: ``k >= 1`` rows of length ``d``."""
    if isinstance(G, (str, bytes)) or not hasattr(G, "__iter__"):
        raise ParameterError("features must be a k x d matrix given as a list of rows")
    rows = []
    for row in G:
        if isinstance(row, (str, bytes)) or not hasattr(row, "__iter__"):
            raise ParameterError("features must be a k x d matrix given as a list of rows (lists of numbers)")
        out = []
        for e in row:
            if isinstance(e, float):
                raise ParameterError("features: entries must be exact numbers (int, Fraction, SymPy, '1/2'), "
                                     f"got the float {e!r}")
            if isinstance(e, str):
                val = parse_number(e, "a feature entry")
            else:
                try:
                    val = sp.nsimplify(e) if not isinstance(e, sp.Basic) else e
                except (sp.SympifyError, TypeError, ValueError):
                    raise ParameterError(f"features: {e!r} is not a number") from None
            val = sp.sympify(val)
            if val.free_symbols or not val.is_number or val.is_real is False or val.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
                raise ParameterError(f"features: {e!r} is not a finite real number")
            out.append(val)
        rows.append(out)
    if not rows:
        raise ParameterError("features: the matrix needs at least one row")
    for i, r in enumerate(rows):
        if len(r) != d:
            raise ParameterError(f"features: row {i + 1} has {len(r)} entries, the laws have dimension {d}")
    return rows


def _same(x, y) -> bool:
    """Equality of two parameters decided at high precision (effectively exact for the symmetry reduction)."""
    with mp.workdps(2 * mp.mp.dps + 40):
        a, b = to_mpf(x), to_mpf(y)
        return abs(a - b) <= mp.mpf(10) ** (-(2 * mp.mp.dps + 20)) * (1 + abs(a) + abs(b))


class _Setup:
    """The data of one problem: shifts, scales, families and the map ``theta -> c = M theta``."""

    def __init__(self, P, Q, features):
        pc, qc = _components(P, "P"), _components(Q, "Q")
        if len(pc) != len(qc):
            raise ParameterError(f"P has dimension {len(pc)} and Q has dimension {len(qc)}")
        self.d = d = len(pc)
        self.pc, self.qc = pc, qc
        self.family = ["laplace" if isinstance(c, Laplace) else "normal" for c in qc]
        self.dv = [sp.sympify(q.loc) - sp.sympify(p.loc) if not any(isinstance(z, mp.mpf) for z in (p.loc, q.loc))
                   else None for p, q in zip(pc, qc)]
        self.features = None if features is None else _parse_features(features, d)
        self.notes = []
        if self.features is None:
            self._groups()
        else:
            k = len(self.features)
            self.k = k
            self.groups = None
            self.Mexact = [[self.features[j][i] for j in range(k)] for i in range(d)]  # G^T
            self.p = k

    def _groups(self):
        """Group coordinates by (family, scale, |v|); drop v_i = 0 (optimum c_i = 0)."""
        d = self.d
        groups, zero = [], []
        for i in range(d):
            if _same(self._abs_v(i), 0):
                zero.append(i)
                continue
            for g in groups:
                j = g[0]
                if (self.family[i] == self.family[j] and _same(_scale(self.qc[i]), _scale(self.qc[j]))
                        and _same(self._abs_v(i), self._abs_v(j))):
                    g.append(i)
                    break
            else:
                groups.append([i])
        self.groups = groups
        self.k = d
        self.p = len(groups)
        M = [[0] * self.p for _ in range(d)]
        for gi, g in enumerate(groups):
            for i in g:
                M[i][gi] = 1 if to_mpf(self._v_exact(i)) > 0 else -1
        self.Mexact = M
        if zero:
            self.notes.append("symmetry: coordinates " + ", ".join(str(i + 1) for i in zero)
                              + " have zero shift; c_i -> -c_i leaves the objective invariant there, so the optimum "
                                "has c_i = 0")
        multi = [g for g in groups if len(g) > 1]
        if multi:
            self.notes.append("symmetry: coordinates with the same law of Y_i and the same |v_i| are permutable "
                              "(with the signs of v_i); by strict convexity the optimum has c_i = sign(v_i) gamma_g on "
                              "each group: groups "
                              + "; ".join("{" + ", ".join(str(i + 1) for i in g) + "}" for g in multi))
        self.notes.append(f"reduced coordinates: gamma (one per group of coordinates, {self.p} in all), "
                          "c_i = sign(v_i) gamma_g(i)")

    def _abs_v(self, i):
        v = self._v_exact(i)
        return abs(v) if isinstance(v, mp.mpf) else sp.Abs(v)

    def _v_exact(self, i):
        if self.dv[i] is not None:
            return self.dv[i]
        return to_mpf(self.qc[i].loc) - to_mpf(self.pc[i].loc)

    def mp(self):
        """Numeric data at the current precision: ``(M, v, s, muP, muQ)``."""
        M = [[to_mpf(e) for e in row] for row in self.Mexact]
        v = [to_mpf(self._v_exact(i)) for i in range(self.d)]
        s = [to_mpf(_scale(c)) for c in self.qc]
        muP = [to_mpf(c.loc) for c in self.pc]
        muQ = [to_mpf(c.loc) for c in self.qc]
        return M, v, s, muP, muQ

    def c_of(self, M, theta):
        return [mp.fdot(row, theta) if self.p else mp.mpf(0) for row in M]

    def coefficients(self, M, theta) -> list:
        """The class coefficients ``a`` (``a = theta`` with features, ``a = c`` for lin)."""
        if self.features is not None:
            return list(theta)
        return self.c_of(M, theta)


# -- linear algebra --------------------------------------------------------------------------------
def _matT_vec(M, g, p):
    return [mp.fsum(M[i][a] * g[i] for i in range(len(M))) for a in range(p)]


def _matT_H_mat(M, H, p):
    d = len(M)
    MH = [[mp.fsum(M[i][a] * H[i][j] for i in range(d)) for j in range(d)] for a in range(p)]
    return [[mp.fsum(MH[a][j] * M[j][b] for j in range(d)) for b in range(p)] for a in range(p)]


def _definite(H, sign) -> bool:
    """Definiteness beyond rounding (:func:`optimize.definite` with ``rtol = 10^{-dps/2}``)."""
    return definite(H, sign, rtol=mp.mpf(10) ** (-(mp.mp.dps // 2)))


_FAR = (4, 16)


def _breaks(m, B, A, fam):
    """Breakpoints in ``y`` for ``int |y|^A f(y - m) dy``: the zero of ``h`` (0), the density's kink ``m``,
    ``m +- B``, points from ``m`` towards 0 (geometric in ``B``), and the peaks of ``|y|^A f(y - m)`` on both
    sides (``|y| = A B`` for Laplace terms of scale ``B``; the roots of ``y^2 - m y - A B^2`` for a Gaussian),
    with points at their widths.  Points ``+-B/4`` keep the pieces next to 0 finite."""
    pts = {mp.mpf(0), m, m + B, m - B}
    sg = 1 if m >= 0 else -1
    k = 4
    while k * B < abs(m):  # towards the zero of h: the density keeps its scale B
        pts.add(m - sg * k * B)
        k *= 4
    for k in _FAR:  # away from the zero of h: the tail (slowly decaying when A is large)
        pts.add(m + sg * k * B)
    if fam == "laplace":
        peaks = [y for y in (A * B, -A * B) if (y > max(m, 0) + B or y < min(m, 0) - B)]
        width = mp.sqrt(A) * B
    else:
        r = mp.sqrt(m * m + 4 * A * B * B)
        peaks = [(m + r) / 2, (m - r) / 2]
        width = B
    for y in peaks:
        for w in (0, 2, -2):
            pts.add(y + w * width)
    if not any(p < 0 for p in pts) or max(p for p in pts if p < 0) < -B:
        pts.add(-B / 4)
    if not any(p > 0 for p in pts) or min(p for p in pts if p > 0) > B:
        pts.add(B / 4)
    return sorted(pts)


# -- the power problem: F(theta) = E_Q |1 + c . (x - mu_P)|^A ------------------------------------------
_RAW = True  # (tests switch the raw-value integrands off to compare them with the generic ones)


def _raw_power_integrands(fy, ft, A, e, A1, B, m, dens, ncomp, order, n):
    """``fy`` and ``ft`` of :meth:`_PowerProblem._integrate` (with their ``comps``) on raw mpmath values: the same
    operations in the same order, at the precision and rounding they are called at, so the same bits
    (``tests/restricted/test_products.py`` compares them); only the Python-level mpf objects of the intermediate
    values are skipped.  ``dens`` is called as before; ``n``: the number of distinct Laplace rates (``None`` for
    a Gaussian sum).  The generic integrands stay reachable as ``.generic``."""
    ctx = mp.mp
    make = ctx.make_mpf
    mul, div, add, sub = _lm.mpf_mul, _lm.mpf_div, _lm.mpf_add, _lm.mpf_sub
    A_, e_, A1_, B_, m_ = A._mpf_, e._mpf_, A1._mpf_, B._mpf_, m._mpf_
    fone, fzero = _lm.fone, _lm.fzero
    zeros = [ctx.zero] * ncomp

    def comps(g0, g1, g2, dv, prec, rnd):
        f0 = dv[0]._mpf_
        if order == 0:
            return [make(mul(g0, f0, prec, rnd))]
        out = [mul(g0, f0, prec, rnd), mul(g1, f0, prec, rnd)]
        if n is not None:
            out += [mul(g2, dv[1 + j]._mpf_, prec, rnd) for j in range(n)]
            if order >= 2:
                out.append(mul(g2, f0, prec, rnd))
                out += [mul(g2, dv[1 + n + j]._mpf_, prec, rnd) for j in range(n)]
                out += [mul(g2, w._mpf_, prec, rnd) for w in dv[1 + 2 * n:]]
        else:
            out.append(mul(g2, f0, prec, rnd))
            if order >= 2:
                out += [mul(g2, dv[1]._mpf_, prec, rnd), mul(g2, dv[2]._mpf_, prec, rnd)]
        return [make(v) for v in out]

    def fy_raw(u):
        prec, rnd = ctx._prec_rounding
        y = mul(B_, u._mpf_, prec, rnd)
        fac, dv = dens(make(sub(y, m_, prec, rnd)))
        lg = _lm.mpf_log(_lm.mpf_abs(y, prec, rnd), prec, rnd)
        g0 = mul(mul(_lm.mpf_exp(mul(A_, lg, prec, rnd), prec, rnd), B_, prec, rnd), fac._mpf_, prec, rnd)
        return comps(g0, div(mul(A_, g0, prec, rnd), y, prec, rnd),
                     div(mul(A1_, g0, prec, rnd), mul(y, y, prec, rnd), prec, rnd), dv, prec, rnd)

    def ft_raw(t):
        tv = t._mpf_
        if tv == fzero:
            return list(zeros)
        prec, rnd = ctx._prec_rounding
        lg = _lm.mpf_log(_lm.mpf_abs(tv, prec, rnd), prec, rnd)
        ay = _lm.mpf_exp(mul(e_, lg, prec, rnd), prec, rnd)
        y = ay if not tv[0] else _lm.mpf_neg(ay, prec, rnd)
        fac, dv = dens(make(sub(y, m_, prec, rnd)))
        f_ = fac._mpf_
        return comps(mul(mul(mul(e_, y, prec, rnd), y, prec, rnd), f_, prec, rnd),
                     mul(mul(add(e_, fone, prec, rnd), y, prec, rnd), f_, prec, rnd), mul(A_, f_, prec, rnd),
                     dv, prec, rnd)

    fy_raw.generic, ft_raw.generic = fy, ft
    return fy_raw, ft_raw


class _PowerProblem:
    def __init__(self, setup: _Setup, A):
        self.setup = setup
        self.A = to_mpf(A)
        self.e = 1 / (self.A - 1)  # alpha - 1: y = t^e near the zero of h
        self.M, self.v, self.s, self.muP, self.muQ = setup.mp()
        self.p = setup.p
        fams = {setup.family[i] for i in range(setup.d) if any(x != 0 for x in self.M[i])}
        if len(fams) > 1:
            raise ParameterError("the alpha-divergence solver needs Q's active coordinates all Laplace or all Normal "
                                 "(mixed Laplace/Normal products are not supported)")
        self.fam = fams.pop() if fams else "laplace"
        self.kappa = mp.mpf(1) if self.fam == "laplace" else mp.mpf(1) / 2
        self.ref = mp.mpf(1)  # magnitude of F for the quadrature's stopping rule (updated as F is computed)

    def start(self):
        """The exact minimiser at ``A = 2``: ``min (1 + c.v)^2 + c^T D c`` over ``c = M theta`` (``D = Var(Y)``)."""
        M, v, s, p = self.M, self.v, self.s, self.p
        if p == 0:
            return []
        var = [(2 if self.setup.family[i] == "laplace" else 1) * s[i] ** 2 for i in range(len(v))]
        u = _matT_vec(M, v, p)
        K = _matT_H_mat(M, [[var[i] if i == j else 0 for j in range(len(v))] for i in range(len(v))], p)
        for a in range(p):
            for b in range(p):
                K[a][b] += u[a] * u[b]
        return _solve_sym(K, u)

    # the integrals ---------------------------------------------------------------------------------
    def _integrate(self, m, B, dens, ncomp, order, loose):
        """Integrate ``[g-weights x densities]`` over the line; ``dens(x)`` gives the density values."""
        A, e = self.A, self.e

        def comps(gw, dv):
            g0, g1, g2 = gw
            f0 = dv[0]
            if order == 0:
                return [g0 * f0]
            out = [g0 * f0, g1 * f0]
            if self.fam == "laplace":
                n = self._n
                out += [g2 * dv[1 + j] for j in range(n)]  # A_j = int g'' f_{S+j}
                if order >= 2:
                    out.append(g2 * f0)  # I2
                    out += [g2 * dv[1 + n + j] for j in range(n)]  # B_j = int g'' f'_{S+j}
                    out += [g2 * w for w in dv[1 + 2 * n:]]  # C_jl = int g'' f''_{S+j+l}
            else:
                out.append(g2 * f0)
                if order >= 2:
                    out += [g2 * dv[1], g2 * dv[2]]
            return out

        A1 = A * (A - 1)

        def fy(u):  # y = B u, away from the zero of h (dy = B du)
            y = B * u
            fac, dv = dens(y - m)
            g0 = mp.exp(A * mp.log(abs(y))) * B * fac
            return comps((g0, A * g0 / y, A1 * g0 / (y * y)), dv)

        def ft(t):  # y = sign(t) |t|^e next to the zero of h: g dy = e y^2 dt, g' dy = (e+1) y dt, g'' dy = A dt
            if t == 0:
                return [mp.mpf(0)] * ncomp
            ay = mp.exp(e * mp.log(abs(t)))
            y = ay if t > 0 else -ay
            fac, dv = dens(y - m)
            return comps((e * y * y * fac, (e + 1) * y * fac, A * fac), dv)

        if _RAW and all(isinstance(v, mp.mpf) for v in (A, e, A1, B, m)):
            fy, ft = _raw_power_integrands(fy, ft, A, e, A1, B, m, dens, ncomp, order,
                                           self._n if self.fam == "laplace" else None)
        pts = _breaks(m, B, A, self.fam)
        neg = [p for p in pts if p < 0]
        pos = [p for p in pts if p > 0]
        pm, pp = neg[-1], pos[0]
        inv = 1 / e  # t = |y|^{1/e} = |y|^{A-1}
        ref = self.ref
        tot = vquad(ft, [-mp.exp(inv * mp.log(-pm)), mp.mpf(0), mp.exp(inv * mp.log(pp))], ncomp, ref, loose)
        left = vquad(fy, [-mp.inf] + [p / B for p in neg], ncomp, ref, loose)
        right = vquad(fy, [p / B for p in pos] + [mp.inf], ncomp, ref, loose)
        out = [a + b + c for a, b, c in zip(tot, left, right)]
        if out[0] > 0:
            self.ref = min(mp.mpf(1), out[0])
        return out

    def evaluate(self, theta, order=2):
        """``(F, grad F, Hess F)`` in ``theta`` (``None`` below ``order``)."""
        M, v, s = self.M, self.v, self.s
        A = self.A
        d = len(v)
        c = self.setup.c_of(M, theta)
        m = 1 + mp.fdot(c, v)
        active = [i for i in range(d) if c[i] != 0]
        if not active:  # S = 0: a point mass at m
            am = abs(m)
            g0 = am**A
            g1 = A * am ** (A - 1) * mp.sign(m)
            g2 = A * (A - 1) * am ** (A - 2)
            I = {"F": g0, "m": g1, "mm": g2}
            phib = {i: self.kappa * g2 for i in range(d)}
            return self._assemble(theta, c, I, phib, {}, {}, order)
        if self.fam == "laplace":
            rates, jof = [], {}
            merge = mp.mpf(10) ** (-(mp.mp.dps + 5) / 2)
            for i in sorted(active, key=lambda i: abs(c[i]) * s[i]):
                b = abs(c[i]) * s[i]
                if rates and abs(b - rates[-1][0]) <= merge * b:
                    rates[-1][1].append(i)
                else:
                    rates.append([b, [i]])
            # merged rates: the mean (a symmetric function of the rates moves by O(gap^2))
            rb = [mp.fsum(abs(c[i]) * s[i] for i in ids) / len(ids) for _b, ids in rates]
            for j, (_b, ids) in enumerate(rates):
                for i in ids:
                    jof[i] = j
            n = len(rb)
            self._n = n
            base = [len(ids) for _b, ids in rates]
            specs = [(base, 0)]
            if order >= 1:
                specs += [([bj + (1 if jj == j else 0) for jj, bj in enumerate(base)], 0) for j in range(n)]
            pairs = []
            if order >= 2:
                specs += [([bj + (1 if jj == j else 0) for jj, bj in enumerate(base)], 1) for j in range(n)]
                for j in range(n):
                    for l in range(j, n):
                        pairs.append((j, l))
                        specs.append(([bj + (jj == j) + (jj == l) for jj, bj in enumerate(base)], 2))
            law = SumLaw(rb, specs)
            B = max(rb)
            ncomp = 1 if order == 0 else 2 + n + ((1 + n + len(pairs)) if order >= 2 else 0)
            loose = (1 + n + len(pairs)) if order >= 2 else 0
            vals = self._integrate(m, B, law.scaled, ncomp, order, loose)
            I = {"F": vals[0]}
            phib, phimb, phibb = {}, {}, {}
            if order >= 1:
                I["m"] = vals[1]
                Aj = vals[2:2 + n]
                for i in range(d):
                    phib[i] = Aj[jof[i]] if i in jof else None
            if order >= 2:
                I["mm"] = vals[2 + n]
                Bj = vals[3 + n:3 + 2 * n]
                Cjl = dict(zip(pairs, vals[3 + 2 * n:]))
                for i in range(d):
                    if phib[i] is None:
                        phib[i] = I["mm"]  # beta_i = 0: d/dbeta_i f_S = f_S''
                for i in active:
                    phimb[i] = -Bj[jof[i]]
                    for k in active:
                        j, l = sorted((jof[i], jof[k]))
                        phibb[i, k] = (2 if i == k else 1) * Cjl[j, l]
            return self._assemble(theta, c, I, phib, phimb, phibb, order)
        # Gaussian: S ~ N(0, tau^2)
        tau = mp.sqrt(mp.fsum((c[i] * s[i]) ** 2 for i in active))
        fn = _normal_density_derivs()
        one = mp.mpf(1)
        dens = (lambda x: (one, fn(x, tau))) if order >= 2 else (lambda x: (one, [fn(x, tau)[0]]))
        ncomp = 1 if order == 0 else (3 if order == 1 else 5)
        vals = self._integrate(m, tau, dens, ncomp, order, 2 if order >= 2 else 0)
        I = {"F": vals[0]}
        phib, phimb, phibb = {}, {}, {}
        if order >= 1:
            I["m"] = vals[1]
            I["mm"] = vals[2]
            for i in range(d):
                phib[i] = vals[2] / 2
        if order >= 2:
            for i in active:
                phimb[i] = -vals[3] / 2
                for k in active:
                    phibb[i, k] = vals[4] / 4
        return self._assemble(theta, c, I, phib, phimb, phibb, order)

    def _assemble(self, theta, c, I, phib, phimb, phibb, order):
        """Chain rule ``Phi(m, beta) -> c -> theta``: ``m = 1 + c.v``, ``beta_i = c_i^2 s_i^2``."""
        v, s, M, p = self.v, self.s, self.M, self.p
        d = len(v)
        F = I["F"]
        if order == 0:
            return F, None, None
        gc = [I["m"] * v[i] + (2 * c[i] * s[i] ** 2 * phib[i] if c[i] != 0 else 0) for i in range(d)]
        g = _matT_vec(M, gc, p)
        if order == 1:
            return F, g, None
        Hc = [[mp.mpf(0)] * d for _ in range(d)]
        for i in range(d):
            for k in range(d):
                h = I["mm"] * v[i] * v[k]
                if c[k] != 0:
                    h += phimb[k] * v[i] * 2 * c[k] * s[k] ** 2
                if c[i] != 0:
                    h += phimb[i] * v[k] * 2 * c[i] * s[i] ** 2
                if c[i] != 0 and c[k] != 0:
                    h += phibb[i, k] * 4 * c[i] * c[k] * s[i] ** 2 * s[k] ** 2
                if i == k:
                    h += 2 * s[i] ** 2 * phib[i]
                Hc[i][k] = h
        return F, g, _matT_H_mat(M, Hc, p)


# -- the exp problem: J(theta) = -c . v - sum_i Lambda_i(c_i) ---------------------------------------------
class _ExpProblem:
    def __init__(self, setup: _Setup):
        self.setup = setup
        self.M, self.v, self.s, self.muP, self.muQ = setup.mp()
        self.p = setup.p
        self.fns = [_log_mgf(Laplace if f == "laplace" else Normal) for f in setup.family]

    def feasible(self, theta) -> bool:
        c = self.setup.c_of(self.M, theta)
        for ci, si, fn in zip(c, self.s, self.fns):
            lo, hi = fn[3](si), fn[4](si)
            if not (lo < ci < hi):
                return False
        return True

    def log_terms(self, theta):
        c = self.setup.c_of(self.M, theta)
        return c, [fn[0](ci, si) for ci, si, fn in zip(c, self.s, self.fns)]

    def evaluate(self, theta, order=2):
        """``(J, grad J, Hess J)`` (maximised)."""
        c, lam = self.log_terms(theta)
        J = -mp.fdot(c, self.v) - mp.fsum(lam)
        if order == 0:
            return J, None, None
        gc = [-self.v[i] - fn[1](c[i], self.s[i]) for i, fn in enumerate(self.fns)]
        g = _matT_vec(self.M, gc, self.p)
        if order == 1:
            return J, g, None
        d = len(c)
        Hc = [[(-fn[2](c[i], self.s[i]) if i == k else mp.mpf(0)) for k in range(d)] for i, fn in enumerate(self.fns)]
        return J, g, _matT_H_mat(self.M, Hc, self.p)


# -- Newton (cbdp_sym.calculus.optimize) --------------------------------------------------------------------------
def _newton(prob, theta, sense, tol, max_iter=60, feasible=None):
    """Maximise ``sense * F`` by Newton's method with backtracking (:func:`optimize.newton`: the pseudo-inverse
    step, the step-size stopping rule); returns ``(theta, F, g, H, iterations, ok)``."""
    r = newton(prob.evaluate, theta, tol, sense=sense, max_iter=max_iter, feasible=feasible, solve="pinv",
               stop="step", noise_digits=4, halvings=60, lazy=True)
    return r.theta, r.value, r.gradient, r.hessian, r.iterations, r.converged


def _ramp(make, start, sense, dps, feasible_of=None, extra_of=None):
    """Precision ramp (:func:`optimize.ramp_stages`, no middle stage): Newton at 15 digits from ``start`` to
    ``10^-11``, then polished at ``dps`` (Newton's quadratic convergence takes ``10^-11`` past the target in one
    or two steps; a middle stage at about half the target cost two more evaluations and changed no digit);
    each stage stops when its maximiser is good to its precision (the target: to ``10^{-(dps/2 + 2)}``, enough
    for the value to ``dps`` digits).  ``extra_of(run)``: digits the target needs beyond ``dps``, read off the
    15-digit stage's run (a value that cancels near the optimum); the polish then runs at ``dps + extra`` at once.
    Returns ``(run, problem, iterations)``."""
    state = {"prob": None, "iters": 0}

    def stage(theta, sd, last):
        ref = getattr(state["prob"], "ref", None)
        prob = state["prob"] = make()
        if ref is not None:
            prob.ref = mp.mpf(ref)
        th = [mp.mpf(t) for t in (start(prob) if theta is None else theta)]
        tol = mp.mpf(10) ** (-(sd // 2 + 2) if last else -(sd - 4))
        run = _newton(prob, th, sense, tol, 80 if theta is None else 20, feasible_of(prob) if feasible_of else None)
        state["iters"] += run[4]
        return run[0], run

    stages = ramp_stages(dps, 15, middle=False)
    if extra_of is None or len(stages) < 2:
        run = precision_ramp(stage, None, stages)[-1]
    else:
        first = precision_ramp(stage, None, stages[:1])[-1]
        run = precision_ramp(stage, first[0], [stages[-1] + extra_of(first)])[-1]
    return run, state["prob"], state["iters"]


# -- the second method: the full objective by BFGS ---------------------------------------------------
def _second(setup: _Setup, gen, params, kind, theta0, b0, dps2):
    """``max_{theta, w} E_P[h] - E_Q[f^*(h)]``, ``h = w + c . (x - mu_Q)``, by BFGS (forward-difference gradients).

    ``f^*`` is the engine's derived conjugate (:meth:`Generator.conj_mp`), ``E_Q[f^*(h)] = int f^*(w + x) f_S(x) dx``
    with ``w = b + c . mu_Q`` by quadrature against the law of ``S = c . Y`` (the engine's Gaussian density, or
    the Laplace-sum density).  A precision ramp: BFGS at 12 digits, then at ``dps2`` from there (the inverse
    Hessian carried over).  Returns the maximum (or ``None`` for mixed families).
    """
    conj = gen.conj_mp(0)
    pvals = [to_mpf(params[str(p)]) for p in gen.params]

    def make():
        M, v, s, muP, muQ = setup.mp()
        fams = {setup.family[i] for i in range(setup.d) if any(x != 0 for x in M[i])}
        if len(fams) > 1:
            return None
        fam = fams.pop() if fams else "laplace"
        pv = [to_mpf(q) for q in pvals]

        def objective(z):  # h = w + c . (x - mu_Q): w and c are nearly uncorrelated (better conditioned)
            theta, w = z[:-1], z[-1]
            c = setup.c_of(M, theta)
            act = [i for i in range(setup.d) if c[i] != 0]
            if kind == "exp" and fam == "laplace" and any(abs(c[i]) * s[i] >= 1 for i in act):
                return -mp.inf  # E_Q e^{h} is infinite
            EP = w - mp.fdot(c, v)
            if not act:
                return EP - conj(w, *pv)
            if fam == "laplace":
                rates, mult = [], []
                for i in sorted(act, key=lambda i: abs(c[i]) * s[i]):
                    bi = abs(c[i]) * s[i]
                    if rates and abs(bi - rates[-1]) <= mp.mpf(10) ** (-(mp.mp.dps + 5) / 2) * bi:
                        mult[-1] += 1
                    else:
                        rates.append(bi)
                        mult.append(1)
                law = SumLaw(rates, [(mult, 0)])
                B = max(rates)

                def dens(x):
                    e, v = law.scaled(x)
                    return e * v[0]
            else:
                B = mp.sqrt(mp.fsum((c[i] * s[i]) ** 2 for i in act))
                dens = Normal(0, B).mp_pdf
            L = B
            if kind == "exp" and fam == "laplace":
                L = max(B, B / (1 - B))  # the tilted density e^x f_S(x) decays at rate 1/B - 1
            pts = sorted({mp.mpf(0), -w, 2 * L, -2 * L})
            val = vquad(lambda x: [conj(w + x, *pv) * dens(x)], [-mp.inf, *pts, mp.inf], 1)[0]
            return EP - val

        return objective

    with mp.workdps(dps2):
        M0, v0, _s, muP0, muQ0 = setup.mp()
        c0 = setup.c_of(M0, [mp.mpf(t) for t in theta0])
        w0 = mp.mpf(b0) + mp.fdot(c0, muQ0)
    z = [mp.mpf(t) for t in theta0] + [w0]

    def stage(x, sd, _last):
        z, Hinv = x
        f = make()
        if f is None:
            return None, None
        if Hinv is None:
            z = _ray_max(f, z)
            Hinv = _fd_inverse_hessian(f, z)
        run = _bfgs_max(f, [mp.mpf(t) for t in z], sd, Hinv)
        return (run.theta, run.hessian), run.value

    return precision_ramp(stage, (z, None), [10, dps2])[-1]


def _ray_max(f, z):
    """The best multiple ``lambda z`` (golden section on ``log lambda``): a start at the right scale."""
    lo, hi = mp.mpf(-30), mp.mpf(30)

    def phi(u):
        v = f([mp.exp(u) * t for t in z])
        return v if mp.isfinite(v) else -mp.inf

    a, b, _ = golden_section(phi, lo, hi, iters=18)
    lam = mp.exp((a + b) / 2)
    return [lam * t for t in z] if phi((a + b) / 2) >= f(z) else list(z)


def _fd_inverse_hessian(f, z):
    """``-H^{-1}`` from a central-difference Hessian of ``f`` at ``z`` (an initial BFGS matrix); identity if not
    negative definite."""
    n = len(z)
    h = [mp.mpf(10) ** -3 * (1 + abs(t)) for t in z]
    f0 = f(z)

    def at(i, si, j=None, sj=0):
        x = list(z)
        x[i] += si * h[i]
        if j is not None:
            x[j] += sj * h[j]
        return f(x)

    fp = [at(i, 1) for i in range(n)]
    fm = [at(i, -1) for i in range(n)]
    H = [[mp.mpf(0)] * n for _ in range(n)]
    for i in range(n):
        H[i][i] = (fp[i] - 2 * f0 + fm[i]) / h[i] ** 2
        for j in range(i + 1, n):
            H[i][j] = H[j][i] = (at(i, 1, j, 1) - fp[i] - fp[j] + f0) / (h[i] * h[j])
    if not all(mp.isfinite(x) for row in H for x in row) or not _definite(H, -1):
        return None
    Hi = mp.inverse(mp.matrix(H))
    return [[-Hi[i, j] for j in range(n)] for i in range(n)]


def _bfgs_max(f, x, dps, Hinv=None, max_iter=100):
    """Maximise ``f`` by BFGS with forward-difference gradients (step ``10^{-dps/2}``) and Armijo backtracking;
    stops when a step is below ``10^{-(dps/2 - 1)}`` (the value's error is quadratic in it):
    :func:`optimize.bfgs`."""
    return bfgs(f, x, hinv0=Hinv, fd_step=mp.mpf(10) ** (-(dps // 2)), xtol=mp.mpf(10) ** (-(dps // 2 - 1)),
                max_iter=max_iter)


# -- the entry point -------------------------------------------------------------------------------
def restricted_lin_product(divergence, P, Q, alpha=None, second=True, features=None):
    """The restricted divergence ``D^H(P, Q)`` for product laws and ``H = {a . (G x) + b}`` (``G = I``: lin).

    ``P``, ``Q``: :class:`~cbdp_sym.laws.distributions.Product` laws (or one-dimensional laws) of the same
    dimension with Laplace or Normal coordinates, numeric parameters.  ``divergence``: ``kl``,
    ``alpha`` (CBDP's alpha-divergence, generator ``(|t|^alpha - 1)/(alpha^2 - alpha)`` on all of R),
    ``renyi`` (through Eq. (3)) or ``tv``.  ``features``: ``None`` or a ``k x d`` matrix ``G`` of exact
    numbers (rows).  Computed at the working precision ``mp.mp.dps``.

    Returns a :class:`cbdp_sym.restricted.solver.RestrictedResult`: ``value`` (Rényi through Eq. (3) for
    ``renyi``), ``f_value`` (the restricted f-divergence), ``optimum = [b, a_1, ..., a_k]`` (the
    maximising ``h = b + a . G x``; ``a`` in the original coordinates, ``k = d`` for lin),
    ``gradient_norm`` and ``hessian`` of the reduced problem actually solved (see ``notes``),
    ``negative_definite``, ``second_method_digits`` / ``second_value`` (when ``second``), ``notes``.
    """
    gen, params, renyi = generator_for(divergence, alpha)
    for L, role in ((P, "P"), (Q, "Q")):
        if not isinstance(L, Distribution):
            raise ParameterError(f"{role} must be a law (a Product of Laplace/Normal coordinates), got {L!r}")
    if any(not sp.sympify(v).is_finite for v in params.values()):
        raise ParameterError("alpha = inf is not supported by the d-dimensional lin solver (give a finite alpha > 1)")
    setup = _Setup(P, Q, features)
    st, prof = structure_and_profile(gen, params)
    if st.kind not in ("bounded", "exp", "power"):  # pragma: no cover - every engine generator is one of these
        raise ParameterError(f"no d-dimensional solver for the conjugate of {gen.key}")
    name = str(divergence).strip().lower()
    cls = "lin" if features is None else "lin(G)"
    dps = mp.mp.dps
    notes = []
    if features is not None:
        notes.append(f"class {{a . G x + b}} with G of size {setup.k} x {setup.d}: only c = G^T a enters; "
                     "reduced coordinates: a itself (no symmetry reduction)")
    notes.append(f"d = {setup.d}; only the means of P enter a linear class (v = mu_Q - mu_P)")
    k = setup.k

    if st.kind == "bounded":
        notes.append("the conjugate has a bounded domain: on a full-support Q only constant h are feasible, "
                     "and the best constant gives f(1) = 0")
        zero = [[mp.mpf(0)] * k for _ in range(k)]
        return RestrictedResult(name, cls, mp.mpf(0), mp.mpf(0), [mp.mpf(0)] * (k + 1), mp.mpf(0), zero, False,
                                notes=notes)
    notes += setup.notes

    if st.kind == "exp":
        V = prof.value_of_z
        if sp.simplify(V + sp.log(Z_)) != 0:  # pragma: no cover - only C e^s with V = -log Z is known
            raise ParameterError(f"no d-dimensional solver for the profile V(Z) = {V}")
        notes.append("KL-type conjugate C e^s: the constant is eliminated exactly (Lemma 1's step), V(Z) = -log Z; "
                     "J(c) = c . mu_P - log E_Q e^{c . x} = -c . v - sum_i Lambda_i(c_i), Lambda_i the derived "
                     "log-MGF of the centred coordinate (independence)")
        if features is None:
            notes.append("G = I: J is a sum of one-dimensional problems in c_i (separable)")
        notes.append("gradient and Hessian are those of J in the reduced coordinates")
        if setup.p == 0:
            run = ([], mp.mpf(0), [], [], 0, True)
            prob = _ExpProblem(setup)
            iters = 0
        else:
            run, prob, iters = _ramp(lambda: _ExpProblem(setup), lambda pr: [0] * setup.p, 1, dps + 5,
                                     feasible_of=lambda pr: pr.feasible)
        with mp.workdps(dps + 5):
            theta, J, g, H, _, ok = run
            prob = _ExpProblem(setup) if setup.p else prob
            c, lam = prob.log_terms(theta) if setup.p else ([mp.mpf(0)] * setup.d, [mp.mpf(0)] * setup.d)
            # extra digits where log(1 - s^2 c^2) and friends cancel (small shifts)
            small = [abs(t) for t in lam if t != 0]
            extra = max([0] + [int(mp.ceil(-mp.log10(t))) for t in small if t < mp.mpf("0.01")])
        if extra:
            with mp.workdps(dps + 5 + extra):
                prob = _ExpProblem(setup)
                run = _newton(prob, theta, 1, mp.mpf(10) ** (-(dps // 2 + 3)), 10, prob.feasible)
                theta, J, g, H, _, ok = run
        with mp.workdps(dps + 5 + extra):
            prob = _ExpProblem(setup)
            c, lam = prob.log_terms(theta)
            logZ = mp.fdot(c, prob.muQ) + mp.fsum(lam)
            b = _intercept_exp(prof, logZ)
            a = setup.coefficients(prob.M, theta)
        fval = +J
        res = _certified(name, cls, fval, fval, [b] + list(a), g, H, iters, notes, ok, setup.p)
        if second and setup.p:
            sv = _second(setup, gen, params, "exp", [0] * setup.p, 1, _SECOND_DPS + extra)
            _attach_second(res, sv, fval, dps)
            notes.append("second method: BFGS on the unprofiled E_P[h] - E_Q[e^{h-1}], h = w + c . (x - mu_Q), in "
                         "(reduced coefficients, w), E_Q by quadrature against the 1-D law of c . Y "
                         "(no MGF closed form)")
        return res

    # power
    A = st.A
    al = to_mpf(st.alpha)
    notes.append("alpha-divergence conjugate C|s|^A + K: the scale is eliminated exactly (Lemma 5's step); "
                 "M = min E_Q|h|^A over h = 1 + c . (x - mu_P) (E_P[h] = 1), D = V(M), D_R = -log M")
    notes.append("E_Q|h|^A from the exact 1-D law of S = c . Y: "
                 + ("Gaussian N(0, sum c_i^2 sigma_i^2)" if all(f == "normal" for f in setup.family)
                    else "sum of Laplace terms, density by partial fractions of its characteristic function"))
    notes.append("gradient and Hessian are those of -M in the reduced coordinates")
    f_of_m = sp.lambdify(M_, prof.value_of_m, modules="mpmath")
    r_of_m = sp.lambdify(M_, prof.renyi_of_m, modules="mpmath")
    lam_of_m = sp.lambdify(M_, prof.scale_of_m, modules="mpmath")
    with mp.workdps(20):
        probe = _PowerProblem(setup, A)  # validates the families
    if setup.p == 0:
        run = ([], mp.mpf(1), [], [], 0, True)
        iters = 0
        extra = 0
    else:
        def extra_of(r):  # M close to 1: -log M and V(M) cancel; digits beyond dps
            gap = 1 - r[1]
            return int(mp.ceil(-mp.log10(gap))) if 0 < gap < mp.mpf("0.01") else 0

        used = []  # the extra digits the polish ran with, read off the 15-digit stage

        def ramp_extra(r):
            used.append(extra_of(r))
            return used[-1]

        run, prob, iters = _ramp(lambda: _PowerProblem(setup, A), lambda pr: pr.start(), -1, dps + 5,
                                 extra_of=ramp_extra)
        ran = used[0] if used else 0
        extra = max(extra_of(run), ran)
        if extra > ran:  # M closer to 1 at the optimum than at 15 digits: polish with the digits it needs
            with mp.workdps(dps + 5 + extra):
                ref = prob.ref
                prob = _PowerProblem(setup, A)
                prob.ref = mp.mpf(ref)
                run = _newton(prob, run[0], -1, mp.mpf(10) ** (-((dps + extra) // 2 + 3)), 10)
    del probe
    with mp.workdps(dps + 5 + extra):
        theta, Mmin, g, H, _, ok = run
        fval = f_of_m(Mmin)
        value = r_of_m(Mmin) if renyi else fval
        lam = lam_of_m(Mmin)
        Mm, _v, _s, muP, _muQ = setup.mp()
        c = setup.c_of(Mm, theta) if setup.p else [mp.mpf(0)] * setup.d
        a = setup.coefficients(Mm, theta) if setup.p else [mp.mpf(0)] * k
        b = lam * (1 - mp.fdot(c, muP))
        opt = [b] + [lam * x for x in a]
        Hneg = [[-x for x in row] for row in H]
        gneg = [-x for x in g]
    res = _certified(name, cls, value, fval, opt, gneg, Hneg, iters, notes, ok, setup.p)
    if extra:
        notes.append(f"1 - M = {mp.nstr(1 - Mmin, 3)}: polished with {extra} extra digits (cancellation in -log M and "
                     "V(M)); the second method too")
    if second and setup.p:
        with mp.workdps(20):
            pr = _PowerProblem(setup, A)
            th0 = pr.start()
            cc = setup.c_of(pr.M, th0)
            b0 = 1 - mp.fdot(cc, pr.muP)
        sv = _second(setup, gen, params, "power", th0, b0, _SECOND_DPS + extra)
        if sv is not None and renyi:
            with mp.workdps(_SECOND_DPS + extra):
                sv = mp.log1p(al * (al - 1) * sv) / (al - 1) if sv > -1 / (al * (al - 1)) else mp.nan
        _attach_second(res, sv, res.value, dps)
        notes.append("second method: BFGS on the unprofiled E_P[h] - E_Q[f*(h)] (the engine's derived conjugate), "
                     "h = w + c . (x - mu_Q), in (reduced coefficients, w), E_Q by quadrature against the 1-D law "
                     "of c . Y")
    return res


def _certified(name, cls, value, fval, opt, g, H, iters, notes, ok, p):
    """The result with its certificate (gradient norm, definiteness of ``H``) at the working precision, and
    the notes on a flat maximiser or a run that did not converge."""
    res = RestrictedResult(name, cls, +value, +fval, [+x for x in opt], +_norm(g), [[+x for x in row] for row in H],
                           _definite(H, -1), iterations=iters, notes=notes, converged=ok)
    if not res.negative_definite and p:
        notes.append("the Hessian is not negative definite: the maximiser in a is not unique (flat directions)")
    if not ok:
        notes.append("NOT CONVERGED: the value is a lower bound only")
    return res


def _intercept_exp(prof, logZ):
    """``b*(Z)`` from the derived profile, evaluated at ``Z = e^{logZ}`` in log space (``b* = b*(1) - log Z`` is
    checked symbolically: the profile of ``C e^s`` depends on ``Z`` only through ``-log Z``)."""
    b1 = prof.intercept_of_z.subs(Z_, 1)
    if sp.simplify(prof.intercept_of_z - b1 + sp.log(Z_)) != 0:  # pragma: no cover
        raise ParameterError(f"unexpected intercept profile {prof.intercept_of_z}")
    return to_mpf(b1) - logZ


def _attach_second(res, sv, ref, dps):
    if sv is None or not mp.isfinite(sv):
        res.notes.append("second method unavailable or failed")
        res.second_value = sv
        res.second_method_digits = mp.mpf(0) if sv is not None else None
        return
    res.second_value = sv
    res.second_method_digits = min(digits(ref, sv), mp.mpf(dps))
