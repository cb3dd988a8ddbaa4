"""The Bun-Steinke (zCDP) audit: coverage, derivations at unprinted instances, the verdicts of the findings, mutants.

Audits run at low precision (20 digits) so that the fast set stays fast; the full audit runs at 50 digits.
"""
import os
import re
from pathlib import Path

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.divergences.mechanisms import renyi_numeric
from cbdp_sym.core.numbers import digits
from cbdp_sym.app.registry import Registry
from cbdp_sym.core.tape import recording
from cbdp_sym.verify.engine import audit_claim
from ..conftest import FIXTURES

FIX = FIXTURES / "zcdp"
# the shared catalogue of claims (a folder of <paper>.md, kept outside the checkout): compared when
# CBDP_SYM_CATALOGUES names that folder, never looked for at a path of one machine
CATALOGUES = os.environ.get("CBDP_SYM_CATALOGUES")
CATALOGUE_MD = Path(CATALOGUES) / "zcdp.md" if CATALOGUES else None


def test_every_catalogued_claim_is_encoded(registry):
    enc, cat, parts = registry.coverage()["zcdp"]
    assert cat == 74 and enc == cat
    assert all(p.startswith("ZCDP-") for p in parts)


@pytest.mark.skipif(CATALOGUE_MD is None or not CATALOGUE_MD.exists(), reason="CBDP_SYM_CATALOGUES does not name the shared catalogue")
def test_catalogue_tsv_matches_the_shared_catalogue(registry):
    ids = re.findall(r"^\| (ZCDP-[A-Za-z0-9.]+) \|", CATALOGUE_MD.read_text(), re.M)
    assert [cid for cid, _ in registry.papers["zcdp"].catalogue] == ids


def _mod(registry, cid):
    return registry.get(cid)


@pytest.mark.slow
def test_lemma_2_4_derivation_at_an_unprinted_instance(registry):
    c = registry.get("ZCDP-L2.4")
    with recording():
        expr = c.derive()
    mu, nu, sigma, alpha = (c.symbols()[k] for k in ("mu", "nu", "sigma", "alpha"))
    from cbdp_sym import Normal

    with mp.workdps(30):
        val = sp.N(expr.subs({mu: 2, nu: -1, sigma: 3, alpha: sp.Rational(7, 2)}), 30)
        num = renyi_numeric(Normal(2, 3), Normal(-1, 3), mp.mpf(7) / 2)
        assert digits(val, num) > 25


def test_exact_zcdp_constant_of_pure_dp_is_eps_tanh(registry):
    c = registry.get("ZCDP-P1.4")
    with recording():
        expr = c.derive()
    e = c.symbols()["eps"]
    assert sp.simplify((expr - e * sp.tanh(e / 2)).rewrite(sp.exp)) == 0


@pytest.mark.slow  # 18 s (one point of a tail integral at 20 digits); the printed points are in the full audit
def test_tail_integral_claim_at_an_unprinted_point(registry):
    c = registry.get("ZCDP-L3.6-INT")
    res = audit_claim(c, 20, points=[c.parse_point({"xi": "1/3", "rho": "2", "eps": "5"})])
    assert res.status == "verified", res.message


@pytest.mark.parametrize("cid", [pytest.param("ZCDP-L3.6-OPT3", marks=pytest.mark.slow), "ZCDP-L3.6-SUB1", "ZCDP-S6.1b", "ZCDP-P6.4-EV8", "ZCDP-PA.1-V",
                                 "ZCDP-T1.11-HYP"])
def test_printed_statements_found_wrong_are_refuted_and_certified(registry, cid):
    res = audit_claim(registry.get(cid), 20)
    assert res.status == "refuted", res.message
    assert res.counterexample and res.counterexample.get("certified") is True, res.counterexample


@pytest.mark.parametrize("cid", [pytest.param("ZCDP-L3.6-OPT2", marks=pytest.mark.slow),  # 12 s
                                 "ZCDP-C8.9", "ZCDP-L3.6-DOM"])
def test_statements_with_two_readings_are_ambiguous(registry, cid):
    """Two parses of the printed array: the literal one fails with a certified counterexample, the other holds."""
    res = audit_claim(registry.get(cid), 20)
    assert res.status == "ambiguous" and res.error_kind == "reading", res.message
    assert res.readings[0]["status"] == "refuted" and res.readings[1]["status"] in ("holds", "verified")
    assert res.counterexample and res.counterexample.get("certified") is True, res.counterexample


def test_lemma_4_3_is_refuted_by_an_unbounded_ratio(registry):
    res = audit_claim(registry.get("ZCDP-L4.3"), 20)
    assert res.status == "refuted" and "\\infty" in res.message and res.counterexample["certified"], res.message


@pytest.mark.parametrize("cid", [pytest.param("ZCDP-L3.6-OPT3-CORR", marks=pytest.mark.slow), "ZCDP-P1.4", "ZCDP-P3.3"])
def test_corrected_and_true_statements_hold(registry, cid):
    assert audit_claim(registry.get(cid), 20).status == "holds"


def test_corrections_of_the_proof_steps_hold(registry):
    for cid in ("ZCDP-PA.1-V", "ZCDP-T1.11-HYP", "ZCDP-P6.4-EV8", "ZCDP-LA.2-COOK"):
        res = audit_claim(registry.get(cid), 20)
        assert res.corrected is not None and res.corrected.status == "holds", (cid, res.corrected and res.corrected.message)


@pytest.mark.slow
def test_conversion_table_marks_the_printed_minimum_below_the_exact_gaussian(registry):
    res = audit_claim(registry.get("ZCDP-L3.6-TABLE"), 20)
    assert res.status == "verified"
    rows = res.tables[0]["rows"]
    assert len(rows) == 12 and any("(< exact)" in cell for row in rows for cell in row)
    # Prop. 1.3 and the first form of Lemma 3.6 are never below the exact value
    assert not any("(< exact)" in row[2] or "(< exact)" in row[3] for row in rows)


@pytest.fixture(scope="module")
def mutants():
    return Registry([FIX], builtin=False)


@pytest.mark.parametrize("cid,status,reason", [
    ("ZMUT-CHERNOFF-FACTOR", "refuted", "(certified)"),
    ("ZMUT-GAUSS-NO-ALPHA", "refuted", "(certified)"),
    ("ZMUT-HALF-MILLS", "refuted", "the bound $\\le$ fails at x="),
    ("ZMUT-PURE-QUARTER", "refuted", r"$D_\alpha \le \frac14\varepsilon^2\alpha$: computed"),
    ("ZMUT-WRONG-LIMIT", "inconclusive", "the derived form disagrees with the numeric definition"),
])
def test_mutants_fail_for_their_reason(mutants, cid, status, reason):
    res = audit_claim(mutants.get(cid), 20)
    assert res.status == status and reason in res.message, (cid, res.status, res.message)
