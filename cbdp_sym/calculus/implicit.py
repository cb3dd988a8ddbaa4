"""Implicit quantities: a claim side defined as the root (or the extremum) of a function of one variable.

``Implicit.root(g, var, (lo, hi))`` is a SymPy expression (an :class:`ImplicitRoot`) that stands for
the unique root of ``g(var) = 0`` in the bracket ``(lo, hi)``; ``g`` may contain the claim's other
parameters.  It is usable wherever a closed form is: as the value of a claim's ``derive`` (the audit
evaluates it at each parameter point with ``evalf``, which solves the equation at the requested
precision), in LaTeX (``\\operatorname{root}``), and in ball arithmetic (:func:`certify_root`: the
bracket is narrowed to a few ulps and Arb proves that ``g`` changes sign across it).

``Implicit.root_mp(fn, (lo, hi))`` is the numeric counterpart for a claim's ``numeric`` side: the
root of an mpmath function, bracketed (bisection to 15 digits, then the Illinois method, which keeps
the bracket, to the working precision).  ``Implicit.argmax(g, var, (lo, hi))`` is an extremum in one
variable, written as the root of ``g'``.

>>> import sympy as sp
>>> x, c = sp.symbols("x c", positive=True)
>>> r = Implicit.root(x**2 - c, x, (0, c + 1))
>>> sp.N(r.subs(c, 2), 30)
1.41421356237309504880168872421
>>> import mpmath as mp
>>> with mp.workdps(30):
...     mp.nstr(Implicit.root_mp(lambda t: t**2 - 2, (0, 2)), 30)
'1.41421356237309504880168872421'
"""
from __future__ import annotations

import functools

import mpmath as mp
import sympy as sp

from cbdp_sym.laws.distributions import Phi
from cbdp_sym.core.errors import DerivationError, ParameterError
from cbdp_sym.calculus.certify import NotCertifiable, arb_closed


def _mp_modules():
    return [{"Phi": Phi.mp}, "mpmath"]


@functools.lru_cache(maxsize=256)
def _lambda(var, g):
    return sp.lambdify(var, g, modules=_mp_modules())


def _illinois(fn, a, b, fa, fb, rel):
    """Regula falsi with the Illinois modification (keeps a bracket; superlinear), to a relative step ``rel``."""
    side, prev = 0, None
    for _ in range(200):
        c = (a * fb - b * fa) / (fb - fa) if mp.isfinite(fa) and mp.isfinite(fb) and fb != fa else (a + b) / 2
        if not a < c < b:
            c = (a + b) / 2
        fc = fn(c)
        if fc == 0:
            return c
        if (fc > 0) == (fb > 0):
            b, fb = c, fc
            if side == -1:
                fa /= 2
            side = -1
        else:
            a, fa = c, fc
            if side == 1:
                fb /= 2
            side = 1
        if prev is not None and abs(c - prev) <= rel * abs(c) or b - a <= rel * abs(c):
            return c
        prev = c
    return (a + b) / 2  # pragma: no cover


def root_bracketed(fn, lo, hi, *, rough=None, rel=None, flo=None, fhi=None, like_lo=None):
    """The root of ``fn`` in ``[lo, hi]`` where ``fn`` changes sign, at the working precision.

    ``fn`` may return ``+-inf`` (e.g. the log of a profile that vanishes): only its sign is used
    until the bracket is narrow.  Raises :class:`ParameterError` when ``fn`` has the same sign at both
    ends.  Bisection while an end is infinite (at most ``rough`` steps), then the Illinois method to a
    relative step ``rel`` (default: the working precision).  ``flo``, ``fhi``: ``fn(lo)``, ``fn(hi)`` when the caller
    has them already (at the working precision), so they are not computed again.  ``like_lo(x)`` (optional): true
    only where ``fn(x)`` is certainly finite with the sign of ``fn(lo)`` (a cheap estimate with a wide margin); a
    bisection midpoint it vouches for moves ``lo`` without computing ``fn`` there (``fn`` at the last such ``lo`` is
    computed before the Illinois steps), so the steps and the result are those without it.
    """
    a, b = mp.mpf(lo), mp.mpf(hi)
    fa = fn(a) if flo is None else flo
    fb = fn(b) if fhi is None else fhi
    if fa == 0:
        return a
    if fb == 0:
        return b
    if (fa > 0) == (fb > 0):
        raise ParameterError(f"no sign change on the bracket [{mp.nstr(a, 8)}, {mp.nstr(b, 8)}]")
    steps = rough if rough is not None else 200
    pending = False  # fa belongs to an earlier lo: fn at a is not computed (known finite, of fa's sign)
    for _ in range(steps):  # bisection while fn is infinite at an end, and to ~15 digits
        if (pending or mp.isfinite(fa)) and mp.isfinite(fb) and b - a < abs(a + b) * mp.mpf(10) ** -15:
            break
        m = (a + b) / 2
        if like_lo is not None and like_lo(m):
            a, pending = m, True
        else:
            fm = fn(m)
            if fm == 0:
                return m
            if (fm > 0) == (fa > 0):
                a, fa, pending = m, fm, False
            else:
                b, fb = m, fm
        if rough is None and (pending or mp.isfinite(fa)) and mp.isfinite(fb):
            break
    if pending:
        fa = fn(a)
    return _illinois(fn, a, b, fa, fb, mp.mpf(rel) if rel is not None else mp.mpf(2) ** (-mp.mp.prec + 4))


