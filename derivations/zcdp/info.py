"""Bun-Steinke: information-theoretic lower bounds and applications (Thm. 1.10, Prop. 6.1, Lemma 6.2, Thm. 6.3, Sec. 6.1,
Prop. 6.4), pure DP from zCDP (Thm. 7.1, Thm. 1.11, Lemmas 7.2-7.5, App. C), approximate zCDP composition (Lemma 8.2),
and the text claims of Secs. 1.2.5 and footnote 2.

Mutual informations are exact sums over finite mechanisms ``M : {0, 1}^n -> finite outputs`` (:func:`mutual_information`);
the zCDP parameters of a mechanism are the largest ``rho* = sup_alpha D_alpha/alpha`` over neighbouring inputs in both
orders (``xi = 0``), or ``rho*/2`` with the smallest ``xi``.
"""
import itertools
import random

import mpmath as mp
import sympy as sp

from cbdp_sym import CheckResult
from cbdp_sym import Claim, Param, Tex, record
from cbdp_sym import cached_numeric
from cbdp_sym import ZPair, certify_lt, dp_group_delta, merge_checks, mutual_information, random_finite_pairs
from cbdp_sym import Finite
from cbdp_sym import ParameterError
from cbdp_sym import Instance, bound_check, cached_check, random_finite, softmax
from cbdp_sym import digits, mp_str, to_mpf
from cbdp_sym import recording
from cbdp_sym import Check

SEED = "004_f41028c8afd8f9e7.txt"
n_, alpha, eps, rho, beta = sp.symbols("n alpha epsilon rho beta", positive=True)
T_ = sp.Symbol("T", positive=True, integer=True)
MECH = ("finite mechanisms on {0, 1}^n: per-coordinate randomized response (output {0, 1}^n), independent random channels per "
        "coordinate, and seeded random tables (a random law on 3 outputs for every input); I(X; M(X)) exact; (xi, rho) valid "
        "for every neighbouring pair in both orders")


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
    out = [("X_i all equal (uniform)", [sp.Rational(1, 2) if len(set(x)) == 1 else 0 for x in xs]),
           ("uniform (independent)", [sp.Rational(1, 2**n)] * 2**n)]
    ps = [sp.Rational(rng.randint(1, 9), 10) for _ in range(n)]
    out.append(("random product prior (independent)", [sp.Mul(*[p if b else 1 - p for p, b in zip(ps, x)]) for x in xs]))
    w = [rng.randint(1, 50) for _ in xs]
    out.append(("random joint prior", [sp.Rational(a, sum(w)) for a in w]))
    return out


MECHS = (("rr", 2, "1/2"), ("rr", 3, "1"), ("rand", 2, "7"), ("rand", 2, "8"), ("prod", 3, "9"))


def _mi_check(dps, bound_fn, what, independent_only=False, mechs=MECHS):
    fams = {}
    for kind, n, arg in mechs:
        laws = _mech(kind, n, arg)
        r0, xh, rh = _mech_params(kind, str(n), arg, mp.mp.dps)
        for pname, prior in _priors(n, 100 + n):
            if independent_only and "independent" not in pname:
                continue
            I = mutual_information(prior, laws)
            for tag, x0, r in (("xi = 0", mp.mpf(0), r0), ("rho halved", xh, rh)):
                fams.setdefault(f"{ {'rr': 'RR product', 'prod': 'random channels per coordinate'}.get(kind, 'random table')}, "
                                f"n={n}, {arg}", []).append(
                    Instance(kind, f"{kind} n={n} ({arg}), {pname}, {tag}", {"q": I, "b": bound_fn(n, x0, r)}))
    return bound_check("upper", fams, lambda inst: (inst.data["q"], inst.data["b"]), dps, what=what,
                       quantity_name="I(X; M(X))", bound_name="bound")


def _p61_bound(n, x0, r):
    return x0 * n * (1 + mp.log(n)) + r * n**2


def _p61(dps):
    res = _mi_check(dps, _p61_bound, "I(X; M(X)) <= xi n(1 + log n) + rho n^2")
    res.message = ("via group privacy at alpha -> 1 (Prop. 5.3) and I = E_x D_1(M(x) || M(X)) with KL convexity; " + res.message)
    return res


P61 = Claim(id="ZCDP-P6.1", paper="zcdp", label="Prop. 6.1: I(X; M(X)) <= xi n(1 + log n) + rho n^2", kind="check",
            statement=r"I(X;M(X))\le\xi\cdot n(1+\log n)+\rho\cdot n^2", check=cached_check(_p61),
            where="Sec. 6, Prop. 6.1", seed=SEED, conventions=(MECH,))


def _l62(dps):
    return _mi_check(dps, lambda n, x0, r: (x0 + r) * n, "I(X; M(X)) <= (xi + rho) m (independent entries)",
                     independent_only=True)


L62 = Claim(id="ZCDP-L6.2", paper="zcdp", label="Lemma 6.2: independent entries give I(X; M(X)) <= (xi + rho) m", kind="check",
            statement=r"I(X;M(X))\le(\xi+\rho)\cdot m", check=cached_check(_l62), where="Sec. 6, Lemma 6.2", seed=SEED,
            conventions=(MECH,))


def _t110(dps):
    a = _mi_check(dps, lambda n, x0, r: r * n**2 if x0 == 0 else mp.inf, "I <= rho n^2 (xi = 0)")
    b = _mi_check(dps, lambda n, x0, r: r * n if x0 == 0 else mp.inf, "I <= rho n (independent entries)", independent_only=True)
    return merge_checks([a, b], prefix="rho-zCDP mechanisms (the xi = 0 rows; the split rows are vacuous here): ")


T110 = Claim(id="ZCDP-T1.10", paper="zcdp", label="Thm. 1.10: I(X; M(X)) <= rho n^2, and rho n for independent entries",
             kind="check", statement=r"I(X;M(X))\le\rho\cdot n^2;\ \text{independent entries: }I(X;M(X))\le\rho\cdot n",
             check=cached_check(_t110), where="Sec. 1.2, Thm. 1.10", seed=SEED, conventions=(MECH,))


def _t63(dps):
    fams = {}
    for kind, n, arg in (("rr", 4, "1/2"), ("prod", 4, "11")):
        laws = _mech(kind, n, arg)
        r0, xh, rh = _mech_params(kind, str(n), arg, mp.mp.dps)
        xs = _inputs(n)
        # two independent blocks of size 2, each block uniform over its two "all equal" values or uniform over {0,1}^2
        block_priors = {"blocks of copies": lambda x: sp.Rational(1, 4) if x[0] == x[1] and x[2] == x[3] else 0,
                        "uniform blocks": lambda x: sp.Rational(1, 16)}
        for pname, pf in block_priors.items():
            prior = [pf(x) for x in xs]
            I = mutual_information(prior, laws)
            for tag, x0, r in (("xi = 0", mp.mpf(0), r0), ("rho halved", xh, rh)):
                m, l = 2, 2
                b = m * (x0 * l * (1 + mp.log(l)) + r * l**2)
                fams.setdefault(f"{kind} n=4, m=2 blocks of l=2", []).append(
                    Instance(kind, f"{kind} ({arg}), {pname}, {tag}", {"q": I, "b": b}))
    return bound_check("upper", fams, lambda inst: (inst.data["q"], inst.data["b"]), dps,
                       what="I(X; M(X)) <= m(xi l(1 + log l) + rho l^2)", quantity_name="I(X; M(X))", bound_name="bound")


