"""cbdp-sym: symbolic derivation and verification of differential-privacy theory.

The public API (for notebooks and for derivation modules):

* laws: :class:`Laplace`, :class:`Normal`, :class:`Product`;
* generators: :data:`KL`, :data:`TV`, :data:`ALPHA_DIV`, :func:`alpha_generator`, :class:`Generator`;
* derivations: :func:`f_divergence`, :func:`expect`, :func:`integrate_split`, :func:`maximize`,
  :func:`lin_objective`, :func:`eliminate_intercept`, the tape (:func:`record`, :class:`Tex`);
* numerics: :func:`fdiv_mp`, :func:`restricted_divergence` (restricted suprema over lin / poly_k; the
  sub-package :mod:`cbdp_sym.restricted` holds the solvers),
  :func:`quad_split`;
* claims: :class:`Claim`, :class:`Param`, :func:`audit_claim`, :class:`Registry`, :func:`derivation` (a claim's
  derivation, shown as aligned equations in a notebook);
* (eps, delta): :func:`hockey_stick_generator` (:data:`E_gamma`), :class:`Phi`, :func:`profile_sym`,
  :func:`profile_mp`, :func:`symmetric_profile_mp`, :func:`eps_for_delta`, :func:`privacy_profile`;
  implicit claim sides :class:`Implicit` (a root or an extremum in one variable).

The engine is a stack of sub-packages, each importing only the ones before it: ``core``, ``laws``,
``calculus``, ``divergences``, ``restricted``, ``verify``, ``report``, ``app`` (README, "Layout").
"""
from cbdp_sym.calculus.symbolic import decide_positive, integrate_split, maximize
from cbdp_sym.verify.claims import Claim, Param, Reading
from cbdp_sym.laws.distributions import Laplace, Normal, Product
from cbdp_sym.divergences.fdiv import AbstractLaw, expect, f_divergence
from cbdp_sym.divergences.generators import ALPHA_DIV, KL, TV, Generator, alpha_generator
from cbdp_sym.core.errors import CbdpError, DerivationError, ParameterError, UnknownClaimError
from cbdp_sym.calculus.implicit import Implicit
from cbdp_sym.divergences.numeric import fdiv_mp, quad_split
from cbdp_sym.divergences.profiles import (E_gamma, Phi, eps_for_delta, hockey_stick_generator, privacy_profile, profile_mp, profile_sym,
                       symmetric_profile_mp)
from cbdp_sym.restricted.solver import restricted as restricted_divergence
from cbdp_sym.restricted.solver import restricted_mp
from cbdp_sym.core.tape import Tex, record, recording
from cbdp_sym.divergences.variational import eliminate_intercept, lin_objective
from cbdp_sym.core.verdict import CheckResult, Status, relative_slack
from cbdp_sym.verify.engine import with_readings
from cbdp_sym.verify.findings import Finding

from cbdp_sym._api import *  # noqa: E402,F401,F403 - every name the paper modules use (cbdp_sym._api)
from cbdp_sym._api import API_NAMES as _API_NAMES  # noqa: E402

from cbdp_sym.core.version import __version__  # noqa: E402,F401


def audit_claim(claim, dps=50, points=None):
    """Audit one claim (see :func:`cbdp_sym.verify.engine.audit_claim`)."""
    from cbdp_sym.verify.engine import audit_claim as _audit

    return _audit(claim, dps, points)


def derivation(claim):
    """A claim's derivation (:class:`cbdp_sym.core.display.Derivation`: the steps the engine recorded and the
    derived form), displayed as aligned equations in a notebook.  ``claim`` is a :class:`Claim` or an ID of
    the built-in papers."""
    from cbdp_sym.core.display import Derivation
    from cbdp_sym.app.registry import Registry
    from cbdp_sym.verify.engine import derive

    if not isinstance(claim, Claim):
        claim = Registry().get(str(claim))
    if claim.derive is None:
        return Derivation(claim.id, [], None, claim.claimed() if claim.claimed else None)
    expr, steps = derive(claim)
    return Derivation(claim.id, steps, expr, claim.claimed() if claim.claimed else None)


def Registry(*args, **kwargs):  # noqa: N802 - a factory with the class's name
    """The claims under the built-in derivations (and ``extra_roots``)."""
    from cbdp_sym.app.registry import Registry as _R

    return _R(*args, **kwargs)
