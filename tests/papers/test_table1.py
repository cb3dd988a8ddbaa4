"""CBDP's Table 1 (Rényi rows), its layout in the report, certificates and the text claims around it."""
import json
import subprocess
import sys

import mpmath as mp
import pytest
import sympy as sp
from hypothesis import given, strategies as st

from cbdp_sym.calculus.certify import certify_above_bound, lin_renyi_lower
from cbdp_sym.restricted.linpower import lin_renyi, shift_laws
from cbdp_sym.core.numbers import to_mpf
from cbdp_sym.core.symbols import alpha, eps, sigma
from cbdp_sym.verify.engine import audit_claim

CELLS = [f"CBDP-TAB1-{r}-{m}-{c}" for r, ms in (("KL", ("LAP", "GAU")), ("REN", ("LAP", "GAU", "LAPD", "GAUD")))
         for m in ms for c in ("LIN", "UNR")]


@pytest.fixture(scope="module")
def reg():
    from cbdp_sym.app.registry import Registry

    return Registry()


def test_layout_names_every_cell_once(reg):
    tabs = reg.papers["cbdp"].meta["tables"]
    cells = [c for row in tabs[0]["rows"] for c in row if c.startswith("CBDP-")]
    assert sorted(cells) == sorted(CELLS)
    assert tabs[0]["header"] == ["Divergence", "Mechanism", "Linear adversary", "Unrestricted"]
    for cid in CELLS:
        reg.get(cid)  # encoded


def test_layout_renders_verdicts_and_corrections(reg):
    from cbdp_sym.report.latex import verdict_tables
    from cbdp_sym.verify.engine import Result

    paper = reg.papers["cbdp"]
    c = reg.get("CBDP-TAB1-REN-LAP-LIN")
    fixed = Result(c, "holds", "", 20)
    fixed.claim = type(c)(**{**c.__dict__, "statement": c.corrected_statement})
    res = Result(c, "refuted", "x", 20, corrected=fixed)
    out = verdict_tables(paper, [res])
    row = [r for r in out[0]["rows"] if "2^{\\alpha-1}" in r][0]
    assert "refuted" in row and "corrected" in row and "\\log2" in row


@given(e=st.fractions(min_value="1/1000", max_value=100), a=st.fractions(min_value="1001/1000", max_value=1000))
def test_laplace_lower_cell_below_the_derived_renyi_divergence(reg, e, a):
    c = reg.get("CBDP-TAB1-REN-LAP-UNR")
    derived = c.derive()
    gap = (derived - c.claimed()).subs({eps: sp.Rational(e), alpha: sp.Rational(a)})
    with mp.workdps(30):
        assert to_mpf(gap) > 0


def test_corrected_cells_are_the_repaired_chain(reg):
    lap = reg.get("CBDP-TAB1-REN-LAP-LIN").corrected()
    gau = reg.get("CBDP-TAB1-REN-GAU-LIN").corrected()
    assert sp.simplify(lap - (sp.log(2) + sp.log(1 + eps**alpha) / (alpha - 1))) == 0
    want = sp.log(2) + sp.log(1 + sp.sqrt(sp.pi / 2) ** (alpha - 1) / sigma**alpha) / (alpha - 1)
    with mp.workdps(30):
        for pt in ({sigma: 3, alpha: 3}, {sigma: sp.Rational(1, 7), alpha: sp.Rational(11, 10)}):
            assert abs(to_mpf(gau.subs(pt)) - to_mpf(want.subs(pt))) < mp.mpf(10) ** -25


def test_certified_refutation_of_the_laplace_cell(reg):
    c = reg.get("CBDP-TAB1-REN-LAP-LIN")
    P, Q = shift_laws("lap", 10, (1,))
    with mp.workdps(20):
        rec = lin_renyi(P, Q, 3)
    a = sp.Rational(mp.nstr(rec["a"][0], 20))
    b = sp.Rational(mp.nstr(rec["b"], 20))
    low = lin_renyi_lower(P, Q, 3, a, b)
    pt = c.parse_point({"eps": "1/10", "alpha": "3"})
    assert certify_above_bound(c.claimed(), pt, c.symbols(), low) is not None
    # the ball is tight: it agrees with the solver's value
    assert abs(float(low.mid()) - float(rec["value"])) < 1e-12
    # and a function that is not the maximiser still gives a (smaller) valid lower bound
    worse = lin_renyi_lower(P, Q, 3, a / 2, b)
    assert bool(worse < low)


def test_d_dimensional_cell_values(reg):
    from cbdp_sym.verify.points import evaluate

    c = reg.get("CBDP-TAB1-REN-LAPD-LIN")
    pt = c.parse_point({"d": "2", "v": "1,1", "eps": "1", "alpha": "3"})
    with mp.workdps(30):
        assert abs(evaluate(c.claimed(), pt, c) - mp.log(33) / 2) < mp.mpf(10) ** -25
        P, Q = shift_laws("lap", 1, (1, 1))
        assert abs(c.numeric(pt) - lin_renyi(P, Q, 3)["value"]) < mp.mpf(10) ** -20


@pytest.mark.slow
def test_eval_d_dimensional_cell_on_the_command_line():
    out = subprocess.run([sys.executable, "-m", "cbdp_sym", "eval", "CBDP-TAB1-REN-LAPD-LIN", "--at", "d=2", "--at", "v=1,1",
                          "--at", "eps=1", "--at", "alpha=3", "--dps", "20", "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    with mp.workdps(30):
        assert abs(mp.mpf(doc["claimed"]) - mp.log(33) / 2) < mp.mpf(10) ** -18
        P, Q = shift_laws("lap", 1, (1, 1))
        exact = lin_renyi(P, Q, 3)["value"]
    assert abs(mp.mpf(doc["numeric"]) - exact) < mp.mpf(10) ** -15
    assert mp.mpf(doc["numeric"]) < mp.mpf(doc["claimed"])  # this point is not a counterexample


@pytest.mark.parametrize("cid", ["CBDP-S5-DDIM", "CBDP-A-DDIM"])
def test_text_claims_with_composition_counterexamples(reg, cid):
    res = audit_claim(reg.get(cid), dps=20)
    assert res.status == "refuted", res.message
    assert res.counterexample["certified"] is True


@pytest.mark.parametrize("cid, status", [("CBDP-A-GROWTH", "refuted"), ("CBDP-S5-GROWTH", "holds"),
                                         ("CBDP-A-DDIM", "refuted"), ("CBDP-TAB1-CERT", "verified")])
def test_text_claims_return_evidence_the_engine_decides(reg, cid, status):
    """No literal status: the engine decides from the comparisons, and the verdict moves when they are perturbed."""
    from cbdp_sym.verify.evidence import collect_evidence, decide, to_json
    from cbdp_sym.verify.mutation import mutate

    with mp.workdps(40):
        got = collect_evidence(reg.get(cid).check(30), 30)
        dec = decide(got.tree, 30)
    assert dec.status == status, dec.message
    if status == "refuted":
        assert dec.counterexample["certified"] is True
    outs = mutate({"tree": to_json(got.tree, 30)}, status, 30)
    assert all(o.moved for o in outs)
    if cid == "CBDP-A-GROWTH":  # the counterexample to 'for all sigma' at alpha = 2 <= 2 pi/e
        assert dec.counterexample["params"] == {"alpha": "2", "sigma": "7/5"}
