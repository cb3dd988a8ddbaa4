"""Bun-Steinke: information-theoretic lower bounds and applications (Thm. 1.10, Prop. 6.1, Lemma 6.2, Thm. 6.3, Sec. 6.1,
Prop. 6.4), pure DP from zCDP (Thm. 7.1, Thm. 1.11, Lemmas 7.2-7.5, App. C), approximate zCDP composition (Lemma 8.2),
and the text claims of Secs. 1.2.5 and footnote 2.

Mutual informations are exact sums over finite mechanisms ``M : {0, 1}^n -> finite outputs`` (:func:`mutual_information`);
the zCDP parameters of a mechanism are the largest ``rho* = sup_alpha D_alpha/alpha`` over neighbouring inputs in both
orders (``xi = 0``), or ``rho*/2`` with the smallest ``xi``.  Each check returns evidence (the comparisons, instance by
instance): the engine decides the verdict.
"""
import itertools
import random

import mpmath as mp
import sympy as sp

from cbdp_sym import All, Compare, Evidence, Exists, Table, sample
from cbdp_sym.families import bound_evidence
from cbdp_sym import Claim, Param, Tex, printed_or_corrected, record
from cbdp_sym.calculus import cached_numeric
from ._shared import ZPair, certify_lt, dp_group_delta, mutual_information, random_finite_pairs
from cbdp_sym import Finite
from cbdp_sym import ParameterError
from cbdp_sym.families import Instance, cached_check, random_finite, softmax
from cbdp_sym.calculus import mp_str, to_mpf
from cbdp_sym.calculus import recording

SEED = "004_f41028c8afd8f9e7.txt"
n_, alpha, eps, rho, beta = sp.symbols("n alpha epsilon rho beta", positive=True)
T_ = sp.Symbol("T", positive=True, integer=True)
MECH = (r"Finite mechanisms on $\{0, 1\}^n$: per-coordinate randomized response (output $\{0, 1\}^n$), independent random "
        r"channels per coordinate, and seeded random tables (a random law on 3 outputs for every input); $I(X; M(X))$ exact; "
        r"$(\xi, \rho)$ valid for every neighbouring pair in both orders, in two splits: the first $\xi = 0$, "
        r"$\rho = \rho^*$; the second $\rho = \rho^*/2$ with the smallest $\xi$.")


def _rows(name, rows, rel, what="", note=""):
    """A bound (or identity) on a declared sample: ``rows`` of ``(at, computed, claimed)``, ``computed REL claimed``."""
    return sample(name, rows, lambda r: Compare(claimed=r[2], computed=r[1], rel=rel, at=r[0]), what=what, note=note)


def _q(s):
    return to_mpf(sp.Rational(s))


# -- finite mechanisms on {0,1}^n ------------------------------------------------------------------------------------
def _rr_product(n, e):
    """Per-coordinate randomized response with parameter e: a law on {0,1}^n for each input."""
    p = sp.exp(sp.Rational(e)) / (1 + sp.exp(sp.Rational(e)))
    laws = []
    outs = list(itertools.product((0, 1), repeat=n))
    for x in itertools.product((0, 1), repeat=n):
        probs = [sp.Mul(*[p if o == xi else 1 - p for o, xi in zip(out, x)]) for out in outs]
        laws.append(Finite(list(range(len(outs))), probs))
    return laws


def _prod_channels(n, seed, m=2):
    rng = random.Random(seed)
    return [(random_finite(rng, m), random_finite(rng, m)) for _ in range(n)]


def _prod_mech(n, seed, m=2):
    """Independent per-coordinate random channels K_i(x_i) (a law on m outputs for each bit): the product law."""
    ch = _prod_channels(n, seed, m)
    outs = list(itertools.product(range(m), repeat=n))
    laws = []
    for x in itertools.product((0, 1), repeat=n):
        probs = [sp.Mul(*[ch[i][x[i]].probs[o] for i, o in enumerate(out)]) for out in outs]
        laws.append(Finite(list(range(len(outs))), probs))
    return laws


def _random_table(n, seed, m=3):
    rng = random.Random(seed)
    return [random_finite(rng, m) for _ in range(2**n)]


def _inputs(n):
    return list(itertools.product((0, 1), repeat=n))


@cached_numeric
def _mech_params(kind, n, arg, dps):
    """``[rho0, xi_half, rho_half]``: rho* with xi = 0 and the (xi, rho*/2) split, over neighbouring inputs, both orders.

    Per-coordinate randomized response: neighbouring inputs differ in one coordinate, the other coordinates' output laws
    are identical and the Rényi divergence of a product is the sum (Lemma 2.2b), so every neighbouring pair has the
    curve of one randomized response pair (symmetric); it is computed once."""
    if kind == "rr":
        p = sp.exp(sp.Rational(arg)) / (1 + sp.exp(sp.Rational(arg)))
        z = ZPair.finite(Finite([0, 1], [p, 1 - p]), Finite([0, 1], [1 - p, p]))
        r0 = z.rho_star()[0]
        return [r0, z.xi_star(r0 / 2), r0 / 2]
    if kind == "prod":  # the same argument per coordinate: the neighbouring pairs are the coordinates' channel pairs
        zs = [ZPair.finite(a, b) for a, b in _prod_channels(int(n), int(arg))] + \
             [ZPair.finite(b, a) for a, b in _prod_channels(int(n), int(arg))]
        r0 = max(z.rho_star()[0] for z in zs)
        return [r0, max(z.xi_star(r0 / 2) for z in zs), r0 / 2]
    laws = _mech(kind, int(n), arg)
    xs = _inputs(int(n))
    idx = {x: i for i, x in enumerate(xs)}
    zs = []
    for x in xs:
        for j in range(int(n)):
            y = list(x)
            y[j] = 1 - y[j]
            zs.append(ZPair.finite(laws[idx[x]], laws[idx[tuple(y)]]))
    r0 = max(z.rho_star()[0] for z in zs)
    return [r0, max(z.xi_star(r0 / 2) for z in zs), r0 / 2]


def _mech(kind, n, arg):
    if kind == "rr":
        return _rr_product(n, arg)
    if kind == "prod":
        return _prod_mech(n, int(arg))
    return _random_table(n, int(arg), m=2 if kind == "rand2" else 3)


def _priors(n, seed):
    rng = random.Random(seed)
    xs = _inputs(n)
    out = [("all entries equal (uniform)", [sp.Rational(1, 2) if len(set(x)) == 1 else 0 for x in xs]),
           ("uniform (independent)", [sp.Rational(1, 2**n)] * 2**n)]
    ps = [sp.Rational(rng.randint(1, 9), 10) for _ in range(n)]
    out.append(("random product (independent)", [sp.Mul(*[p if b else 1 - p for p, b in zip(ps, x)]) for x in xs]))
    w = [rng.randint(1, 50) for _ in xs]
    out.append(("random joint", [sp.Rational(a, sum(w)) for a in w]))
    return out


MECHS = (("rr", 2, "1/2"), ("rr", 3, "1"), ("rand", 2, "7"), ("rand", 2, "8"), ("prod", 3, "9"))
_MECH_NAME = {"rr": "randomized response product", "prod": "random channels per coordinate", "rand": "random table",
              "rand2": "random table"}
_MI_DOMAIN = (r"the 5 finite mechanisms on $\{0, 1\}^n$ ($n \in \{2, 3\}$) and 4 priors each (all entries equal, uniform, "
              r"a random product, a random joint law), both splits of $(\xi, \rho)$")


def _mi_rows(bound_fn, independent_only=False, mechs=MECHS, splits=("first", "second")):
    """``(at, I(X; M(X)), bound)`` for every mechanism, prior (independent entries only, if asked) and split."""
    rows = []
    for kind, n, arg in mechs:
        laws = _mech(kind, n, arg)
        r0, xh, rh = _mech_params(kind, str(n), arg, mp.mp.dps)
        for pname, prior in _priors(n, 100 + n):
            if independent_only and "independent" not in pname:
                continue
            I = mutual_information(prior, laws)
            for tag, x0, r in (("first", mp.mpf(0), r0), ("second", xh, rh)):
                if tag in splits:
                    rows.append(({"mechanism": f"{_MECH_NAME[kind]} {arg}", "n": n, "prior": pname, "split": tag}, I,
                                 bound_fn(n, x0, r)))
    return rows


def _p61_bound(n, x0, r):
    return x0 * n * (1 + mp.log(n)) + r * n**2


def _p61(dps):
    return _rows(_MI_DOMAIN, _mi_rows(_p61_bound), "<=", what=r"$I(X; M(X)) \le \xi n(1 + \log n) + \rho n^2$")


P61 = Claim(id="ZCDP-P6.1", paper="zcdp", label=r"Prop. 6.1: $I(X; M(X)) \le \xi n(1 + \log n) + \rho n^2$", kind="check",
            statement=r"I(X;M(X))\le\xi\cdot n(1+\log n)+\rho\cdot n^2", check=cached_check(_p61),
            where="Sec. 6, Prop. 6.1", seed=SEED, conventions=(MECH,), uses=("ZCDP-P5.3", "ZCDP-L2.2c"),
            notes=r"The proof: group privacy at $\alpha \to 1$ (Prop. 5.3) and $I = \mathbb E_x D_1(M(x)\|M(X))$ with the "
                  "convexity of KL.")


