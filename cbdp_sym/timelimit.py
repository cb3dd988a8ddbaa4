"""Time limits for SymPy calls that can run long.

A limit hit raises :class:`~cbdp_sym.errors.DerivationTimeout`, which the verifier turns into the
verdict ``inconclusive: timeout``.  The limit uses ``SIGALRM`` and therefore applies in the main
thread of a process (the CLI and the worker processes of a parallel audit); elsewhere it is a no-op.
"""
from __future__ import annotations

import contextlib
import signal
import threading

from .errors import DerivationTimeout

DEFAULT_SECONDS = 60.0


@contextlib.contextmanager
def time_limit(seconds: float | None = DEFAULT_SECONDS, what: str = "SymPy operation"):
    """Raise :class:`DerivationTimeout` if the block runs longer than ``seconds``.

    >>> with time_limit(5):
    ...     1 + 1
    2
    """
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL)[0] == 0.0  # no enclosing limit running
    )
    if not usable:
        yield
        return

    def _raise(signum, frame):
        raise DerivationTimeout(f"timeout: {what} exceeded {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def die_with_parent(sig: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent dies (Linux ``PR_SET_PDEATHSIG``).

    Used by worker processes and by LaTeX, so that killing an audit does not leave work running.
    Returns ``False`` where the call is unavailable (the caller then relies on its own watchdog)."""
    import ctypes
    import ctypes.util
    import os
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        ok = libc.prctl(1, int(sig), 0, 0, 0) == 0  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return False
    if ok and os.getppid() == 1:  # the parent died before the call
        os.kill(os.getpid(), sig)
    return ok
