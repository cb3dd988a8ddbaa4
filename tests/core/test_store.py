"""Tests of :mod:`cbdp_sym.core.store`: checksummed entries stored as data, read back exactly or refused."""
import json

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core import store
from cbdp_sym.core.serial import same_tree
from cbdp_sym.core.tape import Step, Tex


def _value():
    x = sp.Symbol("x", positive=True)
    return {"expr": sp.exp(-x) / (1 + sp.Rational(1, 3) * x), "mpf": mp.mpf("0.1"), "steps": [Step(Tex("y"), x, "n")],
            "list": [1, "two", None]}


def test_entry_round_trips_exactly(tmp_path):
    path = tmp_path / "sub" / "e.json"
    with mp.workdps(60):
        value = _value()
        value["mpf"] = mp.mpf(1) / 3  # 60 digits: read back to the last bit
        assert store.write_entry(path, "k1", value)
        back = store.read_entry(path, "k1")
    assert same_tree(back["expr"], value["expr"])
    assert back["mpf"] == value["mpf"] and back["list"] == [1, "two", None]
    assert back["steps"] == value["steps"]
    doc = json.loads(path.read_text())
    assert set(doc) == {"format", "key", "value", "sha256"} and doc["key"] == "k1"


def test_missing_other_key_edited_and_damaged_entries_are_refused(tmp_path):
    path = tmp_path / "e.json"
    with pytest.raises(FileNotFoundError):
        store.read_entry(path, "k")
    store.write_entry(path, "k", _value())
    with pytest.raises(store.BadEntry, match="another key"):
        store.read_entry(path, "other")
    text = path.read_text()
    assert '"two"' in text
    path.write_text(text.replace('"two"', '"tw0"'))  # an edit that keeps the file well-formed
    json.loads(path.read_text())
    with pytest.raises(store.BadEntry, match="checksum mismatch"):
        store.read_entry(path, "k")
    path.write_text("{not json")
    with pytest.raises(store.BadEntry, match="not JSON"):
        store.read_entry(path, "k")
    path.write_text(json.dumps({"format": 1, "key": "k", "value": 0, "sha256": ""}))
    with pytest.raises(store.BadEntry, match="not a cache entry of this version"):
        store.read_entry(path, "k")


def test_a_value_that_is_not_data_is_not_stored(tmp_path):
    path = tmp_path / "e.json"
    assert store.write_entry(path, "k", {"f": object()}) is False
    assert not path.exists() and list(tmp_path.iterdir()) == []  # no temporary file left either


def test_lookup_computes_once_and_recomputes_a_damaged_entry_with_one_warning(tmp_path, capsys):
    path = tmp_path / "e.json"
    calls = []

    def compute():
        calls.append(1)
        return sp.Rational(7, 2)

    assert store.lookup(path, "k", compute) == sp.Rational(7, 2)
    assert store.lookup(path, "k", compute) == sp.Rational(7, 2)
    assert len(calls) == 1
    path.write_text(path.read_text().replace("7", "9"))  # the number edited on disk
    assert store.lookup(path, "k", compute) == sp.Rational(7, 2)
    assert len(calls) == 2
    store.report_bad_entry(path, "again")  # the same entry is reported once
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "discarded cache entry" in err[0] and "checksum mismatch" in err[0]


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "c"))
    assert store.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("CBDP_SYM_CACHE")
    assert store.cache_dir().parts[-2:] == (".cache", "cbdp-sym")
