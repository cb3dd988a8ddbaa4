"""Helpers shared by the CBDP paper modules (not claims: the registry skips files whose names start with ``_``).

What the evidence layer (:mod:`cbdp_sym.verify.evidence`) does not offer yet, written as small as possible:

* :func:`links_table` -- a display table of a proof chain already evaluated by :func:`cbdp_sym.Chain` (members,
  values, justifications; no verdict column: the engine decides the chain's links);
* :func:`structural_evidence` -- the family protocol of the structural theorems (Sections 4 and 6): the families
  of a claim declared once, each run once (cached), and the results handed to
  :func:`cbdp_sym.family_results_evidence` with a display table of every family.

And the paper's (lin, Rényi) proof helpers, in :mod:`._shifted` and re-exported here (:func:`power_sup`,
:func:`conjugate_constants`, :func:`orthant_chain_bound`; the engine's ``cbdp_sym.divergences.shifted`` before 0.3,
whose old paths still resolve to these objects for one release, with a ``DeprecationWarning``).
"""
from __future__ import annotations

import mpmath as mp

from cbdp_sym import Table
from cbdp_sym.families import family_results_evidence
from cbdp_sym.families import finite_restricted as fr

from ._shifted import conjugate_constants, orthant_chain_bound, power_sup  # noqa: F401

_REL_TEX = {"=": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">"}


def _value(x, sig=12):
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    if isinstance(x, mp.mpf) and mp.isinf(x):
        return r"$\infty$" if x > 0 else r"$-\infty$"
    return fr.num_text(x, sig)


def links_table(title: str, links, chain, note: str = "", sig: int = 12) -> Table:
    """The members of a chain (``links``: :class:`cbdp_sym.Link`) with the values :func:`cbdp_sym.Chain` computed
    for them (``chain``: the group it returned): one row per member, its relation to the previous one and the
    paper's justification, and its value.  Display only.

    >>> from cbdp_sym import Chain, Link
    >>> links = [Link("x^2", lambda p: p["x"] ** 2), Link("x^2 + 1", lambda p: p["x"] ** 2 + 1, "<", "add 1")]
    >>> links_table("t", links, Chain(links, {"x": 3})).rows
    [['(0) $x^2$', '9'], ['(1) $<$ $x^2 + 1$ -- add 1', '10']]
    """
    parts = chain.parts
    values = ([parts[0].claimed] + [p.computed for p in parts]) if parts else []
    rows = []
    for k, (link, val) in enumerate(zip(links, values)):
        rel = "" if not k else "$" + _REL_TEX[link.rel] + "$ "
        rows.append([f"({k}) " + rel + "$" + link.expr + "$" + (f" -- {link.reason}" if link.reason else ""),
                     _value(val, sig)])
    return Table(title, ["member (as printed) -- justification", "value"], rows, note)


def family_table(title: str, families, results: dict, note: str = "") -> Table:
    """One display row per instance family of a structural claim: what it is, its hypotheses, the search, the
    smallest relative slack found and the worst instance (no verdict column: the engine decides from the
    evidence :func:`structural_evidence` returns)."""
    rows = []
    for i, f in enumerate(families, 1):
        r = results[f.key]
        search = f"{r['evaluations']} instances"
        if f.instances:
            search += f" ({len(f.instances)} enumerated" + (f", {f.budget} searched)" if f.budget else ")")
        elif f.budget:
            search += " (searched)"
        if r.get("skipped"):
            search += f"; {r['skipped']} skipped"
        slack = "--" if r["min_slack"] is None else fr.num_text(r["min_slack"], 6)
        role = "all hold" if f.holds else "not all hold: shows the hypothesis is needed"
        worst = r["worst"] + (("; " + r["where"]) if r.get("where") else "")
        rows.append([f"#{i} {f.description}", f"{f.hypotheses} ({role})", search, slack, worst])
    return Table(title, ["family", "hypotheses", "search", "smallest relative slack", "worst instance"], rows, note)


def structural_evidence(families, run, *, what: str, title: str, note: str = "", kind: str = "upper"):
    """The evidence of a structural claim over its instance families: ``run(key)`` gives each family's
    :func:`cbdp_sym.restricted.finite.run_family` result (cached by the caller); the families where every hypothesis
    holds decide (:func:`cbdp_sym.family_results_evidence`), the others are shown aside.  Returns ``(node,
    table, results)``."""
    results = {f.key: run(f.key) for f in families}
    node = family_results_evidence(families, results, what=what, kind=kind)
    return node, family_table(title, families, results, note), results


def chain_to(links, at: dict, digits: int, what: str = ""):
    """:func:`cbdp_sym.Chain` of members computed to ``digits`` digits (a chain evaluated at a capped precision, or
    with solver members): every member is an estimate with the digits it established (its own ``Link.digits`` when
    smaller), and an ``=`` link holds when its members agree to the digits both established (what
    :class:`cbdp_sym.Compare`'s ``needs`` says).  ``Chain(digits=)`` sets an equality link's ``needs`` from that
    link's own digits only: a link after a member established to fewer digits (a solver value) would ask for more
    agreement than both members have, and be undecided where this helper decides it.

    >>> from cbdp_sym import Link
    >>> g = chain_to([Link("a", lambda p: mp.mpf(1)), Link("b", lambda p: mp.mpf(1) + mp.mpf(10) ** -30, "=")], {}, 25)
    >>> g.parts[0].needs, g.parts[0].computed.digits
    (25, 25)
    """
    from cbdp_sym import Chain, Link

    ls = [Link(lk.expr, lk.value, lk.rel, lk.reason, min(digits, lk.digits) if lk.digits is not None else digits)
          for lk in links]
    group = Chain(ls, at, what=what)
    for k, c in enumerate(group.parts, 1):
        if c.rel == "=":
            c.needs = int(min(ls[k].digits, ls[k - 1].digits))
    return group