T63 = Claim(id="ZCDP-T6.3", paper="zcdp", label="Thm. 6.3: independent blocks: I <= m(xi l(1 + log l) + rho l^2)", kind="check",
            statement=r"I(X;M(X))\le m\cdot(\xi\cdot\ell(1+\log\ell)+\rho\cdot\ell^2)", check=cached_check(_t63),
            where="Sec. 6, Thm. 6.3", seed=SEED, conventions=(MECH,))


# -- Section 6.1 -------------------------------------------------------------------------------------------------------
def _s61a(dps):
    d = sp.Symbol("d", positive=True, integer=True)
    sens2 = d / n_**2  # ||xbar - xbar'||_2^2 when one x_i in {0,1}^d changes in every coordinate
    var = d / (2 * n_**2 * rho)
    r = sp.simplify(sens2 / (2 * var))
    std = sp.sqrt(var)
    with recording():
        record(Tex(r"\sup\lVert\bar x-\bar x'\rVert_2^2"), sens2, "one entry changes every coordinate by $1/n$")
        record(Tex(r"\rho_{\mathrm{mech}}"), r, "eq. (3) with variance $d/2n^2\\rho$")
    c = sp.Symbol("c", positive=True)
    nsol = sp.solve(sp.Eq(n_**2 * rho, c * d), n_)
    ok = r == rho and nsol and sp.simplify(nsol[0] - sp.sqrt(c * d / rho)) == 0
    # numeric: D_alpha/alpha of the d-dimensional Gaussian at a few (n, d, rho)
    from cbdp_sym import Normal, Product
    from cbdp_sym import renyi_numeric

    checks, worst = [], mp.inf
    for nv, dv, rv in ((3, 2, "1/2"), (10, 3, "1/10")):
        s = mp.sqrt(dv / (2 * nv**2 * _q(rv)))
        P = Product(*[Normal(0, s) for _ in range(dv)])
        Q = Product(*[Normal(mp.mpf(1) / nv, s) for _ in range(dv)])
        val = renyi_numeric(P, Q, mp.mpf(2)) / 2
        dg = digits(val, _q(rv))
        worst = min(worst, dg)
        checks.append(Check({"n": nv, "d": dv, "rho": rv}, claimed=rv, numeric=mp_str(val, dps), digits=float(min(dg, dps + 10))))
    ok = ok and worst >= dps - 5
    return CheckResult.decide(ok,
            (f"sensitivity^2 = d/n^2 and the variance d/(2 n^2 rho) give exactly rho-zCDP (SymPy; D_2/2 by quadrature "
                        f"of the product law equals rho to >= {mp_str(min(worst, dps + 10), 3)} digits); per-coordinate "
                        f"standard deviation {sp.sstr(sp.simplify(std))} = sqrt(d/(2 rho))/n, so accuracy needs n >> sqrt(d/rho); "
                        "n^2 rho >= c d solves to n >= sqrt(c d/rho) (the lower bound); the [HT10, SU15a, BUV14] results are cited"),
            checks=checks)


S61A = Claim(id="ZCDP-S6.1a", paper="zcdp", label="Sec. 6.1: one-way marginals, N(0, d/2n^2 rho) noise and n >= Omega(sqrt(d/rho))",
             kind="check", statement=r"\mathcal N(0,d/2n^2\rho)\ \text{per coordinate is }\rho\text{-zCDP};\ n\ge\Omega(\sqrt{d/\rho})",
             check=cached_check(_s61a), where="Sec. 6.1, One-Way Marginals", seed=SEED)


def _hist_prob(T, x):
    """P[max_{t <= T} |N_t| >= x] for T independent standard normals (the noise scaled by sqrt(rho))."""
    return 1 - (1 - 2 * mp.ncdf(-x)) ** T


def _s61b(dps, corrected=False):
    rows, worst, worst_pt = [], mp.inf, None
    for T in (1, 2, 10, 100, 10**4):
        for b in ("1/2", "1/10", "1/100", "1/1000000"):
            bv = _q(b)
            if bv >= 1:
                continue
            x = mp.sqrt((2 if corrected else 1) * mp.log(T / bv)) if T / bv > 1 else mp.mpf(0)
            pr = _hist_prob(T, x)
            ub = T * mp.exp(-x**2 / 2)
            sl = (bv - pr) / bv
            if sl < worst:
                worst, worst_pt = sl, (T, b, pr)
            rows.append([str(T), b, mp_str(pr, 8), mp_str(ub, 8)])
    cert = None
    if worst < 0:
        T, b, pr = worst_pt
        xx = sp.sqrt(sp.log(T / sp.Rational(b)))
        cert = certify_lt(sp.Rational(b), 1 - (1 - sp.erfc(xx / sp.sqrt(2))) ** T)
    return worst, worst_pt, cert, rows


def _s61b_main(dps):
    # sensitivity of the histogram and the Gaussian tail bound used in the union bound
    with recording():
        record(Tex(r"\lVert h(x)-h(x')\rVert_2^2"), sp.Integer(2), "one entry moves from one bin to another")
        record(Tex(r"\rho_{\mathrm{mech}}"), sp.Integer(2) / (2 * (1 / rho)), "eq. (3) with variance $1/\\rho$")
    tail_ok = all(2 * mp.ncdf(-_q(x)) <= mp.exp(-_q(x) ** 2 / 2) for x in ("0", "1/10", "1", "3", "10"))
    # the eps-DP histogram: Laplace(2/eps) per bin, two bins move by one: D_oo of the product = 2 D_oo(one bin)
    from cbdp_sym import Laplace
    from cbdp_sym import renyi_numeric

    lap = []
    for ev in ("1/10", "1", "3"):
        e_ = _q(ev)
        lap.append((ev, 2 * renyi_numeric(Laplace(0, 2 / e_), Laplace(1, 2 / e_), mp.inf)))
    lap_ok = all(digits(v, _q(e)) >= dps - 5 for e, v in lap)
    worst, pt, cert, rows = _s61b(dps)
    T, b, pr = pt
    status = "refuted" if worst < 0 else "holds"
    return CheckResult(status,
            ("one entry moves one unit between two bins (squared l2 sensitivity 2), so the noise N(0, 1/rho) is rho-zCDP; the union bound "
                        f"T P[|N(0,1/rho)| > lam] <= T e^(-lam^2 rho/2) holds (2 P[N > x] <= e^(-x^2/2) on a grid: "
                        f"{'yes' if tail_ok else 'NO'}); the eps-DP alternative h_t(x) + Laplace(2/eps) has D_oo = "
                        f"{', '.join(mp_str(v, 6) for _e, v in lap)} at eps = {', '.join(e for e, _v in lap)} "
                        f"({'= eps' if lap_ok else 'NOT eps'}); 'in particular P[max_t |M(x)_t - h_t(x)| >= sqrt(log(T/beta)/rho)] "
                        f"<= beta' is false: at T = {T}, beta = {b} the exact probability (independent noise, scale free) is "
                        f"{mp_str(pr, 8)}" + (" (certified)" if cert else "") + "; substituting lam = sqrt(log(T/beta)/rho) "
                        "into T e^(-lam^2 rho/2) gives sqrt(T beta), not beta; the threshold sqrt(2 log(T/beta)/rho) works "
                        "(ZCDP-S6.1b-CORR)"),
            counterexample={"T": str(T), "beta": b, "exact probability": mp_str(pr, dps),
                               "certified": cert is not None, "certificate": cert or "not certified"} if worst < 0 else None,
            checks=[Check({"T": r[0], "beta": r[1]}, claimed=r[1], numeric=r[2]) for r in rows],
            tables=[{"title": "P[max_t |noise_t| >= sqrt(log(T/beta)/rho)] (exact) and the union bound T e^{-lam^2 rho/2}",
                        "columns": ["$T$", "$\\beta$", "exact probability", "union bound"], "rows": rows, "note": ""}])


