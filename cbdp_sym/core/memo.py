"""An in-process memo in front of the disk cache (:mod:`cbdp_sym.core.cache`).

Claims that need the same quantity (Theorem 13, its proof chain, the Table 1 cells, the figures) ask for it
through one cached function; the disk cache already makes the second request cheap, and this memo makes it
free (no file read, no decoding) for the rest of the process.  The memo mirrors the disk cache: it is keyed
like it (the function, its arguments' text, the working precision) and by the cache folder, and it is
bypassed when the disk cache is off (``--no-cache`` means: compute from scratch).  Values are returned as
deep copies, so a caller that edits a returned dict or list cannot change what the next caller sees (a function
whose values are immutable, as mpf numbers, may skip the copy).
"""
from __future__ import annotations

import copy
import functools

import mpmath as mp

import cbdp_sym.core.store as store


def _text_key(*args):
    """The disk cache's key of the arguments: their text."""
    return tuple(str(a) for a in args)


def memo_numeric(fn, failures=(), key=_text_key, max_size=None, deepcopy=True):
    """Memoise ``fn`` (a :func:`cbdp_sym.core.cache.cached_numeric` function) in-process, keyed like the disk cache.

    ``failures``: exception classes that are a result too (a solver that cannot certify a point fails the same way
    every time); they are remembered and raised again, with the same message, on the next call (the disk cache
    stores values only, so without this every claim that asks recomputes the failing point).

    ``key``: the arguments' part of the key, ``key(*args)`` -> a hashable value, or ``None`` for arguments that
    are not to be remembered (computed every time).  The default is their text, as the disk cache's key; a
    function that is not disk-cached can be keyed more finely (the text of a Float drops its precision, that of a
    symbol its assumptions).  The working precision and the cache folder are part of the key in every case.

    ``max_size``: at most this many entries (the memo is emptied when full); ``None``: no bound.
    ``deepcopy``: return deep copies of remembered values (``False`` for immutable values: no copy is made)."""
    memo: dict = {}

    @functools.wraps(fn)
    def wrapper(*args):
        if not store._ENABLED[0]:
            return fn(*args)
        part = key(*args)
        if part is None:
            return fn(*args)
        k = (str(store.cache_dir()), mp.mp.prec, part)
        if k not in memo:
            try:
                entry = (True, fn(*args))
            except failures as exc:
                entry = (False, (type(exc), exc.args))
            if max_size is not None and len(memo) >= max_size:
                memo.clear()
            memo[k] = entry
        ok, value = memo[k]
        if not ok:
            cls, exc_args = value
            raise cls(*exc_args)
        return copy.deepcopy(value) if deepcopy else value

    wrapper.cache_clear = memo.clear
    return wrapper
