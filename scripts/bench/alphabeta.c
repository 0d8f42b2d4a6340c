/* Reference for mnklab's alpha-beta speed: a plain C negamax alpha-beta with the same
   algorithm, move order and evaluation as mnklab's agent file scripts/bench/plain-ab.ron, so
   the two must visit exactly the same nodes and return the same value; only the speed may
   differ. Written for mnklab (not taken from any program).

   - moves in mnklab's id order: columns left to right (gravity), or cells x * height + y;
   - a node counts on entry; a finished game is worth -(WIN - ply) to the side to move (the
     side that just lost), a full board 0; at depth 0 Lim's window heuristic (bonus 1) for the
     side to move, kept incrementally: every window of K cells in 4 directions, worth
     round((n / K + [n = K - 1]) * 1000) per n stones of one player alone in it, LINE for K;
   - no table, no ordering, no tactics, fixed depth.
   Usage: alphabeta connect4|gomoku DEPTH   -> "nodes N value V seconds S nodes_per_second R" */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WIN 100000000
#define WIN_BOUND (WIN - 100000)
#define LINE 10000000
#define INF (WIN + 1)
#define MAXC 256
#define MAXW 1024

static int W, H, K, GRAV;
static int nwin, win_cells[MAXW][8], cell_nw[MAXC], cell_w[MAXC][32];
static int cnt[MAXW][2], phi[9][9];
static long long sum; /* first player's view */
static signed char board[MAXC]; /* 0 empty, 1 first, 2 second */
static int heights[32], ply, ncells;
static long long nodes;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int cell(int x, int y) { return x * H + y; }

static int one(int n) {
  if (n == K) return LINE;
  double bonus = (n + 1 == K) ? 1.0 : 0.0;
  double v = ((double)n / K + bonus) * 1000.0;
  return (int)(v < 0 ? v - 0.5 : v + 0.5);
}

static void setup(void) {
  int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  for (int x = 0; x < W; x++)
    for (int y = 0; y < H; y++)
      for (int d = 0; d < 4; d++) {
        int ex = x + dirs[d][0] * (K - 1), ey = y + dirs[d][1] * (K - 1);
        if (ex < 0 || ey < 0 || ex >= W || ey >= H) continue;
        for (int i = 0; i < K; i++) {
          int c = cell(x + dirs[d][0] * i, y + dirs[d][1] * i);
          win_cells[nwin][i] = c;
          cell_w[c][cell_nw[c]++] = nwin;
        }
        nwin++;
      }
  for (int a = 0; a <= K; a++)
    for (int b = 0; a + b <= K; b++)
      phi[a][b] = b == 0 ? one(a) : a == 0 ? -one(b) : 0;
  ncells = W * H;
}

#ifdef GAIN_TABLE
/* -DGAIN_TABLE: what mnklab's value-only update does, one lookup a window of the value one
   more stone of p adds (gain[p][a][b] = phi after - phi before); undoing subtracts the gain at
   the counts it goes back to. */
static int gain[2][9][9];
static void setup_gain(void) {
  for (int a = 0; a < K; a++)
    for (int b = 0; a + b < K; b++) {
      gain[0][a][b] = phi[a + 1][b] - phi[a][b];
      gain[1][a][b] = phi[a][b + 1] - phi[a][b];
    }
}
static inline void change(int c, int p, int delta) {
  for (int i = 0; i < cell_nw[c]; i++) {
    int *w = cnt[cell_w[c][i]];
    if (delta > 0) { sum += gain[p][w[0]][w[1]]; w[p]++; }
    else { w[p]--; sum -= gain[p][w[0]][w[1]]; }
  }
}
#else
static void setup_gain(void) {}
static inline void change(int c, int p, int delta) {
  for (int i = 0; i < cell_nw[c]; i++) {
    int *w = cnt[cell_w[c][i]];
    sum -= phi[w[0]][w[1]];
    w[p] += delta;
    sum += phi[w[0]][w[1]];
  }
}
#endif

/* Does the stone on c make a line of K or more for its owner? */
static int line_through(int c) {
  int x = c / H, y = c % H, me = board[c];
  int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  for (int d = 0; d < 4; d++) {
    int run = 1, dx = dirs[d][0], dy = dirs[d][1];
    for (int a = x + dx, b = y + dy; a >= 0 && b >= 0 && a < W && b < H && board[cell(a, b)] == me; a += dx, b += dy) run++;
    for (int a = x - dx, b = y - dy; a >= 0 && b >= 0 && a < W && b < H && board[cell(a, b)] == me; a -= dx, b -= dy) run++;
    if (run >= K) return 1;
  }
  return 0;
}

static int negamax(int depth, int alpha, int beta, int last) {
  nodes++;
  if (last >= 0 && line_through(last)) return -(WIN - ply);
  if (ply == ncells) return 0;
  if (depth == 0) {
    long long v = (ply & 1) ? -sum : sum;
    if (v > LINE) v = LINE;
    if (v < -LINE) v = -LINE;
    if (v > WIN_BOUND - 1) v = WIN_BOUND - 1;
    if (v < -WIN_BOUND + 1) v = -WIN_BOUND + 1;
    return (int)v;
  }
  int best = -INF, p = ply & 1, n = GRAV ? W : ncells;
  for (int m = 0; m < n; m++) {
    int c;
    if (GRAV) {
      if (heights[m] == H) continue;
      c = cell(m, heights[m]++);
    } else {
      if (board[m]) continue;
      c = m;
    }
    board[c] = (signed char)(p + 1);
    change(c, p, 1);
    ply++;
    int s = -negamax(depth - 1, -beta, -alpha, c);
    ply--;
    change(c, p, -1);
    board[c] = 0;
    if (GRAV) heights[m]--;
    if (s > best) best = s;
    if (best > alpha) alpha = best;
    if (alpha >= beta) break;
  }
  return best;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: alphabeta connect4|gomoku DEPTH\n"); return 2; }
  if (strcmp(argv[1], "gomoku") == 0) { W = 15; H = 15; K = 5; GRAV = 0; }
  else { W = 7; H = 6; K = 4; GRAV = 1; }
  int depth = atoi(argv[2]);
  setup();
  setup_gain();
  double t0 = now();
  int v = negamax(depth, -INF, INF, -1);
  double dt = now() - t0;
  printf("nodes %lld value %d seconds %.3f nodes_per_second %.0f\n", nodes, v, dt, nodes / dt);
  return 0;
}
