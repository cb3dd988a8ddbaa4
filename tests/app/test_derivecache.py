"""cbdp_sym.app.derivecache: a claim's derivation from the cache folder (eval, show), made again when its code changes."""
import shutil

import pytest

import cbdp_sym.app.derivecache as derivecache
from cbdp_sym.app import claimindex
from cbdp_sym.app.cli import main
from cbdp_sym.app.registry import Registry
from cbdp_sym.core.printing import latex

from ..conftest import FIXTURES

CID = "MUT-T8-SIGN"  # a claim of the mutants folder whose derivation is a Laplace KL integral


@pytest.fixture
def paper_root(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "papers"
    shutil.copytree(FIXTURES / "mutants", root)
    return root


def _counting(monkeypatch):
    calls = []
    real = derivecache.derive

    def derive(claim):
        calls.append(claim.id)
        return real(claim)

    monkeypatch.setattr(derivecache, "derive", derive)
    return calls


def test_a_stored_derivation_is_the_derivation(paper_root, monkeypatch):
    calls = _counting(monkeypatch)
    claim = Registry([paper_root]).get(CID)
    expr, steps = derivecache.cached_derive(claim)
    again, steps2 = derivecache.cached_derive(claim)
    assert calls == [CID]  # the second came from the cache folder
    assert latex(again) == latex(expr) and [(s.note, str(s.rhs)) for s in steps2] == [(s.note, str(s.rhs)) for s in steps]


def test_an_edit_of_the_claims_module_derives_again(paper_root, monkeypatch):
    calls = _counting(monkeypatch)
    claim = Registry([paper_root]).get(CID)
    k0 = derivecache.derivation_key(claim)
    derivecache.cached_derive(claim)
    mod = paper_root / "mut" / "mutants.py"
    mod.write_text(mod.read_text() + "\n# edited\n")  # (a comment outside every statement: the same key)
    assert derivecache.derivation_key(claim) == k0
    mod.write_text(mod.read_text().replace("Thm. 8 with a sign flipped", "Thm. 8 with one sign flipped"))
    assert derivecache.derivation_key(claim) != k0
    derivecache.cached_derive(claim)
    assert calls == [CID, CID]


def test_without_the_cache_every_derivation_runs(paper_root, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_NO_CACHE", "1")
    import cbdp_sym.core.store as store

    monkeypatch.setattr(store, "_ENABLED", [False])
    calls = _counting(monkeypatch)
    claim = Registry([paper_root]).get(CID)
    derivecache.cached_derive(claim)
    derivecache.cached_derive(claim)
    assert calls == [CID, CID]


def test_eval_loads_only_the_claims_paper_once_the_index_knows_it(paper_root, capsys):
    assert main(["--path", str(paper_root), "list"]) == 0  # makes the index
    capsys.readouterr()
    where = claimindex.paper_of(claimindex.load([paper_root]), CID.lower())
    assert where == (paper_root.resolve(), "mut")
    reg = Registry([paper_root], only={where})
    assert {p for p in reg.papers} == {"mut"} and reg.get(CID).id == CID  # not the built-in papers
    from cbdp_sym.app.cli import _registry_of

    assert set(_registry_of([str(paper_root)], CID).papers) == {"mut"}
    assert set(_registry_of([str(paper_root)], "CBDP-T9").papers) == {"cbdp"}  # (a built-in claim: its paper)
