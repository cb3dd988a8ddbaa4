"""CBDP's Table 1, Rényi rows: the eight cells as what they claim, and the text claims around the table.

Cells are ``D(P, Q)`` with ``P`` the unshifted law and ``Q`` the law shifted by ``v`` (``v = 1`` in one dimension).
Unrestricted cells are audited against the Rényi divergence derived from the densities (split integrals, products
over coordinates) and its quadrature; linear-adversary cells against the exact ``(lin, Rényi)`` value of the
restricted solver (CBDP's alpha-divergence generator on all of R, Eq. (3)).  For symmetric noise the other order
``D(Q, P)`` is the same (reflect ``x -> v - x``; the linear class is invariant), so one order is reported.

The linear cells' printed bounds are Corollary 2's; they fail for ``alpha > 2`` when the shift is small against the
noise (the exact value is then quadratic in the shift, the bound of order ``shift^alpha``).  The corrected cells are
what the repaired Theorem 13 chain gives (:func:`._shifted.orthant_chain_bound`): ``d log 2`` more.
"""
import functools

import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Evidence, Exists, Table, over, sample
from cbdp_sym import Claim, Laplace, Normal, Param, Tex, record
from cbdp_sym.calculus import cached_numeric
from cbdp_sym.calculus import maximize, simplify
from cbdp_sym.certify import NotCertifiable, arb_value, certify_above_bound, certify_less, lin_renyi_lower
from cbdp_sym import renyi_divergence
from cbdp_sym import ParameterError
from cbdp_sym.restricted import SolverFailure, exact_lin_renyi, lin_renyi, renyi_shift_mp, shift_laws
from cbdp_sym.calculus import mp_str, to_mpf
from cbdp_sym.divergences import renyi_mp
from cbdp_sym.divergences import I_, Log1p, renyi_shift_sum
from cbdp_sym.symbols import alpha, eps, sigma
from cbdp_sym.calculus import cached_derivation
from cbdp_sym.families import evaluate

from ._shared import orthant_chain_bound
from . import linrenyi  # the proof-chain claims whose refutations the certificate claim certifies

SEED = "002_830385d3d6b7db1c.txt"
d = sp.Symbol("d", integer=True, positive=True)
v = sp.IndexedBase("v", real=True)
i = I_
A_ = alpha / (alpha - 1)
NORM_A = sp.Sum(sp.Abs(v[i]) ** alpha, (i, 1, d))
LAP1 = r"$P = \mathrm{Lap}(0, 1/\epsilon)$, $Q = \mathrm{Lap}(1, 1/\epsilon)$ (scale $1/\epsilon$)"
GAU1 = r"$P = \mathcal N(0, \sigma^2)$, $Q = \mathcal N(1, \sigma^2)$ ($\sigma^2$ the variance)"
LAPD = r"$P = \mathrm{Lap}(0, 1/\epsilon)^d$, $Q = \mathrm{Lap}(v, 1/\epsilon)$ coordinate-wise"
GAUD = r"$P = \mathcal N(0, \sigma^2 I_d)$, $Q = \mathcal N(v, \sigma^2 I_d)$"
GENC = (r"$\alpha$-divergence generator $(|t|^\alpha - 1)/(\alpha^2 - \alpha)$ on all of $\mathbb R$, as printed; "
        "restricted Rényi through Eq. (3)")
SOLVER = ("quantity: the exact (lin,Rényi) value from the restricted solver (D_R = -log min E_Q|h|^A over lin with "
          "E_P h = 1; d dimensions through the exact law of a.x)")
SYM = r"the other order $D(Q, P)$ is equal (reflection $x \to v - x$)"

# grids shared with linrenyi.py (the solver's disk cache serves both; keep in step)
LIN_EPS = ("1/1000", "1/10", "1", "100")
LIN_SIGMA = ("1/100", "1", "10", "100")
LIN_ALPHA = ("1001/1000", "2", "3", "30", "1000")
# where the shift is large against the noise and alpha is near 1, the exact value exceeds about 50 (E_Q|h|^A below
# 10^-22), beyond what the solver resolves at 30 digits: alpha = 1.1 (eps = 100) or no alpha near 1 (sigma = 0.01)
LAP_GRID = [(e_, a_) for e_ in LIN_EPS[:3] for a_ in LIN_ALPHA] + [("100", a_) for a_ in ("11/10",) + LIN_ALPHA[1:]]
GAU_GRID = [("1/100", a_) for a_ in LIN_ALPHA[1:]] + [(s_, a_) for s_ in LIN_SIGMA[1:] for a_ in LIN_ALPHA]
LAP_GRID_TEXT = ("eps in {1/1000, 1/10, 1} x alpha in {1001/1000, 2, 3, 30, 1000} and eps = 100 x alpha in "
                 "{11/10, 2, 3, 30, 1000}")
GAU_GRID_TEXT = ("sigma in {1, 10, 100} x alpha in {1001/1000, 2, 3, 30, 1000} and sigma = 1/100 x alpha in {2, 3, 30, 1000} "
                 "(near alpha = 1 with a large shift/noise ratio the value exceeds what the solver resolves at 30 digits)")
DDIM_LAP = [("2", "1,1", "1/10", "3"), ("2", "1,-2", "1/2", "7/2"), ("3", "1/2,3,-1", "1", "3/2"),
            ("4", "1,1,1,1", "1/100", "5")]
DDIM_GAU = [("2", "1,1", "10", "3"), ("2", "1,-2", "1/2", "7/2"), ("3", "1/2,3,-1", "1", "3/2"),
            ("4", "1,1,1,1", "100", "5")]
UNR_EPS = ("1/1000", "1/100", "1/10", "1", "10", "100")
UNR_ALPHA = ("1001/1000", "3/2", "2", "3", "10", "100", "1000")


def fmt_points(ddim):
    return "; ".join(f"({dd}, ({vv}), {s_}, {a_})" for dd, vv, s_, a_ in ddim)


def _alpha_p(points=("1001/1000", "3/2", "2", "3", "10")):
    return Param.greater_than_one("alpha", alpha, points)


def _d_v():
    return [Param.positive_int("d", d), Param.vector("v", v, ("1",), length_of="d")]


# -- numerics ------------------------------------------------------------------------------------------
def exact_lap(pt):
    return exact_lin_renyi("lap", 1 / pt["eps"], tuple(pt["v"]) if "v" in pt else (1,), pt["alpha"])


def exact_gau(pt):
    return exact_lin_renyi("gau", pt["sigma"], tuple(pt["v"]) if "v" in pt else (1,), pt["alpha"])


def renyi_lap(pt):
    return renyi_shift_mp("lap", 1 / pt["eps"], tuple(pt["v"]) if "v" in pt else (1,), pt["alpha"])


def renyi_gau(pt):
    return renyi_shift_mp("gau", pt["sigma"], tuple(pt["v"]) if "v" in pt else (1,), pt["alpha"])


# -- the corrected linear cells, derived by the repaired chain -------------------------------------------
@functools.lru_cache(maxsize=None)
def _repaired(Kexpr, dim):
    """The repaired Theorem 13 chain's Rényi bound with ``K -> Kexpr``; ``dim = 1``: one dimension, v = 1."""
    _, ren = orthant_chain_bound(alpha, Kexpr, d, v, b_weight=sp.Rational(1, 2) ** d)
    if dim == 1:
        ren = ren.subs(d, 1).doit().subs(v[1], 1)
    return simplify(sp.expand_log(ren, force=True))


