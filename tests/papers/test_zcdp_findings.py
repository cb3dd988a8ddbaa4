"""Bun-Steinke's findings a referee can sign (issue 29): one policy for readings and typos, each finding's own
counterexample at its simplest (certified, re-evaluated by ``cbdp-sym eval``), severity by rule, corrections linked,
and the claims that use a corrected claim re-audited against the correction.

The audit of the findings' claims (through the command line, at 20 digits) is slow: the tests that read it are in the
slow set; the declarations, the engine pieces and one knock-on are checked in the fast set.
"""
import json
import pickle
import re
from types import SimpleNamespace

import pytest

from cbdp_sym import Claim
from cbdp_sym.app.audit import _audit_detached
from cbdp_sym.app.cli import main
from cbdp_sym.verify.claims import infer_role
from cbdp_sym.verify.engine import audit_claim, check_leaves_at
from cbdp_sym.verify.findings import SEVERITY_LEVELS, paper_findings
from ..conftest import once

# the kind and severity each finding must get by the rule (findings.severity_of), with the reason
EXPECTED = {
    "ZCDP-F1": ("result", "high"),  # Lemmas 3.6, B.2, 8.8 false as stated
    "ZCDP-F2": ("reading", "low"),  # two rows of a brace array fused by the extraction
    "ZCDP-F3": ("typo", "low"),  # sqrt(2 lambda) for sqrt(2) lambda; the corrected corollary holds
    "ZCDP-F4": ("reading", "low"),  # a prose remark, with two parses of "the three options"
    "ZCDP-F5": ("typo", "low"),  # the constant of the two-sided tail; corrected, it holds
    "ZCDP-F6": ("result", "medium"),  # a big-O constant (needs xi -> infinity); the mean of the lemma is right
    "ZCDP-F7": ("result", "low"),  # a prose remark of Sec. 6.1
    "ZCDP-F8": ("proof-step", "medium"), "ZCDP-F9": ("proof-step", "medium"), "ZCDP-F10": ("proof-step", "medium"),
    "ZCDP-F11": ("typo", "low"),  # a typo in a proof whose corrected form is Lemma 3.6's
}
# the claims whose statement is read in two parses of the printed text (layouts the extraction makes ambiguous)
AMBIGUOUS = {"ZCDP-L3.6-OPT2", "ZCDP-C8.9", "ZCDP-C8.10", "ZCDP-L3.6-DOM"}
VIOLATION = {"refuted", "violated", "differs"}  # eval's verdicts of a failing point (check, bound, identity claims)


@pytest.fixture(scope="module")
def paper(registry):
    return registry.papers["zcdp"]


def _finding_claims(paper):
    return [c for f in paper.meta["findings"] for c in f["claims"]]


# -- the declarations (fast) -------------------------------------------------------------------------------------
def _prose(text):
    return re.sub(r"\$[^$]*\$", "", text)  # the text outside $...$


def test_finding_titles_are_prose_with_mathematics_and_kinds_are_not_typed(paper):
    """Titles a reader can act on: mathematics inside $...$ (no ASCII mathematics, no module path), no bare symbol the
    title leaves undefined, and no typed kind (kinds and severities follow from the claims)."""
    ascii_math = re.compile(r"sqrt|log\(|\^|_|\|\||\b(alpha|beta|eps|epsilon|rho|xi|lambda|delta|sigma|tau|pi)\b"
                            r"|cbdp_sym\.")
    for f in paper.meta["findings"]:
        assert "kind" not in f, f["id"]
        prose = _prose(f["title"])
        assert not ascii_math.search(prose), (f["id"], ascii_math.search(prose).group(0), prose)
        assert not re.search(r"(?<![\w\\])(K|A|T|n'|beta)(?![\w'.])", prose), (f["id"], prose)
    for text in paper.meta["conventions"] + [t["title"] for t in paper.meta["tables"]]:  # (dp_accounting is a name)
        assert not ascii_math.search(_prose(text).replace("dp_accounting", "")), text


def test_declared_counterexample_claims_belong_to_their_findings(paper):
    for f in paper.meta["findings"]:
        if "counterexample" in f:
            assert f["counterexample"] in f["claims"], f["id"]
    f1 = next(f for f in paper.meta["findings"] if f["id"] == "ZCDP-F1")
    assert f1["counterexample"] == "ZCDP-L3.6-OPT3"


