"""The CBDP paper's (lin, Rényi) proof helpers (derivations/cbdp/_shifted.py, moved from the engine's
cbdp_sym.divergences.shifted in 0.3): Lemma 5's supremum, the conjugate's constants, Theorem 13's chain; and their
old paths, deprecated one release (each old name is the audit's object and warns)."""
import importlib

import mpmath as mp
import pytest
import sympy as sp

import cbdp_sym
from cbdp_sym import alpha_generator
from cbdp_sym.app.registry import builtin_module
from cbdp_sym.calculus import digits, to_mpf
from cbdp_sym.divergences import I_
from cbdp_sym.symbols import alpha

_cb = builtin_module("cbdp", "_shared")  # (the module the registry imports: the audit's objects)
power_sup, conjugate_constants, orthant_chain_bound = _cb.power_sup, _cb.conjugate_constants, _cb.orthant_chain_bound
d = sp.Symbol("d", integer=True, positive=True)
v = sp.IndexedBase("v", real=True)
pytestmark = pytest.mark.xdist_group("cbdp_renyi")


@pytest.mark.parametrize("name", ["power_sup", "conjugate_constants", "orthant_chain_bound"])
def test_the_old_paths_resolve_to_the_audits_object_and_warn(name):
    home = r"it moved into the cbdp paper's folder, derivations/cbdp/_shared\.py"
    for old in ("cbdp_sym.divergences.shifted", "cbdp_sym.divergences"):
        with pytest.warns(DeprecationWarning, match=rf"{old}\.{name} is deprecated: {home}"):
            assert getattr(importlib.import_module(old), name) is getattr(_cb, name)
    with pytest.warns(DeprecationWarning, match=rf"`from cbdp_sym import {name}` is deprecated: {home}"):
        assert getattr(cbdp_sym, name) is getattr(_cb, name)
    assert name not in cbdp_sym.divergences.__all__


def test_lemma5_derived_value_and_argmax():
    X = sp.Symbol("X", positive=True)
    arg, val = power_sup(X, alpha)
    assert sp.simplify(val - (alpha - 1) ** (alpha - 1) / (alpha**alpha * X ** (alpha - 1))) == 0
    assert sp.simplify(arg - (alpha - 1) ** (alpha - 1) / (alpha ** (alpha - 1) * X ** (alpha - 1))) == 0
    with mp.workdps(30):
        al, Xv = mp.mpf(7) / 2, mp.mpf(3)
        A = al / (al - 1)
        t = to_mpf(arg.subs({X: 3, alpha: sp.Rational(7, 2)}))
        f = lambda u: u - Xv * u**A  # noqa: E731
        assert abs(mp.diff(f, t)) < mp.mpf(10) ** -25
        assert f(t) > f(t * (1 + mp.mpf(10) ** -5)) and f(t) > f(t * (1 - mp.mpf(10) ** -5))


def test_conjugate_constants_read_from_the_derived_conjugate():
    A, C, K = conjugate_constants(alpha)
    assert sp.simplify(A - alpha / (alpha - 1)) == 0
    assert sp.simplify(K - 1 / (alpha**2 - alpha)) == 0
    with mp.workdps(30):
        s0 = mp.mpf("0.7")
        num = alpha_generator(sp.Rational(7, 2)).conjugate_sup_mp(s0)
        val = to_mpf(C.subs(alpha, sp.Rational(7, 2))) * s0 ** to_mpf(A.subs(alpha, sp.Rational(7, 2))) \
            + to_mpf(K.subs(alpha, sp.Rational(7, 2)))
    assert digits(num, val) > 25


def test_theorem13_chain_regenerates_printed_result_and_corrected_one():
    K = sp.Symbol("K", positive=True)
    norm = sp.Sum(sp.Abs(v[I_]) ** alpha, (I_, 1, d))
    tot, ren = orthant_chain_bound(alpha, K, d, v)
    printed = 2 ** (d * (alpha - 1)) * norm / ((alpha**2 - alpha) * K ** (alpha - 1))
    N = sp.Symbol("N", positive=True)
    assert sp.simplify((tot - printed).subs(norm, N)) == 0
    tot2, ren2 = orthant_chain_bound(alpha, K, d, v, b_weight=sp.Rational(1, 2) ** d)
    fixed = (2 ** (d * (alpha - 1)) * (norm / K ** (alpha - 1) + 1) - 1) / (alpha**2 - alpha)
    assert sp.simplify((tot2 - fixed).subs(norm, N)) == 0
