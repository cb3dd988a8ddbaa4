"""Derivations for laws on the integers, with the steps recorded on the tape: expectations, Rényi divergences,
f-divergences (KL, the alpha-divergence, TV, the hockey stick), the max-divergence and privacy profiles.

Sums over the integers are closed where the engine or SymPy can close them (:func:`close_sum`):

* a sum over all of ``Z`` of ``exp`` of a quadratic in ``k``: the square is completed, ``a (k - h)^2 + c``, and when
  the centre ``h`` is an integer the index is shifted, ``k -> j + h`` (a sum over ``Z`` is invariant), so that the sum
  becomes the normaliser of a law centred at 0 and cancels against it;
* a geometric series ``sum exp(beta k + gamma)`` over a half-line or a range (the sign of ``beta`` decided under the
  symbols' assumptions), and ``k^m`` times one (the series differentiated ``m`` times in ``beta``);
* a summand with ``|k - c|``: split at the kink (``floor(c)``) into ranges where the sign is fixed;
* anything else is handed to SymPy's ``Sum.doit`` (exponential series, binomial theorem), under a time limit;
  a sum nobody closes stays a :class:`cbdp_sym.laws.discrete.LatticeSum`, which evaluates with tail bounds.

:func:`poisson_summation` rewrites ``sum_{j in Z} f(j)`` as ``sum_{n in Z} f^(n)`` with ``f^`` SymPy's Fourier
transform (``int f(x) e^{-2 pi i x xi} dx``): for the discrete Gaussian's moments this gives the dual series, in which
``Var[N_Z(0, sigma^2)] = sigma^2 - 4 pi^2 sigma^4 sum n^2 e^{-2 pi^2 sigma^2 n^2} / sum e^{-2 pi^2 sigma^2 n^2}``.

>>> import sympy as sp
>>> from cbdp_sym.laws.discrete import DiscreteGaussian
>>> s = sp.Symbol("sigma", positive=True)
>>> a = sp.Symbol("alpha", integer=True, positive=True)
>>> lattice_renyi_divergence(DiscreteGaussian(0, s), DiscreteGaussian(1, s), a)[0]
alpha/(2*sigma**2)
"""
from __future__ import annotations

import functools

import mpmath as mp
import sympy as sp

from cbdp_sym.core.errors import DerivationError
from cbdp_sym.core.numbers import evalf_checked
from cbdp_sym.core.printing import latex
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.divergences.generators import ALPHA, _ALPHA_GENERATORS
from cbdp_sym.laws.discrete import J, K, LatticeLaw, LatticeMixture, LatticeSum
from cbdp_sym.laws.distributions import Finite

__all__ = ["mp_callable", "close_sum", "lattice_expect", "lattice_renyi_divergence", "lattice_f_divergence", "lattice_max_divergence",
           "lattice_profile_sym", "poisson_summation", "poisson_dual", "split_sum", "tidy"]

oo = sp.oo


# -- simplification that keeps the lattice sums ------------------------------------------------------------------
def _hold(expr):
    """``(expr with each sum replaced by a positive placeholder, the map back)``: SymPy's rewriting then never
    enters a sum (nor turns a :class:`LatticeSum` into a plain ``Sum``, which evaluates no more)."""
    expr = sp.sympify(expr)
    sums = sorted(expr.atoms(sp.Sum), key=sp.default_sort_key)
    holders = {s: sp.Dummy(f"S{i}", positive=True) for i, s in enumerate(sums)}
    back = {h: (s if isinstance(s, LatticeSum) else LatticeSum(s.function, *s.limits)) for s, h in holders.items()}
    return expr.xreplace(holders), back


def tidy(expr, seconds=30):
    """``simplify`` with every sum held as a placeholder (:func:`_hold`), logarithms expanded, and the exponential
    form kept unless SymPy's simplified one is shorter and free of hyperbolic functions."""
    e, back = _hold(expr)
    with time_limit(seconds, "simplifying a derived sum"):
        e = sp.expand_log(sp.powsimp(sp.expand_log(e, force=True), force=True), force=True)
        light = sp.factor(sp.cancel(e))
        heavy = sp.simplify(e)
        # SymPy's simplify likes hyperbolic functions (1/tanh(1/(2t)) for (1 + e^{-1/t})/(1 - e^{-1/t})): keep the
        # exponential form unless the simplified one is shorter and free of them
        hyper = (sp.sinh, sp.cosh, sp.tanh, sp.coth)
        e = heavy if not heavy.has(*hyper) and sp.count_ops(heavy) < sp.count_ops(light) else light
    return e.xreplace(back)


