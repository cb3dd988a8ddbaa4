"""Concentrated differential privacy: zCDP, mCDP and approximate zCDP, the zCDP paper's tools (moved here from
``cbdp_sym.divergences.concentrated`` in 0.3: only this paper uses them; the old path warns for one release).
The paper's modules import them from ``._shared``; the registry skips files starting with ``_``.

Vocabulary (the standard one of the zCDP literature):

* a pair ``(P, Q)`` is ``(xi, rho)``-zCDP (one direction) when ``D_alpha(P || Q) <= xi + rho alpha`` for all
  ``alpha > 1``; its **zCDP curve** is ``alpha -> D_alpha``; the smallest ``rho`` for a given ``xi`` is
  ``rho*(xi) = sup_{alpha > 1} (D_alpha - xi)/alpha`` (:meth:`ZPair.rho_star`), the smallest ``xi`` for a given
  ``rho`` is ``max(0, sup_alpha D_alpha - rho alpha)`` (:meth:`ZPair.xi_star`);
* the **privacy loss** ``Z = log p(Y)/q(Y)``, ``Y ~ P``; ``E[e^{(alpha-1)Z}] = e^{(alpha-1) D_alpha}``;
* the **privacy profile** ``delta(eps) = sup_S P(S) - e^eps Q(S) = E[(1 - e^{eps - Z})_+]``;
* ``(mu, tau)``-mCDP: ``E[Z] <= mu`` and ``E[e^{lam (Z - E Z)}] <= e^{lam^2 tau^2/2}`` for all real ``lam``; the
  smallest ``tau^2`` is the sub-Gaussian variance proxy of ``Z`` (:meth:`ZPair.subgaussian_proxy`).

Numerics (:class:`ZPair`) work from the definitions at the working precision: finite laws by sums (the Rényi
integral as ``log1p(E_P[expm1((alpha - 1) L)])/(alpha - 1)`` so that orders near 1 keep their digits),
Gaussian location pairs through the probabilities of half-lines (the normal CDF, ``mp.ncdf``) on the sets where
the log-likelihood ratio, located by root finding on the log-densities, exceeds a level; products of a
Gaussian pair and a finite pair by summing over the finite outcomes.

Derivations (steps on the tape, SymPy): :func:`chernoff_exponent` (Markov on ``e^{(alpha-1)Z}`` optimised over
the order), :func:`rdp_conversion_optimum` (``inf_alpha xi + rho alpha + log(1/delta)/(alpha - 1)``),
:func:`complete_square`, :func:`tail_integral` (``int_eps^oo e^{eps - z} e^{-(z - xi - rho)^2/(4 rho)} dz``),
:func:`affine_loss_law` (the law of ``Z`` when the log-ratio is affine in a Gaussian sample),
:func:`mcdp_exponent` (mCDP to zCDP), :func:`holder_orders` and :func:`group_induction` (the Hölder recursion
of group privacy), :func:`dp_group_delta` (group privacy of ``(eps, delta)``-DP).

Ball arithmetic: :func:`arb_value` evaluates a closed form (erfc, sinh, ... included) at an exact point with
python-flint's Arb, for certificates.

>>> import mpmath as mp, sympy as sp
>>> from cbdp_sym import Finite
>>> with mp.workdps(30):
...     zp = ZPair.finite(Finite([0, 1], [sp.Rational(3, 4), sp.Rational(1, 4)]),
...                       Finite([0, 1], [sp.Rational(1, 4), sp.Rational(3, 4)]))
...     mp.nstr(zp.rho_star()[0], 12)   # randomized response: the sup is the alpha -> 1 limit (the KL)
'0.549306144334'
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import mpmath as mp
import sympy as sp

from cbdp_sym import Finite, Normal, ParameterError, Tex, peers, record
from cbdp_sym.calculus import DerivationError, integrate_split, latex, maximize, time_limit, to_mpf
from cbdp_sym.certify import NotCertifiable, arb, arb_closed, arb_from_mpf, arb_precision
from cbdp_sym.conversions import best_over_alpha, delta_atoms, eps_from_profile, loss_atoms
from cbdp_sym.families import describe, random_finite, softmax
from cbdp_sym.mechanisms import renyi_numeric
from cbdp_sym.symbols import X

__all__ = ["ZPair", "arb_value", "certify_lt", "chernoff_exponent", "rdp_conversion_optimum", "complete_square",
           "tail_integral", "affine_loss_law", "mcdp_exponent", "holder_orders", "group_induction",
           "group_recursion", "dp_group_delta", "mutual_information", "sup_over_order", "harmonic",
           "autodp_puredp_rdp", "autodp_zcdp_rdp", "dpa_zcdp_epsilon", "random_finite_pairs", "spike_pair",
           "finite_pair_from_logits", "short"]


# -- numerics of one pair ----------------------------------------------------------------------------
_BALL_BITS = 128  # the precision of the balls that rank orders for sup_over_order (ZPair._curve_ball)


def _arb_exact(x):
    """An mpf (or anything :func:`_mpf` takes) as an ``arb`` number, exactly (its whole mantissa, radius 0)."""
    x = _mpf(x)
    if not mp.isfinite(x):
        raise ParameterError("an arb ball needs a finite number")
    return arb_from_mpf(x)


def _mpf(x):
    if isinstance(x, mp.mpf):
        return x
    if isinstance(x, float):
        return mp.mpf(x)
    return to_mpf(x)


def sup_over_order(f, lo_t=-30, hi_t=30, scan=0.5, endpoint=None, enclose=None):
    """``sup_{alpha > 1} f(alpha)`` by a scan in ``t = log(alpha - 1)`` and golden-section refinement of the best
    cell; ``endpoint`` (the value of the ``alpha -> 1+`` limit, e.g. a KL divergence) is a candidate too.
    Returns ``(value, alpha*)`` with ``alpha* = 1`` when the endpoint wins (the supremum is the limit).

    The scan resolves a unimodal function of ``t``; the curves of zCDP claims (``D_alpha/alpha``,
    ``D_alpha - rho alpha``) are unimodal or monotone in ``t`` on the families used.

    ``enclose`` (optional): ``alpha -> `` an ``arb`` ball holding the value ``f(alpha)`` returns, its rounding
    included (or ``None``), used only to skip evaluations of ``f`` that cannot change the result
    (:func:`best_over_alpha`'s ``enclose``; :meth:`ZPair._curve_ball` builds them).
    """
    def neg(a):
        v = f(a)
        return -v if mp.isfinite(v) else (mp.inf if v < 0 else -mp.inf)

    def neg_ball(a):
        b = enclose(a)
        return None if b is None else -b

    val, a = best_over_alpha(neg, lo_t=lo_t, hi_t=hi_t, include_inf=False, scan=scan,
                             enclose=None if enclose is None else neg_ball)
    best = (-val, a)
    if endpoint is not None and endpoint >= best[0]:
        best = (endpoint, mp.mpf(1))
    return best


@dataclass
class ZPair:
    """A pair of output laws ``(P, Q)`` (``P`` the law on ``x``, ``Q`` on the neighbour ``x'``) with numerics
    from the definitions.  Build with :meth:`finite`, :meth:`normal` or :meth:`normal_times_finite`.

    ``premise``: for Gaussian pairs the zCDP curve ``D_alpha = alpha Delta^2/(2 sigma^2)`` is the hypothesis of
    the claims that use the pair (their zCDP parameter), not a quantity under test; it is recorded here.
    """

    kind: str
    label: str
    P: object = None
    Q: object = None
    sigma: object = None
    shift: object = None
    extra: dict = field(default_factory=dict)

    # -- constructors
    @classmethod
    def finite(cls, P: Finite, Q: Finite, label: str = ""):
        if not (isinstance(P, Finite) and isinstance(Q, Finite)):
            raise ParameterError("ZPair.finite needs two finite laws")
        return cls("finite", label or "finite pair", P, Q)

    @classmethod
    def normal(cls, sigma, shift=1, label: str = ""):
        """``P = N(0, sigma^2)``, ``Q = N(shift, sigma^2)`` (``sigma`` the standard deviation)."""
        if not _mpf(sigma) > 0:
            raise ParameterError(f"sigma must be positive, got {sigma}")
        return cls("normal", label or f"Gaussian sigma={sigma}, shift={shift}", Normal(0, sigma), Normal(shift, sigma),
                   sigma, shift)

    @classmethod
    def normal_times_finite(cls, sigma, shift, P: Finite, Q: Finite, label: str = ""):
        """Independent product of the Gaussian pair ``(N(0, sigma^2), N(shift, sigma^2))`` and a finite pair."""
        z = cls("normal*finite", label or "Gaussian x finite", P, Q, sigma, shift)
        z.extra["G"] = cls.normal(sigma, shift)
        return z

    # -- finite laws
    def _atoms(self):
        """``[(L, p, q)]`` at the working precision (cached per precision)."""
        key = ("atoms", mp.mp.prec)
        if key not in self.extra:
            self.extra[key] = loss_atoms(self.P, self.Q)
        return self.extra[key]

    def _finite_renyi(self, a):
        atoms = self._atoms()
        if any(q == 0 and p > 0 for _L, p, q in atoms):
            return mp.inf
        live = [(L, p) for L, p, _q in atoms if p > 0]
        if a == mp.inf:
            return max(L for L, _p in live)
        if a == 1:
            return mp.fsum(p * L for L, p in live)
        big = max([abs(L) for L, _p in live] + [mp.mpf(1)])
        with mp.workdps(mp.mp.dps + 15 + int(mp.log10(big + 1)) + max(0, int(-mp.log10(abs(a - 1))) if a != 1 else 0)):
            s = mp.fsum(p * mp.expm1((a - 1) * L) for L, p in live)
            return +(mp.log1p(s) / (a - 1))

    # -- public numerics
    def renyi(self, alpha):
        """``D_alpha(P || Q)`` for ``alpha >= 1`` or ``mp.inf``."""
        a = alpha if isinstance(alpha, mp.mpf) or alpha == mp.inf else _mpf(alpha)
        if a < 1:
            raise ParameterError(f"the Renyi divergence needs alpha >= 1, got {alpha}")
        if self.kind == "finite":
            return self._finite_renyi(a)
        if self.kind == "normal":
            return renyi_numeric(self.P, self.Q, a)
        return self.extra["G"].renyi(a) + self._finite_renyi(a)

    def premise_rho(self):
        """The Gaussian factor's zCDP parameter ``shift^2/(2 sigma^2)`` (the claims' hypothesis)."""
        if self.kind == "finite":
            return mp.mpf(0)
        return _mpf(self.shift) ** 2 / (2 * _mpf(self.sigma) ** 2)

    def curve(self, alpha):
        """The zCDP curve used as a hypothesis: exact sums for finite laws, plus ``alpha rho`` for a Gaussian factor."""
        a = alpha if isinstance(alpha, mp.mpf) or alpha == mp.inf else _mpf(alpha)
        fin = self._finite_renyi(a) if self.kind != "normal" else mp.mpf(0)
        if self.kind == "finite":
            return fin
        return fin + (mp.inf if a == mp.inf else self.premise_rho() * a)

    def rho_star(self, xi=0):
        """``sup_{alpha > 1} (D_alpha - xi)/alpha`` and the maximising order (``1`` when it is the limit)."""
        xi = _mpf(xi)
        if self.kind == "normal":
            return self.premise_rho(), mp.inf
        xb = _arb_exact(xi)

        def g(c, a, err):  # (c - xi)/a: the two roundings, and the curve's rounding error divided by a
            v = (c - xb) / a
            return v, (err + abs(c) + abs(xb)) / a + abs(v)

        return sup_over_order(lambda a: (self.curve(a) - xi) / a, endpoint=self.curve(mp.mpf(1)) - xi,
                              enclose=self._curve_ball(g))

    def xi_star(self, rho):
        """``max(0, sup_alpha D_alpha - rho alpha)``: the smallest ``xi`` with ``(xi, rho)``-zCDP."""
        rho = _mpf(rho)
        if self.kind == "normal":
            return mp.mpf(0) if rho >= self.premise_rho() else mp.inf
        rb = _arb_exact(rho)

        def g(c, a, err):  # c - rho a: the two roundings (of rho a: its terms can be far larger than the result)
            v = c - rb * a
            return v, err + abs(rb * a) + abs(v)

        v, _a = sup_over_order(lambda a: self.curve(a) - rho * a, endpoint=self.curve(mp.mpf(1)) - rho,
                               enclose=self._curve_ball(g))
        return max(v, mp.mpf(0))

    def _curve_ball(self, g):
        """``alpha -> `` an ``arb`` ball of :data:`_BALL_BITS` bits holding both the exact value of an objective
        ``f(alpha) = F(curve(alpha), alpha)`` and the value mpmath computes for it at the working precision (``None``
        where the curve is infinite, or without python-flint): a cheap enclosure for :func:`sup_over_order`'s ranking.

        The curve's atoms are those :meth:`curve` uses at the working precision, taken exactly.  ``g(c, a, err)``
        returns ``F``'s value in balls and a bound on the magnitudes its working-precision roundings act on (its
        rounding error in units of ``2^-prec``) (``err``: the same bound for the curve, ``2 |D| + |rho_0 a| + |curve|``: the Rényi
        sum is computed with guard digits and rounded once, then ``rho_0 a`` and the sum are rounded); the ball is
        widened by 16 times that, so the order of two balls that are apart is the order of the computed values."""
        if arb is None:
            return None
        atoms = self._atoms()
        if any(q == 0 and p > 0 for _L, p, q in atoms):
            return None
        rho = self.premise_rho() if self.kind != "finite" else None
        with arb_precision(_BALL_BITS):
            live = [(_arb_exact(L), _arb_exact(p)) for L, p, _q in atoms if p > 0]
            rb = None if rho is None else _arb_exact(rho)

        def ball(a):
            if not mp.isfinite(a):
                return None
            with arb_precision(_BALL_BITS):
                ab = _arb_exact(a)
                c = ab - 1
                s = sum((p * (c * L).expm1() for L, p in live), arb(0))
                cur = (s.log1p() / c) if s > -1 else None
                if cur is None or not cur.is_finite():
                    return None
                err = 2 * abs(cur)  # the Rényi sum, rounded once to the working precision
                if rb is not None:
                    cur = cur + rb * ab
                    err = err + abs(rb * ab) + abs(cur)
                v, e = g(cur, ab, err)
                return v + arb(0, 1) * e * arb(2) ** (4 - mp.mp.prec)

        return ball

    def _normal_half(self, G, level):
        """``(P(A), Q(A))`` for ``A = {log p/q > level}`` of a Gaussian location pair (a half-line)."""
        P, Q = G.P, G.Q
        L = lambda x: P.mp_log_pdf(x) - Q.mp_log_pdf(x)  # noqa: E731
        x0, x1 = mp.mpf(0), mp.mpf(1)
        slope = L(x1) - L(x0)
        if slope == 0:
            return (mp.mpf(1), mp.mpf(1)) if L(x0) > level else (mp.mpf(0), mp.mpf(0))
        # the log-ratio of equal-variance Gaussians (the only continuous pairs built here) is affine: the root is exact
        root = x0 + (level - L(x0)) / slope
        sP, sQ = _mpf(P.std), _mpf(Q.std)
        mP, mQ = _mpf(P.loc), _mpf(Q.loc)
        if slope < 0:  # A = (-oo, root)
            return mp.ncdf((root - mP) / sP), mp.ncdf((root - mQ) / sQ)
        return mp.ncdf(-(root - mP) / sP), mp.ncdf(-(root - mQ) / sQ)

    def profile(self, eps):
        """``delta(eps) = sup_S P(S) - e^eps Q(S)`` (the hockey-stick divergence), from the definitions."""
        e = _mpf(eps)
        if self.kind == "finite":
            return delta_atoms(self._atoms(), e)
        extra = 25
        while True:
            with mp.workdps(mp.mp.dps + extra):
                if self.kind == "normal":
                    pa, qa = self._normal_half(self, e)
                    val, scale = pa - mp.exp(e) * qa, pa
                else:
                    G = self.extra["G"]
                    val, scale = mp.mpf(0), mp.mpf(0)
                    for L, p, q in self._atoms():
                        if p == 0:
                            continue
                        if q == 0:
                            val += p
                            scale += p
                            continue
                        pa, qa = self._normal_half(G, e - L)
                        val += p * pa - mp.exp(e) * q * qa
                        scale += p * pa
            if val <= 0 or scale == 0 or val / scale > mp.mpf(10) ** (-extra + 10) or extra > 400:
                return +max(val, mp.mpf(0))
            extra *= 2

    def tail(self, t):
        """``P[Z > t]`` for the privacy loss ``Z = log p(Y)/q(Y)``, ``Y ~ P``."""
        t = _mpf(t)
        if self.kind == "finite":
            return mp.fsum(p for L, p, _q in self._atoms() if L > t)
        if self.kind == "normal":
            return self._normal_half(self, t)[0]
        G = self.extra["G"]
        return mp.fsum(p * (self._normal_half(G, t - L)[0] if q > 0 else 1) for L, p, q in self._atoms() if p > 0)

    def eps_at(self, delta, hi=None):
        """The smallest ``eps >= 0`` with ``delta(eps) <= delta`` (the exact epsilon at ``delta``)."""
        return eps_from_profile(self.profile, _mpf(delta), lo=0, hi=hi)

    def loss_moment(self, lam):
        """``E[e^{lam Z}]`` (finite pairs; ``+inf`` where a term is infinite)."""
        if self.kind != "finite":
            raise ParameterError("loss_moment is implemented for finite pairs")
        lam = _mpf(lam)
        out = mp.mpf(0)
        for L, p, q in self._atoms():
            if p == 0:
                continue
            if q == 0:
                return mp.inf if lam > 0 else out
            out += p * mp.exp(lam * L)
        return out

    def loss_mean(self):
        return self.renyi(1)

    def centred_log_mgf(self, lam):
        """``log E[e^{lam (Z - E Z)}]`` (finite pairs), computed as ``log E[e^{lam(Z - m)}]`` in one sum."""
        lam = _mpf(lam)
        m = self.loss_mean()
        live = [(L, p) for L, p, q in self._atoms() if p > 0]
        with mp.workdps(mp.mp.dps + 15):
            top = max(lam * (L - m) for L, _p in live)
            return +(top + mp.log(mp.fsum(p * mp.exp(lam * (L - m) - top) for L, p in live)))

    def loss_variance(self):
        m = self.loss_mean()
        return mp.fsum(p * (L - m) ** 2 for L, p, q in self._atoms() if p > 0)

    def subgaussian_proxy(self):
        """The smallest ``tau^2`` with ``E[e^{lam (Z - E Z)}] <= e^{lam^2 tau^2/2}`` for all real ``lam`` (finite
        pairs): ``sup_{lam != 0} 2 log E[e^{lam(Z - E Z)}]/lam^2``, with the ``lam -> 0`` limit ``Var Z``; scanned over
        ``lam = +-e^s`` and refined by golden section on each sign.  Returns ``(tau2, lam*)``."""
        best = (self.loss_variance(), mp.mpf(0))
        for sgn in (1, -1):
            g = lambda a: 2 * self.centred_log_mgf(sgn * (a - 1)) / (a - 1) ** 2  # noqa: E731  (a - 1 = |lam|)
            v, a = sup_over_order(g, lo_t=-12, hi_t=8, scan=0.25)
            if v > best[0]:
                best = (v, sgn * (a - 1))
        return best


# -- ball arithmetic ------------------------------------------------------------------------------------
def arb_value(expr, bits: int = 400):
    """The Arb ball of a closed form without free symbols (rationals stay exact): the engine's evaluator
    (:func:`cbdp_sym.certify.arb_closed`: erfc, sinh, tanh, Min, Max, ... included).  Raises
    :class:`~cbdp_sym.calculus.DerivationError` when a function has no ball counterpart."""
    try:
        return arb_closed(expr, bits)
    except NotCertifiable as exc:
        raise DerivationError(str(exc)) from None


def certify_lt(a_expr, b_expr, bits: int = 400):
    """A sentence proving ``a < b`` with Arb balls (closed forms at an exact point), or ``None``."""
    try:
        a, b = arb_value(a_expr, bits), arb_value(b_expr, bits)
    except (DerivationError, ValueError, ZeroDivisionError, ImportError):
        return None
    if bool(a < b):
        return f"Arb balls at {bits} bits: {a.str(12, radius=True)} < {b.str(12, radius=True)}"
    return None


# -- derivations: from a zCDP curve to (eps, delta) -----------------------------------------------------
def chernoff_exponent(xi, rho, lam, alpha=None, lhs=None):
    """Derive ``inf_{alpha > 1} (alpha - 1)(xi + rho alpha - lam)`` for ``lam > xi + rho`` (the exponent of Markov's
    inequality on ``e^{(alpha - 1) Z}`` for a ``(xi, rho)``-zCDP privacy loss).  Returns ``(alpha*, value)``.

    The excess ``u = lam - xi - rho > 0`` is a positive symbol during the derivation, so that the admissible
    root is decided by SymPy; the result is written back in ``lam``.
    """
    al = alpha if alpha is not None else sp.Symbol("alpha", positive=True)
    u = sp.Symbol("u", positive=True)
    record(lhs or Tex(r"\mathbb P[Z > \lambda]"), Tex(r"\inf_{\alpha>1}\frac{\mathbb E[e^{(\alpha-1)Z}]}{e^{(\alpha-1)\lambda}}"
                                                     r"\le\inf_{\alpha>1}e^{(\alpha-1)(\xi+\rho\alpha-\lambda)}"),
           "Markov's inequality on $e^{(\\alpha-1)Z}$ and $\\mathbb E[e^{(\\alpha-1)Z}] = e^{(\\alpha-1)D_\\alpha} \\le "
           "e^{(\\alpha-1)(\\xi+\\rho\\alpha)}$")
    expo = (al - 1) * (xi + rho * al - (xi + rho + u))
    record(Tex(r"\lambda"), xi + rho + u, "write $\\lambda = \\xi + \\rho + u$ with $u > 0$")
    root, val = maximize(sp.expand(-expo), al, 1, sp.oo, name=Tex(r"-(\alpha-1)(\xi+\rho\alpha-\lambda)"))
    back = {u: lam - xi - rho}
    root, val = sp.simplify(root.subs(back)), sp.factor(sp.simplify(-val.subs(back)))
    record(Tex(r"\alpha^*"), root, "the minimising order, in terms of $\\lambda$")
    record(Tex(r"\inf_{\alpha>1}(\alpha-1)(\xi+\rho\alpha-\lambda)"), val, "the optimal exponent")
    return root, val


def rdp_conversion_optimum(xi, rho, ell, alpha=None, lhs=None):
    """Derive ``inf_{alpha > 1} xi + rho alpha + ell/(alpha - 1)`` with ``ell = log(1/delta) > 0`` (the RDP-to-DP
    conversion applied to the zCDP curve, optimised over the order).  Returns ``(alpha*, value)``."""
    al = alpha if alpha is not None else sp.Symbol("alpha", positive=True)
    record(lhs or Tex(r"\varepsilon(\alpha)"), xi + rho * al + ell / (al - 1),
           "the RDP conversion $\\varepsilon = D_\\alpha + \\log(1/\\delta)/(\\alpha-1)$ on the curve $\\xi+\\rho\\alpha$")
    root, val = maximize(-(xi + rho * al + ell / (al - 1)), al, 1, sp.oo, name=Tex(r"-\varepsilon(\alpha)"))
    val = sp.simplify(-val)
    record(Tex(r"\inf_{\alpha>1}\varepsilon(\alpha)"), val, f"at $\\alpha^* = {latex(root)}$")
    return root, val


def complete_square(expr, var, lhs=None):
    """Write a quadratic ``expr`` in ``var`` as ``c (var - h)^2 + k`` (checked by expansion); returns ``(c, h, k)``."""
    poly = sp.Poly(sp.expand(expr), var)
    if poly.degree() != 2:
        raise DerivationError(f"{expr} is not quadratic in {var}")
    c2, c1, c0 = [poly.coeff_monomial(var**k) for k in (2, 1, 0)]
    h = sp.simplify(-c1 / (2 * c2))
    k = sp.simplify(c0 - c1**2 / (4 * c2))
    with time_limit(30, "checking a completed square"):
        if sp.simplify(sp.expand(c2 * (var - h) ** 2 + k - expr)) != 0:
            raise DerivationError("the completed square does not expand back")
    record(lhs or Tex(latex(expr)), sp.Add(c2 * sp.UnevaluatedExpr(var - h) ** 2, k, evaluate=False),
           f"completing the square in ${latex(var)}$ (checked by expanding)")
    return c2, h, k


def tail_integral(xi, rho, eps, z=None, lhs=None):
    """Derive ``int_eps^oo e^{eps - z} e^{-(z - xi - rho)^2/(4 rho)} dz`` (the privacy profile bound obtained by
    integrating a Gaussian tail bound on the privacy loss against ``e^{eps - z}``): the exponent is a completed
    square and the integral a Gaussian tail (``erfc``).  Returns the closed form."""
    z = z if z is not None else sp.Symbol("z", real=True)
    expo = (eps - z) - (z - xi - rho) ** 2 / (4 * rho)
    c2, h, k = complete_square(expo, z, lhs=Tex(r"\varepsilon - z - \frac{(z-\xi-\rho)^2}{4\rho}"))
    name = lhs or Tex(r"\int_\varepsilon^\infty e^{\varepsilon-z}e^{-(z-\xi-\rho)^2/4\rho}\,dz")
    record(name, sp.Integral(sp.exp(expo), (z, eps, sp.oo)), "a Gaussian integral over a half-line")
    # the substitution u = z - h of the completed square: e^k times a centred Gaussian integral (SymPy's erfc rule;
    # the expanded exponent sent it to the Risch-Norman heuristic, 4 s)
    u = sp.Symbol("u", real=True)
    lo = sp.expand(eps - h)
    record(name, sp.exp(k) * sp.Integral(sp.exp(c2 * u**2), (u, lo, sp.oo)),
           f"$u = z - ({latex(h)})$: the completed square")
    val, _ = integrate_split(sp.exp(c2 * u**2), u, lo, sp.oo, note="a centred Gaussian integral over a half-line")
    tail = sp.factor(sp.expand((sp.exp(k) * val).rewrite(sp.erfc)))
    record(name, tail, "written with the complementary error function $\\operatorname{erfc} = 1 - \\operatorname{erf}$")
    return tail


def affine_loss_law(P: Normal, Q: Normal, G=None, lhs=None):
    """The privacy loss ``Z = log p(Y)/q(Y)``, ``Y ~ P = N(m, s^2)``, when ``log p/q`` is affine: with
    ``Y = m + s G``, ``G ~ N(0, 1)``, ``Z = a + b G`` is Gaussian.  Returns ``(mean, variance, Z as a function of G)``."""
    G = G if G is not None else sp.Symbol("G", real=True)
    L = sp.expand(P.log_pdf() - Q.log_pdf())
    record(Tex(r"\log\frac{p(y)}{q(y)}"), L.subs(X, sp.Symbol("y", real=True)), "log-density ratio")
    if sp.degree(L, X) != 1:
        raise DerivationError("the log-density ratio is not affine: the privacy loss is not Gaussian")
    Z = sp.expand(L.subs(X, P.loc + P.std * G))
    record(Tex(r"Z"), Z, f"$Y = {latex(P.loc)} + {latex(P.std)}\\,G$ with $G \\sim \\mathcal N(0,1)$")
    mean = sp.simplify(Z.subs(G, 0))
    var = sp.simplify(sp.diff(Z, G) ** 2)
    record(Tex(r"\mathbb E[Z]"), mean, "the constant term")
    record(Tex(r"\mathrm{Var}[Z]"), var, "the square of the coefficient of $G$")
    record(lhs or Tex(r"Z"), Tex(r"\mathcal N\left(%s,\ %s\right)" % (latex(mean), latex(var))),
           "an affine function of a standard normal")
    return mean, var, Z


def mcdp_exponent(mu, tau, alpha, lhs=None):
    """Derive the zCDP curve implied by ``(mu, tau)``-mCDP: ``(alpha - 1)^2 tau^2/2 + (alpha - 1) mu`` divided by
    ``alpha - 1``, collected as ``xi + rho alpha``.  Returns ``(xi, rho)``."""
    expo = (alpha - 1) ** 2 * tau**2 / 2 + (alpha - 1) * mu
    record(lhs or Tex(r"\log\mathbb E[e^{(\alpha-1)Z}]"), expo,
           "$\\mathbb E[e^{(\\alpha-1)Z}] = \\mathbb E[e^{(\\alpha-1)(Z-\\mathbb E Z)}]\\,e^{(\\alpha-1)\\mathbb E Z}$, "
           "the mCDP bounds on both factors")
    per = sp.expand(sp.cancel(expo / (alpha - 1)))
    poly = sp.Poly(per, alpha)
    rho_, xi_ = poly.coeff_monomial(alpha), poly.coeff_monomial(1)
    record(Tex(r"D_\alpha"), xi_ + rho_ * alpha, "divided by $\\alpha - 1$ and collected in powers of $\\alpha$")
    return sp.simplify(xi_), sp.simplify(rho_)


# -- group privacy ----------------------------------------------------------------------------------------
def harmonic(k: int):
    """``H_k = sum_{i <= k} 1/i`` (exact rational)."""
    return sp.Add(*[sp.Rational(1, i) for i in range(1, k + 1)]) if k >= 1 else sp.Integer(0)


def holder_orders(k, alpha, lhs=None):
    """The Hölder exponents of the triangle-like inequality for Rényi divergences: ``p = (k alpha - 1)/(alpha (k-1))``,
    ``q = (k alpha - 1)/(alpha - 1)``; derives ``1/p + 1/q``, the orders ``p alpha`` and ``q(alpha - 1) + 1`` and the
    coefficient ``(p alpha - 1)/(p(alpha - 1))``.  Returns a dict of the derived expressions."""
    p = (k * alpha - 1) / (alpha * (k - 1))
    q = (k * alpha - 1) / (alpha - 1)
    out = {"p": p, "q": q, "conj": sp.simplify(1 / p + 1 / q), "order_PR": sp.simplify(p * alpha),
           "order_RQ": sp.simplify(q * (alpha - 1) + 1), "coef": sp.factor(sp.simplify((p * alpha - 1) / (p * (alpha - 1))))}
    record(Tex(r"\frac1p+\frac1q"), out["conj"], "Hölder's exponents are conjugate")
    record(Tex(r"p\alpha"), out["order_PR"], "the order of $D(P\\|R)$")
    record(Tex(r"q(\alpha-1)+1"), out["order_RQ"], "the order of $D(R\\|Q)$")
    record(Tex(r"\frac{p\alpha-1}{p(\alpha-1)}"), out["coef"], "the coefficient of $D(P\\|R)$")
    return out


def group_induction(xi, rho, k, alpha, lhs=None):
    """One step of the induction for group privacy: with ``(xi_{k-1}, rho_{k-1}) = (xi (k-1) H_{k-1}, rho (k-1)^2)``
    for the first ``k - 1`` changes and ``(xi, rho)`` for the last one, the triangle-like inequality at ``k`` gives
    a bound whose ``rho``-part is derived exactly and whose ``xi``-part is bounded by its supremum over ``alpha > 1``
    (the coefficient ``k alpha/(k alpha - 1)`` decreases to ``k/(k - 1)`` at ``alpha -> 1``).  ``H_{k-1}`` is the
    symbol ``H``.  Returns ``(rho_part, xi_part_sup)``."""
    H = sp.Symbol("H_{k-1}", positive=True)
    coef = k * alpha / (k * alpha - 1)
    order = (k * alpha - 1) / (k - 1)
    rho_part = sp.factor(sp.simplify(coef * (rho * (k - 1) ** 2 * order) + rho * k * alpha))
    record(Tex(r"\rho\text{-part}"), sp.Add(sp.Mul(coef, rho * (k - 1) ** 2 * order, evaluate=False), rho * k * alpha,
                                           evaluate=False),
           "$(k-1)^2\\rho$ at the order $\\frac{k\\alpha-1}{k-1}$ and $\\rho$ at the order $k\\alpha$")
    record(Tex(r"\rho\text{-part}"), rho_part, "simplified")
    with time_limit(30, "monotonicity of the coefficient"):
        dcoef = sp.simplify(sp.diff(coef, alpha))
        lim = sp.limit(coef, alpha, 1, "+")
    record(Tex(r"\frac{\partial}{\partial\alpha}\frac{k\alpha}{k\alpha-1}"), dcoef, "negative for $\\alpha > 1$: the "
           "coefficient decreases")
    xi_part = sp.simplify(lim * xi * (k - 1) * H + xi)
    record(Tex(r"\xi\text{-part}"), xi_part, f"bounded by its value at $\\alpha \\to 1$ (coefficient ${latex(lim)}$)")
    Hk = H + 1 / k
    closed = sp.simplify(xi_part - xi * k * Hk)
    record(Tex(r"\xi\text{-part} - \xi k H_k"), closed, "with $H_k = H_{k-1} + 1/k$")
    return rho_part, xi_part


def group_recursion(k: int):
    """Iterate the triangle-like inequality for ``j = 2..k`` (exact rationals): with ``D_alpha <= x_{j-1} xi +
    r_{j-1} rho alpha`` after ``j - 1`` changes and ``xi + rho alpha`` for one change, the bound after ``j`` changes is
    ``jalpha/(jalpha - 1) (x_{j-1} xi + r_{j-1} rho (j alpha - 1)/(j - 1)) + xi + rho j alpha``: the ``rho``-part is
    linear in ``alpha`` with slope ``r_j = j r_{j-1}/(j-1) + j`` (derived with ``alpha`` a symbol), the ``xi``-part
    is largest at ``alpha -> 1``: ``x_j = j x_{j-1}/(j-1) + 1``.  Returns ``[(j, x_j, r_j)]``."""
    al = sp.Symbol("alpha", positive=True)
    out = [(1, sp.Integer(1), sp.Integer(1))]
    x, r = sp.Integer(1), sp.Integer(1)
    for j in range(2, k + 1):
        coef = j * al / (j * al - 1)
        slope = sp.simplify((coef * r * (j * al - 1) / (j - 1) + j * al) / al)
        if slope.has(al):
            raise DerivationError("the rho-part of the recursion is not linear in alpha")
        x = sp.limit(coef, al, 1, "+") * x + 1
        r = slope
        out.append((j, sp.nsimplify(x), r))
    return out


def dp_group_delta(eps, delta, k, lhs=None):
    """``(eps, delta)``-DP along a path of ``k`` neighbours: ``P_0(S) <= e^{k eps} P_k(S) + delta sum_{i<k} e^{i eps}``;
    derives the sum in closed form.  Returns ``(k eps, delta_k)``."""
    i = sp.Symbol("i", integer=True, nonnegative=True)
    s = sp.summation(sp.exp(i * eps), (i, 0, k - 1))
    if isinstance(s, sp.Piecewise):  # the branch e^eps = 1 is excluded for eps > 0
        s = [expr for expr, cond in s.args if cond is sp.true or cond == True][0]  # noqa: E712
    dk = sp.simplify(delta * s)
    record(lhs or Tex(r"\delta_k"), sp.Sum(delta * sp.exp(i * eps), (i, 0, k - 1)),
           "iterate $P(S) \\le e^\\varepsilon P'(S) + \\delta$ along the path")
    record(lhs or Tex(r"\delta_k"), dk, "geometric sum")
    return k * eps, dk


# -- mutual information --------------------------------------------------------------------------------
def mutual_information(prior, laws):
    """``I(X; Y)`` in nats for ``X ~ prior`` (probabilities) and ``Y | X = x_i ~ laws[i]`` (finite laws on the same
    points), at the working precision: ``sum_i prior_i D_1(laws_i || mixture)``."""
    pri = [_mpf(p) for p in prior]
    rows = [[_mpf(q) for q in L.probs] for L in laws]
    m = len(rows[0])
    mix = [mp.fsum(pi * r[j] for pi, r in zip(pri, rows)) for j in range(m)]
    return mp.fsum(pi * mp.fsum(r[j] * mp.log(r[j] / mix[j]) for j in range(m) if r[j] > 0)
                   for pi, r in zip(pri, rows) if pi > 0)


# -- peer adapters (zCDP and pure DP) -----------------------------------------
def autodp_puredp_rdp(eps: float, alpha: float):
    """autodp's ``converter.puredp_to_rdp(eps)(alpha)`` (the Rényi curve of eps-DP's extremal pair)."""
    def f():
        from autodp import converter
        return converter.puredp_to_rdp(float(eps))(float(alpha) if alpha != math.inf else math.inf)

    return peers.call_library("autodp", f"converter.puredp_to_rdp({float(eps)!r})({alpha!r})", f)


def autodp_zcdp_rdp(rho: float, xi: float, alpha: float):
    """autodp's ``rdp_bank.RDP_zCDP({'rho', 'xi'}, alpha)``."""
    def f():
        from autodp import rdp_bank
        return rdp_bank.RDP_zCDP({"rho": float(rho), "xi": float(xi)}, float(alpha))

    return peers.call_library("autodp", f"rdp_bank.RDP_zCDP({{'rho': {float(rho)!r}, 'xi': {float(xi)!r}}}, {float(alpha)!r})", f)


