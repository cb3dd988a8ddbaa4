"""Mechanisms as pairs of output laws on two neighbouring inputs, and their Rényi curves.

A mechanism's privacy on a pair of neighbouring inputs is a statement about two laws ``(P, Q)``:
``P`` the output law on ``D``, ``Q`` the output law on ``D'``.  This module builds those pairs for
the basic mechanisms and derives their Rényi curves with the engine (no paper knowledge here).

Conventions (each factory's docstring repeats its own):

* :func:`randomized_response` ``(p)``: Mironov's ``RR_p`` outputs the true bit with probability ``p``.
  ``P`` is its law when the true bit is 1, ``Q`` when it is 0: ``P = Finite([0, 1], [1 - p, p])``,
  ``Q = Finite([0, 1], [p, 1 - p])``.  (dp_accounting's ``RandomizedResponseDpEvent`` with 2 buckets
  and ``noise_parameter = 2 (1 - p)`` under ``REPLACE_ONE`` is the same pair for ``p >= 1/2``; see
  :mod:`cbdp_sym.divergences.peers`.)
* :func:`laplace_mechanism` ``(scale, shift)``: ``P = Laplace(0, scale)``, ``Q = Laplace(shift, scale)``;
  Mironov's ``Lambda(mu, lambda)`` has scale ``lambda``, so ``L_lambda f`` at sensitivity 1 is
  ``laplace_mechanism(lam, 1)``.
* :func:`gaussian_mechanism` ``(std, shift)``: ``P = Normal(0, std)``, ``Q = Normal(shift, std)``;
  ``N(mu, sigma^2)`` takes the variance, ``Normal`` the standard deviation.

Derivations (steps on the tape): :func:`renyi_curve` (the engine's :func:`renyi_divergence`, the
integral then rewritten as a sum of exponentials), :func:`limit_alpha` (``alpha -> 1`` and
``alpha -> oo``), :func:`max_divergence` (``sup_x log p/q`` from the densities, split at the kinks).

Numerics from the definitions: :func:`renyi_numeric` (the engine's quadrature / sums with the
precision managed near ``alpha = 1``).

>>> import sympy as sp
>>> p = sp.Symbol("p", positive=True)
>>> P, Q = randomized_response(sp.Rational(3, 4))
>>> P.probs, Q.probs
((1/4, 3/4), (3/4, 1/4))
"""
from __future__ import annotations

import math

import mpmath as mp
import sympy as sp

from cbdp_sym.calculus.symbolic import split_at_kinks
from cbdp_sym.laws.distributions import X, Finite, Laplace, Normal, Distribution
from cbdp_sym.divergences.fdiv import renyi_divergence
from cbdp_sym.divergences.generators import ALPHA
import cbdp_sym.core.symcache as symcache
from cbdp_sym.core.errors import DerivationError, ParameterError
from cbdp_sym.core.printing import latex
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.core.numbers import to_mpf
from cbdp_sym.divergences.numeric import _mp_joint, renyi_mp
from cbdp_sym.divergences.lattice_numeric import involves_lattice, renyi_lattice
from cbdp_sym.divergences.lattice_symbolic import lattice_max_divergence

__all__ = ["randomized_response", "laplace_mechanism", "gaussian_mechanism", "renyi_curve", "limit_alpha",
           "max_divergence", "renyi_numeric", "tidy_exp_sum", "sensitivity_shift", "same_value", "curve_function"]


# -- the pairs -------------------------------------------------------------------------------------
def randomized_response(p):
    """Mironov's ``RR_p`` on a predicate: ``(P, Q)`` = (output law when the truth is 1, when it is 0).

    ``p`` is the probability of reporting the truth (any value in ``[0, 1]``; ``p = 1/2`` is pure
    noise).  Points: 0 and 1.  ``P = (1 - p, p)``, ``Q = (p, 1 - p)``.
    """
    p = sp.sympify(p) if not isinstance(p, mp.mpf) else p
    if not isinstance(p, mp.mpf) and p.is_number and not (0 <= p <= 1):
        raise ParameterError(f"randomized response needs 0 <= p <= 1, got p = {p}")
    one = mp.mpf(1) if isinstance(p, mp.mpf) else sp.Integer(1)
    return Finite([0, 1], [one - p, p]), Finite([0, 1], [p, one - p])


def laplace_mechanism(scale, shift=1):
    """``(Laplace(0, scale), Laplace(shift, scale))``: additive Laplace noise of scale ``scale`` on a
    query whose values on the two inputs differ by ``shift`` (the sensitivity at the worst pair)."""
    return Laplace(0, scale), Laplace(shift, scale)