def _split_log(law: LatticeLaw, k):
    """``(E(k), c)`` with ``log P(k) = E(k) + c``: the part that depends on ``k`` and the normalising constant."""
    lp = sp.expand(sp.expand_log(law.log_pmf(k), force=True))
    dep, const = [], []
    for t in sp.Add.make_args(lp):
        (dep if t.has(k) else const).append(t)
    return sp.Add(*dep), sp.Add(*const)


# -- closing sums ------------------------------------------------------------------------------------------------
def _lim(v):
    return sp.sympify(v)


def _decide(cond) -> bool | None:
    c = sp.sympify(cond)
    if c in (sp.true, sp.false):
        return bool(c)
    return None


def _kinks(expr, k):
    out = []
    for a in sorted(expr.atoms(sp.Abs), key=sp.default_sort_key):
        u = a.args[0]
        if not u.has(k):
            continue
        P = sp.Poly(sp.expand(u), k)
        if P.degree() != 1:
            raise DerivationError(f"|{u}| is not linear in the index")
        c = -P.all_coeffs()[1] / P.all_coeffs()[0]
        out.append(sp.floor(c) if not sp.sympify(c).is_integer else sp.sympify(c))
    uniq = []
    for c in out:
        if not any(sp.simplify(c - d) == 0 for d in uniq):
            uniq.append(c)
    return uniq


def _order(points):
    try:
        return sorted(points, key=lambda p: float(p) if p.is_number else 0.0) if all(p.is_number for p in points) \
            else _symbolic_order(points)
    except TypeError:  # pragma: no cover
        return _symbolic_order(points)


def _symbolic_order(points):
    def cmp(p, q):
        d = sp.simplify(q - p)
        if d.is_positive:
            return -1
        if d.is_negative:
            return 1
        if d == 0:
            return 0
        raise DerivationError(f"cannot order the kinks {p} and {q}: add an assumption")

    return sorted(points, key=functools.cmp_to_key(cmp))


def _ranges(lo, hi, kinks):
    """Integer ranges ``[lo, r_1], [r_1 + 1, r_2], ..., [r_m + 1, hi]`` for the kinks ``r_i`` (integers: the floors
    of the kink points) inside ``[lo, hi]``."""
    inner = []
    for r in kinks:
        if (lo == -oo or _decide(r >= lo) is not False) and (hi == oo or _decide(r < hi) is not False):
            inner.append(r)
    inner = _order(inner)
    out, start = [], lo
    for r in inner:
        out.append((start, r))
        start = r + 1
    out.append((start, hi))
    return out


def _side(rep, c):
    """``-1`` if the integer ``rep`` is ``<= c``, ``+1`` if ``> c`` (``None``: undecided)."""
    fl = c if sp.sympify(c).is_integer else sp.floor(c)
    if sp.simplify(rep - fl) == 0:
        return -1
    if sp.simplify(rep - fl - 1) == 0:
        return 1
    d = _decide(rep <= c)
    if d is None:
        d2 = sp.simplify(rep - c)
        d = True if d2.is_nonpositive else (False if d2.is_positive else None)
    return None if d is None else (-1 if d else 1)


def _fix_abs(expr, k, lo, hi):
    """``expr`` with each ``|u|`` (``u = A k + B`` linear in ``k``) resolved by its sign on the integer range
    ``[lo, hi]``, which lies on one side of the kink ``c = -B/A`` (the ranges come from :func:`_ranges`)."""
    rep = lo if lo != -oo else hi
    if rep in (oo, -oo):
        raise DerivationError("a kink on a range without ends")

    def fix(u):
        if not u.has(k):
            return sp.Abs(u)
        A, B = sp.Poly(sp.expand(u), k).all_coeffs()
        side = _side(rep, -B / A)
        sa = sp.sign(A)
        if side is None or sa not in (1, -1):
            raise DerivationError(f"cannot decide the sign of {u} on [{lo}, {hi}]")
        return sa * side * u

    return expr.replace(sp.Abs, fix)


def split_sum(summand, k, lo=-oo, hi=oo):
    """``[(lo_i, hi_i, summand_i)]``: the summand with its ``|k - c|`` resolved on integer ranges between the kinks."""
    ks = _kinks(summand, k)
    if not ks:
        return [(lo, hi, summand)]
    return [(a, b, _fix_abs(summand, k, a, b)) for a, b in _ranges(lo, hi, ks)]


