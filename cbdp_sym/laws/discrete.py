"""Laws on the integers: the discrete Gaussian, the discrete Laplace (two-sided geometric), the geometric, binomial
and Poisson laws, mixtures of them, and general lattice laws given by a density on Z.

Conventions (stated in every report that uses them):

* :class:`DiscreteGaussian` ``(loc, sigma)``: ``P(k) = exp(-(k - loc)^2 / (2 sigma^2)) / Z`` on ``k in Z``
  (Canonne, Kamath, Steinke 2020's ``N_Z(loc, sigma^2)``).  ``sigma`` is the scale parameter, **not** the
  standard deviation: the variance is strictly smaller than ``sigma^2``.
* :class:`DiscreteLaplace` ``(loc, t)``: ``P(k) proportional to exp(-|k - loc| / t)``, ``t`` the scale
  (``Lap_Z(t)``; the two-sided geometric law with ratio ``e^{-1/t}``).
* :class:`Geometric` ``(p)``: the number of failures before the first success, ``P(k) = p (1 - p)^k``, ``k >= 0``.
* :class:`Binomial` ``(n, p)``, :class:`Poisson` ``(lam)``: the usual laws on ``0..n`` and on ``k >= 0``.
* :class:`Lattice` ``(density, var, lo, hi)``: ``P(k) = density(k) / sum_j density(j)`` on the integers of
  ``[lo, hi]`` (``density`` a SymPy expression in ``var``).
* :class:`LatticeMixture` ``(weights, components)``: ``sum_i w_i P_i(k)`` (Poisson subsampling builds these).

Every law has a symbolic side (:meth:`LatticeLaw.pmf`, with its normalising constant as a SymPy sum that the engine
closes where it can: geometric series by SymPy, sums over all of Z by index shifts) and a numeric side at the working
precision (:meth:`LatticeLaw.mp_log_pmf`).  Sums over the integers are never cut at a fixed window: they are summed
outward from their peak until the rest, bounded analytically (:class:`TailForm`: the tail of ``exp(phi(x))`` with
``phi`` a quadratic plus logarithms and log-Gamma terms is at most ``exp(phi(X)) / (1 - exp(sup phi'))`` once
``phi`` decreases), is below ``10^-(dps + 10)`` of the sum (:func:`lattice_sum`).  :class:`LatticeSum` is a SymPy
``Sum`` whose ``evalf`` does exactly that, and :func:`arb_lattice_sum` gives an Arb ball (python-flint) holding the
sum, the tail included, for certificates.

>>> import sympy as sp, mpmath as mp
>>> s = sp.Symbol("sigma", positive=True)
>>> DiscreteGaussian(0, s).pmf()
exp(-k**2/(2*sigma**2))/Sum(exp(-j**2/(2*sigma**2)), (j, -oo, oo))
>>> with mp.workdps(30):
...     mp.nstr(DiscreteGaussian(0, 1).mp_mass(), 25)      # the pmf sums to 1 (tails bounded, not cut)
'1.0'
>>> DiscreteLaplace(0, -1)
Traceback (most recent call last):
...
cbdp_sym.core.errors.ParameterError: DiscreteLaplace: scale must be positive, got -1
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import mpmath as mp
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import Estimate, to_mpf
from cbdp_sym.core.printing import latex
from cbdp_sym.core.serial import register_function
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.laws.distributions import Distribution, _as_param, _check_positive, _check_real, _subs

try:
    import flint
except ImportError:  # pragma: no cover - python-flint is a declared dependency
    flint = None

__all__ = ["K", "J", "LatticeLaw", "DiscreteGaussian", "DiscreteLaplace", "Geometric", "Binomial", "Poisson",
           "Lattice", "LatticeMixture", "LatticeSum", "TailForm", "LatticeResult", "lattice_sum", "sum_to_precision",
           "arb_lattice_sum", "forms_of", "is_lattice", "tail_tolerance", "numeric_sum"]

K = sp.Symbol("k", integer=True)  # the lattice variable of a pmf
J = sp.Symbol("j", integer=True)  # the summation index of normalising constants

_MAX_TERMS = 5_000_000


def is_lattice(law) -> bool:
    """Whether ``law`` is one of the laws on the integers of this module."""
    return isinstance(law, LatticeLaw)


def tail_tolerance():
    """The relative size below which a tail may be dropped: ``10^-(dps + 10)`` at the working precision."""
    return mp.mpf(10) ** (-(mp.mp.dps + 10))


# -- analytic tail bounds ----------------------------------------------------------------------------------------
def _m(x):
    return x if isinstance(x, mp.mpf) else mp.mpf(x)


@dataclass(frozen=True)
class TailForm:
    """An upper envelope of ``log |t|`` in one tail of a lattice sum.

    For integers ``x >= x0`` (``x = k`` in the right tail, ``x = -k`` in the left one)::

        log |t| <= phi(x) = a2 x^2 + a1 x + a0 + sum_i c_i log(x - r_i) - sum_i b_i log Gamma(x + 1 + s_i)

    ``logs = ((c_i, r_i), ...)``, ``gammas = ((b_i, s_i), ...)``; ``x0`` exceeds every ``r_i`` and every
    ``-1 - s_i``.  :meth:`tail` bounds ``sum_{x >= X} exp(phi(x))``: with ``s = sup_{y >= X} phi'(y)`` (bounded
    analytically by :meth:`slope_sup`), ``phi(x + 1) - phi(x) <= s`` for every ``x >= X``, so the sum is at most
    ``exp(phi(X)) / (1 - e^s)`` when ``s < 0`` (a geometric series).  Forms add (:meth:`plus`) and scale
    (:meth:`times`): the envelope of a product of powers of pmfs is a form too.

    >>> f = TailForm(a2=mp.mpf(-1)/2)                 # exp(-x^2/2)
    >>> with mp.workdps(20):
    ...     bool(f.tail(10) >= mp.nsum(lambda x: mp.exp(-x**2/2), [10, mp.inf]))
    True
    """

    a2: object = 0
    a1: object = 0
    a0: object = 0
    logs: tuple = ()
    gammas: tuple = ()
    x0: int = 0

    def plus(self, other: "TailForm") -> "TailForm":
        logs, gammas = dict(), dict()
        for c, r in self.logs + other.logs:
            logs[r] = logs.get(r, 0) + c
        for b, s in self.gammas + other.gammas:
            gammas[s] = gammas.get(s, 0) + b
        return TailForm(_m(self.a2) + _m(other.a2), _m(self.a1) + _m(other.a1), _m(self.a0) + _m(other.a0),
                        tuple((c, r) for r, c in logs.items() if c != 0),
                        tuple((b, s) for s, b in gammas.items() if b != 0), max(self.x0, other.x0))

    def times(self, c) -> "TailForm":
        c = _m(c)
        return TailForm(c * _m(self.a2), c * _m(self.a1), c * _m(self.a0), tuple((c * _m(a), r) for a, r in self.logs),
                        tuple((c * _m(b), s) for b, s in self.gammas), self.x0)

    def add_const(self, c) -> "TailForm":
        return TailForm(self.a2, self.a1, _m(self.a0) + _m(c), self.logs, self.gammas, self.x0)

    def with_poly(self, degree, const=1) -> "TailForm":
        """The form of ``t(x) * g(x)`` where ``|g(x)| <= const * (1 + x)^degree``."""
        out = TailForm(logs=((mp.mpf(degree), mp.mpf(-1)),) if degree else (), a0=mp.log(_m(const)), x0=0)
        return self.plus(out)

    def at_least(self, x0: int) -> "TailForm":
        return TailForm(self.a2, self.a1, self.a0, self.logs, self.gammas, max(self.x0, int(x0)))

    def value(self, x):
        x = _m(x)
        v = _m(self.a2) * x * x + _m(self.a1) * x + _m(self.a0)
        for c, r in self.logs:
            v += _m(c) * mp.log(x - _m(r))
        for b, s in self.gammas:
            v -= _m(b) * mp.loggamma(x + 1 + _m(s))
        return v

    def net_gamma(self):
        return mp.fsum(_m(b) for b, _s in self.gammas)

    def diverges(self) -> bool:
        """Whether ``sum_x exp(phi(x))`` diverges (the growth of ``phi`` decides: ``x^2``, then ``x log x``, then
        ``x``, then ``log x``)."""
        a2, nb = _m(self.a2), self.net_gamma()
        if a2 != 0:
            return a2 > 0
        if nb != 0:
            return nb < 0
        a1 = _m(self.a1)
        if a1 != 0:
            return a1 > 0
        return mp.fsum(_m(c) for c, _r in self.logs) >= -1

    def slope_sup(self, X):
        """An upper bound of ``phi'(y)`` over ``y >= X`` (``+inf`` where none is proved at this ``X``)."""
        X = _m(X)
        a2 = _m(self.a2)
        if a2 > 0:
            return mp.inf
        s = _m(self.a1)
        for c, r in self.logs:  # c / (y - r): positive terms are largest at X, negative ones below 0
            c = _m(c)
            if c > 0:
                s += c / (X - _m(r))
        neg = [(_m(b), _m(t)) for b, t in self.gammas if _m(b) < 0]
        for b, t in self.gammas:  # -b psi(y + 1 + t): decreasing for b > 0
            b = _m(b)
            if b > 0:
                s -= b * mp.digamma(X + 1 + _m(t))
        if neg:
            # h(y) = 2 a2 y + sum |b| psi(y + 1 + t) is concave: its sup over y >= X is h(X) when h'(X) <= 0
            if a2 == 0:
                return mp.inf
            dh = 2 * a2 + mp.fsum(-b * mp.psi(1, X + 1 + t) for b, t in neg)
            if dh > 0:
                return mp.inf
            s += 2 * a2 * X + mp.fsum(-b * mp.digamma(X + 1 + t) for b, t in neg)
        else:
            s += 2 * a2 * X
        return s

    def tail(self, X):
        """An upper bound of ``sum_{x >= X, x integer} exp(phi(x))`` (``+inf`` where none is proved at ``X``)."""
        X = _m(int(X))
        if X < self.x0:
            return mp.inf
        s = self.slope_sup(X)
        if not s < 0:
            return mp.inf
        return mp.exp(self.value(X)) / -mp.expm1(s)


