"""Restricted f-divergences over finite-dimensional classes: ``lin`` and ``poly_k``.

``D^H_f(P, Q) = sup_{h in H} E_P[h] - E_Q[f^*(h)]`` (CBDP's Eq. (2)) for ``H = poly_k = {b + sum_j c_j u^j}``,
``u = (x - x0)/w`` (``lin`` is ``k = 1``; ``x0, w`` are Q's location and width), and the Rényi version
through CBDP's Eq. (3), ``log(1 + alpha (alpha - 1) D^H_alpha)/(alpha - 1)``.

How the supremum is found (one-dimensional laws: Laplace, Normal, mixtures of them, finite laws; product
laws go to :mod:`cbdp_sym.restricted.products`):

* The shape of the derived conjugate decides the problem actually solved (:mod:`cbdp_sym.divergences.reduction`,
  profiles derived with SymPy): for ``f^* = C e^s`` (KL) the constant term is eliminated (Lemma 1's step)
  and ``J(c) = c . E_P[phi] + V(E_Q[e^{c . phi}])`` is maximised (concave; the feasible set, where the
  tilted integral is finite, is read off Q's tails exactly); for ``f^* = C|s|^A + K`` (the
  alpha-divergence) the scale is eliminated (Lemma 5's step) and
  ``M(c) = E_Q |1 + c . (phi - E_P phi)|^A`` is minimised (convex), ``D^H = V(M_min)`` and the restricted
  Rényi divergence is ``-log M_min``; for a conjugate with a bounded domain (TV) only constants are
  feasible on a law with full support.
* Newton's method with gradients and Hessians from one vector tanh-sinh quadrature per iterate, split at
  the kinks of Q's density, at the real zeros of ``h`` (where ``|h|^A`` has its kinks) and around every
  peak of the integrand (found on each piece at low precision), with backtracking inside the feasible
  set; a precision ramp: 20 digits first, then polished at the working precision with BFGS corrections
  of the Hessian (at large alpha the Hessian's integrand ``|h|^{A-2}`` is barely integrable at the zeros
  of ``h``).  The certificate: the gradient norm and the Hessian's definiteness at the optimum.
* An unbounded objective is reported as an infinite supremum, never as a large number: exactly for
  point masses (a linear objective), and otherwise by testing the divergent direction as a ray (the
  objective must keep growing over decades of the ray parameter).
* A second, independent method: the unprofiled objective (KL: ``E_P[h] - E_Q[f^*(h)]`` in ``(c, b)``;
  alpha: the scale-free ratio ``alpha log E_P[h] - (alpha - 1) log E_Q|h|^A`` with the constant pinned
  instead of the mean), in raw monomials centred at P's location, maximised by BFGS from another start,
  its values by mpmath's scalar ``quad``; the digits of agreement are reported.

The conjugate ``f^*`` is the engine's derived one; it is audited separately against a numeric supremum
(claims ``CBDP-EQ1-*``).

>>> import mpmath as mp
>>> from cbdp_sym.laws.distributions import Normal
>>> with mp.workdps(20):
...     r = restricted("kl", "lin", Normal(0, 1), Normal(1, 1), second=False)
>>> mp.nstr(r.value, 12)   # (mu1 - mu2)^2 / (2 sigma^2), Theorem 10
'0.5'
"""
from __future__ import annotations


import mpmath as mp
import mpmath.libmp as _lm
import sympy as sp

from cbdp_sym.core.cache import cached_numeric
from cbdp_sym.core.memo import memo_numeric
from cbdp_sym.laws.distributions import Distribution, Finite, Laplace, Mixture, Normal, PointMass, Product
from cbdp_sym.divergences.generators import KL
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import Estimate, digits, parse_number, to_mpf
from cbdp_sym.divergences.numeric import raw_log_pdf, vquad
from cbdp_sym.divergences.reduction import M_, Z_
from cbdp_sym.calculus.optimize import bfgs, definite, golden_max, newton, norm as _norm, precision_ramp
from cbdp_sym.restricted.common import RestrictedResult, _lam, generator_for, parse_class, structure_and_profile
from cbdp_sym.restricted.products import restricted_lin_product
from cbdp_sym.restricted.warmstart import power_start
from cbdp_sym.restricted.lattice import lattice_restricted
from cbdp_sym.divergences.lattice_numeric import involves_lattice

__all__ = ["restricted", "restricted_record", "restricted_mp", "sup_over_intercept", "renyi_limit"]


# -- laws and polynomials ----------------------------------------------------------------------------


def _log_cut():
    """Log of the smallest weight that can matter at the working precision (with margin)."""
    return -(mp.mp.dps * 3 + 60) * mp.log(10)


def _check_law(L: Distribution, role: str):
    if isinstance(L, Product):
        raise ParameterError(f"{role} is a product law: use restricted(...) with two product laws (class lin)")
    if not isinstance(L, (Laplace, Normal, Mixture, Finite)):
        raise ParameterError(f"{role}: the restricted solver takes laplace, normal, point, finite or mixture laws, got {L!r}")


def _frame(Q: Distribution):
    """Centre and width of the features ``u = (x - x0)/w``: Q's location and scale."""
    return Q.mp_loc(), Q.mp_width()


def _poly_val(coeffs, u):
    """``sum_j coeffs[j] u^j`` (constant first), Horner."""
    acc = mp.mpf(0)
    for c in reversed(coeffs):
        acc = acc * u + c
    return acc


