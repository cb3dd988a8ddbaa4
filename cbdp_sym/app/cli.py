"""The command line: ``cbdp-sym list | audit | show | eval | restricted | profile``."""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

# Only what every command needs is imported here: `--version`, `--help` and `list` start without SymPy, SciPy or the
# solvers (issue 31).  Each command imports the engine it uses inside its function.
from cbdp_sym.core.errors import CbdpError, ParameterError
from cbdp_sym.core.version import __version__, source_commit
from cbdp_sym.app import divergence_options as cli_divergence  # (the parser's part: the engine is imported on use)

LAW_HELP = ("Laws: CBDP's Lap(mu, 1/eps) has scale 1/eps; N(mu, sigma^2) takes the variance, while the "
            "toolkit's normal(loc, scale) takes the standard deviation.")


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line (``cbdp-sym: error: ...``, exit 2), like every other error."""

    def error(self, message):
        self.exit(2, f"cbdp-sym: error: {message} (see `{self.prog} --help`)\n")


class _Version(argparse.Action):
    """``--version``: the package version and the source commit (git, or recorded at build time)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):

        print(f"cbdp-sym {__version__} (commit {source_commit()})")
        parser.exit()


def _global_options(p, after=False):
    """The options every command takes, before the command (``cbdp-sym --path DIR list``) or after it
    (``cbdp-sym list --path DIR``); given after it, they are collected under their own names and merged by
    :func:`_merge_global_options` (a sub-command's defaults would otherwise replace what was given before it)."""
    p.add_argument("--path", action="append", default=argparse.SUPPRESS if after else [], metavar="DIR",
                   dest="path_after" if after else "path",
                   help="an extra derivations folder (one sub-folder per paper); repeatable")
    p.add_argument("--memory-limit", default=argparse.SUPPRESS if after else None, metavar="SIZE",
                   dest="memory_limit_after" if after else "memory_limit",
                   help="address space a claim's worker (or a command's child) may use, e.g. 8G; 0 for none "
                        "(default 6G, or CBDP_SYM_MEMORY_LIMIT)")
    if after and any("--no-cache" in a.option_strings for a in p._actions):
        return
    p.add_argument("--no-cache", action="store_true", default=argparse.SUPPRESS if after else False,
                   dest="no_cache_after" if after else "no_cache_global",
                   help="use no on-disk cache (neither read nor write it)")


def _merge_global_options(args) -> None:
    args.path = list(args.path) + list(getattr(args, "path_after", []))
    args.memory_limit = getattr(args, "memory_limit_after", None) or args.memory_limit
    args.no_cache = bool(getattr(args, "no_cache", False) or args.no_cache_global
                         or getattr(args, "no_cache_after", False))


