"""cbdp_sym.shapes: the claim shapes of check claims (readings, instance families)."""
from fractions import Fraction

import mpmath as mp
import pytest

from cbdp_sym import CheckResult, as_reading, family_check, family_evidence
from cbdp_sym import finite_restricted as fr


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
