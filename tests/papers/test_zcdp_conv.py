"""Bun-Steinke's conversions and pure-DP claims (derivations/zcdp/conv.py, profiles.py, pure.py) decided by the engine
from evidence (issue 28): no verdict typed in the modules, every verdict able to move, hypotheses respected, slacks
computed without cancellation.

Audits run at 20 digits so that the fast set stays fast; the full audit runs at 50.
"""
import ast
from fractions import Fraction

import pytest

from cbdp_sym.verify.engine import audit_claim
from cbdp_sym.verify.evidence import from_json
from cbdp_sym.verify.mutation import mutate
from ..conftest import ROOT

MODULES = ("conv", "profiles", "peers_zcdp", "pure")
VERDICT_WORDS = {"verified", "holds", "refuted", "ambiguous", "inconclusive"}
LEGACY = {"CheckResult", "bound_check", "family_check", "family_evidence", "agreement", "within_tolerance",
          "printed_number", "overrule", "as_reading", "reading", "with_readings", "curves_above_reference",
          "merge_checks", "check_chain", "chain_table", "chain_counterexample", "failure_text"}


def _leaves(tree):
    if "group" in tree:
        for p in tree["parts"]:
            yield from _leaves(p)
    else:
        yield tree


def test_points_print_as_mathematics_without_nested_dollars(registry):
    """A point's values sit inside the engine's $...$: none may carry its own $ (the report's prose conversion breaks
    nested mathematics), nor a decimal in a text label (the printer turns it into mathematics)."""
    for cid in ("ZCDP-P3.3", "ZCDP-L3.6-OPT2-CORR", "ZCDP-C8.9-CORR", "ZCDP-L3.2"):
        res = audit_claim(registry.get(cid), 20)
        for leaf in _leaves(res.evidence["tree"]):
            assert "instance" not in leaf["at"] and not any("$" in str(v) for v in leaf["at"].values()), leaf["at"]


@pytest.mark.parametrize("module", MODULES)
def test_no_verdict_is_typed_in_the_module(module):
    """The engine decides every verdict: no verdict word as a string and no legacy verdict helper in the module."""
    tree = ast.parse((ROOT / "derivations" / "zcdp" / f"{module}.py").read_text())
    words = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in VERDICT_WORDS]
    names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in LEGACY} |
                   {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names if a.name in LEGACY})
    assert not words and not names, (words, names)


PURE = [("ZCDP-P1.4-EXACT", "verified"), ("ZCDP-P3.3", "holds"), ("ZCDP-LB.1", "holds"), ("ZCDP-L3.2", "holds"),
        ("ZCDP-C8.7", "holds"), ("ZCDP-L8.3", "holds")]


@pytest.mark.parametrize("cid,status", PURE)
def test_pure_dp_claims_are_decided_from_evidence_and_can_move(registry, cid, status):
    res = audit_claim(registry.get(cid), 20)
    assert res.status == status, res.message
    assert res.evidence and res.evidence["tree"], cid
    outs = mutate(res.evidence, res.status, 20, cid)
    assert outs and all(o.moved for o in outs), outs


def test_prop_3_3_is_checked_only_inside_its_hypothesis(registry):
    """Prop. 3.3 concludes for alpha > 1: no instance at alpha = 1 (a failure there would not be a counterexample)."""
    res = audit_claim(registry.get("ZCDP-P3.3"), 20)
    orders = [leaf["at"]["alpha"] for leaf in _leaves(res.evidence["tree"])]
    assert orders and all(Fraction(a) > 1 for a in orders), orders


def test_lemma_3_2_checks_both_directions(registry):
    """(=>) D_alpha <= D_oo, and (<=) the lower bound D_oo + log(p*)/(alpha - 1) that makes sup D_alpha = D_oo."""
    res = audit_claim(registry.get("ZCDP-L3.2"), 20)
    rels = {leaf["rel"] for leaf in _leaves(res.evidence["tree"])}
    assert rels == {"<=", ">="}
    # the converse's bound is not vacuous: tightened past D_alpha at its worst point it fails
    tree = from_json(res.evidence["tree"])
    assert tree.parts[1].parts and all(c.rel == ">=" for c in tree.parts[1].parts)


