"""Independent numerics in mpmath: split quadrature, f-divergences, restricted suprema.

Nothing here reads a claim's derived or claimed form: quadratures integrate densities and
generators, and suprema maximise the defining objective.  The one engine object the restricted
supremum uses is the generator's conjugate, which the audit checks separately against a numeric
supremum (claims ``CBDP-EQ1-*``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import mpmath as mp

from .distributions import Distribution
from .errors import ParameterError


def quad_split(f, kinks=(), lo=-mp.inf, hi=mp.inf):
    """``int_lo^hi f`` with the interval split at every kink (mpmath's tanh-sinh on each piece)."""
    pts = sorted({mp.mpf(k) for k in kinks if lo < k < hi})
    # tanh-sinh's stopping rule is partly absolute: integrate O(1) values
    scale = mp.mpf(0)
    for p in pts or [mp.mpf(0)]:
        try:
            v = abs(f(p))
        except (ValueError, ZeroDivisionError):
            continue
        if mp.isfinite(v) and v > scale:
            scale = v
    if scale == 0:
        return mp.quad(f, [lo, *pts, hi])
    return mp.quad(lambda x: f(x) / scale, [lo, *pts, hi]) * scale


def expect_mp(law: Distribution, g, kinks=()):
    """``E_law[g(x)]`` by split quadrature."""
    return quad_split(lambda x: g(x) * law.mp_pdf(x), list(law.mp_breaks()) + list(kinks))


def peak_breaks(logf, x0, w0):
    """Breakpoints ``m + w k`` around the maximum ``m`` of a unimodal log-integrand.

    Tanh-sinh quadrature on a half-line loses digits when the mass sits far from the end point or
    at a very different scale; splitting around the peak at its own width restores them.  Found at
    low precision: the points only guide the quadrature, they do not enter the value.
    """
    with mp.workdps(20):
        x0, w0 = mp.mpf(x0), mp.mpf(w0)
        f = lambda x: logf(x)  # noqa: E731
        step = w0
        direction = 1 if f(x0 + step / 64) > f(x0) else -1
        a, m = x0 - direction * step / 64, x0
        for _ in range(200):
            nxt = m + direction * step
            if f(nxt) <= f(m):
                break
            a, m = m, nxt
            step *= 2
        lo, hi = sorted([a, m + direction * step])
        invphi = (mp.sqrt(5) - 1) / 2
        for _ in range(80):
            c, d = hi - invphi * (hi - lo), lo + invphi * (hi - lo)
            if f(c) >= f(d):
                hi = d
            else:
                lo = c
        m = (lo + hi) / 2
        h = w0 / 1000
        curv = (f(m + h) - 2 * f(m) + f(m - h)) / h**2
        w = 1 / mp.sqrt(-curv) if curv < 0 else w0
        w = min(w, w0)
    return [m + w * k for k in (-8, -2, 0, 2, 8)]


def fdiv_mp(gen, P: Distribution, Q: Distribution, **params):
    """``D_f(P, Q) = int q f(p/q) dx`` by split quadrature (kinks of both densities)."""

    def integrand(x):
        lp, lq = P.mp_log_pdf(x), Q.mp_log_pdf(x)
        q = mp.exp(lq)
        if q == 0:
            return mp.mpf(0)
        return q * gen.mp_f(mp.exp(lp - lq), **params)

    return quad_split(integrand, list(P.mp_breaks()) + list(Q.mp_breaks()))


@dataclass
class Optimum:
    """Result of a numeric maximisation: the value, the maximiser and its certificate."""

    value: mp.mpf
    theta: list
    gradient_norm: mp.mpf
    hessian: list
    negative_definite: bool
    infinite: bool = False
    iterations: int = 0
    history: list = field(default_factory=list)


class LinObjective:
    """``J(a, b) = E_P[a x + b] - E_Q[f^*(a x + b)]`` for one-dimensional laws, by quadrature."""

    def __init__(self, gen, P: Distribution, Q: Distribution, **params):
        if P.dim != 1 or Q.dim != 1:
            raise ParameterError("the one-dimensional linear class needs one-dimensional laws")
        self.gen, self.P, self.Q = gen, P, Q
        from .numbers import to_mpf

        self.pvals = [to_mpf(params[str(p)]) for p in gen.params]
        self.c0, self.c1, self.c2 = (gen.conj_mp(k) for k in range(3))
        self.conj_kinks = [to_mpf(k) for k in gen.conjugate().kinks]
        self.mean_p = expect_mp(P, lambda x: x)
        self._kcache = {}
        self._wkey, self._w = None, {}

    def _logw(self, a, b):
        def logw(x):
            c = self.c0(a * x + b, *self.pvals)
            return mp.log(c) + self.Q.mp_log_pdf(x) if c > 0 else -mp.inf

        return logw

    def _kinks(self, a, b):
        """Breakpoints for ``q(x) f^*(a x + b)``: the kinks and, for a smooth law, the tilted peak.

        Also fixes the scale ``exp(L(peak))`` by which the integrands are divided, so that tanh-sinh
        works on O(1) values (its stopping rule is partly absolute).
        """
        key = (a, b, mp.mp.prec)
        if key not in self._kcache:
            ks = list(self.Q.mp_kinks())
            if a != 0:
                ks += [(k - b) / a for k in self.conj_kinks]
            logw = self._logw(a, b)
            w = self.Q.mp_width()
            if self.Q.kinks():
                m = self.Q.mp_loc()
            else:  # a smooth law: split around the tilted peak
                try:
                    pk = peak_breaks(logw, self.Q.mp_loc(), w)
                    ks += pk
                    m = pk[2]
                except (ValueError, ZeroDivisionError):
                    m = self.Q.mp_loc()
            Lm = logw(m)
            scale = mp.exp(Lm) if mp.isfinite(Lm) else mp.mpf(1)
            self._kcache = {key: (ks, scale)}
        return self._kcache[key][0]

    def _scale(self, a, b):
        self._kinks(a, b)
        return self._kcache[(a, b, mp.mp.prec)][1]

    def finite(self, theta) -> bool:
        """Whether ``E_Q[f^*(h)]`` is finite: the log-integrand must decrease along both tails."""
        a, b = theta
        Q = self.Q
        for sign in (1, -1):
            R = Q.mp_loc() + sign * (Q.mp_reach() + 1)
            R2 = Q.mp_loc() + sign * 2 * (Q.mp_reach() + 1)
            v1, v2 = self.c0(a * R + b, *self.pvals), self.c0(a * R2 + b, *self.pvals)
            if not (mp.isfinite(v1) and mp.isfinite(v2)):
                return False
            if v2 <= 0 or v1 <= 0:
                continue
            if Q.mp_log_pdf(R2) + mp.log(v2) >= Q.mp_log_pdf(R) + mp.log(v1):
                return False
        return True

    def _weights(self, a, b):
        """Per-node cache of ``q(x) f^{*(k)}(a x + b)``: the six integrals at one point share nodes."""
        key = (a, b, mp.mp.prec)
        if self._wkey != key:
            self._wkey, self._w = key, {}
        cache = self._w
        scale = self._scale(a, b)

        def w(x, k):
            hit = cache.get(x)
            if hit is None:
                q = self.Q.mp_pdf(x)
                h = a * x + b
                hit = cache[x] = [None, None, None, q, h]
            if hit[k] is None:
                hit[k] = (self.c0, self.c1, self.c2)[k](hit[4], *self.pvals) * hit[3] / scale
            return hit[k]

        return w

    def value(self, theta):
        a, b = theta
        w = self._weights(a, b)
        eq = quad_split(lambda x: w(x, 0), self._kinks(a, b)) * self._scale(a, b)
        return a * self.mean_p + b - eq

    def gradient(self, theta):
        a, b = theta
        ks, w = self._kinks(a, b), self._weights(a, b)
        sc = self._scale(a, b)
        e1x = quad_split(lambda x: w(x, 1) * x, ks) * sc
        e1 = quad_split(lambda x: w(x, 1), ks) * sc
        return [self.mean_p - e1x, 1 - e1]

    def intercept_terms(self, theta):
        """``(E_Q[f^*'(h)], E_Q[f^*''(h)])``: what the optimal intercept depends on."""
        a, b = theta
        ks, w = self._kinks(a, b), self._weights(a, b)
        sc = self._scale(a, b)
        return quad_split(lambda x: w(x, 1), ks) * sc, quad_split(lambda x: w(x, 2), ks) * sc

    def hessian(self, theta):
        a, b = theta
        ks, w = self._kinks(a, b), self._weights(a, b)
        sc = self._scale(a, b)
        hxx = -quad_split(lambda x: w(x, 2) * x * x, ks) * sc
        hx1 = -quad_split(lambda x: w(x, 2) * x, ks) * sc
        h11 = -quad_split(lambda x: w(x, 2), ks) * sc
        return [[hxx, hx1], [hx1, h11]]


def _negative_definite(H) -> bool:
    n = len(H)
    # Sylvester's criterion on -H
    for k in range(1, n + 1):
        minor = mp.det(mp.matrix([[-H[i][j] for j in range(k)] for i in range(k)])) if k > 1 else -H[0][0]
        if not minor > 0:
            return False
    return True


def profile_maximize(obj, theta0, free, tol_digits=None, max_iter=60):
    """Maximise a concave ``J(a, b)`` with the intercept ``b`` (last coordinate) profiled out.

    Each outer step solves ``max_b J(a, b)`` to full precision (a 1-D concave Newton iteration),
    then takes a Newton step in the free slopes with the Schur complement
    ``J_aa - J_ab J_ba / J_bb`` (the Hessian of the profile, by the envelope theorem), with
    backtracking on the profile value.  Far more robust than joint Newton when ``E_Q[f^*(h)]`` is
    exponential in ``a``.
    """
    from .numbers import to_mpf

    tol = mp.mpf(10) ** (-(tol_digits if tol_digits is not None else mp.mp.dps - 5))
    n = len(theta0)
    slopes = [i for i in range(n - 1) if free[i]]
    theta = [to_mpf(t) for t in theta0]

    def inner(th):
        """Optimal intercept: Newton on ``log E_Q[f^*'(a x + b)] = 0`` (linear in b for KL)."""
        th = list(th)
        for _ in range(400):
            e1, e2 = obj.intercept_terms(th)
            if abs(1 - e1) < tol:
                break
            if not e2 > 0:
                raise ParameterError("the intercept problem is not strictly concave here")
            step = -mp.log(e1) * e1 / e2 if e1 > 0 else (1 - e1) / e2
            th[-1] += step
        else:
            raise ParameterError("the optimal intercept did not converge")
        res = Optimum(obj.value(th), th, abs(1 - e1), [[-e2]], True)
        return res

    cur = inner(theta)
    history = [(cur.value, cur.gradient_norm)]
    g = H = None
    if slopes:
        for _ in range(max_iter):
            th = cur.theta
            g = obj.gradient(th)
            H = obj.hessian(th)
            ga = mp.matrix([g[i] for i in slopes])
            gnorm = mp.norm(ga)
            history.append((cur.value, gnorm))
            if gnorm < tol * (1 + abs(cur.value)):
                break
            hbb = H[n - 1][n - 1]
            S = mp.matrix([[H[i][j] - H[i][n - 1] * H[n - 1][j] / hbb for j in slopes] for i in slopes])
            try:
                step = -mp.lu_solve(S, ga)
                if mp.fdot(list(step), list(ga)) <= 0:
                    raise ZeroDivisionError
            except ZeroDivisionError:
                step = ga
            t = mp.mpf(1)
            for _ in range(200):
                cand = list(th)
                for k, i in enumerate(slopes):
                    cand[i] = th[i] + t * step[k]
                # predicted intercept: follow the optimal b to first order
                cand[n - 1] = th[n - 1] - sum(H[n - 1][i] * t * step[k] for k, i in enumerate(slopes)) / hbb
                if obj.finite(cand):
                    try:
                        nxt = inner(cand)
                    except ParameterError:
                        nxt = None
                    if nxt is not None and nxt.value >= cur.value - mp.mpf(10) ** (-mp.mp.dps + 3) * (1 + abs(cur.value)):
                        break
                t /= 2
            else:  # pragma: no cover - defensive
                break
            cur = nxt
            g = H = None
    th = cur.theta
    if g is None:
        g, H = obj.gradient(th), obj.hessian(th)
    idx = [i for i in range(n) if free[i]]
    Hs = [[H[i][j] for j in idx] for i in idx]
    gnorm = mp.norm(mp.matrix([g[i] for i in idx]))
    return Optimum(cur.value, th, gnorm, Hs, _negative_definite(Hs), iterations=len(history), history=history)


def restricted_lin_mp(gen, P, Q, free=(True, True), theta0=(0, 0), **params) -> Optimum:
    """``sup_{a, b} E_P[a x + b] - E_Q[f^*(a x + b)]`` (the class ``lin`` with feature ``x``).

    A precision ramp: the profiled Newton iteration (:func:`profile_maximize`) from ``theta0`` at
    20 digits, then polished at the working precision.
    """
    target = mp.mp.dps
    with mp.workdps(20):
        coarse = profile_maximize(LinObjective(gen, P, Q, **params), theta0, list(free), tol_digits=14)
    obj = LinObjective(gen, P, Q, **params)
    start = [c if f else t for c, t, f in zip(coarse.theta, theta0, free)]  # fixed coordinates exact
    opt = profile_maximize(obj, start, list(free), tol_digits=target - 5)
    # a small value is a difference of O(1) terms: re-polish with the digits the cancellation costs
    terms = 1 + abs(opt.theta[-1]) + sum(abs(t) for t in opt.theta[:-1]) * (1 + abs(obj.mean_p))
    if opt.value != 0 and mp.isfinite(opt.value):
        extra = int(mp.ceil(mp.log10(terms / abs(opt.value))))
        if extra > 2:
            with mp.workdps(target + extra):
                obj = LinObjective(gen, P, Q, **params)
                start = [mp.mpf(c) if f else t for c, t, f in zip(opt.theta, theta0, free)]
                fine = profile_maximize(obj, start, list(free), tol_digits=target + extra - 5)
            fine.value = +fine.value
            return fine
    return opt


def vquad(f, points, n: int, ref=1, loose=0):
    """Tanh-sinh quadrature of a vector integrand ``f(x) -> [f_1(x), ..., f_n(x)]`` over ``points``.

    mpmath's own degree-doubling rule (its node cache, its error estimate) applied to all
    components on the same nodes, so that a value, a gradient and a Hessian at one point cost one
    pass.  An interval is done when every component's estimated error is below ``eps * max(ref,
    |I_i|)`` (mpmath's ``quad`` uses ``eps`` absolutely; ``ref`` is the magnitude of the total).
    The last ``loose`` components (a Hessian, which Newton's method needs only roughly) do not
    take part in the stopping rule: they are summed on the nodes the others needed.  (Where the
    conjugate's second derivative has an integrable singularity at a zero of ``h``, tanh-sinh
    cannot resolve it to full precision anyway: nodes nearer to the zero than the working
    precision see rounding noise.)
    """
    ctx = mp.mp
    rule = ctx._tanh_sinh
    prec = ctx.prec
    eps = ctx.eps / 8
    max_degree = rule.guess_degree(prec)
    pts = sorted({mp.mpf(p) if not mp.isinf(p) else p for p in points})
    total = [mp.mpf(0)] * n
    with mp.extraprec(20):
        for a, b in zip(pts[:-1], pts[1:]):
            if a == b:
                continue
            results = []
            for degree in range(1, max_degree + 1):
                nodes = rule.get_nodes(a, b, degree, prec)
                h = ctx.mpf(2) ** (-degree)
                S = [r / (2 * h) for r in results[-1]] if results else [ctx.zero] * n
                ws, vals = [], []
                for x, w in nodes:
                    ws.append(w)
                    vals.append(f(x))
                for i in range(n):
                    S[i] += ctx.fdot(ws, [v[i] for v in vals])
                results.append([h * s for s in S])
                if degree > 1:
                    done = True
                    for i in range(n - loose):
                        comp = [r[i] for r in results]
                        tol = eps * max(ref, abs(comp[-1]))
                        if rule.estimate_error(comp, prec, tol) > tol:
                            done = False
                            break
                    if done:
                        break
            total = [t + r for t, r in zip(total, results[-1])]
    return [+t for t in total]
