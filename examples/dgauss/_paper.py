"""Paper metadata: Canonne, Kamath, Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020).

A user folder written with the public API: audit it with
``cbdp-sym --path examples audit --no-pdf --out /tmp/dg``.  Section names follow the NeurIPS version; the locations
were written from the paper's structure (privacy, utility, comparisons) and name no theorem numbers where the folder
is not sure of them.
"""
PAPER = {
    "key": "dgauss", "title": "The Discrete Gaussian for Differential Privacy",
    "authors": "Cl\u00e9ment L. Canonne, Gautam Kamath, Thomas Steinke", "venue": "NeurIPS 2020",
    "prefix": "DG-",
    "conventions": [
        r"$\mathcal{N}_{\mathbb{Z}}(\mu, \sigma^2)$ is the discrete Gaussian: $P(k) \propto e^{-(k-\mu)^2/(2\sigma^2)}$ on "
        r"$k \in \mathbb{Z}$ (the toolkit's DiscreteGaussian(mu, sigma)); $\sigma^2$ is the kernel's scale, not the variance.",
        r"$\mathrm{Lap}_{\mathbb{Z}}(t)$ is the discrete Laplace law: $P(k) \propto e^{-|k|/t}$ (DiscreteLaplace(0, t)).",
        "Natural logarithms; D_alpha is the Renyi divergence of order alpha; the privacy profile is "
        r"$\delta(\varepsilon) = \sum_k (P(k) - e^{\varepsilon} Q(k))_+$.",
        "Sums over the integers are summed with analytic tail bounds (never cut at a fixed window); the numeric side of "
        "every claim is the definition itself (a sum over Z), at 60 digits.",
    ],
    "findings": [
        {"id": "DG-F1", "kind": "typo",
         "title": r"Factor-2 variants (the Rényi identity with $\sigma^2$ for $2\sigma^2$, the tail bound with "
                  r"$m^2/\sigma^2$ for $m^2/(2\sigma^2)$) are refuted with certificates: the folder's refutation fixtures",
         "claims": ["DG-CDP-F2", "DG-TAIL-F2"]},
    ],
}

PAPER["bib"] = {
    "key": "canonne2020discrete", "type": "inproceedings",
    "fields": {"author": "Canonne, Cl{\\'e}ment L. and Kamath, Gautam and Steinke, Thomas",
               "title": "The Discrete {G}aussian for Differential Privacy",
               "booktitle": "Advances in Neural Information Processing Systems 33 (NeurIPS 2020)", "year": "2020"},
}
