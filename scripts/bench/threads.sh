#!/usr/bin/env bash
# One thread against two, alternating 1, 2, 1, 2 ... in one run: MCTS iterations/s and
# alpha-beta nodes/s over S seconds, and alpha-beta's time to a fixed depth. Prints each
# round's ratio (2 threads / 1 thread; for time to depth, 1-thread time / 2-thread time)
# and the median.
#
# Usage (from the project root, after cargo build --release): scripts/bench/threads.sh [rounds]
set -euo pipefail
rounds=${1:-5}
# The release build (CARGO_TARGET_DIR is followed when set).
bin=${CARGO_TARGET_DIR:-target}/release/mnklab
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
rate() { awk '/_per_second/{print $2}'; }
took() { awk '/ depth /{print $(NF-1)}'; }
# game, agent, and for MCTS how the two threads work (root: separate trees; tree: one shared
# tree with virtual loss).
for run in "connect3d jeng-mcts root" "connect3d jeng-mcts tree" "connect4 jeng-mcts root" \
  "connect4 jeng-mcts tree" "gomoku jeng-mcts root" "gomoku jeng-mcts tree" "gomoku lim-mcts root" \
  "gomoku lim-mcts tree" "connect4 strong-ab" "gomoku strong-ab"; do
  set -- $run
  how=()
  [ -n "${3:-}" ] && how=(--parallel "$3")
  ratios=()
  for _ in $(seq "$rounds"); do
    a=$($bin bench search --game "$1" --agent "$2" --seconds 2 --threads 1 | rate)
    b=$($bin bench search --game "$1" --agent "$2" --seconds 2 --threads 2 "${how[@]}" | rate)
    ratios+=("$(python3 -c "print(round($b/$a, 2))")")
  done
  echo "$1 $2 ${3:-} rate, 2 threads / 1 thread per round: ${ratios[*]}  median $(median "${ratios[@]}")"
done
for run in "connect4 strong-ab 16" "gomoku strong-ab 8"; do
  set -- $run
  ratios=()
  for _ in $(seq "$rounds"); do
    a=$($bin bench search --game "$1" --agent "$2" --depth "$3" --threads 1 | took)
    b=$($bin bench search --game "$1" --agent "$2" --depth "$3" --threads 2 | took)
    ratios+=("$(python3 -c "print(round($a/$b, 2))")")
  done
  echo "$1 $2 time to depth $3, 1 thread / 2 threads per round: ${ratios[*]}  median $(median "${ratios[@]}")"
done
uptime