def _lap_lin_printed():
    return Log1p(2 ** (alpha - 1) * eps**alpha) / (alpha - 1)


def _lap_lin_fixed():
    return _repaired(eps ** (-A_), 1)


def _gau_lin_printed():
    return Log1p(sp.sqrt(2 * sp.pi) ** (alpha - 1) / sigma**alpha) / (alpha - 1)


def _gau_lin_fixed():
    return _repaired(sigma**A_ * sp.sqrt(2 / sp.pi), 1)


def _lapd_lin_printed():
    return Log1p(2 ** (d * (alpha - 1)) * eps**alpha * NORM_A) / (alpha - 1)


def _lapd_lin_fixed():
    return _repaired(eps ** (-A_), 0)


def _gaud_lin_printed():
    return Log1p(2 ** (d * (alpha - 1)) * sp.sqrt(sp.pi / 2) ** (alpha - 1) * NORM_A / sigma**alpha) / (alpha - 1)


def _gaud_lin_fixed():
    return _repaired(sigma**A_ * sp.sqrt(2 / sp.pi), 0)


_LIN1_NOTE = ("Sweep: {g}; then a Nelder-Mead search over {s} and alpha from the "
              "three worst points. The printed cell is Corollary 2 at d = 1, v = 1; it fails for alpha > 2 at a small "
              "shift-to-noise ratio (the exact value is about alpha/4 x (shift/scale)^2 there, the bound of order "
              "(shift/scale)^alpha). The corrected cell is the repaired Theorem 13 chain (log 2 more); the "
              "refutation is certified in CBDP-TAB1-CERT.")

def _certify_cell(family, scale_of, claimed):
    """The engine's certificate hook for a one-dimensional linear cell: at the counterexample point, the
    solver's maximiser rounded to rationals is one feasible h, and Arb bounds the supremum below by its
    objective; the refutation is certified when the printed bound's ball lies below that."""
    def certify(pt):
        from cbdp_sym import Param as _P  # noqa: F401  (keeps the hook self-contained)

        al = pt["alpha"]
        P, Q = shift_laws(family, scale_of(pt), (1,))
        with mp.workdps(30):
            rec = lin_renyi(P, Q, al)
        a_, b_ = _rational(rec["a"][0]), _rational(rec["b"])
        low = lin_renyi_lower(P, Q, al, a_, b_)
        syms = {"eps": eps, "sigma": sigma, "alpha": alpha}
        return certify_above_bound(claimed(), pt, {k: syms[k] for k in pt}, low)

    return certify


TAB1_REN_LAP_LIN = Claim(
    id="CBDP-TAB1-REN-LAP-LIN", cost=30, paper="cbdp", label=r"Table 1: $\alpha$-Rényi, Laplace, linear adversary", kind="upper",
    statement=r"\le\frac1{\alpha-1}\log(1+2^{\alpha-1}\epsilon^\alpha)", quantity=r"\mathcal{D}^{lin}_{R,\alpha}(P,Q)",
    params=[Param.positive("eps", eps), _alpha_p()],
    sweep=[{"eps": "1/4", "alpha": "3"}] + [{"eps": e_, "alpha": a_} for e_, a_ in LAP_GRID], uses=("CBDP-C2-LAP",),
    claimed=_lap_lin_printed, numeric=exact_lap, corrected=_lap_lin_fixed,
    certify=_certify_cell("lap", lambda pt: 1 / pt["eps"], _lap_lin_printed),
    corrected_statement=r"\le\log2+\frac1{\alpha-1}\log(1+\epsilon^\alpha)",
    search={"eps": ("1/1000", "100"), "alpha": ("1001/1000", "1000")}, search_evals=12,
    where="Sec. 5, Table 1", seed=SEED, conventions=(LAP1, GENC, SOLVER, SYM),
    notes=_LIN1_NOTE.format(s="eps", g=LAP_GRID_TEXT),
)

TAB1_REN_GAU_LIN = Claim(
    id="CBDP-TAB1-REN-GAU-LIN", cost=25, paper="cbdp", label=r"Table 1: $\alpha$-Rényi, Gaussian, linear adversary", kind="upper",
    statement=r"\le\frac1{\alpha-1}\log(1+\sqrt{2\pi}^{\,\alpha-1}/\sigma^\alpha)", quantity=r"\mathcal{D}^{lin}_{R,\alpha}(P,Q)",
    params=[Param.positive("sigma", sigma, ("1/10", "1", "3", "10", "100")), _alpha_p()],
    sweep=[{"sigma": "3", "alpha": "3"}] + [{"sigma": s_, "alpha": a_} for s_, a_ in GAU_GRID], uses=("CBDP-C2",),
    claimed=_gau_lin_printed, numeric=exact_gau, corrected=_gau_lin_fixed,
    certify=_certify_cell("gau", lambda pt: pt["sigma"], _gau_lin_printed),
    corrected_statement=r"\le\log2+\frac1{\alpha-1}\log(1+\sqrt{\pi/2}^{\,\alpha-1}/\sigma^\alpha)",
    search={"sigma": ("1/100", "100"), "alpha": ("1001/1000", "1000")}, search_evals=12,
    where="Sec. 5, Table 1", seed=SEED, conventions=(GAU1, GENC, SOLVER, SYM),
    notes=_LIN1_NOTE.format(s="sigma", g=GAU_GRID_TEXT),
)


def _ddim_sweep(scale_name, ddim, simple):
    """The d-dimensional points, the simplest point where the printed cell fails (``simple``: (v, scale, alpha) at
    d = 2, certified by :func:`_certify_ddim`) and a one-dimensional point."""
    vv, s_, a_ = simple
    return [{"d": "2", "v": vv, scale_name: s_, "alpha": a_}] + [
        {"d": dd, "v": vv, scale_name: s_, "alpha": a_} for dd, vv, s_, a_ in ddim] + [
        {"d": "1", "v": "1", scale_name: "1", "alpha": "3"}]


def _certify_ddim(family, scale_of, claimed):
    """The engine's certificate hook for a d-dimensional linear cell, by reduction to one dimension: a linear
    ``h`` of one projection ``y = u . x`` is in the class (``u`` the unit vector along ``v`` for Gaussian noise when
    ``lVert v rVert_2`` is rational, else the coordinate of the largest shift), and ``y`` is the one-dimensional noise
    shifted by ``u . v``; the solver's maximiser for that pair, rounded to rationals, is a feasible ``h`` whose
    objective Arb bounds below (a lower bound on the d-dimensional supremum).  Certified when the printed bound's
    ball lies below it."""
    def certify(pt):
        vs = [sp.Rational(x) for x in pt["v"]]
        norm = sp.sqrt(sum(x**2 for x in vs))
        shift = norm if (family == "gau" and norm.is_Rational) else max(abs(x) for x in vs)
        if shift == 0:
            return None
        P, Q = shift_laws(family, scale_of(pt), (shift,))
        try:
            with mp.workdps(30):
                rec = lin_renyi(P, Q, pt["alpha"])
            low = lin_renyi_lower(P, Q, pt["alpha"], _rational(rec["a"][0]), _rational(rec["b"]))
        except (NotCertifiable, SolverFailure, ParameterError, ZeroDivisionError):
            return None
        syms = {"d": d, "v": v, "eps": eps, "sigma": sigma, "alpha": alpha}
        cert = certify_above_bound(claimed(), pt, {k: syms[k] for k in pt}, low)
        how = ("the projection on $v/\\lVert v\\rVert_2$" if shift == norm and family == "gau"
               else "the coordinate of the largest shift")
        return None if cert is None else f"{cert} (one-dimensional reduction: $h$ linear in {how})"

    return certify


