"""Paper metadata for Bun and Steinke's concentrated DP (no claims encoded yet)."""
PAPER = {"key": "zcdp", "title": "Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds",
         "authors": "Mark Bun, Thomas Steinke", "venue": "TCC 2016",
         "seeds": {"004_f41028c8afd8f9e7.txt": "markdown with LaTeX"}, "prefix": "ZCDP-"}
