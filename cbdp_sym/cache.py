"""An on-disk cache of numeric results, keyed by everything that determines them.

Key: the function's qualified name, its arguments, the working precision, and a code version (a
hash of the engine's sources and of the file that defines the function), so a rerun is instant and
a change of code invalidates the right entries.  Values are stored exactly, as data (an mpf's mantissa and
exponent; :mod:`cbdp_sym.serial`), so a report built from the cache is byte-identical to one built
from scratch.  Each entry carries its key and a SHA-256 of key and value, checked before anything is
decoded: a damaged or edited entry is reported once, discarded and recomputed, never trusted.

The folder is ``$CBDP_SYM_CACHE`` or ``~/.cache/cbdp-sym``; ``CBDP_SYM_NO_CACHE=1`` (or the CLI's
``--no-cache``) turns it off.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import json
import os
import tempfile
from pathlib import Path

import mpmath as mp

_ENABLED = [os.environ.get("CBDP_SYM_NO_CACHE", "") not in ("1", "true", "yes")]


def set_enabled(flag: bool) -> None:
    _ENABLED[0] = bool(flag)


def cache_dir() -> Path:
    return Path(os.environ.get("CBDP_SYM_CACHE") or Path.home() / ".cache" / "cbdp-sym")


# modules that cannot change a numeric result (presentation, command line, discovery)
_NOT_NUMERIC = {"report.py", "cli.py", "audit.py", "registry.py", "__main__.py", "figures.py", "latexbuild.py",
                "outputs.py", "workers.py", "executor.py", "printing.py", "display.py", "scaffold.py", "_build_info.py"}


@functools.lru_cache(maxsize=None)
def _engine_version() -> str:
    h = hashlib.sha256()
    root = Path(__file__).resolve().parent
    # the whole package tree, recursively, by relative path: moving or renaming a file changes the key
    for p in sorted(root.rglob("*.py"), key=lambda q: q.relative_to(root).as_posix()):
        rel = p.relative_to(root).as_posix()
        if rel in _NOT_NUMERIC or rel.startswith("derivations/") or "__pycache__" in rel:
            continue  # (a derivation module's own file is in its functions' keys: _file_version)
        h.update(rel.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _file_version(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        return "unknown"


_FORMAT = 2
_WARNED: set = set()


class BadEntry(ValueError):
    """A cache entry that is damaged, edited, of another key, or not data of the expected form."""


def _digest(key: str, value) -> str:
    body = json.dumps([key, value], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(body.encode()).hexdigest()


def write_entry(path: Path, key: str, value) -> bool:
    """Store ``value`` (anything :func:`cbdp_sym.serial.encode` accepts) under ``key``, atomically.

    The file holds the key, the encoded value and a SHA-256 of both; returns ``False`` (and stores
    nothing) if the value cannot be stored as data or the folder is not writable."""
    from .serial import encode

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
    from .serial import BadData, decode

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
    import sys

    if str(path) in _WARNED:
        return
    _WARNED.add(str(path))
    print(f"cbdp-sym: warning: discarded cache entry {path} ({why}); recomputed", file=sys.stderr, flush=True)


def lookup(path: Path, key: str, compute):
    """The cached value at ``path`` if intact, else ``compute()`` stored there (a bad entry is reported)."""
    try:
        return read_entry(path, key)
    except FileNotFoundError:
        pass
    except BadEntry as exc:
        report_bad_entry(path, str(exc))
    value = compute()
    write_entry(path, key, value)
    return value


def cached_numeric(fn):
    """Cache a numeric function of hashable arguments on disk (mpf values, or lists / dicts of them)."""
    src = inspect.getsourcefile(fn) or ""

    @functools.wraps(fn)
    def wrapper(*args):
        if not _ENABLED[0]:
            return fn(*args)
        key_src = json.dumps([fn.__qualname__, [str(a) for a in args], mp.mp.prec, _engine_version(), _file_version(src)])
        key = hashlib.sha256(key_src.encode()).hexdigest()
        return lookup(cache_dir() / key[:2] / f"{key}.json", key_src, lambda: fn(*args))

    return wrapper
