"""Ball-arithmetic certificates for refuted upper bounds on the (lin, Rényi) divergence of shifted noise.

A supremum is bounded below by any feasible function: the solver's maximiser ``h = a x + b``, rounded to
rationals, is one, and :func:`cbdp_sym.calculus.certify.lin_renyi_lower` bounds its objective below in Arb.  When the
printed bound's ball lies below that, the violation is proved.  :func:`lin_renyi_certificate` makes the
``certify`` hook of a claim from the noise family and the scale; it certifies one-dimensional points (a shift
``v`` with one coordinate, or no ``v``) and returns ``None`` elsewhere (the caller then says "not certified").
"""
from __future__ import annotations

import mpmath as mp
import sympy as sp

from cbdp_sym.calculus.certify import NotCertifiable, certify_above_bound, lin_renyi_lower
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.restricted.linpower import SolverFailure, lin_renyi, shift_laws


def _rational(x, digits: int = 25) -> sp.Rational:
    return sp.Rational(mp.nstr(x, digits, min_fixed=-mp.inf, max_fixed=mp.inf))


def lin_renyi_certificate(family: str, scale_of, claimed, symbols: dict):
    """A ``certify(point)`` hook for an upper bound ``claimed()`` on ``D^lin_{R,alpha}(P, Q)`` with ``P`` the
    centred ``family`` noise (``lap``: scale; ``gau``: standard deviation ``scale_of(point)``) and ``Q`` shifted by
    the point's ``v`` (1 without one).  ``symbols`` maps parameter names to the claim's symbols."""

    def certify(pt):
        v = pt.get("v")
        if v is not None and len(v) != 1:
            return None  # d > 1: the product solver's maximiser has no Arb lower bound here
        shift = v[0] if v is not None else sp.Integer(1)
        try:
            P, Q = shift_laws(family, scale_of(pt), (shift,))
            with mp.workdps(30):
                rec = lin_renyi(P, Q, pt["alpha"])
            low = lin_renyi_lower(P, Q, pt["alpha"], _rational(rec["a"][0]), _rational(rec["b"]))
        except (NotCertifiable, SolverFailure, ParameterError, ZeroDivisionError):
            return None
        return certify_above_bound(claimed(), pt, {k: symbols[k] for k in pt}, low)

    return certify
