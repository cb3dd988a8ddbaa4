"""Reports: the LaTeX appendix (standalone and ``\\input`` fragment), its PDF, and ``audit.json``.

Nothing here recomputes: it renders the :class:`~cbdp_sym.verify.engine.Result` objects.  Templates use
jinja2 with LaTeX-friendly delimiters (``((* *))`` blocks, ``((( )))`` variables) and
``StrictUndefined``; prose is escaped, mathematics comes from the one printer
(:mod:`cbdp_sym.core.printing`).  Output is byte-reproducible: no times, no absolute paths, sorted keys.
"""
from __future__ import annotations

import contextvars
import json
from types import SimpleNamespace
import os
import platform
import re
import shutil
from importlib import metadata
from pathlib import Path

import jinja2
import mpmath as mp
import sympy as sp

from cbdp_sym.core.printing import (breakable, latex, latex_narrow, num_tex, tex_escape, text_out_of_math,
                                   visible_width)
from cbdp_sym.core.errors import DerivationTimeout
from cbdp_sym.core.tape import Tex
from cbdp_sym.core.timelimit import time_limit
from cbdp_sym.core.version import __version__
from cbdp_sym.report.latexbuild import build_pdf, latexmk_available as available
from cbdp_sym.report.text import GREEK_WORDS, Part, is_literal, literal_tex, parse_literal, parts, plain
from cbdp_sym.verify.claims import infer_role
from cbdp_sym.verify.coverage import MIN_VALUES, coverage
from cbdp_sym.verify.engine import Result
from cbdp_sym.core.version import _git, source_commit  # noqa: F401 - (source_commit: part of this module's API)
from cbdp_sym.verify.findings import READING_POLICY, SEVERITY_RULE, bottom_line

# -- messages as LaTeX (the convention and its parts: cbdp_sym.report.text) ---------------------------------
_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "^": r"\textasciicircum{}", "~": r"\textasciitilde{}", "<": r"$<$", ">": r"$>$", "|": r"$|$",
    "“": "``", "”": "''", "‘": "`", "’": "'", "\u00a0": r"\nobreakspace{}",
}
_INLINE_BREAK = 24  # inline mathematics wider than this (visible characters) is made breakable
#: the audited paper's citation label while one of its documents is rendered (its own references become
#: "[Mir17, ref. 6]", so that a reader never takes them for the host paper's)
_CITING: contextvars.ContextVar = contextvars.ContextVar("cbdpsym_citing", default="")
_CITATION = re.compile(r"\[(?:(\d{1,3})(,\s*(?:Sec|Secs|Thm|Theorem|Prop|Proposition|Lemma|Lem|Cor|Corollary|Def|"
                       r"Definition|Eq|Ch|Chapter|App|Appendix|Fig|Table|Remark|Example|p|pp)\.?\s*[^\[\]]{0,20})?"
                       r"|([A-Z][A-Za-z+]{0,5}\d{2}[a-z]?)(,\s*[^\[\]]{1,24})?)\]")


def cite_label(meta) -> str:
    """The audited paper's citation label in the ``alpha`` style: the first three letters of a sole author's
    surname, else the authors' initials, and the year's last two digits (``Mir17``, ``CIM19``, ``BS16``).

    >>> cite_label({"bib": {"fields": {"author": "Mironov, Ilya", "year": "2017"}}})
    'Mir17'
    >>> cite_label({"bib": {"fields": {"author": "Bun, Mark and Steinke, Thomas", "year": "2016"}}})
    'BS16'
    """
    f = (meta.get("bib") or {}).get("fields") or {}
    if not f.get("author"):
        return ""
    names = [a.split(",")[0].strip() if "," in a else a.strip().split()[-1] for a in f["author"].split(" and ")]
    names = [re.sub(r"[^A-Za-z]", "", n) for n in names if n]
    head = names[0][:3] if len(names) == 1 else "".join(n[:1] for n in names[:3]) + ("+" if len(names) > 4 else "")
    return head + str(f.get("year", ""))[-2:]


def cite_text(text: str, label: str) -> str:
    """The audited paper's own citations in prose, written as text under its label: ``[6]`` -> ``[Mir17, ref. 6]``,
    ``[10, Prop. 3.3]`` -> ``[Mir17, ref. 10, Prop. 3.3]``, ``[Coo09]`` -> ``[Mir17, ref. Coo09]``; an interval
    such as ``[1, 2]`` is not a citation.

    >>> cite_text("advanced composition [6]; citing [10, Prop. 3.3] and [Coo09]; on [1, 2]", "Mir17")
    'advanced composition [Mir17, ref.\\xa06]; citing [Mir17, ref.\\xa010, Prop. 3.3] and [Mir17, ref.\\xa0Coo09]; on [1, 2]'
    """
    if not label:
        return text

    def sub(m):
        ref, rest = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if ref == label:
            return m.group(0)
        return f"[{label}, ref.\u00a0{ref}{rest or ''}]"

    return _CITATION.sub(sub, text)


def text_tex(text: str) -> str:
    r"""Prose (a ``text`` part) as LaTeX text: every special character escaped, quotes as ````...''`` and
    ```...'``, ``...`` as an ellipsis.

    >>> print(text_tex("50% of a_b & “c” ~ d#1 \\ ^ ‘e’ ..."))
    50\% of a\_b \& ``c'' \textasciitilde{} d\#1 \textbackslash{} \textasciicircum{} `e' \dots{}
    """
    out = "".join(_TEXT_ESCAPES.get(ch, ch) for ch in str(text))
    return out.replace("...", r"\dots{}")


def more_breaks(tex: str) -> str:
    r"""Inline mathematics with extra break points at its top level: a discretionary multiplication sign
    (``\*``, printed as ``\times`` where the line breaks) between a closing delimiter or a power and the next factor,
    and a break after ``/`` and after a comma; TeX already breaks after relations and binary operators.

    >>> print(more_breaks(r"\bigl(a+b\bigr)\bigl(c\bigr)/\bigl(d\bigr)^{2} x_{1}/2"))
    \bigl(a+b\bigr)\*\bigl(c\bigr)/\allowbreak\bigl(d\bigr)^{2}\* x_{1}/\allowbreak 2
    >>> print(more_breaks(r"2^{a} 2^{b} \pi^{c} N, (0.1, 0.2)"))
    2^{a}\* 2^{b}\* \pi^{c}\* N,\allowbreak (0.1,\allowbreak 0.2)
    """
    out, depth, i = [], 0, 0
    scripts = []  # for each open brace: whether it opens a superscript or subscript
    closers = re.compile(r"\\(?:bigr|Bigr|biggr|right)(?:\)|\]|\||\\\||\\\}|\\rvert|\\rVert|\\rangle)")
    not_a_factor = re.compile(r"\\(?:le|ge|ne|to|in|cdot|times|pm|quad|,|;|bigr|Bigr|biggr|right|mid|leq|geq|approx|"
                              r"sim|mapsto|dots|ldots|cdots|allowbreak|\*)(?![a-zA-Z])")

    def factor_follows(rest: str) -> bool:
        return bool(rest) and (rest[0].isalnum() or rest.startswith(("\\bigl", "\\Bigl", "\\left", "\\frac", "(")) or
                               bool(re.match(r"\\[a-zA-Z]", rest)) and not not_a_factor.match(rest))

    while i < len(tex):
        ch = tex[i]
        if ch == "\\" and i + 1 < len(tex) and tex[i + 1] in "{},":
            out.append(tex[i:i + 2])
            i += 2
            continue
        if ch == "{":
            depth += 1
            scripts.append(i > 0 and tex[i - 1] in "^_")
        elif ch == "}":
            depth -= 1
            was_script = scripts.pop() if scripts else False
            if depth == 0 and was_script:
                out.append(ch)
                i += 1
                rest = tex[i:].lstrip()
                if rest and not rest.startswith(("^", "_", "(")) and factor_follows(rest):
                    out.append("\\*")
                continue
        m = closers.match(tex, i) if depth == 0 and ch == "\\" else None
        if m:
            out.append(m.group(0))
            i = m.end()
            if factor_follows(tex[i:].lstrip()):
                out.append("\\*")
            continue
        out.append(ch)
        if ch == "/" and depth == 0:
            out.append("\\allowbreak" + ("" if tex[i + 1:i + 2] in ("\\",) else " "))
        if ch == "," and depth == 0:
            out.append("\\allowbreak" + ("" if tex[i + 1:i + 2] in ("\\", " ") else " "))
        i += 1
    return "".join(out)


