"""Messages as data: the report's sentences parsed into parts, and their plain-text rendering.

A *message* (a verdict's explanation, a label, a note, a table cell) is a string in one convention: spans between
``$`` signs are LaTeX mathematics, the rest is prose.  :func:`parts` reads such a string into typed parts --

* ``text``: prose, with its quotes already turned into opening and closing ones (``"a"`` -> ``“a”``);
* ``math``: LaTeX mathematics (a ``$...$`` span, or ASCII mathematics recognised in the prose: ``eps``, ``>=``,
  ``u**4``, ``D_alpha``, ``||v||_2``);
* ``number``: a decimal as written, with all its digits (the renderer decides how many to show);
* ``value``: a Python-style literal, named or not (``v=(1,)``, ``M(0,)={0: 1/2, 1: 1/2}``,
  ``P=['0.5', '0.5']``), parsed into numbers, tuples and maps so that it can be set as mathematics --

and two renderers draw them: :func:`plain` here (the terminal and the CLI: ``\\alpha`` -> ``α``, ``\\le`` -> ``≤``,
``\\frac{a}{b}`` -> ``a/b``; ``ascii=True`` gives ``alpha``, ``<=``), and
:func:`cbdp_sym.report.latex.prose` (the reports).  Nothing here knows a paper.

>>> plain("the bound fails at $\\\\alpha = 3$, v=(1,), eps >= 1e-3: slack -0.25")
'the bound fails at α = 3, v = (1), ε ≥ 0.001: slack -0.25'
>>> plain("$D_{\\\\alpha}(P \\\\| Q) \\\\le \\\\frac{\\\\alpha \\\\rho}{2}$", ascii=True)
'D_alpha(P || Q) <= (alpha rho)/2'

The LaTeX-to-text converter is written by hand (a tokenizer and a small recursive renderer): pylatexenc's
``latex2text`` was tried and sets ``\\frac{a+b}{2}`` as ``a+b/2``, drops ``\\|`` and reads ``\\tfrac12`` as ``12``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from cbdp_sym.core.printing import num_tex, plain_words, powers_in_prose

__all__ = ["Part", "parts", "plain", "ascii_calls", "public_words", "is_literal", "literal_tex", "math_text", "parse_literal", "literal_text", "number_text",
           "GREEK_WORDS", "UNICODE_TEX"]


@dataclass(frozen=True)
class Part:
    """One piece of a message: ``kind`` is ``text``, ``math``, ``number`` or ``value``; ``text`` holds the prose,
    the LaTeX (without ``$``) or the number as written; a ``value`` has its ``name`` (LaTeX, ``""`` for a bare
    literal) and ``value`` (see :func:`parse_literal`)."""
    kind: str
    text: str = ""
    name: str = ""
    value: object = None


# -- ASCII words and symbols of prose that are mathematics --------------------------------------------------------
#: Greek names typed as words in prose (whole words only), and their LaTeX
GREEK_WORDS = {
    "alpha": r"\alpha", "beta": r"\beta", "gamma": r"\gamma", "delta": r"\delta", "eps": r"\varepsilon",
    "epsilon": r"\varepsilon", "lambda": r"\lambda", "lam": r"\lambda", "mu": r"\mu", "xi": r"\xi", "pi": r"\pi",
    "rho": r"\rho", "sigma": r"\sigma", "tau": r"\tau", "omega": r"\omega", "Delta": r"\Delta", "Lambda": r"\Lambda",
    "Gamma": r"\Gamma", "Sigma": r"\Sigma", "Omega": r"\Omega", "oo": r"\infty",
}
#: Unicode mathematics that pdfLaTeX cannot typeset as text, as LaTeX mathematics
UNICODE_TEX = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon", "ϵ": r"\epsilon",
    "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu",
    "ξ": r"\xi", "π": r"\pi", "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "φ": r"\varphi", "χ": r"\chi",
    "ψ": r"\psi", "ω": r"\omega", "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi",
    "Π": r"\Pi", "Σ": r"\Sigma", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega", "≤": r"\le", "≥": r"\ge",
    "≠": r"\ne", "≈": r"\approx", "∼": r"\sim", "→": r"\to", "←": r"\leftarrow", "⇒": r"\Rightarrow",
    "↦": r"\mapsto", "∞": r"\infty", "∈": r"\in", "∉": r"\notin", "⊂": r"\subset", "⊆": r"\subseteq",
    "∪": r"\cup", "∩": r"\cap", "·": r"\cdot", "×": r"\times", "±": r"\pm", "∓": r"\mp", "√": r"\surd",
    "∑": r"\sum", "∏": r"\prod", "∫": r"\int", "∂": r"\partial", "‖": r"\|", "⟨": r"\langle", "⟩": r"\rangle",
    "∀": r"\forall", "∃": r"\exists", "ℓ": r"\ell", "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}",
    "≪": r"\ll", "≫": r"\gg", "∝": r"\propto", "≡": r"\equiv", "−": "-", "∅": r"\emptyset", "⊤": r"\top",
    "ℰ": r"\mathcal{E}", "𝔼": r"\mathbb{E}", "⁻": "^{-}", "²": "^{2}", "³": "^{3}", "¹": "^{1}", "′": "'",
}
_GREEK_ALT = "|".join(sorted(GREEK_WORDS, key=len, reverse=True))
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"

# what prose may hold that is mathematics, tried in this order at each position
_SCAN = re.compile(
    r"(?P<norm>\|\|(?P<normin>[A-Za-z0-9 +\-]{1,12})\|\|(?:_?(?P<normsub>\d+|oo|inf|[A-Za-z]{1,5}\b))?)"
    r"|(?P<rel>>=|<=|!=|\+/-|->|=>|<->|(?<=\s)\|\|(?=\s)|(?<=\s)[<>](?=\s)|(?<![^\s(])~(?=\s|$|[\w$(.-]))"
    r"|(?P<tilde>(?<![\w\\])[A-Za-z]~(?![\w]))"
    rf"|(?P<sub>(?<![\w\\$])(?P<base>{_GREEK_ALT}|[A-Za-z])_(?P<subs>{_GREEK_ALT}|[A-Za-z0-9]{{1,3}}|\{{[A-Za-z0-9,]{{1,6}}\}})(?![\w]))"
    rf"|(?P<gsub>(?<![\w\\$])(?P<gbase>{_GREEK_ALT}|[A-Za-z])_(?P<gsubs>[A-Za-z]{{4,8}})(?![\w]))"
    rf"|(?P<greek>(?<![\w\\$])(?:{_GREEK_ALT})(?![\w]))"
    r"|(?P<unicode>[" + "".join(re.escape(k) for k in UNICODE_TEX) + r"]+)"
)
_NAME = re.compile(r"(?<![\w\\$.])([A-Za-z][A-Za-z0-9_]*)(\()?")
_NUM_RE = re.compile(_NUMBER + r"(?:\s*/\s*\d+)?")
_LONE_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?(?![\w]|\.\d|/\d)")


# -- literals: numbers, tuples, lists and maps as Python prints them --------------------------------------------
def parse_literal(s: str, i: int = 0):
    """A literal at ``s[i:]`` -- a number (``0.5``, ``-1e-3``, ``3/4``, ``inf``, ``oo``), a quoted string, a
    tuple or list (``(1,)``, ``['0.5', '0.5']``) or a map (``{0: 1/2}``) -- as ``(value, end)``, or ``None``.
    Values: ``("num", text)``, ``("str", text)``, ``("seq", [values])``, ``("map", [(key, value)])``.

    >>> parse_literal("(1,) and more")
    (('seq', [('num', '1')]), 4)
    >>> parse_literal("{0: 190/797, 1: 'x'}")[0]
    ('map', [(('num', '0'), ('num', '190/797')), (('num', '1'), ('str', 'x'))])
    >>> parse_literal("(see below)") is None
    True
    """
    n = len(s)

    def ws(j):
        while j < n and s[j] == " ":
            j += 1
        return j

    def value(j):
        j = ws(j)
        if j >= n:
            return None
        ch = s[j]
        if ch in "([":
            close = ")" if ch == "(" else "]"
            items, j = [], j + 1
            while True:
                j = ws(j)
                if j < n and s[j] == close:
                    return ("seq", items), j + 1
                got = value(j)
                if got is None:
                    return None
                items.append(got[0])
                j = ws(got[1])
                if j < n and s[j] == ",":
                    j += 1
                elif j < n and s[j] == close:
                    return ("seq", items), j + 1
                else:
                    return None
        if ch == "{":
            pairs, j = [], j + 1
            while True:
                j = ws(j)
                if j < n and s[j] == "}":
                    return ("map", pairs), j + 1
                k = value(j)
                if k is None:
                    return None
                j = ws(k[1])
                if j >= n or s[j] != ":":
                    return None
                v = value(j + 1)
                if v is None:
                    return None
                pairs.append((k[0], v[0]))
                j = ws(v[1])
                if j < n and s[j] == ",":
                    j += 1
                elif j < n and s[j] == "}":
                    return ("map", pairs), j + 1
                else:
                    return None
        if ch in "'\"":
            k = s.find(ch, j + 1)
            if k < 0:
                return None
            body = s[j + 1:k]
            if _is_number(body):
                return ("num", body.strip()), k + 1
            inner = parse_literal(body) if body[:1] in "([{" else None
            if inner is not None and inner[1] == len(body):
                return inner[0], k + 1
            return ("str", body), k + 1
        m = re.compile(r"mpf\('([^']*)'\)|Fraction\((-?\d+), (\d+)\)").match(s, j)
        if m:
            return ("num", m.group(1) if m.group(1) is not None else f"{m.group(2)}/{m.group(3)}"), m.end()
        m = re.compile(r"[-+]?(?:inf|oo|nan)(?![\w])|" + _NUMBER + r"(?:\s*/\s*\d+)?(?![\w.])").match(s, j)
        if m:
            return ("num", m.group(0).replace(" ", "")), m.end()
        return None

    return value(i)


def _is_number(text: str) -> bool:
    t = text.strip()
    return bool(re.fullmatch(_NUMBER + r"(?:/\d+)?|[-+]?(?:inf|oo|nan)", t))


def _leaves(v):
    kind, body = v
    if kind == "seq":
        for x in body:
            yield from _leaves(x)
    elif kind == "map":
        for k, x in body:
            yield from _leaves(k)
            yield from _leaves(x)
    else:
        yield v


def is_literal(v, bare: bool) -> bool:
    """A literal worth setting as mathematics: some number in it; a bare one (no ``name=``) must also look like
    Python's output (a comma, a colon or a quote), so that ``(2)`` and ``[6]`` stay prose."""
    leaves = list(_leaves(v))
    if not any(k == "num" for k, _ in leaves):
        return False
    if v[0] == "num":
        return not bare
    if v[0] == "seq" and not v[1]:
        return False
    return True