def _l62(dps):
    return _rows(_MI_DOMAIN.replace("4 priors each", "the independent priors"),
                 _mi_rows(lambda n, x0, r: (x0 + r) * n, independent_only=True), "<=",
                 what=r"$I(X; M(X)) \le (\xi + \rho)m$ (independent entries, $m = n$)")


L62 = Claim(id="ZCDP-L6.2", paper="zcdp", label=r"Lemma 6.2: independent entries give $I(X; M(X)) \le (\xi + \rho)m$",
            kind="check", statement=r"I(X;M(X))\le(\xi+\rho)\cdot m", check=cached_check(_l62), where="Sec. 6, Lemma 6.2",
            seed=SEED, conventions=(MECH,), uses=("ZCDP-L2.2c",))


def _t110(dps):
    dom = r"the 5 finite mechanisms on $\{0, 1\}^n$ with $\xi = 0$ ($\rho = \rho^*$)"
    return All(_rows(dom + ", 4 priors each", _mi_rows(lambda n, x0, r: r * n**2, splits=("first",)), "<=",
                     what=r"$I(X; M(X)) \le \rho n^2$"),
               _rows(dom + ", the independent priors", _mi_rows(lambda n, x0, r: r * n, independent_only=True,
                                                                splits=("first",)), "<=",
                     what=r"$I(X; M(X)) \le \rho n$ (independent entries)"),
               what=r"$\rho$-zCDP mechanisms")


T110 = Claim(id="ZCDP-T1.10", paper="zcdp",
             label=r"Thm. 1.10: $I(X; M(X)) \le \rho n^2$, and $\rho n$ for independent entries",
             kind="check", statement=r"I(X;M(X))\le\rho\cdot n^2;\ \text{independent entries: }I(X;M(X))\le\rho\cdot n",
             check=cached_check(_t110), where="Sec. 1.2, Thm. 1.10", seed=SEED, conventions=(MECH,),
             uses=("ZCDP-P6.1", "ZCDP-L6.2"))


def _t63(dps):
    rows = []
    for kind, n, arg in (("rr", 4, "1/2"), ("prod", 4, "11")):
        laws = _mech(kind, n, arg)
        r0, xh, rh = _mech_params(kind, str(n), arg, mp.mp.dps)
        xs = _inputs(n)
        # two independent blocks of size 2, each block uniform over its two "all equal" values or uniform over {0,1}^2
        block_priors = {"blocks of copies": lambda x: sp.Rational(1, 4) if x[0] == x[1] and x[2] == x[3] else 0,
                        "uniform blocks": lambda x: sp.Rational(1, 16)}
        for pname, pf in block_priors.items():
            I = mutual_information([pf(x) for x in xs], laws)
            for tag, x0, r in (("first", mp.mpf(0), r0), ("second", xh, rh)):
                m, l = 2, 2
                rows.append(({"mechanism": f"{_MECH_NAME[kind]} {arg}", "prior": pname, "split": tag}, I,
                             m * (x0 * l * (1 + mp.log(l)) + r * l**2)))
    return _rows(r"two mechanisms on $\{0, 1\}^4$, $m = 2$ blocks of $\ell = 2$ entries, two block priors, both splits", rows,
                 "<=", what=r"$I(X; M(X)) \le m(\xi\ell(1 + \log\ell) + \rho\ell^2)$")


T63 = Claim(id="ZCDP-T6.3", paper="zcdp",
            label=r"Thm. 6.3: independent blocks: $I \le m(\xi\ell(1 + \log\ell) + \rho\ell^2)$", kind="check",
            statement=r"I(X;M(X))\le m\cdot(\xi\cdot\ell(1+\log\ell)+\rho\cdot\ell^2)", check=cached_check(_t63),
            where="Sec. 6, Thm. 6.3", seed=SEED, conventions=(MECH,),
            uses=("ZCDP-P5.3", "ZCDP-L6.2", "ZCDP-L2.2c"))


# -- Section 6.1 -------------------------------------------------------------------------------------------------------
def _s61a(dps):
    d = sp.Symbol("d", positive=True, integer=True)
    sens2 = d / n_**2  # ||xbar - xbar'||_2^2 when one x_i in {0,1}^d changes in every coordinate
    var = d / (2 * n_**2 * rho)
    r = sp.simplify(sens2 / (2 * var))
    with recording():
        record(Tex(r"\sup\lVert\bar x-\bar x'\rVert_2^2"), sens2, "one entry changes every coordinate by $1/n$")
        record(Tex(r"\rho_{\mathrm{mech}}"), r, "eq. (3) with variance $d/2n^2\\rho$")
    c = sp.Symbol("c", positive=True)
    nsol = sp.solve(sp.Eq(n_**2 * rho, c * d), n_)
    # numeric: D_alpha/alpha of the d-dimensional Gaussian at a few (n, d, rho)
    from cbdp_sym import Normal, Product
    from cbdp_sym.mechanisms import renyi_numeric

    zcdp = []
    for nv, dv, rv in ((3, 2, "1/2"), (10, 3, "1/10")):
        s = mp.sqrt(dv / (2 * nv**2 * _q(rv)))
        P = Product(*[Normal(0, s) for _ in range(dv)])
        Q = Product(*[Normal(mp.mpf(1) / nv, s) for _ in range(dv)])
        zcdp.append(Compare(claimed=sp.Rational(rv), computed=renyi_numeric(P, Q, mp.mpf(2)) / 2, rel="<=",
                            at={"n": nv, "d": dv, "rho": rv}))
    return All(Compare(claimed=rho, computed=r, what=r"$\sup\lVert\bar x - \bar x'\rVert_2^2/2\sigma^2 = \rho$ with "
                                                    r"$\sigma^2 = d/2n^2\rho$ (eq. (3))"),
               sample(r"$(n, d, \rho) \in \{(3, 2, 1/2), (10, 3, 1/10)\}$", zcdp, lambda c_: c_,
                      what=r"$D_2/2 \le \rho$ by quadrature of the product law ($\rho$-zCDP at $\alpha = 2$)"),
               Compare(claimed=sp.sqrt(c * d / rho), computed=nsol[0] if len(nsol) == 1 else sp.nan,
                       what=r"$n^2\rho \ge cd$ solves to $n \ge \sqrt{cd/\rho}$ (the lower bound)"),
               what=r"one-way marginals: the per-coordinate standard deviation is $\sqrt{d/2\rho}/n$, so accuracy needs "
                    r"$n \gg \sqrt{d/\rho}$; the [HT10, SU15a, BUV14] results are cited")


S61A = Claim(id="ZCDP-S6.1a", paper="zcdp",
             label=r"Sec. 6.1: one-way marginals, $\mathcal N(0, d/2n^2\rho)$ noise and $n \ge \Omega(\sqrt{d/\rho})$",
             kind="check", statement=r"\mathcal N(0,d/2n^2\rho)\ \text{per coordinate is }\rho\text{-zCDP};\ n\ge\Omega(\sqrt{d/\rho})",
             check=cached_check(_s61a), where="Sec. 6.1, One-Way Marginals", seed=SEED, uses=("ZCDP-L2.5", "ZCDP-P6.1"))


def _hist_prob(T, x):
    """P[max_{t <= T} |N_t| >= x] for T independent standard normals (the noise scaled by sqrt(rho)), without
    cancellation: ``1 - (1 - 2 P[N > x])^T`` as ``-expm1(T log1p(-2 P[N > x]))``."""
    return -mp.expm1(T * mp.log1p(-2 * mp.ncdf(-x)))


_S61B_GRID = [(T, b) for T in (1, 2, 10, 100, 10**4) for b in ("1/2", "1/10", "1/100", "1/1000000")]


def _s61b_rows(corrected=False):
    """``(T, beta, exact probability, union bound T e^{-x^2/2})`` at the threshold ``x = sqrt(c log(T/beta))`` (``c = 1`` as
    printed, ``2`` corrected; the noise is scale free: ``x`` in units of the standard deviation ``1/sqrt(rho)``)."""
    out = []
    for T, b in _S61B_GRID:
        x = mp.sqrt((2 if corrected else 1) * mp.log(T / _q(b)))
        out.append((T, b, _hist_prob(T, x), T * mp.exp(-x**2 / 2)))
    return out


def _s61b_certify(T, b):
    """Arb proof that the exact probability at the printed threshold exceeds beta."""
    xx = sp.sqrt(sp.log(T / sp.Rational(b)))
    return lambda: certify_lt(sp.Rational(b), 1 - (1 - sp.erfc(xx / sp.sqrt(2))) ** T)


def _s61b_table(rows, thr):
    return Table(rf"$\mathbb P[\max_t|\mathrm{{noise}}_t| \ge {thr}]$ (exact) and the union bound "
                 r"$Te^{-\lambda^2\rho/2}$", ["$T$", r"$\beta$", "exact probability", "union bound"],
                 [[str(T), b, mp_str(pr, 8), mp_str(ub, 8)] for T, b, pr, ub in rows])