def _parser():
    p = _Parser(prog="cbdp-sym", description="Derive, verify and report the claims of DP papers.",
                                epilog=LAW_HELP)
    p.add_argument("--version", action=_Version, help="print the version and the commit, and exit")
    _global_options(p)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="claim IDs with labels, and coverage of the catalogue")
    a = sub.add_parser("audit", help="audit claims and write the reports")
    a.add_argument("ids", nargs="*", metavar="ID")
    a.add_argument("--dps", type=int, default=50, help="significant digits (numerics run at dps + 10)")
    a.add_argument("--json", type=Path, default=None, metavar="PATH",
                   help="audit JSON (default OUT/audit.json; OUT/audit-subset.json when IDs are given)")
    a.add_argument("--out", type=Path, default=Path("reports"), metavar="DIR", help="report folder (default ./reports)")
    a.add_argument("--no-pdf", action="store_true", help="write LaTeX and JSON but do not compile")
    a.add_argument("--strict", action="store_true", help="exit non-zero if any claim ends in `error`")
    a.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    a.add_argument("--no-cache", action="store_true", help="ignore the on-disk cache of numeric results")
    a.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the figures and claims on a Dask cluster: a scheduler's address (tcp://host:8786), "
                        "or `local` for a LocalCluster of --jobs workers on this machine; needs "
                        "pip install 'cbdp-sym[dask]' (default: local processes; the results are the same)")
    a.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="limit on each claim's whole audit, enforced by stopping its worker (default 1800); "
                        "a claim stopped there is `inconclusive: timeout in <phase>`")
    a.add_argument("--heading", choices=("section", "subsection", "subsubsection"), default="section",
                   help="sectioning level of the appendix and supplement bodies (default section)")
    a.add_argument("--label-prefix", type=_label_prefix, default="cbdpsym", metavar="PFX",
                   help="prefix of every \\label in the bodies: PFX:claim:<ID>, PFX:finding:<ID>, PFX:fig:<ID> "
                        "(default cbdpsym)")
    n = sub.add_parser("new", help="write a paper folder with one claim of each common shape, ready to audit")
    n.add_argument("key", metavar="PAPER", help="the paper's key (letters, digits, _), e.g. mypaper")
    n.add_argument("--title", default=None, help="the paper's title")
    s = sub.add_parser("show", help="print a claim's derivation step by step")
    s.add_argument("id", metavar="ID")
    s.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS", help="time limit (default 300)")
    e = sub.add_parser("eval", help="evaluate a claim's quantity at given parameters", epilog=LAW_HELP)
    e.add_argument("id", metavar="ID")
    e.add_argument("--at", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter value (eps, sigma, alpha, d, v, mu1, mu2, sigma1, sigma2, lam, p, s, rho, delta, ...)")
    e.add_argument("--dps", type=int, default=50)
    e.add_argument("--json", action="store_true", help="print JSON {id, params, derived, numeric, claimed}")
    e.add_argument("--no-cache", action="store_true", help="ignore the on-disk cache of numeric results")
    e.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS", help="time limit (default 300)")
    r = sub.add_parser("restricted", help="one restricted divergence sup_h E_P[h] - E_Q[f*(h)] over lin / polyK",
                       epilog="SPEC: laplace(loc,scale) | normal(loc,std) -- the STANDARD DEVIATION, not the "
                              "variance | point(loc) (a non-private release) | product(SPEC, SPEC, ...) for "
                              "independent coordinates (class lin only).  CBDP's Lap(mu, 1/eps) is "
                              "laplace(mu, 1/eps); N(mu, sigma^2) is normal(mu, sigma).  alpha: CBDP's "
                              "alpha-divergence generator (|t|^alpha - 1)/(alpha^2 - alpha) on all of R; renyi "
                              "is Eq. (3), log(1 + alpha(alpha - 1) D)/(alpha - 1).")
    r.add_argument("divergence", metavar="DIVERGENCE", help="kl | alpha | renyi | tv")
    r.add_argument("cls", metavar="CLASS", help="lin | poly1 | poly2 | poly3 | ...")
    r.add_argument("--P", dest="P", required=True, metavar="SPEC", help="the law P (first argument)")
    r.add_argument("--Q", dest="Q", required=True, metavar="SPEC", help="the law Q (second argument)")
    r.add_argument("--alpha", default=None, help="the order (> 1) for alpha and renyi")
    r.add_argument("--dps", type=int, default=50, help="significant digits (numerics run at dps + 10)")
    r.add_argument("--json", action="store_true", help="print JSON {value, optimum, gradient_norm, hessian, "
                                                        "second_method_digits, infinite, ...}")
    r.add_argument("--no-second", action="store_true", help="skip the second, independent method")
    r.add_argument("--no-cache", action="store_true", help="ignore the on-disk cache of numeric results")
    r.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS", help="time limit (default 300)")
    _profile_parser(sub)
    cli_divergence.register(sub)  # `divergence` (cbdp_sym/app/cli_divergence.py)
    for cmd in sub.choices.values():
        _global_options(cmd, after=True)
    return p


def _profile_parser(sub):
    pr = sub.add_parser("profile", help="the privacy profile delta(eps) = E_Q[(dP/dQ - e^eps)_+], or the exact eps(delta)",
                        epilog="SPEC: laplace(loc,scale) | normal(loc,std) -- the STANDARD DEVIATION | "
                               "product(normal(...), ...) | rr(p) (randomized response: the law of the output when "
                               "the truth is 1, reported truthfully with probability p; rr0(p) when it is 0) | "
                               "finite(x1:p1, x2:p2, ...).  A point mass or finite law against a density is refused.")
    pr.add_argument("--P", dest="P", required=True, metavar="SPEC", help="the law P (first argument)")
    pr.add_argument("--Q", dest="Q", required=True, metavar="SPEC", help="the law Q (second argument)")
    g = pr.add_mutually_exclusive_group(required=True)
    g.add_argument("--eps", default=None, help="eps >= 0: print delta(eps)")
    g.add_argument("--delta", default=None, help="delta in (0, 1): print the exact eps(delta)")
    pr.add_argument("--symmetric", action="store_true", help="max(delta_PQ, delta_QP) (both directions)")
    pr.add_argument("--dps", type=int, default=50, help="significant digits (numerics run at dps + 10)")
    pr.add_argument("--json", action="store_true", help='print JSON {"delta", "eps", "derived", "digits", ...}')
    pr.add_argument("--check", action="store_true",
                    help="check a derived closed form against the definition at the working precision (the root of "
                         "the quadrature profile; a second or more) instead of in double precision at the answer")
    pr.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS", help="time limit (default 300)")
    cli_divergence.add_profile_options(pr)  # --sample, --relation, --compose


def cmd_profile(reg, args):
    from cbdp_sym.divergences.profiles import parse_profile_law, privacy_profile

    _check_dps(args.dps)
    if cli_divergence.extended(args):  # subsampling / composition (cbdp_sym/app/cli_divergence.py)
        from cbdp_sym.app.cli_divergence import cmd_profile as composed_profile

        return composed_profile(reg, args)
    out = privacy_profile(parse_profile_law(args.P), parse_profile_law(args.Q), eps=args.eps, delta=args.delta,
                          dps=args.dps, symmetric=args.symmetric, check=args.check)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"privacy profile of P = {out['P']}, Q = {out['Q']}" + (" (symmetrised)" if out["symmetric"] else ""))
        for k in ("eps", "delta", "digits", "check", "derived", "certificate", "note"):
            if out.get(k) is not None:
                print(f"  {k:<11} {out[k]}")
    return 0


