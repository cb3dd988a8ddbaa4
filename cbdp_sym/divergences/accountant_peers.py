"""Other teams' accountants of the Poisson-subsampled Gaussian mechanism under composition, called once and
documented: ``eps(delta)`` after ``K`` steps from dp_accounting (PLD and RDP accountants), autodp (RDP, and its
characteristic-function accountant) and Opacus's RDP accountant when it is importable (never a dependency: it pulls in
torch).  Each value is compared with the exact one (:mod:`cbdp_sym.divergences.composition`) by its relative error.

Conventions (the libraries' words, and ours): ``noise_multiplier = sigma`` is the standard deviation of the noise
divided by the L2 sensitivity (our ``normal(1, sigma)`` against ``normal(0, sigma)``); the sampling probability is
Poisson's rate ``q``; ``ADD_OR_REMOVE_ONE`` (dp_accounting) is the worse of the ``remove`` and ``add`` pairs, our
``--symmetric``; the RDP accountants use Mironov, Talwar and Zhang's curve (the ``remove`` pair) at their default
orders and convert it to ``(eps, delta)`` with their own conversions (an upper bound: part of their error is the
conversion's, not their arithmetic's).

Imports are lazy: importing this module never fails; a missing library gives a row with status ``skipped``.
"""
from __future__ import annotations

import importlib

import mpmath as mp

from cbdp_sym.divergences.peers import PeerValue, call_library, versions

__all__ = ["subsampled_gaussian_eps_peers", "peer_rows"]


def _has(module: str) -> bool:
    try:
        importlib.import_module(module)
        return True
    except ImportError:
        return False


def _dpa_pld(q, sigma, K, delta):
    from dp_accounting import dp_event
    from dp_accounting.pld import pld_privacy_accountant

    acc = pld_privacy_accountant.PLDAccountant()
    acc.compose(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), K)
    return acc.get_epsilon(delta)


def _dpa_rdp(q, sigma, K, delta):
    from dp_accounting import dp_event
    from dp_accounting.rdp import rdp_privacy_accountant

    acc = rdp_privacy_accountant.RdpAccountant()
    acc.compose(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), K)
    return acc.get_epsilon(delta)


def _autodp_rdp(q, sigma, K, delta):
    from autodp.mechanism_zoo import GaussianMechanism
    from autodp.transformer_zoo import AmplificationBySampling, Composition

    sgm = AmplificationBySampling(PoissonSampling=True)(GaussianMechanism(sigma=sigma), q, improved_bound_flag=True)
    return Composition()([sgm], [K]).get_approxDP(delta)


def _autodp_phi(q, sigma, K, delta):
    from autodp.mechanism_zoo import SubsampleGaussianMechanism

    params = {"prob": q, "sigma": sigma, "coeff": K}
    # autodp's documented use: the two relations separately, the standard add/remove as the larger eps
    return max(SubsampleGaussianMechanism(params, phi_off=False, RDP_off=True, neighboring=rel).get_approxDP(delta)
               for rel in ("remove_only", "add_only"))


def _opacus_rdp(q, sigma, K, delta):
    from opacus.accountants.analysis import rdp as orp

    orders = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))
    rdp = orp.compute_rdp(q=q, noise_multiplier=sigma, steps=K, orders=orders)
    eps, _alpha = orp.get_privacy_spent(orders=orders, rdp=rdp, delta=delta)
    return eps


_PEERS = [
    ("dp_accounting", "dp_accounting", "PLDAccountant().compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), K)"
     ".get_epsilon(delta)", "privacy loss distribution (discretised, pessimistic), both relations", _dpa_pld),
    ("dp_accounting", "dp_accounting", "RdpAccountant().compose(PoissonSampledDpEvent(...), K).get_epsilon(delta)",
     "RDP at its default orders, converted", _dpa_rdp),
    ("autodp", "autodp", "Composition()([AmplificationBySampling(PoissonSampling=True)(GaussianMechanism(sigma), q)],"
     " [K]).get_approxDP(delta)", "RDP, converted", _autodp_rdp),
    ("autodp", "autodp", "max over remove_only / add_only of SubsampleGaussianMechanism({'prob': q, 'sigma': sigma, "
     "'coeff': K}, phi_off=False, RDP_off=True, neighboring=...).get_approxDP(delta)",
     "characteristic function (phi-function accountant), both relations", _autodp_phi),
    ("opacus", "opacus.accountants.analysis.rdp", "compute_rdp + get_privacy_spent", "RDP, converted", _opacus_rdp),
]


def subsampled_gaussian_eps_peers(q, sigma, K, delta, include=None):
    """``[(library, method, PeerValue)]``: each installed accountant's ``eps(delta)`` after ``K`` steps of the
    Poisson-subsampled Gaussian with rate ``q`` and noise multiplier ``sigma`` (floats as the libraries take them);
    a library that is not installed gives a ``PeerValue`` with ``error = "skipped: not installed"``."""
    qf, sf, df = float(q), float(sigma), float(delta)
    out = []
    for lib, module, call, method, fn in _PEERS:
        if include is not None and lib not in include:
            continue
        if not _has(module.split(".")[0] if lib != "opacus" else "opacus"):
            out.append((lib, method, PeerValue(lib, call, None, "skipped: not installed")))
            continue
        out.append((lib, method, call_library(lib, call, lambda fn=fn: fn(qf, sf, int(K), df))))
    return out


def peer_rows(peers, exact):
    """JSON-ready rows ``{library, version, method, call, value, relative_error, status}`` against the exact ``eps``
    (relative error ``(value - exact) / exact``)."""
    vers = versions()
    rows = []
    for lib, method, pv in peers:
        row = {"library": lib, "version": vers.get(lib) if lib in vers else _version(lib), "method": method,
               "call": pv.call, "value": None, "relative_error": None, "status": None}
        if pv.value is None:
            row["status"] = pv.error if pv.error and pv.error.startswith("skipped") else f"error: {pv.error}"
        else:
            row["value"] = repr(pv.value)
            if exact is not None and exact != 0 and mp.isfinite(exact):
                with mp.workdps(30):
                    rel = (mp.mpf(pv.value) - exact) / exact
                row["relative_error"] = mp.nstr(rel, 3)
            row["status"] = "computed"
        rows.append(row)
    return rows


def _version(lib):
    from importlib import metadata

    try:
        return metadata.version(lib)
    except metadata.PackageNotFoundError:
        return None
