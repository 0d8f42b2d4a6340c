#!/usr/bin/env bash
# A Connect-4 book's values against Pascal Pons' solver (github.com/PascalPons/connect4),
# built from its public source in a scratch folder outside this repository (nothing of it is
# copied here): N random lines of PLIES moves (seeded; lines where a side has won on the way
# are skipped), each looked up in BOOK by `mnklab solve --book` and solved by his c4solver
# (no opening book). Prints each line that differs, then how many the book answered and how
# many agree. Exit status 1 when any differs or the book did not answer one.
#
# Usage (from the project root, after cargo build --release):
#   scripts/book/pons_check.sh BOOK [N=100] [PLIES=10] [SEED=27]
# PONS_SRC=/path/to/a/checkout uses an existing copy instead of cloning.
set -euo pipefail
book=${1:?usage: scripts/book/pons_check.sh BOOK [N] [PLIES] [SEED]}
n=${2:-100}; plies=${3:-10}; seed=${4:-27}
bin=${CARGO_TARGET_DIR:-target}/release/mnklab
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }
[ -f "$book" ] || { echo "$book: no such file" >&2; exit 1; }
scratch=$(mktemp -d /tmp/mnklab-pons-check.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
source "$(dirname "$0")/../pons_source.sh"
src=$(pons_source "$scratch")
# His own flags (his Makefile's), built in the scratch folder.
pons_c4solver "$src" "$scratch/c4solver"

# Random lines (columns 1-7), none ending a game on the way, none repeated.
python3 "$(dirname "$0")/../connect4_lines.py" "$seed" "$plies" "$plies" "$n" | LC_ALL=C sort > "$scratch/lines"

# mnklab: "value ... (score S)" and "from the book ..." when the book answered.
while read -r line; do
  out=$("$bin" solve --game connect4 --moves "$line" --book "$book")
  score=$(sed -n 's/^value .*(score \(-\{0,1\}[0-9]*\)).*/\1/p' <<< "$out")
  from_book=$(grep -q "^from the book" <<< "$out" && echo 1 || echo 0)
  echo "$line ${score:-none} $from_book"
done < "$scratch/lines" > "$scratch/ours"
# Pons: "moves score nodes microseconds" a line (run from the scratch folder: no 7x6.book there).
(cd "$scratch" && ./c4solver < lines 2> /dev/null) > "$scratch/pons.out"
paste -d' ' "$scratch/ours" "$scratch/pons.out" | awk '
  { n++; if ($3 == 1) booked++; if ($1 == $4 && $2 == $5) agree++; else print "differs:", $1, "mnklab", $2, "Pons", $5 }
  END { printf "%d lines, %d answered by the book, %d agree with Pons\n", n, booked, agree; exit (agree == n && booked == n) ? 0 : 1 }'
