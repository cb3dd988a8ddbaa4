"""``cbdp-sym divergence`` and ``cbdp-sym profile --sample / --compose`` (cbdp_sym/app/cli_divergence.py)."""
import json

import mpmath as mp
import pytest

from cbdp_sym.app.cli import main
from cbdp_sym.app.cli_divergence import composed_profile_record, divergence_record
from cbdp_sym.divergences.profiles import parse_profile_law


def test_divergence_json_has_value_digits_and_derived(capsys):
    assert main(["divergence", "renyi", "--P", "dgauss(0,2)", "--Q", "dgauss(1,2)", "--alpha", "3", "--dps", "30",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"].startswith("0.375000000000000000000000000") and out["digits"] == "30.00"
    assert out["derived"] == r"\frac{3}{8}"


@pytest.mark.parametrize("argv,expect", [
    (["kl", "--P", "dlaplace(0,2)", "--Q", "dlaplace(1,2)"], "0.12245933120185456463890056574"),  # tanh(1/4)/2
    (["max", "--P", "dlaplace(0,2)", "--Q", "dlaplace(1,2)"], "0.500000000000000000000000000000"),
    (["tv", "--P", "normal(0,1)", "--Q", "normal(1,1)"], "0.382924922548026"),
    (["renyi", "--P", "normal(1,1)", "--Q", "normal(0,1)", "--alpha", "8", "--sample", "0.01"], "8.936439076060318473"),
    (["renyi", "--P", "normal(1,1)", "--Q", "normal(0,1)", "--alpha", "2", "--compose", "10"], "10.000000000000000000"),
])
def test_divergence_values(capsys, argv, expect):
    assert main(["divergence", *argv, "--dps", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"].startswith(expect), out["value"]


@pytest.mark.parametrize("argv,msg", [
    (["hellinger", "--P", "normal(0,1)", "--Q", "normal(1,1)"], "KIND must be one of"),
    (["renyi", "--P", "normal(0,1)", "--Q", "normal(1,1)"], "renyi needs --alpha"),
    (["kl", "--P", "normal(0,1)", "--Q", "normal(1,1)", "--alpha", "2"], "takes no --alpha"),
    (["kl", "--P", "normal(0,1)", "--Q", "normal(1,1)", "--sample", "2"], r"--sample must lie in \(0, 1\]"),
    (["kl", "--P", "dgauss(0,-1)", "--Q", "dgauss(1,1)"], "sigma must be positive"),
])
def test_divergence_errors_are_one_line(capsys, argv, msg):
    assert main(["divergence", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and __import__("re").search(msg, err), err


def test_profile_of_a_composed_gaussian_uses_the_closed_form():
    P, Q = parse_profile_law("normal(1,1)"), parse_profile_law("normal(0,1)")
    out = composed_profile_record(P, Q, delta="1e-5", dps=30, compose=100, symmetric=True)
    with mp.workdps(40):
        assert out["method"].startswith("closed form") and out["digits"] == "30.00"
        # the composition of 100 Gaussian steps of sigma = 1 is the Gaussian mechanism with sigma = 1/10
        ref = composed_profile_record(parse_profile_law("normal(10,1)"), Q, delta="1e-5", dps=30)
        assert mp.mpf(out["eps"]) - mp.mpf(ref["eps"]) == 0 or abs(mp.mpf(out["eps"]) / mp.mpf(ref["eps"]) - 1) < 1e-28


def test_profile_with_sampling_and_one_step_is_the_definition(capsys):
    assert main(["profile", "--P", "normal(1,1)", "--Q", "normal(0,1)", "--sample", "1/10", "--eps", "1/2",
                 "--dps", "20", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["directions"]["remove"]["method"].startswith("the definition") and float(out["delta"]) > 0


def test_profile_compose_rejects_a_bad_count(capsys):
    assert main(["profile", "--P", "normal(1,1)", "--Q", "normal(0,1)", "--compose", "0", "--eps", "1"]) == 2
    assert "--compose must be a positive integer" in capsys.readouterr().err


def test_divergence_record_is_reproducible():
    P, Q = parse_profile_law("poisson(2)"), parse_profile_law("poisson(7/2)")
    a = divergence_record("renyi", P, Q, "3", 25)
    b = divergence_record("renyi", P, Q, "3", 25)
    assert a == b and a["derived"] is not None


@pytest.mark.slow
def test_the_acceptance_profile_command(capsys):
    """`cbdp-sym profile --P normal(1,1) --Q normal(0,1) --sample 0.01 --compose 1000 --symmetric --delta 1e-5`: eps
    with its stated error (below 1e-45 relative), both relations, and the peers' errors."""
    assert main(["profile", "--P", "normal(1,1)", "--Q", "normal(0,1)", "--sample", "0.01", "--compose", "1000",
                 "--symmetric", "--delta", "1e-5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["eps"].startswith("1.828236666516576842614438183231673016480104559581")
    assert float(out["error"]) < 1e-45 and set(out["directions"]) == {"remove", "add"}
    libs = {r["library"]: r for r in out["peers"]}
    assert float(libs["dp_accounting"]["relative_error"]) > 0  # the PLD accountant is pessimistic
    assert all(float(r["relative_slack"]) > 0 for r in out["conversions"])
