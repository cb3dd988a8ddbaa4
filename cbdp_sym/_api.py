"""The machinery behind the package face and its namespaces, and the names the face exported before the curated
API (issue 30): ``from cbdp_sym import OLD_NAME`` still works for one release, with a ``DeprecationWarning`` naming
the new path (:data:`DEPRECATED`).

Every name is resolved on first use (PEP 562 ``__getattr__``): ``import cbdp_sym`` imports none of the engine, and
``from cbdp_sym import Laplace`` imports the modules that ``Laplace`` needs, not SymPy's solvers or SciPy.  A name is
the very object of the module it comes from (``cbdp_sym.Laplace is cbdp_sym.laws.distributions.Laplace``).
:mod:`cbdp_sym.core.deps` reads the tables of the face (``_OWN`` in ``__init__.py``), of the namespaces
(``_EXPORTS`` in each) and the old table below to know which module a paper module's import depends on.
"""
from __future__ import annotations

import importlib
import sys

# The face before issue 30 (module -> the names it exported; "_private as public" renames are gone: the helpers are
# public in their modules).  Kept one release: a name here that the curated face does not hold warns.
_OLD_EXPORTS = {
    "cbdp_sym.core.cache": ("cached_numeric",),
    "cbdp_sym.calculus.symbolic": ("decide_positive", "integrate_split", "maximize", "simplify", "split_at_kinks"),
    "cbdp_sym.calculus.certify": ("NotCertifiable", "arb_value", "certify_above_bound", "certify_less",
                                  "lin_renyi_lower", "certify_different", "arb_closed", "arb_precision",
                                  "certify_closed_less", "substitute_point", "arb_eval"),
    "cbdp_sym.divergences.concentrated": ("ZPair", "affine_loss_law", "autodp_puredp_rdp", "autodp_zcdp_rdp",
                                          "certify_lt", "chernoff_exponent", "complete_square", "dp_group_delta",
                                          "dpa_zcdp_epsilon", "finite_pair_from_logits", "group_induction",
                                          "group_recursion", "harmonic", "holder_orders", "mcdp_exponent",
                                          "merge_checks", "mutual_information", "random_finite_pairs",
                                          "rdp_conversion_optimum", "short", "spike_pair", "tail_integral"),
    "cbdp_sym.divergences.conversions": ("best_over_alpha", "compose_atoms", "delta_atoms", "delta_improved",
                                         "delta_tv_bound", "eps_from_curve", "eps_from_profile", "eps_improved",
                                         "eps_mironov", "hockey_stick", "hockey_stick_sym", "loss_atoms", "np_max",
                                         "prob_bound"),
    "cbdp_sym.laws.distributions": ("Finite", "Laplace", "Mixture", "Normal", "PointMass", "Product", "X"),
    "cbdp_sym.divergences.fdiv": ("Expect", "expect", "f_divergence", "renyi_divergence"),
    "cbdp_sym.divergences.generators": ("ALPHA", "Generator", "KAPPA", "S", "T", "alpha_generator"),
    "cbdp_sym.core.errors": ("DerivationError", "ParameterError"),
    "cbdp_sym.verify.figures": ("Curve", "Figure"),
    "cbdp_sym.restricted.finite": ("arb_to_mpf", "exact_mpf", "joint_law", "solve_exact"),
    "cbdp_sym.laws.finite_laws": ("describe", "events", "finite_from_logits", "joint_adaptive", "mass", "order_mp",
                                  "push_forward", "random_finite", "random_kernel", "random_pmf", "seed_for",
                                  "softmax"),
    "cbdp_sym.verify.instances": ("Instance", "bound_check", "bound_evidence", "cached_check", "cached_point",
                                  "disk_cached_derivation"),
    "cbdp_sym.restricted.lincert": ("lin_renyi_certificate",),
    "cbdp_sym.restricted.linpower": ("SolverFailure", "abs_moment_mp", "abs_power_mean", "alpha_div_mp",
                                     "exact_lin_renyi", "lin_renyi", "orthant_power_mean", "renyi_shift_mp",
                                     "shift_laws"),
    "cbdp_sym.calculus.optimize": ("golden_max", "sup_positive"),
    "cbdp_sym.divergences.mechanisms": ("curve_function", "gaussian_mechanism", "laplace_mechanism", "limit_alpha",
                                        "max_divergence", "randomized_response", "renyi_curve", "renyi_numeric",
                                        "same_value"),
    "cbdp_sym.core.numbers": ("Estimate", "digits", "mp_str", "to_mpf"),
    "cbdp_sym.divergences.numeric": ("fdiv_mp", "renyi_mp", "mp_joint"),
    "cbdp_sym.divergences.profiles": ("mechanism_exact_eps", "mechanism_pair", "slack_table"),
    "cbdp_sym.verify.proofchain": ("Link", "chain_counterexample", "chain_table", "check_chain", "failure_text"),
    "cbdp_sym.restricted.solver": ("renyi_limit", "restricted_mp", "restricted_record", "sup_over_intercept"),
    "cbdp_sym.divergences.shifted": ("I_", "Log1p", "abs_moment", "alpha_div_shift_product", "conjugate_constants",
                                     "orthant_chain_bound", "power_sup", "renyi_shift_sum", "symmetric_about_zero"),
    "cbdp_sym.core.symbols": ("a", "alpha", "b", "eps", "lam", "mu1", "mu2", "s", "sigma", "sigma1", "sigma2"),
    "cbdp_sym.core.tape": ("cached_derivation", "recording"),
    "cbdp_sym.core.timelimit": ("time_limit",),
    "cbdp_sym.divergences.variational": ("eliminate_intercept", "lin_objective"),
    "cbdp_sym.core.verdict": ("Check", "CheckResult"),
    "cbdp_sym.verify.points": ("evaluate",),
    "cbdp_sym.core.printing": ("latex",),
    # issue 15: the claim shapes of check claims
    "cbdp_sym.verify.shapes": ("as_reading", "family_check", "family_evidence", "printed_number", "rounds_to",
                               "agreement", "overrule", "reading", "within_tolerance", "curves_above_reference",
                               "curves_evidence", "family_results_evidence"),
    # issue 28: evidence (the engine decides every verdict; paper modules return what they computed)
    "cbdp_sym.verify.evidence": ("All", "Chain", "Compare", "Crossing", "Evidence", "Exists", "Extremum", "Readings",
                                 "Skipped", "Table", "locate_extremum", "over", "requires", "sample"),
    "cbdp_sym.verify.claims": ("Domain", "Kind", "Search", "printed_or_corrected"),
    # issue 30: laws on the integers, subsampling and composition
    "cbdp_sym.laws.discrete": ("Binomial", "DiscreteGaussian", "DiscreteLaplace", "Geometric", "Lattice",
                               "LatticeMixture", "LatticeSum", "Poisson"),
    "cbdp_sym.divergences.subsampling": ("fixed_size_subsample", "poisson_subsample", "subsampled_gaussian_rdp",
                                         "subsampled_rdp", "subsampled_renyi_sym"),
    "cbdp_sym.divergences.composition": ("Composition", "compose"),
    "cbdp_sym.divergences.lattice_symbolic": ("poisson_dual", "poisson_summation"),
}
# name -> a module exported as a namespace (fr.lin, peers.autodp_..., optimize.minimize(f, x0, method), ...)
_OLD_NAMESPACES = {
    "finite_restricted": "cbdp_sym.restricted.finite",
    "peers": "cbdp_sym.divergences.peers",
    "optimize": "cbdp_sym.calculus.optimize",
}


