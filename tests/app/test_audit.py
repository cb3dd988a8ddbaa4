"""Tests of :mod:`cbdp_sym.app.audit`."""


def test_progress_on_a_terminal_is_a_bar_with_the_time_left():
    import io
    from types import SimpleNamespace

    from cbdp_sym.app.audit import tty_progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    show = tty_progress(stream)
    for i, status in enumerate(["verified", "refuted", "holds"], 1):
        res = SimpleNamespace(claim=SimpleNamespace(id=f"X-{i}"), status=status, message=f"message {i}")
        show(i, 3, res)
    text = stream.getvalue()
    assert "3/3" in text and "<00:00]" in text  # tqdm's [elapsed<remaining]
    assert "X-2" in text and "message 2" in text  # a refutation is printed above the bar
    assert "message 1" not in text
