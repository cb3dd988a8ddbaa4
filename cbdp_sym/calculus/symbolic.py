"""Symbolic calculus with the steps recorded on the tape.

* :func:`integrate_split` splits the real line at every kink of the integrand (every zero of an
  ``Abs`` argument), resolves each ``Abs`` by its sign on the piece, integrates piece by piece, and
  records the convergence condition of each infinite piece (the domain where the result is finite).
* :func:`maximize` solves the stationarity equation, keeps the roots inside the domain where the
  objective is finite, checks the second-order condition and evaluates the maximum.
* :func:`decide_positive` decides the sign of an expression under the symbols' assumptions, falling
  back to sampling the parameters' domain (and saying so) when SymPy cannot prove it.
"""
from __future__ import annotations

import mpmath as mp
import sympy as sp

import cbdp_sym.core.symcache as symcache
from cbdp_sym.core.errors import DerivationError
from cbdp_sym.core.printing import latex
from cbdp_sym.core.tape import Tex, record
from cbdp_sym.core.timelimit import time_limit

oo = sp.oo


def simplify(expr, seconds: float = 30, what: str = "simplify"):
    """``sympy.simplify`` under a time limit (through :mod:`cbdp_sym.core.symcache`: a tree simplified before, in any
    claim, is read back)."""
    with time_limit(seconds, what):
        return symcache.simplify(expr)


def find_kinks(expr, var) -> list:
    """Zeros of every ``Abs``/``sign`` argument of ``expr`` that depends on ``var``."""
    kinks = []
    for atom in sorted(expr.atoms(sp.Abs, sp.sign), key=sp.default_sort_key):
        arg = atom.args[0]
        if not arg.has(var):
            continue
        with time_limit(20, "solving for a kink"):
            sols = sp.solve(sp.Eq(arg, 0), var)
        for s in sols:
            if s.is_real is not False and s not in kinks:
                kinks.append(s)
    return kinks


def order_points(points, samples=None) -> list:
    """Sort symbolic points; raise :class:`DerivationError` when their order cannot be decided."""
    unique = []
    for p in points:
        if not any(sp.simplify(p - q) == 0 for q in unique):
            unique.append(p)

    def less(p, q):
        d = sp.simplify(q - p)
        if d.is_positive:
            return True
        if d.is_negative:
            return False
        raise DerivationError(f"cannot order the kinks {p} and {q}: add an assumption")

    import functools

    return sorted(unique, key=functools.cmp_to_key(lambda p, q: -1 if less(p, q) else 1))


def _midpoint(lo, hi):
    if lo == -oo and hi == oo:
        return sp.Integer(0)
    if lo == -oo:
        return hi - 1
    if hi == oo:
        return lo + 1
    return (lo + hi) / 2


def resolve_abs(expr, var, lo, hi):
    """Replace each ``Abs(u)`` by ``u`` or ``-u`` according to the sign of ``u`` on ``(lo, hi)``."""
    mid = _midpoint(lo, hi)

    def fix(u):
        if not u.has(var):
            return sp.Abs(u)
        val = sp.simplify(u.subs(var, mid))
        if val.is_positive:
            return u
        if val.is_negative:
            return -u
        raise DerivationError(f"cannot decide the sign of {u} on ({lo}, {hi})")

    def fix_sign(u):
        if not u.has(var):
            return sp.sign(u)
        val = sp.simplify(u.subs(var, mid))
        if val.is_positive:
            return sp.Integer(1)
        if val.is_negative:
            return sp.Integer(-1)
        raise DerivationError(f"cannot decide the sign of {u} on ({lo}, {hi})")

    return expr.replace(sp.Abs, fix).replace(sp.sign, fix_sign)


def split_at_kinks(expr, var, lo=-oo, hi=oo, extra_kinks=()):
    """Pieces ``(l, r, expr_without_abs)`` of ``expr`` between consecutive kinks inside ``(lo, hi)``."""
    kinks = find_kinks(expr, var) + list(extra_kinks)
    inner = []
    for k in kinks:
        inside_lo = lo == -oo or sp.simplify(k - lo).is_positive
        inside_hi = hi == oo or sp.simplify(hi - k).is_positive
        if inside_lo and inside_hi:
            inner.append(k)
    pts = [lo] + order_points(inner) + [hi]
    return [(l, r, resolve_abs(expr, var, l, r)) for l, r in zip(pts[:-1], pts[1:])]


def _term_rate(term, var, direction):
    expo = sp.Integer(0)
    for factor in sp.Mul.make_args(term):
        if isinstance(factor, sp.exp):
            expo += factor.args[0]
        elif factor.is_Pow and factor.base == sp.E:
            expo += factor.exp
        elif factor.has(var) and not (factor.is_polynomial(var) or factor.is_rational_function(var)):
            raise DerivationError(f"cannot read the tail of {factor} as {var} -> {direction}")
    if not expo.has(var):
        raise DerivationError(f"the integrand term {term} has no exponential decay as {var} -> {direction}")
    with time_limit(20, "tail rate"):
        return symcache.limit(expo / var, var, direction)


