"""Issue 18, "warm means warm": claim results cached by the code they depend on; PDFs rebuilt only when
their sources change."""
import functools
import json
from pathlib import Path

import pytest

import cbdp_sym.app.audit as audit

import cbdp_sym.core.store as store

import cbdp_sym.core.deps as deps


import cbdp_sym.app.resultcache as resultcache
from cbdp_sym.core.serial import decode, encode, same_tree
FAST = ["RDP-P6", "RDP-P5-KL", "RDP-LAPMECH", "ZCDP-D1.1"]


def _files(out: Path) -> dict:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _audit_to(registry, ids, out, dps=30):
    claims = [registry.get(i) for i in ids]
    results = audit.run(claims, dps, jobs=1)
    audit.write_reports(registry, results, dps, out, out / "audit-subset.json", pdf=False, log=lambda *a: None,
                        suffix="-subset")
    return results


def _key_with_edit(claim, edited: str, monkeypatch):
    """The claim's key as if every statement of the file named ``edited`` had been edited."""
    real = deps.file_hash
    monkeypatch.setattr(deps, "file_hash", lambda p: real(p) + ("-edited" if Path(p).name == edited else ""))
    real_module = deps._module

    def module(path):
        m = real_module(path)
        if Path(path).name != edited:
            return m
        return deps._Module([dict(st, sha=st["sha"] + "-edited") for st in m.stmts])

    monkeypatch.setattr(deps, "_module", module)
    monkeypatch.setattr(deps, "_CLOSURES", {})  # (the engine files' memo: made again with the edited hash)
    return resultcache.claim_key(claim, 50)


def test_warm_audit_is_byte_identical_and_runs_no_derivation(registry, tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "cache"))
    cold = _audit_to(registry, FAST, tmp_path / "cold")
    assert [r.status for r in cold] and all(r.status != "error" for r in cold)
    # the warm run dispatches nothing and calls no derivation / numeric function of the claims
    dispatched, called = [], []

    def spy(claims, *a, **k):
        dispatched.extend(c.id for c in claims)
        return real(claims, *a, **k)

    real = audit.run_uncached
    monkeypatch.setattr(audit, "run_uncached", spy)
    for cid in FAST:
        c = registry.get(cid)
        for name in ("derive", "numeric", "claimed", "check"):
            fn = getattr(c, name)
            if fn is not None:
                def boom(*a, _fn=fn, _id=cid, _name=name, **k):
                    called.append((_id, _name))
                    raise AssertionError("a warm run called " + _name)
                monkeypatch.setattr(c, name, functools.wraps(fn)(boom))  # (same source file: same key)
    warm = _audit_to(registry, FAST, tmp_path / "warm")
    assert dispatched == [] and called == []
    assert [r.status for r in warm] == [r.status for r in cold]
    assert _files(tmp_path / "warm") == _files(tmp_path / "cold")


def test_no_cache_bypasses_the_result_cache(registry, tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "cache"))
    c = registry.get("ZCDP-D1.1")
    res = audit.run([c], 30, jobs=1)[0]
    assert resultcache.lookup(c, 30) is not None
    monkeypatch.setattr(store, "_ENABLED", [False])
    assert resultcache.lookup(c, 30) is None
    assert resultcache.store(c, 30, res) is False


def test_a_damaged_result_entry_is_reported_once_and_recomputed(registry, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "cache"))
    c = registry.get("ZCDP-D1.1")
    first = audit.run([c], 30, jobs=1)[0]
    path = resultcache._path(resultcache.claim_key(c, 30))
    doc = json.loads(path.read_text())
    doc["value"]["dc"] = "os.system"  # edited: the checksum no longer matches
    path.write_text(json.dumps(doc))
    assert resultcache.lookup(c, 30) is None
    assert "discarded cache entry" in capsys.readouterr().err
    again = audit.run([c], 30, jobs=1)[0]
    assert again.status == first.status and resultcache.lookup(c, 30) is not None


def test_result_round_trips_as_data(registry):
    from cbdp_sym.verify.engine import audit_claim

    res = audit_claim(registry.get("RDP-P5-KL"), 30)
    value = resultcache._detached(res)
    assert same_tree(decode(encode(value)), value)
    assert '"dc"' in json.dumps(encode(value))


