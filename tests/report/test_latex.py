"""Reports: escaping, reproducibility, and a compiled PDF without overfull boxes."""
import shutil

import pytest

from cbdp_sym.app.audit import run, write_reports
from cbdp_sym.report.latex import latexmk_available, prose as note_tex, tex_escape

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
    from cbdp_sym.report.latex import prose as note_tex

    reg = Registry()
    bad = [(k, c) for k, p in reg.papers.items() for c in p.meta.get("conventions", [])
           if "textbackslash" in note_tex(c)]
    for claim in reg.claims():
        texts = [claim.label, claim.notes or "", *claim.conventions]
        bad += [(claim.id, t) for t in texts if isinstance(t, str) and "textbackslash" in note_tex(t)]
    assert not bad
    assert "textbackslash" in note_tex(r"R\'enyi")  # the check can fail


# -- messages as LaTeX ------------------------------------------------------------------------------------------
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import mpmath as mp
from hypothesis import given, strategies as st

from cbdp_sym.report.latex import (_env, cite_label, cite_text, column_widths, group_figures, more_breaks, params_latex,
                                   prose, short_message, value_latex, zoom_view)

from ..conftest import LATEX, ROOT


def _outside_math(tex: str) -> str:
    return re.sub(r"(?<!\\)\$[^$]*(?<!\\)\$", " ", tex)


def unescaped(tex: str) -> list[str]:
    """Special characters that reach LaTeX's text mode unescaped (what would print wrong or stop LaTeX)."""
    text = _outside_math(tex)
    text = re.sub(r"\\(?:textasciitilde|textasciicircum|textbackslash|dots|nobreakspace)\{\}|\\[&%$#_{}]|``|''", " ", text)
    return re.findall(r"[#%&_^~\\{}$]|\"", text)


def test_unescaped_can_fail():
    assert unescaped("50% a_b & #1 ~ x^2 \\ {y} \"q\"") == ["%", "_", "&", "#", "~", "^", "\\", "{", "}", '"', '"']
    assert unescaped(r"50\% a\_b \& $x^2_{1}$ ``q''") == []


def test_prose_escapes_text_and_keeps_mathematics():
    out = prose('50% of a_b & #1 ~ c^ \\ {d} "quoted" and \'single\' ... $\\frac{x_1}{2}$')
    assert unescaped(out) == []
    assert "``quoted''" in out and "`single'" in out and r"\dots{}" in out and r"$\frac{x_1}{2}$" in out


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2200, blacklist_characters="$"), max_size=80))
def test_any_prose_reaches_latex_escaped(text):
    assert unescaped(prose(text)) == []


@pytest.mark.parametrize("value, expected", [
    ("(1,)", "$(1)$"), ((1,), "$(1)$"), ([0.5, "0.25"], r"$(0.5,\allowbreak\ 0.25)$"), (None, "--"), (True, "yes"),
    ("['0.500046', '0.499954']", r"$(0.500046,\allowbreak\ 0.499954)$"), ("1,1", r"$(1,\allowbreak\ 1)$"),
    ({"d": 2, "v": "(1, 1)"}, r"$d = 2$; $v = (1,\allowbreak\ 1)$"), ("0.619123629998592883399788", "$0.61912363$"),
    ("'a quoted phrase'", "`a quoted phrase'"),
])
def test_values_never_print_a_python_representation(value, expected):
    assert value_latex(value) == expected


def test_parameters_are_separate_pieces_of_mathematics():
    out = params_latex({"alpha": "3", "v": "(1,)", "at": "P=(0.5, 0.5), rho=2", "family": "fin-alpha3/2"})
    assert out == r"$\alpha = 3$, $v = (1)$, at: $P = (0.5,\allowbreak\ 0.5)$, $\rho = 2$, family: fin-alpha3/2"
    assert r"\text{" not in out  # a long value in \text{} inside one formula cannot break: 487 overfull boxes


def test_messages_are_cut_at_sentences_not_abbreviations():
    msg = "Through Lemma 1 and Prop. 10 the best bound is tighter. " + "Then x " * 100
    cut, was_cut = short_message(msg, 100)
    assert was_cut and cut == "Through Lemma 1 and Prop. 10 the best bound is tighter"
    assert short_message("see Thm. 4 " + "y " * 300, 100) == ("see Thm. 4 " + "y " * 300, False)


