#!/usr/bin/env bash
# The same generated story, once as relaylint events and once as Cloud Logging entries + signed
# Apple notifications + a backend log read through its mapping, must give the same findings
# (rule, subject, event, time, severity, message, fingerprint) and the same summary counts.
# Usage: Scripts/check-real-logs.sh [RELAYLINT-BINARY] [SUBJECTS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build/debug/relaylint}"
subjects="${2:-10000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -c 'import cryptography' 2>/dev/null || python3 -m pip install --quiet cryptography
python3 Benchmarks/generate_real_logs.py --subjects "$subjects" --seed 7 --out "$work/set"
python3 Benchmarks/check_real_logs_generator.py --dir "$work/set"
set +e
"$bin" check --quiet --accounts "$work/set/accounts.json" --events "$work/set/events.jsonl" --format json --output "$work/native.json"
# The story has several apps: Cloud Logging is read through the example's copy of the built-in
# mapping that takes the app from the user agent (README, "Logs of several apps").
"$bin" check --quiet --accounts "$work/set/accounts.json" --mapping Examples/real-logs/backend-mapping.yml \
  --mapping Examples/real-logs/cloud-logging-by-app.yml \
  --apple-keys "$work/set/apple-keys.json" --events "$work/set/backend.jsonl" --events "$work/set/identity-platform.jsonl" \
  --events "$work/set/audit-logs.json" --events "$work/set/apple-notifications.jsonl" --format json --output "$work/real.json"
set -e
python3 - "$work/native.json" "$work/real.json" <<'PY'
import json, sys
native, real = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda f: (f["rule"], f["subject"], f.get("event"), f.get("time"), f["severity"], f["message"], f["fingerprint"])
a, b = [sorted(map(key, r["findings"])) for r in (native, real)]
if a != b:
    print("findings differ:", len(a), "native,", len(b), "real formats")
    for x in sorted(set(a) ^ set(b))[:20]: print(" ", "native" if x in set(a) else "real", x)
    sys.exit(1)
for field in ("subjects", "events", "findings", "pending", "anonymizedSubjects"):
    if native["summary"][field] != real["summary"][field]:
        print("summary differs in", field, native["summary"][field], real["summary"][field]); sys.exit(1)
skipped = sum(s["count"] for i in real["inputs"] for s in i.get("skippedRecords", []))
print(f"real-format check: {len(a)} findings identical over {native['summary']['events']} events ({skipped} records skipped by reason)")
PY
