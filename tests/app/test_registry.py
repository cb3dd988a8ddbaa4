
import cbdp_sym.core.cache as cache
import cbdp_sym.core.store as store
from cbdp_sym.app.registry import Registry
from cbdp_sym.verify.engine import audit_claim


def test_user_paper_folders_with_same_module_names(tmp_path):
    for paper in ("pa", "pb"):
        d = tmp_path / paper
        d.mkdir()
        (d / "_paper.py").write_text(f"PAPER = {{'key': '{paper}', 'title': '{paper}'}}\n")
        (d / "t9.py").write_text(
            "import sympy as sp\nfrom cbdp_sym import Claim\n"
            f"C = Claim(id='{paper.upper()}-T9', paper='{paper}', label='x', kind='cited', statement='x')\n")
    reg = Registry([tmp_path])
    ids = {c.id for c in reg.claims()}
    assert {"PA-T9", "PB-T9"} <= ids and "CBDP-T9" in ids


def test_cached_and_fresh_results_are_identical(registry, tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    claim = registry.get("CBDP-TAB1-KL-GAU-LIN")
    pts = claim.default_points()[:2]  # two points keep the test fast; the cache path is the same at every point
    store.set_enabled(False)
    try:
        fresh = audit_claim(claim, dps=25, points=pts)
    finally:
        store.set_enabled(True)
    first = audit_claim(claim, dps=25, points=pts)
    assert any(tmp_path.rglob("*.json"))
    second = audit_claim(claim, dps=25, points=pts)
    assert len(fresh.checks) == len(first.checks) == len(second.checks) == len(pts)
    for a, b, c in zip(fresh.checks, first.checks, second.checks):
        assert a.as_json() == b.as_json() == c.as_json()