def cmd_restricted(reg, args):
    import mpmath as mp

    import cbdp_sym.core.store as store
    from cbdp_sym.core.numbers import check_magnitude, parse_number
    from cbdp_sym.laws.spec import parse_law
    from cbdp_sym.restricted.common import generator_for, parse_class
    from cbdp_sym.restricted.solver import restricted_record

    _check_dps(args.dps)
    if args.no_cache:
        store.set_enabled(False)
    P, Q = parse_law(args.P), parse_law(args.Q)
    _check_law_magnitudes(P, "--P")
    _check_law_magnitudes(Q, "--Q")
    if args.alpha is not None:
        check_magnitude(parse_number(args.alpha, "alpha") - 1, "alpha - 1")
        check_magnitude(parse_number(args.alpha, "alpha"), "alpha")
    generator_for(args.divergence, args.alpha)  # validates before any work
    degree = parse_class(args.cls)
    _check_restricted_cost(args, degree, P, Q)
    with mp.workdps(args.dps + 10):
        rec = restricted_record(args.divergence, args.cls, P, Q, args.alpha, not args.no_second)
    val = rec["value"]
    if val is not None and (mp.isnan(val) or (not rec["infinite"] and (not mp.isfinite(val) or val < 0))):
        raise CbdpError(f"the solver returned {mp.nstr(val, 8)} (a restricted divergence is finite and >= 0 "
                        "unless infinite): not printed as a result")

    def s(v):
        if v is None:
            return None
        if not mp.isfinite(v):
            return "inf" if v > 0 else ("-inf" if v < 0 else "nan")
        return mp.nstr(v, args.dps, strip_zeros=False)

    out = {"divergence": args.divergence, "class": args.cls, "P": repr(P), "Q": repr(Q), "alpha": args.alpha,
           "dps": args.dps, "value": s(rec["value"]), "f_value": s(rec["f_value"]),
           "optimum": [s(c) for c in rec["optimum"]],
           "optimum_basis": ("coefficients of h in powers of x, constant first" if P.dim == 1 else
                             "[b, a_1, ..., a_d]: h(x) = b + a . x"),
           "gradient_norm": None if rec["gradient_norm"] is None else mp.nstr(rec["gradient_norm"], 5),
           "hessian": [[mp.nstr(v, 15) for v in row] for row in rec["hessian"]],
           "hessian_negative_definite": rec["negative_definite"],
           "second_method_digits": None if rec["second_method_digits"] is None else mp.nstr(rec["second_method_digits"], 4),
           "infinite": rec["infinite"], "converged": rec.get("converged", True), "notes": rec["notes"]}
    smd = rec["second_method_digits"]
    if smd is not None and mp.isfinite(rec["value"]) and smd < args.dps // 2:
        # the second method does not confirm the value: say so, in the output and on stderr (never silently)
        out["confirmed"] = False
        out["warning"] = (f"the second method agrees with the value to only {mp.nstr(smd, 3)} digits (it needs "
                          f"{args.dps // 2}): the value rests on the first method alone")
        print(f"cbdp-sym: warning: {out['warning']}", file=sys.stderr)
    elif smd is not None:
        out["confirmed"] = True
    if rec.get("ray"):
        out["ray"] = {"direction_theta": [mp.nstr(v, 12) for v in rec["ray"]["direction"]],
                      "J_along_ray": [[mp.nstr(t, 5), mp.nstr(v, 12)] for t, v in rec["ray"]["points"]]}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{args.divergence} restricted to {args.cls}: P = {out['P']}, Q = {out['Q']}"
              + (f", alpha = {args.alpha}" if args.alpha else ""))
        print(f"  value       {out['value']}")
        if args.divergence.lower() == "renyi":
            print(f"  D_alpha     {out['f_value']}  (before Eq. (3))")
        if not out["infinite"]:
            if P.dim == 1:
                print("  optimum h   " + " + ".join(f"({c}) x^{i}" for i, c in enumerate(out["optimum"])))
            else:
                print("  optimum h   " + " + ".join([f"({out['optimum'][0]})"] + [f"({c}) x_{i}" for i, c in
                                                                                     enumerate(out["optimum"][1:], 1)]))
            print(f"  |gradient|  {out['gradient_norm']}   Hessian negative definite: {out['hessian_negative_definite']}")
            print(f"  second method agrees to {out['second_method_digits']} digits"
                  + ("  (NOT CONFIRMED: the value rests on the first method alone)" if out.get("confirmed") is False
                     else ""))
        for n in out["notes"]:
            print(f"  note: {n}")
    return 0


def _check_restricted_cost(args, degree, P, Q):
    """Refuse up front what cannot finish within ``--timeout`` (:mod:`cbdp_sym.app.costs`), unless it is cached."""
    import mpmath as mp

    from cbdp_sym.app.costs import check_cost, restricted_cost
    from cbdp_sym.restricted import solver

    with mp.workdps(args.dps + 10):  # (a value on disk costs nothing: never refused)
        stored, _ = solver._record_disk.stored(str(args.divergence), str(args.cls), P, Q,
                                               None if args.alpha is None else str(args.alpha), not args.no_second, None)
    if stored:
        return
    est = restricted_cost(args.divergence, degree, args.dps, args.alpha, getattr(P, "dim", 1))
    near_one = args.alpha is not None and args.divergence.lower() in ("alpha", "renyi")
    advice = ("raise --timeout, or lower " + ("the degree, " if degree > 1 else "") + "--dps"
              + (", or take an order farther from 1 (kl is the alpha -> 1 limit)" if near_one else ""))
    note = check_cost(est, args.timeout, f"restricted {args.divergence} {args.cls} at {args.dps} digits"
                      + (f" and alpha = {args.alpha}" if args.alpha is not None else ""), advice)
    if note:
        print(f"cbdp-sym: note: {note}", file=sys.stderr)


