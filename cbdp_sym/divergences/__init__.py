"""Layer 4, divergences: generators and their derived conjugates (generators), quadrature of expectations and
divergences from their definitions (numeric), f-divergences from their generators (fdiv, kinked for generators
with kinks), variational forms, conjugate structures, mechanisms, privacy profiles and (eps, delta)
conversions, concentrated DP, peers' accountants.  Imports the layers below.
"""
