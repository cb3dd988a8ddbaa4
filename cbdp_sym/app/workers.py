"""Worker processes that the parent can stop: each claim's audit runs in a worker, under a limit.

A worker is a forked process that audits the claim it is sent (a fresh fork per claim by default, so
that no claim's result depends on which claims ran before it in the same process), and publishes its
current phase (:func:`cbdp_sym.core.timelimit.set_phase`) in shared memory.  The parent enforces two
limits from outside, whatever the worker does (a long C call, an ``except BaseException``):

* a claim's derivation may run ``claim.timeout`` seconds (the worker also stops it itself, in-process);
* a claim's whole audit (derivation, numerics, checks, search) may run ``limit`` seconds (``--timeout``).

At a limit the parent kills the worker, records ``inconclusive`` with the message
``timeout in <phase> (limit N s)``, starts a fresh worker and goes on.  Workers die with the parent
(``PR_SET_PDEATHSIG`` on Linux, and a thread that watches ``os.getppid()`` elsewhere).

Each worker leads its own process group, and the parent stops the whole group (a claim that forks, or runs a
program, leaves no orphan behind), and each runs under a memory limit: at most :func:`memory_limit` bytes of
address space (``RLIMIT_AS``; :data:`DEFAULT_MEMORY_LIMIT`, ``CBDP_SYM_MEMORY_LIMIT=8G``, the CLI's
``--memory-limit``, ``0`` for none; :mod:`cbdp_sym.core.timelimit`), so a claim that allocates without end fails
alone, with a message.
"""
from __future__ import annotations

import contextlib
import multiprocessing as mproc
import os
import signal
import threading
import time
from multiprocessing.connection import wait

from cbdp_sym.core.datastack import on_large_stack
from cbdp_sym.core.timelimit import (DEFAULT_MEMORY_LIMIT, die_with_parent, kill_group, limit_this_process,  # noqa: F401
                                     memory_error_message, memory_limit, set_memory_limit, set_phase_sink)

DEFAULT_CLAIM_LIMIT = 1800.0  # seconds for one claim's whole audit (a guard against hangs)
_GRACE = 5.0  # the in-process derivation limit acts first; the parent kills this much later
_PHASE_BYTES = 32

def available() -> bool:
    return "fork" in mproc.get_all_start_methods()


def _watch_parent(parent: int) -> None:
    def loop():
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(1.0)

    threading.Thread(target=loop, daemon=True).start()


def _worker_main(conn, phase, since, parent, fresh, fn, items):
    die_with_parent()
    limit_this_process()
    _watch_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the workers

    def publish(name):
        raw = name.encode()[:_PHASE_BYTES - 1]
        with phase.get_lock():
            phase.value = raw
            since.value = time.monotonic()

    set_phase_sink(publish)
    while True:
        try:
            i = conn.recv()
        except (EOFError, OSError):
            break
        if i is None:
            break
        publish("start")
        try:
            out = on_large_stack(fn, items[i])  # (frames on one large data-stack chunk: core/datastack.py)
            msg = getattr(out, "message", None)
            if getattr(out, "status", None) == "error" and isinstance(msg, str) and msg.startswith("MemoryError"):
                out.message = memory_error_message()  # (a result that caught the MemoryError itself: say why)
        except MemoryError:
            out = RuntimeError(memory_error_message())
        except BaseException as exc:  # noqa: BLE001 - reported to the parent as the item's failure
            out = exc if isinstance(exc, Exception) else RuntimeError(f"{type(exc).__name__}: {exc}")
        try:
            conn.send((i, out))
        except Exception as exc:  # noqa: BLE001 - an unpicklable result is reported, not lost
            conn.send((i, RuntimeError(f"result not transferable: {type(exc).__name__}: {exc}")))
        if fresh:
            break
    conn.close()
    os._exit(0)


