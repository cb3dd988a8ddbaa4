"""Tests of :mod:`cbdp_sym.laws.discrete`: laws on the integers, tail forms, lattice sums, LatticeSum, Arb balls."""
import mpmath as mp
import pytest
import sympy as sp
from hypothesis import given, strategies as st

from cbdp_sym.calculus.certify import arb_closed
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.tape import recording
from cbdp_sym.laws.discrete import (J, K, Binomial, DiscreteGaussian, DiscreteLaplace, Geometric, Lattice, LatticeMixture,
                                    LatticeSum, Poisson, TailForm, arb_lattice_sum, forms_of, lattice_sum, numeric_sum)

R = sp.Rational


# -- tail forms: the bound is a bound ---------------------------------------------------------------------------------
@given(a2=st.fractions(min_value=R(-3), max_value=0), a1=st.fractions(min_value=-3, max_value=3),
       c=st.integers(min_value=0, max_value=3), X=st.integers(min_value=1, max_value=40))
def test_a_tail_form_bounds_the_tail_it_describes(a2, a1, c, X):
    """``tail(X) >= sum_{x >= X} exp(phi(x))`` whenever it is finite (the sum checked with mpmath's nsum)."""
    with mp.workdps(30):
        f = TailForm(a2=mp.mpf(a2.numerator) / a2.denominator, a1=mp.mpf(a1.numerator) / a1.denominator,
                     logs=((mp.mpf(c), mp.mpf(-1)),))
        T = f.tail(X)
        if not mp.isfinite(T):
            return
        exact = mp.nsum(lambda x: mp.exp(f.value(x)), [X, mp.inf])
        assert T >= exact * (1 - mp.mpf(10) ** -20)


@given(lam=st.fractions(min_value=R(1, 10), max_value=20), X=st.integers(min_value=0, max_value=60))
def test_the_poisson_tail_form_bounds_the_poisson_tail(lam, X):
    with mp.workdps(30):
        P = Poisson(sp.Rational(lam.numerator, lam.denominator))
        f = P.upper_forms(1)[0]
        T = f.tail(X)
        if mp.isfinite(T):
            assert T >= P.mp_sf(X, strict=False) * (1 - mp.mpf(10) ** -20)


def test_a_growing_form_has_no_tail_bound():
    assert TailForm(a2=mp.mpf(1)).tail(10) == mp.inf
    assert TailForm(a1=mp.mpf(1) / 10).tail(10) == mp.inf
    assert TailForm(a1=-mp.mpf(1), gammas=((mp.mpf(-1), mp.mpf(0)),)).diverges()  # k! e^{-k} grows
    assert not TailForm(a1=mp.mpf(3), gammas=((mp.mpf(1), mp.mpf(0)),)).diverges()  # e^{3k}/k! converges


# -- lattice sums --------------------------------------------------------------------------------------------------
def test_a_direction_without_an_end_or_a_bound_is_refused():
    with pytest.raises(ParameterError, match="no tail bound on the left"):
        lattice_sum(lambda k: mp.mpf(2) ** -abs(k), right=[TailForm(a1=-mp.log(2))])


def test_sums_are_not_cut_at_a_window():
    """A slowly decaying law: the mass is 1 to 60 digits, where any window of a few hundred terms loses it (the
    tail beyond |k| = 200 of Lap_Z(50) is about e^{-4})."""
    with mp.workdps(60):
        L = DiscreteLaplace(0, 50)
        assert abs(L.mp_mass() - 1) < mp.mpf(10) ** -58
        window = mp.fsum(L.mp_pmf_at(k) for k in range(-200, 201))
        assert 1 - window > mp.mpf(10) ** -3


def test_the_theta_sum_matches_jacobi_theta():
    with mp.workdps(50):
        for s in (mp.mpf(1) / 3, mp.mpf(1), mp.mpf(7) / 2):
            z = numeric_sum(sp.exp(-J**2 / (2 * sp.nsimplify(str(s)) ** 2)), J, -sp.oo, sp.oo)
            assert abs(z / mp.jtheta(3, 0, mp.exp(-1 / (2 * s * s))) - 1) < mp.mpf(10) ** -45


