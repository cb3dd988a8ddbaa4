"""Mutation fixtures of the structural claims: a deliberate defect never comes out holds/verified."""

import pytest

from cbdp_sym.app.registry import Registry
from cbdp_sym.verify.engine import audit_claim
from ..conftest import FIXTURES

FIX = FIXTURES / "structural"


@pytest.fixture(scope="module")
def reg():
    return Registry([FIX], builtin=False)


@pytest.mark.parametrize("cid", ["MUT6-PINSKER-8", "MUT6-T7-NOCONST", "MUT6-T4-HALF", "MUT6-T1-SQUARE",
                                 "MUT6-L6-CONE", "MUT6-LIN-IS-KL"])
def test_structural_mutants_are_refuted(reg, cid):
    res = audit_claim(reg.get(cid), dps=20)
    assert res.status == "refuted", (cid, res.status, res.message)
