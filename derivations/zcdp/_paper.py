"""Paper metadata for Bun and Steinke's concentrated DP, with Lemma B.2's minimum laid out entry by entry."""
PAPER = {
    "key": "zcdp", "title": "Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds",
    "authors": "Mark Bun, Thomas Steinke", "venue": "TCC 2016",
    "seeds": {"004_f41028c8afd8f9e7.txt": "markdown with LaTeX"}, "prefix": "ZCDP-",
    "conventions": [
        "Natural logarithms throughout.",
        r"$\mathcal{N}(\mu, \sigma^2)$ takes the variance (the toolkit's Normal(loc, std) takes the standard deviation); "
        r"the Gaussian mechanism adds $\mathcal{N}(0, \sigma^2)$ to a query of sensitivity $\Delta$.",
        r"$M$ is $\rho$-zCDP when $D_\alpha(M(x) \| M(x')) \le \xi + \rho\alpha$ for all $\alpha > 1$ and neighbours "
        r"(with $\xi = 0$ unless stated); $D_\alpha$ is the Rényi divergence of order $\alpha$.",
        r"Conversions to $(\varepsilon, \delta)$-DP are compared with the exact privacy profile of the Gaussian mechanism "
        r"(the hockey-stick divergence computed from the densities).",
        "Peer libraries (autodp, dp_accounting) are adapted once, in cbdp_sym.peers, where their parameter conventions are documented.",
    ],
    "tables": [
        {"title": "From zCDP to (eps, delta)-DP: the entries of the minimum of Lemmas 3.6, B.2 and 8.8, as printed and as "
                  "the proof of Lemma B.2 derives them",
         "header": ["entry", "as printed, and the verdict of its claim"],
         "rows": [["Chernoff ($\\delta\\le\\mathbb P[Z>\\varepsilon]$)", "ZCDP-L3.6-OPT1"],
                  ["second entry, as printed", "ZCDP-L3.6-OPT2"], ["second entry, from the proof", "ZCDP-L3.6-OPT2-CORR"],
                  ["last entry, as printed", "ZCDP-L3.6-OPT3"], ["last entry, from the proof", "ZCDP-L3.6-OPT3-CORR"],
                  ["first form of Lemma 3.6", "ZCDP-L3.6-EPS"]],
         "note": " $a = (\\varepsilon-\\xi-\\rho)/2\\rho$. Each entry of a minimum must itself be a valid $\\delta$. The "
                 "statements that use the minimum (Lemmas 3.6, 8.8, Cor. 8.9-8.11) are audited in their own sections; the "
                 "table of epsilons from each conversion beside the exact Gaussian value is in ZCDP-L3.6-TABLE."},
    ],
    # root causes of the refutations (cbdp_sym.findings)
    "findings": [
        {"id": "ZCDP-F1", "kind": "result",
         "title": r"The last entry of the minimum in Lemmas 3.6, B.2 and 8.8 has the numerator 1 where the proof of Lemma B.2 "
                  r"derives 2: the minimum is then not a valid $\delta$ (with 2 it is)",
         "step": "proof of Lemma B.2, the last option of the minimum (its last display, and Cor. 8.9, print 2)",
         "claims": ["ZCDP-L3.6-OPT3", "ZCDP-L3.6", "ZCDP-L8.8"]},
        {"id": "ZCDP-F2", "kind": "reading",
         "title": r"The second entry of the minimum reads $\sqrt{\pi\rho}/(1 + a)$ in the extraction, which is not a valid "
                  r"$\delta$; read as two stacked rows $\sqrt{\pi\rho}$ and $1/(1 + a)$ (what the proof derives) the "
                  "corollaries built on it hold",
         "seeds": "seed 004 (a PDF-to-LaTeX conversion) prints one fraction; stacked rows of a brace array look like one",
         "claims": ["ZCDP-L3.6-OPT2", "ZCDP-C8.9", "ZCDP-C8.10"]},
    ],
}
