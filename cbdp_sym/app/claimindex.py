"""The claim index: what ``cbdp-sym list`` prints, kept so that a second ``list`` imports no paper module.

Listing the claims means loading every paper module, and the paper modules import SymPy and most of the engine
(about 1.4 s).  The index keeps the list (each claim's ID and label, in the registry's order, and the paper folder that defines it,
so that ``eval ID`` and ``show ID`` load that paper only) and the coverage lines in the cache folder, under a key made of

* the bytes of every source file that loading the papers could read: the engine's ``*.py`` files and every ``*.py``
  and ``*.tsv`` file under each derivations root (the built-in one and each ``--path DIR``), with their places;
* the Python version and the files of the installed SymPy and mpmath (size and time of their ``__init__.py``).

So any edit of a paper module, a catalogue or the engine gives another key, and the list is made again by loading
the papers (:class:`cbdp_sym.app.registry.Registry`).  An entry carries a SHA-256 of its key and content, checked
before use: a damaged entry is reported once and made again, never trusted.  Off with the cache
(``CBDP_SYM_NO_CACHE=1``).  This module imports nothing of the engine beyond the standard library, so a hit costs a
few milliseconds.

>>> index = {"claims": [["P-T1", "Theorem 1", "/papers", "p"]], "coverage": [["p", 1, 2, []]]}
>>> print(render(index))
P-T1                     Theorem 1
<BLANKLINE>
coverage p: 1/2 catalogued claims encoded
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import sys
import tempfile
from pathlib import Path

from cbdp_sym.core import cachekey

__all__ = ["index_key", "load", "save", "from_registry", "paper_of", "render"]

FORMAT = 3  # (2: a plain SHA-256, never trusted)
_PACKAGE = Path(__file__).resolve().parent.parent  # cbdp_sym/


def _builtin_root() -> Path | None:
    """The built-in derivations, where :func:`cbdp_sym.app.registry.builtin_root` finds them (a test keeps the two
    the same)."""
    for candidate in (_PACKAGE / "derivations", _PACKAGE.parent / "derivations"):
        if candidate.is_dir():
            return candidate
    return None


def _files(root: Path, suffixes) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        out.extend(Path(dirpath) / f for f in sorted(filenames) if f.endswith(suffixes))
    return out


def _library_stamp(name: str) -> str:
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
        st = os.stat(spec.origin)
    except (ImportError, AttributeError, TypeError, OSError):
        return f"{name}: none"
    return f"{name}: {spec.origin} {st.st_size} {st.st_mtime_ns}"


def index_key(extra_roots=()) -> str | None:
    """The index's key for the built-in papers and ``extra_roots`` (``None``: a root is not a folder, so the registry
    must run, and report it)."""
    builtin = _builtin_root()
    roots = ([builtin] if builtin is not None else []) + [Path(r) for r in extra_roots]
    h = hashlib.sha256(f"claim-index {FORMAT}; python {sys.version}".encode())
    for name in ("sympy", "mpmath"):
        h.update(b"\0" + _library_stamp(name).encode())
    engine = [p for p in _files(_PACKAGE, (".py",)) if "derivations" not in p.relative_to(_PACKAGE).parts]
    groups = [("engine", _PACKAGE, engine)]
    for i, root in enumerate(roots):
        if not root.is_dir():
            return None
        root = root.resolve()
        groups.append((f"root {i} {root}", root, _files(root, (".py", ".tsv"))))
    for label, base, files in groups:
        h.update(b"\1" + label.encode())
        for p in files:
            try:
                data = p.read_bytes()
            except OSError:
                data = b"\xff unreadable"
            h.update(b"\0" + p.relative_to(base).as_posix().encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def _cache_dir() -> Path:  # (cbdp_sym.core.store.cache_dir, from the module without the serialiser and SymPy)
    return cachekey.cache_dir()


def _enabled() -> bool:
    return os.environ.get("CBDP_SYM_NO_CACHE", "") not in ("1", "true", "yes")


def _checksum(key: str, body) -> str | None:
    """HMAC-SHA-256 of the entry under the cache's secret key (:mod:`cbdp_sym.core.cachekey`; a checksum anyone can
    recompute would let anyone forge the index); ``None`` when the cache folder or its key cannot be trusted."""
    secret = cachekey.secret_or_none()
    if secret is None:
        return None
    return cachekey.mac_text(secret, json.dumps([FORMAT, key, body], sort_keys=True, separators=(",", ":")))


def _valid(body) -> bool:
    return (isinstance(body, dict) and set(body) == {"claims", "coverage"}
            and all(isinstance(c, list) and len(c) == 4 and all(isinstance(x, str) for x in c) for c in body["claims"])
            and all(isinstance(c, list) and len(c) == 4 and isinstance(c[0], str) and isinstance(c[1], int)
                    and isinstance(c[2], int) and isinstance(c[3], list) for c in body["coverage"]))


def _path(key: str) -> Path:
    return _cache_dir() / "claim-index" / f"{key}.json"


def load(extra_roots=()) -> dict | None:
    """The stored index for these roots, or ``None`` (none stored, sources changed, cache off, or a damaged entry:
    reported once)."""
    if not _enabled():
        return None
    key = index_key(extra_roots)
    if key is None:
        return None
    path = _path(key)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, UnicodeDecodeError):
        doc = None
    if not (isinstance(doc, dict) and doc.get("format") == FORMAT and doc.get("key") == key
            and _valid(doc.get("index")) and isinstance(doc.get("mac"), str)
            and hmac.compare_digest(doc["mac"], _checksum(key, doc.get("index")) or "")):
        print(f"cbdp-sym: warning: discarded cache entry {path} (damaged claim index); made again", file=sys.stderr)
        return None
    return doc["index"]


def save(extra_roots, index: dict) -> bool:
    """Store ``index`` (of :func:`from_registry`) for these roots, atomically; ``False`` if it is not stored."""
    if not _enabled() or not _valid(index):
        return False
    key = index_key(extra_roots)
    if key is None:
        return False
    path = _path(key)
    mac = _checksum(key, index)
    if mac is None:
        return False
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8") as fh:
            tmp = fh.name
            json.dump({"format": FORMAT, "key": key, "index": index, "mac": mac}, fh,
                      sort_keys=True, separators=(",", ":"))
        os.replace(tmp, path)
        return True
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False


def from_registry(reg) -> dict:
    """The index of a loaded :class:`~cbdp_sym.app.registry.Registry`: each claim's ID, label, and the root and folder
    of the paper module that defines it; the coverage lines."""
    import sys

    files = {}
    for name, mod in list(sys.modules.items()):
        if name.startswith("cbdp_sym_derivations.") and getattr(mod, "__file__", None):
            path = Path(mod.__file__).resolve()  # (once per module: resolving is a system call per path part)
            for obj in vars(mod).values():
                files.setdefault(id(obj), path)
    claims = []
    for c in reg.claims():
        f = files.get(id(c))
        claims.append([c.id, c.label, str(f.parent.parent) if f else "", f.parent.name if f else ""])
    return {"claims": claims,
            "coverage": [[key, enc, cat, list(extra)] for key, (enc, cat, extra) in reg.coverage().items()]}


def paper_of(index: dict, cid: str):
    """``(root, folder)`` of the paper that defines the claim ``cid`` (matched as :meth:`Registry.get` matches it), or
    ``None`` (not encoded: the registry then says why)."""
    folded = str(cid).strip().casefold()
    for exact in (True, False):
        for c_id, _label, root, folder in index["claims"]:
            if (c_id == cid if exact else c_id.casefold() == folded) and folder:
                return Path(root), folder
    return None


def render(index: dict) -> str:
    """What ``cbdp-sym list`` prints: one line per claim, a blank line, one coverage line per paper."""
    lines = [f"{cid:<24} {label}" for cid, label, *_ in index["claims"]] + [""]
    for key, enc, cat, extra in index["coverage"]:
        line = f"coverage {key}: {enc}/{cat} catalogued claims encoded"
        if extra:
            line += f" (+{len(extra)} parts: {', '.join(extra)})"
        lines.append(line)
    return "\n".join(lines)