# -- parsing a message ----------------------------------------------------------------------------------------
def _split_math(text: str) -> list[tuple[bool, str]]:
    """``[(is_math, piece)]``: ``$...$`` spans (an escaped ``\\$`` is a dollar sign of the prose; an unclosed
    ``$`` is one too)."""
    out, cur, i, math = [], [], 0, False
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] == "$":
            cur.append("\\$" if math else "$")
            i += 2
            continue
        if ch == "$" and (math or _closing_dollar(text, i + 1)):
            out.append((math, "".join(cur)))
            cur, math = [], not math
            i += 1
            continue
        cur.append(ch)
        i += 1
    out.append((False, ("$" if math else "") + "".join(cur)))
    return [(m, p) for m, p in out if p]


def _closing_dollar(text: str, i: int) -> bool:
    while True:
        k = text.find("$", i)
        if k < 0:
            return False
        if text[k - 1] != "\\":
            return True
        i = k + 1


def _name_tex(name: str) -> str:
    """An identifier as LaTeX: a Greek name as its symbol, one letter as itself, ``D_alpha`` with its subscript,
    a longer word upright."""
    if name in GREEK_WORDS:
        return GREEK_WORDS[name]
    base, _, sub = name.partition("_")
    if sub and (base in GREEK_WORDS or len(base) == 1):
        return _name_tex(base) + "_{" + _name_tex(sub) + "}"
    if len(name) == 1:
        return name
    if re.fullmatch(r"[A-Za-z]\d+", name):
        return f"{name[0]}_{{{name[1:]}}}"
    return r"\mathrm{" + name.replace("_", r"\_") + "}"


def _quotes(text: str, before: str) -> str:
    """Straight quotes as opening or closing ones (“ ” ‘ ’), by what precedes each."""
    out = []
    prev = before
    for i, ch in enumerate(text):
        if ch == '"':
            out.append("“" if (not prev or prev.isspace() or prev in "([{-/“‘") else "”")
        elif ch == "'":
            nxt = text[i + 1] if i + 1 < len(text) else ""
            opening = (not prev or prev.isspace() or prev in "([{“") and nxt and not nxt.isspace()
            out.append("‘" if opening else "’")
        else:
            out.append(ch)
        prev = ch
    return "".join(out)


