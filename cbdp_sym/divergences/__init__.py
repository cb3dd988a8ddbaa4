"""Layer 4, divergences: generators and their derived conjugates (generators), quadrature of expectations and
divergences from their definitions (numeric), f-divergences from their generators (fdiv, kinked for generators
with kinks), variational forms, conjugate structures, mechanisms, privacy profiles and (eps, delta)
conversions, concentrated DP, peers' accountants.  Imports the layers below.

As a namespace (``from cbdp_sym.divergences import power_sup``), the forms beyond the face's divergences:

================================  ==================================================================
Group                             Names
================================  ==================================================================
expectations                      :class:`AbstractLaw`, :class:`Expect`, :func:`quad_split`,
                                  :func:`renyi_mp`, :func:`mp_joint`
variational forms                 :func:`lin_objective`, :func:`eliminate_intercept`,
                                  :func:`conjugate_structure` (a generator's conjugate read as a shape)
shifted laws                      :func:`renyi_shift_sum`, :func:`alpha_div_shift_product`,
                                  :func:`abs_moment`, :func:`symmetric_about_zero`, ``I_``, ``Log1p``
================================  ==================================================================
"""

from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.divergences.fdiv": ("AbstractLaw", "Expect"),
    "cbdp_sym.divergences.numeric": ("mp_joint", "quad_split", "renyi_mp"),
    "cbdp_sym.divergences.variational": ("eliminate_intercept", "lin_objective"),
    "cbdp_sym.divergences.shifted": ("I_", "Log1p", "abs_moment", "alpha_div_shift_product", "renyi_shift_sum",
                                     "symmetric_about_zero"),
    "cbdp_sym.divergences.reduction": ("conjugate_structure",),
}
# conjugate_constants, orthant_chain_bound, power_sup: held here before 0.3, moved into the CBDP paper's folder
# (derivations/cbdp/_shared.py), deprecated one release (cbdp_sym._api.MOVED_ALIASES)
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS, moved_names=_api.moved_from(__name__))
