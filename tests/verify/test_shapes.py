"""cbdp_sym.verify.shapes: the claim shapes of check claims (readings, instance families)."""
from fractions import Fraction

import mpmath as mp

from cbdp_sym.verify.shapes import agreement, overrule, reading, within_tolerance
from cbdp_sym.core.verdict import CheckResult
from cbdp_sym.verify.shapes import as_reading, family_check, family_evidence
import cbdp_sym.restricted.finite as fr
def test_as_reading_rows_match_with_readings():
    lit = as_reading(CheckResult("refuted", "fails at 3"), "(i) as printed", literal=True)
    assert lit == {"name": "(i) as printed", "status": "refuted", "message": "fails at 3", "seeds": "", "literal": True}
    other = as_reading({"status": "holds", "message": "ok"}, "(ii)", seeds="seed 002")
    assert other == {"name": "(ii)", "status": "holds", "message": "ok", "seeds": "seed 002"}


def _square_family(key, holds, bound_factor):
    """x^2 <= bound_factor * x on x in (0, 1]: holds for factor >= 1, violated at x = 1 for a factor < 1."""
    def ev(x):
        xv = fr.exact_mpf(x)
        lhs, rhs = xv ** 2, bound_factor * xv
        return {"slack": fr.rel_slack(rhs, lhs), "lhs": lhs, "rhs": rhs, "where": f"x = {x}"}

    return fr.Family(key, f"x^2 <= {bound_factor} x", "x in (0, 1]", holds, ev,
                     instances=tuple(Fraction(k, 4) for k in range(1, 5)), describe=str)


def _run(fams):
    with mp.workdps(30):
        return {f.key: fr.run_family(f) for f in fams}


def test_family_check_holds_with_smallest_slack_and_evidence():
    fams = [_square_family("one", True, 1), _square_family("two", True, 2)]
    res = _run(fams)
    out = family_check(fams, res, title="T", note=" n", message_suffix=". Done")
    assert out.status.value == "holds" and out.message.endswith(". Done") and out.counterexample is None
    rows, checks = family_evidence(fams, res)
    assert [r[0].split()[0] for r in rows] == ["#1", "#2"] and out.tables[0]["rows"] == rows
    assert [c.params for c in checks] == [{"f": "1"}, {"f": "2"}]
    assert mp.mpf(checks[0].slack) == 0  # x = 1: x^2 = x, the bound is attained


def test_family_check_refutes_only_where_the_hypotheses_hold():
    bad = _square_family("bad", True, mp.mpf("0.5"))
    res = _run([bad])
    out = family_check([bad], res, title="T")
    assert out.status.value == "refuted" and out.counterexample is not None
    needed = _square_family("needed", False, mp.mpf("0.5"))  # same violation, but a hypothesis fails: not a refutation
    out2 = family_check([_square_family("one", True, 1), needed], _run([_square_family("one", True, 1), needed]),
                        title="T")
    assert out2.status.value == "holds" and out2.counterexample is None


def test_family_evidence_origin():
    fams = [_square_family("one", True, 1)]
    _rows, checks = family_evidence(fams, _run(fams), origin="search")
    assert checks[0].origin == "search"
def test_agreement_uses_the_identity_tolerance_at_its_boundary():
    assert agreement(45, 50, "m").status == "verified"  # dps - 5 digits is enough
    assert agreement(44.99, 50, "m").status == "inconclusive"
    assert agreement(None, 50, "m").status == "inconclusive"  # no digits measured decides nothing
    assert agreement(60, 50, "m", also=False).status == "inconclusive"
    assert agreement(3, 50, "m", no="refuted").status == "refuted"


def test_agreement_carries_the_evidence():
    r = agreement(50, 50, "the forms agree", checks=["row"], tables=[{"title": "t"}])
    assert (r.message, r.checks, r.tables, r.counterexample) == ("the forms agree", ["row"], [{"title": "t"}], None)


def test_within_tolerance_refutes_below_minus_ten_to_the_minus_dps_minus_five():
    tol = mp.mpf(10) ** -45
    assert within_tolerance(-tol, 50, "m").status == "holds"
    assert within_tolerance(-tol * 2, 50, "m").status == "refuted"
    assert within_tolerance(mp.mpf(0), 50, "m", kind="strict-upper").status == "refuted"
    assert within_tolerance(mp.mpf("0.3"), 50, "m", kind="lower").status == "holds"


def test_overrule_changes_the_status_only_when_asked():
    base = CheckResult("holds", "bound holds", checks=["c"])
    assert overrule(base, "refuted", when=False) is base and base.status == "holds"
    out = overrule(base, "inconclusive", when=True)
    assert out is base and out.status == "inconclusive" and out.message == "bound holds" and out.checks == ["c"]
    assert overrule({"status": "holds", "message": "m"}, "refuted", when=True).status == "refuted"


def test_reading_rows_have_the_keys_reports_read():
    assert reading("as printed", "refuted", "fails", literal=True) == {
        "name": "as printed", "status": "refuted", "message": "fails", "seeds": "", "literal": True}
    row = reading("two-sided", CheckResult("holds", "x").status, "ok", seeds="seed 004")
    assert row == {"name": "two-sided", "status": "holds", "message": "ok", "seeds": "seed 004"}
    assert type(row["status"]) is str
