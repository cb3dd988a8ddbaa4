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
        "Peer libraries (autodp, dp_accounting) are adapted once, in cbdp_sym.peers, where their parameter conventions are documented.",
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
    # root causes of the refutations (cbdp_sym.findings)
    "findings": [
        {"id": "RDP-F1", "kind": "reading",
         "title": r"Lemma 1's proof bounds $\lVert P-Q\rVert_1$ by $2\varepsilon^2$ where the argument needs $2\varepsilon$ "
                  r"(a flattened superscript or a slip): with $2\varepsilon$ every step holds and gives Lemma 1's "
                  r"$2\alpha\varepsilon^2$",
         "seeds": "seed 003 (PDF text) reads '2 eps 2'",
         "step": "proof of Lemma 1: the total-variation step and the plug-in into (3)",
         "claims": ["RDP-L1-TV", "RDP-L1-PROOF"]},
    ],
}