def test_roles_of_the_findings_claims_give_the_severity_rule_its_input(paper, registry):
    """Proof steps are proofs (a refutation there is medium), Lemma 4.3's O(.) is a constant, remarks are remarks."""
    want = {"ZCDP-L3.6-OPT3": "lemma", "ZCDP-L3.6": "lemma", "ZCDP-L8.8": "lemma", "ZCDP-L3.6-OPT2": "lemma",
            "ZCDP-C8.9": "corollary", "ZCDP-C8.10": "corollary", "ZCDP-C8.11": "corollary", "ZCDP-L3.6-DOM": "remark",
            "ZCDP-LA.2-COOK": "proof", "ZCDP-L4.3": "constant", "ZCDP-S6.1b": "remark", "ZCDP-T1.11-HYP": "proof",
            "ZCDP-P6.4-EV8": "proof", "ZCDP-PA.1-V": "proof", "ZCDP-L3.6-SUB1": "proof"}
    assert sorted(want) == sorted(_finding_claims(paper))
    assert {cid: infer_role(registry.get(cid)).value for cid in want} == want


def test_uses_name_claims_of_the_paper_and_follow_the_refuted_ones(paper, registry):
    """Every used ID is a claim; the claims that rest on a claim with a corrected statement (Lemma 3.6's minimum,
    Lemma 4.3, Sec. 6.1's threshold, the proof steps) declare it."""
    ids = {c.id for c in paper.claims}
    for c in paper.claims:
        assert set(c.uses) <= ids, (c.id, set(c.uses) - ids)
    users = {c.id: set(c.uses) for c in paper.claims}
    for user, used in (("ZCDP-L8.8", "ZCDP-L3.6"), ("ZCDP-C8.9", "ZCDP-L8.8"), ("ZCDP-C8.10", "ZCDP-C8.9"),
                       ("ZCDP-C8.11", "ZCDP-C8.10"), ("ZCDP-L3.6-DOM", "ZCDP-L3.6"), ("ZCDP-S1.1e", "ZCDP-L4.3"),
                       ("ZCDP-S4.1", "ZCDP-L4.3"), ("ZCDP-S1.2.5", "ZCDP-S6.1b"), ("ZCDP-T1.11", "ZCDP-T1.11-HYP"),
                       ("ZCDP-P6.4", "ZCDP-P6.4-EV8"), ("ZCDP-PA.1", "ZCDP-PA.1-V"), ("ZCDP-LA.2", "ZCDP-LA.2-COOK"),
                       ("ZCDP-L3.6-EPS", "ZCDP-L3.6-SUB1")):
        assert used in users[user], (user, used)
        assert registry.get(used).corrected is not None, used


def test_every_finding_claim_has_a_corrected_statement(paper, registry):
    """Corrections linked wherever one exists: every claim of a finding carries the statement the derivation supports
    (no finding says corrected: null)."""
    for cid in _finding_claims(paper):
        c = registry.get(cid)
        assert c.corrected is not None and c.corrected_statement, cid


def test_a_declared_counterexample_claim_is_shown_even_where_another_is_simpler():
    """The engine shows the declared claim's counterexample (ZCDP-F1: the numerator's own, not the fused-entry point of
    Lemma 3.6 that belongs to ZCDP-F2), and the simplest one where none is declared."""
    def res(cid, cx):
        return SimpleNamespace(claim=Claim(id=cid, paper="p", where="Lemma 1"), status="refuted", counterexample=cx,
                               corrected=None, error_kind=None, finding=None)

    simple = {"params": {"a": "1"}, "certified": True}
    own = {"params": {"w": "1/2", "q": "1/10000"}, "certified": True}
    results = [res("P-ENTRY", own), res("P-LEMMA", simple)]
    spec = {"id": "P-F1", "title": "t", "claims": ["P-ENTRY", "P-LEMMA"]}
    (f,) = paper_findings("p", {"findings": [dict(spec, counterexample="P-ENTRY")]}, results)
    assert f.counterexample_claim == "P-ENTRY" and f.counterexample == own
    (g,) = paper_findings("p", {"findings": [spec]}, results)
    assert g.counterexample_claim == "P-LEMMA"


def test_knock_on_result_travels_from_a_worker(registry):
    """A claim with a corrected statement and a used claim with one (Cor. 8.11: its correction, and Cor. 8.10's)
    comes back from an audit worker with both nested audits, without their claim copies (closures)."""
    res = _audit_detached((registry.get("ZCDP-C8.11"), 20))
    pickle.dumps(res)
    assert res.status == "refuted" and res.corrected.status == "holds"
    assert res.against_corrected.status == "refuted" and "ZCDP-C8.10 as corrected" in res.against_corrected.message


def test_theorem_1_11_holds_against_the_corrected_sample_size(registry):
    """Thm. 1.11 rests on its proof's n' = 5n^2 (ZCDP-T1.11-HYP, refuted): as printed its only witness fails
    (inconclusive); re-audited with the corrected n' = 8n^2 the witness holds at every point."""
    res = audit_claim(registry.get("ZCDP-T1.11"), 20)
    assert res.status == "inconclusive", res.message
    k = res.against_corrected
    assert k is not None and k.status == "verified" and "8 n^{2}" in k.message, k and k.message


