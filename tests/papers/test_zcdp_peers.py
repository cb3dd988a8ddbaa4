"""autodp and dp_accounting as oracles for the zCDP audit (they must run in CI)."""
import os
import sys

import pytest

import cbdp_sym.divergences.peers as peers
from cbdp_sym.verify.engine import audit_claim
from cbdp_sym.verify.mutation import mutate

CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _need(lib):
    if not peers.available(lib):
        if CI:
            pytest.fail(f"{lib} must be installed in CI (pip install .[oracles])")
        pytest.skip(f"{lib} is not installed")


@pytest.mark.slow  # 14 s (the whole peer table at 20 digits); the two tests below call each library in the fast set
def test_peer_claim_agrees_with_both_libraries(registry):
    _need("autodp")
    _need("dp_accounting")
    res = audit_claim(registry.get("ZCDP-PEERS"), 20)
    assert res.status == "verified", res.message
    rows = res.tables[0]["rows"]
    assert any("autodp" in r[0] for r in rows) and any("dp accounting" in r[0] for r in rows)
    # every library value within the digits its method guarantees (the table shows both)
    for r in rows:
        if r[3] != "--":
            assert float(r[3]) <= 10.0 ** -int(r[4].split()[0]), r
    outs = mutate(res.evidence, res.status, 20, "ZCDP-PEERS")
    assert outs and all(o.moved for o in outs), outs


def test_peer_claim_is_skipped_without_the_libraries(registry, monkeypatch):
    """A missing optional library makes the claim `skipped` (outside the verdict counts), never `inconclusive`."""
    monkeypatch.setitem(sys.modules, "autodp", None)  # `import autodp` raises ImportError
    res = audit_claim(registry.get("ZCDP-PEERS"), 20)
    assert res.status == "skipped" and "autodp" in res.message and "pip install" in res.message, res.message


def test_a_comparison_to_fewer_digits_moves_under_the_mutation_battery():
    """A library value checked to 13 digits (needs=13): the battery perturbs it beyond those digits, not beyond the
    45 of a full-precision identity (which would leave it verified: a check that cannot fail)."""
    import mpmath as mp

    from cbdp_sym.verify.evidence import Compare, collect, decide, to_json

    with mp.workdps(40):
        ev = collect(Compare(claimed=mp.mpf(1) / 3 * (1 + mp.mpf(10) ** -15), computed=mp.mpf(1) / 3, needs=13), 30)
        assert decide(ev, 30).status == "verified"
        outs = mutate({"tree": to_json(ev, 30), "dps": 30}, "verified", 30)
    assert outs and all(o.moved for o in outs), outs


def test_dp_accounting_zcdp_event_matches_the_improved_conversion():
    _need("dp_accounting")
    import mpmath as mp

    from cbdp_sym.app.registry import builtin_module

    dpa_zcdp_epsilon = builtin_module("zcdp", "_shared").dpa_zcdp_epsilon
    from cbdp_sym.divergences.conversions import eps_improved

    pv, orders = dpa_zcdp_epsilon(0.25, 0.0, 1e-7)
    ref = min(max(mp.mpf(0), eps_improved(mp.mpf(0.25) * a, mp.mpf(a), mp.mpf(1e-7))) for a in orders if a > 1.01)
    assert abs(pv.value - float(ref)) <= 1e-12 * float(ref)


def test_autodp_pure_dp_curve_is_randomized_response():
    _need("autodp")
    import mpmath as mp

    from cbdp_sym.app.registry import builtin_module

    zc = builtin_module("zcdp", "_shared")
    ZPair, autodp_puredp_rdp = zc.ZPair, zc.autodp_puredp_rdp
    from cbdp_sym.laws.distributions import Finite

    e = mp.mpf(0.7)
    p = mp.exp(e) / (1 + mp.exp(e))
    ref = ZPair.finite(Finite([0, 1], [p, 1 - p]), Finite([0, 1], [1 - p, p])).renyi(mp.mpf(3))
    assert abs(autodp_puredp_rdp(0.7, 3.0).value - float(ref)) <= 1e-13 * float(ref)
