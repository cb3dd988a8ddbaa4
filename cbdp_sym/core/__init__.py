"""Layer 1, core: errors, exact numbers and precision (numbers), the verdict vocabulary and typed check results
(verdict), time limits, the derivation tape, LaTeX printing of expressions, notebook display, the on-disk
cache, its memo and its data-only serialisation, the version.  Imports nothing else from cbdp_sym.
"""
