"""Tests of :mod:`cbdp_sym.laws.spec`."""
import pytest
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.laws.distributions import Laplace, Normal, PointMass, Product
from cbdp_sym.laws.spec import parse_law, split_args


@pytest.mark.parametrize("spec", ["laplace(0)", "normal(0,-1)", "gauss(0,1)", "laplace(0,x)", "product()"])
def test_bad_law_specs(spec):
    with pytest.raises(ParameterError):
        parse_law(spec)


def test_specs_take_the_scale_and_the_standard_deviation():
    assert parse_law("laplace(1, 1/2)") == Laplace(1, sp.Rational(1, 2))
    g = parse_law(" Normal( -2 , 0.5 ) ")
    assert g == Normal(-2, sp.Rational(1, 2)) and g.std == sp.Rational(1, 2)  # the standard deviation, not the variance
    assert parse_law("point(3)") == PointMass(3)
    prod = parse_law("product(laplace(0,1), normal(0,1), point(1))")
    assert isinstance(prod, Product) and prod.components == (Laplace(0, 1), Normal(0, 1), PointMass(1))
    with pytest.raises(ParameterError, match="one-dimensional laws"):
        parse_law("product(laplace(0,1), product(normal(0,1), point(1)))")


def test_arguments_split_at_top_level_commas_only():
    assert split_args("laplace(0,1), normal(1,2)") == ["laplace(0,1)", "normal(1,2)"]
    assert split_args("") == []


@pytest.mark.parametrize("spec,msg", [("laplace(0)", "laplace\\(\\) takes 2 number\\(s\\), got 1"),
                                      ("normal(0,-1)", "standard deviation must be positive, got -1"),
                                      ("laplace(0,0)", "the scale must be positive"),
                                      ("product()", "needs at least one law"), ("gauss(0,1)", "not understood")])
def test_bad_specs_say_what_is_wrong(spec, msg):
    with pytest.raises(ParameterError, match=msg):
        parse_law(spec)


def test_specs_of_laws_on_the_integers():
    from cbdp_sym.laws.discrete import Binomial, DiscreteGaussian, DiscreteLaplace, Geometric, Poisson

    assert parse_law("dgauss(0, 3)") == DiscreteGaussian(0, 3)
    assert parse_law(" DLaplace( 1 , 1/2 )") == DiscreteLaplace(1, sp.Rational(1, 2))
    assert parse_law("geometric(1/3)") == Geometric(sp.Rational(1, 3))
    assert parse_law("binomial(10, 0.25)") == Binomial(10, sp.Rational(1, 4))
    assert parse_law("poisson(7/2)") == Poisson(sp.Rational(7, 2))


@pytest.mark.parametrize("spec,msg", [("dgauss(0)", r"dgauss\(\) takes 2 number\(s\) \(mu, sigma\)"),
                                      ("dgauss(0,0)", "sigma must be positive"),
                                      ("dlaplace(0,-2)", "t must be positive"),
                                      ("geometric(1)", r"strictly between 0 and 1"),
                                      ("binomial(5/2, 1/2)", "positive integer"),
                                      ("poisson(inf)", "must be finite")])
def test_bad_lattice_specs_say_what_is_wrong(spec, msg):
    with pytest.raises(ParameterError, match=msg):
        parse_law(spec)