S61B = Claim(id="ZCDP-S6.1b", paper="zcdp", label="Sec. 6.1: histograms with N(0, 1/rho) noise; the tail threshold", kind="check",
             statement=r"\mathbb P\left[\max_{t\in[T]}|M(x)_t-h_t(x)|\ge\sqrt{\log(T/\beta)/\rho}\right]\le\beta;\ "
                       r"\rho\text{-zCDP};\ n=\Theta(\sqrt{\log(T)/\rho})",
             check=cached_check(_s61b_main), where="Sec. 6.1", seed=SEED,
             conventions=("M(x)_t = h_t(x) + N(0, 1/rho) independently; the deviation probability does not depend on x or rho",))


def _s61b_corr(dps):
    worst, pt, _c, rows = _s61b(dps, corrected=True)
    return CheckResult.decide(worst >= 0,
            (f"with the threshold sqrt(2 log(T/beta)/rho) the exact probability is at most beta on the grid "
                        f"(smallest relative slack {mp_str(worst, 6)} at T = {pt[0]}, beta = {pt[1]}): the union bound gives "
                        "T e^(-log(T/beta)) = beta"),
            checks=[Check({"T": r[0], "beta": r[1]}, claimed=r[1], numeric=r[2]) for r in rows], no="refuted")


S61B_CORR = Claim(id="ZCDP-S6.1b-CORR", paper="zcdp", label="Sec. 6.1, histograms: the threshold sqrt(2 log(T/beta)/rho)",
                  kind="check", statement=r"\mathbb P\left[\max_t|M(x)_t-h_t(x)|\ge\sqrt{2\log(T/\beta)/\rho}\right]\le\beta"
                                          r"\quad\text{(corrected)}",
                  check=cached_check(_s61b_corr), where="Sec. 6.1, Histograms (corrected)", seed=SEED)


def _s61c(dps):
    e = sp.Symbol("epsilon", positive=True)
    p = sp.exp(e) / (sp.exp(e) + 1)
    with recording():
        one = sp.simplify(p * 1 + (1 - p) * (-1))
        record(Tex(r"\mathbb E[x_iM(x)_i]"), one, "agree with probability $e^\\varepsilon/(e^\\varepsilon+1)$")
    total = sp.simplify((n_ * one - n_ * (sp.exp(e) - 1) / (sp.exp(e) + 1)).rewrite(sp.exp))
    # Theta(n eps): tanh(eps/2) is concave on [0, oo), so it lies between eps tanh(1/2) and eps/2 for eps in (0, 1]
    theta = all(mp.tanh(_q(x) / 2) <= _q(x) / 2 and mp.tanh(_q(x) / 2) >= _q(x) * mp.tanh(mp.mpf(1) / 2) * (1 - mp.mpf(10) ** -40)
                for x in ("1/1000", "1/10", "1/2", "1"))
    # sign(N(x_i, v)): randomized response with p = Phi(1/sqrt(v)) (shift 2 between x_i = -1 and 1)
    rows, fails = [], {}
    for reading, var in (("variance sqrt(2)/rho (header convention)", lambda r: mp.sqrt(2) / r),
                         ("standard deviation sqrt(2)/rho", lambda r: 2 / r**2),
                         ("variance 2/rho (what makes the Gaussian itself rho-zCDP)", lambda r: 2 / r)):
        for r in ("1/1000", "1/10", "1", "4", "10", "100"):
            rv = _q(r)
            pp = mp.ncdf(1 / mp.sqrt(var(rv)))
            z = ZPair.finite(Finite([0, 1], [pp, 1 - pp]), Finite([0, 1], [1 - pp, pp]))
            rs = z.rho_star()[0]
            rg = 4 / (2 * var(rv))
            rows.append([reading, r, mp_str(rg, 6), mp_str(rs, 8), "yes" if rs <= rv else "NO"])
            if rs > rv:
                fails.setdefault(reading, (r, rs))
    ok_main = total == 0 and theta and "variance sqrt(2)/rho (header convention)" not in fails
    msg = ("randomized response: E<x, M(x)> = n(e^eps - 1)/(e^eps + 1) (SymPy), = n tanh(eps/2) in [0.46 n eps, n eps/2] for "
           "eps <= 1 (Theta(n eps)); eps-DP and eps^2/2-zCDP (ZCDP-P1.4); sign(N(x_i, sqrt(2)/rho)): with the second argument "
           "a variance (the paper's convention) the Gaussian before the sign is only sqrt(2) rho-zCDP, but the sign output "
           "(randomized response with p = Phi(sqrt(rho/sqrt 2))) is rho-zCDP at every rho on the grid")
    if fails:
        msg += "; read as a standard deviation it fails (" + ", ".join(f"{k}: rho = {v[0]}, rho* = {mp_str(v[1], 6)}"
                                                                    for k, v in fails.items()) + ")"
    msg += "; the lower bound I <= rho n (Lemma 6.2) with I >= Omega(n) [BSU16] is cited"
    return CheckResult.decide(ok_main, msg,
            checks=[Check({"reading": r[0][:24], "rho": r[1]}, claimed=r[1], numeric=r[3]) for r in rows],
            tables=[{"title": "sign(N(x_i, v)) with x_i in {-1, 1}: the zCDP constant of the output bit",
                        "columns": ["reading of $\\sqrt2/\\rho$", "$\\rho$", "Gaussian before the sign", "$\\rho^*$ of the bit",
                                    "$\\le\\rho$"], "rows": rows, "note": ""}], no="refuted")