def _real_roots(coeffs) -> list:
    """Real zeros of ``sum_j coeffs[j] u^j`` (constant first), sorted."""
    cs = list(coeffs)
    while len(cs) > 1 and cs[-1] == 0:
        cs.pop()
    if len(cs) < 2:
        return []
    if len(cs) == 2:
        return [-cs[0] / cs[1]]
    try:
        with mp.workdps(mp.mp.dps + 20):
            rts = mp.polyroots(list(reversed(cs)), maxsteps=500, extraprec=2 * mp.mp.prec)
    except mp.NoConvergence:  # pragma: no cover - defensive
        return []
    tol = mp.mpf(10) ** (-(mp.mp.dps // 2))
    out = sorted(mp.re(r) for r in rts if abs(mp.im(r)) <= tol * (1 + abs(r)))
    return [+r for r in out]


def _peaks(logf, specials, scale):
    """Breakpoints around every local maximum of ``logf`` between consecutive ``specials`` (and in both tails).

    ``logf`` is the log of a non-negative integrand, ``-inf`` allowed at the specials; on each piece the
    maximum is bracketed (outward doubling in the tails) and refined by golden section at low precision;
    the curvature gives the peak's width.  Returns ``(points, top)``: quadrature breakpoints and the
    largest log-value found (to scale the integrand).
    """
    pts, top = [], -mp.inf
    with mp.workdps(20):
        sp_ = sorted({mp.mpf(s) for s in specials})
        scale = mp.mpf(scale)

        def safe(x):
            try:
                v = logf(x)
            except (ValueError, ZeroDivisionError):
                return -mp.inf
            return v if not mp.isnan(v) else -mp.inf

        pieces = []
        if not sp_:
            pieces.append((None, None))
        else:
            pieces.append((None, sp_[0]))
            pieces += list(zip(sp_[:-1], sp_[1:]))
            pieces.append((sp_[-1], None))
        for lo, hi in pieces:
            if lo is not None and hi is not None:
                if hi - lo <= 0:
                    continue
                a, b = lo, hi
            else:  # a tail: march outward until the log-integrand decreases
                anchor = lo if lo is not None else hi
                if anchor is None:
                    anchor = mp.mpf(0)
                sgn = 1 if lo is not None else -1
                step = scale / 4
                if lo is None and hi is None:  # no specials: march towards the side where the integrand rises
                    sgn = 1 if safe(anchor + step) >= safe(anchor - step) else -1
                x_prev, v_prev = anchor, safe(anchor + sgn * scale * mp.mpf("1e-6"))
                a = anchor
                x = anchor + sgn * step
                v = safe(x)
                n = 0
                while v > v_prev and n < 200:
                    a, x_prev, v_prev = x_prev, x, v
                    step *= 2
                    x = anchor + sgn * step
                    v = safe(x)
                    n += 1
                b = x
                if lo is None and hi is None:  # a smooth law with no specials: the other side of 0 too
                    a = min(a, anchor - sgn * scale / 4) if sgn > 0 else max(a, anchor - sgn * scale / 4)
                a, b = min(a, b), max(a, b)
            m, vm = golden_max(safe, a, b, iters=60)
            if not mp.isfinite(vm):
                continue
            top = max(top, vm)
            h = scale * mp.mpf("1e-3")
            curv = (safe(m + h) - 2 * vm + safe(m - h)) / h**2
            w = 1 / mp.sqrt(-curv) if mp.isfinite(curv) and curv < 0 else scale
            w = min(w, scale * 4)
            for k in (0, -8, -2, 2, 8):
                x = m + w * k
                if (lo is None or x > lo) and (hi is None or x < hi):
                    pts.append(x)
    return [mp.mpf(p) for p in pts], top


_MOMENTS: dict = {}


def _moments(P: Distribution, x0, w, k: int) -> list:
    """``[E_P u^j for j = 1..k]`` with ``u = (x - x0)/w`` (quadrature split at P's breakpoints; sums if finite).

    Remembered in-process by the law, the frame, ``k`` and the precision (a point's warm start, its problem at
    20 digits and its problem at the working precision ask for the same moments)."""
    try:
        key = (P, mp.mpf(x0), mp.mpf(w), k, mp.mp.prec)
        hash(key)
    except TypeError:  # pragma: no cover - a law with unhashable parameters
        return _moments_raw(P, x0, w, k)
    if key not in _MOMENTS:
        if len(_MOMENTS) > 4096:
            _MOMENTS.clear()
        _MOMENTS[key] = _moments_raw(P, x0, w, k)
    return list(_MOMENTS[key])


def _moments_raw(P: Distribution, x0, w, k: int) -> list:
    if P.atomic:
        return [P.mp_expect(lambda x, j=j: ((x - x0) / w) ** j) for j in range(1, k + 1)]

    def vec(x):
        u = (x - x0) / w
        p = P.mp_pdf(x)
        out, t = [], p
        for _ in range(k):
            t *= u
            out.append(t)
        return out

    ks = list(P.mp_breaks()) + [x0]
    return vquad(vec, [-mp.inf, *ks, mp.inf], k)


# -- the two reduced problems ------------------------------------------------------------------------
class _Power:
    """``M(c) = E_Q |h_c|^A``, ``h_c(u) = 1 + sum_j c_j (u^j - m_j)`` (so ``E_P h_c = 1``): convex in ``c``.

    The objective actually minimised is the norm ``N = M^{1/A} = ||h_c||_{L^A(Q)}`` (convex too, and of
    order one whatever the size of ``M``: at alpha near 1 and large shifts ``M_min`` can be ``e^{-1000}``,
    and a stopping rule on ``M`` itself would stop far from the optimum).  ``M = N^A``.
    """

    sense = -1  # minimised
    remembers = True  # the last evaluation of order >= 1 is kept (see _evaluate_m)

    def __init__(self, P, Q, k, A, x0, w):
        self.P, self.Q, self.k, self.A = P, Q, k, A
        # for A < 2 (alpha > 2) the Hessian's integrand |h|^(A-2) is singular at the zeros of h and
        # quadrature misses part of its mass: Newton then uses BFGS corrections of that Hessian
        self.hess_exact = A >= 2 or Q.atomic or A == 1
        self.x0, self.w = x0, w
        self.m = _moments(P, x0, w, k)
        self.n = k

    def coeffs(self, c) -> list:
        """Coefficients of ``h_c`` in ``u`` (constant first)."""
        return [1 - mp.fdot(c, self.m)] + list(c)

    def feasible(self, c) -> bool:
        return all(mp.isfinite(t) for t in c)

    def evaluate(self, c, order=2):
        """``(F, grad, Hess)`` of ``F = -N = -M^{1/A}`` (maximised), ``None`` below ``order``."""
        F, g, H = self._evaluate_m(c, order)
        M = -F
        A = self.A
        if not M > 0:
            return F, g, H
        N = mp.exp(mp.log(M) / A)
        c1 = N / (A * M)  # dN/dM
        Fn = -N
        gn = [c1 * v for v in g] if g is not None else None
        Hn = None
        if H is not None:
            c2 = (1 / A) * (1 / A - 1) * N / M**2  # d2N/dM2
            gm = [-v for v in g]
            Hn = [[c1 * H[i][j] - c2 * gm[i] * gm[j] for j in range(self.k)] for i in range(self.k)]
        return Fn, gn, Hn

    def _evaluate_m(self, c, order=2):
        """``(F, grad, Hess)`` of ``F = -M``, ``None`` below ``order``.

        The last evaluation of order >= 1 is remembered: Newton's method, the starting curvature and the
        certificate ask for the same point more than once (the quadrature's stopping rule ignores the
        Hessian's components, so an order-2 evaluation gives exactly the value and gradient of order 1).
        """
        key = (tuple(c), mp.mp.prec)
        last = getattr(self, "_last", None)
        if order >= 1 and last is not None and last[0] == key and last[1] >= order:
            F, g, H = last[2]
            return F, list(g), ([list(r) for r in H] if order >= 2 else None)
        out = self._evaluate_m_raw(c, order)
        if order >= 1:
            self._last = (key, order, out)
            F, g, H = out
            return F, list(g), ([list(r) for r in H] if H is not None else None)
        return out

    def _evaluate_m_raw(self, c, order=2):
        A, k, Q = self.A, self.k, self.Q
        cs = self.coeffs(c)
        # A = 1 (the alpha -> infinity limit): E_Q|h| is C^1 for a law with a density and its Hessian is
        # the sum over the zeros r of h of 2 q(r) psi(r) psi(r)^T / |h'(r)|, not an integral
        l1 = A == 1 and not Q.atomic
        pairs = [(i, j) for i in range(k) for j in range(i, k)] if order >= 2 and not l1 else []
        ncomp = 1 + (k if order >= 1 else 0) + len(pairs)
        m = self.m

        def vec_at(x, q):
            u = (x - self.x0) / self.w
            hx = _poly_val(cs, u)
            if hx == 0 or q == 0:
                return [mp.mpf(0)] * ncomp
            ah = abs(hx)
            pw = mp.exp((A - 2) * mp.log(ah)) * q
            out = [pw * hx * hx]
            if order >= 1:
                psi, t = [], mp.mpf(1)
                for j in range(k):
                    t *= u
                    psi.append(t - m[j])
                g = A * pw * hx
                out += [g * p for p in psi]
                if order >= 2:
                    hh = A * (A - 1) * pw
                    out += [hh * psi[i] * psi[j] for i, j in pairs]
            return out

        if Q.atomic:
            tot = [mp.mpf(0)] * ncomp
            for x, q in Q.mp_pmf():
                if q != 0:
                    tot = [a + b for a, b in zip(tot, vec_at(x, q))]
            vals = tot
        else:
            roots = [self.x0 + self.w * r for r in _real_roots(cs)]
            logq = Q.mp_log_pdf
            A_ = A

            def logf(x):
                hx = _poly_val(cs, (x - self.x0) / self.w)
                return A_ * mp.log(abs(hx)) + logq(x) if hx != 0 else -mp.inf

            specials = sorted(set(roots + list(Q.mp_kinks())))
            pk, top = _peaks(logf, specials, self.w)
            brk = sorted(set(specials + pk + list(Q.mp_breaks())))
            # the quadrature's stopping rule is absolute: integrate values of order one (E_Q|h|^A can be
            # e^{-1000} or e^{+1000}) and scale back
            top = top if mp.isfinite(top) else mp.mpf(0)
            cut = _log_cut()

            def scaled(x):
                lq = Q.mp_log_pdf(x) - top
                if lq + A * mp.mpf(300) < cut:  # |h|^A cannot make up for this weight
                    return [mp.mpf(0)] * ncomp
                return vec_at(x, mp.exp(lq))

            sc = mp.exp(top)
            fast = _raw_power_integrand(Q, cs, m, A, self.x0, self.w, top, cut, order, k, pairs, ncomp) if _RAW else None
            vals = [v * sc for v in vquad(fast or scaled, [-mp.inf, *brk, mp.inf], ncomp, loose=len(pairs))]
        F = -vals[0]
        g = [-v for v in vals[1:1 + k]] if order >= 1 else None
        H = None
        if order >= 2 and l1:
            H = [[mp.mpf(0)] * k for _ in range(k)]
            for ru in _real_roots(cs):
                x = self.x0 + self.w * ru
                dh = _poly_val([j * cs[j] for j in range(1, len(cs))], ru) / self.w
                psi = [ru ** (j + 1) - self.m[j] for j in range(k)]
                wgt = 2 * Q.mp_pdf(x) / abs(dh)
                for i in range(k):
                    for j in range(k):
                        H[i][j] -= wgt * psi[i] * psi[j]
        elif order >= 2:
            H = [[None] * k for _ in range(k)]
            for (i, j), v in zip(pairs, vals[1 + k:]):
                H[i][j] = H[j][i] = -v
        return F, g, H


_RAW = True  # (tests switch the raw-value integrand off to compare it with the generic one)


def _raw_density(Q, *params):
    """``raw_log_pdf(Q)`` when every parameter is an mpf (the condition of the raw-value integrands), else ``None``."""
    lp = raw_log_pdf(Q)
    return lp if lp is not None and all(isinstance(v, mp.mpf) for v in params) else None


def _raw_horner(horner, u, prec, rnd):
    """:func:`_poly_val` on raw values (``horner``: the coefficients' raw values, highest degree first), with its
    operations and rounding."""
    acc = _lm.fzero
    for c in horner:
        acc = _lm.mpf_add(_lm.mpf_mul(acc, u, prec, rnd), c, prec, rnd)
    return acc


def _raw_power_integrand(Q, cs, m, A, x0, w, top, cut, order, k, pairs, ncomp):
    """``scaled`` of :meth:`_Power._evaluate_m_raw` on raw mpmath values, for Normal and Laplace laws ``Q`` and mpf
    parameters (``None`` otherwise): the same operations in the same order, at the precision and rounding it is
    called at, so the same bits (``tests/restricted/test_solver.py`` compares them); only the Python-level mpf objects
    of the intermediate values are skipped.  The quadrature of the restricted supremum spends most of its time here."""
    lp = _raw_density(Q, A, x0, w, top, cut, *cs, *m)
    if lp is None:
        return None
    ctx = mp.mp
    make = ctx.make_mpf
    A_, x0_, w_, top_, cut_ = A._mpf_, x0._mpf_, w._mpf_, top._mpf_, cut._mpf_
    horner = [c._mpf_ for c in reversed(cs)]
    m_ = [v._mpf_ for v in m]
    zero, one = _lm.fzero, _lm.fone
    two, n300 = _lm.from_int(2), _lm.from_int(300)
    mul, add, sub = _lm.mpf_mul, _lm.mpf_add, _lm.mpf_sub
    consts: dict = {}
    nothing = [ctx.zero] * ncomp

    def f(x):
        prec, rnd = ctx._prec_rounding
        if (prec, rnd) not in consts:  # A * 300, A - 2 and A (A - 1), as the generic integrand rounds them
            consts[prec, rnd] = (mul(A_, n300, prec, rnd), sub(A_, two, prec, rnd),
                                 mul(A_, sub(A_, one, prec, rnd), prec, rnd))
        a300, am2, aa1 = consts[prec, rnd]
        xv = x._mpf_
        lq = sub(lp(xv, prec, rnd), top_, prec, rnd)
        if _lm.mpf_lt(add(lq, a300, prec, rnd), cut_):
            return list(nothing)
        q = _lm.mpf_exp(lq, prec, rnd)
        u = _lm.mpf_div(sub(xv, x0_, prec, rnd), w_, prec, rnd)
        hx = _raw_horner(horner, u, prec, rnd)
        if _lm.mpf_eq(hx, zero) or _lm.mpf_eq(q, zero):
            return list(nothing)
        ah = _lm.mpf_abs(hx, prec, rnd)
        pw = mul(_lm.mpf_exp(mul(am2, _lm.mpf_log(ah, prec, rnd), prec, rnd), prec, rnd), q, prec, rnd)
        out = [mul(mul(pw, hx, prec, rnd), hx, prec, rnd)]
        if order >= 1:
            psi, t = [], one
            for j in range(k):
                t = mul(t, u, prec, rnd)
                psi.append(sub(t, m_[j], prec, rnd))
            g = mul(mul(A_, pw, prec, rnd), hx, prec, rnd)
            out += [mul(g, p, prec, rnd) for p in psi]
            if order >= 2:
                hh = mul(aa1, pw, prec, rnd)
                out += [mul(mul(hh, psi[i], prec, rnd), psi[j], prec, rnd) for i, j in pairs]
        return [make(v) for v in out]

    return f


class _Exp:
    """``J(c) = c . m + V(Z(c))``, ``Z(c) = E_Q e^{c . phi}``, ``phi = (u, ..., u^k)``: concave in ``c``.

    ``V`` is the derived profile over the constant (:func:`cbdp_sym.divergences.reduction.profile`); its first two
    derivatives (SymPy's) give the gradient and Hessian from the tilted moments of ``phi``.
    """

    sense = 1
    hess_exact = True

    def __init__(self, P, Q, k, prof, x0, w):
        self.P, self.Q, self.k, self.x0, self.w = P, Q, k, x0, w
        self.m = _moments(P, x0, w, k)
        self.n = k
        V = prof.value_of_z
        self.V = [sp.lambdify(Z_, sp.diff(V, Z_, j) * Z_**j, modules="mpmath") for j in range(3)]
        vc = sp.simplify(V + sp.log(Z_))
        self._log = vc.free_symbols == set()  # V = const - log Z: work in log Z
        self._vconst = to_mpf(vc) if self._log else None

    def feasible(self, c) -> bool:
        if not all(mp.isfinite(t) for t in c):
            return False
        if self.Q.atomic:
            return True
        cx = _to_x(list(c), self.x0, self.w)  # coefficients in x of c . phi (constant first)
        return _exp_feasible(self.Q, cx)

    def log_z(self, c, order=0):
        """``log Z`` and the tilted moments ``E_t[phi]``, ``E_t[phi phi^T]`` (``order`` 0, 1, 2)."""
        k, Q = self.k, self.Q
        pairs = [(i, j) for i in range(k) for j in range(i, k)] if order >= 2 else []
        ncomp = 1 + (k if order >= 1 else 0) + len(pairs)
        cs = [mp.mpf(0)] + list(c)

        def expo(x):
            return _poly_val(cs, (x - self.x0) / self.w) + Q.mp_log_pdf(x)

        if Q.atomic:
            terms = [(_poly_val(cs, (x - self.x0) / self.w) + mp.log(q), x) for x, q in Q.mp_pmf() if q != 0]
            top = max(t for t, _ in terms)
            src = [(mp.exp(t - top), x) for t, x in terms]
            vals = [mp.mpf(0)] * ncomp
            for wgt, x in src:
                vals = [a + b for a, b in zip(vals, self._vec(wgt, x, order, pairs))]
        else:
            specials = sorted(set(Q.mp_kinks()))
            pk, top = _peaks(expo, specials, self.w)
            brk = sorted(set(specials + pk + list(Q.mp_breaks())))
            cut = _log_cut()

            def vec(x):
                e = expo(x) - top
                if e < cut:
                    return [mp.mpf(0)] * ncomp
                return self._vec(mp.exp(e), x, order, pairs)

            fast = _raw_exp_integrand(Q, cs, self.x0, self.w, top, cut, order, k, pairs, ncomp) if _RAW else None
            if fast is not None:
                fast.generic = vec  # (what it replaces: the tests compare the two)
            vals = vquad(fast or vec, [-mp.inf, *brk, mp.inf], ncomp, loose=len(pairs))
        I0 = vals[0]
        logz = top + mp.log(I0)
        mu = [v / I0 for v in vals[1:1 + k]] if order >= 1 else None
        S2 = None
        if order >= 2:
            S2 = [[None] * k for _ in range(k)]
            for (i, j), v in zip(pairs, vals[1 + k:]):
                S2[i][j] = S2[j][i] = v / I0
        return logz, mu, S2

    def _vec(self, wgt, x, order, pairs):
        out = [wgt]
        if order >= 1:
            u = (x - self.x0) / self.w
            phi, t = [], mp.mpf(1)
            for _ in range(self.k):
                t *= u
                phi.append(t)
            out += [wgt * p for p in phi]
            if order >= 2:
                out += [wgt * phi[i] * phi[j] for i, j in pairs]
        return out

    def evaluate(self, c, order=2):
        if not self.feasible(c):
            return -mp.inf, None, None
        logz, mu, S2 = self.log_z(c, order)
        k = self.k
        if self._log:  # V(Z) = const - log Z: no overflow whatever Z is
            F = mp.fdot(c, self.m) + self._vconst - logz
            d1, d2 = mp.mpf(-1), mp.mpf(1)
        else:  # pragma: no cover - no such generator yet
            Z = mp.exp(logz)
            F = mp.fdot(c, self.m) + self.V[0](Z)
            d1, d2 = self.V[1](Z), self.V[2](Z)
        g = [self.m[i] + d1 * mu[i] for i in range(k)] if order >= 1 else None
        H = None
        if order >= 2:
            H = [[d2 * mu[i] * mu[j] + d1 * S2[i][j] for j in range(k)] for i in range(k)]
        return F, g, H


def _to_x(cu, x0, w) -> list:
    """Coefficients in ``x`` (constant first) of ``sum_j cu[j-1] ((x - x0)/w)^j`` (no constant term)."""
    k = len(cu)
    out = [mp.mpf(0)] * (k + 1)
    for j in range(1, k + 1):
        cj = cu[j - 1] / w**j
        for i in range(j + 1):
            out[i] += cj * mp.binomial(j, i) * (-x0) ** (j - i)
    return out


def _exp_feasible(Q, cx) -> bool:
    """Whether ``E_Q[e^{g(x)}]`` is finite for the polynomial ``g`` with x-coefficients ``cx`` (exact tail rates)."""
    m = max((j for j in range(1, len(cx)) if cx[j] != 0), default=0)
    if m == 0:
        return True
    lead = cx[m]
    if isinstance(Q, Mixture):
        return all(_exp_feasible(c, cx) for wt, c in zip(Q.weights, Q.components) if wt != 0)
    if isinstance(Q, Laplace):
        if m == 1:
            return abs(lead) < 1 / to_mpf(Q.scale)
        return m % 2 == 0 and lead < 0
    if isinstance(Q, Normal):
        if m == 1:
            return True
        if m == 2:
            return lead < 1 / (2 * to_mpf(Q.std) ** 2)
        return m % 2 == 0 and lead < 0
    if Q.atomic:
        return True
    raise ParameterError(f"no tail information for {Q!r}")  # pragma: no cover


def _exp_strata(Q, k) -> list:
    """Top degrees ``m <= k`` whose stratum (coefficients above ``m`` zero) is open and non-empty, with
    ``"two-sided"`` (0 is inside the allowed range of ``c_m``) or ``"negative"`` (only ``c_m < 0``)."""
    out = []
    for m in range(1, k + 1):
        kinds = set()
        for L in (Q.components if isinstance(Q, Mixture) else [Q]):
            if L.atomic:
                kinds.add("two-sided")
            elif m == 1 or (isinstance(L, Normal) and m == 2):
                kinds.add("two-sided")
            elif m % 2 == 0:
                kinds.add("negative")
            else:
                kinds.add("none")
        if "none" in kinds:
            continue
        out.append((m, "negative" if "negative" in kinds else "two-sided"))
    return out


# -- the optimiser (cbdp_sym.calculus.optimize) ----------------------------------------------------------------
def _maximise(prob, theta, tol, max_iter=80, B0=None):
    """Damped Newton (``B0 is None``: the quadrature Hessian at every iterate) or BFGS from ``B0``
    (gradients only), with backtracking on the objective inside the feasible set: :func:`optimize.newton`
    with an LU step, the Newton-decrement stopping rule and an escape test for runs off to infinity.

    A problem that remembers its last evaluation (:class:`_Power`) is evaluated with its Hessian at every
    trial point even in the BFGS mode: the value and gradient are the same either way, and the certificate
    at the accepted point then needs no second quadrature."""
    evaluate = prob.evaluate
    if B0 is not None and getattr(prob, "remembers", False):
        evaluate = lambda th, order: prob.evaluate(th, 2 if order >= 1 else 0)  # noqa: E731
    return newton(evaluate, theta, tol, sense=1, max_iter=max_iter, feasible=prob.feasible, solve="lu",
                  stop="decrement", B0=B0, noise_digits=6, halvings=70, escape=mp.mpf(10) ** 12,
                  start_error="the starting point of the restricted supremum is not feasible")


def _grows_without_bound(prob, theta, d):
    """Whether ``F(theta + t d)`` keeps growing over decades of ``t`` (linearly or logarithmically)."""
    n = _norm(d)
    if n == 0:
        return False, []
    d = [v / n for v in d]
    pts = []
    for e in (2, 4, 8, 16, 32):
        t = mp.mpf(10) ** e
        cand = [a + t * s for a, s in zip(theta, d)]
        if not prob.feasible(cand):
            return False, pts
        with mp.workdps(mp.mp.dps + 2 * e):
            v = prob.evaluate(cand, 0)[0]
        pts.append((t, v))
        if not mp.isfinite(v):
            return False, pts
    vals = [v for _, v in pts]
    inc = [b - a for a, b in zip(vals[:-1], vals[1:])]
    ok = all(x > 0 for x in inc) and inc[-1] >= inc[-2] * mp.mpf("0.5") and inc[-2] >= inc[-3] * mp.mpf("0.5")
    return bool(ok), pts


def _ramp(make, start, dps, iters=80):
    """Newton at 20 digits (BFGS-corrected from the first quadrature Hessian where that Hessian is not
    exact), then BFGS-corrected steps at the working precision from the coarse Hessian
    (:func:`optimize.precision_ramp` over 20 digits and ``dps``).  Returns ``(run, problem)``."""

    def coarse_stage(_x, _sd, last):
        p20 = make()
        th0 = start()
        B0 = None
        if not p20.hess_exact:
            _F, _g, H0 = p20.evaluate(th0, 2)
            B0 = [[-H0[i][j] for j in range(p20.n)] for i in range(p20.n)]
            if not definite(H0):
                B0 = None
        coarse = _maximise(p20, th0, mp.mpf(10) ** -12, iters, B0=B0)
        if coarse.hessian is None and coarse.ray is None:
            coarse.hessian = p20.evaluate(coarse.theta, 2)[2]
        if coarse.ray is not None or not coarse.converged and coarse.hessian is None:
            return None, (coarse, p20)
        if last:  # the coarse stage ran at the working precision (or above it)
            F, g, H = p20.evaluate(coarse.theta, 2) if coarse.hessian is None else (coarse.value, coarse.gradient,
                                                                                    coarse.hessian)
            coarse.value, coarse.gradient, coarse.hessian = F, g, H
            return None, (coarse, p20)
        return coarse, (coarse, p20)

    def fine_stage(coarse, sd, _last):
        prob = make()
        theta = [mp.mpf(t) for t in coarse.theta]
        B0 = ([[-mp.mpf(coarse.hessian[i][j]) for j in range(prob.n)] for i in range(prob.n)]
              if coarse.hessian else None)
        if B0 is None or not definite([[-v for v in row] for row in B0]):
            B0 = None
        tol = mp.mpf(10) ** (-(sd // 2 + 6))
        fine = _maximise(prob, theta, tol, 60, B0=B0)
        fine.iterations += coarse.iterations
        F, g, H = prob.evaluate(fine.theta, 2)  # the certificate: value, gradient and quadrature Hessian
        fine.value, fine.gradient, fine.hessian = F, g, H
        fine.converged = bool(_norm(g) <= tol * (1 + abs(F)) * 1000)
        return fine, (fine, prob)

    def stage(x, sd, last):
        return (coarse_stage if x is None else fine_stage)(x, sd, last)

    return precision_ramp(stage, None, [20] + ([dps] if dps > 20 else []))[-1]


# -- the public entry point ----------------------------------------------------------------------------
def restricted(divergence, cls, P: Distribution, Q: Distribution, alpha=None, second: bool = True,
               features=None) -> RestrictedResult:
    """The restricted divergence ``D^H(P, Q)`` over ``cls`` (``lin`` or ``polyK``), at the working precision.

    ``divergence`` is ``kl``, ``tv``, ``alpha`` (CBDP's alpha-divergence generator on all of R) or
    ``renyi`` (Eq. (3)).  One-dimensional laws here; two product laws of the same dimension (class
    ``lin``, optionally with a linear feature map ``features = G``, the class ``{a . G x + b}``) go to
    :func:`cbdp_sym.restricted.products.restricted_lin_product`.  ``second`` runs the second, independent
    method and reports the digits on which the two agree.
    """
    gen, params, renyi = generator_for(divergence, alpha)
    degree = parse_class(cls)
    if involves_lattice(P, Q):  # laws on the integers: windows of atoms, the tails bounded (restricted/lattice.py)
        return lattice_restricted(restricted, divergence, cls, P, Q, alpha, second, features)
    if P.dim != Q.dim:
        raise ParameterError(f"P has dimension {P.dim} and Q has dimension {Q.dim}")
    if P.dim > 1 or isinstance(P, Product) or isinstance(Q, Product):
        if degree != 1:
            raise ParameterError("in d dimensions only the class lin is supported (poly_k is one-dimensional)")
        return restricted_lin_product(divergence, P, Q, alpha=alpha, second=second, features=features)
    if features is not None:
        raise ParameterError("a feature map applies to product laws (d dimensions); in 1-d use lin or polyK")
    _check_law(P, "P")
    _check_law(Q, "Q")
    st, prof = structure_and_profile(gen, params)
    notes = []
    x0, w = _frame(Q)
    name = str(divergence)
    if st.kind == "bounded":
        if Q.atomic:
            raise ParameterError("a conjugate with a bounded domain (tv) against a finite Q is a linear program: "
                                 "use cbdp_sym.restricted.finite")
        notes.append("the conjugate has a bounded domain: on a full-support Q only constant h are feasible, "
                     "and the best constant gives f(1) = 0")
        J = mp.mpf(0)
        zero = [[mp.mpf(0)] * degree for _ in range(degree)]
        return RestrictedResult(name, str(cls), J, J, [mp.mpf(0)] * (degree + 1), mp.mpf(0), zero, False,
                                notes=notes)
    if st.kind == "exp":
        return _solve_exp(name, str(cls), gen, st, prof, P, Q, degree, x0, w, second, notes)
    if st.kind == "power":
        return _solve_power(name, str(cls), gen, st, prof, P, Q, degree, x0, w, renyi, second, notes)
    raise ParameterError(f"no solver for the conjugate of {gen.key}: neither exponential, power nor bounded")


def _solve_exp(name, cls, gen, st, prof, P, Q, k, x0, w, second, notes):
    dps = mp.mp.dps
    notes.append("KL-type conjugate C e^s: the constant is eliminated exactly (Lemma 1's step); the slope "
                 "coefficients maximise c . E_P[phi] + V(E_Q[e^{c . phi}])")
    if isinstance(Q, PointMass) or (Q.atomic and len(Q.points) == 1):
        prob = _Exp(P, Q, k, prof, x0, w)
        u0 = (Q.mp_loc() - x0) / w
        d = [prob.m[j] - u0 ** (j + 1) for j in range(k)]
        V0 = to_mpf(prof.value_of_z.subs(Z_, 1))
        if _norm(d) > mp.mpf(10) ** (-dps + 5):
            notes.append("Q is a point mass: J is linear in the slopes, c . (E_P[phi] - phi(q)), unbounded along that ray")
            pts = [(t, V0 + t * _norm(d)) for t in (mp.mpf(10) ** 2, mp.mpf(10) ** 4, mp.mpf(10) ** 8)]
            return RestrictedResult(name, cls, mp.inf, mp.inf, [mp.nan] * (k + 1), mp.nan, [], False, True,
                                    ray=(d, pts), notes=notes, converged=True)
        notes.append("Q is a point mass and E_P[phi] = phi(q): J is constant in the slopes (flat)")
        zero = [[mp.mpf(0)] * k for _ in range(k)]
        b = to_mpf(prof.intercept_of_z.subs(Z_, 1))
        return RestrictedResult(name, cls, V0, V0, [b] + [mp.mpf(0)] * k, mp.mpf(0), zero, False, notes=notes)
    best = None
    for m, side in _exp_strata(Q, k):
        def make(m=m):
            return _Exp(P, Q, m, prof, x0, w)

        if best is None:
            start = [mp.mpf(0)] * m
        else:
            start = list(best[0].theta) + [mp.mpf(0)] * (m - len(best[0].theta))
            if side == "negative":
                gm = make().evaluate(start, 1)[1][m - 1]
                if gm >= 0:
                    notes.append(f"degree {m}: the optimum stays on the face $c_{m} = 0$ (KKT: "
                                 rf"$\partial J/\partial c_{m} = {mp.nstr(gm, 6)} \ge 0$, only $c_{m} < 0$ is feasible)")
                    continue
                start[m - 1] = -min(abs(gm), mp.mpf(1)) * mp.mpf("1e-3")
        st_ = [mp.mpf(t) for t in start]
        run, prob = _ramp(make, lambda st_=st_: list(st_), dps)
        if run.ray is not None:
            with mp.workdps(20):
                unb, pts = _grows_without_bound(make(), run.theta, run.ray[0])
            if unb:
                notes.append(f"degree {m}: the objective keeps growing along a ray of the slopes: the supremum is infinite")
                return RestrictedResult(name, cls, mp.inf, mp.inf, [mp.nan] * (k + 1), mp.nan, [], False, True,
                                        iterations=run.iterations, ray=(run.ray[0], pts), notes=notes)
            notes.append(f"degree {m}: the iterates ran off to infinity without a provable unbounded ray")
            return RestrictedResult(name, cls, mp.nan, mp.nan, [mp.nan] * (k + 1), mp.nan, [], False, False,
                                    iterations=run.iterations, notes=notes, converged=False)
        if best is None or run.value > best[0].value:
            best = (run, prob, m)
    for m_ in range(1, k + 1):
        if m_ not in [m for m, _ in _exp_strata(Q, k)]:
            notes.append(f"degree {m_}: every nonzero top coefficient of $x^{m_}$ makes $E_Q[e^h]$ infinite")
    run, prob, m = best
    logz = prob.log_z(run.theta, 0)[0]
    b = to_mpf(prof.intercept_of_z.subs(Z_, 1)) - logz  # b*(Z) = b*(1) - log Z for C e^s (derived profile)
    cx = _to_x(list(run.theta), x0, w)
    cx[0] += b
    cx += [mp.mpf(0)] * (k + 1 - len(cx))
    res = _finish(name, cls, run.value, run.value, cx, run, notes)
    if second and not P.atomic and not Q.atomic:
        with mp.workdps(min(dps, 34)):
            sv = _second_exp(gen, P, Q, m, x0, w, cx)
        res.second_value = sv
        res.second_method_digits = _agreement(res.value, sv, dps)
    return res


def _agreement(value, second, dps):
    """Digits on which the two methods agree, at most ``dps``; two values both 0 within the second method's precision
    (34 digits at most) agree fully (relative digits of two roundings of 0 mean nothing)."""
    if not mp.isfinite(second):
        return mp.mpf(0)
    zero = mp.mpf(10) ** -(min(dps, 34) - 5)
    if abs(value) < zero and abs(second) < zero:
        return mp.mpf(dps)
    return min(digits(value, second), mp.mpf(dps))


def _finish(name, cls, value, f_value, cx, run, notes):
    nd = definite(run.hessian) if run.hessian is not None else False
    noise = mp.mpf(10) ** -(mp.mp.dps - 10)
    if mp.isfinite(value) and -noise < value < 0:
        # a class with the constants contains h = const, where the objective is exactly 0: the supremum is >= 0, and a
        # value below 0 by less than the working precision is rounding (P and Q that no h of the class tells apart)
        notes.append(f"the optimum's value {mp.nstr(value, 3)} is 0 within the working precision (the objective is 0 "
                     "at a constant h, so the supremum is at least 0): reported as 0")
        value = mp.mpf(0)
        f_value = mp.mpf(0) if mp.isfinite(f_value) and -noise < f_value < 0 else f_value
    if not run.converged:
        notes.append("NOT CONVERGED: the gradient at the last iterate is not small; the value is a lower bound only")
    if not nd:
        notes.append("the Hessian is not negative definite at the optimum: the maximiser may not be unique")
    return RestrictedResult(name, cls, value, f_value, cx, _norm(run.gradient), run.hessian, nd,
                            iterations=run.iterations, notes=notes, converged=run.converged)


def _solve_power(name, cls, gen, st, prof, P, Q, k, x0, w, renyi, second, notes):
    dps = mp.mp.dps
    A = to_mpf(st.A)
    al = to_mpf(st.alpha)
    notes.append("alpha-divergence conjugate C|s|^A + K: the scale is eliminated exactly (Lemma 5's step); "
                 "M = min E_Q|h|^A over h in the class with E_P[h] = 1, D = V(M), D_R = -log M")
    f_of_m, r_of_m, lam_of_m = (_lam(e, M_) for e in (prof.value_of_m, prof.renyi_of_m, prof.scale_of_m))
    if Q.atomic:
        prob = _Power(P, Q, k, A, x0, w)
        rows = [[((x - x0) / w) ** (j + 1) - prob.m[j] for j in range(k)] for x, q in Q.mp_pmf() if q != 0]
        if _vanishes(rows):
            notes.append("some h in the class with E_P[h] = 1 vanishes on the support of Q: M = 0, the supremum is infinite")
            return RestrictedResult(name, cls, mp.inf, mp.inf, [mp.nan] * (k + 1), mp.nan, [], False, True, notes=notes)

    def make():
        return _Power(P, Q, k, A, x0, w)

    run, prob = _ramp(make, lambda: _power_start(P, Q, k, A, x0, w), dps)
    M = (-run.value) ** A  # the norm N = M^{1/A} was minimised
    f_value = f_of_m(M)
    value = r_of_m(M) if renyi else f_value
    lam = lam_of_m(M)
    cu = prob.coeffs(run.theta)
    cx = _to_x(cu[1:], x0, w)
    cx[0] += cu[0]
    cx = [lam * c for c in cx]
    res = _finish(name, cls, value, f_value, cx, run, notes)
    res.notes.append("gradient and Hessian are those of -N = -M^{1/A} in the slope coefficients c (u = (x - x0)/w)")
    if second and not P.atomic and not Q.atomic:
        with mp.workdps(min(dps, 34)):
            R = _second_power(P, Q, k, A, al)
        sv = R / (al - 1) if renyi else mp.expm1(R) / (al * (al - 1))
        res.second_value = sv
        res.second_method_digits = _agreement(value, sv, dps)
    return res


WARM_START = True  # False: Newton's method starts at c = 0 (for benchmarks and tests of the warm start)


def _power_start(P, Q, k, A, x0, w) -> list:
    """Where Newton's method on ``N(c)`` starts: the minimiser located in double precision
    (:func:`cbdp_sym.restricted.warmstart.power_start`; the problem is convex, so the start decides the
    number of working-precision iterations, not the optimum), or ``c = 0`` where that is not available."""
    if WARM_START and not Q.atomic:
        with mp.workdps(20):
            m = _moments(P, x0, w, k)
        c = power_start(P, Q, k, A, x0, w, m)
        if c is not None:
            return [mp.mpf(v) for v in c]
    return [mp.mpf(0)] * k


def _vanishes(rows) -> bool:
    """Whether ``1 + sum_j c_j rows[i][j] = 0`` for every row has a solution ``c`` (least squares, residual 0)."""
    if not rows or not rows[0]:
        return False
    A = mp.matrix(rows)
    b = mp.matrix([-1] * len(rows))
    try:
        if A.rows >= A.cols:
            c = mp.lu_solve(A.T * A, A.T * b)
        else:
            c = A.T * mp.lu_solve(A * A.T, b)
    except ZeroDivisionError:
        return False
    r = A * c - b
    return bool(mp.norm(r) <= mp.mpf(10) ** (-mp.mp.dps // 2))


# -- the second method and the fixed-slope problem (unprofiled objectives, scalar quadrature) ------------
def _q_breaks(Q, logfn, specials_x):
    """Breakpoints for ``E_Q[g]`` where ``log|g| ~ logfn``: Q's breakpoints, ``specials_x`` and the peaks of
    ``logfn + log q``; with the largest log-value (a scale).  Computed once per iterate, shared by the
    integrals at that iterate."""
    specials = sorted(set(list(Q.mp_kinks()) + list(specials_x)))
    pk, top = _peaks(lambda x: logfn(x) + Q.mp_log_pdf(x), specials, Q.mp_width())
    return sorted(set(specials + pk + list(Q.mp_breaks()))), (top if mp.isfinite(top) else mp.mpf(0))


def _q_expect(Q, fn, logfn, specials_x, frame=None):
    """``E_Q[fn(x)]`` by mpmath's scalar ``quad`` split at :func:`_q_breaks` (pass ``frame`` to reuse them)."""
    if Q.atomic:
        return Q.mp_expect(fn)
    brk, top = frame or _q_breaks(Q, logfn, specials_x)
    cut = _log_cut()

    def f(x):
        lq = Q.mp_log_pdf(x)
        if logfn(x) + lq - top < cut:
            return mp.mpf(0)
        return fn(x) * mp.exp(lq - top)

    return mp.quad(f, [-mp.inf, *brk, mp.inf]) * mp.exp(top)


def _monomial_moments(P, v0, k):
    return [P.mp_expect(lambda x, j=j: (x - v0) ** j) if P.atomic else
            mp.quad(lambda x, j=j: (x - v0) ** j * P.mp_pdf(x), [-mp.inf, *sorted(set(P.mp_breaks())), mp.inf])
            for j in range(1, k + 1)]


def _q_vec(Q, vec, n, logfn, specials_x, raw=None):
    """``E_Q`` of a vector integrand ``vec(x) -> [...]`` (weights already applied), split at :func:`_q_breaks`.  Where the
    integrand's scale ``e^top`` overflows mpmath, every component is ``inf`` (both second methods then see an objective
    of ``-inf``: ``- E_Q[e^(h-1)]``, ``-(alpha - 1) log E_Q|h|^A``).

    ``raw(top, cut)``: optionally, the same integrand on raw mpmath values (``None`` where it does not apply)."""
    if Q.atomic:
        tot = [mp.mpf(0)] * n
        for x, q in Q.mp_pmf():
            if q != 0:
                tot = [t + q * v for t, v in zip(tot, vec(x))]
        return tot
    brk, top = _q_breaks(Q, logfn, specials_x)
    cut = _log_cut()
    zero = [mp.mpf(0)] * n

    def f(x):
        lq = Q.mp_log_pdf(x)
        if logfn(x) + lq - top < cut:
            return zero
        wq = mp.exp(lq - top)
        return [wq * v for v in vec(x)]

    try:
        sc = mp.exp(top)
    except OverflowError:  # a scale beyond any number mpmath represents (a far trial point of a second method's line
        return [mp.inf] * n  # search): every component infinite, the objective -inf there, and the search backs off
    fast = raw(top, cut) if raw is not None and _RAW else None
    if fast is not None:
        fast.generic = f  # (what it replaces: the tests compare the two)
    return [v * sc for v in vquad(fast or f, [-mp.inf, *brk, mp.inf], n)]


def _second_exp(gen, P, Q, k, x0, w, cx_first):
    """KL-type: the unprofiled objective ``E_P[h] - E_Q[f^*(h)]`` in ``(a_1..a_k, b)``, ``h = b + sum a_j v^j``,
    ``v = x - x_P``, maximised by BFGS from the best constant (``a = 0``) with the derived conjugate
    evaluated directly (no elimination of the constant)."""
    v0 = P.mp_loc()
    mom = _monomial_moments(P, v0, k)
    f0, f1, f2 = (gen.conj_mp(j) for j in range(3))

    def hfun(th, x):
        return th[-1] + _poly_val([mp.mpf(0)] + list(th[:-1]), x - v0)

    def xcoeffs(th):
        out = [mp.mpf(0)] * (k + 1)
        out[0] = th[-1]
        for j in range(1, k + 1):
            for i in range(j + 1):
                out[i] += th[j - 1] * mp.binomial(j, i) * (-v0) ** (j - i)
        return out

    def feasible(th):
        return _exp_feasible(Q, xcoeffs(th)) if not Q.atomic else True

    def fg(th):
        last = [None, None]  # (x, h(x)): the quadrature asks for h at a node twice (its cut-off test, then vec)

        def h_at(x):
            if last[0] is not x:
                last[0], last[1] = x, hfun(th, x)
            return last[1]

        def vec(x):
            hv = h_at(x)
            d1 = f1(hv)
            out, t = [f0(hv), d1], mp.mpf(1)
            for _ in range(k):
                t *= x - v0
                out.append(d1 * t)
            return out

        E = _q_vec(Q, vec, k + 2, h_at, [])
        f = mp.fdot(th[:-1], mom) + th[-1] - E[0]
        g = [mom[j] - E[2 + j] for j in range(k)] + [1 - E[1]]
        return f, g

    th0 = [mp.mpf(0)] * k + [mp.mpf(1)]

    def hess_vec(x):
        d2 = f2(hfun(th0, x))
        feats = [(x - v0) ** j for j in range(1, k + 1)] + [mp.mpf(1)]
        return [d2 * feats[i] * feats[j] for i in range(k + 1) for j in range(k + 1)]

    up = list(th0)
    if k >= 1 and not Q.atomic:
        up[k - 1] = mp.mpf("1e-3") / Q.mp_width() ** k
    if k >= 1 and not Q.atomic and not feasible(up):
        # no positive top coefficient is feasible (a Laplace Q and an even degree: E_Q[e^h] needs a_k < 0), so the
        # best constant sits on the boundary of the domain and BFGS would run the top coefficient into it; the top
        # coefficient is taken as a_k = -s^2 instead (the domain in s has no boundary; where the optimum is inside,
        # s = 0, the boundary, is a minimum of the objective along s, not a plateau BFGS could stop on), from
        # a_k = -10^-3 w^-k
        s0 = mp.sqrt(up[k - 1])

        def to_a(th):
            a = list(th)
            a[k - 1] = -th[k - 1] ** 2
            return a

        def fg_s(th):
            f, g = fg(to_a(th))
            g = list(g)
            g[k - 1] = g[k - 1] * -2 * th[k - 1]  # dF/ds = dF/da_k da_k/ds
            return f, g

        th_s = list(th0)
        th_s[k - 1] = s0
        th0 = to_a(th_s)
        Hv = _q_vec(Q, hess_vec, (k + 1) ** 2, lambda x: hfun(th0, x), [])
        jac = [mp.mpf(1)] * (k + 1)
        jac[k - 1] = -2 * s0  # (the start curvature in s: J^T B J, without the gradient's term)
        B0 = [[Hv[i * (k + 1) + j] * jac[i] * jac[j] for j in range(k + 1)] for i in range(k + 1)]
        return _bfgs_ramp(fg_s, th_s, lambda th: feasible(to_a(th)), B0)
    if k >= 1 and not Q.atomic:
        try:
            th0 = _second_exp_start(Q, v0, mom, k, th0, f1, hfun, feasible, fg)
        except (OverflowError, ZeroDivisionError):  # (a start beyond what mpmath represents: the best constant)
            pass
    Hv = _q_vec(Q, hess_vec, (k + 1) ** 2, lambda x: hfun(th0, x), [])
    B0 = [[Hv[i * (k + 1) + j] for j in range(k + 1)] for i in range(k + 1)]
    return _bfgs_ramp(fg, th0, feasible, B0)


def _second_exp_start(Q, v0, mom, k, th0, f1, hfun, feasible, fg):
    """The second KL-type method's start: the best constant ``th0`` or, where it is better, the slope of Q's Gaussian
    approximation, ``a_1 = (E_P[v] - E_Q[v]) / Var_Q(v)`` (exact for lin against a Normal Q), with the constant then
    stationary, ``b <- b - log E_Q[f^*'(h)]`` (exact for ``f^* = C e^s``).  Only Q's and P's first two moments go in
    (never the first method's optimum).  From the best constant, BFGS crawls when the laws are far apart (the
    objective is exponential in the slope: each line search backs off to a sliver of the Newton step), spending its
    120 + 40 iterations and ending unconverged (N(-100, 1/10) vs N(100, 1/10): 0.07 digits of agreement in 11 s)."""
    mq = _monomial_moments(Q, v0, 2)
    var = mq[1] - mq[0] ** 2
    if not var > 0:
        return th0
    th = [mp.mpf(0)] * k + [th0[-1]]
    th[0] = (mom[0] - mq[0]) / var
    if not feasible(th):
        return th0
    z = _q_expect(Q, lambda x: f1(hfun(th, x)), lambda x: hfun(th, x), [])
    if not (mp.isfinite(z) and z > 0):
        return th0
    th[-1] -= mp.log(z)
    if not feasible(th):
        return th0
    return th if fg(th)[0] > fg(th0)[0] else th0


def _bfgs_ramp(fg, th0, feasible, B0):
    """BFGS at 20 digits to a gradient of 1e-9, then continued at the working precision (same start curvature):
    :func:`optimize.bfgs` (analytic gradients, unscaled identity without ``B0``) on a precision ramp."""
    def stage(th, sd, last):
        hinv0 = None
        if B0 is not None:
            Hi = mp.inverse(mp.matrix(B0))
            hinv0 = [[Hi[i, j] for j in range(Hi.cols)] for i in range(Hi.rows)]
        tol = mp.mpf(10) ** (-(sd // 2 + 2)) if last else mp.mpf(10) ** -9
        run = bfgs(fg, [mp.mpf(t) for t in th], grad=True, hinv0=hinv0, scale_first=False, gtol=tol,
                   feasible=feasible, noise_digits=6, max_iter=40 if last else 120)
        return run.theta, run.value

    return precision_ramp(stage, th0, [20, mp.mp.dps])[-1]


def _raw_exp_integrand(Q, cs, x0, w, top, cut, order, k, pairs, ncomp):
    """The integrand of :meth:`_Exp.log_z` (``vec`` with ``expo`` and ``_Exp._vec``) on raw mpmath values, for Normal
    and Laplace laws ``Q`` and mpf parameters (``None`` otherwise): the same operations in the same order and
    rounding, so the same bits (``tests/restricted/test_solver.py`` compares them)."""
    lp = _raw_density(Q, x0, w, top, cut, *cs)
    if lp is None:
        return None
    ctx = mp.mp
    make = ctx.make_mpf
    x0_, w_, top_, cut_ = x0._mpf_, w._mpf_, top._mpf_, cut._mpf_
    horner = [c._mpf_ for c in reversed(cs)]
    one = _lm.fone
    mul, add, sub, div = _lm.mpf_mul, _lm.mpf_add, _lm.mpf_sub, _lm.mpf_div
    nothing = [ctx.zero] * ncomp

    def f(x):
        prec, rnd = ctx._prec_rounding
        xv = x._mpf_
        u = div(sub(xv, x0_, prec, rnd), w_, prec, rnd)
        e = sub(add(_raw_horner(horner, u, prec, rnd), lp(xv, prec, rnd), prec, rnd), top_, prec, rnd)
        if _lm.mpf_lt(e, cut_):
            return list(nothing)
        wgt = _lm.mpf_exp(e, prec, rnd)
        out = [wgt]
        if order >= 1:
            phi, t = [], one
            for _ in range(k):
                t = mul(t, u, prec, rnd)
                phi.append(t)
            out += [mul(wgt, p, prec, rnd) for p in phi]
            if order >= 2:
                out += [mul(mul(wgt, phi[i], prec, rnd), phi[j], prec, rnd) for i, j in pairs]
        return [make(v) for v in out]

    return f


def _raw_second_integrand(Q, th, v0, A, top, cut, k):
    """The integrand of :func:`_second_power`'s ``E_Q`` (``f`` of :func:`_q_vec` with its ``lm`` and ``vec``) on raw
    mpmath values, for Normal and Laplace laws ``Q`` and mpf parameters (``None`` otherwise): the same operations in
    the same order and rounding, so the same bits (``tests/restricted/test_solver.py`` compares them)."""
    lp = _raw_density(Q, v0, A, top, cut, *th)
    if lp is None:
        return None
    ctx = mp.mp
    make = ctx.make_mpf
    v0_, A_, top_, cut_ = v0._mpf_, A._mpf_, top._mpf_, cut._mpf_
    horner = [t._mpf_ for t in reversed(th)] + [_lm.fone]  # the coefficients of h = 1 + sum th_j v^j, top first
    zero, one = _lm.fzero, _lm.fone
    mul, add, sub, log, exp = _lm.mpf_mul, _lm.mpf_add, _lm.mpf_sub, _lm.mpf_log, _lm.mpf_exp
    nothing = [ctx.zero] * (k + 1)
    consts: dict = {}

    def f(x):
        prec, rnd = ctx._prec_rounding
        if (prec, rnd) not in consts:
            consts[prec, rnd] = sub(A_, one, prec, rnd)
        am1 = consts[prec, rnd]
        xv = x._mpf_
        lq = lp(xv, prec, rnd)
        hv = _raw_horner(horner, sub(xv, v0_, prec, rnd), prec, rnd)
        if _lm.mpf_eq(hv, zero):
            return nothing
        lah = log(_lm.mpf_abs(hv, prec, rnd), prec, rnd)
        if _lm.mpf_lt(sub(add(mul(A_, lah, prec, rnd), lq, prec, rnd), top_, prec, rnd), cut_):
            return nothing
        wq = exp(sub(lq, top_, prec, rnd), prec, rnd)
        ah = _lm.mpf_abs(hv, prec, rnd)
        p1 = exp(mul(am1, lah, prec, rnd), prec, rnd)
        out = [mul(p1, ah, prec, rnd)]
        ps = _lm.mpf_mul_int(p1, -1 if hv[0] else 1, prec, rnd)
        t = one
        for _ in range(k):
            t = mul(t, sub(xv, v0_, prec, rnd), prec, rnd)
            out.append(mul(ps, t, prec, rnd))
        return [make(mul(wq, v, prec, rnd)) for v in out]

    return f


def _second_power(P, Q, k, A, al):
    """alpha-divergence: the ratio ``R = alpha log E_P[h] - (alpha - 1) log E_Q|h|^A`` (scale-free), with
    ``h = 1 + sum a_j v^j`` (constant pinned, ``v = x - x_P``), maximised by BFGS from ``a = 0``; returns
    ``R_max = (alpha - 1) D_R``."""
    v0 = P.mp_loc()
    mom = _monomial_moments(P, v0, k)

    def hfun(th, x):
        return _poly_val([mp.mpf(1)] + list(th), x - v0)

    def fg(th):
        EP = 1 + mp.fdot(th, mom)
        if not EP > 0:
            return -mp.inf, [mp.mpf(0)] * k
        rts = [v0 + r for r in _real_roots([mp.mpf(1)] + list(th))]

        def lm(x):
            hv = hfun(th, x)
            return A * mp.log(abs(hv)) if hv != 0 else -mp.inf

        def vec(x):
            hv = hfun(th, x)
            if hv == 0:
                return [mp.mpf(0)] * (k + 1)
            ah = abs(hv)
            p1 = mp.exp((A - 1) * mp.log(ah))
            out, t, sg = [p1 * ah], mp.mpf(1), (1 if hv > 0 else -1)
            for _ in range(k):
                t *= x - v0
                out.append(p1 * sg * t)
            return out

        E = _q_vec(Q, vec, k + 1, lm, rts,
                   raw=lambda top, cut: _raw_second_integrand(Q, th, v0, A, top, cut, k))
        M, G = E[0], E[1:]
        f = al * mp.log(EP) - (al - 1) * mp.log(M)
        g = [al * mom[j] / EP - (al - 1) * A * G[j] / M for j in range(k)]
        return f, g

    def feasible(th):
        return 1 + mp.fdot(th, mom) > 0

    th0 = [mp.mpf(0)] * k
    # a starting curvature from finite differences of the gradient (one-time)
    with mp.workdps(20):
        h = mp.mpf(10) ** -6
        _f0, g0 = fg(th0)
        B0 = []
        for i in range(k):
            e = [mp.mpf(0)] * k
            e[i] = h
            gi = fg(e)[1]
            B0.append([-(gi[j] - g0[j]) / h for j in range(k)])
        B0 = [[(B0[i][j] + B0[j][i]) / 2 for j in range(k)] for i in range(k)]
    if not definite([[-v for v in row] for row in B0]):
        B0 = None
    return _bfgs_ramp(fg, th0, feasible, B0)


def sup_over_intercept(divergence, P: Distribution, Q: Distribution, slope, alpha=None):
    """``sup_b E_P[a x + b] - E_Q[f^*(a x + b)]`` at a fixed slope ``a`` (Lemma 1's inner problem), by Newton's
    method on the unprofiled objective in ``b`` (scalar quadrature of the derived conjugate and its
    derivatives), from the best constant; no use of the profile being checked.
    """
    gen, params, _ = generator_for(divergence, alpha)
    if params:
        raise ParameterError("sup_over_intercept is written for generators without parameters (kl)")
    a = to_mpf(slope)
    if not Q.atomic and not _exp_feasible(Q, [mp.mpf(0), a]) and gen is KL:
        raise ParameterError(f"E_Q[f*(a x + b)] is infinite at slope a = {slope}")
    f0, f1, f2 = (gen.conj_mp(j) for j in range(3))
    EPx = P.mp_expect(lambda x: x) if P.atomic else mp.quad(lambda x: x * P.mp_pdf(x),
                                                            [-mp.inf, *sorted(set(P.mp_breaks())), mp.inf])
    b = mp.mpf(1)

    def lm(x):
        return a * x + b

    for _ in range(200):
        # Newton on log E_Q[f*'(a x + b)] = 0 (exact in one step for C e^s, robust when the expectation is
        # exponentially small or large)
        e1 = _q_expect(Q, lambda x: f1(a * x + b), lm, [])
        e2 = _q_expect(Q, lambda x: f2(a * x + b), lm, [])
        step = -mp.log(e1) * e1 / e2 if e1 > 0 else (1 - e1) / e2
        b += step
        if abs(step) <= mp.mpf(10) ** (-mp.mp.dps + 3) * (1 + abs(b)):
            break
    return a * EPx + b - _q_expect(Q, lambda x: f0(a * x + b), lm, [])


def renyi_limit(cls, P: Distribution, Q: Distribution) -> RestrictedResult:
    """The alpha -> infinity limit of the restricted Rényi divergence with CBDP's alpha-divergence generator:
    ``-log min { E_Q|h| : h in cls, E_P[h] = 1 }`` (the scale profile at ``A = alpha/(alpha - 1) = 1``).

    One-dimensional laws with a density for Q.  Newton's method with the exact Hessian of ``E_Q|h|``
    (a sum over the zeros of ``h``).
    """
    degree = parse_class(cls)
    _check_law(P, "P")
    _check_law(Q, "Q")
    if Q.atomic:
        raise ParameterError("renyi_limit needs a law with a density for Q")
    x0, w = _frame(Q)

    def make(A=mp.mpf(1)):
        return _Power(P, Q, degree, A, x0, w)

    # warm start from alpha = 1000 (A = 1000/999): E_Q|h| is only C^1 where zeros of h appear or merge
    warm, _ = _ramp(lambda: make(mp.mpf(1000) / 999), lambda: _power_start(P, Q, degree, mp.mpf(1000) / 999, x0, w), 20)
    th = [mp.mpf(t) for t in warm.theta]
    run, prob = _ramp(make, lambda: list(th), mp.mp.dps)
    M = -run.value  # A = 1: N = M
    cu = prob.coeffs(run.theta)
    cx = _to_x(cu[1:], x0, w)
    cx[0] += cu[0]
    notes = ["alpha -> infinity: A = 1, M = min E_Q|h| with E_P[h] = 1, value -log M; the optimum is the "
             "normalised h (E_P[h] = 1), not a variational maximiser (whose scale diverges)"]
    return _finish("renyi", str(cls), -mp.log(M), mp.nan, cx, run, notes)


def restricted_mp(divergence, cls, P: Distribution, Q: Distribution, alpha=None):
    """The restricted value alone (no second method), at the working precision.

    When the optimiser did not converge, the value is an :class:`~cbdp_sym.core.numbers.Estimate` carrying the digits
    its last gradient supports (about ``-log10 |grad|`` relative), so no report prints more than were established.
    """
    r = restricted(divergence, cls, P, Q, alpha=alpha, second=False)
    if r.converged or r.infinite or not mp.isfinite(r.value):
        return r.value
    g = r.gradient_norm if r.gradient_norm is not None and mp.isfinite(r.gradient_norm) else mp.mpf(1)
    scale = 1 + abs(r.value)
    got = int(max(1, min(mp.mp.dps, mp.floor(-mp.log10(g / scale)) if g > 0 else mp.mp.dps)))
    return Estimate(r.value, got)


def restricted_record(divergence, cls, P: Distribution, Q: Distribution, alpha=None, second: bool = True,
                      features=None) -> dict:
    """:func:`restricted` as a plain dict of mpf / lists / flags, cached on disk (see :mod:`cbdp_sym.core.cache`).

    The key holds the divergence, class, both laws (their repr), alpha, ``second``, the feature map, the
    working precision and the code version.
    """
    feats = None if features is None else tuple(tuple(str(sp.sympify(v)) for v in row) for row in features)
    return _record(str(divergence), str(cls), P, Q, None if alpha is None else str(alpha), bool(second), feats)


def _record(divergence, cls, P, Q, alpha, second, feats):
    return _record_memo(divergence, cls, P, Q, alpha, second, feats)


@cached_numeric
def _record_disk(divergence, cls, P, Q, alpha, second, feats):
    features = None if feats is None else [[parse_number(v) for v in row] for row in feats]
    r = restricted(divergence, cls, P, Q, alpha=alpha, second=second, features=features)
    fin = lambda v: v if (v is not None and mp.isfinite(v)) else None  # noqa: E731
    return {"value": r.value, "f_value": r.f_value, "optimum": [c for c in r.optimum],
            "gradient_norm": fin(r.gradient_norm),
            "hessian": [list(row) for row in r.hessian], "negative_definite": bool(r.negative_definite),
            "infinite": bool(r.infinite), "second_method_digits": r.second_method_digits,
            "second_value": r.second_value, "iterations": int(r.iterations), "notes": list(r.notes),
            "converged": bool(r.converged),
            "ray": None if r.ray is None else {"direction": list(r.ray[0]),
                                               "points": [[t, v] for t, v in (r.ray[1] or [])]}}


_record_memo = memo_numeric(_record_disk)
