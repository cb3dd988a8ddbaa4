"""Tests of :mod:`cbdp_sym.divergences.subsampling`."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core.errors import DerivationError, ParameterError
from cbdp_sym.core.numbers import digits
from cbdp_sym.core.tape import recording
from cbdp_sym.divergences.numeric import renyi_mp
from cbdp_sym.divergences.subsampling import (fixed_size_subsample, poisson_subsample, renyi_quadrature,
                                              subsampled_gaussian_rdp, subsampled_rdp, subsampled_renyi_sym)
from cbdp_sym.laws.discrete import DiscreteGaussian, LatticeMixture
from cbdp_sym.laws.distributions import Finite, Laplace, Mixture, Normal

R = sp.Rational
q = R(1, 100)


def mtz(a, qv, s=1):
    """Mironov-Talwar-Zhang's integer-order formula, written out (the reference)."""
    return mp.log(mp.fsum(mp.binomial(a, j) * (1 - qv) ** (a - j) * qv**j * mp.exp(mp.mpf(j * (j - 1)) / (2 * s * s))
                          for j in range(a + 1))) / (a - 1)


def test_the_relations_name_the_pairs():
    P, Q = Normal(1, 1), Normal(0, 1)
    M, Q2 = poisson_subsample(P, Q, q)
    assert isinstance(M, Mixture) and M.weights == (1 - q, q) and Q2 == Q
    Q3, M3 = poisson_subsample(P, Q, q, "add")
    assert Q3 == Q and M3 == M
    assert isinstance(poisson_subsample(DiscreteGaussian(1, 1), DiscreteGaussian(0, 1), q)[0], LatticeMixture)
    A, B = poisson_subsample(Finite([0, 1], [R(1, 4), R(3, 4)]), Finite([0, 1], [R(3, 4), R(1, 4)]), R(1, 2))
    assert A.probs == (R(1, 2), R(1, 2))
    S1, S2 = fixed_size_subsample(Normal(1, 1), Normal(-1, 1), Normal(0, 1), R(1, 10))
    assert S1.components[1] == Normal(1, 1) and S2.components[1] == Normal(-1, 1)
    with pytest.raises(ParameterError, match="relation"):
        poisson_subsample(P, Q, q, "replace")
    with pytest.raises(ParameterError, match=r"\(0, 1\]"):
        poisson_subsample(P, Q, R(3, 2))


@pytest.mark.parametrize("a", [2, 3, 7, 16])
def test_integer_orders_are_exact_and_match_the_definition(a):
    with mp.workdps(60):
        exact = subsampled_gaussian_rdp(q, 1, a)
        assert digits(exact, mtz(a, mp.mpf(1) / 100)) >= 55 or exact == mtz(a, mp.mpf(1) / 100)
        quad = renyi_quadrature(*poisson_subsample(Normal(1, 1), Normal(0, 1), q), a)
        assert digits(exact, quad) >= 45 or exact == quad


@pytest.mark.slow
def test_integer_orders_2_to_64_match_the_quadrature_to_45_digits():
    M, Q = poisson_subsample(Normal(1, 1), Normal(0, 1), q)
    with mp.workdps(60):
        for a in range(2, 65):
            exact = subsampled_gaussian_rdp(q, 1, a)
            quad = renyi_quadrature(M, Q, a)
            assert exact == quad or digits(exact, quad) >= 45, a


@pytest.mark.parametrize("a", [R(3, 2), R(7, 2), R(101, 10)])
def test_fractional_orders_agree_between_two_quadratures(a):
    """The peak-split quadrature (itself at two precisions) against the engine's generic one (other breakpoints)."""
    M, Q = poisson_subsample(Normal(1, 1), Normal(0, 1), q)
    with mp.workdps(50):
        v = subsampled_rdp(Normal(1, 1), Normal(0, 1), q, a)
        assert getattr(v, "digits", 50) >= 45
        assert digits(v, renyi_mp(M, Q, a)) >= 30