_ISSUE = re.compile(r"\s*\((?:see )?issue \d+\)|,? (?:see |as in )?issue \d+(?=[,.;:)]|$)")
_MODULE = re.compile(r"\bcbdp_sym\.((?:[a-z_0-9]+\.)*[a-z_0-9]+)")


def public_words(text: str) -> str:
    """The project's internal references turned into what a reader of a report can use: a tracker's issue
    number is dropped, a module path becomes a reference to the software.

    >>> public_words("An extra ID (issue 16): the profile (cbdp_sym.divergences.profiles).")
    "An extra ID: the profile (cbdp-sym's divergences.profiles)."
    """
    text = _ISSUE.sub("", text)
    return _MODULE.sub(lambda m: "cbdp-sym's " + m.group(1), text)


def _prose_parts(text: str, before: str) -> list[Part]:
    """Parts of a prose piece (no ``$``): values, numbers and ASCII mathematics taken out, the rest text."""
    text = public_words(plain_words(text))
    out: list[Part] = []
    buf: list[str] = []

    def flush():
        if buf:
            out.append(Part("text", "".join(buf)))
            buf.clear()

    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        prev = text[i - 1] if i else " "
        # a named value: v=(1,), M(0,)={0: 1/2}, n = 3, P=['0.5', '0.5']; a call with a tuple: M(0,)
        m = _NAME.match(text, i) if (ch.isalpha() and not (prev.isalnum() or prev in "_\\$.")) else None
        if m and m.group(1) in ("mpf", "Fraction") and m.group(2):  # mpf('0.25'), Fraction(1, 4)
            got = parse_literal(text, i)
            if got is not None:
                flush()
                out.append(Part("value", value=got[0]))
                i = got[1]
                continue
        if m:
            name, j = m.group(1), m.end(1)
            arg = None
            if m.group(2):
                got = parse_literal(text, j)
                if got is not None and got[0][0] == "seq" and text[got[1] - 1] == ")":
                    arg, j = got
            k = j
            while k < n and text[k] == " ":
                k += 1
            if k < n and text[k] == "=" and text[k + 1:k + 2] != "=":
                got = parse_literal(text, k + 1)
                if got is not None and is_literal(got[0], bare=False) and _ends_cleanly(text, got[1]):
                    flush()
                    out.append(Part("value", name=_name_tex(name) + (_args_tex(arg) if arg is not None else ""),
                                    value=got[0]))
                    i = got[1]
                    continue
            if arg is not None and _pythonic(text[m.end(1):j]) and is_literal(arg, bare=True):
                flush()
                out.append(Part("math", _name_tex(name) + _args_tex(arg)))
                i = j
                continue
        # a bare literal as Python prints it: (1,), ['0.5', '0.5'], {0: 1/2}
        if ch in "([{" and not (prev.isalnum()):
            got = parse_literal(text, i)
            if got is not None and is_literal(got[0], bare=True) and _ends_cleanly(text, got[1]) \
                    and _pythonic(text[i:got[1]]):
                flush()
                out.append(Part("value", value=got[0]))
                i = got[1]
                continue
        # a number that needs setting: an exponent, a sign, many digits
        m = _LONE_NUMBER.match(text, i) if (ch.isdigit() or ch in "-.") else None
        if m and not (prev.isalnum() or prev in "_.^/\\") and _needs_setting(m.group(0)):
            flush()
            out.append(Part("number", m.group(0)))
            i = m.end()
            continue
        # ASCII mathematics: norms, relations, subscripted names, Greek words, Unicode symbols
        m = _SCAN.match(text, i)
        if m and (m.lastgroup not in ("greek", "sub", "gsub") or not (prev.isalnum() or prev in "_\\")):
            flush()
            tex, i = _scan_tex(m), m.end()
            call = _CALL.match(text, i) if m.lastgroup in ("greek", "sub", "gsub") else None
            if call and all(_is_math_token(t) for t in re.split(r"[ ,+\-/]+", call.group(1)) if t):
                tex += "(" + re.sub(r"[A-Za-z]+", lambda w: GREEK_WORDS.get(w.group(0), w.group(0)),
                                    call.group(1)) + ")"
                i = call.end()
            out.append(Part("math", tex))
            continue
        buf.append(ch)
        i += 1
    flush()
    # quotes, judged by the characters before them in the whole message
    res, last = [], before
    for p in out:
        if p.kind == "text":
            p = Part("text", _quotes(p.text, last))
            last = p.text[-1:] or last
        else:
            last = "x"
        res.append(p)
    return res


_CALL = re.compile(r"\(([A-Za-z0-9 ,.+\-/]{1,24})\)")


def _is_math_token(t: str) -> bool:
    return bool(re.fullmatch(r"\d+(?:\.\d+)?|[A-Za-z]", t)) or t in GREEK_WORDS


def _ends_cleanly(text: str, j: int) -> bool:
    if j >= len(text):
        return True
    c = text[j]
    if c.isalnum() or c in "_(":
        return False
    return not (c == "." and j + 1 < len(text) and text[j + 1].isdigit())


def _pythonic(src: str) -> bool:
    """A bracketed literal written the way Python prints one: a tuple or map (a comma or a colon inside), a list
    with quotes or decimals (``[6, 7]`` is a citation, not a list)."""
    if src.lstrip().startswith("["):
        return any(c in src for c in "'\".:")
    return any(c in src for c in ",:'\"")


def _needs_setting(s: str, sig: int = 10) -> bool:
    """A number of prose that is set as mathematics: a sign, an exponent, a whole number written ``218.0``, more
    than ``sig`` digits; a short decimal (a section number ``8.10``, ``0.25``) stays as written."""
    t = s.lstrip("+-")
    mant = re.split("[eE]", t)[0]
    return (s[0] in "+-" or "e" in t.lower() or mant.endswith(".0")
            or len(mant.replace(".", "").lstrip("0")) > sig)


def _args_tex(arg) -> str:
    kind, body = arg
    if kind == "seq":
        return "(" + ",\\ ".join(literal_tex(x) for x in body) + ")"
    return "(" + literal_tex(arg) + ")"


