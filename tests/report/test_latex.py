"""Reports: escaping, reproducibility, and a compiled PDF without overfull boxes."""
import shutil

import pytest

from cbdp_sym.app.audit import run, write_reports
from cbdp_sym.report.latex import latexmk_available, note_tex, tex_escape

from ..conftest import once, tex_required


# one pytest-xdist worker runs this module: kl_results is computed once (module fixture)
pytestmark = pytest.mark.xdist_group("report")


def test_escaping():
    assert tex_escape("a_b & 50% {x} |y|") == r"a\_b \& 50\% \{x\} \textbar{}y\textbar{}"
    assert note_tex("at $x_1$ & more") == r"at $x_1$ \& more"


@pytest.fixture(scope="module")
def kl_results(registry):
    ids = ["CBDP-D2", "CBDP-EQ1-KL", "CBDP-EQ1-TV", "CBDP-EQ1-ALPHA", "CBDP-T8", "CBDP-T9", "CBDP-TAB1-KL-GAU-UNR"]
    return once(("kl-results", tuple(ids)), lambda: run([registry.get(i) for i in ids], dps=20, jobs=1))


def test_reports_are_byte_identical(registry, kl_results, tmp_path):
    write_reports(registry, kl_results, 20, tmp_path / "a", None, pdf=False)
    write_reports(registry, kl_results, 20, tmp_path / "b", None, pdf=False)
    again = run([r.claim for r in kl_results], dps=20, jobs=2)
    write_reports(registry, again, 20, tmp_path / "c", None, pdf=False)
    for name in ("audit.json", "appendix-cbdp.tex", "appendix-cbdp-body.tex", "supplement-cbdp.tex",
                 "supplement-cbdp-body.tex", "cbdpsym.sty", "cbdpsym-cbdp.bib"):
        a = (tmp_path / "a" / name).read_bytes()
        assert a == (tmp_path / "b" / name).read_bytes() == (tmp_path / "c" / name).read_bytes()
        assert b"/tmp" not in a and str(tmp_path).encode() not in a


def test_fragment_lists_packages_and_provenance(registry, kl_results, tmp_path):
    write_reports(registry, kl_results, 20, tmp_path, None, pdf=False)
    body = (tmp_path / "appendix-cbdp-body.tex").read_text()
    assert "% Requires" in body and "cbdpsym" in body
    supp = (tmp_path / "supplement-cbdp-body.tex").read_text()
    assert "% Requires" in supp and r"\begin{align*}" in supp
    assert "sympy" in supp and "commit" in supp and r"\varepsilon" in supp
    assert "Paper mapping" in supp


@pytest.mark.tex
def test_pdf_compiles_without_overfull_boxes(registry, kl_results, tmp_path):
    if not latexmk_available():
        if tex_required():
            pytest.fail("CI=true but latexmk/pdflatex is missing")
        pytest.skip("latexmk not installed")
    written, problems = write_reports(registry, kl_results, 20, tmp_path, None, pdf=True)
    assert (tmp_path / "appendix-cbdp.pdf").exists(), problems
    assert problems == []
    if shutil.which("pdftotext"):
        import subprocess

        text = subprocess.run(["pdftotext", str(tmp_path / "appendix-cbdp.pdf"), "-"], capture_output=True, text=True).stdout
        assert "CBDP-T9" in text


def test_prose_of_builtin_papers_has_no_escaped_latex():
    """Conventions, labels and notes are prose with $...$ mathematics: a backslash outside $...$ would be
    printed literally (as happened with R\\'enyi in a convention)."""
    from cbdp_sym.app.registry import Registry
    from cbdp_sym.report.latex import note_tex

    reg = Registry()
    bad = [(k, c) for k, p in reg.papers.items() for c in p.meta.get("conventions", [])
           if "textbackslash" in note_tex(c)]
    for claim in reg.claims():
        texts = [claim.label, claim.notes or "", *claim.conventions]
        bad += [(claim.id, t) for t in texts if isinstance(t, str) and "textbackslash" in note_tex(t)]
    assert not bad
    assert "textbackslash" in note_tex(r"R\'enyi")  # the check can fail
