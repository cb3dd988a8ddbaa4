"""``cbdp-sym new PAPER``: a paper folder with one claim of each common shape, ready to audit.

The folder holds ``_paper.py`` (metadata), ``catalogue.tsv`` (the paper's claim IDs, for coverage) and
``claims.py`` with three claims about the KL divergence of two Laplace laws: an identity (verified), an
upper bound that holds, and an upper bound that is refuted with a certified counterexample.  The same
module is the README's tour; the tests audit it.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> folder = new_paper("mypaper", root)
>>> sorted(p.name for p in folder.iterdir())
['_paper.py', 'catalogue.tsv', 'claims.py']
"""
from __future__ import annotations

import keyword
import re
from pathlib import Path

from cbdp_sym.core.errors import CbdpError

PAPER_TEMPLATE = '''"""Metadata of the paper {key!r} (written by `cbdp-sym new`; edit freely)."""
PAPER = {{
    "key": "{key}",
    "title": "{title}",
    "venue": "",
    "prefix": "{prefix}-",
    "conventions": [
        r"$\\mathrm{{Lap}}(\\mu, 1/\\varepsilon)$ has scale $1/\\varepsilon$; natural logarithms.",
    ],
    # root causes of refutations, grouped (see cbdp_sym.verify.findings); a refuted claim named by none gets its own
    "findings": [],
}}
'''

CATALOGUE_TEMPLATE = "# the paper's claim IDs (tab) labels, for coverage\n{prefix}-T1\tKL of two Laplace laws\n" \
                     "{prefix}-B1\tKL bounded by epsilon\n{prefix}-B2\tKL bounded by epsilon^2/4\n"

CLAIMS_TEMPLATE = '''"""Three claims about the KL divergence of Lap(0, 1/eps) and Lap(1, 1/eps), one of each common shape.

`derive` uses engine operations (they record the steps shown in the report); `numeric` integrates the
definition; `claimed` is the statement as printed.  For a bound, `claimed` is the bound and `derive` /
`numeric` give the quantity it bounds.
"""
import sympy as sp

from cbdp_sym import KL, Claim, Laplace, Param, f_divergence, fdiv_mp

eps = sp.Symbol("epsilon", positive=True)
P, Q = Laplace(0, 1 / eps), Laplace(1, 1 / eps)


def kl_derived():
    return f_divergence(KL, P, Q)[0]


def kl_numeric(v):
    e = v["eps"]
    return fdiv_mp(KL, Laplace(0, 1 / e), Laplace(1, 1 / e))


T1 = Claim(                                     # an identity: derived = printed, checked against quadrature
    id="{prefix}-T1", label="KL of two Laplace laws", kind="identity",
    statement=r"\\mathrm{{KL}}(P, Q) = \\varepsilon - 1 + e^{{-\\varepsilon}}",
    params=[Param.positive("eps", eps)],
    claimed=lambda: eps - 1 + sp.exp(-eps), derive=kl_derived, numeric=kl_numeric,
)

B1 = Claim(                                     # an upper bound that holds (swept, then searched adversarially)
    id="{prefix}-B1", label="KL bounded by epsilon", kind="upper",
    statement=r"\\mathrm{{KL}}(P, Q) \\le \\varepsilon",
    params=[Param.positive("eps", eps)],
    claimed=lambda: eps, derive=kl_derived, numeric=kl_numeric,
    search={{"eps": ("1/1000", "100")}}, search_evals=20,
)

B2 = Claim(                                     # an upper bound that fails: refuted, certified in ball arithmetic
    id="{prefix}-B2", label="KL bounded by epsilon^2/4", kind="upper",
    statement=r"\\mathrm{{KL}}(P, Q) \\le \\varepsilon^2/4",
    params=[Param.positive("eps", eps)],
    claimed=lambda: eps**2 / 4, derive=kl_derived, numeric=kl_numeric,
)
'''


def _prefix(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", key).upper() or "PAPER"


def new_paper(key: str, root, title: str | None = None) -> Path:
    """Write the paper folder ``root/key`` (refusing to overwrite an existing one); returns its path."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", key or "") or keyword.iskeyword(key):
        raise CbdpError(f"paper key {key!r}: use letters, digits and _ (starting with a letter), e.g. mypaper")
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise CbdpError(f"--path {root}: not a folder")
    folder = root / key
    if folder.exists():
        raise CbdpError(f"{folder} exists already: choose another paper key or remove it")
    prefix = _prefix(key)
    folder.mkdir(parents=True)
    (folder / "_paper.py").write_text(PAPER_TEMPLATE.format(key=key, title=title or key, prefix=prefix), encoding="utf-8")
    (folder / "catalogue.tsv").write_text(CATALOGUE_TEMPLATE.format(prefix=prefix), encoding="utf-8")
    (folder / "claims.py").write_text(CLAIMS_TEMPLATE.format(prefix=prefix), encoding="utf-8")
    return folder