def _exp_parts(summand, k):
    """``(poly, E, C)`` with ``summand = poly(k) * exp(E(k)) * C`` (``poly`` a polynomial in ``k``, ``C`` free of
    ``k``), or ``None``."""
    f = sp.powsimp(sp.expand_power_base(sp.sympify(summand), force=True), force=True)
    poly, E, C = sp.Integer(1), sp.Integer(0), sp.Integer(1)
    for fac in sp.Mul.make_args(f):
        if not fac.has(k):
            C *= fac
        elif isinstance(fac, sp.exp):
            E += fac.args[0]
        elif fac.is_Pow and not fac.base.has(k):
            E += fac.exp * sp.log(fac.base)
        elif fac.is_polynomial(k):
            poly *= fac
        else:
            return None
    E = sp.expand(E)
    dep = sp.Add(*[t for t in sp.Add.make_args(E) if t.has(k)])
    C *= sp.exp(E - dep)
    return poly, dep, C


def _geometric(poly, beta, gamma, k, lo, hi, note_lhs):
    """``sum_{k = lo}^{hi} poly(k) e^{beta k + gamma}`` in closed form (the geometric series, differentiated for the
    powers of ``k``); ``None`` when the sign of ``beta`` needed for convergence is not decided."""
    b = sp.Dummy("b")
    if lo != -oo and hi != oo:
        base = (sp.exp(b * (hi + 1)) - sp.exp(b * lo)) / (sp.exp(b) - 1)
        how = "finite geometric series"
    elif hi == oo and lo != -oo:
        if _decide(beta < 0) is not True and sp.sympify(beta).is_negative is not True:
            return None
        base = sp.exp(b * lo) / (1 - sp.exp(b))
        how = r"geometric series $\sum_{k \ge m} e^{\beta k} = e^{\beta m}/(1 - e^{\beta})$, $\beta = " + latex(beta) + " < 0$"
    elif lo == -oo and hi != oo:
        if _decide(beta > 0) is not True and sp.sympify(beta).is_positive is not True:
            return None
        base = sp.exp(b * hi) / (1 - sp.exp(-b))
        how = r"geometric series $\sum_{k \le m} e^{\beta k} = e^{\beta m}/(1 - e^{-\beta})$, $\beta = " + latex(beta) + " > 0$"
    else:
        return None
    P = sp.Poly(sp.expand(poly), k)
    total = sp.Integer(0)
    for (m,), c in P.terms():
        total += c * sp.diff(base, b, m)
    val = (total.subs(b, beta) * sp.exp(gamma))
    if P.degree() > 0:
        how += f", differentiated in $\\beta$ for the powers of $k$ (up to {P.degree()})"
    record(note_lhs, val, how)
    return val


def _square(poly, E, C, k, note_lhs):
    """``sum_{k in Z} exp(a k^2 + b k)`` (``poly`` = 1): completed square, integer shift, canonical normaliser form."""
    if poly != 1:
        return None
    P = sp.Poly(E, k)
    if P.degree() != 2:
        return None
    a, b, c0 = P.all_coeffs()
    if _decide(a < 0) is not True and sp.sympify(a).is_negative is not True:
        return None
    h = sp.simplify(-b / (2 * a))
    rest = sp.simplify(c0 - b**2 / (4 * a))
    record(note_lhs, C * sp.exp(rest) * sp.Sum(sp.exp(a * (k - h) ** 2), (k, -oo, oo)),
           f"completing the square in the exponent: centre ${latex(h)}$")
    if sp.sympify(h).is_integer:
        s = LatticeSum(sp.exp(a * J**2), (J, -oo, oo))
        record(note_lhs, C * sp.exp(rest) * s,
               f"index shift $k = j + {latex(h)}$: the centre is an integer and a sum over $\\mathbb{{Z}}$ is invariant")
        return C * sp.exp(rest) * s
    hi_ = sp.simplify(h - sp.floor(h)) if h.is_number else h
    s = LatticeSum(sp.exp(a * (J - hi_) ** 2), (J, -oo, oo))
    return C * sp.exp(rest) * s


