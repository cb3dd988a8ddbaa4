"""Checking a proof's chain of (in)equalities member by member, at given points.

A chain ``M_0 rel_1 M_1 rel_2 M_2 ...`` is a list of :class:`Link` objects: each holds the member as printed
(LaTeX), the relation to the previous member, the paper's justification, and a function that computes the
member's value at a point.  :func:`check_chain` evaluates every member, tests every relation with a relative
tolerance, and reports the first link that fails with both numbers; :func:`chain_table` renders the result as
an evidence table for a ``check`` claim.

Members that are closed forms printed in the paper are evaluated as printed (they are what is being checked);
members that are defining quantities (a supremum, an expectation) are evaluated from their definitions, so a
failing link separates what the paper computes from what is true.

>>> import mpmath as mp
>>> chain = [Link("x^2", lambda p: p["x"] ** 2), Link("x^2 + 1", lambda p: p["x"] ** 2 + 1, "<", "add 1"),
...          Link("x^3", lambda p: p["x"] ** 3, ">=", "(false for x >= 2)")]
>>> r = check_chain(chain, {"x": mp.mpf(3)})
>>> r.first_failure, r.rows[2]["holds"]
(2, False)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import mpmath as mp

from cbdp_sym.core.numbers import mp_str

RELATIONS = ("=", "<=", "<", ">=", ">")
_TEX = {"=": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">"}


@dataclass
class Link:
    """One member of a chain: ``expr`` (LaTeX as printed), ``value(point) -> mpf``, the relation ``rel`` to the
    previous member (ignored for the first), and the ``reason`` the paper gives.  A member computed by a solver
    or quadrature to fewer digits than the chain's precision says so in ``digits``: an ``=`` link is then
    judged as an equality to the digits both members have (it holds when they agree to them), never as a
    failure at the solver's last digit."""

    expr: str
    value: Callable
    rel: str = "="
    reason: str = ""
    digits: float | None = None  # digits to which the member's value is established (None: the chain's precision)

    def __post_init__(self):
        if self.rel not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {self.rel!r}")


@dataclass
class ChainResult:
    rows: list = field(default_factory=list)  # dicts: index, expr, rel, reason, value, holds, margin
    first_failure: int | None = None

    @property
    def holds(self) -> bool:
        return self.first_failure is None


def relation_holds(prev, cur, rel, digits: int):
    """``prev rel cur`` with relative tolerance ``10^-digits``; returns ``(holds, margin)``.

    The margin is signed, relative to ``max(|prev|, |cur|)``: positive when the relation holds with room,
    for ``=`` it is minus the relative difference.
    """
    tol = mp.mpf(10) ** (-digits)
    if mp.isinf(prev) or mp.isinf(cur):
        ok = {"=": prev == cur, "<=": prev <= cur, "<": prev < cur, ">=": prev >= cur, ">": prev > cur}[rel]
        return bool(ok), (mp.mpf(0) if ok else mp.mpf(-1))
    scale = max(abs(prev), abs(cur)) or mp.mpf(1)
    diff = (cur - prev) / scale
    if rel == "=":
        return bool(abs(diff) <= tol), -abs(diff)
    if rel in ("<=", "<"):
        ok = diff >= -tol if rel == "<=" else diff > tol
        return bool(ok), diff
    ok = -diff >= -tol if rel == ">=" else -diff > tol
    return bool(ok), -diff


def check_chain(links: list, point: dict, digits: int | None = None) -> ChainResult:
    """Evaluate every member at ``point`` and test every relation (tolerance ``10^-digits``, default
    ``dps - 10``)."""
    digits = digits if digits is not None else max(mp.mp.dps - 10, 5)
    res = ChainResult()
    prev, prev_digits = None, None
    for k, link in enumerate(links):
        val = link.value(point)
        row = {"index": k, "expr": link.expr, "rel": link.rel if k else "", "reason": link.reason,
               "value": val, "holds": None, "margin": None, "digits": None}
        if k and prev is not None:
            tol = min(d for d in (digits, link.digits, prev_digits) if d is not None)
            ok, margin = relation_holds(prev, val, link.rel, tol)
            row["holds"], row["margin"], row["digits"] = ok, margin, tol
            if not ok and res.first_failure is None:
                res.first_failure = k
        res.rows.append(row)
        prev, prev_digits = val, link.digits
    return res


def relation_text(row) -> str:
    """Whether a link holds, in words: an equality by the digits its members agree to, an inequality by its
    relative margin (``--`` for the first member)."""
    if row["holds"] is None:
        return ""
    m = row["margin"]
    if row["rel"] == "=":
        agree = "all" if m == 0 else mp_str(-mp.log10(abs(m)), 3)
        if row["holds"]:
            return f"yes (equal to {agree} digits)" if m != 0 else "yes (equal)"
        return f"no (the members agree to {agree} of {row['digits']:g} digits)"
    return ("yes" if row["holds"] else "no") + f" (relative margin {mp_str(m, 3)})"


def chain_table(title: str, result: ChainResult, note: str = "", sig: int = 12) -> dict:
    """An evidence table (``{"title", "columns", "rows", "note"}``) for a ``check`` claim: one row per member,
    ``(k) rel member`` and the justification in the first column, the value, and whether the relation to the
    previous member holds (with its relative margin)."""
    rows = []
    for r in result.rows:
        rel = "" if not r["rel"] else "$" + _TEX[r["rel"]] + "$ "
        member = f"({r['index']}) " + rel + "$" + r["expr"] + "$" + (f" -- {r['reason']}" if r["reason"] else "")
        holds = relation_text(r)
        rows.append([member, mp_str(r["value"], sig), holds])
    if result.first_failure is not None:
        f = result.rows[result.first_failure]
        p = result.rows[result.first_failure - 1]
        note = (note + " " if note else "") + (
            f"First failing link: ({f['index']}) (previous member {mp_str(p['value'], sig)}, this member "
            f"{mp_str(f['value'], sig)}).")
    else:
        note = (note + " " if note else "") + "Every link holds."
    return {"title": title, "columns": ["member (as printed) -- justification", "value", "relation holds"],
            "rows": rows, "note": note}


def chain_counterexample(where: str, result: ChainResult, sig: int = 20) -> dict:
    """The counterexample a refuted chain reports: the instance, the first failing link and its two members.

    Anyone can re-run it with the claim's ``audit``; the members are evaluated with mpmath at the working
    precision (not in ball arithmetic), which the entry says.
    """
    f = result.rows[result.first_failure]
    p = result.rows[result.first_failure - 1]
    return {"instance": where, "failing link": f"({f['index']})" + (f" {f['reason']}" if f["reason"] else ""),
            "previous member": mp_str(p["value"], sig), "relation (fails)": f["rel"],
            "this member": mp_str(f["value"], sig),
            "certificate": "not certified (members evaluated with mpmath at the working precision)"}


def failure_text(result: ChainResult, sig: int = 10) -> str:
    """One line: which link fails first, with the two numbers (or that every link holds)."""
    if result.first_failure is None:
        return "every link holds"
    f = result.rows[result.first_failure]
    p = result.rows[result.first_failure - 1]
    return (f"link {f['index']} fails: {mp_str(p['value'], sig)} {f['rel']} {mp_str(f['value'], sig)} is false"
            + (f" ({f['reason']})" if f["reason"] else ""))