def _module(registry, cid):
    import sys

    fn = registry.get(cid).check
    return sys.modules[getattr(fn, "__wrapped__", fn).__module__]


def test_exact_epsilon_carries_only_the_digits_its_two_methods_agree_on(registry):
    import mpmath as mp

    from cbdp_sym.core.numbers import established

    mod = _module(registry, "ZCDP-P1.3-PROFILE")
    with mp.workdps(60):
        v = mp.mpf(2) / 3
        assert established(mod._exact_value({"eps": v, "digits": mp.mpf(31.7)}, 50)) == 31
        assert established(mod._exact_value({"eps": v, "digits": None}, 50)) == 1
        assert mod._exact_value({"eps": v, "digits": mp.mpf(55)}, 50) == v


@pytest.mark.slow  # about 40 s cold (the exact epsilons of six mechanisms)
@pytest.mark.parametrize("cid", ["ZCDP-P1.3-PROFILE", "ZCDP-L3.6-PROFILE"])
def test_conversions_against_the_exact_profile_hold_and_can_move(registry, cid):
    res = audit_claim(registry.get(cid), 20)
    assert res.status == "holds", res.message
    outs = mutate(res.evidence, res.status, 20, cid)
    assert outs and all(o.moved for o in outs), outs


CONV = [("ZCDP-L3.6-OPT1", "holds"), ("ZCDP-L3.6-OPT2-CORR", "holds"), ("ZCDP-L3.5", "holds"), ("ZCDP-P1.3", "holds"),
        ("ZCDP-L3.5-APPROX", "verified"), ("ZCDP-L3.6", "refuted"), ("ZCDP-L3.6-EPS", "holds"),
        ("ZCDP-L3.6-DELTA", "holds"), ("ZCDP-S1.1c", "holds"), ("ZCDP-S1.1b", "holds"), ("ZCDP-L3.7", "holds"),
        ("ZCDP-L8.8", "refuted"), ("ZCDP-L8.8-CORR", "holds"), ("ZCDP-L8.8-RHO0", "holds"), ("ZCDP-C8.9-CORR", "holds"),
        ("ZCDP-L3.6-TABLE", "verified")]


@pytest.mark.parametrize("cid,status", CONV)
def test_conversions_are_decided_from_evidence_and_can_move(registry, cid, status):
    res = audit_claim(registry.get(cid), 20)
    assert res.status == status, res.message
    outs = mutate(res.evidence, res.status, 20, cid)
    assert outs and all(o.moved for o in outs), outs


@pytest.mark.parametrize("cid", ["ZCDP-C8.9", "ZCDP-C8.10", "ZCDP-L3.6-DOM"])
def test_readings_of_the_corollaries_are_ambiguous_with_a_certified_counterexample(registry, cid):
    """Cor. 8.10 (short closed forms) certifies its counterexample in Arb like Cor. 8.9; each parse is named, the second
    with the extraction that supports it, and the corrected statement (the rows the proof derives) holds."""
    res = audit_claim(registry.get(cid), 20)
    assert res.status == "ambiguous" and res.error_kind == "reading", res.message
    assert [r["status"] for r in res.readings] == ["refuted", "holds"], res.readings
    assert all(r["name"] for r in res.readings) and res.readings[1]["seeds"], res.readings
    assert res.counterexample and res.counterexample["certified"] is True, res.counterexample
    assert res.corrected is not None and res.corrected.status == "holds", res.corrected and res.corrected.message


def test_corollary_8_11_is_a_typo_with_a_certified_counterexample(registry):
    """Cor. 8.11 prints sqrt(2 lambda) where Cor. 8.10 gives sqrt(2) lambda (the slip of ZCDP-L3.6-SUB1): refuted as a
    typo (certified in Arb), its corrected statement holds; no second reading of an unambiguous formula."""
    res = audit_claim(registry.get("ZCDP-C8.11"), 20)
    assert res.status == "refuted" and res.error_kind == "typo" and not res.readings, res.message
    assert res.counterexample["certified"] is True, res.counterexample
    assert res.corrected is not None and res.corrected.status == "holds", res.corrected.message


