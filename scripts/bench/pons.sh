#!/usr/bin/env bash
# The Connect-4 solver against Pascal Pons' (github.com/PascalPons/connect4), built from its
# public source in a scratch folder outside this repository (nothing of it is copied here),
# with his own flags (-O3 -DNDEBUG), behind a small timing harness written below: a fresh
# table for every position (his reset, not timed, as mnklab's O(1) reset is not either), no
# opening book, the solve timed alone. Alternates Pons, mnklab, Pons, mnklab ... in one run.
#
# - For each of Pons' benchmark sets (tests/data/connect4/Test_*): the mean time a position
#   and the mean nodes of both (`mnklab bench solve --batch FILE`, strong), and the time
#   ratio mnklab/Pons per round (below 1: mnklab is faster), then the median.
# - With EMPTY=N (N rounds): Connect-4 from the empty board, weak (`mnklab solve --game
#   connect4 --weak`; Pons about 5 minutes a round here), wall time of each.
# - With MOVES="64 12 -" (positions as column digits, `-` the empty board): each position
#   solved strong instead of the sets, Pons' c4solver (his main.cpp, no book) then `mnklab
#   solve --game connect4 --moves M`, alternated, [rounds] rounds: the wall time of each whole
#   command, both scores, mnklab's nodes, the peak resident memory of both (when GNU time is
#   at /usr/bin/time, in KiB), the ratio per round and its median. Exits 1 when his solver
#   rejects a line (a finished game, a full column) or the two scores differ. Pons takes
#   about 90 s on `64`, 6 minutes on `12` and on the empty board here.
#
# Usage (from the project root, after cargo build --release): scripts/bench/pons.sh [rounds]
# PONS_SRC=/path/to/a/checkout uses an existing copy instead of cloning; either way the
# source is checked against the pinned commit (see scripts/pons_source.sh).
set -euo pipefail
rounds=${1:-3}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "rounds: '$rounds' is not a positive whole number" >&2; exit 1; }
# Every position checked before the first (long) run.
for m in ${MOVES:-}; do
  [[ "$m" =~ ^([1-7]+|-)$ ]] || { echo "MOVES: '$m' is not a line of columns 1-7 (- for the empty board)" >&2; exit 1; }
