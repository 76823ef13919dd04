#!/usr/bin/env bash
# The PySpark job (Scripts/spark/relaylint_spark.py), in Spark's local mode (local[2]), gives the
# report one `relaylint check` gives: the merged JSON and HTML reports are byte-identical to a
# single run's, on the Examples (N = 2 and 3) and on a generated set of EVENTS events (N = 3;
# made to fit what a partitioned run sees, Scripts/spark/fit_generated.py). On the set as
# generate.py writes it, the engine partitions as `relaylint split` does: the Spark job's merged
# reports equal those of split + check --partition + merge (N = 2), byte for byte.
#
# Installs what it needs: Java 17 (openjdk-17-jre-headless, apt) and pyspark (pip, in a venv
# under .build-spark/, git-ignored).
# Usage: Scripts/check-spark.sh [RELAYLINT-BINARY]     (environment: EVENTS, default 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
bin="$(realpath "${1:-.build/debug/relaylint}")"
events="${EVENTS:-100000}"
pyspark_version="${PYSPARK_VERSION:-4.3.0}"
venv=.build-spark/venv

java17=""
for candidate in "${JAVA_HOME:-/nonexistent}/bin/java" /usr/lib/jvm/java-17-openjdk-*/bin/java "$(command -v java || true)"; do
  if [ -x "$candidate" ] && "$candidate" -version 2>&1 | grep -q 'version "17\.'; then
    java17="$(readlink -f "$candidate")"
    break
  fi
done
if [ -z "$java17" ]; then
  echo "check-spark: installing Java 17 (openjdk-17-jre-headless)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless > /dev/null
  java17="$(readlink -f /usr/lib/jvm/java-17-openjdk-*/bin/java)"
fi
export JAVA_HOME="${java17%/bin/java}"
if ! "$venv/bin/python" -c 'import pyspark' 2> /dev/null; then
  echo "check-spark: installing pyspark $pyspark_version in $venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet "pyspark==$pyspark_version"
fi
export PYSPARK_PYTHON="$PWD/$venv/bin/python" SPARK_LOCAL_IP=127.0.0.1
echo "check-spark: Java $("$java17" -version 2>&1 | head -1 | cut -d'"' -f2), pyspark $("$venv/bin/python" -c 'import pyspark; print(pyspark.__version__)')"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# single NAME ARGS...: one `relaylint check`, JSON and HTML (exit 1 means findings, not failure).
single() {
  local name="$1"
  shift
  "$bin" check --quiet "$@" --format json --output "$work/$name.json" --report "html=$work/$name.html" || [ $? -eq 1 ]
}
# spark NAME N ARGS...: the Spark job with N partitions, merged into JSON and HTML.
spark() {
  local name="$1" count="$2"
  shift 2
  local begin=$SECONDS
  "$venv/bin/python" Scripts/spark/relaylint_spark.py --relaylint "$bin" --partitions "$count" "$@" \
    --format json --output "$work/$name.json" --report "html=$work/$name.html" > "$work/$name.log" 2>&1 \
    || [ $? -eq 1 ] || { cat "$work/$name.log" >&2; echo "check-spark: the Spark job failed ($name)" >&2; exit 1; }
  echo "  spark $name: N=$count, $((SECONDS - begin)) s"
}
# same EXPECTED ACTUAL: byte-identical JSON and HTML.
same() {
  for format in json html; do
    if ! cmp "$work/$1.$format" "$work/$2.$format"; then
      diff "$work/$1.$format" "$work/$2.$format" | head -20 >&2 || true
      echo "check-spark: the $format report of $2 differs from $1's" >&2
      exit 1
    fi
  done
  echo "  $2 = $1: JSON ($(wc -c < "$work/$1.json") bytes) and HTML byte-identical"
}

echo "== Examples"
examples=(--config Examples/.relaylint.yml --manifest Examples/manifest.yml --accounts Examples/accounts.json --events Examples/events.jsonl)
single examples "${examples[@]}"
for count in 2 3; do
  spark "examples-spark-$count" "$count" "${examples[@]}"
  same examples "examples-spark-$count"
done

echo "== generated set, $events events"
data="Benchmarks/data/spark-$events"
[ -f "$data/events.jsonl" ] || python3 Benchmarks/generate.py --events "$events" --out "$data"
generated=(--manifest "$data/manifest.yml" --accounts "$data/accounts.json" --events "$data/events.jsonl")
# As generate.py writes it: `relaylint split` + check --partition + merge, then the Spark job.
"$bin" split --partitions 2 --accounts "$data/accounts.json" --events "$data/events.jsonl" --output "$work/parts" 2> /dev/null
for k in 1 2; do
  "$bin" check --quiet --manifest "$data/manifest.yml" --partition "$k/2" --data-end "$(cat "$work/parts/data-end.txt")" \
    --accounts "$work/parts/partition-$k-of-2/accounts.json" --events "$work/parts/partition-$k-of-2/events.jsonl" \
    --format json --output "$work/partial-$k.json"
done
"$bin" merge --manifest "$data/manifest.yml" --sources "$work/parts/sources.json" "$work"/partial-{1,2}.json \
  --format json --output "$work/generated-split.json" --report "html=$work/generated-split.html" 2> /dev/null || [ $? -eq 1 ]
spark generated-spark 2 "${generated[@]}"
same generated-split generated-spark

# One run over it gives another report, for what the README says a partitioned run cannot see
# as one run does: ids reused across partitions (generate.py's ids collide) and more look-alike
# addresses than one run notes. Against one run: the same set with both taken out.
python3 Scripts/spark/fit_generated.py "$data" "$work/fitted"
fitted=(--manifest "$work/fitted/manifest.yml" --accounts "$work/fitted/accounts.json" --events "$work/fitted/events.jsonl")
single generated-fitted "${fitted[@]}"
spark generated-fitted-spark 3 "${fitted[@]}"
same generated-fitted generated-fitted-spark

echo "check-spark: passed in $((SECONDS - started)) s"
