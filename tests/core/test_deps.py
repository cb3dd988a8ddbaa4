"""Tests of :mod:`cbdp_sym.core.deps`."""
import cbdp_sym.core.deps as deps


def test_imports_inside_functions_and_relative_paper_imports_count(tmp_path):
    pkg = tmp_path / "cbdp_sym"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from ._api import *\n")
    (pkg / "_api.py").write_text("from .a import f  # noqa\nfrom .b import g  # noqa\n")
    (pkg / "a.py").write_text("def f():\n    from .c import h\n    return h()\n")
    (pkg / "b.py").write_text("def g():\n    return 1\n")
    (pkg / "c.py").write_text("def h():\n    return 2\n")
    (pkg / "report.py").write_text("from .a import f\n")
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "_shared.py").write_text("from cbdp_sym import g\n")
    (paper / "t1.py").write_text("from cbdp_sym import f\nfrom ._shared import *\n")
    names = deps.dependency_names([paper / "t1.py"], root=pkg)
    assert names == ["cbdp_sym/a.py", "cbdp_sym/b.py", "cbdp_sym/c.py", "paper/_shared.py", "paper/t1.py"]
    d0 = deps.digest([paper / "t1.py"], root=pkg)
    (pkg / "report.py").write_text("from .a import f\n# edited\n")
    assert deps.digest([paper / "t1.py"], root=pkg) == d0
    (pkg / "c.py").write_text("def h():\n    return 3\n")
    assert deps.digest([paper / "t1.py"], root=pkg) != d0
