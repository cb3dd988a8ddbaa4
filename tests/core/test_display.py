"""Notebook display: short reprs, Markdown / LaTeX with mathematics, and sub-modules importable as modules."""
import importlib
import pkgutil
import re
import types

import mpmath as mp
import pytest

import cbdp_sym
from cbdp_sym.laws.distributions import Normal
from cbdp_sym.verify.engine import audit_claim



# one pytest-xdist worker runs this module: t8 is computed once (module fixture)
pytestmark = pytest.mark.xdist_group("display")


@pytest.fixture(scope="module")
def t8(registry):
    return audit_claim(registry.get("CBDP-T8"), 20)


def _balanced(tex):
    depth = 0
    for i, ch in enumerate(tex):
        if ch in "{}" and (i == 0 or tex[i - 1] != "\\"):
            depth += 1 if ch == "{" else -1
            assert depth >= 0, tex
    return depth == 0


def test_result_repr_is_one_short_line(t8):
    text = repr(t8)
    assert "\n" not in text and len(text) < 200
    assert text.startswith("<Result CBDP-T8 identity: verified: ")
    assert len(str(t8)) < 200  # print(result) too, not a dump of every field


def test_result_markdown_shows_the_verdict_and_the_forms(t8):
    md = t8._repr_markdown_()
    assert "**verified**" in md and "**CBDP-T8**" in md
    assert "derived: $$" in md and r"\varepsilon" in md and "as printed: $$" in md
    assert "| params | claimed | numeric | digits |" in md and "eps=7/2" in md
    for block in re.findall(r"\$\$(.*?)\$\$", md, re.S):
        assert _balanced(block)


def test_refuted_result_shows_its_counterexample(mutant_registry):
    res = audit_claim(mutant_registry.get("MUT-T8-SIGN"), 20)
    assert res.status == "refuted"
    assert "refuted" in repr(res)
    md = res._repr_markdown_()
    assert "**counterexample** at eps = " in md and "certified" in md


def test_derivation_renders_as_aligned_equations(t8):
    d = t8.derivation
    assert len(d) == len(t8.steps) > 3 and repr(d) == f"<Derivation CBDP-T8: {len(d)} steps>"
    tex = d._repr_latex_()
    assert tex.startswith("$$\\begin{aligned}\n") and tex.endswith("\n\\end{aligned}$$")
    body = tex[len("$$\\begin{aligned}\n"):-len("\n\\end{aligned}$$")]
    rows = body.split(" \\\\\n")
    assert len(rows) == 2 * len(d) + 2  # a note row and an equation row per step, then derived and claimed
    assert all("&" in row for row in rows)
    assert _balanced(body)
    for i in range(1, len(d) + 1):
        assert f"\\text{{({i}) " in body
    md = d._repr_markdown_()
    assert md.count("$$\\begin{aligned}") == len(d)


def test_derivation_of_an_id(capsys):
    d = cbdp_sym.derivation("cbdp-t9")
    assert d.claim_id == "CBDP-T9" and len(d) > 10
    assert any("stationarity" in st.note for st in d)


def test_restricted_result_display():
    with mp.workdps(20):
        r = cbdp_sym.restricted_divergence("kl", "lin", Normal(0, 1), Normal(1, 1), second=False)
    assert repr(r) == "<RestrictedResult kl over lin: 0.5>"
    md = r._repr_markdown_()
    assert r"$$\mathrm{KL}^{\mathrm{lin}}(P, Q) = 0.5$$" in md and "maximising $h(x) =" in md
    assert "Hessian negative definite" in md


def test_finite_restricted_result_repr():
    from cbdp_sym.restricted.finite import FiniteRestrictedResult

    r = FiniteRestrictedResult("tv", "lin", mp.mpf(1) / 4, mp.mpf(1) / 4, certified=True,
                               lower=mp.mpf("0.24"), upper=mp.mpf("0.26"))
    assert repr(r) == "<FiniteRestrictedResult tv over lin: 0.25>"
    assert "certified enclosure [0.24, 0.26]" in r._repr_markdown_()


def test_every_submodule_imports_as_a_module():
    import cbdp_sym.restricted.solver as R  # the statement the issue quotes

    assert isinstance(R, types.ModuleType) and R.__name__ == "cbdp_sym.restricted.solver"
    assert cbdp_sym.restricted_divergence is R.restricted
    names = [info.name for info in pkgutil.iter_modules(cbdp_sym.__path__) if info.name != "__main__"]
    assert "restricted" in names and "verify" in names
    for name in names:
        mod = importlib.import_module(f"cbdp_sym.{name}")
        assert isinstance(mod, types.ModuleType)
        exported = getattr(cbdp_sym, name, None)
        assert exported is None or exported is mod, f"cbdp_sym.{name} is shadowed by {exported!r}"