@pytest.mark.parametrize("law", [DiscreteGaussian(R(1, 3), R(7, 2)), DiscreteGaussian(5, R(1, 10)),
                                 DiscreteLaplace(R(5, 2), 3), DiscreteLaplace(-4, R(1, 7)), Geometric(R(2, 7)),
                                 Binomial(13, R(2, 5)), Poisson(R(9, 2)), Lattice(R(1, 2) ** sp.Abs(K), K),
                                 Lattice(1 / sp.factorial(K), K, 0),
                                 LatticeMixture([R(3, 4), R(1, 4)], [DiscreteGaussian(0, 2), DiscreteLaplace(3, 1)])])
def test_every_law_sums_to_one(law):
    with mp.workdps(60):
        assert abs(law.mp_mass() - 1) < mp.mpf(10) ** -57


def test_moments_against_closed_forms():
    with mp.workdps(50):
        tol = mp.mpf(10) ** -45
        r = mp.exp(-mp.mpf(1) / 3)
        assert abs(DiscreteLaplace(0, 3).mp_variance() / (2 * r / (1 - r) ** 2) - 1) < tol
        P = Poisson(R(9, 2))
        assert abs(P.mp_mean() - mp.mpf(9) / 2) < tol and abs(P.mp_variance() - mp.mpf(9) / 2) < tol
        G = Geometric(R(2, 7))
        assert abs(G.mp_mean() - mp.mpf(5) / 2) < tol  # (1 - p)/p
        B = Binomial(13, R(2, 5))
        assert abs(B.mp_mean() - mp.mpf(26) / 5) < tol and abs(B.mp_variance() - mp.mpf(78) / 25) < tol
        # the discrete Gaussian's variance from Jacobi's theta function: sigma^3 d/dsigma log theta_3(0, e^{-1/(2 sigma^2)})
        s = mp.mpf(3) / 2
        th = lambda u: mp.jtheta(3, 0, mp.exp(-1 / (2 * u * u)))  # noqa: E731
        assert abs(DiscreteGaussian(0, R(3, 2)).mp_variance() / (s**3 * mp.diff(lambda u: mp.log(th(u)), s)) - 1) < tol


def test_tail_probabilities_add_up():
    with mp.workdps(50):
        Y = DiscreteGaussian(R(1, 4), 2)
        assert abs(Y.mp_sf(R(3, 2)) + Y.mp_cdf(R(3, 2)) - 1) < mp.mpf(10) ** -45
        assert Y.mp_sf(10**6) > 0  # far in the tail: a tiny positive number, not 0


def test_odd_central_moments_of_symmetric_laws_are_exactly_zero():
    with mp.workdps(30):
        assert DiscreteGaussian(3, 2).mp_moment(3, about=3) == 0
        assert DiscreteLaplace(R(1, 2), 2).mp_mean() == mp.mpf(1) / 2


def test_a_strict_gap_is_resolved_by_higher_precision():
    """Var[N_Z(0, 100)] - 100 = -4.3e-852: summed with the digits its cancellation costs (a sum at 60 digits would
    return rounding noise of size 1e-58, or 0); the Poisson-summation leading term agrees."""
    with mp.workdps(60):
        gap = DiscreteGaussian(0, 10).mp_expect(lambda k: k**2 - 100, growth=(101, 2))
        lead = -8 * mp.pi**2 * 10**4 * mp.exp(-2 * mp.pi**2 * 100)
        assert gap < 0 and abs(gap / lead - 1) < mp.mpf(10) ** -50


def test_expectations_on_infinite_supports_need_the_growth():
    with pytest.raises(ParameterError, match="growth"):
        DiscreteGaussian(0, 1).mp_expect(lambda k: k)


