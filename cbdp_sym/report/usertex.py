"""User LaTeX by allow-list: the statements, labels and notes of paper modules, tokenised, and only known math and
text macros let into a report.

A paper module's text reaches the reports as LaTeX: its statements as mathematics, its labels and notes as prose
whose ``$...$`` segments are mathematics (the rest is escaped, :func:`cbdp_sym.core.printing.note_tex`).  TeX is a
programming language (``\\loop``, ``\\csname``, ``\\pdfcatalog`` with JavaScript, ``\\end{document}``), so a
blocklist cannot be complete; this module lets through only

* control words of :data:`MACROS` (Greek letters, operators and relations, fonts, accents, fractions, roots,
  delimiters and their sizes, spacing, ``\\text``) and control symbols of :data:`SYMBOLS` (``\\,``, ``\\{``,
  ``\\%``, ``\\\\``, ...);
* environments of :data:`ENVIRONMENTS` (``cases``, ``aligned``, matrices), each ``\\begin`` closed by its
  ``\\end`` inside the same text;
* balanced braces and ``$`` signs; no ``%`` comment, ``#`` parameter, ``^^`` character code or control character
  (an ANSI escape in a label would also reach a terminal).

Everything else is refused with the claim's ID and the field, before anything is audited.

>>> problem(r"D_\\alpha(P \\| Q) \\le \\frac{\\alpha}{2\\sigma^2}")
>>> problem(r"x \\end{aligned}\\enddocument")
'\\\\end{aligned} closes an environment it did not open'
>>> problem(r"x \\end{align*}")
'\\\\end{align*}: align* is not an allowed environment'
>>> problem(r"\\pdfcatalog{/OpenAction << /S /JavaScript >>}")
'\\\\pdfcatalog is not an allowed macro'
>>> problem("the rate is 5% and $\\\\input{x}$", prose=True)
'\\\\input is not an allowed macro'
"""
from __future__ import annotations

import functools
import re

GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa lambda mu nu xi "
         "omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda "
         "Xi Pi Sigma Upsilon Phi Psi Omega digamma").split()
MACROS = frozenset(GREEK + """
    frac dfrac tfrac cfrac binom dbinom tbinom sqrt
    left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr bigm Bigm
    displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits
    text textrm textit textbf textsf texttt textup textnormal emph mathrm mathit mathbf mathsf mathtt mathcal
    mathbb mathfrak mathscr boldsymbol bm operatorname mbox rm it bf sf tt cal textsuperscript textsubscript
    hat widehat tilde widetilde bar overline underline vec dot ddot check breve acute grave mathring
    overbrace underbrace overset underset stackrel substack phantom hphantom vphantom smash
    sum prod coprod int iint iiint oint bigcup bigcap bigvee bigwedge bigoplus bigotimes
    lim limsup liminf sup inf max min arg argmax argmin det dim exp log ln lg sin cos tan cot sec csc arcsin arccos
    arctan sinh cosh tanh coth Pr deg gcd mod bmod pmod ker hom
    le leq ge geq ne neq leqslant geqslant ll gg lesssim gtrsim approx sim simeq cong equiv propto triangleq
    coloneqq eqqcolon doteq subset subseteq subsetneq supset supseteq supsetneq in notin ni mid nmid parallel perp
    models vdash dashv prec preceq succ succeq
    to mapsto gets rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow longrightarrow
    longleftarrow Longrightarrow Longleftarrow longmapsto implies impliedby iff uparrow downarrow Uparrow
    Downarrow nearrow searrow hookrightarrow rightharpoonup xrightarrow
    cdot cdots ldots vdots ddots dots dotsc dotsb dotsm times div pm mp ast star circ bullet setminus cup cap
    wedge vee oplus ominus otimes odot oslash land lor lnot neg not
    infty partial nabla forall exists nexists emptyset varnothing ell hbar prime top bot dagger ddagger dag ddag
    aleph Re Im wp imath jmath angle triangle square Box diamond surd intercal checkmark
    langle rangle lceil rceil lfloor rfloor lvert rvert lVert rVert vert Vert backslash
    quad qquad enspace thinspace medspace thickspace negthinspace colon
    S P textasciitilde textbackslash textless textgreater textbar textendash textemdash ldots allowbreak
    cite ref eqref
""".split())
SYMBOLS = frozenset(" ,;:!{}|$%&#_'\"^~`=.-\\/()[]<>*+@\t\n")
ENVIRONMENTS = frozenset("""cases dcases rcases array matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix
    aligned alignedat gathered split subarray""".split())
_MATH_SPLIT = re.compile(r"(\$[^$]*\$)")  # as cbdp_sym.core.printing.note_tex splits prose
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _control_problem(text: str) -> str | None:
    m = _CONTROL.search(text)
    if m:
        return f"the control character U+{ord(m.group()):04X} (an escape sequence, not text)"
    return None


def _math_problem(text: str) -> str | None:
    """Why the LaTeX ``text`` (mathematics or raw text) may not go into a report, or ``None``."""
    why = _control_problem(text)
    if why:
        return why
    if "^^" in text:
        return "^^ character codes (they can spell any command)"
    envs, depth, dollars, i, n = [], 0, 0, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            if i + 1 >= n:
                return "a lone backslash at the end"
            j = i + 1
            if text[j].isascii() and (text[j].isalpha() or text[j] == "@"):
                while j < n and text[j].isascii() and (text[j].isalpha() or text[j] == "@"):
                    j += 1
                word = text[i + 1:j]
                if word in ("begin", "end"):
                    m = re.match(r"\s*\{([A-Za-z*]+)\}", text[j:])
                    if not m:
                        return f"\\{word} without an environment name"
                    env = m.group(1)
                    if env not in ENVIRONMENTS:
                        return f"\\{word}{{{env}}}: {env} is not an allowed environment"
                    if word == "begin":
                        envs.append(env)
                    elif not envs or envs.pop() != env:
                        return f"\\end{{{env}}} closes an environment it did not open"
                    j += m.end()
                elif word not in MACROS:
                    return f"\\{word} is not an allowed macro"
                i = j
                continue
            if text[j] not in SYMBOLS:
                return f"the control symbol \\{text[j]} is not allowed"
            i = j + 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return "a closing brace without its opening brace"
        elif ch == "$":
            dollars += 1
        elif ch == "%":
            return "an unescaped % (a comment would swallow the rest of the line)"
        elif ch == "#":
            return "an unescaped # (a macro parameter)"
        i += 1
    if depth:
        return "an opening brace without its closing brace"
    if envs:
        return f"\\begin{{{envs[-1]}}} without its \\end"
    if dollars % 2:
        return "an unmatched $"
    return None


def problem(text, prose: bool = False) -> str | None:
    """Why ``text`` may not go into a report (``None`` if it may).  ``prose``: the text is prose whose ``$...$``
    segments are mathematics and whose other characters are escaped when printed (labels, notes, conventions); else
    all of it is LaTeX (statements, quantities, metadata)."""
    if not isinstance(text, str):
        return None
    return _problem(str(text), bool(prose))


@functools.lru_cache(maxsize=1 << 16)
def _problem(text: str, prose: bool) -> str | None:
    """:func:`problem` of a string, remembered: a function of the text alone, asked again for every claim each time a
    registry is built (each command run in one process builds one)."""
    if not prose:
        return _math_problem(text)
    why = _control_problem(text)
    if why:
        return why
    for part in _MATH_SPLIT.split(text):
        if len(part) > 1 and part.startswith("$") and part.endswith("$"):
            why = _math_problem(part[1:-1])
            if why:
                return why
    return None