# -- the audit of the findings' claims (slow) --------------------------------------------------------------------
@pytest.fixture(scope="module")
def audit_doc(paper, tmp_path_factory):
    def run():
        out = tmp_path_factory.mktemp("zcdp-findings")
        assert main(["audit", *_finding_claims(paper), "--no-pdf", "--dps", "20", "--out", str(out)]) == 0
        return json.loads((out / "audit-subset.json").read_text())

    return once("zcdp-findings-audit", run)


def _findings(doc):
    return {f["id"]: f for f in doc["findings"] if f["paper"] == "zcdp"}


@pytest.mark.slow  # the findings' 15 claims audited at 20 digits (about 15 s of CPU cold), then 11 evaluations
def test_every_finding_counterexample_is_a_violation_under_eval(audit_doc, capsys):
    """`cbdp-sym eval <claim> --at ...` at each finding's counterexample (its typed parameters as printed in
    audit.json) prints a violation of that claim."""
    fs = _findings(audit_doc)
    assert sorted(fs) == sorted(EXPECTED)
    for fid, f in fs.items():
        cx = f["counterexample"]
        args = ["eval", f["counterexample_claim"], "--dps", "20", "--json"]
        for k, v in cx["params"].items():
            args += ["--at", f"{k}={','.join(v) if isinstance(v, list) else v}"]
        capsys.readouterr()
        assert main(args) == 0, (fid, args)
        got = json.loads(capsys.readouterr().out)
        assert got["verdict"] in VIOLATION, (fid, got)


@pytest.mark.slow
def test_findings_are_classified_by_rule_certified_typed_and_corrected(audit_doc):
    """Kinds and severities by the rule; each counterexample certified, at typed parameters (never an instance label),
    with the point, the printed value and the true value; every finding links a corrected statement that holds."""
    fs = _findings(audit_doc)
    assert {fid: (f["kind"], f["severity"]) for fid, f in fs.items()} == EXPECTED
    ranks = [SEVERITY_LEVELS.index(f["severity"]) for f in audit_doc["findings"] if f["paper"] == "zcdp"]
    assert ranks == sorted(ranks)
    for fid, f in fs.items():
        cx = f["counterexample"]
        assert f["counterexample_claim"] in f["claims"], fid
        assert cx["certified"] is True and "instance" not in cx["params"], (fid, cx)
        assert cx["quantity"] is not None and cx["bound"] is not None, (fid, cx)
        assert f["corrected"] and f["corrected_status"] in ("holds", "verified"), fid
        assert f["corrections"] and all(st in ("holds", "verified") for _c, st in f["corrections"]), (fid, f["corrections"])
    # the knock-on: the audited claims that use a finding's claim are listed (Cor. 8.9 uses Lemma 8.8, the remark
    # after Lemma 3.6 its minimum)
    assert {"ZCDP-C8.9", "ZCDP-L3.6-DOM"} <= set(fs["ZCDP-F1"]["reaches"])


@pytest.mark.slow
def test_readings_only_where_the_printed_layout_has_two_parses(audit_doc):
    """The policy: a claim stays ambiguous only for two parses of the printed text, both named (the second with the
    extraction that supports it); an unambiguous formula's correction is a typo with a corrected statement."""
    got = {c["id"]: c for c in audit_doc["claims"]}
    assert {cid for cid, c in got.items() if c["status"] == "ambiguous"} == AMBIGUOUS
    for cid in AMBIGUOUS:
        names = [r["name"] for r in got[cid]["readings"]]
        assert len(names) == 2 and all(names) and got[cid]["readings"][1]["seeds"], (cid, got[cid]["readings"])
    for cid in ("ZCDP-C8.11", "ZCDP-LA.2-COOK", "ZCDP-L3.6-SUB1"):
        assert got[cid]["status"] == "refuted" and got[cid]["error_kind"] == "typo", cid
        assert not got[cid].get("readings"), cid


@pytest.mark.slow
def test_f1_shows_the_numerator_failing_where_the_proof_entry_holds(audit_doc, registry):
    """ZCDP-F1's counterexample is its own cause: Lemma B.2's last entry with numerator 1 fails at the point, and the
    entry with the proof's numerator 2 holds there (the fused-entry point of ZCDP-F2 is not shown)."""
    f1 = _findings(audit_doc)["ZCDP-F1"]
    assert f1["counterexample_claim"] == "ZCDP-L3.6-OPT3"
    params = f1["counterexample"]["params"]
    assert params["pair"] == "spike"
    printed = check_leaves_at(registry.get("ZCDP-L3.6-OPT3"), params, 20)
    fixed = check_leaves_at(registry.get("ZCDP-L3.6-OPT3-CORR"), params, 20)
    assert printed and all(lf.status == "refuted" for _c, lf in printed)
    assert fixed and all(lf.status == "holds" for _c, lf in fixed)