def close_sum(summand, k=K, lo=-oo, hi=oo, lhs=None):
    """``sum_{k = lo}^{hi} summand`` closed where the engine or SymPy can (see the module docstring), else a
    :class:`LatticeSum`; the steps are recorded.

    >>> t = sp.Symbol("t", positive=True)
    >>> close_sum(sp.exp(-sp.Abs(K) / t))
    (exp(1/t) + 1)/(exp(1/t) - 1)
    """
    lhs = lhs or Tex(r"\sum_k")
    summand = sp.sympify(summand)
    lo, hi = _lim(lo), _lim(hi)
    if not summand.has(k):
        if lo == -oo or hi == oo:
            if summand == 0:
                return sp.Integer(0)
            raise DerivationError("a constant summed over an infinite range diverges")
        return summand * (hi - lo + 1)
    terms = sp.Add.make_args(summand)
    if len(terms) > 1:
        record(lhs, sp.Add(*[sp.Sum(t, (k, lo, hi)) for t in terms]), "linearity of the sum")
        return tidy(sp.Add(*[close_sum(t, k, lo, hi, lhs=lhs) for t in terms]))
    pieces = split_sum(summand, k, lo, hi)
    if len(pieces) > 1:
        record(lhs, sp.Add(*[sp.Sum(f, (k, a, b)) for a, b, f in pieces]),
               "the sum split where the absolute values change sign")
        total = sp.Add(*[close_sum(f, k, a, b, lhs=Tex(r"\sum_{k=%s}^{%s}" % (latex(a), latex(b)))) for a, b, f in pieces])
        return tidy(total)
    summand = pieces[0][2]
    parts = _exp_parts(summand, k)
    if parts is not None:
        poly, E, C = parts
        try:
            PE = sp.Poly(E, k) if E != 0 else None
        except sp.PolynomialError:
            PE = None
        if PE is not None and PE.degree() == 1:
            beta, gamma = PE.all_coeffs()
            val = _geometric(poly, beta, gamma, k, lo, hi, lhs)
            if val is not None:
                return tidy(C * val)
        if PE is not None and PE.degree() == 2 and lo == -oo and hi == oo:
            val = _square(poly, E, C, k, lhs)
            if val is not None:
                return val
    try:
        with time_limit(20, "SymPy's summation"):
            f = _as_powers(summand, k)
            bases = {}  # x^k with a complicated x: summed with x a positive symbol (SymPy recognises e^x, (1 + x)^n)
            for pw in sorted(f.atoms(sp.Pow), key=sp.default_sort_key):
                if pw.exp == k and not pw.base.has(k) and not pw.base.is_Symbol and pw.base.is_positive:
                    bases[pw.base] = sp.Dummy("x", positive=True)
            val = sp.Sum(f.xreplace({b ** k: x ** k for b, x in bases.items()}), (k, lo, hi)).doit()
            val = val.xreplace({x: b for b, x in bases.items()})
        if not val.has(sp.Sum) and not val.has(sp.Piecewise):
            val = tidy(val)
            record(lhs, val, "closed by SymPy's summation (exponential series, binomial theorem, ...)")
            return val
    except (DerivationError, NotImplementedError, ValueError, TypeError):
        pass
    c, dep = summand.as_independent(k, as_Add=False)
    out = c * LatticeSum(dep.subs(k, J), (J, lo, hi))
    record(lhs, out, "no closed form: kept as a sum over the integers (evaluated with analytic tail bounds)")
    return out


def _as_powers(summand, k):
    """``exp(beta k + gamma)`` written ``e^gamma (e^beta)^k`` with ``e^beta`` tidied (so that SymPy's summation sees
    ``x^k / k!`` or ``x^k``)."""
    def fix(e):
        E = sp.expand(e.args[0])
        dep = sp.Add(*[t for t in sp.Add.make_args(E) if t.has(k)])
        try:
            P = sp.Poly(dep, k)
        except sp.PolynomialError:
            return e
        if P.degree() != 1:
            return e
        beta = P.all_coeffs()[0]
        base = sp.powsimp(sp.expand_power_exp(sp.exp(sp.expand_log(beta, force=True))), force=True)
        return sp.exp(E - dep) * base**k

    return sp.powsimp(sp.sympify(summand), combine="exp").replace(lambda e: isinstance(e, sp.exp) and e.has(k), fix)