def gaussian_mechanism(std, shift=1):
    """``(Normal(0, std), Normal(shift, std))``: additive Gaussian noise of standard deviation ``std``
    (variance ``std**2``, the papers' ``N(0, sigma^2)`` with ``sigma = std``)."""
    return Normal(0, std), Normal(shift, std)


def sensitivity_shift(value, sensitivity=1):
    """Validate a shift ``|f(D) - f(D')| <= sensitivity`` (exact numbers); returns it."""
    v = sp.sympify(value)
    if v.is_number and abs(v) > sp.sympify(sensitivity):
        raise ParameterError(f"the shift {v} exceeds the sensitivity {sensitivity}")
    return v


# -- derivations -----------------------------------------------------------------------------------
def tidy_exp_sum(expr):
    """Write an expression as ``sum_k c_k exp(a_k)`` with like exponentials collected and each
    coefficient and exponent factored (a presentation step: the value does not change).

    >>> a, l = sp.symbols("alpha lam", positive=True)
    >>> tidy_exp_sum(sp.exp(a / l) * sp.exp(-1 / l) * a + sp.exp((a - 1) / l))
    (alpha + 1)*exp((alpha - 1)/lam)
    """
    e = sp.expand(expr)
    groups: dict = {}
    for t in sp.Add.make_args(e):
        t = sp.powsimp(sp.factor(t), combine="exp", force=True)
        c, ex = sp.S.One, sp.S.Zero
        for f in sp.Mul.make_args(t):
            if isinstance(f, sp.exp):
                ex += f.args[0]
            elif f.is_Pow and isinstance(f.base, sp.exp):
                ex += f.base.args[0] * f.exp
            else:
                c *= f
        ex = sp.factor(sp.expand(ex))
        groups[ex] = groups.get(ex, 0) + c
    items = sorted(groups.items(), key=lambda kv: sp.default_sort_key(kv[0]))
    return sp.Add(*[sp.factor(c) * sp.exp(ex) for ex, c in items])


def renyi_curve(P, Q, alpha=ALPHA, lhs=None):
    """Derive ``D_alpha(P || Q)`` for ``alpha > 1`` (a symbol or a number) with the engine.

    The engine's :func:`~cbdp_sym.divergences.fdiv.renyi_divergence` integrates ``p^alpha q^(1 - alpha)``
    split at the kinks (finite laws: sums) and records each piece; when the integral is a sum of
    exponentials (Laplace laws) it is rewritten as such, so that the curve reads
    ``log(sum_k c_k e^{a_k}) / (alpha - 1)`` (recorded as a separate step).
    """
    value, _conds = renyi_divergence(P, Q, alpha, lhs=lhs)
    al = sp.sympify(alpha)
    with time_limit(60, "rewriting the Renyi integral"):
        integral = symcache.simplify(sp.expand(sp.powsimp(sp.expand_log(sp.exp((al - 1) * value), force=True), force=True)))
    if integral.has(sp.exp) and len(sp.Add.make_args(sp.expand(integral))) > 1:
        tidy = tidy_exp_sum(integral)
        with time_limit(60, "checking the rewriting"):
            same = symcache.simplify(sp.expand(tidy - integral)) == 0 or symcache.simplify(tidy - integral) == 0
        if not same:
            raise DerivationError("the rewritten Renyi integral differs from the engine's")
        value = sp.log(tidy) / (al - 1)
        record(lhs or Tex(r"D_\alpha(P \| Q)"), value,
               "the integral $\\int p^\\alpha q^{1-\\alpha}$ written as a sum of exponentials (like terms collected)")
    return value


def limit_alpha(curve, alpha=ALPHA, to=1, lhs=None, seconds=60):
    """``lim_{alpha -> to} curve`` (``to`` is 1 or ``oo``) by SymPy's ``limit``, recorded on the tape.

    At ``alpha = 1`` the curve is the indeterminate form ``log(G(alpha))/(alpha - 1)`` with
    ``G(1) = 1``: the limit is ``G'(1)`` (L'Hopital), which SymPy finds by series expansion.
    """
    to = sp.sympify(to)
    with time_limit(seconds, f"limit alpha -> {to}"):
        val = symcache.limit(curve, alpha, to, "+" if to != sp.oo else "-")
        if val.has(sp.Limit):
            raise DerivationError(f"SymPy could not take the limit alpha -> {to}")
        val = symcache.simplify(val)
    note = ("limit $\\alpha \\to 1^+$ of the curve (a $0/0$ form: L'Hôpital / series in $\\alpha - 1$)" if to == 1
            else "limit $\\alpha \\to \\infty$ of the curve (the dominant exponential)")
    record(lhs or Tex(r"\lim_{\alpha \to %s} D_\alpha(P \| Q)" % ("1" if to == 1 else r"\infty")), val, note)
    return val


