"""Tests of :mod:`cbdp_sym.core.store`: authenticated entries stored as data, read back exactly or refused."""
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
    assert set(doc) == {"format", "key", "value", "kid", "mac"} and doc["key"] == "k1"


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
    with pytest.raises(store.BadEntry, match="authentication failed"):
        store.read_entry(path, "k")
    path.write_text("{not json")
    with pytest.raises(store.BadEntry, match="not JSON"):
        store.read_entry(path, "k")
    path.write_text(json.dumps({"format": 1, "key": "k", "value": 0, "kid": "", "mac": ""}))
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
    doc = json.loads(path.read_text())
    doc["value"] = json.loads(json.dumps(doc["value"]).replace("7", "9"))  # the number edited on disk
    path.write_text(json.dumps(doc))
    assert store.lookup(path, "k", compute) == sp.Rational(7, 2)
    assert len(calls) == 2
    store.report_bad_entry(path, "again")  # the same entry is reported once
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "discarded cache entry" in err[0] and "authentication failed" in err[0]


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "c"))
    assert store.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("CBDP_SYM_CACHE")
    assert store.cache_dir().parts[-2:] == (".cache", "cbdp-sym")


# -- issue 33: a cache that cannot lie --------------------------------------------------------------------------
def _forge_with_sha256(path, edit):
    """Edit an entry's value and recompute its checksum the way anyone can: a plain SHA-256 of key and value."""
    import hashlib

    doc = json.loads(path.read_text())
    doc["value"] = edit(doc["value"])
    body = json.dumps([doc["key"], doc["value"]], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    for field in ("sha256", "mac"):
        if field in doc:
            doc[field] = hashlib.sha256(body.encode()).hexdigest()
    path.write_text(json.dumps(doc))


def test_forged_entry_with_a_recomputed_sha256_is_rejected_once_and_recomputed(tmp_path, capsys):
    """Before: the checksum was a SHA-256 anyone could recompute: a forged value was returned as cached."""
    path = tmp_path / "e.json"
    calls = []

    def compute():
        calls.append(1)
        return sp.Rational(7, 2)

    store.lookup(path, "k", compute)
    _forge_with_sha256(path, lambda v: {"sympy": {"rat": ["f", "2"]}})
    assert store.lookup(path, "k", compute) == sp.Rational(7, 2) and len(calls) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "discarded cache entry" in err[0] and "authentication failed" in err[0]
    assert store.lookup(path, "k", compute) == sp.Rational(7, 2) and len(calls) == 2  # rewritten, authentic


def test_entries_of_another_key_are_ignored_without_a_warning(tmp_path, monkeypatch, capsys):
    """A cache folder restored from another machine (another key): nothing of it is trusted, nothing is reported."""
    path = tmp_path / "e.json"
    store.write_entry(path, "k", sp.Integer(5))
    monkeypatch.setenv("CBDP_SYM_CACHE_KEY", str(tmp_path.parent / f"{tmp_path.name}-other.key"))
    with pytest.raises(FileNotFoundError):
        store.read_entry(path, "k")
    assert capsys.readouterr().err == ""


@pytest.mark.timeout(60)
def test_a_named_pipe_in_place_of_an_entry_does_not_hang(tmp_path):
    """Before: reading a FIFO planted in place of an entry blocked forever."""
    import os

    path = tmp_path / "e.json"
    os.mkfifo(path)
    with pytest.raises(store.BadEntry, match="not a regular file"):
        store.read_entry(path, "k")


def test_symbolic_links_and_oversized_entries_are_refused(tmp_path, monkeypatch):
    real = tmp_path / "real.json"
    store.write_entry(real, "k", sp.Integer(5))
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with pytest.raises(store.BadEntry, match="symbolic link"):
        store.read_entry(link, "k")
    monkeypatch.setattr(store, "MAX_ENTRY_BYTES", 100)
    with pytest.raises(store.BadEntry, match="more than"):
        store.read_entry(real, "k")
    assert store.write_entry(tmp_path / "big.json", "k", list(range(100))) is False


def test_decoding_is_time_limited(tmp_path, monkeypatch):
    path = tmp_path / "e.json"
    x = sp.Symbol("x")
    store.write_entry(path, "k", [x + i for i in range(20000)])
    monkeypatch.setattr(store, "DECODE_SECONDS", 0.01)
    with pytest.raises(store.BadEntry, match="decoding took more than"):
        store.read_entry(path, "k")


def _fresh_trust(monkeypatch, cache, key):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(cache))
    monkeypatch.setenv("CBDP_SYM_CACHE_KEY", str(key))
    monkeypatch.setattr(store, "_TRUST", {})
    monkeypatch.setattr(store, "_REFUSAL_SHOWN", [False])


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777])
def test_a_cache_folder_others_can_write_is_refused(tmp_path, monkeypatch, capsys, mode):
    """Before: the folder's owner and permissions were never checked (a group-writable folder let others plant
    entries)."""
    import os

    cache = tmp_path / "cache"
    cache.mkdir()
    os.chmod(cache, mode)
    _fresh_trust(monkeypatch, cache, tmp_path / "key")
    with pytest.raises(store.CacheRefused, match="writable by .*--no-cache"):
        store.check_ready()
    # a program using the library: one warning, nothing read or written
    assert store.write_entry(cache / "e.json", "k", 1) is False
    with pytest.raises(FileNotFoundError):
        store.read_entry(cache / "e.json", "k")
    assert store.lookup(cache / "e.json", "k", lambda: 3) == 3
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "cache not used" in err[0]
    os.chmod(cache, 0o700)
    monkeypatch.setattr(store, "_TRUST", {})
    store.check_ready()


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid") or __import__("os").geteuid() != 0,
                    reason="needs root to give a folder to another user")
def test_a_cache_folder_of_another_user_is_refused(tmp_path, monkeypatch):
    import os

    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    os.chown(cache, 65534, 65534)
    _fresh_trust(monkeypatch, cache, tmp_path / "key")
    with pytest.raises(store.CacheRefused, match="belongs to another user"):
        store.check_ready()


def test_the_key_is_made_private_outside_the_folder_and_checked(tmp_path, monkeypatch):
    import os
    import stat

    cache, key = tmp_path / "cache", tmp_path / "conf" / "cache.key"
    _fresh_trust(monkeypatch, cache, key)
    store.check_ready()
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600 and stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    assert len(bytes.fromhex(key.read_text().strip())) == 32
    os.chmod(key, 0o644)
    monkeypatch.setattr(store, "_TRUST", {})
    with pytest.raises(store.CacheRefused, match="readable or writable by others"):
        store.check_ready()
    _fresh_trust(monkeypatch, cache, cache / "cache.key")
    with pytest.raises(store.CacheRefused, match="inside the cache folder"):
        store.check_ready()


def test_default_key_location_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("CBDP_SYM_CACHE_KEY", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert store.key_path() == tmp_path / "cbdp-sym" / "cache.key"
