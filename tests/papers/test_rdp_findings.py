"""Mironov's RDP paper: findings a referee can sign (issue 29).

Every finding's counterexample is one of its own claims failing, at a typed point that ``cbdp-sym eval`` re-evaluates
to a violation; kinds and severities follow from the claims' roles and error kinds; corrections are linked; the
claims a statement rests on are declared (``uses``) and a claim using a corrected statement is audited against it.
"""
import json
import sys

import pytest

from cbdp_sym.verify.engine import audit_claim
from cbdp_sym.verify.findings import paper_findings
from ..conftest import cli_in_process

#: the claims of the findings whose checks are cheap (the figure claims RDP-FIG2-B and RDP-FIG3 are in the slow test)
CHEAP = ("RDP-L1-TV", "RDP-L1-PROOF", "RDP-EQ1-EQ", "RDP-P4-CHAIN", "RDP-SEC7-MARKOV", "RDP-T2-RR-INF-ALLP",
         "RDP-GAU-STD", "RDP-REM3")
#: every claim a finding of the paper names
FINDING_CLAIMS = CHEAP + ("RDP-FIG2-B", "RDP-FIG3")

#: finding -> (kind, severity, the claim whose counterexample it shows, its typed point, corrected status)
EXPECTED = {
    "RDP-F1": ("typo", "low", "RDP-L1-TV", {"eps": "1/2"}, "holds"),
    "RDP-F2": ("typo", "low", "RDP-EQ1-EQ", {"p": "3/4"}, "verified"),
    "RDP-F3": ("proof-step", "medium", "RDP-P4-CHAIN", {"Q": "1/100", "eps": "1", "n": "1"}, None),
    "RDP-F4": ("result", "low", "RDP-FIG2-B", {"lambda": "20", "q": "1/10", "n": "1"}, None),
    "RDP-F5": ("result", "low", "RDP-SEC7-MARKOV", {"P": ["1/2", "1/2"], "Q": ["1/5", "4/5"], "alpha": "3/2",
                                                     "beta": "2"}, "holds"),
    "RDP-F6": ("reading", "low", "RDP-T2-RR-INF-ALLP", {"p": "1/3"}, "verified"),
    "RDP-F7": ("typo", "low", "RDP-GAU-STD", {"sigma": "2"}, "verified"),
    "RDP-F8": ("result", "low", "RDP-FIG3", {"q": "1/1000000", "n": "13"}, None),
    "RDP-F9": ("typo", "low", "RDP-REM3", {"delta": "1/100", "eps": "1", "n": "1"}, "holds"),
}


_cli = cli_in_process  # (cbdp-sym ARGS in this process: exit code, stdout)


def _eval_violates(cid, params, dps=20):
    """``cbdp-sym eval CID --at k=v ...`` prints a violation: the comparisons at the point, one of them refuted."""
    at = [f"--at={k}={','.join(v) if isinstance(v, list) else v}" for k, v in params.items()]
    rc, text = _cli(["eval", cid, "--json", "--dps", str(dps)] + at)
    assert rc == 0, text
    out = json.loads(text)
    assert out["verdict"] == "refuted", (cid, params, out)
    return out


def _meta(registry):
    registry.claims()
    paper = next(m for k, m in sys.modules.items() if k.endswith(".rdp._paper"))
    return paper.PAPER


@pytest.fixture(scope="module")
def cheap_findings(registry):
    from ..conftest import once

    def run():
        from types import SimpleNamespace

        results = [audit_claim(registry.get(c), dps=20) for c in CHEAP]
        # the claims that use them (only their declarations matter for what a finding reaches)
        users = [SimpleNamespace(claim=c) for c in registry.claims() if c.paper == "rdp" and c.id not in CHEAP]
        return results, paper_findings("rdp", _meta(registry), results, results + users)

    return once("rdp-cheap-findings", run)


def test_findings_declare_no_kind_and_name_existing_claims(registry):
    """Kinds are derived from the claims (a typed "kind" is ignored, so none is written); every named claim exists."""
    meta = _meta(registry)
    ids = {c.id for c in registry.claims()}
    for spec in meta["findings"]:
        assert "kind" not in spec and "severity" not in spec, spec["id"]
        assert set(spec["claims"]) <= ids, spec["id"]
    assert sorted(c for s in meta["findings"] for c in s["claims"]) == sorted(FINDING_CLAIMS)


def test_titles_are_prose_with_mathematics(registry):
    """Titles define their symbols in prose with $...$ mathematics: no ASCII mathematics, no undefined bare letters."""
    import re

    for spec in _meta(registry)["findings"]:
        t = spec["title"]
        assert t.count("$") % 2 == 0, spec["id"]
        prose = re.sub(r"\$[^$]*\$", "", t)
        for bad in ("eps", "sqrt(", "exp(", "log(", "**", "alpha", "delta", "sigma"):
            assert bad not in prose, (spec["id"], bad)


def test_every_uses_names_a_claim_of_the_paper(registry):
    ids = {c.id for c in registry.claims()}
    rdp = [c for c in registry.claims() if c.paper == "rdp"]
    dangling = [(c.id, u) for c in rdp for u in c.uses if u not in ids]
    assert not dangling
    by = {c.id: c for c in rdp}
    # the proofs and text the seed cites (a sample of them)
    assert set(by["RDP-P4"].uses) >= {"RDP-L1", "RDP-P1", "RDP-P10", "RDP-P4-CHAIN"}
    assert "RDP-L1-TV" in by["RDP-L1-PROOF"].uses and "RDP-L1-PROOF" in by["RDP-L1"].uses
    assert "RDP-EQ1-EQ" in by["RDP-EQ1"].uses and "RDP-C4-1" in by["RDP-P2"].uses
    assert "RDP-P4" in by["RDP-C1"].uses and "RDP-P10" in by["RDP-P3"].uses


