"""The derivation tape: steps recorded by the engine's operations as they run.

Engine functions call :func:`record`; a claim's derivation runs inside :func:`recording`, which
collects the steps.  Nobody writes a step by hand into a report: what the appendix shows is what the
operations did.
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Tex:
    """Raw LaTeX (mathematics) used as one side of a step, e.g. ``Tex(r"f^*(s)")``."""

    latex: str

    def __str__(self) -> str:
        return self.latex


@dataclass(frozen=True)
class Step:
    """One recorded step: ``lhs rel rhs`` with a one-line justification ``note``."""

    lhs: Any
    rhs: Any
    note: str
    rel: str = "="


@dataclass
class Tape:
    steps: list[Step] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self):
        return iter(self.steps)


_current: contextvars.ContextVar[Tape | None] = contextvars.ContextVar("cbdp_sym_tape", default=None)


@contextlib.contextmanager
def recording():
    """Collect the steps recorded inside the block.

    >>> with recording() as tape:
    ...     record(Tex("x"), 1, "example")
    >>> len(tape)
    1
    """
    tape = Tape()
    token = _current.set(tape)
    try:
        yield tape
    finally:
        _current.reset(token)


def record(lhs: Any, rhs: Any, note: str, rel: str = "=") -> None:
    """Append a step to the tape being recorded (no-op outside :func:`recording`)."""
    tape = _current.get()
    if tape is not None:
        tape.steps.append(Step(lhs, rhs, note, rel))


def cached_derivation(fn):
    """Cache a derivation by its arguments *with* its steps, replaying them on later calls.

    Two claims that share a derivation (a theorem and its table cell) run it once and both show
    the full derivation.
    """
    import functools

    cache: dict = {}

    @functools.wraps(fn)
    def wrapper(*args):
        if args not in cache:
            with recording() as tape:
                value = fn(*args)
            cache[args] = (value, tuple(tape.steps))
        value, steps = cache[args]
        for st in steps:
            record(st.lhs, st.rhs, st.note, st.rel)
        return value

    wrapper.cache_clear = cache.clear
    return wrapper
