"""Double-precision twin of the restricted objective, for the coarse stage of the solver.

The restricted supremum is found in two stages (see :mod:`cbdp_sym.restricted`): Newton's method in
double precision, with value, gradient and Hessian from a vectorised tanh-sinh rule (numpy), then
a few high-precision (mpmath) gradient steps that use the double-precision Hessian.  The value at
the optimum is then an mpmath quadrature at the working precision; its error is quadratic in the
error of the maximiser, so a maximiser good to ``10^-(dps/2)`` gives the value to ``dps`` digits.

Tanh-sinh nodes are placed by their distance to the nearer end of each interval (``1 - |tanh u| =
2/(e^{2|u|} + 1)``), and next to a zero ``r`` of ``h`` the polynomial is evaluated as ``(x - r) g(x)``
(``g = h/(x - r)`` by synthetic division), so that the integrable singularities of ``f^*''`` at the
zeros of ``h`` are resolved rather than drowned in rounding noise.
"""
from __future__ import annotations

import functools

import mpmath as mp
import numpy as np
import sympy as sp

_STEP = 1.0 / 16
_U = np.arange(-64, 65) * _STEP  # |u| <= 4: weights below 1e-36 beyond
_S = 0.5 * np.pi * np.sinh(_U)
_W = _STEP * 0.5 * np.pi * np.cosh(_U) / np.cosh(_S) ** 2
_OFF = 2.0 / (np.exp(2.0 * np.abs(_S)) + 1.0)  # distance of the node to the nearer end, on [-1, 1]
_LEFT = _U < 0


@functools.lru_cache(maxsize=None)
def conj_triple_np(gen):
    """numpy ``(f^*, f^*', f^*'')`` of the derived conjugate, on each side of the kink 0 (or ``None``)."""
    from .divergences import S

    c = gen.conjugate()
    if c.lo.is_finite or c.hi.is_finite or any(k != 0 for k in c.kinks):
        return None
    r = sp.Symbol("r", positive=True)
    args = (r,) + tuple(gen.params)
    if not c.kinks:
        f = sp.lambdify(args, [sp.diff(c.expr, S, k).subs(S, r) for k in range(3)], modules="numpy", cse=True)
        return lambda s, *p: [np.broadcast_to(v, np.shape(s)) for v in f(s, *p)]
    sides = []
    for sgn in (1, -1):
        base = sp.powsimp(sp.simplify(c.expr.subs(S, sgn * r)), force=True)
        exprs = [sp.powsimp(sp.simplify(sgn**k * sp.diff(base, r, k)), force=True) for k in range(3)]
        sides.append(sp.lambdify(args, exprs, modules="numpy", cse=True))
    pos, neg = sides

    def triple(s, *p):
        s = np.asarray(s, dtype=float)
        out = [np.zeros_like(s) for _ in range(3)]
        m = s > 0
        if m.any():
            for k, v in enumerate(pos(s[m], *p)):
                out[k][m] = v
        m = s < 0
        if m.any():
            for k, v in enumerate(neg(-s[m], *p)):
                out[k][m] = v
        return out

    return triple


def _horner(coeffs_u, u):
    """``sum c_j u^j`` with ``coeffs_u`` constant first."""
    acc = np.zeros_like(u)
    for c in reversed(coeffs_u):
        acc = acc * u + c
    return acc


class FastObjective:
    """``J``, gradient and Hessian in double precision for a :class:`~cbdp_sym.restricted.PolyProblem`."""

    def __init__(self, prob):
        from .distributions import Laplace

        self.prob = prob
        Q = prob.Q
        self.k, self.n = prob.k, prob.n
        self.x0, self.w = float(prob.x0), float(prob.w)
        self.loc, self.width = float(Q.mp_loc()), float(Q.mp_width())
        self.laplace = isinstance(Q, Laplace)
        self.mean_p = np.array([float(m) for m in prob.mean_p])
        self.pvals = [float(v) for v in prob.pvals]
        tri = conj_triple_np(prob.gen)
        if tri is None:
            raise ValueError("no vectorised conjugate for this generator")
        self.tri = tri
        self.kinks = [float(s) for s in prob.conj_kinks]
        A = float(prob.power) if prob.power is not None else 1.0
        self.cut = (45.0 + 6.0 * A) if self.laplace else (10.0 + 3.0 * np.sqrt(A))
        self.ladder = sorted({float(x) for x in prob._ladder})

    def _pdf(self, x):
        z = (x - self.loc) / self.width
        if self.laplace:
            return np.exp(-np.abs(z)) / (2 * self.width)
        return np.exp(-0.5 * z * z) / (self.width * np.sqrt(2 * np.pi))

    def _roots(self, theta):
        cu = [theta[-1]] + list(theta[:-1])  # constant first, in u
        out = []
        for s in self.kinks:
            c = list(cu)
            c[0] -= s
            while len(c) > 1 and c[-1] == 0:
                c.pop()
            if len(c) < 2:
                continue
            rts = np.roots(c[::-1])
            for r in rts:
                if abs(r.imag) <= 1e-9 * (1 + abs(r)):
                    out.append((self.x0 + self.w * r.real, s, c))
        return out

    def evaluate(self, theta, order=2):
        theta = np.asarray(theta, dtype=float)
        n = self.n
        roots = self._roots(theta)
        tw = float(self.prob.tail_width([mp.mpf(float(t)) for t in theta]))
        reach = self.cut * max(self.width, tw)
        lo, hi = self.loc - reach, self.loc + reach
        extra = [self.loc + sgn * tw * t for sgn in (1, -1) for t in (2, 8, 32)] if tw > 2 * self.width else []
        pts = sorted({lo, hi, self.loc, *[p for p in self.ladder + extra if lo < p < hi],
                      *[r for r, _, _ in roots if lo < r < hi]})
        cu = [theta[-1]] + list(theta[:-1])
        I0 = 0.0
        I1 = np.zeros(n)
        I2 = np.zeros((n, n))
        for a, b in zip(pts[:-1], pts[1:]):
            if b <= a:
                continue
            half = 0.5 * (b - a)
            d = _OFF * half * 2 * 0.5  # distance to the nearer end, in x  (= OFF * (b - a)/2)
            x = np.where(_LEFT, a + d, b - d)
            u = (x - self.x0) / self.w
            hx = _horner(cu, u)
            for r, s, c in roots:  # next to a zero of h - s: h - s = (x - r) g(x)
                for end, side in ((a, _LEFT), (b, ~_LEFT)):
                    if abs(end - r) <= 1e-12 * (1 + abs(r)):
                        # synthetic division of c (in u, constant first) by (u - ur)
                        ur = (r - self.x0) / self.w
                        hi_first = list(c[::-1])
                        q, acc = [], 0.0
                        for coef in hi_first[:-1]:
                            acc = acc * ur + coef
                            q.append(acc)
                        g = _horner(q[::-1], u[side])
                        du = (d[side] / self.w) * (1 if end == a else -1)
                        hx[side] = s + du * g
            q = self._pdf(x)
            ww = _W * half * q
            c0, c1, c2 = self.tri(hx, *self.pvals)
            I0 += np.dot(ww, c0)
            if order >= 1:
                phi = np.vstack([u ** j for j in range(1, self.k + 1)] + [np.ones_like(u)])
                I1 += phi @ (ww * c1)
                if order >= 2:
                    I2 += (phi * (ww * c2)) @ phi.T
        J = float(np.dot(theta, self.mean_p) - I0)
        g = self.mean_p - I1 if order >= 1 else None
        H = -I2 if order >= 2 else None
        return J, g, H
