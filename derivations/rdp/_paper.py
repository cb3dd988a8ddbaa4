"""Paper metadata for Mironov's Renyi DP, with Table II laid out cell by cell."""
PAPER = {
    "key": "rdp", "title": "R\u00e9nyi Differential Privacy", "authors": "Ilya Mironov", "venue": "IEEE CSF 2017",
    "seeds": {"003_e6980684d37f3439.txt": "PDF text"}, "prefix": "RDP-",
    "conventions": [
        "Natural logarithms throughout.",
        r"$\Lambda(\mu, \lambda)$ is the Laplace law with scale $\lambda$, density $\frac{1}{2\lambda} e^{-|x-\mu|/\lambda}$ "
        r"(the toolkit's Laplace(loc, scale)); $\mathcal{N}(\mu, \sigma^2)$ takes the variance (the toolkit's "
        "Normal(loc, std) takes the standard deviation).",
        r"$\mathrm{RR}_p$ outputs $f(D)$ with probability $p$ and $1 - f(D)$ with probability $1 - p$; from Section VI "
        r"on, $f$ has sensitivity 1.",
        r"$D_\alpha(P \| Q)$ is the Rényi divergence of order $\alpha$ (Def. 3); $D_1$ is KL and $D_\infty$ the "
        "max-divergence. Sections III and VII define the odds ratio R with opposite orientations: each claim names the one in force.",
        "Peer libraries (autodp, dp_accounting) are adapted once, in the toolkit's peers module, where their parameter conventions are documented.",
    ],
    "tables": [
        {"title": "Table II (summary of RDP parameters for basic mechanisms), cell by cell",
         "header": ["Table II cell", "as printed, and the verdict of its claim"],
         "rows": [["Randomized response, differential privacy", "RDP-T2-RR-INF"],
                  ["Randomized response, $\\alpha > 1$", "RDP-P5"],
                  ["Randomized response, $\\alpha = 1$", "RDP-P5-KL"],
                  ["Laplace, differential privacy", "RDP-LAP-INF"],
                  ["Laplace, $\\alpha > 1$", "RDP-P6"],
                  ["Laplace, $\\alpha = 1$", "RDP-LAP-KL"],
                  ["Laplace, $\\alpha = 1$, large $\\lambda$", "RDP-LAP-KL-ASYM"],
                  ["Gaussian, differential privacy", "RDP-GAUSS-NODP"],
                  ["Gaussian, R\u00e9nyi DP", "RDP-C3"],
                  ["Gaussian, read at $\\alpha = 1$", "RDP-T2-GAU-KL"]],
         "note": (" $\\mathrm{RR}$: the DP cell is audited for $p > 1/2$ (RDP-T2-RR-INF-ALLP: every $p$). The Gaussian "
                  "row prints one entry, $\\alpha/(2\\sigma^2)$, also read at $\\alpha = 1$. RDP-T2 shows the derived "
                  "expressions side by side.")},
    ],
    # root causes of the refutations (cbdp_sym.verify.findings): kinds and severities are derived from the claims
    "findings": [
        {"id": "RDP-F1",
         "title": r"Lemma 1's proof bounds $\|P-Q\|_1$ by $2\epsilon^2$ where it needs $2\epsilon$ ($P$, $Q$ any pair with "
                  r"$D_\infty \le \epsilon$ in both orders): the printed $\|P-Q\|_1 \le \min(2, e^\epsilon - 1) \le "
                  r"2\epsilon^2$ fails for $\epsilon < 0.74$ (at $\epsilon = 1/2$: $e^{1/2} - 1 = 0.649 > 1/2$), and plugging $2\epsilon^2$ into (3) fails for $\epsilon > 1$; "
                  r"with $2\epsilon$ every step holds and gives Lemma 1's $2\alpha\epsilon^2$ (Lemma 1 itself holds)",
         "seeds": r"seed 003 (PDF text) prints $2\epsilon 2$, which is $2\epsilon^2$ by its own convention (its "
                  r"$\epsilon2 n$ is $\epsilon^2 n$)",
         "step": "proof of Lemma 1: the bound on the total variation and its plug-in into (3)",
         "claims": ["RDP-L1-TV", "RDP-L1-PROOF"]},
        {"id": "RDP-F2",
         "title": r"Sec. III's identity $\mathbb{E}_{f(D)}[\log R_{post} - \log R_{prior}] = D_1(f(D)\|f(D'))$ has the "
                  r"wrong sign for the odds Sec. III defines, $R = p(D'|X)/p(D|X)$ before ($R_{prior}$) and after "
                  r"($R_{post}$) seeing the output $X$: the expectation is $-D_1$ (for randomized response $\mathrm{RR}_p$ at "
                  r"$p = 3/4$ it is $-\log(3)/2$, not $\log(3)/2$); with Sec. VII's orientation "
                  r"$R \sim p(D)/p(D')$ it holds, and inequality (1) holds either way",
         "claims": ["RDP-EQ1-EQ"]},
        {"id": "RDP-F3",
         "title": r"Prop. 4's proof, case I: with $\alpha = \sqrt{\log(1/Q)}/(\epsilon\sqrt n)$, where $Q = \Pr[f(D') "
                  r"\in S]$ and $f$ composes $n$ mechanisms that are $\epsilon$-DP, the chain's second inequality fails "
                  r"whenever $\log(1/Q) \ge 4n\epsilon^2$ (inside case I; at $Q = 1/100$, $\epsilon = 1$, $n = 1$ its "
                  r"left side is $0.846$, above its right side $0.731$); Prop. 4 itself holds on its exact worst case "
                  "(RDP-P4)",
         "note": r"The best bound this route gives (Lemma 1 and Prop. 10, $\alpha$ optimal) is $\exp(2\sqrt2\,\epsilon"
                 r"\sqrt{n\log(1/Q)} - 2n\epsilon^2)\,Q$, above Prop. 4's when $\log(1/Q) > (3 + 2\sqrt2)n\epsilon^2$ "
                 "(the claim's table); no corrected chain is audited.",
         "claims": ["RDP-P4-CHAIN"]},
        {"id": "RDP-F4",
         "title": r"Fig. 2's remark that Prop. 4 is 'consistently outperformed' by advanced composition with the optimal "
                  r"$\delta$ is false at $q = \Pr[f(D) \in S] = 0.1$: there Prop. 4's bound on $\Pr[f(D') \in S]/\Pr[f(D) "
                  r"\in S]$ is the tighter one for $n = 1, \dots, 218$ compositions of randomized response with "
                  r"$p = 51\%$ and for $n = 1, \dots, 140$ of the Laplace mechanism with $\lambda = 20$ (at $n = 1$, $\lambda = 20$: "
                  r"the logarithms of the two bounds are $0.1517$ for Prop. 4 and $0.1952$ for advanced composition)",
         "claims": ["RDP-FIG2-B"]},
        {"id": "RDP-F5",
         "title": r"Sec. VII's tail bound $\Pr[R_{post} > \beta R_{prior}] < e^\epsilon/\beta^{1/(\alpha-1)}$ for an "
                  r"$(\alpha, \epsilon)$-RDP mechanism ($R_{prior}$, $R_{post}$ the odds of $D$ against $D'$ before and "
                  r"after the output, $P$ and $Q$ the output laws on $D$ and $D'$, $\beta > 1$) is false for $\alpha < 2$ (at "
                  r"$P = (1/2, 1/2)$, $Q = (1/5, 4/5)$, $\alpha = 3/2$, $\beta = 2$ the probability is $1/2$, the bound "
                  r"$45/128$); Markov's inequality on the "
                  r"$(\alpha-1)$-th moment gives $(e^\epsilon/\beta)^{\alpha-1}$, which holds",
         "claims": ["RDP-SEC7-MARKOV"]},
        {"id": "RDP-F6",
         "title": r"Table II's differential-privacy cell of randomized response $\mathrm{RR}_p$ (which reports $f(D)$ "
                  r"with probability $p$), $\log(p/(1-p))$, is negative, hence false, for $p < 1/2$ (at $p = 1/3$: $-\log 2$ "
                  r"against $D_\infty = \log 2$): read for every "
                  r"$p$ it fails, read for the $p > 1/2$ the paper uses it holds; for every $p$ the cell is "
                  r"$|\log(p/(1-p))|$",
         "claims": ["RDP-T2-RR-INF-ALLP"]},
        {"id": "RDP-F7",
         "title": r"Sec. VI-C calls $\sigma^2$ the standard deviation of $\mathcal N(0, \sigma^2)$: it is the variance "
                  r"(every formula uses $\sigma$ as the standard deviation; at $\sigma = 2$ the standard deviation is $2$, "
                  r"not $4$)",
         "claims": ["RDP-GAU-STD"]},
        {"id": "RDP-F8",
         "title": r"Fig. 3's curves are not 'nearly identical' within $5\%$ on its logarithmic axis: for the mixed mechanism (randomized "
                  r"response with $p = 52\%$, Laplace with $\lambda = 20$, Gaussian with $\sigma = 10$, composed $n$ "
                  r"times) the logarithm of the bound on $\Pr[f(D') \in S]/q$, $q = \Pr[f(D) \in S]$, with $\alpha$ restricted "
                  r"to the 13 reported orders is up to $5.5\%$ above the one with the optimal $\alpha$ (at $n = 13$, "
                  r"$q = 10^{-6}$: $2.567$ against $2.434$; the bound itself is $14\%$ above there); every other $n \le 100$ "
                  r"is within $5\%$",
         "note": r"'Nearly identical' is read as within $5\%$ of the plotted log-bound; the gap is reported, so a "
                 r"reader with another tolerance (within $10\%$ the remark holds at every $n \le 100$) reads the "
                 "verdict off it.",
         "claims": ["RDP-FIG3"]},
        {"id": "RDP-F9",
         "title": r"Remark 3's last sentence inverts its condition: it says composition theorems are unlikely to give "
                  r"strong bounds when $\log(1/\delta) > \epsilon^2 n$ ($n$ compositions of $\epsilon$-DP mechanisms, "
                  r"$(\epsilon', \delta)$-DP overall), which is the high-privacy regime where they are strong: advanced "
                  r"composition gives $\epsilon' = 4.75$ at $\epsilon = 1$, $n = 1$, $\delta = 1/100$, below the "
                  r"remark's threshold $(1 + \sqrt2)\log(1/\delta) = 11.1$; with '$<$' the sentence holds",
         "claims": ["RDP-REM3"]},
    ],
}

# the audited paper's bibliography entry (cited by the appendix; written to reports/cbdpsym-rdp.bib) and its length
PAPER["bib"] = {
    "key": "mironov2017renyi", "type": "inproceedings",
    "fields": {"author": "Mironov, Ilya", "title": "R{\\'e}nyi Differential Privacy",
               "booktitle": "2017 IEEE 30th Computer Security Foundations Symposium (CSF)", "pages": "263--275",
               "year": "2017", "doi": "10.1109/CSF.2017.11"},
}
PAPER["pages"] = 13
