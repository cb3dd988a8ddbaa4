"""Other libraries' accountants (autodp, dp_accounting; Opacus only when installed), run and compared with the exact
values, each peer's error reported.

================================  ==================================================================
Group                             Names
================================  ==================================================================
availability                      :func:`available`, :func:`versions`, :data:`U` (binary64 unit roundoff)
peers' values                     :func:`rdp`, :func:`rdp_formula`, :func:`eps_single_order`,
                                  :func:`delta_single_order`, :func:`eps_optimised_autodp`,
                                  :func:`exact_gaussian_eps`, :func:`eps_accountant`,
                                  :func:`subsampled_gaussian_eps_peers`, :func:`call_library` (run a
                                  peer's computation, its failure recorded)
comparing                         :class:`PeerValue`, :func:`predicted_error`, :func:`compare`,
                                  :func:`peer_table`, :func:`peer_rows`
================================  ==================================================================

>>> from cbdp_sym import peers
>>> "compare" in peers.__all__
True
"""
from cbdp_sym import _api

_EXPORTS = {
    "cbdp_sym.divergences.peers": ("available", "versions", "PeerValue", "rdp", "rdp_formula", "predicted_error",
                                   "eps_single_order", "delta_single_order", "eps_optimised_autodp", "call_library",
                                   "exact_gaussian_eps", "eps_accountant", "compare", "peer_table", "U"),
    "cbdp_sym.divergences.accountant_peers": ("subsampled_gaussian_eps_peers", "peer_rows"),
}
# autodp_puredp_rdp, autodp_zcdp_rdp: held here before 0.3, moved into the zCDP paper's folder
# (derivations/zcdp/_shared.py), deprecated one release (cbdp_sym._api.MOVED_ALIASES)
__all__, __getattr__, __dir__ = _api.namespace(__name__, _EXPORTS, moved_names=_api.moved_from(__name__))