S61C = Claim(id="ZCDP-S6.1c", paper="zcdp", label="Sec. 6.1: randomized response and the sign of a Gaussian", kind="check",
             statement=r"\mathbb E[\langle x,M(x)\rangle]=n(e^\varepsilon-1)/(e^\varepsilon+1)=\Theta(n\varepsilon);\ "
                       r"M(x)_i=\mathrm{sign}(\mathcal N(x_i,\sqrt2/\rho))\ \text{is }\rho\text{-zCDP}",
             check=cached_check(_s61c), where="Sec. 6.1", seed=SEED)


def _p64(dps):
    m, l, Tt, a = sp.symbols("m ell T alpha", positive=True)
    steps_ok = []
    with recording():
        lhs = sp.simplify((rho * m * l**2).subs(l, n_ / m).subs(m, 1 / (10 * a)))
        record(Tex(r"\rho m\ell^2"), lhs, "$\\ell = n/m$, $m = 1/10\\alpha$: eq. (7)")
        steps_ok.append(sp.simplify(lhs - 10 * rho * a * n_**2) == 0)
        comb = m * sp.log(Tt) - m * sp.log(m) - sp.log(2) - m * sp.log(Tt) / 5
        printed = sp.Rational(4, 5) * m * sp.log(Tt * m ** sp.Rational(-5, 4)) - sp.log(2)
        steps_ok.append(sp.simplify(sp.expand_log(comb - printed, force=True)) == 0)
        record(Tex(r"m\log T-m\log m-\log2-\frac15m\log T"), printed, "the logarithm algebra ($\\log 2 \\le 1$ gives the printed -1)")
        thr_ok = sp.simplify(10 * a * n_ - 5 * a * n_ - 5 * a * n_) == 0
        steps_ok.append(thr_ok)
        record(Tex(r"\ell-5\alpha n"), 5 * a * n_, "$h_t(X) \\in \\{0\\} \\cup [\\ell, n]$ with $\\ell = 10\\alpha n$: an error below "
               "$5\\alpha n$ keeps $g(M(X)) = f(X)$")
    # alpha^{1.25} >= alpha^2 for alpha <= 1 (m = 1/(10 alpha) >= 1 forces alpha <= 1/10)
    mono = all(_q(x) ** mp.mpf("1.25") >= _q(x) ** 2 for x in ("1/1000", "1/100", "1/10"))
    # Markov with the threshold 5 alpha n: P[max >= 5 alpha n] <= alpha n/(5 alpha n) = 1/5
    ok = all(steps_ok) and mono
    return CheckResult.decide(ok,
            ("(7): rho m l^2 = 10 rho alpha n^2 (SymPy); the combination equals (4/5) m log(T m^(-5/4)) - log 2 (SymPy) "
                        ">= ... - 1; the threshold algebra behind f(X) = g(M(X)) needs errors below 5 alpha n (= l/2); Markov "
                        "gives probability >= 4/5 for that event; log(alpha^1.25 T) >= log(alpha^2 T) since alpha <= 1/10, so "
                        "n >= Omega(sqrt(log(alpha^2 T)/(rho alpha^2))) follows (for T alpha^2 large enough that the -1 is "
                        "absorbed). Event (8) as printed, with 5 alpha instead of 5 alpha n, is ZCDP-P6.4-EV8"),
            checks=[Check({"step": s}, claimed="identity", numeric="yes" if o else "NO") for s, o in
                       zip(("(7)", "log algebra", "threshold"), steps_ok)])


P64 = Claim(id="ZCDP-P6.4", paper="zcdp", label="Prop. 6.4: n >= Omega(sqrt(log(alpha^2 T)/rho alpha^2)) for accurate histograms",
            kind="check", statement=r"n\ge\Omega\left(\sqrt{\log(\alpha^2T)/\rho\alpha^2}\right)", check=cached_check(_p64),
            where="Sec. 6.1, Prop. 6.4", seed=SEED)


def _ev8(dps):
    # a rho-zCDP histogram mechanism meeting the hypothesis: T = 2, rho = 1, n = 20, alpha = 1/10 (m = 1, l = 20)
    T, rv, nv, av = 2, mp.mpf(1), 20, mp.mpf(1) / 10
    dens = lambda x: 2 * (2 * mp.ncdf(x) - 1) * 2 * mp.npdf(x)  # noqa: E731  density of max(|N_1|, |N_2|)
    emax = mp.quad(lambda x: x * dens(x), [0, 3, mp.inf]) / mp.sqrt(rv)
    hyp = emax <= av * nv
    p_printed = (2 * mp.ncdf(5 * av * mp.sqrt(rv)) - 1) ** T
    p_fixed = (2 * mp.ncdf(5 * av * nv * mp.sqrt(rv)) - 1) ** T
    cert = certify_lt((sp.erf(sp.Rational(1, 2) / sp.sqrt(2))) ** 2, sp.Rational(4, 5))
    return CheckResult.decide(hyp and p_printed < mp.mpf(4) / 5,
            (f"M(x)_t = h_t(x) + N(0, 1) (rho = 1-zCDP) with T = 2, n = 20, alpha = 1/10 (m = 1, l = 20 integral) meets "
                        f"E max_t |M(x)_t - h_t(x)| = {mp_str(emax, 8)} <= alpha n = 2, but P[max_t |M(X)_t - h_t(X)| < 5 alpha] "
                        f"= erf(1/(2 sqrt 2))^2 = {mp_str(p_printed, 8)} < 4/5" + (" (certified)" if cert else "")
                        + f"; with 5 alpha n the probability is {mp_str(p_fixed, 8)} >= 4/5 (Markov: P[max >= 5 alpha n] <= 1/5)"),
            counterexample={"mechanism": "h_t(x) + N(0, 1), T = 2", "n": "20", "alpha": "1/10", "E max error": mp_str(emax, dps),
                               "P[(8) as printed]": mp_str(p_printed, dps), "certified": cert is not None,
                               "certificate": cert or "not certified"},
            checks=[Check({"event": "< 5 alpha"}, claimed=">= 0.8", numeric=mp_str(p_printed, dps)),
                       Check({"event": "< 5 alpha n"}, claimed=">= 0.8", numeric=mp_str(p_fixed, dps))], yes="refuted")


