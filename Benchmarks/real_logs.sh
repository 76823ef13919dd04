#!/usr/bin/env bash
# How fast relaylint reads Google Cloud Logging entries (the built-in google-cloud-logging
# mapping), against DuckDB's read_json on the same file.
#
# Usage: Benchmarks/real_logs.sh [SUBJECTS...]      (default: 25000, about 108k entries of ~1.5 KB)
#
# For each size: generates Benchmarks/data/real-<SUBJECTS>/ with generate_real_logs.py
# --entry-padding if missing, warms the page cache, then runs under /usr/bin/time -v:
#   wc -l        the floor
#   relaylint    check --events identity-platform.jsonl (every entry parsed, mapped, validated,
#                evaluated by the built-in pack), JSON report to /dev/null
#   relaylint-reading  the same with every rule disabled: the reading alone (parsed, validated,
#                mapped, hashed, filed), to compare with what DuckDB's read_json does
#   duckdb-read_json   DuckDB's typed reader (read_json) on the same file: the members the mapping
#                reads of an activity-log entry (ids, time, method, the request's and response's
#                members, is_private_email inside rawUserInfo), each one used by the query
#   duckdb-objects     read_json_objects + json_extract of insertId, timestamp, both payloads'
#                methodName, request and response, each one used by the query
# Every extracted column is used (counted or measured): DuckDB's optimizer drops columns a
# query does not use, and an earlier version of this script, which counted only rows and
# distinct ids, had DuckDB extract insertId alone.
#   duckdb-cli-read_json  the same read_json query run by DuckDB's command-line tool (PyPI
#                duckdb-cli, its binary called directly): a process that starts in a few
#                milliseconds, the fairest whole-process comparison with relaylint's
#   *-query-alone      each DuckDB query timed inside Python (perf_counter around execute and
#                fetchall): its process's wall time includes ~0.1 s of starting Python and
#                importing duckdb, which the DuckDB command-line tool does not spend, so this is
#                the time to compare relaylint's with (relaylint's own start, ~20 ms, is in its
#                wall time).
# Each command runs RUNS times (default 5): the table shows the median wall time (one run
# varies by a tenth or more on this machine) and the largest peak. It prints entries per second. RELAYLINT (default .build-static/release/relaylint, built when
# missing as Scripts/release.sh builds the shipped binary: the Swift runtime linked in, which
# starts 6 ms sooner and calls the runtime directly), THREADS (DuckDB threads, default 2).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
RELAYLINT="${RELAYLINT:-$ROOT/.build-static/release/relaylint}"
THREADS="${THREADS:-2}"
RUNS="${RUNS:-5}"
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(25000)

[ -x /usr/bin/time ] || apt-get install -y -q time >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q time >/dev/null; }
[ -x "$RELAYLINT" ] || (cd "$ROOT" && swift build -c release --static-swift-stdlib --product relaylint --scratch-path .build-static >&2)
python3 -c 'import cryptography' 2>/dev/null || python3 -m pip install --quiet cryptography
python3 "$HERE/duckdb_check.py" --setup-only
PY="$HERE/.venv/bin/python"
# DuckDB's command-line tool, pinned too (duckdb_check.py pins the Python package): PyPI's
# duckdb-cli is DuckDB 1.5.6, the Python package 2.0.0, so the two rows are of two versions
"$PY" -c 'import duckdb_cli' 2>/dev/null || "$PY" -m pip install --quiet duckdb-cli==1.5.6
DUCKDB_CLI="$("$PY" -c 'import duckdb_cli, os; print(os.path.join(os.path.dirname(duckdb_cli.__file__), "duckdb"))')"

measure() { # name, command...: runs the command RUNS times and prints "name seconds peak-MiB"
    # (the median wall time, the largest peak), and a second line "name-query-alone seconds -"
    # (the median) when the command prints "query N" (the DuckDB rows: the query alone, timed
    # inside Python, without the ~0.1 s of starting Python and importing duckdb)
    local name="$1"; shift
    local log out walls="" peaks="" queries="" run
    log="$(mktemp)"; out="$(mktemp)"
    for run in $(seq "$RUNS"); do
        /usr/bin/time -v "$@" >"$out" 2>"$log" || { echo "$name failed:" >&2; tail -5 "$log" >&2; }
        walls+="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }') "
        peaks+="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log") "
        queries+="$(sed -n 's/^query //p' "$out") "
    done
    rm -f "$log" "$out"
    median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
    local wall peak query
    wall=$(echo "$walls" | median)
    peak=$(echo "$peaks" | tr ' ' '\n' | grep . | sort -g | tail -1)
    query=$(echo "$queries" | median)
    echo "$name $wall $((peak / 1024))"
    [ -z "$query" ] || echo "$name-query-alone $query -"
}

