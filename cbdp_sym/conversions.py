"""(eps, delta) conversions, hockey-stick divergences and privacy-loss atoms.

================================  ==================================================================
Group                             Names
================================  ==================================================================
profiles                          :func:`profile_sym`, :func:`profile_mp`, :func:`symmetric_profile_mp`,
                                  :func:`hockey_stick_generator` (:data:`E_gamma`), :class:`Phi`
hockey stick, atoms               :func:`hockey_stick`, :func:`hockey_stick_sym`, :func:`loss_atoms`,
                                  :func:`delta_atoms`, :func:`compose_atoms`, :func:`prob_bound`
RDP / profile -> (eps, delta)     :func:`eps_mironov`, :func:`eps_improved`, :func:`delta_improved`,
                                  :func:`delta_tv_bound`, :func:`eps_from_curve`,
                                  :func:`eps_from_profile`, :func:`best_over_alpha`, :func:`np_max`
mechanisms' exact profiles        :func:`mechanism_exact_eps`, :func:`mechanism_pair`, :func:`slack_table`
double-precision locators         :func:`profile_float` (the profile in binary64), :func:`float_root` (its root)
================================  ==================================================================

>>> import cbdp_sym.conversions as c
>>> "eps_mironov" in c.__all__
True
"""
from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.divergences.conversions": ("best_over_alpha", "compose_atoms", "delta_atoms", "delta_improved",
                                         "delta_tv_bound", "eps_from_curve", "eps_from_profile", "eps_improved",
                                         "eps_mironov", "hockey_stick", "hockey_stick_sym", "loss_atoms", "np_max",
                                         "prob_bound"),
    "cbdp_sym.divergences.profiles": ("E_gamma", "Phi", "hockey_stick_generator", "profile_mp", "profile_sym",
                                      "symmetric_profile_mp", "mechanism_exact_eps", "mechanism_pair", "slack_table",
                                      "profile_float", "float_root"),
}
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS)
