"""One optimisation module: Newton, BFGS, golden section, bisection, the line search and the precision ramp.

The optimisers of the engine live here (used by the restricted solvers :mod:`cbdp_sym.restricted.solver`,
:mod:`cbdp_sym.restricted.products` and :mod:`cbdp_sym.restricted.finite`, by :mod:`cbdp_sym.divergences.numeric`,
:mod:`cbdp_sym.divergences.conversions`, :mod:`cbdp_sym.divergences.generators` and :mod:`cbdp_sym.restricted.linpower`,
and by paper modules as ``from cbdp_sym import optimize``, which never carry a search of their own); a caller
picks a method by name, as mpmath's ``findroot(solver=...)`` does.  One exception: the primal active-set Newton
method for concave maximisation over a polytope stays in :mod:`cbdp_sym.restricted.finite` (constrained, with
its own exact-line-search step; no other caller).

* :func:`minimize` / :func:`maximize` -- ``method="newton"`` (value, gradient and Hessian),
  ``"bfgs"`` (value and gradient, or forward differences) or ``"golden"`` (one variable on a bracket);
* :func:`newton` -- damped Newton with Armijo backtracking; the step solve (``"lu"`` on the negated Hessian, or
  ``"pinv"``, the eigen-decomposition's pseudo-inverse) and the stopping rule (``"decrement"``: the Newton
  decrement is negligible; ``"step"``: a full step is below the tolerance) chosen by name; ``B0`` turns the
  Hessian into a BFGS-updated approximation started at ``B0``;
* :func:`bfgs` -- BFGS on the inverse Hessian (analytic or forward-difference gradients);
* :func:`line_search` -- the Armijo backtracking every method shares;
* :func:`golden_section`, :func:`golden_max`, :func:`bracket_max`, :func:`sup_positive` -- one-variable searches
  (golden section in mpmath or in binary64, :data:`ARITHMETIC`); :func:`bisection` -- the boundary of a
  monotone predicate (a root of a monotone function); :func:`expand_until` -- grow a bracket's end;
* :func:`precision_ramp`, :func:`ramp_stages` -- run a method at a low precision, then continue at higher ones;
* :func:`definite`, :func:`norm`, :func:`fd_gradient`, :func:`pinv_step` -- the small pieces.

All work in mpmath at the working precision (``mp.mp.dps`` on entry: the precision the arithmetic runs at;
a ramp's *target* is an explicit argument).  Values, gradients and Hessians are plain lists of mpf.

Definiteness of the empty (0 x 0) matrix: :func:`definite` returns ``True``.  The quadratic form on
``R^0`` has no non-zero argument, so "``x^T H x < 0`` for every ``x != 0``" holds vacuously, as do the
eigenvalue test (every eigenvalue of an empty spectrum is negative) and Sylvester's criterion (no leading
minors); the certificate it backs -- the optimiser is unique -- is true of a zero-dimensional problem,
whose only point is the optimum.  A Hessian that was never computed (``None``) is not certified:
callers test for ``None`` themselves.
"""
from __future__ import annotations

from dataclasses import dataclass

import mpmath as mp

from cbdp_sym.core.errors import ParameterError

__all__ = ["Run", "METHODS", "ARITHMETIC", "minimize", "maximize", "newton", "bfgs", "line_search", "golden_section", "ranked",
           "golden_max", "bisection", "expand_until", "bracket_max", "sup_positive", "precision_ramp", "ramp_stages", "definite", "norm",
           "fd_gradient", "pinv_step"]

METHODS = ("newton", "bfgs", "golden")


@dataclass
class Run:
    """The result of a run: the last iterate ``theta``, its ``value``, ``gradient`` and ``hessian`` (``None``
    where not computed), the number of ``iterations``, whether the stopping test was met (``converged``), and
    for a run that left every bounded region, ``ray = (direction, points)``."""

    theta: list
    value: mp.mpf
    gradient: list
    hessian: list | None
    iterations: int
    converged: bool = True
    infinite: bool = False
    ray: tuple | None = None


# -- small pieces ----------------------------------------------------------------------------------------
def norm(v):
    """Euclidean norm of a list (``0`` for the empty list)."""
    return mp.sqrt(mp.fsum(t * t for t in v)) if v else mp.mpf(0)


