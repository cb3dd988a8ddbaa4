"""The one LaTeX printer of cbdp-sym: readable output (``\\varepsilon``, ``\\log``, ``\\mathbb{E}``).

>>> import sympy as sp
>>> latex(sp.exp(-sp.Symbol("epsilon", positive=True)))
'e^{- \\\\varepsilon}'
>>> latex(sp.log(sp.Symbol("x")))
'\\\\log{\\\\left(x \\\\right)}'
"""
from __future__ import annotations

import functools
import re

import sympy as sp
from sympy.printing.latex import LatexPrinter

from cbdp_sym.core.tape import Tex

# -- prose for LaTeX -----------------------------------------------------------------------------
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


def visible_width(tex: str) -> int:
    """A rough count of printed characters in a LaTeX math string (for line breaking)."""
    t = re.sub(r"\\(left|right|big|Big|bigl|bigr|Bigl|Bigr|displaystyle|mathrm|operatorname|text)\b", "", tex)
    t = re.sub(r"\\frac\{", "{", t)
    t = re.sub(r"\\[a-zA-Z]+", "x", t)
    t = re.sub(r"[{}\s^_]", "", t)
    return len(t)



_NAMES = {
    "epsilon": r"\varepsilon",
    "eps": r"\varepsilon",
    "lam": r"\lambda",
    "mu1": r"\mu_1",
    "mu2": r"\mu_2",
    "sigma1": r"\sigma_1",
    "sigma2": r"\sigma_2",
    "alpha_m1": r"(\alpha-1)",
}


class CbdpLatexPrinter(LatexPrinter):
    """SymPy's LaTeX printer with the toolkit's symbol names and notation."""

    def __init__(self, settings=None):
        base = {"ln_notation": False, "mul_symbol": None, "inv_trig_style": "abbreviated"}
        base.update(settings or {})
        super().__init__(base)

    def _print_Symbol(self, expr, style="plain"):
        if expr.name in _NAMES:
            return _NAMES[expr.name]
        base = expr.name.rstrip("'")
        if base != expr.name and base:  # primes (delta'): SymPy prints the name as typed, "delta'"
            return self._print_Symbol(sp.Symbol(base), style) + "'" * (len(expr.name) - len(base))
        return super()._print_Symbol(expr, style)

    def _print_Expect(self, expr):
        law, body = expr.args
        return r"\mathbb{E}_{%s}\left[%s\right]" % (self._print(law), self._print(body))

    def _print_FiniteSet(self, s):
        items = sorted(s.args, key=sp.default_sort_key)
        return r"\left\{" + r",\ ".join(self._print(i) for i in items) + r"\right\}"


_PRINTER = CbdpLatexPrinter()


def latex(expr) -> str:
    """LaTeX for a SymPy expression (or a :class:`~cbdp_sym.core.tape.Tex`, or a plain number)."""
    if isinstance(expr, Tex):
        return expr.latex
    if isinstance(expr, str):
        return expr
    expr = sp.sympify(expr)
    try:
        return _print_memo(expr)
    except TypeError:  # unhashable (a list or a matrix)
        return _PRINTER.doprint(expr)


@functools.lru_cache(maxsize=8192)
def _print_memo(expr) -> str:
    """The printer's output, memoised: a report prints the same expression several times (the steps, the
    table, ``audit.json``).  SymPy equality is structural (a ``Float``'s precision and a symbol's assumptions
    are part of it), so equal keys print alike."""
    return _PRINTER.doprint(expr)


# -- numbers and values in reports -----------------------------------------------------------------
_NUM = __import__("re").compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")
_RAT = __import__("re").compile(r"^\s*[-+]?\d+\s*/\s*\d+\s*$")


