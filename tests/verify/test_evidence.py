"""The engine decides verdicts from evidence (cbdp_sym.verify.evidence): one rule for every shape."""
import json
from fractions import Fraction

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import Claim, Estimate, Link, audit_claim
from cbdp_sym.verify.evidence import (All, Chain, Collected, Compare, Crossing, Evidence, Exists, Extremum, Readings,
                                      Skipped, Table, collect, collect_evidence, decide, decide_leaf, from_json, over,
                                      requires, sample, to_json)
from cbdp_sym.verify.mutation import battery, mutate


def verdict(node, dps=30):
    """The engine's decision on ``node`` (or on ``node()``, built at the working precision)."""
    with mp.workdps(dps + 10):
        return decide(collect(node() if callable(node) else node, dps), dps)


def test_identity_exact_numeric_and_estimates():
    assert verdict(lambda: Compare(claimed=Fraction(1, 3), computed=mp.mpf(1) / 3)).status == "verified"
    assert verdict(Compare(claimed=Fraction(1, 3), computed=mp.mpf("0.3334"))).status == "refuted"
    # a value established to 12 digits that agrees to all of them: not a counterexample, not verified
    with mp.workdps(40):
        v = Estimate(mp.mpf(1) / 3 + mp.mpf(10) ** -14, 12)
    got = verdict(Compare(claimed=Fraction(1, 3), computed=v))
    assert got.status == "inconclusive" and "established" in got.message
    # but a disagreement beyond the 12 digits is one
    assert verdict(Compare(claimed=Fraction(1, 3), computed=Estimate(mp.mpf("0.3"), 12))).status == "refuted"


def test_symbolic_identity_is_decided_by_the_engine():
    x = sp.Symbol("x", positive=True)
    assert verdict(Compare(claimed=sp.log(x**2), computed=2 * sp.log(x))).status == "verified"
    # SymPy failing to show a difference is 0 is unknown, never a refutation
    assert verdict(Compare(claimed=sp.log(x**2), computed=2 * sp.log(x) + 1)).status == "inconclusive"


def test_bounds_and_the_precision_gate():
    assert verdict(Compare(claimed=2, computed=mp.mpf(1), rel="<=")).status == "holds"
    assert verdict(Compare(claimed=1, computed=mp.mpf(2), rel="<=")).status == "refuted"
    assert verdict(Compare(claimed=1, computed=mp.mpf(2), rel=">=")).status == "holds"
    # a strict bound whose sides agree to every established digit is undecided, not refuted (Var < sigma^2 with a
    # gap of 5e-75 at 60 working digits)
    with mp.workdps(40):
        near = 1 - mp.mpf(10) ** -70
    got = verdict(Compare(claimed=1, computed=near, rel="<"))
    assert got.status == "inconclusive" and got.precision_limited
    # exact equality fails a strict bound
    assert verdict(Compare(claimed=1, computed=1, rel="<")).status == "refuted"
    # a violation smaller than the established digits of the computed side is no counterexample
    assert verdict(Compare(claimed=1, computed=Estimate(1 + mp.mpf(10) ** -20, 15), rel="<=")).status == "holds"
    assert verdict(Compare(claimed=1, computed=Estimate(1 + mp.mpf(10) ** -10, 15), rel="<=")).status == "refuted"


def test_printed_numbers_crossings_and_extrema():
    assert verdict(Compare(claimed="3.3", computed=mp.mpf("3.2649"), rel="~")).status == "verified"
    assert verdict(Compare(claimed="3.3", computed=mp.mpf("3.2449"), rel="~")).status == "refuted"
    root = verdict(Crossing(lambda a: a * a - 2, 1, 2, printed="1.41"))
    assert root.status == "verified", root.message
    assert verdict(Crossing(lambda a: a * a - 2, 1, 2, printed="1.42")).status == "refuted"
    # the extremum is located between grid points, not read off a grid
    peak = verdict(Extremum(lambda a: -(a - mp.mpf("3.37")) ** 2, 1, 10, printed="3.0"))
    assert peak.status == "refuted" and "3.37" in peak.message, peak.message
    assert verdict(Extremum(lambda a: -(a - mp.mpf("3.37")) ** 2, 1, 10, printed="3.4")).status == "verified"


def test_finite_families_need_every_member():
    full = over("n", range(1, 101), lambda n: Compare(claimed=n * (n + 1) // 2, computed=sum(range(n + 1)),
                                                     at={"n": n}), domain="$n = 1, \\dots, 100$")
    got = verdict(full)
    assert got.status == "verified" and got.evidence["families"][0] == {
        "domain": "$n = 1, \\dots, 100$", "kind": "finite", "size": 100, "covered": 100}
    part = over("n", [1, 2, 3, 5, 7], lambda n: Compare(claimed=n, computed=n, at={"n": n}), size=100,
                domain="$n = 1, \\dots, 100$")
    got = verdict(part)
    assert got.status == "inconclusive" and "5 of 100" in got.message
    # a failure found on part of the family is still a counterexample
    bad = over("n", [1, 2], lambda n: Compare(claimed=n, computed=n + 1, at={"n": n}), size=100)
    assert verdict(bad).status == "refuted"