def test_errors_and_time_limits_are_not_stored(registry, tmp_path, monkeypatch):
    from cbdp_sym.verify.engine import Result

    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "cache"))
    c = registry.get("ZCDP-D1.1")
    assert not resultcache.store(c, 30, Result(c, "error", "worker died (exit code 9)", 30))
    assert not resultcache.store(c, 30, Result(c, "inconclusive", "timeout in numerics (limit 5 s)", 30))
    assert resultcache.lookup(c, 30) is None


@pytest.mark.parametrize("cid, edited, invalidates", [
    ("RDP-P6", "latex.py", False), ("RDP-P6", "cli.py", False), ("RDP-P6", "audit.py", False),
    ("RDP-P6", "scaffold.py", False), ("RDP-P6", "solver.py", False),  # (RDP-P6 does not import the solver)
    ("CBDP-T1", "finite.py", True), ("CBDP-T1", "solver.py", True), ("CBDP-T1", "latex.py", False),
    ("CBDP-T13", "solver.py", True),
    ("RDP-P6", "engine.py", True), ("CBDP-T1", "engine.py", True)])
def test_key_follows_the_imports(registry, cid, edited, invalidates, monkeypatch):
    c = registry.get(cid)
    before = resultcache.claim_key(c, 50)
    assert (_key_with_edit(c, edited, monkeypatch) != before) is invalidates


def test_an_engine_module_invalidates_only_the_claims_that_import_it(registry, monkeypatch):
    lin = registry.get("CBDP-T13")  # the (lin, Renyi) claims import linpower
    other = registry.get("RDP-P6")
    assert "cbdp_sym/restricted/linpower.py" in deps.dependency_names(resultcache.claim_files(lin))
    assert "cbdp_sym/restricted/linpower.py" not in deps.dependency_names(resultcache.claim_files(other))
    before = (resultcache.claim_key(lin, 50), resultcache.claim_key(other, 50))
    after = (_key_with_edit(lin, "linpower.py", monkeypatch), resultcache.claim_key(other, 50))
    assert after[0] != before[0] and after[1] == before[1]


def test_the_claim_module_and_the_precision_are_in_the_key(registry, monkeypatch):
    c = registry.get("RDP-P6")
    assert c.source == "rdp/table2.py"
    before = resultcache.claim_key(c, 50)
    assert before != resultcache.claim_key(c, 30)
    assert _key_with_edit(c, "table2.py", monkeypatch) != before


def test_rendering_is_reused_only_when_results_and_report_code_are_the_same(registry, tmp_path, monkeypatch):
    import cbdp_sym.app.audit as report  # (where write_reports finds render_appendix)
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "cache"))
    ids = ["ZCDP-D1.1", "RDP-P5-KL"]
    _audit_to(registry, ids, tmp_path / "a")
    calls = []
    real = report.render_appendix
    monkeypatch.setattr(report, "render_appendix", lambda *a, **k: calls.append(1) or real(*a, **k))
    _audit_to(registry, ids, tmp_path / "b")
    assert calls == []  # nothing changed: nothing rendered
    real_hash = deps.file_hash
    monkeypatch.setattr(deps, "file_hash", lambda p: real_hash(p) + ("x" if Path(p).name == "latex.py" else ""))
    _audit_to(registry, ids, tmp_path / "c")
    assert len(calls) == 2  # the report's code changed: both papers' appendices rendered again
    assert _files(tmp_path / "c") == _files(tmp_path / "a")


