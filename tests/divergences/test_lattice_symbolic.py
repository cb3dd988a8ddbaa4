"""Tests of :mod:`cbdp_sym.divergences.lattice_symbolic`: laws on the integers through the public derivations
(``renyi_divergence``, ``f_divergence``, ``max_divergence``, ``expect``, ``profile_sym``), closed sums and Poisson
summation, each checked against the numeric definition."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import to_mpf
from cbdp_sym.core.tape import recording
from cbdp_sym.divergences.fdiv import expect, f_divergence, renyi_divergence
from cbdp_sym.divergences.generators import KL, TV, alpha_generator
from cbdp_sym.divergences.lattice_symbolic import close_sum, poisson_dual, poisson_summation
from cbdp_sym.divergences.mechanisms import max_divergence, renyi_numeric
from cbdp_sym.divergences.numeric import fdiv_mp, renyi_mp
from cbdp_sym.divergences.profiles import privacy_profile, profile_mp, profile_sym
from cbdp_sym.laws.discrete import J, K, Binomial, DiscreteGaussian, DiscreteLaplace, Geometric, LatticeSum, Poisson
from cbdp_sym.laws.distributions import Finite, Normal, X

R = sp.Rational
s = sp.Symbol("sigma", positive=True)
t = sp.Symbol("t", positive=True)
TOL = mp.mpf(10) ** -45


def close(a, b):
    return abs(a - b) <= TOL * max(abs(a), abs(b), mp.mpf(10) ** -300)


# -- derived --------------------------------------------------------------------------------------------------------
def test_the_renyi_identity_is_derived_by_an_index_shift():
    a = sp.Symbol("alpha", integer=True, positive=True)
    with recording() as tape:
        v, _ = renyi_divergence(DiscreteGaussian(0, s), DiscreteGaussian(1, s), a)
    assert v == a / (2 * s**2)
    notes = " ".join(st.note for st in tape)
    assert "completing the square" in notes and "index shift" in notes


def test_no_index_shift_without_an_integer_centre():
    """A mutation guard: with a half-integer mean the centre alpha mu is not an integer; the derived form keeps the
    ratio of sums (it would read alpha mu^2/(2 sigma^2) if the engine shifted blindly), and agrees with the sum."""
    P, Q = DiscreteGaussian(0, s), DiscreteGaussian(R(1, 2), s)
    v, _ = renyi_divergence(P, Q, 2)
    assert v.has(sp.Sum)
    with mp.workdps(50):
        num = renyi_mp(P.subs({s: R(1, 2)}), Q.subs({s: R(1, 2)}), 2)
        der = mp.mpf(v.subs(s, R(1, 2)).evalf(60)._to_mpmath(250))
        assert close(num, der)
        assert abs(num - mp.mpf(2) / 4 / (2 * mp.mpf(1) / 4)) > mp.mpf(10) ** -3


def test_derived_divergences_of_discrete_laplace_laws():
    L0, L1 = DiscreteLaplace(0, t), DiscreteLaplace(1, t)
    assert sp.simplify(max_divergence(L0, L1)[0] - 1 / t) == 0 and max_divergence(L0, L1)[1] == []
    kl = f_divergence(KL, L0, L1)[0]
    assert sp.simplify((kl - sp.tanh(1 / (2 * t)) / t).rewrite(sp.exp)) == 0
    var = expect(L0, X**2)[0]
    assert sp.simplify(var - 2 * sp.exp(-1 / t) / (1 - sp.exp(-1 / t)) ** 2) == 0
    prof, conds = profile_sym(L0, L1)
    assert conds == []
    assert isinstance(prof, sp.Piecewise)
    tv = f_divergence(TV, L0, L1)[0]
    assert sp.simplify(tv - (1 - sp.exp(-1 / t)) / (1 + sp.exp(-1 / t))) == 0


def test_derived_divergences_of_poisson_laws():
    l1, l2 = sp.symbols("l1 l2", positive=True)
    a = sp.Symbol("alpha", positive=True)
    v = renyi_divergence(Poisson(l1), Poisson(l2), a)[0]
    assert sp.simplify(v - (l1**a * l2 ** (1 - a) - a * l1 - (1 - a) * l2) / (a - 1)) == 0
    kl = f_divergence(KL, Poisson(l1), Poisson(l2))[0]
    assert sp.simplify(sp.expand_log(kl - (l1 * sp.log(l1 / l2) - l1 + l2), force=True)) == 0


def test_the_alpha_divergence_and_the_kl_of_discrete_gaussians():
    assert sp.simplify(f_divergence(alpha_generator(3), DiscreteGaussian(0, s), DiscreteGaussian(1, s))[0]
                       - (sp.exp(3 / s**2) - 1) / 6) == 0
    assert f_divergence(KL, DiscreteGaussian(0, s), DiscreteGaussian(1, s))[0] == 1 / (2 * s**2)


def test_the_derived_profile_of_discrete_gaussians_evaluates_to_the_definition():
    e = sp.Symbol("epsilon", nonnegative=True)
    d = profile_sym(DiscreteGaussian(0, s), DiscreteGaussian(1, s), e)[0]
    with mp.workdps(50):
        for ev, sv in ((R(1, 3), R(3, 2)), (R(5, 2), 2)):
            der = mp.mpf(d.subs({e: ev, s: sv}).evalf(60)._to_mpmath(250))
            assert close(der, profile_mp(DiscreteGaussian(0, sv), DiscreteGaussian(1, sv), ev))


def test_poisson_summation_gives_the_variance_gap():
    E2 = expect(DiscreteGaussian(0, s), X**2)[0]
    gap = poisson_dual(E2 - s**2)
    assert not gap.has(s**2 * sp.Sum(sp.exp(-J**2 / (2 * s**2)), (J, -sp.oo, sp.oo)))  # the sigma^2 terms cancelled
    with mp.workdps(50):
        for sv in (R(1, 2), 3):
            der = mp.mpf(gap.subs(s, sv).evalf(60)._to_mpmath(250))
            s2 = to_mpf(sv) ** 2
            num = DiscreteGaussian(0, sv).mp_expect(lambda k: k**2 - s2, growth=(1 + s2, 2))
            assert der < 0 and close(der, num)


def test_poisson_summation_of_a_gaussian_sum():
    dual = poisson_summation(LatticeSum(sp.exp(-J**2 / (2 * s**2)), (J, -sp.oo, sp.oo)))
    assert sp.simplify(dual.function - sp.sqrt(2 * sp.pi) * s * sp.exp(-2 * sp.pi**2 * s**2 * J**2)) == 0


def test_geometric_series_close():
    assert sp.simplify(close_sum(sp.exp(-K / t), K, 0, sp.oo) - 1 / (1 - sp.exp(-1 / t))) == 0
    assert sp.simplify(close_sum(K * sp.exp(-K / t), K, 1, sp.oo) - sp.exp(-1 / t) / (1 - sp.exp(-1 / t)) ** 2) == 0


def test_a_mixture_is_not_derived_through_a_separated_log():
    from cbdp_sym.core.errors import DerivationError
    from cbdp_sym.laws.discrete import LatticeMixture

    M = LatticeMixture([R(1, 2), R(1, 2)], [DiscreteGaussian(0, 1), DiscreteGaussian(1, 1)])
    with pytest.raises(DerivationError, match="binomial expansion"):
        renyi_divergence(M, DiscreteGaussian(0, 1), 2)