def _tail_conditions(piece, var, direction):
    """Conditions for ``piece`` to be integrable at ``direction``: every exponential term must decay."""
    terms = sp.Add.make_args(sp.expand(sp.powsimp(sp.expand_power_exp(piece)), power_exp=False))
    conds = []
    for term in terms:
        rate = _term_rate(sp.powsimp(term), var, direction)
        cond = sp.Lt(rate, 0) if direction == oo else sp.Gt(rate, 0)
        if cond is sp.false:
            raise DerivationError(f"the integral of {piece} diverges as {var} -> {direction}")
        if cond is not sp.true and cond not in conds:
            conds.append(cond)
    return conds


def _gaussian_by_antiderivative(piece, var, lo, hi) -> bool:
    """Whether ``piece`` over ``(lo, hi)`` is a Gaussian integral over a half-line (one end infinite, one finite), or
    over the whole line with no parameter left (a numeric instance: there SymPy's Meijer-G route spends seconds in
    evaluating its conditions, 3.3 s for the KL integrand of ``N(1, 1)`` against ``N(0, 1)``, and returns a form that
    ``simplify`` leaves as ``3/4 - erf(sqrt(2)/2)/4 - erfc(sqrt(2)/2)/4``, where the antiderivative gives ``1/2`` in
    0.5 s; with parameters the antiderivative is the slower route), and an ``exp`` of a polynomial of degree 2 in
    ``var`` in the integrand."""
    if (lo == -oo) == (hi == oo) and not (lo == -oo and hi == oo and piece.free_symbols <= {var}):
        return False
    for e in piece.atoms(sp.exp):
        arg = sp.expand(e.args[0])
        if arg.has(var) and arg.is_polynomial(var) and sp.degree(arg, var) == 2:
            return True
    return False


def _integrate_piece(piece, var, lo, hi):
    """SymPy's definite integral of one piece.  A Gaussian integral over a half-line (or over the line, without
    parameters: :func:`_gaussian_by_antiderivative`) goes first by the antiderivative
    (``meijerg=False``: the error function, then the limit at the end; about 0.5 s where SymPy's default Meijer-G route
    takes 1-2.5 s and returns a longer form that ``simplify`` then shortens to the same), expanded into its terms
    first; if that leaves an integral or an infinity, or fails, the default route, as for every other piece."""
    if _gaussian_by_antiderivative(piece, var, lo, hi):
        # first term by term: the piece expanded into exponentials of polynomials (the terms whose decay
        # _tail_conditions checked), each an error function; a product such as q (p/q - 1) left as it is sends SymPy
        # to its heuristic Risch search (10 s for a total variation of two Gaussians, 0.2 s term by term)
        terms = [sp.powsimp(t) for t in
                 sp.Add.make_args(sp.expand(sp.powsimp(sp.expand_power_exp(piece)), power_exp=False))]
        for form in ([sp.Add(*terms)] if len(terms) > 1 else []) + [piece]:
            try:
                val = symcache.integrate(form, (var, lo, hi), conds="none", meijerg=False)
                if not val.has(sp.Integral) and not val.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
                    return val
            except (ValueError, TypeError, NotImplementedError, ZeroDivisionError):
                pass
    return symcache.integrate(piece, (var, lo, hi), conds="none")


def integrate_split(integrand, var, lo=-oo, hi=oo, *, lhs=None, note=None, extra_kinks=(), seconds=60):
    """Integrate over ``(lo, hi)`` splitting at every kink; returns ``(value, conditions)``.

    ``conditions`` are the relations under which every infinite piece converges (the domain where
    the value is finite).  Each piece and the sum are recorded on the tape.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> integrate_split(sp.exp(-sp.Abs(x)) / 2, x)
    (1, [])
    """
    pieces = split_at_kinks(integrand, var, lo, hi, extra_kinks)
    if lhs is not None:
        record(lhs, sp.Integral(integrand, (var, lo, hi)), note or "definition")
        if len(pieces) > 1:
            record(Tex(""), sp.Add(*[sp.Integral(p, (var, l, r)) for l, r, p in pieces], evaluate=False),
                   f"split at the kinks {', '.join(latex(k) for k in [l for l, _, _ in pieces[1:]])}")
    conditions = []
    values = []
    for l, r, piece in pieces:
        for end, direction in ((l, -oo), (r, oo)):
            if end != direction:
                continue
            for cond in _tail_conditions(piece, var, direction):
                if cond not in conditions:
                    conditions.append(cond)
        with time_limit(seconds, f"integrating {piece}"):
            val = _integrate_piece(piece, var, l, r)
        if val.has(sp.Integral):
            raise DerivationError(f"SymPy could not integrate {piece} over ({l}, {r})")
        val = simplify(val, seconds, "simplifying a piece")
        if len(pieces) > 1:
            record(sp.Integral(piece, (var, l, r)), val, f"integral over $({latex(l)}, {latex(r)})$")
        values.append(val)
    total = simplify(sp.Add(*values), seconds, "simplifying the sum of the pieces")
    if lhs is not None:
        record(lhs, total, "sum of the pieces" if len(pieces) > 1 else "integration")
    return total, conditions