def mp_callable(expr, var=None):
    """A numeric function (mpf -> mpf, at the working precision) of a closed form that holds sums over the integers:
    the argument substituted exactly (an mpf is a binary rational), then ``evalf`` (each :class:`LatticeSum` sums
    with its tail bound).  What ``lambdify`` cannot do for a sum with an infinite range."""
    e = sp.sympify(expr)

    def f(*xs):
        sub = {} if var is None else {var: sp.Float._new(mp.mpf(xs[0])._mpf_, mp.mp.prec)}
        v = evalf_checked(e, mp.mp.dps + 10, sub) if sub else evalf_checked(e, mp.mp.dps + 10)
        if not v.is_number or not v.is_real:
            raise DerivationError(f"the closed form does not evaluate to a real number: {v}")
        return mp.mpf(v._to_mpmath(mp.mp.prec + 20)) if v != 0 else mp.mpf(0)

    return f


# -- Poisson summation ------------------------------------------------------------------------------------------
def poisson_summation(s, lhs=None):
    """``sum_{j in Z} f(j) = sum_{n in Z} f^(n)`` for a :class:`LatticeSum` over all of ``Z`` (``f^`` the Fourier
    transform ``int f(x) e^{-2 pi i x xi} dx``, by SymPy), with the dual sum's summand made real (``f`` real and even
    about an integer gives a real even ``f^``).  Recorded; returns the dual :class:`LatticeSum`.

    >>> sg = sp.Symbol("sigma", positive=True)
    >>> poisson_summation(LatticeSum(sp.exp(-J**2 / (2 * sg**2)), (J, -oo, oo)))
    Sum(sqrt(2)*sqrt(pi)*sigma*exp(-2*pi**2*j**2*sigma**2), (j, -oo, oo))
    """
    if not isinstance(s, sp.Sum) or s.limits[0][1:] != (-oo, oo):
        raise DerivationError("Poisson summation applies to a sum over all of Z")
    var = s.limits[0][0]
    x = sp.Symbol("x", real=True)
    xi = sp.Symbol("xi", real=True)
    f = s.function.subs(var, x)
    with time_limit(60, "the Fourier transform for Poisson summation"):
        F = sp.fourier_transform(f, x, xi)
    if F.has(sp.FourierTransform):
        raise DerivationError(f"SymPy could not take the Fourier transform of {f}")
    F = sp.simplify(F)
    if F.has(sp.I):
        F = sp.simplify(sp.re(sp.expand_complex(F)))
    dual = LatticeSum(F.subs(xi, J), (J, -oo, oo))
    record(lhs or Tex(r"\sum_{j \in \mathbb{Z}} f(j)"), dual,
           r"Poisson summation: $\sum_{j} f(j) = \sum_{n} \hat f(n)$, $\hat f(\xi) = \int f(x) e^{-2\pi i x \xi}\,dx = "
           + latex(F) + "$")
    return dual


def poisson_dual(expr, lhs=None):
    """``expr`` with every sum over all of ``Z`` replaced by its Poisson-summation dual (:func:`poisson_summation`),
    each dual split by linearity into sums of single terms (the factors free of the index pulled out), and the result
    expanded over the sums: for a discrete Gaussian's moments the leading terms cancel exactly, leaving the correction
    as a ratio of fast-converging dual sums.

    >>> from cbdp_sym.laws.discrete import DiscreteGaussian
    >>> sg = sp.Symbol("sigma", positive=True)
    >>> E2 = lattice_expect(DiscreteGaussian(0, sg), K**2)[0]
    >>> poisson_dual(E2 - sg**2)
    -4*pi**2*sigma**4*Sum(j**2*exp(-2*pi**2*j**2*sigma**2), (j, -oo, oo))/Sum(exp(-2*pi**2*j**2*sigma**2), (j, -oo, oo))
    """
    held, back = _hold(expr)
    reps = {}
    for h, s in back.items():
        if s.limits[0][1:] != (-oo, oo):
            continue
        dual = poisson_summation(s, lhs=Tex(latex(s)))
        var = dual.limits[0][0]
        terms = []
        for term in sp.Add.make_args(sp.expand(dual.function)):
            c, dep = term.as_independent(var, as_Add=False)
            terms.append((c, dep))
        reps[h] = terms
    holders2, back2, sub = {}, {}, {}
    for h, terms in reps.items():
        acc = sp.Integer(0)
        for c, dep in terms:
            s = LatticeSum(dep, (J, -oo, oo))
            if s not in holders2:
                holders2[s] = sp.Dummy(f"D{len(holders2)}", positive=True)
                back2[holders2[s]] = s
            acc += c * holders2[s]
        sub[h] = acc
    e = held.xreplace(sub)
    with time_limit(30, "collecting the dual sums"):
        e = sp.expand(sp.cancel(sp.together(e)))
        e = sp.factor_terms(e)
    out = e.xreplace(back2).xreplace({h: s for h, s in back.items() if h not in sub})
    record(lhs or Tex(r"	ext{(dual form)}"), out, "every sum over $\\mathbb{Z}$ replaced by its Poisson-summation dual, "
           "split by linearity; the terms free of dual sums cancel exactly")
    return out


