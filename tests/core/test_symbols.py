"""Tests of :mod:`cbdp_sym.core.symbols`: the papers' parameters and the assumptions that decide roots and kinks."""
import sympy as sp

import cbdp_sym.core.symbols as S


def test_scales_and_orders_are_positive_locations_and_slopes_real():
    for sym in (S.eps, S.sigma, S.sigma1, S.sigma2, S.alpha, S.lam):
        assert sym.is_positive, sym
        assert sp.sqrt(sym**2) == sym  # the assumption is what lets SymPy drop the |.|
    for sym in (S.mu1, S.mu2, S.a, S.b, S.s):
        assert sym.is_real and sym.is_positive is None, sym
        assert sp.sqrt(sym**2) == sp.Abs(sym)


def test_names_are_distinct_and_match_the_printed_parameters():
    syms = [S.eps, S.sigma, S.sigma1, S.sigma2, S.mu1, S.mu2, S.alpha, S.lam, S.a, S.b, S.s]
    assert len({x.name for x in syms}) == len(syms)
    assert S.eps.name == "epsilon" and S.lam.name == "lam"
    # a symbol with the same name but other assumptions is a different symbol: claims must use these
    assert sp.Symbol("epsilon") != S.eps and sp.Symbol("epsilon", positive=True) == S.eps
