"""Rich display in notebooks: claim results, derivations, restricted divergences.

Jupyter shows an object through its ``_repr_markdown_`` / ``_repr_latex_`` / ``_repr_html_`` methods and a
plain terminal through ``__repr__``; the classes elsewhere (:class:`cbdp_sym.verify.engine.Result`,
:class:`cbdp_sym.restricted.solver.RestrictedResult`, :class:`cbdp_sym.restricted.finite.FiniteRestrictedResult`)
delegate to the functions here, so that the rendering lives in one place.  Mathematics comes from the one
printer (:func:`cbdp_sym.core.printing.latex`); nothing here recomputes a value.

>>> from cbdp_sym.core.tape import Step, Tex
>>> d = Derivation("EX", [Step(Tex("f(t)"), Tex("t^2"), "a definition")], None)
>>> d
<Derivation EX: 1 step>
>>> print(d._repr_latex_())
$$\\begin{aligned}
& \\text{(1) a definition} \\\\
f(t) &= t^2
\\end{aligned}$$
"""
from __future__ import annotations

import re

import mpmath as mp

from cbdp_sym.core.printing import latex, map_prose
from cbdp_sym.core.tape import Tex

_STATUS_MARK = {"verified": "✅", "holds": "✅", "refuted": "❌", "inconclusive": "❔", "ambiguous": "❔",
                "error": "⚠️", "definition": "📘", "cited": "📘"}


def _one_line(text, n=90) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _side(x) -> str:
    if isinstance(x, Tex):
        return x.latex
    if isinstance(x, str):
        return x
    return latex(x)


def _tex_rel(rel: str) -> str:
    return {"": "", "=": "=", "<": "<", ">": ">", "<=": r"\le", ">=": r"\ge"}.get(rel, rel)


def _text_for_mathjax(note: str) -> str:
    """An engine note inside ``\\text{...}``: braces balanced, ``$...$`` kept as mathematics."""
    return map_prose(note, lambda p: p.replace("\\", r"\backslash ").replace("{", r"\{").replace("}", r"\}")
                     .replace("#", r"\#").replace("%", r"\%").replace("&", r"\&"))


def _md_prose(text: str) -> str:
    """Prose for Markdown: ``$...$`` kept, the characters Markdown would read as markup escaped."""
    return map_prose(str(text), lambda p: re.sub(r"([*_`|<>\[\]])", r"\\\1", p))


# -- derivations -------------------------------------------------------------------------------------
class Derivation:
    """A claim's derivation: the steps the engine recorded (``lhs rel rhs`` with a note) and the derived form.

    In a notebook it shows as aligned equations (``_repr_markdown_``: each step's note, then its equation;
    ``_repr_latex_``: one ``aligned`` block).  It is a sequence of :class:`cbdp_sym.core.tape.Step`.
    """

    def __init__(self, claim_id: str, steps, expr, claimed=None):
        self.claim_id = claim_id
        self.steps = list(steps)
        self.expr = expr
        self.claimed = claimed

    def __len__(self):
        return len(self.steps)

    def __iter__(self):
        return iter(self.steps)

    def __getitem__(self, i):
        return self.steps[i]

    def __repr__(self):
        n = len(self.steps)
        return f"<Derivation {self.claim_id}: {n} step{'s' if n != 1 else ''}>"

    def _rows(self):
        for i, st in enumerate(self.steps, 1):
            lhs, rhs, rel = _side(st.lhs), _side(st.rhs), _tex_rel(st.rel)
            yield i, st.note, (f"{lhs} &{rel} {rhs}" if lhs else f"&{rel} {rhs}")

    def _tail(self):
        out = []
        if self.expr is not None:
            out.append(("derived", _side(self.expr)))
        if self.claimed is not None:
            out.append(("claimed", _side(self.claimed)))
        return out

    def _repr_latex_(self):
        lines = []
        for i, note, eq in self._rows():
            lines.append(f"& \\text{{({i}) {_text_for_mathjax(note)}}} \\\\")
            lines.append(eq + " \\\\")
        for name, tex in self._tail():
            lines.append(f"\\text{{{name}}} &= {tex} \\\\")
        if lines:
            lines[-1] = lines[-1][: -len(" \\\\")]
        return "$$\\begin{aligned}\n" + "\n".join(lines) + "\n\\end{aligned}$$"

    def _repr_markdown_(self):
        out = [f"**Derivation of {self.claim_id}** ({len(self.steps)} steps)", ""]
        for i, note, eq in self._rows():
            out.append(f"({i}) {_md_prose(note)}")
            out.append("")
            out.append(f"$$\\begin{{aligned}}{eq}\\end{{aligned}}$$")
            out.append("")
        for name, tex in self._tail():
            out.append(f"{name}: $${tex}$$")
            out.append("")
        return "\n".join(out)


# -- claim results -------------------------------------------------------------------------------------
def result_repr(r) -> str:
    """``<Result CBDP-T9 identity: verified: derived - claimed simplifies to 0; ...>`` (one short line)."""
    c = r.claim
    cid = getattr(c, "id", "?")
    kind = getattr(c, "kind", "?")
    return f"<Result {cid} {kind}: {r.status}: {_one_line(r.message)}>"


def _value(text, n=15):
    if text is None:
        return "–"
    try:
        with mp.workdps(n + 5):
            return mp.nstr(mp.mpf(text), n)
    except (TypeError, ValueError):
        return str(text)


