"""cbdp-sym: symbolic derivation and verification of differential-privacy theory.

The package face holds the names a paper module or a notebook authors claims with; role namespaces hold the rest.

=======================  ====================================================================================
Group                    Names at ``cbdp_sym``
=======================  ====================================================================================
laws                     :class:`Laplace`, :class:`Normal`, :class:`Product`, :class:`Finite`, :class:`Mixture`,
                         :class:`PointMass`; on the integers :class:`DiscreteGaussian`, :class:`DiscreteLaplace`,
                         :class:`Geometric`, :class:`Binomial`, :class:`Poisson`, :class:`Lattice`
generators               :data:`KL`, :data:`TV`, :data:`ALPHA_DIV`, :func:`alpha_generator`, :class:`Generator`
divergences              :func:`f_divergence`, :func:`renyi_divergence`, :func:`max_divergence` (each derived:
                         ``(value, conditions)``), :func:`expect`, :func:`fdiv_mp` (the numeric definition),
                         :func:`restricted_divergence` (suprema over a function class)
profiles                 :func:`privacy_profile`, :func:`eps_for_delta`
subsampling, composition :func:`poisson_subsample`, :func:`compose`
claims                   :class:`Claim`, :class:`Param`, :class:`Reading`, :class:`Kind`, :class:`Domain`,
                         :class:`Search`, :func:`printed_or_corrected`, :func:`audit_claim`, :func:`derivation`,
                         :class:`Registry`
evidence                 :class:`Compare`, :func:`over`, :func:`sample`, :func:`All`, :func:`Exists`,
                         :func:`Chain`, :class:`Link`, :func:`Readings`, :class:`Crossing`, :class:`Extremum`,
                         :class:`Table`, :class:`Evidence`, :func:`requires`, :class:`Estimate`
the derivation tape      :func:`record`, :class:`Tex`
errors                   :class:`CbdpError`, :class:`ParameterError`
=======================  ====================================================================================

=================================  ==========================================================================
Namespace                          What it holds
=================================  ==========================================================================
:mod:`cbdp_sym.calculus`           split integration, maximisation, simplification, optimisers
                                   (``optimize``), caches, time limits, ``to_mpf`` / ``mp_str`` / ``digits``
:mod:`cbdp_sym.certify`            Arb ball certificates
:mod:`cbdp_sym.conversions`        (eps, delta) conversions, hockey-stick divergences, privacy-loss atoms
:mod:`cbdp_sym.families`           instances, random finite laws, family evidence, cached checks, the finite
                                   restricted solver (``finite_restricted``), figures
:mod:`cbdp_sym.mechanisms`         Gaussian / Laplace / randomized response, Rényi curves, subsampled RDP
:mod:`cbdp_sym.divergences`        the divergence engine's further forms (shifted laws, variational forms)
:mod:`cbdp_sym.restricted`         restricted-divergence solvers (lin, poly_k, power means)
:mod:`cbdp_sym.peers`              other libraries' accountants (autodp, dp_accounting), compared
:mod:`cbdp_sym.symbols`            the shared SymPy symbols (``alpha``, ``sigma``, ``X``, ...)
=================================  ==========================================================================

>>> import cbdp_sym
>>> cbdp_sym.Laplace.__name__, cbdp_sym.certify.__name__
('Laplace', 'cbdp_sym.certify')

The engine is a stack of sub-packages, each importing only the ones before it: ``core``, ``laws``,
``calculus``, ``divergences``, ``restricted``, ``verify``, ``report``, ``app`` (README, "Layout").

Names are resolved on first use (PEP 562 ``__getattr__``): ``import cbdp_sym`` (and ``cbdp-sym --version``) imports
none of the engine, SymPy or SciPy; a name is the same object as in the module that defines it.  A name the face
exported before the curated API (``cbdp_sym._api.OLD``) still works for one release, with a ``DeprecationWarning``
naming its new path.
"""
from cbdp_sym import _api
from cbdp_sym.core.version import __version__  # noqa: F401

# module -> the names the face exports (resolved on first use)
_OWN = {
    "cbdp_sym.laws.distributions": ("Laplace", "Normal", "Product", "Finite", "Mixture", "PointMass"),
    "cbdp_sym.laws.discrete": ("DiscreteGaussian", "DiscreteLaplace", "Geometric", "Binomial", "Poisson", "Lattice"),
    "cbdp_sym.divergences.generators": ("ALPHA_DIV", "KL", "TV", "Generator", "alpha_generator"),
    "cbdp_sym.divergences.fdiv": ("expect", "f_divergence", "renyi_divergence"),
    "cbdp_sym.divergences.mechanisms": ("max_divergence",),
    "cbdp_sym.divergences.numeric": ("fdiv_mp",),
    "cbdp_sym.restricted.solver": ("restricted as restricted_divergence",),
    "cbdp_sym.divergences.profiles": ("eps_for_delta", "privacy_profile"),
    "cbdp_sym.divergences.subsampling": ("poisson_subsample",),
    "cbdp_sym.divergences.composition": ("compose",),
    "cbdp_sym.verify.claims": ("Claim", "Param", "Reading", "Kind", "Domain", "Search", "printed_or_corrected"),
    "cbdp_sym.verify.engine": ("audit_claim",),
    "cbdp_sym.app.registry": ("Registry",),
    "cbdp_sym.verify.evidence": ("All", "Chain", "Compare", "Crossing", "Evidence", "Exists", "Extremum", "Readings",
                                 "Table", "over", "requires", "sample"),
    "cbdp_sym.verify.proofchain": ("Link",),
    "cbdp_sym.core.numbers": ("Estimate",),
    "cbdp_sym.core.tape": ("Tex", "record"),
    "cbdp_sym.core.errors": ("CbdpError", "ParameterError"),
}
_LAZY = _api.table(_OWN)
# the role namespaces (modules of their own; `calculus`, `divergences` and `restricted` are the engine's sub-packages)
NAMESPACES = ("calculus", "certify", "conversions", "divergences", "families", "mechanisms", "peers", "restricted",
              "symbols")
# namespaces kept one release after their names moved (cbdp_sym.concentrated: into derivations/zcdp/_shared.py); each
# name warns when used
_DEPRECATED_NAMESPACES = ("concentrated",)
# the engine's sub-packages, reachable as attributes as they were when the package imported them all
_SUBPACKAGES = ("core", "laws", "calculus", "divergences", "restricted", "verify", "report", "app")

API_NAMES = sorted(set(_LAZY) | {"derivation"})
_API_NAMES = API_NAMES
__all__ = sorted(set(API_NAMES) | set(NAMESPACES))


def __getattr__(name):
    import importlib

    if name in _LAZY:
        value = globals()[name] = _api.resolve(_LAZY[name])
        return value
    if name in NAMESPACES or name in _SUBPACKAGES or name in _DEPRECATED_NAMESPACES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _api.OLD:
        return _api.deprecated(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(NAMESPACES) | set(_SUBPACKAGES))


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