def test_the_add_relation_and_laplace_use_the_definition():
    with mp.workdps(40):
        add = subsampled_rdp(Normal(1, 1), Normal(0, 1), q, 3, "add")
        rem = subsampled_rdp(Normal(1, 1), Normal(0, 1), q, 3, "remove")
        assert 0 < add < rem  # Mironov-Talwar-Zhang: the remove pair dominates at integer orders
        lap = subsampled_rdp(Laplace(1, 1), Laplace(0, 1), q, 3)
        M, Q = poisson_subsample(Laplace(1, 1), Laplace(0, 1), q)
        assert digits(lap, renyi_quadrature(M, Q, 3)) >= 35


def test_the_binomial_expansion_is_derived():
    a = sp.Symbol("alpha", integer=True, positive=True)
    s = sp.Symbol("sigma", positive=True)
    qq = sp.Symbol("q", positive=True)
    with recording() as tape:
        e, conds = subsampled_renyi_sym(Normal(1, s), Normal(0, s), qq, a)
        assert conds == []
    assert "binomial expansion" in " ".join(st.note for st in tape)
    with mp.workdps(50):
        val = mp.mpf(e.subs({a: 5, s: 1, qq: q}).evalf(60)._to_mpmath(250))
        assert digits(val, mtz(5, mp.mpf(1) / 100)) >= 45
    with pytest.raises(DerivationError, match="integer order"):
        subsampled_renyi_sym(Normal(1, s), Normal(0, s), qq, R(7, 2))


def test_the_subsampled_discrete_gaussian_has_the_gaussian_formula():
    with mp.workdps(50):
        M, Q = poisson_subsample(DiscreteGaussian(1, 2), DiscreteGaussian(0, 2), R(1, 10))
        assert digits(renyi_mp(M, Q, 4), mtz(4, mp.mpf(1) / 10, s=2)) >= 45


def test_the_raw_log_integrand_is_the_generic_one_bit_for_bit():
    """The quadratures' ``al log p + (1 - al) log q`` and renyi_mp's integrand on raw values (mixtures of Normal and
    Laplace laws) against the generic expressions through ``mp_log_pdf``: the same bits at every point and precision (ties of the mixture's
    terms, a zero weight, far tails where one term vanishes against the other)."""
    import random

    from cbdp_sym.divergences.numeric import _log_integrand, _renyi_integrand_raw

    laws = [poisson_subsample(Normal(1, 1), Normal(0, 1), q), poisson_subsample(Laplace(1, 1), Laplace(0, 1), R(1, 3)),
            poisson_subsample(Normal(1, 1), Normal(0, 1), q, "add"),
            (Mixture([R(1, 2), 0, R(1, 2)], [Normal(0, 2), Laplace(5, 1), Normal(0, 2)]), Laplace(R(1, 2), 3)),
            (Mixture([mp.mpf("0.25"), mp.mpf("0.75")], [Normal(R(1, 3), R(1, 7)), Laplace(-1, 2)]), Normal(0, 1))]
    rng = random.Random(7)
    for dps in (15, 20, 47, 70):
        with mp.workdps(dps):
            for P, Q in laws:
                for al in (mp.mpf(2), mp.mpf(7) / 2, mp.mpf("101") / 10):
                    fast = _log_integrand(P, Q, al)
                    assert fast.__name__ == "logf"  # the raw path, not the generic fallback
                    xs = [mp.mpf(rng.uniform(-60, 60)) for _ in range(60)] + [mp.mpf(0), mp.mpf(1) / 2, mp.mpf(-200)]
                    for x in xs:
                        want = al * P.mp_log_pdf(x) + (1 - al) * Q.mp_log_pdf(x)
                        assert fast(x)._mpf_ == want._mpf_, (P, Q, al, x, dps)
                    top = want  # renyi_mp's integrand exp(logf - top), raw, against the generic one
                    integrand = _renyi_integrand_raw(P, Q, al, top)
                    for x in xs[:20]:
                        assert integrand(x)._mpf_ == mp.exp(al * P.mp_log_pdf(x) + (1 - al) * Q.mp_log_pdf(x) - top)._mpf_
                    assert fast(3)._mpf_ == (al * P.mp_log_pdf(3) + (1 - al) * Q.mp_log_pdf(3))._mpf_