def result_markdown(r) -> str:
    """A claim result as Markdown with mathematics: verdict, statement, forms, counterexample, evidence."""
    c = r.claim
    mark = _STATUS_MARK.get(str(r.status), "")
    head = f"**{c.id}** — {_md_prose(c.label)}"
    out = [head, "", f"{mark} **{r.status}** ({c.kind}; {r.dps} digits): {_md_prose(r.message)}", ""]
    meta = [x for x in (c.where, c.seed) if x]
    if meta:
        out += ["where: " + " · ".join(_md_prose(m) for m in meta), ""]
    if c.statement:
        out += ["as printed: $$" + c.statement + "$$", ""]
    if r.derived_expr is not None:
        out += ["derived: $$" + latex(r.derived_expr) + "$$", ""]
    if r.claimed_expr is not None:
        out += ["claimed (encoded): $$" + latex(r.claimed_expr) + "$$", ""]
    ce = r.counterexample
    if ce:
        at = ", ".join(f"{k} = {v}" for k, v in ce.get("params", {}).items())
        out += [f"**counterexample** at {at}: claimed {_value(ce.get('claimed'))}, definition "
                f"{_value(ce.get('numeric') or ce.get('derived'))}"
                + (f", relative slack {ce['relative_slack']}" if ce.get("relative_slack") else "")
                + (" (certified in ball arithmetic)" if ce.get("certified") else " (not certified)"), ""]
    if r.checks:
        rows = r.checks[:8]
        cols = ["params", "claimed", "numeric", "digits"] + (["slack"] if any(ch.slack for ch in rows) else [])
        out += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        for ch in rows:
            cells = [", ".join(f"{k}={v}" for k, v in ch.params.items()), _value(ch.claimed, 12),
                     _value(ch.numeric if ch.numeric is not None else ch.derived, 12),
                     "–" if ch.digits is None else f"{ch.digits:g}"]
            if "slack" in cols:
                cells.append(_value(ch.slack, 6))
            out.append("| " + " | ".join(_md_prose(x) for x in cells) + " |")
        if len(r.checks) > len(rows):
            out.append(f"\n({len(r.checks) - len(rows)} more checks in `.checks`)")
        out.append("")
    if r.steps:
        out += [f"derivation: {len(r.steps)} steps (`result.derivation` shows them)", ""]
    if getattr(r, "error_kind", None):
        out += [f"error kind: {r.error_kind}", ""]
    for rd in getattr(r, "readings", None) or []:
        out += [f"- reading {_md_prose(rd.get('name', ''))}: **{rd.get('status')}**: {_md_prose(rd.get('message', ''))}"]
    if getattr(r, "readings", None):
        out.append("")
    if r.corrected is not None:
        out += [f"corrected statement: **{r.corrected.status}**: {_md_prose(r.corrected.message)}", ""]
    return "\n".join(out)


# -- restricted divergences ----------------------------------------------------------------------------
def _num(v, n=15) -> str:
    if v is None:
        return "–"
    try:
        if not mp.isfinite(v):
            return "∞" if v > 0 else ("-∞" if v < 0 else "NaN")
        return mp.nstr(v, n)
    except (TypeError, ValueError):
        return str(v)


def restricted_repr(r) -> str:
    """``<RestrictedResult kl over lin: 0.5>`` (value to 15 digits)."""
    val = "∞" if r.infinite else _num(r.value)
    return f"<{type(r).__name__} {r.divergence} over {r.cls}: {val}>"


def restricted_markdown(r) -> str:
    """A restricted divergence with its maximiser and certificate, as Markdown with mathematics."""
    cls = r"\mathrm{" + str(r.cls) + "}"
    name = {"kl": r"\mathrm{KL}^{%s}", "tv": r"\mathrm{TV}^{%s}", "alpha": r"D_\alpha^{%s}",
            "renyi": r"D_\alpha^{\mathrm{R},\,%s}"}.get(str(r.divergence).lower(),
                                                       r"\mathrm{" + str(r.divergence) + "}^{%s}") % cls
    val = r"\infty" if r.infinite else _num(r.value)
    out = [f"$${name}(P, Q) = {val}$$", ""]
    fv = getattr(r, "f_value", None)
    if str(r.divergence).lower() == "renyi" and fv is not None and not r.infinite:
        out += [f"restricted $\\alpha$-divergence before Eq. (3): {_num(fv)}", ""]
    coeffs = getattr(r, "optimum", None)
    if coeffs is None:
        coeffs = getattr(r, "h", None)
    if coeffs and not r.infinite and hasattr(r, "optimum"):
        terms = " + ".join(f"({_num(c, 10)})" + ("" if i == 0 else ("x" if i == 1 else f"x^{{{i}}}"))
                           for i, c in enumerate(coeffs))
        out += [f"maximising $h(x) = {terms}$", ""]
    cert = []
    gn = getattr(r, "gradient_norm", None)
    if gn is not None and not r.infinite:
        cert.append(f"gradient norm {_num(gn, 3)}")
    if hasattr(r, "negative_definite") and not r.infinite:
        cert.append("Hessian negative definite" if r.negative_definite else "Hessian NOT negative definite")
    smd = getattr(r, "second_method_digits", None)
    if smd is not None:
        cert.append(f"second method agrees to {_num(smd, 4)} digits")
    if getattr(r, "certified", False):
        cert.append(f"certified enclosure [{_num(r.lower)}, {_num(r.upper)}]")
    if not getattr(r, "converged", True):
        cert.append("**did not converge**")
    if cert:
        out += ["; ".join(cert), ""]
    for n in getattr(r, "notes", []) or []:
        out += [f"- {_md_prose(n)}"]
    return "\n".join(out).rstrip() + "\n"
