"""An on-disk cache of numeric results, keyed by everything that determines them.

Key: the function's qualified name, its arguments, the working precision, and a code version (a
hash of the engine's sources and of the file that defines the function), so a rerun is instant and
a change of code invalidates the right entries.  Values are stored exactly (an mpf's mantissa and
exponent), so a report built from the cache is byte-identical to one built from scratch.

The folder is ``$CBDP_SYM_CACHE`` or ``~/.cache/cbdp-sym``; ``CBDP_SYM_NO_CACHE=1`` (or the CLI's
``--no-cache``) turns it off.
"""
from __future__ import annotations

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
_NOT_NUMERIC = {"report.py", "cli.py", "audit.py", "registry.py", "__main__.py", "figures.py"}


@functools.lru_cache(maxsize=None)
def _engine_version() -> str:
    h = hashlib.sha256()
    for p in sorted(Path(__file__).resolve().parent.glob("*.py")):
        if p.name in _NOT_NUMERIC:
            continue
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _file_version(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        return "unknown"


def _encode(value):
    """Exact JSON form of an mpf, or of lists / dicts / scalars holding mpfs."""
    if isinstance(value, mp.mpf):
        return {"mpf": [int(v) if not isinstance(v, str) else v for v in value._mpf_]}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {"dict": [[k, _encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(type(value))


def _decode(obj):
    if isinstance(obj, list):
        return [_decode(v) for v in obj]
    if isinstance(obj, dict):
        if "mpf" in obj:
            sign, man, exp, bc = obj["mpf"]
            return mp.mpf((sign, int(man), exp, bc))
        return {k: _decode(v) for k, v in obj["dict"]}
    return obj


def cached_numeric(fn):
    """Cache a numeric function of hashable arguments on disk (mpf values, or lists / dicts of them)."""
    src = inspect.getsourcefile(fn) or ""

    @functools.wraps(fn)
    def wrapper(*args):
        if not _ENABLED[0]:
            return fn(*args)
        key_src = json.dumps([fn.__qualname__, [str(a) for a in args], mp.mp.prec, _engine_version(), _file_version(src)])
        key = hashlib.sha256(key_src.encode()).hexdigest()
        path = cache_dir() / key[:2] / f"{key}.json"
        if path.exists():
            try:
                return _decode(json.loads(path.read_text()))
            except (ValueError, KeyError, OSError):
                pass
        value = fn(*args)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as fh:
                json.dump(_encode(value), fh)
            os.replace(fh.name, path)
        except (OSError, TypeError):
            pass
        return value

    return wrapper
