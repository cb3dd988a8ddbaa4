"""cbdp_sym.app.claimindex: `cbdp-sym list` from a stored index, made again whenever a source file changes."""
import shutil
import subprocess
import sys

import pytest

from cbdp_sym.app import claimindex
from cbdp_sym.app.cli import main
from cbdp_sym.app.registry import Registry, builtin_root

from ..conftest import FIXTURES


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CBDP_SYM_NO_CACHE", raising=False)
    return tmp_path / "cache"


@pytest.fixture
def paper_root(tmp_path):
    root = tmp_path / "papers"
    shutil.copytree(FIXTURES / "mutants", root)
    return root


def test_the_builtin_root_is_the_registrys():
    assert claimindex._builtin_root() == builtin_root()


def test_list_from_the_index_is_the_list_from_the_papers(own_cache, paper_root, capsys):
    assert claimindex.load([paper_root]) is None
    assert main(["--path", str(paper_root), "list"]) == 0  # made from the loaded papers, and stored
    first = capsys.readouterr().out
    stored = claimindex.load([paper_root])
    assert stored == claimindex.from_registry(Registry([paper_root]))
    assert main(["--path", str(paper_root), "list"]) == 0  # from the index
    assert capsys.readouterr().out == first
    assert "coverage mut:" in first


def test_an_edit_of_a_paper_module_or_catalogue_makes_another_key(own_cache, paper_root):
    k0 = claimindex.index_key([paper_root])
    claimindex.save([paper_root], {"claims": [["X-1", "stale"]], "coverage": []})
    cat = paper_root / "mut" / "catalogue.tsv"
    cat.write_text(cat.read_text() + "MUT-NEW\ta new catalogue entry\n")
    assert claimindex.index_key([paper_root]) != k0
    assert claimindex.load([paper_root]) is None  # (the stale index is not read)
    k1 = claimindex.index_key([paper_root])
    mod = sorted((paper_root / "mut").glob("[!_]*.py"))[0]
    mod.write_text(mod.read_text() + "\n# edited\n")
    assert claimindex.index_key([paper_root]) not in (k0, k1)


def test_a_damaged_index_is_reported_and_made_again(own_cache, paper_root, capsys):
    index = claimindex.from_registry(Registry([paper_root]))
    assert claimindex.save([paper_root], index)
    path = claimindex._path(claimindex.index_key([paper_root]))
    path.write_text(path.read_text().replace("coverage", "cover4ge", 1))
    assert claimindex.load([paper_root]) is None
    assert "discarded cache entry" in capsys.readouterr().err
    assert main(["--path", str(paper_root), "list"]) == 0
    assert claimindex.load([paper_root]) == index


def test_no_index_without_the_cache_or_for_a_missing_folder(own_cache, paper_root, monkeypatch, tmp_path):
    assert claimindex.index_key([tmp_path / "nope"]) is None
    monkeypatch.setenv("CBDP_SYM_NO_CACHE", "1")
    assert not claimindex.save([paper_root], {"claims": [], "coverage": []})
    assert claimindex.load([paper_root]) is None


def test_list_from_the_index_imports_no_engine(own_cache):
    """The point of the index: a second `list` in a fresh process imports neither SymPy nor the paper modules."""
    code = ("import sys, io, contextlib\n"
            "from cbdp_sym.app.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    main(['list'])\n"
            "print(sorted(m for m in ('sympy', 'scipy', 'mpmath') if m in sys.modules), len(out.getvalue()))\n")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True)
            for _ in range(2)]
    first, second = (r.stdout.split("] ") for r in runs)
    assert first[0] != "[" and second[0] == "[", (first, second)  # the first loaded the papers, the second did not
    assert first[1] == second[1]  # the same output


def test_a_forged_index_with_a_recomputed_checksum_is_refused(own_cache, paper_root, capsys):
    """Issue 33's rule for every cache file: a checksum anyone can recompute proves nothing.  An index edited to show
    another label, its SHA-256 recomputed (what format 2 trusted), is discarded with a warning and made again."""
    import hashlib
    import json

    assert main(["--path", str(paper_root), "list"]) == 0
    first = capsys.readouterr().out
    (path,) = list((own_cache / "claim-index").glob("*.json"))
    doc = json.loads(path.read_text())
    assert "mac" in doc and "sha256" not in doc
    doc["index"]["claims"][0][1] = "FORGED LABEL"
    body = json.dumps([doc["key"], doc["index"]], sort_keys=True, separators=(",", ":"))
    doc["mac"] = hashlib.sha256(body.encode()).hexdigest()
    path.write_text(json.dumps(doc))
    assert claimindex.load([paper_root]) is None
    assert "discarded cache entry" in capsys.readouterr().err
    assert main(["--path", str(paper_root), "list"]) == 0
    assert capsys.readouterr().out == first and "FORGED" not in first
