"""Helpers shared by the modules of Mironov's RDP paper (the registry skips files starting with ``_``).

Labels of instances and points are prose with ``$...$`` mathematics; two closed forms that SymPy cannot show
equal are compared at exact points (their values at the working precision), never by a boolean typed here.
"""
import mpmath as mp
import sympy as sp

from cbdp_sym import Compare, sample
from cbdp_sym.calculus import to_mpf
from cbdp_sym.families import describe


def order_tex(a) -> str:
    """An order of a grid as LaTeX.

    >>> order_tex("inf"), order_tex("3/2"), order_tex("1.01")
    ('\\\\infty', '3/2', '1.01')
    """
    if isinstance(a, str):
        return r"\infty" if a == "inf" else a
    return r"\infty" if a == mp.inf else mp.nstr(a, 6)


def law_tex(P, digits: int = 4) -> str:
    """A finite law's probabilities, rounded for display, as mathematics."""
    return "$" + describe(P, digits) + "$"


def pair_label(i: int, P, Q, digits: int = 4) -> str:
    """The label of the ``i``-th random pair: ``#i: $P = (...)$, $Q = (...)$``."""
    return f"#{i}: $P = {describe(P, digits)}$, $Q = {describe(Q, digits)}$"


def forms_at(claimed, computed, points, *, what: str = "", domain: str = ""):
    """Two closed forms compared at exact points (each evaluated at the working precision): the evidence for an
    identity of derived expressions that SymPy cannot simplify to 0.

    >>> from cbdp_sym.verify.evidence import collect, decide
    >>> x = sp.Symbol("x", positive=True)
    >>> ev = forms_at(sp.log(x**2), 2 * sp.log(x), [{x: sp.Rational(1, 3)}, {x: 5}])
    >>> decide(collect(ev, 30), 30).status.value
    'verified'
    """
    def one(pt):
        return Compare(claimed=to_mpf(sp.sympify(claimed).subs(pt)), computed=to_mpf(sp.sympify(computed).subs(pt)),
                       at={str(k): v for k, v in pt.items()})

    return sample(domain or f"{len(points)} exact points", points, one, what=what)


def certified_chain(links, exprs, at: dict, **kw):
    """:func:`~cbdp_sym.Chain` of ``links`` at ``at`` whose comparisons carry the members' exact closed forms (``exprs``:
    one SymPy number per link, the point already substituted), so that the engine certifies a failing link in Arb.

    >>> from cbdp_sym import Link
    >>> ch = certified_chain([Link("1", lambda at: mp.mpf(1)), Link("2", lambda at: mp.mpf(2), "<")],
    ...                      [sp.Integer(1), sp.Integer(2)], {"x": 1})
    >>> ch.parts[0].closed[:2]
    (1, 2)
    """
    from cbdp_sym import Chain

    ch = Chain(links, at, **kw)
    for k, part in enumerate(ch.parts):
        part.closed = (exprs[k], exprs[k + 1], {}, [])
    return ch


def check_statement(check, form):
    """A check claim's statement (or corrected statement) usable two ways: ``fn(dps)`` is the check itself (its
    evidence, audited by the engine), ``fn()`` the statement's SymPy form, which
    :func:`~cbdp_sym.printed_or_corrected` reads when a claim that uses this one is audited against it.

    >>> fn = check_statement(lambda dps: f"evidence at {dps}", lambda: sp.Integer(2))
    >>> fn(20), fn()
    ('evidence at 20', 2)
    """
    def fn(dps=None):
        return form() if dps is None else check(dps)

    fn.__qualname__ = getattr(check, "__qualname__", "check")
    return fn


def certify_min_above(increasing, decreasing, bound, lo, hi, pieces: int = 64, depth: int = 12, bits: int = 200):
    """An Arb proof that ``increasing(t) + decreasing(t) > bound`` for every ``t`` in ``[lo, hi]`` and that
    ``increasing(t) > bound`` for every ``t >= hi`` (so the infimum over ``t >= lo`` exceeds ``bound``): on each
    piece ``[a, b]`` of a partition (bisected where needed) the sum is at least ``increasing(a) + decreasing(b)``.
    ``increasing``, ``decreasing``: functions of an Arb ball (non-decreasing and non-increasing in ``t``); ``bound``,
    ``lo``, ``hi``: a closed form and exact rationals.  Returns a sentence, or None when not proved (or python-flint is missing).
    Hand-written (a monotone bracketing on a partition): no library offers it.

    >>> certify_min_above(lambda t: t, lambda t: 1 / t, sp.Rational(19, 10), sp.Rational(1, 10), 2)  # t + 1/t >= 2
    'Arb at 200 bits: the sum exceeds the bound on 64 pieces of [1/10, 2] and the increasing term alone from t = 2 on'
    >>> certify_min_above(lambda t: t, lambda t: 1 / t, sp.Rational(21, 10), sp.Rational(1, 10), 3) is None
    True
    """
    from cbdp_sym.certify import NotCertifiable, arb_closed, arb_precision

    lo_r, hi_r = sp.Rational(lo), sp.Rational(hi)
    try:
        with arb_precision(bits):
            b = arb_closed(sp.sympify(bound), bits)
            if not bool(increasing(arb_closed(hi_r, bits)) > b):
                return None
            stack = [(lo_r + (hi_r - lo_r) * k / pieces, lo_r + (hi_r - lo_r) * (k + 1) / pieces, 0)
                     for k in range(pieces)]
            count = 0
            while stack:
                a, c, d = stack.pop()
                if bool(increasing(arb_closed(a, bits)) + decreasing(arb_closed(c, bits)) > b):
                    count += 1
                    continue
                if d >= depth:
                    return None
                # refine the partition where the bracketing is too coarse (not a search: every piece is kept)
                stack += [(a + (c - a) * j / 2, a + (c - a) * (j + 1) / 2, d + 1) for j in range(2)]
    except NotCertifiable:
        return None
    return (f"Arb at {bits} bits: the sum exceeds the bound on {count} pieces of [{lo_r}, {hi_r}] and the increasing "
            f"term alone from t = {hi_r} on")


# -- half-line masses ---------------------------------------------------------------------------------
_HALF_LINE: dict = {}  # (law, t, precision) -> the half-line's mass, this process


def half_line_mass(L, t):
    """``L((-oo, t])`` by quadrature of the density, split at its kinks below ``t``; remembered in this process by the
    law, ``t`` and the working precision (RDP-BAD and RDP-T1-1 ask for the same half-lines of each mechanism at every
    order, RDP-P3-PROOF and RDP-P10 for those of each pair at several orders and deltas)."""
    key = (type(L).__name__, repr(L), repr(t), mp.mp.prec)
    if key not in _HALF_LINE:
        tt = mp.mpf(t)
        ks = sorted(x for x in L.mp_breaks() if x < tt)
        _HALF_LINE[key] = mp.quad(L.mp_pdf, [-mp.inf] + ks + [tt])
    return _HALF_LINE[key]
