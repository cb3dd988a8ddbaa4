"""Claim shapes: the recurring pieces of a ``check`` claim's verdict, written once for every paper module.

* :func:`as_reading`: one reading's verdict row (``claim.readings``) from a :class:`~cbdp_sym.verdict.CheckResult`,
  for a check that audits several readings of a printed sentence itself (see also
  :func:`cbdp_sym.verify.with_readings`, which runs one check per reading).
* :func:`family_evidence`: the evidence of a claim about instance families (:mod:`cbdp_sym.finite_restricted`),
  one numbered table row and one :class:`~cbdp_sym.verdict.Check` per family.
* :func:`family_check`: the whole check of such a claim: the families' verdict
  (:func:`~cbdp_sym.finite_restricted.family_verdict`), the evidence, and the counterexample of a refutation.
* :func:`rounds_to` / :func:`printed_number`: a numeric claim ("alpha ~ 3.3") is ``verified`` when the computed value
  rounds to the printed digits, else ``refuted``.

>>> r = as_reading(CheckResult.decide(False, "crossing at 3.9", yes="verified", no="refuted"), "(i) as printed",
...                literal=True)
>>> r["status"], r["literal"], r["message"]
('refuted', True, 'crossing at 3.9')
>>> printed_number(mp.mpf("3.2649"), "3.3", "crossing at 3.2649").status.value, rounds_to(mp.mpf("3.249"), "3.3")
('verified', False)
"""
from __future__ import annotations

import mpmath as mp

from .finite_restricted import family_counterexample, family_row, family_verdict, num_text
from .verdict import Check, CheckResult


def as_reading(result, name: str, *, seeds: str = "", literal: bool = False) -> dict:
    """The row ``{"name", "status", "message", "seeds"[, "literal"]}`` of ``CheckResult.readings`` for one reading
    of a printed statement: ``result`` is that reading's verdict (a :class:`CheckResult`), ``seeds`` says which
    extraction of the paper supports the reading, ``literal`` marks the text as printed."""
    result = CheckResult.of(result)
    row = {"name": name, "status": result.status.value, "message": result.message, "seeds": seeds}
    if literal:
        row["literal"] = True
    return row


def family_evidence(families, results: dict, *, origin: str = "grid") -> tuple:
    """``(rows, checks)`` of instance families and their results (``results[f.key]`` as
    :func:`~cbdp_sym.finite_restricted.run_family` returns it): rows numbered ``#1, #2, ...`` in the order of
    ``families`` (:func:`~cbdp_sym.finite_restricted.family_row`), one check per family with an admissible
    instance (``{"f": number}``, the worst instance's right side as ``claimed``, its left side as ``numeric`` and
    the smallest relative slack); ``origin`` is the checks' origin (``"search"`` for adversarially searched
    families)."""
    rows, checks = [], []
    for i, f in enumerate(families, 1):
        r = results[f.key]
        row = family_row(f, r)
        rows.append([f"#{i} " + row[0]] + row[1:])
        if r["min_slack"] is not None:
            checks.append(Check({"f": str(i)}, claimed=num_text(r["rhs"], 15), numeric=num_text(r["lhs"], 15),
                                slack=num_text(r["min_slack"], 8), origin=origin))
    return rows, checks


FAMILY_COLUMNS = ["family", "hypotheses", "search", "result", "worst instance"]


def family_check(families, results: dict, *, title: str, note: str = "", columns=None, message_suffix: str = "",
                 origin: str = "grid") -> CheckResult:
    """The check of a claim about instance families: ``refuted`` when a family where every hypothesis holds has a
    violation (with its counterexample), else ``holds`` with the smallest relative slack
    (:func:`~cbdp_sym.finite_restricted.family_verdict`); the message is the verdict's and ``message_suffix``;
    one table (``title``, ``columns``, ``note``) of :func:`family_evidence`'s rows, and its checks."""
    status, msg = family_verdict(results, families)
    rows, checks = family_evidence(families, results, origin=origin)
    table = {"title": title, "columns": list(columns or FAMILY_COLUMNS), "rows": rows}
    if note:
        table["note"] = note
    cx = family_counterexample(results, families) if status == "refuted" else None
    return CheckResult(status, msg + message_suffix, checks, [table], counterexample=cx)


def rounds_to(value, printed: str) -> bool:
    """Whether ``value`` rounds to the printed decimal ``printed`` (``|value - printed| <= 5 * 10^-(d+1)`` with
    ``d`` the printed decimals; the half-way point counts as rounding to it)."""
    d = len(printed.split(".")[1]) if "." in printed else 0
    return abs(value - mp.mpf(printed)) <= mp.mpf(5) / 10 ** (d + 1)


def printed_number(value, printed: str, message: str, **evidence) -> CheckResult:
    """The check of a numeric claim: ``verified`` when the computed ``value`` rounds to the ``printed`` digits
    (:func:`rounds_to`), else ``refuted``; ``evidence`` as for :class:`CheckResult`."""
    return CheckResult.decide(rounds_to(value, printed), message, yes="verified", no="refuted", **evidence)
