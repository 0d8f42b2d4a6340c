#!/bin/bash
# Runs a matchup as a Slurm job array of SHARDS tasks, then merges them into OUT/all.
#
#   scripts/slurm/submit.sh [--wait] [--cpus C] MATCHUP OUT SHARDS [mnklab match arguments...]
#
# e.g. the full-time Lim grid on 32 tasks of 4 cores, 12 hours each at most:
#   SBATCH_TIMELIMIT=12:00:00 scripts/slurm/submit.sh --cpus 4 \
#       saves/experiments/lim-grid-3s.ron results/lim-grid-3s 32
# Extra arguments go to every `mnklab match` (e.g. --scale 0.1, --games 20). MNKLAB names the
# binary (default: mnklab on PATH, else target/release/mnklab). With --wait the script
# returns when the merge has finished, with its exit status.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
wait_flag=()
cpus=1
while [[ $# -gt 0 && $1 == --* ]]; do
    case $1 in
        --wait) wait_flag=(--wait); shift ;;
        --cpus) cpus=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
if [[ $# -lt 3 ]]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
matchup=$(realpath "$1")
out=$(realpath -m "$2")
shards=$3
shift 3
if ! [[ $shards =~ ^[1-9][0-9]*$ ]]; then
    echo "SHARDS must be a positive whole number, not '$shards'" >&2
    exit 2
fi
mnklab=${MNKLAB:-$(command -v mnklab || echo "$PWD/target/release/mnklab")}
mnklab=$(realpath "$mnklab")
[[ -x $mnklab ]] || { echo "no mnklab binary at $mnklab (set MNKLAB)" >&2; exit 2; }
mkdir -p "$out/logs"
export MNKLAB=$mnklab MATCHUP=$matchup OUT=$out SHARDS=$shards EXTRA="$*"
array=$(sbatch --parsable --array="1-$shards" --cpus-per-task="$cpus" \
    --chdir="$out/logs" --export=ALL "$here/sweep.sbatch")
array=${array%%;*}
echo "array job $array: $shards shards of $matchup into $out"
sbatch --parsable "${wait_flag[@]}" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --chdir="$out/logs" --export=ALL "$here/merge.sbatch" | sed 's/^/merge job /'
if [[ ${#wait_flag[@]} -gt 0 ]]; then
    echo "merged into $out/all"
fi
