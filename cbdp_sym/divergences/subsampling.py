"""Subsampled mechanisms: Poisson subsampling and sampling without replacement as mixture laws, and their Rényi
divergences (exact at integer orders, from the definition at fractional ones).

Neighbouring relations, named explicitly (``(P, Q)`` is the mechanism's pair without subsampling: ``P`` its output
law on a dataset with the individual's record, ``Q`` without, e.g. ``P = N(1, sigma^2)``, ``Q = N(0, sigma^2)`` for a
sensitivity-1 sum with Gaussian noise):

* **Poisson subsampling** with rate ``q`` (each record kept independently with probability ``q``):
  ``remove`` -- the dataset with the record against the one without: ``M = (1 - q) Q + q P`` against ``Q``;
  ``add`` -- the other order: ``Q`` against ``M``.  (For the Gaussian these are the two pairs of Mironov, Talwar and
  Zhang 2019; dp_accounting's ``ADD_OR_REMOVE_ONE`` takes the worse of the two.)
* **Sampling without replacement** of a fixed fraction ``gamma = m / n`` under the ``substitute`` relation (one record
  replaced by another): ``(1 - gamma) Q + gamma P`` against ``(1 - gamma) Q + gamma P'``, ``P'`` the output law with
  the other record (Balle, Barthe, Gaboardi 2018).

The mixtures are laws of the engine (:class:`cbdp_sym.laws.distributions.Mixture` for densities,
:class:`cbdp_sym.laws.discrete.LatticeMixture` on the integers, a ``Finite`` law for finite laws), so every divergence,
profile and restricted class applies to them unchanged.

Rényi divergence of the Poisson-subsampled pair (``remove``):

* integer ``alpha``: ``E_Q[(M/Q)^alpha] = sum_{j=0}^{alpha} C(alpha, j) (1 - q)^(alpha - j) q^j E_Q[(P/Q)^j]`` with
  ``E_Q[(P/Q)^j] = exp((j - 1) D_j(P || Q))`` derived by the engine (the binomial expansion of Mironov, Talwar and Zhang
  2019, Sec. 3.3): :func:`subsampled_renyi_sym` (symbolic, steps recorded) and :func:`subsampled_rdp` (numeric, as
  ``log1p`` of a sum of positive terms: no cancellation);
* fractional ``alpha`` and the ``add`` relation: the definition, by quadrature split at every peak of the integrand
  (:func:`renyi_quadrature`) for densities, by sums with tail bounds on the integers, with the digits on which two
  precisions agree.

>>> import mpmath as mp, sympy as sp
>>> from cbdp_sym.laws.distributions import Normal
>>> with mp.workdps(30):
...     mp.nstr(subsampled_rdp(Normal(1, 1), Normal(0, 1), sp.Rational(1, 100), 2), 15)
'0.000171813422074548'
"""
from __future__ import annotations

import math

import mpmath as mp
import sympy as sp

from cbdp_sym.calculus.optimize import golden_section
from cbdp_sym.core.errors import DerivationError, ParameterError
from cbdp_sym.core.numbers import Estimate, digits, to_mpf
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.divergences.fdiv import renyi_divergence
from cbdp_sym.divergences.lattice_numeric import involves_lattice, renyi_lattice
from cbdp_sym.divergences.numeric import _log_integrand, renyi_mp
from cbdp_sym.laws.discrete import LatticeLaw, LatticeSum, LatticeMixture
from cbdp_sym.laws.distributions import Distribution, Finite, Mixture, Normal, Product

__all__ = ["RELATIONS", "poisson_subsample", "fixed_size_subsample", "mixture", "subsampled_renyi_sym",
           "subsampled_rdp", "subsampled_gaussian_rdp", "renyi_quadrature", "moment_ratio"]

RELATIONS = ("remove", "add")


def _rate(q, name="q"):
    v = sp.sympify(q) if not isinstance(q, mp.mpf) else q
    if isinstance(v, mp.mpf):
        ok = 0 < v <= 1
    else:
        ok = (not v.is_number) or bool((v > 0) & (v <= 1))
    if not ok:
        raise ParameterError(f"the sampling rate {name} must lie in (0, 1], got {q}")
    return v


