"""Ball-arithmetic certificates (python-flint's Arb) for counterexamples.

A closed form evaluated at an exact rational point in interval arithmetic gives a ball that
certainly contains its value; two disjoint balls prove two values differ, and a ball entirely
below another proves a strict inequality, whatever floating point did elsewhere.

The SymPy-to-Arb translation is written by hand (a small recursive evaluator): SymPy's ``lambdify``
would turn rationals into floats, which a certificate must not do.
"""
from __future__ import annotations

import contextlib
from fractions import Fraction

import mpmath as mp
import sympy as sp
from cbdp_sym.laws.distributions import Laplace, Normal

try:  # python-flint is a declared dependency; degrade to "not certified" if it is missing
    import flint
except ImportError:  # pragma: no cover
    flint = None


class NotCertifiable(Exception):
    pass


#: python-flint's ball type (``arb(mid)``, ``arb(mid, rad)``), or ``None`` when python-flint is missing: for code that
#: computes in balls itself (precision set by :func:`arb_precision`; paper modules never import flint).
arb = flint.arb if flint is not None else None


def arb_from_mpf(x):
    """An mpmath number (or an int) as an Arb ball exactly: its whole mantissa, radius 0 (no rounding, whatever
    the working precision).

    >>> import mpmath as mp
    >>> b = arb_from_mpf(mp.mpf(1) / 3)
    >>> bool(b.rad() == 0), b.mid() == arb_from_mpf(mp.mpf(1) / 3).mid()
    (True, True)
    """
    if flint is None:
        raise NotCertifiable("python-flint is not installed")
    sign, man, exp, _bc = mp.mpf(x)._mpf_
    if not man and exp:  # inf or nan
        raise NotCertifiable("an Arb ball needs a finite number")
    return flint.arb((int(-man if sign else man), int(exp)))


_ARB_FUNCS = {sp.exp: "exp", sp.log: "log", sp.erfc: "erfc", sp.erf: "erf", sp.sinh: "sinh", sp.cosh: "cosh",
              sp.tanh: "tanh", sp.gamma: "gamma"}


def _arb(expr, env=None):
    """The Arb ball of a closed form without free symbols; rationals stay exact (never floats).

    ``+ * ^``, exp, log, erf, erfc, sinh, cosh, tanh, Gamma, Abs, Min, Max, pi, E, Euler's constant and
    :class:`cbdp_sym.divergences.shifted.Log1p` (``log(1 + x)`` without cancellation)."""
    A = flint.arb
    if env and expr in env:  # a bound variable (see :func:`arb_function`)
        return env[expr]
    if expr.is_Integer:
        return A(int(expr))
    if expr.is_Rational:
        return A(int(expr.p)) / int(expr.q)
    if expr is sp.pi:
        return A.pi()
    if expr is sp.E:
        return A(1).exp()
    if expr is sp.EulerGamma:
        return A.const_euler()
    if expr.is_Add:
        out = A(0)
        for a in expr.args:
            out += _arb(a, env)
        return out
    if expr.is_Mul:
        out = A(1)
        for a in expr.args:
            out *= _arb(a, env)
        return out
    if expr.is_Pow:
        base, ex = expr.args
        if ex.is_Integer:
            return _arb(base, env) ** int(ex)
        if ex == sp.Rational(1, 2):
            return _arb(base, env).sqrt()
        if ex == -sp.Rational(1, 2):
            return 1 / _arb(base, env).sqrt()
        b = _arb(base, env)
        if b.is_zero() and ex.is_positive:  # 0^x = 0 for x > 0 (no log of 0)
            return A(0)
        return (_arb(ex, env) * b.log()).exp()
    for f, name in _ARB_FUNCS.items():
        if isinstance(expr, f):
            return getattr(_arb(expr.args[0], env), name)()
    if isinstance(expr, sp.Abs):
        return abs(_arb(expr.args[0], env))
    if isinstance(expr, (sp.Min, sp.Max)):
        vals = [_arb(t, env) for t in expr.args]
        out = vals[0]
        for v in vals[1:]:
            out = out.min(v) if isinstance(expr, sp.Min) else out.max(v)
        return out
    if type(expr).__name__ == "Phi":  # cbdp_sym.laws.distributions.Phi: erfc(-x/sqrt(2))/2
        return (-_arb(expr.args[0], env) / A(2).sqrt()).erfc() / 2
    if type(expr).__name__ == "Log1p":  # cbdp_sym.divergences.shifted.Log1p: log(1 + x) without cancellation
        return _arb(expr.args[0], env).log1p()
    if hasattr(expr, "_arb_"):  # cbdp_sym.laws.discrete.LatticeSum: summed in balls, its tail bound in the radius
        return expr._arb_(lambda e, extra=None: _arb(e, {**(env or {}), **(extra or {})}))
    raise NotCertifiable(f"no ball arithmetic for {type(expr).__name__}")


