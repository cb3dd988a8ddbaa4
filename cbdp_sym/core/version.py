"""The version of cbdp-sym (read by pyproject.toml and printed in every report's provenance)."""
__version__ = "0.2.0"