@pytest.mark.parametrize("make,msg", [(lambda: DiscreteGaussian(0, 0), "sigma must be positive"),
                                      (lambda: DiscreteLaplace(0, -1), "scale must be positive"),
                                      (lambda: Geometric(R(3, 2)), r"p must lie in \(0, 1\)"),
                                      (lambda: Binomial(R(5, 2), R(1, 2)), "positive integer"),
                                      (lambda: Poisson(0), "lam must be positive"),
                                      (lambda: LatticeMixture([R(1, 2)], [Poisson(1), Poisson(2)]), "one weight"),
                                      (lambda: Lattice(K, K, R(1, 2)), "integers or infinite")])
def test_bad_parameters_are_refused_in_one_line(make, msg):
    with pytest.raises(ParameterError, match=msg):
        make()


# -- the symbolic side -----------------------------------------------------------------------------------------------
def test_the_normaliser_of_an_integer_location_is_centred_at_zero():
    s = sp.Symbol("sigma", positive=True)
    assert DiscreteGaussian(3, s).normaliser() == DiscreteGaussian(0, s).normaliser()
    assert DiscreteGaussian(R(1, 2), s).normaliser() != DiscreteGaussian(0, s).normaliser()


def test_lattice_sums_evaluate_with_their_tails_and_karrs_convention():
    s = sp.Symbol("sigma", positive=True)
    Z = LatticeSum(sp.exp(-J**2 / (2 * s**2)), (J, -sp.oo, sp.oo))
    with mp.workdps(40):
        assert abs(mp.mpf(Z.evalf(40, subs={s: 2})._to_mpmath(200)) - mp.jtheta(3, 0, mp.exp(-mp.mpf(1) / 8))) < mp.mpf(10) ** -38
    assert LatticeSum(J, (J, 5, 4)).evalf() == 0  # empty
    assert float(LatticeSum(J, (J, 3, 1)).evalf()) == -2  # sum_3^1 = -sum_2^2
    bad = LatticeSum(sp.exp(J), (J, 0, sp.oo))  # diverges: no tail bound, left unevaluated
    assert bad.evalf().has(sp.Sum)


def test_tail_probabilities_record_their_definition():
    with recording() as tape:
        DiscreteGaussian(0, 1).sf(2)
    assert len(tape) == 1 and "beyond" in tape.steps[0].note


def test_forms_of_reads_products_powers_factorials_and_absolute_values():
    with mp.workdps(20):
        f, = forms_of(K**2 * sp.Rational(1, 3) ** sp.Abs(K - 2) / sp.factorial(K + 1), K, 1)
        assert abs(f.a1 + mp.log(3)) < mp.mpf(10) ** -18 and f.gammas == ((mp.mpf(1), mp.mpf(1)),)
        assert sum(c for c, _r in f.logs) == 2  # k^2
        with pytest.raises(ParameterError, match="no analytic tail bound"):
            forms_of(sp.sin(K), K, 1)


# -- ball arithmetic -------------------------------------------------------------------------------------------------
def test_arb_balls_hold_the_sum_and_its_tail():
    import flint

    b = arb_lattice_sum(lambda k: (flint.arb(-k * k) / 8).exp(), right=[TailForm(a2=-mp.mpf(1) / 8)],
                        left=[TailForm(a2=-mp.mpf(1) / 8)], bits=200)
    man, exp = b.mid().man_exp()
    with mp.workdps(70):
        mid = mp.mpf(int(man)) * mp.mpf(2) ** int(exp)
        assert abs(mid - mp.jtheta(3, 0, mp.exp(-mp.mpf(1) / 8))) < mp.mpf(2) ** -190
    assert b.rad() < flint.arb(2) ** -190


def test_a_lattice_sum_in_a_closed_form_certifies_in_arb():
    """The Arb evaluator of certificates (calculus.certify) encloses a LatticeSum, its normaliser inside included."""
    b = arb_closed(DiscreteGaussian(0, 2).sf(3), 200)
    man, exp = b.mid().man_exp()
    with mp.workdps(60):
        v = DiscreteGaussian(0, 2).mp_sf(3)
        assert abs(mp.mpf(int(man)) * mp.mpf(2) ** int(exp) / v - 1) < mp.mpf(10) ** -50
        assert mp.mpf(float(b.rad())) < v * mp.mpf(10) ** -50