def num_tex(value, sig: int = 10) -> str:
    """A number as LaTeX math (no ``$``): at most ``sig`` significant digits, ``\\times 10^{k}`` for large
    and small magnitudes, whole numbers without a trailing ``.0``; ``inf`` as ``\\infty``.

    >>> num_tex("218.0"), num_tex("1.0e-5"), num_tex("0.000123456789012345"), num_tex("-2.5e+40")
    ('218', '10^{-5}', '1.23456789 \\\\times 10^{-4}', '-2.5 \\\\times 10^{40}')
    >>> num_tex("3.14159265358979323846", 6), num_tex("inf"), num_tex("12345678")
    ('3.14159', '\\\\infty', '12345678')
    """
    import mpmath as mp

    s = str(value).strip()
    low = s.lower()
    if low in ("inf", "+inf", "oo", "infinity"):
        return r"\infty"
    if low in ("-inf", "-oo", "-infinity"):
        return r"-\infty"
    if low == "nan":
        return r"\mathrm{NaN}"
    if _RAT.match(s):
        return s.replace(" ", "")
    with mp.workdps(max(sig, 15) + 10):
        # (mpmath reads neither ".5" nor "-.5": a decimal without its leading digit)
        v = mp.mpf(re.sub(r"^([-+]?)\.", r"\g<1>0.", s)) if not isinstance(value, mp.mpf) else value
        if v == 0:
            return "0"
        if v == int(v) and abs(v) < 10 ** min(sig, 15):
            return str(int(v))
        text = mp.nstr(v, sig, min_fixed=-4, max_fixed=6)
    mant, _, exp = text.partition("e")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    if not exp:
        return mant
    k = int(exp)
    if mant in ("1", "-1"):
        return ("-" if mant == "-1" else "") + f"10^{{{k}}}"
    return f"{mant} \\times 10^{{{k}}}"


def is_number(text) -> bool:
    """True for a decimal number (or inf/nan) written as a string or a number."""
    s = str(text).strip().lower()
    return bool(_NUM.match(s) or _RAT.match(s)) or s in ("inf", "-inf", "+inf", "nan")


