"""The tanh-sinh rule of :mod:`cbdp_sym.divergences.numeric`: mpmath's nodes, bit for bit, transformed on raw values."""
import random

import mpmath as mp
import pytest

import cbdp_sym.divergences.numeric as num


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
