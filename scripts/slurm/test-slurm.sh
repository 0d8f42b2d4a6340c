#!/bin/bash
# Runs a reduced sweep through a real Slurm scheduler as a job array of shards, merges it,
# and checks the merged games equal a single-machine run of the same matchup, game for game
# (same seeds, moves, outcomes: the games are fixed by the base seed and their index, and
# the budgets here are depths and iterations, not time).
#
#   scripts/slurm/setup-local.sh     # once, as root, if no cluster is at hand
#   scripts/slurm/test-slurm.sh      # prints PASS, or FAIL and what differed
#
# Not part of CI by default (CI has no Slurm); it skips, exit 0, when sbatch is missing
# or no node is up. Options: SHARDS (default 4), GAMES (default 6 a board and pairing).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v sbatch >/dev/null || ! sinfo -h -o '%T' 2>/dev/null | grep -qE 'idle|mix|alloc'; then
    echo "SKIP: no Slurm here (run scripts/slurm/setup-local.sh as root to make a local one)"
    exit 0
fi
shards=${SHARDS:-4}
games=${GAMES:-6}
matchup=saves/experiments/alam-table3.ron
[[ -x target/release/mnklab ]] || cargo build --release --quiet
export MNKLAB=$PWD/target/release/mnklab
work=$(mktemp -d /tmp/mnklab-slurm.XXXXXX)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
scripts/slurm/submit.sh --wait "$matchup" "$work/sweep" "$shards" --games "$games"
echo "through Slurm: $(( $(date +%s) - start )) s"
"$MNKLAB" match "$matchup" --games "$games" --out "$work/single" > /dev/null
# games.csv is written as games finish (in any order with several workers): compare by index.
by_index() { head -1 "$1"; tail -n +2 "$1" | sort -t, -k1,1n; }
if ! diff <(by_index "$work/sweep/all/games.csv") <(by_index "$work/single/games.csv") > "$work/diff"; then
    echo "FAIL: the merged games differ from the single-machine run:"
    head -20 "$work/diff"
    exit 1
fi
n=$(($(wc -l < "$work/single/games.csv") - 1))
shard_games=0
for ((i = 1; i <= shards; i++)); do
    shard_games=$((shard_games + $(wc -l < "$work/sweep/shard-$i-of-$shards/results.ronl")))
done
if [[ $shard_games -ne $n ]]; then
    echo "FAIL: the shards hold $shard_games games, the matchup has $n"
    exit 1
fi
echo "PASS: $shards shards through sbatch, $n games merged, identical to the single-machine run"