def _s61b_main(dps, corrected=False):
    r"""Sec. 6.1's histogram paragraph: the mechanism is $\rho$-zCDP, the union bound's tail, the $\epsilon$-DP
    alternative, and the threshold $\sqrt{\log(T/\beta)/\rho}$ as printed (``corrected``: $\sqrt{2\log(T/\beta)/\rho}$)."""
    # sensitivity of the histogram and the Gaussian tail bound used in the union bound
    with recording():
        record(Tex(r"\lVert h(x)-h(x')\rVert_2^2"), sp.Integer(2), "one entry moves from one bin to another")
        record(Tex(r"\rho_{\mathrm{mech}}"), sp.Integer(2) / (2 * (1 / rho)), "eq. (3) with variance $1/\\rho$")
    tail = [Compare(claimed=sp.exp(-sp.Rational(x) ** 2 / 2), computed=2 * mp.ncdf(-_q(x)), rel="<=", at={"x": x})
            for x in ("0", "1/10", "1", "3", "10")]
    # the eps-DP histogram: Laplace(2/eps) per bin, two bins move by one: D_oo of the product = 2 D_oo(one bin)
    from cbdp_sym import Laplace
    from cbdp_sym.mechanisms import renyi_numeric

    lap = [Compare(claimed=sp.Rational(ev), computed=2 * renyi_numeric(Laplace(0, 2 / _q(ev)), Laplace(1, 2 / _q(ev)), mp.inf),
                   at={"eps": ev}) for ev in ("1/10", "1", "3")]
    rows = _s61b_rows(corrected)
    main = [Compare(claimed=sp.Rational(b), computed=pr, rel="<=", at={"T": T, "beta": b},
                    certify=None if corrected else _s61b_certify(T, b)) for T, b, pr, _ub in rows]
    thr = r"\sqrt{2\log(T/\beta)/\rho}" if corrected else r"\sqrt{\log(T/\beta)/\rho}"
    return Evidence(All(
        Compare(claimed=rho, computed=sp.Integer(2) / (2 * (1 / rho)),
                what=r"$\rho$-zCDP: eq. (3) with squared $\ell_2$ sensitivity $2$ and variance $1/\rho$"),
        sample(r"$x \in \{0, 1/10, 1, 3, 10\}$", tail, lambda c: c,
               what=r"the union bound's tail: $2\mathbb P[\mathcal N(0, 1) > x] \le e^{-x^2/2}$"),
        sample(r"$\epsilon \in \{1/10, 1, 3\}$", lap, lambda c: c,
               what=r"the $\epsilon$-DP alternative $h_t(x) + \mathrm{Lap}(2/\epsilon)$: $D_\infty = \epsilon$ (two bins move)"),
        sample(r"$T \in \{1, 2, 10, 100, 10^4\}$, $\beta \in \{1/2, 1/10, 1/100, 10^{-6}\}$", main, lambda c: c,
               what=rf"$\mathbb P[\max_t|M(x)_t - h_t(x)| \ge {thr}] \le \beta$ (exact probability, independent noise)"),
        what=r"histograms with $\mathcal N(0, 1/\rho)$ noise (one entry moves one unit between two bins)"),
        tables=[_s61b_table(rows, thr)])


def _s61b_whole_corrected(dps):
    return _s61b_main(dps, corrected=True)


S61B = Claim(id="ZCDP-S6.1b", paper="zcdp", label=r"Sec. 6.1: histograms with $\mathcal N(0, 1/\rho)$ noise; the tail threshold",
             kind="check",
             statement=r"\mathbb P\left[\max_{t\in[T]}|M(x)_t-h_t(x)|\ge\sqrt{\log(T/\beta)/\rho}\right]\le\beta;\ "
                       r"\rho\text{-zCDP};\ n=\Theta(\sqrt{\log(T)/\rho})",
             check=cached_check(_s61b_main), corrected=cached_check(_s61b_whole_corrected),
             corrected_statement=r"\mathbb P\left[\max_{t\in[T]}|M(x)_t-h_t(x)|\ge\sqrt{2\log(T/\beta)/\rho}\right]\le\beta"
                                 r"\quad\text{(corrected)}",
             where="Sec. 6.1", seed=SEED, uses=("ZCDP-L2.5", "ZCDP-P6.1"),
             conventions=(r"$M(x)_t = h_t(x) + \mathcal N(0, 1/\rho)$ independently; the deviation probability does not depend "
                          r"on $x$ or $\rho$.",),
             notes=r"Substituting $\lambda = \sqrt{\log(T/\beta)/\rho}$ into $Te^{-\lambda^2\rho/2}$ gives $\sqrt{T\beta}$, not "
                   r"$\beta$; the threshold $\sqrt{2\log(T/\beta)/\rho}$ works: the corrected statement (the whole paragraph "
                   r"with that threshold; its threshold alone is ZCDP-S6.1b-CORR). The conclusion $n = \Theta(\sqrt{\log(T)/\rho})$ "
                   r"survives the factor $\sqrt 2$.")


def _s61b_corr(dps):
    rows = _s61b_rows(corrected=True)
    return Evidence(
        sample(r"$T \in \{1, 2, 10, 100, 10^4\}$, $\beta \in \{1/2, 1/10, 1/100, 10^{-6}\}$", rows,
               lambda r: Compare(claimed=sp.Rational(r[1]), computed=r[2], rel="<=", at={"T": r[0], "beta": r[1]}),
               what=r"$\mathbb P[\max_t|M(x)_t - h_t(x)| \ge \sqrt{2\log(T/\beta)/\rho}] \le \beta$ (the union bound gives "
                    r"$Te^{-\log(T/\beta)} = \beta$)"),
        tables=[_s61b_table(rows, r"\sqrt{2\log(T/\beta)/\rho}")])


S61B_CORR = Claim(id="ZCDP-S6.1b-CORR", paper="zcdp", label=r"Sec. 6.1, histograms: the threshold $\sqrt{2\log(T/\beta)/\rho}$",
                  kind="check", statement=r"\mathbb P\left[\max_t|M(x)_t-h_t(x)|\ge\sqrt{2\log(T/\beta)/\rho}\right]\le\beta"
                                          r"\quad\text{(corrected)}",
                  check=cached_check(_s61b_corr), where="Sec. 6.1, Histograms (corrected)", seed=SEED, role="proof",
                  uses=("ZCDP-L2.5",))


def _s61c(dps):
    e = sp.Symbol("epsilon", positive=True)
    p = sp.exp(e) / (sp.exp(e) + 1)
    with recording():
        one = sp.simplify(p * 1 + (1 - p) * (-1))
        record(Tex(r"\mathbb E[x_iM(x)_i]"), one, "agree with probability $e^\\varepsilon/(e^\\varepsilon+1)$")
    # Theta(n eps): tanh(eps/2) is concave on [0, oo), so it lies between eps tanh(1/2) and eps/2 for eps in (0, 1]
    theta = []
    for x in ("1/1000", "1/10", "1/2", "1"):
        theta += [Compare(claimed=_q(x) / 2, computed=mp.tanh(_q(x) / 2), rel="<=", at={"eps": x}),
                  Compare(claimed=_q(x) * mp.tanh(mp.mpf(1) / 2), computed=mp.tanh(_q(x) / 2), rel=">=", at={"eps": x})]
    # sign(N(x_i, v)): randomized response with p = Phi(1/sqrt(v)) (shift 2 between x_i = -1 and 1)
    rows, bit = [], []
    for parse, var in (("variance $\\sqrt2/\\rho$ (the paper's convention)", lambda r: mp.sqrt(2) / r),
                         ("standard deviation $\\sqrt2/\\rho$", lambda r: 2 / r**2),
                         ("variance $2/\\rho$ (the Gaussian itself $\\rho$-zCDP)", lambda r: 2 / r)):
        for r in ("1/1000", "1/10", "1", "4", "10", "100"):
            rv = _q(r)
            pp = mp.ncdf(1 / mp.sqrt(var(rv)))
            rs = ZPair.finite(Finite([0, 1], [pp, 1 - pp]), Finite([0, 1], [1 - pp, pp])).rho_star()[0]
            rows.append([parse, r, mp_str(4 / (2 * var(rv)), 6), mp_str(rs, 8)])
            if "convention" in parse:
                bit.append(Compare(claimed=sp.Rational(r), computed=rs, rel="<=", at={"rho": r}))
    return Evidence(All(
        Compare(claimed=n_ * (sp.exp(e) - 1) / (sp.exp(e) + 1), computed=(n_ * one).rewrite(sp.exp),
                what=r"randomized response: $\mathbb E\langle x, M(x)\rangle = n(e^\epsilon - 1)/(e^\epsilon + 1)$ (the "
                     r"derived $n\tanh(\epsilon/2)$ written with exponentials)"),
        sample(r"$\epsilon \in \{1/1000, 1/10, 1/2, 1\}$", theta, lambda c: c,
               what=r"$= n\tanh(\epsilon/2)$, between $n\epsilon\tanh(1/2)$ and $n\epsilon/2$ for $\epsilon \le 1$ "
                    r"($\Theta(n\epsilon)$)"),
        sample(r"$\rho \in \{1/1000, 1/10, 1, 4, 10, 100\}$", bit, lambda c: c,
               what=r"$\mathrm{sign}(\mathcal N(x_i, \sqrt2/\rho))$ (randomized response with $p = \Phi((\rho/\sqrt2)^{1/2})$) "
                    r"is $\rho$-zCDP: $\rho^*$ of the output bit $\le \rho$"),
        what=r"Sec. 6.1's two mechanisms for one-way marginals"),
        tables=[Table(r"$\mathrm{sign}(\mathcal N(x_i, v))$ with $x_i \in \{-1, 1\}$: the zCDP constant of the output bit",
                      [r"reading of $\sqrt2/\rho$", r"$\rho$", "Gaussian before the sign", r"$\rho^*$ of the bit"], rows,
                      note=r"the second argument of $\mathcal N$ is a variance (the paper's convention): then the Gaussian "
                           r"before the sign is only $\sqrt2\rho$-zCDP, but the bit is $\rho$-zCDP; the other rows are shown "
                           "for comparison and decide nothing")])