P64_EV8 = Claim(id="ZCDP-P6.4-EV8", error_kind="proof-step", paper="zcdp", label="Proof of Prop. 6.4: event (8) with the threshold 5 alpha", kind="check",
                statement=r"\max_{t\in[T]}|M(X)_t-h_t(X)|<5\alpha\ \text{holds with probability at least }4/5",
                check=cached_check(_ev8), where="Sec. 6.1, proof of Prop. 6.4, eq. (8)", seed=SEED,
                notes="The threshold of g is 5 alpha n; with 5 alpha n in (8) the Markov step is right.")


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
    ok_gap = all(sp.N(gap.subs({A_: av, c: cv, alpha: sp.Rational(1, 3), eps: 1})) >= 0 for av in (0, 1, 100) for cv in (1, 3))
    ok = ok_gap and sp.simplify(total - 10 * alpha) == 0 and sp.simplify(rem - k / (alpha**3 * eps)) == 0
    return CheckResult.decide(ok,
            ("the proof's arithmetic checks: (4/(eps n')) log|T| <= (8/(eps n'))(A + log 2) <= 2 alpha under the "
                        "printed bound on n' (SymPy, with n' = c (4/(eps alpha))(A + 1), c >= 1); the loss has sensitivity 2/n', "
                        "hence the scale 4/(eps n'); the errors 4 alpha + 2 alpha + sqrt(2(xi + rho)) + 2 alpha = 10 alpha at "
                        "xi = rho = alpha^2 (the worst case of xi, rho <= alpha^2); the Gaussian remark: n^2 rho/(eps alpha) = "
                        "k/(alpha^3 eps) (SymPy); Lemmas 7.2-7.5 are audited separately"),
            checks=[Check({"step": "(vi)"}, claimed="<= 2 alpha", numeric="yes" if ok_gap else "NO"),
                       Check({"step": "error sum"}, claimed="10 alpha", derived=sp.sstr(sp.simplify(total)))], no="refuted")


T71 = Claim(id="ZCDP-T7.1", paper="zcdp", label="Thm. 7.1: a pure DP mechanism from a zCDP one, n' >= (4/eps alpha)(...)", kind="check",
            statement=r"n'\ge\frac{4}{\varepsilon\alpha}(\rho n^2+\xi n(1+\log n)+1)\Rightarrow\exists\,\varepsilon\text{-DP }M'"
                      r"\text{ with error }10\alpha",
            check=cached_check(_t71), where="Sec. 7, Thm. 7.1 and the remarks after it", seed=SEED,
            notes="The existence statement is not executable; its proof's arithmetic and the lemmas it uses are audited.")


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
    id="ZCDP-T1.11-HYP", error_kind="proof-step", paper="zcdp", label="Thm. 1.11 from Thm. 7.1: does n' = 5n^2 meet Thm. 7.1's hypothesis for alpha >= 1/n?",
    kind="upper", statement=r"\frac{4}{\varepsilon\alpha}(\rho n^2+1)\big|_{\varepsilon=\alpha,\rho=\alpha^2}\le n'=5n^2\ \text{for all}\ \alpha\ge1/n",
    quantity=r"\frac{4}{\varepsilon\alpha}(\rho n^2+1)", params=[Param.positive_int("n", n_), Param.positive("alpha", alpha)],
    constraint=_t111_check,
    sweep=[{"n": nv, "alpha": av} for nv, av in (("1", "1"), ("10", "1/10"), ("10", "1/5"), ("10", "1"), ("100", "1/100"),
                                                  ("100", "1/20"), ("3", "1/2"))],
    derive=_t111_req, claimed=_t111_claimed, numeric=_t111_numeric, corrected=_t111_corrected, corrected_statement=r"n'=8n^2\ \text{(meets the hypothesis for every }\alpha\ge1/n)",
    where="Sec. 1.3, Thm. 1.11 (as an instance of Thm. 7.1)", seed=SEED,
    notes="4n^2 + 4/alpha^2 <= 5n^2 iff alpha >= 2/n; at alpha = 1/n the hypothesis needs 8n^2.")


def _t111(dps):
    return CheckResult("inconclusive",
            ("an existence statement, proved as an instance of Thm. 7.1 (xi = 0, rho = alpha^2, eps = alpha, the "
                        "l_inf norm, ||q|| <= 1): that instance needs n' >= 4n^2 + 4/alpha^2, which n' = 5n^2 meets only for "
                        "alpha >= 2/n; for 1/n <= alpha < 2/n the printed n' is not covered by Thm. 7.1 (ZCDP-T1.11-HYP, refuted "
                        "at n = 10, alpha = 1/10: 800 > 500); with n' = 8n^2 (or alpha >= 2/n) the theorem follows from Thm. "
                        "7.1 (clipping M' to [0, 1]^k does not increase the l_inf error)"),
            checks=[])


T111 = Claim(id="ZCDP-T1.11", paper="zcdp", label="Thm. 1.11: rho-zCDP with error alpha gives eps-DP with n' = 5n^2 and error 10 alpha",
             kind="check", statement=r"n'=5n^2,\ \varepsilon=\alpha,\ \rho=\alpha^2,\ \alpha\ge1/n:\ \exists\,\varepsilon\text{-DP }M'"
                                     r"\text{ with }\mathbb E\lVert M'(x)-q(x)\rVert_\infty\le10\alpha",
             check=_t111, where="Sec. 1.3, Thm. 1.11", seed=SEED)


def _l72(dps):
    rng = random.Random(72)
    checks, fails = [], []
    for i in range(8):
        pts = [(sp.Rational(rng.randint(0, 100), 10), sp.Rational(rng.randint(0, 100), 10)) for _ in range(rng.randint(5, 25))]
        a = sp.Rational(rng.randint(5, 40), 10)
        dist = lambda p, q: sp.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2)  # noqa: E731
        A, T = list(pts), []
        while A:
            y = A[0]
            T.append(y)
            A = [z for z in A if dist(z, y) > a]
        net = all(any(dist(z, y) <= a for y in T) for z in pts)
        pack = all(dist(y, z) > a for y, z in itertools.combinations(T, 2))
        if not (net and pack):
            fails.append(i)
        checks.append(Check({"space": f"#{i}: {len(pts)} points", "alpha": str(a)}, claimed="net and packing",
                            numeric=f"|T| = {len(T)}, net {net}, packing {pack}"))
    return CheckResult.decide(not fails,
            f"the greedy procedure gives a net and a packing on 8 random finite subsets of the plane (exact "
                       f"rational coordinates, Euclidean metric){'' if not fails else ': fails at ' + str(fails)}",
            checks=checks, no="refuted")


L72 = Claim(id="ZCDP-L7.2", paper="zcdp", label="Lemma 7.2: a set that is both a net and a packing", kind="check",
            statement=r"\exists T\subset\mathcal Y:\ \text{net at }\alpha\ \text{and packing}\ d(y,y')>\alpha",
            check=_l72, where="Sec. 7, Lemma 7.2", seed=SEED)