def arb_function(expr, var):
    """``arb -> arb``: a SymPy expression of one variable evaluated in ball arithmetic at the current Arb
    precision (the one SymPy -> Arb evaluator, :func:`_arb`, with ``var`` bound).

    >>> import sympy as sp
    >>> x = sp.Symbol("x")
    >>> f = arb_function(sp.exp(x) + x**2 / 3, x)
    >>> f(flint.arb(1)).contains(flint.arb(1).exp() + flint.arb(1) / 3)
    True
    """
    if flint is None:
        raise NotCertifiable("python-flint is not installed")
    e = sp.sympify(expr)
    extra = e.free_symbols - {var}
    if extra:
        raise NotCertifiable(f"free symbols remain: {sorted(map(str, extra))}")
    return lambda v: _arb(e, {var: v})


@contextlib.contextmanager
def arb_precision(bits: int = 400):
    """Arb's working precision set to ``bits`` inside the block, restored after (the one precision context of
    the ball arithmetic; paper modules never set ``flint.ctx.prec`` themselves)."""
    if flint is None:
        raise NotCertifiable("python-flint is not installed")
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = old


def arb_closed(expr, bits: int = 400):
    """The Arb ball of a closed form without free symbols, at ``bits`` bits of working precision.

    >>> b = arb_closed(sp.log(3) - sp.Rational(11, 10))  # log 3 = 1.0986... < 11/10
    >>> bool(b < 0)
    True
    """
    e = sp.sympify(expr)
    if e.free_symbols:
        raise NotCertifiable(f"free symbols remain: {sorted(map(str, e.free_symbols))}")
    with arb_precision(bits):
        return _arb(e)


def arb_eval(expr, values: dict, bits: int = 400):
    """The Arb ball of a SymPy expression whose free symbols are bound by ``values`` (symbol -> an exact rational
    (int, ``Fraction``, SymPy rational) or an Arb ball, such as a certified solver's enclosure), at ``bits`` bits of
    working precision: a certificate combines enclosures and exact numbers through a written-out formula, never
    through hand-coded ball arithmetic.

    >>> u, r = sp.symbols("u r")
    >>> enc = arb_closed(sp.Rational(1, 4))  # an enclosure of 1/4
    >>> ball = arb_eval(8 * sp.sqrt(u) + sp.log(r), {u: enc, r: Fraction(3, 2)})
    >>> ball.contains(arb_closed(4 + sp.log(sp.Rational(3, 2))))
    True
    """
    e = sp.sympify(expr)
    extra = e.free_symbols - set(values)
    if extra:
        raise NotCertifiable(f"free symbols remain: {sorted(map(str, extra))}")
    with arb_precision(bits):
        env = {}
        for sym, val in values.items():
            if isinstance(val, Fraction):
                val = sp.Rational(val.numerator, val.denominator)
            env[sym] = _arb(sp.Rational(val)) if isinstance(val, (int, sp.Rational)) else val
        return _arb(e, env)


def certify_closed_less(a_expr, b_expr, bits: int = 400):
    """A sentence proving ``a < b`` for two closed forms without free symbols (exact rationals, never floats),
    or ``None`` when the balls overlap or a form cannot be evaluated in Arb.

    >>> certify_closed_less(sp.Rational(11, 10), sp.log(3)) is None, certify_closed_less(1, sp.log(3)) is not None
    (True, True)
    """
    try:
        a, b = arb_closed(a_expr, bits), arb_closed(b_expr, bits)
    except (NotCertifiable, ValueError, ZeroDivisionError):
        return None
    if bool(a < b):
        return f"Arb balls at {bits} bits: {a.str(12, radius=True)} < {b.str(12, radius=True)}"
    return None


