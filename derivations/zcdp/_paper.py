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
        "Peer libraries (autodp, dp_accounting) are adapted once, in cbdp_sym.divergences.peers, where their parameter conventions are documented.",
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
    # root causes of the refutations (cbdp_sym.verify.findings)
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
        {"id": "ZCDP-F3", "kind": "reading",
         "title": "Cor. 8.11's first term reads sqrt(2 lambda)||eps||_2 as printed (false); sqrt(2) lambda ||eps||_2 "
                  "(what Cor. 8.10 and the corollary's second form give) holds",
         "claims": ["ZCDP-C8.11"]},
        {"id": "ZCDP-F4", "kind": "reading",
         "title": "Sec. 3.2's 'the last of three options dominates the first two' is false for the printed entries and "
                  "true for the three options the proof derives",
         "claims": ["ZCDP-L3.6-DOM"]},
        {"id": "ZCDP-F5", "kind": "reading",
         "title": "The Gaussian tail bounds quoted from [Coo09] in Lemma A.2's proof fail for the one-sided tail and hold "
                  "for the two-sided tail (the constant sqrt(2/pi) fits the latter)",
         "claims": ["ZCDP-LA.2-COOK"]},
        {"id": "ZCDP-F6", "kind": "result",
         "title": "Lemma 4.3's O(sqrt(xi + 2 rho)) has no absolute constant: the ratio is unbounded as eps grows "
                  "(the proof's constants give a bound for xi + 2 rho = O(1))",
         "claims": ["ZCDP-L4.3"]},
        {"id": "ZCDP-F7", "kind": "result",
         "title": "Sec. 6.1's threshold sqrt(log(T/beta)/rho) gives probability sqrt(T beta), not beta; "
                  "sqrt(2 log(T/beta)/rho) works",
         "claims": ["ZCDP-S6.1b"]},
        {"id": "ZCDP-F8", "kind": "proof-step",
         "title": "Theorem 1.11's proof through Thm. 7.1: n' = 5n^2 does not meet Thm. 7.1's hypothesis for "
                  "1/n <= alpha < 2/n (n' = 8n^2 does)",
         "claims": ["ZCDP-T1.11-HYP"]},
        {"id": "ZCDP-F9", "kind": "proof-step",
         "title": "Prop. 6.4's proof: event (8) with threshold 5 alpha can have probability below 4/5; with 5 alpha n "
                  "(Markov) it holds",
         "claims": ["ZCDP-P6.4-EV8"]},
        {"id": "ZCDP-F10", "kind": "proof-step",
         "title": r"Prop. A.1's proof, step (v): $e^{(t-1)/2\sigma^2}/2t > \sqrt{2\pi}$ fails for "
                  r"$t \ge 6\sigma^3 + 1$ (e.g. $\sigma = 1$, $t = 7$)",
         "claims": ["ZCDP-PA.1-V"]},
        {"id": "ZCDP-F11", "kind": "typo",
         "title": r"Lemma B.2's proof rearranges the first tail bound with $\sqrt\pi\rho$ for $\sqrt{\pi\rho}$ "
                  "(Lemma 3.6 states the right form)",
         "claims": ["ZCDP-L3.6-SUB1"]},
    ],
}

# the audited paper's bibliography entry (cited by the appendix; written to reports/cbdpsym-zcdp.bib) and its length
PAPER["bib"] = {
    "key": "bun2016concentrated", "type": "inproceedings",
    "fields": {"author": "Bun, Mark and Steinke, Thomas",
               "title": "Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds",
               "booktitle": "Theory of Cryptography (TCC 2016-B)", "series": "Lecture Notes in Computer Science",
               "volume": "9985", "pages": "635--658", "publisher": "Springer", "year": "2016",
               "doi": "10.1007/978-3-662-53641-4_24"},
}
PAPER["pages"] = 45
