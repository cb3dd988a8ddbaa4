"""Issue 19: extreme inputs refused or computed right, one number form per value, quiet broken pipes,
and a fuzz test over the command line's parameter space."""
import os
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cbdp_sym.app.cli as cli
from ..conftest import ROOT


def _cli(*args, timeout=120):
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run([sys.executable, "-m", "cbdp_sym", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


# -- fuzz: the command line's parameter space -------------------------------------------------------------
NUMBER = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.fractions(min_value=-10**4, max_value=10**4, max_denominator=10**4).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["1e400", "1e-400", "1e999999999", "0", "-0", "inf", "nan", "2/3/4", "1/0", "abc", "",
                     "1,,2", "1e-12", "1e12", "0.000001"]),
)
SPEC = st.one_of(
    st.builds(lambda k, a, b: f"{k}({a},{b})", st.sampled_from(["laplace", "normal"]), NUMBER, NUMBER),
    st.builds(lambda a: f"point({a})", NUMBER),
    st.sampled_from(["laplace(0,1)", "normal(1,2)", "laplace(0)", "cauchy(0,1)", "product(laplace(0,1))"]),
)
LIMIT = 10  # seconds per command (the limit under test)


def _assert_clean(code, out, err, elapsed):
    assert "Traceback" not in err, err
    assert elapsed < LIMIT + 20, "ran past the limit"
    if code == 0:
        assert "nan" not in out.lower()
    else:
        assert code == 2, (code, err)
        assert len(err.strip().splitlines()) == 1, err


def _timed(*args):
    """``cli.main`` in this process (the work itself runs in a child stopped at the limit)."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    t0 = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main([*args, "--timeout", str(LIMIT)])
        except SystemExit as exc:  # argparse
            code = exc.code
    return code, out.getvalue(), err.getvalue(), time.monotonic() - t0


@pytest.mark.parametrize("args,needle", [
    (["eval", "CBDP-T8", "--at", "eps=1e400"], "outside the range"),
    (["eval", "CBDP-T8", "--at", "eps=1e999999999"], "exponent is too large"),
    (["eval", "CBDP-T8", "--at", "eps=2/3/4"], "not a number"),
    (["eval", "RDP-P6", "--at", "alpha=1e400", "--at", "lam=1"], "outside the range"),
    (["restricted", "kl", "lin", "--P", "laplace(1e400,1)", "--Q", "laplace(0,1)"], "outside the range"),
    (["restricted", "alpha", "lin", "--P", "laplace(0,1)", "--Q", "laplace(1,1)", "--alpha", "1e400"],
     "outside the range"),
])
def test_extreme_values_are_refused_in_one_line(args, needle, capsys):
    """Before: tracebacks (``eps=1e400``, ``laplace(1e400,1)``) or wrong values (16 for 1e400; 1.00017 for 1).
    In this process; ``test_extreme_value_is_refused_in_a_new_interpreter`` runs one through ``python -m``."""
    code = cli.main(args)
    out = capsys.readouterr()
    assert code == 2, out.out
    assert needle in out.err and "Traceback" not in out.err
    assert len(out.err.strip().splitlines()) == 1, out.err


def test_extreme_value_is_refused_in_a_new_interpreter():
    proc = _cli("eval", "CBDP-T8", "--at", "eps=1e400")
    assert proc.returncode == 2, proc.stdout
    assert "outside the range" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_numeric_value_is_printed_only_to_its_established_digits(capsys):
    """At eps = 1e-12 the quadrature at the working precision agrees with the closed form to about 13 digits: no more
    are printed.  (Since issue 33 eval computes the definition again with more digits when that falls short of an
    identity's agreement: then all 20 are established, and printed.)"""
    assert cli.main(["eval", "CBDP-T8", "--at", "eps=1e-12", "--dps", "20", "--json"]) == 0
    import json

    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    mant = doc["numeric"].split("e")[0].replace(".", "").lstrip("-0")
    if "shown to" in captured.err:
        assert len(mant) < 20
    else:
        assert doc["numeric"] == doc["derived"] and doc["verdict"] == "agrees"
    assert doc["derived"].split("e")[0].replace(".", "").lstrip("-0").__len__() == 20


def test_broken_module_in_path_is_one_line(tmp_path, capsys):
    """In this process (a new interpreter cost about 1 s of start-up; the message is what is tested)."""
    d = tmp_path / "pp"
    d.mkdir()
    (d / "_paper.py").write_text("PAPER = {'key': 'pp', 'title': 'pp'}\n")
    (d / "broken.py").write_text("import sympy\nx = 1 / 0\n")
    code = cli.main(["--path", str(tmp_path), "list"])
    out = capsys.readouterr()
    assert code == 0 and "CBDP-T9" in out.out  # (issue 30: the other papers still work)
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and "broken.py" in lines[0] and "line 2" in lines[0] and "ZeroDivisionError" in lines[0]


def test_broken_pipe_is_quiet():
    """Before: ``cbdp-sym list | head -1`` ended in a BrokenPipeError traceback."""
    proc = subprocess.run(f"{sys.executable} -m cbdp_sym list | head -1", shell=True, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.count("\n") == 1
    assert proc.stderr == ""


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(eps=NUMBER, dps=st.sampled_from(["5", "8", "1", "abc", "2000"]))
def test_fuzz_eval(eps, dps):
    _assert_clean(*_timed("eval", "CBDP-T8", f"--at=eps={eps}", f"--dps={dps}"))


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(div=st.sampled_from(["kl", "tv", "alpha", "renyi", "hellinger"]), cls=st.sampled_from(["lin", "poly2", "poly0", "x"]),
       P=SPEC, Q=SPEC, alpha=st.one_of(st.none(), NUMBER), dps=st.sampled_from(["5", "8"]))
def test_fuzz_restricted(div, cls, P, Q, alpha, dps):
    args = ["restricted", div, cls, f"--P={P}", f"--Q={Q}", f"--dps={dps}", "--no-second"]
    if alpha is not None:
        args.append(f"--alpha={alpha}")
    _assert_clean(*_timed(*args))


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(div=st.sampled_from(["kl", "tv", "alpha", "renyi"]), cls=st.sampled_from(["lin", "poly2"]),
       P=SPEC, Q=SPEC, alpha=st.one_of(st.none(), NUMBER), dps=st.sampled_from(["5", "10", "20"]))
def test_fuzz_restricted_slow(div, cls, P, Q, alpha, dps):
    args = ["restricted", div, cls, f"--P={P}", f"--Q={Q}", f"--dps={dps}"]
    if alpha is not None:
        args.append(f"--alpha={alpha}")
    _assert_clean(*_timed(*args))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(cid=st.sampled_from(["CBDP-T8", "RDP-P6", "RDP-P5", "ZCDP-P5"]), a=NUMBER, b=NUMBER,
       dps=st.sampled_from(["5", "10", "50"]))
def test_fuzz_eval_slow(cid, a, b, dps):
    names = {"CBDP-T8": ["eps"], "RDP-P6": ["alpha", "lam"], "RDP-P5": ["p", "alpha"], "ZCDP-P5": ["eps"]}[cid]
    ats = [f"--at={n}={v}" for n, v in zip(names, (a, b))]
    _assert_clean(*_timed("eval", cid, *ats, f"--dps={dps}"))
