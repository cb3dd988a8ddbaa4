"""Layer 2, laws: probability laws (Laplace, Gaussian, finite, products; the normal CDF Phi), their log-densities in
double precision for the locators (floats), random finite laws (finite_laws) and the SPEC language that names laws
on the command line (spec).  Imports only core.
"""
