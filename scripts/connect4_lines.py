"""Random Connect-4 lines for the benchmark scripts (scripts/book/pons_check.sh,
scripts/bench/begin_hard.sh): usage `connect4_lines.py SEED MIN MAX [N]`.

Prints lines of column digits 1-7, one a line, each a random game from the empty board: a
length drawn uniformly from MIN-MAX plies (no draw when MIN = MAX, so a fixed length gives the
same lines as before this file existed), then uniformly random legal moves. A line where a side
has won on the way is skipped, none is printed twice. N lines, or until the reader stops.
"""
import random
import sys


def won(board, x, y, player):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for s in (1, -1):
            i, j = x + s * dx, y + s * dy
            while 0 <= i < 7 and 0 <= j < 6 and board.get((i, j)) == player:
                count += 1
                i, j = i + s * dx, j + s * dy
        if count >= 4:
            return True
    return False


def main():
    seed, lo, hi = map(int, sys.argv[1:4])
    n = int(sys.argv[4]) if len(sys.argv) > 4 else None
    rng = random.Random(seed)
    seen = set()
    while n is None or len(seen) < n:
        plies = lo if lo == hi else rng.randint(lo, hi)
        board, heights, line, ok = {}, [0] * 7, '', True
        for t in range(plies):
            c = rng.choice([c for c in range(7) if heights[c] < 6])
            board[(c, heights[c])] = t % 2
            heights[c] += 1
            line += str(c + 1)
            if won(board, c, heights[c] - 1, t % 2):
                ok = False
                break
        if ok and line not in seen:
            seen.add(line)
            print(line, flush=True)


try:
    main()
except BrokenPipeError:
    pass
