"""`cbdp-sym new` and the README's tour: a new paper folder audits cleanly, with one claim of each shape."""
import re

import pytest

from cbdp_sym import Registry, audit_claim
from cbdp_sym.app.cli import main
from cbdp_sym.core.errors import CbdpError
from cbdp_sym.app.scaffold import CLAIMS_TEMPLATE, new_paper
from ..conftest import ROOT

TUTORIAL = ROOT / "docs" / "tutorial.md"


def test_new_paper_audits_cleanly(tmp_path):
    assert main(["--path", str(tmp_path), "new", "mypaper", "--title", "My paper"]) == 0
    reg = Registry([tmp_path])
    paper = reg.papers["mypaper"]
    assert [c.id for c in paper.claims] == ["MYPAPER-T1", "MYPAPER-B1", "MYPAPER-B2"]
    assert all(c.paper == "mypaper" for c in paper.claims)  # the paper key defaults from the folder
    assert reg.coverage()["mypaper"][:2] == (3, 3)
    got = {c.id: audit_claim(c, dps=30) for c in paper.claims}
    assert got["MYPAPER-T1"].status == "verified"
    assert got["MYPAPER-B1"].status == "holds"
    b2 = got["MYPAPER-B2"]
    assert b2.status == "refuted" and b2.error_kind == "result"
    assert b2.counterexample["certified"] and b2.counterexample["params"] == {"eps": "1"}


def test_new_refuses_bad_keys_and_existing_folders(tmp_path):
    new_paper("mine", tmp_path)
    with pytest.raises(CbdpError, match="exists already"):
        new_paper("mine", tmp_path)
    with pytest.raises(CbdpError, match="use letters"):
        new_paper("my-paper", tmp_path)
    assert main(["--path", str(tmp_path), "new", "1bad"]) == 2


def test_the_tutorial_shows_the_scaffold():
    """The tutorial shows the module `cbdp-sym new mypaper` writes (the test above audits it)."""
    blocks = re.findall(r"```python\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), flags=re.S)
    assert CLAIMS_TEMPLATE.format(prefix="MYPAPER") in blocks


def test_paper_folders_may_share_modules_and_path_must_be_the_parent(tmp_path):
    folder = new_paper("shared", tmp_path)
    (folder / "_grid.py").write_text('GRID = ["1/10", "1", "10"]\n', encoding="utf-8")
    (folder / "more.py").write_text(
        "from cbdp_sym import Claim, Param\nimport sympy as sp\nfrom ._grid import GRID\n"
        "eps = sp.Symbol('epsilon', positive=True)\n"
        "M = Claim(id='SHARED-M', kind='definition', params=[Param.positive('eps', eps)], "
        "points=[{'eps': g} for g in GRID])\n", encoding="utf-8")
    reg = Registry([tmp_path])
    assert [p["eps"] for p in reg.get("SHARED-M").default_points()] == [sp_r("1/10"), 1, 10]
    with pytest.raises(CbdpError, match="is a paper folder"):
        Registry([folder])


def sp_r(text):
    import sympy as sp

    return sp.Rational(text)
