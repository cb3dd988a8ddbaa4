"""cbdp-sym: symbolic derivation and verification of differential-privacy theory.

The public API (for notebooks and for derivation modules):

* laws: :class:`Laplace`, :class:`Normal`, :class:`Product`;
* generators: :data:`KL`, :data:`TV`, :data:`ALPHA_DIV`, :func:`alpha_generator`, :class:`Generator`;
* derivations: :func:`f_divergence`, :func:`expect`, :func:`integrate_split`, :func:`maximize`,
  :func:`lin_objective`, :func:`eliminate_intercept`, the tape (:func:`record`, :class:`Tex`);
* numerics: :func:`fdiv_mp`, :func:`restricted_divergence` (restricted suprema over lin / poly_k; the module
  :mod:`cbdp_sym.restricted` holds the solver, and calling the module itself still works but is deprecated),
  :func:`quad_split`;
* claims: :class:`Claim`, :class:`Param`, :func:`audit_claim`, :class:`Registry`, :func:`derivation` (a claim's
  derivation, shown as aligned equations in a notebook);
* (eps, delta): :func:`hockey_stick_generator` (:data:`E_gamma`), :class:`Phi`, :func:`profile_sym`,
  :func:`profile_mp`, :func:`symmetric_profile_mp`, :func:`eps_for_delta`, :func:`privacy_profile`;
  implicit claim sides :class:`Implicit` (a root or an extremum in one variable).

Every sub-module is importable as a module (``import cbdp_sym.restricted as R``): no name exported here
shadows one.
"""
from .calculus import decide_positive, integrate_split, maximize
from .claims import Claim, Param, Reading
from .distributions import Laplace, Normal, Product
from .divergences import AbstractLaw, expect, f_divergence
from .generators import ALPHA_DIV, KL, TV, Generator, alpha_generator
from .errors import CbdpError, DerivationError, ParameterError, UnknownClaimError
from .implicit import Implicit
from .numeric import fdiv_mp, quad_split
from .profiles import (E_gamma, Phi, eps_for_delta, hockey_stick_generator, privacy_profile, profile_mp, profile_sym,
                       symmetric_profile_mp)
from . import restricted  # noqa: F401 - the module (the function is restricted_divergence)
from .restricted import restricted as restricted_divergence
from .restricted import restricted_mp
from .tape import Tex, record, recording
from .variational import eliminate_intercept, lin_objective
from .verdict import CheckResult, Status, relative_slack
from .verify import with_readings
from .findings import Finding

from ._api import *  # noqa: E402,F401,F403 - every name the paper modules use (cbdp_sym._api)
from ._api import API_NAMES as _API_NAMES  # noqa: E402

from .version import __version__  # noqa: E402,F401


def audit_claim(claim, dps=50, points=None):
    """Audit one claim (see :func:`cbdp_sym.verify.audit_claim`)."""
    from .verify import audit_claim as _audit

    return _audit(claim, dps, points)


def derivation(claim):
    """A claim's derivation (:class:`cbdp_sym.display.Derivation`: the steps the engine recorded and the
    derived form), displayed as aligned equations in a notebook.  ``claim`` is a :class:`Claim` or an ID of
    the built-in papers."""
    from .display import Derivation
    from .registry import Registry
    from .verify import derive

    if not isinstance(claim, Claim):
        claim = Registry().get(str(claim))
    if claim.derive is None:
        return Derivation(claim.id, [], None, claim.claimed() if claim.claimed else None)
    expr, steps = derive(claim)
    return Derivation(claim.id, steps, expr, claim.claimed() if claim.claimed else None)


def Registry(*args, **kwargs):  # noqa: N802 - a factory with the class's name
    """The claims under the built-in derivations (and ``extra_roots``)."""
    from .registry import Registry as _R

    return _R(*args, **kwargs)
