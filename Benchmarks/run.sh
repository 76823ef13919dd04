#!/usr/bin/env bash
# Time relaylint against `wc -l` and a DuckDB formulation of the same rules, on the same files.
#
# Usage: Benchmarks/run.sh [EVENTS...]          (default: 1000000)
#   e.g. Benchmarks/run.sh 1000000 5000000
#
# For each size: generates Benchmarks/data/<EVENTS>/ with generate.py if missing (SEED, default 1),
# reads the files once to warm the page cache, then runs, one after the other, under
# /usr/bin/time -v (wall time, peak RSS):
#   wc -l            the floor: reading the log once
#   relaylint        check with the built-in pack, --format json --output /dev/null
#   relaylint-4      check with only the four rules DuckDB implements (the others disabled by a
#                    --config file; no manifest), JSON report kept
#   duckdb           duckdb_check.py (rules.sql), findings kept
# then compares relaylint-4's findings with DuckDB's (compare.py) and prints a Markdown table.
#
# Environment: RELAYLINT (binary; default .build-static/release/relaylint, built with
# `swift build -c release --static-swift-stdlib --product relaylint --scratch-path .build-static` when missing:
# the shipped binary, as Scripts/release.sh builds it), SEED, THREADS (DuckDB threads).
# Results also go to Benchmarks/data/<EVENTS>/results.tsv and compare.txt.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
RELAYLINT="${RELAYLINT:-$ROOT/.build-static/release/relaylint}"
SEED="${SEED:-1}"
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(1000000)
FOUR_RULES=(consent-before-email-link consent-before-phone-link consent-before-social-link token-revoked-before-deletion)

if [ ! -x /usr/bin/time ]; then
    echo "installing GNU time (/usr/bin/time)" >&2
    apt-get install -y -q time >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q time >/dev/null; }
fi
if [ ! -x "$RELAYLINT" ]; then
    echo "building relaylint (release)" >&2
    (cd "$ROOT" && swift build -c release --static-swift-stdlib --product relaylint --scratch-path .build-static >&2)
fi
python3 "$HERE/duckdb_check.py" --setup-only
PY="$HERE/.venv/bin/python"

# relaylint-4 runs the binary's own built-in pack with every other rule disabled (a --config file),
# so that the rules always match the binary even while Rules/ changes.
FOUR_CONFIG="$HERE/data/relaylint-4-rules.yml"
mkdir -p "$HERE/data"
{
    echo "# written by run.sh: only the four rules DuckDB implements"
    echo "rules:"
    "$RELAYLINT" rules list | awk '{print $1}' | while read -r id; do
        case " ${FOUR_RULES[*]} " in *" $id "*) ;; *) echo "  $id: {enabled: false}" ;; esac
    done
} > "$FOUR_CONFIG"

. "$HERE/timed.sh"   # timed NAME LOG -- command...

for n in "${SIZES[@]}"; do
    dir="$HERE/data/$n"
    if [ ! -s "$dir/events.jsonl" ] || [ ! -s "$dir/accounts.json" ]; then
        python3 "$HERE/generate.py" --events "$n" --seed "$SEED" --out "$dir"
    fi
    ev="$dir/events.jsonl" ac="$dir/accounts.json" mf="$dir/manifest.yml"
    cat "$ev" "$ac" >/dev/null                     # warm the page cache
    cd "$dir"                                      # no .relaylint.yml here
    timed "wc -l" "$dir/time.wc" -- wc -l "$ev"
    timed relaylint "$dir/time.relaylint" -- "$RELAYLINT" check --accounts "$ac" --events "$ev" \
        --manifest "$mf" --format json --output /dev/null
    # no --manifest: the four rules do not read it (and leaving it out keeps the timings
    # comparable with earlier rounds)
    timed relaylint-4 "$dir/time.relaylint4" -- "$RELAYLINT" check --config "$FOUR_CONFIG" \
        --accounts "$ac" --events "$ev" --format json --output "$dir/relaylint4.json"
    timed duckdb "$dir/time.duckdb" -- "$PY" "$HERE/duckdb_check.py" ${THREADS:+--threads "$THREADS"} \
        --events "$ev" --accounts "$ac" --output "$dir/duckdb.jsonl"
    python3 "$HERE/compare.py" "$dir/duckdb.jsonl" "$dir/relaylint4.json" > "$dir/compare.txt" || true
    cd "$HERE"
done

python3 - "$HERE/data" "${SIZES[@]}" <<'EOF'
import os, re, sys
data, sizes = sys.argv[1], sys.argv[2:]
tools = (("wc -l", "time.wc"), ("relaylint", "time.relaylint"),
         ("relaylint-4", "time.relaylint4"), ("duckdb", "time.duckdb"))

def parse(path):
    text = open(path).read()
    secs = int(open(path + ".us").read()) / 1e6
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    return secs, rss / 1024

print("| events | tool | wall s | events/s | MB/s | peak RSS MiB | x wc -l | relaylint speed-up over DuckDB |")
print("|---:|---|---:|---:|---:|---:|---:|---:|")
for n in sizes:
    d = os.path.join(data, n)
    mb = os.path.getsize(os.path.join(d, "events.jsonl")) / 1e6
    res = {name: parse(os.path.join(d, f)) for name, f in tools}
    wc = res["wc -l"][0]
    duck = res["duckdb"][0]
    rows = []
    for name, _ in tools:
        secs, rss = res[name]
        speed = f"{duck / secs:.2f}x" if name.startswith("relaylint") else ""
        print(f"| {int(n):,} | {name} | {secs:.3g} | {int(n) / secs:,.0f} | {mb / secs:,.1f} | {rss:,.0f} | {secs / wc:,.1f} | {speed} |")
        rows.append(f"{n}\t{name}\t{secs:.3f}\t{rss:.1f}")
    with open(os.path.join(d, "results.tsv"), "w") as f:
        f.write("events\ttool\twall_s\tpeak_rss_mib\n" + "\n".join(rows) + "\n")
for n in sizes:
    verdict = open(os.path.join(data, n, "compare.txt")).read().strip().splitlines()
    total = next((l for l in verdict if l.startswith("total")), "")
    print(f"\n{n} events, relaylint-4 vs DuckDB: {verdict[-1]} ({' '.join(total.split()[1:])} = both / only DuckDB / only relaylint)")
EOF
