#!/usr/bin/env bash
# Builds relaylint's libFuzzer targets (Fuzz/, a package of its own) with the fuzzer and address
# sanitizers and runs each with seed corpora made from Examples/, Rules/, Mappings/ and the tests.
#
#   Scripts/fuzz.sh                   each target for 10 minutes (FUZZ_SECONDS to change)
#   Scripts/fuzz.sh --smoke           each target for 15 seconds (CI)
#   Scripts/fuzz.sh --runs N          each target for N executions
#   Scripts/fuzz.sh ... FuzzEventLine run only the targets named
#
# A crash, a sanitizer report or a differential mismatch stops the script with exit code 1; the
# input that caused it is kept in Fuzz/crashes/TARGET/ (reproduce: .build-fuzz/release/TARGET FILE).
# The corpora grow in .build-fuzz/corpus/TARGET, so a later run starts where the last one ended.
# Prints each target's executions and time at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=${FUZZ_SECONDS:-600}
runs=""
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) seconds=15 ;;
    --runs) runs=$2; shift ;;
    --time) seconds=$2; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    Fuzz*) targets+=("$1") ;;
    *) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
all=(FuzzJSONParser FuzzEventLine FuzzTimestamp FuzzAccountExport FuzzYAMLLoaders FuzzRecordMapper FuzzMappingLoader)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

build=$root/.build-fuzz
echo "== building the fuzz targets (release; address sanitizer, libFuzzer coverage)"
started=$(date +%s)
# -sanitize=fuzzer reaches the frontend only (coverage instrumentation for every module); the
# fuzz targets add it to their link (Fuzz/Package.swift), so that the build tool that embeds the
# built-in rules keeps its own main instead of libFuzzer's.
# lld, not gold: gold fails on libFuzzer's objects beside an entry point renamed by SwiftPM.
# A failed build stops the script: going on would fuzz the binaries of an earlier build (after
# sources move, SwiftPM's incremental build can fail on the old paths; `rm -rf .build-fuzz` then).
for target in "${targets[@]}"; do
  log=$(mktemp)
  if ! (cd Fuzz && swift build -c release --build-path "$build" -Xswiftc -enable-testing -Xswiftc -sanitize=address \
    -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld --product "$target" >"$log" 2>&1); then
    grep -E "error" "$log" | head -20 >&2
    echo "fuzz.sh: $target did not build (if sources moved since the last build: rm -rf .build-fuzz)" >&2
    rm -f "$log"
    exit 2
  fi
  grep -E "warning: .*Fuzz/" "$log" || true
  rm -f "$log"
done
for target in "${targets[@]}"; do
  [ -x "$build/release/$target" ] || { echo "fuzz.sh: $target did not build" >&2; exit 2; }
done
echo "== built in $(( $(date +%s) - started ))s"

# Seeds: one file per record, so that libFuzzer mutates records rather than whole files.
seeds=$build/seeds
# Only the seeds of the targets this run fuzzes are made afresh: another fuzz.sh may be running
# other targets from the same folder (two at a time on two cores).
for target in "${targets[@]}"; do rm -rf "${seeds:?}/$target"; done
mkdir -p "$seeds"
python3 - "$root" "$seeds" <<'PY'
import glob, json, os, sys
root, out = sys.argv[1], sys.argv[2]
def put(target, name, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data)
def lines(pattern):
    for path in sorted(glob.glob(os.path.join(root, pattern), recursive=True)):
        with open(path, "rb") as f:
            for n, line in enumerate(f.read().split(b"\n")):
                if line.strip():
                    yield f"{os.path.basename(path)}-{n}", line
def files(pattern):
    for path in sorted(glob.glob(os.path.join(root, pattern), recursive=True)):
        with open(path, "rb") as f:
            yield os.path.basename(path), f.read()
# Event lines: relaylint's own log, and lines the tests write (FastPathAgreementTests' edges).
for name, line in lines("Examples/**/*.jsonl"):
    put("FuzzEventLine", name, line)
    put("FuzzJSONParser", name, line)
    put("FuzzRecordMapper", name, line)
