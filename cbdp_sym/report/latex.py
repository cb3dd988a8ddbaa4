"""Reports: the LaTeX appendix (standalone and ``\\input`` fragment), its PDF, and ``audit.json``.

Nothing here recomputes: it renders the :class:`~cbdp_sym.verify.engine.Result` objects.  Templates use
jinja2 with LaTeX-friendly delimiters (``((* *))`` blocks, ``((( )))`` variables) and
``StrictUndefined``; prose is escaped, mathematics comes from the one printer
(:mod:`cbdp_sym.core.printing`).  Output is byte-reproducible: no times, no absolute paths, sorted keys.
"""
from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import jinja2
import mpmath as mp
import sympy as sp

from cbdp_sym.core.printing import (breakable, key_tex, latex, latex_narrow, note_tex, num_tex, numbers_in_prose, params_tex,  # noqa: F401
                       tex_escape, text_out_of_math, value_tex, visible_width)
from cbdp_sym.core.tape import Tex
from cbdp_sym.core.version import __version__
from cbdp_sym.report.latexbuild import build_pdf, latexmk_available as available
from cbdp_sym.verify.claims import infer_role

def prose(text) -> str:
    """Prose with ``$...$`` mathematics: numbers trimmed and set as mathematics, the rest escaped."""
    return note_tex(numbers_in_prose(str(text)))


def _env():
    here = Path(__file__).resolve().parent / "templates"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(here)),
        block_start_string="((*", block_end_string="*))",
        variable_start_string="(((", variable_end_string=")))",
        comment_start_string="((=", comment_end_string="=))",
        undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["brk"] = brk
    env.filters["idbrk"] = idbrk
    env.filters["esc"] = tex_escape
    env.filters["note"] = prose
    return env


# -- layout of mathematics -------------------------------------------------------------------------
_WIDTH = 62  # visible characters that fit on a line of the display


def _break_expr(expr, first_width: int) -> list[str]:
    """Split a sum into lines of at most about :data:`_WIDTH` characters."""
    tex = latex(expr)
    if visible_width(tex) + first_width <= _WIDTH or not isinstance(expr, sp.Add):
        return [tex]
    terms = list(sp.Add.make_args(expr))
    if len(terms) < 2:
        return [tex]
    lines, cur, width = [], "", first_width
    for i, term in enumerate(terms):
        t = latex(term)
        sign = ""
        if i > 0:
            if t.startswith("-"):
                sign, t = "- ", t[1:].lstrip()
            else:
                sign = "+ "
        piece = sign + t
        w = visible_width(piece)
        if cur and width + w > _WIDTH:
            lines.append(cur)
            cur, width = piece, 6 + w
        else:
            cur, width = (cur + " " + piece).strip(), width + w
    lines.append(cur)
    return lines


def _side(x):
    if isinstance(x, Tex):
        return x.latex
    if isinstance(x, str):
        return x
    return latex(x)


def equation_lines(lhs, rel, rhs) -> str:
    """``lhs &rel rhs`` broken over several ``align*`` lines when it is too wide."""
    lt = _side(lhs)
    if isinstance(rhs, (Tex, str)) or not isinstance(rhs, sp.Basic):
        rt = _side(rhs)
        if visible_width(lt) + visible_width(rt) > _WIDTH and lt:
            return f"\\MoveEqLeft[2] {lt} \\\\ &{rel} {rt}"
        return f"{lt} &{rel} {rt}" if rel else f"{lt} & {rt}"
    lw = visible_width(lt)
    if lw > _WIDTH // 2:  # long left side: put the right side on its own line
        parts = _break_expr(rhs, 4)
        body = f"\\MoveEqLeft[2] {lt} \\\\ &{rel} {parts[0]}"
    else:
        parts = _break_expr(rhs, lw + 2)
        body = f"{lt} &{rel} {parts[0]}"
    for p in parts[1:]:
        body += f" \\\\ &\\quad {p}"
    return body


def steps_tex(steps) -> str:
    lines = []
    for i, st in enumerate(steps, 1):
        rel = {"=": "=", "<": "<", "": ""}.get(st.rel, st.rel)
        lines.append(r"\shortintertext{\footnotesize (" + str(i) + ") " + prose(st.note) + "}")
        lines.append(equation_lines(st.lhs, rel, st.rhs) + (r" \\" if i < len(steps) else ""))
    return "\n".join(lines)


def prose_tex(stmt: str) -> str | None:
    """A quoted sentence encoded as ``\\text{...}`` pieces with math between: as running text, or ``None``."""
    if not stmt.startswith(r"\text{"):
        return None
    out, i = [], 0
    while i < len(stmt):
        if stmt.startswith(r"\text{", i):
            depth, j = 1, i + 6
            while j < len(stmt) and depth:
                depth += {"{": 1, "}": -1}.get(stmt[j], 0)
                j += 1
            out.append(stmt[i + 6:j - 1])
            i = j
        else:
            j = stmt.find(r"\text{", i)
            j = len(stmt) if j < 0 else j
            out.append("$" + stmt[i:j] + "$")
            i = j
    return "".join(out)


