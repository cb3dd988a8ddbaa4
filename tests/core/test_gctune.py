import gc

import pytest

from cbdp_sym.core.gctune import THRESHOLDS, collect_less


def test_collect_less_raises_the_youngest_generation_threshold_and_returns_the_old_ones():
    before = gc.get_threshold()
    try:
        old = collect_less()
        assert old == before and gc.get_threshold() == THRESHOLDS and THRESHOLDS[0] > 700
    finally:
        gc.set_threshold(*before)


def test_the_command_line_collects_less(capsys):
    """`main` (every command, the audit whose workers fork from it) runs with the raised thresholds."""
    from cbdp_sym.app.cli import main

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with pytest.raises(SystemExit):  # (argparse's --version exits)
            main(["--version"])
        assert gc.get_threshold() == THRESHOLDS
    finally:
        gc.set_threshold(*before)
    capsys.readouterr()
