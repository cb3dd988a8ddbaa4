"""Reports: the LaTeX appendix (standalone and ``\\input`` fragment), its PDF, and ``audit.json``.

Nothing here recomputes: it renders the :class:`~cbdp_sym.verify.Result` objects.  Templates use
jinja2 with LaTeX-friendly delimiters (``((* *))`` blocks, ``((( )))`` variables) and
``StrictUndefined``; prose is escaped, mathematics comes from the one printer
(:mod:`cbdp_sym.printing`).  Output is byte-reproducible: no times, no absolute paths, sorted keys.
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

from .printing import latex
from .tape import Tex

_TEX_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
    ">": r"\textgreater{}", "|": r"\textbar{}",
}
_MATH_SPLIT = re.compile(r"(\$[^$]*\$)")


def tex_escape(text) -> str:
    """Escape prose for LaTeX.

    >>> tex_escape("50% of a_b & {c}")
    '50\\\\% of a\\\\_b \\\\& \\\\{c\\\\}'
    """
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in str(text))


def note_tex(text: str) -> str:
    """An engine note: ``$...$`` segments are mathematics (kept), the rest is escaped prose."""
    parts = _MATH_SPLIT.split(text)
    return "".join(p if p.startswith("$") and p.endswith("$") and len(p) > 1 else tex_escape(p) for p in parts)


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
    env.filters["note"] = note_tex
    return env


# -- layout of mathematics -------------------------------------------------------------------------
_WIDTH = 62  # visible characters that fit on a line of the display


def visible_width(tex: str) -> int:
    """A rough count of printed characters in a LaTeX math string (for line breaking)."""
    t = re.sub(r"\\(left|right|big|Big|bigl|bigr|Bigl|Bigr|displaystyle|mathrm|operatorname|text)\b", "", tex)
    t = re.sub(r"\\frac\{", "{", t)
    t = re.sub(r"\\[a-zA-Z]+", "x", t)
    t = re.sub(r"[{}\s^_]", "", t)
    return len(t)


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
        lines.append(r"\shortintertext{\footnotesize (" + str(i) + ") " + note_tex(st.note) + "}")
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
    if value is None:
        return "--"
    if value in ("inf", "-inf", "nan"):
        return {"inf": r"$\infty$", "-inf": r"$-\infty$", "nan": "NaN"}[value]
    import mpmath as mp

    with mp.workdps(n + 5):
        try:
            v = mp.mpf(value)
        except (ValueError, TypeError):  # a list of numbers or a word: shown as text
            return tex_escape(value)
        return "$" + mp.nstr(v, n, min_fixed=-3, max_fixed=5).replace("e", r"\mathrm{e}") + "$"


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
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file():
        commit = _git(["rev-parse", "HEAD"], root)
        if commit:
            dirty = _git(["status", "--porcelain", "--untracked-files=no", "--", ".", ":!reports"], root)
            return commit + (" (with uncommitted changes)" if dirty else "")
    try:
        from ._build_info import COMMIT
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

    from . import __version__

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
    if r.corrected is not None:
        k = r.corrected
        out["corrected"] = {"statement_latex": k.claim.statement, "status": k.status, "message": k.message,
                            "claimed_latex": latex(k.claimed_expr) if k.claimed_expr is not None else None,
                            "checks": [ch.as_json() for ch in k.checks], "counterexample": k.counterexample}
    return out


def audit_json(results, dps: int, findings=()) -> str:
    doc = {"dps": dps, "provenance": dict(provenance(dps)), "findings": [f.as_json() for f in findings],
           "claims": [result_json(r) for r in results]}
    return json.dumps(doc, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


# -- LaTeX -----------------------------------------------------------------------------------
def _cell(text) -> str:
    """A table cell: ``$...$`` segments are mathematics, numbers are shortened, the rest is escaped prose."""
    if text is None:
        return "--"
    t = str(text)
    if "$" in t:
        out = note_tex(t)
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
        last = _short(ch.slack, 4) if bound else (f"{ch.digits:g}" if ch.digits is not None else "--")
        params = ", ".join(f"{k}={v}" for k, v in ch.params.items()) or "--"
        if getattr(ch, "origin", "grid") != "grid":
            params += f" ({ch.origin})"
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
                     "counterexample": [(str(a), str(b)) for a, b in k.counterexample.items()] if k.counterexample else None}
    search = None
    if r.search:
        sr = r.search
        search = (f"adversarial search (Nelder-Mead at {sr['digits']} digits, {sr['evaluations']} evaluations from "
                  f"{sr['starts']} of the worst sweep points) over "
                  + ", ".join(f"{n} in [{a}, {b}]" for n, (a, b) in sr["box"].items())
                  + (f"; smallest slack found {sr['best_slack']} at " + ", ".join(f"{k}={v}" for k, v in sr["best"].items())
                     if sr.get("best") else ""))
    d = r.min_digits()
    cx = None
    if r.counterexample:
        cx = [(str(k), str(v)) for k, v in r.counterexample.items()]
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


def _figure_view(fig) -> dict:
    data = fig.data()
    curves = []
    for i, c in enumerate(fig.curves):
        coords = " ".join(f"({x},{mp.nstr(y, 10, min_fixed=-6, max_fixed=8)})" for x, y in data[c.key] if mp.isfinite(y))
        opts = ",".join(o for o in (c.style, f"mark={_MARKS[i % len(_MARKS)]}", "mark size=1.2pt") if o)
        curves.append({"label": c.label, "coords": coords, "opts": opts, "kind": c.kind})
    return {"id": fig.id, "title": fig.title, "caption": fig.caption, "xlabel": fig.xlabel, "ylabel": fig.ylabel,
            "axis": fig.axis, "curves": curves, "where": fig.where, "csv": f"figures/{fig.id}.csv"}


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
    """The findings table's rows (see :mod:`cbdp_sym.findings`)."""
    rows = []
    for f in findings:
        cx = f.counterexample or {}
        where = ", ".join(f"{k}={v}" for k, v in (cx.get("params") or {}).items()) if isinstance(cx.get("params"), dict) else ""
        rows.append({"id": f.id, "title": f.title, "kind": f.kind, "severity": f.severity, "claims": f.claims,
                     "step": f.step, "corrected": f.corrected, "corrected_status": f.corrected_status,
                     "counterexample": where, "certified": bool(cx.get("certified")),
                     "counterexample_claim": f.counterexample_claim, "seeds": f.seeds, "note": f.note})
    return rows


