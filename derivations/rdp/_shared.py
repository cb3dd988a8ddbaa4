"""Helpers shared by the modules of Mironov's RDP paper (the registry skips files starting with ``_``).

Labels of instances and points are prose with ``$...$`` mathematics; two closed forms that SymPy cannot show
equal are compared at exact points (their values at the working precision), never by a boolean typed here.
"""
import mpmath as mp
import sympy as sp

from cbdp_sym import Compare, describe, sample, to_mpf


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
