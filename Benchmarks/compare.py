#!/usr/bin/env python3
"""Compare DuckDB's findings (duckdb_check.py) with relaylint's JSON report.

Usage:
  python3 Benchmarks/compare.py DUCKDB_FINDINGS.jsonl RELAYLINT_REPORT.json [--limit 20]

Only the rules DuckDB implements are compared (the four per-subject rules of rules.sql); the
app-level rule in-app-deletion-offered and every other rule in relaylint's report are counted and
ignored. A finding is the triple (rule, subject, event). Prints the agreements per rule and the
first --limit differences on each side. Exit code 0 when both sides agree, 1 otherwise.
"""

import argparse
import collections
import json
import sys

RULES = (
    "consent-before-email-link",
    "consent-before-phone-link",
    "consent-before-social-link",
    "token-revoked-before-deletion",
)


def load_duckdb(path):
    found = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                o = json.loads(line)
                found.add((o["rule"], o["subject"], o["event"]))
    return found


def load_relaylint(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    found, ignored = set(), collections.Counter()
    for o in report.get("findings", []):
        if o["rule"] in RULES:
            found.add((o["rule"], o["subject"], o["event"]))
        else:
            ignored[o["rule"]] += 1
    return found, ignored, report.get("summary", {})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("duckdb", help="findings from duckdb_check.py (JSON lines)")
    ap.add_argument("relaylint", help="relaylint check --format json report")
    ap.add_argument("--limit", type=int, default=20, help="differences to print per side")
    args = ap.parse_args()

    duck = load_duckdb(args.duckdb)
    relay, ignored, summary = load_relaylint(args.relaylint)
    both = duck & relay
    only_duck = sorted(duck - relay, key=lambda f: (f[1], f[0], f[2]))
    only_relay = sorted(relay - duck, key=lambda f: (f[1], f[0], f[2]))

    if summary:
        print(f"relaylint summary: {json.dumps(summary, sort_keys=True)}")
    if ignored:
        print("ignored relaylint findings (rules DuckDB does not implement): "
              + ", ".join(f"{r} {n}" for r, n in sorted(ignored.items())))
    print(f"{'rule':32s} {'both':>8s} {'only duckdb':>12s} {'only relaylint':>15s}")
    for rule in RULES:
        b = sum(1 for f in both if f[0] == rule)
        d = sum(1 for f in only_duck if f[0] == rule)
        r = sum(1 for f in only_relay if f[0] == rule)
        print(f"{rule:32s} {b:8d} {d:12d} {r:15d}")
    print(f"{'total':32s} {len(both):8d} {len(only_duck):12d} {len(only_relay):15d}")
    for title, diff in (("only in DuckDB", only_duck), ("only in relaylint", only_relay)):
        if diff:
            print(f"\n{title} (first {min(args.limit, len(diff))} of {len(diff)}):")
            for rule, subject, event in diff[: args.limit]:
                print(f"  {rule}  {subject}  {event}")
    agree = not only_duck and not only_relay
    print("\nAGREE" if agree else "\nDIFFER")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