def test_roles_of_the_findings_claims(registry):
    """The roles the severity rule reads: a figure remark is a figure (not the proposition its label names), a step of
    a proof is a proof (not the lemma its section names)."""
    from cbdp_sym.verify.claims import infer_role

    role = {c: infer_role(registry.get(c)).value for c in FINDING_CLAIMS}
    assert role["RDP-FIG2-B"] == role["RDP-FIG3"] == "figure"
    assert role["RDP-L1-TV"] == role["RDP-L1-PROOF"] == role["RDP-P4-CHAIN"] == "proof"
    assert role["RDP-SEC7-MARKOV"] == role["RDP-REM3"] == role["RDP-GAU-STD"] == role["RDP-EQ1-EQ"] == "remark"
    assert role["RDP-T2-RR-INF-ALLP"] == "table"
    assert infer_role(registry.get("RDP-STABLE")).value == "remark"  # 'stable' is not a table


def test_cheap_findings_kinds_severities_corrections_and_points(cheap_findings):
    results, findings = cheap_findings
    by = {f.id: f for f in findings}
    assert set(by) == {k for k, v in EXPECTED.items() if v[2] in CHEAP}
    for fid, f in by.items():
        kind, severity, cid, params, corrected = EXPECTED[fid]
        assert (f.kind, f.severity) == (kind, severity), (fid, f.kind, f.severity)
        assert f.counterexample_claim == cid and f.counterexample["params"] == params, (fid, f.counterexample)
        assert f.counterexample["certified"], fid
        assert f.corrected_status == corrected, (fid, f.corrected_status)
        if corrected:
            assert f.corrected and [cid, corrected] in f.corrections, fid
    # the finding on Lemma 1's proof reaches Lemma 1 (RDP-L1 uses the proof's conclusion)
    assert "RDP-L1" in by["RDP-F1"].reaches


@pytest.mark.parametrize("fid", sorted(k for k, v in EXPECTED.items() if v[2] in CHEAP))
def test_cheap_counterexamples_re_evaluate_with_eval(cheap_findings, fid):
    """`cbdp-sym eval <claim> --at <the finding's point>` prints a violation of that claim."""
    _results, findings = cheap_findings
    f = next(x for x in findings if x.id == fid)
    out = _eval_violates(f.counterexample_claim, f.counterexample["params"])
    assert any(r["status"] == "refuted" for r in out["comparisons"])


def test_lemma1_proof_audited_against_the_corrected_bound(cheap_findings):
    """RDP-L1-PROOF plugs RDP-L1-TV's bound into (3): refuted with the printed 2 eps^2, it holds with the corrected
    2 eps (the engine re-audits it with the claims it uses read as corrected)."""
    results, _ = cheap_findings
    r = next(x for x in results if x.claim.id == "RDP-L1-PROOF")
    assert r.status == "refuted" and r.error_kind == "typo"
    assert r.against_corrected is not None and r.against_corrected.status == "holds", r.against_corrected
    assert "RDP-L1-TV as corrected" in r.against_corrected.message
    tv = next(x for x in results if x.claim.id == "RDP-L1-TV")
    assert tv.status == "refuted" and tv.corrected.status == "holds" and not tv.readings


def test_remark3_last_sentence_is_an_inverted_inequality(cheap_findings):
    results, _ = cheap_findings
    r = next(x for x in results if x.claim.id == "RDP-REM3")
    assert r.status == "refuted" and r.error_kind == "typo" and r.corrected.status == "holds"
    assert r.counterexample["relation"] == ">=" and r.counterexample["certified"]


@pytest.mark.slow
def test_every_finding_re_evaluates_from_an_audit_json(tmp_path):
    """The audit's audit.json: every RDP finding is declared, shows a certified counterexample of one of its own claims
    at a typed point, and `cbdp-sym eval` at that point prints a violation."""
    rc, _text = _cli(["audit", *FINDING_CLAIMS, "--no-pdf", "--jobs", "1", "--dps", "20", "--out", str(tmp_path)])
    assert rc == 0
    doc = json.loads((tmp_path / "audit-subset.json").read_text())
    found = {f["id"]: f for f in doc["findings"] if f["paper"] == "rdp"}
    assert set(found) == set(EXPECTED)
    for fid, f in found.items():
        kind, severity, cid, params, corrected = EXPECTED[fid]
        assert (f["kind"], f["severity"], f["counterexample_claim"]) == (kind, severity, cid), fid
        assert f["counterexample"]["params"] == params and f["counterexample"]["certified"], (fid, f["counterexample"])
        assert f["corrected_status"] == corrected, fid
        assert cid in f["claims"]
        _eval_violates(cid, f["counterexample"]["params"])


def test_knock_on_result_crosses_process_boundaries(registry):
    """A claim audited against the corrected statements it uses carries a second result; an audit's worker detaches
    its claim copy (closures: code, not data) like the others', so the result pickles, and the parent re-attaches it
    (without this, RDP-L1-PROOF and RDP-EQ1 ended in `error: result not transferable` in a multi-process audit)."""
    import pickle

    from cbdp_sym.app import resultcache
    from cbdp_sym.app.audit import _audit_detached

    res = _audit_detached((registry.get("RDP-L1-PROOF"), 20))
    assert res.against_corrected is not None and res.against_corrected.claim is None
    back = pickle.loads(pickle.dumps(res))
    assert back.against_corrected.status == "holds"
    full = audit_claim(registry.get("RDP-L1-PROOF"), dps=20)
    pickle.dumps(resultcache._detached(full))  # the result cache's stored form too