def brk(text: str) -> str:
    """Escaped text with break points after ``/`` and ``_`` (file names in narrow columns)."""
    return tex_escape(text).replace("/", "/\\allowbreak{}").replace(r"\_", r"\_\allowbreak{}")


def idbrk(text: str) -> str:
    """A claim ID with break points after its hyphens (long IDs in narrow table columns)."""
    return tex_escape(text).replace("-", "-\\allowbreak{}")


def statement_tex(stmt: str) -> str:
    """A printed statement: split at top-level ``;`` / ``,\\ `` separators into lines."""
    parts = [p.strip() for p in re.split(r";\\ |,\\ (?=[a-z]\^\*|b\^\*)", stmt) if p.strip()]
    out = []
    for p in parts:
        if visible_width(p) > _WIDTH and "=" in p:
            lhs, _, rhs = p.partition("=")
            out.append(f"{lhs} \\\\ &= {rhs}")
        else:
            out.append("& " + p)
    return " \\\\\n".join(out)


def _short(value: str | None, n: int = 12) -> str:
    """A value in a table cell: a number as ``$...$`` with at most ``n`` significant digits and
    ``\\times 10^{k}``, anything else as text (never a Python representation)."""
    if value is None:
        return "--"
    return value_tex(value, n)


# -- provenance --------------------------------------------------------------------------------
def _git(args, cwd):
    try:
        out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def source_commit() -> str:
    """The commit of the code that runs: from git when it runs from a checkout (the folder holding
    ``pyproject.toml``), else the one recorded when the package was built (``_build_info.py``, written by
    ``setup.py``), else plainly ``unknown``."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file():
        commit = _git(["rev-parse", "HEAD"], root)
        if commit:
            dirty = _git(["status", "--porcelain", "--untracked-files=no", "--", ".", ":!reports"], root)
            return commit + (" (with uncommitted changes)" if dirty else "")
    try:
        from cbdp_sym._build_info import COMMIT  # written by setup.py into a built package only
    except ImportError:
        COMMIT = None
    if COMMIT:
        return f"{COMMIT} (recorded at build time)"
    return "unknown (not a git checkout, and no commit was recorded when this copy was built)"


def provenance(dps: int) -> list[tuple[str, str]]:
    commit = source_commit()

    def ver(name):
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "not installed"

    return [
        ("cbdp-sym", __version__), ("commit", commit), ("precision", f"{dps} digits (numerics at {dps + 10})"),
        ("python", platform.python_version()), ("sympy", ver("sympy")), ("mpmath", ver("mpmath")),
        ("python-flint", ver("python-flint")), ("jinja2", ver("jinja2")), ("numpy", ver("numpy")),
    ]


# -- JSON ------------------------------------------------------------------------------------
def result_json(r) -> dict:
    c = r.claim
    out = {
        "id": c.id, "paper": c.paper, "label": c.label, "kind": c.kind, "status": r.status,
        "claimed_latex": latex(r.claimed_expr) if r.claimed_expr is not None else None,
        "derived_latex": latex(r.derived_expr) if r.derived_expr is not None else None,
        "statement_latex": c.statement, "where": c.where, "seed": c.seed, "source": c.source,
        "checks": [ch.as_json() for ch in r.checks], "counterexample": r.counterexample, "message": r.message,
        "symbolic": r.symbolic, "steps": len(r.steps), "conventions": list(c.conventions),
    }
    if r.error_kind:
        out["error_kind"] = r.error_kind
    if r.finding:
        out["finding"] = r.finding
    if r.readings:
        out["readings"] = r.readings
    if r.tables:
        out["tables"] = r.tables
    if r.search:
        out["search"] = r.search
    if getattr(r, "failure_region", None):
        out["failure_region"] = r.failure_region
    if getattr(r, "evidence", None):
        out["evidence"] = r.evidence
    out["role"] = infer_role(c).value
    if c.uses:
        out["uses"] = list(c.uses)
    k = getattr(r, "against_corrected", None)
    if k is not None:
        out["against_corrected"] = {"status": k.status, "message": k.message, "uses": list(c.uses),
                                    "counterexample": k.counterexample}
    if r.corrected is not None:
        k = r.corrected
        out["corrected"] = {"statement_latex": k.claim.statement, "status": k.status, "message": k.message,
                            "claimed_latex": latex(k.claimed_expr) if k.claimed_expr is not None else None,
                            "checks": [ch.as_json() for ch in k.checks], "counterexample": k.counterexample}
    return out


SCHEMA_VERSION = 2  # audit.json's layout; its JSON Schema is cbdp_sym/report/schema/audit.schema.json


def audit_schema() -> dict:
    """The JSON Schema of ``audit.json`` (shipped with the package)."""
    return json.loads((Path(__file__).resolve().parent / "schema" / "audit.schema.json").read_text(encoding="utf-8"))


def audit_json(results, dps: int, findings=()) -> str:
    prov = dict(provenance(dps))
    skipped = [r for r in results if r.status == "skipped"]
    if skipped:  # outside the verdict counts, named here with the way to audit them
        prov["skipped"] = "; ".join(f"{r.claim.id}: {r.message}" for r in skipped)
    doc = {"schema_version": SCHEMA_VERSION, "dps": dps, "provenance": prov, "findings": [f.as_json() for f in findings],
           "claims": [result_json(r) for r in results]}
    return json.dumps(doc, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


# -- LaTeX -----------------------------------------------------------------------------------
def _cell(text) -> str:
    """A table cell: ``$...$`` segments are mathematics, numbers are shortened, the rest is escaped prose."""
    if text is None:
        return "--"
    t = str(text)
    if "$" in t:
        out = prose(t)
    else:
        out = _short(t)
    # a cell right after \\ or \midrule must not start with "[" or "(" (read as an optional argument)
    return "{}" + out if out.startswith(("[", "(")) else out


def table_view(tab: dict) -> dict:
    """A check's extra table, ready for the template (column widths shared out over the line)."""
    cols = list(tab.get("columns", []))
    n = max(len(cols), 1)
    width = 0.98 / n
    spec = "@{}" + "".join(r">{\raggedright\arraybackslash}p{%.3f\linewidth}" % (width - 0.02) for _ in cols) + "@{}"
    return {"title": tab.get("title", ""), "spec": spec, "head": " & ".join(note_tex(str(c)) for c in cols),
            "rows": [" & ".join(_cell(v) for v in row) for row in tab.get("rows", [])],
            "note": tab.get("note", "")}