for path in sorted(glob.glob(os.path.join(root, "Tests/**/*.swift"), recursive=True)):
    text = open(path, encoding="utf-8").read()
    for n, part in enumerate(text.split('#"')[1:]):
        raw = part.split('"#')[0]
        if raw.startswith("{") and '"id"' in raw and "\n" not in raw:
            put("FuzzEventLine", f"{os.path.basename(path)}-{n}", raw.encode())
# Whole JSON documents and the elements of JSON arrays (gcloud's format).
for name, data in files("Examples/**/*.json"):
    put("FuzzJSONParser", name, data)
    try:
        value = json.loads(data)
    except ValueError:
        continue
    if isinstance(value, list):
        for n, element in enumerate(value):
            put("FuzzRecordMapper", f"{name}-{n}", json.dumps(element).encode())
# Times: every `time` of the example log, and the edges the contract names.
times = set()
for _, line in lines("Examples/events.jsonl"):
    try:
        value = json.loads(line)
        times.add(json.dumps(value["time"]) if not isinstance(value["time"], str) else value["time"])
    except (ValueError, KeyError):
        pass
times |= {"2026-03-01T12:00:00.123456789+02:00", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
          "1677-09-21T00:12:44Z", "2026-03-01t12:00:00z", "1772366400000", "1772366400000.5", "1.7723664e12", "-1", "1e-400"}
for n, text in enumerate(sorted(times)):
    put("FuzzTimestamp", f"time-{n}", text.encode())
# Exports: the first byte picks the reader (even JSON, odd CSV).
for name, data in files("Examples/accounts.json"):
    put("FuzzAccountExport", name, b"\x00" + data)
for name, data in files("Examples/**/*.csv"):
    put("FuzzAccountExport", name, b"\x01" + data)
# YAML: the first byte picks the loader (0 rules, 1 configuration, 2 manifest).
for name, data in files("Rules/**/*.yml"):
    put("FuzzYAMLLoaders", name, b"\x00" + data)
for name, data in files("Examples/rules/*.yml"):
    put("FuzzYAMLLoaders", "example-" + name, b"\x00" + data)
for name, data in files("Examples/.relaylint.yml"):
    put("FuzzYAMLLoaders", name, b"\x01" + data)
for name, data in files("Examples/manifest.yml"):
    put("FuzzYAMLLoaders", name, b"\x02" + data)
for name, data in files("Mappings/*.yml"):
    put("FuzzMappingLoader", name, data)
for name, data in files("Examples/real-logs/*.yml"):
    put("FuzzMappingLoader", name, data)
PY

export SWIFT_BACKTRACE=enable=no
# Leak checking is off: the Swift runtime's caches and the loaders' lazily built globals are
# reported as leaks at exit; every other ASan check stays on. malloc_context_size=0: ASan keeps no
# stack of each allocation (unwinding at every malloc was a fifth of the YAML targets' time); a
# report still says where memory was misused, and rerunning the kept input with
# ASAN_OPTIONS=detect_leaks=0 gives the allocation's stack too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:malloc_context_size=0}
summary=()
failed=0
for target in "${targets[@]}"; do
  corpus=$build/corpus/$target
  crashes=$root/Fuzz/crashes/$target
  mkdir -p "$corpus" "$crashes" "$seeds/$target"
  limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  echo "== $target: $([ -n "$runs" ] && echo "$runs runs" || echo "${seconds}s"), seeds $(ls "$seeds/$target" | wc -l), corpus $(ls "$corpus" | wc -l)"
  log=$build/$target.log
  set +e
  "$build/release/$target" "${limit[@]}" -max_len=65536 -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$corpus" "$seeds/$target" > "$log" 2>&1
  status=$?
  set -e
  executions=$(grep -E "^stat::number_of_executed_units" "$log" | awk '{print $2}' | tail -1)
  elapsed=$(grep -E "^Done [0-9]+ runs in" "$log" | awk '{print $5}' | tail -1)
  summary+=("$target: ${executions:-?} executions in ${elapsed:-?}s, exit $status")
  if [ "$status" -ne 0 ]; then
    failed=1
    echo "fuzz.sh: $target failed (exit $status); its input is in $crashes, the log in $log:" >&2
    grep -E "ERROR|Fatal error|SUMMARY|Test unit written|deadly signal|timeout|out-of-memory" "$log" | head -20 >&2
  fi
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $failed