def test_audited_papers_own_citations_read_as_text():
    assert cite_label({"bib": {"fields": {"author": "Mironov, Ilya", "year": "2017"}}}) == "Mir17"
    assert cite_label({"bib": {"fields": {"author": "Chaudhuri, K. and Imola, J. and Machanavajjhala, A.",
                                          "year": "2019"}}}) == "CIM19"
    assert cite_text("composition [6], [10, Prop. 3.3], [Coo09]; the interval [1, 2]", "Mir17") == (
        "composition [Mir17, ref.\u00a06], [Mir17, ref.\u00a010, Prop. 3.3], [Mir17, ref.\u00a0Coo09]; the interval [1, 2]")


def test_wide_mathematics_gets_break_points():
    out = more_breaks(r"\bigl(a\bigr)\bigl(b\bigr)/c")
    assert r"\bigr)\*\bigl(b" in out and r"/\allowbreak" in out
    assert more_breaks(r"\bigl(a\bigr)^{2} + b") == r"\bigl(a\bigr)^{2} + b"  # no break before an exponent


def test_columns_are_sized_by_content_and_keep_numbers_whole():
    fr = column_widths(["member", "value", "holds"],
                       [["a long justification of the step with many words " * 2, "$0.00248263949381$", "yes"]])
    assert abs(sum(fr) - 1) < 1e-9 and fr[0] > 0.5
    assert fr[1] >= (len("0.00248263949381") + 3) / 80 - 0.001  # the number fits its column


# -- the style file is a good guest --------------------------------------------------------------------------
def guest_problems(sty: str) -> list[str]:
    """What a style file does to its host beyond its own names: column types, global settings, foreign names."""
    body = "\n".join(line.split("%")[0] for line in sty.splitlines())
    problems = []
    if re.search(r"\\newcolumntype", body):
        problems.append("defines a column type")
    depth, top = 0, []
    for line in body.splitlines():  # commands run at the top level of the file (not inside a definition)
        if depth == 0:
            top.append(line)
        depth += line.count("{") - line.count("}")
    top = "\n".join(top)
    for setting in (r"\\pgfplotsset\{compat", r"\\allowdisplaybreaks", r"\\setlength\{\\(?:emergencystretch|tabcolsep)"):
        if re.search(r"^\s*" + setting, top, re.M):
            problems.append(f"sets {setting} for the whole document")
    for name in re.findall(r"\\(?:newcommand|providecommand|newlength|newcounter|def)\s*\{?\\([A-Za-z@]+)", top):
        if not name.startswith(("cbdpsym", "cbdpsym@")):
            problems.append(f"defines \\{name}")
    return problems


def test_style_file_is_a_good_guest():
    sty = (ROOT / "cbdp_sym" / "report" / "templates" / "cbdpsym.sty").read_text()
    assert guest_problems(sty) == []
    assert r"\crefname{cbdpsymclaim}" in sty and r"\texorpdfstring" in sty


def test_guest_check_can_fail():
    old = ("\\pgfplotsset{compat=1.16}\n\\allowdisplaybreaks\n"
           "\\newcolumntype{L}[1]{>{\\raggedright\\arraybackslash}p{#1\\linewidth}}\n\\newcommand\\eps{x}\n")
    assert len(guest_problems(old)) == 4


# -- figures -------------------------------------------------------------------------------------------------
class FakeFigure:
    """A figure with given data (what :class:`cbdp_sym.verify.figures.Figure` offers the report)."""

    def __init__(self, data, labels, **kw):
        self._data = {k: [(x, mp.mpf(y)) for x, y in pts] for k, pts in data.items()}
        self.curves = [SimpleNamespace(key=k, label=labels[k], kind=kw.pop(f"kind_{k}", "computed"), style="")
                       for k in data]
        self.id, self.paper, self.title, self.caption = kw.get("id", "T-FIG"), "t", kw.get("title", "Figure 1b"), "Curves."
        self.xlabel, self.ylabel, self.where = r"$\alpha$", "value", kw.get("where", "Sec. 5, Fig. 1b")
        self.axis, self.extra_tex, self.panels = kw.get("axis", ""), "", {}
        self.shade_below = kw.get("shade_below", ())

    def data(self, compute=True):
        return self._data

    def curve(self, key):
        return next(c for c in self.curves if c.key == key)


def _view(fig):
    from cbdp_sym.report.latex import _figure_view

    return _figure_view(fig, "pre")