def mixture(weights, laws):
    """The mixture ``sum_i w_i L_i`` as a law of the engine: a ``Mixture`` of densities, a ``LatticeMixture`` of laws
    on the integers, or a ``Finite`` law (finite laws, their atoms merged)."""
    laws = list(laws)
    if all(isinstance(L, Finite) for L in laws):
        pts, probs = [], []
        for w, L in zip(weights, laws):
            for x, p in L.pmf():
                for i, y in enumerate(pts):
                    if sp.simplify(x - y) == 0:
                        probs[i] += w * p
                        break
                else:
                    pts.append(x)
                    probs.append(w * p)
        return Finite(pts, probs)
    if all(isinstance(L, LatticeLaw) for L in laws):
        return LatticeMixture(weights, laws)
    if any(isinstance(L, (LatticeLaw, Finite)) for L in laws):
        raise ParameterError("a mixture of a law on the integers (or a finite law) and a law with a density has "
                             "neither a pmf nor a density")
    if any(isinstance(L, Product) for L in laws):
        raise ParameterError("subsampling of product laws: subsample each coordinate's mechanism (compose after)")
    return Mixture(weights, laws)


def poisson_subsample(P: Distribution, Q: Distribution, q, relation: str = "remove"):
    """The pair of Poisson subsampling with rate ``q`` of the mechanism whose pair is ``(P, Q)`` (``P`` with the
    record, ``Q`` without): ``remove`` gives ``((1 - q) Q + q P, Q)``, ``add`` gives ``(Q, (1 - q) Q + q P)``.

    >>> from cbdp_sym.laws.discrete import DiscreteGaussian
    >>> M, Q = poisson_subsample(DiscreteGaussian(1, 1), DiscreteGaussian(0, 1), sp.Rational(1, 10))
    >>> M.weights
    (9/10, 1/10)
    """
    if relation not in RELATIONS:
        raise ParameterError(f"relation must be one of {RELATIONS} for Poisson subsampling, got {relation!r}")
    q = _rate(q)
    one = mp.mpf(1) if isinstance(q, mp.mpf) else sp.Integer(1)
    M = mixture([one - q, q], [Q, P])
    return (M, Q) if relation == "remove" else (Q, M)


def fixed_size_subsample(P: Distribution, P_alt: Distribution, Q: Distribution, gamma):
    """Sampling without replacement of a fraction ``gamma = m/n`` under the ``substitute`` relation:
    ``((1 - gamma) Q + gamma P, (1 - gamma) Q + gamma P_alt)``, ``Q`` the output law when the replaced record is not
    sampled, ``P`` / ``P_alt`` when it is (with the record, with its replacement)."""
    g = _rate(gamma, "gamma")
    one = mp.mpf(1) if isinstance(g, mp.mpf) else sp.Integer(1)
    return mixture([one - g, g], [Q, P]), mixture([one - g, g], [Q, P_alt])


# -- exact integer orders ---------------------------------------------------------------------------------------
_J = sp.Symbol("j", integer=True, nonnegative=True)
_JP = sp.Symbol("j", integer=True, positive=True)


def moment_ratio(P, Q, j=_JP):
    """``E_Q[(P/Q)^j] = exp((j - 1) D_j(P || Q))``, derived with the engine (``j`` a positive-integer symbol or an
    integer >= 2); the steps are recorded."""
    return _moment_ratio(P, Q, j)[0]


def _moment_ratio(P, Q, j):
    """:func:`moment_ratio` and the conditions of the Rényi derivation behind it (where the expectation is finite)."""
    D, conds = renyi_divergence(P, Q, j, lhs=Tex(r"D_j(P \| Q)"))
    E = sp.simplify(sp.powsimp(sp.exp(sp.expand((j - 1) * D)), force=True)) if not D.has(sp.Sum) else sp.exp((j - 1) * D)
    record(Tex(r"\mathbb{E}_Q\left[(P/Q)^j\right]"), E, "the Rényi divergence of order $j$: $e^{(j-1) D_j(P \\| Q)}$")
    return E, list(conds)


