"""Tests of :mod:`cbdp_sym.core.safeeval`: lambdify's values, bit for bit, without running printed code."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core.safeeval import Refused, compile_mp, printed_source
from cbdp_sym.laws.distributions import Phi

X, A = sp.symbols("x alpha", positive=True)
H = sp.Symbol("H_{k-1}", positive=True)  # not an identifier: lambdify renames it in the printed code

EXPRS = [
    sp.exp(-X) * X**A / (1 + X) ** 2 + sp.Rational(1, 3) * sp.sqrt(X) + sp.Float("0.1", 30) + sp.pi + sp.E,
    sp.erfc(X) + sp.Abs(X - 1) + sp.Max(X, A) + sp.Min(X, 2) + sp.Piecewise((X, X > 1), (0, True)),
    sp.log(X) + sp.EulerGamma + sp.LambertW(X) + sp.sign(X - 2) + sp.gamma(X) + 1 / sp.sqrt(X) + X ** -2,
    sp.cosh(A * X) - sp.tanh(X) / 3 + sp.Integer(3) / X + H * X,
    Phi(-X) * sp.exp(A) - Phi(X / A),
]


@pytest.mark.parametrize("cse", [False, True])
def test_values_are_lambdifys_bit_for_bit(cse):
    args = (X, A, H)
    ours = compile_mp(args, EXPRS, {"Phi": Phi.mp}, cse=cse)
    theirs = sp.lambdify(args, EXPRS, modules=[{"Phi": Phi.mp}, "mpmath"], cse=cse)
    with mp.workdps(45):
        for xv in ("0.3", "1.7", "5"):
            for av in ("0.5", "13/4"):
                vals = (mp.mpf(xv), mp.mpf(sp.Rational(av).p) / sp.Rational(av).q, mp.mpf(2))
                got, want = ours(*vals), theirs(*vals)
                assert [g._mpf_ for g in got] == [w._mpf_ for w in want]


def test_single_expression_and_no_arguments():
    assert compile_mp((), sp.sqrt(2) + sp.pi)() == sp.lambdify((), sp.sqrt(2) + sp.pi, modules="mpmath")()
    f = compile_mp(X, sp.exp(X))
    assert f(mp.mpf(1)) == mp.e
    with pytest.raises(TypeError):
        f()


@pytest.mark.parametrize("expr", [
    sp.Function("exec")(X),
    sp.Function("__import__")(X),
    sp.Function("open")(X) + 1,
    sp.Function("identify")(X),
    sp.Symbol("__import__('os').system('touch PWNED')"),
    X + sp.Symbol("y"),  # a free symbol that is not an argument
    sp.Sum(X ** sp.Symbol("k", integer=True), (sp.Symbol("k", integer=True), 0, 3)).doit() * sp.Poly(X, X).as_expr()
    + sp.Integral(sp.exp(-X * A), (A, 0, 1)),
])
def test_trees_that_name_code_or_are_not_arithmetic_are_refused(expr, tmp_path, monkeypatch):
    """Before: ``lambdify`` printed a symbol's or function's name as Python and ran it (a forged cache entry ran a
    shell command)."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(Refused):
        compile_mp((X, A), expr)(mp.mpf(1), mp.mpf(2))
    assert not (tmp_path / "PWNED").exists()


def test_a_function_cannot_be_bound_to_a_printer_name():
    with pytest.raises(Refused):
        compile_mp((X,), sp.exp(X), {"exp": lambda x: 0})
    with pytest.raises(Refused):
        compile_mp((X,), sp.exp(X), {"__import__": __import__})


def test_printed_source_is_what_lambdify_prints():
    src = printed_source((X,), [sp.exp(X) * X, sp.exp(X) / (1 + X)], cse=True)
    assert src.startswith("def _lambdifygenerated(x):") and "x0 = exp(x)" in src