def substitute_point(expr, point: dict, symbols: dict):
    """``expr`` at an exact point: scalars substituted, sums/products over a vector's coordinates expanded
    (``Sum(..., (i, 1, d))`` with ``d`` a number), ``v[k]`` replaced by the ``k``-th coordinate (1-based)."""
    vectors = {n: v for n, v in point.items() if isinstance(v, sp.Tuple)}
    e = sp.sympify(expr).subs({symbols[n]: v for n, v in point.items() if n not in vectors})
    if vectors or e.has(sp.Sum, sp.Product):
        e = e.doit()
    for n, vals in vectors.items():
        base = symbols[n]

        def coord(ix, vals=vals):
            k = ix.indices[0]
            if not (k.is_integer and 1 <= k <= len(vals)):
                raise NotCertifiable(f"coordinate {k} outside 1..{len(vals)}")
            return vals[int(k) - 1]

        e = e.replace(lambda x, base=base: isinstance(x, sp.Indexed) and x.base == base, coord)
    return e


def arb_value(expr, point: dict, symbols: dict, bits: int = 400):
    """The Arb ball of ``expr`` at ``point`` (name -> exact SymPy rational)."""
    return arb_closed(substitute_point(expr, point, symbols), bits)


def certify_different(a_expr, b_expr, point, symbols):
    """Return a sentence proving ``a != b`` at ``point`` with disjoint balls, or ``None``."""
    try:
        a, b = arb_value(a_expr, point, symbols), arb_value(b_expr, point, symbols)
    except (NotCertifiable, ValueError, ZeroDivisionError):
        return None
    if not a.overlaps(b):
        return f"Arb balls at 400 bits are disjoint: {a.str(12, radius=True)} vs {b.str(12, radius=True)}"
    return None


def certify_less(a_expr, b_expr, point, symbols):
    """Return a sentence proving ``a < b`` at ``point``, or ``None``."""
    try:
        a, b = arb_value(a_expr, point, symbols), arb_value(b_expr, point, symbols)
    except (NotCertifiable, ValueError, ZeroDivisionError):
        return None
    if bool(a < b):
        return f"Arb balls at 400 bits: {a.str(12, radius=True)} < {b.str(12, radius=True)}"
    return None


# -- lower bounds on a restricted supremum from one feasible h (CBDP's alpha-divergence) ---------------
def _arb_of(x):
    """An exact Arb number from a SymPy rational / integer / int (a certificate never rounds its inputs)."""
    x = sp.Rational(sp.nsimplify(x)) if not isinstance(x, sp.Basic) else sp.sympify(x)
    if not x.is_Rational:
        raise NotCertifiable(f"{x} is not an exact rational")
    return _arb(x)


def _power_piece(a, b, A, l, r, dens):
    """``int_l^r |a x + b|^A dens(x) dx`` (Arb), ``a x + b`` of one sign on ``[l, r]``, ``dens`` analytic there."""
    acb = flint.acb
    mid = (l + r) / 2
    s = 1 if bool(a * mid + b > 0) else -1

    def f(z, analytic):
        w = s * (a * z + b)
        return w.pow(acb(A), analytic=analytic) * dens(z)

    return acb.integral(f, l, r, rel_tol=flint.arb(2) ** (-(flint.ctx.prec - 20))).real