def subsampled_renyi_sym(P, Q, q, alpha, lhs=None):
    """``D_alpha((1 - q) Q + q P || Q)`` for an integer order ``alpha >= 2`` (a number or a positive-integer symbol),
    derived: the binomial expansion of ``((1 - q) + q P/Q)^alpha`` under ``Q`` (Mironov, Talwar, Zhang 2019) with each
    ``E_Q[(P/Q)^j]`` derived by the engine.  Returns ``(value, conditions)`` like :func:`cbdp_sym.renyi_divergence`:
    the expression (a finite sum over ``j``) and the conditions under which each ``E_Q[(P/Q)^j]`` is finite, at
    ``j = 2, ..., alpha`` for a numeric order (those SymPy decides true dropped), in the symbol ``j`` (for every
    ``j = 2, ..., alpha``) for a symbolic one.  Where a condition fails at some ``j <= alpha`` (a numeric order),
    that moment is infinite and so is the divergence: ``(oo, [])``.

    >>> import sympy as sp
    >>> from cbdp_sym.laws.distributions import Normal
    >>> value, conds = subsampled_renyi_sym(Normal(1, 1), Normal(0, 1), sp.Rational(1, 2), 2)
    >>> conds, sp.simplify(value.doit() - sp.log(1 + (sp.E - 1) / 4))
    ([], 0)
    >>> subsampled_renyi_sym(Normal(1, 2), Normal(0, 1), sp.Rational(1, 2), 3)  # E_Q[(P/Q)^3] is infinite
    (oo, [])
    """
    alpha = sp.sympify(alpha)
    if not alpha.is_integer:
        raise DerivationError("the binomial expansion needs an integer order (fractional orders: the definition, "
                              "numerically)")
    name = lhs or Tex(r"D_\alpha\left((1-q)Q + qP \,\|\, Q\right)")
    record(name, Tex(r"\frac{1}{\alpha - 1} \log \mathbb{E}_Q\left[\left(1 - q + q\,\frac{P}{Q}\right)^{\alpha}\right]"),
           "definition of the Rényi divergence, the mixture's ratio to $Q$ being $1 - q + q P/Q$")
    record(Tex(r"\mathbb{E}_Q\left[\left(1 - q + q\,\frac{P}{Q}\right)^{\alpha}\right]"),
           Tex(r"\sum_{j=0}^{\alpha} \binom{\alpha}{j} (1-q)^{\alpha-j} q^j\, \mathbb{E}_Q\left[(P/Q)^j\right]"),
           "binomial expansion, $\\alpha$ a positive integer (Mironov, Talwar, Zhang 2019, Sec. 3.3)")
    E, conds = _moment_ratio(P, Q, _JP)
    for j0 in (0, 1):
        v = sp.simplify(E.subs(_JP, j0)) if not E.has(sp.Sum) else None
        if v != 1:
            raise DerivationError(f"the derived E_Q[(P/Q)^j] is not 1 at j = {j0}: {v}")
    record(Tex(r"\mathbb{E}_Q\left[(P/Q)^j\right]\Big|_{j = 0, 1}"), sp.Integer(1),
           "the derived form also holds at $j = 0, 1$ ($\\int Q = \\int P = 1$)")
    if alpha.is_number:
        for k in range(2, int(alpha) + 1):
            for c0 in conds:
                if sp.sympify(c0).subs(_JP, k) is sp.false:
                    # a moment of the ratio is infinite: so is the mixture's (its binomial weight is positive)
                    record(name, sp.oo, f"$\\mathbb{{E}}_Q[(P/Q)^{{{k}}}] = \\infty$: the condition "
                           f"${sp.latex(c0)}$ fails at $j = {k}$, and its term's weight is positive")
                    return sp.oo, []
    term = sp.binomial(alpha, _J) * (1 - q) ** (alpha - _J) * q**_J * E.subs(_JP, _J)
    S = LatticeSum(term, (_J, 0, alpha))
    value = sp.log(S) / (alpha - 1)
    record(name, value, "the expansion's terms")
    if alpha.is_number:
        conds = [c for k in range(2, int(alpha) + 1) for c in (sp.sympify(c0).subs(_JP, k) for c0 in conds)
                 if c is not sp.true]
        conds = list(dict.fromkeys(conds))
    return value, conds


