"""Mutation fixtures: a defect must never come out verified."""
import pytest

from cbdp_sym.verify import audit_claim


def test_sign_flip_is_refuted_with_certified_counterexample(mutant_registry):
    res = audit_claim(mutant_registry.get("MUT-T8-SIGN"), dps=30)
    assert res.status == "refuted"
    cx = res.counterexample
    assert cx["certified"] is True and "disjoint" in cx["certificate"]
    assert cx["claimed"] != cx["numeric"] and "eps" in cx["params"]


@pytest.mark.parametrize("cid", ["MUT-T8-KINK", "MUT-T8-FACTOR", "MUT-T9-ROOT"])
def test_defective_derivations_are_not_verified(mutant_registry, cid):
    res = audit_claim(mutant_registry.get(cid), dps=20)
    assert res.status in ("refuted", "inconclusive"), res.message
    assert res.status != "verified"


def test_false_bound_is_refuted(mutant_registry):
    res = audit_claim(mutant_registry.get("MUT-BOUND"), dps=20)
    assert res.status == "refuted"
    assert res.counterexample["certified"] is True


def test_crash_is_an_error_with_message(mutant_registry):
    res = audit_claim(mutant_registry.get("MUT-CRASH"), dps=20)
    assert res.status == "error" and "deliberate crash" in res.message