def _l73(dps):
    rng = random.Random(73)
    priv, tail, expct = {"random loss tables": []}, {"random loss tables": []}, {"random loss tables": []}
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
            priv["random loss tables"].append(Instance("table", f"#{i} (k={k}), eps={e}", {"q": dinf, "b": ev}))
            lo = min(to_mpf(x) for x in l0)
            for b in ("1/10", "1/2"):
                thr = lo + 2 * to_mpf(Dl) / ev * mp.log(k / _q(b))
                pr = mp.fsum(p for p, x in zip(P, l0) if to_mpf(x) > thr)
                tail["random loss tables"].append(Instance("table", f"#{i}, eps={e}, beta={b}", {"q": pr, "b": _q(b)}))
            el = mp.fsum(p * to_mpf(x) for p, x in zip(P, l0))
            expct["random loss tables"].append(Instance("table", f"#{i}, eps={e}", {"q": el, "b": lo + 2 * to_mpf(Dl) / ev * mp.log(k)}))
    ev_ = lambda inst: (inst.data["q"], inst.data["b"])  # noqa: E731
    return merge_checks([bound_check("upper", priv, ev_, dps, what="eps-DP (D_oo both ways)", quantity_name="D_oo", bound_name="eps"),
                         bound_check("upper", tail, ev_, dps, what="tail", quantity_name="probability", bound_name="beta"),
                         bound_check("upper", expct, ev_, dps, what="expectation", quantity_name="E loss", bound_name="bound")],
                        prefix="the Gibbs mechanism exp(-l eps/2Delta) on random loss tables (neighbours differ by <= Delta): ")


L73 = Claim(id="ZCDP-L7.3", paper="zcdp", label="Lemma 7.3: the exponential mechanism (privacy, tail, expectation)", kind="check",
            statement=r"\mathbb P[\ell\le\min\ell+\tfrac{2\Delta}\varepsilon\log(|T|/\beta)]\ge1-\beta;\ \mathbb E\ell\le\min\ell+"
                      r"\tfrac{2\Delta}\varepsilon\log|T|",
            check=cached_check(_l73), where="Sec. 7, Lemma 7.3 (cited [MT07, BLR13])", seed=SEED)


def _l74(dps):
    rng = random.Random(74)
    fams = {"random channels with MAP decoding": []}
    for i in range(10):
        k, m = rng.randint(2, 5), rng.randint(2, 6)
        laws = [random_finite(rng, m) for _ in range(k)]
        rows = [[to_mpf(p) for p in L.probs] for L in laws]
        dec = [max(range(k), key=lambda y: rows[y][j]) for j in range(m)]
        beta_ = max(mp.fsum(rows[y][j] for j in range(m) if dec[j] != y) for y in range(k))
        I = mutual_information([sp.Rational(1, k)] * k, laws)
        fams["random channels with MAP decoding"].append(Instance("channel", f"#{i} (|T|={k}, {m} outputs)", {
            "q": I, "b": (1 - beta_) * mp.log(k) - mp.log(2)}))
    res = bound_check("lower", fams, lambda inst: (inst.data["q"], inst.data["b"]), dps,
                      what="Fano: I(Y; Z) >= (1 - beta) log|T| - log 2", quantity_name="I(Y; Z)", bound_name="(1-beta)log|T| - log 2")
    res.message = ("the Fano step on random channels (Y uniform on T, beta = worst-case decoding error); combined with Prop. 6.1 "
                      "(ZCDP-P6.1) and data processing it gives the lemma; at xi = 0 solving for n is algebra; " + res.message)
    return res


L74 = Claim(id="ZCDP-L7.4", paper="zcdp", label="Lemma 7.4: packing lower bound (1 - beta) log|T| - log 2 <= xi n(1 + log n) + rho n^2",
            kind="check", statement=r"(1-\beta)\log|T|-\log2\le\xi\cdot n(1+\log n)+\rho\cdot n^2", check=cached_check(_l74),
            where="Sec. 7, Lemma 7.4", seed=SEED)


def _folded(m, s):
    """E|N(m, s^2)| (the folded normal mean)."""
    return s * mp.sqrt(2 / mp.pi) * mp.exp(-m**2 / (2 * s**2)) + m * (1 - 2 * mp.ncdf(-m / s))


def _pc3_instances():
    out = []
    for nv in (1, 2, 5, 10):
        for sv in ("1/20", "1/5", "1"):
            for p in ("1/10", "1/2", "9/10"):
                out.append((nv, _q(sv), _q(p), f"n={nv}, sigma={sv}, p={p}"))
    return out


def _pc3(dps):
    f1, f2 = {"mean of n bits + N(0, sigma^2)": []}, {"mean of n bits + N(0, sigma^2)": []}
    for nv, sv, p, lab in _pc3_instances():
        a = sv * mp.sqrt(2 / mp.pi)  # max_x E|M(x) - q(x)|
        r = 1 / (2 * nv**2 * sv**2)  # sensitivity 1/n
        binom = [(j, mp.binomial(nv, j) * p**j * (1 - p) ** (nv - j)) for j in range(nv + 1)]
        e1 = mp.fsum(w * _folded(mp.mpf(j) / nv - p, sv) for j, w in binom)
        e2 = mp.fsum(w * abs(mp.mpf(j) / nv - p) for j, w in binom)
        f1["mean of n bits + N(0, sigma^2)"].append(Instance("inst", lab, {"q": e1, "b": a + mp.sqrt(2 * r)}))
        f2["mean of n bits + N(0, sigma^2)"].append(Instance("inst", lab, {"q": e2, "b": 2 * a + mp.sqrt(2 * r)}))
    ev_ = lambda inst: (inst.data["q"], inst.data["b"])  # noqa: E731
    return merge_checks([bound_check("upper", f1, ev_, dps, what="E|M(x) - q(D)| <= alpha + sqrt(2(xi + rho))",
                                     quantity_name="E|M(x) - q(D)|", bound_name="bound"),
                         bound_check("upper", f2, ev_, dps, what="E|q(x) - q(D)| <= 2 alpha + sqrt(2(xi + rho))",
                                     quantity_name="E|q(x) - q(D)|", bound_name="bound")],
                        prefix="q(z) = z on {0, 1}, D = Bernoulli(p), M the Gaussian mean (rho = 1/(2 n^2 sigma^2), alpha = "
                               "sigma sqrt(2/pi)): ")


PC3 = Claim(id="ZCDP-PC.3", paper="zcdp", label="Prop. C.3: sampling error of a zCDP mechanism's accuracy", kind="check",
            statement=r"\mathbb E\lVert M(x)-q(\mathcal D)\rVert\le\alpha+\sqrt{2(\xi+\rho)};\ \mathbb E\lVert q(x)-q(\mathcal D)\rVert\le"
                      r"2\alpha+\sqrt{2(\xi+\rho)}",
            check=cached_check(_pc3), where="App. C, Prop. C.3", seed=SEED,
            conventions=("E|N(m, s^2)| by the folded-normal mean; binomial sums over the n bits",))


def _l75(dps):
    fams = {"mean of n bits + N(0, sigma^2)": []}
    for nv in (1, 2, 5, 10):
        for npr in (3, 7, 100):
            lhs = max(min(abs(sp.Rational(i, nv) - sp.Rational(j, npr)) for i in range(nv + 1)) for j in range(npr + 1))
            for sv in ("1/100", "1/10", "1"):
                s = _q(sv)
                fams["mean of n bits + N(0, sigma^2)"].append(Instance("inst", f"n={nv}, n'={npr}, sigma={sv}", {
                    "q": to_mpf(lhs), "b": 2 * s * mp.sqrt(2 / mp.pi) + mp.sqrt(2 / (2 * nv**2 * s**2))}))
    return bound_check("upper", fams, lambda inst: (inst.data["q"], inst.data["b"]), dps,
                       what="max_x min_xhat |q(xhat) - q(x)| <= 2 alpha + sqrt(2(xi + rho))", quantity_name="max min distance",
                       bound_name="bound")