def table(exports: dict, namespaces: dict | None = None) -> dict:
    """``NAME -> (module, attribute)`` (attribute ``None``: the module itself) from the two tables' layout."""
    out = {}
    for module, names in exports.items():
        for item in names:
            attr, _, alias = item.partition(" as ")
            out[alias or attr] = (module, attr)
    for name, module in (namespaces or {}).items():
        out[name] = (module, None)
    return out


def resolve(entry):
    """The object an entry of :func:`table` names (its module imported now if it was not)."""
    module, attr = entry
    mod = importlib.import_module(module)
    return mod if attr is None else getattr(mod, attr)


# Helpers that moved out of the engine into the one paper folder that uses them (issue 30): old module -> (paper,
# names).  The old paths resolve each name, for one release, to the object of the paper folder's ``_shared`` module
# imported under the registry's name (the very object the audit uses), with a DeprecationWarning naming the new home.
# (The engine never imports paper content at module top: the forwarding imports it on first use, by name.)
MOVED = {
    "cbdp_sym.divergences.concentrated": ("zcdp", (
        "ZPair", "affine_loss_law", "arb_value", "autodp_puredp_rdp", "autodp_zcdp_rdp", "certify_lt",
        "chernoff_exponent", "complete_square", "dp_group_delta", "dpa_zcdp_epsilon", "finite_pair_from_logits",
        "group_induction", "group_recursion", "harmonic", "holder_orders", "mcdp_exponent", "mutual_information",
        "random_finite_pairs", "rdp_conversion_optimum", "short", "spike_pair", "sup_over_order", "tail_integral")),
    "cbdp_sym.divergences.shifted": ("cbdp", ("conjugate_constants", "orthant_chain_bound", "power_sup")),
}
# the role namespaces that held some of them (namespace -> (paper, names)), resolved the same way
MOVED_ALIASES = {
    "cbdp_sym.concentrated": ("zcdp", (
        "ZPair", "affine_loss_law", "certify_lt", "chernoff_exponent", "complete_square", "dp_group_delta",
        "dpa_zcdp_epsilon", "finite_pair_from_logits", "group_induction", "group_recursion", "harmonic",
        "holder_orders", "mcdp_exponent", "mutual_information", "random_finite_pairs", "rdp_conversion_optimum",
        "spike_pair", "tail_integral")),
    "cbdp_sym.peers": ("zcdp", ("autodp_puredp_rdp", "autodp_zcdp_rdp")),
    "cbdp_sym.divergences": ("cbdp", ("conjugate_constants", "orthant_chain_bound", "power_sup")),
}
#: ``(old module, name) -> paper`` of every moved helper (:mod:`cbdp_sym.core.deps` reads the two tables above too:
#: a module importing an old path depends on the paper folder's ``_shared.py``)
MOVED_NAMES = {(module, name): paper for module, (paper, names) in MOVED.items() for name in names}


