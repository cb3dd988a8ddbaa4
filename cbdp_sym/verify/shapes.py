"""Claim shapes: the recurring pieces of a ``check`` claim's verdict, written once for every paper module.

* :func:`as_reading`: one reading's verdict row (``claim.readings``) from a :class:`~cbdp_sym.core.verdict.CheckResult`,
  for a check that audits several readings of a printed sentence itself (see also
  :func:`cbdp_sym.verify.engine.with_readings`, which runs one check per reading).
* :func:`family_evidence`: the evidence of a claim about instance families (:mod:`cbdp_sym.restricted.finite`),
  one numbered table row and one :class:`~cbdp_sym.core.verdict.Check` per family.
* :func:`family_check`: the whole check of such a claim: the families' verdict
  (:func:`~cbdp_sym.restricted.finite.family_verdict`), the evidence, and the counterexample of a refutation.
* :func:`rounds_to` / :func:`printed_number`: a numeric claim ("alpha ~ 3.3") is ``verified`` when the computed value
  rounds to the printed digits, else ``refuted``.
* :func:`agreement`: an identity checked numerically: ``verified`` when the worst digits of agreement meet the
  identity tolerance (:func:`cbdp_sym.core.verdict.agrees`, ``dps - 5`` digits), ``inconclusive`` otherwise.
* :func:`within_tolerance`: a bound checked on a family: ``holds`` unless the smallest relative slack is a
  violation (:func:`cbdp_sym.core.verdict.violated`, below ``-10^-(dps - 5)``), ``refuted`` then.
* :func:`overrule`: an engine check's result whose verdict is replaced when a further condition of the claim fails
  (the bound holds on the families, but an equality case or a side computation does not).
* :func:`reading`: one row of a claim's per-reading verdicts (``CheckResult.readings``).

>>> r = as_reading(CheckResult.decide(False, "crossing at 3.9", yes="verified", no="refuted"), "(i) as printed",
...                literal=True)
>>> r["status"], r["literal"], r["message"]
('refuted', True, 'crossing at 3.9')
>>> printed_number(mp.mpf("3.2649"), "3.3", "crossing at 3.2649").status.value, rounds_to(mp.mpf("3.249"), "3.3")
('verified', False)
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

import mpmath as mp

from cbdp_sym.restricted.finite import family_counterexample, family_row, family_verdict, num_text
from cbdp_sym.core.numbers import mp_str
from cbdp_sym.core.verdict import Check, CheckResult, Status, agrees, violated
from cbdp_sym.core.numbers import Estimate
from cbdp_sym.verify.evidence import Compare, Group


def as_reading(result, name: str, *, seeds: str = "", literal: bool = False) -> dict:
    """The row of :func:`reading` for one reading whose verdict is a :class:`CheckResult` (``result``); ``literal``
    marks the text as printed (the key is left out otherwise)."""
    result = CheckResult.of(result)
    return reading(name, result.status, result.message, seeds, True if literal else None)


def family_evidence(families, results: dict, *, origin: str = "grid") -> tuple:
    """``(rows, checks)`` of instance families and their results (``results[f.key]`` as
    :func:`~cbdp_sym.restricted.finite.run_family` returns it): rows numbered ``#1, #2, ...`` in the order of
    ``families`` (:func:`~cbdp_sym.restricted.finite.family_row`), one check per family with an admissible
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
    (:func:`~cbdp_sym.restricted.finite.family_verdict`); the message is the verdict's and ``message_suffix``;
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


def agreement(worst_digits, dps: int, message: str, *, also: bool = True, no: str = "inconclusive",
              **evidence) -> CheckResult:
    """``verified`` when ``worst_digits`` (the smallest digits of agreement over the check's points) meets the
    identity tolerance at ``dps`` and the check's other conditions ``also`` hold; ``no`` (by default
    ``inconclusive``: numerics that disagree beyond error decide nothing) otherwise.  ``evidence``: the
    :class:`~cbdp_sym.core.verdict.CheckResult` fields (``checks``, ``tables``, ``counterexample``, ...)."""
    return CheckResult.decide(bool(also) and agrees(worst_digits, dps), message, yes="verified", no=no, **evidence)


def within_tolerance(worst_slack, dps: int, message: str, *, kind: str = "upper", **evidence) -> CheckResult:
    """``holds`` when the smallest relative slack ``worst_slack`` of a bound of ``kind`` (``upper``, ``lower``,
    ``strict-upper``) is not a violation at ``dps``, ``refuted`` when it is (any family member below the
    tolerance is a counterexample)."""
    return CheckResult.decide(not violated(kind, worst_slack, dps), message, yes="holds", no="refuted", **evidence)


