import mpmath as mp
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from cbdp_sym import ALPHA_DIV, KL, TV, alpha_generator
from cbdp_sym.divergences.generators import S
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.symbols import alpha
from cbdp_sym.core.tape import recording


def test_kl_conjugate_is_derived_as_exp():
    with recording() as tape:
        conj = KL.conjugate()
    assert conj.expr == sp.exp(S - 1)
    notes = " ".join(s.note for s in tape)
    assert "stationarity" in notes  # produced by solving s = f'(t), not typed in


def test_tv_conjugate_is_finite_only_on_the_subdifferential():
    conj = TV.conjugate().expr
    assert conj.subs(S, sp.Rational(1, 3)) == sp.Rational(1, 3)
    assert conj.subs(S, 1) == sp.oo
    assert conj.subs(S, -1) == sp.oo


def test_alpha_conjugate_exact_form():
    expected = ((alpha - 1) * sp.Abs(S)) ** (alpha / (alpha - 1)) / alpha + 1 / (alpha**2 - alpha)
    assert sp.simplify(ALPHA_DIV.conjugate().expr - expected) == 0


def test_alpha_needs_alpha_above_one():
    with pytest.raises(ParameterError, match="alpha > 1"):
        alpha_generator(1)
    with pytest.raises(ParameterError):
        alpha_generator(sp.Rational(1, 2))


@pytest.mark.parametrize("dps", [20, 50])
@pytest.mark.parametrize("s_val,a_val", [("-2", "7/2"), ("0.3", "3/2"), ("5", "2")])
def test_alpha_conjugate_against_numeric_supremum(dps, s_val, a_val):
    a_num = sp.Rational(a_val)
    with mp.workdps(dps + 10):
        numeric = alpha_generator(a_num).conjugate_sup_mp(mp.mpf(s_val))
        derived = ALPHA_DIV.conj_mp()(mp.mpf(s_val), mp.mpf(a_num.p) / a_num.q)
        assert abs(numeric - derived) <= abs(derived) * mp.mpf(10) ** (-dps)


@given(st.fractions(min_value=-4, max_value=4, max_denominator=50))
def test_kl_conjugate_numeric_sup_property(s_frac):
    with mp.workdps(30):
        s_mp = mp.mpf(s_frac.numerator) / s_frac.denominator
        assert abs(KL.conjugate_sup_mp(s_mp) - mp.exp(s_mp - 1)) < mp.mpf(10) ** -25


def test_tv_numeric_supremum_detects_infinity():
    with mp.workdps(30):
        assert TV.conjugate_sup_mp(mp.mpf(2)) == mp.inf
        assert abs(TV.conjugate_sup_mp(mp.mpf("0.25")) - mp.mpf("0.25")) < mp.mpf(10) ** -25


def test_generators_are_normalised_and_convex():
    for gen in (KL, TV, ALPHA_DIV):
        f1, convex = gen.check_definition()
        assert sp.simplify(f1) == 0 and convex


def test_one_alpha_generator_per_order_so_its_conjugate_is_derived_once():
    import cbdp_sym.divergences.generators as G

    assert G.alpha_generator(2) is G.alpha_generator(sp.Integer(2)) is G.alpha_generator("2")
    assert G.alpha_generator() is G.ALPHA_DIV
    assert G.alpha_generator(sp.Rational(5, 2)) is not G.alpha_generator(sp.Float(2.5))  # another number, another object
    with pytest.raises(ParameterError):
        G.alpha_generator(1)
    G.derive_standard_conjugates()
    hits = G.Generator._conjugate_cached.cache_info().hits
    G.alpha_generator().conjugate()
    assert G.Generator._conjugate_cached.cache_info().hits == hits + 1
