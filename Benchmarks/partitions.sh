#!/usr/bin/env bash
# What a partitioned run costs against one run (issue 21): `split`, N `check --partition K/N` runs
# and `merge`, against one `check` over all the data, in CPU, wall time and peak memory.
#
# Usage: Benchmarks/partitions.sh [EVENTS...]          (default: 1000000 10000000)
#   e.g. PARTITIONS="2 4" Benchmarks/partitions.sh 1000000
#
# For each size: generates Benchmarks/data/<EVENTS>-unique-ids/ with generate.py --unique-ids if
# missing (SEED, default 1): run.sh's data but for the event ids, which there are reused by two
# subjects now and then, something a partitioned run cannot see (README, "Partitioned runs"), so
# that its report would differ. It reads the files once to warm the page cache, then, under
# /usr/bin/time -v (user + sys CPU, wall, peak RSS):
#   single     check --jobs 1 over all the data (built-in pack, the generated manifest, JSON report
#              to single.json)
# and for each N of PARTITIONS (default "2 4 8"):
#   split      split --partitions N into parts-N/ (then `sync`, not timed, so that writing the
#              partitions back does not fall into the runs' wall time)
#   runs       check --jobs 1 --partition K/N --data-end "$(cat parts-N/data-end.txt)" over each
#              partition's files, PARALLEL (default 2) at a time (xargs -P); the wall time is the
#              whole batch's, the CPU the sum of the runs', the peak RSS each run's own
#   merge      merge --sources parts-N/sources.json of the N partials, JSON to merged-N.json
# The merged report must equal single.json byte for byte (cmp), or differ only as README allows for
# this data (the caps on notes apply per partition, so the merged list of look-alike relay
# addresses is longer; every other member equal, the notes counted the same); else the script fails.
# Prints Markdown tables: the costs (CPU of runs + merge, and with split, against the single run;
# the runs' wall against the single run's), and each partition run's peak RSS and partial size.
# Results also go to Benchmarks/data/<EVENTS>-unique-ids/partitions.tsv; parts-N/ is removed after each N
# unless KEEP_PARTS=1.
#
# Environment: RELAYLINT (binary; default .build-static/release/relaylint, built with
# `swift build -c release --static-swift-stdlib --product relaylint --scratch-path .build-static` when missing), SEED,
# PARTITIONS, PARALLEL, KEEP_PARTS.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
RELAYLINT="${RELAYLINT:-$ROOT/.build-static/release/relaylint}"
SEED="${SEED:-1}"
PARTITIONS="${PARTITIONS:-2 4 8}"
PARALLEL="${PARALLEL:-2}"
KEEP_PARTS="${KEEP_PARTS:-0}"
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(1000000 10000000)

if [ ! -x /usr/bin/time ]; then
    echo "installing GNU time (/usr/bin/time)" >&2
    apt-get install -y -q time >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q time >/dev/null; }
fi
if [ ! -x "$RELAYLINT" ]; then
    echo "building relaylint (release)" >&2
    (cd "$ROOT" && swift build -c release --static-swift-stdlib --product relaylint --scratch-path .build-static >&2)
fi
RELAYLINT="$(cd "$(dirname "$RELAYLINT")" && pwd)/$(basename "$RELAYLINT")"   # runs cd into the data

. "$HERE/timed.sh"   # timed NAME LOG -- command...

# one partition run, for xargs: partition-run K N (in the data folder)
partition_run() {
    local k="$1" n="$2" rc=0
    /usr/bin/time -v -o "time.part$n.$k" "$RELAYLINT" check --jobs 1 --manifest manifest.yml \
        --partition "$k/$n" --data-end "$(cat "parts-$n/data-end.txt")" \
        --accounts "parts-$n/partition-$k-of-$n/accounts.json" \
        --events "parts-$n/partition-$k-of-$n/events.jsonl" \
        --format json --output "partial-$n-$k.json" >/dev/null 2>"time.part$n.$k.stderr" || rc=$?
    if [ "$rc" -gt 1 ]; then
        echo "partition $k/$n failed with exit code $rc:" >&2; cat "time.part$n.$k.stderr" >&2
        return 255                                 # xargs stops at once
    fi
}
export -f partition_run
export RELAYLINT

