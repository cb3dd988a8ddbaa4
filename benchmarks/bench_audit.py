"""Timings of the full audit (cold: no numeric cache; and warm) and of one `eval`. Printed, never asserted.

    python benchmarks/bench_audit.py [--runs 3] [--pdf]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd, env, log=None):
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    if log:
        with open(log, "w") as fh:
            fh.write(proc.stdout + proc.stderr)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pdf", action="store_true", help="include compiling the PDF")
    ap.add_argument("--keep", metavar="DIR", help="copy the first cold run's reports (audit.json, ...) into DIR")
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        def audit(i):  # each run writes into its own folder: a PDF already there would not be rebuilt
            return [py, "-m", "cbdp_sym", "audit", "--out", os.path.join(tmp, f"out{i}")] + ([] if args.pdf else ["--no-pdf"])

        cold = []
        for i in range(args.runs):  # each cold run starts from its own empty cache and fills it
            env = dict(os.environ, CBDP_SYM_CACHE=os.path.join(tmp, f"cache{i}"), PYTHONHASHSEED="0")
            cold.append(timed(audit(i), env, os.path.join(tmp, f"out{i}", "log.txt") if i == 0 and args.keep else None))
            print(f"  cold run {i + 1}: {cold[-1]:.1f} s (load average {os.getloadavg()[0]:.1f})", flush=True)
            if i == 0 and args.keep:  # with the run's printed output, log.txt (per-claim times)
                shutil.copytree(os.path.join(tmp, "out0"), args.keep, dirs_exist_ok=True)
        audit = audit(args.runs - 1)  # warm: the last cold run's cache and reports
        warm = [timed(audit, env) for _ in range(args.runs)]  # from the last cold run's cache
        ev = [timed([py, "-m", "cbdp_sym", "eval", "CBDP-T9", "--at", "eps=2", "--dps", "50", "--no-cache"], env)
              for _ in range(args.runs)]
        one = [timed([py, "-m", "cbdp_sym", "audit", "CBDP-T9", "--no-pdf", "--no-cache", "--out", os.path.join(tmp, "o2")], env)
               for _ in range(args.runs)]
    print(f"machine: {os.cpu_count()} cores; runs: {args.runs}; PDF: {args.pdf}")
    print(f"full audit, cold (no cache): median {statistics.median(cold):.1f} s  {[round(x, 1) for x in cold]}")
    print(f"full audit, warm (cache):    median {statistics.median(warm):.1f} s  {[round(x, 1) for x in warm]}")
    print(f"eval CBDP-T9 at eps=2:       median {statistics.median(ev):.1f} s  {[round(x, 1) for x in ev]}")
    print(f"audit CBDP-T9 alone, cold:   median {statistics.median(one):.1f} s  {[round(x, 1) for x in one]}")


if __name__ == "__main__":
    main()
