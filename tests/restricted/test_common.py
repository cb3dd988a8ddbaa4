"""Tests of :mod:`cbdp_sym.restricted.common`."""
import pytest
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.divergences.generators import ALPHA_DIV, KL, TV
from cbdp_sym.restricted.common import generator_for, parse_class


def test_bad_classes_and_orders():
    with pytest.raises(ParameterError):
        parse_class("poly0")
    with pytest.raises(ParameterError):
        parse_class("quadratic")
    with pytest.raises(ParameterError):
        generator_for("renyi", "1")
    with pytest.raises(ParameterError):
        generator_for("renyi", None)
    with pytest.raises(ParameterError):
        generator_for("hellinger", None)


@pytest.mark.parametrize("text,degree", [("lin", 1), ("LIN", 1), ("poly1", 1), ("poly_4", 4), (" Poly12 ", 12)])
def test_classes_are_polynomial_degrees(text, degree):
    assert parse_class(text) == degree


def test_generators_of_the_named_divergences():
    assert generator_for("KL") == (KL, {}, False) and generator_for("tv") == (TV, {}, False)
    assert generator_for("alpha", "7/2") == (ALPHA_DIV, {"alpha": sp.Rational(7, 2)}, False)
    assert generator_for("renyi", 3) == (ALPHA_DIV, {"alpha": 3}, True)
    with pytest.raises(ParameterError, match="--alpha is meaningless for kl"):
        generator_for("kl", 2)
    with pytest.raises(ParameterError, match="finite alpha"):
        generator_for("renyi", "inf")
