"""Layer 6, verify: claims (claims), the shapes of check claims (shapes), claim sides at points (points), the
audit of one claim (engine), instance families, proof chains, failure regions, figures, findings.  Imports the
layers below.
"""