def power_mean_upper(Q, a, b, alpha, bits: int = 160):
    """A certified ball containing ``E_Q|a x + b|^A``, ``A = alpha/(alpha - 1)``, for a one-dimensional
    Laplace or Normal ``Q`` with rational parameters and rational ``a, b``.

    The integral over ``[mu - R, mu + R]`` is done by Arb's rigorous integration (``acb.integral``) split at
    the kink ``mu`` of a Laplace density and at the zero of ``h``; each tail beyond ``R`` is enclosed by
    ``|a x + b| <= 2|a| |x - mu|`` (valid for ``|x - mu| >= |a mu + b|/|a|``) and an upper incomplete Gamma
    function.  Returns an Arb ball (its upper end bounds the expectation).
    """
    if flint is None:
        raise NotCertifiable("python-flint is not installed")
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        arb, acb = flint.arb, flint.acb
        al = _arb_of(alpha)
        A = al / (al - 1)
        a_, b_ = _arb_of(a), _arb_of(b)
        mu = _arb_of(Q.loc)
        if a_ == 0:
            return abs(b_) ** A
        if isinstance(Q, Laplace):
            beta = _arb_of(Q.scale)

            mu_c, beta_c = acb(mu), acb(beta)  # constants of the integrand, built once

            def dens_side(side):
                return lambda z: (-(side * (z - mu_c)) / beta_c).exp() / (2 * beta_c)

            width = beta
        elif isinstance(Q, Normal):
            sd = _arb_of(Q.std)
            norm = 1 / (sd * (2 * arb.pi()).sqrt())

            mu_c, two_var, norm_c = acb(mu), 2 * acb(sd) ** 2, acb(norm)  # built once

            def dens_side(side):
                return lambda z: (-((z - mu_c) ** 2) / two_var).exp() * norm_c

            width = sd
        else:
            raise NotCertifiable(f"no certified expectation against {type(Q).__name__}")
        z0 = -b_ / a_
        # the truncation radius, exact: beyond it |a x + b| <= 2 |a| |x - mu|, and the tails are negligible
        ra, rb, rmu = (sp.Rational(sp.sympify(t)) for t in (a, b, Q.loc))
        rw = sp.Rational(sp.sympify(Q.scale if isinstance(Q, Laplace) else Q.std))
        steps = sp.ceiling(abs(ra * rmu + rb) / abs(ra) / rw) + (300 if isinstance(Q, Laplace) else 40)
        R = _arb(steps * rw)
        pts = [mu - R, mu, mu + R]
        if bool(z0 > mu - R) and bool(z0 < mu + R) and not bool(z0 == mu):
            pts.append(z0)
        pts.sort(key=lambda p: float(p.mid()))
        total = arb(0)
        for l, r in zip(pts[:-1], pts[1:]):
            side = 1 if bool((l + r) / 2 > mu) else -1
            total += _power_piece(a_, b_, A, l, r, dens_side(side))
        # tails: (2|a|)^A times int_R^oo u^A q(mu + u) du, on each side
        if isinstance(Q, Laplace):
            tail = (beta ** A / 2) * (R / beta).gamma_upper(A + 1)  # Gamma(A + 1, R/beta)
        else:
            tail = sd ** A * 2 ** ((A - 1) / 2) / (2 * arb.pi()).sqrt() * (R**2 / (2 * sd**2)).gamma_upper((A + 1) / 2)
        bound = 2 * (2 * abs(a_)) ** A * tail
        return total + arb(0, bound.upper())  # widen the ball upwards by the tails' enclosure
    finally:
        flint.ctx.prec = old


def lin_renyi_lower(P, Q, alpha, a, b, bits: int = 160):
    """A certified lower bound (Arb ball) on ``D^lin_{R,alpha}(P, Q)`` from the one function ``h = a x + b``:
    ``A log E_P[h] - log E_Q|h|^A`` (needs ``E_P[h] > 0``; ``P`` a Laplace or Normal law, mean = location)."""
    if flint is None:
        raise NotCertifiable("python-flint is not installed")
    M = power_mean_upper(Q, a, b, alpha, bits)
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        al = _arb_of(alpha)
        A = al / (al - 1)
        L = _arb_of(a) * _arb_of(P.loc) + _arb_of(b)
        if not bool(L > 0):
            raise NotCertifiable("E_P[h] must be positive")
        Mup = flint.arb(M.upper())
        return A * L.log() - Mup.log()
    finally:
        flint.ctx.prec = old


def certify_above_bound(claimed_expr, point, symbols, lower_ball):
    """A sentence proving ``claimed < quantity`` from a certified lower bound ``lower_ball`` on the quantity."""
    try:
        c = arb_value(claimed_expr, point, symbols, bits=160)
    except (NotCertifiable, ValueError, ZeroDivisionError):
        return None
    if bool(c < lower_ball):
        return (f"Arb: the printed bound is {c.str(12, radius=True)} and a feasible h certifies the quantity "
                f">= {lower_ball.str(12, radius=True)}")
    return None