for n in "${SIZES[@]}"; do
    dir="$HERE/data/$n-unique-ids"
    if [ ! -s "$dir/events.jsonl" ] || [ ! -s "$dir/accounts.json" ] || [ ! -s "$dir/manifest.yml" ]; then
        python3 "$HERE/generate.py" --events "$n" --seed "$SEED" --unique-ids --out "$dir"
    fi
    cd "$dir"                                      # no .relaylint.yml here; relative names, so
    cat events.jsonl accounts.json >/dev/null      # the reports name the same files
    rm -f time.* partial-*.json merged-*.json match-*.txt single.json
    echo "before the single run $(cut -d' ' -f1-3 /proc/loadavg)" | tee load.txt >&2
    # the same options as a normal check (built-in pack, manifest, JSON report to a file)
    timed single time.single -- "$RELAYLINT" check --jobs 1 --manifest manifest.yml \
        --accounts accounts.json --events events.jsonl --format json --output single.json
    for parts in $PARTITIONS; do
        rm -rf "parts-$parts"
        echo "before N = $parts $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a load.txt >&2
        timed split "time.split$parts" -- "$RELAYLINT" split --partitions "$parts" \
            --accounts accounts.json --events events.jsonl --output "parts-$parts"
        sync
        du -sb "parts-$parts" | cut -f1 > "parts-$parts.bytes"
        t0=$(date +%s%N)
        seq 1 "$parts" | xargs -P "$PARALLEL" -I{} bash -c 'partition_run "$1" "$2"' _ {} "$parts"
        t1=$(date +%s%N)
        echo "$(( (t1 - t0) / 1000 ))" > "time.runs$parts.us"
        partials=()
        for k in $(seq 1 "$parts"); do partials+=("partial-$parts-$k.json"); done
        timed merge "time.merge$parts" -- "$RELAYLINT" merge --manifest manifest.yml \
            --sources "parts-$parts/sources.json" "${partials[@]}" --format json \
            --output "merged-$parts.json"
        if cmp -s "merged-$parts.json" single.json; then
            echo "yes (cmp)" > "match-$parts.txt"
        elif python3 - single.json "merged-$parts.json" > "match-$parts.txt" <<'PY'
# The one difference README allows on this data: caps on notes (200 look-alike addresses, 400
# notes) apply per partition, so the merged list is longer. Everything else must be equal, every
# note one run lists must be in the merged list, and the notes counted must add up the same.
import json, re, sys
single, merged = (json.load(open(f)) for f in sys.argv[1:3])
more = re.compile(r"(\d+) more .* not listed$")
def counted(notes):
    return sum(int(m.group(1)) if (m := more.match(n["message"])) else 1 for n in notes)
listed = {json.dumps(n, sort_keys=True) for n in merged["notes"]}
ok = ({k: v for k, v in single.items() if k != "notes"} == {k: v for k, v in merged.items() if k != "notes"}
      and all(json.dumps(n, sort_keys=True) in listed for n in single["notes"] if not more.match(n["message"]))
      and counted(single["notes"]) == counted(merged["notes"]))
print(f"but for the note caps: {len(single['notes'])} → {len(merged['notes'])} notes listed" if ok else "no")
sys.exit(0 if ok else 1)
PY
        then
            echo "$n events, $parts partitions: the merged report equals the single run's but for the" \
                "per-partition caps on notes (README, \"Partitioned runs\")" >&2
        else
            echo "FAIL: $n events, $parts partitions: the merged report differs from the single run's" \
                "($dir/merged-$parts.json vs single.json)" >&2
            exit 1
        fi
        [ "$KEEP_PARTS" = 1 ] || rm -rf "parts-$parts"
    done
    echo "after $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a load.txt >&2
    cd "$HERE"
done

python3 - "$HERE/data" "$PARTITIONS" "$PARALLEL" "${SIZES[@]}" <<'EOF'
import os, re, statistics, sys
data, partitions, parallel, sizes = sys.argv[1], [int(p) for p in sys.argv[2].split()], sys.argv[3], sys.argv[4:]

def parse(path):
    """(cpu s = user + sys, wall s, peak RSS MiB) of a /usr/bin/time -v log"""
    text = open(path).read()
    num = lambda key: float(re.search(re.escape(key) + r": ([\d.]+)", text).group(1))
    cpu = num("User time (seconds)") + num("System time (seconds)")
    if os.path.exists(path + ".us"):
        wall = int(open(path + ".us").read()) / 1e6
    else:
        clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text).group(1)
        wall = 0.0
        for part in clock.split(":"):
            wall = wall * 60 + float(part)
    return cpu, wall, num("Maximum resident set size (kbytes)") / 1024

