"""The zCDP paper's concentrated-DP tools (derivations/zcdp/_concentrated.py, moved from the engine's
cbdp_sym.divergences.concentrated in 0.3): pair numerics, derivations and helpers, each at instances no paper printed."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import Finite, Normal, ParameterError
from cbdp_sym.app.registry import builtin_module
from cbdp_sym.calculus import DerivationError, digits

_zc = builtin_module("zcdp", "_shared")  # (the module the registry imports: the audit's objects)
(ZPair, affine_loss_law, arb_value, certify_lt, chernoff_exponent, complete_square, dp_group_delta, group_induction,
 group_recursion, harmonic, holder_orders, mcdp_exponent, mutual_information, rdp_conversion_optimum, short, spike_pair,
 tail_integral) = (getattr(_zc, n) for n in (
    "ZPair", "affine_loss_law", "arb_value", "certify_lt", "chernoff_exponent", "complete_square", "dp_group_delta",
    "group_induction", "group_recursion", "harmonic", "holder_orders", "mcdp_exponent", "mutual_information",
    "rdp_conversion_optimum", "short", "spike_pair", "tail_integral"))

xi = sp.Symbol("xi", nonnegative=True)
rho = sp.Symbol("rho", positive=True)
lam = sp.Symbol("lambda", positive=True)


def _rr(e):
    p = mp.exp(e) / (1 + mp.exp(e))
    return ZPair.finite(Finite([0, 1], [p, 1 - p]), Finite([0, 1], [1 - p, p]))


def test_rho_star_of_randomized_response_is_eps_tanh_half_eps():
    with mp.workdps(40):
        e = mp.mpf(7) / 10
        val, a = _rr(e).rho_star()
        assert digits(val, e * mp.tanh(e / 2)) > 35
        assert a == 1  # the supremum is the alpha -> 1 endpoint (the KL divergence)


def test_gaussian_profile_matches_the_normal_cdf_formula():
    with mp.workdps(40):
        s, sh, e = mp.mpf(3), mp.mpf(2), mp.mpf("0.4")  # shift 2, scale 3: not a printed instance
        z = ZPair.normal(s, sh)
        r = sh**2 / (2 * s**2)
        ss = mp.sqrt(2 * r)
        ref = mp.ncdf(-(e / ss - ss / 2)) - mp.exp(e) * mp.ncdf(-(e / ss + ss / 2))
        assert digits(z.profile(e), ref) > 35
        assert digits(z.tail(e), mp.ncdf(-(e - r) / ss)) > 35  # Z ~ N(rho, 2 rho)


def test_finite_profile_equals_the_event_maximum():
    with mp.workdps(30):
        z = spike_pair(sp.Rational(3, 5), sp.Rational(1, 50))
        e = mp.mpf("0.7")
        best = max(mp.mpf(0), mp.mpf(3) / 5 - mp.exp(e) / 50, mp.mpf(2) / 5 - mp.exp(e) * mp.mpf(49) / 50)
        assert digits(z.profile(e), best) > 25


def test_xi_star_and_epsilon_at_delta():
    with mp.workdps(30):
        z = _rr(mp.mpf(1))
        assert z.xi_star(0) > 1 - mp.mpf(10) ** -6  # sup_alpha D_alpha = D_oo = 1 (approached as alpha -> oo)
        d = z.profile(mp.mpf("0.5"))
        assert digits(z.eps_at(d), mp.mpf("0.5")) > 20


def test_subgaussian_proxy_bounds_the_centred_mgf():
    with mp.workdps(30):
        z = _rr(mp.mpf(2))
        t2, _l = z.subgaussian_proxy()
        assert t2 >= z.loss_variance()
        for l_ in (-3, -1, -mp.mpf("0.1"), mp.mpf("0.1"), 1, 3):
            assert z.centred_log_mgf(l_) <= l_**2 * t2 / 2 * (1 + mp.mpf(10) ** -20)


def test_chernoff_exponent_and_rdp_optimum():
    a_star, val = chernoff_exponent(xi, rho, lam)
    assert sp.simplify(a_star - (lam - xi + rho) / (2 * rho)) == 0
    assert sp.simplify(val + (lam - xi - rho) ** 2 / (4 * rho)) == 0
    ell = sp.Symbol("ell", positive=True)
    _a, v = rdp_conversion_optimum(xi, rho, ell)
    assert sp.simplify(v - (xi + rho + 2 * sp.sqrt(rho * ell))) == 0


@pytest.mark.slow
def test_tail_integral_against_quadrature():
    e = sp.Symbol("epsilon", positive=True)
    val = tail_integral(xi, rho, e)
    x0, r, ev = sp.Rational(1, 3), sp.Integer(2), sp.Integer(5)
    with mp.workdps(30):
        num = mp.quad(lambda z: mp.exp((ev - z) - (z - mp.mpf(1) / 3 - 2) ** 2 / 8), [5, 20, mp.inf])
        assert digits(sp.N(val.subs({xi: x0, rho: r, e: ev}), 30), num) > 25


def test_complete_square_and_its_errors():
    z = sp.Symbol("z", real=True)
    c, h, k = complete_square(3 * z**2 - 12 * z + 1, z)
    assert (c, h, k) == (3, 2, -11)
    with pytest.raises(DerivationError):
        complete_square(z**3, z)


def test_affine_loss_law_of_a_gaussian_pair():
    mean, var, _Z = affine_loss_law(Normal(0, 3), Normal(2, 3))
    assert sp.simplify(mean - sp.Rational(2, 9)) == 0 and sp.simplify(var - sp.Rational(4, 9)) == 0


def test_mcdp_exponent_and_group_privacy_algebra():
    mu, tau, al = sp.symbols("mu tau alpha", positive=True)
    x0, r0 = mcdp_exponent(mu, tau, al)
    assert sp.simplify(x0 - (mu - tau**2 / 2)) == 0 and sp.simplify(r0 - tau**2 / 2) == 0
    k = sp.Symbol("k", positive=True)
    out = holder_orders(k, al)
    assert out["conj"] == 1 and sp.simplify(out["order_RQ"] - k * al) == 0
    rp, _xp = group_induction(xi, rho, k, al)
    assert sp.simplify(rp - rho * k**2 * al) == 0
    for j, x, r in group_recursion(7):
        assert x == j * harmonic(j) and r == j**2


def test_dp_group_delta_sums_the_geometric_series():
    e, d = sp.symbols("epsilon delta", positive=True)
    _ke, dk = dp_group_delta(e, d, 4)
    want = sum(sp.Rational(1, 10) * sp.exp(i * sp.Rational(1, 2)) for i in range(4))
    assert abs(sp.N(dk.subs({e: sp.Rational(1, 2), d: sp.Rational(1, 10)}) - want, 30)) < 1e-25


def test_mutual_information_of_a_noiseless_bit_is_log_two():
    with mp.workdps(30):
        laws = [Finite([0, 1], [1, 0]), Finite([0, 1], [0, 1])]
        assert digits(mutual_information([sp.Rational(1, 2)] * 2, laws), mp.log(2)) > 25


def test_ball_arithmetic_certificates():
    ball = arb_value(sp.erfc(sp.Rational(1, 2)))
    assert ball.overlaps(arb_value(1 - sp.erf(sp.Rational(1, 2)))) and float(ball.rad()) < 1e-100
    assert certify_lt(sp.Rational(1, 3), sp.sinh(sp.Rational(1, 3))) is not None
    assert certify_lt(sp.Integer(1), sp.Rational(1, 2)) is None


def test_labels_and_bad_input():
    assert short("1/500000000") == "2.0e-9" and short("7/2") == "7/2"
    with pytest.raises(ParameterError):
        ZPair.normal(-1, 1)
    with pytest.raises(ParameterError):
        _rr(mp.mpf(1)).renyi(mp.mpf("0.5"))


@pytest.mark.parametrize("dps", [30, 60])
def test_rho_star_and_xi_star_are_the_same_with_the_ranking_balls(dps, monkeypatch):
    """``sup_over_order`` ranks orders by the curve's Arb balls where they are apart: the values and the maximising
    orders are those computed without the balls, bit for bit, with fewer working-precision curve values (including
    a Gaussian factor, an endpoint supremum, and a pair with an outcome Q cannot produce)."""
    random_finite_pairs = _zc.random_finite_pairs

    pairs = [z for _l, z in random_finite_pairs(11, 4)]
    pairs += [ZPair.normal_times_finite(1, 1, pairs[0].P, pairs[0].Q), _rr(mp.mpf(2)),
              ZPair.finite(Finite([0, 1], [sp.Rational(1, 2)] * 2), Finite([0, 1], [1, 0]))]
    with mp.workdps(dps):
        for z in pairs:
            calls = {"n": 0}
            curve = z.curve

            def counted(a, curve=curve):
                calls["n"] += 1
                return curve(a)

            monkeypatch.setattr(z, "curve", counted)
            fast = [z.rho_star(), z.rho_star(mp.mpf(1) / 10), z.xi_star(mp.mpf(1) / 5), z.xi_star(3)]
            n_fast, calls["n"] = calls["n"], 0
            monkeypatch.setattr(z, "_curve_ball", lambda g: None)
            plain = [z.rho_star(), z.rho_star(mp.mpf(1) / 10), z.xi_star(mp.mpf(1) / 5), z.xi_star(3)]
            assert fast == plain, z.label
            if z.P.probs[-1] and z.Q.probs[-1]:  # (Q(x) = 0 < P(x): the curve is infinite, no balls)
                assert n_fast < calls["n"] * 0.7, z.label


@pytest.mark.parametrize("dps", [15, 30])
def test_xi_star_ranking_balls_hold_the_rounding_of_large_terms(dps):
    """``xi*(rho) = sup_alpha D_alpha - rho alpha`` for a Gaussian factor with ``rho`` at the premise ``rho_0 = 2^19``:
    the curve and ``rho alpha`` are near ``2^19 alpha`` (up to about 1e13 alpha) while their difference stays near
    0.3, so the working-precision values round on the grid of the large terms.  Balls of the exact values only
    would order neighbouring orders that the computed values tie or reverse (a different xi*); the balls hold the
    computed values' rounding, so xi* is that computed without them, bit for bit."""
    P, Q = Finite([0, 1], [sp.Rational(1, 3), sp.Rational(2, 3)]), Finite([0, 1], [sp.Rational(1, 2)] * 2)
    with mp.workdps(dps):
        for sigma in (sp.Rational(1, 1024), sp.Rational(1, 4096)):
            z = ZPair.normal_times_finite(sigma, 1, P, Q)
            plain = ZPair.normal_times_finite(sigma, 1, P, Q)
            plain._curve_ball = lambda g: None
            r = z.premise_rho()
            assert z.xi_star(r) == plain.xi_star(r) and z.rho_star(r / 3) == plain.rho_star(r / 3), sigma
