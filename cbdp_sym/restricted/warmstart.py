"""Double-precision warm starts for the restricted (poly_k, alpha) solver.

The scale-eliminated problem of :class:`cbdp_sym.restricted.solver._Power` -- minimise
``N(c) = (E_Q |h_c|^A)^{1/A}``, ``h_c(u) = 1 + sum_j c_j (u^j - m_j)``, ``u = (x - x0)/w`` -- is convex, so
its minimiser does not depend on where Newton's method starts.  Here it is located in double precision
(NumPy: tanh-sinh panels split at the zeros of ``h`` and at Q's kinks, damped Newton with BFGS
corrections); the solver then starts its working-precision Newton steps there, and those steps, the
stopping rule and the certificate (gradient, quadrature Hessian) are unchanged.  A start is only a
start: when anything here fails (a law without a NumPy density, a non-finite value, no progress) the
solver starts from ``c = 0`` as before.

>>> from cbdp_sym.laws.distributions import Normal
>>> c = power_start(Normal(0, 1), Normal(1, 1), 1, 2.0, 1.0, 1.0, [-1.0])
>>> round(c[0], 8)   # A = 2, h = 1 + c x (u = x - 1, m = -1): E_Q h^2 = 1 + 2c + 2c^2 is least at c = -1/2
-0.5
"""
from __future__ import annotations

import math

import numpy as np

from cbdp_sym.laws.distributions import Mixture
from cbdp_sym.laws.floats import np_log_pdf

__all__ = ["power_start"]

# tanh-sinh on [0, 1] (h = 1/8, |t| <= 3.75): nodes as distances from the left end (dl) and from the
# right end (dr), so that a node next to a zero of h keeps its distance to the zero exactly
_T = np.arange(-30, 31) / 8.0
_S = 0.5 * math.pi * np.sinh(_T)
_DL = 1.0 / (1.0 + np.exp(2.0 * _S))   # (1 - tanh s)/2: a node's distance from the right end (t > 0)
_DR = 1.0 / (1.0 + np.exp(-2.0 * _S))  # (1 + tanh s)/2: its distance from the left end (t < 0)
_WTS = 0.125 * 0.5 * math.pi * np.cosh(_T) / np.cosh(_S) ** 2 / 2.0


def _breaks(Q) -> list:
    out = []
    for L in (Q.components if isinstance(Q, Mixture) else [Q]):
        out += [float(v) for v in L.mp_breaks()]
    return out


class _PowerNP:
    """``S0 = E|h|^A q``, ``S1 = E |h|^{A-2} h psi q``, ``S2 = E |h|^{A-2} psi psi^T q`` (common scale dropped)."""

    def __init__(self, Q, k, A, x0, w, m):
        self.k, self.A, self.x0, self.w = k, float(A), float(x0), float(w)
        self.m = np.array([float(v) for v in m])
        self.lq = np_log_pdf(Q)
        self.kinks = sorted({float(v) for v in Q.mp_kinks()})
        self.brk = sorted(set(_breaks(Q)))
        self.reach = float(Q.mp_reach())

    def coeffs(self, c):
        return np.concatenate(([1.0 - float(np.dot(c, self.m))], c))

    def _nodes(self, cs):
        """Quadrature nodes and weights in x (panels of width w/2 over the region that matters, split at the
        real zeros of h and at Q's kinks)."""
        A, x0, w = self.A, self.x0, self.w
        grid = x0 + np.linspace(-self.reach, self.reach, 4001)
        hv = np.polyval(cs[::-1], (grid - x0) / w)
        with np.errstate(divide="ignore"):
            L = A * np.log(np.abs(hv)) + self.lq(grid)
        top = np.max(L[np.isfinite(L)])
        keep = np.nonzero(L > top - 60.0)[0]
        lo, hi = grid[max(keep[0] - 1, 0)], grid[min(keep[-1] + 1, len(grid) - 1)]
        rts = np.roots(cs[::-1]) if np.any(cs[1:] != 0) else np.array([])
        real = [x0 + w * r.real for r in rts if abs(r.imag) <= 1e-9 * (1 + abs(r))]
        pts = {lo, hi}
        pts.update(v for v in np.arange(lo, hi, w / 2))
        pts.update(v for v in real + self.kinks + self.brk if lo < v < hi)
        pts = np.array(sorted(pts))
        a, b = pts[:-1], pts[1:]
        ln = (b - a)[:, None]
        left = _T[None, :] < 0
        x = np.where(left, a[:, None] + ln * _DR[None, :], b[:, None] - ln * _DL[None, :])
        wts = ln * _WTS[None, :]
        return x.ravel(), wts.ravel(), lo, hi

    def sums(self, c, order=2):
        cs = self.coeffs(c)
        x, wq, _lo, _hi = self._nodes(cs)
        u = (x - self.x0) / self.w
        hv = np.polyval(cs[::-1], u)
        ah = np.abs(hv)
        ok = ah > 0
        x, wq, u, hv, ah = x[ok], wq[ok], u[ok], hv[ok], ah[ok]
        la = np.log(ah)
        L = self.A * la + self.lq(x)
        top = L.max()
        base = wq * np.exp(L - top)          # |h|^A q, scaled
        S0 = base.sum()
        logS0 = math.log(S0) + top
        if order == 0:
            return logS0, None, None
        psi = u[None, :] ** np.arange(1, self.k + 1)[:, None] - self.m[:, None]
        S1 = (psi * (base / hv)).sum(axis=1) / S0
        if order == 1:
            return logS0, S1, None
        b2 = base / (ah * ah)
        S2 = (psi[:, None, :] * psi[None, :, :] * b2).sum(axis=2) / S0
        return logS0, S1, S2


