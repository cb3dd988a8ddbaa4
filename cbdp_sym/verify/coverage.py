"""How many points stand behind a verdict, and how far they spread (issue 30, item 4).

A verdict of ``holds`` or ``verified`` from numerics is evidence on the points that were checked, not a proof; a
reader needs to see how many there were and what range each parameter covered.  :func:`coverage` reads them from a
result's evidence (every comparison the engine decided, :mod:`cbdp_sym.verify.evidence`) or, for a result without
one, from its checks; the audit line, ``audit.json`` (``coverage``) and the supplement print it, and ``eval`` prints
the points the audit will check (:func:`planned`).

A continuous parameter (a positive, real, greater-than-one, unit-interval or non-zero domain) on fewer than
:data:`MIN_VALUES` distinct values is *thin*: the verdict is shown with the words "thin: sigma on 1 value", so a claim
checked at one sigma cannot pass as checked over all of them.

>>> cov = summarise([{"eps": "1/1000", "n": "1"}, {"eps": "2", "n": "1"}, {"eps": "100", "n": "2"}],
...                 {"eps": "positive", "n": "positive-int"})
>>> cov["points"], cov["params"][0], cov["thin"]
(3, {'name': 'eps', 'values': 3, 'min': '1/1000', 'max': '100'}, [])
>>> print(coverage_text(cov))
3 points; eps: 3 values in [1/1000, 100]; n: 2 values in [1, 2]
>>> summarise([{"sigma": "3"}], {"sigma": "positive"})["thin"]
['sigma']
"""
from __future__ import annotations

import json
import math
from fractions import Fraction

__all__ = ["CONTINUOUS", "MIN_VALUES", "summarise", "coverage", "planned", "coverage_text"]

CONTINUOUS = frozenset({"positive", "real", "gt1", "unit", "nonzero", "gt1-or-inf"})
MIN_VALUES = 3  # distinct values a continuous parameter needs before a numeric verdict is not called thin


def _number(v) -> float | None:
    """A parameter value as a float for ordering (``None``: not a number, e.g. an instance's name or a vector)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(Fraction(v.strip()))
        except (ValueError, ZeroDivisionError):
            try:
                x = float(v)
            except ValueError:
                return None
            return x if math.isfinite(x) else None
    return None


def _key(v) -> str:
    return v if isinstance(v, str) else json.dumps(v, sort_keys=True, default=str)


def summarise(points: list, domains: dict | None = None) -> dict | None:
    """The coverage of ``points`` (dicts name -> value, as ``audit.json`` writes them): ``{"points": n,
    "params": [{"name", "values", "min", "max"}], "thin": [names]}`` (``min``/``max`` only for numeric values, as
    written); ``domains`` maps a parameter's name to its domain (for *thin*).  ``None`` without points."""
    pts = [p for p in points if isinstance(p, dict) and p]
    if not pts:
        return None
    order, values = [], {}
    for p in pts:
        for k, v in p.items():
            if k not in values:
                order.append(k)
                values[k] = {}
            values[k].setdefault(_key(v), v)
    params, thin = [], []
    for name in order:
        vals = list(values[name].values())
        entry = {"name": name, "values": len(vals)}
        nums = [(_number(v), v) for v in vals]
        if all(x is not None for x, _ in nums):
            entry["min"] = str(min(nums, key=lambda t: t[0])[1])
            entry["max"] = str(max(nums, key=lambda t: t[0])[1])
        params.append(entry)
        if (domains or {}).get(name) in CONTINUOUS and len(vals) < MIN_VALUES:
            thin.append(name)
    distinct = {json.dumps(p, sort_keys=True, default=str) for p in pts}
    return {"points": len(distinct), "params": params, "thin": thin}


def _domains(claim) -> dict:
    out = {}
    for p in getattr(claim, "params", None) or []:
        d = getattr(p, "domain", None)
        out[p.name] = getattr(d, "value", d)
    return out


def _leaves(node):
    if isinstance(node, dict):
        if "parts" in node:
            for part in node["parts"]:
                yield from _leaves(part)
        else:
            yield node


def coverage(res) -> dict | None:
    """The coverage of a result's verdict: the points of its evidence's comparisons (every one, not the rows shown),
    else of its checks.  ``None`` for a result without points (a definition, a symbolic identity)."""
    ev = getattr(res, "evidence", None) or {}
    tree = ev.get("tree") if isinstance(ev, dict) else None
    if tree:
        points = [leaf.get("at") for leaf in _leaves(tree)]
    else:
        points = [getattr(c, "params", None) for c in getattr(res, "checks", None) or []]
    return summarise(points, _domains(getattr(res, "claim", None)))


def planned(claim) -> dict | None:
    """The coverage of the points the audit's sweep checks for ``claim`` (before any search adds its own)."""
    try:
        pts = claim.sweep_points() if getattr(claim, "params", None) else []
    except (ValueError, TypeError):
        return None
    return summarise([{k: str(v) for k, v in p.items()} for p in pts], _domains(claim))


def coverage_text(cov: dict | None) -> str:
    """One line of plain text (``3 points; eps: 3 values in [1/1000, 100]``); empty without coverage."""
    if not cov:
        return ""
    parts = [f"{cov['points']} point{'s' if cov['points'] != 1 else ''}"]
    for p in cov["params"]:
        rng = f" in [{p['min']}, {p['max']}]" if "min" in p and p["values"] > 1 else (
            f" = {p['min']}" if "min" in p else "")
        parts.append(f"{p['name']}: {p['values']} value{'s' if p['values'] != 1 else ''}{rng}")
    text = "; ".join(parts)
    if cov.get("thin"):
        text += " (thin: " + ", ".join(cov["thin"]) + f" on fewer than {MIN_VALUES} values)"
    return text