echo "| subjects | entries | MB | tool | wall s | entries/s | peak MiB |"
echo "|---|---|---|---|---|---|---|"
for subjects in "${SIZES[@]}"; do
    dir="$HERE/data/real-$subjects"
    [ -f "$dir/identity-platform.jsonl" ] || python3 "$HERE/generate_real_logs.py" --subjects "$subjects" --seed 1 --out "$dir" --entry-padding >/dev/null
    file="$dir/identity-platform.jsonl"
    entries=$(wc -l < "$file")
    mb=$(( $(stat -c %s "$file") / 1000000 ))
    cat "$file" > /dev/null
    # The reading alone: every built-in rule disabled, so what is left is reading, validating,
    # mapping, hashing and filing the events, and writing a report of no findings.
    no_rules=$("$RELAYLINT" rules list --format json | python3 -c 'import json, sys; print(" ".join("--disable " + r["id"] for r in json.load(sys.stdin)["rules"]))')
    # Measured one after the other and printed after the last: a table row formatted while the
    # next command runs would take CPU from it (2 cores).
    rows=$({
        measure wc-l wc -l "$file"
        measure relaylint "$RELAYLINT" check --quiet --fail-on never --events "$file" --format json --output /dev/null
        measure relaylint-reading "$RELAYLINT" check --quiet --fail-on never --events "$file" --format json --output /dev/null $no_rules
        measure duckdb-cli-read_json "$DUCKDB_CLI" -c "SET threads TO $THREADS; SELECT count(*), count(DISTINCT insertId), count(timestamp), count(p.methodName),
  count(p.request.localId), count(p.request.idToken), count(p.request.email),
  count(p.request.deleteProvider), count(p.response.localId), count(p.response.email), count(p.response.providerId),
  count(p.response.isNewUser), count(p.response.federatedId), count(p.response.phoneNumber),
  count(json_extract(p.response.rawUserInfo, '\$.is_private_email'))
  FROM (SELECT insertId, timestamp, jsonPayload AS p FROM read_json('$file', format='newline_delimited', maximum_object_size=16777216))"
        measure duckdb-read_json "$PY" -c "
import duckdb, time
con = duckdb.connect(); con.execute('SET threads TO $THREADS')
started = time.perf_counter()
con.execute(\"\"\"SELECT count(*), count(DISTINCT insertId), count(timestamp), count(p.methodName),
  count(p.request.localId), count(p.request.idToken), count(p.request.email),
  count(p.request.deleteProvider), count(p.response.localId), count(p.response.email), count(p.response.providerId),
  count(p.response.isNewUser), count(p.response.federatedId), count(p.response.phoneNumber),
  count(json_extract(p.response.rawUserInfo, '\$.is_private_email'))
  FROM (SELECT insertId, timestamp, jsonPayload AS p FROM read_json('$file', format='newline_delimited', maximum_object_size=16777216))\"\"\").fetchall()
print('query %.2f' % (time.perf_counter() - started))
"
        measure duckdb-objects "$PY" -c "
import duckdb, time
con = duckdb.connect(); con.execute('SET threads TO $THREADS')
started = time.perf_counter()
con.execute(\"\"\"SELECT count(*), count(DISTINCT id), count(t), count(m1), count(m2), sum(length(rq::VARCHAR)), sum(length(rs::VARCHAR))
  FROM (SELECT json_extract_string(json, '\$.insertId') AS id, json_extract_string(json, '\$.timestamp') AS t,
  json_extract_string(json, '\$.jsonPayload.methodName') AS m1, json_extract_string(json, '\$.protoPayload.methodName') AS m2,
  json_extract(json, '\$.jsonPayload.request') AS rq, json_extract(json, '\$.jsonPayload.response') AS rs
  FROM read_json_objects('$file', format='newline_delimited', maximum_object_size=16777216))\"\"\").fetchall()
print('query %.2f' % (time.perf_counter() - started))
"
    })
    while read -r name seconds peak; do
        rate=$(awk -v n="$entries" -v s="$seconds" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }')
        echo "| $subjects | $entries | $mb | $name | $seconds | $rate | $peak |"
    done <<<"$rows"
done