def overrule(result, status, *, when: bool) -> CheckResult:
    """``result`` (a :class:`~cbdp_sym.core.verdict.CheckResult`, changed in place and returned) with its status set to
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


def curves_above_reference(figures, cases, reference, *, dps: int, span: str = "", ref_key: str = "exact",
                           what: str = "the exact eps(delta)") -> CheckResult:
    """A figure claim: every other curve of each figure lies at or above the figure's reference curve ``ref_key``
    at every abscissa (relative tolerance ``10^-(dps - 5)``), and the reference curve agrees with an independent
    value ``reference(case, x)`` (a dict with ``eps``, ``digits`` and ``certificate``) to ``dps - 5`` digits, with a
    certificate.  ``cases[i]`` is ``(mechanism, value, name)`` for ``figures[i]``; ``dps`` the figures' precision.

    ``holds`` (the smallest and largest relative slack, and where), ``refuted`` (the curves below the reference) or
    ``inconclusive`` (the reference not established); one check per case, abscissa and curve."""
    checks, below, bad, slacks = [], [], [], []
    tol = mp.mpf(10) ** (-(dps - 5))
    for (mech, value, _name), fig in zip(cases, figures):
        d = fig.data()
        for i, x in enumerate(fig.xs):
            with mp.workdps(dps):
                ex = reference((mech, value), x)
            exact = d[ref_key][i][1]
            dg = ex["digits"]
            if dg is None or dg < dps - 5 or (ex["certificate"] or "").startswith("not certified"):
                bad.append(f"{mech} delta={x}: the quadrature and derived profiles agree to "
                           f"{mp.nstr(dg, 3) if dg is not None else '?'} digits ({ex['certificate']})")
            for c in fig.curves:
                if c.key == ref_key:
                    continue
                val = d[c.key][i][1]
                sl = (val - exact) / exact
                slacks.append((sl, mech, x, c.key))
                if val < exact * (1 - tol):
                    below.append(f"{c.key} on {mech} at delta={x} (relative slack {mp.nstr(sl, 3)})")
                checks.append(Check({"mech": f"{mech} {value}", "delta": x, "conv": c.key},
                                    claimed=mp_str(val, dps), derived=mp_str(ex["eps"], dps),
                                    numeric=mp_str(exact, dps), slack=mp_str(sl, 8),
                                    digits=float(min(dg, dps)) if dg is not None else None))
    if bad:
        return CheckResult("inconclusive", "; ".join(bad)[:400], checks=checks)
    lo, hi = min(slacks), max(slacks)
    if below:
        return CheckResult("refuted", f"a conversion curve lies below {what}: " + ", ".join(below)[:400], checks=checks)
    n = len(figures[0].xs) if figures else 0
    which = "both figures" if len(figures) == 2 else f"all {len(figures)} figures"
    return CheckResult("holds", checks=checks,
                       message=(f"every conversion curve lies above {what} at all {n} deltas{(' ' + span) if span else ''} "
                                f"of {which}; relative slack from {mp.nstr(lo[0], 3)} ({lo[3]}, {lo[1]}, "
                                f"delta = {lo[2]}) to {mp.nstr(hi[0], 3)} ({hi[3]}, {hi[1]}, delta = {hi[2]})"))


# == evidence versions (the engine decides: cbdp_sym.verify.evidence) ==========================================
def family_results_evidence(families, results: dict, *, what: str = "", kind: str = "upper"):
    """Instance families of a structural claim (:func:`cbdp_sym.restricted.finite.run_family` results) as
    evidence: each family where every hypothesis of the claim holds is a sample whose worst instance (recomputed at
    the working precision, certified when it violates) is compared; a family where a hypothesis fails is shown
    aside (it shows a hypothesis is needed, and decides nothing).  ``kind``: ``upper`` (lhs <= rhs) or ``lower``."""
    rel = {"upper": "<=", "lower": ">="}[kind]
    parts, aside = [], []
    for f in families:
        r = results[f.key]
        dom = (f"{f.key}: {f.description} ({r['evaluations']} instances: {r['enumerated']} enumerated, the rest by "
               f"a budgeted search; hypotheses: {f.hypotheses})")
        if r["min_slack"] is None:
            leaves = []
        else:
            lhs, rhs = r["lhs"], r["rhs"]
            if f.tol_digits is not None:  # the family's values are established to its tolerance digits
                lhs = Estimate(mp.mpf(lhs), f.tol_digits) if not isinstance(lhs, Fraction_types) else lhs
                rhs = Estimate(mp.mpf(rhs), f.tol_digits) if not isinstance(rhs, Fraction_types) else rhs
            cert = r.get("certificate")
            leaves = [Compare(claimed=rhs, computed=lhs, rel=rel,
                              at={"instance": f"family {f.key}: {r['worst']}"},
                              certify=(lambda cert=cert: cert) if cert else None)]
        (parts if f.holds else aside).append(Group("sample", leaves, domain=dom))
    out = Group("all", parts, what)
    if aside:
        out.note = "; ".join(g.domain for g in aside)
    return out


from fractions import Fraction as _Fraction  # noqa: E402

Fraction_types = (_Fraction, int)


def curves_evidence(figures, cases, reference, *, dps: int, ref_key: str = "exact", what: str = "",
                    figure_digits: int | None = None):
    """A figure claim as evidence: every other curve of each figure lies at or above the figure's reference curve
    ``ref_key`` at every abscissa, and the reference curve equals an independent value ``reference(case, x)`` (a
    dict with ``eps`` and ``digits``).  ``cases[i]`` is ``(mechanism, value, name)`` for ``figures[i]``."""
    parts = []
    for (mech, value, _name), fig in zip(cases, figures):
        d = fig.data()
        refs, above = [], []
        for i, x in enumerate(fig.xs):
            with mp.workdps(dps):
                ex = reference((mech, value), x)
            exact = fig(d[ref_key][i][1])
            indep = ex["eps"] if ex.get("digits") is None else Estimate(ex["eps"], int(min(ex["digits"], dps)))
            refs.append(Compare(claimed=exact, computed=indep, at={"mechanism": f"{mech} {value}", "delta": x}))
            for c in fig.curves:
                if c.key == ref_key:
                    continue
                above.append(Compare(claimed=exact, computed=fig(d[c.key][i][1]), rel=">=",
                                     at={"mechanism": f"{mech} {value}", "delta": x, "curve": c.key}))
        parts.append(Group("family", refs, what="the reference curve against an independent computation",
                           domain=f"the {len(fig.xs)} abscissae of {fig.id}", size=len(fig.xs)))
        parts.append(Group("family", above, what="every conversion curve at or above the reference",
                           domain=f"the curves and abscissae of {fig.id}", size=len(above)))
    return Group("all", parts, what)