def definite(H, sign=-1, rtol=None) -> bool:
    """Whether the symmetric matrix ``H`` (list of rows) is negative (``sign = -1``) or positive (``+1``) definite.

    Every eigenvalue must satisfy ``sign * lambda > tol``: ``tol = 0`` (``rtol=None``, the exact test) or
    ``tol = rtol * max |lambda|`` with ``max |lambda| > 0`` (beyond rounding).  The empty matrix is definite
    (see the module docstring).
    """
    if sign not in (-1, 1):
        raise ParameterError(f"definite: sign must be -1 or +1, got {sign!r}")
    n = len(H)
    if n == 0:
        return True
    if any(len(row) != n for row in H):
        raise ParameterError(f"definite: H must be a square matrix, got {n} rows of lengths {[len(r) for r in H]}")
    if rtol is None:
        # the symmetric part, negated for the negative test (one eigen-decomposition, exact test on its signs)
        E = mp.eigsy(mp.matrix([[sign * (H[i][j] + H[j][i]) / 2 for j in range(n)] for i in range(n)]),
                     eigvals_only=True)
        return all(E[i] > 0 for i in range(n))
    E = mp.eigsy(mp.matrix(H), eigvals_only=True)
    top = max(abs(E[i]) for i in range(n))
    tol = top * rtol
    return top > 0 and all(sign * E[i] > tol for i in range(n))


def _solve_lu(B, g, sense=1):
    """``B^{-1} g`` for a positive-definite ``B`` (``-sense`` times the Hessian), or ``None`` (singular, or not
    an improving direction)."""
    n = len(g)
    try:
        d = mp.lu_solve(mp.matrix(B), mp.matrix(g))
    except ZeroDivisionError:
        return None
    d = [d[i] for i in range(n)]
    return d if sense * mp.fdot(d, g) > 0 else None


def pinv_step(H, g):
    """``-H^+ g`` through the eigen-decomposition (tiny eigenvalues dropped: flat directions do not move)."""
    n = len(g)
    if n == 0:
        return []
    E, Qm = mp.eigsy(mp.matrix(H))
    top = max(abs(E[i]) for i in range(n))
    tol = top * mp.mpf(10) ** (-mp.mp.dps + 8) if top > 0 else mp.mpf(0)
    step = [mp.mpf(0)] * n
    for i in range(n):
        lam = E[i]
        if abs(lam) <= tol or lam == 0:
            continue
        proj = mp.fsum(Qm[r, i] * g[r] for r in range(n))
        for r in range(n):
            step[r] -= Qm[r, i] * proj / lam
    return step


def fd_gradient(f, x, fx, h):
    """Forward-difference gradient of ``f`` at ``x`` (``fx = f(x)``), step ``h (1 + |x_i|)``; where the forward
    point is outside the domain (``f`` not finite) the backward difference."""
    out = []
    for i in range(len(x)):
        xp = list(x)
        step = h * (1 + abs(x[i]))
        xp[i] += step
        fp = f(xp)
        if not mp.isfinite(fp):  # at the edge of the domain: the other side
            xp[i] -= 2 * step
            out.append((fx - f(xp)) / step)
        else:
            out.append((fp - fx) / step)
    return out


def line_search(evaluate, x, d, fx, slope, *, sense=1, c1="1e-4", noise=0, feasible=None, halvings=60):
    """Armijo backtracking along ``d`` from ``x``: the first ``t = 1, 1/2, 1/4, ...`` (at most ``halvings``
    tries) with ``x + t d`` feasible, a finite value and
    ``sense * F(x + t d) >= sense * fx + c1 t sense slope - noise`` (``slope = g . d``; ``sense = +1``
    maximises, ``-1`` minimises; ``noise`` is the rounding allowance of the value).

    ``evaluate(cand, t)`` returns a tuple whose first entry is the value (a caller may return more: gradient,
    Hessian).  Returns ``(t, cand, out)``, or ``None`` when no step is accepted.
    """
    t = mp.mpf(1)
    c1 = mp.mpf(c1)
    for _ in range(halvings):
        cand = [a + t * s for a, s in zip(x, d)]
        if feasible is None or feasible(cand):
            out = evaluate(cand, t)
            Fc = out[0]
            if mp.isfinite(Fc) and sense * Fc >= sense * fx + c1 * t * sense * slope - noise:
                return t, cand, out
        t /= 2
    return None


