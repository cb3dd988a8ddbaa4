"""Findings: the refutations of a paper, classified and grouped by root cause.

A *finding* is one cause (a dropped factor in one proof, a sign slip, a garbled extraction) with every
claim it makes false.  Each refuted claim carries an ``error_kind``:

* ``result``: the result is false as intended (a theorem, lemma, corollary, table cell, figure claim);
* ``proof-step``: a step of a proof fails (whether the result survives is audited separately);
* ``typo``: a symbol slip that the paper's own proof or context corrects (a note, not a headline);
* ``reading``: the printed text admits several readings (every plausible one is audited; the claim is
  ``refuted`` only when all fail, ``ambiguous`` when their verdicts differ).

A paper declares its findings in ``_paper.py`` (``PAPER["findings"]``: a list of dicts with ``id``,
``title``, ``kind``, ``claims``, and optionally ``step``, ``seeds``, ``note``); a refuted claim that
no declared finding names gets a finding of its own, titled by the claim's label, so that every
refutation belongs to exactly one finding.

>>> SEVERITY["result"] < SEVERITY["proof-step"] < SEVERITY["reading"] < SEVERITY["typo"]
True
"""
from __future__ import annotations

from dataclasses import dataclass, field

ERROR_KINDS = ("result", "proof-step", "reading", "typo")
#: rank of a finding's kind (lower is more severe): result false > proof step > reading > typo
SEVERITY = {"result": 1, "proof-step": 2, "reading": 3, "typo": 4}
SEVERITY_NAME = {1: "high", 2: "medium", 3: "low", 4: "note"}


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

    @property
    def severity(self) -> str:
        return SEVERITY_NAME[SEVERITY[self.kind]]

    @property
    def rank(self) -> int:
        return SEVERITY[self.kind]

    def as_json(self) -> dict:
        return {"id": self.id, "paper": self.paper, "title": self.title, "kind": self.kind,
                "severity": self.severity, "claims": list(self.claims), "step": self.step or None,
                "corrected": self.corrected, "corrected_status": self.corrected_status,
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


def _size(text: str) -> int:
    """Digits needed to write a parameter value (a simple rational is short)."""
    t = str(text).strip()
    return sum(ch.isdigit() for ch in t) + (3 if "e" in t.lower() else 0)


def simplicity(cx: dict | None) -> tuple:
    """Sort key of a counterexample: certified first, then the fewest digits in its parameters."""
    if not cx:
        return (2, 10**9)
    params = cx.get("params") or {}
    size = sum(_size(v) for v in params.values()) if isinstance(params, dict) else 10**6
    return (0 if cx.get("certified") else 1, size)


def paper_findings(paper_key: str, meta: dict, results) -> list[Finding]:
    """The findings of one paper: the declared ones (``meta["findings"]``), then one per refuted or
    ambiguous claim that no declaration names; most severe first, then declared order, then paper order."""
    by_id = {r.claim.id: r for r in results}
    order = {r.claim.id: i for i, r in enumerate(results)}
    out, named = [], set()
    for spec in meta.get("findings", []):
        ids = [c for c in spec["claims"] if c in by_id and by_id[c].status in ("refuted", "ambiguous")]
        if not ids:
            continue
        f = Finding(spec["id"], paper_key, spec["title"], spec["kind"], ids, spec.get("step", ""),
                    seeds=spec.get("seeds", ""), note=spec.get("note", ""))
        named.update(ids)
        out.append(f)
    for r in results:
        if r.status in ("refuted", "ambiguous") and r.claim.id not in named:
            kind = "reading" if r.status == "ambiguous" else (getattr(r, "error_kind", None) or infer_error_kind(r.claim))
            out.append(Finding(f"{r.claim.id}", paper_key, r.claim.label, kind, [r.claim.id]))
            named.add(r.claim.id)
    for f in out:
        rs = [by_id[c] for c in f.claims]
        fixed = [r for r in rs if r.corrected is not None]
        if fixed:
            k = fixed[0].corrected
            f.corrected, f.corrected_status = k.claim.statement, k.status
        cands = [(simplicity(r.counterexample), order[r.claim.id], r) for r in rs if r.counterexample]
        if cands:
            _, _, best = min(cands, key=lambda t: (t[0], t[1]))
            f.counterexample, f.counterexample_claim = best.counterexample, best.claim.id
        for r in rs:
            r.finding = f.id
    declared = {spec["id"]: i for i, spec in enumerate(meta.get("findings", []))}
    # most severe first; declared findings in the order the paper folder gives, then the others in paper order
    out.sort(key=lambda f: (f.rank, declared.get(f.id, len(declared)), min(order[c] for c in f.claims)))
    return out