def _checks_view(r, bound):
    checks = []
    for ch in r.checks:
        last = _short(ch.slack, 4) if bound else digits_text(ch.digits)
        params = ("$" + params_tex(ch.params) + "$") if ch.params else "--"
        if getattr(ch, "origin", "grid") != "grid":
            params += f" ({tex_escape(ch.origin)})"
        checks.append({"params": params, "claimed": _short(ch.claimed), "derived": _short(ch.derived),
                       "numeric": _short(ch.numeric), "last": last})
    return checks


def _result_view(r) -> dict:
    c = r.claim
    bound = c.kind in ("upper", "lower", "strict-upper")
    checks = _checks_view(r, bound)
    corrected = None
    if r.corrected is not None:
        k = r.corrected
        corrected = {"status": k.status, "message": k.message, "statement_lines": statement_tex(k.claim.statement),
                     "checks": _checks_view(k, bound),
                     "counterexample": counterexample_rows(k.counterexample) or None}
    search = None
    if r.search:
        sr = r.search
        search = (f"adversarial search (Nelder-Mead at {sr['digits']} digits, {sr['evaluations']} evaluations from "
                  f"{sr['starts']} of the worst sweep points) over "
                  + ", ".join(f"${key_tex(n).strip('$')} \\in [{num_tex(a)}, {num_tex(b)}]$" for n, (a, b) in sr["box"].items())
                  + (f"; smallest slack found {value_tex(sr['best_slack'], 4)} at $" + params_tex(sr["best"]) + "$"
                     if sr.get("best") else ""))
    d = r.min_digits()
    cx = counterexample_rows(r.counterexample) or None
    return {
        "id": c.id, "label": c.label, "status": r.status, "message": r.message, "where": c.where, "seed": c.seed,
        "source": c.source, "bound": bound, "digits_text": "--" if d is None else (f"{d:g}" if not bound else "slack"),
        "statement_lines": statement_tex(c.statement), "statement_prose": prose_tex(c.statement),
        "claimed_latex": latex(r.claimed_expr) if r.claimed_expr is not None else "",
        "claimed_lines": equation_lines(Tex(c.quantity or "Q"), "=", r.claimed_expr) if r.claimed_expr is not None else "",
        "derived_latex": latex(r.derived_expr) if r.derived_expr is not None else "",
        "derived_lines": equation_lines(Tex(c.quantity or "Q"), "=", r.derived_expr) if r.derived_expr is not None else "",
        "steps": bool(r.steps), "steps_latex": steps_tex(r.steps), "checks": checks, "counterexample": cx,
        "notes": c.notes, "conventions": "; ".join(c.conventions),
        "tables": [table_view(t) for t in r.tables], "corrected": corrected, "search": search,
    }


GLOBAL_CONVENTIONS = (
    "Natural logarithms throughout (a paper's own conventions are listed in its _paper.py, PAPER['conventions']).",
)


def figures_of(results) -> list:
    """The figures the audited claims read, in order of first use."""
    out = []
    for r in results:
        for f in getattr(r.claim, "figures", ()):
            if f not in out:
                out.append(f)
    return out


_MARKS = ("*", "square*", "triangle*", "o", "diamond*", "x")


