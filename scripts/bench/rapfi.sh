#!/usr/bin/env bash
# mnklab's gomoku agents against Rapfi (github.com/dhbloo/rapfi, a Gomocup champion), built from
# its public source in a scratch folder outside this repository (nothing of it is copied here)
# with its classical evaluation (no neural network: the weights and config of
# github.com/dhbloo/rapfi-networks), one thread, freestyle (five or more wins: mnklab's
# `gomoku`). The games are played by mnklab's own arena, Rapfi as an External agent, from the
# openings below, each with both colours:
#
# - a node ladder: each agent at SECONDS of CPU time a move (which a loaded machine does not
#   shrink) against Rapfi at N nodes a move (Rapfi's `INFO max_node N`) for each N of NODES,
#   and the parity point (the nodes a move at which the agent scores 50%, interpolated on
#   log nodes between the rungs around it);
# - equal time: the agent and Rapfi both at SECONDS of wall time a move (unless EQUAL=0); run
#   it on an idle machine (the load is printed before and after).
#
# Usage (from the project root, after cargo build --release):
#   AGENTS="strong-ab saves/experiments/agents/strong-ab-threats.ron" scripts/bench/rapfi.sh [SECONDS] [NODES ...]
# AGENTS: presets or agent files (default strong-ab), each measured in turn against the one
# build; SECONDS default 1; NODES default "16 64 250 1000 4000 10000". GAMES=N plays N games
# a rung (default 16: the 8 openings below, both colours; even). OPENINGS=canonical plays
# the 26 canonical three-stone openings instead (13 direct, 13 indirect; GAMES=52 plays
# each with both colours). OUT=folder (default
# out/rapfi-<date>-<time>); each rung is a run folder there (games.csv, moves.csv,
# results.ronl), and ladder.txt sums them up. RAPFI_SRC and NETWORKS_SRC use existing
# checkouts instead of cloning (RAPFI_REPO and NETWORKS_REPO: where to clone from); either
# way the commits are checked against the pinned ones below. Needs cmake (3.18 or later)
# and a C++17 compiler (Debian: apt-get install cmake g++).
set -euo pipefail
read -r -a agents <<< "${AGENTS:-strong-ab}"
seconds=${1:-1}
shift $(( $# > 0 ? 1 : 0 ))
nodes=("$@")
[ ${#nodes[@]} -gt 0 ] || nodes=(16 64 250 1000 4000 10000)
games=${GAMES:-16}
for a in "${agents[@]}"; do
  [[ "$a" != *.ron || -f "$a" ]] || { echo "AGENTS: no agent file $a" >&2; exit 1; }
done
[[ "$seconds" =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "SECONDS: '$seconds' is not a number of seconds" >&2; exit 1; }
[[ "$games" =~ ^[1-9][0-9]*$ && $((games % 2)) -eq 0 ]] || { echo "GAMES: '$games' is not an even positive count" >&2; exit 1; }
for n in "${nodes[@]}"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "NODES: '$n' is not a positive whole number" >&2; exit 1; }
done
[[ -z "${OPENINGS:-}" || "$OPENINGS" == canonical ]] ||
  { echo "OPENINGS: '$OPENINGS' is not 'canonical' (leave it unset for the 8 openings)" >&2; exit 1; }
command -v cmake > /dev/null || { echo "cmake is needed to build Rapfi (Debian: apt-get install cmake)" >&2; exit 1; }
bin=$(realpath "${CARGO_TARGET_DIR:-target}/release/mnklab" 2>/dev/null || true)
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 1; }

# Pinned: the figures in docs/gomoku-strength.md were measured with these commits.
RAPFI_COMMIT=3aedf3a
NETWORKS_COMMIT=918b757
scratch=$(mktemp -d /tmp/mnklab-rapfi.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
# A copy of the program: a build during the run does not change the agent between rungs.
cp "$bin" "$scratch/mnklab"
bin=$scratch/mnklab
checkout() { # name, repository, commit, existing checkout (may be empty), clone options
  local dir=${4:-$scratch/$1}
  if [ -z "${4:-}" ]; then
    git clone --quiet ${5:-} "$2" "$dir" ||
      { echo "could not clone $2; without a network, set ${1^^}_SRC to a checkout" >&2; exit 1; }
  fi
  git -C "$dir" rev-parse --quiet --verify "$3^{commit}" > /dev/null ||
    { echo "$dir has no commit $3 (the pinned one)" >&2; exit 1; }
  [ -n "${5:-}" ] || git -C "$dir" checkout --quiet "$3" ||
    { echo "could not check out $3 in $dir" >&2; exit 1; }
  echo "$dir"
}
src=$(checkout rapfi "${RAPFI_REPO:-https://github.com/dhbloo/rapfi}" "$RAPFI_COMMIT" "${RAPFI_SRC:-}")
# The networks' repository holds large neural-network files; only two small ones are read.
nets=$(checkout networks "${NETWORKS_REPO:-https://github.com/dhbloo/rapfi-networks}" "$NETWORKS_COMMIT" "${NETWORKS_SRC:-}" --no-checkout)
[ -f "$src/Rapfi/CMakeLists.txt" ] || { echo "$src is not a checkout of Rapfi: no Rapfi/CMakeLists.txt" >&2; exit 1; }

# Rapfi's release build for this machine's instruction sets (its own detection), without the
# command-line modules (only the Gomocup protocol is used).
echo "building Rapfi ${RAPFI_COMMIT} (a few minutes)" >&2
cmake -S "$src/Rapfi" -B "$scratch/build" -DCMAKE_BUILD_TYPE=Release -DNO_COMMAND_MODULES=ON > "$scratch/cmake.log" 2>&1 ||
  { cat "$scratch/cmake.log" >&2; echo "configuring Rapfi failed (above)" >&2; exit 1; }
cmake --build "$scratch/build" -j "$(nproc)" > "$scratch/build.log" 2>&1 ||
  { tail -30 "$scratch/build.log" >&2; echo "building Rapfi failed (above)" >&2; exit 1; }
engine=$(find "$scratch/build" -maxdepth 2 -type f -name 'pbrain-rapfi*' -perm -u+x | head -1)
[ -n "$engine" ] || { echo "the build made no pbrain-rapfi program" >&2; exit 1; }
# The classical evaluation: its weights and the config naming them, beside the program.
home=$(dirname "$engine")
git -C "$nets" show "$NETWORKS_COMMIT:classical/model220723.bin" > "$home/model220723.bin" &&
  git -C "$nets" show "$NETWORKS_COMMIT:config-example/gomocalc-classical220723.toml" > "$home/config.toml" ||
  { echo "$nets lacks the classical weights or their config at $NETWORKS_COMMIT" >&2; exit 1; }

out=${OUT:-out/rapfi-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(realpath "$out")
# An opening list: stones near the centre, each played with both colours.
openings='"h8 h9 j8", "h8 i9 g10", "h8 i8 i10", "h8 g9 j9", "h8 h7 j6", "h8 i7 j9", "h8 j8 h10", "h8 i10 g9"'
if [ "${OPENINGS:-}" = canonical ]; then
  # Black h8, white beside it (direct, h9) or diagonal (indirect, i9), black's second stone
  # on each cell of the centre's 5x5 up to the mirror that keeps the first two.
  openings=$(python3 - <<'PY'
cell = lambda x, y: "abcdefghijklmno"[7 + x] + str(8 + y)
out = []
for white, keep in (((0, 1), lambda x, y: x >= 0), ((1, 1), lambda x, y: x >= y)):
    out += [f'"h8 {cell(*white)} {cell(x, y)}"' for x in range(-2, 3) for y in range(-2, 3)
            if (x, y) not in ((0, 0), white) and keep(x, y)]
assert len(out) == 26
print(", ".join(out))
PY
)
fi
agent_source() { # a preset name, or a file (made absolute: the matchup lives in $out)
  if [ -f "$agent" ]; then echo "File(\"$(realpath "$agent")\")"; else echo "Preset(\"$agent\")"; fi
}
rung() { # name, Rapfi's INFO lines (RON list), Rapfi's turn time, the agent's clock (time or
  # cpu_time); the agent is $agent, named $tag
  cat > "$out/$1.ron" <<RON
(
    version: 1,
    name: "$1",
    description: "$agent at $seconds s a move against Rapfi (classical, one thread): $1",
    variants: List(["gomoku"]),
    agents: [
        (name: Some("$tag"), agent: $(agent_source), limits: Some(($4: Some($seconds)))),
        (
            name: Some("rapfi"),
            agent: Inline((
                name: "rapfi",
                agent: External((command: "$engine", cwd: Some("$home"), protocol: Gomocup,
                                 grace: 1.0, startup: 30.0, info: $2)),
            )),
            limits: Some((time: Some($3))),
        ),
    ],
    pairing: Pairwise,
    games: $games,
    opening: List([$openings]),
    seed: 1,
)
RON
  # One game at a time: the two programs share the machine with nothing else of the run.
  "$bin" match "$out/$1.ron" --threads 1 --allow-external --out "$out/$1" > "$out/$1.log" 2>&1 ||
    { tail -20 "$out/$1.log" >&2; echo "the run $1 failed (above)" >&2; exit 1; }
  score "$1"
}
score() { # AGENT's W-D-L and score over the rung's games
  python3 - "$out/$1/games.csv" "$tag" "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
me = sys.argv[2]
w = sum(r["winner"] == me for r in rows)
l = sum(r["winner"] not in (me, "") for r in rows)
d = len(rows) - w - l
plies = sum(int(r["plies"]) for r in rows) / max(len(rows), 1)
print(f"{sys.argv[3]}: {me} {w}-{d}-{l}, score {(w + d / 2) / max(len(rows), 1):.3f} over {len(rows)} games, {plies:.1f} plies a game")
PY
}
parity() { # the parity point of one agent's ladder (its lines of ladder.txt)
python3 - "$out/ladder.txt" "$1" <<'PY'
# A logistic curve of the agent's expected score against log nodes, fitted to every game of
# the ladder by maximum likelihood (a draw counts half a win and half a loss): its 50% point.
# A rung-by-rung reading of 8 or 16 games is too noisy to cross 50% only once.
import math, re, sys
games = []  # (log nodes, score) per game
for line in open(sys.argv[1]):
    if not line.startswith(sys.argv[2] + " "):
        continue
    m = re.search(r"-rapfi-(\d+)-nodes: \S+ (\d+)-(\d+)-(\d+),", line)
    if m:
        x = math.log(int(m.group(1)))
        w, d, l = (int(m.group(i)) for i in (2, 3, 4))
        games += [(x, 1.0)] * w + [(x, 0.5)] * d + [(x, 0.0)] * l
if not games:
    sys.exit()
def loglik(c, k):  # score = 1 / (1 + exp(k * (x - c))): c is the 50% point in log nodes
    total = 0.0
    for x, s in games:
        p = min(max(1 / (1 + math.exp(min(k * (x - c), 50))), 1e-9), 1 - 1e-9)
        total += s * math.log(p) + (1 - s) * math.log(1 - p)
    return total
lo, hi = min(x for x, _ in games), max(x for x, _ in games)
grid = [(lo - 3 + i * (hi - lo + 6) / 300, k / 20) for i in range(301) for k in range(1, 101)]
c, k = max(grid, key=lambda g: loglik(*g))
where = "" if lo <= c <= hi else " (outside the rungs played: an extrapolation)"
print(f"parity point: Rapfi at about {math.exp(c):.0f} nodes a move{where}, from {len(games)} games (logistic fit, slope {k:.2f} per log node)")
PY
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for agent in "${agents[@]}"; do
  tag=$(basename "$agent" .ron)
  for n in "${nodes[@]}"; do
    # A node limit with a generous clock: the nodes decide, not the time.
    rung "$tag-rapfi-${n}-nodes" "[(\"max_node\", \"$n\"), (\"thread_num\", \"1\")]" 30 cpu_time | sed "s|^|$agent |" | tee -a "$out/ladder.txt"
  done
  if [ "${EQUAL:-1}" != 0 ]; then
    rung "$tag-rapfi-${seconds}s" "[(\"thread_num\", \"1\")]" "$seconds" time | sed "s|^|$agent |" | tee -a "$out/ladder.txt"
  fi
  echo "$agent: $(parity "$agent")" | tee -a "$out/ladder.txt"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs in $out"