done
# The release build (CARGO_TARGET_DIR is followed when set).
bin=${CARGO_TARGET_DIR:-target}/release/mnklab
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
scratch=$(mktemp -d /tmp/mnklab-pons.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
source "$(dirname "$0")/../pons_source.sh"
src=$(pons_source "$scratch")
cat > "$scratch/harness.cpp" <<'CPP'
// Times Pons' Solver::solve on each line of stdin ("<moves> [score]"), a fresh table each.
#include "Solver.hpp"
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
using namespace GameSolver::Connect4;
int main(int argc, char **argv) {
  bool weak = argc > 1 && std::strcmp(argv[1], "-w") == 0;
  Solver solver;
  std::string line;
  double total_us = 0, total_nodes = 0;
  long n = 0;
  while (std::getline(std::cin, line)) {
    std::istringstream fields(line);
    std::string moves;
    fields >> moves;
    Position P;
    if (P.play(moves) != moves.size()) { std::cerr << "bad line: " << line << "\n"; return 1; }
    solver.reset();
    auto t0 = std::chrono::steady_clock::now();
    int score = solver.solve(P, weak);
    total_us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    total_nodes += solver.getNodeCount();
    n++;
    if (n == 1) printf("first_score %d\n", score);
  }
  printf("positions %ld mean_us %.3f mean_nodes %.1f\n", n, total_us / n, total_nodes / n);
}
CPP
g++ --std=c++11 -O3 -DNDEBUG -I"$src" -o "$scratch/pons-bench" "$scratch/harness.cpp" "$src/Solver.cpp" \
  2>"$scratch/build.log" || { cat "$scratch/build.log" >&2; echo "building Pons' solver failed (above)" >&2; exit 1; }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
if [ -n "${MOVES:-}" ]; then
  # His command-line solver, as `echo 64 | c4solver` runs it, in the scratch folder (no book).
  pons_c4solver "$src" "$scratch/c4solver"
  # Runs a command, printing its wall time in seconds and its peak resident KiB (- without GNU time).
  timed() {
    local out=$scratch/timed.out
    if [ -x /usr/bin/time ]; then
      /usr/bin/time -f "%e %M" -o "$scratch/time" "$@" > "$out" 2>"$scratch/stderr" || { cat "$scratch/stderr" >&2; exit 1; }
      cat "$scratch/time"
    else
      local t0 t1
      t0=$(date +%s.%N)
      "$@" > "$out" 2>"$scratch/stderr" || { cat "$scratch/stderr" >&2; exit 1; }
      t1=$(date +%s.%N)
      echo "$(python3 -c "print(round($t1-$t0, 2))") -"
    fi
  }
  mismatch=0
  for m in $MOVES; do
    [ "$m" = - ] && m=""
    ratios=()
    for _ in $(seq "$rounds"); do
      r=$(cd "$scratch" && echo "$m" | timed ./c4solver -b "$scratch/no-book")
      read -r pt pk <<< "$r"
      # He reports a line he cannot play ("Invalid move") on stderr and goes on.
      if grep -q "Invalid" "$scratch/stderr"; then
        echo "Pons' solver rejects '$m': $(grep Invalid "$scratch/stderr" | head -1)" >&2
        exit 1
      fi
      ps=$(awk '{print $NF}' "$scratch/timed.out")
      r=$(timed "$bin" solve --game connect4 --moves "$m")
      read -r mt mk <<< "$r"
      ms=$(grep -oE 'score -?[0-9]+' "$scratch/timed.out" | head -1 | awk '{print $2}')
      mn=$(grep -oE 'nodes [0-9]+' "$scratch/timed.out" | head -1 | awk '{print $2}')
      # Both scores are Pons' scale (the side to move; see docs/solver.md).
      agree=""
      if [ "$ps" != "$ms" ]; then
        agree="  SCORES DIFFER"
        mismatch=1
      fi
      ratios+=("$(python3 -c "print($mt / max($pt, 0.005))")")
      echo "'$m' strong: Pons $pt s (score $ps, $pk KiB), mnklab $mt s (score $ms, $mn nodes, $mk KiB)$agree; load $(cut -d' ' -f1 /proc/loadavg)"
    done
    # The ratios unrounded until printed, so the median is not rounded twice.
    python3 - "$m" "${ratios[@]}" <<'PY'
import statistics, sys
m, rs = sys.argv[1], [float(r) for r in sys.argv[2:]]
print(f"'{m}' time ratio mnklab/Pons per round: {' '.join(f'{r:.3f}' for r in rs)}  median {statistics.median(rs):.3f}")
PY
  done
  if ! pons_pinned "$src" 2>/dev/null; then
    echo "note: Pons' source differs from the pinned commit $PONS_COMMIT (see the warning above): his figures are of other code"
  fi
  [ "$mismatch" = 0 ] || { echo "the two solvers' scores differ (SCORES DIFFER above)" >&2; exit 1; }
fi
for set in tests/data/connect4/Test_*; do
  [ -n "${MOVES:-}" ] && break
  name=$(basename "$set")
  ratios=()
  for _ in $(seq "$rounds"); do
    p=$("$scratch/pons-bench" < "$set")
    m=$($bin bench solve --batch "$set")
    pu=$(echo "$p" | awk '/mean_us/{print $4}')
    pn=$(echo "$p" | awk '/mean_us/{print $6}')
    mu=$(echo "$m" | awk '/mean_us/{print $2; exit}')
    mn=$(echo "$m" | awk '/mean_nodes/{print $2; exit}')
    ratios+=("$(python3 -c "print(round($mu/$pu, 2))")")
    echo "$name: Pons $pu us ($pn nodes), mnklab $mu us ($mn nodes) a position"
  done
  echo "$name time ratio mnklab/Pons per round: ${ratios[*]}  median $(median "${ratios[@]}")"
done
empty=${EMPTY:-0}
if [ "$empty" -gt 0 ]; then
  ratios=()
  for _ in $(seq "$empty"); do
    t0=$(date +%s.%N)
    p=$(echo "" | "$scratch/pons-bench" -w)
    t1=$(date +%s.%N)
    m=$($bin solve --game connect4 --weak)
    t2=$(date +%s.%N)
    pt=$(python3 -c "print(round($t1-$t0, 1))")
    mt=$(python3 -c "print(round($t2-$t1, 1))")
    ratios+=("$(python3 -c "print(round($mt/$pt, 2))")")
    echo "empty board, weak: Pons $pt s (score $(echo "$p" | awk '/first_score/{print $2}')), mnklab $mt s ($(echo "$m" | head -1))"
  done
  echo "empty board time ratio mnklab/Pons per round: ${ratios[*]}  median $(median "${ratios[@]}")"
fi
uptime
