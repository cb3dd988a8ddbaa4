"""An on-disk cache of numeric results, keyed by everything that determines them.

Key: the function's qualified name, its arguments, the working precision, and a code version (a
hash of the file that defines the function and of the modules it imports, transitively:
:func:`code_version`), so a rerun is instant and a change of code invalidates the entries of the code
that depends on it, and only those.  Values are stored exactly, as data (an mpf's mantissa and
exponent; :mod:`cbdp_sym.core.serial`), so a report built from the cache is byte-identical to one built
from scratch.  Each entry carries its key and a SHA-256 of key and value, checked before anything is
decoded: a damaged or edited entry is reported once, discarded and recomputed, never trusted.

The folder is ``$CBDP_SYM_CACHE`` or ``~/.cache/cbdp-sym``; ``CBDP_SYM_NO_CACHE=1`` (or the CLI's
``--no-cache``) turns it off.  The switch, the folder and the entries themselves are :mod:`cbdp_sym.core.store`'s
(``store.set_enabled``, ``store.cache_dir``, ``store.read_entry``, ...): import them from there.
"""
from __future__ import annotations

import functools
import hashlib
import inspect
import json

import mpmath as mp

import cbdp_sym.core.deps as deps
import cbdp_sym.core.store as store


@functools.lru_cache(maxsize=None)
def code_version(path: str) -> str:
    """The code version of what ``path`` defines: a hash of that file, of every engine module (and module of
    its own folder) it imports, transitively, and of the Python / SymPy / mpmath / flint versions
    (:func:`cbdp_sym.core.deps.digest`).  An edit of ``report.py`` keeps a value computed by ``restricted.py``; an
    edit of ``restricted.py`` invalidates it, and every value whose code imports it.  Computed once per
    process and file."""
    if not path:
        return "unknown"
    try:
        return deps.digest([path])[:16]
    except OSError:
        return "unknown"


# (the former name: a file's version is now the version of the code it depends on)
_file_version = code_version


def cached_numeric(fn=None, *, key=None, min_seconds=0.0):
    """Cache a numeric function of hashable arguments on disk (mpf values, or lists / dicts of them).

    ``key``: the arguments' part of the key, ``key(*args)`` -> a string, or ``None`` for arguments that are not to
    be cached (computed every time); the default is the arguments' text.  ``min_seconds``: a value that took less
    than this to compute is not written (reading a file would cost about as much); the default writes every value.
    Used as ``@cached_numeric`` or ``@cached_numeric(key=..., min_seconds=...)``."""
    if fn is None:
        return functools.partial(cached_numeric, key=key, min_seconds=min_seconds)
    src = inspect.getsourcefile(fn) or ""

    def where(args):
        part = [str(a) for a in args] if key is None else key(*args)
        if part is None:
            return None, None
        key_src = json.dumps([fn.__qualname__, part, mp.mp.prec, code_version(src)])
        digest = hashlib.sha256(key_src.encode()).hexdigest()
        return store.cache_dir() / digest[:2] / f"{digest}.json", key_src

    @functools.wraps(fn)
    def wrapper(*args):
        if not store._ENABLED[0]:
            return fn(*args)
        path, key_src = where(args)
        if path is None:
            return fn(*args)
        return store.lookup(path, key_src, lambda: fn(*args), min_seconds)

    def stored(*args):
        """``(True, value)`` if the value for ``args`` is on disk (intact), else ``(False, None)``; never computes."""
        if not store._ENABLED[0]:
            return False, None
        path, key_src = where(args)
        if path is None:
            return False, None
        try:
            return True, store.read_entry(path, key_src)
        except FileNotFoundError:
            return False, None
        except store.BadEntry as exc:
            store.report_bad_entry(path, str(exc))
            return False, None

    wrapper.stored = stored
    return wrapper