def test_a_small_rise_gets_a_zoom_strip_and_a_steep_panel_does_not():
    xs = ["20", "50", "100", "200", "500", "1000"]
    flat = FakeFigure({"p1": list(zip(xs, [0.3889, 0.3851, 0.3838, 0.3831, 0.3828, 0.3826])),
                       "p2": list(zip(xs, [0.7104, 0.7170, 0.7189, 0.7198, 0.7203, 0.7205]))},
                      {"p1": "(poly$_1$,Rényi)", "p2": "(poly$_2$,Rényi)"})
    v = _view(flat)
    assert v["zoom"] and len(v["zoom"]["curves"]) == 2 and "change" in v["zoom"]["note"]
    steep = FakeFigure({"p1": list(zip(xs, [0.1, 0.2, 0.4, 0.8, 1.6, 3.2])), "p2": list(zip(xs, [1, 1.01, 1, 1.01, 1, 1]))},
                       {"p1": "a", "p2": "b"})
    assert _view(steep)["zoom"] is None


def test_two_close_crossing_bounds_get_a_ratio_strip():
    ns = ["1", "50", "100", "150", "200", "250"]
    fig = FakeFigure({"naive": list(zip(ns, [1.04, 7.4, 54.6, 403, 2984, 22055])),
                      "adv": list(zip(ns, [1.17, 2.59, 3.63, 4.64, 5.64, 6.65])),
                      "prop4": list(zip(ns, [1.13, 2.36, 3.37, 4.42, 5.57, 6.82]))},
                     {"naive": "naive", "adv": "advanced", "prop4": "Prop. 4"}, axis="ymode=log")
    z = _view(fig)["zoom"]
    assert z and z["ylabel"] == "ratio" and "``advanced'' to ``Prop. 4''" in z["note"]


def test_captions_take_the_hosts_number_and_explain_the_figure():
    xs = ["0.001", "0.01", "0.1", "1"]
    fig = FakeFigure({"printed": list(zip(xs, [2e-9, 2e-6, 0.002, 0.8])), "exact": list(zip(xs, [7.5e-7, 7.5e-5, 0.0074, 0.41])),
                      "corrected": list(zip(xs, [0.693, 0.693, 0.694, 1.04]))},
                     {"printed": "printed bound (as printed)", "exact": "exact value", "corrected": "corrected bound"},
                     kind_printed="printed", title="Figure 2 (regenerated): Laplace", shade_below=("printed", "exact"),
                     axis="xmode=log, ymode=log, legend pos=north west")
    groups = group_figures([_view(fig)])
    tex = _env().get_template("figure.tex.j2").render(g=groups[0], prefix="pre", paper={"cite": "key17"})
    caption = tex[tex.index(r"\caption{"):]
    assert caption.startswith(r"\caption{Sec. 5, Fig. 1b of \cite{key17}, regenerated: Laplace.")  # never "Figure 2: Figure 1b"
    legend = [ln for ln in tex.splitlines() if ln.startswith(r"\addlegendentry") and "printed bound" in ln]
    assert "(as printed) (as printed)" not in tex and len(legend) == 1 and legend[0].count("(as printed)") == 1
    assert "Shaded:" in caption and r"9.2 \times 10^{5}$ times above" in caption
    assert "legend pos" not in tex and r"legend to name=pre-legend-T-FIG" in tex
    assert r"\pgfplotslegendfromname{pre-legend-T-FIG}" in tex  # the legend under the axes, never over the data


# -- compiled: supplements and host documents (TeX) ------------------------------------------------------------
# claims whose supplements held the widest boxes (486 over 5pt before): parameter points with long instance
# descriptions (RDP-POST, RDP-P1, RDP-T1-2), Python literals and lists of quoted numbers (ZCDP-L3.6, -OPT3, CBDP-T6),
# a table of statements and a dict (CBDP-A-DDIM), a refuted bound at v = (1,) (CBDP-C1), a six-panel figure
# with a ratio strip (RDP-FIG2-B); about 15 CPU-seconds at 20 digits
REPRESENTATIVE = ["CBDP-A-DDIM", "CBDP-T6", "CBDP-C1", "RDP-POST", "RDP-P1", "RDP-T1-2", "RDP-FIG2-B", "ZCDP-L3.6",
                  "ZCDP-L3.6-OPT3"]
# host documents (tests/latex/*.tex) and the class or package each needs beyond texlive-latex-recommended
HOSTS = {"ieeetran-appendix": "IEEEtran.cls", "ieeetran-appendices": "IEEEtran.cls", "llncs": "llncs.cls",
         "neurips": None, "acmart": "acmart.cls", "crowded": "cleveref.sty"}


