"""The ``divergence`` command's options and the ``profile`` options it shares (``--sample``, ``--relation``,
``--compose``): the parser's part of :mod:`cbdp_sym.app.cli_divergence`, light enough for ``cbdp-sym --help`` to
import without the engine (the commands themselves import it when they run)."""
from __future__ import annotations

#: the neighbouring relations of a Poisson-subsampled pair (cbdp_sym.divergences.subsampling.RELATIONS)
RELATIONS = ("remove", "add")

KINDS = ("kl", "renyi", "alpha", "tv", "max")

_SPEC_HELP = ("SPEC: laplace(loc,scale) | normal(loc,std) -- the STANDARD DEVIATION | dgauss(mu,sigma) (the discrete "
              "Gaussian N_Z(mu, sigma^2); sigma is the kernel's scale) | dlaplace(mu,t) (P(k) ~ exp(-|k - mu|/t)) | "
              "geometric(p) | binomial(n,p) | poisson(lam) | rr(p) | finite(x1:p1, ...) | point(loc).  --sample q: "
              "Poisson subsampling of P against Q with rate q; --relation remove (default) is (1-q)Q + qP against Q, "
              "add is Q against (1-q)Q + qP.  --compose K: the K-fold composition.")


def register(sub):
    """Add the ``divergence`` sub-command to ``cbdp-sym``'s sub-parsers."""
    d = sub.add_parser("divergence", help="one divergence D(P, Q) (kl, renyi, alpha, tv, max) with its digits",
                       epilog=_SPEC_HELP)
    d.add_argument("kind", metavar="KIND", help="kl | renyi | alpha | tv | max")
    d.add_argument("--P", dest="P", required=True, metavar="SPEC", help="the law P (first argument)")
    d.add_argument("--Q", dest="Q", required=True, metavar="SPEC", help="the law Q (second argument)")
    d.add_argument("--alpha", default=None, help="the order (> 1) for renyi and alpha; renyi also takes inf")
    d.add_argument("--dps", type=int, default=50, help="significant digits (numerics run at dps + 10)")
    d.add_argument("--json", action="store_true", help='print JSON {"value", "digits", "derived", ...}')
    add_profile_options(d)
    d.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS", help="time limit (default 600)")
    return d


def add_profile_options(p):
    """``--sample``, ``--relation`` and ``--compose`` (shared by ``profile`` and ``divergence``)."""
    p.add_argument("--sample", default=None, metavar="q",
                   help="Poisson subsampling with rate q in (0, 1] of the pair (P with the record, Q without)")
    p.add_argument("--relation", default="remove", choices=RELATIONS,
                   help="which subsampled pair: remove = (1-q)Q + qP against Q (default), add = Q against it")
    p.add_argument("--compose", type=int, default=None, metavar="K", help="the K-fold composition of the pair")


def extended(args) -> bool:
    """Whether ``profile`` was asked for subsampling or composition (run by :func:`cmd_profile` here)."""
    return getattr(args, "sample", None) is not None or getattr(args, "compose", None) is not None
