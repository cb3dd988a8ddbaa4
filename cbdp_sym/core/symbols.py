"""Canonical SymPy symbols for the papers' parameters (ASCII CLI names in comments).

Assumptions matter: they decide which root is admissible and how kinks are ordered.
"""
import sympy as sp

eps = sp.Symbol("epsilon", positive=True)  # eps: privacy parameter; Laplace scale 1/eps
sigma = sp.Symbol("sigma", positive=True)  # sigma: Gaussian standard deviation
sigma1 = sp.Symbol("sigma1", positive=True)
sigma2 = sp.Symbol("sigma2", positive=True)
mu1 = sp.Symbol("mu1", real=True)
mu2 = sp.Symbol("mu2", real=True)
alpha = sp.Symbol("alpha", positive=True)  # alpha > 1 is checked by the claims' parameters
lam = sp.Symbol("lam", positive=True)
a = sp.Symbol("a", real=True)  # slope of a linear adversary
b = sp.Symbol("b", real=True)  # intercept of a linear adversary
s = sp.Symbol("s", real=True)  # argument of a conjugate