def _poly_envelope(form: TailForm):
    """``A`` with ``|phi(x)| <= A (1 + x)^2`` for ``x >= max(form.x0, 1)`` (a crude bound on the size of a log-pmf,
    for the tails of ``p log(p/q)``)."""
    A = abs(_m(form.a2)) + abs(_m(form.a1)) + abs(_m(form.a0))
    for c, r in form.logs:
        A += abs(_m(c)) * (1 + abs(_m(r)))
    for b, s in form.gammas:
        A += abs(_m(b)) * ((1 + abs(_m(s))) ** 2 + 1)
    return A + 1


# -- summation ---------------------------------------------------------------------------------------------------
@dataclass
class LatticeResult:
    """A lattice sum: ``value`` (``mp.fsum`` of the terms summed), ``tail`` (a bound of what was not summed),
    ``abs_sum`` (the sum of the absolute values of the terms: the cancellation is ``abs_sum / |value|``),
    ``terms`` (how many were summed)."""

    value: object
    tail: object
    abs_sum: object
    terms: int
    span: tuple = (0, -1)  # the first and last index summed

    def lost_digits(self) -> int:
        """Decimal digits lost to cancellation in the summed terms."""
        if self.abs_sum == 0:
            return 0
        if self.value == 0:
            return mp.mp.dps
        return max(0, int(mp.ceil(mp.log10(self.abs_sum / abs(self.value)))))


