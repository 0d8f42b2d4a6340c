# Sourced by the scripts that build Pascal Pons' Connect-4 solver (github.com/PascalPons/connect4)
# from its public source in a scratch folder outside this repository (nothing of it is copied
# here). `pons_source SCRATCH` prints the checkout to build from: $PONS_SRC when set, else a
# clone into SCRATCH/pons at the pinned commit below (from $PONS_REPO when set, a URL or a
# local clone of his repository); it exits with a clear message when neither works or the
# folder is not his solver's.
#
# Pinned: the figures in docs/benchmarks.md were measured on his commit d6ba50d (2020-12-06, the
# latest when they were taken). Each source file the scripts compile is checked against that
# commit's (git blob ids, so a plain copy of the files is checked as well as a checkout); a
# file that differs is named on stderr and the run goes on, its figures then from other code.
PONS_COMMIT=d6ba50d8aaf2308c769d9bf2abd42d90f34baf41
PONS_BLOBS="Solver.cpp:1c8c430953e213d905bc2196b8276e21ea1492f4
Solver.hpp:9d9445d032a84eee123ace5935b8952a68e47a3b
Position.hpp:89ed77e646dd8467630ffb63e6e20423bf806897
TranspositionTable.hpp:f3ba04150584b703929d0869886ce1f67968d39b
MoveSorter.hpp:e9658f08d170278e551ad62a0825c0ed12717b66
OpeningBook.hpp:a15ad47c9d7244f9a0deb05f9ce98dd772135383
main.cpp:80b0e8e79963300f3ebc605c27655eca40af069b"
pons_source() {
  local src=${PONS_SRC:-}
  if [ -z "$src" ]; then
    git clone --quiet "${PONS_REPO:-https://github.com/PascalPons/connect4}" "$1/pons" ||
      { echo "could not clone Pons' solver; without a network, set PONS_SRC to a checkout of github.com/PascalPons/connect4" >&2; exit 1; }
    git -C "$1/pons" checkout --quiet "$PONS_COMMIT" ||
      { echo "Pons' repository has no commit $PONS_COMMIT (the pinned one)" >&2; exit 1; }
    src="$1/pons"
  fi
  for f in main.cpp Solver.cpp Solver.hpp; do
    [ -f "$src/$f" ] || { echo "$src is not a checkout of Pons' solver: no $f" >&2; exit 1; }
  done
  pons_pinned "$src" && echo "Pons' source: the pinned commit ${PONS_COMMIT:0:7} (every file checked)" >&2
  echo "$src"
}

# Whether the source files in $1 are the pinned commit's; names each that differs on stderr.
pons_pinned() {
  local entry file want got same=0
  while read -r entry; do
    file=${entry%%:*}
    want=${entry#*:}
    got=$(git hash-object "$1/$file" 2>/dev/null || echo missing)
    if [ "$got" != "$want" ]; then
      echo "warning: $1/$file is not the pinned commit's ($PONS_COMMIT): blob $got, pinned $want" >&2
      same=1
    fi
  done <<< "$PONS_BLOBS"
  return $same
}

# Builds his command-line solver (`echo MOVES | c4solver`) from the checkout $1 into $2, with
# his Makefile's flags; on failure prints the compiler's output and exits.
pons_c4solver() {
  g++ --std=c++11 -O3 -DNDEBUG -I"$1" -o "$2" "$1/main.cpp" "$1/Solver.cpp" 2>"$2.log" ||
    { cat "$2.log" >&2; echo "building Pons' c4solver failed (above)" >&2; exit 1; }
}
