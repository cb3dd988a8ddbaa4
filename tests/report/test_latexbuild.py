"""Tests of :mod:`cbdp_sym.report.latexbuild`."""
import pytest

import cbdp_sym.report.latexbuild as latexbuild


def test_pdf_is_rebuilt_only_when_its_sources_change(tmp_path, monkeypatch):
    builds = []

    def fake_build(tex, epoch=None, timeout=None):
        builds.append(tex.name)
        tex.with_suffix(".pdf").write_bytes(b"%PDF fake " + tex.read_bytes())
        return True, [3.5], "log"

    monkeypatch.setattr(latexbuild, "build_pdf", fake_build)
    (tmp_path / "cbdpsym.sty").write_text("% style\n")
    (tmp_path / "doc-body.tex").write_text("body\n")
    (tmp_path / "other.tex").write_text("another document\n")
    tex = tmp_path / "doc.tex"
    tex.write_text("\\usepackage{cbdpsym}\n\\input{doc-body}\n")
    assert latexbuild.build_pdf_if_changed(tex, "0") == (True, [3.5], "log", True)
    assert latexbuild.build_pdf_if_changed(tex, "0") == (True, [3.5], "", False)  # same overfull boxes reported
    (tmp_path / "other.tex").write_text("changed, not read by doc.tex\n")
    assert latexbuild.build_pdf_if_changed(tex, "0")[3] is False
    for edit in ("cbdpsym.sty", "doc-body.tex", "doc.tex"):
        (tmp_path / edit).write_text((tmp_path / edit).read_text() + "% edited\n")
        assert latexbuild.build_pdf_if_changed(tex, "0")[3] is True
        assert latexbuild.build_pdf_if_changed(tex, "0")[3] is False
    assert latexbuild.build_pdf_if_changed(tex, "1")[3] is True  # another source date
    tex.with_suffix(".pdf").write_bytes(b"damaged")
    assert latexbuild.build_pdf_if_changed(tex, "1")[3] is True  # a PDF the build did not write
    tex.with_suffix(".pdf").unlink()
    assert latexbuild.build_pdf_if_changed(tex, "1")[3] is True
    assert len(builds) == 7


@pytest.mark.parametrize("text,why", [
    (r"D_\alpha(P \| Q) \le \frac{\alpha}{2}", None),
    (r"x \input{/etc/passwd}", "\\input is not an allowed macro"),
    (r"x \write18{rm -rf x}", "\\write is not an allowed macro"),
    (r"\immediate x", "\\immediate is not an allowed macro"),
    (r"ok \end{document}", "\\end{document}: document is not an allowed environment"),
    (r"\begin{document}", "\\begin{document}: document is not an allowed environment"),
    ("^^5cinput", "^^ character codes (they can spell any command)"),
    (None, None),
])
def test_latex_problem_names_the_refused_command(text, why):
    assert latexbuild.latex_problem(text) == why


def test_a_claim_with_refused_latex_is_named_with_its_field():
    from types import SimpleNamespace

    from cbdp_sym.core.errors import CbdpError

    claim = SimpleNamespace(id="X-1", source="x.py", statement="fine", notes=r"see $\include{secret}$")
    with pytest.raises(CbdpError, match=r"claim X-1 \(x.py\): its notes uses \\include is not an allowed macro"):
        latexbuild.check_claim_latex(claim)
    latexbuild.check_claim_latex(SimpleNamespace(id="X-2", statement=r"\alpha > 1"))


def test_a_forked_worker_takes_sigterm_by_default():
    """Before: the CLI's SIGTERM handler (stop the LaTeX builds, then SystemExit) was inherited by the figure pool's
    workers; the pool's SIGTERM became a SystemExit that the point's code caught, the worker went back to its queue,
    and the full audit waited for it for ever after the figures."""
    import multiprocessing
    import signal

    from cbdp_sym.report import latexbuild

    def child(q):
        q.put(signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)

    with latexbuild.cleanup_on_sigterm():
        assert signal.getsignal(signal.SIGTERM) is latexbuild._on_sigterm
        ctx = multiprocessing.get_context("fork")
        q = ctx.Queue()
        p = ctx.Process(target=child, args=(q,))
        p.start()
        default_in_child = q.get(timeout=30)
        p.join(30)
    assert default_in_child


def test_the_time_limit_kills_the_whole_process_group(tmp_path):
    """The fast form of the TeX time-limit test (the acceptance step compiles a looping document): at the limit
    :func:`latexbuild._run` returns ``None`` and kills the command's whole group, a grandchild included."""
    import os
    import time

    from cbdp_sym.report import latexbuild

    marker = tmp_path / "pid"
    t0 = time.monotonic()
    code, _out = latexbuild._run(["sh", "-c", f"sleep 60 & echo $! > {marker}; wait"], tmp_path, dict(os.environ), 0.5)
    assert code is None and time.monotonic() - t0 < 10
    pid = int(marker.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and os.path.exists(f"/proc/{pid}") and \
            "Z" not in open(f"/proc/{pid}/stat").read().split(")")[-1].split()[0]:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{pid}") or \
        "Z" in open(f"/proc/{pid}/stat").read().split(")")[-1].split()[0], "the grandchild outlived the limit"
