"""cbdp_sym.verify.coverage: the number and spread of the points behind a verdict (issue 30, item 4)."""
from types import SimpleNamespace

import sympy as sp

from cbdp_sym.verify.claims import Claim, Param
from cbdp_sym.verify.coverage import coverage, coverage_text, planned, summarise

EPS = sp.Symbol("eps", positive=True)


def _claim(points=("1/1000", "1", "100")):
    return Claim("COV-1", "x", kind="identity", statement="x", params=[Param.positive("eps", EPS, points)],
                 derive=lambda: EPS, claimed=lambda: EPS)


def test_every_comparison_of_the_evidence_counts_not_the_rows_shown():
    tree = {"group": "all", "parts": [{"at": {"eps": str(k)}, "rel": "="} for k in range(1, 41)]}
    res = SimpleNamespace(claim=_claim(), evidence={"tree": tree}, checks=[SimpleNamespace(params={"eps": "1"})])
    cov = coverage(res)
    assert cov["points"] == 40 and cov["params"] == [{"name": "eps", "values": 40, "min": "1", "max": "40"}]


def test_a_continuous_parameter_on_one_value_is_thin_an_integer_is_not():
    res = SimpleNamespace(claim=_claim(), evidence=None, checks=[SimpleNamespace(params={"eps": "3", "n": "2"})])
    cov = coverage(res)
    assert cov["thin"] == ["eps"]
    assert "thin: eps on fewer than 3 values" in coverage_text(cov)
    assert summarise([{"n": "1"}], {"n": "positive-int"})["thin"] == []


def test_a_result_without_points_has_no_coverage():
    res = SimpleNamespace(claim=_claim(), evidence={"tree": {"group": "all", "parts": [{"at": {}}]}}, checks=[])
    assert coverage(res) is None and coverage_text(None) == ""


def test_planned_is_the_sweep():
    assert planned(_claim())["params"][0] == {"name": "eps", "values": 3, "min": "1/1000", "max": "100"}
    assert planned(_claim(("2",)))["thin"] == ["eps"]


def test_the_audit_line_and_the_json_show_it(registry, capsys):
    from cbdp_sym.app.audit import terminal_progress
    from cbdp_sym.report.latex import result_json
    from cbdp_sym.verify.engine import audit_claim

    res = audit_claim(registry.get("RDP-P6"), 20)
    terminal_progress()(1, 1, res)
    line = capsys.readouterr().err
    assert "points;" in line and "alpha:" in line, line
    doc = result_json(res)
    assert doc["coverage"]["points"] >= 3 and doc["coverage"]["thin"] == []
