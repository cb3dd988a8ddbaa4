"""Layer 5, restricted: divergences restricted to an adversary class (lin, poly_k, finite classes), one-
dimensional (solver) and for products (products), with Arb certificates (lincert).  Imports the layers below.
"""