def test_a_module_that_reads_claims_by_id_depends_on_the_other_paper_modules(registry, tmp_path):
    """A paper module that calls ``Registry().get(cid)`` reads claims of other modules by ID: it depends on every
    built-in paper module.  The shipped modules import the claims they read instead (table1.py imports linrenyi.py),
    so a chain depends on its own paper's modules only."""
    reader = tmp_path / "mypaper" / "chain.py"
    reader.parent.mkdir()
    reader.write_text("from cbdp_sym import Registry\n\ndef f():\n    return Registry().get('CBDP-T13')\n")
    got = deps.dependency_names(deps.closure([reader]))
    assert "cbdp/table1.py" in got and "rdp/sec3.py" in got
    reader.write_text("from cbdp_sym import Claim\n")
    assert "cbdp/table1.py" not in deps.dependency_names(deps.closure([reader]))
    t13 = deps.dependency_names(resultcache.claim_files(registry.get("CBDP-T13-CHAIN")))
    assert "cbdp/linrenyi.py" in t13 and "cbdp/table1.py" not in t13 and "rdp/sec3.py" not in t13
    cert = deps.dependency_names(resultcache.claim_files(registry.get("CBDP-TAB1-CERT")))
    assert "cbdp/linrenyi.py" in cert and "rdp/sec3.py" not in cert
    assert "cbdp/linrenyi.py" not in deps.dependency_names(resultcache.claim_files(registry.get("RDP-P6")))



def test_an_edit_of_one_claims_function_keeps_the_other_claims_of_its_module(tmp_path, monkeypatch):
    """Issue 31: the key follows the statements a claim reaches, not the whole paper module."""
    import shutil

    from cbdp_sym.app.registry import Registry

    from ..conftest import FIXTURES

    root = tmp_path / "papers"
    shutil.copytree(FIXTURES / "mutants", root)
    reg = Registry([root], builtin=False)
    kink, sign = reg.get("MUT-T8-KINK"), reg.get("MUT-T8-SIGN")  # one module; KINK's derivation is _wrong_kink
    before = (resultcache.claim_key(kink, 50), resultcache.claim_key(sign, 50))
    mod = root / "mut" / "mutants.py"
    text = mod.read_text()
    mod.write_text(text.replace("def _wrong_kink():\n", "def _wrong_kink():\n    # edited\n"))
    after = (resultcache.claim_key(kink, 50), resultcache.claim_key(sign, 50))
    assert after[0] != before[0] and after[1] == before[1]
    mod.write_text(text.replace("def _numeric_kl(v):\n", "def _numeric_kl(v):\n    # edited\n"))  # both use it
    again = (resultcache.claim_key(kink, 50), resultcache.claim_key(sign, 50))
    assert again[0] not in before and again[1] != before[1]


def test_the_audit_says_how_many_results_it_reused(registry, monkeypatch):
    from cbdp_sym.verify.engine import Result

    claims = [registry.get("RDP-P6"), registry.get("ZCDP-D1.1")]
    monkeypatch.setattr(resultcache, "lookup", lambda c, dps, where=None: Result(c, "verified", "", dps)
                        if c.id == "RDP-P6" else None)
    monkeypatch.setattr(audit, "run_uncached", lambda cs, *a, **k: [Result(c, "holds", "", 30) for c in cs])
    monkeypatch.setattr(resultcache, "store", lambda *a, **k: True)
    stats: dict = {}
    audit.run(claims, 30, jobs=1, stats=stats)
    assert stats == {"reused": ["RDP-P6"], "audited": ["ZCDP-D1.1"]}
    assert audit.reuse_line(stats) == "claim results: 1 reused (their code and inputs unchanged), 1 audited: ZCDP-D1.1"


def test_a_forged_verdict_with_a_recomputed_sha256_is_rejected(registry, tmp_path, monkeypatch, capsys):
    """Before: a result entry edited to another verdict, its SHA-256 recomputed, was trusted (the terminal printed
    ``refuted`` for a claim that holds)."""
    import hashlib

    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "cache"))
    c = registry.get("ZCDP-D1.1")
    first = audit.run([c], 30, jobs=1)[0]
    path = resultcache._path(resultcache.claim_key(c, 30))
    doc = json.loads(path.read_text())
    forged = "refuted" if first.status != "refuted" else "verified"
    text = json.dumps(doc["value"]).replace(json.dumps(first.status), json.dumps(forged), 1)
    doc["value"] = json.loads(text)
    body = json.dumps([doc["key"], doc["value"]], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    for field in ("sha256", "mac"):
        if field in doc:
            doc[field] = hashlib.sha256(body.encode()).hexdigest()
    path.write_text(json.dumps(doc))
    assert resultcache.lookup(c, 30) is None
    err = capsys.readouterr().err
    assert err.count("discarded cache entry") == 1
    again = audit.run([c], 30, jobs=1)[0]
    assert again.status == first.status