def _check_law_magnitudes(law, flag):
    import mpmath as mp

    from cbdp_sym.core.numbers import check_magnitude

    parts = getattr(law, "laws", None) or getattr(law, "components", None) or [law]
    for part in parts:
        for attr in ("loc", "scale", "std"):
            v = getattr(part, attr, None)
            if v is not None and not isinstance(v, mp.mpf):
                check_magnitude(v, f"{flag} {attr}")


def cmd_new(args):
    from cbdp_sym.app.scaffold import _prefix, new_paper

    if len(args.key) > 64:
        raise ParameterError(f"paper key {args.key[:20]}... ({len(args.key)} characters): at most 64")
    root = Path(args.path[-1]) if args.path else Path("derivations")
    folder = new_paper(args.key, root, args.title)
    print(f"wrote {folder}/ (_paper.py, catalogue.tsv, claims.py)")
    pre = _prefix(args.key)
    print(f"audit it with: cbdp-sym --path {root} audit --out reports-{args.key} {pre}-T1 {pre}-B1 {pre}-B2")
    return 0


def _check_dps(dps):
    if dps < 5 or dps > 1000:
        raise ParameterError(f"--dps must be between 5 and 1000, got {dps}")


def cmd_list(reg, args):
    from cbdp_sym.app.claimindex import from_registry, render

    print(render(from_registry(reg)))
    return 0


def cmd_list_indexed(args):
    """``list`` from the claim index (:mod:`cbdp_sym.app.claimindex`) when no source file changed since it was made,
    else from the loaded papers (and the index made again)."""
    from cbdp_sym.app import claimindex

    index = claimindex.load(args.path)
    if index is None:
        from cbdp_sym.app.registry import Registry

        reg = Registry(args.path, import_timeout=_import_limit(args))
        _warn_broken(reg)
        index = claimindex.from_registry(reg)
        if not reg.broken:  # (a folder set aside is reported again next time: no index hides it)
            claimindex.save(args.path, index)
    print(claimindex.render(index))
    return 0


def _registry_of(paths, cid, import_timeout=None):
    """A registry that holds the claim ``cid``: the paper that defines it only, when the claim index
    (:mod:`cbdp_sym.app.claimindex`) is current and names it; else every paper (and the index made again)."""
    from cbdp_sym.app import claimindex
    from cbdp_sym.app.registry import Registry

    index = claimindex.load(paths)
    where = claimindex.paper_of(index, cid) if index is not None else None
    if where is not None:
        reg = Registry(paths, only={where}, import_timeout=import_timeout)
        if any(c.id.casefold() == str(cid).strip().casefold() for c in reg.claims()):
            return reg
    reg = Registry(paths, import_timeout=import_timeout)
    if index is None and not reg.broken:
        claimindex.save(paths, claimindex.from_registry(reg))
    return reg


def _check_paths(paths):
    """``--path`` folders of a command that loads no paper: each must still be a folder."""
    for p in paths:
        if not Path(p).is_dir():
            raise CbdpError(f"--path {p}: not a folder")


def _precheck_audit(args):
    """Everything about an audit's arguments that can be checked before loading or computing anything."""
    from cbdp_sym.report.outputs import check_json_path, check_out_dir

    _check_dps(args.dps)
    if args.jobs is not None and args.jobs < 1:
        raise ParameterError(f"--jobs must be at least 1, got {args.jobs}")
    check_out_dir(args.out)
    check_json_path(args.json)
    if getattr(args, "scheduler", None) is not None:
        from cbdp_sym.app.executor import check_dask

        check_dask(args.scheduler)


def _check_timeout(args):
    t = getattr(args, "timeout", None)
    if t is not None and not (0 < t < 10**7):  # also refuses nan and inf
        raise ParameterError(f"--timeout must be a positive number of seconds, got {t:g}")


def _label_prefix(text: str) -> str:
    import re

    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9.:+-]*", text):
        raise argparse.ArgumentTypeError(f"{text!r}: a label prefix is a letter followed by letters, digits, '.', ':', "
                                         "'+' or '-'")
    return text