def _exact_terms(P, Q, qv, n):
    """``[E_Q[(P/Q)^j] for j = 0..n]`` from the derived closed form (``None`` if it does not derive)."""
    try:
        with time_limit(60, "deriving E_Q[(P/Q)^j]"):
            E = moment_ratio(P, Q, _JP)
    except (DerivationError, ParameterError, NotImplementedError, TypeError, ValueError):
        return None
    if E.has(sp.Sum) or E.free_symbols - {_JP}:
        return None
    f = sp.lambdify(_JP, E, modules="mpmath")
    return [mp.mpf(1), mp.mpf(1)] + [mp.mpf(f(mp.mpf(j))) for j in range(2, n + 1)]


def _numeric_pair(P, Q):
    """``(P, Q)`` with exact parameters (numbers), or raise: the numerics need numbers."""
    for L in (P, Q):
        for v in getattr(L, "__dict__", {}).values():
            if isinstance(v, sp.Basic) and v.free_symbols:
                raise ParameterError(f"{L!r} has free symbols: substitute numbers first")
    return P, Q


def subsampled_rdp(P, Q, q, alpha, relation="remove"):
    """``D_alpha`` of the Poisson-subsampled pair of ``(P, Q)`` with rate ``q`` at the working precision.

    ``remove`` and an integer ``alpha``: exact, ``log1p(sum_{j >= 2} C(alpha, j) (1 - q)^(alpha - j) q^j
    (E_Q[(P/Q)^j] - 1)) / (alpha - 1)`` with ``E_Q[(P/Q)^j]`` from the engine's derived closed form (every term is
    non-negative: no cancellation).  Otherwise the definition: :func:`renyi_quadrature` for laws with densities (an
    :class:`Estimate` when the two precisions it compares agree on fewer digits than the working precision), sums
    with tail bounds for laws on the integers."""
    if relation not in RELATIONS:
        raise ParameterError(f"relation must be one of {RELATIONS}, got {relation!r}")
    P, Q = _numeric_pair(P, Q)
    al = to_mpf(alpha) if not isinstance(alpha, mp.mpf) else alpha
    if not al > 1:
        raise ParameterError(f"the order must exceed 1, got {alpha}")
    qv = to_mpf(q) if not isinstance(q, mp.mpf) else q
    if relation == "remove" and al == mp.nint(al) and al <= 10**4:
        n = int(al)
        E = _exact_terms(P, Q, qv, n)
        if E is not None:
            with mp.workdps(mp.mp.dps + 10):
                s = mp.fsum(mp.binomial(n, j) * (1 - qv) ** (n - j) * qv**j * (E[j] - 1) for j in range(2, n + 1))
                return +(mp.log1p(s) / (n - 1))
    A, B = poisson_subsample(P, Q, q, relation)
    if involves_lattice(A, B) or A.atomic:
        return renyi_lattice(A, B, al) if involves_lattice(A, B) else renyi_mp(A, B, al)
    return renyi_quadrature(A, B, al)


def subsampled_gaussian_rdp(q, sigma, alpha, relation="remove", sensitivity=1):
    """The RDP of the Poisson-subsampled Gaussian mechanism (``N(sensitivity, sigma^2)`` against ``N(0, sigma^2)``),
    see :func:`subsampled_rdp`."""
    return subsampled_rdp(Normal(sensitivity, sigma), Normal(0, sigma), q, alpha, relation)


