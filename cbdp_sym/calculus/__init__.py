"""Layer 3, calculus: symbolic integration split at kinks and maximisation (symbolic), optimisers chosen by name
(optimize), Arb ball arithmetic with the one SymPy-to-Arb evaluator (certify), implicit quantities (roots and
extrema in one variable, implicit).  Imports core and laws.
"""
