"""Calls run on one large block of CPython's frame stack: a workaround for CPython's data-stack chunk thrashing.

CPython (3.11 on) keeps the frames of Python functions on a per-thread *data stack* made of chunks of 16 KiB, each
mapped with ``mmap``.  A call whose frame does not fit in the current chunk gets a new chunk, and that chunk is unmapped
as soon as the call returns (python/cpython#142183; later releases keep one chunk cached).  A hot loop that makes such
a call -- mpmath's quadrature calling its integrand, say -- then maps and unmaps a chunk on every call.  Which depth is
unlucky depends on every frame above it.  Measured on this project's machine (Python 3.11): 40 Gaussian quadratures at
60 digits took 2.5 s of CPU at most call depths and 14 s at one (3 million ``mmap``/``munmap`` calls, 10 s of it system
time).

:func:`on_large_stack` calls ``fn`` from a frame so large that CPython gives it a chunk of its own of 1 MiB (a new
chunk is 16 KiB doubled until the frame fits, and this frame needs a little over half of 1 MiB): the frames ``fn`` calls
are placed after it in the same chunk, so no chunk boundary is crossed until the stack is some 480 KB deeper.  It
changes no computation, only where frames live; the audit's claim and figure workers and the command line run their
work through it.  A call costs about 0.3 ms (the frame's slots are set and cleared); the large function is made on
the first call in a process (about 10 ms), so that importing this module costs nothing.

>>> on_large_stack(sum, [1, 2, 3])
6
"""
from __future__ import annotations

__all__ = ["on_large_stack", "SLOTS"]

# the frame's local variables (8 bytes each): with CPython's margin of 1000 slots this needs 568 KB, more than half
# of 1 MiB and well below it, so the chunk is 1 MiB and about 480 KB of it stays free for the frames below
SLOTS = 70000


def _call(fn, *args, **kwargs):
    return fn(*args, **kwargs)


def _make(slots: int):
    """``_call`` with ``slots`` more local variables (never assigned): its frame holds a slot for each.

    The code object is ``_call``'s with a longer list of local names (``CodeType.replace``), made in about 10 ms on
    the first call of :func:`on_large_stack` in a process (compiling a source with 70,000 names took 0.15 s, and was
    done at import by every command, ``--version`` included)."""
    import types

    code = _call.__code__
    names = tuple(map("_s{}".format, range(slots)))
    big = code.replace(co_varnames=code.co_varnames + names, co_nlocals=code.co_nlocals + slots)
    fn = types.FunctionType(big, globals(), "_call_large")
    fn.__doc__ = "``fn(*args, **kwargs)``, called from a frame that owns a 1 MiB chunk of CPython's data stack."
    return fn


_LARGE: list = []


def large_frame_function():
    """The function with the large frame (made on first use, then kept for the process and inherited by forks)."""
    if not _LARGE:
        _LARGE.append(_make(SLOTS))
    return _LARGE[0]


def on_large_stack(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, called from a frame that owns a 1 MiB chunk of CPython's data stack."""
    big = _LARGE[0] if _LARGE else large_frame_function()
    return big(fn, *args, **kwargs)
