# Shared by the benchmark scripts (sourced, not run).
#
# timed NAME LOG -- command...: runs the command under /usr/bin/time -v into LOG, its wall time
# in µs into LOG.us (time -v rounds to 10 ms) and its standard error into LOG.stderr; exit codes
# 0 and 1 (findings) are fine, anything else stops the script with both logs.
timed() {
    local name="$1" log="$2"; shift 3
    local rc=0 t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -v -o "$log" "$@" >/dev/null 2>"$log.stderr" || rc=$?
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 ))" > "$log.us"
    if [ "$rc" -gt 1 ]; then
        echo "$name failed with exit code $rc:" >&2; cat "$log" "$log.stderr" >&2; exit 1
    fi
}