def dpa_zcdp_epsilon(rho: float, xi: float, delta: float, orders=None):
    """dp_accounting: ``RdpAccountant(orders).compose(ZCDpEvent(rho, xi)).get_epsilon_and_optimal_order(delta)``;
    returns ``(PeerValue of eps, orders used)``."""
    def f():
        from dp_accounting import dp_event
        from dp_accounting.rdp import rdp_privacy_accountant as ra

        acc = ra.RdpAccountant(orders=orders) if orders is not None else ra.RdpAccountant()
        acc.compose(dp_event.ZCDpEvent(float(rho), float(xi)))
        return acc.get_epsilon_and_optimal_order(float(delta))[0]

    try:
        from dp_accounting.rdp import rdp_privacy_accountant as ra
        used = list(orders) if orders is not None else list(ra.RdpAccountant()._orders)
    except Exception:  # noqa: BLE001 - the library may be missing
        used = []
    pv = peers.call_library("dp_accounting", f"RdpAccountant().compose(ZCDpEvent({float(rho)!r}, {float(xi)!r})).get_epsilon({float(delta)!r})", f)
    return pv, used


# -- instance families of pairs ---------------------------------------------
def random_finite_pairs(seed: int, count: int, ks=(2, 3, 4), label: str = "finite"):
    """``count`` pairs of random finite laws with exact rational probabilities (``random.Random(seed)``, see
    :func:`cbdp_sym.families.random_finite`): ``[(label, ZPair)]``."""
    import random

    rng = random.Random(seed)
    out = []
    for i in range(count):
        k = rng.choice(ks)
        P, Q = random_finite(rng, k), random_finite(rng, k)
        out.append((f"#{i}: P={describe(P, 3)}, Q={describe(Q, 3)}", ZPair.finite(P, Q, f"{label} #{i}")))
    return out


