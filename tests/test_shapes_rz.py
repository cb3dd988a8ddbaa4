"""cbdp_sym.shapes_rz: the verdict rules the RDP/zCDP checks share (identity and bound tolerances, overrule, reading)."""
import mpmath as mp

from cbdp_sym import CheckResult, agreement, overrule, reading, within_tolerance


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
