#!/usr/bin/env bash
# Alpha-beta nodes/s: mnklab's plain-ab.ron against scripts/bench/alphabeta.c (the same
# algorithm, move order and heuristic in plain C), built twice: as written (two value
# lookups a window per move) and with -DGAIN_TABLE (one lookup of the gain, as mnklab's
# value-only update does). Alternates C, mnklab, C with the gain table, C, mnklab, ... in one
# run, checks that all visit the same number of nodes, then prints each round's ratios and
# the medians.
#
# Usage (from the project root, after cargo build --release): scripts/bench/alphabeta.sh [rounds]
set -euo pipefail
rounds=${1:-5}
here=$(cd "$(dirname "$0")" && pwd)
# The release build (CARGO_TARGET_DIR is followed when set).
bin=${CARGO_TARGET_DIR:-target}/release/mnklab
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
scratch=$(mktemp -d /tmp/mnklab-ab.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
gcc -O2 -o "$scratch/alphabeta" "$here/alphabeta.c"
gcc -O2 -DGAIN_TABLE -o "$scratch/alphabeta-gain" "$here/alphabeta.c"
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
for run in "connect4 12" "gomoku 4"; do
  set -- $run
  ratios=()
  gains=()
  for _ in $(seq "$rounds"); do
    c=$("$scratch/alphabeta" "$1" "$2")
    m=$($bin bench search --game "$1" --agent "$here/plain-ab.ron" --depth "$2")
    g=$("$scratch/alphabeta-gain" "$1" "$2")
    cn=$(echo "$c" | awk '{print $2}')
    mn=$(echo "$m" | awk '/^nodes /{print $2}')
    gn=$(echo "$g" | awk '{print $2}')
    [ "$cn" = "$mn" ] && [ "$cn" = "$gn" ] ||
      { echo "$1 depth $2: C visited $cn nodes, mnklab $mn, C with the gain table $gn: not the same search" >&2; exit 1; }
    cr=$(echo "$c" | awk '{print $8}')
    mr=$(echo "$m" | awk '/nodes_per_second/{print $2}')
    gr=$(echo "$g" | awk '{print $8}')
    ratios+=("$(python3 -c "print(round($mr/$cr, 2))")")
    gains+=("$(python3 -c "print(round($mr/$gr, 2))")")
    echo "$1 depth $2: $cn nodes; C $cr nodes/s, mnklab $mr nodes/s, C with the gain table $gr nodes/s"
  done
  echo "$1 ratio mnklab/C per round: ${ratios[*]}  median $(median "${ratios[@]}")"
  echo "$1 ratio mnklab/C-with-gain-table per round: ${gains[*]}  median $(median "${gains[@]}")"
done
uptime
