"""Layer 5, restricted: divergences restricted to an adversary class (lin, poly_k, finite classes), one-
dimensional (solver) and for products (products), with Arb certificates (lincert).  Imports the layers below.

As a namespace (``from cbdp_sym.restricted import lin_renyi``; the face's :func:`cbdp_sym.restricted_divergence`
is the entry point):

================================  ==================================================================
Group                             Names
================================  ==================================================================
the solver                        :func:`restricted_mp`, :func:`restricted_record`, :func:`renyi_limit`,
                                  :func:`sup_over_intercept`, :class:`SolverFailure`
Rényi over ``lin`` and powers     :func:`lin_renyi`, :func:`exact_lin_renyi`, :func:`renyi_shift_mp`,
                                  :func:`alpha_div_mp`, :func:`abs_moment_mp`, :func:`abs_power_mean`,
                                  :func:`orthant_power_mean`, :func:`shift_laws`
finite laws                       the module ``finite`` (:mod:`cbdp_sym.restricted.finite`)
================================  ==================================================================
"""

from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.restricted.solver": ("renyi_limit", "restricted_mp", "restricted_record", "sup_over_intercept"),
    "cbdp_sym.restricted.linpower": ("SolverFailure", "abs_moment_mp", "abs_power_mean", "alpha_div_mp",
                                     "exact_lin_renyi", "lin_renyi", "orthant_power_mean", "renyi_shift_mp",
                                     "shift_laws"),
}
_NAMESPACES = {"finite": "cbdp_sym.restricted.finite"}
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS, _NAMESPACES)
