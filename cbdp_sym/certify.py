"""Arb ball certificates: a closed form or an inequality decided with rigorous error bounds (python-flint).

================================  ==================================================================
Group                             Names
================================  ==================================================================
evaluating                        :func:`arb_value`, :func:`arb_closed`, :func:`arb_eval`,
                                  :func:`arb_precision`, :func:`substitute_point`, :func:`arb_to_mpf`
computing in balls                :data:`arb` (python-flint's ball type), :func:`arb_from_mpf`
certifying                        :func:`certify_less`, :func:`certify_closed_less`,
                                  :func:`certify_above_bound`, :func:`certify_different`,
                                  :class:`NotCertifiable`
Rényi suprema over ``lin``        :func:`lin_renyi_lower`, :func:`lin_renyi_certificate`
================================  ==================================================================

>>> from cbdp_sym.certify import arb_closed, certify_closed_less
>>> "arb_closed" in __import__("cbdp_sym.certify").certify.__all__
True
"""
from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.calculus.certify": ("NotCertifiable", "arb", "arb_from_mpf", "arb_value", "arb_closed", "arb_eval", "arb_precision",
                                  "certify_above_bound", "certify_less", "certify_closed_less", "certify_different",
                                  "lin_renyi_lower", "substitute_point"),
    "cbdp_sym.restricted.lincert": ("lin_renyi_certificate",),
    "cbdp_sym.restricted.finite": ("arb_to_mpf",),
}
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS)
