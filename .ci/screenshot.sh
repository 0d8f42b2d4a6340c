#!/usr/bin/env bash
# Starts the real mnklab window under Xvfb with a position and an analysis running, lets the
# app write a PNG of itself (mnklab --screenshot), and checks that the picture shows a board
# with stones and analysis marks. Usage: screenshot.sh OUT.png
set -euo pipefail
out=${1:-target/screenshot.png}
cargo build --release --quiet
mkdir -m700 -p /tmp/xdg-ci; export XDG_RUNTIME_DIR=/tmp/xdg-ci
display=:97
Xvfb $display -screen 0 1400x1000x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
scratch=$(mktemp -d)
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$scratch"' EXIT
sleep 1
DISPLAY=$display timeout 120 target/release/mnklab --screenshot "$out" --open saves/positions/connect4-setup.ron --analyse --size 1200x800
count() { convert "$out" -alpha off -fill black +opaque "$1" -fill white -opaque "$1" -format "%[fx:mean*w*h]" info:; }
wood=$(count "rgb(205,170,110)")
stones=$(count "rgb(30,30,30)")
echo "screenshot $out: $(identify -format '%wx%h' "$out"), $wood board pixels, $stones black-stone pixels"
awk -v w="$wood" -v s="$stones" 'BEGIN { exit !(w > 50000 && s > 2000) }' || { echo "the screenshot does not show the board with its stones"; exit 1; }
# A screenshot of moves given on the command line (an unsaved game) ends by itself: it once
# wrote its picture, then waited for ever on the "Unsaved moves" question.
DISPLAY=$display timeout 60 target/release/mnklab --screenshot "$scratch/moves-shot.png" --game connect4 --moves dd --size 900x600 \
  || { echo "a --moves screenshot run did not end by itself (exit $?)"; exit 1; }
echo "a --moves screenshot run ends by itself: ok"
# A screenshot that cannot be written is an error (exit 2), not a silent success.
if DISPLAY=$display timeout 120 target/release/mnklab --screenshot /proc/mnklab-cannot-write.png --size 900x600 2>"$scratch/shot-err"; then
  echo "an unwritable screenshot exited 0"; exit 1
fi
grep -q "cannot write the screenshot" "$scratch/shot-err" || { echo "no error named the unwritable screenshot"; cat "$scratch/shot-err"; exit 1; }
echo "an unwritable screenshot is an error: ok"
# Nor does a screenshot run leave the state file it gave eframe in the temporary folder.
left=$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'mnklab-screenshot-*' 2>/dev/null)
[ -z "$left" ] || { echo "screenshot runs left files behind: $left"; exit 1; }
echo "screenshot runs leave nothing behind: ok"
