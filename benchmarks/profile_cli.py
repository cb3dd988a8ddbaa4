"""Profile one command line in this process with pyinstrument (import time included). Printed, never asserted.

    python benchmarks/profile_cli.py [--top 25] [--html out.html] -- --version
    python benchmarks/profile_cli.py -- profile --P "normal(1,1)" --Q "normal(0,1)" --delta 1e-5

The commands that normally run in a child process killed at ``--timeout`` (``eval``, ``restricted``, ``show``,
``profile``) run here in this process instead, so that the profiler sees their work, and not on the large data-stack
chunk (:mod:`cbdp_sym.core.datastack`: pyinstrument would read its 70,000 locals at every sample).
Needs ``pip install pyinstrument`` (not a dependency of the package).
"""
import argparse
import contextlib
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # (this checkout, not an installed copy)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=25, help="lines of the call tree to print")
    ap.add_argument("--html", default=None, help="also write pyinstrument's HTML page here")
    ap.add_argument("argv", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
    from pyinstrument import Profiler

    prof = Profiler(interval=0.0005)
    prof.start()
    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out):
        try:
            import cbdp_sym.core.timelimit as tl

            tl.run_with_limit = lambda fn, seconds, what: fn()  # profile the work here, not in a child
            import cbdp_sym.core.datastack as ds

            # pyinstrument reads each sampled frame's locals (to name a method's class): on the 70,000-slot frame
            # of on_large_stack that costs milliseconds per sample and swamps the profile, so call directly
            ds.on_large_stack = lambda fn, *a, **k: fn(*a, **k)
            from cbdp_sym.app import cli

            cli.run_with_limit = tl.run_with_limit
            if hasattr(cli, "on_large_stack"):
                cli.on_large_stack = ds.on_large_stack
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code
    prof.stop()
    print(out.getvalue().rstrip()[:2000])
    print(f"(exit {code})")
    text = prof.output_text(unicode=False, color=False, show_all=False)
    print("\n".join(text.splitlines()[: args.top + 8]))
    if args.html:
        with open(args.html, "w") as fh:
            fh.write(prof.output_html())


if __name__ == "__main__":
    sys.exit(main())