# -- expectations -------------------------------------------------------------------------------------------------
def _shifted(law):
    """The law's centre of symmetry (a SymPy number or expression) or ``None``."""
    c = law.symmetry_center() if isinstance(law, LatticeLaw) else None
    return None if c is None else sp.sympify(c)


def lattice_expect(law, g, lhs=None, var=K):
    """``E_law[g(k)] = sum_k g(k) P(k)``, derived: a polynomial ``g`` about a centre of symmetry loses its odd powers
    (the law is symmetric), the rest is closed by :func:`close_sum`.  Returns ``(value, [])``."""
    name = lhs or Tex(r"\mathbb{E}[g(X)]")
    g = sp.sympify(g)
    if var != K:
        g = g.subs(var, K)
    lo, hi = law.support()
    c = _shifted(law)
    if c is not None and g.is_polynomial(K) and g.has(K):
        u = sp.Dummy("u")
        G = sp.Poly(sp.expand(g.subs(K, u + c)), u)
        kept = [(m, a) for (m,), a in G.terms() if m % 2 == 0]
        if len(kept) < len(G.terms()):
            record(name, Tex(r"\sum_{m\ \mathrm{even}} a_m\, \mathbb{E}[(X - %s)^m]" % latex(c)),
                   f"the law is symmetric about ${latex(c)}$: the odd central moments vanish")
        total = sp.Integer(0)
        for m, a in kept:
            if m == 0:
                total += a
                continue
            s = close_sum(((K - c) ** m) * law.pmf(K), K, lo, hi,
                          lhs=Tex(r"\mathbb{E}[(X - %s)^{%d}]" % (latex(c), m)))
            total += a * s
        value = tidy(total)
        record(name, value, "linearity of expectation")
        return value, []
    record(name, Tex(r"\sum_k g(k) P(k)"), "definition (a sum over the support)")
    value = tidy(close_sum(g * law.pmf(K), K, lo, hi, lhs=name))
    record(name, value, "the sum closed")
    return value, []


# -- divergences -------------------------------------------------------------------------------------------------
def _pure(law):
    if isinstance(law, LatticeMixture):
        raise DerivationError("a mixture's log-pmf does not separate: derive through the binomial expansion "
                              "(cbdp_sym.divergences.subsampling) or evaluate numerically")
    if isinstance(law, Finite):
        raise DerivationError("a finite law against a law on the integers: derive with two finite laws, or numerically")


def _renyi_sum(P, Q, al, lhs):
    """``sum_k P(k)^al Q(k)^(1 - al)``, derived (P's support inside Q's)."""
    _pure(P)
    _pure(Q)
    EP, cP = _split_log(P, K)
    EQ, cQ = _split_log(Q, K)
    E = sp.expand(al * EP + (1 - al) * EQ)
    C = sp.powsimp(sp.exp(sp.expand(al * cP + (1 - al) * cQ)), force=True)
    record(Tex(r"\alpha \log P(k) + (1 - \alpha) \log Q(k)"), E + sp.log(C), "log of the summand")
    lo, hi = P.support()
    s = close_sum(sp.exp(E), K, lo, hi, lhs=Tex(r"\sum_k e^{\alpha \log P(k) + (1-\alpha) \log Q(k)}"))
    return tidy(C * s)


def lattice_renyi_divergence(P, Q, alpha=ALPHA, lhs=None):
    """``D_alpha(P || Q) = log(sum_k P(k)^alpha Q(k)^(1 - alpha)) / (alpha - 1)`` for laws on the integers, derived.
    Returns ``(value, conditions)``."""
    alpha = sp.sympify(alpha)
    name = lhs or Tex(r"D_\alpha(P \| Q)")
    record(name, Tex(r"\frac{1}{\alpha - 1} \log \sum_{k \in \mathbb{Z}} P(k)^\alpha Q(k)^{1-\alpha}"),
           "definition (a sum over the integers)")
    S = _renyi_sum(P, Q, alpha, name)
    value = _log_over(S, alpha - 1)
    record(name, value, "the sum closed, the logarithm divided by $\\alpha - 1$")
    return value, []