mib = lambda b: b / 2**20
for n in sizes:
    d = os.path.join(data, n + "-unique-ids")
    print(f"\n### {int(n):,} events ({mib(os.path.getsize(os.path.join(d, 'events.jsonl'))):,.0f} MiB log, "
          f"{mib(os.path.getsize(os.path.join(d, 'accounts.json'))):,.0f} MiB export)\n")
    print("load average (1, 5, 15 min), " + "; ".join(l.strip() for l in open(os.path.join(d, "load.txt"))) + "\n")
    s_cpu, s_wall, s_rss = parse(os.path.join(d, "time.single"))
    print(f"| N | split CPU s | split wall s | runs CPU s | runs wall s ({parallel} at a time) | merge CPU s | "
          "merge wall s | merge peak MiB | runs + merge CPU / single | with split | runs wall / single | "
          "peak MiB per run, max (min) | merged = single |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    print(f"| 1 (single run) | | | {s_cpu:.1f} | {s_wall:.1f} | | | | 1 | 1 | 1 | {s_rss:,.0f} | |")
    rows, detail = [], []
    for p in partitions:
        sp_cpu, sp_wall, sp_rss = parse(os.path.join(d, f"time.split{p}"))
        runs = [parse(os.path.join(d, f"time.part{p}.{k}")) for k in range(1, p + 1)]
        r_cpu = sum(r[0] for r in runs)
        r_wall = int(open(os.path.join(d, f"time.runs{p}.us")).read()) / 1e6
        m_cpu, m_wall, m_rss = parse(os.path.join(d, f"time.merge{p}"))
        rss = [r[2] for r in runs]
        print(f"| {p} | {sp_cpu:.1f} | {sp_wall:.1f} | {r_cpu:.1f} | {r_wall:.1f} | {m_cpu:.2f} | {m_wall:.2f} | "
              f"{m_rss:,.0f} | {(r_cpu + m_cpu) / s_cpu:.2f} | {(sp_cpu + r_cpu + m_cpu) / s_cpu:.2f} | "
              f"{r_wall / s_wall:.2f} | {max(rss):,.0f} ({min(rss):,.0f}) | "
              + open(os.path.join(d, f"match-{p}.txt")).read().strip() + " |")
        sizes_ = [os.path.getsize(os.path.join(d, f"partial-{p}-{k}.json")) for k in range(1, p + 1)]
        detail.append((p, runs, sizes_, sp_rss, int(open(os.path.join(d, f"parts-{p}.bytes")).read())))
        rows.append(f"{n}\t{p}\tsplit\t{sp_cpu:.2f}\t{sp_wall:.3f}\t{sp_rss:.1f}")
        rows += [f"{n}\t{p}\tpartition {k}\t{c:.2f}\t{w:.3f}\t{r:.1f}" for k, (c, w, r) in enumerate(runs, 1)]
        rows.append(f"{n}\t{p}\truns\t{r_cpu:.2f}\t{r_wall:.3f}\t{max(rss):.1f}")
        rows.append(f"{n}\t{p}\tmerge\t{m_cpu:.2f}\t{m_wall:.3f}\t{m_rss:.1f}")
    print(f"\nsingle run: `check --jobs 1`, report {mib(os.path.getsize(os.path.join(d, 'single.json'))):,.1f} MiB\n")
    # a run with much less CPU than wall time shared its core with something else (2 at a time on
    # 2 cores should give each run a core)
    print("| N | split peak MiB | split output MiB | each run: CPU s / wall s / peak MiB | lowest CPU / wall of a run | partial MiB, max |")
    print("|---:|---:|---:|---|---:|---:|")
    for p, runs, sizes_, sp_rss, parts_bytes in detail:
        each = ", ".join(f"{c:.1f}/{w:.1f}/{r:,.0f}" for c, w, r in runs)
        share = min(c / w for c, w, _ in runs)
        print(f"| {p} | {sp_rss:,.0f} | {mib(parts_bytes):,.0f} | {each} | {share:.0%} | {mib(max(sizes_)):,.1f} |")
    with open(os.path.join(d, "partitions.tsv"), "w") as f:
        f.write("events\tpartitions\tstep\tcpu_s\twall_s\tpeak_rss_mib\n")
        f.write(f"{n}\t1\tsingle\t{s_cpu:.2f}\t{s_wall:.3f}\t{s_rss:.1f}\n" + "\n".join(rows) + "\n")
EOF
