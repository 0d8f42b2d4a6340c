#!/usr/bin/env bash
# An mnklab agent against MarkCello (seed 003's best player, Java: github.com/Flecart/MNKGames)
# on MarkCello's own tester, through the Gomocup bridge of ../shared/tools/gomocup-bridge
# (an MNKPlayer that forwards each move to `mnklab brain`). MNKGames is built from its public
# source in a scratch folder outside this repository (nothing of it is copied here).
#
# Each board plays ROUNDS games with mnklab first, then ROUNDS with MarkCello first, at
# SECONDS_A_MOVE a move. The bridge gives the engine the tester's limit less 400 ms (process
# and JVM margin), so mnklab plays with less time than MarkCello. Forfeits (the tester's
# "Error") are counted apart from games decided on the board.
#
# Usage (from the project root, after cargo build --release):
#   AGENT=strong-ab scripts/bench/markcello.sh [M,N,K ...]      (default: 9,9,5 11,11,5)
# AGENT: a preset or an agent file (default strong-ab); ROUNDS (default 4); SECONDS_A_MOVE
# (default 1; bash keeps SECONDS for its own clock); BRIDGE: the bridge's folder (default
# ../shared/tools/gomocup-bridge); MNKGAMES_SRC: an existing checkout instead of cloning
# (MNKGAMES_REPO: where to clone from); OUT: where the tester's logs go (default
# out/markcello-<date>-<time>). Needs a JDK (javac, java).
set -euo pipefail
agent=${AGENT:-strong-ab}
rounds=${ROUNDS:-4}
seconds=${SECONDS_A_MOVE:-1}
bridge=$(realpath "${BRIDGE:-../shared/tools/gomocup-bridge}" 2>/dev/null || true)
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=(9,9,5 11,11,5)
[[ "$agent" != *.ron || -f "$agent" ]] || { echo "AGENT: no agent file $agent" >&2; exit 1; }
[[ "$agent" != *.ron ]] || agent=$(realpath "$agent")
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS: '$rounds' is not a positive whole number" >&2; exit 1; }
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "SECONDS_A_MOVE: '$seconds' is not a whole number of seconds (the tester's unit)" >&2; exit 1; }
for b in "${boards[@]}"; do
  [[ "$b" =~ ^[0-9]+,[0-9]+,[0-9]+$ ]] || { echo "board '$b' is not M,N,K" >&2; exit 1; }
done
[ -f "$bridge/bridge/GomocupPlayer.java" ] ||
  { echo "no bridge at ${BRIDGE:-../shared/tools/gomocup-bridge} (set BRIDGE to its folder)" >&2; exit 1; }
command -v javac > /dev/null || { echo "a JDK is needed (Debian: apt-get install default-jdk)" >&2; exit 1; }
bin=$(realpath "${CARGO_TARGET_DIR:-target}/release/mnklab" 2>/dev/null || true)
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }

out=${OUT:-out/markcello-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(realpath "$out")
scratch=$(mktemp -d /tmp/mnklab-markcello.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
# A copy of the program: a build during the run does not change the agent between games.
cp "$bin" "$scratch/mnklab"
src=${MNKGAMES_SRC:-$scratch/MNKGames}
if [ -z "${MNKGAMES_SRC:-}" ]; then
  git clone --quiet "${MNKGAMES_REPO:-https://github.com/Flecart/MNKGames}" "$src" ||
    { echo "could not clone MNKGames; without a network, set MNKGAMES_SRC to a checkout" >&2; exit 1; }
fi
echo "MNKGames $(git -C "$src" rev-parse --short HEAD), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
classes=$scratch/classes
mkdir -p "$classes"
(cd "$src" && find mnkgame MarkcelloPlayer -name '*.java' -not -name 'Test*') | sed "s|^|$src/|" > "$scratch/sources.txt"
echo "$bridge/bridge/GomocupPlayer.java" >> "$scratch/sources.txt"
javac -nowarn -cp "$src/lib/junit-jupiter-api-5.9.0-RC1.jar" @"$scratch/sources.txt" -d "$classes" 2> "$scratch/javac.log" ||
  { cat "$scratch/javac.log" >&2; exit 1; }

# "NAME Score: S Won: W Lost: L Draw: D Error: E" of the bridge's line, as "W D L E".
tally() { grep -a 'Score: .* Won: ' "$1" | grep -a '^bridge:' | sed -E 's/.*Won: ([0-9]+) Lost: ([0-9]+) Draw: ([0-9]+) Error: ([0-9]+).*/\1 \3 \2 \4/'; }
for b in "${boards[@]}"; do
  IFS=, read -r m n k <<< "$b"
  export BRIDGE_CMD="$scratch/mnklab brain --agent $agent --game mnk:$n,$m,{K}"
  w=0 d=0 l=0 e=0
  for order in first second; do
    log=$out/$m-$n-$k-mnklab-$order.log
    if [ $order = first ]; then players=(bridge.GomocupPlayer MarkcelloPlayer.LastPlayer); else players=(MarkcelloPlayer.LastPlayer bridge.GomocupPlayer); fi
    java -cp "$classes" mnkgame.MNKPlayerTester -v -t "$seconds" -r "$rounds" "$m" "$n" "$k" "${players[@]}" > "$log" 2>&1 ||
      { echo "the tester failed on $b ($order): see $log" >&2; exit 1; }
    read -r gw gd gl ge <<< "$(tally "$log")"
    w=$((w + gw)) d=$((d + gd)) l=$((l + gl)) e=$((e + ge))
    echo "$agent on $b, mnklab $order: $gw-$gd-$gl, $ge forfeits by mnklab ($log)"
  done
  echo "$agent against MarkCello on $b at $seconds s a move: $w-$d-$l ($e of the losses by forfeit), score $(awk -v w=$w -v d=$d -v g=$((w + d + l)) 'BEGIN { printf "%.3f", (w + d / 2) / g }') over $((w + d + l)) games"
done | tee "$out/summary.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); logs in $out"