def _log_over(S, d):
    """``log(S) / d`` with the logarithm expanded: the part free of sums tidied, each sum kept in its own log."""
    held, back = _hold(S)
    L = sp.expand(sp.expand_log(sp.log(held), force=True))
    hs = set(back)
    plain = sp.Add(*[t for t in sp.Add.make_args(L) if not (t.free_symbols & hs)])
    sums = sp.Add(*[t for t in sp.Add.make_args(L) if t.free_symbols & hs])
    return tidy(plain / d) + (sums.xreplace(back) / d if sums != 0 else 0)


def lattice_f_divergence(gen, P, Q, lhs=None):
    """``D_f(P, Q)`` for laws on the integers: KL (``E_P[log P/Q]``), the alpha-divergence (through the Rényi sum),
    TV and the hockey stick (through the privacy profile).  Returns ``(value, conditions)``."""
    name = lhs or Tex(r"D_f(P, Q)")
    key = gen.key
    if key == "kl":
        _pure(P)
        _pure(Q)
        record(name, Tex(r"\sum_k P(k) \log\frac{P(k)}{Q(k)} = \mathbb{E}_P\left[\log\frac{P(X)}{Q(X)}\right]"),
               "definition of KL (a sum over the integers)")
        L = sp.expand(sp.expand_log(P.log_pmf(K) - Q.log_pmf(K), force=True))
        record(Tex(r"\log\frac{P(k)}{Q(k)}"), L, "log-ratio of the pmfs")
        value, _ = lattice_expect(P, L, lhs=name)
        return tidy(value), []
    if key == "alpha":
        al = gen.params[0] if gen.params else _alpha_of(gen)
        record(name, Tex(r"\frac{\sum_k P(k)^\alpha Q(k)^{1-\alpha} - 1}{\alpha^2 - \alpha}"),
               "the alpha-divergence generator at the pmf ratio ($P, Q > 0$), $\\sum_k Q(k) = 1$")
        S = _renyi_sum(P, Q, al, name)
        value = tidy((S - 1) / (al**2 - al))
        record(name, value, "the sum closed")
        return value, []
    if key in ("tv", "hockey"):
        if key == "tv":
            record(name, Tex(r"\sum_k (P(k) - Q(k))_+"), "TV is the privacy profile at $\\varepsilon = 0$")
            return lattice_profile_sym(P, Q, sp.Integer(0), lhs=name), []
        eps = _hockey_eps(gen)
        return lattice_profile_sym(P, Q, eps, lhs=name), []
    raise DerivationError(f"no derivation for the generator {key!r} on laws on the integers "
                          "(kl, alpha, tv and the hockey stick are derived)")


def _alpha_of(gen):
    """The order of an alpha-divergence generator with a numeric order (one object per order)."""
    for (_tp, a), g in _ALPHA_GENERATORS.items():
        if g is gen:
            return a
    raise DerivationError("cannot read the order off the alpha generator")  # pragma: no cover


def _hockey_eps(gen):
    """``eps`` of the hockey-stick generator ``(t - e^eps)_+``."""
    for a in gen.f.atoms(sp.exp):
        return a.args[0]
    return sp.Integer(0)


def _log_ratio_pieces(P, Q):
    """``[(lo, hi, L(k))]``: the log-ratio ``log P(k)/Q(k)`` on integer ranges where it has no kink."""
    _pure(P)
    _pure(Q)
    lo, hi = P.support()
    L = sp.expand(sp.expand_log(P.log_pmf(K) - Q.log_pmf(K), force=True))
    return split_sum(L, K, lo, hi), L