TAB1_REN_LAPD_LIN = Claim(
    id="CBDP-TAB1-REN-LAPD-LIN", cost=12, paper="cbdp", label=r"Table 1: $\alpha$-Rényi, Laplace $d$-dim, linear adversary", kind="upper",
    statement=r"\le\frac1{\alpha-1}\log(1+2^{d(\alpha-1)}(\epsilon\lVert v\rVert_\alpha)^\alpha)",
    quantity=r"\mathcal{D}^{lin}_{R,\alpha}(P,Q)", params=_d_v() + [Param.positive("eps", eps), _alpha_p()],
    sweep=_ddim_sweep("eps", DDIM_LAP, ("1,1", "1/100", "3")), uses=("CBDP-C2-LAP",),
    certify=_certify_ddim("lap", lambda pt: 1 / pt["eps"], _lapd_lin_printed),
    claimed=_lapd_lin_printed, numeric=exact_lap, corrected=_lapd_lin_fixed,
    corrected_statement=r"\le d\log2+\frac1{\alpha-1}\log(1+(\epsilon\lVert v\rVert_\alpha)^\alpha)",
    search={"eps": ("1/1000", "100"), "alpha": ("1001/1000", "1000")}, search_evals=6,
    where="Sec. 5, Table 1", seed=SEED, conventions=(LAPD, GENC, SOLVER, SYM),
    notes=r"Sweep $(d, v, \epsilon, \alpha)$: (2, (1, 1), 1/100, 3), where the refutation is certified by a "
          "one-dimensional reduction; " + fmt_points(DDIM_LAP) + r"; and (1, 1, 1, 3); then a search over $\epsilon$ "
          r"and $\alpha$ at the worst points' $d$ and $v$. The $d = 1$ cells are swept in CBDP-TAB1-REN-LAP-LIN and "
          "CBDP-T13.",
)

TAB1_REN_GAUD_LIN = Claim(
    id="CBDP-TAB1-REN-GAUD-LIN", cost=11, paper="cbdp", label=r"Table 1: $\alpha$-Rényi, Gaussian $d$-dim, linear adversary", kind="upper",
    statement=r"\le\frac1{\alpha-1}\log(1+2^{d(\alpha-1)}\sqrt{\pi/2}^{\,\alpha-1}\lVert v\rVert_\alpha^\alpha/\sigma^\alpha)",
    quantity=r"\mathcal{D}^{lin}_{R,\alpha}(P,Q)", params=_d_v() + [Param.positive("sigma", sigma), _alpha_p()],
    sweep=_ddim_sweep("sigma", DDIM_GAU, ("1,0", "10", "3")), uses=("CBDP-C2",),
    certify=_certify_ddim("gau", lambda pt: pt["sigma"], _gaud_lin_printed),
    claimed=_gaud_lin_printed, numeric=exact_gau, corrected=_gaud_lin_fixed,
    corrected_statement=r"\le d\log2+\frac1{\alpha-1}\log(1+\sqrt{\pi/2}^{\,\alpha-1}\lVert v\rVert_\alpha^\alpha/\sigma^\alpha)",
    search={"sigma": ("1/100", "100"), "alpha": ("1001/1000", "1000")}, search_evals=6,
    where="Sec. 5, Table 1", seed=SEED, conventions=(GAUD, GENC, SOLVER, SYM),
    notes=r"Sweep $(d, v, \sigma, \alpha)$: (2, (1, 0), 10, 3), where the refutation is certified by a "
          "one-dimensional reduction; " + fmt_points(DDIM_GAU) + r"; and (1, 1, 1, 3); then a search over $\sigma$ "
          r"and $\alpha$.",
)


# -- unrestricted cells --------------------------------------------------------------------------------
@cached_derivation
def _renyi_lap1():
    return renyi_divergence(Laplace(0, 1 / eps), Laplace(1, 1 / eps), alpha, lhs=Tex(r"\mathcal D_{R,\alpha}(P, Q)"))[0]


@cached_derivation
def _renyi_gau1():
    return renyi_divergence(Normal(0, sigma), Normal(1, sigma), alpha, lhs=Tex(r"\mathcal D_{R,\alpha}(P, Q)"))[0]


@cached_derivation
def _renyi_lapd():
    return renyi_shift_sum(lambda w: (Laplace(0, 1 / eps), Laplace(w, 1 / eps)), v, d, alpha)


@cached_derivation
def _renyi_gaud():
    return renyi_shift_sum(lambda w: (Normal(0, sigma), Normal(w, sigma)), v, d, alpha)


def _lap_unr_printed():
    return eps - sp.log(2) / (alpha - 1)


def _gau_unr_printed():
    return alpha / (2 * sigma**2)


def _lapd_unr_printed():
    return eps * sp.Sum(sp.Abs(v[i]), (i, 1, d)) - d * sp.log(2) / (alpha - 1)


def _gaud_unr_printed():
    return alpha * sp.Sum(v[i] ** 2, (i, 1, d)) / (2 * sigma**2)


TAB1_REN_LAP_UNR = Claim(
    id="CBDP-TAB1-REN-LAP-UNR", paper="cbdp", label=r"Table 1: $\alpha$-Rényi, Laplace, unrestricted", kind="lower",
    statement=r"\ge\epsilon-\log(2)/(\alpha-1)", quantity=r"\mathcal{D}_{R,\alpha}(P,Q)",
    params=[Param.positive("eps", eps), _alpha_p()],
    sweep=[{"eps": e_, "alpha": a_} for e_ in UNR_EPS for a_ in UNR_ALPHA],
    derive=_renyi_lap1, claimed=_lap_unr_printed, numeric=renyi_lap,
    search={"eps": ("1/1000", "100"), "alpha": ("1001/1000", "1000")}, search_evals=40,
    where="Sec. 5, Table 1", seed=SEED, conventions=(LAP1, SYM, "the printed log(2)/alpha-1 is read as log(2)/(alpha-1) "
                                                      "(nicefrac in seed 002)"),
    notes="Sweep: eps in {1e-3, 1e-2, 0.1, 1, 10, 100} x alpha in {1.001, 1.5, 2, 3, 10, 100, 1000}, then a search. "
          "It holds because the second term of Eq. (4) is non-negative for alpha >= 1 and the first coefficient is "
          ">= 1/2 (CBDP-C1-CHAIN, corrected chain); the slack vanishes as alpha grows.",
)

