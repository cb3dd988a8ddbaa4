"""Output paths checked before any work, only regular files written, atomically, and one audit per output folder.

* :func:`check_out_dir` / :func:`check_json_path`: a report folder must be a folder (created if
  missing, not a symbolic link) that we can write into, and none of the names an audit writes there may be a
  symbolic link, a named pipe, a device, a socket or a folder; a JSON path must be a regular file or nothing yet
  (never a symbolic link, a device such as ``/dev/null``, a pipe or a folder), in a writable folder.  Both are
  checked at the start of a command, so a bad path costs no computation and nothing is clobbered.
* :func:`write_atomic`: every file is written to a temporary name in its folder, flushed and renamed
  over the old one, so a full disk or a kill never leaves a truncated file; a target that is not a regular file
  is refused (again, at the moment of writing).  Files get the permissions the user's umask gives a new file
  (``0644`` under the usual ``022``), not the temporary file's ``0600``.
* :func:`folder_lock`: an exclusive ``fcntl`` lock on ``<folder>/.cbdp-sym.lock`` (opened without following a
  symbolic link) held while an audit writes there; a second audit into the same folder is refused with a message.
"""
from __future__ import annotations

import contextlib
import errno
import fnmatch
import os
import stat
import tempfile
import threading
from pathlib import Path

from cbdp_sym.core.errors import CbdpError

# the names an audit writes in its report folder (and ``figures/*.csv``)
OUTPUT_PATTERNS = ("audit*.json", "appendix-*", "supplement-*", "cbdpsym*", ".cbdp-sym.lock", ".*.pdf.sources.json")

_UMASK: list = []
_UMASK_LOCK = threading.Lock()


def umask() -> int:
    """The process's umask (read once: from ``/proc/self/status`` where it is shown, else by setting it and
    setting it back, under a lock)."""
    with _UMASK_LOCK:
        if not _UMASK:
            value = None
            with contextlib.suppress(OSError, ValueError):
                with open("/proc/self/status", encoding="ascii") as fh:
                    for line in fh:
                        if line.startswith("Umask:"):
                            value = int(line.split()[1], 8)
            if value is None:
                value = os.umask(0o022)
                os.umask(value)
            _UMASK.append(value)
        return _UMASK[0]


def file_mode() -> int:
    """The permissions of a new file under the user's umask (``0o666 & ~umask``)."""
    return 0o666 & ~umask()


def _kind(st) -> str:
    m = st.st_mode
    if stat.S_ISLNK(m):
        return "a symbolic link"
    if stat.S_ISDIR(m):
        return "a folder"
    if stat.S_ISFIFO(m):
        return "a named pipe"
    if stat.S_ISCHR(m) or stat.S_ISBLK(m):
        return "a device"
    if stat.S_ISSOCK(m):
        return "a socket"
    return "not a regular file"


def refuse_unless_regular(path: Path, flag: str) -> None:
    """Raise :class:`CbdpError` if something other than a regular file sits at ``path`` (a symbolic link is refused
    whatever it points to); nothing there is fine."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CbdpError(f"{flag} {path}: cannot inspect it ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise CbdpError(f"{flag} {path}: is {_kind(st)}, not a regular file: refused (only regular files are written)")


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
    """The report folder, created and checked writable (a file, a symbolic link or a read-only folder is refused),
    with nothing but regular files at the names an audit writes (:data:`OUTPUT_PATTERNS`, ``figures/*.csv``)."""
    out = Path(out)
    if out.is_symlink():
        raise CbdpError(f"{flag} {out}: is a symbolic link (to {os.path.realpath(out)}): pass the folder itself")
    _writable_folder(out, flag)
    for entry in sorted(os.listdir(out)):
        if any(fnmatch.fnmatchcase(entry, pat) for pat in OUTPUT_PATTERNS):
            refuse_unless_regular(out / entry, flag)
    fig = out / "figures"
    if os.path.lexists(fig):
        st = os.lstat(fig)
        if not stat.S_ISDIR(st.st_mode):
            raise CbdpError(f"{flag} {out}: its figures/ is {_kind(st)}, not a folder: refused")
        for entry in sorted(os.listdir(fig)):
            if entry.endswith(".csv"):
                refuse_unless_regular(fig / entry, flag)
    return out


def check_json_path(path: Path | None, flag: str = "--json") -> Path | None:
    """A JSON output path: a regular file or nothing yet (not a folder, a symbolic link, a device or a pipe), in a
    writable folder."""
    if path is None:
        return None
    path = Path(path)
    if os.path.lexists(path) and (path.is_symlink() or not path.is_dir()):
        refuse_unless_regular(path, flag)
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
    refuse_unless_regular(path, "cannot write")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        os.fchmod(fd, file_mode())  # (mkstemp makes it 0600: the report gets the umask's permissions)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        refuse_unless_regular(path, "cannot write")  # (something put there meanwhile is not replaced either)
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
    flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(lock, flags, 0o666)
    except OSError as exc:
        why = "it is a symbolic link" if exc.errno == errno.ELOOP else (exc.strerror or exc)
        raise CbdpError(f"cannot lock {folder}: {lock.name}: {why}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise CbdpError(f"cannot lock {folder}: {lock.name} is {_kind(st)}, not a regular file")
    fh = os.fdopen(fd, "r+")
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CbdpError(f"another audit is writing to {folder} (lock {lock.name} held); "
                            "wait for it to finish or choose another --out") from None
        yield
    finally:
        fh.close()