def spike_pair(w, q):
    """The two-point pair ``P = (w, 1 - w)``, ``Q = (q, 1 - q)`` (a rare outcome with a large likelihood ratio
    ``w/q`` when ``q`` is small): the extremal shape for privacy profiles at a given zCDP curve."""
    w, q = sp.sympify(w), sp.sympify(q)
    return ZPair.finite(Finite([0, 1], [w, 1 - w]), Finite([0, 1], [q, 1 - q]), f"spike w={short(w)}, q={short(q)}")


def finite_pair_from_logits(y, k):
    """A finite pair on ``k`` points from ``2(k - 1)`` unconstrained logits (search coordinates)."""
    P = Finite(list(range(k)), softmax(y[: k - 1]))
    Q = Finite(list(range(k)), softmax(y[k - 1: 2 * (k - 1)]))
    return ZPair.finite(P, Q, "search")


def short(x) -> str:
    """A short label for an exact number: ``1/500000000`` -> ``2e-9``, ``1/10000000000`` -> ``1e-10``, ``7/2`` stays
    (labels in narrow report columns must not hold long unbreakable tokens)."""
    r = sp.Rational(str(x)) if not isinstance(x, sp.Rational) else x
    if r.q > 1000 and r.p < 1000:
        return mp.nstr(mp.mpf(int(r.p)) / int(r.q), 3)
    return str(r)