# -- Newton --------------------------------------------------------------------------------------------
def newton(evaluate, theta, tol, *, sense=1, max_iter=60, feasible=None, solve="pinv", stop="step", B0=None,
           noise_digits=4, halvings=60, lazy=False, escape=None, start_error=None) -> Run:
    """Damped Newton's method on ``F`` (``sense = +1`` maximises, ``-1`` minimises) with :func:`line_search`.

    ``evaluate(theta, order) -> (F, g, H)`` (order 0: the value alone is needed; 1: and the gradient; 2: and
    the Hessian).  ``solve``: ``"pinv"`` (``-H^+ g``, flat directions do not move) or ``"lu"`` (an LU solve
    with ``-sense H``, which must give an improving direction); where the step does not improve, the
    gradient direction.  ``B0``: quasi-Newton -- ``-sense H`` replaced by a BFGS-updated matrix started at
    ``B0`` (gradients only; ``solve="lu"``).  ``stop``: ``"step"`` -- converged when a step of relative size
    below ``tol`` was taken, or a full step with ``10 size^2 <= tol`` (quadratic convergence); ``"decrement"``
    -- converged when ``|g| <= tol (1 + |F|)`` and the Newton decrement ``g . step`` is negligible (along a
    ray where ``F`` grows like a logarithm the gradient tends to 0 while the decrement does not).
    ``noise_digits``: the line search allows ``10^(noise_digits - dps) (1 + |F|)`` of rounding in the value.
    ``lazy``: trial points other than the full step are evaluated at order 0 and re-evaluated once accepted.
    ``escape``: stop (not converged, ``ray`` set) when an iterate's largest coordinate exceeds it.
    ``start_error``: the message of the :class:`ParameterError` raised when ``F`` is not finite at the start
    (``None``: no test).
    """
    if solve not in ("pinv", "lu"):
        raise ParameterError(f"newton: solve must be 'pinv' or 'lu', got {solve!r}")
    if stop not in ("step", "decrement"):
        raise ParameterError(f"newton: stop must be 'step' or 'decrement', got {stop!r}")
    theta = [mp.mpf(t) for t in theta]
    quasi = B0 is not None
    order = 1 if quasi else 2
    F, g, H = evaluate(theta, order)
    if start_error is not None and not mp.isfinite(F):
        raise ParameterError(start_error)
    n = len(theta)
    B = mp.matrix(B0) if quasi else None
    noise = mp.mpf(10) ** (-mp.mp.dps + noise_digits)
    it = 0
    for it in range(1, max_iter + 1):
        if stop == "step" and (not theta or norm(g) == 0):
            return Run(theta, F, g, H, it - 1, True)
        if solve == "lu":
            if not quasi:
                B = [[-sense * H[i][j] for j in range(n)] for i in range(n)]
            step = _solve_lu(B, g, sense)
            d = step or [sense * v for v in g]
        else:
            d = pinv_step(H, g)
            step = d if sense * mp.fdot(g, d) > 0 else None
            if step is None:  # not an improving direction (rounding): the gradient
                d = [sense * v for v in g]
        slope = mp.fdot(d, g)
        if stop == "decrement":
            scale = tol * (1 + abs(F))
            if norm(g) <= scale and (step is None or sense * slope <= scale**2 * 100
                                     or sense * slope <= mp.mpf(10) ** (-mp.mp.dps + 8) * (1 + abs(F))):
                return Run(theta, F, g, H, it - 1, True)

        def trial(cand, t):
            return evaluate(cand, 0 if lazy and t != 1 else order)

        found = line_search(trial, theta, d, F, slope, sense=sense, noise=noise * (1 + abs(F)),
                            feasible=feasible, halvings=halvings)
        if found is None:
            if stop == "step":
                return Run(theta, F, g, H, it, bool(norm(g) <= mp.mpf(10) ** (-mp.mp.dps // 2)))
            break
        t, cand, (Fc, gc, Hc) = found
        if lazy and t != 1:
            Fc, gc, Hc = evaluate(cand, order)
        if quasi:
            s = mp.matrix([c - a for c, a in zip(cand, theta)])
            y = mp.matrix([-sense * (b - a) for b, a in zip(gc, g)])
            sy = (s.T * y)[0]
            Bs = B * s
            sBs = (s.T * Bs)[0]
            if sy > 0 and sBs > 0:
                B = B + (y * y.T) / sy - (Bs * Bs.T) / sBs
        size = norm([t * b for b in d]) / (1 + norm(cand))
        theta, F, g, H = cand, Fc, gc, Hc
        if escape is not None and max(abs(t_) for t_ in theta) > escape:
            return Run(theta, F, g, H, it, False, ray=(list(d), None))
        # a full Newton step of size s leaves an error of order s^2 (quadratic convergence)
        if stop == "step" and (size <= tol or (t == 1 and 10 * size * size <= tol)):
            return Run(theta, F, g, H, it, True)
    if stop == "step":
        return Run(theta, F, g, H, it, False)
    return Run(theta, F, g, H, it, bool(norm(g) <= tol * (1 + abs(F)) * 100))


# -- BFGS ----------------------------------------------------------------------------------------------
def bfgs(f, x, *, grad=None, sense=1, hinv0=None, scale_first=True, gtol=None, xtol=None, fd_step=None,
         feasible=None, noise_digits=None, max_iter=100, halvings=60) -> Run:
    """BFGS on the inverse Hessian of ``-sense F`` with :func:`line_search`.

    ``f(x) -> F`` (``-inf`` outside the domain when maximising); ``grad``: ``None`` for forward differences of
    step ``fd_step`` (:func:`fd_gradient`, computed once a step is accepted), or ``True`` when ``f`` returns
    ``(F, gradient)``.  ``hinv0``: the starting inverse matrix (of ``-sense`` times the Hessian; a non-finite
    one is ignored); without it the identity, scaled at the first update by ``s.y / y.y`` when
    ``scale_first``.  Stops when ``|g| <= gtol (1 + |F|)`` (before a step) or when a step has
    ``|s| <= xtol (1 + |x|)`` (after it), or after ``max_iter`` steps or a failed line search; a direction
    that does not improve resets the matrix to the (unscaled) identity.  ``noise_digits``: as in
    :func:`newton`.  Returns a :class:`Run` whose ``hessian`` is the final inverse matrix.
    """
    n = len(x)
    x = [mp.mpf(t) for t in x]
    if grad is None and fd_step is None:
        raise ParameterError("bfgs: forward-difference gradients need fd_step")
    if grad is None:
        F = f(x)
        g = fd_gradient(f, x, F, fd_step)
    else:
        F, g = f(x)
    eye = [[mp.mpf(1) if i == j else mp.mpf(0) for j in range(n)] for i in range(n)]
    if hinv0 is not None and not all(mp.isfinite(v) for row in hinv0 for v in row):
        hinv0 = None
    fresh = hinv0 is None and scale_first
    Hinv = [[mp.mpf(v) for v in row] for row in (hinv0 or eye)]
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        if gtol is not None and norm(g) <= gtol * (1 + abs(F)):
            converged, it = True, it - 1
            break
        p = [sense * mp.fsum(Hinv[i][j] * g[j] for j in range(n)) for i in range(n)]  # improving direction
        slope = mp.fdot(g, p)
        if not sense * slope > 0:
            Hinv, fresh = [list(r) for r in eye], scale_first
            p = [sense * v for v in g]
            slope = mp.fdot(g, p)
        noise = mp.mpf(10) ** (-mp.mp.dps + noise_digits) * (1 + abs(F)) if noise_digits is not None else 0
        found = line_search((lambda cand, t: (f(cand),)) if grad is None else (lambda cand, t: f(cand)),
                            x, p, F, slope, sense=sense, noise=noise, feasible=feasible, halvings=halvings)
        if found is None:
            break
        _t, xn, out = found
        Fn = out[0]
        gn = fd_gradient(f, xn, Fn, fd_step) if grad is None else out[1]
        sv = [a - b for a, b in zip(xn, x)]
        yv = [-sense * (a - b) for a, b in zip(gn, g)]  # gradient difference of -sense F
        sy = mp.fdot(sv, yv)
        x, F, g = xn, Fn, gn
        if xtol is not None and norm(sv) <= xtol * (1 + norm(x)):
            converged = True
            break
        if sy > 0:
            if fresh:
                sc = sy / mp.fdot(yv, yv)
                Hinv = [[sc if i == j else mp.mpf(0) for j in range(n)] for i in range(n)]
                fresh = False
            rho = 1 / sy
            Hy = [mp.fsum(Hinv[i][j] * yv[j] for j in range(n)) for i in range(n)]
            yHy = mp.fdot(yv, Hy)
            Hinv = [[Hinv[i][j] - rho * (Hy[i] * sv[j] + sv[i] * Hy[j]) + (rho * rho * yHy + rho) * sv[i] * sv[j]
                     for j in range(n)] for i in range(n)]
    return Run(x, F, g, Hinv, it, converged)


# -- one variable --------------------------------------------------------------------------------------
ARITHMETIC = ("mp", "binary64")


def _context(arithmetic):
    """The mpmath context of an arithmetic named in :data:`ARITHMETIC`: ``"mp"`` (mpmath at the working
    precision) or ``"binary64"`` (Python floats, mpmath's ``fp`` context)."""
    if arithmetic == "mp":
        return mp.mp
    if arithmetic == "binary64":
        return mp.fp
    raise ParameterError(f"unknown arithmetic {arithmetic!r}: use one of {', '.join(ARITHMETIC)}")


def _section_ratio(ctx, ratio, reuse):
    if ratio is None:
        return (ctx.sqrt(5) - 1) / 2
    if reuse:
        raise ParameterError("golden_section: a ratio other than the golden one needs reuse=False (the carried-over "
                             "interior point is a golden point only for the golden ratio)")
    r = ctx.mpf(ratio)
    if not (r > ctx.mpf(1) / 2 and r < 1):
        raise ParameterError(f"golden_section: the ratio must lie in (1/2, 1), got {ratio!r}")
    return r


def golden_section(f, lo, hi, tol=None, iters=None, reuse=True, atol=None, ratio=None, arithmetic="mp", enclose=None):
    """Golden-section steps towards a maximum of a unimodal ``f`` on ``[lo, hi]``.

    Stops when ``b - a <= tol * (1 + |a| + |b|)``, when ``b - a < atol``, or after ``iters`` steps (one of
    ``tol`` and ``iters`` must be given).
    ``reuse``: one new evaluation a step, the other interior point carried over (the classical method);
    ``reuse=False`` recomputes both interior points from the bracket every step (twice the evaluations; the
    points never drift from the bracket's golden points by accumulated rounding).
    ``ratio``: where the interior points sit, ``c = b - ratio (b - a)`` and ``d = a + ratio (b - a)``
    (default the golden ``(sqrt 5 - 1)/2``; another ratio in ``(1/2, 1)`` shrinks the bracket by that factor a
    step and needs ``reuse=False``).  A tie ``f(c) = f(d)`` keeps ``[a, d]``.
    ``arithmetic``: ``"mp"`` (mpmath at the working precision) or ``"binary64"`` (Python floats throughout:
    the bracket, the ratio and the interior points; ``f`` then takes and returns floats).
    ``enclose`` (optional, with ``reuse``): ``x -> `` a python-flint ``arb`` ball holding the value ``f(x)``
    returns (its rounding included, not only the exact value), or ``None``; cheap.  A step whose two balls are
    apart (:func:`ranked`) is decided by them, without ``f``; from the first step they do not decide, ``f`` decides
    every step.  The points, the steps, the bracket and the value returned are then those without it: ``f`` is
    only not computed where its values could not change a decision (nor can it raise there).
    Returns ``(a, b, best)``: the final bracket and the larger of the two (last) interior values.

    >>> a, b, best = golden_section(lambda x: -(x - 1) ** 2, 0, 3, tol=mp.mpf(10) ** -10)
    >>> abs((a + b) / 2 - 1) < 1e-9
    True
    """
    if tol is None and iters is None:
        raise ValueError("golden_section needs tol or iters")
    ctx = _context(arithmetic)
    a, b = ctx.mpf(lo), ctx.mpf(hi)
    invphi = _section_ratio(ctx, ratio, reuse)

    def going(a, b, k):
        return ((iters is None or k < iters) and (tol is None or b - a > tol * (1 + abs(a) + abs(b)))
                and (atol is None or not b - a < atol))

    if enclose is not None:
        if not reuse or arithmetic != "mp":
            raise ParameterError("golden_section: enclose needs reuse=True and mpmath arithmetic")
        return _golden_ranked(f, enclose, a, b, invphi, going)

    if not reuse:
        fc = fd = ctx.ninf
        k = 0
        while going(a, b, k):
            c, d = b - invphi * (b - a), a + invphi * (b - a)
            fc, fd = f(c), f(d)
            if fc >= fd:
                b = d
            else:
                a = c
            k += 1
        return a, b, max(fc, fd)
    c, d = b - invphi * (b - a), a + invphi * (b - a)
    fc, fd = f(c), f(d)
    k = 0
    while going(a, b, k):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = f(d)
        k += 1
    return a, b, max(fc, fd)


def ranked(x, y):
    """The order of two ``arb`` balls when it is certain with room to spare: ``True`` when every point of ``x`` is
    above every point of ``y`` by more than ``2^(-prec/2) (1 + |x| + |y|)`` at the working precision ``prec``,
    ``False`` for the reverse, ``None`` otherwise (a ball missing, not finite, or the balls too close).  For the
    order of two computed values, the balls must hold those values, their rounding included (the room is a
    further margin, not a bound on that rounding: a difference of large terms can round by far more)."""
    if x is None or y is None or not (x.is_finite() and y.is_finite()):
        return None
    room = type(x)(2) ** (-(mp.mp.prec // 2)) * (1 + abs(x.mid()) + abs(y.mid()))
    gap = x - y
    if gap > room:
        return True
    if gap < -room:
        return False
    return None


def _golden_ranked(f, enclose, a, b, invphi, going):
    """:func:`golden_section`'s steps (``reuse=True``), decided by ``enclose``'s balls while they are apart."""
    seen = {}

    def F(x):  # f once a point (the carried-over point is asked twice)
        k = x._mpf_
        if k not in seen:
            seen[k] = f(x)
        return seen[k]

    c, d = b - invphi * (b - a), a + invphi * (b - a)
    bc, bd = enclose(c), enclose(d)
    k = 0
    while going(a, b, k):
        up = ranked(bc, bd) if bc is not None else None  # True: f(c) > f(d) for certain
        if up is None:
            bc = bd = None  # from here on f decides
            up = F(c) >= F(d)
        if up:
            b, d, bd = d, c, bc
            c = b - invphi * (b - a)
            bc = enclose(c) if bd is not None else None
        else:
            a, c, bc = c, d, bd
            d = a + invphi * (b - a)
            bd = enclose(d) if bc is not None else None
        k += 1
    return a, b, max(F(c), F(d))


def golden_max(f, lo, hi, tol=None, iters=None, reuse=True, ratio=None, arithmetic="mp"):
    """``(argmax, max)`` of a unimodal ``f`` on ``[lo, hi]`` by golden section: to ``tol`` (default the working
    precision, ``10^(3 - dps)``, 15 digits in binary64) or for ``iters`` steps; the midpoint of the final
    bracket and ``f`` there.  ``reuse``, ``ratio``, ``arithmetic``: as in :func:`golden_section`."""
    ctx = _context(arithmetic)
    if tol is None and iters is None:
        tol = ctx.mpf(10) ** (-ctx.dps + 3)
    lo, hi, _ = golden_section(f, lo, hi, tol=tol, iters=iters, reuse=reuse, ratio=ratio, arithmetic=arithmetic)
    x = (lo + hi) / 2
    return x, f(x)


def bisection(holds, good, bad, iters=None, arithmetic="mp"):
    """The boundary of a monotone predicate on an interval, by bisection: ``holds`` is true on the side of
    ``good`` and false on the side of ``bad`` (either may be the larger end).  Each step tests the midpoint
    ``m = (good + bad) / 2`` and moves ``good`` to ``m`` where ``holds(m)``, else ``bad``; ``iters`` steps
    (default the working precision in bits plus 20, so the bracket ends at the rounding of its ends).
    ``arithmetic``: ``"mp"`` (the ends as mpf; an mpf end keeps its own precision) or ``"binary64"`` (floats).
    Returns ``(good, bad)``: the final bracket, ``good`` on the predicate's side.  The ends are not tested:
    a predicate true (false) at both ends closes the bracket on ``bad`` (``good``).

    >>> g, b = bisection(lambda x: x * x <= 2, 1, 2)
    >>> abs(g - mp.sqrt(2)) < mp.mpf(10) ** -(mp.mp.dps - 1)
    True
    """
    if not callable(holds):
        raise ParameterError(f"bisection: the predicate must be callable, got {holds!r}")
    ctx = _context(arithmetic)
    try:  # an mpf end is used as given (not rounded to the working precision first)
        g, b = ((t if isinstance(t, mp.mpf) else mp.mpf(t)) if ctx is mp.mp else float(t) for t in (good, bad))
    except (TypeError, ValueError):
        raise ParameterError(f"bisection: the ends must be numbers, got {good!r}, {bad!r}") from None
    if not (mp.isfinite(g) and mp.isfinite(b)):
        raise ParameterError(f"bisection: the ends must be finite, got {good!r}, {bad!r}")
    for _ in range(ctx.prec + 20 if iters is None else iters):
        m = (g + b) / 2
        if holds(m):
            g = m
        else:
            b = m
    return g, b


def expand_until(holds, x, factor=2, max_steps=2000):
    """The first of ``x, factor x, factor^2 x, ...`` at which ``holds`` is true: the far end of a bracket for
    :func:`bisection` or a root finder (``x`` is the start, for instance an upper end that may be too small).
    A ``ParameterError`` when ``max_steps`` multiplications do not reach it (``x = 0``, a predicate never true)."""
    if not callable(holds):
        raise ParameterError(f"expand_until: the predicate must be callable, got {holds!r}")
    for _ in range(max_steps):
        if holds(x):
            return x
        x = factor * x
    raise ParameterError(f"expand_until: the predicate is still false after {max_steps} steps of factor {factor} "
                         f"(at {mp.nstr(x, 8) if isinstance(x, mp.mpf) else x})")


def bracket_max(f, x0, step, probe, back=None, max_steps=400):
    """A bracket ``(lo, hi)`` around a maximum of a unimodal ``f`` near ``x0``: uphill is the side where
    ``f(x0 + probe) > f(x0)`` (else the other); steps of ``step``, doubling, go uphill while ``f`` increases
    (at most ``max_steps``); the bracket runs from the point before the last increase (at first ``x0`` minus
    ``back`` downhill, ``back`` defaulting to ``probe``) to the first point that did not increase."""
    direction = 1 if f(x0 + probe) > f(x0) else -1
    a, m = x0 - direction * (probe if back is None else back), x0
    for _ in range(max_steps):
        nxt = m + direction * step
        if f(nxt) <= f(m):
            break
        a, m = m, nxt
        step *= 2
    lo, hi = sorted([a, m + direction * step])
    return lo, hi


def sup_positive(f, x0=1):
    """``sup_{t > 0} f(t)`` for a concave ``f`` with an interior maximum: bracket on a log scale, then golden
    section in ``log t``.  Returns ``(argmax, max)``."""
    g = lambda u: f(mp.exp(u))  # noqa: E731
    lo, hi = bracket_max(g, mp.log(mp.mpf(x0)), mp.mpf(1), mp.mpf("1e-3"), back=mp.mpf(1))
    um, val = golden_max(g, lo, hi)
    return mp.exp(um), val


# -- precision ramp ------------------------------------------------------------------------------------
def ramp_stages(target: int, first: int = 15, middle: bool = True) -> list:
    """The digits of a precision ramp to ``target``: ``first`` (or the target if lower), then (``middle`` and a
    target above ``2 * first``) about half the target, then the target."""
    return ([min(first, target)] + ([target // 2 + 2] if middle and target > 2 * first else [])
            + ([target] if target > first else []))


def precision_ramp(stage, start, stages):
    """Run ``stage(x, digits, last) -> (x, result)`` at each precision of ``stages`` in turn (inside
    ``mp.workdps``), each from the previous stage's ``x`` (the first from ``start``); a stage that returns
    ``x = None`` ends the ramp early.  Returns the list of the stages' results (the last is the answer)."""
    if not stages:
        raise ParameterError("precision_ramp needs at least one stage")
    x, out = start, []
    for k, sd in enumerate(stages):
        with mp.workdps(sd):
            x, res = stage(x, sd, k == len(stages) - 1)
        out.append(res)
        if x is None:
            break
    return out


# -- by name -------------------------------------------------------------------------------------------
def _check_x0(x0, method):
    try:
        xs = [mp.mpf(t) for t in (x0 if isinstance(x0, (list, tuple)) else [x0])]
    except (TypeError, ValueError):
        raise ParameterError(f"{method}: the start must be numbers, got {x0!r}") from None
    if not all(mp.isfinite(t) for t in xs):
        raise ParameterError(f"{method}: the start must be finite, got {x0!r}")
    return xs


def _check_float(x, method):
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise ParameterError(f"{method}: the bracket must be numbers, got {x!r}") from None
    if not mp.isfinite(v):
        raise ParameterError(f"{method}: the bracket must be finite, got {x!r}")
    return v


def maximize(f, x0, method="bfgs", *, grad=None, hess=None, bracket=None, tol=None, max_iter=100, feasible=None,
             iters=None, reuse=True, ratio=None, arithmetic="mp"):
    """Maximise ``f`` by the method named (:data:`METHODS`), at the working precision; returns a :class:`Run`.

    ``"newton"``: ``grad(x)`` and ``hess(x)`` (lists) are required; ``"bfgs"``: ``grad`` optional (forward
    differences otherwise); ``"golden"``: one variable, ``bracket=(lo, hi)`` required, ``f`` takes a number,
    and the run's ``theta`` is ``[midpoint of the final bracket]``.  ``x0`` is a list (a number for one
    variable; ignored by ``"golden"``); ``tol`` defaults to about half the working digits (the value is then
    good to the working precision: its error is quadratic in the maximiser's).

    Golden section only (:func:`golden_max`): ``iters`` (a fixed number of steps instead of the default
    stopping rule, the bracket at ``10^(3 - dps)``), ``reuse``, ``ratio`` and ``arithmetic`` (``"mp"`` or
    ``"binary64"``, :data:`ARITHMETIC`).
    """
    if method not in METHODS:
        raise ParameterError(f"unknown optimisation method {method!r}: use one of {', '.join(METHODS)}")
    if not callable(f):
        raise ParameterError(f"{method}: the objective must be callable, got {f!r}")
    ctx = _context(arithmetic)
    if method != "golden" and (arithmetic != "mp" or ratio is not None or iters is not None or not reuse):
        raise ParameterError(f"{method}: iters, reuse, ratio and arithmetic are options of the golden section")
    tol = mp.mpf(tol) if tol is not None else mp.mpf(10) ** (-(mp.mp.dps // 2 + 2))
    if method == "golden":
        if bracket is None or len(bracket) != 2:
            raise ParameterError("golden: give bracket=(lo, hi)")
        lo, hi = (_check_x0(b, method)[0] if ctx is mp.mp else _check_float(b, method) for b in bracket)
        if not lo < hi:
            raise ParameterError(f"golden: the bracket must have lo < hi, got {bracket!r}")
        if iters is None:
            x, v = golden_max(f, lo, hi, tol=ctx.mpf(10) ** (-ctx.dps + 3), reuse=reuse, ratio=ratio,
                              arithmetic=arithmetic)
        else:
            x, v = golden_max(f, lo, hi, iters=iters, reuse=reuse, ratio=ratio, arithmetic=arithmetic)
        return Run([x], v, None, None, 0 if iters is None else iters, True)
    xs = _check_x0(x0, method)
    try:
        v0 = f(xs)
        ok = not isinstance(v0, mp.mpc) and mp.isfinite(v0)
    except (TypeError, ValueError, ZeroDivisionError):
        ok = False
    if not ok:
        raise ParameterError(f"{method}: the objective is not finite (or not real) at the start {x0!r}")
    if method == "newton":
        if grad is None or hess is None:
            raise ParameterError("newton: give grad and hess")

        def evaluate(x, order):
            return f(x), (grad(x) if order >= 1 else None), (hess(x) if order >= 2 else None)

        return newton(evaluate, xs, tol, sense=1, max_iter=max_iter, feasible=feasible, lazy=True,
                      start_error="newton: the objective is not finite at the start")
    if grad is None:
        return bfgs(f, xs, sense=1, fd_step=mp.mpf(10) ** (-(mp.mp.dps // 2)), xtol=tol * 10,
                    feasible=feasible, max_iter=max_iter)
    return bfgs(lambda x: (f(x), grad(x)), xs, grad=True, sense=1, gtol=tol, feasible=feasible,
                max_iter=max_iter, noise_digits=6)


def minimize(f, x0, method="bfgs", *, grad=None, hess=None, bracket=None, tol=None, max_iter=100, feasible=None,
             iters=None, reuse=True, ratio=None, arithmetic="mp"):
    """Minimise ``f``: :func:`maximize` of ``-f`` (the :class:`Run`'s value is ``f`` at the minimiser,
    its gradient and Hessian those of ``f``).  Negation is exact, so the golden section visits the same
    points as on ``-f`` (a tie ``f(c) = f(d)`` keeps ``[a, d]``)."""
    neg = (lambda x: -f(x)) if callable(f) else f
    ng = (lambda x: [-v for v in grad(x)]) if grad is not None else None
    nh = (lambda x: [[-v for v in row] for row in hess(x)]) if hess is not None else None
    run = maximize(neg, x0, method, grad=ng, hess=nh, bracket=bracket, tol=tol, max_iter=max_iter,
                   feasible=feasible, iters=iters, reuse=reuse, ratio=ratio, arithmetic=arithmetic)
    run.value = -run.value
    if run.gradient is not None:
        run.gradient = [-v for v in run.gradient]
    if run.hessian is not None and method == "newton":
        run.hessian = [[-v for v in row] for row in run.hessian]
    return run
