"""Checksummed entries on disk, stored as data: the storage under the caches (:mod:`cbdp_sym.core.cache`, the import
records of :mod:`cbdp_sym.core.deps`, the result cache).

An entry holds its key, the value encoded by :mod:`cbdp_sym.core.serial` and a SHA-256 of both, checked before anything
is decoded: a damaged or edited entry is reported once (:func:`report_bad_entry`), discarded and recomputed.  The
folder is ``$CBDP_SYM_CACHE`` or ``~/.cache/cbdp-sym``; ``CBDP_SYM_NO_CACHE=1`` (or the CLI's ``--no-cache``)
turns every cache off.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from cbdp_sym.core.serial import BadData, decode, encode

_ENABLED = [os.environ.get("CBDP_SYM_NO_CACHE", "") not in ("1", "true", "yes")]


def set_enabled(flag: bool) -> None:
    _ENABLED[0] = bool(flag)


def cache_dir() -> Path:
    return Path(os.environ.get("CBDP_SYM_CACHE") or Path.home() / ".cache" / "cbdp-sym")


_FORMAT = 2
_WARNED: set = set()


class BadEntry(ValueError):
    """A cache entry that is damaged, edited, of another key, or not data of the expected form."""


def _digest(key: str, value) -> str:
    body = json.dumps([key, value], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(body.encode()).hexdigest()


def write_entry(path: Path, key: str, value) -> bool:
    """Store ``value`` (anything :func:`cbdp_sym.core.serial.encode` accepts) under ``key``, atomically.

    The file holds the key, the encoded value and a SHA-256 of both; returns ``False`` (and stores
    nothing) if the value cannot be stored as data or the folder is not writable."""
    tmp = None
    try:
        payload = encode(value)
        doc = {"format": _FORMAT, "key": key, "value": payload, "sha256": _digest(key, payload)}
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8") as fh:
            tmp = fh.name
            json.dump(doc, fh, sort_keys=True, separators=(",", ":"))
        os.replace(tmp, path)
        return True
    except (OSError, TypeError, ValueError, RecursionError):
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False


def read_entry(path: Path, key: str):
    """The value stored under ``key`` at ``path``; raises :class:`BadEntry` unless the file is an
    intact entry of this key (format, key and checksum checked before anything is decoded), and
    ``FileNotFoundError`` if there is none."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise BadEntry(f"unreadable ({type(exc).__name__})") from None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        raise BadEntry("not JSON") from None
    if not isinstance(doc, dict) or doc.get("format") != _FORMAT or set(doc) != {"format", "key", "value", "sha256"}:
        raise BadEntry("not a cache entry of this version")
    if doc["key"] != key:
        raise BadEntry("stored under another key")
    if doc["sha256"] != _digest(key, doc["value"]):
        raise BadEntry("checksum mismatch")
    try:
        return decode(doc["value"])
    except (BadData, RecursionError) as exc:
        raise BadEntry(f"bad data: {exc}") from None


def report_bad_entry(path: Path, why: str) -> None:
    """One warning line per damaged entry (the value is recomputed and the entry rewritten)."""
    if str(path) in _WARNED:
        return
    _WARNED.add(str(path))
    print(f"cbdp-sym: warning: discarded cache entry {path} ({why}); recomputed", file=sys.stderr, flush=True)


def lookup(path: Path, key: str, compute, min_seconds: float = 0.0, keep=None):
    """The cached value at ``path`` if intact, else ``compute()`` stored there (a bad entry is reported).

    ``min_seconds``: a value computed faster than this is not stored (reading a file would cost about as much);
    ``keep(value)``: a last condition for storing it (``None``: none)."""
    try:
        return read_entry(path, key)
    except FileNotFoundError:
        pass
    except BadEntry as exc:
        report_bad_entry(path, str(exc))
    start = time.perf_counter()
    value = compute()
    if time.perf_counter() - start >= min_seconds and (keep is None or keep(value)):
        write_entry(path, key, value)
    return value
