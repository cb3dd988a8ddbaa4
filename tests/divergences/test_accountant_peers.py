"""Tests of :mod:`cbdp_sym.divergences.accountant_peers` (the peers' accountants of the subsampled Gaussian)."""
import mpmath as mp

from cbdp_sym.divergences.accountant_peers import peer_rows, subsampled_gaussian_eps_peers
from cbdp_sym.divergences.peers import PeerValue


def test_each_peer_is_a_row_with_its_relative_error():
    peers = subsampled_gaussian_eps_peers(0.01, 1.0, 100, 1e-5, include={"dp_accounting", "opacus"})
    libs = [lib for lib, _m, _v in peers]
    assert libs.count("dp_accounting") == 2 and "opacus" in libs
    with mp.workdps(30):
        rows = peer_rows(peers, mp.mpf("0.9"))
    pld = rows[0]
    assert pld["status"] == "computed" and pld["relative_error"] is not None and pld["version"]
    opacus = [r for r in rows if r["library"] == "opacus"][0]
    assert opacus["status"].startswith("skipped") or opacus["status"] == "computed"


def test_a_failing_peer_is_reported_not_raised():
    rows = peer_rows([("lib", "method", PeerValue("lib", "call()", None, "KeyError: 'gamma'"))], mp.mpf(1))
    assert rows[0]["status"] == "error: KeyError: 'gamma'" and rows[0]["value"] is None