def lattice_sum(term, right=None, left=None, lo=None, hi=None, center=0, tol=None, max_terms=_MAX_TERMS,
                what="lattice sum", floor=None) -> LatticeResult:
    """``sum_{k = lo}^{hi} term(k)`` over the integers, summed outward from ``center`` until the remaining tail is
    below ``tol`` (default :func:`tail_tolerance`) of the sum.

    ``right`` / ``left``: lists of :class:`TailForm` whose exponentials add up to a bound of ``|term(k)|`` in the
    right tail (``x = k``) and the left tail (``x = -k``); a direction with a finite end (``hi`` / ``lo``) is summed
    to its end unless its tail is bounded sooner.  A direction with no end and no forms is refused.  ``floor``: an
    absolute size below which a tail is dropped even when the sum so far is 0 (default ``2^(-8 prec)``).

    >>> with mp.workdps(30):
    ...     r = lattice_sum(lambda k: mp.mpf(2) ** -abs(k), right=[TailForm(a1=-mp.log(2))], left=[TailForm(a1=-mp.log(2))])
    ...     mp.nstr(r.value, 20), bool(r.tail < mp.mpf(10) ** -39)
    ('3.0', True)
    """
    tol = tail_tolerance() if tol is None else tol
    center = int(center)
    if lo is not None:
        center = max(center, int(lo))
    if hi is not None:
        center = min(center, int(hi))
    if lo is not None and hi is not None and lo > hi:
        return LatticeResult(mp.mpf(0), mp.mpf(0), mp.mpf(0), 0, (0, -1))
    eps_prec = mp.mpf(2) ** (-mp.mp.prec)
    floor = mp.mpf(2) ** (-8 * mp.mp.prec) if floor is None else floor
    t0 = term(center)
    terms = [t0]
    run, run_abs = t0, abs(t0)
    tails = mp.mpf(0)
    span = [center, center]
    for direction in (1, -1):
        forms = right if direction > 0 else left
        end = hi if direction > 0 else lo
        if end is None and forms is None:
            raise ParameterError(f"{what}: no tail bound on the {'right' if direction > 0 else 'left'}")
        k = center + direction
        last = abs(t0)
        steps, next_check = 0, 0
        while True:
            if end is not None and (k - end) * direction > 0:
                break
            x = k * direction
            if forms is not None and steps >= next_check and last <= mp.sqrt(tol) * abs(run) + eps_prec * run_abs + floor:
                if all(x >= f.x0 for f in forms):
                    T = mp.fsum(f.tail(x) for f in forms) if forms else mp.mpf(0)
                    if T <= tol * max(abs(run), eps_prec * run_abs, floor):
                        tails += T
                        break
                    next_check = steps + max(1, steps // 16)  # (a failed check: the next one a little further out)
            t = term(k)
            terms.append(t)
            run += t
            run_abs += abs(t)
            last = abs(t)
            span[0 if direction < 0 else 1] = k
            k += direction
            steps += 1
            if len(terms) > max_terms:
                raise ParameterError(f"{what}: more than {max_terms} terms without a small enough tail bound "
                                     "(the sum converges too slowly at this precision)")
    return LatticeResult(mp.fsum(terms), tails, mp.fsum(abs(t) for t in terms), len(terms), tuple(span))


def sum_to_precision(compute, dps=None, max_dps=None):
    """``compute()`` (a :class:`LatticeResult` at the working precision) repeated with as many more digits as its
    cancellation lost, so that the value keeps ``dps`` significant digits; returns the value at the working
    precision (an ``Estimate`` of fewer digits if ``max_dps`` is reached first)."""
    dps = dps or mp.mp.dps
    max_dps = max_dps or 20 * dps + 1000
    r = compute()
    work = mp.mp.dps
    while r.lost_digits() + dps + 10 > work:
        if work >= max_dps:
            return Estimate(r.value, max(0, work - 10 - r.lost_digits()))
        work = min(max_dps, max(work + r.lost_digits() + 10, 2 * work))
        with mp.workdps(work):
            r = compute()
    return +r.value


def _peak(logf, start: int, lo=None, hi=None, max_steps=4000) -> int:
    """An integer near the maximum of ``logf`` (doubling steps, then halving; a unimodal search whose result only
    sets where a sum starts: the tail bounds make any start correct)."""
    def v(k):
        if (lo is not None and k < lo) or (hi is not None and k > hi):
            return -mp.inf
        try:
            return logf(k)
        except (ValueError, ZeroDivisionError, OverflowError):
            return -mp.inf

    with mp.workdps(20):
        k = int(start)
        if lo is not None:
            k = max(k, int(lo))
        if hi is not None:
            k = min(k, int(hi))
        best = v(k)
        for _ in range(max_steps):
            moved = False
            for direction in (1, -1):
                step = 1
                while step < 2**62:
                    cand = k + direction * step
                    val = v(cand)
                    if val > best:
                        k, best, moved = cand, val, True
                        step *= 2
                    else:
                        break
            if not moved:
                break
    return k


def _arb_of_mpf(x):
    sign, man, exp, _bc = x._mpf_
    return flint.arb(flint.fmpz(int(-man if sign else man)) * flint.arb(2) ** int(exp))


def _mpf_of_arb(b):
    man, exp = b.mid().man_exp()
    return mp.mpf(int(man)) * mp.mpf(2) ** int(exp)


def arb_lattice_sum(term_arb, right=None, left=None, lo=None, hi=None, center=0, bits=None):
    """An Arb ball holding ``sum_{k = lo}^{hi} t(k)``: the range that :func:`lattice_sum` needs at ``bits + 20`` bits
    (tail below ``2^-bits`` of the sum) is summed in ball arithmetic (``term_arb(k)`` returns an ``arb``), and the
    tail bound (rounded up) is added to the radius.

    >>> import flint
    >>> b = arb_lattice_sum(lambda k: flint.arb(2) ** (-abs(k)), right=[TailForm(a1=-mp.log(2))],
    ...                     left=[TailForm(a1=-mp.log(2))], bits=100)
    >>> b.contains(3), bool(b.rad() < flint.arb(2) ** -90)
    (True, True)
    """
    if flint is None:  # pragma: no cover
        raise ParameterError("python-flint is not installed")
    bits = bits or flint.ctx.prec
    with mp.workprec(bits + 20):
        res = lattice_sum(lambda k: _mpf_of_arb(term_arb(k)), right, left, lo, hi, center,
                          tol=mp.mpf(2) ** (-bits))
        tail = res.tail * (1 + mp.mpf(2) ** -10)
    old = flint.ctx.prec
    flint.ctx.prec = max(old, bits + 20)
    try:
        total = flint.arb(0)
        for k in range(res.span[0], res.span[1] + 1):
            total += term_arb(k)
        if tail > 0:
            total += flint.arb(0, _arb_of_mpf(tail))
    finally:
        flint.ctx.prec = old
    return total


# -- reading tail forms off a SymPy summand ----------------------------------------------------------------------
def _num(e):
    e = sp.sympify(e)
    if not e.is_number:
        raise _NoForm(f"not a number: {e}")
    if e.is_Rational:
        return mp.mpf(int(e.p)) / int(e.q)
    return to_mpf(e)


class _NoForm(Exception):
    pass


def _poly_coeffs(e, x, maxdeg=2):
    e = sp.expand(e)
    try:
        P = sp.Poly(e, x)
    except sp.PolynomialError:
        raise _NoForm(f"not a polynomial in the index: {e}") from None
    if P.degree() > maxdeg:
        raise _NoForm(f"degree {P.degree()} > {maxdeg}: {e}")
    cs = P.all_coeffs()[::-1]
    return [_num(c) for c in cs] + [mp.mpf(0)] * (maxdeg + 1 - len(cs))


def _factor_form(f, x):
    """A :class:`TailForm` bounding ``log|f|`` for large ``x`` (one factor of a product), or raise ``_NoForm``."""
    if not f.has(x):
        v = _num(f)
        if v == 0:
            return None
        return TailForm(a0=mp.log(abs(v)))
    if isinstance(f, sp.exp):
        c = _poly_coeffs(f.args[0], x)
        return TailForm(a2=c[2], a1=c[1], a0=c[0])
    if f == x:
        return TailForm(logs=((mp.mpf(1), mp.mpf(0)),), x0=1)
    if f.is_Pow and isinstance(f.args[0], (sp.factorial, sp.gamma)) and not f.args[1].has(x):
        return _factor_form(f.args[0], x).times(_num(f.args[1]))
    if f.is_Pow:
        base, ex = f.args
        if not base.has(x):  # b^(poly(x))
            b = _num(base)
            if b <= 0:
                raise _NoForm(f"a power of a non-positive base: {f}")
            c = _poly_coeffs(ex, x)
            lb = mp.log(b)
            return TailForm(a2=c[2] * lb, a1=c[1] * lb, a0=c[0] * lb)
        if ex.has(x):
            raise _NoForm(f"a power with the index in base and exponent: {f}")
        e = _num(ex)
        c = _poly_coeffs(base, x, maxdeg=8)
        deg = max(i for i, v in enumerate(c) if v != 0)
        if deg == 1:  # |u x + v|^e = |u|^e (x + v/u)^e
            u, v = c[1], c[0]
            r = -v / u
            return TailForm(a0=e * mp.log(abs(u)), logs=((e, r),), x0=int(mp.floor(r)) + 1)
        if e > 0:
            A = mp.fsum(abs(v) for v in c)
            return TailForm(a0=e * mp.log(A), logs=((e * deg, mp.mpf(-1)),), x0=0)
        raise _NoForm(f"a negative power of a polynomial of degree {deg}: {f}")
    if isinstance(f, (sp.factorial, sp.gamma)):
        c = _poly_coeffs(f.args[0], x, maxdeg=1)
        if c[1] != 1:
            raise _NoForm(f"{f}: the argument must be x + s")
        s = c[0] if isinstance(f, sp.factorial) else c[0] - 1
        return TailForm(gammas=((mp.mpf(-1), s),), x0=int(mp.floor(-1 - s)) + 1)
    if f.is_Pow or isinstance(f, sp.Pow):  # pragma: no cover
        pass
    raise _NoForm(f"no tail bound for the factor {f}")


def _sign_at_infinity(u, x):
    c = _poly_coeffs(u, x, maxdeg=8)
    deg = max((i for i, v in enumerate(c) if v != 0), default=0)
    lead = c[deg]
    return (1 if lead > 0 else -1), c


def forms_of(expr, var, direction: int) -> list:
    """Tail forms bounding ``|expr|`` as ``var -> direction * oo`` (``expr`` numeric but for ``var``): a list of
    :class:`TailForm` whose exponentials add up to a bound (one per term of a sum).  Factors understood: numbers,
    ``exp`` of a polynomial of degree <= 2, ``b^poly``, powers of polynomials, ``factorial`` / ``gamma`` of
    ``x + s``, and ``Abs`` of a polynomial (its sign at infinity).  Raises :class:`ParameterError` otherwise.

    >>> with mp.workdps(20):
    ...     [f.a2 for f in forms_of(sp.exp(-K**2 / 2), K, 1)]
    [mpf('-0.5')]
    """
    x = sp.Dummy("x", positive=True)
    try:
        e = sp.sympify(expr).subs(var, direction * x)
        x0 = 0

        def fix_abs(u):
            nonlocal x0
            sgn, c = _sign_at_infinity(u, x)
            deg = max((i for i, v in enumerate(c) if v != 0), default=0)
            if deg >= 1:
                # beyond the largest real root of u the sign is settled
                roots = [r for r in mp.polyroots(list(reversed(c[:deg + 1])), maxsteps=200, extraprec=60)
                         if abs(mp.im(r)) < mp.mpf(10) ** -10] if deg > 1 else [-c[0] / c[1]]
                if roots:
                    x0 = max(x0, int(mp.floor(max(mp.re(r) for r in roots))) + 1)
            return sgn * u

        e = e.replace(lambda a: isinstance(a, sp.Abs), lambda a: fix_abs(a.args[0]))
        e = sp.powsimp(e)
        out = []
        for term in sp.Add.make_args(sp.expand(e, deep=False)):
            form = TailForm(x0=x0)
            zero = False
            for f in sp.Mul.make_args(term):
                g = _factor_form(f, x)
                if g is None:
                    zero = True
                    break
                form = form.plus(g)
            if not zero:
                out.append(form)
        return out
    except _NoForm as exc:
        raise ParameterError(f"no analytic tail bound for the summand {expr}: {exc}") from None


# -- a SymPy sum over the integers that evaluates with rigorous tails --------------------------------------------
@functools.lru_cache(maxsize=512)
def _compiled(expr, var):
    return sp.lambdify(var, expr, modules=["mpmath"])


@functools.lru_cache(maxsize=512)
def _forms_cached(expr, var, direction, dps):
    return forms_of(expr, var, direction)


def _limit_int(v):
    v = sp.sympify(v)
    if v in (sp.oo, -sp.oo):
        return None
    if not v.is_number:
        raise ParameterError(f"a summation limit is not a number: {v}")
    if not v.is_integer:
        v2 = sp.nsimplify(v)
        if not v2.is_integer:
            raise ParameterError(f"a summation limit is not an integer: {v}")
        v = v2
    return int(v)


def _inner_sums(expr, var):
    """The sums inside ``expr`` that do not involve ``var`` (a normaliser in a pmf), outermost first."""
    return sorted((s for s in sp.sympify(expr).atoms(sp.Sum) if var not in s.free_symbols),
                  key=sp.default_sort_key)


def numeric_sum(expr, var, lo, hi):
    """``sum_{var = lo}^{hi} expr`` at the working precision (``expr`` numeric but for ``var``; ``lo``, ``hi`` integers
    or infinite), with analytic tail bounds and as many extra digits as cancellation costs.  Sums inside the summand
    that do not involve ``var`` (normalisers) are evaluated first, once."""
    a, b = _limit_int(lo), _limit_int(hi)
    if a is not None and b is not None and b < a - 1:  # Karr's convention: sum_a^b = -sum_{b+1}^{a-1}
        return -numeric_sum(expr, var, b + 1, a - 1)
    expr = sp.sympify(expr)
    inner = _inner_sums(expr, var)
    if inner:
        with mp.workprec(mp.mp.prec + 20):
            vals = {s: sp.Float._new(mp.mpf(numeric_sum(s.function, *s.limits[0]))._mpf_, mp.mp.prec) for s in inner}
        expr = expr.xreplace(vals)
    fn = _compiled(expr, var)
    right = _forms_cached(expr, var, 1, mp.mp.dps) if b is None else None
    left = _forms_cached(expr, var, -1, mp.mp.dps) if a is None else None
    for fs in (right, left):
        if fs is not None and any(f.diverges() for f in fs):
            raise ParameterError(f"the sum of {expr} may diverge (its tail envelope does not decay)")

    def logabs(k):
        v = fn(mp.mpf(k))
        return mp.log(abs(v)) if v != 0 else -mp.inf

    c = _peak(logabs, 0 if a is None else a, a, b)

    def compute():
        return lattice_sum(lambda k: mp.mpf(fn(mp.mpf(k))), right, left, a, b, c, what=f"the sum of {expr}")

    return sum_to_precision(compute)


@register_function
class LatticeSum(sp.Sum):
    """A SymPy ``Sum`` over the integers that evaluates numerically (``evalf``) by :func:`numeric_sum`: summed
    outward with an analytic bound of the tail, never cut at a fixed window.  Printed as a sum; the engine's index
    shifts and geometric-series closures act on it like on any ``Sum``.

    >>> s = sp.Symbol("sigma", positive=True)
    >>> Z = LatticeSum(sp.exp(-J**2 / (2 * s**2)), (J, -sp.oo, sp.oo))
    >>> Z.evalf(25, subs={s: 1})
    2.506628288042905544830679
    """

    def _eval_evalf(self, prec):
        var, lo, hi = self.limits[0]
        f = self.function
        if len(self.limits) != 1 or f.free_symbols - {var}:
            return None
        if not (sp.sympify(lo).is_number or lo in (sp.oo, -sp.oo)) or not (sp.sympify(hi).is_number or hi in (sp.oo, -sp.oo)):
            return None
        try:
            with mp.workprec(prec + 30):
                v = numeric_sum(f, var, lo, hi)
            with mp.workprec(prec):
                v = +v  # rounded to prec bits inside the context (an mpf built outside would round to 53)
        except ParameterError:
            return None
        return sp.Float._new(v._mpf_, prec) if v != 0 else sp.Float(0)

    def _arb_(self, to_arb):
        """An Arb ball of the sum (for certificates: :mod:`cbdp_sym.calculus.certify`; ``to_arb(expr, extra_env)``
        is its SymPy -> Arb evaluator).  Sums inside the summand that do not involve the index are balls computed
        once."""
        var, lo, hi = self.limits[0]
        f = self.function
        a, b = _limit_int(lo), _limit_int(hi)
        bits = flint.ctx.prec
        inner = _inner_sums(f, var)
        holders = {s: sp.Dummy(f"S{i}") for i, s in enumerate(inner)}
        env = {h: to_arb(s) for s, h in holders.items()}
        g = f.xreplace(holders)
        with mp.workprec(bits + 20):
            fn = _compiled(f.xreplace({s: sp.Float._new(mp.mpf(numeric_sum(s.function, *s.limits[0]))._mpf_, mp.mp.prec)
                                       for s in inner}), var)
            right = forms_of(f, var, 1) if b is None else None
            left = forms_of(f, var, -1) if a is None else None

            def logabs(k):
                v = fn(mp.mpf(k))
                return mp.log(abs(v)) if v != 0 else -mp.inf
            c = _peak(logabs, 0 if a is None else a, a, b)
        return arb_lattice_sum(lambda k: to_arb(g.subs(var, k), env), right, left, a, b, c, bits=bits)


# -- the laws ----------------------------------------------------------------------------------------------------
def _int_or_none(v):
    if v is None:
        return None
    v = sp.sympify(v)
    if v in (sp.oo, -sp.oo):
        return None
    return int(v)


class LatticeLaw(Distribution):
    """Base class of the laws on the integers.

    Symbolic: :meth:`pmf`, :meth:`log_pmf`, :meth:`support` (SymPy ``lo``, ``hi``, possibly infinite), :meth:`sf`,
    :meth:`cdf`.  Numeric (working precision): :meth:`mp_log_pmf`, :meth:`mp_pmf_at`, :meth:`mp_bounds` (integer ends
    or ``None``), :meth:`upper_forms` / :meth:`lower_form` (tail envelopes of the log-pmf, see :class:`TailForm`),
    :meth:`mp_expect` (with the growth of the function), moments, :meth:`mp_sf` / :meth:`mp_cdf`.
    """

    atomic = True
    lattice = True
    dim = 1

    # -- symbolic
    def pmf(self, k=K):  # pragma: no cover - abstract
        raise NotImplementedError

    def log_pmf(self, k=K):
        return sp.expand_log(sp.log(self.pmf(k)), force=True)

    def pdf(self, x=K):
        return self.pmf(x)

    def log_pdf(self, x=K):
        return self.log_pmf(x)

    def support(self):
        return (-sp.oo, sp.oo)

    def kinks(self):
        return []

    def sf(self, t, strict=True):
        """``P[X > t]`` (``P[X >= t]`` with ``strict=False``) as a sum of the pmf over the integers beyond ``t``."""
        lo, hi = self.support()
        start = sp.floor(t) + 1 if strict else sp.ceiling(t)
        start = sp.Max(start, lo) if lo != -sp.oo else start
        out = LatticeSum(self.pmf(J), (J, start, hi))
        record(Tex(r"P[X %s %s]" % (">" if strict else r"\ge", latex(t))), out, "the pmf summed over the integers beyond "
               + ("$\\lfloor t \\rfloor + 1$" if strict else "$\\lceil t \\rceil$"))
        return out

    def cdf(self, t):
        """``P[X <= t]``."""
        lo, _hi = self.support()
        out = LatticeSum(self.pmf(J), (J, lo, sp.floor(t)))
        record(Tex(r"P[X \le %s]" % latex(t)), out, "the pmf summed over the integers up to $\\lfloor t \\rfloor$")
        return out

    # -- numeric
    def mp_bounds(self):
        lo, hi = self.support()
        return _int_or_none(lo), _int_or_none(hi)

    def mp_log_pmf(self, k):  # pragma: no cover - abstract
        raise NotImplementedError

    def mp_pmf_at(self, k):
        return mp.exp(self.mp_log_pmf(k))

    def mp_log_pdf(self, x):
        return self.mp_log_pmf(x)

    def mp_pdf(self, x):
        return self.mp_pmf_at(x)

    def mp_mode(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def upper_forms(self, direction: int):
        """Forms whose exponentials add up to a bound of ``P(k)`` in a tail (``None``: the support ends there)."""
        raise NotImplementedError  # pragma: no cover

    def lower_form(self, direction: int):
        """A form with ``P(k) >= exp(form)`` in a tail (``None``: the support ends there)."""
        raise NotImplementedError  # pragma: no cover

    def mp_pmf(self):
        lo, hi = self.mp_bounds()
        if lo is None or hi is None:
            raise ParameterError(f"{self!r} has infinite support: its pmf is not a finite list (the engine sums it "
                                 "with tail bounds: cbdp_sym.laws.discrete.lattice_sum)")
        return [(mp.mpf(k), self.mp_pmf_at(k)) for k in range(lo, hi + 1)]

    def _sum(self, term, growth=(1, 0), center=None):
        """``sum_k term(k)`` over the support, where ``|term(k)| <= C (1 + |k|)^m P(k)`` (``growth = (C, m)``)."""
        C, m = growth
        lo, hi = self.mp_bounds()
        right = None if hi is not None else [f.with_poly(m, C) for f in self.upper_forms(1)]
        left = None if lo is not None else [f.with_poly(m, C) for f in self.upper_forms(-1)]
        c = self.mp_mode() if center is None else center
        return lattice_sum(term, right, left, lo, hi, c, what=f"a sum over {self!r}")

    def mp_expect(self, g, growth=None):
        """``E[g(X)]`` at the working precision.  ``growth = (C, m)`` with ``|g(k)| <= C (1 + |k|)^m`` is needed for an
        infinite support (it bounds the tails); the digits lost to cancellation are recovered at higher precision."""
        lo, hi = self.mp_bounds()
        if growth is None:
            if lo is None or hi is None:
                raise ParameterError("mp_expect on an infinite support needs growth=(C, m) with |g(k)| <= C (1 + |k|)^m "
                                     "(it bounds the tails of the sum)")
            growth = (1, 0)
        return sum_to_precision(lambda: self._sum(lambda k: g(mp.mpf(k)) * self.mp_pmf_at(k), growth))

    def mp_mass(self):
        """``sum_k P(k)`` (1 up to rounding: a check of the normalisation and of the tail bounds)."""
        return self._sum(lambda k: self.mp_pmf_at(k)).value

    def symmetry_center(self):
        """A point ``c`` with ``P(c + k) = P(c - k)`` for every ``k`` (``None`` if the law is not known to be
        symmetric): odd moments about it vanish exactly."""
        return None

    def mp_moment(self, j: int, about=0):
        """``E[(X - about)^j]`` (odd moments about a centre of symmetry are 0; cancellation is recovered at higher
        precision)."""
        a = _m(about) if not isinstance(about, sp.Basic) else to_mpf(about)
        c = self.symmetry_center()
        if j % 2 == 1 and c is not None and to_mpf(c) == a:
            return mp.mpf(0)
        return sum_to_precision(lambda: self._sum(lambda k: (k - a) ** j * self.mp_pmf_at(k),
                                                  (max(1, (1 + abs(a))) ** j, j)))

    def mp_mean(self):
        c = self.symmetry_center()
        return to_mpf(c) if c is not None else self.mp_moment(1)

    def mp_variance(self):
        """``Var[X] = E[(X - E X)^2]`` (``E[X^2] - (E X)^2`` would cancel)."""
        m = self.mp_mean()
        return self.mp_moment(2, about=m)

    def mp_sf(self, t, strict=True):
        """``P[X > t]`` (``P[X >= t]`` with ``strict=False``), summed over the tail itself (no ``1 - cdf``)."""
        t = _m(t) if not isinstance(t, sp.Basic) else to_mpf(t)
        start = int(mp.floor(t)) + 1 if strict else int(mp.ceil(t))
        lo, hi = self.mp_bounds()
        if lo is not None:
            start = max(start, lo)
        if hi is not None and start > hi:
            return mp.mpf(0)
        right = None if hi is not None else self.upper_forms(1)
        return lattice_sum(lambda k: self.mp_pmf_at(k), right, None, start, hi, max(start, self.mp_mode()),
                           what="a tail probability").value

    def mp_cdf(self, t):
        """``P[X <= t]``, summed over the left tail itself."""
        t = _m(t) if not isinstance(t, sp.Basic) else to_mpf(t)
        end = int(mp.floor(t))
        lo, hi = self.mp_bounds()
        if hi is not None:
            end = min(end, hi)
        if lo is not None and end < lo:
            return mp.mpf(0)
        left = None if lo is not None else self.upper_forms(-1)
        return lattice_sum(lambda k: self.mp_pmf_at(k), None, left, lo, end, min(end, self.mp_mode()),
                           what="a tail probability").value

    def mp_mgf(self, t):
        """``E[e^{tX}]`` (``inf`` where it diverges)."""
        t = _m(t)
        lo, hi = self.mp_bounds()
        right = None if hi is not None else [f.plus(TailForm(a1=t)) for f in self.upper_forms(1)]
        left = None if lo is not None else [f.plus(TailForm(a1=-t)) for f in self.upper_forms(-1)]
        for fs in (right, left):
            if fs is not None and any(f.diverges() for f in fs):
                lower = self.lower_form(1 if fs is right else -1)
                if lower is not None and lower.plus(TailForm(a1=t if fs is right else -t)).diverges():
                    return mp.inf
        c = _peak(lambda k: t * k + self.mp_log_pmf(k), self.mp_mode(), lo, hi)
        return lattice_sum(lambda k: mp.exp(t * k + self.mp_log_pmf(k)), right, left, lo, hi, c,
                           what="a moment generating function").value

    # a frame for quadrature-based code that asks for it
    def mp_loc(self):
        return mp.mpf(self.mp_mode())

    def mp_width(self):
        v = self.mp_variance()
        return mp.sqrt(v) if v > 0 else mp.mpf(1)

    def mp_reach(self):
        return mp.mpf(0)

    def mp_breaks(self):
        return []

    def mp_kinks(self):
        return []


def _symmetric_loc(mu) -> bool:
    """A law ``f(|k - mu|)`` on Z is symmetric about ``mu`` when ``2 mu`` is an integer."""
    v = (2 * mu) if isinstance(mu, mp.mpf) else sp.sympify(2 * mu)
    return bool(v == mp.nint(v)) if isinstance(v, mp.mpf) else bool(v.is_integer)


def _canonical_center(mu):
    """``mu`` reduced by an integer shift of the summation index: 0 for an integer, else unchanged."""
    return sp.Integer(0) if sp.sympify(mu).is_integer else mu


@dataclass(frozen=True, init=False)
class DiscreteGaussian(LatticeLaw):
    """The discrete Gaussian ``N_Z(loc, sigma^2)``: ``P(k) = exp(-(k - loc)^2 / (2 sigma^2)) / Z(loc, sigma)``,
    ``Z = sum_{j in Z} exp(-(j - loc)^2 / (2 sigma^2))`` (Canonne, Kamath, Steinke 2020, Def. 1).

    ``sigma`` is the scale of the Gaussian kernel, not the standard deviation (the variance is below ``sigma^2``).
    The normaliser of an integer ``loc`` is written with the index shifted to centre 0.  Numerically ``Z`` is the
    sum itself for ``sigma < 1`` and its Poisson-summation dual ``sigma sqrt(2 pi) sum_n exp(-2 pi^2 sigma^2 n^2)
    cos(2 pi n loc)`` for ``sigma >= 1`` (a few terms), each with an analytic tail bound.

    >>> import mpmath as mp
    >>> with mp.workdps(30):
    ...     mp.nstr(DiscreteGaussian(0, 3).mp_variance(), 20)
    '9.0'
    """

    loc: object
    sigma: object

    def __init__(self, loc, sigma):
        loc, sigma = _as_param(loc), _as_param(sigma)
        _check_real("DiscreteGaussian", "loc", loc)
        _check_positive("DiscreteGaussian", "sigma", sigma)
        object.__setattr__(self, "loc", loc)
        object.__setattr__(self, "sigma", sigma)

    # symbolic
    def normaliser(self):
        c = _canonical_center(self.loc) if not isinstance(self.loc, mp.mpf) else self.loc
        return LatticeSum(sp.exp(-(J - c) ** 2 / (2 * self.sigma**2)), (J, -sp.oo, sp.oo))

    def pmf(self, k=K):
        return sp.exp(-(k - self.loc) ** 2 / (2 * self.sigma**2)) / self.normaliser()

    def log_pmf(self, k=K):
        return -(k - self.loc) ** 2 / (2 * self.sigma**2) - sp.log(self.normaliser())

    # numeric
    def _mp(self):
        key = mp.mp.prec
        cache = self.__dict__.setdefault("_mpcache", {})
        if key not in cache:
            mu, s = to_mpf(self.loc), to_mpf(self.sigma)
            cache[key] = (mu, s, 1 / (2 * s * s), mp.log(_dgauss_z(mu, s)))
        return cache[key]

    def symmetry_center(self):
        return self.loc if _symmetric_loc(self.loc) else None

    def mp_log_pmf(self, k):
        mu, _s, c, logz = self._mp()
        return -((k - mu) ** 2) * c - logz

    def mp_mode(self):
        return int(mp.nint(self._mp()[0]))

    def upper_forms(self, direction):
        mu, _s, c, logz = self._mp()
        # -(d x - mu)^2 c - log Z = -c x^2 + 2 c d mu x - c mu^2 - log Z
        return [TailForm(a2=-c, a1=2 * c * direction * mu, a0=-c * mu * mu - logz)]

    def lower_form(self, direction):
        return self.upper_forms(direction)[0]

    def subs(self, mapping):
        return DiscreteGaussian(_subs(self.loc, mapping), _subs(self.sigma, mapping))

    def latex(self, printer=None):
        return rf"\mathcal{{N}}_{{\mathbb{{Z}}}}\left({latex(self.loc)}, {latex(self.sigma**2)}\right)"


def _dgauss_z(mu, s):
    """``sum_{j in Z} exp(-(j - mu)^2 / (2 s^2))`` at the working precision (memoised)."""
    return _dgauss_z_cached(mu._mpf_ if isinstance(mu, mp.mpf) else mu, s._mpf_, mp.mp.prec)


@functools.lru_cache(maxsize=4096)
def _dgauss_z_cached(mu_, s_, prec):
    mu, s = mp.mpf(mu_), mp.mpf(s_)
    if s >= 1:  # Poisson summation: s sqrt(2 pi) (1 + 2 sum_{n >= 1} e^{-2 pi^2 s^2 n^2} cos(2 pi n mu))
        a = 2 * mp.pi**2 * s * s
        frac = mu - mp.floor(mu)
        res = lattice_sum(lambda n: mp.exp(-a * n * n) * mp.cos(2 * mp.pi * n * frac), right=[TailForm(a2=-a)],
                          lo=1, center=1, tol=tail_tolerance())
        return s * mp.sqrt(2 * mp.pi) * (1 + 2 * res.value)
    c = 1 / (2 * s * s)
    f = TailForm(a2=-c, a1=2 * c * mu, a0=-c * mu * mu)
    g = TailForm(a2=-c, a1=-2 * c * mu, a0=-c * mu * mu)
    return lattice_sum(lambda j: mp.exp(-((j - mu) ** 2) * c), [f], [g], center=int(mp.nint(mu))).value


@dataclass(frozen=True, init=False)
class DiscreteLaplace(LatticeLaw):
    """The discrete Laplace law ``Lap_Z(loc, t)``: ``P(k) proportional to exp(-|k - loc| / t)`` on ``Z``, ``t > 0``
    the scale (the two-sided geometric law with ratio ``r = e^{-1/t}``).  For an integer ``loc`` the normaliser is
    the geometric series ``(1 + r)/(1 - r)``; for any ``loc``, ``(r^f + r^(1 - f))/(1 - r)`` with ``f`` the fractional
    part of ``loc``.

    >>> t = sp.Symbol("t", positive=True)
    >>> DiscreteLaplace(0, t).pmf()
    (1 - exp(-1/t))*exp(-Abs(k)/t)/(1 + exp(-1/t))
    """

    loc: object
    scale: object

    def __init__(self, loc, scale):
        loc, scale = _as_param(loc), _as_param(scale)
        _check_real("DiscreteLaplace", "loc", loc)
        _check_positive("DiscreteLaplace", "scale", scale)
        object.__setattr__(self, "loc", loc)
        object.__setattr__(self, "scale", scale)

    def normaliser(self):
        r = sp.exp(-1 / self.scale)
        if not isinstance(self.loc, mp.mpf) and sp.sympify(self.loc).is_integer:
            return (1 + r) / (1 - r)
        f = self.loc - sp.floor(self.loc)
        return (r**f + r ** (1 - f)) / (1 - r)

    def pmf(self, k=K):
        return sp.exp(-sp.Abs(k - self.loc) / self.scale) / self.normaliser()

    def log_pmf(self, k=K):
        return -sp.Abs(k - self.loc) / self.scale - sp.log(self.normaliser())

    def _mp(self):
        key = mp.mp.prec
        cache = self.__dict__.setdefault("_mpcache", {})
        if key not in cache:
            mu, t = to_mpf(self.loc), to_mpf(self.scale)
            f = mu - mp.floor(mu)
            # log((r^f + r^(1-f)) / (1 - r)), r = e^{-1/t}
            logz = mp.log(mp.exp(-f / t) + mp.exp(-(1 - f) / t)) - mp.log(-mp.expm1(-1 / t))
            cache[key] = (mu, 1 / t, logz)
        return cache[key]

    def symmetry_center(self):
        return self.loc if _symmetric_loc(self.loc) else None

    def mp_log_pmf(self, k):
        mu, inv, logz = self._mp()
        return -abs(k - mu) * inv - logz

    def mp_mode(self):
        return int(mp.nint(self._mp()[0]))

    def upper_forms(self, direction):
        mu, inv, logz = self._mp()
        # beyond loc: -(x - d mu) / t - log Z
        x0 = int(mp.ceil(direction * mu))
        return [TailForm(a1=-inv, a0=direction * mu * inv - logz, x0=x0)]

    def lower_form(self, direction):
        return self.upper_forms(direction)[0]

    def subs(self, mapping):
        return DiscreteLaplace(_subs(self.loc, mapping), _subs(self.scale, mapping))

    def latex(self, printer=None):
        return rf"\mathrm{{Lap}}_{{\mathbb{{Z}}}}\left({latex(self.loc)}, {latex(self.scale)}\right)"


def _check_prob(owner, name, p, open_=True):
    _check_real(owner, name, p)
    if isinstance(p, mp.mpf):
        ok = (0 < p < 1) if open_ else (0 <= p <= 1)
    else:
        if p.is_number:
            ok = bool((0 < p) & (p < 1)) if open_ else bool((0 <= p) & (p <= 1))
        else:
            ok = True if p.is_positive is not False else False
    if not ok:
        raise ParameterError(f"{owner}: {name} must lie in {'(0, 1)' if open_ else '[0, 1]'}, got {p}")


@dataclass(frozen=True, init=False)
class Geometric(LatticeLaw):
    """The geometric law of the number of failures before the first success: ``P(k) = p (1 - p)^k``, ``k >= 0``."""

    p: object

    def __init__(self, p):
        p = _as_param(p)
        _check_prob("Geometric", "p", p)
        object.__setattr__(self, "p", p)

    def support(self):
        return (sp.Integer(0), sp.oo)

    def pmf(self, k=K):
        return self.p * (1 - self.p) ** k

    def log_pmf(self, k=K):
        return sp.log(self.p) + k * sp.log(1 - self.p)

    def _mp(self):
        p = to_mpf(self.p)
        return mp.log(p), mp.log1p(-p)

    def mp_log_pmf(self, k):
        if k < 0:
            return -mp.inf
        lp, lq = self._mp()
        return lp + k * lq

    def mp_mode(self):
        return 0

    def upper_forms(self, direction):
        if direction < 0:
            return None
        lp, lq = self._mp()
        return [TailForm(a1=lq, a0=lp)]

    def lower_form(self, direction):
        f = self.upper_forms(direction)
        return None if f is None else f[0]

    def subs(self, mapping):
        return Geometric(_subs(self.p, mapping))

    def latex(self, printer=None):
        return rf"\mathrm{{Geom}}\left({latex(self.p)}\right)"


@dataclass(frozen=True, init=False)
class Poisson(LatticeLaw):
    """The Poisson law ``P(k) = e^{-lam} lam^k / k!``, ``k >= 0``."""

    lam: object

    def __init__(self, lam):
        lam = _as_param(lam)
        _check_positive("Poisson", "lam", lam)
        object.__setattr__(self, "lam", lam)

    def support(self):
        return (sp.Integer(0), sp.oo)

    def pmf(self, k=K):
        return sp.exp(-self.lam) * self.lam**k / sp.factorial(k)

    def log_pmf(self, k=K):
        return -self.lam + k * sp.log(self.lam) - sp.log(sp.factorial(k))

    def mp_log_pmf(self, k):
        if k < 0:
            return -mp.inf
        lam = to_mpf(self.lam)
        return -lam + k * mp.log(lam) - mp.loggamma(k + 1)

    def mp_mode(self):
        return int(mp.floor(to_mpf(self.lam)))

    def upper_forms(self, direction):
        if direction < 0:
            return None
        lam = to_mpf(self.lam)
        return [TailForm(a1=mp.log(lam), a0=-lam, gammas=((mp.mpf(1), mp.mpf(0)),))]

    def lower_form(self, direction):
        f = self.upper_forms(direction)
        return None if f is None else f[0]

    def subs(self, mapping):
        return Poisson(_subs(self.lam, mapping))

    def latex(self, printer=None):
        return rf"\mathrm{{Poi}}\left({latex(self.lam)}\right)"


@dataclass(frozen=True, init=False)
class Binomial(LatticeLaw):
    """The binomial law ``P(k) = C(n, k) p^k (1 - p)^(n - k)`` on ``0..n`` (finite support: summed whole)."""

    n: object
    p: object

    def __init__(self, n, p):
        n, p = _as_param(n), _as_param(p)
        if isinstance(n, mp.mpf) or not (n.is_integer and n.is_positive):
            raise ParameterError(f"Binomial: n must be a positive integer, got {n}")
        if n > 10**6:
            raise ParameterError(f"Binomial: n = {n} is above the 10^6 atoms summed here")
        _check_prob("Binomial", "p", p)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "p", p)

    def support(self):
        return (sp.Integer(0), self.n)

    def pmf(self, k=K):
        return sp.binomial(self.n, k) * self.p**k * (1 - self.p) ** (self.n - k)

    def log_pmf(self, k=K):
        return sp.log(sp.binomial(self.n, k)) + k * sp.log(self.p) + (self.n - k) * sp.log(1 - self.p)

    def mp_log_pmf(self, k):
        n = int(self.n)
        if k < 0 or k > n:
            return -mp.inf
        p = to_mpf(self.p)
        return (mp.loggamma(n + 1) - mp.loggamma(k + 1) - mp.loggamma(n - k + 1) + k * mp.log(p)
                + (n - k) * mp.log1p(-p))

    def mp_mode(self):
        return int(mp.floor((int(self.n) + 1) * to_mpf(self.p)))

    def upper_forms(self, direction):
        return None

    def lower_form(self, direction):
        return None

    def subs(self, mapping):
        return Binomial(_subs(self.n, mapping), _subs(self.p, mapping))

    def latex(self, printer=None):
        return rf"\mathrm{{Bin}}\left({latex(self.n)}, {latex(self.p)}\right)"


@dataclass(frozen=True, init=False)
class Lattice(LatticeLaw):
    """A law on the integers of ``[lo, hi]`` given by a (possibly unnormalised) density: ``P(k) = density(k) /
    sum_j density(j)``.  The normaliser is closed by SymPy where it can (time-limited), else kept as a
    :class:`LatticeSum`.  Numerically the tails are bounded by :func:`forms_of` read off the density.

    >>> L = Lattice(sp.Rational(1, 2) ** sp.Abs(K), K)
    >>> with mp.workdps(20):
    ...     mp.nstr(L.mp_pmf_at(0), 15)
    '0.333333333333333'
    """

    density: object
    var: object
    lo: object
    hi: object

    def __init__(self, density, var=K, lo=-sp.oo, hi=sp.oo):
        density = sp.sympify(density)
        var = sp.sympify(var)
        if not isinstance(var, sp.Symbol):
            raise ParameterError("Lattice: var must be a SymPy symbol")
        lo, hi = sp.sympify(lo), sp.sympify(hi)
        for end in (lo, hi):
            if end not in (sp.oo, -sp.oo) and not end.is_integer:
                raise ParameterError(f"Lattice: the support's ends must be integers or infinite, got {end}")
        object.__setattr__(self, "density", density)
        object.__setattr__(self, "var", var)
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    def support(self):
        return (self.lo, self.hi)

    def normaliser(self):
        body = self.density.subs(self.var, J)
        return LatticeSum(body, (J, self.lo, self.hi))

    def pmf(self, k=K):
        return self.density.subs(self.var, k) / self.normaliser()

    def _mp(self):
        key = mp.mp.prec
        cache = self.__dict__.setdefault("_mpcache", {})
        if key not in cache:
            if self.density.free_symbols - {self.var}:
                raise ParameterError(f"Lattice: free parameters {sorted(map(str, self.density.free_symbols - {self.var}))}"
                                     " have no values (substitute numbers first)")
            fn = _compiled(self.density, self.var)
            z = numeric_sum(self.density, self.var, self.lo, self.hi)
            cache[key] = (fn, mp.log(z))
        return cache[key]

    def mp_log_pmf(self, k):
        lo, hi = self.mp_bounds()
        if (lo is not None and k < lo) or (hi is not None and k > hi):
            return -mp.inf
        fn, logz = self._mp()
        v = fn(mp.mpf(k))
        if v < 0:
            raise ParameterError(f"Lattice: the density is negative at {k}")
        return (mp.log(v) if v > 0 else -mp.inf) - logz

    def mp_mode(self):
        lo, hi = self.mp_bounds()
        return _peak(self.mp_log_pmf, 0 if lo is None else lo, lo, hi)

    def upper_forms(self, direction):
        lo, hi = self.mp_bounds()
        if (hi if direction > 0 else lo) is not None:
            return None
        _fn, logz = self._mp()
        return [f.add_const(-logz) for f in forms_of(self.density, self.var, direction)]

    def lower_form(self, direction):
        fs = self.upper_forms(direction)
        if fs is None:
            return None
        if len(fs) == 1:
            return fs[0]  # a single factor form is exact up to the polynomial envelopes
        raise ParameterError("Lattice: no lower tail bound for a density that is a sum of terms")

    def subs(self, mapping):
        return Lattice(self.density.subs(mapping), self.var, self.lo, self.hi)

    def latex(self, printer=None):
        return rf"\propto {latex(self.density)}"


@dataclass(frozen=True, init=False)
class LatticeMixture(LatticeLaw):
    """``sum_i w_i P_i``: a mixture of laws on the integers (Poisson subsampling's output law).

    >>> M = LatticeMixture([sp.Rational(9, 10), sp.Rational(1, 10)], [DiscreteGaussian(0, 1), DiscreteGaussian(1, 1)])
    >>> with mp.workdps(30):
    ...     mp.nstr(M.mp_mass(), 20)
    '1.0'
    """

    weights: tuple
    components: tuple

    def __init__(self, weights, components):
        weights = tuple(_as_param(w) for w in weights)
        components = tuple(components)
        if not components or len(weights) != len(components):
            raise ParameterError("LatticeMixture: need one weight per component")
        for c in components:
            if not isinstance(c, LatticeLaw):
                raise ParameterError(f"LatticeMixture: components must be laws on the integers, got {c!r}")
        for w in weights:
            _check_real("LatticeMixture", "a weight", w)
            if (w < 0) if isinstance(w, mp.mpf) else w.is_negative:
                raise ParameterError(f"LatticeMixture: weights must be non-negative, got {w}")
        total = sum(weights[1:], weights[0])
        if not isinstance(total, mp.mpf) and sp.sympify(total).is_number and sp.simplify(total - 1) != 0:
            raise ParameterError(f"LatticeMixture: weights must sum to 1, got {total}")
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "components", components)

    def support(self):
        los = [c.support()[0] for c in self.components]
        his = [c.support()[1] for c in self.components]
        return (sp.Min(*los), sp.Max(*his))

    def pmf(self, k=K):
        return sp.Add(*[w * c.pmf(k) for w, c in zip(self.weights, self.components)])

    def log_pmf(self, k=K):
        return sp.log(self.pmf(k))

    def _live(self):
        return [(to_mpf(w), c) for w, c in zip(self.weights, self.components) if w != 0]

    def mp_log_pmf(self, k):
        terms = [mp.log(w) + c.mp_log_pmf(k) for w, c in self._live()]
        top = max(terms)
        if not mp.isfinite(top):
            return top
        return top + mp.log(mp.fsum(mp.exp(t - top) for t in terms))

    def mp_mode(self):
        lo, hi = self.mp_bounds()
        best = max(self._live(), key=lambda wc: wc[0])[1].mp_mode()
        return _peak(self.mp_log_pmf, best, lo, hi)

    def upper_forms(self, direction):
        out = []
        for w, c in self._live():
            fs = c.upper_forms(direction)
            if fs is None:
                end = c.mp_bounds()[1 if direction > 0 else 0]
                # a component that ends in this direction contributes nothing beyond its end
                out.append(("end", end))
                continue
            out += [f.add_const(mp.log(w)) for f in fs]
        ends = [e for e in out if isinstance(e, tuple)]
        forms = [f for f in out if not isinstance(f, tuple)]
        if not forms:
            return None
        x_end = max(d * e for _tag, e in ends for d in [direction]) if ends else None
        return [f.at_least(x_end + 1) if x_end is not None else f for f in forms]

    def lower_form(self, direction):
        best = None
        for w, c in self._live():
            f = c.lower_form(direction)
            if f is None:
                continue
            f = f.add_const(mp.log(w))
            if best is None or _heavier(f, best):
                best = f
        return best

    def subs(self, mapping):
        return LatticeMixture([_subs(w, mapping) for w in self.weights], [c.subs(mapping) for c in self.components])

    def latex(self, printer=None):
        return " + ".join(rf"{latex(w)}\,{c.latex()}" for w, c in zip(self.weights, self.components))


def _heavier(f: TailForm, g: TailForm) -> bool:
    """Whether ``exp(f)`` decays more slowly than ``exp(g)`` (the better lower bound of a mixture's tail)."""
    for a, b in ((_m(f.a2), _m(g.a2)), (-f.net_gamma(), -g.net_gamma()), (_m(f.a1), _m(g.a1)),
                 (mp.fsum(_m(c) for c, _ in f.logs), mp.fsum(_m(c) for c, _ in g.logs)), (_m(f.a0), _m(g.a0))):
        if a != b:
            return a > b
    return False