def _scan_tex(m) -> str:
    g = m.lastgroup
    s = m.group(0)
    if g == "norm":
        inner = re.sub(r"[A-Za-z]+", lambda w: GREEK_WORDS.get(w.group(0), w.group(0)), m.group("normin").strip())
        sub = m.group("normsub")
        return r"\|" + inner + r"\|" + (("_{" + _name_tex(sub) + "}") if sub else "")
    if g == "rel":
        return {">=": r"\ge", "<=": r"\le", "!=": r"\ne", "+/-": r"\pm", "->": r"\to", "=>": r"\Rightarrow",
                "<->": r"\leftrightarrow", "<": "<", ">": ">", "~": r"\sim", "||": r"\|"}[s]
    if g == "sub":
        sub = m.group("subs").strip("{}")
        return _name_tex(m.group("base")) + "_{" + (",".join(_name_tex(x) for x in sub.split(",")) if "," in sub
                                                    else _name_tex(sub)) + "}"
    if g == "greek":
        return GREEK_WORDS[s]
    if g == "gsub":
        return _name_tex(m.group("gbase")) + r"_{\mathrm{" + m.group("gsubs") + "}}"
    if g == "tilde":
        return r"\tilde{" + s[0] + "}"
    return "".join(UNICODE_TEX[c] + (" " if UNICODE_TEX[c][-1].isalpha() else "") for c in s).strip()


def parts(message) -> list[Part]:
    """The parts of a message (see the module's docstring); a list of parts is returned as it is.

    >>> [(p.kind, p.text or p.name) for p in parts("at $x$, v=(1,): 1.5e-3 (eps >= 0)")]
    [('text', 'at '), ('math', 'x'), ('text', ', '), ('value', 'v'), ('text', ': '), ('number', '1.5e-3'), ('text', ' ('), ('math', '\\\\varepsilon \\\\ge 0'), ('text', ')')]
    """
    if isinstance(message, (list, tuple)):
        return list(message)
    out: list[Part] = []
    last = ""
    pieces = []
    for is_math, piece in _split_math(str(message or "")):
        if is_math:
            pieces.append((True, piece))
            continue
        # functions typed as in Python (sqrt(2 rho), log(1/delta)), then powers (u**4, eps^2) become mathematics
        for is_math2, piece2 in _split_math(ascii_calls(piece)):
            pieces += [(True, piece2)] if is_math2 else _split_math(powers_in_prose(piece2))
    for is_math, piece in pieces:
        if is_math:
            out.append(Part("math", "".join(UNICODE_TEX[c] + " " if c in UNICODE_TEX and UNICODE_TEX[c][-1].isalpha()
                                            else UNICODE_TEX.get(c, c) for c in piece)))
            last = "x"
        else:
            out += _prose_parts(piece, last)
            last = piece[-1:] or last
    return _merge(out)


_REL_END = re.compile(r"(?:\\(?:le|ge|ne|to|sim|approx|in|leq|geq|neq|Rightarrow|mapsto|pm)|[<>=])\s*$")
_REL_START = re.compile(r"^\s*(?:\\(?:le|ge|ne|to|sim|approx|in|leq|geq|neq|Rightarrow|mapsto|pm)(?![a-zA-Z])|[<>=])")
_TOKEN_AFTER = re.compile(r"^( ?)(\d+(?:\.\d+)?(?:/\d+)?|[A-Za-z])(?![\w(/]|\.\d)")
_TOKEN_BEFORE = re.compile(r"(?<![\w.])(\d+(?:/\d+)?|[A-Za-z])( ?)$")


def _as_math(p: Part) -> str:
    if p.kind == "math":
        return p.text
    if p.kind == "number":
        return num_tex(p.text)
    return (p.name + " = " if p.name else "") + literal_tex(p.value)


def _merge(out: list[Part]) -> list[Part]:
    """Neighbouring text parts joined; mathematics separated only by spaces joined into one formula
    (``eps >= 1e-3`` -> ``\\varepsilon \\ge 10^{-3}``), and a lone letter or integer on either side of a
    relation taken into it (``p < 1/2``, ``alpha -> 1``)."""
    merged: list[Part] = []
    for p in out:
        if merged and p.kind == merged[-1].kind == "text":
            merged[-1] = Part("text", merged[-1].text + p.text)
        else:
            merged.append(p)
    # a lone token beside a relation
    for k, p in enumerate(merged):
        if p.kind != "math":
            continue
        if _REL_END.search(p.text) and k + 1 < len(merged) and merged[k + 1].kind == "text":
            m = _TOKEN_AFTER.match(merged[k + 1].text)
            if m:
                p = merged[k] = Part("math", p.text + " " + m.group(2))
                merged[k + 1] = Part("text", merged[k + 1].text[m.end():])
        if _REL_START.match(p.text) and k > 0 and merged[k - 1].kind == "text":
            m = _TOKEN_BEFORE.search(merged[k - 1].text)
            if m:
                merged[k] = Part("math", m.group(1) + " " + p.text)
                merged[k - 1] = Part("text", merged[k - 1].text[:m.start()])
    # formulas separated by spaces only
    res: list[Part] = []
    for p in merged:
        if p.kind == "text" and not p.text:
            continue
        if (p.kind != "text" and len(res) >= 2 and res[-1].kind == "text"
                and re.fullmatch(r"\s*[=<>]?\s*", res[-1].text) and res[-2].kind != "text"):
            gap = res.pop().text.strip()
            prev = res.pop()
            p = Part("math", _as_math(prev) + (f" {gap} " if gap else " ") + _as_math(p))
        elif p.kind != "text" and res and res[-1].kind != "text":
            p = Part("math", _as_math(res.pop()) + " " + _as_math(p))
        res.append(p)
    return res


_FUNCS = {"sqrt": None, "exp": r"\exp", "log": r"\log", "ln": r"\ln", "tanh": r"\tanh", "sinh": r"\sinh",
          "cosh": r"\cosh", "erfc": r"\operatorname{erfc}", "erf": r"\operatorname{erf}", "min": r"\min",
          "max": r"\max"}
_CALL_START = re.compile(r"(?<![\w\\$])(sqrt|exp|log|ln|tanh|sinh|cosh|erfc|erf|min|max)\(")
_SQRT_WORD = re.compile(r"(?<![\w\\$])sqrt\s+(\d+(?:\.\d+)?|[A-Za-z]\b|(?:%s)\b)" % _GREEK_ALT)
_ABS_POWER = re.compile(r"(?<!\|)\|([A-Za-z0-9 .+\-_~]{1,16})\|\s?(?:\^|\*\*)(\w+|\([^()$]{1,16}\)|\{[^{}$]{1,16}\})")
_PAREN_POWER = re.compile(r"\(([^()$]{1,40})\)\s?(?:\^|\*\*)(-?\w+|\([^()$]{1,16}\))")