def _leaf_slacks(res):
    from cbdp_sym.verify.evidence import _leaves, decide_leaf

    tree = from_json(res.evidence["tree"])
    return [(c, decide_leaf(c, res.evidence["dps"])) for _p, c in _leaves(tree)]


def test_corollary_8_9_bound_keeps_its_slack_where_the_exact_delta_is_zero(registry):
    """At k = 1, eps_i = 1/2, a = 50 the exact delta is 0 and delta' ~ 4e-138: the slack is 1, not the 0 that
    1 - (1 - delta') gives at any working precision."""
    res = audit_claim(registry.get("ZCDP-C8.9-CORR"), 20)
    at = [(c, lf) for c, lf in _leaf_slacks(res) if c.rel == "<=" and c.at == {"k": "1", "eps": "1/2", "delta": "0", "a": "50"}]
    assert len(at) == 1 and at[0][1].slack == 1, at


def test_lemma_8_8_slack_is_not_swallowed_by_delta0(registry):
    """delta0 + (1 - delta0) delta' against delta0 + (1 - delta0) delta_E: compared without the common delta0, every
    relative slack is a real number, never 0 from rounding (it was 0.0 at delta0 = 1/100, a = 50)."""
    res = audit_claim(registry.get("ZCDP-L8.8-CORR"), 20)
    slacks = [lf.slack for c, lf in _leaf_slacks(res) if c.at.get("delta") == "1/100"]
    assert slacks and min(slacks) > 1e-3, min(slacks)


def test_the_proof_typo_is_refuted_and_its_correction_verified(registry):
    """Lemma B.2's proof prints sqrt(pi) rho for sqrt(pi rho): refuted (a typo, certified); the corrected form, Lemma
    3.6's, is audited beside it and verified (it used to reach only the message)."""
    res = audit_claim(registry.get("ZCDP-L3.6-SUB1"), 20)
    assert res.status == "refuted" and res.error_kind == "typo" and res.counterexample["certified"] is True
    assert res.corrected is not None and res.corrected.status == "verified", res.corrected and res.corrected.message


def test_lemma_3_7_proof_steps_reach_the_verdict(registry):
    """A numeric step of Lemma B.3's proof that failed (1 + 2 sqrt(pi) <= 4 instead of 5) refutes the claim."""
    from cbdp_sym.verify.evidence import _leaves, decide

    res = audit_claim(registry.get("ZCDP-L3.7"), 20)
    tree = from_json(res.evidence["tree"])
    step = [c for _p, c in _leaves(tree) if c.what == r"$1 + 2\sqrt\pi \le 5$"]
    assert len(step) == 1
    step[0].claimed = 4
    assert decide(tree, 20).status == "refuted"


def test_every_minimum_is_the_tree_sympy_builds(registry):
    """The modules build their printed minima unevaluated (``_shared.minimum``: no symbolic comparison of the entries
    at import); each is the tree ``sympy.Min`` builds from the same entries, so every form, value and report is the
    same.  Every ``minimum(...)`` call of conv.py and profiles.py is rebuilt both ways from its source."""
    import sympy as sp

    conv = _module(registry, "ZCDP-L3.6")
    profiles = sys_module(conv.__name__.rsplit(".", 1)[0] + ".profiles")
    calls, built = 0, {}
    for mod in (conv, profiles):
        src = (ROOT / "derivations" / "zcdp" / (mod.__name__.rsplit(".", 1)[1] + ".py")).read_text()
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "minimum":
                args = ast.get_source_segment(src, node)[len("minimum("):-1]
                calls += 1
                for last in ([conv.PRINTED["3"], conv.PROOF["3"]] if "*last" in args else [None]):
                    got = eval(f"minimum({args})", dict(vars(mod), last=[last]))  # noqa: S307 - the module's source
                    built[got.args] = (got, args)
    for got, args in built.values():  # each distinct minimum once (SymPy's comparisons are the slow part)
        want = sp.Min(*got.args)
        assert got == want and got.args == want.args, args
    assert calls >= 13 and len(built) >= 8, (calls, len(built))


def sys_module(name):
    import sys

    return sys.modules[name]
