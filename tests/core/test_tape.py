"""Tests of :mod:`cbdp_sym.core.tape`: steps recorded by the operations, nested recordings, replayed derivations."""
import sympy as sp

from cbdp_sym.core.tape import Step, Tex, cached_derivation, record, recording


def test_record_outside_a_recording_is_a_no_op_and_inside_appends_a_step():
    record(Tex("x"), 1, "nobody listens")  # no error, nothing kept
    with recording() as tape:
        record(Tex("f(x)"), sp.Integer(2), "by definition")
        record(Tex("f(x)"), sp.Integer(3), "a bound", rel=r"\le")
    assert len(tape) == 2
    assert list(tape) == [Step(Tex("f(x)"), 2, "by definition"), Step(Tex("f(x)"), 3, "a bound", r"\le")]
    assert str(Tex(r"\alpha")) == r"\alpha"


def test_nested_recordings_are_separate_and_the_outer_one_resumes():
    with recording() as outer:
        record(Tex("a"), 1, "outer 1")
        with recording() as inner:
            record(Tex("b"), 2, "inner")
        record(Tex("c"), 3, "outer 2")
    assert [s.note for s in inner] == ["inner"]
    assert [s.note for s in outer] == ["outer 1", "outer 2"]


def test_cached_derivation_runs_once_and_replays_its_steps():
    calls = []

    @cached_derivation
    def square(n):
        calls.append(n)
        record(Tex("n^2"), n * n, f"square of {n}")
        return n * n

    with recording() as first:
        assert square(3) == 9
    with recording() as second:
        assert square(3) == 9
        assert square(4) == 16
    assert calls == [3, 4]  # the second call of square(3) computed nothing
    assert [s.note for s in first] == ["square of 3"]
    assert [s.note for s in second] == ["square of 3", "square of 4"]  # yet its steps are shown again
    square.cache_clear()
    square(3)
    assert calls == [3, 4, 3]
