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

Names are resolved on first use (PEP 562 ``__getattr__``): ``import cbdp_sym`` (and ``cbdp-sym --version``) imports
none of the engine, SymPy or SciPy; a name is the same object as in the module that defines it.
"""
from cbdp_sym import _api
from cbdp_sym.core.version import __version__  # noqa: F401

# module -> the names it exports here (the paper modules' names, cbdp_sym._api, come on top of these)
_OWN = {
    "cbdp_sym.calculus.symbolic": ("decide_positive", "integrate_split", "maximize"),
    "cbdp_sym.verify.claims": ("Claim", "Param", "Reading"),
    "cbdp_sym.laws.distributions": ("Laplace", "Normal", "Product"),
    "cbdp_sym.divergences.fdiv": ("AbstractLaw", "expect", "f_divergence"),
    "cbdp_sym.divergences.generators": ("ALPHA_DIV", "KL", "TV", "Generator", "alpha_generator"),
    "cbdp_sym.core.errors": ("CbdpError", "DerivationError", "ParameterError", "UnknownClaimError"),
    "cbdp_sym.calculus.implicit": ("Implicit",),
    "cbdp_sym.divergences.numeric": ("fdiv_mp", "quad_split"),
    "cbdp_sym.divergences.profiles": ("E_gamma", "Phi", "eps_for_delta", "hockey_stick_generator", "privacy_profile",
                                      "profile_mp", "profile_sym", "symmetric_profile_mp"),
    "cbdp_sym.restricted.solver": ("restricted as restricted_divergence", "restricted_mp"),
    "cbdp_sym.core.tape": ("Tex", "record", "recording"),
    "cbdp_sym.divergences.variational": ("eliminate_intercept", "lin_objective"),
    "cbdp_sym.core.verdict": ("CheckResult", "Status", "relative_slack"),
    "cbdp_sym.verify.engine": ("with_readings",),
    "cbdp_sym.verify.findings": ("Finding",),
}
_LAZY = {**_api.table(_OWN, {}), **_api.LAZY}  # (cbdp_sym._api's names win, as its `import *` used to)
# the engine's sub-packages, reachable as attributes as they were when the package imported them all
_SUBPACKAGES = ("core", "laws", "calculus", "divergences", "restricted", "verify", "report", "app")

_API_NAMES = _api.API_NAMES
API_NAMES = _API_NAMES
__all__ = sorted(set(_LAZY) | {"API_NAMES", "Registry", "audit_claim", "derivation"})


def __getattr__(name):
    if name in _LAZY:
        value = globals()[name] = _api.resolve(_LAZY[name])
        return value
    if name in _SUBPACKAGES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_SUBPACKAGES))


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
    from cbdp_sym.verify.claims import Claim
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