# -- the definition by quadrature ------------------------------------------------------------------------------
def _peaks(logf, lo, hi, n=400):
    """Local maxima of ``logf`` on ``[lo, hi]`` (a grid of ``n`` points at 20 digits, each refined by golden section),
    with the width from the curvature: ``[(x, width, value)]``."""
    out = []
    with mp.workdps(20):
        xs = [lo + (hi - lo) * mp.mpf(i) / n for i in range(n + 1)]
        ys = []
        for x in xs:
            try:
                v = logf(x)
            except (ValueError, ZeroDivisionError):
                v = -mp.inf
            ys.append(v if mp.isfinite(v) or v == -mp.inf else -mp.inf)
        for i in range(n + 1):
            left = ys[i - 1] if i > 0 else -mp.inf
            right = ys[i + 1] if i < n else -mp.inf
            if ys[i] > -mp.inf and ys[i] >= left and ys[i] >= right and (ys[i] > left or ys[i] > right):
                a, b = xs[max(i - 1, 0)], xs[min(i + 1, n)]
                a, b, _ = golden_section(logf, a, b, iters=80, reuse=False)
                m = (a + b) / 2
                h = (hi - lo) / (n * 1000)
                curv = (logf(m + h) - 2 * logf(m) + logf(m - h)) / h**2
                w = 1 / mp.sqrt(-curv) if curv < 0 else (hi - lo) / n
                out.append((m, w, logf(m)))
    return out


def _quad_once(P, Q, al):
    """``(log int p^al q^(1-al), quad error estimate)`` at the working precision, split at every peak."""
    logf = _log_integrand(P, Q, al)

    locs = [L.mp_loc() for L in _parts(P) + _parts(Q)]
    ws = [L.mp_width() for L in _parts(P) + _parts(Q)]
    spread = max(locs) - min(locs) + max(ws)
    lo = min(locs) - 40 * max(ws)
    hi = max(locs) + 40 * max(ws) + 2 * al * spread * (1 + max(ws) ** -2) * max(ws) ** 2
    peaks = _peaks(logf, lo, hi)
    if not peaks:
        raise ParameterError("no peak of the Renyi integrand found")
    top = max(v for _m, _w, v in peaks)
    pts = set()
    for m, w, _v in peaks:
        for c in (-32, -8, -2, 0, 2, 8, 32):
            pts.add(m + c * w)
    for L in _parts(P) + _parts(Q):
        pts.update(L.mp_kinks())
    pts = sorted(pts)
    val, err = mp.quad(lambda x: mp.exp(logf(x) - top), [-mp.inf] + pts + [mp.inf], error=True, maxdegree=10)
    return mp.log(val) + top, err / val


def _parts(L):
    return list(L.components) if isinstance(L, Mixture) else [L]


def renyi_quadrature(P, Q, alpha):
    """``D_alpha(P || Q)`` of two laws with densities from the definition, ``log(int p^alpha q^(1 - alpha)) /
    (alpha - 1)``, by tanh-sinh quadrature split around every peak of the integrand (found on a grid and refined, each
    split at ``peak + width * (0, +-2, +-8, +-32)``), scaled by its maximum (log space).  Computed at the working
    precision plus the digits the logarithm cancels (``alpha`` near 1, nearly equal laws), and again with 20 more:
    the result is an :class:`Estimate` of the digits on which the two agree when that is fewer than the working
    precision."""
    al = to_mpf(alpha) if not isinstance(alpha, mp.mpf) else alpha
    if not al > 1:
        raise ParameterError(f"the order must exceed 1, got {alpha}")
    target = mp.mp.dps
    with mp.workdps(20):
        est, _ = _quad_once(P, Q, al)
    extra = max(0, int(math.ceil(-float(mp.log10(abs(est))))) + 5) if est != 0 else target
    vals = []
    for add in (10, 30):
        with mp.workdps(target + extra + add):
            v, _e = _quad_once(P, Q, al)
            vals.append(v / (al - 1))
    d = digits(vals[0], vals[1]) if vals[0] != vals[1] else mp.inf
    out = +vals[1]
    if d < target:
        return Estimate(out, max(0, int(d)))
    return out

