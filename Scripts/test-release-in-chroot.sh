#!/usr/bin/env bash
# The release tarball works on a machine without Swift: unpacks it into a minimal Debian root
# (debootstrap --variant=minbase: no Swift, no compiler, no Swift runtime), copies Examples/ in,
# and runs the README's `relaylint check` there with chroot. Expects exit code 1 and exactly the
# text report the source build prints (Examples/reports/report.txt, which `swift test` keeps
# equal to it).
#
# Usage: Scripts/test-release-in-chroot.sh [TARBALL]   (default: the newest out/relaylint-*.tar.gz)
# Needs root (chroot) and debootstrap (apt-get install -y debootstrap). The Debian root is built
# once and cached in .cache/chroot/ (git ignores it; RELAYLINT_CHROOT_CACHE moves it); the mirror
# is the first one apt is configured with, or $DEBIAN_MIRROR.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "test-release-in-chroot: $*" >&2; exit 1; }

tarball=${1:-$(ls -t out/relaylint-*-linux-*.tar.gz 2>/dev/null | head -n 1)}
[ -f "$tarball" ] || fail "no release tarball; run Scripts/release.sh first"
command -v debootstrap > /dev/null || fail "debootstrap is missing: apt-get install -y debootstrap"
[ "$(id -u)" = 0 ] || fail "chroot needs root"

# The mirror apt already uses (deb822 .sources or a sources.list line), never the security one.
mirror=${DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' \
    | grep -v security | head -n 1 || true)
fi
if [ -z "$mirror" ]; then
  mirror=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p' /etc/apt/sources.list 2>/dev/null \
    | grep -v security | head -n 1 || true)
fi

suite=${DEBIAN_SUITE:-bookworm}
cache=${RELAYLINT_CHROOT_CACHE:-.cache/chroot}
root="$cache/debian-$suite-minbase"
if [ ! -f "$root/.relaylint-complete" ]; then
  [ -n "$mirror" ] || fail "no Debian mirror found in apt's sources; set DEBIAN_MIRROR"
  echo "== debootstrap --variant=minbase $suite (cached in $root)"
  rm -rf "$root"
  mkdir -p "$cache"
  debootstrap --variant=minbase "$suite" "$root" "$mirror" > "$cache/debootstrap.log" 2>&1 \
    || { tail -n 20 "$cache/debootstrap.log" >&2; fail "debootstrap failed"; }
  touch "$root/.relaylint-complete"
fi

echo "== the root has no Swift and no compiler"
for tool in swift swiftc cc gcc clang ld; do
  if chroot "$root" /bin/sh -c "command -v $tool" > /dev/null 2>&1; then fail "the root has $tool"; fi
done
if find "$root" -name 'libswiftCore.so*' -o -name 'libFoundation.so*' | grep -q .; then fail "the root has a Swift runtime"; fi

echo "== unpack $(basename "$tarball") and Examples/"
work="$root/work"
rm -rf "$work"
mkdir -p "$work"
tar -xzf "$tarball" -C "$work"
unpacked=$(basename "$tarball" .tar.gz)
[ -x "$work/$unpacked/relaylint" ] || fail "the tarball has no $unpacked/relaylint"
for file in LICENSE README.md completions/relaylint.bash completions/_relaylint completions/relaylint.fish; do
  [ -s "$work/$unpacked/$file" ] || fail "the tarball has no $file"
done
cp -R Examples "$work/Examples"

echo "== relaylint check on the Examples, in the chroot"
# Every Linux system and container has /proc; the Swift runtime reads the arguments from it.
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2> /dev/null || true' EXIT
set +e
chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin CI=true NO_COLOR=1 /bin/sh -c \
  "cd /work && ./$unpacked/relaylint check --config Examples/.relaylint.yml --accounts Examples/accounts.json \
     --events Examples/events.jsonl --manifest Examples/manifest.yml --as-of 2026-07-01" \
  > "$cache/check.stdout" 2> "$cache/check.stderr"
status=$?
set -e
[ "$status" = 1 ] || { cat "$cache/check.stderr" >&2; fail "expected exit code 1 (the examples contain violations), got $status"; }
[ ! -s "$cache/check.stderr" ] || { cat "$cache/check.stderr" >&2; fail "unexpected output on standard error"; }
diff -u Examples/reports/report.txt "$cache/check.stdout" || fail "the report differs from the source build's (Examples/reports/report.txt)"
chroot "$root" "/work/$unpacked/relaylint" --version
echo "test-release-in-chroot: passed ($(tail -n 1 "$cache/check.stdout"))"
