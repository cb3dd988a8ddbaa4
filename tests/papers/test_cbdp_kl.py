"""The CBDP KL claims: each derivation exactly, and each verdict."""
import pytest
import sympy as sp

from cbdp_sym.core.symbols import a, eps, mu1, mu2, sigma, sigma1, sigma2
from cbdp_sym.verify.engine import audit_claim, derive

EXACT = {
    "CBDP-T8": eps - 1 + sp.exp(-eps),
    "CBDP-T9": sp.log(1 - ((1 - sp.sqrt(1 + eps**2)) / eps) ** 2) + sp.sqrt(1 + eps**2) - 1,
    "CBDP-T10": (mu1 - mu2) ** 2 / (2 * sigma2**2),
    "CBDP-TAB1-KL-GAU-LIN": 1 / (2 * sigma**2),
    "CBDP-TAB1-KL-GAU-UNR": 1 / (2 * sigma**2),
    "CBDP-EQ1-KL": sp.exp(sp.Symbol("s", real=True) - 1),
}


@pytest.mark.parametrize("cid", sorted(EXACT))
def test_derivation_exact(registry, cid):
    expr, steps = derive(registry.get(cid))
    assert sp.simplify(expr - EXACT[cid]) == 0
    assert steps, "a derivation must record its steps"


def test_theorem8_pieces_match_the_proof(registry):
    _expr, steps = derive(registry.get("CBDP-T8"))
    pieces = [st.rhs for st in steps if isinstance(st.lhs, sp.Integral)]
    printed = [eps / 2, eps**2 / 2 * ((1 + sp.exp(-eps)) / eps + (2 * sp.exp(-eps) - 2) / eps**2), -eps * sp.exp(-eps) / 2]
    assert len(pieces) == 3
    for got, want in zip(pieces, printed):
        assert sp.simplify(got - want) == 0


def test_theorem10_does_not_depend_on_sigma1(registry):
    expr, _ = derive(registry.get("CBDP-T10"))
    assert sigma1 not in expr.free_symbols


def test_lemma1_eliminates_the_intercept(registry):
    expr, steps = derive(registry.get("CBDP-L1"))
    claimed = registry.get("CBDP-L1").claimed()
    assert sp.simplify(expr - claimed) == 0
    assert a in expr.free_symbols


@pytest.mark.parametrize("cid,status", [
    ("CBDP-D2", "definition"), pytest.param("CBDP-EQ1", "verified", marks=pytest.mark.slow), ("CBDP-EQ1-KL", "verified"), ("CBDP-EQ1-TV", "verified"),
    ("CBDP-EQ1-ALPHA", "verified"), ("CBDP-T8", "verified"), ("CBDP-TAB1-KL-LAP-UNR", "verified"),
    ("CBDP-TAB1-KL-GAU-UNR", "verified"),
])
def test_fast_verdicts_at_two_precisions(registry, cid, status):
    for dps in (20, 50):
        res = audit_claim(registry.get(cid), dps=dps)
        assert res.status == status, res.message
        if status == "verified":
            assert res.min_digits() >= dps - 5


@pytest.mark.parametrize("cid,status", [
    pytest.param("CBDP-L1", "verified", marks=pytest.mark.slow), pytest.param("CBDP-T9", "verified", marks=pytest.mark.slow), pytest.param("CBDP-T10", "verified", marks=pytest.mark.slow), ("CBDP-TAB1-KL-LAP-LIN", "verified"),
    pytest.param("CBDP-TAB1-KL-GAU-LIN", "verified", marks=pytest.mark.slow), pytest.param("CBDP-S5-GAUKL", "verified", marks=pytest.mark.slow), pytest.param("CBDP-S5-LAPKL", "holds", marks=pytest.mark.slow),
])
def test_optimisation_verdicts(registry, cid, status):
    res = audit_claim(registry.get(cid), dps=30)
    assert res.status == status, res.message
    if status == "verified":
        assert res.min_digits() >= 25
    assert len(res.checks) >= 5


@pytest.mark.slow
def test_lapkl_slack_is_reported(registry):
    res = audit_claim(registry.get("CBDP-S5-LAPKL"), dps=20)
    assert "smallest relative slack" in res.message
    slacks = [float(c.slack) for c in res.checks]
    assert min(slacks) > 0.01 and max(slacks) < 0.6