TAB1_REN_GAU_UNR = Claim(
    id="CBDP-TAB1-REN-GAU-UNR", paper="cbdp", label=r"Table 1: $\alpha$-Rényi, Gaussian, unrestricted", kind="identity",
    statement=r"\alpha/2\sigma^2", quantity=r"\mathcal{D}_{R,\alpha}(P,Q)",
    params=[Param.positive("sigma", sigma, ("1/100", "1/10", "1", "7/2", "100")), _alpha_p(("1001/1000", "3/2", "2", "7/2", "1000"))],
    derive=_renyi_gau1, claimed=_gau_unr_printed, numeric=renyi_gau, uses=("CBDP-T12",),
    where="Sec. 5, Table 1", seed=SEED, conventions=(GAU1, SYM, "the printed alpha/2sigma^2 is read as alpha/(2 sigma^2)"),
)

_LAPD_UNR_SWEEP = [{"d": dd, "v": vv, "eps": e_, "alpha": a_}
                   for dd, vv in (("1", "1"), ("2", "1,-2"), ("3", "1/2,3,-1"), ("4", "1,1,1,1"))
                   for e_ in ("1/1000", "1", "100") for a_ in ("1001/1000", "3", "1000")]

TAB1_REN_LAPD_UNR = Claim(
    id="CBDP-TAB1-REN-LAPD-UNR", cost=12, paper="cbdp", label=r"Table 1: $\alpha$-Rényi, Laplace $d$-dim, unrestricted", kind="lower",
    statement=r"\ge\epsilon\lVert v\rVert_1-d\log(2)/(\alpha-1)", quantity=r"\mathcal{D}_{R,\alpha}(P,Q)",
    params=_d_v() + [Param.positive("eps", eps), _alpha_p()], sweep=_LAPD_UNR_SWEEP,
    derive=_renyi_lapd, claimed=_lapd_unr_printed, numeric=renyi_lap,
    search={"eps": ("1/1000", "100"), "alpha": ("1001/1000", "1000")}, search_evals=30,
    where="Sec. 5, Table 1", seed=SEED, conventions=(LAPD, SYM),
    notes="Sweep: d = 1..4 with v in {1, (1,-2), (1/2,3,-1), (1,1,1,1)} x eps in {1e-3, 1, 100} x alpha in "
          "{1.001, 3, 1000}; then a search over eps and alpha. Corollary 1's printed bound (without -d log 2/(alpha-1)) "
          "is refuted (CBDP-C1); this cell is its corrected form.",
)

_GAUD_POINTS = [{"d": "1", "v": "1", "sigma": "1", "alpha": "2"}, {"d": "2", "v": "1,-2", "sigma": "1/2", "alpha": "7/2"},
                {"d": "3", "v": "1/2,3,-1", "sigma": "10", "alpha": "3/2"},
                {"d": "4", "v": "1,1,1,1", "sigma": "1/100", "alpha": "1001/1000"},
                {"d": "2", "v": "2,1/3", "sigma": "100", "alpha": "1000"}]

TAB1_REN_GAUD_UNR = Claim(
    id="CBDP-TAB1-REN-GAUD-UNR", paper="cbdp", label=r"Table 1: $\alpha$-Rényi, Gaussian $d$-dim, unrestricted", kind="identity",
    statement=r"\frac{\alpha\lVert v\rVert_2^2}{2\sigma^2}", quantity=r"\mathcal{D}_{R,\alpha}(P,Q)",
    params=_d_v() + [Param.positive("sigma", sigma), _alpha_p()], points=_GAUD_POINTS,
    derive=_renyi_gaud, claimed=_gaud_unr_printed, numeric=renyi_gau, uses=("CBDP-T12",),
    where="Sec. 5, Table 1", seed=SEED, conventions=(GAUD, SYM),
)


# -- certificates of the linear cells' refutations ---------------------------------------------------------
CERT_CASES = [
    ("CBDP-TAB1-REN-LAP-LIN", {"eps": "1/10", "alpha": "3"}, ("lap", 10, "the cell itself")),
    ("CBDP-T13", {"d": "1", "v": "1", "eps": "1/10", "alpha": "3"}, ("lap", 10, "$d = 1$")),
    ("CBDP-C2-LAP", {"d": "1", "v": "1", "eps": "1/10", "alpha": "3"}, ("lap", 10, "$d = 1$")),
    ("CBDP-T5", {"s": "1", "v": "1", "eps": "1/10", "alpha": "3"}, ("lap", 10, "$s = 1$, $A = [1]$")),
    ("CBDP-TAB1-REN-LAPD-LIN", {"d": "2", "v": "1,1", "eps": "1/100", "alpha": "3"},
     ("lap", 100, "$h$ depends on $x_1$ only: a lower bound on the 2-dimensional supremum")),
    ("CBDP-TAB1-REN-GAU-LIN", {"sigma": "3", "alpha": "3"}, ("gau", 3, "the cell itself")),
    ("CBDP-T13-GAU", {"d": "1", "v": "1", "sigma": "3", "alpha": "3"}, ("gau", 3, "$d = 1$")),
    ("CBDP-C2", {"d": "1", "v": "1", "sigma": "3", "alpha": "3"}, ("gau", 3, "$d = 1$")),
    ("CBDP-TAB1-REN-GAUD-LIN", {"d": "2", "v": "3/5,4/5", "sigma": "10", "alpha": "3"},
     ("gau", 10, r"$h$ depends on $y = (3x_1 + 4x_2)/5$ only, $y \sim \mathcal N(0, \sigma^2)$ vs $\mathcal N(1, \sigma^2)$")),
]


_TEX_NAME = {"eps": r"\epsilon", "alpha": r"\alpha", "sigma": r"\sigma"}  # (a point's names as the paper writes them)


def _registry_claim(cid):
    """A claim of this module or of ``linrenyi`` by its ID (imported, not looked up in a registry: the certificate
    claim then depends on these two modules only)."""
    return next(c for m in (globals(), vars(linrenyi)) for c in m.values() if isinstance(c, Claim) and c.id == cid)


def _rational(x, digits=25):
    return sp.Rational(mp.nstr(x, digits, min_fixed=-mp.inf, max_fixed=mp.inf))


def _certificates(dps):
    rows = []

    def case(item):
        cid, raw, (family, scale, how) = item
        c = _registry_claim(cid)
        pt = c.parse_point(raw)
        al = pt["alpha"]
        P, Q = shift_laws(family, sp.Integer(scale), (1,))
        with mp.workdps(30):
            rec = lin_renyi(P, Q, al)
        a_, b_ = _rational(rec["a"][0]), _rational(rec["b"])
        at = dict(raw, claim=cid)
        try:
            low = lin_renyi_lower(P, Q, al, a_, b_)
            bound = arb_value(c.claimed(), pt, c.symbols(), bits=160)
        except NotCertifiable as exc:
            rows.append([f"{cid} ({how}; not certifiable: {exc})", "--", "--", "--"])
            return Exists(what=f"{cid}: no certificate")
        rows.append([f"{cid} at " + ", ".join(f"${_TEX_NAME.get(k, k)} = {x}$" for k, x in raw.items()) + f" ({how})",
                     f"$h = {sp.latex(sp.Float(a_, 8))}\\,x + {sp.latex(sp.Float(b_, 8))}$",
                     bound.str(10, radius=False), low.str(10, radius=False)])
        return Exists(Compare(claimed=bound, computed=low, rel=">", at=at,
                              what="a certified lower bound on the exact value above the printed bound (Arb balls)"),
                      what=f"{cid}: a feasible $h$ whose objective exceeds the printed bound")

    node = over("case", CERT_CASES, case, what="every counterexample certified in ball arithmetic",
                domain="the nine refuted (lin, Rényi) upper bounds")
    return Evidence(node, tables=[Table(
        "Certified counterexamples to the (lin, Rényi) upper bounds",
        ["claim, point (reduction)", "feasible $h$ (rational)", "printed bound (Arb)", "lower bound on the quantity (Arb)"],
        rows, r"For one feasible $h$ (the solver's maximiser rounded to 25 significant digits), "
              r"$A \log \mathbb E_P[h] - \log \mathbb E_Q|h|^A \le \mathcal D^{\mathrm{lin}}_{R,\alpha}(P, Q)$; "
              r"$\mathbb E_P[h]$ is exact and $\mathbb E_Q|h|^A$ is enclosed by Arb's rigorous integration (split at "
              "the kink and at the zero of $h$, tails bounded by incomplete Gamma functions). 160-bit balls.")])