def max_divergence(P: Distribution, Q: Distribution, lhs=None):
    """Derive ``D_oo(P || Q) = sup_x log p(x)/q(x)`` from the densities (finite laws: a maximum over
    the support of P).

    Laws with densities: the log-density ratio is split at its kinks; on each piece it must be affine
    in ``x`` (Laplace and equal-variance Gaussian pairs): the supremum over the piece is the larger
    end value, or ``+oo`` if the ratio grows without bound towards an infinite end.  Signs of slopes
    are decided by SymPy under the symbols' assumptions.

    Returns ``(value, conditions)`` like :func:`~cbdp_sym.divergences.fdiv.f_divergence` and
    :func:`~cbdp_sym.divergences.fdiv.renyi_divergence`; ``conditions`` is empty (an unbounded ratio gives the value
    ``oo``, never a condition).

    >>> from cbdp_sym.laws.distributions import Laplace
    >>> max_divergence(Laplace(0, 1), Laplace(1, 1))
    (1, [])
    """
    if involves_lattice(P, Q):  # laws on the integers: the supremum over k (lattice_symbolic)
        return lattice_max_divergence(P, Q, lhs), []
    name = lhs or Tex(r"D_\infty(P \| Q)")
    if isinstance(P, Finite) and isinstance(Q, Finite):
        cands = []
        for x, p in P.pmf():
            qx = sp.Add(*[q for y, q in Q.pmf() if sp.simplify(x - y) == 0])
            if p == 0:
                continue
            if qx == 0:
                record(name, sp.oo, f"$P$ has mass at ${latex(x)}$ where $Q$ has none")
                return sp.oo, []
            cands.append(sp.log(p / qx))
        val = sp.Max(*cands)
        record(name, val, "maximum of $\\log P(x)/Q(x)$ over the support of $P$")
        return val, []
    L = sp.expand(P.log_pdf() - Q.log_pdf())
    record(Tex(r"\log\frac{p(x)}{q(x)}"), L, "log-density ratio")
    cands = []
    for lo, hi, piece in split_at_kinks(L, X):
        slope = sp.simplify(sp.diff(piece, X))
        if slope.has(X):
            raise DerivationError(f"the log-density ratio {piece} is not affine on ({lo}, {hi})")
        if lo == -sp.oo and hi == sp.oo and slope.is_zero is False:
            record(name, sp.oo, f"the log-density ratio is affine with slope ${latex(slope)} \\ne 0$ on all of "
                   "$\\mathbb{R}$: it grows without bound at one end")
            return sp.oo, []
        for end, direction in ((lo, -1), (hi, 1)):
            if end in (sp.oo, -sp.oo):
                if slope == 0:
                    cands.append(sp.simplify(piece))
                    continue
                grows = (slope * direction).is_positive
                if grows is None:
                    raise DerivationError(f"cannot decide the sign of the slope {slope}")
                if grows:
                    record(name, sp.oo, f"the log-density ratio has slope ${latex(slope)}$ and grows without bound "
                           f"as $x \\to {latex(end)}$")
                    return sp.oo, []
            else:
                cands.append(sp.simplify(piece.subs(X, end)))
    val = sp.simplify(sp.Max(*cands))
    record(name, val, "supremum of the piecewise affine log-ratio: the largest value at the ends of the pieces")
    return val, []


