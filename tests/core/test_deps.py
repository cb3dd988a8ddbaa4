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


# -- issue 31: a claim's key at the granularity of the statements it reaches ----------------------------------------
def _paper(tmp_path):
    pkg = tmp_path / "cbdp_sym"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('_OWN = {"cbdp_sym.a": ("f",), "cbdp_sym.b": ("g",)}\n')
    (pkg / "_api.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    return 1\n")
    (pkg / "b.py").write_text("def g():\n    return 2\n")
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "_shared.py").write_text("from cbdp_sym import g\n\nGRID = [1, 2]\n\n\ndef unused():\n    return 0\n")
    (paper / "other.py").write_text("Z = 3\n")
    (paper / "t1.py").write_text(
        "from cbdp_sym import f, g\n"
        "from ._shared import GRID\n"
        "SCALE = 2\n\n\n"
        "def one():\n    return f() * SCALE\n\n\n"
        "def two():\n    return g() + len(GRID)\n\n\n"
        "C1 = ('claim', one)\n"
        "C2 = ('claim', two)\n")
    return pkg, paper


def _digests(pkg, paper):
    t1 = paper / "t1.py"
    return (deps.granular_digest([(t1, ("C1",), ())], root=pkg), deps.granular_digest([(t1, ("C2",), ())], root=pkg))


def test_a_claims_key_follows_the_statements_it_reaches(tmp_path):
    pkg, paper = _paper(tmp_path)
    t1 = paper / "t1.py"
    names = deps.reached_names([(t1, ("C1",), ())], root=pkg)
    assert names == ["cbdp_sym/a.py", "paper/t1.py: f, g", "paper/t1.py: SCALE", "paper/t1.py: one", "paper/t1.py: C1"]
    assert "cbdp_sym/b.py" in deps.reached_names([(t1, ("C2",), ())], root=pkg)
    assert "paper/_shared.py: GRID" in deps.reached_names([(t1, ("C2",), ())], root=pkg)
    d1, d2 = _digests(pkg, paper)
    src = t1.read_text()
    t1.write_text(src.replace("return g() + len(GRID)", "return g() + 2 * len(GRID)"))  # C2's function
    e1, e2 = _digests(pkg, paper)
    assert e1 == d1 and e2 != d2
    t1.write_text(src.replace("SCALE = 2", "SCALE = 3"))  # a constant C1 reaches
    f1, f2 = _digests(pkg, paper)
    assert f1 != d1 and f2 == d2
    t1.write_text(src)
    (paper / "_shared.py").write_text((paper / "_shared.py").read_text().replace("return 0", "return 1"))  # unused
    assert _digests(pkg, paper) == (d1, d2)
    (paper / "_shared.py").write_text((paper / "_shared.py").read_text().replace("[1, 2]", "[1, 2, 3]"))
    g1, g2 = _digests(pkg, paper)
    assert g1 == d1 and g2 != d2
    (pkg / "a.py").write_text("def f():\n    return 5\n")  # an engine module: whole, for the claims that import it
    h1, h2 = _digests(pkg, paper)
    assert h1 != d1 and h2 == g2


def test_statements_that_bind_nothing_or_reach_names_dynamically_belong_to_every_value(tmp_path):
    pkg, paper = _paper(tmp_path)
    t1 = paper / "t1.py"
    d1, d2 = _digests(pkg, paper)
    src = t1.read_text()
    t1.write_text(src + "\nprint('side effect')\n")  # a call at module level: part of every value
    e1, e2 = _digests(pkg, paper)
    assert e1 != d1 and e2 != d2
    t1.write_text(src + "\n\ndef three():\n    return globals()['SCALE']\n\n\nC3 = ('claim', three)\n")
    assert "paper/t1.py: one" in deps.reached_names([(t1, ("C3",), ())], root=pkg)  # dynamic: the whole module
    t1.write_text(src.replace("from ._shared import GRID", "from . import other\nfrom ._shared import GRID")
                  .replace("len(GRID)", "len(GRID) + other.Z"))
    assert "paper/other.py: Z" in deps.reached_names([(t1, ("C2",), ())], root=pkg)
    # an import inside a function is a dependency of that function (and only of it)
    t1.write_text(src.replace("    return f() * SCALE", "    from cbdp_sym import g as late\n    return f() * SCALE + late()"))
    assert "cbdp_sym/b.py" in deps.reached_names([(t1, ("C1",), ())], root=pkg)


def test_a_functions_line_starts_at_its_statement(tmp_path):
    pkg, paper = _paper(tmp_path)
    t1 = paper / "t1.py"
    line = t1.read_text().splitlines().index("    return f() * SCALE") + 1  # inside `one`
    assert deps.reached_names([(t1, (), (line,))], root=pkg) == ["cbdp_sym/a.py", "paper/t1.py: f, g",
                                                                   "paper/t1.py: SCALE", "paper/t1.py: one"]


# -- issue 30: the face's role namespaces (tables of names resolved on first use) ---------------------------------------
def test_a_name_from_a_namespace_depends_on_its_module_only(tmp_path):
    pkg = tmp_path / "cbdp_sym"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('_OWN = {"cbdp_sym.a": ("f",)}\n')
    (pkg / "_api.py").write_text('_OLD_EXPORTS = {"cbdp_sym.c": ("h",)}\n')  # the old face: not a namespace's table
    (pkg / "ns.py").write_text('from cbdp_sym import _api\n\n_EXPORTS = {"cbdp_sym.b": ("g",), "cbdp_sym.c": ("h",)}\n')
    for m in "abc":
        (pkg / f"{m}.py").write_text("def f():\n    return 1\n")
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "t1.py").write_text("from cbdp_sym.ns import g\n")
    (paper / "t2.py").write_text("from cbdp_sym import ns\n")
    (paper / "t3.py").write_text("from cbdp_sym import h\n")  # an old (deprecated) face name
    got = {t: deps.dependency_names([paper / t], root=pkg) for t in ("t1.py", "t2.py", "t3.py")}
    assert got["t1.py"] == ["cbdp_sym/b.py", "cbdp_sym/ns.py", "paper/t1.py"], got  # not c.py
    assert got["t2.py"] == ["cbdp_sym/b.py", "cbdp_sym/c.py", "cbdp_sym/ns.py", "paper/t2.py"], got  # the whole namespace
    assert got["t3.py"] == ["cbdp_sym/c.py", "paper/t3.py"], got
    for t in ("t1.py", "t2.py"):  # the statement-level walk (a claim's key) sees the same files
        _statements, engine = deps.reached([(paper / t, [], [])], root=pkg)
        assert (pkg / "b.py").resolve() in {p.resolve() for p in engine}, t
