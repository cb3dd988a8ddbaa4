"""Tests of :mod:`cbdp_sym.restricted.common`."""

import pytest

from cbdp_sym.core.errors import ParameterError
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
