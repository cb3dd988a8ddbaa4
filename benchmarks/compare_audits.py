"""Compare two audit.json files claim by claim: statuses first, then values and digit fields. Printed, never asserted.

    python benchmarks/compare_audits.py BASE.json NEW.json [--ids ID ...]

For a speed change under issue 31's rule: no status may change (listed first, and the exit code is 1 if one did); a value
may change only beyond the digits it establishes (each changed value is listed with the digits on which the two agree,
against the digits the base printed); agreement-digit fields and derived forms may change (counted, and listed with
``--all``).
"""
import argparse
import json
import sys
from decimal import Decimal, InvalidOperation


def agree(a: str, b: str):
    """Relative digits on which two decimal strings agree (``None`` if either is not a number)."""
    try:
        x, y = Decimal(a), Decimal(b)
    except (InvalidOperation, TypeError):
        return None
    if x == y:
        return float("inf")
    big = max(abs(x), abs(y))
    if big == 0:
        return float("inf")
    return float(-(abs(x - y) / big).log10())


def sig(a: str) -> int:
    """Significant digits printed in a decimal string."""
    s = a.lstrip("+-").split("e")[0].split("E")[0].replace(".", "").lstrip("0")
    return len(s)


def walk(prefix, a, b, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            walk(f"{prefix}.{k}", a.get(k), b.get(k), out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            walk(f"{prefix}[{i}]", x, y, out)
    elif a != b:
        out.append((prefix, a, b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--ids", nargs="*", default=None)
    ap.add_argument("--all", action="store_true", help="list every changed field, not only values")
    args = ap.parse_args()
    base = {c["id"]: c for c in json.load(open(args.base))["claims"]}
    new = {c["id"]: c for c in json.load(open(args.new))["claims"]}
    ids = args.ids or sorted(set(base) & set(new))
    missing = sorted(set(args.ids or base) - set(new))
    status = [(i, base[i]["status"], new[i]["status"]) for i in ids if i in new and base[i]["status"] != new[i]["status"]]
    print(f"claims compared: {len(ids)}; missing from the new audit: {len(missing)} {missing[:10]}")
    print(f"status changes: {len(status)}")
    for i, a, b in status:
        print(f"  STATUS {i}: {a} -> {b}")
    kinds = {"value": [], "digits": [], "latex": [], "other": []}
    for i in ids:
        if i not in new:
            continue
        diffs = []
        walk(i, base[i], new[i], diffs)
        for path, a, b in diffs:
            leaf = path.rsplit(".", 1)[-1]
            if leaf.startswith("digits") or leaf in ("established", "min_digits"):
                kinds["digits"].append((path, a, b))
            elif "latex" in leaf:
                kinds["latex"].append((path, a, b))
            elif isinstance(a, str) and isinstance(b, str) and agree(a, b) is not None:
                kinds["value"].append((path, a, b))
            else:
                kinds["other"].append((path, a, b))
    for k, rows in kinds.items():
        print(f"{k} changes: {len(rows)}")
    for path, a, b in kinds["value"]:
        d = agree(a, b)
        print(f"  VALUE {path}: agree to {d:.1f} of {sig(a)} printed digits ({a[:24]} -> {b[:24]})")
    if args.all:
        for k in ("digits", "latex", "other"):
            for path, a, b in kinds[k]:
                print(f"  {k.upper()} {path}: {str(a)[:80]!r} -> {str(b)[:80]!r}")
    else:
        for path, a, b in kinds["other"][:40]:
            print(f"  OTHER {path}: {str(a)[:80]!r} -> {str(b)[:80]!r}")
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
