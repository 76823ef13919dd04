#!/usr/bin/env bash
# Builds the release tarball: relaylint-VERSION-linux-ARCH.tar.gz and its .sha256, in OUT (default
# out/). The binary is linked with the Swift runtime and Foundation built in
# (--static-swift-stdlib), and the built-in rules and mappings are compiled into it, so it needs
# nothing but glibc, libstdc++ and libgcc_s, which every Linux distribution has (a minimal
# debootstrap root included; see Scripts/test-release-in-chroot.sh). The tarball holds the binary, LICENSE, README.md, shell completions (bash, zsh,
# fish) and a man page made by swift-argument-parser's generate-manual plugin.
#
# Usage: Scripts/release.sh            (VERSION from Sources/RelayLintCore/Model/RelayLintVersion.swift)
# Env:   OUT=dir  where to write; SKIP_MANUAL=1 leaves the man page out.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' Sources/RelayLintCore/Model/RelayLintVersion.swift)
[ -n "$version" ] || { echo "release.sh: no version in RelayLintVersion.swift" >&2; exit 1; }
arch=$(uname -m)
name="relaylint-$version-linux-$arch"
out=${OUT:-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)

echo "== swift build -c release --static-swift-stdlib"
swift build -c release --static-swift-stdlib --product relaylint
binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/relaylint"

stage="$out/$name"
rm -rf "$stage"
mkdir -p "$stage/completions" "$stage/man"
cp "$binary" "$stage/relaylint"
strip "$stage/relaylint" 2>/dev/null || true
cp LICENSE README.md "$stage/"

echo "== shell completions"
"$stage/relaylint" --generate-completion-script bash > "$stage/completions/relaylint.bash"
"$stage/relaylint" --generate-completion-script zsh > "$stage/completions/_relaylint"
"$stage/relaylint" --generate-completion-script fish > "$stage/completions/relaylint.fish"

if [ "${SKIP_MANUAL:-}" != 1 ]; then
  echo "== man page (swift-argument-parser's generate-manual plugin)"
  # The plugin builds every product, then asks the executable for its help. The page does not
  # depend on the configuration, so it uses the debug build (which CI and the tests already made)
  # rather than a second, unstatic release build.
  manual=.build/plugins/GenerateManual/outputs/relaylint
  rm -rf "$manual"
  swift package generate-manual --configuration debug > "$out/.manual.log" 2>&1 \
    || { cat "$out/.manual.log" >&2; exit 1; }
  ls "$manual"/*.1 > /dev/null 2>&1 || { cat "$out/.manual.log" >&2; echo "release.sh: generate-manual wrote no page" >&2; exit 1; }
  cp "$manual"/*.1 "$stage/man/"
  rm -f "$out/.manual.log"
fi

echo "== $name.tar.gz"
# Reproducible: sorted names, fixed owner and time (the last commit's), no gzip timestamp.
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 0)
tar -C "$out" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$name" | gzip -n -9 > "$out/$name.tar.gz"
rm -rf "$stage"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
cat "$out/$name.tar.gz.sha256"
ls -l "$out/$name.tar.gz"
