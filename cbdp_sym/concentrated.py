"""Deprecated (kept one release): the ``cbdp_sym.concentrated`` namespace emptied in 0.3.

Its names (zCDP pairs, Chernoff exponents, group privacy, conversions to (eps, delta): :class:`ZPair`,
:func:`chernoff_exponent`, :func:`affine_loss_law`, :func:`random_finite_pairs`, :func:`spike_pair`,
:func:`finite_pair_from_logits`, :func:`rdp_conversion_optimum`, :func:`complete_square`, :func:`tail_integral`,
:func:`mcdp_exponent`, :func:`dpa_zcdp_epsilon`, :func:`holder_orders`, :func:`group_induction`,
:func:`group_recursion`, :func:`dp_group_delta`, :func:`harmonic`, :func:`mutual_information`, :func:`certify_lt`)
were used by the zCDP paper only: they moved into its folder, ``derivations/zcdp/_shared.py``.  Each still resolves
here to that very object, with a ``DeprecationWarning`` naming the new home.

>>> import warnings, cbdp_sym.concentrated as c
>>> with warnings.catch_warnings(record=True) as w:
...     warnings.simplefilter("always")
...     _ = c.ZPair
>>> "derivations/zcdp/_shared.py" in str(w[0].message), c.__all__
(True, [])
"""
from cbdp_sym import _api

_EXPORTS: dict = {}  # (its names moved into the zCDP paper's folder: cbdp_sym._api.MOVED_ALIASES)
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS, moved_names=_api.moved_from(__name__))
