"""Tests of :mod:`cbdp_sym.core.numbers`."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core.numbers import Estimate, PrecisionError, evalf_checked, mp_str, to_mpf
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import parse_number

x = sp.Symbol("x", positive=True)


def test_evalf_never_returns_a_number_without_digits():
    # SymPy's plain evalf gives 0.e-190 (one bit) for 1 - erf(30); the true value is 2.56e-393
    assert (1 - sp.erf(x)).evalf(60, subs={x: 30})._prec < 10
    v = evalf_checked(1 - sp.erf(x), 60, {x: 30})
    assert str(v).startswith("2.564656203756111600033397277501447")
    with mp.workdps(60):
        assert mp.almosteq(to_mpf(1 - sp.erf(sp.Integer(30))), mp.erfc(30), rel_eps=mp.mpf(10) ** -55)
    assert evalf_checked(sp.sin(sp.pi), 30) == 0


def test_evalf_refuses_what_it_cannot_resolve():
    # 1 - tanh(10^6) = 2 e^{-2 10^6} / (1 + e^{-2 10^6}) is far below what evalf resolves by cancellation
    with pytest.raises(PrecisionError):
        evalf_checked(1 - sp.tanh(x), 30, {x: sp.Integer(10) ** 6})


def test_printed_digits_never_exceed_the_established_ones():
    with mp.workdps(60):
        v = Estimate(mp.mpf(1) / 3, 25)
        text = mp_str(v, 50)
    assert sum(ch.isdigit() for ch in text.lstrip("0.")) == 25


@pytest.mark.parametrize("text", ["2/3/4", "1//2", "1/", "/2", "0x10", "1_000", "nan", "--1", "1e5e5", ""])
def test_one_number_form_per_value(text):
    """Before: ``eps=2/3/4`` was read as 8/3."""
    with pytest.raises(ParameterError):
        parse_number(text, "eps")


@pytest.mark.parametrize("text,value", [("7/2", sp.Rational(7, 2)), ("0.25", sp.Rational(1, 4)),
                                        ("1e-3", sp.Rational(1, 1000)), ("-2.5e1/5", sp.Integer(-5)),
                                        (" 3 ", sp.Integer(3)), ("inf", sp.oo)])
def test_ordinary_numbers_still_parse(text, value):
    assert parse_number(text) == value
