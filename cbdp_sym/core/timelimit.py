"""Time limits, phases, and stopping work from outside.

* :func:`time_limit` (in-process, ``SIGALRM``): limits nest (each block gets the earliest of its own
  and its enclosing deadlines).  An ordinary limit raises :class:`~cbdp_sym.core.errors.DerivationTimeout`
  (an ``Exception``: code may catch it and fall back to another method); a *hard* limit (a claim's
  own) raises :class:`TimeLimitExceeded`, a ``BaseException`` that ``except Exception`` cannot
  swallow, and works beside a foreign timer (pytest-timeout).  Ordinary limits are off inside a hard
  one and under a foreign timer (so that which method answers does not depend on the load).  The
  limit applies in the main thread of a process; elsewhere it is a no-op.
* :func:`set_phase` names what a process is doing (``derivation``, ``numerics``, ``search``, ...), so
  that a parent that stops it at its limit can say ``timeout in <phase>``.
* :func:`run_with_limit` runs a command in a forked child that the parent kills at the limit
  (``eval``, ``restricted``, ``show``): a long C call cannot outlive the limit.
* :func:`die_with_parent`: workers and LaTeX die when the audit that started them dies.
* :func:`limit_this_process` (a worker or a command's child): its own process group (:func:`kill_group` stops
  it with whatever it forked) and a memory limit (``RLIMIT_AS``, :func:`memory_limit`).
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time

from cbdp_sym.core.errors import DerivationTimeout

DEFAULT_SECONDS = 60.0
DEFAULT_MEMORY_LIMIT = 6 << 30  # bytes of address space per claim worker (the built-in claims peak below 1.5 GiB)
_MEMORY: list = []  # set_memory_limit's value (empty: the environment's or the default)


def parse_size(text) -> int | None:
    """Bytes from ``"6G"``, ``"512M"``, ``"1.5g"``, ``"1048576"``; ``None`` for ``"0"`` / ``"none"`` (no limit).

    >>> parse_size("6G"), parse_size("512m"), parse_size("none")
    (6442450944, 536870912, None)
    """
    t = str(text).strip().lower()
    if t in ("0", "none", "off", "unlimited"):
        return None
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    mult = units.get(t[-1:], 1)
    num = t[:-1] if t[-1:] in units else t
    try:
        value = float(num)
    except ValueError:
        raise ValueError(f"a memory size is a number with K, M, G or T (e.g. 6G), or 0 for none; got {text!r}") from None
    if not (value > 0 and value * mult >= 64 << 20 and value * mult < 1 << 60):
        raise ValueError(f"a memory size must lie between 64M and 1E (or be 0 for none); got {text!r}")
    return int(value * mult)


def set_memory_limit(nbytes: int | None) -> None:
    """The address-space limit of the workers started from now on (``None``: none)."""
    _MEMORY[:] = [nbytes]


def memory_limit() -> int | None:
    """The address-space limit of a claim worker, in bytes (``None``: none)."""
    if _MEMORY:
        return _MEMORY[0]
    env = os.environ.get("CBDP_SYM_MEMORY_LIMIT")
    if env:
        try:
            return parse_size(env)
        except ValueError:
            return DEFAULT_MEMORY_LIMIT
    return DEFAULT_MEMORY_LIMIT


def _size_text(n: int) -> str:
    return f"{n / (1 << 30):g} GiB" if n >= 1 << 30 else f"{n / (1 << 20):g} MiB"


def limit_this_process(group: bool = True) -> None:
    """In a worker (or a command's child process): lead a process group of its own (``group``), and take the
    memory limit."""
    if group:
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)
    n = memory_limit()
    if n is not None:
        try:
            import resource

            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            if hard != resource.RLIM_INFINITY:
                n = min(n, hard)
            resource.setrlimit(resource.RLIMIT_AS, (n, hard))
        except (ImportError, ValueError, OSError):  # pragma: no cover - no resource module / not allowed
            pass


def memory_error_message() -> str:
    n = memory_limit()
    limit = f" ({_size_text(n)} of address space; change it with --memory-limit)" if n else ""
    return f"the claim ran out of memory{limit}"


def kill_group(proc_pid: int) -> None:
    """SIGKILL the process group led by ``proc_pid`` (what the worker forked goes with it)."""
    if not proc_pid or proc_pid <= 1 or proc_pid == os.getpgrp():
        return
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):  # (a group that is gone: nothing to do)
        os.killpg(proc_pid, signal.SIGKILL)  # (the group outlives its leader while a member lives)



class TimeLimitExceeded(BaseException):
    """A hard limit was hit (not an ``Exception``: ``except Exception`` does not swallow it)."""

    def __init__(self, message: str, phase: str = "", what: str = ""):
        super().__init__(message)
        self.phase = phase
        self.what = what  # the ``what`` of the limit that was hit


_STACK: list = []  # [deadline (monotonic), what, seconds, hard]
_FOREIGN: dict = {"deadline": None, "handler": None}  # a timer that was running before ours (pytest-timeout)


def _arm():
    deadlines = [d for d, *_ in _STACK] + ([_FOREIGN["deadline"]] if _FOREIGN["deadline"] is not None else [])
    if not deadlines:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return
    signal.setitimer(signal.ITIMER_REAL, max(min(deadlines) - time.monotonic(), 1e-3))


def _on_alarm(signum, frame):
    now = time.monotonic()
    foreign = _FOREIGN["deadline"]
    if foreign is not None and foreign <= now:
        _FOREIGN["deadline"] = None
        handler = _FOREIGN["handler"]
        if callable(handler):
            handler(signum, frame)
        _arm()
        return
    expired = [e for e in _STACK if e[0] <= now]
    if not expired:
        _arm()
        return
    hard = [e for e in expired if e[3]]
    if hard:
        _, what, seconds, _ = hard[0]
        raise TimeLimitExceeded(f"timeout: {what} exceeded {seconds:g} s", current_phase(), what)
    _, what, seconds, _ = expired[-1]
    _arm()  # an enclosing limit that also expired fires again if this one is caught
    raise DerivationTimeout(f"timeout: {what} exceeded {seconds:g} s")


@contextlib.contextmanager
def time_limit(seconds: float | None = DEFAULT_SECONDS, what: str = "SymPy operation", hard: bool = False):
    """Stop the block after ``seconds``: :class:`DerivationTimeout`, or :class:`TimeLimitExceeded` if ``hard``.

    >>> with time_limit(5):
    ...     1 + 1
    2
    """
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if usable and not hard:
        # an ordinary limit (with a fallback behind it) stays off inside a claim's hard limit and under a
        # foreign timer (pytest-timeout), as it always was: which method answers must not depend on the
        # machine's load, so that reports stay byte-identical; the hard limit and the worker's kill govern
        foreign = signal.getitimer(signal.ITIMER_REAL)[0] > 0 if not _STACK else _FOREIGN["deadline"] is not None
        usable = not foreign and not any(e[3] for e in _STACK)
    if not usable:
        yield
        return
    outermost = not _STACK
    previous = None
    if outermost:
        # a timer set by someone else (pytest-timeout) keeps running: it is served when it is due
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        _FOREIGN.update(deadline=time.monotonic() + left if left > 0 else None, handler=previous)
    entry = [time.monotonic() + float(seconds), what, float(seconds), bool(hard)]
    _STACK.append(entry)
    _arm()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        with contextlib.suppress(ValueError):
            _STACK.remove(entry)
        if outermost:
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
            if _FOREIGN["deadline"] is not None:
                signal.setitimer(signal.ITIMER_REAL, max(_FOREIGN["deadline"] - time.monotonic(), 1e-3))
            _FOREIGN.update(deadline=None, handler=None)
        else:
            _arm()


# -- phases ----------------------------------------------------------------------------------------
_PHASE = {"name": "", "sink": None}


def set_phase(name: str) -> None:
    """Record what the process is doing now (shown as ``timeout in <phase>`` if it is stopped)."""
    _PHASE["name"] = name
    sink = _PHASE["sink"]
    if sink is not None:
        sink(name)


def current_phase() -> str:
    return _PHASE["name"]


def set_phase_sink(sink) -> None:
    """In a worker: a callable that publishes each phase to the parent."""
    _PHASE["sink"] = sink


# -- a command in a child process, killed at the limit -----------------------------------------------
def run_with_limit(fn, seconds: float | None, what: str) -> int:
    """Run ``fn() -> exit code`` in a forked child and return its exit code; at ``seconds`` the child is
    killed and a one-line error printed (exit 2).  The child's output is passed on through this process's
    ``sys.stdout`` / ``sys.stderr``.  Without ``fork`` (or ``seconds`` None) ``fn`` runs here."""
    import io
    import selectors

    if seconds is None or not hasattr(os, "fork"):
        return fn()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    pipes = [os.pipe(), os.pipe()]
    import gc

    # the child's garbage collections skip the inherited heap (SymPy, the registry): they neither spend time on it nor
    # touch its pages, which would copy them (as for the audit's workers, app/executor.py's frozen_heap); only when
    # the collector looks at what, no value changes.  The parent thaws at once (unless a caller froze it).
    outer = gc.get_freeze_count() > 0
    gc.freeze()
    try:
        pid = os.fork()
    except BaseException:
        if not outer:
            gc.unfreeze()
        raise
    if pid != 0 and not outer:
        gc.unfreeze()
    if pid == 0:  # the child
        code = 1
        try:
            os.close(pipes[0][0])
            os.close(pipes[1][0])
            sys.stdout = io.TextIOWrapper(os.fdopen(pipes[0][1], "wb"), encoding="utf-8", line_buffering=False)
            sys.stderr = io.TextIOWrapper(os.fdopen(pipes[1][1], "wb"), encoding="utf-8", line_buffering=True)
            die_with_parent()
            limit_this_process()
            code = fn()
        except MemoryError:
            with contextlib.suppress(BaseException):
                print(f"cbdp-sym: error: {memory_error_message()}", file=sys.stderr)
            code = 2
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BrokenPipeError:
            code = 0
        except BaseException:  # noqa: BLE001 - the parent reports a crash as such
            import traceback

            with contextlib.suppress(BaseException):
                traceback.print_exc()
            code = 1
        finally:
            with contextlib.suppress(BaseException):
                sys.stdout.flush()
            with contextlib.suppress(BaseException):
                sys.stderr.flush()
            os._exit(code if isinstance(code, int) else 1)
    os.close(pipes[0][1])
    os.close(pipes[1][1])
    chunks = {pipes[0][0]: [], pipes[1][0]: []}
    sel = selectors.DefaultSelector()
    for fd in chunks:
        sel.register(fd, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    timed_out = False
    status = None
    try:
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            for key, _ in sel.select(timeout=min(left, 0.5)):
                data = os.read(key.fd, 65536)
                if data:
                    chunks[key.fd].append(data)
                else:
                    sel.unregister(key.fd)
            if status is None:
                done, st = os.waitpid(pid, os.WNOHANG)
                if done:
                    # the command is over: what it forked (holding the pipes open) goes with it
                    status = st
                    kill_group(pid)
        if timed_out:
            kill_group(pid)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if status is None:
            _, status = os.waitpid(pid, 0)
        kill_group(pid)  # (what the command forked and left running)
    except BaseException:
        kill_group(pid)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        raise
    finally:
        sel.close()
        for fd in chunks:
            with contextlib.suppress(OSError):
                os.close(fd)
    out = b"".join(chunks[pipes[0][0]]).decode("utf-8", "replace")
    err = b"".join(chunks[pipes[1][0]]).decode("utf-8", "replace")
    if timed_out:
        err += (f"cbdp-sym: error: {what} stopped at the time limit ({seconds:g} s; change it with --timeout)\n")
    if out:
        sys.stdout.write(out)
        sys.stdout.flush()
    if err:
        sys.stderr.write(err)
        sys.stderr.flush()
    if timed_out:
        return 2
    return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


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
