#!/usr/bin/env bash
# Renders an HTML audit report in headless Chromium, as a reviewer's browser would show and
# print it: a PNG screenshot and a PDF (A4, the report's print stylesheet).
#
#   Scripts/render-html.sh REPORT.html [OUTPUT-DIRECTORY]
#
# Writes OUTPUT-DIRECTORY/<name>.png and OUTPUT-DIRECTORY/<name>.pdf (default: /tmp/relaylint-render)
# and exits non-zero when Chromium is missing or fails, or an output is missing or empty.
# Install Chromium on Debian with: apt-get install -y chromium
# Look at a PDF page as an image with: pdftoppm -png -r 80 -f 1 -l 1 OUT.pdf page (poppler-utils)
set -euo pipefail

if [ "$#" -lt 1 ] || [ "$#" -gt 2 ]; then
  echo "usage: $0 REPORT.html [OUTPUT-DIRECTORY]" >&2
  exit 2
fi
report="$1"
output_directory="${2:-/tmp/relaylint-render}"
if [ ! -f "$report" ]; then
  echo "$0: no such file: $report" >&2
  exit 2
fi

browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" > /dev/null 2>&1; then
    browser="$candidate"
    break
  fi
done
if [ -z "$browser" ]; then
  echo "$0: chromium not found (apt-get install -y chromium)" >&2
  exit 1
fi

mkdir -p "$output_directory"
absolute="$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
name="$(basename "$report" .html)"
png="$output_directory/$name.png"
pdf="$output_directory/$name.pdf"
rm -f "$png" "$pdf"
# A throw-away profile, so no earlier run or user setting changes the rendering.
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --no-default-browser-check
       --disable-extensions --user-data-dir="$profile" --run-all-compositor-stages-before-draw)

if ! "$browser" "${flags[@]}" --window-size=1280,4000 --screenshot="$png" "file://$absolute" > "$profile/png.log" 2>&1; then
  cat "$profile/png.log" >&2
  echo "$0: chromium failed to take the screenshot" >&2
  exit 1
fi
if ! "$browser" "${flags[@]}" --no-pdf-header-footer --print-to-pdf="$pdf" "file://$absolute" > "$profile/pdf.log" 2>&1; then
  cat "$profile/pdf.log" >&2
  echo "$0: chromium failed to print the PDF" >&2
  exit 1
fi
for file in "$png" "$pdf"; do
  if [ ! -s "$file" ]; then
    echo "$0: chromium wrote no $file" >&2
    exit 1
  fi
done
echo "$png"
echo "$pdf"