S61C = Claim(id="ZCDP-S6.1c", paper="zcdp", label="Sec. 6.1: randomized response and the sign of a Gaussian", kind="check",
             statement=r"\mathbb E[\langle x,M(x)\rangle]=n(e^\varepsilon-1)/(e^\varepsilon+1)=\Theta(n\varepsilon);\ "
                       r"M(x)_i=\mathrm{sign}(\mathcal N(x_i,\sqrt2/\rho))\ \text{is }\rho\text{-zCDP}",
             check=cached_check(_s61c), where="Sec. 6.1", seed=SEED, uses=("ZCDP-P1.4", "ZCDP-L6.2"),
             notes=r"Randomized response is $\epsilon$-DP and $\epsilon^2/2$-zCDP (ZCDP-P1.4); the lower bound $I \le \rho n$ "
                   r"(Lemma 6.2) with $I \ge \Omega(n)$ [BSU16] is cited.")


def _p64(dps):
    m, l, Tt, a = sp.symbols("m ell T alpha", positive=True)
    with recording():
        lhs = sp.simplify((rho * m * l**2).subs(l, n_ / m).subs(m, 1 / (10 * a)))
        record(Tex(r"\rho m\ell^2"), lhs, "$\\ell = n/m$, $m = 1/10\\alpha$: eq. (7)")
        comb = m * sp.log(Tt) - m * sp.log(m) - sp.log(2) - m * sp.log(Tt) / 5
        printed = sp.Rational(4, 5) * m * sp.log(Tt * m ** sp.Rational(-5, 4)) - sp.log(2)
        record(Tex(r"m\log T-m\log m-\log2-\frac15m\log T"), printed, "the logarithm algebra ($\\log 2 \\le 1$ gives the printed -1)")
        record(Tex(r"\ell-5\alpha n"), 5 * a * n_, "$h_t(X) \\in \\{0\\} \\cup [\\ell, n]$ with $\\ell = 10\\alpha n$: an error below "
               "$5\\alpha n$ keeps $g(M(X)) = f(X)$")
    ell = 10 * a * n_
    return All(
        Compare(claimed=10 * rho * a * n_**2, computed=lhs, what=r"(7): $\rho m\ell^2 = 10\rho\alpha n^2$"),
        Compare(claimed=printed, computed=comb, what=r"the combination equals $\frac45 m\log(Tm^{-5/4}) - \log 2$"),
        Compare(claimed=5 * a * n_, computed=ell - 5 * a * n_,
                what=r"the threshold: $\ell - 5\alpha n = 5\alpha n$ ($= \ell/2$, so errors below $5\alpha n$ keep "
                     r"$g(M(X)) = f(X)$)"),
        Compare(claimed=sp.Rational(1, 5), computed=(a * n_) / (5 * a * n_),
                what=r"Markov: $\mathbb P[\max_t|M(X)_t - h_t(X)| \ge 5\alpha n] \le \alpha n/5\alpha n = 1/5$"),
        sample(r"$\alpha \in \{1/1000, 1/100, 1/10\}$ ($m = 1/10\alpha \ge 1$ forces $\alpha \le 1/10$)",
               ("1/1000", "1/100", "1/10"),
               lambda x: Compare(claimed=sp.Rational(x) ** 2, computed=sp.Rational(x) ** sp.Rational(5, 4), rel=">=",
                                 at={"alpha": x}),
               what=r"$\alpha^{5/4} \ge \alpha^2$, so $\log(\alpha^{5/4}T) \ge \log(\alpha^2T)$"),
        what=r"the proof's algebra: $n \ge \Omega(\sqrt{\log(\alpha^2T)/\rho\alpha^2})$ for $T\alpha^2$ large enough that "
             r"the $-1$ is absorbed")


P64 = Claim(id="ZCDP-P6.4", paper="zcdp",
            label=r"Prop. 6.4: $n \ge \Omega(\sqrt{\log(\alpha^2T)/\rho\alpha^2})$ for accurate histograms",
            kind="check", statement=r"n\ge\Omega\left(\sqrt{\log(\alpha^2T)/\rho\alpha^2}\right)", check=cached_check(_p64),
            where="Sec. 6.1, Prop. 6.4", seed=SEED, uses=("ZCDP-T6.3", "ZCDP-P6.4-EV8"),
            notes=r"Event (8) as printed, with $5\alpha$ instead of $5\alpha n$, is ZCDP-P6.4-EV8.")


def _ev8(dps):
    # a rho-zCDP histogram mechanism meeting the hypothesis: T = 2, rho = 1, n = 20, alpha = 1/10 (m = 1, l = 20)
    T, rv, nv, av = 2, mp.mpf(1), 20, mp.mpf(1) / 10
    dens = lambda x: 2 * (2 * mp.ncdf(x) - 1) * 2 * mp.npdf(x)  # noqa: E731  density of max(|N_1|, |N_2|)
    emax = mp.quad(lambda x: x * dens(x), [0, 3, mp.inf]) / mp.sqrt(rv)
    p_printed = mp.erf(5 * av * mp.sqrt(rv) / mp.sqrt(2)) ** T
    p_fixed = mp.erf(5 * av * nv * mp.sqrt(rv) / mp.sqrt(2)) ** T
    cert = lambda: certify_lt((sp.erf(sp.Rational(1, 2) / sp.sqrt(2))) ** 2, sp.Rational(4, 5))  # noqa: E731
    at = {"T": T, "rho": 1, "n": nv, "alpha": "1/10"}
    return Evidence(All(
        Compare(claimed=sp.Rational(2), computed=emax, rel="<=", at=at,
                what=r"the counterexample meets the hypothesis: $\mathbb E\max_t|M(x)_t - h_t(x)| \le \alpha n = 2$"),
        Compare(claimed=sp.Rational(4, 5), computed=p_printed, rel=">=", at=at, certify=cert,
                what=r"event (8) as printed: $\mathbb P[\max_t|M(X)_t - h_t(X)| < 5\alpha] = \mathrm{erf}(1/2\sqrt2)^2 "
                     r"\ge 4/5$"),
        what=r"$M(x)_t = h_t(x) + \mathcal N(0, 1)$ ($1$-zCDP) with $T = 2$, $n = 20$, $\alpha = 1/10$ ($m = 1$, "
             r"$\ell = 20$)"),
        tables=[Table("Event (8) with the printed threshold and with the threshold of $g$",
                      ["threshold", "probability", "needed"],
                      [[r"$5\alpha$ (as printed)", mp_str(p_printed, 8), "$4/5$"],
                       [r"$5\alpha n$ (Markov)", mp_str(p_fixed, 8), "$4/5$"]])])


def _ev8_corr(dps):
    r"""Event (8) with the threshold $5\alpha n$ of $g$: Markov's inequality gives probability at least $4/5$ for every
    mechanism meeting the hypothesis; on the instance of ZCDP-P6.4-EV8 the exact probability."""
    T, nv, av = 2, 20, mp.mpf(1) / 10
    p_fixed = mp.erf(5 * av * nv / mp.sqrt(2)) ** T
    a = sp.Symbol("alpha", positive=True)
    return All(
        Compare(claimed=sp.Rational(1, 5), computed=(a * n_) / (5 * a * n_),
                what=r"Markov: $\mathbb P[\max_t|M(X)_t - h_t(X)| \ge 5\alpha n] \le \alpha n/5\alpha n = 1/5$"),
        Compare(claimed=sp.Rational(4, 5), computed=p_fixed, rel=">=", at={"T": T, "rho": 1, "n": nv, "alpha": "1/10"},
                what=r"on the instance ($M(x)_t = h_t(x) + \mathcal N(0, 1)$, $T = 2$, $n = 20$, $\alpha = 1/10$): "
                     r"$\mathbb P[\max_t|M(X)_t - h_t(X)| < 5\alpha n] = \mathrm{erf}(10/\sqrt2)^2 \ge 4/5$"),
        what=r"event (8) with the threshold $5\alpha n$")


P64_EV8 = Claim(id="ZCDP-P6.4-EV8", error_kind="proof-step", role="proof", paper="zcdp",
                label=r"Proof of Prop. 6.4: event (8) with the threshold $5\alpha$", kind="check",
                statement=r"\max_{t\in[T]}|M(X)_t-h_t(X)|<5\alpha\ \text{holds with probability at least }4/5",
                check=cached_check(_ev8), corrected=cached_check(_ev8_corr),
                corrected_statement=r"\max_{t\in[T]}|M(X)_t-h_t(X)|<5\alpha n\ \text{with probability at least }4/5"
                                    r"\quad\text{(corrected)}",
                where="Sec. 6.1, proof of Prop. 6.4, eq. (8)", seed=SEED,
                notes=r"The threshold of $g$ is $5\alpha n$; with $5\alpha n$ in (8) the Markov step is right.")


