"""Tests of :mod:`cbdp_sym.verify.instances`: bounds checked on instance families and by a budgeted search."""
import mpmath as mp
import pytest

from cbdp_sym.verify.instances import Instance, bound_check, search_min, slack_of


def test_slack_is_relative_to_the_bound_and_positive_when_it_holds():
    assert slack_of("upper", 1, 2) == mp.mpf(1) / 2  # (2 - 1)/2
    assert slack_of("lower", 1, 2) == -mp.mpf(1) / 2  # (1 - 2)/2
    assert slack_of("upper", 3, 0) == -3  # absolute where the bound is 0
    assert slack_of("upper", 5, mp.inf) == 1


def _families(pairs):
    return {"fam": [Instance("fam", f"q={q}, b={b}", {"q": q, "b": b}) for q, b in pairs]}


def _evaluate(inst):
    return mp.mpf(inst.data["q"]), mp.mpf(inst.data["b"])


def test_a_bound_that_holds_reports_its_smallest_slack_and_where():
    r = bound_check("upper", _families([(1, 4), (3, 4), (0, 4)]), _evaluate, dps=20)
    assert r.status == "holds"
    assert "no violation on 3 instances in 1 families" in r.message and "slack 0.250000 at fam: q=3, b=4" in r.message
    assert r.counterexample is None and len(r.tables[0]["rows"]) == 1


def test_a_violation_is_refuted_at_the_worst_instance_with_its_certificate():
    seen = []

    def certify(inst):
        seen.append(inst.label)
        return "Arb: q - b in [1, 1]"

    r = bound_check("upper", _families([(1, 4), (6, 4), (5, 4)]), _evaluate, dps=20, certify=certify)
    assert r.status == "refuted" and seen == ["q=6, b=4"]
    cx = r.counterexample
    assert cx["instance"] == "fam: q=6, b=4" and cx["certified"] and mp.mpf(cx["relative_slack"]) == -mp.mpf(1) / 2


def test_equality_within_the_tolerance_is_not_a_violation():
    with mp.workdps(30):
        tiny = mp.mpf(10) ** -18  # below 10^-(20 - 5): rounding, not a counterexample
        r = bound_check("upper", {"f": [Instance("f", "x", {})]}, lambda i: (1 + tiny, mp.mpf(1)), dps=20)
        assert r.status == "holds" and "equality to 15 digits" in r.message
        big = mp.mpf(10) ** -14  # beyond it: a violation
        assert bound_check("upper", {"f": [Instance("f", "x", {})]}, lambda i: (1 + big, mp.mpf(1)), dps=20).status \
            == "refuted"


def test_search_is_budgeted_by_evaluations_and_reproducible():
    fun = lambda y: (y[0] - 1) ** 2 + (y[1] + 2) ** 2  # noqa: E731
    a = search_min(fun, [[0.0, 0.0], [3.0, 3.0]], budget=200, dim=2)
    b = search_min(fun, [[0.0, 0.0], [3.0, 3.0]], budget=200, dim=2)
    assert a == b
    assert a["evaluations"] <= 200 and a["value"] < 1e-6
    assert a["y"] == pytest.approx([1, -2], abs=1e-3)
    short = search_min(fun, [[0.0, 0.0]], budget=5, dim=2)
    assert short["evaluations"] == 5