def shade_tex(bound, value) -> str:
    """pgfplots commands shading the abscissa intervals where ``bound < value`` (both ``[(x, y), ...]`` on the
    same abscissae); an interval starts and ends halfway (geometrically on a log axis) between sample points."""
    xs = [mp.mpf(x) for x, _ in bound]
    bad = [mp.isfinite(b) and mp.isfinite(v) and b < v for (_, b), (_, v) in zip(bound, value)]
    out, i = [], 0
    while i < len(xs):
        if not bad[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(xs) and bad[j + 1]:
            j += 1
        lo = xs[i] if i == 0 else mp.sqrt(xs[i - 1] * xs[i]) if xs[i - 1] > 0 else (xs[i - 1] + xs[i]) / 2
        hi = xs[j] if j == len(xs) - 1 else mp.sqrt(xs[j] * xs[j + 1]) if xs[j] > 0 else (xs[j] + xs[j + 1]) / 2
        out.append(r"\path[fill=red!15] ({axis cs:%s,1} |- {rel axis cs:0,0}) rectangle ({axis cs:%s,1} |- {rel axis cs:0,1});"
                   % (mp.nstr(lo, 6), mp.nstr(hi, 6)))
        i = j + 1
    return "\n".join(out)


def _figure_view(fig, prefix: str = "cbdpsym") -> dict:
    """A figure ready for the template: finite points only, the abscissa range set to the data's (a point not
    computed within the audit's limits is left out, and the caption says how many)."""
    data = fig.data(compute=False)
    curves, xs = [], []
    for i, c in enumerate(fig.curves):
        pts = [(x, y) for x, y in data[c.key] if mp.isfinite(y) and x not in ("inf", "-inf")]
        xs += [mp.mpf(x) for x, _ in pts]
        coords = " ".join(f"({x},{mp.nstr(y, 10, min_fixed=-6, max_fixed=8)})" for x, y in pts)
        opts = ",".join(o for o in (c.style, f"mark={_MARKS[i % len(_MARKS)]}", "mark size=1.2pt") if o)
        curves.append({"label": c.label, "coords": coords, "opts": opts, "kind": c.kind, "key": c.key, "style": c.style})
    xrange = f"xmin={mp.nstr(min(xs), 10)}, xmax={mp.nstr(max(xs), 10)}" if xs else ""
    axis = fig.axis
    if xrange and "xmin" not in axis:
        axis = (axis + ", " if axis else "") + xrange
    extra = getattr(fig, "extra_tex", "")
    shade = getattr(fig, "shade_below", ())
    if shade:
        extra = (extra + "\n" if extra else "") + shade_tex(data[shade[0]], data[shade[1]])
    gaps = sum(1 for c in fig.curves for _, y in data[c.key] if mp.isnan(y))
    caption = fig.caption + (f" ({gaps} point{'s' if gaps > 1 else ''} not computed within the audit's limits, left out.)"
                             if gaps else "")
    return {"id": fig.id, "key": label_key(fig.id), "title": fig.title, "caption": caption, "xlabel": fig.xlabel,
            "ylabel": fig.ylabel, "axis": axis, "curves": curves, "where": fig.where, "csv": f"figures/{fig.id}.csv",
            "extra": extra, "xrange": xrange, "panels": dict(getattr(fig, "panels", {}) or {})}


_MARK = {"verified": r"\checkmark", "holds": r"\checkmark", "refuted": r"$\times$", "inconclusive": "?",
         "error": "!", "definition": "def.", "cited": "cited"}


def verdict_tables(paper, results) -> list:
    """Paper-level layouts (``PAPER["tables"]`` in ``_paper.py``): cells that name a claim ID show the
    printed statement and the verdict of that claim, as laid out in the paper (e.g. CBDP's Table 1)."""
    by_id = {r.claim.id: r for r in results}
    out = []
    for tab in paper.meta.get("tables", []):
        rows = []
        used = False
        for row in tab["rows"]:
            cells = []
            for cell in row:
                r = by_id.get(cell)
                if r is None:
                    cells.append(note_tex(cell) if not cell.startswith(paper.meta.get("prefix", "\0")) else
                                 tex_escape(cell) + " (not in this audit)")
                    continue
                used = True
                st = r.claim.statement
                fix = ""
                if r.corrected is not None and r.status == "refuted":
                    fix = (r" \newline corrected: $" + r.corrected.claim.statement + "$ "
                           + _MARK.get(r.corrected.status, r.corrected.status))
                cells.append("$" + st + "$ \\newline " + r"\textbf{" + r.status + "} " + _MARK.get(r.status, "")
                             + r" {\scriptsize\texttt{" + tex_escape(cell) + "}}" + fix)
            rows.append(" & ".join(cells))
        if not used:
            continue
        n = len(tab["header"])
        first = 0.16
        rest = (0.98 - first) / max(n - 1, 1)
        spec = ("@{}>{\\raggedright\\arraybackslash}p{%.3f\\linewidth}" % first
                + "".join(">{\\raggedright\\arraybackslash}p{%.3f\\linewidth}" % (rest - 0.02) for _ in range(n - 1)) + "@{}")
        out.append({"title": tab["title"], "spec": spec, "head": " & ".join(note_tex(h) for h in tab["header"]),
                    "rows": rows, "note": tab.get("note", "")})
    return out


def findings_view(findings) -> list[dict]:
    """The findings table's rows (see :mod:`cbdp_sym.verify.findings`)."""
    rows = []
    for f in findings:
        cx = f.counterexample or {}
        where = ", ".join(f"{k}={v}" for k, v in (cx.get("params") or {}).items()) if isinstance(cx.get("params"), dict) else ""
        rows.append({"id": f.id, "title": f.title, "kind": f.kind, "severity": f.severity, "claims": f.claims,
                     "step": f.step, "corrected": f.corrected, "corrected_status": f.corrected_status,
                     "counterexample": where, "certified": bool(cx.get("certified")),
                     "counterexample_claim": f.counterexample_claim, "seeds": f.seeds, "note": f.note})
    return rows


def group_figures(views) -> list[dict]:
    """Figure views grouped into floats: the panels of one paper figure (same ``where``) share a float, in
    the order of the paper; a group's title is the part of its first title before ``:``, each panel's
    subtitle the part after it; captions are given once."""
    groups, by_where = [], {}
    for v in views:
        where = re.sub(r"\s*\([^()]*\)$", "", v["where"] or "")  # "Fig. 1b (extended)" is a panel of Fig. 1b
        g = by_where.get(where) if where else None
        if g is None:
            g = {"where": where, "panels": [], "captions": [], "heads": []}
            groups.append(g)
            if where:
                by_where[where] = g
        head, sep, tail = v["title"].partition(": ")
        v["subtitle"] = tail if sep else v["title"]
        g["heads"].append(head if sep else v["title"])
        g["panels"].append(v)
        if v["caption"] and v["caption"] not in g["captions"]:
            g["captions"].append(v["caption"])
    for g in groups:
        # the paper's own figure before its extensions ("Fig. 1b" before "Fig. 1b (extended)")
        order = sorted(range(len(g["panels"])), key=lambda i: len(g["panels"][i]["where"] or ""))
        g["panels"] = [g["panels"][i] for i in order]
        g["heads"] = [g["heads"][i] for i in order]
        g["caption"] = " ".join(g.pop("captions"))
        heads = g.pop("heads")
        common = os.path.commonprefix(heads).rstrip(" ,;:(") if len(set(heads)) > 1 else heads[0]
        g["title"] = common or heads[0]
        if len(g["panels"]) > 1 and len(set(heads)) > 1:  # panels from different figures keep their own titles
            for v, h in zip(g["panels"], heads):
                v["subtitle"] = v["title"] if h != g["title"] else v["subtitle"]
        g["labels"] = [v["key"] for v in g["panels"]]
        if g["panels"][0].get("panels"):
            g["panels"] = _repanel(g["panels"])
        # panels with the same curves share one legend (drawn in the first panel)
        g["shared_legend"] = len(g["panels"]) > 1 and len({tuple(c["label"] for c in v["curves"]) for v in g["panels"]}) == 1
    return groups


_DASHES = ("", "dashed", "dotted", "dashdotted")


def _repanel(views) -> list[dict]:
    """The paper's own panels (``Figure.panels``) across several figures of one paper figure: each panel
    draws its named curves of every figure, labelled by the figure's subtitle."""
    out = []
    first = views[0]
    for i, (title, (keys, ylabel, axis)) in enumerate(first["panels"].items()):
        curves = []
        for j, v in enumerate(views):
            for c in v["curves"]:
                if c["key"] not in keys:
                    continue
                dash = _DASHES[list(keys).index(c["key"]) % len(_DASHES)]
                opts = ",".join(o for o in (dash, f"mark={_MARKS[j % len(_MARKS)]}", "mark size=1.2pt") if o)
                curves.append({**c, "label": c["label"] + ", " + v["subtitle"], "opts": opts})
        out.append({**first, "id": f"{first['id']}-{i + 1}", "key": f"{first['key']}-{i + 1}", "subtitle": title,
                    "ylabel": ylabel, "axis": ", ".join(a for a in (axis, first["xrange"]) if a), "curves": curves,
                    "extra": ""})
    return out


def split_figures(results) -> tuple[list, list]:
    """The drawn figures, split into the appendix's (those that a refuted or ambiguous claim reads: they
    show a finding) and the supplement's (the rest), each in the order of the paper."""
    key, rest = [], []
    for f in figures_of(results):
        if not f.draw:
            continue
        readers = [r for r in results if f in getattr(r.claim, "figures", ())]
        (key if any(r.status in ("refuted", "ambiguous") for r in readers) or getattr(f, "headline", False)
         else rest).append(f)
    return key, rest


def render(paper, results, dps: int, coverage, body_name: str, findings=(), heading: str = "section",
           prefix: str = "cbdpsym") -> tuple[str, str]:
    """The appendix of one paper: ``(standalone, body)`` (see :func:`render_appendix`)."""
    key, _rest = split_figures(results)
    return render_appendix(paper, results, dps, body_name, findings, heading, prefix,
                           [_figure_view(f, prefix) for f in key])


def latexmk_available() -> bool:
    return available()


def compile_pdf(tex_path: Path, epoch: str | None = None, timeout: float | None = None) -> tuple[bool, list[float], str]:
    """Compile with latexmk in a private folder (:func:`cbdp_sym.report.latexbuild.build_pdf`); returns
    ``(ok, overfull widths over 1pt, log tail)``; the PDF is replaced only by a complete one."""
    return build_pdf(tex_path, epoch, timeout)


def commit_epoch() -> str:
    root = Path(__file__).resolve().parents[2]
    return _git(["log", "-1", "--format=%ct"], root) or "0"


# -- the short appendix and the supplement (issue 14) -----------------------------------------------
HEADINGS = ("section", "subsection", "subsubsection", "paragraph", "subparagraph")
STATUSES = ("refuted", "ambiguous", "inconclusive", "error", "verified", "holds", "definition", "cited")
#: what each verdict means (the appendix's legend)
LEGEND = {
    "verified": "proved: for an identity, SymPy shows derived minus claimed is 0 under the stated assumptions (or it "
                "cannot decide and independent numerics agree to the required digits at every point); for a bound, "
                "proved symbolically.",
    "holds": "no violation found on the stated sweep, adversarial search and instance family; the smallest relative "
             "slack is shown. Evidence, not a proof.",
    "refuted": "a counterexample (certified in ball arithmetic where the quantities allow it) shows the statement "
               "false as printed.",
    "inconclusive": "the audit could not decide (a time limit, or methods that disagree beyond their error); the "
                    "reason is given.",
    "ambiguous": "the printed text has several plausible readings whose verdicts disagree; each reading is audited "
                 "and reported.",
    "error": "the audit of this claim failed with an error (the message is given).",
    "definition": "a definition of the paper: used by the other claims, not audited.",
    "cited": "a result the paper cites from elsewhere: used, not audited.",
}
APPENDIX_MATH_WIDTH = 34  # visible characters of one unbreakable piece of mathematics in a narrow column
APPENDIX_MATH_CAP = 150  # longer expressions are left to the supplement


def digits_text(d) -> str:
    """Digits of agreement as a whole number (``--`` when there are none, ``all`` when the values are equal)."""
    if d is None:
        return "--"
    if d == float("inf"):
        return "exact"
    return f"{int(d)}" if d >= 0 else "0"


def heading_commands(heading: str) -> tuple[str, str]:
    """The sectioning commands of a body's top level and of the level below it."""
    if heading not in HEADINGS[:3]:
        raise ValueError(f"heading must be one of {HEADINGS[:3]}, got {heading!r}")
    i = HEADINGS.index(heading)
    return HEADINGS[i], HEADINGS[i + 1]


def label_key(text: str) -> str:
    """A label-safe key (LaTeX labels may not contain ``#``, ``%``, braces or backslashes)."""
    return re.sub(r"[^A-Za-z0-9.:+-]", "-", str(text))


def seed_text(paper, seed: str) -> str:
    """A seed named by what it is (the paper's text extraction), never by its file name."""
    seeds = paper.meta.get("seeds", {})
    names = sorted(seeds)
    if seed in seeds:
        if len(names) == 1:
            return "the paper's text"
        return f"extraction {names.index(seed) + 1} of {len(names)} ({seeds[seed]})"
    return "the paper's text" if seed else "--"


def seed_short(paper, seed: str) -> str:
    """A seed as ``extraction k`` (the legend :func:`seed_legend` names them), or empty with one seed."""
    names = sorted(paper.meta.get("seeds", {}))
    if seed in names and len(names) > 1:
        return f"extraction {names.index(seed) + 1}"
    return ""


def seed_legend(paper) -> str:
    """The paper's text extractions, numbered as :func:`seed_short` names them."""
    seeds = paper.meta.get("seeds", {})
    if len(seeds) < 2:
        return ""
    return "; ".join(f"{i} = {seeds[n]}" for i, n in enumerate(sorted(seeds), 1))


def inline_statement(stmt: str) -> str:
    """A printed statement as running text with inline mathematics (lines break at relations and
    operators, so it fits any column width)."""
    prose = prose_tex(stmt)
    if prose is not None:
        return prose
    parts = [p.strip() for p in re.split(r";\\ |;\\quad|\\quad|\\qquad|\\\\", stmt) if p.strip()]
    return "; ".join(text_out_of_math(breakable(p.strip(" ,;"))) for p in parts)


def math_fits(tex: str, cap: int = APPENDIX_MATH_CAP) -> bool:
    return visible_width(tex) <= cap


def _claim_prose(text: str) -> str:
    return note_tex(numbers_in_prose(text or ""))


def counterexample_rows(cx, short: bool = False) -> list[tuple[str, str]]:
    """A counterexample dict as (name, value) rows of LaTeX text; the parameter point first, never cut.
    ``short`` (the appendix): the point, the values and whether it is certified; other entries only when
    they are brief (the supplement has them all)."""
    if not cx:
        return []
    if short:
        keep = ("params", "bound", "quantity", "derived", "relative_slack", "certified")
        cx = {k: cx[k] for k in keep if k in cx} or {k: v for k, v in list(cx.items())[:4] if len(str(v)) <= 80}
    rows = []
    if isinstance(cx.get("params"), dict):
        rows.append(("at", "$" + params_tex(cx["params"]) + "$"))
    for k, v in cx.items():
        if k == "params":
            continue
        if k == "certified":
            rows.append(("certified", "yes (ball arithmetic)" if v is True else ("no" if v is False else value_tex(v))))
            continue
        rows.append((key_tex(k), value_tex(v)))
    return rows


APPENDIX_STEP_CAP = 70  # a derivation step wider than this is left to the supplement
APPENDIX_STEPS = 2  # at most this many steps of a derivation in the appendix (the last ones: the conclusion)
APPENDIX_MESSAGE = 420  # characters of a verdict's message in the appendix (cut at a clause; the rest in the supplement)


def short_message(text: str, limit: int = APPENDIX_MESSAGE) -> tuple[str, bool]:
    """A message cut after the last clause (``; `` or ``. ``) that ends within ``limit`` characters, never
    inside ``$...$``; returns ``(text, cut)``.

    >>> short_message("first part; second part; third", 20)
    ('first part', True)
    """
    if len(text) <= limit:
        return text, False
    best = -1
    for m in re.finditer(r"; |\. ", text):
        if m.start() > limit:
            break
        if text[:m.start()].count("$") % 2 == 0:
            best = m.start()
    if best <= 0:
        return text, False
    return text[:best], True


def _message_has_counterexample(msg: str, cx) -> bool:
    """True when a verdict's message already states the counterexample (its claimed value and whether it
    is certified), so that the appendix need not repeat it."""
    if not cx or cx.get("bound") is None:
        return False
    text = numbers_in_prose(msg)
    return num_tex(cx["bound"]) in text and ("certified" in text or "certified" not in cx)


def _appendix_claim(r, paper, prefix: str) -> dict:
    c = r.claim
    fitting = []
    for i, st in enumerate(r.steps, 1):
        lhs, rhs = latex_narrow(st.lhs), latex_narrow(st.rhs)
        rel = {"<": "<", "": ""}.get(st.rel, st.rel)
        tex = f"{lhs} {rel} {rhs}".strip() if rel else f"{lhs}\\quad {rhs}".strip()
        if visible_width(tex) <= APPENDIX_STEP_CAP:
            fitting.append({"n": i, "note": _claim_prose(st.note), "math": tex})
    # the derived closed form is the derivation's conclusion: when it is shown, the steps stay in the supplement
    steps = [] if (r.derived_expr is not None and math_fits(latex_narrow(r.derived_expr))) else fitting[-APPENDIX_STEPS:]
    hidden = len(r.steps) - len(steps)
    derived = latex_narrow(r.derived_expr) if r.derived_expr is not None else ""
    q = c.quantity or "Q"
    msg, cut = short_message(r.message or "")
    corrected = None
    if r.corrected is not None:
        k = r.corrected
        corrected = {"statement": inline_statement(k.claim.statement), "status": k.status,
                     "message": _claim_prose(k.message),
                     "counterexample": counterexample_rows(k.counterexample, short=True)}
    return {
        "id": c.id, "label": c.label, "key": label_key(c.id), "status": r.status, "error_kind": r.error_kind or "",
        "where": c.where, "seed": seed_short(paper, c.seed), "message": _claim_prose(msg) + (
            " (continued in the supplement)" if cut else ""),
        "statement": inline_statement(c.statement), "steps": steps, "hidden_steps": hidden,
        "derived": (f"{q} = {derived}" if derived and math_fits(derived) else ""),
        "derived_long": bool(derived) and not math_fits(derived),
        "counterexample": ([] if _message_has_counterexample(msg, r.counterexample) else
                           counterexample_rows(r.counterexample, short=True)), "corrected": corrected,
        "finding": label_key(r.finding) if r.finding else "", "finding_id": r.finding or "",
        "readings": [{"name": _claim_prose(str(x.get("name", ""))), "status": x.get("status", ""),
                      "message": _claim_prose(str(x.get("message", ""))),
                      "seeds": _claim_prose(str(x.get("seeds", "") or ""))} for x in (r.readings or [])],
    }


def _compact_row(r) -> dict:
    c = r.claim
    bound = c.kind in ("upper", "lower", "strict-upper")
    if bound:
        slacks = [ch.slack for ch in r.checks if ch.slack is not None]
        ev = "--"
        if slacks:
            with mp.workdps(30):
                m = min(slacks, key=lambda x: mp.mpf(x) if x not in ("inf", "-inf", "nan") else mp.inf)
            ev = "slack " + value_tex(m, 3)
    else:
        ev = digits_text(r.min_digits())
        ev = ev + " digits" if ev not in ("--", "exact") else ev
    return {"id": c.id, "key": label_key(c.id), "label": c.label, "status": r.status, "evidence": ev}


def verdict_counts(results) -> list[tuple[str, int]]:
    counts = {}
    for r in results:
        if r.status == "skipped":  # outside the verdict counts (named in the provenance)
            continue
        counts[r.status] = counts.get(r.status, 0) + 1
    return [(s, counts[s]) for s in STATUSES if s in counts] + sorted((s, n) for s, n in counts.items() if s not in STATUSES)


def _chunks(rows, n):
    return [rows[i:i + n] for i in range(0, len(rows), n)] or [[]]


def _finding_rows(findings, by_id, prefix) -> list[dict]:
    rows = []
    for f in findings:
        cx = f.counterexample or {}
        params = cx.get("params") if isinstance(cx.get("params"), dict) else None
        cxt = ("$" + params_tex(params) + "$") if params else ""
        if params and cx.get("bound") is not None and cx.get("quantity") is not None:
            # the point, the printed value and the true value (issue 29)
            cxt += ": printed " + value_tex(cx["bound"], 6) + ", true " + value_tex(cx["quantity"], 6)
        if cx and not params:
            short = [(k, v) for k, v in cx.items() if k not in ("certified", "certificate") and v is not None
                     and len(str(v)) <= 24][:3]
            ref = r"\ref{" + f"{prefix}:claim:{label_key(f.counterexample_claim or f.claims[0])}" + "}"
            cxt = ("; ".join(f"{key_tex(k)}: {value_tex(v)}" for k, v in short) + f" (see {ref})") if short else "see " + ref
        corrected = ""
        if f.corrected:
            st = inline_statement(f.corrected)
            corrected = st if visible_width(f.corrected) <= 45 else (
                r"see \ref{" + f"{prefix}:claim:{label_key(f.claims[0])}" + "}")
        claims = [] if f.claims == [f.id] else [(c, label_key(c)) for c in f.claims]
        rows.append({"id": f.id, "key": label_key(f.id), "title": f.title, "kind": f.kind, "severity": f.severity,
                     "claims": claims, "counterexample": cxt,
                     "certified": bool(cx.get("certified")), "has_cx": bool(cx),
                     "corrected": corrected, "corrected_status": f.corrected_status or ""})
    return rows


def bib_entry(meta) -> str:
    """The audited paper's BibTeX entry (``PAPER["bib"]``), or an empty string."""
    b = meta.get("bib")
    if not b:
        return ""
    fields = ",\n".join(f"  {k} = {{{v}}}" for k, v in b["fields"].items())
    return f"@{b['type']}{{{b['key']},\n{fields}\n}}\n"


def bib_item(meta) -> str:
    """The same entry as a ``\\bibitem`` text (for the standalone documents' ``thebibliography``)."""
    b = meta.get("bib")
    if not b:
        return ""
    f = b["fields"]
    authors = " and ".join(" ".join(reversed([p.strip() for p in a.split(",")])) for a in f["author"].split(" and "))
    parts = [authors, r"\emph{" + f["title"] + "}", f.get("booktitle", f.get("journal", ""))]
    if f.get("series"):
        parts.append(f["series"] + (" " + f["volume"] if f.get("volume") else ""))
    if f.get("pages"):
        parts.append("pp. " + f["pages"])
    parts.append(f.get("year", ""))
    return ", ".join(p for p in parts if p) + "."


def _doc_context(paper, dps, heading, prefix):
    h1, h2 = heading_commands(heading)
    bib = paper.meta.get("bib") or {}
    return {"paper": {"key": paper.key, "title": paper.meta.get("title", paper.key), "venue": paper.meta.get("venue", ""),
                      "cite": bib.get("key", ""), "bibitem": bib_item(paper.meta), "pages": paper.meta.get("pages")},
            "h1": h1, "h2": h2, "prefix": prefix, "dps": dps, "version": __version__}


def render_appendix(paper, results, dps: int, body_name: str, findings=(), heading: str = "section",
                    prefix: str = "cbdpsym", figures=()) -> tuple[str, str]:
    """The short appendix (standalone, body): findings, verdict counts and legend, refuted and ambiguous
    claims in full, every other claim in one compact table, key figures."""
    env = _env()
    by_id = {r.claim.id: r for r in results}
    order = {"refuted": 0, "ambiguous": 1, "inconclusive": 2, "error": 3}
    full = sorted([r for r in results if r.status in order], key=lambda r: order[r.status])
    rest = [r for r in results if r.status not in order]
    ctx = _doc_context(paper, dps, heading, prefix)
    ctx.update({
        "findings": _finding_rows(findings, by_id, prefix), "counts": verdict_counts(results),
        "legend": [(s, LEGEND[s]) for s in STATUSES], "seeds": seed_legend(paper),
        "full": [_appendix_claim(r, paper, prefix) for r in full],
        "compact": _chunks([_compact_row(r) for r in rest], 6), "figures": group_figures(list(figures)),
        "body": body_name,
        "supplement": f"supplement-{paper.key}",
    })
    body = env.get_template("appendix-body.tex.j2").render(**ctx)
    standalone = env.get_template("standalone.tex.j2").render(kind="Appendix", **ctx)
    return standalone, body


def render_supplement(paper, results, dps: int, coverage, body_name: str, heading: str = "section",
                      prefix: str = "cbdpsym", figures=()) -> tuple[str, str]:
    """The supplement (standalone, body): every claim in full with its evidence, the paper's tables, the
    figures not in the appendix, conventions, paper mapping and provenance."""
    env = _env()
    ctx = _doc_context(paper, dps, heading, prefix)
    views = [_result_view(r) for r in results]
    for v, r in zip(views, results):
        v["key"] = label_key(r.claim.id)
        v["seed"] = seed_text(paper, r.claim.seed)
        v["message"] = numbers_in_prose(r.message or "")
    ctx.update({"results": views, "conventions": paper.meta.get("conventions", GLOBAL_CONVENTIONS),
                "provenance": provenance(dps), "coverage": coverage, "body": body_name,
                "figures": group_figures(list(figures)),
                "layouts": verdict_tables(paper, results)})
    body = env.get_template("supplement-body.tex.j2").render(**ctx)
    standalone = env.get_template("standalone.tex.j2").render(kind="Supplement", **ctx)
    return standalone, body
