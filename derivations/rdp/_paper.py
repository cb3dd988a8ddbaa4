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
    # root causes of the refutations (cbdp_sym.verify.findings)
    "findings": [
        {"id": "RDP-F1", "kind": "reading",
         "title": r"Lemma 1's proof bounds $\lVert P-Q\rVert_1$ by $2\varepsilon^2$ where the argument needs $2\varepsilon$ "
                  r"(a flattened superscript or a slip): with $2\varepsilon$ every step holds and gives Lemma 1's "
                  r"$2\alpha\varepsilon^2$",
         "seeds": r"seed 003 (PDF text) reads $2\,\epsilon\,2$",
         "step": "proof of Lemma 1: the total-variation step and the plug-in into (3)",
         "claims": ["RDP-L1-TV", "RDP-L1-PROOF"]},
        {"id": "RDP-F2", "kind": "typo",
         "title": r"Eq. (1)'s identity has the wrong sign for Sec. III's orientation of $R$ (it is $-D_1$); with the "
                  "orientation Sec. VII uses it holds, and inequality (1) holds either way",
         "claims": ["RDP-EQ1-EQ"]},
        {"id": "RDP-F3", "kind": "proof-step",
         "title": r"Prop. 4's proof, case I: the second inequality of the chain fails when $\log(1/Q) \ge 4n\epsilon^2$ "
                  "(inside case I); Prop. 4 itself is audited separately",
         "claims": ["RDP-P4-CHAIN"]},
        {"id": "RDP-F4", "kind": "result",
         "title": r"Fig. 2: Prop. 4 is not 'consistently outperformed' by optimal-$\delta$ advanced composition: it is "
                  r"tighter for $n$ up to 218 (RR) and 140 (Laplace) at $\Pr[S] = 0.1$",
         "claims": ["RDP-FIG2-B"]},
        {"id": "RDP-F5", "kind": "result",
         "title": r"Sec. VII's Markov bound $e^\varepsilon/\beta^{1/(\alpha-1)}$ is false for $\alpha < 2$; Markov's "
                  r"inequality gives $(e^\varepsilon/\beta)^{\alpha-1}$",
         "claims": ["RDP-SEC7-MARKOV"]},
        {"id": "RDP-F6", "kind": "reading",
         "title": r"Table II's DP cell of randomized response, $\log(p/(1-p))$, holds for the $p > 1/2$ the paper uses "
                  r"and fails for $p < 1/2$ (the derived cell is $|\log(p/(1-p))|$)",
         "claims": ["RDP-T2-RR-INF-ALLP"]},
        {"id": "RDP-F7", "kind": "typo",
         "title": r"Sec. VI-C calls $\sigma^2$ the standard deviation of $\mathcal N(0,\sigma^2)$ (every formula uses "
                  r"$\sigma$)",
         "claims": ["RDP-GAU-STD"]},
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
