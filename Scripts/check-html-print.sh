#!/usr/bin/env bash
# Checks that the example HTML audit report prints compactly: it renders
# Examples/reports/report.html to PDF with Scripts/render-html.sh (headless Chromium, A4) and fails
#   - when the PDF has more pages than the report's content needs (the bound is below), or
#   - when a page other than the last is less than 20% filled (a near-empty page: a forced page
#     break after a short overflow, or a block too tall for what was left of the page).
#
#   Scripts/check-html-print.sh [OUTPUT-DIRECTORY]
#
# Installs chromium and poppler-utils with apt-get when they are missing (needs root or sudo).
# Run from anywhere; the PDF is left in OUTPUT-DIRECTORY (default: a temporary directory, removed).
set -euo pipefail

cd "$(dirname "$0")/.."
report=Examples/reports/report.html

missing=()
command -v chromium > /dev/null 2>&1 || command -v chromium-browser > /dev/null 2>&1 \
  || command -v google-chrome > /dev/null 2>&1 || missing+=(chromium)
command -v pdftotext > /dev/null 2>&1 || missing+=(poppler-utils)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  log="$(mktemp)"
  if ! { $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive \
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"; } > "$log" 2>&1; then
    cat "$log" >&2
    echo "$0: could not install ${missing[*]}" >&2
    exit 1
  fi
  rm -f "$log"
fi

if [ "$#" -ge 1 ]; then
  output_directory="$1"
else
  output_directory="$(mktemp -d)"
  trap 'rm -rf "$output_directory"' EXIT
fi
Scripts/render-html.sh "$report" "$output_directory" > /dev/null
pdf="$output_directory/report.pdf"

# The bound on the page count, from what the report holds, as measured on A4 with the print
# stylesheet: the cover (title, facts, contents, and the scope with its input and rule-pack
# tables) and the executive summary (figures, two tables, two charts) take under 4 pages; a rule's
# description (its facts table: what it checks, why, references, coverage) under half a page; a
# finding (its facts and evidence timeline) under a quarter; the appendices (suppressions,
# data-quality notes, skipped records) and the sign-off, together with the space left where a
# finding or table row does not fit at the bottom of a page, under one more. With the 12 rules and
# 21 findings of the Examples that is 17 pages; printing them took 21 when every rule started a
# new page, 16 since.
rules=$(grep -c '<section class="rule"' "$report" || true)
findings=$(grep -c '<article class="finding' "$report" || true)
bound=$((4 + (rules + 1) / 2 + (findings + 3) / 4 + 1))

pages=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
status=0
echo "$report: $pages pages for $rules rules and $findings findings (at most $bound)"
if [ "$pages" -gt "$bound" ]; then
  echo "error: $pages pages, more than the $bound the content needs" >&2
  status=1
fi

# How full each page is: how far down its lowest word reaches, between the top of the text area
# (the highest word on any page) and its bottom (the lowest word on any page, the fullest page).
# Words, not lines: a page of table rows and a page of prose measure alike.
pdftotext -bbox "$pdf" - | awk -v pages="$pages" '
  /<page / { page++ }
  /<word / {
    match($0, /yMin="[0-9.]+"/); top = substr($0, RSTART + 6, RLENGTH - 7) + 0
    match($0, /yMax="[0-9.]+"/); bottom = substr($0, RSTART + 6, RLENGTH - 7) + 0
    if (!(page in lowest) || bottom > lowest[page]) lowest[page] = bottom
    if (first == "" || top < first) first = top
    if (bottom > last) last = bottom
  }
  END {
    status = 0
    for (n = 1; n <= pages; n++) {
      fill = (n in lowest) ? (lowest[n] - first) / (last - first) : 0
      printf "page %d: %3.0f%% filled\n", n, 100 * fill
      if (n < pages && fill < 0.20) {
        printf "error: page %d of %d is %.0f%% filled (less than 20%%)\n", n, pages, 100 * fill > "/dev/stderr"
        status = 1
      }
    }
    exit status
  }' || status=1

exit "$status"
