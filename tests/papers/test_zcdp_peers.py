"""autodp and dp_accounting as oracles for the zCDP audit (they must run in CI)."""
import os

import pytest

import cbdp_sym.divergences.peers as peers
from cbdp_sym.verify.engine import audit_claim

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
    assert all(r[3].split(", ")[-1] in ("agrees", "cancellation", "solver tolerance") for r in rows)


def test_dp_accounting_zcdp_event_matches_the_improved_conversion():
    _need("dp_accounting")
    import mpmath as mp

    from cbdp_sym.divergences.concentrated import dpa_zcdp_epsilon
    from cbdp_sym.divergences.conversions import eps_improved

    pv, orders = dpa_zcdp_epsilon(0.25, 0.0, 1e-7)
    ref = min(max(mp.mpf(0), eps_improved(mp.mpf(0.25) * a, mp.mpf(a), mp.mpf(1e-7))) for a in orders if a > 1.01)
    assert abs(pv.value - float(ref)) <= 1e-12 * float(ref)


def test_autodp_pure_dp_curve_is_randomized_response():
    _need("autodp")
    import mpmath as mp

    from cbdp_sym.divergences.concentrated import ZPair, autodp_puredp_rdp
    from cbdp_sym.laws.distributions import Finite

    e = mp.mpf(0.7)
    p = mp.exp(e) / (1 + mp.exp(e))
    ref = ZPair.finite(Finite([0, 1], [p, 1 - p]), Finite([0, 1], [1 - p, p])).renyi(mp.mpf(3))
    assert abs(autodp_puredp_rdp(0.7, 3.0).value - float(ref)) <= 1e-13 * float(ref)