TAB1_CERT = Claim(
    id="CBDP-TAB1-CERT", paper="cbdp", label="Table 1: certificates of the (lin,Rényi) refutations", kind="check",
    role="remark",
    statement=r"\text{the printed (lin,Rényi) upper bounds of Table 1, Theorem 13, Corollary 2 and Theorem 5 are below a "
              r"certified lower bound on the exact value}",
    check=_certificates, where="Sec. 5, Table 1; App. C.4", seed=SEED, conventions=(GENC,),
    notes="The engine certifies a refutation when both sides are closed forms; here the quantity is a supremum, and any "
          "feasible h certifies a lower bound on it.",
)


# -- text claims around the table ---------------------------------------------------------------------------
def _crossing(f, lo, hi, n=400):
    """The first sign change of ``f`` on a log-spaced grid of ``alpha - 1`` in [lo, hi], refined by bisection;
    ``None`` when ``f`` keeps its sign."""
    xs = [1 + mp.mpf(lo - 1) * (mp.mpf(hi - 1) / (lo - 1)) ** (mp.mpf(k) / n) for k in range(n + 1)]
    prev = f(xs[0])
    for a0, a1 in zip(xs[:-1], xs[1:]):
        cur = f(a1)
        if (prev > 0) != (cur > 0):
            return mp.findroot(f, (a0, a1), solver="anderson")
        prev = cur
    return None


def _bound_lap(e, al):
    return mp.log1p(2 ** (al - 1) * e**al) / (al - 1)


def _powforms(expr):
    """``expr`` with powers of products split and merged (what lets SymPy see the growth identities)."""
    return sp.powsimp(sp.expand_power_base(expr, force=True), force=True)


def _crossing_rows(scales, printed, corrected):
    """Display rows: the crossing alpha of the printed and of the corrected bound at each scale (30 digits)."""
    tab = []
    with mp.workdps(30):
        for sc in scales:
            x = to_mpf(sp.Rational(sc))
            cross = _crossing(lambda al: printed(x, al), mp.mpf("1.0001"), mp.mpf(10) ** 6)
            fixed = _crossing(lambda al: corrected(x, al), mp.mpf("1.0001"), mp.mpf(10) ** 6)
            tab.append([f"${sp.latex(sp.Rational(sc))}$", mp_str(cross, 8) if cross is not None else r"none up to $10^6$",
                        mp_str(fixed, 8) if fixed is not None else r"none up to $10^6$"])
    return tab


#: the noise parameters at which Sec. 5's conclusion is decided (the table's, and the two sides of log 2)
_GROWTH_EPS = ("1/1000", "1/100", "1/10", "1/2", "1", "2", "10", "100")


def _alpha_grid():
    """``alpha - 1`` on a log grid from ``10^-3`` to ``10^6`` (exact rationals), where the infimum over ``alpha`` of
    the gap between the two bounds is sought besides its limit ``alpha -> infinity``."""
    return [1 + sp.Rational(10) ** k / 4 ** j for k in range(-3, 7) for j in (0, 1)]


def _inf_gap(B, L, e):
    """``inf_{alpha > 1} B - L`` at ``eps = e``: the limit ``alpha -> infinity`` (SymPy, exact) and the smallest value on
    :func:`_alpha_grid` (where ``B - L`` decreases in ``alpha``, as it does for the corrected cell at ``eps <= 1``, the
    limit is the infimum and is not attained)."""
    gap = (B - L).subs(eps, e)
    lim = sp.limit(gap, alpha, sp.oo)
    f = sp.lambdify(alpha, gap, "mpmath")  # (exact powers at alpha = 10^6 would have millions of digits)
    vals = [(f(to_mpf(a_)), a_) for a_ in _alpha_grid()]
    low, where = min(vals, key=lambda t: t[0])
    return (lim, "infinity") if to_mpf(lim) <= low else (low, where)


def _growth(dps):
    from cbdp_sym import printed_or_corrected

    B = _lap_lin_printed().rewrite(sp.log)
    used = printed_or_corrected(TAB1_REN_LAP_LIN).rewrite(sp.log)  # the cell the conclusion rests on
    L = printed_or_corrected(TAB1_REN_LAP_UNR)

    def conclusion(e):
        val, where = _inf_gap(used, L, sp.Rational(e))
        return Compare(claimed=0, computed=val, rel="<", at={"eps": e},
                       what=r"$\inf_{\alpha > 1} B - L < 0$, $B$ Table 1's (lin, Rényi) upper bound and $L$ its Rényi-DP "
                            r"lower bound $\epsilon - \log 2/(\alpha - 1)$ (some $\alpha$ makes $B < L$); the infimum "
                            r"is taken " + (r"as the limit $\alpha \to \infty$" if where == "infinity" else
                                            rf"at $\alpha = {sp.latex(where)}$ on a grid"))

    node = All(
        Compare(claimed=_powforms(1 + eps * (2 * eps) ** (alpha - 1)), computed=_powforms(sp.exp((alpha - 1) * B)),
                what=r"$e^{(\alpha-1)B} = 1+\epsilon(2\epsilon)^{\alpha-1}$, $B$ the printed (lin, Rényi) cell"),
        Compare(claimed=sp.exp(eps) ** (alpha - 1) / 2, computed=simplify(sp.exp((alpha - 1) * _lap_unr_printed())),
                what=r"$e^{(\alpha-1)L} = (e^\epsilon)^{\alpha-1}/2$, $L$ the Rényi-DP lower bound (it grows with "
                     r"$(e^\epsilon)^{\alpha-1}$)"),
        sample(r"$\epsilon$ from $10^{-3}$ to 100", _GROWTH_EPS, conclusion,
               what=r"'no matter what $\epsilon$ is, a moderately-sized $\alpha$ will make the (lin,Rényi) upper bound "
                    "smaller than the Rényi lower bound' (for each $\\epsilon$ some $\\alpha$)"),
        what="the growth identities and, for each $\\epsilon$, some $\\alpha$")
    tab = _crossing_rows(("1/1000", "1/100", "1/10", "1/2", "1", "10", "100"),
                         lambda e, al: _bound_lap(e, al) - (e - mp.log(2) / (al - 1)),
                         lambda e, al: mp.log(2) + mp.log1p(e**al) / (al - 1) - (e - mp.log(2) / (al - 1)))
    return Evidence(node, tables=[Table(
        r"Where the (lin, Rényi) upper bound falls below the Rényi-DP lower bound",
        [r"$\epsilon$", r"crossing $\alpha$ (printed bound)", r"crossing $\alpha$ (corrected bound)"], tab,
        r"First sign change on a log grid of $\alpha - 1$ in $[10^{-4}, 10^6]$, refined by root finding; 30 digits. "
        r"The crossing grows like $1 + \log 2/\epsilon$ as $\epsilon \to 0$ (about 694 at $\epsilon = 10^{-3}$): "
        r"'moderately-sized' holds only for $\epsilon$ of order 1 or more (one $\alpha$ for all $\epsilon$ fails), "
        r"and with the corrected bound, which never drops below $\log 2$, the comparison succeeds only for "
        r"$\epsilon > \log 2$.")])


