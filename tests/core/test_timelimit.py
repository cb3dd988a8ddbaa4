"""Tests of :mod:`cbdp_sym.core.timelimit`."""
import subprocess
import sys
import time

import pytest

from cbdp_sym.core.timelimit import TimeLimitExceeded, time_limit
from ..conftest import ROOT


def test_timeout_is_not_an_exception():
    assert not issubclass(TimeLimitExceeded, Exception)
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.2, "test", hard=True):
            t0 = time.monotonic()
            while time.monotonic() - t0 < 5:
                try:
                    time.sleep(0.01)
                except Exception:
                    pass


def test_nested_limits():
    """An ordinary limit nests inside another ordinary one; inside a hard limit it is off (the hard one
    governs).  Run in a child: pytest-timeout's own timer switches ordinary limits off in this process."""
    code = (
        "import time\n"
        "from cbdp_sym.core.timelimit import time_limit\n"
        "from cbdp_sym.core.errors import DerivationTimeout\n"
        "t0 = time.monotonic()\n"
        "with time_limit(10, 'outer'):\n"
        "    try:\n"
        "        with time_limit(0.2, 'inner'):\n"
        "            time.sleep(3)\n"
        "    except DerivationTimeout:\n"
        "        print('inner fired', time.monotonic() - t0 < 2.5)\n"
        "with time_limit(1.5, 'claim', hard=True):\n"
        "    with time_limit(0.2, 'inner'):\n"
        "        time.sleep(0.5)\n"
        "    print('inner off under a hard limit')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.split("\n")[:2] == ["inner fired True", "inner off under a hard limit"], out.stderr


def test_die_with_parent_stops_a_process_whose_parent_is_killed():
    """The fast form of the audit-level test (the acceptance step kills a real audit): a process that called
    :func:`die_with_parent` ends when its parent is killed with SIGKILL."""
    import os
    import signal
    import time

    from cbdp_sym.core.timelimit import die_with_parent

    r, w = os.pipe()
    middle = os.fork()
    if middle == 0:  # the parent of the process under test
        child = os.fork()
        if child == 0:
            die_with_parent()
            os.write(w, b"ready\n")
            time.sleep(60)
            os._exit(0)
        os.write(w, f"{child}\n".encode())
        time.sleep(60)
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as fh:
        lines = [fh.readline(), fh.readline()]
    child = int(next(ln for ln in lines if ln.strip().isdigit()))
    os.kill(middle, signal.SIGKILL)
    os.waitpid(middle, 0)
    deadline = time.monotonic() + 5
    alive = True
    while time.monotonic() < deadline and alive:
        try:
            state = open(f"/proc/{child}/stat").read().split(")")[-1].split()[0]
            alive = state != "Z"
        except OSError:
            alive = False
        time.sleep(0.05)
    assert not alive, "the process outlived its killed parent"


def test_a_commands_child_forks_from_a_frozen_heap_and_the_parent_thaws(capsys):
    """:func:`run_with_limit`'s child runs with the inherited heap frozen out of the garbage collector (its collections
    skip it and copy none of its pages); the parent is thawed when the child has started, unless it was frozen before."""
    import gc

    from cbdp_sym.core.timelimit import run_with_limit

    gc.unfreeze()
    assert run_with_limit(lambda: print(gc.get_freeze_count()) or 0, 60, "test") == 0
    assert int(capsys.readouterr().out) > 1000 and gc.get_freeze_count() == 0
    gc.freeze()  # a caller's own freeze is left as it was
    try:
        assert run_with_limit(lambda: 0, 60, "test") == 0
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
