"""Findings: the refutations of a paper, classified and grouped by root cause.

A *finding* is one cause (a dropped factor in one proof, a sign slip, a garbled extraction) with every
claim it makes false.  Each refuted claim carries an ``error_kind``:

* ``result``: the result is false as intended (a theorem, lemma, corollary, table cell, figure claim);
* ``proof-step``: a step of a proof fails (whether the result survives is audited separately);
* ``typo``: a slip in an unambiguous printed formula; its corrected statement is audited too;
* ``reading``: the printed text itself admits two parses (notation, a quantifier's scope, a layout the extraction
  makes ambiguous); every plausible parse is audited, the claim is ``ambiguous`` when their verdicts differ.

**The policy.**  A reading is a second parse of the printed text itself, or an extraction difference where the
printed layout is genuinely ambiguous.  What the author probably meant, when the printed formula is unambiguous,
is not a reading: it is the corrected statement of a ``typo`` (or ``result``) refutation.

**Severity, by rule** (:func:`severity_of`, printed in every report's legend):

* high: a theorem, lemma, corollary, proposition or table value false as a result;
* medium: a proof step fails, or a constant or asymptotic order inside a result is off, while the result's
  statement is audited on its own;
* low: a figure or prose remark; a typo whose corrected statement holds; a reading.

A finding's kind and severity are derived from its claims (never typed per finding): the kind is the most
serious error kind among its claims, the severity the highest among its claims'.

A paper declares its findings in ``_paper.py`` (``PAPER["findings"]``: dicts with ``id``, ``title``, ``claims``,
and optionally ``step``, ``seeds``, ``note``, and ``counterexample``: the claim whose counterexample the finding
shows, where a claim of the finding also fails for another finding's cause at a simpler point); a refuted claim that
no declared finding names gets a finding of its own, titled by the claim's label, so that every refutation belongs
to exactly one finding.

>>> SEVERITY["result"] < SEVERITY["proof-step"] < SEVERITY["reading"] < SEVERITY["typo"]
True
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cbdp_sym.core.verdict import ERROR_KINDS  # noqa: F401 (re-exported)
from cbdp_sym.verify.claims import infer_role
#: rank of an error kind (lower is more serious)
SEVERITY = {"result": 1, "proof-step": 2, "reading": 3, "typo": 4}
SEVERITY_LEVELS = ("high", "medium", "low")

#: the severity rule, as the reports' legend prints it
SEVERITY_RULE = ("high: a theorem, lemma, corollary, proposition or table value is false as a result; "
                 "medium: a proof step fails, or a constant or asymptotic order inside a result is off, while the "
                 "result is audited on its own; low: a figure or prose remark, a typo whose corrected statement "
                 "holds, or a reading of the printed text")

#: the reading/typo policy, as the reports' legend prints it
READING_POLICY = ("A reading is a second parse of the printed text itself (notation, a quantifier's scope) or an "
                  "extraction difference where the printed layout is genuinely ambiguous; a correction of an "
                  "unambiguous printed formula is a typo (or a false result) whose corrected statement is audited.")

_RESULT_ROLES = ("theorem", "lemma", "corollary", "proposition", "table")


def severity_of(error_kind: str, role: str, corrected_status: str | None = None) -> str:
    """The severity of one refuted claim by the rule (:data:`SEVERITY_RULE`).

    >>> severity_of("result", "theorem"), severity_of("proof-step", "proof"), severity_of("result", "figure")
    ('high', 'medium', 'low')
    >>> severity_of("typo", "lemma", "verified"), severity_of("typo", "lemma", "refuted")
    ('low', 'high')
    >>> severity_of("result", "constant"), severity_of("reading", "theorem")
    ('medium', 'low')
    """
    role = str(role)
    if error_kind == "reading":
        return "low"
    if error_kind == "typo":
        if corrected_status in ("verified", "holds", None):
            return "low"
        error_kind = "result"  # a "typo" whose correction fails too is a false result
    if error_kind == "proof-step" or role in ("proof", "constant"):
        return "medium"
    if role in _RESULT_ROLES:
        return "high"
    return "low"


@dataclass
class Finding:
    """One root cause and the claims it affects (see the module docstring)."""

    id: str
    paper: str
    title: str
    kind: str
    claims: list = field(default_factory=list)  # claim IDs, the headline claim first
    step: str = ""  # the faulty step, where known (prose, ``$...$`` for mathematics)
    corrected: str | None = None  # LaTeX of the corrected statement the derivation supports
    corrected_status: str | None = None  # the verdict of the corrected statement
    counterexample: dict | None = None  # the simplest certified counterexample among the claims'
    counterexample_claim: str | None = None
    seeds: str = ""  # which seed supports which reading, where the seeds differ
    note: str = ""
    severity: str = "low"  # by the rule (severity_of), the highest among the finding's claims
    reaches: list = field(default_factory=list)  # claims that use one of this finding's claims (Claim.uses)
    corrections: list = field(default_factory=list)  # [claim ID, status of its corrected statement]

    @property
    def rank(self) -> int:
        return SEVERITY_LEVELS.index(self.severity) + 1

    def as_json(self) -> dict:
        return {"id": self.id, "paper": self.paper, "title": self.title, "kind": self.kind,
                "severity": self.severity, "claims": list(self.claims), "step": self.step or None,
                "corrected": self.corrected, "corrected_status": self.corrected_status,
                "corrections": [list(c) for c in self.corrections], "reaches": list(self.reaches),
                "counterexample": self.counterexample, "counterexample_claim": self.counterexample_claim,
                "seeds": self.seeds or None, "note": self.note or None}


def infer_error_kind(claim) -> str:
    """The error kind of a refuted claim: its declared ``error_kind``, else ``proof-step`` for a proof's
    step or chain (IDs ending in ``-CHAIN``, ``-PROOF``, ``-STEP...``), else ``result``."""
    declared = getattr(claim, "error_kind", None)
    if declared:
        return declared
    parts = claim.id.upper().split("-")
    if any(p in ("CHAIN", "PROOF") or p.startswith("STEP") for p in parts[2:]):
        return "proof-step"
    return "result"


def _size(text) -> int:
    """Digits needed to write a parameter value (a simple rational is short); a vector counts its coordinates."""
    if isinstance(text, list):
        return sum(_size(t) for t in text) + len(text)
    t = str(text).strip()
    return sum(ch.isdigit() for ch in t) + (3 if "e" in t.lower() else 0)


def simplicity(cx: dict | None) -> tuple:
    """Sort key of a counterexample: certified first, then the fewest digits in its parameters (the smallest
    dimension, the smallest integers)."""
    if not cx:
        return (2, 10**9)
    params = cx.get("params") or {}
    size = sum(_size(v) for v in params.values()) if isinstance(params, dict) else 10**6
    return (0 if cx.get("certified") else 1, size)


def _claim_error_kind(r) -> str:
    if r.status == "ambiguous":
        return "reading"
    return getattr(r, "error_kind", None) or infer_error_kind(r.claim)


def _claim_severity(r) -> str:
    corr = r.corrected.status if getattr(r, "corrected", None) is not None else None
    return severity_of(_claim_error_kind(r), infer_role(r.claim).value, corr)


def paper_findings(paper_key: str, meta: dict, results, all_results=None) -> list[Finding]:
    """The findings of one paper: the declared ones (``meta["findings"]``), then one per refuted or ambiguous
    claim that no declaration names; most severe first, then declared order, then paper order.  Kinds and
    severities are derived from the claims; ``reaches`` lists the claims (of any paper in ``all_results``) whose
    ``uses`` name one of the finding's claims."""
    by_id = {r.claim.id: r for r in results}
    order = {r.claim.id: i for i, r in enumerate(results)}
    out, named, shown = [], set(), {}
    for spec in meta.get("findings", []):
        ids = [c for c in spec["claims"] if c in by_id and by_id[c].status in ("refuted", "ambiguous")]
        if not ids:
            continue
        f = Finding(spec["id"], paper_key, spec["title"], "result", ids, spec.get("step", ""),
                    seeds=spec.get("seeds", ""), note=spec.get("note", ""))
        named.update(ids)
        out.append(f)
        if spec.get("counterexample") in ids:  # the claim whose counterexample the finding shows
            shown[f.id] = spec["counterexample"]
    for r in results:
        if r.status in ("refuted", "ambiguous") and r.claim.id not in named:
            out.append(Finding(f"{r.claim.id}", paper_key, r.claim.label, "result", [r.claim.id]))
            named.add(r.claim.id)
    users = {}
    for r in (all_results if all_results is not None else results):
        for u in getattr(r.claim, "uses", ()) or ():
            users.setdefault(u, []).append(r.claim.id)
    for f in out:
        rs = [by_id[c] for c in f.claims]
        f.kind = min((_claim_error_kind(r) for r in rs), key=SEVERITY.get)
        f.severity = min((_claim_severity(r) for r in rs), key=SEVERITY_LEVELS.index)
        fixed = [r for r in rs if r.corrected is not None]
        f.corrections = [[r.claim.id, r.corrected.status] for r in fixed]
        if fixed:
            k = fixed[0].corrected
            f.corrected, f.corrected_status = k.claim.statement, k.status
        pick = [by_id[shown[f.id]]] if f.id in shown and by_id[shown[f.id]].counterexample else rs
        cands = [(simplicity(r.counterexample), order[r.claim.id], r) for r in pick if r.counterexample]
        if cands:
            _, _, best = min(cands, key=lambda t: (t[0], t[1]))
            f.counterexample, f.counterexample_claim = best.counterexample, best.claim.id
        f.reaches = sorted({u for c in f.claims for u in users.get(c, ()) if u not in f.claims})
        for r in rs:
            r.finding = f.id
    declared = {spec["id"]: i for i, spec in enumerate(meta.get("findings", []))}
    # most severe first; declared findings in the order the paper folder gives, then the others in paper order
    out.sort(key=lambda f: (f.rank, declared.get(f.id, len(declared)), min(order[c] for c in f.claims)))
    return out