def _balanced(text: str, i: int) -> int:
    """The index after the parenthesis that closes the one at ``text[i]``, or -1."""
    depth = 0
    for k in range(i, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            return k + 1
    return -1


def _ascii_math(src: str) -> str | None:
    """A short expression typed in ASCII (the inside of ``sqrt(...)``) as LaTeX, or ``None`` when it reads as
    prose (a word of more than three letters that is neither Greek nor a function)."""
    out, i = [], 0
    while i < len(src):
        m = _CALL_START.match(src, i)
        if m:
            end = _balanced(src, m.end() - 1)
            inner = _ascii_math(src[m.end():end - 1]) if end > 0 else None
            if inner is None:
                return None
            f = _FUNCS[m.group(1)]
            out.append(r"\sqrt{" + inner + "}" if f is None else f + "(" + inner + ")")
            i = end
            continue
        m = re.compile(r"[A-Za-z]+").match(src, i)
        if m:
            w = m.group(0)
            if w in GREEK_WORDS:
                out.append(GREEK_WORDS[w] + " ")
            elif w in _FUNCS and _FUNCS[w]:
                out.append(_FUNCS[w] + " ")
            elif w in ("sqrt",):
                return None
            elif len(w) == 1 and src.startswith("~", m.end()):  # Y~: a tilde accent
                out.append(r"\tilde{" + w + "}")
                i = m.end() + 1
                continue
            elif len(w) <= 2 or w in ("sum", "Var", "RHS", "LHS", "max", "min"):
                out.append(w if len(w) == 1 else r"\mathrm{" + w + "}")
            else:
                return None
            i = m.end()
            continue
        if src.startswith("**", i) or src[i] == "^":
            j = i + (2 if src.startswith("**", i) else 1)
            e = re.compile(r"-?\w+'*|\([^()]*\)").match(src, j)
            if not e:
                return None
            exp = e.group(0)
            exp = exp[1:-1] if exp.startswith("(") else exp
            inner = _ascii_math(exp)
            if inner is None:
                return None
            out.append("^{" + inner.strip() + "}")
            i = e.end()
            continue
        ch = src[i]
        if ch in "$\\":
            return None
        if src.startswith(">=", i) or src.startswith("<=", i):
            out.append(r" \ge " if ch == ">" else r" \le ")
            i += 2
            continue
        if src.startswith("||", i):
            out.append(r"\| ")
            i += 2
            continue
        if src.startswith("...", i):
            out.append(r"\dots ")
            i += 3
            continue
        out.append({"*": r"\,", "|": r"|", "{": r"\{", "}": r"\}", "%": r"\%", "_": "_", "#": r"\#",
                    "&": r"\&"}.get(ch, ch))
        i += 1
    return re.sub(r"\s+", " ", "".join(out)).strip()


def ascii_calls(text: str) -> str:
    r"""Functions typed in prose as in Python (``sqrt(pi rho)``, ``log(1/delta)``, ``sqrt 2``) and powers of
    absolute values (``E|Z|^gamma``) rewritten as ``$...$`` mathematics; anything that reads as prose is kept.

    >>> ascii_calls("threshold sqrt(log(T/beta)/rho), 2 sqrt 2 and E|Z|^gamma; log of x")
    'threshold $\\sqrt{\\log(T/\\beta)/\\rho}$, 2 $\\sqrt{2}$ and E$|Z|^{\\gamma}$; log of x'
    """
    out, i = [], 0
    while i < len(text):
        m = _CALL_START.search(text, i)
        m2 = _SQRT_WORD.search(text, i)
        m3 = _ABS_POWER.search(text, i)
        m4 = _PAREN_POWER.search(text, i)
        cands = [x for x in (m, m2, m3, m4) if x]
        if not cands:
            out.append(text[i:])
            break
        m = min(cands, key=lambda x: x.start())
        out.append(text[i:m.start()])
        if m.re is _CALL_START:
            end = _balanced(text, m.end() - 1)
            tex = _ascii_math(text[m.start():end]) if end > 0 else None
            if tex is None:
                out.append(text[m.start():m.end()])
                i = m.end()
                continue
            out.append("$" + tex + "$")
            i = end
        elif m.re is _SQRT_WORD:
            arg = m.group(1)
            out.append(r"$\sqrt{" + GREEK_WORDS.get(arg, arg) + "}$")
            i = m.end()
        else:
            inner, exp = _ascii_math(m.group(1)), _ascii_math(m.group(2).strip("(){}"))
            bar = "|" if m.re is _ABS_POWER else ""
            if inner is None or exp is None:
                out.append(m.group(0))
            elif bar:
                out.append("$|" + inner + "|^{" + exp + "}$")
            else:
                out.append("$(" + inner + ")^{" + exp + "}$")
            i = m.end()
    return "".join(out)


# -- LaTeX of a literal (used by both renderers) ----------------------------------------------------------------
def literal_tex(v, sig: int = 10) -> str:
    """A parsed literal as LaTeX mathematics: numbers by :func:`~cbdp_sym.core.printing.num_tex`, sequences as
    ``(a, b)`` that may break after their commas, maps as ``\\{k \\mapsto v\\}``.

    >>> literal_tex(("seq", [("num", "1")]))
    '(1)'
    >>> literal_tex(("map", [(("num", "0"), ("num", "1/2"))]))
    '\\\\{0 \\\\mapsto 1/2\\\\}'
    """
    kind, body = v
    if kind == "num":
        low = body.lower().lstrip("+")
        if low in ("oo", "-oo"):
            return ("-" if low.startswith("-") else "") + r"\infty"
        return num_tex(body, sig)
    if kind == "str":
        return r"\text{" + _text_in_math(body) + "}"
    if kind == "seq":
        return "(" + r",\allowbreak\ ".join(literal_tex(x, sig) for x in body) + ")"
    if body and all(k[0] == "str" and re.fullmatch(r"[A-Za-z]\w*", k[1]) for k, _ in body):  # {'d': 2}: d = 2
        return r",\allowbreak\ ".join(_name_tex(k[1]) + " = " + literal_tex(x, sig) for k, x in body)
    return r"\{" + r",\allowbreak\ ".join(literal_tex(k, sig) + r" \mapsto " + literal_tex(x, sig)
                                        for k, x in body) + r"\}"


def _text_in_math(s: str) -> str:
    return re.sub(r"([&%$#_{}])", r"\\\1", s).replace("~", r"\textasciitilde{}").replace("^", r"\textasciicircum{}")


def literal_text(v, ascii: bool = False) -> str:
    """A parsed literal as plain text.

    >>> literal_text(("seq", [("num", "0.5"), ("num", "1e-7")]))
    '(0.5, 10⁻⁷)'
    """
    kind, body = v
    if kind == "num":
        return number_text(body, ascii=ascii)
    if kind == "str":
        return body
    if kind == "seq":
        return "(" + ", ".join(literal_text(x, ascii) for x in body) + ")"
    if body and all(k[0] == "str" and re.fullmatch(r"[A-Za-z]\w*", k[1]) for k, _ in body):
        return ", ".join(f"{math_text(_name_tex(k[1]), ascii)} = {literal_text(x, ascii)}" for k, x in body)
    arrow = "->" if ascii else "↦"
    return "{" + ", ".join(f"{literal_text(k, ascii)} {arrow} {literal_text(x, ascii)}" for k, x in body) + "}"


def number_text(s: str, sig: int = 10, ascii: bool = False) -> str:
    """A number as plain text, with at most ``sig`` significant digits.

    >>> number_text("1.234567890123e-5"), number_text("-2.0"), number_text("oo"), number_text("2e-7", ascii=True)
    ('1.23456789 × 10⁻⁵', '-2', '∞', '2 x 10^-7')
    """
    low = str(s).strip().lower().lstrip("+")
    if low in ("oo", "-oo"):
        return ("-" if low.startswith("-") else "") + ("inf" if ascii else "∞")
    return math_text(num_tex(s, sig), ascii=ascii)


# -- LaTeX mathematics as plain text ------------------------------------------------------------------------------
_SYMBOLS = {  # control word -> (Unicode, ASCII)
    "alpha": ("α", "alpha"), "beta": ("β", "beta"), "gamma": ("γ", "gamma"), "delta": ("δ", "delta"),
    "epsilon": ("ϵ", "eps"), "varepsilon": ("ε", "eps"), "zeta": ("ζ", "zeta"), "eta": ("η", "eta"),
    "theta": ("θ", "theta"), "vartheta": ("ϑ", "theta"), "iota": ("ι", "iota"), "kappa": ("κ", "kappa"),
    "lambda": ("λ", "lambda"), "mu": ("μ", "mu"), "nu": ("ν", "nu"), "xi": ("ξ", "xi"), "pi": ("π", "pi"),
    "rho": ("ρ", "rho"), "varrho": ("ϱ", "rho"), "sigma": ("σ", "sigma"), "tau": ("τ", "tau"),
    "upsilon": ("υ", "upsilon"), "phi": ("ϕ", "phi"), "varphi": ("φ", "phi"), "chi": ("χ", "chi"),
    "psi": ("ψ", "psi"), "omega": ("ω", "omega"), "Gamma": ("Γ", "Gamma"), "Delta": ("Δ", "Delta"),
    "Theta": ("Θ", "Theta"), "Lambda": ("Λ", "Lambda"), "Xi": ("Ξ", "Xi"), "Pi": ("Π", "Pi"),
    "Sigma": ("Σ", "Sigma"), "Upsilon": ("Υ", "Upsilon"), "Phi": ("Φ", "Phi"), "Psi": ("Ψ", "Psi"),
    "Omega": ("Ω", "Omega"), "infty": ("∞", "inf"), "partial": ("∂", "d"), "nabla": ("∇", "grad"),
    "ell": ("ℓ", "l"), "emptyset": ("∅", "{}"), "varnothing": ("∅", "{}"), "top": ("⊤", "T"),
    "forall": ("∀", "for all"), "exists": ("∃", "exists"), "neg": ("¬", "not"), "surd": ("√", "sqrt"),
    "ldots": ("…", "..."), "cdots": ("⋯", "..."), "dots": ("…", "..."), "dotsc": ("…", "..."),
    "dotsb": ("⋯", "..."), "vdots": ("⋮", "..."), "prime": ("′", "'"), "cdot": ("·", "*"), "times": ("×", "x"),
    "div": ("÷", "/"), "pm": ("±", "+/-"), "mp": ("∓", "-/+"), "ast": ("*", "*"), "star": ("⋆", "*"),
    "circ": ("∘", "o"), "bullet": ("•", "*"), "oplus": ("⊕", "(+)"), "otimes": ("⊗", "(x)"), "setminus": ("∖", "\\"),
    "cup": ("∪", "u"), "cap": ("∩", "n"), "wedge": ("∧", "and"), "land": ("∧", "and"), "vee": ("∨", "or"),
    "lor": ("∨", "or"), "|": ("‖", "||"), "Vert": ("‖", "||"), "lVert": ("‖", "||"), "rVert": ("‖", "||"),
    "vert": ("|", "|"), "lvert": ("|", "|"), "rvert": ("|", "|"), "mid": ("|", "|"), "langle": ("⟨", "<"),
    "rangle": ("⟩", ">"), "lfloor": ("⌊", "floor("), "rfloor": ("⌋", ")"), "lceil": ("⌈", "ceil("),
    "rceil": ("⌉", ")"), "{": ("{", "{"), "}": ("}", "}"), "lbrace": ("{", "{"), "rbrace": ("}", "}"),
    "backslash": ("\\", "\\"), "%": ("%", "%"), "#": ("#", "#"), "&": ("&", "&"), "_": ("_", "_"), "$": ("$", "$"),
    "colon": (":", ":"), "sum": ("∑", "sum"), "prod": ("∏", "prod"), "int": ("∫", "int"), "oint": ("∮", "int"),
    "bigcup": ("⋃", "union"), "bigcap": ("⋂", "intersection"), "hbar": ("ħ", "hbar"), "aleph": ("ℵ", "aleph"),
    "Re": ("Re", "Re"), "Im": ("Im", "Im"), "checkmark": ("✓", "ok"), "dagger": ("†", "+"),
}
_RELATIONS = {
    "le": ("≤", "<="), "leq": ("≤", "<="), "leqslant": ("≤", "<="), "ge": ("≥", ">="), "geq": ("≥", ">="),
    "geqslant": ("≥", ">="), "ne": ("≠", "!="), "neq": ("≠", "!="), "approx": ("≈", "~="), "sim": ("∼", "~"),
    "simeq": ("≃", "~="), "cong": ("≅", "~="), "equiv": ("≡", "=="), "propto": ("∝", "~"), "ll": ("≪", "<<"),
    "gg": ("≫", ">>"), "to": ("→", "->"), "rightarrow": ("→", "->"), "longrightarrow": ("⟶", "->"),
    "leftarrow": ("←", "<-"), "gets": ("←", "<-"), "Rightarrow": ("⇒", "=>"), "implies": ("⟹", "=>"),
    "Leftarrow": ("⇐", "<="), "iff": ("⟺", "<=>"), "Leftrightarrow": ("⇔", "<=>"), "leftrightarrow": ("↔", "<->"),
    "mapsto": ("↦", "|->"), "in": ("∈", "in"), "notin": ("∉", "not in"), "ni": ("∋", "contains"),
    "subset": ("⊂", "subset of"), "subseteq": ("⊆", "subset of"), "supset": ("⊃", "superset of"),
    "supseteq": ("⊇", "superset of"), "perp": ("⊥", "perp"), "parallel": ("∥", "||"), "prec": ("≺", "<"),
    "succ": ("≻", ">"), "preceq": ("⪯", "<="), "succeq": ("⪰", ">="), "lesssim": ("≲", "<~"),
    "gtrsim": ("≳", ">~"), "coloneqq": ("≔", ":="), "defeq": ("≝", ":="), "triangleq": ("≜", ":="),
}
_FUNCTIONS = {"log", "ln", "exp", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "sec",
              "csc", "cot", "lim", "limsup", "liminf", "sup", "inf", "max", "min", "arg", "argmax", "argmin", "det",
              "dim", "ker", "deg", "gcd", "lg", "Pr", "Var", "erf", "erfc"}
_FONTS = {"text", "textrm", "textnormal", "textit", "textbf", "textsf", "texttt", "emph", "mathrm", "mathit",
          "mathbf", "mathsf", "mathtt", "mathnormal", "boldsymbol", "bm", "operatorname", "mbox", "hbox",
          "mathscr", "mathcal", "mathfrak", "pmb", "textup", "displaystyle", "textstyle", "scriptstyle"}
_STYLES = {"displaystyle", "textstyle", "scriptstyle", "scriptscriptstyle", "limits", "nolimits", "nonumber",
           "notag", "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl",
           "biggr", "Biggl", "Biggr", "bigm", "Bigm", "allowbreak", "relax", "strut", "MoveEqLeft", "phantom",
           "hphantom", "vphantom", "label", "tag"}
_SPACES = {",", ";", ":", " ", "quad", "qquad", "enspace", "thinspace", "medspace", "thickspace", "space", "nobreak",
           "hfill", "\\", "newline", "cr"}
_BINARY = {"cdot", "times", "div", "pm", "mp", "cup", "cap", "circ", "oplus", "otimes", "setminus", "wedge", "vee",
           "land", "lor", "ast", "star", "bullet"}
_BLACKBOARD = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "P": "ℙ"}
_ACCENTS = {"hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303", "bar": "\u0304",
            "overline": "\u0305", "vec": "\u20d7", "dot": "\u0307", "ddot": "\u0308", "check": "\u030c",
            "breve": "\u0306", "acute": "\u0301", "grave": "\u0300", "underline": "\u0332"}