def test_groups_exists_chain_readings():
    good, bad = Compare(claimed=1, computed=1), Compare(claimed=1, computed=2, at={"x": 1})
    assert verdict(All(good, bad)).status == "refuted"
    assert verdict(Exists(good)).status == "verified"
    assert verdict(Exists(bad)).status == "inconclusive"  # a failing witness refutes nothing
    chain = [Link("x^2", lambda p: p["x"] ** 2), Link("x^2 + 1", lambda p: p["x"] ** 2 + 1, "<", "add 1"),
             Link("x^3", lambda p: p["x"] ** 3, ">=", "false for x >= 2")]
    got = verdict(Chain(chain, {"x": mp.mpf(3)}))
    assert got.status == "refuted" and got.error_kind == "proof-step" and "false for x >= 2" in got.message
    got = verdict(Readings(("as printed", bad), ("second parse", good, "seed 002")))
    assert got.status == "ambiguous" and [r["status"] for r in got.readings] == ["refuted", "verified"]
    assert verdict(sample("three laws", [1, 2, 3], lambda k: Compare(claimed=k + 1, computed=k, rel="<="))).status \
        == "holds"


def test_counterexample_is_the_simplest_failing_point_and_typed():
    node = over("x", ["1001/1000", "3", "7/2"], lambda x: Compare(claimed=0, computed=1, rel="<=", at={"x": x}))
    cx = verdict(node).counterexample
    assert cx["params"] == {"x": "3"} and cx["relation"] == "<=" and cx["certified"] is True
    assert set(cx) == {"params", "what", "relation", "quantity", "bound", "derived", "relative_slack", "digits",
                       "certified", "certificate", "worst"}


def test_stored_evidence_redecides_identically_and_round_trips():
    node = lambda: All(over("n", range(1, 6), lambda n: Compare(claimed=mp.mpf(n) / 7, computed=Fraction(n, 7), at={"n": n})),
               Compare(claimed=2, computed=mp.sqrt(2) ** 2 - mp.mpf(10) ** -30, rel="<=", at={"x": (1, 2)}))
    with mp.workdps(40):
        got = collect_evidence(Evidence(node(), tables=[Table("t", ["a"], [["1"]])]), 30)
        first = decide(got.tree, 30)
        data = json.loads(json.dumps(got.as_json(30)))
        again = decide(Collected.from_json(data).tree, 30)
    assert first.status == again.status == "holds"
    assert data["tables"] == [{"title": "t", "columns": ["a"], "rows": [["1"]], "note": ""}]
    assert data["tree"]["parts"][1]["at"] == {"x": ["1", "2"]}  # vectors as arrays, never "(1, 2)"


def test_no_value_prints_digits_it_did_not_establish():
    with mp.workdps(60):
        v = Estimate(mp.mpf("0.01470349343148219322440954"), 25)
    row = verdict(Compare(claimed=Fraction(1, 68), computed=v, rel=">=")).checks[0]
    assert row.numeric == "0.01470349343148219322440954" and row.established == 25


def test_mutations_move_every_verdict():
    ident = over("n", range(1, 4), lambda n: Compare(claimed=n * n, computed=mp.mpf(n) ** 2, at={"n": n}))
    bound = sample("grid", [1, 2, 3], lambda k: Compare(claimed=k + 1, computed=mp.mpf(k), rel="<=", at={"k": k}))
    refuted = sample("grid", [1, 2], lambda k: Compare(claimed=k, computed=mp.mpf(k) + 1, rel="<=", at={"k": k}))
    for node, status in ((ident, "verified"), (bound, "holds"), (refuted, "refuted")):
        with mp.workdps(40):
            tree = collect(node, 30)
        assert decide(tree, 30).status == status
        outs = mutate({"tree": to_json(tree, 30), "dps": 30}, status, 30)
        assert outs and all(o.moved for o in outs), outs


def test_a_check_that_cannot_fail_is_caught_by_the_battery():
    # a "check" whose comparisons compare a value with itself: perturbing the claimed side must move it, so
    # the battery exercises it; a tree with no comparison at all is reported by the battery's count
    doc = {"dps": 30, "claims": [{"id": "X", "status": "verified",
                                  "evidence": {"dps": 30, "tree": {"group": "all", "parts": []}}}]}
    outs, defects = battery(doc)
    assert outs == [] and defects == ["X: the stored evidence decides inconclusive, the audit said verified"]


def test_skipped_when_a_peer_library_is_missing():
    with pytest.raises(Skipped):
        requires("no_such_module_for_cbdp_tests")

    def check(dps):
        requires("no_such_module_for_cbdp_tests")
        return Compare(claimed=1, computed=1)

    res = audit_claim(Claim(id="T-SKIP", kind="check", check=check), dps=20)
    assert res.status == "skipped" and "pip install" in res.message


def test_a_check_claim_is_decided_by_the_engine_with_a_precision_ramp():
    def check(dps):  # a strict bound with a gap of 1e-70: undecided at 30 digits, decided at 60 or 120
        with mp.workdps(dps + 10):
            return Compare(claimed=1, computed=1 - mp.mpf(10) ** -70, rel="<", at={"x": 1})

    res = audit_claim(Claim(id="T-RAMP", kind="check", check=check), dps=30)
    assert res.status == "holds" and "decided at 120 digits" in res.message, res.message
    assert res.evidence["summary"]["decisive"]["relation"] == "<"