S5_GROWTH = Claim(
    id="CBDP-S5-GROWTH", paper="cbdp", label="Sec. 5: growth of the Laplace (lin,Rényi) bound vs the Rényi-DP bound",
    kind="check", role="remark", uses=("CBDP-TAB1-REN-LAP-LIN", "CBDP-TAB1-REN-LAP-UNR"),
    statement=r"\text{the (lin,Renyi) upper bound ``grows with'' }1+\epsilon(2\epsilon)^{\alpha-1}\text{, the Renyi-DP lower bound "
              r"``with'' }(e^\epsilon)^{\alpha-1}\text{; ``no matter what }\epsilon\text{ is, a moderately-sized }\alpha\text{ will make "
              r"the (lin,Renyi) upper bound smaller than the Renyi lower bound''}",
    check=_growth, where="Sec. 5, after Table 1", seed=SEED, conventions=(LAP1,),
    notes=r"The last sentence is audited as 'for each $\epsilon$ some $\alpha$' at $\epsilon$ from $10^{-3}$ to 100 "
          r"(the infimum over $\alpha$ of the gap, exactly where it is the limit $\alpha \to \infty$); the table shows "
          r"that no single $\alpha$ works for all $\epsilon$. The conclusion rests on Table 1's (lin, Rényi) cell, "
          r"which is refuted (CBDP-TAB1-REN-LAP-LIN): against its corrected form, which adds $\log 2$, it fails for "
          r"every $\epsilon < \log 2$.",
)


def _composed(cell):
    """The one-dimensional bound composed over the ``d`` coordinates (Theorem 4): the ``d``-dimensional cell at ``d = 1``
    with the shift ``v_i``, summed over ``i = 1..d``."""
    one = cell.subs(d, 1).doit().subs(v[1], v[i])
    return sp.Sum(one, (i, 1, d))


def _composition(kind, points):
    """The d-dimensional bound against composing the 1-D bound over the coordinates (Theorem 4): 'slightly better' is
    ``d-dim <= composition`` at each point (closed forms: a violation is certified by Arb).  The bounds are the Table 1
    cells the remark rests on, as printed or, when the engine audits the claims it uses as corrected, corrected."""
    from cbdp_sym import printed_or_corrected
    from cbdp_sym.certify import substitute_point

    scale_sym = eps if kind == "lap" else sigma
    Bd = printed_or_corrected(TAB1_REN_LAPD_LIN if kind == "lap" else TAB1_REN_GAUD_LIN)
    comp = _composed(Bd)
    name = "eps" if kind == "lap" else "sigma"
    syms = {"d": d, "v": v, name: scale_sym, "alpha": alpha}

    def at_point(raw):
        pt = {"d": sp.Integer(raw["d"]), "v": sp.Tuple(*[sp.Rational(x) for x in raw["v"].split(",")]),
              name: sp.Rational(raw[name]), "alpha": sp.Rational(raw["alpha"])}
        return Compare(claimed=to_mpf(substitute_point(comp, pt, syms)), computed=to_mpf(substitute_point(Bd, pt, syms)),
                       rel="<=", at={"d": pt["d"], "v": pt["v"], name: pt[name], "alpha": pt["alpha"]},
                       closed=(comp, Bd, pt, syms),
                       what=r"the $d$-dimensional bound at most the 1-D bound composed over the coordinates")

    return sample("points with small and large shift-to-noise ratios", points, at_point,
                  what="slightly better than composition")


_COMP_LAP = [{"d": "2", "v": "1,1", "eps": "1", "alpha": "3"}, {"d": "2", "v": "1,1", "eps": "1/10", "alpha": "3"}, {"d": "4", "v": "1,1,1,1", "eps": "1", "alpha": "2"},
             {"d": "2", "v": "1,1", "eps": "10", "alpha": "3"}, {"d": "3", "v": "1,1,1", "eps": "100", "alpha": "3/2"},
             {"d": "2", "v": "1,-2", "eps": "1/2", "alpha": "11/10"}]
_COMP_GAU = [{"d": "2", "v": "1,1", "sigma": "2", "alpha": "3"}, {"d": "2", "v": "1,1", "sigma": "10", "alpha": "3"}, {"d": "4", "v": "1,1,1,1", "sigma": "1", "alpha": "2"},
             {"d": "2", "v": "1,1", "sigma": "1/10", "alpha": "3"}, {"d": "3", "v": "1,1,1", "sigma": "1/100", "alpha": "3/2"},
             {"d": "2", "v": "1,-2", "sigma": "2", "alpha": "11/10"}]


def _num(x):
    """A SymPy number as an exact rational when it is one, else an mpf at the working precision."""
    x = sp.nsimplify(x) if not isinstance(x, sp.Basic) else x
    return x if x.is_Rational else to_mpf(x)


def _norms(vs, al, other, rel, what):
    """``||v||_al`` against ``||v||_other`` (``other``: 1 or 2), exactly where the norms are rational."""
    va = [sp.nsimplify(x) for x in vs]
    na = sp.Add(*[sp.Abs(x) ** al for x in va]) ** (sp.Integer(1) / al)
    no = sp.Add(*[sp.Abs(x) ** other for x in va]) ** (sp.Integer(1) / other)
    return Compare(claimed=_num(no), computed=_num(na), rel=rel, at={"v": sp.Tuple(*va), "alpha": al}, what=what)


def _ddim_lap(dps):
    norms = sample("four shift vectors", (((1, 1), 3), ((3, 4, 0), 2), ((sp.Rational(1, 2), -1, 2, 1), 10), ((1,), 7)),
                   lambda t: _norms(t[0], t[1], 1, "<=", r"$\lVert v\rVert_\alpha \le \lVert v\rVert_1$"),
                   what=r"$\lVert v\rVert_\alpha \le \lVert v\rVert_1$ (the bound increases with "
                        r"$\lVert v\rVert_\alpha$, so the replacement is valid)")
    return All(norms, _composition("lap", _COMP_LAP),
               what="Sec. 5's two statements on the d-dimensional Laplace bound")


