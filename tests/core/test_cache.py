"""Issue 19: the caches hold data only, every entry is checksummed, and a bad entry is recomputed."""
import builtins
import json
import os
import pickle
import subprocess
import sys

import mpmath as mp
import pytest

import cbdp_sym.core.cache as cache


import cbdp_sym.core.store as store
from ..conftest import ROOT


def _cli(*args, cache_dir, timeout=300):
    env = dict(os.environ, CBDP_SYM_CACHE=str(cache_dir), PYTHONHASHSEED="0")
    return subprocess.run([sys.executable, "-m", "cbdp_sym", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


class _Plant:
    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (builtins.open, (self.marker, "w"))


def _one_entry(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    calls = []

    @cache.cached_numeric
    def root2(x):
        calls.append(x)
        return [mp.sqrt(mp.mpf(x)), {"k": mp.mpf(x)}]

    return root2, calls


@pytest.mark.slow
@pytest.mark.acceptance
def test_planted_pickle_in_the_derivation_cache_runs_nothing(tmp_path):
    """Before: a ``.pickle`` planted under ``derivations/`` was unpickled (code ran).  After: never read."""
    cdir = tmp_path / "cache"
    marker = tmp_path / "PWNED"
    first = _cli("eval", "RDP-P6", "--at", "alpha=2", "--at", "lam=1", cache_dir=cdir)
    assert first.returncode == 0, first.stderr
    stems = {p.stem for p in (cdir / "derivations").iterdir()}
    assert stems
    for stem in stems:
        (cdir / "derivations" / f"{stem}.pickle").write_bytes(pickle.dumps((_Plant(marker), ())))
    again = _cli("eval", "RDP-P6", "--at", "alpha=2", "--at", "lam=1", cache_dir=cdir)
    assert not marker.exists()
    assert again.returncode == 0 and again.stdout == first.stdout


@pytest.mark.slow
@pytest.mark.acceptance
def test_derivation_cache_is_json_data_and_exact(tmp_path):
    cdir = tmp_path / "cache"
    out1 = _cli("show", "RDP-P6", cache_dir=cdir)
    files = sorted(p for p in (cdir / "derivations").rglob("*") if p.is_file())  # (claims/: whole derivations)
    assert files and all(f.suffix == ".json" for f in files)
    for f in files:
        json.loads(f.read_text())  # plain JSON
    out2 = _cli("show", "RDP-P6", cache_dir=cdir)  # from the cache
    assert out1.returncode == out2.returncode == 0
    assert out1.stdout == out2.stdout and "warning" not in out2.stderr


@pytest.mark.slow
@pytest.mark.acceptance
def test_planted_code_in_a_json_entry_is_refused_and_recomputed(tmp_path):
    cdir = tmp_path / "cache"
    first = _cli("show", "RDP-P6", cache_dir=cdir)
    victims = sorted(p for p in (cdir / "derivations").rglob("*") if p.is_file())
    for victim in victims:
        doc = json.loads(victim.read_text())
        doc["value"] = {"tuple": [{"sympy": {"node": "system", "args": [{"str": "touch PWNED"}]}}, {"tuple": []}]}
        doc["mac"] = store._mac(doc["key"], doc["value"])  # a valid MAC (made with the key): the allow-list must refuse it
        victim.write_text(json.dumps(doc))
    again = _cli("show", "RDP-P6", cache_dir=cdir)
    assert again.returncode == 0 and again.stdout == first.stdout
    warnings = [ln for ln in again.stderr.splitlines() if "warning" in ln]
    assert len(warnings) == len(victims) and all("discarded cache entry" in w for w in warnings)
    assert all("unknown node class 'system'" in w for w in warnings)
    assert "Traceback" not in again.stderr
    third = _cli("show", "RDP-P6", cache_dir=cdir)  # rewritten: no warning any more
    assert "warning" not in third.stderr


def test_edited_numeric_value_is_detected_and_recomputed(tmp_path, monkeypatch, capsys):
    """Before: an edited value in the JSON numeric cache was trusted (a doubled result)."""
    f, calls = _one_entry(tmp_path, monkeypatch)
    with mp.workdps(30):
        good = f(2)
        (entry,) = [p for p in tmp_path.rglob("*.json")]
        text = entry.read_text()
        doc = json.loads(text)
        man, exp = doc["value"]["list"][0]["mpf"]
        doc["value"]["list"][0]["mpf"] = [man, format(int(exp, 16) + 1, "x")]  # doubled
        entry.write_text(json.dumps(doc))
        again = f(2)
    assert again[0] == good[0] and len(calls) == 2
    err = capsys.readouterr().err
    assert err.count("discarded cache entry") == 1 and "authentication failed" in err


@pytest.mark.parametrize("value", [
    {"mpf": "abc"}, {"mpf": [1, 2]}, "a string", {"list": [{"mpf": ["zz", "0"]}]}, {"nope": 1}, [1, 2],
    {"sympy": {"node": "eval", "args": []}},
])
def test_well_formed_entry_of_the_wrong_type_is_discarded(tmp_path, monkeypatch, capsys, value):
    """Before: a well-formed entry of the wrong type gave a traceback."""
    f, calls = _one_entry(tmp_path, monkeypatch)
    with mp.workdps(30):
        good = f(3)
        (entry,) = list(tmp_path.rglob("*.json"))
        doc = json.loads(entry.read_text())
        doc["value"] = value
        doc["mac"] = store._mac(doc["key"], value)
        entry.write_text(json.dumps(doc))
        again = f(3)
    if isinstance(again, list) and len(again) == 2:
        assert again[0] == good[0]
    # either refused (recomputed, warned) or, for a value that decodes, never a crash
    assert len(calls) == 2 or again == value
    assert "Traceback" not in capsys.readouterr().err


def test_truncated_entry_and_other_key(tmp_path, monkeypatch, capsys):
    f, calls = _one_entry(tmp_path, monkeypatch)
    with mp.workdps(30):
        f(5)
        (entry,) = list(tmp_path.rglob("*.json"))
        entry.write_text(entry.read_text()[:40])
        f(5)
        doc = json.loads(entry.read_text())
        doc["key"] = doc["key"].replace("5", "6")
        doc["mac"] = store._mac(doc["key"], doc["value"])
        entry.write_text(json.dumps(doc))
        f(5)
    assert len(calls) == 3
    assert capsys.readouterr().err.count("discarded") == 1  # reported once per entry


def test_cache_roundtrip_is_exact(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    calls = []

    @cache.cached_numeric
    def f(x):
        calls.append(x)
        return mp.sqrt(mp.mpf(x))

    with mp.workdps(40):
        v1, v2 = f(2), f(2)
    assert v1 == v2 and len(calls) == 1


def test_cached_numeric_key_function_and_minimum_time(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    calls = []

    @cache.cached_numeric(key=lambda x: None if x < 0 else repr(mp.mpf(x)._mpf_))
    def f(x):
        calls.append(x)
        return mp.mpf(x) * 2

    f(1), f(1), f(-1), f(-1)
    assert calls == [1, -1, -1]  # a None key: not cached
    assert f.stored(1) == (True, 2) and f.stored(-1) == (False, None)

    @cache.cached_numeric(min_seconds=3600)
    def g(x):
        calls.append(x)
        return mp.mpf(x)

    g(5), g(5)
    assert calls[-2:] == [5, 5] and g.stored(5) == (False, None)  # too quick to be worth a file
