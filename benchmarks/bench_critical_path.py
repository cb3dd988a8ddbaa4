"""The critical path of an audit, and how its wall time follows max(sum / N, longest claim). Printed, never asserted.

    python benchmarks/bench_critical_path.py --log AUDIT_STDERR          # read an audit's progress lines
    python benchmarks/bench_critical_path.py --jobs 1 2 [--scheduler local] [--path DIR] [--ids ID ...] [--runs 1]

A claim runs in one worker from start to end, so no number of workers makes an audit's claim phase shorter than its
longest claim: the claim phase takes at least ``max(sum / N, critical path)`` on ``N`` workers, where ``sum`` is the
claims' worker seconds and the critical path the longest claim (a claim that waits for others, ``Claim.after``, adds
theirs).  The benchmark runs cold audits (each with an empty cache folder of its own, ``--no-pdf``) on ``N`` workers
(``--scheduler local``: a Dask LocalCluster of ``N`` workers), stamps every progress line as it comes, and prints per run:

* the phases: start-up (to the first figure point, or the start of the first claim), figures (to the last figure
  point), claims (to the last claim), the rest (reports);
* the claims' sum, the longest claims (the critical path), and the bound ``max(sum / N, critical path)`` against the
  claim phase measured;
* CPU seconds of the audit and its workers (user + system; wall times on a shared machine are noisy).

``--path DIR`` audits a user's derivations folder (one sub-folder per paper) instead of, or with ``--ids``, beside the
built-in papers: a folder of your own is the author's loop the issue asks about.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # (this checkout: `-m cbdp_sym` runs its code)
LINE = re.compile(r"^\[\s*(\d+)/(\d+)\]\s+(\S+)\s+(\S+).*?\((\d+(?:\.\d+)?) s\)(?:\s.*)?$")  # (the points behind the verdict may follow)


def parse(lines):
    """``[(t, kind, text)]`` -> phases and per-claim seconds.  ``t``: seconds since the start (``None``: unknown)."""
    claims, fig_last, first = {}, None, None
    for t, text in lines:
        if text.startswith("[figures"):
            fig_last = t
            first = t if first is None else first
            continue
        m = LINE.match(text)
        if m:
            claims[m.group(3)] = float(m.group(5))
            if t is not None:  # (a claim began its seconds before its line)
                began = t - float(m.group(5))
                first = began if first is None else min(first, began)
    return claims, first, fig_last


def report(claims, n, wall=None, first=None, fig_last=None, claims_end=None, cpu=None, top=8):
    total = sum(claims.values())
    ranked = sorted(claims.items(), key=lambda kv: -kv[1])
    cp = ranked[0][1] if ranked else 0.0
    bound = max(total / n, cp)
    print(f"  claims: {len(claims)}, sum {total:.1f} worker-s, longest {cp:.1f} s ({ranked[0][0] if ranked else '-'}); "
          f"max(sum/{n}, longest) = {bound:.1f} s")
    print("  longest claims: " + ", ".join(f"{cid} {s:.1f}" for cid, s in ranked[:top]))
    if ranked:
        med = statistics.median(claims.values())
        print(f"  median claim {med:.2f} s; claims over 10 s: {sum(s > 10 for s in claims.values())}, "
              f"their sum {sum(s for s in claims.values() if s > 10):.1f} s")
    if wall is not None:
        start = max(first, 0.0) if first is not None else 0.0
        figs = (fig_last - start) if fig_last is not None else 0.0
        phase_start = fig_last if fig_last is not None else start
        claim_phase = (claims_end - phase_start) if claims_end is not None else None
        print(f"  wall {wall:.1f} s: start-up {start:.1f}, figures {figs:.1f}, "
              + (f"claims {claim_phase:.1f} (bound {bound:.1f}, ratio {claim_phase / bound:.2f}), "
                 f"reports {wall - claims_end:.1f}" if claim_phase is not None else "")
              + (f"; CPU {cpu:.1f} s (user+sys)" if cpu is not None else ""))


def run(n, scheduler, path, ids, cache, out, dps):
    cmd = [sys.executable, "-m", "cbdp_sym"] + (["--path", path] if path else []) + \
          ["audit", "--no-pdf", "--out", out, "--jobs", str(n), "--dps", str(dps)] + \
          (["--scheduler", scheduler] if scheduler else []) + list(ids)
    env = dict(os.environ, CBDP_SYM_CACHE=cache, PYTHONHASHSEED="0")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    lines, last_claim = [], None
    for text in proc.stderr:
        t = time.monotonic() - t0
        lines.append((t, text.rstrip("\n")))
        if LINE.match(text.strip()):
            last_claim = t
    proc.wait()
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):
        print(f"  (exit {proc.returncode}) " + " | ".join(t for _, t in lines[-3:]))
    claims, first, fig_last = parse(lines)
    return claims, wall, first, fig_last, last_claim, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", help="an audit's progress lines (stderr) to analyse instead of running audits")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="worker counts to run (default 1 2)")
    ap.add_argument("--scheduler", default=None, help="pass --scheduler (e.g. local: a Dask LocalCluster)")
    ap.add_argument("--path", default=None, help="a derivations folder of your own (cbdp-sym --path DIR)")
    ap.add_argument("--ids", nargs="*", default=[], help="claim IDs (default: every claim)")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--dps", type=int, default=50)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if args.log:
        with open(args.log, encoding="utf-8") as fh:
            claims, _first, _fl = parse([(None, ln.rstrip("\n")) for ln in fh])
        for n in args.jobs:
            print(f"from {args.log}, on {n} worker(s):")
            report(claims, n)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.jobs:
            for r in range(args.runs):
                cache, out = os.path.join(tmp, f"cache-{n}-{r}"), os.path.join(tmp, f"out-{n}-{r}")
                print(f"cold audit on {n} worker(s)" + (f", scheduler {args.scheduler}" if args.scheduler else "")
                      + (f", --path {args.path}" if args.path else "") + f" (run {r + 1}):", flush=True)
                claims, wall, first, fig_last, end, cpu = run(n, args.scheduler, args.path, args.ids, cache, out,
                                                              args.dps)
                report(claims, n, wall, first, fig_last, end, cpu)


if __name__ == "__main__":
    main()