def lattice_max_divergence(P, Q, lhs=None):
    """``D_inf(P || Q) = sup_k log P(k)/Q(k)``, derived: the log-ratio on each kink-free range is affine (equal-width
    discrete Gaussians, discrete Laplace laws) or quadratic; its supremum over the integers of the range."""
    name = lhs or Tex(r"D_\infty(P \| Q)")
    pieces, L = _log_ratio_pieces(P, Q)
    record(Tex(r"\log\frac{P(k)}{Q(k)}"), L, "log-ratio of the pmfs")
    cands = []
    for a, b, piece in pieces:
        try:
            Pl = sp.Poly(sp.expand(piece), K)
        except sp.PolynomialError:
            raise DerivationError(f"the log-ratio {piece} is not a polynomial in k on [{a}, {b}]") from None
        if Pl.degree() > 2:
            raise DerivationError(f"the log-ratio {piece} has degree {Pl.degree()}")
        if Pl.degree() <= 0:
            cands.append(piece)
            continue
        if Pl.degree() == 1:
            slope = Pl.all_coeffs()[0]
            up = sp.sympify(slope).is_positive
            if up is None:
                raise DerivationError(f"cannot decide the sign of the slope {slope}")
            end = b if up else a
            if end in (oo, -oo):
                record(name, oo, f"the log-ratio has slope ${latex(slope)}$ and grows without bound as $k \\to {latex(end)}$")
                return oo
            cands.append(piece.subs(K, end))
            continue
        lead = Pl.all_coeffs()[0]
        if sp.sympify(lead).is_positive:
            record(name, oo, "the log-ratio is a convex quadratic in $k$: it grows without bound")
            return oo
        v = -Pl.all_coeffs()[1] / (2 * lead)
        for c in (sp.floor(v), sp.ceiling(v)):
            cands.append(piece.subs(K, c))
    val = tidy(sp.Max(*cands)) if len(cands) > 1 else tidy(cands[0])
    record(name, val, "the largest value of the log-ratio over the integers (the ends of its monotone pieces)")
    return val


def lattice_profile_sym(P, Q, eps, lhs=None):
    """``delta_{P,Q}(eps) = sum_k (P(k) - e^eps Q(k))_+``, derived: on each kink-free range the log-ratio is affine
    in ``k`` (or constant), so the set where it exceeds ``eps`` is a range of integers (floors and ceilings of the
    crossing point), and the profile is a difference of sums of the two pmfs over it."""
    name = lhs or Tex(r"\delta_{P,Q}(\varepsilon)")
    eps = sp.sympify(eps)
    record(name, Tex(r"\sum_k \left(P(k) - e^{\varepsilon} Q(k)\right)_+"), "privacy profile of laws on the integers")
    pieces, L = _log_ratio_pieces(P, Q)
    record(Tex(r"\log\frac{P(k)}{Q(k)}"), L, "log-ratio of the pmfs")
    total = sp.Integer(0)
    p, q = P.pmf(K), Q.pmf(K)
    for a, b, piece in pieces:
        piece = sp.expand(piece)
        Pl = sp.Poly(piece, K)
        if Pl.degree() > 1:
            raise DerivationError("the log-ratio is not affine in k: no closed profile here (numerics apply)")
        if a != -oo and b != oo and sp.simplify(b - a) == 0:  # one integer
            v = tidy(piece.subs(K, a))
            total += sp.Piecewise((tidy(p.subs(K, a) - sp.exp(eps) * q.subs(K, a)), v > eps), (0, True))
            continue
        if Pl.degree() <= 0:
            part = close_sum(p - sp.exp(eps) * q, K, a, b, lhs=Tex(r"\sum_{k=%s}^{%s}" % (latex(a), latex(b))))
            total += sp.Piecewise((part, piece > eps), (0, True))
            continue
        slope, L0 = Pl.all_coeffs()
        thr = (eps - L0) / slope
        if sp.sympify(slope).is_negative:  # L > eps  <=>  k < thr
            top = sp.ceiling(thr) - 1
            rng = (a, top if b == oo else sp.Min(b, top))
        elif sp.sympify(slope).is_positive:  # k > thr
            bot = sp.floor(thr) + 1
            rng = (bot if a == -oo else sp.Max(a, bot), b)
        else:
            raise DerivationError(f"cannot decide the sign of the log-ratio's slope {slope}")
        record(Tex(r"\{k : \log\frac{P(k)}{Q(k)} > \varepsilon\}"), Tex(r"\{%s \le k \le %s\}" % (latex(rng[0]), latex(rng[1]))),
               "the log-ratio is monotone in $k$: the set where it exceeds $\\varepsilon$ is a range of integers")
        sp_ = close_sum(p, K, *rng, lhs=Tex(r"P(%s \le X \le %s)" % (latex(rng[0]), latex(rng[1]))))
        sq = close_sum(q, K, *rng, lhs=Tex(r"Q(%s \le X \le %s)" % (latex(rng[0]), latex(rng[1]))))
        total += sp_ - sp.exp(eps) * sq
    value = total if total.has(sp.Sum) else tidy(total)
    record(name, value, "the sums over the range where $P(k) > e^{\\varepsilon} Q(k)$")
    return value