def value_tex(value, sig: int = 10) -> str:
    """Any value of a report (number, string, list, dict, ``None``) as LaTeX text: numbers in math, no
    Python representation (``None`` is a dash, a dict is ``key = value`` pairs, a list is comma-separated)."""
    if value is None:
        return "--"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)) or is_number(value):
        return "$" + num_tex(value, sig) + "$"
    if isinstance(value, dict):
        return "; ".join(f"{key_tex(k)} $=$ {value_tex(v, sig)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(value_tex(v, sig) for v in value)
    return note_tex(numbers_in_prose(str(value), sig))


def map_prose(text: str, fn) -> str:
    """``text`` with ``fn`` applied to each part outside ``$...$`` (the mathematics kept verbatim).

    >>> map_prose("a $x_1$ b", str.upper)
    'A $x_1$ B'
    """
    parts = __import__("re").split(r"(\$[^$]*\$)", text)
    return "".join(p if p.startswith("$") and p.endswith("$") and len(p) > 1 else fn(p) for p in parts)


_NUM_IN_TEXT = __import__("re").compile(r"(?<![\w.$\\^])([-+]?\d*\.\d+(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+)(?![\w.])")


def numbers_in_prose(text: str, sig: int = 10) -> str:
    """Decimals in prose (outside ``$...$``) rewritten as ``$...$`` mathematics with at most ``sig`` digits.

    >>> numbers_in_prose("slack 1.234567890123456e-5 at alpha=3, v=(1, -2) to >= 22.3 digits")
    'slack $1.23456789 \\\\times 10^{-5}$ at $\\\\alpha = 3$, $v = (1, -2)$ to $\\\\ge$ 22.3 digits'
    """
    import re

    def assign(m):
        name, val = m.group(1), m.group(2)
        kt = key_tex(name)
        kt = kt[1:-1] if kt.startswith("$") and kt.endswith("$") else r"\text{" + kt + "}"
        if val.startswith("("):
            vt = "(" + ", ".join(num_tex(x.strip(), sig) if is_number(x) else x.strip() for x in val[1:-1].split(",")) + ")"
        else:
            vt = num_tex(val, sig)
        return f"${kt} = {vt}$"

    def plain(p):
        p = plain_words(powers_in_prose(p))
        p = _ASSIGN.sub(assign, p)
        pieces = re.split(r"(\$[^$]*\$)", p)
        return "".join(q if q.startswith("$") and len(q) > 1 else
                       _REL_TEXT.sub(lambda m: _REL_TEX[m.group(0)], _NUM_IN_TEXT.sub(lambda m: _prose_number(m.group(1), sig), q))
                       for q in pieces)

    return map_prose(text, plain)


_ASSIGN = __import__("re").compile(
    r"(?<![\w\\$])([A-Za-z][A-Za-z0-9]*)\s?=\s?(\((?:\s*[-+]?[\d./]+(?:[eE][-+]?\d+)?\s*,)+\s*[-+]?[\d./]+(?:[eE][-+]?\d+)?\s*\)"
    r"|[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?:/\d+)?)(?![\w.])")
_REL_TEX = {"+/-": r"$\pm$", ">=": r"$\ge$", "<=": r"$\le$", "!=": r"$\ne$"}
_REL_TEXT = __import__("re").compile(r"\+/-|>=|<=|!=")


_KEY_NAMES = {"eps": r"$\varepsilon$", "epsilon": r"$\varepsilon$", "alpha": r"$\alpha$", "sigma": r"$\sigma$",
              "delta": r"$\delta$", "rho": r"$\rho$", "lam": r"$\lambda$", "lambda": r"$\lambda$", "mu": r"$\mu$",
              "xi": r"$\xi$", "beta": r"$\beta$", "tau": r"$\tau$", "gamma": r"$\gamma$", "omega": r"$\omega$"}


def key_tex(name) -> str:
    """A parameter or field name as text: Greek names as symbols, ``_`` as a space (``n`` stays ``$n$``)."""
    s = str(name)
    if s in _KEY_NAMES:
        return _KEY_NAMES[s]
    if len(s) == 1 and s.isalpha():
        return f"${s}$"
    return tex_escape(s.replace("_", " "))


def params_tex(params: dict, sig: int = 10) -> str:
    """A parameter point as math, never cut: ``\\alpha = 3,\\ \\varepsilon = 10^{-3}``."""
    out = []
    for k, v in params.items():
        kt = key_tex(k)
        kt = kt[1:-1] if kt.startswith("$") and kt.endswith("$") else r"\text{" + kt + "}"
        vt = num_tex(v, sig) if is_number(v) else (tuple_tex(v, sig) or text_in_math(value_tex(v, sig)))
        out.append(f"{kt} = {vt}")
    return ",\\ ".join(out)


def text_in_math(text: str) -> str:
    """A text value with ``$...$`` segments, for use inside mathematics: the prose as ``\\text{...}``, the segments as
    they are (a ``$`` nested in ``\\text`` inside math would be torn apart when the sentence is escaped as prose).

    >>> text_in_math(r"RR: $\\alpha = 2$, n")
    '\\\\text{RR: }\\\\alpha = 2\\\\text{, n}'
    """
    parts = _MATH_SPLIT.split(text)
    out = "".join(p[1:-1] if len(p) > 1 and p.startswith("$") and p.endswith("$") else (r"\text{" + p + "}" if p else "")
                  for p in parts)
    return out or r"\text{}"


_NARROW = None


def latex_narrow(expr) -> str:
    """LaTeX for a narrow column: a long numerator over a short denominator is printed as
    ``\\frac{1}{b} (a)``, and the result is made breakable (see :func:`breakable`)."""
    global _NARROW
    if isinstance(expr, (Tex, str)):
        return breakable(latex(expr))
    if _NARROW is None:
        _NARROW = CbdpLatexPrinter({"long_frac_ratio": 2})
    return breakable(_NARROW.doprint(sp.sympify(expr)))


_DELIMS = {r"\left(": r"\bigl(", r"\right)": r"\bigr)", r"\left[": r"\bigl[", r"\right]": r"\bigr]",
           r"\left\{": r"\bigl\{", r"\right\}": r"\bigr\}", r"\left|": r"\bigl|", r"\right|": r"\bigr|",
           r"\left\|": r"\bigl\|", r"\right\|": r"\bigr\|", r"\left.": "", r"\right.": "",
           r"\left\lvert": r"\bigl\lvert", r"\right\rvert": r"\bigr\rvert", r"\left\langle": r"\bigl\langle",
           r"\right\rangle": r"\bigr\rangle", r"\left\lfloor": r"\bigl\lfloor", r"\right\rfloor": r"\bigr\rfloor",
           r"\left\lceil": r"\bigl\lceil", r"\right\rceil": r"\bigr\rceil"}


def breakable(tex: str) -> str:
    """Inline mathematics that TeX may break inside parentheses: ``\\left( ... \\right)`` (an unbreakable
    subformula) becomes ``\\bigl( ... \\bigr)``, and braces that only wrap such a group are dropped.

    >>> breakable(r"\\log{\\left(a + b \\right)} + c")
    '\\\\log\\\\bigl(a + b \\\\bigr) + c'
    """
    import re

    # drop braces around a delimited group: {\left( ... \right)}
    out, i = [], 0
    while i < len(tex):
        if tex.startswith("{\\left", i):
            depth, j = 0, i
            while j < len(tex):
                if tex[j] == "{" and (j == 0 or tex[j - 1] != "\\"):
                    depth += 1
                elif tex[j] == "}" and tex[j - 1] != "\\":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            inner = tex[i + 1:j]
            if j < len(tex) and re.search(r"\\right(\)|\]|\\\}|\||\.|\\\||\\rvert|\\rangle|\\rfloor|\\rceil)\s*$", inner) \
                    and _balanced_left(inner):
                out.append(inner)
                i = j + 1
                continue
        out.append(tex[i])
        i += 1
    tex = "".join(out)
    for a in sorted(_DELIMS, key=len, reverse=True):
        tex = tex.replace(a, _DELIMS[a])
    return _inline_fracs(tex)


def _group(tex: str, i: int):
    """The brace group starting at ``tex[i] == "{"``: ``(content, index after it)``; a single token otherwise."""
    if i >= len(tex):
        return "", i
    if tex[i] != "{":
        if tex[i] == "\\":
            j = i + 1
            while j < len(tex) and tex[j].isalpha():
                j += 1
            return tex[i:max(j, i + 2)], max(j, i + 2)
        return tex[i], i + 1
    depth, j = 0, i
    while j < len(tex):
        if tex[j] == "{" and tex[j - 1] != "\\":
            depth += 1
        elif tex[j] == "}" and tex[j - 1] != "\\":
            depth -= 1
            if depth == 0:
                return tex[i + 1:j], j + 1
        j += 1
    return tex[i + 1:], len(tex)


_FRAC_INLINE = 22  # a fraction whose numerator and denominator are wider than this is set as (a)/(b)


def _inline_fracs(tex: str) -> str:
    """Wide ``\\frac{a}{b}`` (unbreakable) rewritten as ``(a)/(b)``, which TeX may break at its operators."""
    import re

    out, i = [], 0
    for m in re.finditer(r"\\[dt]?frac(?![a-zA-Z])", tex):
        if m.start() < i:
            continue
        a, j = _group(tex, m.end())
        b, k = _group(tex, j)
        a, b = _inline_fracs(a), _inline_fracs(b)
        out.append(tex[i:m.start()])
        if visible_width(a) + visible_width(b) > _FRAC_INLINE:
            wrap = lambda x: x if len(x) == 1 or re.fullmatch(r"\\?[A-Za-z]+|\d+", x) else r"\bigl(" + x + r"\bigr)"
            out.append(wrap(a) + "/" + wrap(b))
        else:
            out.append(r"\frac{" + a + "}{" + b + "}")
        i = k
    out.append(tex[i:])
    return "".join(out)


def text_out_of_math(tex: str) -> str:
    """Inline math whose top-level ``\\text{...}`` pieces become running text (so that lines break in them):
    returns a string of ``$...$`` mathematics and prose.

    >>> text_out_of_math(r"n'=8n^2\\ \\text{(meets every }\\alpha\\ge1/n)")
    "$n'=8n^2\\\\ $ (meets every $\\\\alpha\\\\ge1/n)$"
    >>> text_out_of_math(r"\\text{below }\\sqrt{x}\\text{, and }y")
    'below $\\\\sqrt{x}$, and $y$'
    """
    out, cur, i, depth = [], [], 0, 0
    while i < len(tex):
        if depth == 0 and tex.startswith("\\text{", i):
            body, j = _group(tex, i + 5)
            if "".join(cur).strip():
                out.append("$" + "".join(cur) + "$")
            cur = []
            words = body.strip()
            out.append(("" if words[:1] in (",", ".", ";", ":", ")") else " ") + words + " ")  # (no space before a comma)
            i = j
            continue
        ch = tex[i]
        if ch == "{" and (i == 0 or tex[i - 1] != "\\"):
            depth += 1
        elif ch == "}" and (i == 0 or tex[i - 1] != "\\"):
            depth -= 1
        cur.append(ch)
        i += 1
    if "".join(cur).strip():
        out.append("$" + "".join(cur) + "$")
    return "".join(out).strip()


def _balanced_left(inner: str) -> bool:
    """True when ``inner`` is one ``\\left ... \\right`` group (its first \\left closes at its end)."""
    import re

    depth = 0
    for m in re.finditer(r"\\left(?![a-z])|\\right(?![a-z])", inner):
        depth += 1 if m.group().startswith("\\left") else -1
        if depth == 0 and inner[m.end():].strip() and not re.fullmatch(r"\S{1,8}", inner[m.end():].strip()):
            return False
    return depth == 0


_PLAIN = {r"\alpha": "alpha", r"\varepsilon": "epsilon", r"\epsilon": "epsilon", r"\sigma": "sigma",
          r"\lambda": "lambda", r"\rho": "rho", r"\delta": "delta", r"\infty": "infinity", r"\mathrm{lin}": "lin",
          r"\mathrm": "", r"\operatorname": "", r"\log": "log", r"\Pr": "Pr", r"\le": "<=", r"\ge": ">=",
          r"\mathcal": "", r"\mathbb": "", r"\,": " ", r"\ ": " ", r"\to": "->", r"\min": "min", r"\max": "max",
          r"\{": "{", r"\}": "}", r"\cdot": "*", r"\times": "x", r"\sqrt": "sqrt", r"\frac": "frac"}


def plain_text(tex: str) -> str:
    """A LaTeX label as plain ASCII-ish text for CSV headers (``$\\alpha$`` -> ``alpha``); commas become
    semicolons so that the text stays in one CSV field.

    >>> plain_text(r"$(\\mathrm{lin}, \\alpha)$-Rényi, $\\varepsilon = 1$")
    '(lin; alpha)-Rényi; epsilon = 1'
    """
    import re

    t = str(tex)
    for a in sorted(_PLAIN, key=len, reverse=True):
        t = t.replace(a, _PLAIN[a])
    t = re.sub(r"\\([A-Za-z]+)", r"\1", t)
    t = t.replace("$", "").replace("{", "").replace("}", "").replace(",", ";")
    return re.sub(r"\s+", " ", t).strip()


def tuple_tex(text, sig: int = 10) -> str | None:
    """``"(1, -2)"`` (a vector of numbers) as math ``(1, -2)``; ``None`` when it is not one."""
    t = str(text).strip()
    if not (t.startswith("(") and t.endswith(")")):
        return None
    items = [x.strip() for x in t[1:-1].split(",") if x.strip()]
    if not items or not all(is_number(x) for x in items):
        return None
    return "(" + ",\\ ".join(num_tex(x, sig) for x in items) + ")"


_GREEK_WORDS = {"alpha": r"\alpha", "eps": r"\varepsilon", "epsilon": r"\varepsilon", "sigma": r"\sigma",
                "lambda": r"\lambda", "lam": r"\lambda", "rho": r"\rho", "delta": r"\delta", "Delta": r"\Delta",
                "mu": r"\mu", "xi": r"\xi", "beta": r"\beta", "gamma": r"\gamma", "tau": r"\tau", "pi": r"\pi"}


def _word_math(text: str) -> str:
    """A short plain-text expression as math: Greek names as symbols, ``*`` as a thin space."""
    import re

    t = re.sub(r"[A-Za-z]+", lambda m: _GREEK_WORDS.get(m.group(0), m.group(0)), text)
    return t.replace("**", "^").replace("*", r"\,")


def powers_in_prose(text: str) -> str:
    """Powers written as in Python or plain text (``u**4``, ``Q_A**((alpha - 1)/alpha)``, ``eps^2``) rewritten as
    ``$...$`` mathematics.

    >>> powers_in_prose("series u**4/24 - u**3/6 and Q_A**((alpha - 1)/alpha), eps^2/2")
    'series $u^{4}$/24 - $u^{3}$/6 and $Q_A^{(\\\\alpha - 1)/\\\\alpha}$, $\\\\varepsilon^{2}$/2'
    """
    import re

    out, i = [], 0
    pat = re.compile(r"((?<![\w.])[A-Za-z][A-Za-z0-9_]*|(?<![\w.])\d+(?:\.\d+)?[A-Za-z]*|\))(\*\*|\^)")
    while True:
        m = pat.search(text, i)
        if not m:
            out.append(text[i:])
            break
        base_start = m.start()
        base = m.group(1)
        if base == ")":  # a parenthesised base: find its opening parenthesis
            depth, k = 0, m.start()
            while k >= i:
                depth += {")": 1, "(": -1}.get(text[k], 0)
                if depth == 0:
                    break
                k -= 1
            if k < i:
                out.append(text[i:m.end()])
                i = m.end()
                continue
            base_start, base = k, text[k:m.start() + 1]
        j = m.end()
        if j < len(text) and text[j] == "(":
            depth, k = 0, j
            while k < len(text):
                depth += {"(": 1, ")": -1}.get(text[k], 0)
                if depth == 0:
                    break
                k += 1
            exp = text[j + 1:k]
            end = k + 1
        elif j < len(text) and text[j] == "{":
            k = text.find("}", j)
            exp, end = (text[j + 1:k], k + 1) if k > 0 else ("", j)
        else:
            e = re.match(r"-?[A-Za-z0-9]+(?:\.[0-9]+)?", text[j:])
            if not e:
                out.append(text[i:m.end()])
                i = m.end()
                continue
            exp, end = e.group(0), j + e.end()
        out.append(text[i:base_start])
        out.append("$" + _word_math(base) + "^{" + _word_math(exp) + "}$")
        i = end
    return "".join(out)


_PLAIN_WORDS = (
    ("SymPy could not simplify derived - claimed to 0", "the symbolic difference of derived and claimed was not reduced to 0"),
    ("SymPy could not simplify the difference", "the symbolic difference was not reduced to 0"),
    ("SymPy could not simplify", "symbolic simplification did not reduce"),
    ("derived - claimed", "derived minus claimed"),
)


def plain_words(text: str) -> str:
    """Engine wording in plain English (what a reader of the report needs, not how the tool works)."""
    for a, b in _PLAIN_WORDS:
        text = text.replace(a, b)
    return text


def _prose_number(text: str, sig: int) -> str:
    """A decimal in prose: rewritten (as ``$...$``) only when it needs it -- an exponent, a whole number written
    with ``.0``, or more than ``sig`` significant digits; a short decimal such as a section number ``8.10`` or
    ``0.25`` stays as written."""
    t = text.lstrip("+-")
    mant = t.split("e")[0].split("E")[0]
    digits = len(mant.replace(".", "").lstrip("0"))
    if "e" in t.lower() or mant.endswith(".0") or digits > sig:
        return "$" + num_tex(text, sig) + "$"
    return text
