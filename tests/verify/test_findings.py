"""Findings: every refutation classified and in exactly one finding, grouped by root cause (cbdp_sym.verify.findings)."""
from types import SimpleNamespace

import pytest

from cbdp_sym import Claim, Registry
from cbdp_sym.verify.findings import ERROR_KINDS, SEVERITY, infer_error_kind, paper_findings, simplicity


def _res(cid, status, cx=None, kind="upper", error_kind=None, corrected=None, where="Sec. 2, Theorem 1", uses=()):
    claim = Claim(id=cid, paper="p", label=f"label of {cid}", kind=kind, statement="", error_kind=error_kind,
                  where=where, uses=uses)
    return SimpleNamespace(claim=claim, status=status, counterexample=cx, corrected=corrected,
                           error_kind=error_kind, finding=None)


def test_error_kind_inference_and_validation():
    assert infer_error_kind(Claim(id="X-T1-CHAIN", paper="p", label="", kind="check", statement="")) == "proof-step"
    assert infer_error_kind(Claim(id="X-T1", paper="p", label="", kind="upper", statement="")) == "result"
    assert infer_error_kind(Claim(id="X-T1", paper="p", label="", kind="upper", statement="",
                                  error_kind="typo")) == "typo"
    with pytest.raises(ValueError):
        Claim(id="X", paper="p", label="", kind="upper", statement="", error_kind="slip")


def test_every_refutation_in_exactly_one_finding_grouped_by_cause():
    simple = {"params": {"eps": "1", "alpha": "3"}, "certified": True}
    extreme = {"params": {"eps": "1/1000", "alpha": "1000"}, "certified": True}
    uncertified = {"params": {"eps": "1"}, "certified": False}
    fixed = SimpleNamespace(claim=SimpleNamespace(statement=r"\epsilon + d\log 2"), status="holds")
    results = [_res("P-T1", "refuted", extreme, corrected=fixed), _res("P-C1", "refuted", simple),
               _res("P-T2", "verified"), _res("P-T3", "refuted", uncertified, error_kind="typo"),
               _res("P-T4", "ambiguous")]
    meta = {"findings": [{"id": "P-F1", "title": "a dropped factor", "kind": "result", "claims": ["P-T1", "P-C1"],
                          "step": "step (ii)"}]}
    fs = paper_findings("p", meta, results)
    claims = [c for f in fs for c in f.claims]
    refuted = [r.claim.id for r in results if r.status in ("refuted", "ambiguous")]
    assert sorted(claims) == sorted(refuted) and len(claims) == len(set(claims))
    f1 = fs[0]
    assert f1.id == "P-F1" and f1.severity == "high" and f1.claims == ["P-T1", "P-C1"]
    assert f1.counterexample == simple and f1.counterexample_claim == "P-C1"  # the simplest certified one
    assert f1.corrected == r"\epsilon + d\log 2" and f1.corrected_status == "holds"
    kinds = {f.id: f.kind for f in fs}
    assert kinds["P-T3"] == "typo" and kinds["P-T4"] == "reading"
    assert [f.rank for f in fs] == sorted(f.rank for f in fs)  # most severe first
    assert all(r.finding for r in results if r.status in ("refuted", "ambiguous"))
    js = f1.as_json()
    assert {"id", "title", "kind", "severity", "claims", "counterexample", "corrected"} <= set(js)


def test_simplicity_prefers_certified_then_short():
    a = {"params": {"eps": "1"}, "certified": False}
    b = {"params": {"eps": "1/1000"}, "certified": True}
    c = {"params": {"eps": "3"}, "certified": True}
    assert sorted([a, b, c], key=simplicity) == [c, b, a]


def test_declared_findings_name_known_claims_and_kinds():
    """Every finding declared by a built-in paper names encoded claims, a known kind, and no claim twice."""
    reg = Registry()
    for key, paper in reg.papers.items():
        ids = {c.id for c in paper.claims}
        seen = set()
        for f in paper.meta.get("findings", []):
            assert f.get("kind") in (None,) + ERROR_KINDS, f  # (kinds are derived from the claims)
            for cid in f["claims"]:
                assert cid in ids, (key, f["id"], cid)
                assert cid not in seen, (key, cid)
                seen.add(cid)


def test_severity_and_kind_follow_from_the_claims_by_rule():
    from cbdp_sym.verify.findings import SEVERITY_RULE, bottom_line

    fixed = SimpleNamespace(claim=SimpleNamespace(statement="x"), status="verified")
    results = [_res("P-T1", "refuted", where="Theorem 1"), _res("P-T1-CHAIN", "refuted", where="proof of Theorem 1"),
               _res("P-F2", "refuted", where="Fig. 2"), _res("P-L3", "refuted", error_kind="typo", corrected=fixed,
                                                           where="Lemma 3"),
               _res("P-S5", "holds", where="Sec. 5", uses=("P-T1",)), _res("P-C4", "verified", where="Corollary 4")]
    meta = {"findings": [{"id": "P-FA", "title": "a", "claims": ["P-T1", "P-T1-CHAIN"]},
                         {"id": "P-FB", "title": "b", "kind": "result", "claims": ["P-F2"]}]}
    fs = {f.id: f for f in paper_findings("p", meta, results)}
    assert (fs["P-FA"].kind, fs["P-FA"].severity) == ("result", "high")  # the theorem decides, not the chain
    assert (fs["P-FB"].kind, fs["P-FB"].severity) == ("result", "low")  # a figure remark, whatever was typed
    assert (fs["P-L3"].kind, fs["P-L3"].severity) == ("typo", "low")  # its corrected statement holds
    assert fs["P-FA"].reaches == ["P-S5"]  # the claims that use a claim of the finding
    assert "high: a theorem" in SEVERITY_RULE
    bl = bottom_line(results, list(fs.values()))
    assert bl["as_stated"] == ["P-C4"] and bl["after_correction"] == ["P-L3"] and bl["fail"] == ["P-T1"]


def test_the_knock_on_message_names_each_used_claims_own_status():
    """Before: a used claim that is ambiguous was called 'refuted as printed' (ZCDP-C8.10 on ZCDP-C8.9)."""
    from types import SimpleNamespace as NS

    from cbdp_sym.verify.findings import knock_on

    used = NS(claim=NS(id="U-1", uses=()), status="ambiguous", message="", against_corrected=None)
    r = NS(claim=NS(id="C-1", uses=("U-1",)), status="ambiguous", message="two parses",
           against_corrected=NS(status="holds", message="fine"))
    knock_on([used, r])
    assert "(U-1 ambiguous as printed)" in r.message and "refuted as printed" not in r.message
    assert r.message.endswith("against the corrected statement: holds: fine")
