"""Tests of :mod:`cbdp_sym.app.costs`: up-front estimates for inputs that cannot finish within the limit."""
import time

import pytest

import cbdp_sym.app.cli as cli
from cbdp_sym.app.costs import check_cost, restricted_cost
from cbdp_sym.core.errors import ParameterError


def test_the_estimates_follow_the_measurements():
    assert restricted_cost("alpha", 1, 50, "3") == pytest.approx(3.5)
    assert restricted_cost("alpha", 8, 50, "3") == pytest.approx(62.7, rel=0.1)  # measured poly8
    assert restricted_cost("alpha", 1, 400, "3") == pytest.approx(30.2, rel=0.1)  # measured at 400 digits
    assert restricted_cost("kl", 1, 50) == restricted_cost("alpha", 1, 50, "3")
    assert restricted_cost("alpha", 1, 50, "1.000000001") > 3600  # (ran past 300 s: refused now)
    assert restricted_cost("renyi", 1, 50, "1.000001") < 60
    assert restricted_cost("alpha", 1, 50, "1") == float("inf")


def test_check_cost_refuses_notes_and_passes():
    with pytest.raises(ParameterError, match="more than the time limit"):
        check_cost(400, 300, "x", "raise --timeout")
    assert "about 64 s" in check_cost(64, 300, "x", "")
    assert check_cost(5, 300, "x", "") is None


@pytest.mark.parametrize("args", [
    ["restricted", "alpha", "lin", "--P", "laplace(0,1)", "--Q", "laplace(1,1)", "--alpha", "1.000000001"],
    ["restricted", "alpha", "poly8", "--P", "laplace(0,1)", "--Q", "laplace(1,1)", "--alpha", "3", "--timeout", "30"],
    ["restricted", "kl", "lin", "--P", "laplace(0,1)", "--Q", "laplace(1,1)", "--dps", "1000", "--timeout", "60"],
])
def test_inputs_that_cannot_finish_are_refused_up_front(args, capsys):
    """Before: ``poly8``, ``--alpha 1.000000001`` and ``--dps 1000`` ran to the 300 s limit before stopping."""
    t0 = time.monotonic()
    code = cli.main(args + ["--no-cache"])
    err = capsys.readouterr().err
    assert code == 2 and time.monotonic() - t0 < 60
    (line,) = err.strip().splitlines()
    assert "more than the time limit" in line and "needs about" in line
