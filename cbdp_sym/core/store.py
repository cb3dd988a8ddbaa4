"""Authenticated entries on disk, stored as data: the storage under the caches (:mod:`cbdp_sym.core.cache`, the
import records of :mod:`cbdp_sym.core.deps`, the result cache, the rendered reports).

An entry holds its key, the value encoded by :mod:`cbdp_sym.core.serial` and an HMAC-SHA-256 of both (format and
key included), checked before anything is decoded.  A damaged, edited or forged entry (a checksum anyone can
recompute proves nothing: the MAC needs a secret) is reported once (:func:`report_bad_entry`), discarded and
recomputed.  What is read is bounded: only regular files (opened without following a symbolic link and without
blocking, so a named pipe in place of an entry cannot hang an audit), at most :data:`MAX_ENTRY_BYTES`, decoded under
a time limit (:data:`DECODE_SECONDS`, or the enclosing claim's own limit when it is shorter).

* **The folder** is ``$CBDP_SYM_CACHE`` or ``~/.cache/cbdp-sym``; ``CBDP_SYM_NO_CACHE=1`` (or the CLI's
  ``--no-cache``) turns every cache off.  It must belong to this user (or root) and be writable by no one else
  (neither its group nor every user), as ssh requires of ``~/.ssh``; otherwise it is refused: the CLI stops with
  one line naming ``--no-cache`` as the way out (:func:`check_ready`), a program using the library gets one
  warning and no cache.  Folders it makes are private (``0700``).
* **The key** is 32 random bytes in ``$CBDP_SYM_CACHE_KEY``, else ``$XDG_CONFIG_HOME/cbdp-sym/cache.key``, else
  ``~/.config/cbdp-sym/cache.key``: outside the cache folder (a key inside it is refused, as is a key that
  others can read or a folder others can write), made on first use with mode ``0600``.  An entry names its key by
  a key identifier (an HMAC of a constant: it reveals nothing of the key), so a cache folder copied from another
  machine or user (a CI cache restored from elsewhere) brings no trusted entries with it: entries of another key
  are ignored (recomputed and overwritten, without a warning), while an entry of this key whose MAC fails was
  edited or forged, and is reported.  To share a cache, share its key (``CBDP_SYM_CACHE_KEY``) with it.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
import stat
import sys
import tempfile
import time
from pathlib import Path

from cbdp_sym.core.cachekey import (  # noqa: F401 - (the trust of the folder and the key: a module without SymPy)
    KEY_ENV, CacheRefused, _check_folder, _inside, _load_or_make_key, _make_private_dirs, _read_key, _unsafe, cache_dir,
    key_path,
)
from cbdp_sym.core.serial import BadData, decode, encode
from cbdp_sym.core.timelimit import TimeLimitExceeded, time_limit

_ENABLED = [os.environ.get("CBDP_SYM_NO_CACHE", "") not in ("1", "true", "yes")]

MAX_ENTRY_BYTES = 16 << 20  # the largest entry of a full audit is a rendered supplement of a few hundred KB
DECODE_SECONDS = 60.0  # decoding the largest entry takes about 0.1 s


def set_enabled(flag: bool) -> None:
    _ENABLED[0] = bool(flag)


_FORMAT = 3  # 2: a plain SHA-256 (ignored, never trusted: recomputed and overwritten)
_WARNED: set = set()  # entries reported (by path)
_REFUSAL_SHOWN = [False]


class BadEntry(ValueError):
    """A cache entry that is damaged, edited, forged, of another key, or not data of the expected form."""


_TRUST: dict = {}  # (cache folder, key file) -> the key (bytes) or the refusal (CacheRefused)


def _trust():
    """The secret key for the current cache folder, or the :class:`CacheRefused` that says why there is none."""
    env = os.environ
    fast = (env.get("CBDP_SYM_CACHE"), env.get(KEY_ENV), env.get("XDG_CONFIG_HOME"), env.get("HOME"))
    got = _TRUST.get(fast)  # (read once per folder and key: every cache read asks)
    if got is not None:
        return got
    where = (str(cache_dir()), str(key_path()))
    got = _TRUST.get(where)
    if got is None:
        folder, kp = Path(where[0]), Path(where[1])
        try:
            if _inside(kp, folder):
                raise CacheRefused(f"the cache key {kp} lies inside the cache folder {folder}: set {KEY_ENV} to a "
                                   "file outside it")
            _check_folder(folder, "cache folder")
            _make_private_dirs(folder)
            got = _load_or_make_key(kp)
        except CacheRefused as exc:
            got = exc
        except OSError as exc:
            got = CacheRefused(f"cache folder {folder}: {exc.strerror or exc}")
        _TRUST[where] = got
    _TRUST[fast] = got
    return got


def check_ready() -> None:
    """Raise :class:`CacheRefused` (one line, naming ``--no-cache`` as the way out) if the cache is on and its folder
    or key cannot be trusted.  The CLI calls it before any work."""
    if not _ENABLED[0]:
        return
    got = _trust()
    if isinstance(got, CacheRefused):
        raise CacheRefused(f"{got}; fix that, choose another folder (CBDP_SYM_CACHE=DIR), or run with --no-cache")


def _secret() -> bytes | None:
    got = _trust()
    if isinstance(got, CacheRefused):
        if not _REFUSAL_SHOWN[0]:
            _REFUSAL_SHOWN[0] = True
            print(f"cbdp-sym: warning: cache not used: {got}", file=sys.stderr, flush=True)
        return None
    return got


def _mac(key: str, value, secret: bytes | None = None) -> str:
    secret = _secret() if secret is None else secret
    body = json.dumps([_FORMAT, key, value], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()


def _key_id(secret: bytes) -> str:
    """A name of the key that reveals nothing of it (an HMAC of a constant)."""
    return hmac.new(secret, b"cbdp-sym cache key id", hashlib.sha256).hexdigest()[:16]


# -- entries ----------------------------------------------------------------------------------------------------
def write_entry(path: Path, key: str, value) -> bool:
    """Store ``value`` (anything :func:`cbdp_sym.core.serial.encode` accepts) under ``key``, atomically.

    The file holds the key, the encoded value and an HMAC of both; returns ``False`` (and stores nothing) if the
    value cannot be stored as data, the folder is not writable or the cache cannot be trusted."""
    secret = _secret()
    if secret is None:
        return False
    tmp = None
    try:
        payload = encode(value)
        doc = {"format": _FORMAT, "key": key, "value": payload, "kid": _key_id(secret), "mac": _mac(key, payload, secret)}
        text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
        if len(text) > MAX_ENTRY_BYTES:
            return False
        _make_private_dirs(path.parent)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8") as fh:
            tmp = fh.name
            fh.write(text)
        os.replace(tmp, path)
        return True
    except (OSError, TypeError, ValueError, RecursionError):
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False


def _read_regular(path: Path) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most :data:`MAX_ENTRY_BYTES` (``FileNotFoundError`` if
    there is none; :class:`BadEntry` for a symbolic link, a pipe, a device, a folder or a file too large)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise BadEntry("a symbolic link, not a regular file") from None
        raise BadEntry(f"unreadable ({exc.strerror or type(exc).__name__})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadEntry("not a regular file")
        if st.st_size > MAX_ENTRY_BYTES:
            raise BadEntry(f"{st.st_size} bytes, more than the {MAX_ENTRY_BYTES} an entry may hold")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > MAX_ENTRY_BYTES:
                raise BadEntry(f"more than the {MAX_ENTRY_BYTES} bytes an entry may hold")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise BadEntry(f"unreadable ({exc.strerror or type(exc).__name__})") from None
    finally:
        os.close(fd)


def _decode_limited(payload):
    """``decode(payload)`` under :data:`DECODE_SECONDS` (a hard limit: it works under a foreign timer; the
    enclosing claim's limit, when it expires first, goes on up as the claim's)."""
    what = "decoding a cache entry"
    try:
        with time_limit(DECODE_SECONDS, what, hard=True):
            return decode(payload)
    except TimeLimitExceeded as exc:
        if getattr(exc, "what", None) != what:
            raise
        raise BadEntry(f"decoding took more than {DECODE_SECONDS:g} s") from None


def read_entry(path: Path, key: str):
    """The value stored under ``key`` at ``path``; raises :class:`BadEntry` unless the file is an intact,
    authentic entry of this key (format, key and MAC checked before anything is decoded), and
    ``FileNotFoundError`` if there is none (or the cache cannot be trusted: then nothing is read)."""
    secret = _secret()
    if secret is None:
        raise FileNotFoundError(str(path))
    data = _read_regular(path)
    try:
        doc = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        raise BadEntry("not JSON") from None
    if isinstance(doc, dict) and doc.get("format") == 2 and "sha256" in doc:
        raise FileNotFoundError(str(path))  # an entry of an earlier version (unauthenticated): never read
    if not isinstance(doc, dict) or doc.get("format") != _FORMAT or set(doc) != {"format", "key", "value", "kid", "mac"}:
        raise BadEntry("not a cache entry of this version")
    if doc["key"] != key:
        raise BadEntry("stored under another key")
    if doc["kid"] != _key_id(secret):
        raise FileNotFoundError(str(path))  # written with another secret key (another machine or user): not ours
    if not isinstance(doc["mac"], str) or not hmac.compare_digest(doc["mac"], _mac(key, doc["value"], secret)):
        raise BadEntry("authentication failed (edited, forged, or written with another key)")
    try:
        return _decode_limited(doc["value"])
    except (BadData, RecursionError) as exc:
        raise BadEntry(f"bad data: {exc}") from None


def report_bad_entry(path: Path, why: str) -> None:
    """One warning line per damaged entry (the value is recomputed and the entry rewritten)."""
    if str(path) in _WARNED:
        return
    _WARNED.add(str(path))
    print(f"cbdp-sym: warning: discarded cache entry {path} ({why}); recomputed", file=sys.stderr, flush=True)


def read_valid(path: Path, key: str, valid=None, what: str = "not the expected data"):
    """The value stored at ``path`` under ``key``, or ``None`` when there is none or it is bad (a bad entry, or one
    ``valid(value)`` rejects as ``what``, is reported and then ignored)."""
    try:
        got = read_entry(path, key)
        if valid is not None and not valid(got):
            raise BadEntry(what)
        return got
    except FileNotFoundError:
        return None
    except BadEntry as exc:
        report_bad_entry(path, str(exc))
        return None


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