L75 = Claim(id="ZCDP-L7.5", paper="zcdp", label="Lemma 7.5: inputs of size n' are 2 alpha + sqrt(2(xi + rho)) close to inputs of size n",
            kind="check", statement=r"\max_{x\in\mathcal X^{n'}}\min_{\hat x\in\mathcal X^n}\lVert q(\hat x)-q(x)\rVert\le2\alpha+\sqrt{2(\xi+\rho)}",
            check=cached_check(_l75), where="Sec. 7, Lemma 7.5 (proof in App. C)", seed=SEED)


def _lc1(dps):
    rng = random.Random(31)
    fams = {"random laws on [-1, 1]": []}
    for i in range(15):
        k = rng.randint(2, 5)
        pts = sorted({sp.Rational(rng.randint(-10, 10), 10) for _ in range(k)})
        P, Q = random_finite(rng, len(pts)), random_finite(rng, len(pts))
        P, Q = Finite(pts, P.probs), Finite(pts, Q.probs)
        mx = abs(mp.fsum(to_mpf(x) * (to_mpf(p) - to_mpf(q)) for x, p, q in zip(pts, P.probs, Q.probs)))
        fams["random laws on [-1, 1]"].append(Instance("law", f"#{i}", {"q": mx, "b": mp.sqrt(2 * ZPair.finite(P, Q).renyi(1))}))

    def make(y):
        pr, qr = softmax(y[:1]), softmax(y[1:2])
        z = ZPair.finite(Finite([-1, 1], pr), Finite([-1, 1], qr))
        return Instance("search", f"P(1) = {mp.nstr(pr[1], 6)}, Q(1) = {mp.nstr(qr[1], 6)}",
                        {"q": abs(2 * (pr[1] - qr[1])), "b": mp.sqrt(2 * z.renyi(1))})

    srch = {"name": "two-point laws on {-1, 1}", "make": make, "dim": 2, "budget": 60, "dps": 20,
            "starts": [[0.1, -0.1], [2.0, 1.0], [-3.0, 0.5]]}
    return bound_check("upper", fams, lambda inst: (inst.data["q"], inst.data["b"]), dps, search=srch,
                       what="|E X - E Y| <= sqrt(2 D_1(X||Y))", quantity_name="|E X - E Y|", bound_name="sqrt(2 KL)")


LC1 = Claim(id="ZCDP-LC.1", paper="zcdp", label="Lemma C.1 (Pinsker): |E X - E Y| <= sqrt(2 D_1(X || Y)) on [-1, 1]", kind="check",
            statement=r"\left|\mathbb E[X]-\mathbb E[Y]\right|\le\sqrt{2D_1(X\Vert Y)}", check=cached_check(_lc1),
            where="App. C, Lemma C.1 (cited [vEH14])", seed=SEED)


def _lc2(dps):
    rng = random.Random(32)
    fams = {"random finite laws and f": [], "zCDP corollary (both orders)": []}
    for i, (lab, z) in enumerate(random_finite_pairs(33, 10)):
        k = len(z.P.probs)
        f = [to_mpf(sp.Rational(rng.randint(-20, 20), 10)) for _ in range(k)]
        P, Q = [to_mpf(p) for p in z.P.probs], [to_mpf(q) for q in z.Q.probs]
        diff = abs(mp.fsum(fi * (p - q) for fi, p, q in zip(f, P, Q)))
        sq = mp.sqrt(mp.fsum(q * fi**2 for fi, q in zip(f, Q)))
        fams["random finite laws and f"].append(Instance("law", lab[:40], {"q": diff, "b": sq * mp.sqrt(mp.expm1(z.renyi(2)))}))
        zr = ZPair.finite(z.Q, z.P)
        r0 = max(z.rho_star()[0], zr.rho_star()[0])
        fams["zCDP corollary (both orders)"].append(Instance("law", lab[:40], {"q": diff, "b": sq * mp.sqrt(mp.expm1(2 * r0))}))
    return bound_check("upper", fams, lambda inst: (inst.data["q"], inst.data["b"]), dps,
                       what="|E_P f - E_Q f| <= sqrt(E_Q f^2) sqrt(e^{D_2(P||Q)} - 1)", quantity_name="|E_P f - E_Q f|",
                       bound_name="bound")


