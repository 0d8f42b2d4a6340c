#!/usr/bin/env bash
# Starts the real mnklab window under Xvfb, takes a screenshot of the screen and checks that
# the window drew a board (not a blank screen). Usage: screenshot.sh OUT.png
set -euo pipefail
out=${1:-target/screenshot.png}
cargo build --release --quiet
mkdir -m700 -p /tmp/xdg-ci; export XDG_RUNTIME_DIR=/tmp/xdg-ci
display=:97
Xvfb $display -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $app $xvfb 2>/dev/null || true' EXIT
sleep 1
DISPLAY=$display target/release/mnklab >/tmp/mnklab-window.log 2>&1 &
app=$!
sleep 6
kill -0 $app || { echo "mnklab exited early:"; cat /tmp/mnklab-window.log; exit 1; }
DISPLAY=$display import -window root "$out"
# The board is drawn in a wood colour: count such pixels.
wood=$(convert "$out" -fill black +opaque "rgb(205,170,110)" -fill white -opaque "rgb(205,170,110)" -format "%[fx:mean*w*h]" info:)
echo "screenshot $out: $wood board-coloured pixels"
awk -v n="$wood" 'BEGIN { exit !(n > 20000) }' || { echo "no board visible in the screenshot"; exit 1; }
