"""Failure regions of refuted bounds (issue 16): the boundary against direct evaluation on both sides."""
import mpmath as mp
import sympy as sp

from cbdp_sym import KL, Claim, Laplace, Param, audit_claim, f_divergence, fdiv_mp
from cbdp_sym.verify.regions import failure_region, swept_params

v = sp.Symbol("v", positive=True)
b = sp.Symbol("b", positive=True)

# KL(Lap(0, b) || Lap(v, b)) = v/b + e^{-v/b} - 1 <= v/(2b) holds only for v/b below the root of u/2 + e^{-u} = 1
TOY = Claim(
    id="TOY-REGION", paper="toy", label="a false upper bound on the KL of two Laplace laws", kind="upper",
    statement=r"\mathrm{KL} \le v/(2b)", params=[Param.positive("v", v, ("1/10", "1", "3", "10")),
                                                 Param.positive("b", b, ("1", "1", "1", "1"))],
    claimed=lambda: v / (2 * b),
    derive=lambda: f_divergence(KL, Laplace(0, b), Laplace(v, b))[0],
    numeric=lambda p: fdiv_mp(KL, Laplace(0, p["b"]), Laplace(p["v"], p["b"])),
)


def test_swept_params_are_those_that_vary():
    assert swept_params(TOY) == ["v"]


def test_failure_boundary_against_direct_evaluation_on_both_sides():
    res = audit_claim(TOY, dps=30)
    assert res.status == "refuted"
    reg = res.failure_region
    (entry,) = reg["params"]
    assert entry["param"] == "v" and entry["ends"][0] == "boundary"
    bnd = [x for x in entry["boundaries"] if x["side"] == "below"][0]
    assert bnd["certified"]
    with mp.workdps(40):
        root = mp.mpf(bnd["value"])
        # independent: the root of u/2 + e^{-u} - 1 (b = 1), by mpmath
        want = mp.findroot(lambda u: u / 2 + mp.exp(-u) - 1, 1.6)
        assert abs(root - want) < mp.mpf(10) ** -25
        # direct evaluation of the definition (quadrature) on both sides of the boundary
        for x, holds in ((root * (1 - mp.mpf(10) ** -6), True), (root * (1 + mp.mpf(10) ** -6), False)):
            q = fdiv_mp(KL, Laplace(0, 1), Laplace(x, 1))
            assert (q <= x / 2) == holds
    assert any(t["title"].startswith("Failure region") for t in res.tables)


def test_a_bound_that_holds_has_no_region():
    c = Claim(id="TOY-OK", paper="toy", label="true", kind="upper", statement="", params=TOY.params,
              claimed=lambda: v**2 / (2 * b**2), derive=TOY.derive, numeric=TOY.numeric)
    res = audit_claim(c, dps=20)
    assert res.status == "holds" and res.failure_region is None


def test_region_skips_more_than_two_swept_parameters():
    c = Claim(id="TOY-3", paper="toy", label="three", kind="upper", statement="",
              params=[Param.positive(n, sp.Symbol(n, positive=True), ("1", "2")) for n in ("x", "y", "z")],
              claimed=lambda: sp.Integer(0), derive=lambda: sp.Integer(1))
    assert "skipped" in failure_region(c, c.sweep_points()[0], sp.Integer(1), sp.Integer(0))


# the same false bound with the quantity from the numeric definition only (no closed form): the default for a
# solver's quantity, a boundary bracketed on the sweep grid and refined with a counted budget
TOY_NUM = Claim(
    id="TOY-REGION-NUM", paper="toy", label="the false KL bound, numeric side only", kind="upper",
    statement=r"\mathrm{KL} \le v/(2b)", params=[Param.positive("v", v, ("1/10", "1", "3", "10")),
                                                 Param.positive("b", b, ("1", "1", "1", "1"))],
    sweep=[{"v": x, "b": "1"} for x in ("1/10", "1", "3", "10")],
    claimed=lambda: v / (2 * b), numeric=TOY.numeric,
)


def test_grid_region_of_a_numeric_quantity_against_direct_evaluation_on_both_sides(monkeypatch):
    monkeypatch.delenv("CBDP_SYM_REGIONS", raising=False)
    res = audit_claim(TOY_NUM, dps=20)
    assert res.status == "refuted"
    reg = res.failure_region
    assert reg["method"] == "grid" and reg["new_points"] <= reg["budget"]
    (entry,) = reg["params"]
    assert entry["param"] == "v" and entry["ends"] == ["boundary", "grid end"]
    (bnd,) = entry["boundaries"]
    lo, hi = (sp.Rational(x) for x in bnd["bracket"])
    assert 1 < lo < hi < 3  # refined inside the grid bracket (1, 3)
    with mp.workdps(30):
        want = mp.findroot(lambda u: u / 2 + mp.exp(-u) - 1, 1.6)
        assert mp.mpf(lo.p) / lo.q <= want <= mp.mpf(hi.p) / hi.q
        assert abs(mp.mpf(bnd["value"]) - want) < 1e-3 * want
        # direct evaluation of the definition (quadrature) at both ends of the bracket: holds below, fails above
        for x, holds in ((lo, True), (hi, False)):
            xm = mp.mpf(x.p) / x.q
            assert (fdiv_mp(KL, Laplace(0, 1), Laplace(x, 1)) <= xm / 2) == holds
    assert "holds at v" in bnd["certificate"] and not bnd["certified"]
    assert reg["summary"][0].startswith(f"at b = 1: fails for v > {bnd['value']} (bracket [{lo}, {hi}]) (to 10, the grid's end)")
    assert any(t["title"].startswith("Failure region") for t in res.tables)


def test_grid_region_stall_guard_reports_not_found(monkeypatch):
    import cbdp_sym.verify.regions as regions

    def stall(*a, **k):
        raise regions._Stalled("the solver at v = 2 exceeded the 120 s stall guard")

    real = regions._point_slack
    monkeypatch.setattr(regions, "_point_slack", lambda *a, guard, **k: stall() if guard else real(*a, guard=guard, **k))
    res = audit_claim(TOY_NUM, dps=20)
    reg = res.failure_region
    (entry,) = reg["params"]
    (bnd,) = entry["boundaries"]
    assert reg["stalled"].startswith("the solver at v = 2")
    assert bnd["bracket"] == ["1", "3"] and bnd["refinement_stopped"].startswith("stalled")
