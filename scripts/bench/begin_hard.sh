#!/usr/bin/env bash
# A Connect-4 set of the kind of Pons' "beginning, hard" one (his Test_L1_R3, which is not
# shipped here): positions of 4 to 14 stones (in practice 4-13: none of 14 lasts so long)
# from which the game lasts more than 28 more plies under perfect play (draws, and wins and
# losses that come late). Prints N lines in Pons' format, "<moves> <score>" (columns 1-7, the
# score from the side to move), sorted.
#
# Lines are random games (scripts/connect4_lines.py, SEED: a stone count drawn uniformly from
# 4-14, then uniformly random legal moves; lines where a side has won on the way are skipped,
# none repeated), each solved strong by `mnklab solve --game connect4 --moves M` (no book);
# those lasting more than 28 plies are kept until there are N. The scores are this solver's:
# check them against Pons' solver with scripts/bench/pons.sh (MOVES="$(cut -d' ' -f1 FILE)"),
# which also times both. How many more plies a line lasts is the distance `solve` prints
# ("win in N", N plies; a draw fills the board).
#
# Usage (from the project root, after cargo build --release):
#   scripts/bench/begin_hard.sh [N=100] [SEED=1] > FILE
set -euo pipefail
n=${1:-100}; seed=${2:-1}
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "N: '$n' is not a positive whole number" >&2; exit 1; }
[[ "$seed" =~ ^[0-9]+$ ]] || { echo "SEED: '$seed' is not a whole number" >&2; exit 1; }
bin=${CARGO_TARGET_DIR:-target}/release/mnklab
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }

kept=0
while read -r line; do
  value=$("$bin" solve --game connect4 --moves "$line" | sed -n 's/^value //p')
  score=$(sed -n 's/.*(score \(-\{0,1\}[0-9]*\)).*/\1/p' <<< "$value")
  [ -n "$score" ] || { echo "no score for $line" >&2; exit 1; }
  left=$(sed -n 's/^[a-z]* in \([0-9]*\) .*/\1/p' <<< "$value")
  [ -n "$left" ] || left=$((42 - ${#line}))
  if [ "$left" -gt 28 ]; then
    echo "$line $score"
    kept=$((kept + 1))
    [ "$kept" -lt "$n" ] || break
  fi
done < <(python3 "$(dirname "$0")/../connect4_lines.py" "$seed" 4 14) | LC_ALL=C sort
echo "seed $seed: $n lines lasting more than 28 plies" >&2