def power_start(P, Q, k, A, x0, w, m, max_iter=100):
    """The minimiser ``c`` of ``N(c) = ||h_c||_{L^A(Q)}`` in double precision (a list of floats), or ``None``.

    ``m`` are P's moments ``E_P u^j`` (``j = 1..k``).  Newton's direction from the quadrature Hessian
    ``N (A - 1) (S2 - S1 S1^T)`` (the gradient is ``N S1``), BFGS-corrected from there on (for ``A < 2`` the
    quadrature misses part of the Hessian's singular mass at the zeros of h), with backtracking on ``log N``.
    """
    try:
        if np_log_pdf(Q) is None or Q.atomic:
            return None
        prob = _PowerNP(Q, k, A, x0, w, m)
        Af = prob.A
        c = np.zeros(k)
        with np.errstate(all="ignore"):
            lS, S1, S2 = prob.sums(c, 2)
            if not (np.isfinite(lS) and np.all(np.isfinite(S1)) and np.all(np.isfinite(S2))):
                return None
            lN0 = lN = lS / Af
            f = 1.0  # N / N(0)
            g = f * S1  # its gradient
            B = f * (Af - 1) * (S2 - np.outer(S1, S1))  # and its Hessian (quadrature)
            for _ in range(max_iter):
                if np.linalg.norm(S1) <= 1e-13:
                    break
                try:
                    d = -np.linalg.solve(B, g)
                except np.linalg.LinAlgError:
                    d = -g
                if not np.dot(d, g) < 0:
                    d = -g
                t, accepted = 1.0, False
                for _h in range(60):
                    cand = c + t * d
                    lS2, S1n, _ = prob.sums(cand, 1)
                    fn = math.exp(lS2 / Af - lN0)
                    if np.isfinite(fn) and fn <= f + 1e-4 * t * np.dot(d, g) + 1e-15 * f:
                        accepted = True
                        break
                    t /= 2
                if not accepted or not np.all(np.isfinite(S1n)):
                    break
                gn = fn * S1n
                s, y = cand - c, gn - g
                c, f, g, S1 = cand, fn, gn, S1n
                sy = float(np.dot(s, y))
                Bs = B @ s
                sBs = float(np.dot(s, Bs))
                if sy > 0 and sBs > 0:
                    B = B + np.outer(y, y) / sy - np.outer(Bs, Bs) / sBs
                if np.linalg.norm(s) <= 1e-14 * (1 + np.linalg.norm(c)):
                    break
        if not np.all(np.isfinite(c)):
            return None
        return [float(v) for v in c]
    except (ValueError, OverflowError, ZeroDivisionError, FloatingPointError, IndexError):
        return None
