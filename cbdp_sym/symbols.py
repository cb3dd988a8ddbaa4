"""The shared SymPy symbols, with their assumptions (a claim's own parameters are declared by its :class:`Param`\\ s).

================================  ==================================================================
Group                             Names
================================  ==================================================================
parameters                        ``a``, ``b``, ``alpha``, ``eps``, ``lam``, ``s``, ``sigma``, ``sigma1``,
                                  ``sigma2``, ``mu1``, ``mu2``
variables of the engine           ``X`` (a law's variable), ``T`` and ``S`` (a generator's argument),
                                  ``ALPHA`` (the order of the alpha-divergence), ``KAPPA`` (``alpha - 1 > 0``)
================================  ==================================================================

>>> from cbdp_sym.symbols import KAPPA, sigma
>>> KAPPA.is_positive, sigma.is_positive
(True, True)
"""
from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.core.symbols": ("a", "alpha", "b", "eps", "lam", "mu1", "mu2", "s", "sigma", "sigma1", "sigma2"),
    "cbdp_sym.laws.distributions": ("X",),
    "cbdp_sym.divergences.generators": ("ALPHA", "KAPPA", "S", "T"),
}
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS)