S5_DDIM = Claim(
    id="CBDP-S5-DDIM", paper="cbdp", label=r"Sec. 5: $d$-dimensional Laplace, $\lVert v\rVert_\alpha \le \lVert v\rVert_1$ and composition", kind="check",
    statement=r"\text{``Because }\lVert v\rVert_\alpha\le\lVert v\rVert_1\text{, we can replace }\lVert v\rVert_\alpha\text{ with }"
              r"\lVert v\rVert_1\text{ in the (lin,Renyi) upper bound''; ``our (lin,Renyi) upper bound is slightly better than "
              r"using composition }d\text{ times on the unidimensional Laplace mechanism''}",
    check=_ddim_lap, where="Sec. 5, Laplace mechanism", seed=SEED, conventions=(LAPD,), role="remark",
    uses=("CBDP-TAB1-REN-LAPD-LIN", "CBDP-TAB1-REN-LAP-LIN", "CBDP-T4"),
    notes=r"Both sides are the paper's bounds: Table 1's $d$-dimensional cell, and the same cell at $d = 1$ with the "
          r"shift $v_i$ composed over the coordinates with Theorem 4; closed forms, certified in ball arithmetic. "
          r"The printed cell is refuted (CBDP-TAB1-REN-LAPD-LIN): against the corrected cells, which add $d\log 2$ "
          r"(resp. $\log 2$ per coordinate), the remark holds, since $\log(1 + \sum_i x_i) \le \sum_i \log(1 + x_i)$.",
)


def _bound_gau(s_, al):
    return mp.log1p(mp.sqrt(2 * mp.pi) ** (al - 1) / s_**al) / (al - 1)


def _a_growth(dps):
    B = _gau_lin_printed().rewrite(sp.log)
    syms = {"alpha": alpha, "sigma": sigma}
    lhs, rhs = sp.sqrt(2 * sp.pi) / sigma, sp.exp(alpha / (2 * sigma**2))

    def at(sg):
        pt = {"alpha": sp.Integer(2), "sigma": sp.Rational(sg)}
        sub = {alpha: pt["alpha"], sigma: pt["sigma"]}
        return Compare(claimed=to_mpf(rhs.subs(sub)), computed=to_mpf(lhs.subs(sub)), rel="<", at=pt,
                       closed=(rhs, lhs, pt, syms),
                       what=r"$\frac{\sqrt{2\pi}}\sigma < e^{\alpha/(2\sigma^2)}$")

    node = All(
        Compare(claimed=_powforms(1 + (1 / sigma) * (sp.sqrt(2 * sp.pi) / sigma) ** (alpha - 1)),
                computed=_powforms(sp.exp((alpha - 1) * B)),
                what=r"$e^{(\alpha-1)B} = 1+\frac1\sigma\left(\frac{\sqrt{2\pi}}\sigma\right)^{\alpha-1}$, $B$ "
                     "the (lin, Rényi) bound"),
        Compare(claimed=sp.exp(alpha / (2 * sigma**2)) ** (alpha - 1), computed=sp.exp((alpha - 1) * alpha / (2 * sigma**2)),
                what=r"$e^{(\alpha-1)\alpha/(2\sigma^2)} = (e^{\alpha/(2\sigma^2)})^{\alpha-1}$"),
        sample(r"$\alpha = 2$ and five $\sigma$", ("1/2", "1", "7/5", "2", "10"), at,
               what=r"'for all $\sigma$' at an order $\alpha > 1$"),
        what="Appendix A's growth statements")
    sg = sp.Symbol("sigma", positive=True)
    al_ = sp.Symbol("alpha", positive=True)
    arg, top = maximize(sp.log(sp.sqrt(2 * sp.pi) / sg) - al_ / (2 * sg**2), sg, 0, sp.oo,
                        samples=[{al_: sp.Integer(2)}, {al_: sp.Integer(5)}])
    top = simplify(top)
    tab = _crossing_rows(("1/100", "1/10", "1/2", "1", "2", "5", "10", "100"),
                         lambda s_, al: _bound_gau(s_, al) - al / (2 * s_**2),
                         lambda s_, al: mp.log(2) + mp.log1p(mp.sqrt(mp.pi / 2) ** (al - 1) / s_**al) / (al - 1)
                         - al / (2 * s_**2))
    return Evidence(node, tables=[Table(
        r"Where the Gaussian (lin, Rényi) upper bound falls below the Rényi parameter",
        [r"$\sigma$", r"crossing $\alpha$ (printed bound)", r"crossing $\alpha$ (corrected bound)"], tab,
        r"First sign change on a log grid of $\alpha - 1$ in $[10^{-4}, 10^6]$; 30 digits. The derived maximum over "
        r"$\sigma$ of $\log\frac{\sqrt{2\pi}}{\sigma}-\frac{\alpha}{2\sigma^2}$ is $" + sp.latex(top) + r"$ at "
        r"$\sigma = " + sp.latex(arg) + r"$: negative exactly when $\alpha > 2\pi/e \approx "
        + mp.nstr(mp.mpf(2) * mp.pi / mp.e, 6) + r"$. The printed bound falls below $\alpha/(2\sigma^2)$ on this "
        "grid, but that bound is refuted (CBDP-TAB1-REN-GAU-LIN), and the corrected bound crosses only at "
        r"$\alpha$ of order $2\sigma^2 \log 2$ (no uniform $\alpha$).")])


A_GROWTH = Claim(
    id="CBDP-A-GROWTH", paper="cbdp", label=r"App. A: growth of the Gaussian (lin, Rényi) bound, 'for all $\sigma$'", kind="check",
    statement=r"\text{bound ``grows with'' }\frac1\sigma\left(\frac{\sqrt{2\pi}}\sigma\right)^{\alpha-1}\text{, Rényi with }"
              r"(e^{\alpha/(2\sigma^2)})^{\alpha-1}\text{; ``Because }\frac{\sqrt{2\pi}}\sigma<e^{\alpha/(2\sigma^2)}\text{ for all }"
              r"\sigma\text{, \ldots modestly-sized values of }\alpha\text{ will cause the (lin,Renyi) upper bound to fall below "
              r"the Renyi parameter for all }\sigma\text{''}",
    check=_a_growth, where="App. A", seed=SEED, conventions=(GAU1,), role="remark",
    uses=("CBDP-TAB1-REN-GAU-LIN", "CBDP-TAB1-REN-GAU-UNR"),
    notes="The minimum over sigma is derived by stationarity (maximize) with alpha symbolic: the inequality holds for all "
          "sigma exactly when alpha > 2 pi/e. The counterexample is certified with Arb.",
)


def _a_ddim(dps):
    rewritten = Log1p(2 ** (d * (alpha - 1)) * sp.sqrt(sp.pi / 2) ** (alpha - 1) * (NORM_A ** (1 / alpha) / sigma) ** alpha) / (alpha - 1)
    nv = sp.Symbol("N", positive=True)
    same = Compare(claimed=_powforms(_gaud_lin_printed().rewrite(sp.log).subs(NORM_A, nv)),
                   computed=_powforms(rewritten.rewrite(sp.log).subs(NORM_A, nv)),
                   what=r"the bound 'can be written as' $\frac1{\alpha-1}\log(1+2^{d(\alpha-1)}\sqrt{\pi/2}^{\alpha-1}"
                        r"(\lVert v\rVert_\alpha/\sigma)^\alpha)$: the Table 1 cell ($N = \lVert v\rVert_\alpha^\alpha$)")
    return All(same, _composition("gau", _COMP_GAU), what="Appendix A's statements on the d-dimensional Gaussian bound")


