"""Tests of :mod:`cbdp_sym.verify.claims`."""
import pytest
import sympy as sp

from cbdp_sym.verify.claims import Param
from cbdp_sym.core.errors import ParameterError


def test_a_vector_printed_as_a_python_tuple_reads_back():
    """Counterexample points are stored as text ("(1,)" for a 1-vector) and parsed again to certify them."""
    p = Param.vector("v", sp.IndexedBase("v"), ("1",))
    assert p.validate("(1,)") == sp.Tuple(1) and p.validate("(1, -2)") == sp.Tuple(1, -2)
    for bad in ("1,,2", "(1,,)", ",", "()"):
        with pytest.raises(Exception, match="must be a vector"):
            p.validate(bad)


@pytest.mark.parametrize("text", ["1,,2", ",1", "1,", ",", "1,2,"])
def test_vectors_with_empty_coordinates_are_refused(text):
    """Before: ``v=1,,2`` was read as (1, 2)."""
    v = Param.vector("v", sp.IndexedBase("v"), ("1,2",))
    with pytest.raises(ParameterError):
        v.validate(text)
    assert v.validate("1, 2") == sp.Tuple(1, 2)