def math_tex(tex: str) -> str:
    """A ``math`` part as inline mathematics: long spans made breakable (:func:`~cbdp_sym.core.printing.breakable`,
    :func:`more_breaks`); a short one may still break after a top-level ``/`` or comma (a narrow table column)."""
    tex = tex.strip()
    if not tex:
        return ""
    if visible_width(tex) <= _INLINE_BREAK:
        return "$" + more_breaks(tex) + "$"
    if r"\text{" in tex:  # words inside the mathematics become running text, so that the line can break in them
        return text_out_of_math(more_breaks(breakable(tex)))
    return "$" + more_breaks(breakable(tex)) + "$"


def part_tex(p: Part, sig: int = 10) -> str:
    """One part of a message as LaTeX."""
    if p.kind == "text":
        return text_tex(cite_text(p.text, _CITING.get()))
    if p.kind == "math":
        return math_tex(p.text)
    if p.kind == "number":
        return "$" + num_tex(p.text, sig) + "$"
    return "$" + (p.name + " = " if p.name else "") + literal_tex(p.value, sig) + "$"


def prose(message, sig: int = 10) -> str:
    r"""A message (a string in the ``$...$`` convention, or its parts) as LaTeX: prose escaped, mathematics kept,
    numbers with at most ``sig`` significant digits, Python literals and ASCII mathematics set as mathematics.

    >>> print(prose('fails at v=(1,), eps >= 1e-7: "for all sigma" 100% $x_1$'))
    fails at $v = (1)$, $\varepsilon \ge 10^{-7}$: ``for all $\sigma$'' 100\% $x_1$
    """
    return "".join(part_tex(p, sig) for p in parts(message))


def key_latex(name) -> str:
    """A parameter or field name as LaTeX text: a Greek name or one letter as its symbol, ``D_alpha`` with its
    subscript, a longer name as words (``relative_slack`` -> ``relative slack``)."""
    s = str(name)
    if s in GREEK_WORDS or len(s) == 1 and s.isalpha() or re.fullmatch(r"([A-Za-z]|%s)_\w{1,3}" % "|".join(GREEK_WORDS), s):
        return prose(s) if "_" in s else "$" + (GREEK_WORDS.get(s, s)) + "$"
    if re.fullmatch(r"[a-z]+(?:_[a-z]+)+", s):  # a snake_case field name: words
        return prose(s.replace("_", " "))
    return prose(s)