_NORM_VECTORS = ((1,), (1, 0), (1, 1), (3, 4, 0), (1, -2, 1, 1))


def _a_norm(dps, fixed=False):
    """'when alpha > 2, ||v||_alpha < ||v||_2' at alpha = 3 and 5 (exact where the norms are rational); ``fixed``: the
    corrected statement, ``<=`` with equality only when ``v`` has at most one non-zero coordinate."""
    def at(item):
        vs, al = item
        strict = not fixed or sum(1 for x in vs if x) > 1
        return _norms(vs, al, 2, "<" if strict else "<=",
                      r"$\lVert v\rVert_\alpha " + ("<" if strict else r"\le") + r" \lVert v\rVert_2$")

    return sample("five shift vectors at two orders", [(vs, al) for vs in _NORM_VECTORS for al in (3, 5)], at,
                  what=(r"$\lVert v\rVert_\alpha \le \lVert v\rVert_2$, strict when $v$ has two non-zero coordinates"
                        if fixed else r"'when $\alpha > 2$, $\lVert v\rVert_\alpha<\lVert v\rVert_2$'"))


def _a_norm_fixed(dps):
    return _a_norm(dps, fixed=True)


A_DDIM_NORM = Claim(
    id="CBDP-A-DDIM-NORM", paper="cbdp", label=r"App. A: $\lVert v\rVert_\alpha < \lVert v\rVert_2$ for $\alpha > 2$",
    kind="check", role="remark",
    statement=r"\text{``when }\alpha>2\text{, }\lVert v\rVert_\alpha<\lVert v\rVert_2\text{''}",
    check=_a_norm, corrected=_a_norm_fixed,
    corrected_statement=r"\lVert v\rVert_\alpha\le\lVert v\rVert_2\ (\alpha>2)\text{, with equality exactly when }v"
                        r"\text{ has at most one non-zero coordinate}",
    where="App. A, d-dimensional Gaussian", seed=SEED,
    notes=r"Exact arithmetic where the norms are rational ($v = (1)$, $(1, 0)$), else closed forms at the working "
          r"precision. The strict inequality fails for every $v$ with one non-zero coordinate (in particular for "
          r"$d = 1$), where the two norms are equal.",
)


A_DDIM = Claim(
    id="CBDP-A-DDIM", paper="cbdp", label=r"App. A: $d$-dimensional Gaussian, rewritten bound and composition",
    kind="check",
    statement=r"\text{the bound ``can be written as'' }\frac1{\alpha-1}\log(1+2^{d(\alpha-1)}\sqrt{\pi/2}^{\,\alpha-1}(\lVert v\rVert_\alpha/"
              r"\sigma)^\alpha)\text{; ``slightly better than composing the Gaussian mechanism }d\text{ times''}",
    check=_a_ddim, where="App. A, d-dimensional Gaussian", seed=SEED, conventions=(GAUD,), role="remark",
    uses=("CBDP-TAB1-REN-GAUD-LIN", "CBDP-TAB1-REN-GAU-LIN", "CBDP-T4"),
    notes=r"The paragraph's restatement of the Rényi parameter, $\alpha(\lVert v\rVert_2/\sigma)^2$, and its norm "
          r"inequality are audited on their own (CBDP-A-DDIM-RENYI, CBDP-A-DDIM-NORM). The composition compares Table 1's $d$-dimensional cell with the same cell at "
          r"$d = 1$ and shift $v_i$ composed over the coordinates (Theorem 4); closed forms, certified in ball "
          r"arithmetic. Against the corrected cells (CBDP-TAB1-REN-GAUD-LIN) the composition remark holds.",
)


def _a_ddim_renyi_printed():
    return alpha * sp.Sum(v[i] ** 2, (i, 1, d)) / sigma**2


A_DDIM_RENYI = Claim(
    id="CBDP-A-DDIM-RENYI", error_kind="typo", paper="cbdp", label=r"App. A: the restated Rényi parameter of the $d$-dimensional Gaussian",
    kind="identity",
    statement=r"\text{``The Renyi parameter, on the other hand, is }\alpha\left(\frac{\lVert v\rVert_2}\sigma\right)^2\text{''}",
    quantity=r"\mathcal{D}_{R,\alpha}(\mathcal N(0,\sigma^2I_d),\mathcal N(v,\sigma^2I_d))",
    params=_d_v() + [Param.positive("sigma", sigma), _alpha_p()], points=_GAUD_POINTS,
    derive=_renyi_gaud, claimed=_a_ddim_renyi_printed, numeric=renyi_gau, corrected=_gaud_unr_printed,
    corrected_statement=r"\mathcal{D}_{R,\alpha}=\frac{\alpha\lVert v\rVert_2^2}{2\sigma^2}",
    where="App. A, d-dimensional Gaussian", seed=SEED, conventions=(GAUD,), uses=("CBDP-T12",),
    notes=r"Appendix A restates Theorem 12 without the factor $1/2$ (Table 1 prints it with the factor).",
)


# -- the headline figure: Table 1's (lin, Rényi) Laplace cell against the exact value --------------------------
def _headline_eps():
    """ε from 10^-3 to 10^2 in steps of 10^(1/4) (exact decimals, rounded to 4 significant digits)."""
    out = []
    for k in range(-12, 9):
        x = mp.mpf(10) ** (mp.mpf(k) / 4)
        t = mp.nstr(x, 4, min_fixed=-10, max_fixed=10)
        out.append(t[:-2] if t.endswith(".0") else t)
    return tuple(out)


def _at3(expr_fn):
    def fn(x):
        return to_mpf(expr_fn().subs({eps: sp.Rational(x), alpha: 3}))

    return fn


def _exact_at3(x):
    return exact_lap({"eps": sp.Rational(x), "alpha": sp.Integer(3)})


from cbdp_sym.families import Curve, Figure

FIG_TAB1_LAP = Figure(
    id="CBDP-TAB1-LAP-FIG", paper="cbdp", title=r"Table 1, $\alpha$-Rényi, Laplace, linear adversary at $\alpha = 3$",
    caption=r"The printed upper bound $\frac1{\alpha-1}\log(1+2^{\alpha-1}\epsilon^\alpha)$ against the exact "
            r"$(\mathrm{lin},\alpha)$-Rényi divergence of $\mathrm{Lap}(0,1/\epsilon)$ and $\mathrm{Lap}(1,1/\epsilon)$ "
            r"(restricted solver, 20 digits) and the corrected bound $\log 2+\frac1{\alpha-1}\log(1+\epsilon^\alpha)$; "
            r"shaded: where the printed bound is below the exact value (the cell is false there).",
    xlabel=r"$\varepsilon$", ylabel="privacy parameter", xs=_headline_eps(),
    curves=[Curve("printed", r"printed bound", _at3(_lap_lin_printed), kind="printed"),
            Curve("exact", r"exact $(\mathrm{lin},\alpha)$-Rényi", _exact_at3),
            Curve("corrected", r"corrected bound", _at3(_lap_lin_fixed))],
    where="Sec. 5, Table 1", axis="xmode=log, ymode=log", cost=2, headline=True, shade_below=("printed", "exact"),
)
TAB1_REN_LAP_LIN.figures = (FIG_TAB1_LAP,)