def render(paper, results, dps: int, coverage, body_name: str, findings=()) -> tuple[str, str]:
    env = _env()
    views = [_result_view(r) for r in results]
    figs = [_figure_view(f) for f in figures_of(results) if f.draw]
    ctx = {"paper": {"key": paper.key, "title": paper.meta.get("title", paper.key),
                     "venue": paper.meta.get("venue", ""), "authors": paper.meta.get("authors", "")},
           "results": views, "dps": dps, "conventions": paper.meta.get("conventions", GLOBAL_CONVENTIONS), "provenance": provenance(dps),
           "coverage": coverage, "body": body_name, "figures": figs, "layouts": verdict_tables(paper, results),
           "findings": findings_view(findings)}
    body = env.get_template("appendix-body.tex.j2").render(**ctx)
    standalone = env.get_template("appendix.tex.j2").render(**ctx)
    return standalone, body


def latexmk_available() -> bool:
    return shutil.which("latexmk") is not None and shutil.which("pdflatex") is not None


_OVERFULL = re.compile(r"Overfull \\hbox \(([\d.]+)pt too wide\)")


def compile_pdf(tex_path: Path, epoch: str | None = None) -> tuple[bool, list[float], str]:
    """Compile with latexmk; returns ``(ok, overfull widths over 1pt, log tail)``."""
    env = dict(os.environ)
    env["SOURCE_DATE_EPOCH"] = epoch or env.get("SOURCE_DATE_EPOCH") or "0"
    env["FORCE_SOURCE_DATE"] = "1"
    cmd = ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", tex_path.name]
    proc = subprocess.run(cmd, cwd=tex_path.parent, capture_output=True, text=True, env=env, timeout=600)
    log_path = tex_path.with_suffix(".log")
    log = log_path.read_text(errors="replace") if log_path.exists() else proc.stdout + proc.stderr
    over = [float(w) for w in _OVERFULL.findall(log) if float(w) > 1.0]
    ok = proc.returncode == 0 and tex_path.with_suffix(".pdf").exists()
    subprocess.run(["latexmk", "-c", tex_path.name], cwd=tex_path.parent, capture_output=True, env=env, timeout=120)
    tail = "\n".join(log.splitlines()[-15:])
    return ok, over, tail


def commit_epoch() -> str:
    root = Path(__file__).resolve().parent.parent
    return _git(["log", "-1", "--format=%ct"], root) or "0"
