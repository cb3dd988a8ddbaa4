"""Sphinx configuration of cbdp-sym's documentation (built in CI with warnings as errors:
``python -m sphinx -W -b html docs docs/_build/html``)."""
import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "cbdp-sym"
author = "the cbdp-sym authors"
copyright = "2026, the cbdp-sym authors"  # noqa: A001 (Sphinx's name)
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.mathjax"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
master_doc = "index"
exclude_patterns = ["_build"]
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_default_options = {"members": False, "undoc-members": False}
# the docstrings use Sphinx roles to engine modules that autodoc does not document page by page
nitpicky = False
suppress_warnings = ["myst.header", "ref.python"]
html_theme = "alabaster"
html_title = "cbdp-sym"