# -- Section 7 ---------------------------------------------------------------------------------------------------------
def _t71(dps):
    A_, c, k = sp.symbols("A c k", positive=True)  # A = xi n(1 + log n) + rho n^2; n' = c (4/(eps alpha))(A + 1), c >= 1
    with recording():
        npr = c * 4 / (eps * alpha) * (A_ + 1)
        lhs = sp.simplify(8 / (eps * npr) * (A_ + sp.log(2)))
        record(Tex(r"\frac{8}{\varepsilon n'}(A+\log2)"), lhs, "$n' = c\\cdot\\frac{4}{\\varepsilon\\alpha}(A+1)$, $c \\ge 1$")
        gap = sp.simplify(2 * alpha - lhs)
        record(Tex(r"2\alpha-\frac{8}{\varepsilon n'}(A+\log2)"), sp.factor(gap), "non-negative: $\\log 2 < 1 \\le c$")
        sens = sp.Rational(2) / sp.Symbol("n'", positive=True)
        record(Tex(r"\Delta"), sens, "$\\ell(x,y) = \\lVert y - q(x)\\rVert$ moves by at most $2/n'$ ($\\max\\lVert q\\rVert \\le 1$)")
        record(Tex(r"\frac{2\Delta}{\varepsilon}"), 2 * sens / eps, "the exponential mechanism's scale: the printed $4/(\\varepsilon n')$")
        total = 4 * alpha + 2 * alpha + sp.sqrt(2 * (alpha**2 + alpha**2)) + 2 * alpha
        record(Tex(r"\text{error}"), sp.simplify(total), "$4\\alpha + 2\\alpha + \\sqrt{2(\\xi+\\rho)} + 2\\alpha$ at $\\xi = \\rho = \\alpha^2$")
        # Gaussian remark: n^2 = k/(rho alpha^2) gives n^2 rho/(eps alpha) = k/(alpha^3 eps)
        rem = sp.simplify((n_**2 * rho / (eps * alpha)).subs(n_, sp.sqrt(k / (rho * alpha**2))))
        record(Tex(r"\frac{n^2\rho}{\varepsilon\alpha}"), rem, "with $n = \\sqrt{k/\\rho\\alpha^2}$")
    pts = [(av, cv, ev, al) for av in (0, 1, 100) for cv in (1, 3) for ev, al in (("1", "1/3"), ("1/10", "1/100"))]
    return All(
        sample(r"$A \in \{0, 1, 100\}$, $c \in \{1, 3\}$, $(\epsilon, \alpha) \in \{(1, 1/3), (1/10, 1/100)\}$", pts,
               lambda q: Compare(claimed=0, computed=gap.subs({A_: q[0], c: q[1], eps: sp.Rational(q[2]),
                                                               alpha: sp.Rational(q[3])}), rel=">=",
                                 at={"A": q[0], "c": q[1], "eps": q[2], "alpha": q[3]}),
               what=r"step (vi): $\frac{4}{\epsilon n'}\log|T| \le \frac{8}{\epsilon n'}(A + \log 2) \le 2\alpha$ under the "
                    r"printed bound on $n'$ ($n' = c\frac{4}{\epsilon\alpha}(A + 1)$, $c \ge 1$)"),
        Compare(claimed=10 * alpha, computed=total,
                what=r"the errors $4\alpha + 2\alpha + \sqrt{2(\xi + \rho)} + 2\alpha = 10\alpha$ at $\xi = \rho = \alpha^2$ "
                     r"(the worst case of $\xi, \rho \le \alpha^2$)"),
        Compare(claimed=k / (alpha**3 * eps), computed=rem,
                what=r"the Gaussian remark: $n^2\rho/\epsilon\alpha = k/\alpha^3\epsilon$ with $n = \sqrt{k/\rho\alpha^2}$"),
        what="the proof's arithmetic (the loss has sensitivity $2/n'$, hence the scale $4/\\epsilon n'$)")


T71 = Claim(id="ZCDP-T7.1", paper="zcdp",
            label=r"Thm. 7.1: a pure DP mechanism from a zCDP one, $n' \ge \frac{4}{\epsilon\alpha}(\dots)$", kind="check",
            statement=r"n'\ge\frac{4}{\varepsilon\alpha}(\rho n^2+\xi n(1+\log n)+1)\Rightarrow\exists\,\varepsilon\text{-DP }M'"
                      r"\text{ with error }10\alpha",
            check=cached_check(_t71), where="Sec. 7, Thm. 7.1 and the remarks after it", seed=SEED,
            uses=("ZCDP-L7.2", "ZCDP-L7.3", "ZCDP-L7.4", "ZCDP-L7.5"),
            notes="The existence statement is not executable; its proof's arithmetic and the lemmas it uses (Lemmas 7.2 to "
                  "7.5, audited separately) are.")


def _t111_req():
    xi_ = sp.Integer(0)
    req = 4 / (eps * alpha) * (rho * n_**2 + xi_ * n_ * (1 + sp.log(n_)) + 1)
    val = sp.expand(req.subs({eps: alpha, rho: alpha**2}))
    record(Tex(r"\frac{4}{\varepsilon\alpha}(\rho n^2+1)"), val, "Thm. 7.1's hypothesis at $\\xi = 0$, $\\varepsilon = \\alpha$, "
           "$\\rho = \\alpha^2$")
    return val


def _t111_claimed():
    return 5 * n_**2


def _t111_corrected():
    return 8 * n_**2


def _t111_numeric(v):
    """Thm. 7.1's printed hypothesis (4/(eps alpha))(rho n^2 + xi n(1 + log n) + 1) at xi = 0, eps = alpha, rho = alpha^2."""
    a, n = to_mpf(v["alpha"]), to_mpf(v["n"])
    e, r, x = a, a**2, mp.mpf(0)
    return 4 / (e * a) * (r * n**2 + x * n * (1 + mp.log(n)) + 1)


def _t111_check(pt):
    if pt["alpha"] < sp.Rational(1, pt["n"]):
        raise ParameterError("Thm. 1.11 assumes alpha >= 1/n")


T111_HYP = Claim(
    id="ZCDP-T1.11-HYP", error_kind="proof-step", role="proof", paper="zcdp", uses=("ZCDP-T7.1",),
    label=r"Thm. 1.11 from Thm. 7.1: does $n' = 5n^2$ meet Thm. 7.1's hypothesis for $\alpha \ge 1/n$?",
    kind="upper", statement=r"\frac{4}{\varepsilon\alpha}(\rho n^2+1)\big|_{\varepsilon=\alpha,\rho=\alpha^2}\le n'=5n^2\ \text{for all}\ \alpha\ge1/n",
    quantity=r"\frac{4}{\varepsilon\alpha}(\rho n^2+1)", params=[Param.positive_int("n", n_), Param.positive("alpha", alpha)],
    constraint=_t111_check,
    sweep=[{"n": nv, "alpha": av} for nv, av in (("1", "1"), ("10", "1/10"), ("10", "1/5"), ("10", "1"), ("100", "1/100"),
                                                  ("100", "1/20"), ("3", "1/2"))],
    derive=_t111_req, claimed=_t111_claimed, numeric=_t111_numeric, corrected=_t111_corrected,
    corrected_statement=r"n'=8n^2\ \text{(meets the hypothesis for every }\alpha\ge1/n\text{)}",
    where="Sec. 1.3, Thm. 1.11 (as an instance of Thm. 7.1)", seed=SEED,
    notes=r"$4n^2 + 4/\alpha^2 \le 5n^2$ iff $\alpha \ge 2/n$; at $\alpha = 1/n$ the hypothesis needs $8n^2$.")


def _t111(dps):
    nprime = printed_or_corrected(T111_HYP)  # n' = 5n^2 as printed, 8n^2 while re-audited against the correction
    pts = [(nv, av) for nv in (1, 10, 100) for av in sorted({sp.Rational(1, nv), sp.Rational(3, 2 * nv), sp.Rational(2, nv),
                                                              sp.Rational(1, 2), sp.Integer(1)}) if av >= sp.Rational(1, nv)]
    witness = sample(r"$n \in \{1, 10, 100\}$, $\alpha \in \{1/n, 3/2n, 2/n, 1/2, 1\}$ with $\alpha \ge 1/n$", pts,
                     lambda q: Compare(claimed=nprime.subs(n_, q[0]), computed=4 * q[0] ** 2 + 4 / q[1] ** 2, rel="<=",
                                       at={"n": q[0], "alpha": q[1]}),
                     what=r"Thm. 7.1 at $\xi = 0$, $\rho = \alpha^2$, $\epsilon = \alpha$ (the $\ell_\infty$ norm, "
                          rf"$\lVert q\rVert \le 1$) gives $M'$ when $n' = {sp.latex(nprime)} \ge 4n^2 + 4/\alpha^2$")
    return Exists(witness, what=r"an existence statement, proved as an instance of Thm. 7.1 (ZCDP-T1.11-HYP)")