# -- numerics ----------------------------------------------------------------------------------------
def renyi_numeric(P, Q, alpha):
    """``D_alpha(P || Q)`` from the definition at the working precision (quadrature / sums).

    ``alpha`` may be 1 (the KL integral), ``mp.inf`` (``sup log p/q``) or any ``alpha > 1``.
    Branches and why they exist:

    * ``alpha > 1``: ``log(int p^alpha q^(1-alpha)) / (alpha - 1)`` takes the logarithm of
      ``1 + x`` with ``x = (alpha - 1) D_alpha``; when ``x`` is small (``alpha`` near 1, or nearly equal
      laws) about ``-log10(x)`` digits cancel.  ``x`` is first estimated at 20 digits (more if the
      estimate is not resolved) and the integral is then computed with that many extra digits, so the
      result keeps the working precision: the domain is never shrunk.
    * ``alpha = 1``: the KL integral ``int p log(p/q)`` integrates a log-ratio of size up to ``s`` (its
      largest magnitude at the laws' breakpoints) to a result ``D``; ``log10(s/D)`` digits cancel and are
      added the same way.
    * large ``alpha`` (``10^6``): the engine's quadrature scales the integrand by its maximum (log
      space), so nothing overflows; no extra digits are needed.
    """

    al = alpha if isinstance(alpha, mp.mpf) else (mp.mpf(alpha) if isinstance(alpha, float) else to_mpf(alpha))
    if involves_lattice(P, Q):  # sums over the integers: they recover their own cancellation
        return renyi_lattice(P, Q, al)
    if al == mp.inf:
        return renyi_mp(P, Q, al)
    if not al >= 1:
        raise ParameterError(f"the Renyi divergence needs alpha >= 1, got {alpha}")
    target = mp.mp.dps
    scale = mp.mpf(1)
    if al == 1:  # the size of the log-ratio that the KL integral averages
        with mp.workdps(20):
            if P.atomic:
                scale = max(abs(mp.log(pp / qq)) for _x, pp, qq in _joint(P, Q) if pp > 0 and qq > 0)
            else:
                scale = max(abs(P.mp_log_pdf(t) - Q.mp_log_pdf(t)) for t in P.mp_breaks())
        if scale == 0:
            return mp.mpf(0)
    base = 0 if al == 1 else max(0, int(math.ceil(-float(mp.log10(al - 1)))))
    est, d, x = None, 20, mp.mpf(1)
    while d <= 20 * target + 400:
        with mp.workdps(d + base):
            est = renyi_mp(P, Q, +al)
            x = abs(est / scale if al == 1 else (al - 1) * est)
        if x == 0 or x > mp.mpf(10) ** (-(d - 8)):
            break
        d *= 3
    if est == 0:
        return mp.mpf(0)
    extra = max(0, int(math.ceil(-float(mp.log10(x))))) + 5 if x < 1 else 0
    if extra == 0:
        return renyi_mp(P, Q, al)
    with mp.workdps(target + extra):
        return +renyi_mp(P, Q, al)


def _joint(P, Q):
    return _mp_joint(P, Q)


def same_value(a, b, samples, seconds=30):
    """Decide ``a == b`` for two derived expressions: SymPy (``simplify`` after expanding logarithms),
    else numerically at 40 digits at the sample points (dicts symbol -> exact value).  Returns
    ``(equal, how)``; ``how`` says which way decided it (for the tape)."""
    try:
        with time_limit(seconds, "comparing two derivations"):
            d = sp.simplify(sp.expand_log(sp.expand(a - b), force=True))
            if d == 0:
                return True, "SymPy: the difference simplifies to 0"
    except DerivationError:
        pass
    if not samples:
        return False, "no sample points"
    with mp.workdps(40):
        for pt in samples:
            x, y = sp.N(a.subs(pt), 40), sp.N(b.subs(pt), 40)
            if abs(x - y) > sp.Float(10) ** -35 * max(1, abs(x), abs(y)):
                return False, f"they differ at {pt}"
    return True, f"equal to 35 digits at {len(samples)} sample points (SymPy could not simplify the difference)"


def curve_function(curve, args, module="mpmath"):
    """A numeric function of ``args`` (symbols, ``alpha`` among them) for a derived Rényi curve, evaluated
    without overflow at large orders.

    A curve of the form ``log(T_1 + ... + T_m) / g`` (what :func:`renyi_curve` derives for finite and
    Laplace laws) is evaluated as ``logsumexp(log T_1, ..., log T_m) / g`` with each ``log T_k`` expanded
    by SymPy (``p^alpha (1-p)^(1-alpha)`` becomes ``alpha log p + (1 - alpha) log(1 - p)``); other curves
    (the Gaussian's ``alpha mu^2 / (2 sigma^2)``) are lambdified as they are.  ``module`` is "mpmath"
    (working precision) or "math" (binary64, for long sweeps).
    """
    num, den = sp.fraction(sp.together(curve))
    logs = None
    if isinstance(num, sp.log) and isinstance(num.args[0], sp.Add):
        logs = [sp.expand_log(sp.log(t), force=True) for t in sp.Add.make_args(num.args[0])]
    if logs is None:
        return sp.lambdify(args, curve, modules=module)
    fl = sp.lambdify(args, logs, modules=module)
    fd = sp.lambdify(args, den, modules=module)
    if module == "math":
        import math as _m

        def f(*a):
            ls = fl(*a)
            top = max(ls)
            return (top + _m.log(sum(_m.exp(v - top) for v in ls))) / fd(*a)
        return f

    def g(*a):
        ls = fl(*a)
        top = max(ls)
        return (top + mp.log(mp.fsum(mp.exp(v - top) for v in ls))) / fd(*a)
    return g