def _literal_of(value):
    """A value that is a number or a literal as Python prints it (``(1,)``, ``"1,1"``, ``['0.5', '0.5']``), as a
    parsed literal; else ``None``."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return ("num", repr(value) if isinstance(value, float) else str(value))
    if isinstance(value, (list, tuple)):
        items = [_literal_of(v) for v in value]
        return None if any(i is None for i in items) else ("seq", items)
    if isinstance(value, dict):
        pairs = [(_literal_of(k), _literal_of(v)) for k, v in value.items()]
        return None if any(a is None or b is None for a, b in pairs) else ("map", pairs)
    text = str(value).strip()
    if not text:
        return None
    got = parse_literal(text)
    if got is not None and got[1] == len(text) and is_literal(got[0], bare=False):
        return got[0]
    if re.fullmatch(r"\s*[-+\d./eE]+(\s*,\s*[-+\d./eE]+)+\s*", text):  # "1,1": a vector without its parentheses
        got = parse_literal("(" + text + ")")
        if got is not None:
            return got[0]
    return None


def value_latex(value, sig: int = 10) -> str:
    """Any value of a report (number, literal, string, list, dict, ``None``) as LaTeX text, never a Python
    representation: ``None`` is a dash, a literal is mathematics, a string is prose.

    >>> value_latex("(1,)"), value_latex(None), value_latex("0.50000000000001"), value_latex({"a": 1, "note": "x y"})
    ('$(1)$', '--', '$0.5$', '$a = 1$; note: x y')
    """
    if value is None:
        return "--"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(assignment_latex(k, v, sig) for k, v in value.items())
    lit = _literal_of(value)
    if lit is not None:
        return "$" + literal_tex(lit, sig) + "$"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_latex(v, sig) for v in value)
    return prose(str(value), sig)


def assignment_latex(name, value, sig: int = 10) -> str:
    """``name = value`` as LaTeX: mathematics when the value is a number or a literal (``$v = (1)$``), else
    ``name: prose``."""
    lit = _literal_of(value)
    key = key_latex(name)
    if lit is not None and key.startswith("$") and key.endswith("$") and key.count("$") == 2:
        return "$" + key[1:-1] + " = " + literal_tex(lit, sig) + "$"
    return key + ": " + value_latex(value, sig)


def params_latex(params: dict, sig: int = 10) -> str:
    r"""A parameter point as running text, each parameter its own piece of mathematics (so that a narrow column
    breaks between them).

    >>> print(params_latex({"alpha": "3", "v": "(1,)", "family": "fin-alpha3/2"}))
    $\alpha = 3$, $v = (1)$, family: fin-alpha3/2
    """
    return ", ".join(assignment_latex(k, v, sig) for k, v in (params or {}).items())


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
    env.filters["esc"] = prose
    env.filters["note"] = prose
    env.filters["tt"] = tex_escape
    env.globals["col"] = column
    env.globals["heading"] = heading_tex
    return env


def heading_tex(level: str, title: str) -> str:
    r"""A body's top heading: ``\cbdpsymheading`` at the section level (IEEEtran's one-appendix mode ignores
    ``\section{...}``; the macro uses ``\section*`` there), the plain command below it; mathematics or commands in
    the title get a PDF-string form for hyperref's bookmarks.

    >>> print(heading_tex("section", "Audit of $x$-DP"))
    \cbdpsymheading{section}{Audit of $x$-DP}{Audit of x-DP}
    >>> print(heading_tex("subsection", "Audit of Rényi DP"))
    \subsection{Audit of Rényi DP}
    """
    tex = prose(title)
    pdf = tex_escape(plain(title))
    if level == "section":
        return f"\\cbdpsymheading{{section}}{{{tex}}}{{{pdf}}}"
    if "\\" in tex or "$" in tex:
        return f"\\{level}{{\\cbdpsymtexorpdf{{{tex}}}{{{pdf}}}}}"
    return f"\\{level}{{{tex}}}"


# -- layout of mathematics -------------------------------------------------------------------------
_WIDTH = 62  # visible characters that fit on a line of the display


def _break_expr(expr, first_width: int) -> list[str]:
    """Split a sum into lines of at most about :data:`_WIDTH` characters."""
    return _break_counted(expr, first_width)[0]


def _break_counted(expr, first_width: int) -> tuple[list[str], list[int]]:
    """:func:`_break_expr` and the number of terms on each line."""
    tex = latex(expr)
    if visible_width(tex) + first_width <= _WIDTH:
        return [tex], [1]
    if isinstance(expr, sp.Mul):  # a long product: its widest sum broken in brackets, the other factors before them
        sums = [f for f in expr.args if isinstance(f, sp.Add)]
        if sums:
            widest = max(sums, key=lambda f: visible_width(latex(f)))
            rest = sp.Mul(*[f for f in expr.args if f is not widest])
            head = latex(rest) if rest != 1 else ""
            head = "-" if head == "-1" else head
            lines, counts = _break_counted(widest, first_width + visible_width(head) + 2)
            lines[0] = f"{head} \\bigl[{lines[0]}"
            lines[-1] = f"{lines[-1]}\\bigr]"
            return lines, counts
    if not isinstance(expr, sp.Add):
        return [tex], [1]
    terms = list(sp.Add.make_args(expr))
    if len(terms) < 2:
        return [tex], [1]
    lines, counts, cur, n, width = [], [], "", 0, first_width
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
            counts.append(n)
            cur, n, width = piece, 1, 6 + w
        else:
            cur, n, width = (cur + " " + piece).strip(), n + 1, width + w
    lines.append(cur)
    counts.append(n)
    return lines, counts


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
        parts, counts = _break_counted(rhs, 4)
        body = f"\\MoveEqLeft[2] {lt} \\\\ &{rel} {parts[0]}"
    else:
        parts, counts = _break_counted(rhs, lw + 2)
        body = f"{lt} &{rel} {parts[0]}"
    shown = parts[1:]
    if len(parts) > MAX_LINES:  # a page of terms helps nobody: the first lines, and the count of the others
        shown = parts[1:MAX_LINES - 1]
        rest = sum(counts[MAX_LINES - 1:])
        shown.append(r"+ \cdots \text{ (%d more terms; the whole form is in \texttt{audit.json})}" % rest)
    for p in shown:
        body += f" \\\\ &\\quad {p}"
    return body


MAX_LINES = 12  # lines of one displayed closed form in the supplement
LONG_FORM = 4 * _WIDTH  # a closed form wider than about four lines is shown compacted when a compact form exists


def display_form(expr):
    """The form of a long closed form a reader can take in: factored or over one denominator when that is much
    shorter (SymPy's ``factor``/``cancel``: the same expression), with a note; else the expression itself.  Only
    for what is shown -- ``audit.json`` keeps the form as derived.

    >>> import sympy as sp
    >>> a, b = sp.symbols("a b")
    >>> display_form(a + b)
    (a + b, '')
    """
    if not isinstance(expr, sp.Basic) or isinstance(expr, Tex):
        return expr, ""
    width = visible_width(latex(expr))
    if width <= LONG_FORM or sp.count_ops(expr) > 800:
        return expr, ""
    best = None
    try:
        with time_limit(30, "the display form of a long expression"):
            for how, f in (("factored", sp.factor), ("over a common denominator", sp.cancel)):
                r = f(expr)
                w = visible_width(latex(r))
                if best is None or w < best[0]:
                    best = (w, how, r)
    except DerivationTimeout:
        pass
    if best is not None and best[0] < 0.6 * width:
        return best[2], f"shown {best[1]}; the form as derived is in audit.json"
    return expr, ""


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


_RELATION = re.compile(r"\\(?:geq?|leq?|ne|approx)(?![a-zA-Z])|=|<|>")


def _split_relations(tex: str) -> list[str]:
    """``tex`` cut before each relation at brace depth 0 outside ``\\text{...}``: ``[lhs, "rel rhs", ...]``."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(tex):
        ch = tex[i]
        if ch == "\\" and tex.startswith("\\text{", i):  # (a relation inside words is no relation)
            j, d = i + 6, 1
            while j < len(tex) and d:
                d += {"{": 1, "}": -1}.get(tex[j], 0)
                j += 1
            i = j
            continue
        if ch == "\\" and i + 1 < len(tex) and tex[i + 1] in "{}":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        m = _RELATION.match(tex, i) if depth == 0 else None
        if m and i > start:
            out.append(tex[start:i].strip())
            start = i
            i = m.end()
            continue
        i += 1
    out.append(tex[start:].strip())
    return [p for p in out if p]


def statement_tex(stmt: str) -> str:
    r"""A printed statement as the lines of an ``align*``: split at top-level ``;`` / ``,\ `` separators; a line too
    wide for the display is cut before each relation (a chain of inequalities one step per line), and one that is
    mostly words becomes a paragraph box (words cannot break inside a display).

    >>> print(statement_tex(r"a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y+z+aa+bb+cc+dd \ge b \ge c"))
    a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y+z+aa+bb+cc+dd \\ &\ge b \\ &\ge c
    """
    parts = [p.strip() for p in re.split(r";\\ |,\\ (?=[a-z]\^\*|b\^\*)", stmt) if p.strip()]
    out = []
    for p in parts:
        if visible_width(p) <= _WIDTH:
            out.append("& " + p)
            continue
        words = sum(len(t) for t in re.findall(r"\\text\{([^{}]*)\}", p))
        if words > _WIDTH // 2:
            out.append("& \\parbox[t]{\\dimexpr\\linewidth-4em\\relax}{\\raggedright " + text_out_of_math(more_breaks(p))
                       + "}")
            continue
        pieces = _split_relations(p)
        if len(pieces) > 1:
            out.append(pieces[0] + "".join(" \\\\ &" + q for q in pieces[1:]))
        else:
            out.append("& " + p)
    return " \\\\\n".join(out)


def _short(value: str | None, n: int = 12) -> str:
    """A value in a table cell: a number as ``$...$`` with at most ``n`` significant digits and
    ``\\times 10^{k}``, anything else as text (never a Python representation)."""
    if value is None:
        return "--"
    out = value_latex(value, n)
    if out.startswith("$") and out.endswith("$"):  # (a long form or an exact fraction: scaled to the column if wider)
        return r"\cbdpsymfit{" + out + "}"
    return out


# -- provenance --------------------------------------------------------------------------------
# (the commit: cbdp_sym.core.version.source_commit, the one `cbdp-sym --version` prints)
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
    cov = coverage(r)
    if cov is not None:
        out["coverage"] = cov
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
    if isinstance(text, (dict, list, tuple, bool, int, float)):
        return value_latex(text)
    t = str(text)
    if "$" in t:
        out = prose(t)
        if re.fullmatch(r"\$[^$\s]*\$", out):  # one piece of mathematics with no break point: fitted to its column
            out = r"\cbdpsymfit{" + out + "}"
    else:
        out = _short(t)
    # a cell right after \\ or \midrule must not start with "[" or "(" (read as an optional argument)
    return "{}" + out if out.startswith(("[", "(")) else out


def column(frac: float, align: str = "l") -> str:
    r"""A paragraph column of ``frac`` of the line (``l`` ragged right, ``r`` ragged left): with ``@{}`` at both
    ends, fractions that add up to 1 fill the line.  Written out in full, so that a body defines no column type
    a host document might have.

    >>> print(column(0.3))
    >{\raggedright\arraybackslash}p{\dimexpr 0.300\linewidth-2\tabcolsep\relax}
    """
    side = {"l": r"\raggedright", "r": r"\raggedleft", "c": r"\centering"}[align]
    return r">{%s\arraybackslash}p{\dimexpr %.3f\linewidth-2\tabcolsep\relax}" % (side, frac)


def _visible(cell: str) -> int:
    """About how many characters a LaTeX cell prints."""
    t = re.sub(r"\\(?:allowbreak|\*|newline|textbf|textit|emph|texttt|mathrm|text|cbdpsymid|cbdpsymfit|bigl|bigr|left|right|"
               r"raggedright|scriptsize|footnotesize)(?![a-zA-Z])", "", cell)
    t = re.sub(r"\\[a-zA-Z]+", "x", t)
    return len(re.sub(r"[{}$\\^_]", "", t))


def _unbreakable(cell: str) -> int:
    """About how many characters the widest piece of a cell that a line cannot break inside prints (a word, a
    number, a piece of mathematics between relations, operators and break points)."""
    pieces = re.split(r"\s+|\\allowbreak|\\\*|(?<=[=+<>,])|\\(?:le|ge|ne|to|cdot|times|in)(?![a-zA-Z])|/|-(?=\w)",
                      re.sub(r"\\newline", " ", cell))
    return max((_visible(p) for p in pieces if p), default=1)


#: characters of small text that fill the line of a one-column page (a 12.6 cm column: the narrowest host)
LINE_CHARS = 80


def column_widths(head: list[str], rows: list[list[str]], chars: int = LINE_CHARS) -> list[float]:
    """Fractions of the line for a table's columns, by the length of their contents (a column of short numbers
    narrow, one of sentences wide); every column gets at least its widest unbreakable piece (a number, a word)
    when the line allows it (``chars`` characters fill the line).

    >>> column_widths(["a", "b"], [["a long sentence of several words here and more words still", "1.5"]])
    [0.925, 0.075]
    """
    n = max(len(head), max((len(r) for r in rows), default=0), 1)
    weights, floors = [], []
    for j in range(n):
        cells = [r[j] for r in rows if j < len(r)] + ([head[j]] if j < len(head) else [])
        longest = max((_visible(c) for c in cells), default=1)
        weights.append(max(min(longest, 60), 4))
        floors.append((max((_unbreakable(c) for c in cells), default=1) + 3) / chars)
    if sum(floors) >= 1:
        fr = [f / sum(floors) for f in floors]
    else:
        fixed: set[int] = set()
        while True:
            free = 1 - sum(floors[j] for j in fixed)
            rest = sum(weights[j] for j in range(n) if j not in fixed)
            fr = [floors[j] if j in fixed else free * weights[j] / rest for j in range(n)]
            low = [j for j in range(n) if j not in fixed and fr[j] < floors[j]]
            if not low:
                break
            fixed |= set(low)
    fr = [round(f, 3) for f in fr]
    fr[-1] = round(1 - sum(fr[:-1]), 3)
    return fr


def table_spec(head: list[str], rows: list[list[str]]) -> str:
    return "@{}" + "".join(column(f) for f in column_widths(head, rows)) + "@{}"


def table_view(tab: dict) -> dict:
    """A check's extra table, ready for the template (column widths shared out over the line by content)."""
    cols = [prose(str(c)) for c in tab.get("columns", [])]
    rows = [[_cell(v) for v in row] for row in tab.get("rows", [])]
    return {"title": tab.get("title", ""), "spec": table_spec(cols, rows), "head": " & ".join(cols),
            "rows": [" & ".join(r) for r in rows], "note": tab.get("note", "")}


def _box_tex(name, lo, hi) -> str:
    key = key_latex(name)
    if key.startswith("$") and key.endswith("$"):
        return f"${key[1:-1]} \\in [{num_tex(lo)}, {num_tex(hi)}]$"
    return f"{key} in $[{num_tex(lo)}, {num_tex(hi)}]$"


def _checks_view(r, bound):
    checks = []
    for ch in r.checks:
        last = _short(ch.slack, 4) if bound else digits_text(ch.digits)
        params = params_latex(ch.params) if ch.params else "--"
        if getattr(ch, "origin", "grid") != "grid" and f"({ch.origin})" not in str(ch.params):
            params += f" ({prose(ch.origin)})"
        checks.append({"params": params, "claimed": _short(ch.claimed), "derived": _short(ch.derived),
                       "numeric": _short(ch.numeric), "last": last})
    return checks


def checks_spec(checks) -> str:
    """The column layout of a numeric-evidence table (parameters, claimed, derived, numeric, digits or slack)."""
    head = ["Parameters", "Claimed", "Derived", "Numeric (definition)", "Digits"]
    return table_spec(head, [[c["params"], c["claimed"], c["derived"], c["numeric"], c["last"]] for c in checks])


def _result_view(r) -> dict:
    c = r.claim
    claimed_shown, claimed_note = display_form(r.claimed_expr)
    derived_shown, derived_note = display_form(r.derived_expr)
    bound = c.kind in ("upper", "lower", "strict-upper")
    checks = _checks_view(r, bound)
    corrected = None
    if r.corrected is not None:
        k = r.corrected
        corrected = {"status": k.status, "message": k.message, "statement_lines": statement_tex(k.claim.statement),
                     "checks": _checks_view(k, bound),
                     "counterexample": counterexample_rows(k.counterexample) or None}
        corrected["checks_spec"] = checks_spec(corrected["checks"])
    search = None
    if r.search:
        sr = r.search
        search = (f"adversarial search (Nelder-Mead at {sr['digits']} digits, {sr['evaluations']} evaluations from "
                  f"{sr['starts']} of the worst sweep points) over "
                  + ", ".join(_box_tex(n, a, b) for n, (a, b) in sr["box"].items())
                  + (f"; smallest slack found {value_latex(sr['best_slack'], 4)} at " + params_latex(sr["best"])
                     if sr.get("best") else ""))
    d = r.min_digits()
    cx = counterexample_rows(r.counterexample) or None
    return {
        "id": c.id, "label": c.label, "status": r.status, "message": r.message, "where": c.where, "seed": c.seed,
        "source": c.source, "bound": bound, "digits_text": "--" if d is None else (f"{d:g}" if not bound else "slack"),
        "statement_lines": statement_tex(c.statement), "statement_prose": prose_tex(c.statement),
        "claimed_latex": latex(r.claimed_expr) if r.claimed_expr is not None else "",
        # without a name for the quantity the form stands alone ("Q = ..." would clash with a paper's law Q)
        "claimed_lines": equation_lines(Tex(c.quantity or ""), "=" if c.quantity else "", claimed_shown)
        if r.claimed_expr is not None else "",
        "claimed_note": claimed_note, "derived_note": derived_note,
        "derived_latex": latex(r.derived_expr) if r.derived_expr is not None else "",
        "derived_lines": equation_lines(Tex(c.quantity or ""), "=" if c.quantity else "", derived_shown)
        if r.derived_expr is not None else "",
        "steps": bool(r.steps), "steps_latex": steps_tex(r.steps), "checks": checks, "counterexample": cx,
        "checks_spec": checks_spec(checks),
        "notes": c.notes, "conventions": "; ".join(c.conventions),
        "tables": [table_view(t) for t in r.tables], "corrected": corrected, "search": search,
        "coverage": coverage_latex(coverage(r)),
    }


def coverage_latex(cov: dict | None) -> str:
    """The points behind a verdict as running text (:func:`cbdp_sym.verify.coverage.coverage_text`, typeset)."""
    if not cov:
        return ""
    n = cov["points"]
    parts = [f"{n} point{'s' if n != 1 else ''}"]
    for p in cov["params"]:
        k = p["values"]
        rng = ""
        if "min" in p:
            rng = (" in $[" + num_tex(p["min"], 6) + ",\\allowbreak " + num_tex(p["max"], 6)
                   + "]$") if k > 1 else " ($" + num_tex(p["min"], 6) + "$)"
        parts.append(f"{key_latex(p['name'])}: {k} value{'s' if k != 1 else ''}{rng}")
    text = "; ".join(parts)
    if cov.get("thin"):
        text += (" (\\textit{thin}: " + ", ".join(key_latex(t) for t in cov["thin"])
                 + f" on fewer than {MIN_VALUES} values)")
    return text


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
_COLORS = ("blue", "red", "black!60!green", "violet", "orange!90!black", "black", "cyan!70!black", "brown")


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


def _finite_points(data, key):
    return [(x, y) for x, y in data[key] if mp.isfinite(y) and x not in ("inf", "-inf")]


def _span(values, log: bool):
    vals = [mp.log10(v) if log else v for v in values if (v > 0 or not log)]
    return (min(vals), max(vals)) if vals else (mp.mpf(0), mp.mpf(0))


ZOOM_FLAT = 0.08  # a curve whose own range is below this fraction of the panel's height gets a zoom strip
ZOOM_CLOSE = 0.10  # two crossing curves closer than this fraction of the panel's height get a ratio strip


def zoom_view(fig, data, curves, log_y: bool) -> dict | None:
    """A strip under the panel for a finding that lives in a small difference: the change of each nearly flat
    curve from its first point (a rise of 0.01 on a panel 0.5 high), or the ratio of two curves that cross while
    staying close (where one bound overtakes another).  ``None`` when every difference shows at the panel's scale."""
    pts = {c["key"]: _finite_points(data, c["key"]) for c in curves}
    allys = [y for ps in pts.values() for _, y in ps]
    if len(curves) < 2 or len(allys) < 4:
        return None
    lo, hi = _span(allys, log_y)
    height = hi - lo
    if height <= 0:
        return None
    style = {c["key"]: c["opts"] for c in curves}
    label = {c["key"]: c["label"] for c in curves}
    flat, steep = [], 0
    for c in curves:
        ps = pts[c["key"]]
        if len(ps) < 3:
            continue
        a, b = _span([y for _, y in ps], log_y)
        if 0 < b - a < ZOOM_FLAT * height and (b - a) > mp.mpf(10) ** -9 * max(abs(a), abs(b), 1):
            flat.append(c["key"])
        elif b - a >= ZOOM_FLAT * height:
            steep += 1
    if steep:  # the panel's scale is set by a curve that moves: the flat ones are flat at any scale
        flat = []
    xname = plain(fig.xlabel) or "x"
    if flat:
        x0 = pts[flat[0]][0][0]
        strip = []
        for k in flat:
            y0 = pts[k][0][1]
            strip.append({"opts": style[k], "coords": " ".join(f"({x},{mp.nstr(y - y0, 8, min_fixed=-6, max_fixed=8)})"
                                                                   for x, y in pts[k])})
        rise = max(abs(y - pts[k][0][1]) for k in flat for _, y in pts[k])
        ends = [x for k in flat for x, _ in pts[k]]
        return {"curves": strip, "ylabel": "change",
                "reference_coords": f"({_xmin(ends)},0) ({_xmax(ends)},0)",
                "note": (f"The strip under the panel shows each curve's change from its value at "
                         f"${_x_tex(fig)} = {num_tex(x0)}$ (at most ${num_tex(mp.nstr(rise, 3))}$ in size), "
                         f"too small to see at the panel's scale.")}
    best = None
    for i, c in enumerate(curves):
        for d in curves[i + 1:]:
            a, b = dict(pts[c["key"]]), dict(pts[d["key"]])
            xs = [x for x in a if x in b and a[x] > 0 and b[x] > 0] if log_y else [x for x in a if x in b]
            if len(xs) < 3:
                continue
            gaps = [(mp.log10(a[x] / b[x]) if log_y else a[x] - b[x]) for x in xs]
            if not (any(g > 0 for g in gaps) and any(g < 0 for g in gaps)):
                continue
            widest = max(abs(g) for g in gaps)
            if widest < ZOOM_CLOSE * height and (best is None or widest < best[0]):
                best = (widest, c, d, xs, a, b)
    if best is None:
        return None
    _, c, d, xs, a, b = best
    ratio = log_y
    coords = " ".join(f"({x},{mp.nstr(a[x] / b[x] if ratio else a[x] - b[x], 8, min_fixed=-6, max_fixed=8)})" for x in xs)
    what = "ratio" if ratio else "difference"
    return {"curves": [{"opts": style[c["key"]], "coords": coords}],
            "ylabel": what, "reference_coords": f"({_xmin(xs)},{1 if ratio else 0}) ({_xmax(xs)},{1 if ratio else 0})",
            "note": (f"The strip under the panel shows the {what} of ``{c['label']}'' to ``{d['label']}'' (dashed: "
                     f"equal); above the dashed line ``{d['label']}'' is the smaller.")}


def _xmin(xs):
    return min(xs, key=lambda x: mp.mpf(x))


def _xmax(xs):
    return max(xs, key=lambda x: mp.mpf(x))


def _x_tex(fig) -> str:
    x = fig.xlabel.strip()
    return x[1:-1] if x.startswith("$") and x.endswith("$") and x.count("$") == 2 else r"	ext{" + text_tex(plain(x)) + "}"


def far_above_note(fig, data) -> str:
    """For a figure that compares bounds with a true value (``shade_below``): where another bound sits far above
    the true value (a factor of 100 or more), a sentence saying by how much and where."""
    if not getattr(fig, "shade_below", ()):
        return ""
    value_key = fig.shade_below[1]
    value = dict(_finite_points(data, value_key))
    out = []
    for c in fig.curves:
        if c.key in (value_key,):
            continue
        worst = None
        for x, y in _finite_points(data, c.key):
            v = value.get(x)
            if v is not None and v > 0 and y > 0 and (worst is None or y / v > worst[1]):
                worst = (x, y / v)
        if worst and worst[1] >= 100:
            out.append(f"At ${_x_tex(fig)} = {num_tex(worst[0])}$ the curve ``{c.label}'' lies "
                       f"${_factor_tex(worst[1])}$ times above ``{fig.curve(value_key).label}''.")
    return " ".join(out)


def _factor_tex(r) -> str:
    """A large factor with two significant digits: ``9.2 \\times 10^{5}``."""
    k = int(mp.floor(mp.log10(r)))
    if k < 4:
        return num_tex(mp.nstr(r, 2))
    m = mp.nstr(r / mp.mpf(10) ** k, 2)
    return (f"{m.rstrip('0').rstrip('.')} \\times " if m not in ("1.0", "1") else "") + f"10^{{{k}}}"


def _legend_label(c) -> str:
    lab = c.label
    if c.kind == "printed" and "as printed" not in plain(lab):
        lab += " (as printed)"
    return lab


def _figure_view(fig, prefix: str = "cbdpsym") -> dict:
    """A figure ready for the template: finite points only, the abscissa range set to the data's (a point not
    computed within the audit's limits is left out, and the caption says how many), a zoom strip where a
    finding lives in a small difference, and the caption's generated sentences (shading, zoom, far-off bounds)."""
    data = fig.data(compute=False)
    curves, xs = [], []
    for i, c in enumerate(fig.curves):
        pts = _finite_points(data, c.key)
        xs += [mp.mpf(x) for x, _ in pts]
        coords = " ".join(f"({x},{mp.nstr(y, 10, min_fixed=-6, max_fixed=8)})" for x, y in pts)
        color = _COLORS[i % len(_COLORS)]
        opts = ",".join(o for o in (color, c.style, f"mark={_MARKS[i % len(_MARKS)]}", "mark size=1.2pt") if o)
        curves.append({"label": _legend_label(c), "coords": coords, "opts": opts, "kind": c.kind, "key": c.key,
                       "style": c.style, "color": color})
    xrange = f"xmin={mp.nstr(min(xs), 10)}, xmax={mp.nstr(max(xs), 10)}" if xs else ""
    axis = re.sub(r",?\s*legend pos=[a-z ]+", "", fig.axis).strip(" ,")
    if xrange and "xmin" not in axis:
        axis = (axis + ", " if axis else "") + xrange
    extra = getattr(fig, "extra_tex", "")
    shade = getattr(fig, "shade_below", ())
    notes = []
    if shade:
        extra = (extra + "\n" if extra else "") + shade_tex(data[shade[0]], data[shade[1]])
    if shade and "shaded" not in fig.caption.lower():
        notes.append(f"Shaded: where ``{fig.curve(shade[0]).label}'' lies below ``{fig.curve(shade[1]).label}'', "
                     "that is, where the printed statement is false.")
    far = far_above_note(fig, data)
    if far:
        notes.append(far)
    gaps = sum(1 for c in fig.curves for _, y in data[c.key] if mp.isnan(y))
    caption = fig.caption + (f" ({gaps} point{'s' if gaps > 1 else ''} not computed within the audit's limits, left out.)"
                             if gaps else "")
    zoom = zoom_view(fig, data, curves, "ymode=log" in axis.replace(" ", ""))
    if zoom:
        notes.append(zoom["note"])
        xmode = re.search(r"xmode\s*=\s*log", axis)
        zoom["axis"] = ", ".join(a for a in ("xmode=log" if xmode else "", xrange,
                                             "x dir=reverse" if "x dir=reverse" in axis else "") if a)
    key = label_key(fig.id)
    return {"id": fig.id, "key": key, "title": fig.title, "caption": caption, "xlabel": fig.xlabel,
            "ylabel": fig.ylabel, "axis": axis, "curves": curves, "where": fig.where, "csv": f"figures/{fig.id}.csv",
            "extra": extra, "xrange": xrange, "panels": dict(getattr(fig, "panels", {}) or {}), "zoom": zoom,
            "notes": notes, "legend": f"{prefix}-legend-{key}", "printed": any(c.kind == "printed" for c in fig.curves)}


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
                    cells.append(prose(cell) if not cell.startswith(paper.meta.get("prefix", "\0")) else
                                 tex_escape(cell) + " (not in this audit)")
                    continue
                used = True
                st = r.claim.statement
                fix = ""
                if r.corrected is not None and r.status == "refuted":
                    fix = (r" \newline corrected: " + inline_statement(r.corrected.claim.statement) + " "
                           + _MARK.get(r.corrected.status, r.corrected.status))
                cells.append(inline_statement(st) + " \\newline " + r"\textbf{" + r.status + "} " + _MARK.get(r.status, "")
                             + r" {\scriptsize\texttt{" + tex_escape(cell) + "}}" + fix)
            rows.append(" & ".join(cells))
        if not used:
            continue
        n = len(tab["header"])
        first = 0.16
        rest = (0.98 - first) / max(n - 1, 1)
        spec = ("@{}>{\\raggedright\\arraybackslash}p{%.3f\\linewidth}" % first
                + "".join(">{\\raggedright\\arraybackslash}p{%.3f\\linewidth}" % (rest - 0.02) for _ in range(n - 1)) + "@{}")
        out.append({"title": tab["title"], "spec": spec, "head": " & ".join(prose(h) for h in tab["header"]),
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
    for g in groups:
        # the paper's own figure before its extensions ("Fig. 1b" before "Fig. 1b (extended)")
        order = sorted(range(len(g["panels"])), key=lambda i: len(g["panels"][i]["where"] or ""))
        g["panels"] = [g["panels"][i] for i in order]
        g["heads"] = [g["heads"][i] for i in order]
        captions = []
        for v in g["panels"]:
            if v["caption"] and v["caption"] not in captions:
                captions.append(v["caption"])
        g.pop("captions")
        g["caption"] = " ".join(captions)
        heads = g.pop("heads")
        common = os.path.commonprefix(heads).rstrip(" ,;:(") if len(set(heads)) > 1 else heads[0]
        g["title"] = common or heads[0]
        if len(g["panels"]) > 1 and len(set(heads)) > 1:  # panels from different figures keep their own titles,
            for v, h in zip(g["panels"], heads):          # less the figure's ("Figure 1b continued: x" -> "Continued: x")
                if h != g["title"]:
                    sub = v["title"][len(g["title"]):].strip(" :,") if v["title"].startswith(g["title"]) else v["title"]
                    v["subtitle"] = sub[:1].upper() + sub[1:]
        g["labels"] = [v["key"] for v in g["panels"]]
        notes = []
        for v in g["panels"]:
            notes += [n for n in v.get("notes", ()) if n not in notes]
        if any(v.get("printed") for v in g["panels"]):
            notes.append("Curves marked ``as printed'' plot the paper's formulas as printed (what the claims audit); "
                         "the others are computed from the definitions.")
        g["notes"] = " ".join(notes)
        if g["panels"][0].get("panels"):
            g["panels"] = _repanel(g["panels"])
        # panels with the same curves share one legend (under the panels)
        g["shared_legend"] = len(g["panels"]) > 1 and len({tuple(c["label"] for c in v["curves"]) for v in g["panels"]}) == 1
        # the caption's head: the paper's figure by its place ("Sec. 5, Fig. 1b of [12]"), never "Figure 1b"
        m = re.match(r"(?:Figure|Fig\.)\s*[0-9A-Za-z.()-]*?\d[a-z]?(?:\([a-z]\))?(?=$|[\s:,])\s*(.*)$", g["title"])
        g["paper_figure"] = bool(m)
        g["rest"] = re.sub(r"^\(?regenerated\)?\s*", "", m.group(1).strip(" :,")) if m else ""
        only = g["panels"][0]
        if len(g["panels"]) == 1 and only["subtitle"] != only["title"]:  # one panel: its subtitle is in the caption
            if m:
                g["rest"] = ", ".join(x for x in (g["rest"], only["subtitle"]) if x)
            else:
                g["title"] = only["title"]
        wide = len(g["panels"]) > 1
        longest = max((_visible(prose(c["label"])) for v in g["panels"] for c in v["curves"]), default=0)
        g["legend_columns"] = 2 if longest <= (44 if wide and g["shared_legend"] else 20) else 1
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
                opts = ",".join(o for o in (_COLORS[j % len(_COLORS)], dash, f"mark={_MARKS[j % len(_MARKS)]}",
                                            "mark size=1.2pt") if o)
                curves.append({**c, "label": c["label"] + ", " + v["subtitle"], "opts": opts})
        out.append({**first, "id": f"{first['id']}-{i + 1}", "key": f"{first['key']}-{i + 1}", "subtitle": title,
                    "ylabel": ylabel, "axis": ", ".join(a for a in (axis, first["xrange"]) if a), "curves": curves,
                    "extra": "", "zoom": None, "legend": f"{first['legend']}-{i + 1}"})
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
    return prose(text or "")


_CX_NAMES = {"bound": "claimed", "quantity": "computed", "derived": "derived form", "relative_slack": "relative slack",
             "digits": "digits of agreement"}


def counterexample_rows(cx, short: bool = False) -> list[tuple[str, str]]:
    """A counterexample (the one layout of :func:`cbdp_sym.verify.evidence.counterexample`) as (name, value) rows of
    LaTeX text: the point first, never cut, then what is compared, the claimed and computed values, the slack or
    digits, and whether ball arithmetic certifies it.  ``short`` (the appendix): the point, the two values, the
    slack and whether it is certified (the supplement has every entry); empty entries are left out."""
    if not cx:
        return []
    rows = []
    if isinstance(cx.get("params"), dict) and cx["params"]:
        rows.append(("at", params_latex(cx["params"])))
    keys = (("bound", "quantity", "relative_slack", "certified") if short else
            ("what", "relation", "bound", "quantity", "derived", "relative_slack", "digits", "certified", "certificate"))
    for k in keys:
        v = cx.get(k)
        if v is None or v == "":
            continue
        if k == "certified":
            rows.append(("certified", "yes (ball arithmetic)" if v is True else "no"))
        elif k == "what":
            rows.append(("compared", prose(v)))
        elif k == "relation":
            rows.append(("claim", "$\\text{computed} " + {"=": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">",
                                                            "~": r"\approx"}.get(v, v) + r" \text{ claimed}$"))
        elif k == "certificate":
            rows.append(("certificate", prose(str(v))))
        else:
            rows.append((_CX_NAMES.get(k, key_latex(k)), value_latex(v)))
    for k, v in cx.items():  # (a legacy layout: its own keys, shown as they are)
        if k not in _CX_NAMES and k not in ("params", "what", "relation", "certified", "certificate", "worst") and not short:
            rows.append((key_latex(k), value_latex(v)))
    return rows


APPENDIX_STEP_CAP = 70  # a derivation step wider than this is left to the supplement
APPENDIX_STEPS = 2  # at most this many steps of a derivation in the appendix (the last ones: the conclusion)
APPENDIX_MESSAGE = 420  # characters of a verdict's message in the appendix (cut at a clause; the rest in the supplement)


_ABBREVIATIONS = re.compile(r"(?:\b(?:Prop|Props|Thm|Thms|Cor|Sec|Secs|Eq|Eqs|Fig|Figs|Def|Defs|App|Lem|Rem|Tab|Ch|Ref|"
                            r"Refs|No|Nos|Vol|approx|resp|cf|vs|al|etc|i\.e|e\.g|[A-Z]))$")


def short_message(text: str, limit: int = APPENDIX_MESSAGE) -> tuple[str, bool]:
    """A message cut after the last clause (``; ``) or sentence (``. `` before a capital, not after an
    abbreviation such as ``Prop.``) that ends within ``limit`` characters, never inside ``$...$`` or
    parentheses; returns ``(text, cut)``.

    >>> short_message("first part; second part; third", 20)
    ('first part', True)
    >>> short_message("Through Lemma 1 and Prop. 10 the bound holds. Then more", 50)
    ('Through Lemma 1 and Prop. 10 the bound holds', True)
    """
    if len(text) <= limit:
        return text, False
    best = -1
    for m in re.finditer(r"; |\. (?=[A-Z$(])", text):
        if m.start() > limit:
            break
        head = text[:m.start()]
        if head.count("$") % 2 or head.count("(") != head.count(")") or head.count("[") != head.count("]"):
            continue
        if m.group(0).startswith(".") and _ABBREVIATIONS.search(head):
            continue
        best = m.start()
    if best <= 0:
        return text, False
    return text[:best], True


def _message_has_counterexample(msg: str, cx) -> bool:
    """True when a verdict's message already states the counterexample (its claimed value and whether it
    is certified), so that the appendix need not repeat it."""
    if not cx or cx.get("bound") is None:
        return False
    text = prose(msg)
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
    steps = [] if (r.derived_expr is not None and math_fits(latex_narrow(display_form(r.derived_expr)[0]))) \
        else fitting[-APPENDIX_STEPS:]
    hidden = len(r.steps) - len(steps)
    derived = latex_narrow(display_form(r.derived_expr)[0]) if r.derived_expr is not None else ""
    q = c.quantity or ""
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
        "derived": ((f"{q} = {derived}" if q else derived) if derived and math_fits(derived) else ""),
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
            ev = "slack " + value_latex(m, 3)
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


def bottom_line_text(results, findings) -> str:
    """A paper's bottom line as LaTeX prose (:func:`cbdp_sym.verify.findings.bottom_line`): which of its results
    (theorems, lemmas, corollaries, propositions, table values) survive as stated, which after correction, which
    fail, which are undecided."""
    bl = bottom_line(results, findings)
    n = sum(len(bl[k]) for k in ("as_stated", "after_correction", "fail", "undecided"))
    if not n:
        return ""

    def ids(xs):
        return ", ".join(r"\cbdpsymid{" + idbrk(x) + "}" for x in xs)

    parts = [f"{len(bl['as_stated'])} of the {n} results audited (theorems, lemmas, corollaries, propositions and "
             "table values) hold as stated"]
    if bl["after_correction"]:
        parts.append(f"{len(bl['after_correction'])} hold after the correction the audit derives "
                     f"({ids(bl['after_correction'])})")
    if bl["fail"]:
        parts.append(f"{len(bl['fail'])} fail without a correction that holds ({ids(bl['fail'])})")
    if bl["undecided"]:
        parts.append(f"{len(bl['undecided'])} are undecided ({ids(bl['undecided'])})")
    return "; ".join(parts) + "."


def _finding_rows(findings, by_id, prefix) -> list[dict]:
    rows = []
    for f in findings:
        cx = f.counterexample or {}
        params = cx.get("params") if isinstance(cx.get("params"), dict) else None
        cxt = params_latex(params) if params else ""
        if cx and not params:
            short = [(k, v) for k, v in cx.items() if k not in ("certified", "certificate") and v is not None
                     and len(str(v)) <= 24][:3]
            ref = r"\ref{" + f"{prefix}:claim:{label_key(f.counterexample_claim or f.claims[0])}" + "}"
            cxt = ("; ".join(assignment_latex(k, v) for k, v in short) + f" (see {ref})") if short else "see " + ref
        corrected = ""
        if f.corrected:
            st = inline_statement(f.corrected)
            corrected = st if visible_width(f.corrected) <= 45 else (
                r"see \ref{" + f"{prefix}:claim:{label_key(f.claims[0])}" + "}")
        claims = [] if f.claims == [f.id] else [(c, label_key(c)) for c in f.claims]
        values = ""
        if cx.get("bound") is not None and cx.get("quantity") is not None:
            rel = cx.get("relation") or "="
            values = (("printed " if rel in ("=", "~") else "claimed bound ") + value_latex(cx["bound"], 8)
                      + ", true " + value_latex(cx["quantity"], 8))
        rows.append({"id": f.id, "key": label_key(f.id), "title": f.title, "kind": f.kind, "severity": f.severity,
                     "claims": claims, "counterexample": cxt, "cx_values": values,
                     "reaches": [(c, label_key(c)) for c in getattr(f, "reaches", [])],
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
    names = [" ".join(reversed([p.strip() for p in a.split(",")])) for a in f["author"].split(" and ")]
    authors = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
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
    title = paper.meta.get("title", paper.key)
    return {"paper": {"key": paper.key, "title": title, "venue": paper.meta.get("venue", ""),
                      "label": cite_label(paper.meta) or paper.key,
                      "cite": bib.get("key", ""), "bibitem": bib_item(paper.meta), "pages": paper.meta.get("pages")},
            "h1": h1, "h2": h2, "prefix": prefix, "dps": dps, "version": __version__}


_FUNCTION_THEN_PAREN = re.compile(r"\\(log|exp|ln)(?=\s*\()")


def function_spacing(tex: str) -> str:
    r"""``\log(x)`` as ``\log{}(x)``: a thin space between a function's name and its parenthesis (an empty atom
    before the ``(``), so that the PDF's text reads ``log (x)``, never the ASCII ``log(x)`` of typed code.

    >>> function_spacing(r"$\log(1/\delta) + \exp (x) + \log\bigl(y\bigr) + \logit(z)$")
    '$\\log{}(1/\\delta) + \\exp{} (x) + \\log\\bigl(y\\bigr) + \\logit(z)$'
    """
    return _FUNCTION_THEN_PAREN.sub(lambda m: "\\" + m.group(1) + "{}", tex)


def render_appendix(paper, results, dps: int, body_name: str, findings=(), heading: str = "section",
                    prefix: str = "cbdpsym", figures=()) -> tuple[str, str]:
    """The short appendix (standalone, body): findings, verdict counts and legend, refuted and ambiguous
    claims in full, every other claim in one compact table, key figures."""
    token = _CITING.set(cite_label(paper.meta))
    try:
        return _render_appendix(paper, results, dps, body_name, findings, heading, prefix, figures)
    finally:
        _CITING.reset(token)


def _render_appendix(paper, results, dps, body_name, findings, heading, prefix, figures):
    env = _env()
    by_id = {r.claim.id: r for r in results}
    order = {"refuted": 0, "ambiguous": 1, "inconclusive": 2, "error": 3}
    full = sorted([r for r in results if r.status in order], key=lambda r: order[r.status])
    rest = [r for r in results if r.status not in order]
    ctx = _doc_context(paper, dps, heading, prefix)
    ctx.update({
        "findings": _finding_rows(findings, by_id, prefix), "counts": verdict_counts(results),
        "legend": [(s, LEGEND[s]) for s in STATUSES], "seeds": seed_legend(paper),
        "bottom_line": bottom_line_text(results, findings), "severity_rule": prose(SEVERITY_RULE),
        "reading_policy": prose(READING_POLICY),
        "full": [_appendix_claim(r, paper, prefix) for r in full],
        "compact": _chunks([_compact_row(r) for r in rest], 6), "figures": group_figures(list(figures)),
        "body": body_name,
        "supplement": f"supplement-{paper.key}",
    })
    body = function_spacing(env.get_template("appendix-body.tex.j2").render(**ctx))
    standalone = env.get_template("standalone.tex.j2").render(kind="Appendix", **ctx)
    return standalone, body


def render_supplement(paper, results, dps: int, coverage, body_name: str, heading: str = "section",
                      prefix: str = "cbdpsym", figures=()) -> tuple[str, str]:
    """The supplement (standalone, body): every claim in full with its evidence, the paper's tables, the
    figures not in the appendix, conventions, paper mapping and provenance."""
    token = _CITING.set(cite_label(paper.meta))
    try:
        return _render_supplement(paper, results, dps, coverage, body_name, heading, prefix, figures)
    finally:
        _CITING.reset(token)


def _render_supplement(paper, results, dps, coverage, body_name, heading, prefix, figures):
    env = _env()
    ctx = _doc_context(paper, dps, heading, prefix)
    views = [_result_view(r) for r in results]
    for v, r in zip(views, results):
        v["key"] = label_key(r.claim.id)
        v["seed"] = seed_text(paper, r.claim.seed)
        v["message"] = r.message or ""
    ctx.update({"results": views, "conventions": paper.meta.get("conventions", GLOBAL_CONVENTIONS),
                "provenance": provenance(dps), "coverage": coverage, "body": body_name,
                "figures": group_figures(list(figures)),
                "layouts": verdict_tables(paper, results)})
    body = function_spacing(env.get_template("supplement-body.tex.j2").render(**ctx))
    standalone = env.get_template("standalone.tex.j2").render(kind="Supplement", **ctx)
    return standalone, body


def renderable(results, dps: int, papers=None) -> list:
    """``results`` with each one that cannot be rendered (its JSON or its LaTeX raises: a derivation that returned
    ``object()``, an integer of more than 4,300 digits) replaced by an ``error`` result of the same claim whose
    message says why, so that one claim never sinks the reports of the others.  ``papers``: key -> paper (for the
    appendix's view of a claim; optional)."""
    out = []
    for r in results:
        try:
            json.dumps(result_json(r), ensure_ascii=False)
            _result_view(r)
            _compact_row(r)
            paper = (papers or {}).get(r.claim.paper) or SimpleNamespace(meta={})
            _appendix_claim(r, paper, "cbdpsym")
            out.append(r)
        except Exception as exc:  # noqa: BLE001 - whatever broke, the claim's own result says so
            why = str(exc).splitlines()[0][:200] if str(exc) else ""
            bad = Result(r.claim, "error", f"its result cannot be rendered ({type(exc).__name__}"
                                           + (f": {why}" if why else "") + ")", dps)
            bad.seconds = r.seconds
            out.append(bad)
    return out