def moved_from(module_name: str) -> dict:
    """``name -> paper`` of the helpers the module or namespace ``module_name`` held before they moved."""
    paper, names = MOVED.get(module_name) or MOVED_ALIASES.get(module_name) or ("", ())
    return {n: paper for n in names}


def moved_home(paper: str, name: str) -> str:
    """Where a moved helper lives now, in words (the text of its DeprecationWarning)."""
    return (f"it moved into the {paper} paper's folder, derivations/{paper}/_shared.py (a module of that folder "
            f"imports it with `from ._shared import {name}`)")


def moved_object(paper: str, name: str):
    """A moved helper's object: ``name`` of the paper folder's ``_shared`` module, imported under the registry's
    name (:func:`cbdp_sym.app.registry.builtin_module`), so the same object as the audit's."""
    return getattr(importlib.import_module("cbdp_sym.app.registry").builtin_module(paper, "_shared"), name)


def moved(old: str, name: str, paper: str, stacklevel: int = 3):
    """``old.name`` (a helper that moved into a paper's folder), with a ``DeprecationWarning`` naming its home."""
    import warnings

    warnings.warn(f"{old}.{name} is deprecated: {moved_home(paper, name)}; the old path is kept one release",
                  DeprecationWarning, stacklevel=stacklevel)
    return moved_object(paper, name)


def namespace(module_name: str, exports: dict, namespaces: dict | None = None, moved_names: dict | None = None):
    """``(__all__, __getattr__, __dir__)`` of a namespace module whose names (``exports``: module -> names, as in
    :func:`table`) are resolved on first use; a sub-package's own submodules stay reachable as attributes.
    ``moved_names`` (name -> paper): names the namespace held before they moved into a paper's folder, resolved
    there with a DeprecationWarning (:func:`moved`), outside ``__all__``."""
    lazy = table(exports, namespaces)
    mod_globals = sys.modules[module_name].__dict__  # (the module is being executed: it is registered already)
    moved_names = dict(moved_names or {})

    def __getattr__(name):  # noqa: N807
        if name in moved_names:
            return moved(module_name, name, moved_names[name])
        try:
            entry = lazy[name]
        except KeyError:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}") from None
        value = resolve(entry)
        mod_globals[name] = value
        return value

    def __dir__():  # noqa: N807
        return sorted(set(mod_globals) | set(lazy))

    return sorted(lazy), __getattr__, __dir__


# the names the package face itself exported before issue 30 (its _OWN table then)
_OLD_OWN = {
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
#: every name ``from cbdp_sym import NAME`` reached before issue 30: ``NAME -> (module, attribute)``
OLD = {**table(_OLD_OWN), **table(_OLD_EXPORTS, _OLD_NAMESPACES)}


def new_path(name: str) -> str:
    """Where an old face name lives now: ``cbdp_sym.<namespace>.<name>`` (a namespace holding the same object), else
    the module that defines it (for a helper that moved into a paper's folder: that folder, :func:`moved_home`)."""
    module, attr = OLD[name]
    if (module, attr) in MOVED_NAMES:
        return moved_home(MOVED_NAMES[module, attr], attr)
    # (the face from sys.modules, not `import cbdp_sym`: cbdp_sym.core.deps would read that as depending on everything)
    for ns in sys.modules["cbdp_sym"].NAMESPACES:
        mod = importlib.import_module(f"cbdp_sym.{ns}")
        for new, entry in table(mod._EXPORTS, getattr(mod, "_NAMESPACES", None)).items():
            if entry == (module, attr):
                return f"cbdp_sym.{ns}.{new}"
    return module if attr is None else f"{module}.{attr}"


def deprecated(name: str):
    """An old face name's object, with a ``DeprecationWarning`` naming its new path (kept one release)."""
    import warnings

    module, attr = OLD[name]
    if (module, attr) in MOVED_NAMES:
        warnings.warn(f"`from cbdp_sym import {name}` is deprecated: {new_path(name)}", DeprecationWarning, stacklevel=3)
        return moved_object(MOVED_NAMES[module, attr], attr)
    warnings.warn(f"`from cbdp_sym import {name}` is deprecated: use {new_path(name)} (cbdp_sym's face holds the "
                  f"authoring names only; see docs/api.md)", DeprecationWarning, stacklevel=3)
    return resolve(OLD[name])
