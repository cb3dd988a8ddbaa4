"""The user folder examples/dgauss (Canonne, Kamath, Steinke's discrete Gaussian): audited through --path."""
import ast

import mpmath as mp
import pytest

from cbdp_sym.app.registry import Registry
from cbdp_sym.verify.engine import audit_claim

from ..conftest import ROOT

FOLDER = ROOT / "examples" / "dgauss"


@pytest.fixture(scope="module")
def reg():
    return Registry([ROOT / "examples"])


def _audit(reg, cid, dps=50):
    return audit_claim(reg.get(cid), dps)


def test_the_folder_is_written_with_the_engine_alone():
    """Imports only from cbdp_sym (and sympy / mpmath); no SymPy function of its own; no sum over an infinite range
    written by hand (the engine's laws and LatticeSum do that, with tail bounds)."""
    for path in sorted(FOLDER.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] in ("cbdp_sym", "sympy", "mpmath"), (path.name, node.module)
            if isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] in ("sympy", "mpmath") for a in node.names), path.name
            if isinstance(node, ast.ClassDef):
                raise AssertionError(f"{path.name} defines a class ({node.name})")
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("Sum", "nsum"):
                seg = ast.get_source_segment(path.read_text(encoding="utf-8"), node)
                assert "oo" not in seg and "nsum" not in seg, (path.name, seg)  # a finite sum is a printed formula


def test_the_renyi_identity_is_derived_symbolically(reg):
    r = _audit(reg, "DG-RENYI")
    assert r.status == "verified" and r.symbolic == "derived - claimed simplifies to 0"
    assert any("index shift" in st.note for st in r.steps)


def test_the_factor_2_variant_is_refuted_with_a_certificate(reg):
    r = _audit(reg, "DG-CDP-F2")
    assert r.status == "refuted" and r.counterexample["certified"]


def test_the_tail_variant_is_certified_through_an_arb_lattice_sum(reg):
    r = _audit(reg, "DG-TAIL-F2", dps=30)
    assert r.status == "refuted" and r.counterexample["certified"] and "Arb" in r.counterexample["certificate"]


def test_the_strict_variance_bound_is_not_refuted_by_rounding(reg):
    """Var[X] < sigma^2 holds at sigma = 10 by 4.3e-852: the quantity is the difference, summed without cancellation."""
    r = _audit(reg, "DG-VAR")
    assert r.status == "holds"
    slacks = {c.params["sigma"]: mp.mpf(c.slack) for c in r.checks}
    assert all(v > 0 for v in slacks.values()) and slacks["10"] < mp.mpf(10) ** -800


@pytest.mark.slow
def test_the_exact_profile_agrees_with_the_definition_to_45_digits(reg):
    r = _audit(reg, "DG-DP")
    assert r.status == "verified" and min(c.digits for c in r.checks) >= 45


@pytest.mark.slow
def test_every_claim_of_the_folder(reg):
    want = {"DG-RENYI": "verified", "DG-CDP": "holds", "DG-CDP-F2": "refuted", "DG-KL": "verified", "DG-DP": "verified",
            "DG-COMP": "verified", "DG-VAR": "holds", "DG-MGF": "holds", "DG-TAIL": "holds", "DG-TAIL-F2": "refuted",
            "DG-DLAP-DP": "verified", "DG-DLAP-VAR": "verified", "DG-DLAP-CDP": "holds", "DG-SUB": "verified"}
    got = {cid: _audit(reg, cid).status for cid in want}
    assert got == want
