"""An in-process memo in front of the disk cache (:mod:`cbdp_sym.core.cache`).

Claims that need the same quantity (Theorem 13, its proof chain, the Table 1 cells, the figures) ask for it
through one cached function; the disk cache already makes the second request cheap, and this memo makes it
free (no file read, no decoding) for the rest of the process.  The memo mirrors the disk cache: it is keyed
like it (the function, its arguments' text, the working precision) and by the cache folder, and it is
bypassed when the disk cache is off (``--no-cache`` means: compute from scratch).  Values are returned as
deep copies, so a caller that edits a returned dict or list cannot change what the next caller sees.
"""
from __future__ import annotations

import copy
import functools

import mpmath as mp

import cbdp_sym.core.store as store
def memo_numeric(fn, failures=()):
    """Memoise ``fn`` (a :func:`cbdp_sym.core.cache.cached_numeric` function) in-process, keyed like the disk cache.

    ``failures``: exception classes that are a result too (a solver that cannot certify a point fails the same way
    every time); they are remembered and raised again, with the same message, on the next call (the disk cache
    stores values only, so without this every claim that asks recomputes the failing point)."""
    memo: dict = {}

    @functools.wraps(fn)
    def wrapper(*args):
        if not store._ENABLED[0]:
            return fn(*args)
        key = (str(store.cache_dir()), mp.mp.prec, tuple(str(a) for a in args))
        if key not in memo:
            try:
                memo[key] = (True, fn(*args))
            except failures as exc:
                memo[key] = (False, (type(exc), exc.args))
        ok, value = memo[key]
        if not ok:
            cls, exc_args = value
            raise cls(*exc_args)
        return copy.deepcopy(value)

    wrapper.cache_clear = memo.clear
    return wrapper