_SUPERSCRIPT = dict(zip("0123456789+-=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ"))
_SUBSCRIPT = dict(zip("0123456789+-=()aeoxhklmnpstij", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼ"))


def _tokens(tex: str) -> list:
    """LaTeX mathematics as a nested list: ``("cmd", name)``, ``("grp", [...])``, ``("chr", c)``."""
    stack: list[list] = [[]]
    i, n = 0, len(tex)
    while i < n:
        ch = tex[i]
        if ch == "\\":
            j = i + 1
            if j < n and tex[j].isalpha():
                while j < n and tex[j].isalpha():
                    j += 1
                name = tex[i + 1:j]
                stack[-1].append(("cmd", name))
                if j < n and tex[j] == " ":  # kept: it separates symbols in the text (a^\top x)
                    stack[-1].append(("chr", " "))
                while j < n and tex[j] == " ":
                    j += 1
                i = j
            else:
                stack[-1].append(("cmd", tex[j] if j < n else "\\"))
                i = j + 1
            continue
        if ch == "{":
            stack.append([])
        elif ch == "}":
            if len(stack) > 1:
                grp = stack.pop()
                stack[-1].append(("grp", grp))
        elif ch == "%":  # a comment runs to the end of the line
            k = tex.find("\n", i)
            i = n if k < 0 else k
            continue
        else:
            stack[-1].append(("chr", ch))
        i += 1
    while len(stack) > 1:  # unbalanced: close what is open
        grp = stack.pop()
        stack[-1].append(("grp", grp))
    return stack[0]


def _atomic(s: str) -> bool:
    """True when ``s`` needs no parentheses as a numerator, denominator, exponent or radicand."""
    s = s.strip()
    if re.fullmatch(r"-?\d+(?:\.\d+)?|\w[′'⁰¹²³⁴⁵⁶⁷⁸⁹₀-₉ₐ-ₜ]*|\w_\w", s):
        return True
    if re.fullmatch(r"\w+\([^()]*\)", s) or re.fullmatch(r"√\S+", s):  # log(x), √2
        return True
    if len(s) >= 2 and s[0] in "([|‖⟨{" and _closes_at_end(s):
        return True
    return False


def _closes_at_end(s: str) -> bool:
    pairs = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "|": "|", "‖": "‖"}
    open_, close = s[0], pairs.get(s[0])
    if close is None or s[-1] != close:
        return False
    if open_ in "|‖":
        return s.count(open_) == 2
    depth = 0
    for k, c in enumerate(s):
        depth += (c == open_) - (c == close)
        if depth == 0 and k < len(s) - 1:
            return False
    return True


def _paren(s: str) -> str:
    return s if _atomic(s) else f"({s.strip()})"


class _Text:
    def __init__(self, ascii: bool):
        self.ascii = ascii

    def sym(self, pair):
        return pair[1] if self.ascii else pair[0]

    def arg(self, nodes, k):
        """The argument at ``nodes[k]`` (skipping spaces): ``(text, next index)``."""
        while k < len(nodes) and nodes[k] == ("chr", " "):
            k += 1
        if k >= len(nodes):
            return "", k
        node = nodes[k]
        if node[0] == "grp":
            return self.render(node[1]), k + 1
        return self.render([node]), k + 1

    def raw_arg(self, nodes, k):
        while k < len(nodes) and nodes[k] == ("chr", " "):
            k += 1
        if k < len(nodes) and nodes[k][0] == "grp":
            return nodes[k][1], k + 1
        return nodes[k:k + 1], k + 1

    def script(self, body: str, table: dict, mark: str) -> str:
        body = body.strip()
        if not self.ascii and body and all(c in table for c in body):
            return "".join(table[c] for c in body)
        if mark == "_" and not self.ascii and len(body) == 1:
            return "_" + body
        return mark + (body if _atomic(body) or re.fullmatch(r"\w+", body) else "(" + body + ")")

    def render(self, nodes) -> str:
        out: list[str] = []
        k = 0
        while k < len(nodes):
            kind, val = nodes[k]
            k += 1
            if kind == "grp":
                out.append(self.render(val))
            elif kind == "chr":
                if val in "^_":
                    if out:
                        out[-1] = out[-1].rstrip()
                    body, k = self.arg(nodes, k)
                    out.append(self.script(body, _SUPERSCRIPT if val == "^" else _SUBSCRIPT, val))
                elif val == "&":
                    out.append(" ")
                elif val == "~":
                    out.append(" ")
                elif val in "=<>":
                    out.append(f" {val} ")
                elif val == "'":
                    out.append("′" if not self.ascii else "'")
                else:
                    out.append(val)
            else:
                out.append(self.command(val, nodes, k))
                k = self._consumed
        return "".join(out)

    def command(self, name, nodes, k) -> str:
        self._consumed = k
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            a, k = self.arg(nodes, k)
            b, k = self.arg(nodes, k)
            self._consumed = k
            return _paren(a) + "/" + _paren(b)
        if name == "binom":
            a, k = self.arg(nodes, k)
            b, k = self.arg(nodes, k)
            self._consumed = k
            return f"C({a.strip()}, {b.strip()})"
        if name == "sqrt":
            index = ""
            if k < len(nodes) and nodes[k] == ("chr", "["):
                j = k + 1
                while j < len(nodes) and nodes[j] != ("chr", "]"):
                    j += 1
                index = self.render(nodes[k + 1:j])
                k = j + 1
            a, k = self.arg(nodes, k)
            self._consumed = k
            if self.ascii:
                return (f"root{index}" if index else "sqrt") + "(" + a.strip() + ")"
            root = {"3": "∛", "4": "∜"}.get(index.strip(), "√" if not index else f"root{index}")
            simple = _atomic(a) and not re.search(r"\w\(", a) and not a.strip().startswith("-")
            return root + (a.strip() if simple else "(" + a.strip() + ")")
        if name == "mathbb":
            grp, k = self.raw_arg(nodes, k)
            self._consumed = k
            letter = self.render(grp).strip()
            return letter if self.ascii else _BLACKBOARD.get(letter, letter)
        if name in ("begin", "end"):
            _, k = self.raw_arg(nodes, k)
            self._consumed = k
            return " "
        if name == "operatorname" and k < len(nodes) and nodes[k] == ("chr", "*"):
            k += 1
        if name in _FONTS:
            if name in ("displaystyle", "textstyle", "scriptstyle"):
                return ""
            grp, k = self.raw_arg(nodes, k)
            self._consumed = k
            if name in ("text", "textrm", "textnormal", "textit", "textbf", "textsf", "texttt", "emph", "mbox",
                        "hbox", "textup"):
                return "".join(self.render([x]) if x[0] != "chr" else x[1] for x in grp)
            return self.render(grp)
        if name in _ACCENTS:
            a, k = self.arg(nodes, k)
            self._consumed = k
            a = a.strip()
            if not self.ascii and len(a) == 1:
                return a + _ACCENTS[name]
            return f"{name}({a})"
        if name in ("not",):
            return "not " if self.ascii else "¬"
        if name in _STYLES:
            if name in ("phantom", "hphantom", "vphantom", "label", "tag"):
                _, k = self.raw_arg(nodes, k)
                self._consumed = k
                return ""
            if name == "MoveEqLeft" and k < len(nodes) and nodes[k] == ("chr", "["):
                while k < len(nodes) and nodes[k] != ("chr", "]"):
                    k += 1
                self._consumed = k + 1
            if name in ("left", "right", "middle", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "Biggl",
                        "Biggr", "big", "Big", "bigg", "Bigg", "bigm", "Bigm") and k < len(nodes) \
                    and nodes[k] == ("chr", "."):
                self._consumed = k + 1
            return ""
        if name in _SPACES:
            return "; " if name in ("\\", "newline", "cr") else " "
        if name == "!":
            return ""
        if name in _RELATIONS:
            return f" {self.sym(_RELATIONS[name])} "
        if name in _SYMBOLS:
            s = self.sym(_SYMBOLS[name])
            if name in _BINARY or (self.ascii and s.isalpha() and len(s) > 1):
                return f" {s} "
            return s
        if name in _FUNCTIONS:
            return name + (" " if k < len(nodes) and nodes[k][0] == "chr" and nodes[k][1].isalnum() else "")
        return name


def math_text(tex: str, ascii: bool = False) -> str:
    """LaTeX mathematics (without ``$``) as plain text: Unicode symbols (``ascii=True``: ASCII words).

    >>> math_text(r"\\frac{e^{\\varepsilon}-1}{2\\sigma^{2}} \\le \\sqrt{\\log(1/\\delta)}")
    '(e^ε-1)/(2σ²) ≤ √(log(1/δ))'
    >>> math_text(r"\\mathbb{E}_{Q}\\left[|a^\\top x + b|^{A}\\right] \\to \\infty", ascii=True)
    'E_Q[|a^T x + b|^A] -> inf'
    >>> math_text(r"\\mathcal{D}^{\\mathrm{lin}}_{R,\\alpha}(P, Q) = 10^{-5}")
    'D^lin_(R,α)(P, Q) = 10⁻⁵'
    """
    t = _Text(ascii).render(_tokens(str(tex)))
    t = re.sub(r"\s+", " ", t).strip()
    t = re.sub(r"\(\s+", "(", t)
    t = re.sub(r"\s+([),;])", r"\1", t)
    return t


def plain(message, ascii: bool = False, sig: int = 10) -> str:
    """A message (see :func:`parts`) as plain text for a terminal: mathematics readable, numbers with at most
    ``sig`` significant digits, literals as tuples; ``ascii=True`` keeps to ASCII (``alpha``, ``<=``).

    >>> plain('"for all sigma" fails at M(0,)={0: 1/4, 1: 3/4}; alpha ~ 3.3')
    '“for all σ” fails at M(0) = {0 ↦ 1/4, 1 ↦ 3/4}; α ∼ 3.3'
    >>> plain("slack $-1.5 \\\\times 10^{-3}$ at P=['0.500046', '0.499954']", ascii=True)
    'slack -1.5 x 10^-3 at P = (0.500046, 0.499954)'
    """
    out = []
    for p in parts(message):
        if p.kind == "text":
            t = p.text
            if ascii:
                t = t.translate(str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"}))
            out.append(t)
        elif p.kind == "math":
            out.append(math_text(p.text, ascii))
        elif p.kind == "number":
            out.append(number_text(p.text, sig, ascii))
        else:
            lit = literal_text(p.value, ascii)
            out.append(f"{math_text(p.name, ascii)} = {lit}" if p.name else lit)
    return re.sub(r"[ \t]+", " ", "".join(out)).strip()
