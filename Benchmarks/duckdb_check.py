#!/usr/bin/env python3
"""Evaluate the four per-subject relaylint rules with DuckDB (Benchmarks/rules.sql).

Usage:
  python3 Benchmarks/duckdb_check.py --events events.jsonl [--events more.jsonl]
                                     [--accounts accounts.json]... [--output findings.jsonl]
                                     [--threads N] [--setup-only]

Writes the findings as JSON lines {"rule": ..., "subject": ..., "event": ...}, sorted by rule,
subject and event, to --output (default: standard output), so that compare.py can put them next
to relaylint's JSON report. Prints the DuckDB version and the wall time to standard error.

DuckDB comes from PyPI: on first use the script creates Benchmarks/.venv, installs duckdb there,
and re-runs itself with that interpreter (--setup-only stops after that step, for run.sh).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, ".venv")
VENV_PY = os.path.join(VENV, "bin", "python")
REQUIREMENT = "duckdb==2.0.0"       # the version RESULTS.md was measured with
# Unicode White_Space (what Swift's Character.isWhitespace trims; U+200B is not among them)
WHITESPACE = "".join(chr(c) for c in [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680,
                                      *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000])


def ensure_venv():
    """Re-executes this script inside Benchmarks/.venv, creating it and installing duckdb if needed."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(VENV_PY):
        print(f"creating {VENV} and installing {REQUIREMENT}", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
        subprocess.check_call([VENV_PY, "-m", "pip", "install", "-q", REQUIREMENT])
    else:
        probe = subprocess.run([VENV_PY, "-c", "import duckdb"], capture_output=True)
        if probe.returncode != 0:
            subprocess.check_call([VENV_PY, "-m", "pip", "install", "-q", REQUIREMENT])
    os.execv(VENV_PY, [VENV_PY, os.path.abspath(__file__)] + sys.argv[1:])


def sql_string(s):
    return "'" + s.replace("'", "''") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", action="append", default=[], help="JSON Lines action log (repeatable)")
    ap.add_argument("--accounts", action="append", default=[], help="firebase auth:export JSON (repeatable)")
    ap.add_argument("--output", help="findings file (default: standard output)")
    ap.add_argument("--threads", type=int, help="DuckDB threads (default: all cores)")
    ap.add_argument("--setup-only", action="store_true", help="only create the virtualenv")
    args = ap.parse_args()
    ensure_venv()
    if args.setup_only:
        return 0
    if not args.events:
        ap.error("give at least one --events file")
    for path in args.events + args.accounts:
        if path.lower().endswith(".csv"):
            ap.error(f"{path}: the CSV export is not supported here, use the JSON export")

    import duckdb

    started = time.monotonic()
    con = duckdb.connect(":memory:")
    if args.threads:
        con.execute(f"SET threads = {int(args.threads)}")
    con.execute("SET VARIABLE events_path = ?", [[os.path.abspath(p) for p in args.events]])
    accounts = [os.path.abspath(p) for p in args.accounts]
    empty = None
    if not accounts:                 # read_json needs a file: an export with no users
        empty = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        empty.write('{"users": []}')
        empty.close()
        accounts = [empty.name]
    con.execute("SET VARIABLE accounts_path = ?", [accounts])

    to_stdout = not args.output
    out_path = args.output or tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False).name
    with open(os.path.join(HERE, "rules.sql"), encoding="utf-8") as f:
        script = f.read()
    script = script.replace("@WS@", WHITESPACE.replace("'", "''"))
    script = script.replace("(getvariable('findings_path'))", sql_string(os.path.abspath(out_path)))
    con.execute(script)
    con.close()
    if empty:
        os.unlink(empty.name)
    if to_stdout:
        with open(out_path, encoding="utf-8") as f:
            sys.stdout.write(f.read())
        os.unlink(out_path)
    print(f"duckdb {duckdb.__version__}: {time.monotonic() - started:.2f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
