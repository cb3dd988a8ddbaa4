"""The verdict vocabulary (cbdp_sym.core.verdict) and the verification rules built on it (cbdp_sym.verify.engine)."""
import mpmath as mp
import pytest

from cbdp_sym.core.verdict import Status
from cbdp_sym.restricted.finite import rel_slack
from cbdp_sym.verify.instances import slack_of
from cbdp_sym.core.verdict import MEANING, merge, relative_slack, violated


def test_status_is_a_string_and_every_status_is_explained():
    assert Status.REFUTED == "refuted" and f"{Status.AMBIGUOUS}" == "ambiguous"
    assert set(MEANING) == set(Status)


@pytest.mark.parametrize("kind,bound,q,expected", [
    ("upper", 2, 3, -0.5), ("upper", 4, 3, 0.25), ("lower", 2, 3, 0.5), ("lower", 4, 3, -0.25),
    ("upper", -2, -1, -0.5), ("upper", 0, 1, -1.0),
])
def test_one_relative_slack_everywhere(kind, bound, q, expected):
    """The same violated bound reads the same slack in every report section (relative to the bound)."""
    assert float(relative_slack(kind, bound, q)) == pytest.approx(expected)
    assert float(slack_of(kind, q, bound)) == pytest.approx(expected)
    if kind == "upper":
        assert float(rel_slack(bound, q)) == pytest.approx(expected)


def test_slack_with_infinite_sides():
    assert relative_slack("upper", mp.inf, 3) == 1
    assert relative_slack("upper", 3, mp.inf) == -mp.inf
    assert relative_slack("lower", 3, mp.inf) == 1


def test_tolerance_rule_and_strict_bounds():
    assert not violated("upper", mp.mpf("-1e-46"), 50)
    assert violated("upper", mp.mpf("-1e-44"), 50)
    assert violated("strict-upper", mp.mpf(0), 50) and not violated("upper", mp.mpf(0), 50)


def test_merge_takes_the_worst():
    assert merge(["verified", "verified"]) == "verified"
    assert merge(["verified", "holds"]) == "holds"
    assert merge(["holds", "ambiguous"]) == "ambiguous"
    assert merge(["inconclusive", "refuted", "holds"]) == "refuted"
    with pytest.raises(ValueError):
        merge(["maybe"])
