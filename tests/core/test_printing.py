"""Tests of :mod:`cbdp_sym.core.printing`: the one LaTeX printer, numbers and values of reports, prose escaping."""
import pytest
import sympy as sp

from cbdp_sym.core.printing import is_number, latex, note_tex, num_tex, plain_text, tex_escape, tuple_tex, value_tex


def test_every_special_character_of_prose_is_escaped():
    specials = "\\&%$#_{}~^<>|"
    out = tex_escape(specials)
    for ch in "&%$#_{}":
        assert "\\" + ch in out
    for word in ("textbackslash", "textasciitilde", "textasciicircum", "textless", "textgreater", "textbar"):
        assert "\\" + word + "{}" in out
    assert tex_escape("plain words 123") == "plain words 123"


def test_notes_keep_their_mathematics_and_escape_the_rest():
    assert note_tex("a_b $x_1$ 5%") == r"a\_b $x_1$ 5\%"
    assert note_tex("no math") == "no math"


@pytest.mark.parametrize("value,tex", [("0.5", "0.5"), ("1e6", "1000000"), ("1.5e-7", r"1.5 \times 10^{-7}"),
                                       ("-inf", r"-\infty"), ("3/4", "3/4"), ("nan", r"\mathrm{NaN}"), ("0", "0"),
                                       ("1e-3", "0.001"), ("2.000", "2")])
def test_numbers_in_math(value, tex):
    assert num_tex(value) == tex


def test_values_of_reports_have_no_python_representation():
    assert value_tex(None) == "--" and value_tex(True) == "yes" and value_tex(False) == "no"
    assert value_tex([1, "2.50"]) == "$1$, $2.5$"
    assert value_tex({"eps": "0.5"}) == r"$\varepsilon$ $=$ $0.5$"
    assert tuple_tex("(1, -2)") == r"(1,\ -2)"
    assert tuple_tex("(a, 1)") is None and tuple_tex("1") is None
    assert is_number("1e-5") and is_number("7/2") and not is_number("x1")


def test_symbols_print_with_the_papers_names():
    eps = sp.Symbol("epsilon", positive=True)
    assert latex(eps**2) == r"\varepsilon^{2}"
    assert r"\log" in latex(sp.log(sp.Symbol("x")))


def test_plain_text_for_csv_headers():
    assert plain_text(r"$\sigma = 2$, $\alpha$") == "sigma = 2; alpha"


def test_printer_memo_keeps_precision_and_assumptions_apart():
    import sympy as sp

    from cbdp_sym.core import printing

    printing._print_memo.cache_clear()
    short, long_ = sp.Float(1, 15) / 3, sp.Float(1, 40) / 3
    assert printing.latex(short) != printing.latex(long_)  # equal values, different precision: two entries
    x, xp = sp.Symbol("x"), sp.Symbol("x", positive=True)
    assert printing.latex(sp.Abs(x)) != printing.latex(sp.Abs(xp))  # |x| and x: assumptions are in the key
    before = printing._print_memo.cache_info().hits
    assert printing.latex(sp.Float(1, 40) / 3) == printing.latex(long_)
    assert printing._print_memo.cache_info().hits > before
    assert printing.latex([1, 2]) == sp.latex([1, 2])  # unhashable: printed without the memo
