"""Mutation fixtures: a defect must never come out verified."""
import pytest

from cbdp_sym.verify.engine import audit_claim


def test_sign_flip_is_refuted_with_certified_counterexample(mutant_registry):
    res = audit_claim(mutant_registry.get("MUT-T8-SIGN"), dps=30)
    assert res.status == "refuted"
    cx = res.counterexample
    assert cx["certified"] is True and "disjoint" in cx["certificate"]
    assert cx["bound"] != cx["quantity"] and "eps" in cx["params"]  # (the one counterexample layout: printed side "bound")


@pytest.mark.parametrize("cid,reason", [
    ("MUT-T8-KINK", "the derived form disagrees with the numeric definition"),
    ("MUT-T8-FACTOR", "the derived form disagrees with the numeric definition"),
    ("MUT-T9-ROOT", "is not a real number"),  # the other root of the stationarity equation: complex
])
def test_defective_derivations_are_caught_for_their_reason(mutant_registry, cid, reason):
    """A wrong derivation is never verified: the independent numerics expose it (inconclusive, with the point)."""
    res = audit_claim(mutant_registry.get(cid), dps=20)
    assert res.status == "inconclusive", res.message
    assert reason in res.message


def test_false_bound_is_refuted(mutant_registry):
    res = audit_claim(mutant_registry.get("MUT-BOUND"), dps=20)
    assert res.status == "refuted"
    assert res.counterexample["certified"] is True


def test_crash_is_an_error_with_message(mutant_registry):
    res = audit_claim(mutant_registry.get("MUT-CRASH"), dps=20)
    assert res.status == "error" and "deliberate crash" in res.message