LC2 = Claim(id="ZCDP-LC.2", paper="zcdp", label="Lemma C.2: |E_P f - E_Q f| <= sqrt(E_Q f^2) sqrt(e^{D_2(P||Q)} - 1)", kind="check",
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
    rng = random.Random(82)
    fams = {"random two-stage compositions": []}
    for i in range(6):
        k, m = rng.choice((2, 3)), rng.choice((2, 3))
        PE, QE = random_finite(rng, k), random_finite(rng, k)
        condP = [random_finite(rng, m) for _ in range(k)]
        condQ = [random_finite(rng, m) for _ in range(k)]
        d1, d2 = sp.Rational(rng.randint(1, 20), 100), sp.Rational(rng.randint(1, 20), 100)
        r1 = max(ZPair.finite(PE, QE).rho_star()[0], ZPair.finite(QE, PE).rho_star()[0])
        r2 = max(max(ZPair.finite(a, b).rho_star()[0], ZPair.finite(b, a).rho_star()[0]) for a, b in zip(condP, condQ))
        # full laws: stage 1 with a bad point, stage 2 (for good y) with a bad point each
        from cbdp_sym import joint_adaptive

        P1, Q1 = _with_bad(PE, QE, d1)
        c2P = [_with_bad(a, b, d2)[0] for a, b in zip(condP, condQ)] + [Finite(list(range(m + 2)), [1] + [0] * (m + 1))] * 2
        c2Q = [_with_bad(a, b, d2)[1] for a, b in zip(condP, condQ)] + [Finite(list(range(m + 2)), [1] + [0] * (m + 1))] * 2
        J, K = joint_adaptive(P1, c2P), joint_adaptive(Q1, c2Q)
        # events: good first stage and good second stage
        good = [a * (m + 2) + b for a in range(k) for b in range(m)]
        pE = mp.fsum(to_mpf(J.probs[j]) for j in good)
        qE = mp.fsum(to_mpf(K.probs[j]) for j in good)
        target = 1 - to_mpf(d1 + d2 - d1 * d2)
        JP = Finite(list(range(len(good))), [J.probs[j] / sum(J.probs[g] for g in good) for j in good])
        KQ = Finite(list(range(len(good))), [K.probs[j] / sum(K.probs[g] for g in good) for j in good])
        for a in ("1001/1000", "2", "10"):
            av = _q(a)
            fams["random two-stage compositions"].append(Instance("comp", f"#{i}, alpha={a}", {
                "q": max(ZPair.finite(JP, KQ).renyi(av), ZPair.finite(KQ, JP).renyi(av)), "b": (r1 + r2) * av}))
        fams.setdefault("event probabilities", []).append(Instance("events", f"#{i}", {"q": target, "b": min(pE, qE)}))
    return bound_check("upper", fams, lambda inst: (inst.data["q"], inst.data["b"]), dps,
                       what="conditional divergences <= (rho + rho') alpha; P[E''] >= 1 - (delta + delta' - delta delta')",
                       quantity_name="quantity", bound_name="bound")


L82 = Claim(id="ZCDP-L8.2", paper="zcdp", label="Lemma 8.2: composition of approximate zCDP (delta + delta' - delta delta')",
            kind="check", statement=r"(\delta+\delta'-\delta\delta')\text{-approximate }(\xi+\xi',\rho+\rho')\text{-zCDP}",
            check=cached_check(_l82), where="Sec. 8, Lemma 8.2", seed=SEED,
            notes="Instances: each stage is a zCDP pair (both orders) mixed with a bad outcome of mass delta (outside the other "
                  "law's support); the event of the composition is 'both stages good'.")


# -- Section 1.2.5 and footnote 2 ----------------------------------------------------------------------------------------
def _s125(dps):
    e, d = sp.symbols("epsilon delta", positive=True)
    k = sp.Symbol("k", positive=True, integer=True)
    with recording():
        _ke, dk = dp_group_delta(e, d, k)
    rows = []
    ratios = []
    for ev, dv in (("1", "1/1000"), ("1", "1/1000000"), ("1", "1/10^12"), ("1/10", "1/1000000"), ("1/10", "1/10^12"),
                   ("1/10", "1/10^30")):
        evm = _q(ev)
        dvm = mp.mpf(10) ** -int(dv.split("^")[1]) if "^" in dv else _q(dv)
        kstar = int(mp.ceil(mp.log(1 + mp.expm1(evm) / dvm) / evm))
        ref = mp.log(1 / dvm) / evm
        rows.append([ev, dv, str(kstar), mp_str(ref, 6), mp_str(kstar / ref, 5)])
        ratios.append(kstar / ref)
    return CheckResult("holds",
            (f"iterating (eps, delta)-DP along k neighbours gives (k eps, {sp.sstr(sp.simplify(dk))})-DP (geometric sum, "
                        "SymPy); it is vacuous once delta_k >= 1, i.e. k >= log(1 + (e^eps - 1)/delta)/eps = Theta(log(1/delta)/eps) "
                        f"(ratio {mp_str(ratios[2], 4)} at eps = 1, delta = 1e-12, {mp_str(ratios[-1], 4)} at eps = 1/10, delta = "
                        "1e-30; table); the histogram statement n = Theta(sqrt(log k)) is ZCDP-S6.1b / ZCDP-P6.4"),
            checks=[Check({"eps": r[0], "delta": r[1]}, claimed=r[3], numeric=r[2]) for r in rows],
            tables=[{"title": "Group size at which (eps, delta)-DP group privacy becomes vacuous",
                        "columns": ["$\\varepsilon$", "$\\delta$", "$k^*$", "$\\log(1/\\delta)/\\varepsilon$", "ratio"],
                        "rows": rows, "note": ""}])


S125 = Claim(id="ZCDP-S1.2.5", paper="zcdp", label="Sec. 1.2.5: histograms need n = Theta(sqrt(log k)); (eps, delta) group privacy",
             kind="check", statement=r"\text{group privacy of }(\varepsilon,\delta)\text{-DP is vacuous for }k=\Theta(\log(1/\delta)/\varepsilon)",
             check=_s125, where="Sec. 1.2.5", seed=SEED)


def _f2(dps):
    s, k = sp.symbols("sigma k", positive=True)
    with recording():
        rq = sp.simplify((1 / n_) ** 2 / (2 * (s / n_) ** 2))
        record(Tex(r"\rho_{\mathrm{query}}"), rq, "sensitivity $1/n$, standard deviation $\\sigma/n$")
    rows = []
    from cbdp_sym import ZPair as _Z

    for sv, dv, kv in (("10", "1/1000000", 10), ("10", "1/1000000", 100), ("100", "1/1000000", 1000), ("30", "1/10^10", 100)):
        svm = _q(sv)
        dvm = mp.mpf(10) ** -10 if "^" in dv else _q(dv)
        r1 = 1 / (2 * svm**2)
        e1 = r1 + 2 * mp.sqrt(r1 * mp.log(1 / dvm))  # per query, Prop. 1.3
        ez = kv * r1 + 2 * mp.sqrt(kv * r1 * mp.log(1 / dvm))  # k queries through zCDP
        adv = mp.sqrt(2 * kv * mp.log(1 / dvm)) * e1 + kv * e1 * mp.expm1(e1)  # advanced composition (delta' = delta)
        exact = _Z.normal(svm / mp.sqrt(kv), 1).eps_at(dvm)
        rows.append([sv, dv, str(kv), mp_str(e1, 6), mp_str(ez, 6), mp_str(adv, 6), mp_str(exact, 6)])
    return CheckResult("holds",
            (f"per query rho = 1/(2 sigma^2) (SymPy: {'yes' if sp.simplify(rq - 1 / (2 * s**2)) == 0 else 'NO'}), so Prop. 1.3 gives eps = O(sqrt(log(1/delta))/sigma); k queries: "
                        "k/(2 sigma^2) + 2 sqrt(k log(1/delta)/(2 sigma^2)) = O(sqrt(k log(1/delta))/sigma) while the advanced "
                        "composition of the per-query guarantee is O(sqrt(k) log(1/delta)/sigma) (table, with the exact epsilon of "
                        "the k-fold Gaussian mechanism)"),
            checks=[Check({"sigma": r[0], "delta": r[1], "k": r[2]}, claimed=r[4], numeric=r[6]) for r in rows],
            tables=[{"title": "Footnote 2: k Gaussian queries, eps at delta",
                        "columns": ["$\\sigma$", "$\\delta$", "$k$", "one query", "zCDP (Prop. 1.3)", "advanced composition",
                                    "exact"], "rows": rows, "note": "advanced composition: sqrt(2k log(1/delta)) eps_0 + k eps_0 "
                                                                      "(e^eps_0 - 1) with the per-query eps_0 of Prop. 1.3"}])


F2 = Claim(id="ZCDP-F2", paper="zcdp", label="Footnote 2: k Gaussian queries, zCDP against advanced composition", kind="check",
           statement=r"(O(\sqrt k\log(1/\delta)/\sigma),(k+1)\delta)\ \text{vs}\ (O(\sqrt{k\log(1/\delta)}/\sigma),\delta)",
           check=cached_check(_f2), where="Footnote 2", seed=SEED)
