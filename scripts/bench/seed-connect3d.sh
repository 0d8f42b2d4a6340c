#!/usr/bin/env bash
# connect3d MCTS iterations/s: mnklab's jeng-mcts against the seed program of Jeng et al.
# ("Playing 3D Connect-4 Using Monte Carlo Tree Search", github.com/wj3ng/3d-connect4-ai),
# alternating seed, mnklab, seed, mnklab ... in one run; prints each round's ratio and the
# median. The seed program is built from its public source in a scratch folder outside this
# repository (nothing of it is copied here): its own MonteCarlo::iterate, timed from the
# empty board by a small harness written below, g++ -O2.
#
# Usage (from the project root, after cargo build --release):
#   scripts/bench/seed-connect3d.sh [rounds] [seconds]
# SEED_SRC=/path/to/a/checkout uses an existing copy instead of cloning; KEEP=DIR keeps the
# built harness as DIR/seed-bench (for `MNKLAB_SEED3D=DIR/seed-bench cargo bench --bench search`).
set -euo pipefail
rounds=${1:-5}
secs=${2:-2}
# The release build (CARGO_TARGET_DIR is followed when set).
bin=${CARGO_TARGET_DIR:-target}/release/mnklab
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
scratch=$(mktemp -d /tmp/mnklab-seed3d.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
src=${SEED_SRC:-}
if [ -z "$src" ]; then
  git clone --quiet --depth 1 https://github.com/wj3ng/3d-connect4-ai "$scratch/seed" ||
    { echo "could not clone the seed program; without a network, set SEED_SRC to a checkout of github.com/wj3ng/3d-connect4-ai" >&2; exit 1; }
  src="$scratch/seed"
fi
cat > "$scratch/harness.cpp" <<'CPP'
// Times the seed program's own MonteCarlo::iterate from the empty board.
#include "MonteCarlo.hpp"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 2.0;
  State s;
  MonteCarlo *m = new MonteCarlo(s);
  auto t0 = std::chrono::steady_clock::now();
  long it = 0;
  double dt = 0;
  while (dt < secs) {
    for (int i = 0; i < 100; i++) m->iterate();
    it += 100;
    dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  printf("iterations_per_second %.0f\n", it / dt);
  fflush(stdout);
  _exit(0); // the seed's node destructor also deletes the parent: never run it
}
CPP
[ -f "$src/src/MonteCarlo.cpp" ] && [ -f "$src/src/State.cpp" ] ||
  { echo "$src is not a checkout of the seed program: no src/MonteCarlo.cpp and src/State.cpp" >&2; exit 1; }
# The seed's own warnings are kept out of the way, and shown if the build fails.
g++ -O2 -I"$src/src" -o "$scratch/seed-bench" "$scratch/harness.cpp" "$src/src/MonteCarlo.cpp" "$src/src/State.cpp" \
  2>"$scratch/build.log" || { cat "$scratch/build.log" >&2; echo "building the seed program failed (above)" >&2; exit 1; }
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$scratch/seed-bench" "$KEEP/seed-bench"; fi
ratios=()
for _ in $(seq "$rounds"); do
  s=$("$scratch/seed-bench" "$secs" | awk '/iterations_per_second/{print $2}')
  m=$($bin bench search --game connect3d --agent jeng-mcts --seconds "$secs" | awk '/iterations_per_second/{print $2}')
  ratios+=("$(python3 -c "print(round($m/$s, 2))")")
  echo "seed $s  mnklab $m iterations/s"
done
echo "ratio mnklab/seed per round: ${ratios[*]}"
echo "median: $(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}')"
uptime
