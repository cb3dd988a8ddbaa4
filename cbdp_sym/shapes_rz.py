"""Verdict shapes that recur in the RDP and zCDP paper modules' checks (to be folded into the claim shapes).

Each function states one verdict rule once, so that a paper module declares what it measured and never spells
out a tolerance or builds a result dict by hand:

* :func:`agreement`: an identity checked numerically: ``verified`` when the worst digits of agreement meet the
  identity tolerance (:func:`cbdp_sym.verdict.agrees`, ``dps - 5`` digits), ``inconclusive`` otherwise.
* :func:`within_tolerance`: a bound checked on a family: ``holds`` unless the smallest relative slack is a
  violation (:func:`cbdp_sym.verdict.violated`, below ``-10^-(dps - 5)``), ``refuted`` then.
* :func:`overrule`: an engine check's result whose verdict is replaced when a further condition of the claim fails
  (the bound holds on the families, but an equality case or a side computation does not).
* :func:`reading`: one row of a claim's per-reading verdicts (``CheckResult.readings``).

>>> agreement(47.2, 50, "the forms agree").status.value, agreement(12.0, 50, "they do not").status.value
('verified', 'inconclusive')
>>> import mpmath as mp
>>> within_tolerance(mp.mpf("-1e-48"), 50, "slack").status.value, within_tolerance(mp.mpf(-1) / 3, 50, "x").status.value
('holds', 'refuted')
>>> overrule(agreement(47.2, 50, "the forms agree"), "refuted", when=True).status.value
'refuted'
>>> reading("as printed", "refuted", "fails at p = 1/3", literal=True)["status"]
'refuted'
"""
from __future__ import annotations

from .verdict import CheckResult, Status, agrees, violated


def agreement(worst_digits, dps: int, message: str, *, also: bool = True, no: str = "inconclusive",
              **evidence) -> CheckResult:
    """``verified`` when ``worst_digits`` (the smallest digits of agreement over the check's points) meets the
    identity tolerance at ``dps`` and the check's other conditions ``also`` hold; ``no`` (by default
    ``inconclusive``: numerics that disagree beyond error decide nothing) otherwise.  ``evidence``: the
    :class:`~cbdp_sym.verdict.CheckResult` fields (``checks``, ``tables``, ``counterexample``, ...)."""
    return CheckResult.decide(bool(also) and agrees(worst_digits, dps), message, yes="verified", no=no, **evidence)


def within_tolerance(worst_slack, dps: int, message: str, *, kind: str = "upper", **evidence) -> CheckResult:
    """``holds`` when the smallest relative slack ``worst_slack`` of a bound of ``kind`` (``upper``, ``lower``,
    ``strict-upper``) is not a violation at ``dps``, ``refuted`` when it is (any family member below the
    tolerance is a counterexample)."""
    return CheckResult.decide(not violated(kind, worst_slack, dps), message, yes="holds", no="refuted", **evidence)


def overrule(result, status, *, when: bool) -> CheckResult:
    """``result`` (a :class:`~cbdp_sym.verdict.CheckResult`, changed in place and returned) with its status set to
    ``status`` when ``when`` holds, unchanged otherwise: the claim's own extra condition (an equality case, a side
    identity, a hypothesis) decides over the engine check it wraps.  The message is left to the caller."""
    result = CheckResult.of(result)
    if when:
        result.status = Status(status)
    return result


def reading(name: str, status, message: str, seeds: str = "", literal: bool | None = None) -> dict:
    """One per-reading verdict of a check over several readings of the printed text (an entry of
    ``CheckResult.readings``): the reading's name, its status, a short message, the seeds that print it;
    ``literal`` marks the reading as printed (left out when ``None``)."""
    row = {"name": name, "status": Status(status).value, "message": message, "seeds": seeds}
    if literal is not None:
        row["literal"] = literal
    return row