def cmd_audit(reg, args):
    import cbdp_sym.core.store as store
    from cbdp_sym.app.audit import reuse_line, run, summary_table, terminal_progress, tty_progress, write_reports
    from cbdp_sym.report.outputs import folder_lock

    _precheck_audit(args)
    if args.no_cache:
        store.set_enabled(False)
    claims = []
    for i in args.ids:
        c = reg.get(i)
        if any(c is d for d in claims):
            print(f"cbdp-sym: note: {c.id} is named twice: audited once", file=sys.stderr)
            continue
        claims.append(c)
    claims = claims or reg.claims()
    # a subset never replaces the full reports: it writes audit-subset.json and appendix-*-subset.*
    suffix = "-subset" if args.ids else ""
    json_path = args.json or args.out / f"audit{suffix}.json"
    progress = _never_raises(tty_progress(sys.stderr) if _is_terminal(sys.stderr) else terminal_progress())
    with folder_lock(args.out):
        stats: dict = {}
        results = run(claims, args.dps, args.jobs, progress, limit=args.timeout, scheduler=args.scheduler, stats=stats)
        written, problems = write_reports(reg, results, args.dps, args.out, json_path, pdf=not args.no_pdf,
                                          suffix=suffix, heading=args.heading, label_prefix=args.label_prefix,
                                          jobs=args.jobs, latex_timeout=args.timeout)
    print(summary_table(results))
    print()
    if suffix:
        print(f"a subset of {len(claims)} claim{'s' if len(claims) != 1 else ''}: written under *-subset names "
              f"(the full reports {args.out / 'audit.json'} and appendix-*.tex are left as they are)")
    for w in written:
        print(f"wrote {w}")
    for p in problems:
        print(f"warning: {p}", file=sys.stderr)
    counts = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    print(", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    print(reuse_line(stats))
    if args.strict and (counts.get("error") or any(p.startswith("LaTeX failed") for p in problems) or reg.broken):
        return 1
    return 0


def _never_raises(progress):
    """A progress display that cannot stop the audit (a result it cannot show is shown by the reports)."""

    def show(*a):
        with contextlib.suppress(Exception):
            progress(*a)

    if hasattr(progress, "figures"):
        show.figures = progress.figures
    return show


def _is_terminal(stream) -> bool:
    """A terminal that can show a progress bar: a TTY with a known size (a pseudo-terminal of size 0,
    as some CI runners allocate, gets plain lines: tqdm draws nothing there)."""
    import os

    try:
        if not stream.isatty():
            return False
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False
    return size.lines > 1 and size.columns >= 40


def _plain(x):
    import sympy as sp

    from cbdp_sym.core.tape import Tex

    if isinstance(x, Tex):
        return x.latex
    return sp.sstr(x)


def _cmd_divergence(reg, args):
    from cbdp_sym.app.cli_divergence import cmd_divergence

    return cmd_divergence(reg, args)


def cmd_show(reg, args):
    from cbdp_sym.app.derivecache import cached_derive as derive
    from cbdp_sym.report.text import math_text, plain

    claim = reg.get(args.id)
    print(f"{claim.id}: {plain(claim.label)}")
    print(f"  where: {claim.where}   seed: {claim.seed}")
    print(f"  as printed: {math_text(claim.statement)}")
    if claim.derive is None:
        print("  (no derivation: " + claim.kind + ")")
        return 0
    expr, steps = derive(claim)
    for i, st in enumerate(steps, 1):
        print(f"  ({i}) {plain(st.note)}")
        lhs = _plain(st.lhs)
        print(f"      {lhs} {st.rel} {_plain(st.rhs)}" if lhs else f"      {st.rel} {_plain(st.rhs)}")
    if expr is not None:
        print(f"  derived: {_plain(expr)}")
    if claim.claimed:
        print(f"  claimed: {_plain(claim.claimed())}")
    return 0


def _parse_at(items):
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ParameterError(f"--at expects NAME=VALUE, got {item!r}")
        if name.strip() in out:
            raise ParameterError(f"--at {name.strip()} is given twice ({out[name.strip()]} and {value.strip()}): "
                                 "give each parameter once")
        out[name.strip()] = value.strip()
    return out


def _value_text(x, what, digits):
    """A value printed as a result: finite, at the digits established (non-finite values are refused)."""
    import mpmath as mp

    from cbdp_sym.core.numbers import mp_str

    if x is None:
        return None
    if not isinstance(x, mp.mpf):
        x = mp.mpf(x)
    if mp.isnan(x):
        raise CbdpError(f"the {what} value is not a number (nan) at this point: not printed")
    return mp_str(x, digits)


def _established(numeric, derived, claimed, dps):
    """Digits at which the numeric value is printed: those on which it agrees with the closed form
    (at most ``dps``), and a note when that is fewer than ``dps``."""
    import mpmath as mp

    from cbdp_sym.core.numbers import digits

    ref = derived if derived is not None else claimed
    if numeric is None or ref is None or not (mp.isfinite(numeric) and mp.isfinite(ref)):
        return dps, None
    d = digits(numeric, ref)
    if d >= dps:
        return dps, None
    shown = max(1, min(dps, int(mp.floor(d)) if mp.isfinite(d) else dps))
    if d < 1:
        return dps, (f"the numeric definition and the {'derived' if derived is not None else 'claimed'} form "
                     f"disagree at this point (agreement {mp.nstr(d, 3)} digits)")
    return shown, (f"the numeric value is shown to {shown} digits, those on which it agrees with the "
                   f"{'derived' if derived is not None else 'claimed'} form at this point")


def cmd_eval(reg, args):
    import mpmath as mp

    import cbdp_sym.core.store as store
    from cbdp_sym.app.derivecache import cached_derive as derive
    from cbdp_sym.core.numbers import check_magnitude
    from cbdp_sym.verify.points import evaluate

    _check_dps(args.dps)
    if args.no_cache:
        store.set_enabled(False)

    claim = reg.get(args.id)
    if claim.kind == "check":
        return _eval_check(claim, args)
    point = claim.parse_point(_parse_at(args.at))
    for k, v in point.items():
        check_magnitude(v, k)
    derived_expr = derive(claim)[0] if claim.derive else None
    claimed_expr = claim.claimed() if claim.claimed else None
    with mp.workdps(args.dps + 10):
        derived = evaluate(derived_expr, point, claim) if derived_expr is not None else None
        claimed = evaluate(claimed_expr, point, claim) if claimed_expr is not None else None
        t0 = time.monotonic()
        numeric = claim.numeric(point) if claim.numeric else None
        numeric, sharpened = _sharper_numeric(claim, point, numeric, derived if derived is not None else claimed,
                                              args.dps, args.timeout, time.monotonic() - t0)
        numeric_digits, note = _established(numeric, derived, claimed, args.dps)
        out = {"id": claim.id, "params": {k: str(v) for k, v in point.items()},
               "derived": _value_text(derived, "derived", args.dps),
               "numeric": _value_text(numeric, "numeric", numeric_digits),
               "claimed": _value_text(claimed, "claimed", args.dps)}
        verdict, lines = _verdict_at(claim, claimed, derived, numeric, args.dps)
    if sharpened:
        lines.insert(0, sharpened)
    if verdict.get("verdict") == "differs" and derived_expr is not None and claimed_expr is not None:
        # a proved identity is never reported as differing at a point: the numerics lost digits there
        from cbdp_sym.verify.engine import symbolic_difference

        if symbolic_difference(derived_expr, claimed_expr):
            verdict["verdict"] = "inconclusive"
            lines[-1] = (f"identity: inconclusive at this point: derived - claimed simplifies to 0 (proved), and the "
                         f"numeric definition agrees with it to only {verdict.get('digits', 0):g} digits here (digits "
                         "lost to cancellation or to the quadrature at this extreme point, not a disagreement)")
    out.update(verdict)
    from cbdp_sym.verify.coverage import coverage_text, planned

    sweep = planned(claim)  # (one point here; the audit's verdict rests on its sweep, and for bounds its search too)
    if sweep is not None:
        out["audit_points"] = sweep
    if note:
        print(f"cbdp-sym: note: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{claim.id} ({claim.kind}) at " + ", ".join(f"{k}={v}" for k, v in out["params"].items()))
        for k in ("derived", "numeric", "claimed"):
            print(f"  {k:<8} {out[k] if out[k] is not None else '(none)'}")
        for ln in lines:
            print("  " + ln)
        if sweep is not None:
            print("  the audit's verdict rests on its sweep: " + coverage_text(sweep)
                  + (" and the adversarial search" if claim.kind in ("upper", "lower", "strict-upper") else ""))
    return 0


def _eval_check(claim, args) -> int:
    """``eval`` of a check claim: its comparisons at the point ``--at`` (names as the claim's evidence gives them,
    e.g. ``--at n=3`` or ``--at instance="RR: p=0.75"``), re-computed by running the check and re-decided."""
    from cbdp_sym.verify.engine import check_leaves_at
    from cbdp_sym.verify.evidence import params_json, value_text

    raw = _parse_at(args.at)
    if not raw:
        raise ParameterError(f"{claim.id} is a check claim: name the point of one of its comparisons with --at NAME=VALUE")
    leaves = check_leaves_at(claim, raw, args.dps)
    if not leaves:
        raise ParameterError(f"{claim.id} has no comparison at " + ", ".join(f"{k}={v}" for k, v in raw.items()))
    rows = []
    for c, lf in leaves:
        rows.append({"params": params_json(c.at), "what": c.what or None, "relation": c.rel,
                     "claimed": value_text(c.claimed, args.dps), "computed": value_text(c.computed, args.dps),
                     "status": lf.status.value,
                     "relative_slack": value_text(lf.slack, 6) if lf.slack is not None and c.rel != "~" else None,
                     "digits": None if lf.digits is None else (args.dps + 10 if lf.digits == float("inf")
                                                               else round(lf.digits, 1))})
    worst = min((r["status"] for r in rows), key=["refuted", "inconclusive", "holds", "verified"].index)
    out = {"id": claim.id, "kind": "check", "params": raw, "comparisons": rows, "verdict": worst}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{claim.id} (check) at " + ", ".join(f"{k}={v}" for k, v in raw.items()) + f": {worst}")
    for r in rows:
        what = f"{r['what']}: " if r["what"] else ""
        extra = (f", relative slack {r['relative_slack']}" if r["relative_slack"] else
                 (f", {r['digits']} digits" if r["digits"] is not None else ""))
        print(f"  {what}computed {r['computed']} {r['relation']} claimed {r['claimed']}: {r['status']}{extra}")
    return 0


def error_line(message, limit: int = 400) -> str:
    """A message as one printable line: its first line, control characters (an ANSI escape) shown as ``\\x1b``,
    at most ``limit`` characters (a 100 KB message is cut, saying how much was left out).

    >>> error_line("bad \\x1b[2J value\\nsecond line")
    'bad \\\\x1b[2J value'
    >>> len(error_line("x" * 100000)) < 460
    True
    """
    import re

    text = str(message).splitlines()[0] if str(message) else ""
    text = re.sub(r"[\x00-\x1f\x7f-\x9f]", lambda m: repr(m.group())[1:-1], text)
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text) - limit} more characters)"
    return text


