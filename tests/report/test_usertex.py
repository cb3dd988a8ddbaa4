"""Tests of :mod:`cbdp_sym.report.usertex`: user LaTeX let into a report by allow-list."""
import pytest

from cbdp_sym.report.latexbuild import _FIELDS, _PROSE_FIELDS, check_claim_latex, check_figure_latex, check_paper_latex
from cbdp_sym.report.usertex import ENVIRONMENTS, MACROS, problem


@pytest.mark.parametrize("text", [
    r"D_\alpha(P \| Q) \le \frac{\alpha}{2\sigma^2}",
    r"\begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}",
    r"\left(\tfrac{1}{2}\right)^{\!2} \quad \mathrm{KL}^{\mathrm{lin}}",
    r"\epsilon'<(1+\sqrt2)\log(1/\delta);\ \delta<1\%",
    r"\text{Murtagh--Vadhan: \#P-hard}",
    "R\\'enyi",
])
def test_ordinary_mathematics_passes(text):
    assert problem(text) is None


@pytest.mark.parametrize("text,why", [
    (r"\pdfcatalog{/OpenAction << /S /JavaScript >>}", r"\pdfcatalog is not an allowed macro"),
    (r"\pdfannot{/Subtype /Launch}", r"\pdfannot is not an allowed macro"),
    (r"x \end{aligned}\enddocument", r"\end{aligned} closes an environment it did not open"),
    (r"x \enddocument", r"\enddocument is not an allowed macro"),
    (r"\stop", r"\stop is not an allowed macro"),
    (r"\begin{input}{x}\end{input}", r"\begin{input}: input is not an allowed environment"),
    (r"\@@input x", r"\@@input is not an allowed macro"),
    (r"\loop\repeat", r"\loop is not an allowed macro"),
    (r"\csname input\endcsname", r"\csname is not an allowed macro"),
    (r"\begin{aligned} x", r"\begin{aligned} without its \end"),
    (r"x }", "a closing brace without its opening brace"),
    (r"{x", "an opening brace without its closing brace"),
    (r"$x", "an unmatched $"),
    ("50% off", "an unescaped % (a comment would swallow the rest of the line)"),
    ("#1", "an unescaped # (a macro parameter)"),
    ("^^5cinput", "^^ character codes (they can spell any command)"),
    ("x \\", "a lone backslash at the end"),
    ("red \x1b[31m", "the control character U+001B (an escape sequence, not text)"),
    (r"\begin x", r"\begin without an environment name"),
    (r"\ü", "the control symbol \\ü is not allowed"),
])
def test_everything_else_is_refused_with_the_reason(text, why):
    assert problem(text) == why


def test_prose_checks_its_mathematics_and_its_characters():
    assert problem(r"50% of \input{x} is escaped prose", prose=True) is None  # (escaped when printed)
    assert problem(r"see $\input{x}$", prose=True) == r"\input is not an allowed macro"
    assert problem("a \x07 bell", prose=True).startswith("the control character")


def test_the_lists_hold_no_command_that_reads_writes_or_redefines():
    dangerous = {"input", "include", "write", "read", "openin", "openout", "immediate", "def", "let", "csname",
                 "catcode", "special", "directlua", "pdfobj", "pdfcatalog", "pdfannot", "loop", "stop", "end",
                 "begin", "enddocument", "newcommand", "renewcommand", "expandafter", "scantokens", "everypar",
                 "output", "shipout", "href", "url", "includegraphics", "usepackage"}
    assert not dangerous & MACROS
    assert "document" not in ENVIRONMENTS and "verbatim" not in ENVIRONMENTS


def test_every_text_of_the_built_in_papers_passes(registry):
    """Every statement, label, note, figure and paper metadata of the three built-in papers passes the allow-list."""
    n = 0
    for paper in registry.papers.values():
        check_paper_latex(paper.key, paper.meta)
        for fig in paper.figures:
            check_figure_latex(fig)
        for claim in paper.claims:
            check_claim_latex(claim)
            for fig in claim.figures:
                check_figure_latex(fig)
            n += sum(1 for f in _FIELDS + _PROSE_FIELDS if getattr(claim, f, ""))
    assert n > 1000
