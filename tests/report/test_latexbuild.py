"""Tests of :mod:`cbdp_sym.report.latexbuild`."""





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
