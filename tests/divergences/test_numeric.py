"""Numerics from the definitions (cbdp_sym.divergences.numeric): split quadrature, divergences, golden section."""
import mpmath as mp
import pytest
import sympy as sp

import cbdp_sym.divergences.numeric as num
from cbdp_sym import KL, TV, Laplace, Normal, fdiv_mp
from cbdp_sym.divergences import quad_split
from cbdp_sym.laws.distributions import Finite
from cbdp_sym.calculus.optimize import golden_section
from cbdp_sym.divergences.numeric import renyi_mp


@pytest.mark.parametrize("dps", [15, 30, 60])
def test_split_quadrature_at_kinks_follows_the_precision(dps):
    with mp.workdps(dps):
        got = quad_split(lambda t: mp.exp(-abs(t)) * abs(t - 1), kinks=(0, 1))
        want = 2 * mp.exp(-1) + 2  # int e^{-|t|} |t - 1| dt over R
        assert abs(got - want) < mp.mpf(10) ** (-dps + 5)


def test_divergences_from_their_definitions_at_an_unprinted_instance():
    with mp.workdps(40):
        P, Q = Laplace(0, sp.Rational(1, 3)), Laplace(2, sp.Rational(1, 3))  # scale 1/3, shift 2
        kl = fdiv_mp(KL, P, Q)
        assert abs(kl - (6 - 1 + mp.exp(-6))) < mp.mpf(10) ** -35
        tv = fdiv_mp(TV, P, Q)
        assert abs(tv - (1 - mp.exp(-3))) < mp.mpf(10) ** -35
        r = renyi_mp(Normal(0, 3), Normal(2, 3), sp.Rational(7, 2))  # alpha mu^2 / (2 sigma^2)
        assert abs(r - mp.mpf(7) / 2 * 4 / 18) < mp.mpf(10) ** -35
        F1, F2 = Finite([0, 1], [sp.Rational(1, 4), sp.Rational(3, 4)]), Finite([0, 1], [sp.Rational(1, 2), sp.Rational(1, 2)])
        assert abs(renyi_mp(F1, F2, 2) - mp.log(mp.mpf(1) / 8 + mp.mpf(9) / 8)) < mp.mpf(10) ** -35


def test_golden_section_finds_an_interior_maximum():
    with mp.workdps(30):
        a, b, best = golden_section(lambda t: -(t - mp.mpf(1) / 3) ** 2 + 2, 0, 1, tol=mp.mpf(10) ** -25)
        # a maximum is flat: its location is known to about the square root of the precision, its value to all of it
        assert abs((a + b) / 2 - mp.mpf(1) / 3) < mp.mpf(10) ** -12 and abs(best - 2) < mp.mpf(10) ** -28
        with pytest.raises(ValueError):
            golden_section(lambda t: t, 0, 1)


def test_renyi_memo_returns_the_bits_of_a_fresh_computation_and_tells_exact_inputs_apart(monkeypatch, tmp_path):
    import cbdp_sym.core.store as store
    import cbdp_sym.divergences.numeric as num
    from cbdp_sym import Product

    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))  # an empty cache folder: nothing is read from disk
    num._renyi_remembered.cache_clear()
    calls = []
    inner = num._renyi_mp
    monkeypatch.setattr(num, "_renyi_mp", lambda P, Q, al: calls.append((P, Q)) or inner(P, Q, al))
    third = sp.Rational(1, 3)
    with mp.workdps(30):
        P, Q = Product(Laplace(0, third), Normal(0, 1)), Product(Laplace(1, third), Normal(1, 1))
        first = num.renyi_mp(P, Q, sp.Rational(5, 2))
        n = len(calls)  # the product and its two coordinates
        assert n == 3
        again = num.renyi_mp(P, Q, mp.mpf(5) / 2)  # the same order, as an mpf
        assert again == first and len(calls) == n
        # a Float near 1/3 is another law (its text is that of 1/3 at 15 digits); another precision is another value
        F = sp.Float(1 / 3, 15)
        assert str(F) == str(sp.Float(str(F), 15)) and F != sp.Float(str(F), 15)
        num.renyi_mp(Laplace(0, F), Laplace(1, F), sp.Rational(5, 2))
        num.renyi_mp(Laplace(0, sp.Float(str(F), 15)), Laplace(1, sp.Float(str(F), 15)), sp.Rational(5, 2))
        assert len(calls) == n + 2
    with mp.workdps(40):
        num.renyi_mp(P, Q, sp.Rational(5, 2))
        assert len(calls) == 2 * n + 2
    num._renyi_remembered.cache_clear()
    with mp.workdps(30):
        fresh = inner(P, Q, mp.mpf(5) / 2)
        assert fresh == first and fresh._mpf_ == first._mpf_
        k = len(calls)
        monkeypatch.setattr(num, "_LAW_TYPES", ())  # laws that are not exact-keyable: computed every time
        num.renyi_mp(Laplace(0, 1), Laplace(1, 1), 2)
        num.renyi_mp(Laplace(0, 1), Laplace(1, 1), 2)
        assert len(calls) == k + 2
        monkeypatch.undo()
        monkeypatch.setattr(num, "_renyi_mp", lambda P, Q, al: calls.append((P, Q)) or inner(P, Q, al))
        monkeypatch.setattr(store, "_ENABLED", [False])  # --no-cache: computed every time
        num.renyi_mp(Laplace(0, 1), Laplace(1, 1), 2)
        num.renyi_mp(Laplace(0, 1), Laplace(1, 1), 2)
        assert len(calls) == k + 4


