"""Layer 3, calculus: symbolic integration split at kinks and maximisation (symbolic), optimisers chosen by name
(optimize), Arb ball arithmetic with the one SymPy-to-Arb evaluator (certify), implicit quantities (roots and
extrema in one variable, implicit).  Imports core and laws.

As a namespace (``from cbdp_sym.calculus import maximize``):

================================  ==================================================================
Group                             Names
================================  ==================================================================
symbolic                          :func:`integrate_split`, :func:`split_at_kinks`, :func:`maximize`,
                                  :func:`simplify`, :func:`decide_positive`, :class:`Implicit`,
                                  :class:`DerivationError`
numeric optimisation              ``optimize`` (optimisers chosen by name), :func:`golden_max`,
                                  :func:`sup_positive`
caches and limits                 :func:`cached_numeric`, :func:`cached_derivation`, :func:`recording`,
                                  :func:`time_limit`
numbers                           :func:`to_mpf`, :func:`mp_str`, :func:`digits`, :func:`relative_slack`,
                                  :func:`latex`
================================  ==================================================================
"""

from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.calculus.symbolic": ("decide_positive", "integrate_split", "maximize", "simplify", "split_at_kinks"),
    "cbdp_sym.calculus.optimize": ("golden_max", "sup_positive"),
    "cbdp_sym.calculus.implicit": ("Implicit",),
    "cbdp_sym.core.errors": ("DerivationError",),
    "cbdp_sym.core.cache": ("cached_numeric",),
    "cbdp_sym.core.tape": ("cached_derivation", "recording"),
    "cbdp_sym.core.timelimit": ("time_limit",),
    "cbdp_sym.core.numbers": ("digits", "mp_str", "to_mpf"),
    "cbdp_sym.core.verdict": ("relative_slack",),
    "cbdp_sym.core.printing": ("latex",),
}
_NAMESPACES = {"optimize": "cbdp_sym.calculus.optimize"}
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS, _NAMESPACES)