class _Slot:
    def __init__(self, ctx, fresh, fn, items):
        self.conn, child = ctx.Pipe()
        self.phase = ctx.Array("c", _PHASE_BYTES)
        self.since = ctx.Value("d", 0.0)
        self.fresh = fresh
        self.proc = ctx.Process(target=_worker_main, args=(child, self.phase, self.since, os.getpid(), fresh, fn, items),
                                daemon=True)
        self.proc.start()
        child.close()
        self.item = None
        self.started = 0.0

    def phase_now(self) -> tuple[str, float]:
        with self.phase.get_lock():
            return self.phase.value.decode(errors="replace"), self.since.value

    def stop(self):
        if self.proc.pid is not None:
            kill_group(self.proc.pid)  # (the worker and whatever it forked)
        try:
            self.proc.kill()
        except (OSError, ValueError):
            pass
        self.proc.join(5)
        self.conn.close()


def run_items(fn, items, jobs, limits, on_result, on_timeout, on_crash, fresh=True, waits=None):
    """Call ``fn(item)`` for each item on ``jobs`` worker processes.

    With ``fresh`` (the default) every item gets a new worker forked from this process, so that its
    result cannot depend on what the same worker computed before (in-memory caches, SymPy's cache,
    counters): the outcome is the same whatever ``jobs`` and the order of completion.

    ``limits(item) -> (whole, derivation)`` gives the item's limits in seconds (``None``: none);
    ``on_result(i, value)``, ``on_timeout(i, phase, seconds)`` and ``on_crash(i, message)`` receive
    the outcomes in completion order.  Returns when every item has an outcome.

    ``waits`` (optional): ``{i: indices}``, item ``i`` is started only once every item of ``indices`` has an
    outcome (it goes to the next free worker then, ahead of later items); the others start in the given order."""
    ctx = mproc.get_context("fork")  # (fn and items reach the forked worker as they are: nothing is pickled)
    pending = list(range(len(items)))
    waits = {i: set(w) for i, w in (waits or {}).items() if w}
    finished: set = set()
    slots: list[_Slot] = []

    def startable():
        """The first pending item whose waits are over (with nothing running, the first pending one: a wait on an
        item that can never finish must not stall the run)."""
        for k, i in enumerate(pending):
            if waits.get(i, set()) <= finished:
                return k
        return 0 if not any(s.item is not None for s in slots) else None

    def outcome(i):
        finished.add(i)

    try:
        while pending or any(s.item is not None for s in slots):
            slots = [s for s in slots if s.proc.is_alive() or s.item is not None]
            while pending and (len(slots) < jobs or any(s.item is None for s in slots)):
                k = startable()
                if k is None:
                    break
                free = next((s for s in slots if s.item is None), None)
                if free is None:
                    free = _Slot(ctx, fresh, fn, items)
                    slots.append(free)
                i = pending.pop(k)
                free.item, free.started = i, time.monotonic()
                free.conn.send(i)
            busy = [s for s in slots if s.item is not None]
            ready = wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=0.2)
            now = time.monotonic()
            for s in busy:
                # (a worker that sent its result and exited between `wait` and here: read the result first)
                if s.conn in ready or (not s.proc.is_alive() and s.conn.poll()):
                    try:
                        i, out = s.conn.recv()
                    except (EOFError, OSError):
                        pass
                    else:
                        s.item = None
                        outcome(i)
                        if s.fresh:
                            s.proc.join(5)
                            s.stop()
                            slots.remove(s)
                        if isinstance(out, BaseException):
                            on_crash(i, f"{type(out).__name__}: {out}".splitlines()[0])
                        else:
                            on_result(i, out)
                        continue
                if not s.proc.is_alive():
                    i, s.item = s.item, None
                    outcome(i)
                    code = s.proc.exitcode
                    s.stop()
                    slots.remove(s)
                    why = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                    on_crash(i, f"the worker process died ({why})")
                    continue
                whole, deriv = limits(items[s.item])
                phase, since = s.phase_now()
                hit = None
                if whole is not None and now - s.started > whole:
                    hit = (phase or "audit", whole)
                elif deriv is not None and phase == "derivation" and since and now - since > deriv + _GRACE:
                    hit = ("derivation", deriv)
                if hit:
                    i, s.item = s.item, None
                    outcome(i)
                    s.stop()
                    slots.remove(s)
                    on_timeout(i, hit[0] if hit[0] != "start" else "audit", hit[1])
    finally:
        for s in slots:
            if s.item is None and s.proc.is_alive():
                try:
                    s.conn.send(None)
                except (OSError, ValueError):
                    pass
        for s in slots:
            s.proc.join(0.5)
            if s.proc.is_alive():
                s.stop()
