"""Messages as data (report/text.py): parts of the ``$...$`` convention, Python literals and ASCII mathematics
recognised in prose, and the plain-text renderer the terminal uses."""
import re

import pytest
from hypothesis import given, strategies as st

from cbdp_sym.report.text import ascii_calls, literal_text, math_text, parse_literal, parts, plain


def kinds(message):
    return [(p.kind, p.text or p.name) for p in parts(message)]


def test_math_spans_pass_through_and_text_stays_text():
    assert kinds(r"fails at $\frac{a}{b}$ here") == [("text", "fails at "), ("math", r"\frac{a}{b}"), ("text", " here")]
    assert kinds("a price of \\$5 and more") == [("text", "a price of $5 and more")]  # an escaped dollar is prose
    assert kinds("an unclosed $x") == [("text", "an unclosed $x")]


@pytest.mark.parametrize("text, expected", [
    ("v=(1,)", "v = (1)"),  # a 1-tuple, never "(1,)"
    ("at v=(1, -2), eps=1/2", "at v = (1, -2), ε = 1/2"),
    ("M(0,)={0: 190/797, 1: 147/797}", "M(0) = {0 ↦ 190/797, 1 ↦ 147/797}"),
    ("P=['0.500046', '0.499954']", "P = (0.500046, 0.499954)"),
    ("e.g. {'d': 2, 'v': '(1, 1)'}", "e.g. d = 2, v = (1, 1)"),
    ("instance (1,) and [6] and (2)", "instance (1) and [6] and (2)"),  # a citation and a number stay prose
    ("mpf('0.25') done", "0.25 done"),
])
def test_python_literals_become_mathematics(text, expected):
    assert plain(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("alpha ~ 3.3", "α ∼ 3.3"),
    ("eps >= 1e-7 and x != y", "ε ≥ 10⁻⁷ and x ≠ y"),
    ("D_alpha -> D_oo", "D_α → D_∞"),
    ("||v||_2 <= ||v||_1", "‖v‖₂ ≤ ‖v‖₁"),
    ("(eps, delta)-DP", "(ε, δ)-DP"),
    ("O(sqrt(xi + 2 rho))", "O(√(ξ + 2 ρ))"),
    ("threshold sqrt(log(T/beta)/rho)", "threshold √(log(T/β)/ρ)"),
    ("2 sqrt 2 and E|Z|^gamma", "2 √2 and E|Z|^γ"),
    ("series u**4/24 - eps^2", "series u⁴/24 - ε²"),
    ("slack 1.234567890123456e-5", "slack 1.23456789 × 10⁻⁵"),
    ("count 218.0 at Sec. 8.10", "count 218 at Sec. 8.10"),  # a whole number without .0; a section number kept
    ("exact eps(delta) at delta(0)", "exact ε(δ) at δ(0)"),
    ("delta_exact(eps) <= 1", "δ_exact(ε) ≤ 1"),
    ("Markov (e^eps/beta)^(alpha-1), sum|a_i|^A", "Markov (e^ε/β)^(α -1), sum|aᵢ|^A"),
    ("E|Y~|^A with Y = Y~/eps", "E|Y\u0303|^A with Y = Y\u0303/ε"),  # Y and a combining tilde
    ("the mechanism M~ and alpha ~ 3.3 (~0.01)", "the mechanism M\u0303 and α ∼ 3.3 (∼ 0.01)"),
])
def test_ascii_mathematics_in_prose(text, expected):
    assert plain(text) == expected


def test_words_that_are_not_mathematics_stay():
    for text in ("the alphabet of relative_slack and dp_accounting", "log of the data", "Sec. 5, Fig. 1b",
                 "see [10, Prop. 3.3]", "the RR_p mechanism"):
        assert plain(text) == text, text


def test_quotes_open_and_close():
    ps = parts('the "for all sigma" claim and \'its\' reader\'s note')
    text = "".join(p.text if p.kind == "text" else "M" for p in ps)
    assert text == "the “for all M” claim and ‘its’ reader’s note"


def test_math_text_reads_like_mathematics():
    assert math_text(r"\frac{a+b}{2}") == "(a+b)/2"  # pylatexenc's latex2text prints "a+b/2"
    assert math_text(r"\tfrac12 \binom{n}{k}") == "1/2 C(n, k)"
    assert math_text(r"\sqrt{x} + \sqrt[3]{y} + \sqrt{x+1}") == "√x + ∛y + √(x+1)"
    assert math_text(r"\left( \frac{1}{\sigma^{2}} \right) \| x \|") == "(1/σ²) ‖ x ‖"
    assert math_text(r"e^{-\varepsilon} \cdot 10^{-5}") == "e^(-ε) · 10⁻⁵"
    assert math_text(r"\operatorname{Lap}(0, 1/\varepsilon) \in \mathbb{R}") == "Lap(0, 1/ε) ∈ ℝ"
    assert math_text(r"x \le y", ascii=True) == "x <= y"
    assert math_text(r"\alpha^{2} \ge \infty", ascii=True) == "alpha^2 >= inf"
    assert math_text(r"\text{if } x > 0") == "if x > 0"


def test_literals_parse_and_refuse_prose():
    assert parse_literal("(1,)")[0] == ("seq", [("num", "1")])
    assert parse_literal("['0.5', 'x']")[0] == ("seq", [("num", "0.5"), ("str", "x")])
    for prose in ("(see below)", "[6, Thm. 2]", "{a b}", "(1, 2"):
        assert parse_literal(prose) is None, prose
    assert literal_text(("map", [(("num", "0"), ("num", "1/2"))]), ascii=True) == "{0 -> 1/2}"


def test_ascii_calls_keep_prose():
    assert ascii_calls("the log of x and exp(our plan)") == "the log of x and exp(our plan)"
    assert ascii_calls("min(2, e^eps' - 1)") == r"$\min(2, e^{\varepsilon '} - 1)$"  # no double superscript


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2200), max_size=60))
def test_any_message_renders_and_math_parts_balance(text):
    out = plain(text)
    assert isinstance(out, str)
    for p in parts(text):
        if p.kind == "math":
            depth = 0
            for i, ch in enumerate(p.text):
                if ch in "{}" and (i == 0 or p.text[i - 1] != "\\"):
                    depth += 1 if ch == "{" else -1
            # braces the parser added are balanced; a user's own unbalanced span stays as given
            assert depth == 0 or p.text.count("{") != p.text.count("}") or re.search(r"\\[{}]", p.text)


def test_internal_references_do_not_reach_a_reader():
    assert plain("An extra ID (issue 16): adapters in cbdp_sym.divergences.peers.") == (
        "An extra ID: adapters in cbdp-sym’s divergences.peers.")  # an apostrophe
    assert plain("the tissue 16 cells") == "the tissue 16 cells"
