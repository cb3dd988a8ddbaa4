"""The trust of the cache folder and of its secret key (see :mod:`cbdp_sym.core.store`), in a module that imports
neither SymPy nor the serialiser: the claim index (:mod:`cbdp_sym.app.claimindex`, read by ``cbdp-sym list`` before
anything else is imported) authenticates its entry with the same key.

>>> import os
>>> str(cache_dir()) == os.environ.get("CBDP_SYM_CACHE", str(cache_dir()))
True
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import os
import secrets
import stat
import tempfile
from pathlib import Path

from cbdp_sym.core.errors import CbdpError

KEY_ENV = "CBDP_SYM_CACHE_KEY"


def cache_dir() -> Path:
    return Path(os.environ.get("CBDP_SYM_CACHE") or Path.home() / ".cache" / "cbdp-sym")


def key_path() -> Path:
    """Where the cache's secret key lives (see the module's docstring)."""
    explicit = os.environ.get(KEY_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "cbdp-sym" / "cache.key"


class CacheRefused(CbdpError):
    """The cache folder or its key cannot be trusted (another owner, writable by others)."""


# -- trust: the folder, its key ------------------------------------------------------------------------------
def _unsafe(path: Path, st, uid: int, what: str) -> str | None:
    """Why ``path`` (with ``os.stat`` result ``st``) cannot hold trusted files, or ``None``."""
    if st.st_uid not in (uid, 0):
        try:
            import pwd

            owner = pwd.getpwuid(st.st_uid).pw_name
        except (ImportError, KeyError):
            owner = f"uid {st.st_uid}"
        return f"{what} {path} belongs to another user ({owner})"
    mode = stat.S_IMODE(st.st_mode)
    if mode & stat.S_IWOTH:
        return f"{what} {path} is writable by every user (mode {mode:04o}; chmod go-w it)"
    if mode & stat.S_IWGRP:
        return f"{what} {path} is writable by its group (mode {mode:04o}; chmod g-w it)"
    return None


def _check_folder(folder: Path, what: str) -> None:
    """Raise :class:`CacheRefused` unless ``folder`` (if it exists) is a folder of this user (or root) that no one
    else may write into.  (The folders above it are not checked: a folder swapped in by someone else belongs to
    them, and is refused.)"""
    uid = os.geteuid() if hasattr(os, "geteuid") else 0
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CacheRefused(f"{what} {folder}: cannot inspect it ({exc.strerror or exc})") from None
    if not stat.S_ISDIR(st.st_mode):
        raise CacheRefused(f"{what} {folder} is not a folder")
    why = _unsafe(folder, st, uid, what)
    if why:
        raise CacheRefused(why)


def _make_private_dirs(folder: Path) -> None:
    """Create ``folder`` (and missing parents) with mode 0700."""
    missing = []
    q = Path(folder)
    while not q.exists():
        missing.append(q)
        if q.parent == q:
            break
        q = q.parent
    for d in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(d, 0o700)


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(folder))
        return True
    except ValueError:
        return False


def _read_key(path: Path) -> bytes:
    uid = os.geteuid() if hasattr(os, "geteuid") else 0
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            raise
        raise CacheRefused(f"cache key {path}: cannot open it ({exc.strerror or exc}; a symbolic link is refused)") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise CacheRefused(f"cache key {path} is not a regular file")
        if st.st_uid not in (uid, 0):
            raise CacheRefused(f"cache key {path} belongs to another user")
        if stat.S_IMODE(st.st_mode) & 0o077:
            raise CacheRefused(f"cache key {path} is readable or writable by others (mode "
                               f"{stat.S_IMODE(st.st_mode):04o}; chmod 600 it)")
        text = os.read(fd, 4096).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) < 32:
        raise CacheRefused(f"cache key {path} is not a key written by cbdp-sym (64 hexadecimal digits)")
    return key


def _load_or_make_key(path: Path) -> bytes:
    _check_folder(path.parent, "the cache key's folder")
    try:
        return _read_key(path)
    except FileNotFoundError:
        pass
    try:
        _make_private_dirs(path.parent)
        fd, tmp = tempfile.mkstemp(prefix=".cache.key.", dir=path.parent)  # (mode 0600)
    except OSError as exc:
        raise CacheRefused(f"cache key {path}: cannot create it ({exc.strerror or exc}); set {KEY_ENV} to a file of "
                           "your own") from None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secrets.token_hex(32) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(FileExistsError):  # another process made it first: theirs is the key
            os.link(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return _read_key(path)


_SECRETS: dict = {}


def secret_or_none() -> bytes | None:
    """The secret key of the current cache folder, or ``None`` when the folder or the key cannot be trusted (no
    warning here: :func:`cbdp_sym.core.store.check_ready` and the caches say why)."""
    where = (str(cache_dir()), str(key_path()))
    if where not in _SECRETS:
        folder, kp = Path(where[0]), Path(where[1])
        try:
            if _inside(kp, folder):
                raise CacheRefused("key inside the cache folder")
            _check_folder(folder, "cache folder")
            _SECRETS[where] = _load_or_make_key(kp)
        except (CacheRefused, OSError):
            _SECRETS[where] = None
    return _SECRETS[where]


def mac_text(secret: bytes, text: str) -> str:
    """HMAC-SHA-256 of ``text`` under ``secret`` (hexadecimal)."""
    return hmac.new(secret, text.encode(), hashlib.sha256).hexdigest()