def _error(message) -> None:
    print(f"cbdp-sym: error: {error_line(message)}", file=sys.stderr)


def _sharper_numeric(claim, point, numeric, ref, dps, seconds, first=0.0):
    """``(numeric, note)``: the numeric definition computed again at more precision (20, 40, 80, ... more digits,
    while the time limit allows) as long as it agrees with the closed form ``ref`` to fewer digits than an identity
    needs: at an extreme point (eps = 1e-12, sigma = 1e12) the definition's quadrature or optimisation cancels many
    digits, and more precision, not a verdict, is the answer.  Each step costs at least what the one before did
    (``first``: the seconds of the first computation): a step that would not end within half the time limit is not
    started.  ``note`` says what was done (``None``: nothing)."""
    import mpmath as mp

    from cbdp_sym.core.numbers import digits, established
    from cbdp_sym.core.verdict import identity_digits

    if numeric is None or ref is None or claim.numeric is None or claim.kind != "identity":
        return numeric, None
    tol = identity_digits(dps)

    def agreement(v):
        if not (mp.isfinite(v) and mp.isfinite(ref)):
            return mp.mpf(0)
        d = digits(v, ref)
        est = established(v)
        return d if est is None else min(d, mp.mpf(est))

    d0 = agreement(numeric)
    if d0 >= tol:
        return numeric, None
    start, extra, best, d_best, step = time.monotonic() - first, 10, numeric, d0, first
    budget = 0.5 * (seconds or 300.0)
    while d_best < tol and extra < 10 + 4 * dps:
        extra *= 2
        if time.monotonic() - start + 3 * step > budget:
            break
        t0 = time.monotonic()
        try:
            with mp.workdps(dps + extra):
                v = claim.numeric(point)
        except (CbdpError, ArithmeticError, ValueError):
            break
        step = time.monotonic() - t0
        if v is None:
            break
        with mp.workdps(dps + 10):
            d = agreement(v)
        if d > d_best:
            best, d_best = v, d
    if best is numeric:
        return numeric, None
    after = f"all {dps + 10}" if mp.isinf(d_best) else mp.nstr(d_best, 3)
    return best, (f"note: the numeric definition was computed again with more digits ({mp.nstr(d0, 3)} digits of "
                  f"agreement at {dps + 10}, {after} after): cancellation at this point")