def bottom_line(results, findings) -> dict:
    """A paper's bottom line: which audited results survive as stated, which survive after correction, which fail
    (results: theorems, lemmas, corollaries, propositions and table values; the rest is counted).  Returns
    ``{"as_stated": [...], "after_correction": [...], "fail": [...], "undecided": [...], "other": {...}}``."""
    out = {"as_stated": [], "after_correction": [], "fail": [], "undecided": [], "other": {}}
    for r in results:
        role = infer_role(r.claim).value
        if r.status in ("definition", "cited", "skipped"):
            continue
        if role not in _RESULT_ROLES:
            out["other"][r.status] = out["other"].get(r.status, 0) + 1
            continue
        if r.status in ("verified", "holds"):
            out["as_stated"].append(r.claim.id)
        elif r.status in ("refuted", "ambiguous") and r.corrected is not None and r.corrected.status in ("verified", "holds"):
            out["after_correction"].append(r.claim.id)
        elif r.status in ("refuted", "ambiguous"):
            out["fail"].append(r.claim.id)
        else:
            out["undecided"].append(r.claim.id)
    return out


def knock_on(results) -> None:
    """Every result audited against the corrected statements of the claims it uses (``against_corrected``) says
    both in its message: how it fares against the printed statements, which of them are refuted, and its verdict
    against the corrections (changed in place; the status stays the printed statements')."""
    by_id = {r.claim.id: r for r in results}
    for r in results:
        k = getattr(r, "against_corrected", None)
        if k is None or "against the corrected statement" in (r.message or ""):
            continue
        used = [u for u in r.claim.uses if u in by_id]
        failing = [u for u in used if by_id[u].status in ("refuted", "ambiguous")]
        said = [f"{u} {by_id[u].status}" for u in failing]  # (ambiguous: refuted in one of its readings only)
        printed = (f"{r.status} against the printed statement of {', '.join(used)}"
                   + (f" ({', '.join(said)} as printed)" if said else ""))
        inner = k.message or ""
        for u in used:  # (the engine's prefix names the corrected claims already)
            inner = inner.replace(f"with {u} as corrected: ", "")
        r.message = (f"{printed}: {r.message}; against the corrected statement"
                     f"{'s' if len(used) > 1 else ''}: {k.status}: {inner}")
