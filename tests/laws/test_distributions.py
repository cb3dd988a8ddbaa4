import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import Laplace, Normal, Product
from cbdp_sym.calculus.symbolic import integrate_split
from cbdp_sym.laws.distributions import X, shift
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.symbols import eps, mu1, sigma


@pytest.mark.parametrize("law", [Laplace(0, 1 / eps), Laplace(mu1, 3), Normal(mu1, sigma), Normal(2, sp.Rational(1, 3))])
def test_density_integrates_to_one_symbolically(law):
    total, conds = integrate_split(law.pdf(), X)
    assert sp.simplify(total - 1) == 0
    assert conds == []


def test_laplace_knows_its_kink():
    assert Laplace(mu1, 2).kinks() == [mu1]
    assert Normal(0, 1).kinks() == []


@pytest.mark.parametrize("bad", [0, -1, "-3/2"])
def test_non_positive_scale_is_rejected(bad):
    with pytest.raises(ParameterError, match="scale must be positive"):
        Laplace(0, bad)
    with pytest.raises(ParameterError, match="std must be positive"):
        Normal(0, bad)


def test_symbolic_scale_must_be_known_positive():
    with pytest.raises(ParameterError):
        Laplace(0, sp.Symbol("b", real=True))


def test_mp_density_matches_symbolic_at_two_precisions():
    law = Laplace(sp.Rational(2), sp.Rational(3))
    for dps in (20, 60):
        with mp.workdps(dps):
            x = mp.mpf("0.7")
            exact = sp.N(law.pdf().subs(X, sp.Rational(7, 10)), dps + 5)
            assert abs(law.mp_pdf(x) - mp.mpf(str(exact))) < mp.mpf(10) ** (-dps + 2)


def test_product_and_shift():
    P = Product(Laplace(0, 1), Laplace(0, 2))
    assert P.dim == 2
    Q = shift(P, [1, 2])
    assert [c.loc for c in Q.components] == [1, 2]
    with pytest.raises(ParameterError):
        shift(P, [1])
    with pytest.raises(ParameterError):
        Product()
