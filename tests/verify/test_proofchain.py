"""The generic chain checker (cbdp_sym/proofchain.py)."""
import mpmath as mp
import pytest

from cbdp_sym.verify.proofchain import Link, chain_table, check_chain, failure_text, relation_holds


def test_first_failure_is_reported_with_numbers():
    links = [Link("a", lambda p: mp.mpf(1)), Link("b", lambda p: mp.mpf(2), "<=", "grow"),
             Link("c", lambda p: mp.mpf(2), "=", "same"), Link("d", lambda p: mp.mpf(3), ">=", "false step"),
             Link("e", lambda p: mp.mpf(1), ">=", "true again")]
    r = check_chain(links, {}, digits=20)
    assert r.first_failure == 3 and not r.holds
    assert [row["holds"] for row in r.rows] == [None, True, True, False, True]
    txt = failure_text(r)
    assert "link 3 fails" in txt and "false step" in txt and "2.0" in txt and "3.0" in txt


@mp.workdps(50)
def test_equalities_use_a_relative_tolerance():
    assert relation_holds(mp.mpf(1), mp.mpf(1) + mp.mpf(10) ** -30, "=", 25)[0]
    assert not relation_holds(mp.mpf(1), mp.mpf(1) + mp.mpf(10) ** -20, "=", 25)[0]
    # a strict inequality needs more than rounding noise
    assert not relation_holds(mp.mpf(1), mp.mpf(1) + mp.mpf(10) ** -30, "<", 25)[0]
    assert relation_holds(mp.mpf(1), mp.mpf(1) + mp.mpf(10) ** -30, "<=", 25)[0]
    assert relation_holds(mp.inf, mp.inf, "=", 25)[0]
    assert not relation_holds(mp.mpf(1), mp.inf, ">=", 25)[0]


def test_chain_values_depend_on_the_point():
    links = [Link("x^2", lambda p: p["x"] ** 2), Link("x", lambda p: p["x"], "<=", "x^2 <= x")]
    assert check_chain(links, {"x": mp.mpf("0.5")}).holds
    assert check_chain(links, {"x": mp.mpf(2)}).first_failure == 1


def test_table_for_a_check_claim():
    links = [Link(r"\alpha", lambda p: mp.mpf(1)), Link(r"\beta", lambda p: mp.mpf(0), ">=", "ok")]
    t = chain_table("T", check_chain(links, {}))
    assert t["title"] == "T" and len(t["columns"]) == 3 and len(t["rows"]) == 2
    assert t["rows"][1][0].startswith(r"(1) $\ge$ $\beta$ -- ok") and t["rows"][1][2].startswith("yes")
    assert "Every link holds" in t["note"]


def test_bad_relation_is_rejected():
    with pytest.raises(ValueError):
        Link("x", lambda p: 1, "~")
