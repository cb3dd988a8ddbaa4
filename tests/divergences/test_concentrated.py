"""cbdp_sym.divergences.concentrated, deprecated in 0.3: its helpers moved into the zCDP paper's folder
(derivations/zcdp/_shared.py).  Every old path (the module, the ``cbdp_sym.concentrated`` namespace, the face, the
two autodp adapters of ``cbdp_sym.peers``) resolves each old name to the very object the audit uses, with a
DeprecationWarning naming the new home; the engine imports no paper content until a name is used."""
import subprocess
import sys

import pytest

import cbdp_sym
from cbdp_sym import _api
from cbdp_sym.app.registry import Registry, builtin_module

OLD_MODULE = "cbdp_sym.divergences.concentrated"
# every name the module exported before 0.3 (its __all__ then), merge_checks aside (kept in the engine, below)
OLD_NAMES = ("ZPair", "arb_value", "certify_lt", "chernoff_exponent", "rdp_conversion_optimum", "complete_square",
             "tail_integral", "affine_loss_law", "mcdp_exponent", "holder_orders", "group_induction", "group_recursion",
             "dp_group_delta", "mutual_information", "sup_over_order", "harmonic", "autodp_puredp_rdp", "autodp_zcdp_rdp",
             "dpa_zcdp_epsilon", "random_finite_pairs", "spike_pair", "finite_pair_from_logits", "short")
NAMESPACE_NAMES = ("ZPair", "affine_loss_law", "certify_lt", "chernoff_exponent", "complete_square", "dp_group_delta",
                   "dpa_zcdp_epsilon", "finite_pair_from_logits", "group_induction", "group_recursion", "harmonic",
                   "holder_orders", "mcdp_exponent", "mutual_information", "random_finite_pairs",
                   "rdp_conversion_optimum", "spike_pair", "tail_integral")
HOME = r"moved into the zcdp paper's folder, derivations/zcdp/_shared\.py"


def _audit_objects():
    """The paper folder's objects as the audit imports them (the registry's module names)."""
    Registry(only={(builtin_module.__globals__["builtin_root"]().resolve(), "zcdp")})
    shared = [m for n, m in sys.modules.items() if n.startswith("cbdp_sym_derivations.") and n.endswith(".zcdp._shared")]
    assert len(shared) == 1, [n for n in sys.modules if n.endswith("._shared")]
    return shared[0]


@pytest.mark.parametrize("name", OLD_NAMES)
def test_every_old_name_resolves_to_the_audits_object_and_warns(name):
    import importlib

    shared = _audit_objects()
    old = importlib.import_module(OLD_MODULE)
    with pytest.warns(DeprecationWarning, match=rf"{OLD_MODULE}\.{name} is deprecated: it {HOME}"):
        obj = getattr(old, name)
    assert obj is getattr(shared, name) and obj.__module__.endswith(".zcdp._concentrated")
    if name in NAMESPACE_NAMES:
        with pytest.warns(DeprecationWarning, match=rf"cbdp_sym\.concentrated\.{name} is deprecated: it {HOME}"):
            assert cbdp_sym.concentrated.__getattr__(name) is obj
    if _api.OLD.get(name, ("",))[0] == OLD_MODULE:  # (the face's old arb_value is the certify one)
        with pytest.warns(DeprecationWarning, match=rf"`from cbdp_sym import {name}` is deprecated: it {HOME}"):
            assert getattr(cbdp_sym, name) is obj
    if name.startswith("autodp_"):
        with pytest.warns(DeprecationWarning, match=rf"cbdp_sym\.peers\.{name} is deprecated: it {HOME}"):
            assert getattr(cbdp_sym.peers, name) is obj
        assert name not in cbdp_sym.peers.__all__


def test_the_old_namespace_lists_nothing_and_every_moved_name_is_covered():
    assert cbdp_sym.concentrated.__all__ == [] and "concentrated" not in cbdp_sym.NAMESPACES
    assert set(_api.MOVED[OLD_MODULE][1]) == set(OLD_NAMES)
    assert set(NAMESPACE_NAMES) <= set(OLD_NAMES)
    with pytest.raises(AttributeError):
        cbdp_sym.concentrated.no_such_name  # noqa: B018
    import cbdp_sym.divergences.concentrated as old

    with pytest.raises(AttributeError):
        old.no_such_name  # noqa: B018


def test_merge_checks_stays_deprecated_in_the_engine():
    import cbdp_sym.divergences.concentrated as old
    from cbdp_sym.core.verdict import CheckResult

    with pytest.warns(DeprecationWarning, match="CheckResult.combine"):
        merge = old.merge_checks
    out = merge([CheckResult("holds", "a"), CheckResult("refuted", "b")])
    assert out.status == "refuted"


def test_the_engine_imports_no_paper_content_until_a_name_is_used():
    code = ("import sys, cbdp_sym.divergences.concentrated as c, cbdp_sym.concentrated\n"
            "print(sorted(m for m in sys.modules if m.startswith('cbdp_sym_derivations')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_a_module_on_an_old_path_depends_on_the_moved_code(tmp_path):
    """The cache key of a module that imports a moved helper by its old path covers the paper folder's code the
    path resolves to (cbdp_sym.core.deps), not only the engine's forwarding stub."""
    from cbdp_sym.core import deps

    from ..conftest import ROOT

    cases = {"from cbdp_sym.concentrated import ZPair\n": "zcdp", "from cbdp_sym import chernoff_exponent\n": "zcdp",
             "from cbdp_sym.divergences.concentrated import ZPair\n": "zcdp",
             "from cbdp_sym.peers import autodp_zcdp_rdp\n": "zcdp", "from cbdp_sym.divergences import power_sup\n": "cbdp",
             "from cbdp_sym import arb_value\n": None}  # (the face's old arb_value is the certify one: no paper)
    for k, (source, paper) in enumerate(cases.items()):
        mod = tmp_path / f"m{k}.py"
        mod.write_text(source, encoding="utf-8")
        got = {p.relative_to(ROOT).as_posix() for p in deps.closure([mod]) if "derivations" in p.parts}
        want = ({f"derivations/{paper}/_shared.py", f"derivations/{paper}/_" + ("concentrated" if paper == "zcdp" else "shifted")
                 + ".py"} if paper else set())
        assert want <= got and (paper or not got), (source, got)
