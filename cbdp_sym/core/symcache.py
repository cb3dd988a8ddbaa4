"""A cache of SymPy's own operations (``simplify``, ``integrate``, ``solve``, ``limit``), keyed by the exact input tree.

Claims that derive from the same primitives ask SymPy the same questions: the Laplace and Gaussian integrals of
the Table 1 cells, Theorem 9 and the supplement, the hockey-stick integrals of the peers' comparisons.  Each claim
runs in a fresh worker (:mod:`cbdp_sym.app.workers`), so SymPy's in-memory cache does not carry from one claim to the
next; this cache does, through the cache folder.

* **Key**: the operation's name, ``srepr`` of its arguments (every node, a Float's precision, a symbol's
  assumptions, the argument order) and of its keyword arguments, and the SymPy version.  What SymPy returns for an
  operation depends on nothing else, so no engine code version is part of the key: an edit of the engine does not
  invalidate these entries, an upgrade of SymPy does.
* **Value**: stored as data (:mod:`cbdp_sym.core.serial`), only if it decodes to the identical tree (same argument
  order, same Float precisions), so a value read back prints exactly as the computed one.
* **Not cached**: calls whose arguments or result hold a ``Dummy`` or ``Wild`` (their identity is per process), calls
  that raise (a timeout is not a result), and results that took less than :data:`MIN_SECONDS` to compute (reading
  a file would cost about as much).  The cache is off with the numeric cache (``--no-cache``,
  ``CBDP_SYM_NO_CACHE=1``): then every operation is computed.

Entries live in ``<cache>/sympy/``.  A damaged entry is reported once and recomputed, as everywhere else.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> cached_op("simplify", sp.simplify, sp.sin(x)**2 + sp.cos(x)**2)
1
"""
from __future__ import annotations

import hashlib
import json

import sympy as sp

import cbdp_sym.core.store as store
from cbdp_sym.core.serial import round_trips

MIN_SECONDS = 0.005  # 5-20 ms calls were repeated ~500 times across claims (5 CPU-s); a read takes ~0.1-0.3 ms
_MEMO: dict = {}
_MEMO_CAP = 5000


def _per_process(value) -> bool:
    """Whether ``value`` (a SymPy tree or a container of them) holds a ``Dummy`` or ``Wild``."""
    if isinstance(value, sp.Basic):
        return bool(value.atoms(sp.Dummy, sp.Wild))
    if isinstance(value, (list, tuple)):
        return any(_per_process(v) for v in value)
    if isinstance(value, dict):
        return any(_per_process(k) or _per_process(v) for k, v in value.items())
    return False


def _key_text(name: str, args, kwargs) -> str | None:
    if _per_process(list(args)) or _per_process(list(kwargs.values())):
        return None
    try:
        body = [name, [sp.srepr(a) for a in args], sorted((k, sp.srepr(v)) for k, v in kwargs.items()),
                sp.__version__]
    except (TypeError, RecursionError):
        return None
    return json.dumps(body, separators=(",", ":"))


def _copy(value):
    """A fresh container around the (immutable) SymPy values: a caller that edits a returned list or dict cannot
    change what the next caller sees."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_copy(v) for v in value)
    return value


def cached_op(name: str, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` (a SymPy operation called ``name``), from this process's memo or the cache folder when
    the same operation on the same trees was computed before, in any process."""
    if not store._ENABLED[0]:
        return fn(*args, **kwargs)
    key = _key_text(name, args, kwargs)
    if key is None:
        return fn(*args, **kwargs)
    memo_key = (str(store.cache_dir()), key)
    if memo_key in _MEMO:
        return _copy(_MEMO[memo_key])
    digest = hashlib.sha256(key.encode()).hexdigest()
    path = store.cache_dir() / "sympy" / digest[:2] / f"{digest}.json"
    value = store.lookup(path, key, lambda: fn(*args, **kwargs), MIN_SECONDS, _storable)
    _remember(memo_key, value)
    return _copy(value)


def _storable(value) -> bool:
    """Whether ``value`` can be stored: no per-process symbol, and it decodes to the identical tree."""
    if _per_process(value):
        return False
    return round_trips(value)


def _remember(memo_key, value) -> None:
    if len(_MEMO) >= _MEMO_CAP:
        _MEMO.clear()
    _MEMO[memo_key] = value


def cache_clear() -> None:
    """Forget this process's memo (the entries on disk stay)."""
    _MEMO.clear()


def simplify(expr, **kwargs):
    """``sympy.simplify`` through the cache."""
    return cached_op("simplify", sp.simplify, expr, **kwargs)


def integrate(*args, **kwargs):
    """``sympy.integrate`` through the cache."""
    return cached_op("integrate", sp.integrate, *args, **kwargs)


def solve(*args, **kwargs):
    """``sympy.solve`` through the cache."""
    return cached_op("solve", sp.solve, *args, **kwargs)


def limit(*args, **kwargs):
    """``sympy.limit`` through the cache."""
    return cached_op("limit", sp.limit, *args, **kwargs)
