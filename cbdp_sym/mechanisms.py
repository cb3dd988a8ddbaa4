"""Mechanisms and their Rényi curves: Gaussian, Laplace, randomized response, subsampled and composed mechanisms,
lattice (discrete) mixtures and sums.

================================  ==================================================================
Group                             Names
================================  ==================================================================
mechanisms                        :func:`gaussian_mechanism`, :func:`laplace_mechanism`,
                                  :func:`randomized_response`
Rényi curves                      :func:`renyi_curve`, :func:`renyi_numeric`, :func:`curve_function`,
                                  :func:`limit_alpha`, :func:`same_value`
subsampling, composition          :func:`fixed_size_subsample`, :func:`subsampled_rdp`,
                                  :func:`subsampled_gaussian_rdp`, :func:`subsampled_renyi_sym`,
                                  :class:`Composition`
laws on the integers              :class:`LatticeMixture`, :class:`LatticeSum`, :func:`poisson_summation`,
                                  :func:`poisson_dual`
================================  ==================================================================

>>> import cbdp_sym.mechanisms as m
>>> "gaussian_mechanism" in m.__all__
True
"""
from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.divergences.mechanisms": ("curve_function", "gaussian_mechanism", "laplace_mechanism", "limit_alpha",
                                        "randomized_response", "renyi_curve", "renyi_numeric", "same_value"),
    "cbdp_sym.divergences.subsampling": ("fixed_size_subsample", "subsampled_gaussian_rdp", "subsampled_rdp",
                                         "subsampled_renyi_sym"),
    "cbdp_sym.divergences.composition": ("Composition",),
    "cbdp_sym.laws.discrete": ("LatticeMixture", "LatticeSum"),
    "cbdp_sym.divergences.lattice_symbolic": ("poisson_dual", "poisson_summation"),
}
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS)
