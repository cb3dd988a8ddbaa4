"""Layer 7, report: LaTeX appendices and supplements and audit.json (latex, templates/, schema/), PDF builds
(latexbuild), atomic output files (outputs).  Imports the layers below.
"""
