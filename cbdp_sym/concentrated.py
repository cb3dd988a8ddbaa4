"""Concentrated differential privacy: zCDP pairs, Chernoff exponents, group privacy, conversions to (eps, delta).

================================  ==================================================================
Group                             Names
================================  ==================================================================
zCDP pairs and laws               :class:`ZPair`, :func:`affine_loss_law`, :func:`random_finite_pairs`,
                                  :func:`spike_pair`, :func:`finite_pair_from_logits`
exponents and conversions         :func:`chernoff_exponent`, :func:`rdp_conversion_optimum`,
                                  :func:`complete_square`, :func:`tail_integral`, :func:`mcdp_exponent`,
                                  :func:`dpa_zcdp_epsilon`
group privacy                     :func:`holder_orders`, :func:`group_induction`, :func:`group_recursion`,
                                  :func:`dp_group_delta`, :func:`harmonic`
other                             :func:`mutual_information`, :func:`certify_lt`
================================  ==================================================================

>>> import cbdp_sym.concentrated as c
>>> "ZPair" in c.__all__
True
"""
from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.divergences.concentrated": ("ZPair", "affine_loss_law", "certify_lt", "chernoff_exponent",
                                          "complete_square", "dp_group_delta", "dpa_zcdp_epsilon",
                                          "finite_pair_from_logits", "group_induction", "group_recursion", "harmonic",
                                          "holder_orders", "mcdp_exponent", "mutual_information",
                                          "random_finite_pairs", "rdp_conversion_optimum", "spike_pair",
                                          "tail_integral"),
}
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS)
