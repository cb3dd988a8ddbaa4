"""Double-precision log-densities of the laws, for the engine's double-precision locators.

The warm start of the restricted solver (:mod:`cbdp_sym.restricted.warmstart`, on NumPy arrays) and the profile
locator (:func:`cbdp_sym.divergences.profiles.profile_locator`, on Python floats) only *locate*: nothing computed
here enters a value.  One function serves both: on a Python float it computes in Python floats, on an array
elementwise, with the same operations (IEEE double: the same bits).

>>> from cbdp_sym.laws.distributions import Laplace, Normal
>>> np_log_pdf(Laplace(0, 1))(1.0) == -1 - math.log(2)
True
>>> np_log_pdf(Normal(0, 1))(0.0) == -math.log(math.sqrt(2 * math.pi))
True
"""
from __future__ import annotations

import math


from cbdp_sym.core.numbers import to_mpf
from cbdp_sym.laws.distributions import Laplace, Mixture, Normal

__all__ = ["np_log_pdf"]


def np_log_pdf(Q):
    """``log q(x)`` in double precision for a Laplace or Normal law or a mixture of them, else ``None``.

    The parameters are the law's at the working precision rounded to doubles; ``x`` is a float or a NumPy array."""
    if isinstance(Q, Laplace):
        loc, b = float(to_mpf(Q.loc)), float(to_mpf(Q.scale))
        c = math.log(2 * b)
        return lambda x: -abs(x - loc) / b - c  # abs: a float stays a float (np.abs would make an np.float64)
    if isinstance(Q, Normal):
        loc, s = float(to_mpf(Q.loc)), float(to_mpf(Q.std))
        c = math.log(s * math.sqrt(2 * math.pi))
        return lambda x: -((x - loc) ** 2) / (2 * s * s) - c
    if isinstance(Q, Mixture):
        parts = [(math.log(float(to_mpf(wt))), np_log_pdf(c)) for wt, c in zip(Q.weights, Q.components)
                 if float(to_mpf(wt)) > 0]
        if not parts or any(f is None for _, f in parts):
            return None

        def lq(x):
            if isinstance(x, (float, int)):  # one abscissa: in floats (the command line's check imports no NumPy)
                terms = [lw + f(x) for lw, f in parts]
                top = max(terms)
                if not math.isfinite(top):
                    return top
                return top + math.log(math.fsum(math.exp(t - top) for t in terms))
            import numpy as np  # (on first use: NumPy costs 50 ms to import, and most commands never need it)

            terms = np.array([lw + f(x) for lw, f in parts])
            top = terms.max(axis=0)
            return top + np.log(np.exp(terms - top).sum(axis=0))

        return lq
    return None