def need_tex():
    if not latexmk_available():
        if tex_required():
            pytest.fail("CI=true but latexmk/pdflatex is missing")
        pytest.skip("latexmk not installed")


@pytest.fixture(scope="module")
def representative(registry):
    ids = [i for i in REPRESENTATIVE if i in {c.id for c in registry.claims()}]
    return once(("report-representative", tuple(ids)), lambda: run([registry.get(i) for i in ids], dps=20, jobs=2))


def _overfull(log: str, limit: float = 5.0) -> list[float]:
    return [float(w) for w in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide", log) if float(w) > limit]


@pytest.mark.slow
@pytest.mark.acceptance
@pytest.mark.tex
def test_supplements_of_a_representative_subset_have_no_overfull_boxes(registry, representative, tmp_path):
    """The supplements are held to the appendices' standard: no overfull box over 5pt (there were 487 in a full
    audit, from parameter points set as one unbreakable formula and fixed-width tables)."""
    need_tex()
    _, problems = write_reports(registry, representative, 20, tmp_path, None, pdf=True)
    assert problems == [], problems
    for key in ("cbdp", "rdp", "zcdp"):
        stamp = json.loads((tmp_path / f".supplement-{key}.pdf.sources.json").read_text())
        assert [w for w in stamp["overfull"] if w > 5] == [], key


def _compile_host(folder: Path, host: str, key: str, claim: str):
    tex = folder / f"host-{host}-{key}.tex"
    tex.write_text((LATEX / f"{host}.tex").read_text().replace("BODY", f"appendix-{key}-body")
                   .replace("{BIB}", f"{{cbdpsym-{key}}}").replace("CLAIM", claim))
    out = subprocess.run(["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=folder,
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"})
    log = tex.with_suffix(".log").read_text(errors="replace") if tex.with_suffix(".log").exists() else out.stdout
    text = subprocess.run(["pdftotext", str(tex.with_suffix(".pdf")), "-"], capture_output=True, text=True).stdout \
        if tex.with_suffix(".pdf").exists() and shutil.which("pdftotext") else ""
    return out.returncode, log, text


@pytest.mark.slow
@pytest.mark.acceptance
@pytest.mark.tex
def test_appendix_bodies_paste_into_real_host_documents(registry, representative, tmp_path):
    """Each paper's appendix body in the real IEEEtran (with \\appendix and with \\appendices), llncs, acmart, a
    NeurIPS-width article and a crowded article (hyperref, amsthm, cleveref, natbib, its own \\eps, \\E, \\R and
    L/R column types): no error, no overfull box over 5pt, no hyperref PDF-string warning; \\cref on a claim
    prints ``claim <ID>''; IEEEtran's one-appendix mode keeps the body's title."""
    need_tex()
    hosts = []
    for host, needs in HOSTS.items():
        found = needs is None or subprocess.run(["kpsewhich", needs], capture_output=True, text=True).stdout.strip()
        if not found and tex_required():
            pytest.fail(f"CI=true but {needs} is missing (texlive-publishers, texlive-latex-extra)")
        if found:
            hosts.append(host)
    if not hosts:
        pytest.skip("no host class installed")
    write_reports(registry, representative, 20, tmp_path, None, pdf=False)
    claims = {key: re.search(r"\{cbdpsym:claim:([^}]+)\}", (tmp_path / f"appendix-{key}-body.tex").read_text()).group(1)
              for key in ("cbdp", "rdp", "zcdp")}
    jobs = [(h, k) for h in hosts for k in claims]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip(jobs, pool.map(lambda hk: _compile_host(tmp_path, hk[0], hk[1], "cbdpsym:claim:" + claims[hk[1]]),
                                          jobs)))
    bad = {}
    for (host, key), (code, log, text) in results.items():
        errors = re.findall(r"^! .*", log, re.M)
        why = []
        if code != 0 or errors:
            why.append(f"LaTeX failed: {errors[:2]}")
        if _overfull(log):
            why.append(f"overfull {_overfull(log)}")
        if "Token not allowed in a PDF string" in log:
            why.append("hyperref PDF-string warning")
        if not shutil.which("pdftotext"):
            pass
        elif host == "crowded" and f"claim {claims[key]}" not in text.replace("\n", " "):
            why.append("\\cref did not print 'claim <ID>'")
        if host == "ieeetran-appendix" and "audit of" not in text.lower().replace("\n", " "):
            why.append("the body's title was dropped")
        if why:
            bad[(host, key)] = why
    assert not bad, bad
