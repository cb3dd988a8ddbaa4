"""Composition of mechanisms: ``K``-fold and heterogeneous, as product laws, with their divergences, privacy profiles and
``eps(delta)`` at high precision.

A :class:`Composition` holds the mechanisms' pairs ``(P_i, Q_i)`` with their multiplicities ``K_i`` (the pair of the
composed mechanism is the product ``prod_i P_i^{K_i}`` against ``prod_i Q_i^{K_i}``).

* Rényi divergences, KL and the max-divergence **add** (independent coordinates); the alpha-divergence follows from
  the Rényi one: exact wherever the parts are (:meth:`Composition.renyi`, :meth:`Composition.renyi_sym`).
* The privacy profile ``delta(eps) = E_Q[(e^L - e^eps)_+]`` of the composition, ``L = sum_i L_i`` the total privacy
  loss:

  - **closed form** when every part is a Gaussian location pair: the composition is the Gaussian pair with
    ``mu^2 = sum_i K_i (Delta_i / sigma_i)^2`` (exact);
  - **exact atoms** when every part is a pair of finite laws (the loss atoms composed by multinomial counts);
  - otherwise the **privacy-loss MGF** ``M_i(s) = E_{Q_i}[(p_i/q_i)^{1+s}]`` and the inversion formula::

        delta(eps) = (1 / 2 pi i) int_{c - i oo}^{c + i oo} prod_i M_i(s)^{K_i} e^{-s eps} / (s (s + 1)) ds,   c > 0,

    (the two-sided Laplace transform of ``(e^z - e^eps)_+`` is ``e^{-s eps} / (s (s + 1))``).  ``c`` is the saddle
    point of the integrand on the real axis; on the line ``s = c + it`` the integrand is ``M(c)^K e^{-c eps}`` times
    the characteristic function ``phi(t)`` of the loss under the law tilted by ``e^{(1 + c) L}``, which is computed once
    per ``t`` from a fixed tanh-sinh rule (nodes ``x_j``, weights ``a_j``, ``phi(t) = sum_j a_j e^{i t L(x_j)}``) whose
    degree was raised until ``phi`` at the largest ``t`` needed agreed with the next degree.  The ``t``-integral is
    mpmath's tanh-sinh on ``[0, T]`` (conjugate symmetry halves it), ``T`` where ``|phi(T)|^K`` has fallen below the
    working precision (checked at ``T``, ``1.5 T`` and ``2 T``).  The stated error adds the outer quadrature's error
    estimate, ``K`` times the inner rule's, and the truncation's; it is an estimate, not a proof.

:meth:`Composition.eps` inverts the profile (:func:`cbdp_sym.divergences.profiles.eps_for_delta`) and states the
error of ``eps`` from that of ``delta`` (``d eps = d delta / |delta'(eps)|``).

>>> import mpmath as mp, sympy as sp
>>> from cbdp_sym.laws.distributions import Normal
>>> C = Composition([(Normal(1, 1), Normal(0, 1), 4)])
>>> with mp.workdps(30):
...     mp.nstr(C.renyi(3), 20), C.profile(1)["method"]
('6.0', 'closed form (a composition of Gaussian pairs is a Gaussian pair)')
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import flint
import mpmath as mp
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.memo import memo_numeric
from cbdp_sym.core.numbers import to_mpf
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.divergences.conversions import compose_atoms, delta_atoms, loss_atoms
from cbdp_sym.divergences.fdiv import renyi_divergence
from cbdp_sym.divergences.lattice_numeric import _View, alpha_sum_minus_one, involves_lattice
from cbdp_sym.divergences.mechanisms import renyi_numeric
from cbdp_sym.divergences.profiles import eps_for_delta, exact_eps, profile_mp
from cbdp_sym.divergences.subsampling import _parts, _peaks, _quad_once
from cbdp_sym.laws.discrete import lattice_sum
from cbdp_sym.laws.distributions import Finite, Normal, Product

__all__ = ["Composition", "ContourProfile", "compose", "contour_profile"]


def _gaussian_shift(P, Q):
    """``Delta / sigma`` of a Gaussian location pair (equal standard deviations), else ``None``."""
    if isinstance(P, Normal) and isinstance(Q, Normal) and P.mp_width() == Q.mp_width():
        return abs(P.mp_loc() - Q.mp_loc()) / P.mp_width()
    return None


_GAUSSIAN_METHOD = "closed form (a composition of Gaussian pairs is a Gaussian pair)"
_ATOMS_METHOD = "exact privacy-loss atoms (multinomial counts)"
def _gaussian_eps_of(mu, d):
    """``eps(delta)`` of the Gaussian pair ``N(0, 1)``, ``N(mu, 1)`` at the working precision: the root of
    :func:`profile_mp` (the definition's quadrature) as :func:`exact_eps` finds it, located in double precision and
    polished at the working precision (four profiles where the 20-digit bracket search took some twenty)."""
    return exact_eps(Normal(0, 1), Normal(mu, 1), d)["eps"]


# remembered by (mu, delta) and the working precision in this process (the two directions of a symmetric Gaussian
# pair are one pair): the project's in-process memo, bypassed under --no-cache as every other
_gaussian_eps = memo_numeric(_gaussian_eps_of, key=lambda mu, d: (mu._mpf_, d._mpf_), deepcopy=False)


@dataclass(frozen=True)
class Composition:
    """The composition of the mechanisms whose pairs are ``parts = ((P_1, Q_1, K_1), ...)``: ``K_i`` independent
    runs of each (``P`` the output law on one input, ``Q`` on its neighbour)."""

    parts: tuple = field(default_factory=tuple)

    def __init__(self, parts):
        out = []
        for item in parts:
            if len(item) == 2:
                P, Q, Kk = item[0], item[1], 1
            elif len(item) == 3:
                P, Q, Kk = item
            else:
                raise ParameterError("a part of a composition is (P, Q) or (P, Q, K)")
            if isinstance(Kk, sp.Basic) and not Kk.is_number:  # a symbol: derivations only (renyi_sym)
                if not (Kk.is_integer and Kk.is_positive):
                    raise ParameterError(f"a symbolic number of compositions must be a positive integer symbol, got {Kk}")
            elif isinstance(Kk, bool) or not (isinstance(Kk, int) or (isinstance(Kk, sp.Basic) and Kk.is_Integer)) \
                    or Kk < 1:
                raise ParameterError(f"the number of compositions must be a positive integer, got {Kk!r}")
            else:
                Kk = int(Kk)
            if isinstance(P, Product) or isinstance(Q, Product):
                raise ParameterError("compose one-dimensional pairs (a product law is itself a composition)")
            out.append((P, Q, Kk))
        if not out:
            raise ParameterError("a composition needs at least one pair")
        object.__setattr__(self, "parts", tuple(out))

    @property
    def total(self) -> int:
        return sum(k for _p, _q, k in self.parts)

    def reversed(self) -> "Composition":
        """The composition of the pairs in the other order, ``(Q_i, P_i)``."""
        return Composition([(Q, P, k) for P, Q, k in self.parts])

    # -- divergences that add ----------------------------------------------------------------------------------
    def renyi(self, alpha):
        """``D_alpha`` of the composition, ``sum_i K_i D_alpha(P_i || Q_i)`` (``alpha`` > 1, 1 for KL, ``inf``)."""
        return mp.fsum(k * renyi_numeric(P, Q, alpha) for P, Q, k in self.parts)

    def renyi_sym(self, alpha, lhs=None):
        """``D_alpha`` of the composition, derived: each part by the engine, then the sum (Fubini: the Rényi
        integral of a product factorises)."""
        total = sp.Integer(0)
        for i, (P, Q, k) in enumerate(self.parts, 1):
            D, _c = renyi_divergence(P, Q, alpha, lhs=Tex(r"D_\alpha(P_{%d} \| Q_{%d})" % (i, i)))
            total += k * D
        record(lhs or Tex(r"D_\alpha\left(\bigotimes_i P_i^{K_i} \,\|\, \bigotimes_i Q_i^{K_i}\right)"), total,
               "composition: the Rényi integral of a product law is the product of the integrals (Fubini), so the "
               "divergences add, each part $K_i$ times")
        return total

    def kl(self):
        return self.renyi(1)

    def max_divergence(self):
        return self.renyi(mp.inf)

    def alpha_divergence(self, alpha):
        """CBDP's alpha-divergence ``(prod_i S_i^{K_i} - 1)/(alpha^2 - alpha)``, ``S_i = sum p^alpha q^(1-alpha)``."""
        al = to_mpf(alpha)
        logS = mp.fsum(k * (al - 1) * renyi_numeric(P, Q, al) for P, Q, k in self.parts)
        return mp.expm1(logS) / (al * al - al)

    # -- the privacy profile ---------------------------------------------------------------------------------------
    def method(self) -> str:
        if all(_gaussian_shift(P, Q) is not None for P, Q, _k in self.parts):
            return "gaussian"
        if all(isinstance(P, Finite) and isinstance(Q, Finite) for P, Q, _k in self.parts):
            return "atoms"
        return "contour"

    def _gaussian_mu(self):
        return mp.sqrt(mp.fsum(k * _gaussian_shift(P, Q) ** 2 for P, Q, k in self.parts))

    def _atoms(self):
        acc = None
        for P, Q, k in self.parts:
            atoms = compose_atoms(loss_atoms(P, Q), k)
            if acc is None:
                acc = atoms
            else:
                acc = [(a[0] + b[0], a[1] * b[1], a[2] * b[2]) for a in acc for b in atoms]
        return acc

    def profile(self, eps, contour=None):
        """``{"delta", "error", "method", ...}``: the composition's profile at ``eps`` (mpf values; ``error`` a
        relative error estimate, 0 for the exact methods up to rounding)."""
        e = to_mpf(eps)
        if e < 0:
            raise ParameterError(f"eps must be >= 0, got {eps}")
        m = self.method()
        if m == "gaussian":
            mu = self._gaussian_mu()
            return {"delta": profile_mp(Normal(0, 1), Normal(mu, 1), e), "error": mp.mpf(0), "method": _GAUSSIAN_METHOD}
        if m == "atoms":
            return {"delta": delta_atoms(self._atoms(), e), "error": mp.mpf(0), "method": _ATOMS_METHOD}
        contour = contour or ContourProfile(self, e)
        d, err = contour.delta(e)
        return {"delta": d, "error": err, "method": contour.description()}

    def eps(self, delta, contour=None):
        """``{"eps", "error", "method", ...}``: the composition's exact ``eps(delta)`` (in the direction ``P`` against
        ``Q``), ``error`` a relative error estimate of ``eps``."""
        d = to_mpf(delta)
        m = self.method()
        if m == "gaussian":
            return {"eps": _gaussian_eps(self._gaussian_mu(), d), "error": mp.mpf(0), "method": _GAUSSIAN_METHOD}
        if m == "atoms":
            val = eps_for_delta(lambda x: self.profile(x)["delta"], d)
            return {"eps": val, "error": mp.mpf(0), "method": _ATOMS_METHOD}
        # a first eps at 20 digits around the saddle point of a rough guess, then the working precision around it
        guess = self._rdp_eps(d)
        with mp.workdps(20):
            rough = ContourProfile(self, guess, digits=18)
            e1 = eps_for_delta(lambda x: rough.delta(x)[0], d)
        cp = contour or ContourProfile(self, e1)
        errs = {}

        def prof(x):
            v, er = cp.delta(x)
            errs[mp.mpf(x)] = er
            return v

        val = eps_for_delta(prof, d)
        v0, er0 = cp.delta(val)
        h = max(abs(val), mp.mpf(1)) * mp.mpf(10) ** (-(mp.mp.dps // 3))
        slope = (mp.log(cp.delta(val + h)[0]) - mp.log(cp.delta(val - h)[0])) / (2 * h)  # d log delta / d eps
        rel_eps = er0 / (abs(slope) * abs(val)) if val != 0 else er0
        return {"eps": val, "error": rel_eps, "delta_error": er0, "method": cp.description(), "c": cp.c, "T": cp.T}

    def _rdp_eps(self, d):
        """A quick upper bound of ``eps(delta)`` from the Rényi curve at a few orders (Mironov's conversion), at 15
        digits: only where the saddle point is looked for."""
        best = mp.inf
        with mp.workdps(15):
            for a in (mp.mpf(3) / 2, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64):
                try:
                    r = self.renyi(a)
                except (ParameterError, ValueError, ZeroDivisionError):
                    continue
                if mp.isfinite(r):
                    best = min(best, r + mp.log(1 / d) / (a - 1))
        if not mp.isfinite(best):
            best = mp.mpf(1)
        return +best


def compose(*pairs):
    """``Composition`` of pairs ``(P, Q)`` or ``(P, Q, K)`` (heterogeneous composition: several pairs)."""
    return Composition(list(pairs))


# -- the contour integral --------------------------------------------------------------------------------------
def _arb(x):
    """An mpf as an exact arb."""
    sign, man, exp, _bc = mp.mpf(x)._mpf_
    if not man:
        return flint.arb(0)
    return flint.arb(flint.fmpz(int(-man if sign else man))) * flint.arb(2) ** int(exp)


def _mpf(b):
    man, exp = b.man_exp()
    return mp.mpf(int(man)) * mp.mpf(2) ** int(exp)


class _Tilted:
    """One pair's privacy loss ``L = log p/q`` under ``Q`` tilted by ``e^{(1 + c) L}``: nodes with weights ``a_j``
    (summing to 1) and loss values ``L_j``, so that ``phi(t) = sum_j a_j e^{i t L_j}`` is ``E_Q[e^{(1 + c + i t) L}] /
    M(c)``; ``logM = log M(c)``; ``err`` the rule's error estimate at the largest ``t`` (absolute, on ``phi``).

    Laws with densities: the trapezoid rule on the line, step ``h`` (spectrally accurate: the integrand
    ``e^{g(x)} e^{i t L(x)}`` is analytic), cut where ``g`` has fallen ``work + 25`` decades below its peak; the error
    is estimated by the rule of step ``2 h`` (every other node) at ``t = tmax``, and ``h`` halved until it is small.
    Finite laws: the loss atoms.  Laws on the integers: the sum over the support (with its tail bound)."""

    def __init__(self, P, Q, c, tmax, K, work):
        self.P, self.Q, self.c = P, Q, c
        self.lattice_loss = False
        if involves_lattice(P, Q):
            self._lattice(P, Q, c)
        elif P.atomic or Q.atomic:
            self._finite(P, Q, c)
        else:
            self._density(P, Q, c, tmax, K, work)
        mean = mp.fsum(a * L for a, L in zip(self.a, self.L))
        self.var = mp.fsum(a * (L - mean) ** 2 for a, L in zip(self.a, self.L))

    def _finish(self, logw, L):
        top = max(logw)
        w = [mp.exp(v - top) for v in logw]
        tot = mp.fsum(w)
        self.logM = mp.log(tot) + top
        self.a = [x / tot for x in w]
        self.L = L

    def _finite(self, P, Q, c):
        atoms = [(L, p, q) for L, p, q in loss_atoms(P, Q) if q > 0 and p > 0]
        self._finish([mp.log(q) + (1 + c) * L for L, p, q in atoms], [L for L, _p, _q in atoms])
        self.err = mp.mpf(0)

    def _lattice(self, P, Q, c):
        A, B = _View(P), _View(Q)
        if not A.inside(B):
            raise ParameterError("P has mass where Q has none: the privacy loss is infinite with positive probability")
        al = 1 + c
        forms = {}
        for d in (1, -1):
            if A.end(d) is not None:
                forms[d] = None
                continue
            lq, ub = B.lower(d), A.upper(d)
            forms[d] = [u.times(al).plus(lq.times(1 - al)).add_const((al - 1) * mp.log(len(ub))) for u in ub]
        logw, Ls = [], []

        def term(k):
            lp = A.log_pmf(k)
            if lp == -mp.inf:
                return mp.mpf(0)
            Lk = lp - B.log_pmf(k)
            logw.append(B.log_pmf(k) + al * Lk)
            Ls.append(Lk)
            return mp.exp(logw[-1])

        lattice_sum(term, forms.get(1), forms.get(-1), A.lo, A.hi, A.mode, what="the tilted loss law")
        self._finish(logw, Ls)
        self.err = mp.mpf(0)
        self.lattice_loss = True

    def _density(self, P, Q, c, tmax, K, work):
        def g(x):
            return (1 + c) * P.mp_log_pdf(x) - c * Q.mp_log_pdf(x)

        def L(x):
            return P.mp_log_pdf(x) - Q.mp_log_pdf(x)

        locs = [Lw.mp_loc() for Lw in _parts(P) + _parts(Q)]
        w0 = max(Lw.mp_width() for Lw in _parts(P) + _parts(Q))
        lo = min(locs) - 40 * w0
        hi = max(locs) + 40 * w0 + 2 * (1 + c) * (max(locs) - min(locs) + w0) * w0
        peaks = _peaks(g, lo, hi)
        top = max(v for _m, _w, v in peaks)
        cut = top - (work + 25) * mp.log(10)
        # the range where e^g matters: outward from the outermost peaks by doubling steps until g < cut
        left, right = min(m for m, _w, _v in peaks), max(m for m, _w, _v in peaks)
        wmin = min(w for _m, w, _v in peaks)
        for direction in (-1, 1):
            x = left if direction < 0 else right
            step = wmin
            while g(x) > cut:
                x += direction * step
                step *= 1.5
            if direction < 0:
                left = x
            else:
                right = x
        # the step: a few nodes per width of the peaks, and per oscillation of e^{i tmax L}
        with mp.workdps(20):
            grid = [left + (right - left) * mp.mpf(i) / 2000 for i in range(2001)]
            Ls = [L(x) for x in grid]
            slope = max(abs(b - a) for a, b in zip(Ls[:-1], Ls[1:])) / ((right - left) / 2000)
        h = min(wmin / 6, 2 * mp.pi / (tmax * slope + 1) / 6)
        for _ in range(8):
            n = int(mp.ceil((right - left) / h))
            h = (right - left) / n
            xs = [left + j * h for j in range(n + 1)]
            gs = [g(x) for x in xs]
            Lv = [L(x) for x in xs]
            w = [mp.exp(v - top) for v in gs]
            full = mp.fsum(wi * mp.expj(tmax * li) for wi, li in zip(w, Lv)) * h
            half = mp.fsum(wi * mp.expj(tmax * li) for wi, li in zip(w[::2], Lv[::2])) * 2 * h
            mass = mp.fsum(w) * h
            err = abs(full - half) / mass
            if err < mp.mpf(10) ** -(work - 5):  # (K err stays below 10^-(dps + 5): work = dps + log10 K + 10)
                break
            h /= 2
        self._finish([v + mp.log(h) for v in gs], Lv)
        self.err = err

    def phi(self, t):
        return mp.fsum(a * mp.expj(t * L) for a, L in zip(self.a, self.L))

    def phis(self, h, n):
        """``[phi(k h) for k = 0..n]`` by the recurrence ``e^{i (k+1) h L} = e^{i k h L} e^{i h L}``, in python-flint's
        ball arithmetic (about ten times faster than mpmath here) at the working precision plus 30 bits; the balls'
        midpoints are returned (their radii, from the rounding of the recurrence, stay far below the working
        precision)."""
        old = flint.ctx.prec
        flint.ctx.prec = mp.mp.prec + 30
        try:
            z = [flint.acb(_arb(a)) for a in self.a]
            u = [flint.acb(0, _arb(h * L)).exp() for L in self.L]
            zero = flint.acb(0)
            out = [sum(z, zero)]
            for _ in range(n):
                z = [zi * ui for zi, ui in zip(z, u)]
                out.append(sum(z, zero))
            return [mp.mpc(_mpf(v.real.mid()), _mpf(v.imag.mid())) for v in out]
        finally:
            flint.ctx.prec = old


class ContourProfile:
    """The profile of a :class:`Composition` by the inversion of its privacy-loss MGF along ``Re s = c`` (see the
    module docstring): ``delta(eps) = M(c)^K e^{-c eps} / (2 pi) int Phi(t) e^{-i t eps} / ((c + i t)(1 + c + i t)) dt``
    by the trapezoid rule on the line (step ``h``, ``t = k h`` for ``|k| <= n``, conjugate symmetry), ``Phi`` the
    tilted characteristic function of the total loss.  The error estimate is the difference from the rule of step
    ``2 h`` (every other point) plus ``K`` times the inner rules' and the truncated terms' size."""

    def __init__(self, comp: Composition, eps0, digits=None):
        self.comp = comp
        self.dps = digits or mp.mp.dps
        e0 = to_mpf(eps0)
        K = comp.total
        self.K = K
        self.work = self.dps + int(math.ceil(math.log10(K))) + 10
        with mp.workdps(20):
            self.c = max(self._saddle(e0), mp.mpf(1) / 4)
            var = mp.fsum(k * _Tilted(P, Q, self.c, mp.mpf(1), k, 8).var for P, Q, k in comp.parts)
        with mp.workdps(self.work):
            c = mp.mpf(self.c)
            T = mp.sqrt(2 * (self.work + 10) * mp.log(10) / max(var, mp.mpf(10) ** -30))
            # the strip of analyticity |Im t| < c (the pole at s = 0): the trapezoid error is ~ e^{-2 pi (c/2) / h}
            self.h = 2 * mp.pi * (c / 2) / ((self.work + 15) * mp.log(10))
            for _ in range(6):
                n = int(mp.ceil(T / self.h))
                self.parts = [(_Tilted(P, Q, c, n * self.h, k, self.work), k) for P, Q, k in comp.parts]
                if any(tl.lattice_loss for tl, _k in self.parts):
                    raise ParameterError("the privacy loss of this pair takes values on a lattice (laws on the "
                                         "integers): its characteristic function is periodic and the inversion along a "
                                         "line does not apply here; the Renyi, KL and max-divergence of the "
                                         "composition are exact")
                self.logM = mp.fsum(k * tl.logM for tl, k in self.parts)
                self._grid(n)
                tail = max(abs(v) for v in self.Phi[-max(3, n // 10):])
                if tail < mp.mpf(10) ** -(self.work + 10):
                    break
                T *= 1.5
            else:
                raise ParameterError("the tilted characteristic function does not decay: no truncation found")
            self.n = n
            self.T = n * self.h
            self.tail = tail
            self.inner_err = mp.fsum(k * tl.err for tl, k in self.parts)
            # the step: halved while the rule of step 2 h (every other point) differs from this one by more than the
            # target at eps0 (the growth of M^K off the real axis narrows the strip where the trapezoid rule converges)
            for _ in range(4):
                _d, rel = self.delta(e0)
                if rel < mp.mpf(10) ** -(self.dps + 5):
                    break
                self.h /= 2
                self.n *= 2
                self._grid(self.n)

    def _grid(self, n):
        """``Phi(k h)`` for ``k = 0..n``: the product of the parts' ``phi^K``."""
        logphi = [mp.mpc(0)] * (n + 1)
        for tl, k in self.parts:
            logphi = [a + k * mp.log(b) for a, b in zip(logphi, tl.phis(self.h, n))]
        self.Phi = [mp.exp(v) for v in logphi]

    def description(self):
        nodes = sum(len(tl.a) for tl, _k in self.parts)
        return (f"MGF inversion along Re s = {mp.nstr(self.c, 5)}: trapezoid rule in t (step {mp.nstr(self.h, 3)}, "
                f"{self.n + 1} points up to t = {mp.nstr(self.T, 4)}), the tilted loss law on {nodes} nodes, "
                f"{self.work} digits")

    def _log_mgf(self, c):
        out = mp.mpf(0)
        for P, Q, k in self.comp.parts:
            if involves_lattice(P, Q) or P.atomic:
                out += k * mp.log1p(alpha_sum_minus_one(P, Q, 1 + c))
            else:
                out += k * _quad_once(P, Q, 1 + c)[0]
        return out

    def _saddle(self, e0):
        """The ``c > 0`` that minimises ``log M(c) - c eps0 - log(c (1 + c))`` (the integrand's size at ``t = 0``)."""
        def h(u):
            c = mp.exp(u)
            try:
                return self._log_mgf(c) - c * e0 - mp.log(c * (1 + c))
            except (ParameterError, ValueError, ZeroDivisionError):
                return mp.inf

        a, b = mp.log(mp.mpf(10) ** -3), mp.log(mp.mpf(100))
        gr = (mp.sqrt(5) - 1) / 2
        x1, x2 = b - gr * (b - a), a + gr * (b - a)
        f1, f2 = h(x1), h(x2)
        for _ in range(24):
            if f1 < f2:
                b, x2, f2 = x2, x1, f1
                x1 = b - gr * (b - a)
                f1 = h(x1)
            else:
                a, x1, f1 = x1, x2, f2
                x2 = a + gr * (b - a)
                f2 = h(x2)
        return mp.exp((a + b) / 2)

    def delta(self, eps):
        """``(delta(eps), relative error estimate)``."""
        e = to_mpf(eps)
        with mp.workdps(self.work):
            c, h = mp.mpf(self.c), self.h

            def f(k):
                t = k * h
                s = mp.mpc(c, t)
                return (self.Phi[k] * mp.expj(-t * e) / (s * (s + 1))).real

            vals = [f(k) for k in range(self.n + 1)]
            full = h * (vals[0] + 2 * mp.fsum(vals[1:]))
            half = 2 * h * (vals[0] + 2 * mp.fsum(vals[2::2]))
            pref = mp.exp(self.logM - c * e) / (2 * mp.pi)
            d = pref * full
            scale = h * mp.fsum(abs(self.Phi[k]) / abs(mp.mpc(c, k * h) * mp.mpc(1 + c, k * h)) for k in range(self.n + 1))
            abs_err = abs(full - half) + scale * self.inner_err + 2 * h * self.tail * self.n
            rel = abs_err / abs(full) if full != 0 else mp.mpf(1)
            rel += mp.mpf(10) ** -(self.work + 5)
        return +d, +rel


def contour_profile(comp: Composition, eps):
    """``(delta, relative error)`` of a composition's profile by the MGF inversion (see :class:`ContourProfile`)."""
    cp = ContourProfile(comp, eps)
    return cp.delta(eps)
