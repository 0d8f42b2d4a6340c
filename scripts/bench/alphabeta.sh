#!/usr/bin/env bash
# Alpha-beta nodes/s: mnklab's plain-ab.ron against scripts/bench/alphabeta.c (the same
# algorithm, move order and heuristic in plain C), alternating C, mnklab, C, mnklab ... in
# one run. Checks first that both visit the same number of nodes and find the same value
# (the ratio compares equal work), then prints each round's ratio and the median.
#
# Usage (from the project root, after cargo build --release): scripts/bench/alphabeta.sh [rounds]
set -euo pipefail
rounds=${1:-5}
here=$(cd "$(dirname "$0")" && pwd)
bin=target/release/mnklab
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
scratch=$(mktemp -d /tmp/mnklab-ab.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
gcc -O2 -o "$scratch/alphabeta" "$here/alphabeta.c"
for run in "connect4 12" "gomoku 4"; do
  set -- $run
  ratios=()
  for _ in $(seq "$rounds"); do
    c=$("$scratch/alphabeta" "$1" "$2")
    m=$($bin bench search --game "$1" --agent "$here/plain-ab.ron" --depth "$2")
    cn=$(echo "$c" | awk '{print $2}')
    mn=$(echo "$m" | awk '/^nodes /{print $2}')
    [ "$cn" = "$mn" ] || { echo "$1 depth $2: C visited $cn nodes, mnklab $mn: not the same search" >&2; exit 1; }
    cr=$(echo "$c" | awk '{print $8}')
    mr=$(echo "$m" | awk '/nodes_per_second/{print $2}')
    ratios+=("$(python3 -c "print(round($mr/$cr, 2))")")
    echo "$1 depth $2: $cn nodes; C $cr nodes/s, mnklab $mr nodes/s"
  done
  echo "$1 ratio mnklab/C per round: ${ratios[*]}  median $(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
done
uptime
