"""The one LaTeX printer of cbdp-sym: readable output (``\\varepsilon``, ``\\log``, ``\\mathbb{E}``).

>>> import sympy as sp
>>> latex(sp.exp(-sp.Symbol("epsilon", positive=True)))
'e^{- \\\\varepsilon}'
>>> latex(sp.log(sp.Symbol("x")))
'\\\\log{\\\\left(x \\\\right)}'
"""
from __future__ import annotations

import sympy as sp
from sympy.printing.latex import LatexPrinter

_NAMES = {
    "epsilon": r"\varepsilon",
    "eps": r"\varepsilon",
    "lam": r"\lambda",
    "mu1": r"\mu_1",
    "mu2": r"\mu_2",
    "sigma1": r"\sigma_1",
    "sigma2": r"\sigma_2",
    "alpha_m1": r"(\alpha-1)",
}


class CbdpLatexPrinter(LatexPrinter):
    """SymPy's LaTeX printer with the toolkit's symbol names and notation."""

    def __init__(self, settings=None):
        base = {"ln_notation": False, "mul_symbol": None, "inv_trig_style": "abbreviated"}
        base.update(settings or {})
        super().__init__(base)

    def _print_Symbol(self, expr, style="plain"):
        if expr.name in _NAMES:
            return _NAMES[expr.name]
        return super()._print_Symbol(expr, style)

    def _print_Expect(self, expr):
        law, body = expr.args
        return r"\mathbb{E}_{%s}\left[%s\right]" % (self._print(law), self._print(body))

    def _print_FiniteSet(self, s):
        items = sorted(s.args, key=sp.default_sort_key)
        return r"\left\{" + r",\ ".join(self._print(i) for i in items) + r"\right\}"


_PRINTER = CbdpLatexPrinter()


def latex(expr) -> str:
    """LaTeX for a SymPy expression (or a :class:`~cbdp_sym.tape.Tex`, or a plain number)."""
    from .tape import Tex

    if isinstance(expr, Tex):
        return expr.latex
    if isinstance(expr, str):
        return expr
    return _PRINTER.doprint(sp.sympify(expr))