def _guarded(command, reg, args) -> int:
    """``command(reg, args)`` with user errors as one line (in a child process, see ``main``)."""
    try:
        return command(reg, args)
    except CbdpError as exc:
        _error(exc)
        return 2
    except BrokenPipeError:
        return 141
    except SystemExit as exc:  # (nothing of ours exits here: a paper's code called sys.exit)
        _error(f"the claim's code called sys.exit({exc.code!r}): nothing computed")
        return 2
    except (OverflowError, ZeroDivisionError, ArithmeticError) as exc:
        # arithmetic that broke down at an extreme input: refused as a one-line error, never a traceback
        _error(f"the computation broke down at these inputs ({type(exc).__name__}: "
               f"{str(exc).splitlines()[0] if str(exc) else ''}); try less extreme values")
        return 2


_BOUND_SIDES = {  # kind: (relation, slack definition); the slack is cbdp_sym.core.verdict.relative_slack
    "upper": ("quantity <= bound", "(bound - quantity) / |bound|"),
    "strict-upper": ("quantity < bound", "(bound - quantity) / |bound|"),
    "lower": ("quantity >= bound", "(quantity - bound) / |bound|"),
}


def _verdict_at(claim, claimed, derived, numeric, dps):
    """The verdict at one point, as the audit would judge it there: ``(json fields, lines to print)``.

    The quantity is the numeric definition (the derived form when there is none); the tolerance, the
    relative slack (positive when the bound holds) and the violation rule are the audit's own
    (:mod:`cbdp_sym.core.verdict`).
    """
    import mpmath as mp

    from cbdp_sym.core.numbers import digits, established, mp_str
    from cbdp_sym.core.verdict import agrees, identity_digits, relative_slack, violated as is_violated

    tol = identity_digits(dps)
    ref, ref_name = (numeric, "numeric") if numeric is not None else (derived, "derived")
    out = {"kind": claim.kind, "verdict": None}
    lines = []
    est = established(numeric)  # agreement is never claimed beyond what the numeric side established
    cap = dps + 10 if est is None else min(dps + 10, est)

    def dig(a, b):
        d = digits(a, b)
        return float(cap) if mp.isinf(d) else float(min(round(float(d), 1), cap))

    if numeric is not None and derived is not None:
        out["digits_derived"] = dig(numeric, derived)
        if out["digits_derived"] < tol:
            lines.append(f"note: the derived form disagrees with the numeric definition here "
                         f"({out['digits_derived']:g} digits < {tol})")
    if claim.kind in _BOUND_SIDES:
        relation, definition = _BOUND_SIDES[claim.kind]
        if claimed is None or ref is None:
            lines.append(f"{claim.kind} bound: no verdict (the claimed side or the quantity is missing)")
            return out, lines
        slack = relative_slack(claim.kind, claimed, ref)
        violated = is_violated(claim.kind, slack, dps)
        out.update(verdict="violated" if violated else "holds", relation=relation,
                   sides={"quantity": ref_name, "bound": "claimed"}, relative_slack=mp_str(slack, 6),
                   slack_definition=definition)
        article = "an" if claim.kind[0] in "aeiou" else "a"
        lines.append(f"{article} {claim.kind} bound: the quantity is the {ref_name} value, the bound is the "
                     f"claimed form; it requires {relation}")
        lines.append(f"relative slack {definition} = {mp_str(slack, 6)}: "
                     + ("VIOLATED at this point" if violated else "holds at this point"))
    elif claim.kind == "identity":
        # claimed vs the quantity; with nothing printed, the derived form vs the numeric definition
        other, other_name = (claimed, "claimed") if claimed is not None else (
            (derived, "derived") if numeric is not None else (None, ""))
        if other is None or ref is None:
            lines.append("identity: no verdict (nothing to compare at this point)")
            return out, lines
        d = dig(ref, other)
        ok = agrees(d, dps)
        short = not ok and ref is numeric and est is not None and est < tol and d >= est - 1
        out.update(verdict="agrees" if ok else ("inconclusive" if short else "differs"), digits=d)
        if short:
            lines.append(f"identity: inconclusive at this point: the numeric side established only {est} digits "
                         f"(agreeing to all of them), fewer than the {tol} an identity needs")
        else:
            lines.append(f"identity: {other_name} vs {ref_name} agree to {d:g} digits: "
                         + (f"agrees at this point (>= {tol})" if ok else f"DIFFERS at this point (< {tol})"))
    else:
        lines.append(f"a {claim.kind} claim: no verdict at a single point (`cbdp-sym audit {claim.id}` gives it)")
    return out, lines


