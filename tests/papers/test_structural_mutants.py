"""Mutation fixtures of the structural claims: a deliberate defect never comes out holds/verified."""

import pytest

from cbdp_sym.app.registry import Registry
from cbdp_sym.verify.engine import audit_claim
from ..conftest import FIXTURES

FIX = FIXTURES / "structural"


@pytest.fixture(scope="module")
def reg():
    return Registry([FIX], builtin=False)


@pytest.mark.parametrize("cid, reason", [
    ("MUT6-PINSKER-8", "family bern"),
    ("MUT6-T7-NOCONST", "family b"),
    ("MUT6-T4-HALF", "family lin"),
    ("MUT6-T1-SQUARE", "family sq"),
    ("MUT6-L6-CONE", "of 10 comparisons fail"),
    ("MUT6-LIN-IS-KL", "but the definition gives"),
])
def test_structural_mutants_are_refuted(reg, cid, reason):
    """The verdict and its reason: the family (or the pair count, or the value) that shows the defect."""
    res = audit_claim(reg.get(cid), dps=20)
    assert res.status == "refuted", (cid, res.status, res.message)
    assert reason in res.message, res.message
