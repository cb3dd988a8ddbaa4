"""Warm audit: one cold run fills a fresh cache, then the median of N warm runs (nothing changed) is printed,
with a byte comparison of the warm reports against the cold ones.  Printed, never asserted.

    python benchmarks/bench_warm.py [--runs 3] [--jobs 2] [--no-pdf] [--cache DIR] [--skip-cold] [IDS ...]

Without IDs: the full audit (cold: about 9 minutes on 2 idle cores).  ``--cache DIR --skip-cold`` times warm
runs from a cache filled before (e.g. by a previous run of this script).  The load average is printed next to
the times: on a shared machine the wall times mean little without it.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd, env):
    t = time.perf_counter()
    cpu0 = os.times()
    proc = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
    cpu1 = os.times()
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    cpu = (cpu1.children_user - cpu0.children_user) + (cpu1.children_system - cpu0.children_system)
    return wall, cpu


def files(out: Path) -> dict:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.name.startswith(".") and p.suffix != ".pdf"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ids", nargs="*")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-pdf", action="store_true")
    ap.add_argument("--cache", default=None, help="cache folder (default: a fresh temporary one)")
    ap.add_argument("--skip-cold", action="store_true", help="the cache is already filled: time warm runs only")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or os.path.join(tmp, "cache")
        env = dict(os.environ, CBDP_SYM_CACHE=cache, PYTHONHASHSEED="0")
        base = [sys.executable, "-m", "cbdp_sym", "audit", *args.ids, "--jobs", str(args.jobs)] + (
            ["--no-pdf"] if args.no_pdf else [])
        out = Path(tmp) / "out"  # one folder: the PDFs of the cold run are what a warm run keeps
        if not args.skip_cold:
            w, c = timed(base + ["--out", str(out)], env)
            print(f"cold: {w:.1f} s wall, {c:.1f} s CPU (load {os.getloadavg()[0]:.1f})", flush=True)
        first = files(out) if out.exists() else None
        warm = []
        for i in range(args.runs):
            w, c = timed(base + ["--out", str(out)], env)
            warm.append(w)
            print(f"warm {i + 1}: {w:.1f} s wall, {c:.1f} s CPU (load {os.getloadavg()[0]:.1f})", flush=True)
            if first is not None:
                now = files(out)
                diff = sorted(k for k in set(now) | set(first) if now.get(k) != first.get(k))
                print("  reports identical to the first run's" if not diff else f"  DIFFERENT: {diff[:5]}", flush=True)
            else:
                first = files(out)
    print(f"{'full audit' if not args.ids else f'{len(args.ids)} claims'}, warm, --jobs {args.jobs}, "
          f"PDF {'no' if args.no_pdf else 'yes'}: median {statistics.median(warm):.1f} s {[round(x, 1) for x in warm]} "
          f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