T111 = Claim(id="ZCDP-T1.11", paper="zcdp",
             label=r"Thm. 1.11: $\rho$-zCDP with error $\alpha$ gives $\epsilon$-DP with $n' = 5n^2$ and error $10\alpha$",
             kind="check", statement=r"n'=5n^2,\ \varepsilon=\alpha,\ \rho=\alpha^2,\ \alpha\ge1/n:\ \exists\,\varepsilon\text{-DP }M'"
                                     r"\text{ with }\mathbb E\lVert M'(x)-q(x)\rVert_\infty\le10\alpha",
             check=cached_check(_t111), where="Sec. 1.3, Thm. 1.11", seed=SEED, uses=("ZCDP-T7.1", "ZCDP-T1.11-HYP"),
             notes=r"The existence of $M'$ is shown only through Thm. 7.1, whose hypothesis $n' = 5n^2$ meets for "
                   r"$\alpha \ge 2/n$ only; with $n' = 8n^2$ (or $\alpha \ge 2/n$) the theorem follows from Thm. 7.1 (clipping "
                   r"$M'$ to $[0, 1]^k$ does not increase the $\ell_\infty$ error).")


def _l72(dps):
    rng = random.Random(72)
    net, pack, spaces = [], [], []
    for i in range(8):
        pts = [(sp.Rational(rng.randint(0, 100), 10), sp.Rational(rng.randint(0, 100), 10)) for _ in range(rng.randint(5, 25))]
        a = sp.Rational(rng.randint(5, 40), 10)
        dist2 = lambda p, q: (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2  # noqa: E731  (squared Euclidean distance, exact)
        A, T = list(pts), []
        while A:
            y = A[0]
            T.append(y)
            A = [z for z in A if dist2(z, y) > a**2]
        net += [Compare(claimed=a**2, computed=min(dist2(z, y) for y in T), rel="<=", at={"space": f"#{i}", "point": j})
                for j, z in enumerate(pts)]
        pack += [Compare(claimed=a**2, computed=dist2(y, z), rel=">", at={"space": f"#{i}", "pair": f"{j}, {k}"})
                 for (j, y), (k, z) in itertools.combinations(enumerate(T), 2)]
        spaces.append([f"#{i}", str(len(pts)), str(a), str(len(T))])
    dom = r"8 seeded random finite subsets of the plane (exact rational coordinates, Euclidean metric)"
    return Evidence(All(
        sample(dom, net, lambda c: c, what=r"the greedy $T$ is a net: every point is within $\alpha$ of $T$"),
        sample(dom, pack, lambda c: c, what=r"the greedy $T$ is a packing: $d(y, y') > \alpha$ on $T$"),
        what="squared distances, exact"),
        tables=[Table("The random spaces of Lemma 7.2", ["space", "points", r"$\alpha$", r"$|T|$"], spaces)])


L72 = Claim(id="ZCDP-L7.2", paper="zcdp", label="Lemma 7.2: a set that is both a net and a packing", kind="check",
            statement=r"\exists T\subset\mathcal Y:\ \text{net at }\alpha\ \text{and packing}\ d(y,y')>\alpha",
            check=cached_check(_l72), where="Sec. 7, Lemma 7.2", seed=SEED,
            notes="The proof's greedy procedure is run and its output checked.")


def _l73(dps):
    rng = random.Random(73)
    priv, tail, expct = [], [], []
    for i in range(8):
        k = rng.randint(2, 6)
        Dl = sp.Rational(rng.randint(1, 20), 10)
        l0 = [sp.Rational(rng.randint(0, 100), 10) for _ in range(k)]
        l1 = [x + Dl * sp.Rational(rng.randint(-10, 10), 10) for x in l0]
        for e in ("1/10", "1", "5"):
            ev = _q(e)
            w = [[mp.exp(-to_mpf(x) * ev / (2 * to_mpf(Dl))) for x in L] for L in (l0, l1)]
            P = [x / mp.fsum(w[0]) for x in w[0]]
            Q = [x / mp.fsum(w[1]) for x in w[1]]
            dinf = max(max(mp.log(p / q), mp.log(q / p)) for p, q in zip(P, Q))
            priv.append(({"table": f"#{i}", "k": k, "eps": e}, dinf, sp.Rational(e)))
            lo = min(to_mpf(x) for x in l0)
            for b in ("1/10", "1/2"):
                thr = lo + 2 * to_mpf(Dl) / ev * mp.log(k / _q(b))
                pr = mp.fsum(p for p, x in zip(P, l0) if to_mpf(x) > thr)
                tail.append(({"table": f"#{i}", "eps": e, "beta": b}, pr, sp.Rational(b)))
            el = mp.fsum(p * to_mpf(x) for p, x in zip(P, l0))
            expct.append(({"table": f"#{i}", "eps": e}, el, lo + 2 * to_mpf(Dl) / ev * mp.log(k)))
    dom = r"8 seeded random loss tables (neighbours differ by at most $\Delta$), $\epsilon \in \{1/10, 1, 5\}$"
    return All(_rows(dom, priv, "<=", what=r"$\epsilon$-DP: $D_\infty \le \epsilon$ in both orders"),
               _rows(dom, tail, "<=", what=r"$\mathbb P[\ell > \min\ell + \frac{2\Delta}{\epsilon}\log(|T|/\beta)] \le \beta$"),
               _rows(dom, expct, "<=", what=r"$\mathbb E\ell \le \min\ell + \frac{2\Delta}{\epsilon}\log|T|$"),
               what=r"the Gibbs mechanism $e^{-\ell\epsilon/2\Delta}$")


L73 = Claim(id="ZCDP-L7.3", paper="zcdp", label="Lemma 7.3: the exponential mechanism (privacy, tail, expectation)",
            kind="check",
            statement=r"\mathbb P[\ell\le\min\ell+\tfrac{2\Delta}\varepsilon\log(|T|/\beta)]\ge1-\beta;\ \mathbb E\ell\le\min\ell+"
                      r"\tfrac{2\Delta}\varepsilon\log|T|",
            check=cached_check(_l73), where="Sec. 7, Lemma 7.3 (cited [MT07, BLR13])", seed=SEED)


def _l74(dps):
    rng = random.Random(74)
    rows = []
    for i in range(10):
        k, m = rng.randint(2, 5), rng.randint(2, 6)
        laws = [random_finite(rng, m) for _ in range(k)]
        pr = [[to_mpf(p) for p in L.probs] for L in laws]
        dec = [max(range(k), key=lambda y: pr[y][j]) for j in range(m)]
        beta_ = max(mp.fsum(pr[y][j] for j in range(m) if dec[j] != y) for y in range(k))
        I = mutual_information([sp.Rational(1, k)] * k, laws)
        rows.append(({"channel": f"#{i}", "T": k, "outputs": m}, I, (1 - beta_) * mp.log(k) - mp.log(2)))
    return _rows(r"10 seeded random channels with MAP decoding ($Y$ uniform on $T$, $\beta$ the worst-case decoding error)",
                 rows, ">=", what=r"Fano: $I(Y; Z) \ge (1 - \beta)\log|T| - \log 2$")


L74 = Claim(id="ZCDP-L7.4", paper="zcdp",
            label=r"Lemma 7.4: packing lower bound $(1 - \beta)\log|T| - \log 2 \le \xi n(1 + \log n) + \rho n^2$",
            kind="check", statement=r"(1-\beta)\log|T|-\log2\le\xi\cdot n(1+\log n)+\rho\cdot n^2", check=cached_check(_l74),
            where="Sec. 7, Lemma 7.4", seed=SEED, uses=("ZCDP-P6.1", "ZCDP-L2.2d"),
            notes=r"The Fano step is checked on random channels; combined with Prop. 6.1 (ZCDP-P6.1) and data processing it "
                  r"gives the lemma; at $\xi = 0$ solving for $n$ is algebra.")


def _folded(m, s):
    """E|N(m, s^2)| (the folded normal mean)."""
    return s * mp.sqrt(2 / mp.pi) * mp.exp(-m**2 / (2 * s**2)) + m * (1 - 2 * mp.ncdf(-m / s))


def _pc3(dps):
    r1, r2 = [], []
    for nv in (1, 2, 5, 10):
        for sv_ in ("1/20", "1/5", "1"):
            for p_ in ("1/10", "1/2", "9/10"):
                sv, p = _q(sv_), _q(p_)
                a = sv * mp.sqrt(2 / mp.pi)  # max_x E|M(x) - q(x)|
                r = 1 / (2 * nv**2 * sv**2)  # sensitivity 1/n
                binom = [(j, mp.binomial(nv, j) * p**j * (1 - p) ** (nv - j)) for j in range(nv + 1)]
                at = {"n": nv, "sigma": sv_, "p": p_}
                r1.append((at, mp.fsum(w * _folded(mp.mpf(j) / nv - p, sv) for j, w in binom), a + mp.sqrt(2 * r)))
                r2.append((at, mp.fsum(w * abs(mp.mpf(j) / nv - p) for j, w in binom), 2 * a + mp.sqrt(2 * r)))
    dom = r"$n \in \{1, 2, 5, 10\}$, $\sigma \in \{1/20, 1/5, 1\}$, $p \in \{1/10, 1/2, 9/10\}$"
    return All(_rows(dom, r1, "<=", what=r"$\mathbb E|M(x) - q(\mathcal D)| \le \alpha + \sqrt{2(\xi + \rho)}$"),
               _rows(dom, r2, "<=", what=r"$\mathbb E|q(x) - q(\mathcal D)| \le 2\alpha + \sqrt{2(\xi + \rho)}$"),
               what=r"$q(z) = z$ on $\{0, 1\}$, $\mathcal D = \mathrm{Bernoulli}(p)$, $M$ the Gaussian mean of $n$ bits "
                    r"($\rho = 1/2n^2\sigma^2$, $\alpha = \sigma\sqrt{2/\pi}$)")


PC3 = Claim(id="ZCDP-PC.3", paper="zcdp", label="Prop. C.3: sampling error of a zCDP mechanism's accuracy", kind="check",
            statement=r"\mathbb E\lVert M(x)-q(\mathcal D)\rVert\le\alpha+\sqrt{2(\xi+\rho)};\ \mathbb E\lVert q(x)-q(\mathcal D)\rVert\le"
                      r"2\alpha+\sqrt{2(\xi+\rho)}",
            check=cached_check(_pc3), where="App. C, Prop. C.3", seed=SEED, uses=("ZCDP-LC.1", "ZCDP-L2.2c", "ZCDP-L2.2d"),
            conventions=(r"$\mathbb E|\mathcal N(m, s^2)|$ by the folded-normal mean; binomial sums over the $n$ bits.",))


def _l75(dps):
    rows = []
    for nv in (1, 2, 5, 10):
        for npr in (3, 7, 100):
            lhs = max(min(abs(sp.Rational(i, nv) - sp.Rational(j, npr)) for i in range(nv + 1)) for j in range(npr + 1))
            for sv in ("1/100", "1/10", "1"):
                s_ = _q(sv)
                rows.append(({"n": nv, "n'": npr, "sigma": sv}, lhs,
                             2 * s_ * mp.sqrt(2 / mp.pi) + mp.sqrt(2 / (2 * nv**2 * s_**2))))
    return _rows(r"the mean of $n$ bits plus $\mathcal N(0, \sigma^2)$: $n \in \{1, 2, 5, 10\}$, $n' \in \{3, 7, 100\}$, "
                 r"$\sigma \in \{1/100, 1/10, 1\}$", rows, "<=",
                 what=r"$\max_x\min_{\hat x}|q(\hat x) - q(x)| \le 2\alpha + \sqrt{2(\xi + \rho)}$ (the left side exact)")


L75 = Claim(id="ZCDP-L7.5", paper="zcdp",
            label=r"Lemma 7.5: inputs of size $n'$ are $2\alpha + \sqrt{2(\xi + \rho)}$ close to inputs of size $n$",
            kind="check", statement=r"\max_{x\in\mathcal X^{n'}}\min_{\hat x\in\mathcal X^n}\lVert q(\hat x)-q(x)\rVert\le2\alpha+\sqrt{2(\xi+\rho)}",
            check=cached_check(_l75), where="Sec. 7, Lemma 7.5 (proof in App. C)", seed=SEED, uses=("ZCDP-PC.3",))


def _lc1(dps):
    rng = random.Random(31)
    rows = []
    for i in range(15):
        k = rng.randint(2, 5)
        pts = sorted({sp.Rational(rng.randint(-10, 10), 10) for _ in range(k)})
        P, Q = random_finite(rng, len(pts)), random_finite(rng, len(pts))
        P, Q = Finite(pts, P.probs), Finite(pts, Q.probs)
        mx = abs(mp.fsum(to_mpf(x) * (to_mpf(p) - to_mpf(q)) for x, p, q in zip(pts, P.probs, Q.probs)))
        rows.append(({"law": f"#{i}"}, mx, mp.sqrt(2 * ZPair.finite(P, Q).renyi(1))))

    def make(y):
        pr, qr = softmax(y[:1]), softmax(y[1:2])
        z = ZPair.finite(Finite([-1, 1], pr), Finite([-1, 1], qr))
        return Instance("search", f"P(1) {mp.nstr(pr[1], 6)}, Q(1) {mp.nstr(qr[1], 6)}",
                        {"q": abs(2 * (pr[1] - qr[1])), "b": mp.sqrt(2 * z.renyi(1))})

    srch = {"name": r"two-point laws on $\{-1, 1\}$", "make": make, "dim": 2, "budget": 60, "dps": 20,
            "starts": [[0.1, -0.1], [2.0, 1.0], [-3.0, 0.5]]}
    return All(_rows("15 seeded random pairs of laws on $[-1, 1]$", rows, "<="),
               bound_evidence("upper", {}, lambda inst: (inst.data["q"], inst.data["b"]), search=srch),
               what=r"$|\mathbb E X - \mathbb E Y| \le \sqrt{2D_1(X\|Y)}$")


LC1 = Claim(id="ZCDP-LC.1", paper="zcdp",
            label=r"Lemma C.1 (Pinsker): $|\mathbb E X - \mathbb E Y| \le \sqrt{2D_1(X\|Y)}$ on $[-1, 1]$", kind="check",
            statement=r"\left|\mathbb E[X]-\mathbb E[Y]\right|\le\sqrt{2D_1(X\Vert Y)}", check=cached_check(_lc1),
            where="App. C, Lemma C.1 (cited [vEH14])", seed=SEED)


def _lc2(dps):
    rng = random.Random(32)
    direct, zc = [], []
    for i, (_lab, z) in enumerate(random_finite_pairs(33, 10)):
        k = len(z.P.probs)
        f = [to_mpf(sp.Rational(rng.randint(-20, 20), 10)) for _ in range(k)]
        P, Q = [to_mpf(p) for p in z.P.probs], [to_mpf(q) for q in z.Q.probs]
        diff = abs(mp.fsum(fi * (p - q) for fi, p, q in zip(f, P, Q)))
        sq = mp.sqrt(mp.fsum(q * fi**2 for fi, q in zip(f, Q)))
        direct.append(({"pair": f"#{i}"}, diff, sq * mp.sqrt(mp.expm1(z.renyi(2)))))
        zr = ZPair.finite(z.Q, z.P)
        r0 = max(z.rho_star()[0], zr.rho_star()[0])
        zc.append(({"pair": f"#{i}"}, diff, sq * mp.sqrt(mp.expm1(2 * r0))))
    dom = r"10 seeded random finite pairs, each with a random $f$ (values in $[-2, 2]$)"
    return All(_rows(dom, direct, "<=", what=r"$|\mathbb E_P f - \mathbb E_Q f| \le \sqrt{\mathbb E_Q f^2}\sqrt{e^{D_2(P\|Q)} - 1}$"),
               _rows(dom, zc, "<=", what=r"the zCDP corollary: $\le \sqrt{\mathbb E_Q f^2}\sqrt{e^{2\rho} - 1}$ "
                                         r"($\rho = \rho^*$ of both orders)"))


LC2 = Claim(id="ZCDP-LC.2", paper="zcdp",
            label=r"Lemma C.2: $|\mathbb E_P f - \mathbb E_Q f| \le \sqrt{\mathbb E_Q f^2}\sqrt{e^{D_2(P\|Q)} - 1}$",
            kind="check",
            statement=r"\left|\mathbb E_P f-\mathbb E_Q f\right|\le\sqrt{\mathbb E_Q[f^2]}\cdot\sqrt{e^{D_2(P\|Q)}-1}",
            check=cached_check(_lc2), where="App. C, Lemma C.2", seed=SEED)


# -- Lemma 8.2 ---------------------------------------------------------------------------------------------------------
def _with_bad(P, Q, d0):
    """(1 - d0) P + d0 (a point of its own) and (1 - d0) Q + d0 (another point): delta-approximate pair."""
    k = len(P.probs)
    Pp = Finite(list(range(k + 2)), [(1 - d0) * p for p in P.probs] + [d0, 0])
    Qp = Finite(list(range(k + 2)), [(1 - d0) * q for q in Q.probs] + [0, d0])
    return Pp, Qp


def _l82(dps):
    from cbdp_sym.families import joint_adaptive

    rng = random.Random(82)
    divs, events = [], []
    for i in range(6):
        k, m = rng.choice((2, 3)), rng.choice((2, 3))
        PE, QE = random_finite(rng, k), random_finite(rng, k)
        condP = [random_finite(rng, m) for _ in range(k)]
        condQ = [random_finite(rng, m) for _ in range(k)]
        d1, d2 = sp.Rational(rng.randint(1, 20), 100), sp.Rational(rng.randint(1, 20), 100)
        r1 = max(ZPair.finite(PE, QE).rho_star()[0], ZPair.finite(QE, PE).rho_star()[0])
        r2 = max(max(ZPair.finite(a, b).rho_star()[0], ZPair.finite(b, a).rho_star()[0]) for a, b in zip(condP, condQ))
        # full laws: stage 1 with a bad point, stage 2 (for good y) with a bad point each
        P1, Q1 = _with_bad(PE, QE, d1)
        c2P = [_with_bad(a, b, d2)[0] for a, b in zip(condP, condQ)] + [Finite(list(range(m + 2)), [1] + [0] * (m + 1))] * 2
        c2Q = [_with_bad(a, b, d2)[1] for a, b in zip(condP, condQ)] + [Finite(list(range(m + 2)), [1] + [0] * (m + 1))] * 2
        J, K = joint_adaptive(P1, c2P), joint_adaptive(Q1, c2Q)
        # events: good first stage and good second stage (their probabilities exact: rational sums)
        good = [a * (m + 2) + b for a in range(k) for b in range(m)]
        pE = sp.Add(*[J.probs[j] for j in good])
        qE = sp.Add(*[K.probs[j] for j in good])
        events.append(({"composition": f"#{i}"}, min(pE, qE), 1 - (d1 + d2 - d1 * d2)))
        JP = Finite(list(range(len(good))), [J.probs[j] / pE for j in good])
        KQ = Finite(list(range(len(good))), [K.probs[j] / qE for j in good])
        for a in ("1001/1000", "2", "10"):
            av = _q(a)
            divs.append(({"composition": f"#{i}", "alpha": a},
                         max(ZPair.finite(JP, KQ).renyi(av), ZPair.finite(KQ, JP).renyi(av)), (r1 + r2) * av))
    dom = "6 seeded random two-stage compositions"
    return All(_rows(dom + r", $\alpha \in \{1.001, 2, 10\}$", divs, "<=",
                     what=r"the conditional divergences $\le (\rho + \rho')\alpha$ (both orders)"),
               _rows(dom, events, ">=", what=r"$\mathbb P[E''] \ge 1 - (\delta + \delta' - \delta\delta')$ (exact)"))


L82 = Claim(id="ZCDP-L8.2", paper="zcdp",
            label=r"Lemma 8.2: composition of approximate zCDP ($\delta + \delta' - \delta\delta'$)",
            kind="check", statement=r"(\delta+\delta'-\delta\delta')\text{-approximate }(\xi+\xi',\rho+\rho')\text{-zCDP}",
            check=cached_check(_l82), where="Sec. 8, Lemma 8.2", seed=SEED,
            notes=r"Instances: each stage is a zCDP pair (both orders) mixed with a bad outcome of mass $\delta$ (outside the "
                  r"other law's support); the event of the composition is that both stages are good.")


# -- Section 1.2.5 and footnote 2 ----------------------------------------------------------------------------------------
_S125_GRID = (("1", 3), ("1", 6), ("1", 12), ("1/10", 6), ("1/10", 12), ("1/10", 30))  # (eps, -log10 delta)


def _s125(dps):
    e, d = sp.symbols("epsilon delta", positive=True)
    k = sp.Symbol("k", positive=True, integer=True)
    with recording():
        _ke, dk = dp_group_delta(e, d, k)
    rows, first = [], []
    for ev, j in _S125_GRID:
        evm, dvm = _q(ev), mp.mpf(10) ** -j
        kstar = int(mp.ceil(mp.log1p(mp.expm1(evm) / dvm) / evm))  # the smallest k with delta_k >= 1
        delta_k = lambda kk: dvm * mp.expm1(kk * evm) / mp.expm1(evm)  # noqa: E731
        at = {"eps": ev, "delta": f"1e-{j}"}
        first += [Compare(claimed=1, computed=delta_k(kstar), rel=">=", at=dict(at, k=kstar)),
                  Compare(claimed=1, computed=delta_k(kstar - 1), rel="<", at=dict(at, k=kstar - 1))]
        ref = mp.log(1 / dvm) / evm
        rows.append([ev, f"$10^{{-{j}}}$", str(kstar), mp_str(ref, 6), mp_str(kstar / ref, 5)])
    ratio = sp.log(1 + (sp.exp(e) - 1) / d) / sp.log(1 / d)
    with recording():
        lim = sp.limit(ratio, d, 0, "+")
    return Evidence(All(
        Compare(claimed=d * (sp.exp(k * e) - 1) / (sp.exp(e) - 1), computed=dk,
                what=r"iterating $(\epsilon, \delta)$-DP along $k$ neighbours gives $(k\epsilon, \delta_k)$-DP with "
                     r"$\delta_k = \delta(e^{k\epsilon} - 1)/(e^\epsilon - 1)$ (a geometric sum)"),
        sample(r"$(\epsilon, \delta) \in \{1\} \times \{10^{-3}, 10^{-6}, 10^{-12}\} \cup \{1/10\} \times \{10^{-6}, 10^{-12}, "
               r"10^{-30}\}$", first, lambda c: c,
               what=r"$\delta_k$ reaches $1$ (the guarantee is vacuous) first at $k^* = \lceil\log(1 + (e^\epsilon - 1)/"
                    r"\delta)/\epsilon\rceil$"),
        Compare(claimed=1, computed=lim,
                what=r"$k^* = \Theta(\log(1/\delta)/\epsilon)$: $\log(1 + (e^\epsilon - 1)/\delta)/\log(1/\delta) \to 1$ as "
                     r"$\delta \to 0$"),
        what=r"group privacy of $(\epsilon, \delta)$-DP"),
        tables=[Table(r"Group size at which $(\epsilon, \delta)$-DP group privacy becomes vacuous",
                      [r"$\varepsilon$", r"$\delta$", "$k^*$", r"$\log(1/\delta)/\varepsilon$", "ratio"], rows)])


S125 = Claim(id="ZCDP-S1.2.5", paper="zcdp",
             label=r"Sec. 1.2.5: histograms need $n = \Theta(\sqrt{\log k})$; $(\epsilon, \delta)$ group privacy",
             kind="check", statement=r"\text{group privacy of }(\varepsilon,\delta)\text{-DP is vacuous for }k=\Theta(\log(1/\delta)/\varepsilon)",
             check=cached_check(_s125), where="Sec. 1.2.5", seed=SEED, uses=("ZCDP-S6.1b", "ZCDP-P6.4"),
             notes=r"The histogram statement $n = \Theta(\sqrt{\log k})$ is ZCDP-S6.1b and ZCDP-P6.4.")


def _f2(dps):
    s, k = sp.symbols("sigma k", positive=True)
    with recording():
        rq = sp.simplify((1 / n_) ** 2 / (2 * (s / n_) ** 2))
        record(Tex(r"\rho_{\mathrm{query}}"), rq, "sensitivity $1/n$, standard deviation $\\sigma/n$")
    rows, valid, better = [], [], []
    for sv, j, kv in (("10", 6, 10), ("10", 6, 100), ("100", 6, 1000), ("30", 10, 100)):
        svm, dvm = _q(sv), mp.mpf(10) ** -j
        r1 = 1 / (2 * svm**2)
        e1 = r1 + 2 * mp.sqrt(r1 * mp.log(1 / dvm))  # per query, Prop. 1.3
        ez = kv * r1 + 2 * mp.sqrt(kv * r1 * mp.log(1 / dvm))  # k queries through zCDP
        adv = mp.sqrt(2 * kv * mp.log(1 / dvm)) * e1 + kv * e1 * mp.expm1(e1)  # advanced composition (delta' = delta)
        exact = ZPair.normal(svm / mp.sqrt(kv), 1).eps_at(dvm)
        at = {"sigma": sv, "delta": f"1e-{j}", "k": kv}
        valid.append(Compare(claimed=ez, computed=exact, rel="<=", at=at))
        better.append(Compare(claimed=adv, computed=ez, rel="<=", at=at))
        rows.append([sv, f"$10^{{-{j}}}$", str(kv), mp_str(e1, 6), mp_str(ez, 6), mp_str(adv, 6), mp_str(exact, 6)])
    dom = r"$(\sigma, \delta, k) \in \{(10, 10^{-6}, 10), (10, 10^{-6}, 100), (100, 10^{-6}, 1000), (30, 10^{-10}, 100)\}$"
    return Evidence(All(
        Compare(claimed=1 / (2 * s**2), computed=rq, what=r"per query $\rho = 1/2\sigma^2$ (sensitivity $1/n$, standard "
                                                          r"deviation $\sigma/n$)"),
        sample(dom, valid, lambda c: c, what=r"$k$ queries through zCDP (Prop. 1.3): the exact $\epsilon$ of the $k$-fold "
                                            r"Gaussian mechanism $\le k\rho + 2\sqrt{k\rho\log(1/\delta)}$"),
        sample(dom, better, lambda c: c, what=r"the zCDP $\epsilon$ $\le$ the advanced composition of the per-query "
                                             r"guarantee"),
        what=r"footnote 2: $O(\sqrt{k\log(1/\delta)}/\sigma)$ through zCDP against $O(\sqrt k\log(1/\delta)/\sigma)$"),
        tables=[Table(r"Footnote 2: $k$ Gaussian queries, $\epsilon$ at $\delta$",
                      [r"$\sigma$", r"$\delta$", "$k$", "one query", "zCDP (Prop. 1.3)", "advanced composition", "exact"], rows,
                      note=r"advanced composition: $\sqrt{2k\log(1/\delta)}\,\epsilon_0 + k\epsilon_0(e^{\epsilon_0} - 1)$ with "
                           r"the per-query $\epsilon_0$ of Prop. 1.3")])


F2 = Claim(id="ZCDP-F2", paper="zcdp", label="Footnote 2: $k$ Gaussian queries, zCDP against advanced composition",
           kind="check",
           statement=r"(O(\sqrt k\log(1/\delta)/\sigma),(k+1)\delta)\ \text{vs}\ (O(\sqrt{k\log(1/\delta)}/\sigma),\delta)",
           check=cached_check(_f2), where="Footnote 2", seed=SEED, uses=("ZCDP-P1.3", "ZCDP-P1.6", "ZCDP-L1.7"))
