"""Tests of :mod:`cbdp_sym.laws.spec`."""

import pytest

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.laws.spec import parse_law


@pytest.mark.parametrize("spec", ["laplace(0)", "normal(0,-1)", "gauss(0,1)", "laplace(0,x)", "product()"])
def test_bad_law_specs(spec):
    with pytest.raises(ParameterError):
        parse_law(spec)
