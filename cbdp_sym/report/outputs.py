"""Output paths checked before any work, files written atomically, and one audit per output folder.

* :func:`check_out_dir` / :func:`check_json_path`: a report folder must be a folder (created if
  missing) that we can write into; a JSON path must not be a folder and its folder must be writable.
  Both are checked at the start of a command, so a bad path costs no computation.
* :func:`write_atomic`: every file is written to a temporary name in its folder, flushed and renamed
  over the old one, so a full disk or a kill never leaves a truncated file.
* :func:`folder_lock`: an exclusive ``fcntl`` lock on ``<folder>/.cbdp-sym.lock`` held while an audit
  writes there; a second audit into the same folder is refused with a message.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from cbdp_sym.core.errors import CbdpError


def _writable_folder(folder: Path, flag: str) -> None:
    """Raise :class:`CbdpError` unless ``folder`` is (or can be made) a writable folder."""
    if folder.exists() and not folder.is_dir():
        raise CbdpError(f"{flag} {folder}: is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CbdpError(f"{flag} {folder}: a part of this path is a file, not a folder") from None
    except OSError as exc:
        raise CbdpError(f"{flag} {folder}: cannot create the folder ({exc.strerror or exc})") from None
    try:
        fd, probe = tempfile.mkstemp(prefix=".cbdp-sym-probe-", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise CbdpError(f"{flag} {folder}: not writable ({exc.strerror or exc})") from None


def check_out_dir(out: Path, flag: str = "--out") -> Path:
    """The report folder, created and checked writable (a file or a read-only folder is refused)."""
    out = Path(out)
    _writable_folder(out, flag)
    return out


def check_json_path(path: Path | None, flag: str = "--json") -> Path | None:
    """A JSON output path: not a folder, in a writable folder."""
    if path is None:
        return None
    path = Path(path)
    if path.is_dir():
        raise CbdpError(f"{flag} {path}: is a folder, not a file name")
    if path.exists() and not os.access(path, os.W_OK):
        raise CbdpError(f"{flag} {path}: the file is not writable")
    _writable_folder(path.parent if str(path.parent) else Path("."), flag)
    return path


def write_atomic(path: Path, text: str | bytes, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = write_atomic(d / "a.txt", "hello")
    >>> (d / "a.txt").read_text()
    'hello'
    """
    path = Path(path)
    data = text.encode(encoding) if isinstance(text, str) else text
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise CbdpError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return path


@contextlib.contextmanager
def folder_lock(folder: Path):
    """Hold an exclusive lock on ``folder`` (refused with :class:`CbdpError` if another audit holds it)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield
        return
    lock = Path(folder) / ".cbdp-sym.lock"
    try:
        fh = open(lock, "a+")
    except OSError as exc:
        raise CbdpError(f"cannot lock {folder}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CbdpError(f"another audit is writing to {folder} (lock {lock.name} held); "
                            "wait for it to finish or choose another --out") from None
        yield
    finally:
        fh.close()