class _Stream:
    """A standard stream that never stops a command: a reader that left (``| head -1``) or a terminal that cannot
    show a character (an ASCII-only locale) is noted and the output goes on (into the void, or with
    ``\\N{...}``-style escapes), so the audit still writes its reports; :func:`main` then exits with 141, as a
    process stopped by ``SIGPIPE`` would."""

    def __init__(self, stream):
        self._stream = stream
        self.closed_pipe = False

    def write(self, text):
        if self.closed_pipe:
            return len(text)
        try:
            return self._stream.write(text)
        except UnicodeEncodeError:
            enc = getattr(self._stream, "encoding", None) or "ascii"
            return self.write(text.encode(enc, "backslashreplace").decode(enc, "replace"))
        except (BrokenPipeError, ValueError):  # (ValueError: the stream was closed)
            self.closed_pipe = True
            return len(text)
        except OSError as exc:
            if exc.errno != 32:  # EPIPE
                raise
            self.closed_pipe = True
            return len(text)

    def flush(self):
        if self.closed_pipe:
            return
        try:
            self._stream.flush()
        except (BrokenPipeError, ValueError):
            self.closed_pipe = True
        except OSError as exc:
            if exc.errno != 32:
                raise
            self.closed_pipe = True

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv=None) -> int:
    from cbdp_sym.report.latexbuild import cleanup_on_sigterm

    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Stream(sys.stdout), _Stream(sys.stderr)
    try:
        with cleanup_on_sigterm():  # (SIGTERM: LaTeX builds stopped, their temporary folders removed, exit 143)
            code = _main(argv)
    finally:
        out, err = sys.stdout, sys.stderr
        with contextlib.suppress(Exception):
            out.flush()
            err.flush()
        sys.stdout, sys.stderr = saved
    if isinstance(out, _Stream) and out.closed_pipe:
        import os

        with contextlib.suppress(OSError, ValueError, AttributeError):  # (no "Exception ignored" at exit)
            os.dup2(os.open(os.devnull, os.O_WRONLY), saved[0].fileno())
        return 141 if code in (0, None) else code
    return code


def _import_limit(args):
    """Seconds an import of a user's module may take: the command's ``--timeout`` (300 s without one)."""
    t = getattr(args, "timeout", None)
    return float(t) if t is not None else 300.0


def _warn_broken(reg) -> None:
    for folder, why in sorted(getattr(reg, "broken", {}).items()):
        print(f"cbdp-sym: warning: paper folder {error_line(folder)} not loaded: {error_line(why)}", file=sys.stderr)


def _main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    _merge_global_options(args)
    try:
        if args.cmd == "new":
            return cmd_new(args)
        _check_timeout(args)
        if args.memory_limit is not None:
            from cbdp_sym.core.timelimit import parse_size, set_memory_limit

            try:
                set_memory_limit(parse_size(args.memory_limit))
            except ValueError as exc:
                raise ParameterError(f"--memory-limit: {exc}") from None
        if args.cmd == "audit":
            _precheck_audit(args)  # a bad --out fails at once, before the derivations are loaded
        if args.cmd != "list":  # (list reads no cache)
            import cbdp_sym.core.store as store

            if args.no_cache:
                store.set_enabled(False)
            store.check_ready()  # a cache folder others can write: refused before any work (--no-cache: none)
        if args.cmd == "list":
            return cmd_list_indexed(args)  # (from the claim index when the sources are unchanged: no engine import)
        from cbdp_sym.core.datastack import on_large_stack
        from cbdp_sym.core.timelimit import run_with_limit

        command = {"list": cmd_list, "audit": cmd_audit, "show": cmd_show, "eval": cmd_eval,
                   "restricted": cmd_restricted, "profile": cmd_profile, "divergence": _cmd_divergence}[args.cmd]
        if args.cmd in ("restricted", "profile", "divergence"):
            _check_paths(args.path)  # (these read no claim: the papers are not loaded)
            reg = None
        elif args.cmd in ("eval", "show"):
            reg = _registry_of(args.path, args.id, _import_limit(args))  # (the claim's paper only, when indexed)
            _warn_broken(reg)
        else:
            from cbdp_sym.app.registry import Registry

            reg = Registry(args.path, import_timeout=_import_limit(args))
            _warn_broken(reg)
        if args.cmd in ("eval", "restricted", "show", "profile", "divergence"):
            # the work runs in a child process that is stopped at the limit (a one-line error)
            # (its frames on one large data-stack chunk: cbdp_sym/core/datastack.py)
            return run_with_limit(lambda: on_large_stack(_guarded, command, reg, args), args.timeout, f"`{args.cmd}`")
        return on_large_stack(command, reg, args)  # (the audit's rendering too: cbdp_sym/core/datastack.py)
    except CbdpError as exc:
        _error(exc)
        return 2
    except BrokenPipeError:  # (the streams are _Stream: only a pipe of our own making gets here)
        return 141
    except OSError as exc:  # a file system that refused (a name too long, a full disk): one line
        _error(f"{exc.strerror or exc}" + (f": {exc.filename}" if getattr(exc, "filename", None) else ""))
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        print("cbdp-sym: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
