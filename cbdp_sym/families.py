"""Instances and families: random finite laws, instance families checked against a bound, cached checks, figures,
and the finite restricted solver.

================================  ==================================================================
Group                             Names
================================  ==================================================================
instances                         :class:`Instance`, :func:`bound_evidence`, :func:`cached_check`,
                                  :func:`cached_point`, :func:`disk_cached_derivation`, :func:`evaluate`
finite laws                       :func:`random_pmf`, :func:`random_finite`, :func:`random_kernel`,
                                  :func:`finite_from_logits`, :func:`softmax`, :func:`push_forward`,
                                  :func:`joint_adaptive`, :func:`events`, :func:`mass`, :func:`order_mp`,
                                  :func:`describe`, :func:`seed_for`
family evidence                   :func:`family_results_evidence`, :func:`curves_evidence`,
                                  :func:`locate_extremum`, :class:`Skipped`
figures                           :class:`Figure`, :class:`Curve`
the finite restricted solver      ``finite_restricted`` (the module :mod:`cbdp_sym.restricted.finite`),
                                  :func:`exact_mpf`, :func:`joint_law`, :func:`solve_exact`
================================  ==================================================================

>>> from cbdp_sym.families import finite_restricted
>>> finite_restricted.__name__
'cbdp_sym.restricted.finite'
"""
from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.verify.instances": ("Instance", "bound_evidence", "cached_check", "cached_point",
                                  "disk_cached_derivation"),
    "cbdp_sym.verify.points": ("evaluate",),
    "cbdp_sym.laws.finite_laws": ("describe", "events", "finite_from_logits", "joint_adaptive", "mass", "order_mp",
                                  "push_forward", "random_finite", "random_kernel", "random_pmf", "seed_for",
                                  "softmax"),
    "cbdp_sym.verify.shapes": ("curves_evidence", "family_results_evidence"),
    "cbdp_sym.verify.evidence": ("Skipped", "locate_extremum"),
    "cbdp_sym.verify.figures": ("Curve", "Figure"),
    "cbdp_sym.restricted.finite": ("exact_mpf", "joint_law", "solve_exact"),
}
_NAMESPACES = {"finite_restricted": "cbdp_sym.restricted.finite"}
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS, _NAMESPACES)
