"""Regenerate docs/api.md from the package face's and the namespaces' tables: ``PYTHONPATH=. python scripts/gen_api_docs.py``
(from the checkout's root; tests/test_public_api.py checks that the page names every public name)."""
import importlib, inspect
import cbdp_sym
out = ["# The Python API", "",
"`cbdp_sym` holds the names a paper module or a notebook authors claims with (about fifty); role namespaces hold",
"the rest (`from cbdp_sym.certify import arb_closed`). Every name is resolved on first use, so `import cbdp_sym`",
"stays light. A name the package exported before this layout still imports for one release, with a",
"`DeprecationWarning` naming its new path (`cbdp_sym._api.OLD` lists them; the legacy verdict helpers",
"`CheckResult`, `Check`, `bound_check`, `family_check`, `agreement`, ... live on only there).", "",
"<!-- generated from the face's and the namespaces' tables; keep it in step with cbdp_sym/__init__.py -->", "",
"| Namespace | What it holds |", "|---|---|",
"| `cbdp_sym.calculus` | split integration, maximisation, simplification, optimisers (`optimize`), caches, time limits, `to_mpf` / `mp_str` / `digits` |",
"| `cbdp_sym.certify` | Arb ball certificates |",
"| `cbdp_sym.conversions` | (eps, delta) conversions, hockey-stick divergences, privacy-loss atoms |",
"| `cbdp_sym.divergences` | further divergence forms: shifted laws, variational forms, expectations |",
"| `cbdp_sym.families` | instances, random finite laws, family evidence, cached checks, figures, the finite restricted solver |",
"| `cbdp_sym.mechanisms` | Gaussian / Laplace / randomized response, Rényi curves, subsampled RDP, lattice mixtures |",
"| `cbdp_sym.peers` | other libraries' accountants (autodp, dp_accounting), compared |",
"| `cbdp_sym.restricted` | restricted-divergence solvers (lin, poly_k, power means), the finite solver |",
"| `cbdp_sym.symbols` | the shared SymPy symbols |", "",
"## The face: `cbdp_sym`", ""]
GROUPS = [
 ("Laws", ["Laplace", "Normal", "Product", "Finite", "Mixture", "PointMass", "DiscreteGaussian", "DiscreteLaplace", "Geometric", "Binomial", "Poisson", "Lattice"]),
 ("Generators", ["KL", "TV", "ALPHA_DIV", "alpha_generator", "Generator"]),
 ("Divergences (derived ones return `(value, conditions)`)", ["f_divergence", "renyi_divergence", "max_divergence", "expect", "fdiv_mp", "restricted_divergence"]),
 ("Profiles, subsampling, composition", ["privacy_profile", "eps_for_delta", "poisson_subsample", "compose"]),
 ("Claims", ["Claim", "Param", "Reading", "Kind", "Domain", "Search", "printed_or_corrected", "audit_claim", "derivation", "Registry"]),
 ("Evidence", ["Compare", "over", "sample", "All", "Exists", "Chain", "Link", "Readings", "Crossing", "Extremum", "Table", "Evidence", "requires", "Estimate"]),
 ("The derivation tape and errors", ["record", "Tex", "CbdpError", "ParameterError"]),
]
seen = set()
def plain(obj):
    """A SymPy object or a number: listed by name (its docstring is SymPy's or Python's, not ours)."""
    mod = getattr(obj, "__module__", None) or type(obj).__module__
    return not callable(obj) or not mod.startswith("cbdp_sym")


def directive(path, obj):
    if inspect.isclass(obj):
        return f".. autoclass:: {path}"
    if callable(obj):
        return f".. autofunction:: {path}"
    return f".. autodata:: {path}\n   :annotation:"
for title, names in GROUPS:
    out += [f"### {title}", "", "```{eval-rst}"]
    listed = []
    for n in names:
        seen.add(n)
        if plain(getattr(cbdp_sym, n)):
            listed.append(n)
        else:
            out.append(directive(f"cbdp_sym.{n}", getattr(cbdp_sym, n)))
    out += ["```", ""]
    if listed:
        out += ["Also: " + ", ".join(f"`{n}`" for n in listed) + " (the generators as objects: "
                "`cbdp_sym.divergences.generators`).", ""]
missing = set(cbdp_sym.API_NAMES) - seen
assert not missing, missing
out += ["## The namespaces", ""]
for ns in cbdp_sym.NAMESPACES:
    mod = importlib.import_module(f"cbdp_sym.{ns}")
    out += [f"### `cbdp_sym.{ns}`", "", "```{eval-rst}", f".. automodule:: cbdp_sym.{ns}", "   :no-members:", ""]
    listed = []
    for n in mod.__all__:
        obj = getattr(mod, n)
        if inspect.ismodule(obj) or plain(obj):
            listed.append(n)
            continue
        out.append(directive(f"cbdp_sym.{ns}.{n}", obj))
    out += ["```", ""]
    if listed:
        out += ["Also: " + ", ".join(f"`{n}`" for n in listed) + " (modules, SymPy objects and constants: see the table).", ""]
open("docs/api.md", "w").write("\n".join(out).rstrip() + "\n")