def test_renyi_values_are_shared_through_the_cache_folder_bit_for_bit(monkeypatch, tmp_path):
    import time

    import cbdp_sym.divergences.numeric as num

    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    calls = []
    inner = num._renyi_mp

    def slow(P, Q, al):  # every computation takes more than the 5 ms under which a value is not written
        calls.append((P, Q))
        time.sleep(0.006)
        return inner(P, Q, al)

    monkeypatch.setattr(num, "_renyi_mp", slow)
    P, Q = Laplace(0, sp.Rational(1, 3)), Laplace(1, sp.Rational(1, 3))
    with mp.workdps(30):
        num._renyi_remembered.cache_clear()
        first = num.renyi_mp(P, Q, 3)
        num._renyi_remembered.cache_clear()  # as a fresh worker: only the cache folder is left
        again = num.renyi_mp(P, Q, 3)
        assert len(calls) == 1 and again._mpf_ == first._mpf_ == inner(P, Q, mp.mpf(3))._mpf_
        assert list(tmp_path.rglob("*.json"))
        num._renyi_remembered.cache_clear()
        num.renyi_mp(P, Q, 4)  # another order: computed
        assert len(calls) == 2
    with mp.workdps(40):
        num._renyi_remembered.cache_clear()
        num.renyi_mp(P, Q, 3)  # another precision: computed
        assert len(calls) == 3


# -- the raw-value Renyi integrand: the generic one bit for bit (issue 18)
import random  # noqa: E402

import cbdp_sym.divergences.numeric as numeric  # noqa: E402

from .test_profiles import PAIRS, _points  # noqa: E402


@pytest.mark.parametrize("dps", [20, 60])
def test_renyi_integrand_is_the_generic_one_bit_for_bit(dps):
    rng = random.Random(dps + 7)
    for P, Q in PAIRS:
        with mp.workdps(dps):
            for _ in range(30):
                al, top = mp.mpf(rng.choice([2, 1.5, 13, 1 + 1e-6, rng.uniform(1, 40)])), mp.mpf(rng.uniform(-5, 5))
                f = numeric._renyi_integrand_raw(P, Q, al, top)
                for x in _points(rng):
                    want = mp.exp(al * P.mp_log_pdf(x) + (1 - al) * Q.mp_log_pdf(x) - top)
                    assert f(x)._mpf_ == want._mpf_


def test_laws_without_a_raw_density_use_the_generic_integrand():
    from cbdp_sym.laws.distributions import Finite
    assert numeric.raw_log_pdf(Finite([0, 1], [sp.Rational(1, 2), sp.Rational(1, 2)])) is None


@pytest.mark.parametrize("alpha", [0.5, "nan"])
def test_renyi_order_below_one_is_a_parameter_error(alpha):
    from cbdp_sym.core.errors import ParameterError

    with pytest.raises(ParameterError, match="alpha >= 1"):
        renyi_mp(Normal(0, 1), Normal(1, 1), mp.mpf(alpha))


# -- the tanh-sinh rule: mpmath's nodes, bit for bit, transformed on raw values ------------------------------------

@pytest.mark.parametrize("dps", [15, 50, 60])
def test_transformed_nodes_are_mpmaths_bit_for_bit(dps):
    rule, stock = num.tanh_sinh(), mp.mp._tanh_sinh
    rng = random.Random(dps)
    with mp.workdps(dps):
        prec = mp.mp.prec
        for degree in range(1, 6):
            nodes = stock.calc_nodes(degree, prec)
            for _ in range(4):
                a = mp.mpf(rng.uniform(-50, 50)) * mp.mpf(10) ** rng.randint(-5, 3)
                b = a + mp.mpf(rng.uniform(1e-3, 10))
                for lo, hi in ((a, b), (-mp.inf, a), (a, mp.inf), (-mp.inf, mp.inf), (b, a), (mp.inf, a), (-1, 1)):
                    with mp.workprec(prec + 20):
                        got = rule.transform_nodes(nodes, lo, hi)
                        want = stock.transform_nodes(nodes, lo, hi)
                    assert [(x._mpf_, w._mpf_) for x, w in got] == [(x._mpf_, w._mpf_) for x, w in want]


def test_quadratures_use_the_rule_and_agree_with_mpmath(monkeypatch):
    """Fails where the module's quadratures use mpmath's stock rule (its per-node mpf objects)."""
    calls = []
    orig = num._TanhSinh.transform_nodes

    def counted(self, nodes, a, b, verbose=False):
        calls.append((a, b))
        return orig(self, nodes, a, b, verbose)

    monkeypatch.setattr(num._TanhSinh, "transform_nodes", counted)
    f = lambda x: mp.exp(-3 * abs(x - mp.mpf(1) / 3)) * mp.cos(x)  # noqa: E731
    pts = [mp.mpf(-7) / 5, mp.mpf(1) / 3, mp.mpf(11) / 7]
    with mp.workdps(40):
        got = num.quad_split(f, kinks=[mp.mpf(1) / 3])
        n = len(calls)
        v = num.vquad(lambda x: [f(x), x * f(x)], pts, 2)
    assert n > 0 and len(calls) > n
    monkeypatch.setattr(num, "tanh_sinh", lambda ctx=None: mp.mp._tanh_sinh)  # mpmath's own rule: the same bits
    with mp.workdps(40):
        assert got == num.quad_split(f, kinks=[mp.mpf(1) / 3])
        assert v == num.vquad(lambda x: [f(x), x * f(x)], pts, 2)