class ImplicitRoot(sp.Function):
    """``root_{var in (lo, hi)} g(var)``: args ``(Lambda(var, g), lo, hi)``; evaluates by solving."""

    nargs = 3

    @property
    def lam(self):
        return self.args[0]

    def _eval_is_real(self):
        return True

    def _eval_evalf(self, prec):
        lam, lo, hi = self.args
        if lam.free_symbols or lo.free_symbols or hi.free_symbols:
            return None
        (var,), g = lam.variables, lam.expr
        fn = _lambda(var, g)
        with mp.workprec(prec + 30):
            r = root_bracketed(fn, sp.N(lo, mp.mp.dps)._to_mpmath(mp.mp.prec), sp.N(hi, mp.mp.dps)._to_mpmath(mp.mp.prec))
            return sp.Float(r, mp.libmp.prec_to_dps(prec) + 5)

    def _latex(self, printer):
        lam, lo, hi = self.args
        (var,) = lam.variables
        return (r"\operatorname{root}_{%s \in (%s, %s)} \left(%s\right)"
                % (printer._print(var), printer._print(lo), printer._print(hi), printer._print(lam.expr)))


class Implicit:
    """Constructors of implicit claim sides (see the module's docstring)."""

    @staticmethod
    def root(g, var, bracket):
        """The root of ``g(var) = 0`` in ``bracket = (lo, hi)`` (``g`` changes sign there), as a SymPy expression."""
        lo, hi = (sp.sympify(b) for b in bracket)
        return ImplicitRoot(sp.Lambda(var, sp.sympify(g)), lo, hi)

    @staticmethod
    def argmax(g, var, bracket):
        """The maximiser of a smooth unimodal ``g`` on ``bracket``: the root of ``g'`` there."""
        return Implicit.root(sp.diff(sp.sympify(g), var), var, bracket)

    @staticmethod
    def root_mp(fn, bracket):
        """The root of an mpmath function ``fn`` in ``bracket`` at the working precision (numeric sides)."""
        return root_bracketed(fn, *bracket)


def certify_root(g, var, approx, *, delta=None, decreasing=None, bits=None):
    """Arb proof that ``g`` (SymPy, no free symbol but ``var``) has a root in a narrow rational bracket
    around ``approx``: returns ``(lo, hi, sentence)`` with exact rationals, or raises
    :class:`DerivationError`.  ``g`` must be continuous on the bracket (intermediate values)."""
    r = sp.Rational(mp.nstr(approx, mp.mp.dps + 5, strip_zeros=False)) if not isinstance(approx, sp.Basic) else approx
    width = delta if delta is not None else sp.Rational(1, 10 ** (mp.mp.dps - 3)) * max(abs(r), sp.Rational(1, 10**6))
    bits = bits or int(mp.mp.prec * 2 + 64)
    lo, hi = r - width, r + width
    try:
        glo = arb_closed(g.subs(var, lo), bits)
        ghi = arb_closed(g.subs(var, hi), bits)
    except (NotCertifiable, ValueError, ZeroDivisionError, TypeError) as exc:
        raise DerivationError(f"no ball arithmetic for the root's function: {exc}") from None
    if (bool(glo > 0) and bool(ghi < 0)) or (bool(glo < 0) and bool(ghi > 0)):
        with mp.workdps(12):
            sent = (f"Arb at {bits} bits: g({mp.nstr(mp.mpf(lo.p) / lo.q, 12)} - ...) = {glo.str(6, radius=False)} and "
                    f"g(... + {mp.nstr(mp.mpf(width.p) / width.q, 3)}) = {ghi.str(6, radius=False)} have opposite signs: "
                    f"the root lies in a bracket of half-width {mp.nstr(mp.mpf(width.p) / width.q, 3)}")
        return lo, hi, sent
    raise DerivationError("the Arb balls at the bracket's ends do not certify a sign change")