def decide_positive(expr, samples=(), seconds: float = 20):
    """Decide ``expr > 0``: returns ``(answer, how)`` with ``how`` saying what decided it.

    SymPy's assumptions first; then, for one free symbol, ``solve_univariate_inequality`` over the
    symbol's assumed domain; finally sampling at ``samples`` (dicts symbol -> value), which is
    reported as such.
    """
    expr = sp.sympify(expr)
    try:
        with time_limit(seconds, "deciding a sign"):
            e = symcache.simplify(expr)
            if e.is_positive:
                return True, "proved by SymPy"
            if e.is_nonpositive:
                return False, "proved by SymPy"
            free = sorted(e.free_symbols, key=str)
            if len(free) == 1:
                (s,) = free
                domain = sp.Interval.open(0, oo) if s.is_positive else sp.S.Reals
                holds = sp.solve_univariate_inequality(e > 0, s, relational=False)
                if domain.is_subset(holds):
                    return True, f"proved for all ${latex(s)}$ in the domain"
                if holds.intersect(domain) is sp.S.EmptySet:
                    return False, f"proved for all ${latex(s)}$ in the domain"
    except Exception:  # noqa: BLE001 - any SymPy failure falls back to sampling
        pass
    if not samples:
        raise DerivationError(f"cannot decide the sign of {expr}")
    answers = set()
    with mp.workdps(30):
        for point in samples:
            v = sp.N(expr.subs(point), 30)
            if not v.is_real:
                raise DerivationError(f"{expr} is not real at {point}")
            answers.add(bool(v > 0))
    if len(answers) != 1:
        raise DerivationError(f"the sign of {expr} changes across the parameter domain")
    return answers.pop(), f"checked at {len(samples)} parameter points"


def maximize(objective, var, lo=-oo, hi=oo, *, samples=(), name=None, seconds=60):
    """Maximise ``objective`` over ``var`` in ``(lo, hi)`` by stationarity; returns ``(argmax, value)``.

    Records: the objective, its derivative, the stationarity equation (as a polynomial equation when
    the derivative is rational in ``var``), the roots, the admissible root with the reason, the
    second-order check and the value.
    """
    name = name or Tex(r"J(" + latex(var) + ")")
    record(name, objective, f"objective on ${latex(lo)} < {latex(var)} < {latex(hi)}$")
    with time_limit(seconds, "differentiating"):
        d1 = sp.diff(objective, var)
    record(Tex(r"\frac{\partial J}{\partial " + latex(var) + "}"), d1, "derivative")
    with time_limit(seconds, "stationarity"):
        num, _den = sp.fraction(sp.together(d1))
        num = sp.expand(num)
        equation = num
        if num.is_polynomial(var):
            poly = sp.Poly(num, var)
            lc = poly.LC()
            if lc.is_number or (lc.is_positive or lc.is_negative):
                equation = sp.expand(num / lc) if lc.is_number else sp.expand(num / lc)
        record(equation, sp.Integer(0), "stationarity: numerator of the derivative set to zero")
        roots = symcache.solve(sp.Eq(equation, 0), var)
    if not roots:
        raise DerivationError(f"no stationary point of {objective} in {var}")
    roots = [symcache.simplify(r) for r in roots]
    record(Tex(latex(var)), sp.FiniteSet(*roots) if len(roots) > 1 else roots[0],
           "roots of the stationarity equation")
    admissible = []
    for r in roots:
        ok = True
        reasons = []
        if r.is_real is False:
            ok = False
            reasons.append("not real")
        if ok and lo != -oo:
            above, how = decide_positive(r - lo, samples, seconds)
            ok &= above
            reasons.append(f"{'>' if above else 'not >'} ${latex(lo)}$ ({how})")
        if ok and hi != oo:
            below, how = decide_positive(hi - r, samples, seconds)
            ok &= below
            reasons.append(f"{'<' if below else 'not <'} ${latex(hi)}$ ({how})")
        if ok:
            admissible.append((r, "; ".join(reasons) or "in the domain"))
        else:
            record(Tex(latex(var)), r, "rejected root: " + "; ".join(reasons), rel=r"\ne")
    if len(admissible) != 1:
        raise DerivationError(f"{len(admissible)} admissible roots for {var} (expected one)")
    root, why = admissible[0]
    record(Tex(latex(var) + "^*"), root, "admissible root: " + why)
    with time_limit(seconds, "second-order check"):
        d2 = sp.diff(objective, var, 2).subs(var, root)
    concave, how = decide_positive(-d2, samples, seconds)
    if not concave:
        raise DerivationError(f"the stationary point {root} is not a maximum")
    record(Tex(r"\frac{\partial^2 J}{\partial " + latex(var) + "^2}"), sp.Integer(0),
           f"second-order condition at the root ({how})", rel="<")
    value = simplify(objective.subs(var, root), seconds, "value at the optimum")
    record(name.__class__(name.latex.replace("(" + latex(var) + ")", "(" + latex(var) + "^*)"))
           if isinstance(name, Tex) else name, value, "value at the admissible root")
    return root, value
