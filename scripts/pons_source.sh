# Sourced by the scripts that build Pascal Pons' Connect-4 solver (github.com/PascalPons/connect4)
# from its public source in a scratch folder outside this repository (nothing of it is copied
# here). `pons_source SCRATCH` prints the checkout to build from: $PONS_SRC when set, else a
# shallow clone into SCRATCH/pons; it exits with a clear message when neither works or the
# folder is not his solver's.
pons_source() {
  local src=${PONS_SRC:-}
  if [ -z "$src" ]; then
    git clone --quiet --depth 1 https://github.com/PascalPons/connect4 "$1/pons" ||
      { echo "could not clone Pons' solver; without a network, set PONS_SRC to a checkout of github.com/PascalPons/connect4" >&2; exit 1; }
    src="$1/pons"
  fi
  for f in main.cpp Solver.cpp Solver.hpp; do
    [ -f "$src/$f" ] || { echo "$src is not a checkout of Pons' solver: no $f" >&2; exit 1; }
  done
  echo "$src"
}
