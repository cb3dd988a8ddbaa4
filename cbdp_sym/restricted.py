"""Restricted f-divergences over finite-dimensional classes: ``lin`` and ``poly_k``.

``D^H_f(P, Q) = sup_{h in H} E_P[h] - E_Q[f^*(h)]`` (CBDP's Eq. (2)) for
``H = poly_k = {b + sum_{j=1..k} c_j u^j}`` with ``u = (x - x0)/w`` (``lin`` is ``k = 1``), and its Rényi
version through CBDP's Eq. (3), ``log(1 + alpha (alpha - 1) D^H_alpha)/(alpha - 1)``.

How the supremum is found and certified:

* The objective ``J(theta)`` is concave.  Its value, gradient ``E_P[phi] - E_Q[f^*'(h) phi]`` and Hessian
  ``-E_Q[f^*''(h) phi phi^T]`` are integrals, computed by tanh-sinh quadrature split at the kinks of
  Q's density, at the zeros of ``h - s_k`` for every kink ``s_k`` of the conjugate (for the
  α-divergence, the zeros of ``h``), and on a ladder of points that resolves tails of heavy tilts.
  All integrands at one ``theta`` share quadrature nodes (a node cache).
* Newton's method with a pseudo-inverse of the Hessian and backtracking on ``J`` (never leaving the
  set where ``E_Q[f^*(h)]`` is finite, decided exactly from the tail rates of Q and the growth of the
  conjugate), started from the best constant ``h``, at 20 digits; then polished at the working
  precision.  The certificate is the gradient norm and the Hessian's definiteness at the optimum.
* A flat or positive direction of the Hessian is tested as a ray: if ``J`` grows linearly along it the
  supremum is reported infinite (for example a non-private release, CBDP's Lemma 2), with the ray.
* The second method solves the same problem in another parametrisation (raw monomials of ``x``,
  not Q-centred ones) from another start; the number of digits on which the two agree is reported.

The conjugate ``f^*`` is the engine's derived one; it is audited separately against a numeric
supremum (claims ``CBDP-EQ1-*``).

>>> import mpmath as mp
>>> from cbdp_sym.distributions import Normal
>>> with mp.workdps(20):
...     r = restricted("kl", "lin", Normal(0, 1), Normal(1, 1), second=False)
>>> mp.nstr(r.value, 12)   # (mu1 - mu2)^2 / (2 sigma^2), Theorem 10
'0.5'
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import mpmath as mp
import numpy as np
import sympy as sp

from .distributions import Distribution, Laplace, Normal, PointMass, Product
from .divergences import ALPHA_DIV, KL, TV, Generator, conj_triple_mp
from .cache import cached_numeric
from .errors import ParameterError
from .numbers import digits, parse_number, to_mpf
from .numeric import vquad

__all__ = ["PolyProblem", "RestrictedResult", "restricted", "parse_law", "parse_class", "generator_for"]


# -- input -----------------------------------------------------------------------------------------
_LAW_RE = re.compile(r"^\s*(laplace|normal|point)\s*\((.*)\)\s*$", re.I)


def _split_args(text: str) -> list:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [o.strip() for o in out]


def parse_law(spec: str) -> Distribution:
    """A law from a CLI spec: ``laplace(loc,scale)``, ``normal(loc,std)``, ``point(loc)``, ``product(...)``.

    ``normal`` takes the **standard deviation** (not the variance); ``laplace`` takes the scale
    (CBDP's ``Lap(mu, 1/eps)`` is ``laplace(mu, 1/eps)``).

    >>> parse_law("laplace(0, 1/2)")
    Laplace(loc=0, scale=1/2)
    >>> parse_law("product(normal(0,1), normal(1,2))").dim
    2
    """
    s = str(spec).strip()
    m = re.match(r"^\s*product\s*\((.*)\)\s*$", s, re.I)
    if m:
        parts = _split_args(m.group(1))
        if not parts:
            raise ParameterError(f"law spec {spec!r}: product() needs at least one law")
        return Product(*[parse_law(p) for p in parts])
    m = _LAW_RE.match(s)
    if not m:
        raise ParameterError(f"law spec {spec!r} not understood: use laplace(loc,scale), normal(loc,std), "
                             "point(loc) or product(SPEC, ...)")
    kind, args = m.group(1).lower(), _split_args(m.group(2))
    want = 1 if kind == "point" else 2
    if len(args) != want:
        raise ParameterError(f"law spec {spec!r}: {kind}() takes {want} number(s), got {len(args)}")
    vals = [parse_number(a, f"{kind} argument") for a in args]
    if kind == "point":
        return PointMass(vals[0])
    if not vals[1] > 0:
        raise ParameterError(f"law spec {spec!r}: the {'scale' if kind == 'laplace' else 'standard deviation'} "
                             f"must be positive, got {args[1]}")
    return Laplace(*vals) if kind == "laplace" else Normal(*vals)


def parse_class(text: str) -> int:
    """``lin`` -> 1, ``polyK`` -> K (the polynomial degree).

    >>> parse_class("poly3")
    3
    """
    t = str(text).strip().lower()
    if t == "lin":
        return 1
    m = re.match(r"^poly_?(\d+)$", t)
    if m and int(m.group(1)) >= 1:
        return int(m.group(1))
    raise ParameterError(f"function class {text!r} not understood: use lin or polyK with K >= 1 (poly1, poly2, ...)")


def generator_for(divergence: str, alpha=None):
    """``(generator, params, renyi)`` for ``kl``, ``tv``, ``alpha`` or ``renyi`` (the last two need alpha > 1)."""
    d = str(divergence).strip().lower()
    if d in ("kl", "tv"):
        if alpha is not None:
            raise ParameterError(f"--alpha is meaningless for {d}")
        return (KL if d == "kl" else TV), {}, False
    if d in ("alpha", "renyi"):
        if alpha is None:
            raise ParameterError(f"{d} needs --alpha (a number > 1)")
        a = parse_number(alpha, "alpha") if not isinstance(alpha, (sp.Basic, int)) else sp.sympify(alpha)
        if not a > 1:
            raise ParameterError(f"{d} needs alpha > 1, got alpha = {alpha}")
        return ALPHA_DIV, {"alpha": a}, d == "renyi"
    raise ParameterError(f"divergence {divergence!r} not understood: use kl, alpha, renyi or tv")


def _call(fn, pvals, s):
    try:
        return fn(s, *pvals)
    except ZeroDivisionError:  # s = 0 to the last bit: a removable or integrable singularity
        return mp.mpf(0)


# -- the problem -----------------------------------------------------------------------------------
def _growth(gen: Generator) -> str:
    """How the conjugate grows: ``bounded`` domain, ``exp`` (``e^{s-1}``) or ``power``."""
    c = gen.conjugate()
    if c.lo.is_finite or c.hi.is_finite:
        return "bounded"
    if c.expr.has(sp.exp):
        from .divergences import S

        if sp.simplify(sp.diff(c.expr, S) - c.expr) != 0:  # pragma: no cover - no such generator yet
            raise ParameterError("exponential conjugates other than e^{s-1} are not supported")
        return "exp"
    return "power"


class PolyProblem:
    """``J(theta) = E_P[h] - E_Q[f^*(h)]``, ``h(x) = b + sum_j c_j ((x - x0)/w)^j``, ``theta = (c_1..c_k, b)``.

    One-dimensional laws (Laplace, Normal, PointMass).  ``x0, w`` default to Q's location and width.
    """

    def __init__(self, gen: Generator, P: Distribution, Q: Distribution, degree: int = 1, x0=None, w=None,
                 params=None):
        for L in (P, Q):
            if L.dim != 1:
                raise ParameterError("poly_k on a product law: only the class lin is supported in d dimensions")
        if int(degree) != degree or degree < 1:
            raise ParameterError(f"polynomial degree must be an integer >= 1, got {degree}")
        self.gen, self.P, self.Q, self.k = gen, P, Q, int(degree)
        self.x0 = to_mpf(x0) if x0 is not None else Q.mp_loc()
        self.w = to_mpf(w) if w is not None else Q.mp_width()
        params = params or {}
        try:
            self.pexact = [sp.sympify(params[str(p)]) for p in gen.params]
            self.pvals = [to_mpf(v) for v in self.pexact]
        except KeyError as e:
            raise ParameterError(f"the generator needs the parameter {e.args[0]}") from None
        self.c = [functools.partial(_call, gen.conj_mp(j), self.pvals) for j in range(3)]
        tri = conj_triple_mp(gen)
        self.triple = (lambda s: tri(s, *self.pvals)) if tri is not None else (lambda s: [c(s) for c in self.c])
        self.conj_kinks = [to_mpf(s) for s in gen.conjugate().kinks]
        self.growth = _growth(gen)
        self.power = None
        if self.growth == "power":
            from .divergences import T

            exps = [p.exp for p in gen.f.atoms(sp.Pow) if p.base == sp.Abs(T)]
            alpha = to_mpf(exps[0].subs(dict(zip(gen.params, self.pexact)))) if exps else mp.mpf(2)
            self.power = alpha / (alpha - 1)
        if P.atomic:
            u = (P.mp_loc() - self.x0) / self.w
            self.mean_p = [u**j for j in range(1, self.k + 1)] + [mp.mpf(1)]
        else:
            from .numeric import expect_mp

            self.mean_p = [expect_mp(P, lambda x, j=j: ((x - self.x0) / self.w) ** j) for j in range(1, self.k + 1)]
            self.mean_p.append(mp.mpf(1))
        self._ladder = self._make_ladder()
        self._ckey, self._cache = None, {}

    @property
    def n(self) -> int:
        return self.k + 1

    # polynomials
    def features(self, x):
        u = (x - self.x0) / self.w
        out, p = [], mp.mpf(1)
        for _ in range(self.k):
            p *= u
            out.append(p)
        return out + [mp.mpf(1)]

    def h(self, theta, x):
        u = (x - self.x0) / self.w
        acc = mp.mpf(0)
        for c in reversed(theta[:-1]):
            acc = (acc + c) * u
        return acc + theta[-1]

    def x_coefficients(self, theta) -> list:
        """Coefficients of ``h`` in powers of ``x`` (constant first)."""
        coeffs = [mp.mpf(0)] * (self.k + 1)
        coeffs[0] = theta[-1]
        for j in range(1, self.k + 1):
            cj = theta[j - 1] / self.w**j
            for i in range(j + 1):
                coeffs[i] += cj * mp.binomial(j, i) * (-self.x0) ** (j - i)
        return coeffs

    def from_x_coefficients(self, coeffs) -> list:
        """Inverse of :meth:`x_coefficients` (theta in this problem's parametrisation)."""
        k = self.k
        u = [mp.mpf(0)] * (k + 1)  # coefficients in u: x = x0 + w u
        for i, ci in enumerate(coeffs):
            for j in range(i + 1):
                u[j] += ci * mp.binomial(i, j) * self.w**j * self.x0 ** (i - j)
        return u[1:] + [u[0]]

    # where E_Q[f^*(h)] is finite
    def feasible(self, theta) -> bool:
        if not all(mp.isfinite(t) for t in theta):
            return False
        if self.Q.atomic:
            return bool(mp.isfinite(self.c[0](self.h(theta, self.Q.mp_loc()))))
        cx = self.x_coefficients(theta)
        m = max((j for j in range(1, self.k + 1) if cx[j] != 0), default=0)
        if m == 0:
            return bool(mp.isfinite(self.c[0](cx[0])))
        if self.growth == "bounded":
            return False  # a non-constant polynomial leaves a bounded domain on a full-support law
        if self.growth == "power":
            return True  # Laplace and Gaussian laws have all moments
        lead = cx[m]
        for side in (1, -1):
            if lead * side**m <= 0:
                continue  # h -> -inf on this side: e^{h - 1} -> 0
            if isinstance(self.Q, Laplace):
                if not (m == 1 and abs(lead) < 1 / self.Q.mp_width()):
                    return False
            elif isinstance(self.Q, Normal):
                if m > 2 or (m == 2 and not lead < 1 / (2 * self.Q.mp_width() ** 2)):
                    return False
            else:  # pragma: no cover - no other laws
                return False
        return True

    # quadrature breakpoints
    def _make_ladder(self):
        Q = self.Q
        if Q.atomic:
            return []
        c, w = Q.mp_loc(), Q.mp_width()
        # where |h|^A q (or e^h q) has its bulk: A scales for Laplace, sqrt(A) deviations for a Gaussian
        A = self.power if self.power is not None else mp.mpf(1)
        reach = max(A, 1) if isinstance(Q, Laplace) else max(mp.sqrt(A), 1)
        pts = [c]
        for t in (2, 8):
            pts += [c + w * reach * t, c - w * reach * t]
        return pts

    def tail_width(self, theta):
        """The width over which ``q(x) f^*(h(x))`` decays in its slowest tail (an exponential conjugate
        tilts Q: ``e^{a x}`` against a Laplace tail leaves the rate ``1/scale - |a|``)."""
        w = self.Q.mp_width()
        if self.growth != "exp" or self.Q.atomic:
            return w
        cx = self.x_coefficients(theta)
        if isinstance(self.Q, Laplace) and all(c == 0 for c in cx[2:]) and cx[1] != 0:
            rate = 1 / w - abs(cx[1])
            return 1 / rate if rate > 0 else w
        if isinstance(self.Q, Normal) and len(cx) > 2 and all(c == 0 for c in cx[3:]) and cx[2] > 0:
            prec = 1 / w**2 - 2 * cx[2]
            return 1 / mp.sqrt(prec) if prec > 0 else w
        return w

    def _breaks(self, theta):
        ks = list(self._ladder) + list(self.Q.mp_kinks())
        tw = self.tail_width(theta)
        if tw > 2 * self.Q.mp_width():
            c = self.Q.mp_loc()
            ks += [c + sgn * tw * t for sgn in (1, -1) for t in (2, 8, 32)]
        if any(t != 0 for t in theta[:-1]):
            for s in self.conj_kinks:
                ks += self._real_roots(theta, s)
        return ks

    def _real_roots(self, theta, s):
        coeffs = list(reversed(theta[:-1])) + [theta[-1] - s]  # in u, highest first
        while coeffs and coeffs[0] == 0:
            coeffs.pop(0)
        if len(coeffs) < 2:
            return []
        if len(coeffs) == 2:
            roots = [-coeffs[1] / coeffs[0]]
        else:
            try:
                with mp.workdps(mp.mp.dps + 20):
                    roots = mp.polyroots(coeffs, maxsteps=400, extraprec=2 * mp.mp.prec)
            except mp.NoConvergence:  # pragma: no cover - defensive
                roots = []
            tol = mp.mpf(10) ** (-(mp.mp.dps // 2))
            roots = [mp.re(r) for r in roots if abs(mp.im(r)) <= tol * (1 + abs(r))]
        return [self.x0 + self.w * r for r in roots]

    # evaluation
    def _node(self, theta_key, theta, x):
        if self._ckey != theta_key:
            self._ckey, self._cache = theta_key, {}
        hit = self._cache.get(x)
        if hit is None:
            q = self.Q.mp_pdf(x)
            hx = self.h(theta, x)
            vals = []
            for j in range(3):
                try:
                    vals.append(self.c[j](hx) * q if q != 0 else mp.mpf(0))
                except ZeroDivisionError:  # h(x) = 0 to the last bit: an integrable singularity of f^*''
                    vals.append(mp.mpf(0))
            hit = self._cache[x] = (vals, self.features(x))
        return hit

    def evaluate(self, theta, order: int = 2):
        """``(J, gradient, Hessian)`` at ``theta`` (gradient/Hessian ``None`` below ``order``)."""
        theta = [to_mpf(t) for t in theta]
        n = self.n
        if not self.feasible(theta):
            return -mp.inf, None, None
        if self.Q.atomic:
            x = self.Q.mp_loc()
            hx, phi = self.h(theta, x), self.features(x)
            e = [self.c[j](hx) for j in range(3)]
            I0, I1 = e[0], [e[1] * p for p in phi]
            I2 = [[e[2] * phi[i] * phi[j] for j in range(n)] for i in range(n)]
        else:
            ks = self._breaks(theta)
            pairs = [(i, j) for i in range(n) for j in range(i, n)] if order >= 2 else []

            def vec(x):
                q = self.Q.mp_pdf(x)
                if q == 0:
                    return [mp.mpf(0)] * ncomp
                hx = self.h(theta, x)
                if order == 0:
                    return [self.c[0](hx) * q]
                c0, c1, c2 = self.triple(hx)
                out = [c0 * q]
                phi = self.features(x)
                d1 = c1 * q
                out += [d1 * p for p in phi]
                if order >= 2:
                    d2 = c2 * q
                    out += [d2 * phi[i] * phi[j] for i, j in pairs]
                return out

            ncomp = 1 + (n if order >= 1 else 0) + len(pairs)
            vals = vquad(vec, [-mp.inf, *ks, mp.inf], ncomp, loose=len(pairs))
            I0 = vals[0]
            I1 = vals[1:1 + n] if order >= 1 else None
            I2 = None
            if order >= 2:
                I2 = [[None] * n for _ in range(n)]
                for (i, j), v in zip(pairs, vals[1 + n:]):
                    I2[i][j] = I2[j][i] = v
        J = mp.fdot(theta, self.mean_p) - I0
        g = [self.mean_p[i] - I1[i] for i in range(n)] if order >= 1 else None
        H = [[-I2[i][j] for j in range(n)] for i in range(n)] if order >= 2 else None
        return J, g, H

    def value(self, theta):
        return self.evaluate(theta, order=0)[0]

    def best_constant(self):
        """The optimal constant ``h = b``: stationarity ``f^*'(b) = 1``, i.e. ``b = f'(1)``, polished by Newton."""
        from .divergences import T

        d = sp.diff(self.gen.f, T).subs(T, 1).subs(dict(zip(self.gen.params, self.pexact)))
        if not (d.is_number and d.is_finite):
            return mp.mpf(0)  # f not differentiable at 1 (TV): every constant in the subdifferential is optimal
        b = to_mpf(d)
        for _ in range(50):
            d1, d2 = self.c[1](b) - 1, self.c[2](b)
            if not d2 > 0:
                b += 1 if d1 < 0 else -1
                continue
            step = d1 / d2
            b -= step
            if abs(step) <= mp.mpf(10) ** (-mp.mp.dps + 3) * (1 + abs(b)):
                break
        return b


# -- the optimiser ---------------------------------------------------------------------------------
@dataclass
class _Run:
    theta: list
    value: mp.mpf
    gradient: list
    hessian: list
    iterations: int
    infinite: bool = False
    ray: tuple | None = None
    converged: bool = True


def _pinv_step(H, g, rel=mp.mpf(10) ** -30):
    """Newton step ``-H^+ g`` on the well-conditioned part of ``-H``; also the flat/positive directions."""
    n = len(g)
    E, V = mp.eigsy(mp.matrix([[-H[i][j] for j in range(n)] for i in range(n)]))
    lam_max = max(abs(E[i]) for i in range(n)) or mp.mpf(1)
    thr = lam_max * max(rel, mp.mpf(10) ** (-(mp.mp.dps * 2) // 3))
    step = [mp.mpf(0)] * n
    flat = []
    for i in range(n):
        v = [V[r, i] for r in range(n)]
        gv = mp.fdot(v, g)
        if E[i] > thr:
            for r in range(n):
                step[r] += gv / E[i] * v[r]
        else:
            flat.append(v)
    return step, flat


def _ray_unbounded(problem, theta, direction):
    """Whether ``J(theta + t d)`` grows linearly without bound (tested out to ``t = 1e20``)."""
    J0 = problem.value(theta)
    vals = []
    for e in (2, 10, 20):
        t = mp.mpf(10) ** e
        vals.append((t, problem.value([a + t * d for a, d in zip(theta, direction)])))
    (t1, J1), (t2, J2), (t3, J3) = vals
    if not all(mp.isfinite(v) for _, v in vals):
        return False, vals
    s2, s3 = (J2 - J0) / t2, (J3 - J0) / t3
    return bool(s3 > 0 and J3 > J2 > J1 > J0 and s3 >= s2 / 2), vals


def newton_max(problem: PolyProblem, theta0, tol_digits=None, max_iter=100) -> _Run:
    """Maximise the concave ``J`` by damped pseudo-inverse Newton from a feasible ``theta0``."""
    tol = mp.mpf(10) ** (-(tol_digits if tol_digits is not None else mp.mp.dps - 5))
    theta = [to_mpf(t) for t in theta0]
    if not problem.feasible(theta):
        raise ParameterError("the starting point of the restricted supremum is not feasible")
    J, g, H = problem.evaluate(theta)
    it = 0
    for it in range(1, max_iter + 1):
        gnorm = mp.norm(mp.matrix(g))
        if gnorm <= tol * (1 + abs(J)):
            break
        step, flat = _pinv_step(H, g)
        for v in flat:  # a flat or positive direction: test it as a ray
            for sgn in (1, -1):
                d = [sgn * c for c in v]
                if mp.fdot(d, g) >= 0:
                    unbounded, vals = _ray_unbounded(problem, theta, d)
                    if unbounded:
                        return _Run(theta, mp.inf, g, H, it, infinite=True, ray=(d, vals))
        slope = mp.fdot(step, g)
        if not slope > 0:
            step, slope = list(g), mp.fdot(g, g)
        t = mp.mpf(1)
        accepted = False
        for _ in range(80):
            cand = [a + t * s for a, s in zip(theta, step)]
            Jc = problem.value(cand)
            if mp.isfinite(Jc) and Jc >= J + mp.mpf("1e-4") * t * slope - mp.mpf(10) ** (-mp.mp.dps + 5) * (1 + abs(J)):
                accepted = True
                break
            t /= 2
        if not accepted:
            break  # no ascent left at this precision
        theta = cand
        J, g, H = problem.evaluate(theta)
        if max(abs(c) for c in theta) > mp.mpf(10) ** 30:
            return _Run(theta, mp.inf, g, H, it, infinite=True, ray=None)
    ok = bool(mp.norm(mp.matrix(g)) <= tol * (1 + abs(J)) * 10**3)
    return _Run(theta, J, g, H, it, converged=ok)


def _negative_definite(H) -> bool:
    n = len(H)
    E = mp.eigsy(mp.matrix([[-H[i][j] for j in range(n)] for i in range(n)]), eigvals_only=True)
    return all(E[i] > 0 for i in range(n))


# -- the public entry point ------------------------------------------------------------------------
@dataclass
class RestrictedResult:
    """A restricted divergence with its certificate (values are mpf at the working precision)."""

    divergence: str
    cls: str
    value: mp.mpf                 # the restricted divergence (Rényi through Eq. (3) for ``renyi``)
    f_value: mp.mpf               # the restricted f-divergence itself (before Eq. (3))
    optimum: list                 # coefficients of the maximising h in powers of x (constant first)
    gradient_norm: mp.mpf
    hessian: list
    negative_definite: bool
    infinite: bool = False
    second_method_digits: object = None
    second_value: object = None
    iterations: int = 0
    ray: object = None
    notes: list = field(default_factory=list)
    converged: bool = True

    def as_json(self, digits_out: int | None = None) -> dict:
        dg = digits_out or max(mp.mp.dps - 10, 15)

        def s(v):
            if v is None:
                return None
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                v = mp.mpf(v)
            return mp.nstr(v, dg, strip_zeros=False) if mp.isfinite(v) else ("inf" if v > 0 else "-inf")

        return {
            "divergence": self.divergence, "class": self.cls,
            "value": s(self.value), "f_value": s(self.f_value),
            "optimum": [s(c) for c in self.optimum],
            "gradient_norm": s(self.gradient_norm),
            "hessian": [[s(v) for v in row] for row in self.hessian],
            "hessian_negative_definite": self.negative_definite,
            "second_method_digits": (None if self.second_method_digits is None
                                     else mp.nstr(self.second_method_digits, 4)),
            "infinite": self.infinite,
            "notes": list(self.notes),
        }


def _renyi(alpha, D):
    if not mp.isfinite(D):
        return mp.inf
    return mp.log1p(alpha * (alpha - 1) * D) / (alpha - 1)


class _FastAdapter:
    """The double-precision objective with the interface :func:`newton_max` expects (values as mpf)."""

    def __init__(self, prob: PolyProblem):
        from .fastquad import FastObjective

        self.prob, self.fast, self.n = prob, FastObjective(prob), prob.n

    def feasible(self, theta) -> bool:
        return self.prob.feasible(theta)

    def evaluate(self, theta, order: int = 2):
        if not self.feasible(theta):
            return -mp.inf, None, None
        J, g, H = self.fast.evaluate([float(t) for t in theta], order)
        if not np.isfinite(J):
            return -mp.inf, None, None
        g = [mp.mpf(float(v)) for v in g] if g is not None else None
        H = [[mp.mpf(float(v)) for v in row] for row in H] if H is not None else None
        return mp.mpf(J), g, H

    def value(self, theta):
        return self.evaluate(theta, 0)[0]


def _fast_ok(prob: PolyProblem) -> bool:
    from .fastquad import conj_triple_np

    return not prob.Q.atomic and not prob.P.atomic and conj_triple_np(prob.gen) is not None


def _polish(prob: PolyProblem, theta, H, max_iter: int = 30) -> _Run:
    """High-precision quasi-Newton steps from the double-precision optimum.

    Starts from the double-precision Hessian and corrects it with BFGS updates from the
    high-precision gradients (where ``f^*''`` is nearly singular at the zeros of ``h``, large α,
    the double-precision Hessian is only roughly right).  Stops when the gradient is below
    ``10^-(dps/2 + 5)`` relative to ``1 + |J|``, which makes the value's error (quadratic in the
    maximiser's) far below ``10^-dps``.
    """
    n = prob.n
    B = mp.matrix([[-mp.mpf(H[i][j]) for j in range(n)] for i in range(n)])  # approximates -Hessian
    theta = [mp.mpf(t) for t in theta]
    tol = mp.mpf(10) ** (-(mp.mp.dps // 2 + 5))
    J, g, _ = prob.evaluate(theta, order=1)
    it = 0
    for it in range(1, max_iter + 1):
        if mp.norm(mp.matrix(g)) <= tol * (1 + abs(J)):
            break
        step = mp.lu_solve(B, mp.matrix(g))
        t = mp.mpf(1)
        for _ in range(40):
            cand = [th + t * step[i] for i, th in enumerate(theta)]
            if prob.feasible(cand):
                Jc, gc, _ = prob.evaluate(cand, order=1)
                if mp.isfinite(Jc) and Jc >= J - mp.mpf(10) ** (-mp.mp.dps + 5) * (1 + abs(J)):
                    break
            t /= 2
        else:  # pragma: no cover - no ascent left at this precision
            break
        sv = mp.matrix([c - th for c, th in zip(cand, theta)])
        yv = mp.matrix([-(x - y) for x, y in zip(gc, g)])
        sy = (sv.T * yv)[0]
        Bs = B * sv
        sBs = (sv.T * Bs)[0]
        if sy > 0 and sBs > 0:
            B = B + (yv * yv.T) / sy - (Bs * Bs.T) / sBs
        theta, J, g = cand, Jc, gc
    ok = bool(mp.norm(mp.matrix(g)) <= tol * (1 + abs(J)))
    return _Run(theta, J, g, [[-B[i, j] for j in range(n)] for i in range(n)], it, converged=ok)


def _solve(gen, P, Q, degree, x0=None, w=None, start=None, params=None):
    """Newton in double precision (or at 20 digits where no vectorised form exists), then polished."""
    target = mp.mp.dps
    prob = PolyProblem(gen, P, Q, degree, x0, w, params)
    if _fast_ok(prob):
        with mp.workdps(17):
            fast = _FastAdapter(PolyProblem(gen, P, Q, degree, x0, w, params))
            th0 = start(fast.prob) if start else [mp.mpf(0)] * degree + [fast.prob.best_constant()]
            coarse = newton_max(fast, th0, tol_digits=11)
            if coarse.infinite:
                return coarse, fast.prob
            cx = fast.prob.x_coefficients(coarse.theta)
            H = coarse.hessian
        th = prob.from_x_coefficients([mp.mpf(c) for c in cx])
        run = _polish(prob, th, H)
        run.iterations += coarse.iterations
        return run, prob
    with mp.workdps(20):
        prob20 = PolyProblem(gen, P, Q, degree, x0, w, params)
        th0 = start(prob20) if start else [mp.mpf(0)] * degree + [prob20.best_constant()]
        coarse = newton_max(prob20, th0, tol_digits=12)
        if coarse.infinite:
            return coarse, prob20
        cx = prob20.x_coefficients(coarse.theta)
    th = prob.from_x_coefficients([mp.mpf(c) for c in cx])
    if not prob.feasible(th):  # pragma: no cover - rounding at a boundary
        th = [mp.mpf(0)] * degree + [prob.best_constant()]
    run = newton_max(prob, th, tol_digits=target - 5)
    return run, prob


def _exp_sign(Q, m: int):
    """Signs of a leading coefficient of degree ``m`` with ``E_Q[e^h]`` finite: ``{-1}``, ``{-1, 1}`` or ``{}``."""
    if m % 2 == 1:
        return set()
    if isinstance(Q, Normal) and m == 2:
        return {-1, 1}  # c_2 < 1/(2 sigma^2)
    return {-1}


def _solve_faces(gen, P, Q, degree, params, x0=None, w=None):
    """``poly_k`` for an exponential conjugate (KL), where feasibility constrains the top coefficients.

    Degree by degree: a degree ``m`` whose nonzero coefficients all make ``E_Q[e^h]`` infinite adds
    nothing; where only one sign is feasible, the optimum of degree ``m - 1`` is optimal for degree
    ``m`` iff the derivative in ``c_m`` there points out of the feasible side (KKT); otherwise Newton
    runs on the full problem from the face optimum nudged inside.
    """
    notes = []
    run, prob = _solve(gen, P, Q, 1, x0, w, params=params)
    if run.infinite:
        return run, prob, notes, 1
    best, bprob, bdeg = run, prob, 1
    for m in range(2, degree + 1):
        signs = _exp_sign(Q, m)
        if not signs:
            notes.append(f"degree {m}: every nonzero coefficient of $x^{m}$ makes $E_Q[e^h]$ infinite; it stays 0")
            continue
        pm = PolyProblem(gen, P, Q, m, x0, w, params)
        cx = bprob.x_coefficients(best.theta) + [mp.mpf(0)] * (m - bdeg)
        th = pm.from_x_coefficients(cx)
        if signs == {-1}:
            gm = pm.evaluate(th, 1)[1][m - 1]
            if gm >= 0:
                notes.append(f"degree {m}: the optimum stays on the face $c_{m} = 0$ (KKT: "
                             rf"$\partial J/\partial c_{m} = {mp.nstr(gm, 6)} \ge 0$, only $c_{m} < 0$ is feasible)")
                continue
            th[m - 1] = -min(abs(gm), mp.mpf(1)) * mp.mpf("1e-3")
            while not pm.feasible(th):  # pragma: no cover - defensive
                th[m - 1] /= 2
        start_x = pm.x_coefficients(th)
        run, prob = _solve(gen, P, Q, m, x0, w, params=params,
                           start=lambda p, cx=start_x: p.from_x_coefficients([mp.mpf(c) for c in cx]))
        if run.infinite:
            return run, prob, notes, m
        best, bprob, bdeg = run, prob, m
    return best, bprob, notes, bdeg


def _line_search(problem, theta, d, J, slope):
    t = mp.mpf(1)
    for _ in range(80):
        cand = [a + t * d[i] for i, a in enumerate(theta)]
        Jc = problem.value(cand)
        if mp.isfinite(Jc) and Jc >= J + mp.mpf("1e-4") * t * slope - mp.mpf(10) ** (-mp.mp.dps + 5) * (1 + abs(J)):
            return cand
        t /= 2
    return None


def bfgs_max(problem, theta0, tol_digits, Hinv=None, max_iter=200):
    """Second method: BFGS with gradients only (no quadrature Hessian), backtracking on ``J``."""
    tol = mp.mpf(10) ** (-tol_digits)
    n = problem.n
    theta = [to_mpf(t) for t in theta0]
    J, g, _ = problem.evaluate(theta, 1)
    B = Hinv if Hinv is not None else mp.eye(n)
    for _ in range(max_iter):
        if mp.norm(mp.matrix(g)) <= tol * (1 + abs(J)):
            break
        d = B * mp.matrix(g)
        slope = mp.fdot(list(d), g)
        if not slope > 0:
            B = mp.eye(n)
            d, slope = mp.matrix(g), mp.fdot(g, g)
        cand = _line_search(problem, theta, d, J, slope)
        if cand is None and n > 2:
            # blocked by the boundary of the feasible set (KL: the top coefficient at 0):
            # a projected gradient step that keeps the top coefficient where it is
            d = mp.matrix(list(g[:n - 2]) + [0, g[n - 1]])
            B = mp.eye(n)
            cand = _line_search(problem, theta, d, J, mp.fdot(list(d), g))
        if cand is None:
            break
        Jn, gn, _ = problem.evaluate(cand, 1)
        sv = mp.matrix([c - a for c, a in zip(cand, theta)])
        yv = mp.matrix([-(b - a) for b, a in zip(gn, g)])  # minimising -J
        sy = (sv.T * yv)[0]
        if sy > 0:
            rho = 1 / sy
            I = mp.eye(n)
            B = (I - rho * sv * yv.T) * B * (I - rho * yv * sv.T) + rho * sv * sv.T
        theta, J, g = cand, Jn, gn
    return theta, J, B


def _second_method(gen, P, Q, degree, params):
    """Another parametrisation (monomials centred at P's location, unit width), another optimiser
    (BFGS with gradients only, from another start) and another quadrature for the value (mpmath's
    scalar ``quad`` on Q's own breakpoints and the zeros of ``h``).  Returns the value.
    """
    x0 = P.mp_loc()
    with mp.workdps(17):
        prob = PolyProblem(gen, P, Q, degree, x0, 1, params)
        obj = _FastAdapter(prob) if _fast_ok(prob) else prob
        th0 = [mp.mpf(0)] * degree + [prob.best_constant() / 2]
        if prob.growth == "exp" and degree >= 2 and degree % 2 == 0:
            th0[degree - 1] = mp.mpf("-1e-2")  # inside the feasible set (E_Q[e^h] finite)
        th, _, B = bfgs_max(obj, th0, 12)
        cx = prob.x_coefficients(th)
        Bl = [[B[i, j] for j in range(prob.n)] for i in range(prob.n)]
    prob = PolyProblem(gen, P, Q, degree, x0, 1, params)
    th = prob.from_x_coefficients([mp.mpf(c) for c in cx])
    # BFGS continued at the working precision (gradients only), to a gradient of 10^-(dps/2)
    th, _, _ = bfgs_max(prob, th, mp.mp.dps // 2 + 2, Hinv=mp.matrix(Bl), max_iter=25)
    from .numeric import quad_split

    ks = list(Q.mp_breaks())
    for sk in prob.conj_kinks:
        ks += prob._real_roots(th, sk)
    EQ = quad_split(lambda x: prob.c[0](prob.h(th, x)) * Q.mp_pdf(x), ks)
    return mp.fdot(th, prob.mean_p) - EQ


def restricted(divergence, cls, P: Distribution, Q: Distribution, alpha=None, second: bool = True) -> RestrictedResult:
    """The restricted divergence ``D^H(P, Q)`` over ``cls`` (``lin`` or ``polyK``), at the working precision.

    ``divergence`` is ``kl``, ``tv``, ``alpha`` (CBDP's α-divergence) or ``renyi`` (Eq. (3)).
    ``second`` runs the second, independent method (BFGS in another parametrisation, values by
    scalar quadrature) and reports the digits on which the two agree.
    """
    gen, params, renyi = generator_for(divergence, alpha)
    degree = parse_class(cls)
    if P.dim != Q.dim:
        raise ParameterError(f"P has dimension {P.dim} and Q has dimension {Q.dim}")
    if P.dim > 1:
        from .restricted_dd import restricted_lin_product

        return restricted_lin_product(divergence, cls, gen, renyi, P, Q, alpha, second)
    a = to_mpf(params["alpha"]) if renyi else None
    notes = []
    growth = _growth(gen)
    if growth == "bounded" and not Q.atomic:
        # only constants are feasible: J(b) = b - f^*(b), maximal at b = f'(1)
        prob = PolyProblem(gen, P, Q, degree, params=params)
        b = prob.best_constant()
        th = [mp.mpf(0)] * degree + [b]
        notes.append("the conjugate has a bounded domain: on a full-support Q only constant h are feasible, "
                     "and the best constant gives f(1) = 0")
        J = prob.value(th)
        value = _renyi(a, J) if renyi else J
        return RestrictedResult(str(divergence), str(cls), value, J, prob.x_coefficients(th), mp.mpf(0), [[mp.mpf(0)]],
                                False, False, None, None, 0, None, notes)
    bdeg = degree
    if growth == "exp" and not Q.atomic and degree > 1:
        run, prob, face_notes, bdeg = _solve_faces(gen, P, Q, degree, params)
        notes += face_notes
    else:
        run, prob = _solve(gen, P, Q, degree, params=params)
    cx = prob.x_coefficients(run.theta) + [mp.mpf(0)] * (degree - bdeg)
    if run.infinite:
        notes.append("the objective grows linearly along a ray: the supremum is infinite")
        return RestrictedResult(str(divergence), str(cls), mp.inf, mp.inf, cx,
                                mp.nan, [], False, True, None, None, run.iterations, run.ray, notes)
    fval = run.value
    H = run.hessian
    if not run.converged:
        notes.append("NOT CONVERGED: the gradient at the last iterate is not small; the value is a lower bound only")
    nd = _negative_definite(H)
    if not nd:
        notes.append("the Hessian is singular at the optimum: the maximiser is not unique (a flat direction)")
    sm_digits = sm_val = None
    if second and not Q.atomic and not P.atomic:
        sm_val = _second_method(gen, P, Q, bdeg, params)
        sm_digits = min(digits(fval, sm_val), mp.mpf(mp.mp.dps)) if mp.isfinite(sm_val) else mp.mpf(0)
    value = _renyi(a, fval) if renyi else fval
    if renyi and sm_val is not None:
        sm_val = _renyi(a, sm_val)
    gnorm = mp.norm(mp.matrix(run.gradient))
    return RestrictedResult(str(divergence), str(cls), value, fval, cx, gnorm, H, nd,
                            False, sm_digits, sm_val, run.iterations, None, notes, run.converged)


def restricted_record(divergence, cls, P: Distribution, Q: Distribution, alpha=None, second: bool = True) -> dict:
    """:func:`restricted` as a plain dict of mpf / lists / flags, cached on disk (see :mod:`cbdp_sym.cache`).

    The key holds the divergence, class, both laws (their repr), alpha, ``second``, the working
    precision and the code version.
    """
    return _record(str(divergence), str(cls), P, Q, None if alpha is None else str(alpha), bool(second))


@cached_numeric
def _record(divergence, cls, P, Q, alpha, second):
    r = restricted(divergence, cls, P, Q, alpha=alpha, second=second)
    return {"value": r.value, "f_value": r.f_value, "optimum": list(r.optimum),
            "gradient_norm": r.gradient_norm if mp.isfinite(r.gradient_norm) else None,
            "hessian": [list(row) for row in r.hessian], "negative_definite": bool(r.negative_definite),
            "infinite": bool(r.infinite), "second_method_digits": r.second_method_digits,
            "second_value": r.second_value, "iterations": int(r.iterations), "notes": list(r.notes),
            "converged": bool(r.converged),
            "ray": None if r.ray is None else {"direction": list(r.ray[0]), "points": [[t, v] for t, v in r.ray[1]]}}


def sup_over_intercept(divergence, P: Distribution, Q: Distribution, slope, alpha=None):
    """``sup_b E_P[a x + b] - E_Q[f^*(a x + b)]`` at a fixed slope ``a`` (Lemma 1's inner problem).

    Newton's method on ``log E_Q[f^*'(a x + b)] = 0`` in ``b`` (exact in one step for KL, robust when
    ``E_Q[f^*(a x + b)]`` is exponentially small or large), from the best constant.
    """
    gen, params, _ = generator_for(divergence, alpha)
    prob = PolyProblem(gen, P, Q, 1, x0=0, w=1, params=params)
    th = [to_mpf(slope), prob.best_constant()]
    if not prob.feasible(th):
        raise ParameterError(f"E_Q[f*(a x + b)] is infinite at slope a = {slope}")
    J = None
    for _ in range(200):
        J, g, H = prob.evaluate(th, 2)
        e1, e2 = 1 - g[1], -H[1][1]
        step = -mp.log(e1) * e1 / e2 if e1 > 0 else g[1] / e2
        th[1] += step
        if abs(step) <= mp.mpf(10) ** (-mp.mp.dps + 3) * (1 + abs(th[1])):
            break
    return prob.value(th)


def restricted_mp(divergence, cls, P: Distribution, Q: Distribution, alpha=None):
    """The restricted value alone (no second method), at the working precision."""
    return restricted(divergence, cls, P, Q, alpha=alpha, second=False).value
