//! 3D Connect-4 with line scoring (the team's rules, `rules/connect3d.md` in the shared folder; summarised in docs/cli.md): 24 poles of a rounded
//! 6 x 6 shape, 6 stones a pole, 64 moves, the k-th line made scores floor(100 / k).

use rand::Rng;

use super::slots::Slots;
use super::zobrist::ZOBRIST;
use super::{Bits, GameError, Move, Player, PlayoutResult, Position, Status, Variant, Wide};

pub const POLES: usize = 24;
pub const POLE_HEIGHT: usize = 6;
/// Every game lasts exactly this many moves.
pub const GAME_LENGTH: usize = 64;

/// (x, y) on the 6 x 6 grid of each pole, in the original program's numbering (pole 1 first):
/// rows top to bottom (y = 0 at the top), columns left to right.
pub const POLE_XY: [(u8, u8); POLES] = [
    (2, 0),
    (3, 0),
    (1, 1),
    (2, 1),
    (3, 1),
    (4, 1),
    (0, 2),
    (1, 2),
    (2, 2),
    (3, 2),
    (4, 2),
    (5, 2),
    (0, 3),
    (1, 3),
    (2, 3),
    (3, 3),
    (4, 3),
    (5, 3),
    (1, 4),
    (2, 4),
    (3, 4),
    (4, 4),
    (2, 5),
    (3, 5),
];

/// The 13 line directions as bit steps in the 8 x 8 x 8 padded layout
/// (bit = (x + 1) + 8 (y + 1) + 64 (z + 1)): 3 axes, 6 plane diagonals, 4 space diagonals.
const DIRS: [usize; 13] = {
    const fn step(dx: i32, dy: i32, dz: i32) -> usize {
        (dx + 8 * dy + 64 * dz) as usize
    }
    [
        step(1, 0, 0),
        step(0, 1, 0),
        step(0, 0, 1),
        step(1, 1, 0),
        step(1, -1, 0),
        step(1, 0, 1),
        step(1, 0, -1),
        step(0, 1, 1),
        step(0, 1, -1),
        step(1, 1, 1),
        step(1, 1, -1),
        step(1, -1, 1),
        step(1, -1, -1),
    ]
};

#[inline(always)]
const fn bit_of(x: usize, y: usize, z: usize) -> usize {
    (x + 1) + 8 * (y + 1) + 64 * (z + 1)
}

/// Zobrist bit of each (symmetry, pole, level): the 8 symmetries of the square map the
/// rounded shape onto itself; levels stay.
static SYM_BITS: [[[u16; POLE_HEIGHT]; POLES]; 8] = {
    let mut t = [[[0u16; POLE_HEIGHT]; POLES]; 8];
    let mut s = 0;
    while s < 8 {
        let mut p = 0;
        while p < POLES {
            let (x, y) = (POLE_XY[p].0 as usize, POLE_XY[p].1 as usize);
            let (tx, ty) = match s {
                0 => (x, y),
                1 => (5 - x, y),
                2 => (x, 5 - y),
                3 => (5 - x, 5 - y),
                4 => (y, x),
                5 => (5 - y, 5 - x),
                6 => (y, 5 - x),
                _ => (5 - y, x),
            };
            let mut z = 0;
            while z < POLE_HEIGHT {
                t[s][p][z] = bit_of(tx, ty, z) as u16;
                z += 1;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// Points of the `k`-th line of the game (1-based): 100 / k, from a table for every line a
/// board can hold (a division is the dearest step of scoring a playout).
#[inline(always)]
pub fn line_points(k: u32) -> u32 {
    const LINES: usize = 77;
    const TABLE: [u32; LINES] = {
        let mut t = [0u32; LINES];
        let mut k = 1;
        while k < LINES {
            t[k] = 100 / k as u32;
            k += 1;
        }
        t
    };
    match TABLE.get(k as usize) {
        Some(&p) => p,
        None => 100 / k,
    }
}

/// A 3D Connect-4 position.
///
/// ```
/// use mnklab::game::{Connect3d, Position};
/// let mut p = Connect3d::new();
/// // First player stacks four on pole 9, the second plays elsewhere.
/// p.play_sequence("9 1 9 2 9 3 9").unwrap();
/// assert_eq!(p.points(), [100, 0]);
/// ```
#[derive(Debug)]
pub struct Connect3d {
    stones: [Wide; 2],
    /// Stones of each player in every window of four (see `window_table`): a stone makes a
    /// line exactly when it brings a window's count to 4. Counting this way is branch-free,
    /// which on random boards is several times faster than walking out from the stone.
    window_counts: [Vec<u8>; 2],
    /// The shared window table (cached here: the hot path skips the `OnceLock`).
    table: &'static super::WindowTable,
    heights: [u8; POLES],
    open: Slots,
    history: Vec<Move>,
    /// Lines made by each move of the history (to undo the scores).
    made: Vec<u8>,
    lines: u32,
    points: [u32; 2],
    hashes: [u64; 8],
    /// 8 while the hashes are kept up to date, 0 while hashing is off (playouts).
    hash_count: usize,
    status: Status,
    /// While scoring is deferred (see [`Position::set_deferred_scoring`]): the moves of the
    /// history whose lines are counted (`usize::MAX` when scoring is live). `window_counts`,
    /// `made`, and `lines`/`points` (of an unfinished game) are those of the first
    /// `deferred_from` moves.
    deferred_from: usize,
    /// The lines and points after the first `deferred_from` moves, to return to when a
    /// finished game (scored at once at its 64th move) is taken back.
    deferred_base: (u32, [u32; 2]),
}

impl Clone for Connect3d {
    fn clone(&self) -> Self {
        let mut c = Connect3d {
            stones: self.stones,
            window_counts: [Vec::new(), Vec::new()],
            table: self.table,
            heights: self.heights,
            open: self.open.clone(),
            history: Vec::new(),
            made: Vec::new(),
            lines: self.lines,
            points: self.points,
            hashes: self.hashes,
            hash_count: self.hash_count,
            status: self.status,
            deferred_from: self.deferred_from,
            deferred_base: self.deferred_base,
        };
        c.clone_from(self);
        c
    }

    /// Reuses the buffers: copying a position into a scratch one allocates nothing.
    fn clone_from(&mut self, source: &Self) {
        self.stones = source.stones;
        self.window_counts[0].clone_from(&source.window_counts[0]);
        self.window_counts[1].clone_from(&source.window_counts[1]);
        self.heights = source.heights;
        self.open.clone_from(&source.open);
        self.history.clone_from(&source.history);
        self.made.clone_from(&source.made);
        self.lines = source.lines;
        self.points = source.points;
        self.hashes = source.hashes;
        self.hash_count = source.hash_count;
        self.status = source.status;
        self.deferred_from = source.deferred_from;
        self.deferred_base = source.deferred_base;
    }
}

impl Default for Connect3d {
    fn default() -> Self {
        Self::new()
    }
}

impl Connect3d {
    pub fn new() -> Connect3d {
        let windows = window_table().len();
        Connect3d {
            stones: [Wide::default(); 2],
            window_counts: [vec![0; windows], vec![0; windows]],
            table: window_table(),
            heights: [0; POLES],
            open: Slots::full(POLES),
            history: Vec::with_capacity(GAME_LENGTH),
            made: Vec::with_capacity(GAME_LENGTH),
            lines: 0,
            points: [0; 2],
            hashes: [0; 8],
            hash_count: 8,
            status: Status::Ongoing,
            deferred_from: usize::MAX,
            deferred_base: (0, [0; 2]),
        }
    }

    /// Lines of four made so far by both players.
    pub fn lines_made(&self) -> u32 {
        self.lines
    }

    /// The score as the board states it: each player's points and the lines behind them
    /// (points are not lines: the k-th line of the game scores 100 / k, rounded down).
    pub fn points_said(&self) -> String {
        let [a, b] = self.points;
        let lines = self.lines;
        let plural = if lines == 1 { "" } else { "s" };
        format!("points: first {a}, second {b} ({lines} line{plural} of four; the k-th line scores 100/k)")
    }

    /// Stones on a pole (0-based).
    pub fn pole_height(&self, pole: usize) -> usize {
        self.heights[pole] as usize
    }

    /// The stone at level `z` (0 = bottom) of a pole.
    pub fn stone_at(&self, pole: usize, z: usize) -> Option<Player> {
        let (x, y) = POLE_XY[pole];
        super::bits::owner(&self.stones, bit_of(x as usize, y as usize, z))
    }

    /// How many new windows of four the stone on `bit` completes for its owner, by walking
    /// out from it (the rules file's definition; checks the window counters in debug builds).
    #[allow(dead_code)]
    fn new_lines(own: &Wide, bit: usize) -> u32 {
        let mut total = 0;
        for &d in &DIRS {
            let mut run = 0u32;
            let mut q = bit + d;
            while run < 3 && own.get(q) {
                run += 1;
                q += d;
            }
            let mut q = bit - d;
            let mut back = 0;
            while back < 3 && own.get(q) {
                back += 1;
                q -= d;
            }
            total += (run + back).saturating_sub(2);
        }
        total
    }

    /// Lines counted the slow way: every window of four in the grid (for tests).
    pub fn scan_lines(&self, p: Player) -> u32 {
        let own = &self.stones[p.index()];
        let mut n = 0;
        for z in 0..POLE_HEIGHT {
            for y in 0..6 {
                for x in 0..6 {
                    for &d in &DIRS {
                        let b = bit_of(x, y, z);
                        if (0..4).all(|i| own.get(b + i * d)) {
                            n += 1;
                        }
                    }
                }
            }
        }
        n
    }

    #[inline]
    fn points_key(&self) -> u64 {
        let d = self.points[0] as i64 - self.points[1] as i64;
        (d as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
    }

    fn end_status(&self) -> Status {
        status_of(self.points)
    }
}

/// The result of a finished game with these points: more points win.
fn status_of(points: [u32; 2]) -> Status {
    use std::cmp::Ordering::*;
    match points[0].cmp(&points[1]) {
        Greater => Status::Win(Player::First),
        Less => Status::Win(Player::Second),
        Equal => Status::Draw,
    }
}

/// Counts a stone on `cell` into its player's window counts and scores the lines it makes
/// (the k-th line of the game is worth `line_points(k)`); returns how many it made.
#[inline(always)]
fn score_stone(table: &super::WindowTable, counts: &mut [u8], cell: usize, lines: &mut u32, points: &mut u32) -> u32 {
    let mut made = 0;
    for &w in table.windows_through(cell) {
        let c = &mut counts[w as usize];
        *c += 1;
        made += (*c == 4) as u32;
    }
    for _ in 0..made {
        *lines += 1;
        *points += line_points(*lines);
    }
    made
}

impl Position for Connect3d {
    /// The stones and the points: the points depend on the order lines were made.
    type Key = ([Wide; 2], [u32; 2]);

    fn variant(&self) -> &Variant {
        &Variant::Connect3d
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        Player::to_move_after(self.history.len())
    }

    #[inline]
    fn ply(&self) -> usize {
        self.history.len()
    }

    #[inline]
    fn status(&self) -> Status {
        self.status
    }

    fn points(&self) -> [u32; 2] {
        self.points
    }

    fn num_actions(&self) -> usize {
        POLES
    }

    fn max_game_length(&self) -> usize {
        GAME_LENGTH
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if !self.status.is_over() {
            out.extend((0..POLES).filter(|&p| (self.heights[p] as usize) < POLE_HEIGHT).map(|p| Move(p as u16)));
        }
    }

    fn num_legal_moves(&self) -> usize {
        if self.status.is_over() { 0 } else { self.open.len() }
    }

    fn is_legal(&self, m: Move) -> bool {
        !self.status.is_over() && m.index() < POLES && (self.heights[m.index()] as usize) < POLE_HEIGHT
    }

    #[inline]
    fn play(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "illegal move {m:?}");
        let pole = m.index();
        let p = self.history.len() & 1;
        let z = self.heights[pole] as usize;
        self.heights[pole] += 1;
        if z + 1 == POLE_HEIGHT {
            self.open.remove(m.0);
        }
        let (x, y) = POLE_XY[pole];
        let bit = bit_of(x as usize, y as usize, z);
        self.stones[p].set(bit);
        for s in 0..self.hash_count {
            self.hashes[s] ^= ZOBRIST[p][SYM_BITS[s][pole][z] as usize];
        }
        self.history.push(m);
        if self.deferred_from != usize::MAX {
            if self.history.len() == GAME_LENGTH {
                // The whole game's lines at once, from the moment scoring was deferred.
                let (lines, points) = super::connect3d_playout::finish_random_game(
                    &self.history,
                    self.deferred_from,
                    &[],
                    self.lines,
                    self.points,
                    |_| unreachable!("a full board has no move left"),
                );
                self.lines = lines;
                self.points = points;
                self.status = self.end_status();
            }
            return;
        }
        let made = score_stone(
            self.table,
            &mut self.window_counts[p],
            pole * POLE_HEIGHT + z,
            &mut self.lines,
            &mut self.points[p],
        );
        debug_assert_eq!(made, Self::new_lines(&self.stones[p], bit));
        self.made.push(made as u8);
        if self.history.len() == GAME_LENGTH {
            self.status = self.end_status();
        }
    }

    #[inline]
    fn undo(&mut self) {
        let m = self.history.pop().expect("undo with no move played");
        let pole = m.index();
        let p = self.history.len() & 1;
        if self.heights[pole] as usize == POLE_HEIGHT {
            self.open.restore(m.0);
        }
        self.heights[pole] -= 1;
        let z = self.heights[pole] as usize;
        let (x, y) = POLE_XY[pole];
        self.stones[p].clear(bit_of(x as usize, y as usize, z));
        for s in 0..self.hash_count {
            self.hashes[s] ^= ZOBRIST[p][SYM_BITS[s][pole][z] as usize];
        }
        self.status = Status::Ongoing;
        if self.deferred_from != usize::MAX && self.history.len() >= self.deferred_from {
            // A move whose lines were never counted (and the end's score, if it was the last).
            (self.lines, self.points) = self.deferred_base;
            return;
        }
        let made = self.made.pop().unwrap();
        for _ in 0..made {
            self.points[p] -= line_points(self.lines);
            self.lines -= 1;
        }
        let counts = &mut self.window_counts[p];
        for &w in self.table.windows_through(pole * POLE_HEIGHT + z) {
            counts[w as usize] -= 1;
        }
        if self.deferred_from != usize::MAX {
            // Taken back past the point scoring was deferred from: it is deferred from here.
            self.deferred_from = self.history.len();
            self.deferred_base = (self.lines, self.points);
        }
    }

    fn history(&self) -> &[Move] {
        &self.history
    }

    #[inline]
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Move {
        Move(self.open.get(crate::rng::below(rng, self.open.len())))
    }

    /// On a compact board on the stack (`connect3d_playout`: the lines are found once, after
    /// the last move, and ordered by the ply that made them); the same game and points as
    /// `random_move` + `play` for the same generator (the open poles keep [`Slots`]' order).
    fn random_playout<R: Rng + ?Sized>(&self, _scratch: &mut Self, rng: &mut R) -> PlayoutResult {
        if self.status.is_over() {
            return PlayoutResult::over(self.status, self.points);
        }
        let (_, points) = super::connect3d_playout::finish_random_game(
            &self.history,
            self.deferred_from.min(self.history.len()),
            self.open.as_slice(),
            self.lines,
            self.points,
            |n| crate::rng::below(rng, n),
        );
        PlayoutResult { status: status_of(points), points, length: GAME_LENGTH - self.history.len() }
    }

    /// Includes the point difference: equal stones reached in another order can differ in
    /// points, and so in value.
    #[inline]
    fn hash(&self) -> u64 {
        self.hashes[0] ^ self.points_key()
    }

    #[inline]
    fn canonical_hash(&self) -> u64 {
        *self.hashes.iter().min().unwrap() ^ self.points_key()
    }

    fn key(&self) -> Self::Key {
        (self.stones, self.points)
    }

    fn set_deferred_scoring(&mut self, on: bool) {
        let live = self.deferred_from == usize::MAX;
        if on && live {
            self.deferred_from = self.history.len();
            self.deferred_base = (self.lines, self.points);
        } else if !on && !live {
            // Count the lines of the moves played since, as playing them would have.
            let from = self.deferred_from;
            self.deferred_from = usize::MAX;
            (self.lines, self.points) = self.deferred_base;
            let mut heights = [0u8; POLES];
            for (i, m) in self.history.iter().enumerate() {
                let pole = m.index();
                let z = heights[pole] as usize;
                heights[pole] += 1;
                if i >= from {
                    let made = score_stone(
                        self.table,
                        &mut self.window_counts[i & 1],
                        pole * POLE_HEIGHT + z,
                        &mut self.lines,
                        &mut self.points[i & 1],
                    );
                    self.made.push(made as u8);
                }
            }
            if self.history.len() == GAME_LENGTH {
                self.status = self.end_status();
            }
        }
    }

    fn set_hashing(&mut self, on: bool) {
        if on && self.hash_count == 0 {
            self.hashes = [0; 8];
            for pole in 0..POLES {
                for z in 0..self.heights[pole] as usize {
                    let p = self.stone_at(pole, z).unwrap().index();
                    for s in 0..8 {
                        self.hashes[s] ^= ZOBRIST[p][SYM_BITS[s][pole][z] as usize];
                    }
                }
            }
            self.hash_count = 8;
        } else if !on {
            self.hash_count = 0;
        }
    }

    fn scan_status(&self) -> Status {
        if self.history.len() == GAME_LENGTH { self.end_status() } else { Status::Ongoing }
    }

    fn parse_move(&self, token: &str) -> Result<Move, GameError> {
        let n = match token.trim().parse::<usize>() {
            Ok(n) if (1..=POLES).contains(&n) => n,
            _ => {
                return Err(GameError::BadMove {
                    token: token.to_string(),
                    reason: "connect3d moves are pole numbers 1..24".into(),
                });
            }
        };
        if self.status.is_over() {
            return Err(GameError::GameOver { mv: token.to_string(), ply: self.ply() + 1 });
        }
        if self.heights[n - 1] as usize == POLE_HEIGHT {
            return Err(GameError::IllegalMove { mv: token.to_string(), reason: format!("pole {n} is full") });
        }
        Ok(Move((n - 1) as u16))
    }

    fn format_move(&self, m: Move) -> String {
        (m.index() + 1).to_string()
    }

    fn windows(&self) -> &std::sync::Arc<super::WindowTable> {
        window_table()
    }

    #[inline]
    fn move_cell(&self, m: Move) -> usize {
        m.index() * POLE_HEIGHT + self.heights[m.index()] as usize
    }

    #[inline]
    fn stone_on(&self, cell: usize) -> Option<Player> {
        self.stone_at(cell / POLE_HEIGHT, cell % POLE_HEIGHT)
    }

    #[inline]
    fn cell_move(&self, cell: usize) -> Option<Move> {
        let (pole, z) = (cell / POLE_HEIGHT, cell % POLE_HEIGHT);
        (!self.status.is_over() && self.heights[pole] as usize == z).then_some(Move(pole as u16))
    }

    fn render(&self) -> String {
        let mut s = String::new();
        for z in 0..POLE_HEIGHT {
            s.push_str(&format!("level {}       ", z + 1));
        }
        s.push('\n');
        for y in 0..6 {
            for z in 0..POLE_HEIGHT {
                for x in 0..6 {
                    let c = match POLE_XY.iter().position(|&(px, py)| (px as usize, py as usize) == (x, y)) {
                        None => ' ',
                        Some(pole) => self.stone_at(pole, z).map_or('.', Player::symbol),
                    };
                    s.push(c);
                    s.push(' ');
                }
                s.push_str("  ");
            }
            s.push('\n');
        }
        s.push_str(&format!("points: first {} second {} ({} lines)\n", self.points[0], self.points[1], self.lines));
        s
    }
}

/// The windows of four of the 3D board (cells `pole * 6 + level`), built once.
fn window_table() -> &'static std::sync::Arc<super::WindowTable> {
    static TABLE: std::sync::OnceLock<std::sync::Arc<super::WindowTable>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let pole_at =
            |x: i32, y: i32| -> Option<usize> { POLE_XY.iter().position(|&(px, py)| (px as i32, py as i32) == (x, y)) };
        let cell = |x: i32, y: i32, z: i32| -> Option<u16> {
            if !(0..POLE_HEIGHT as i32).contains(&z) {
                return None;
            }
            pole_at(x, y).map(|p| (p * POLE_HEIGHT + z as usize) as u16)
        };
        let mut dirs = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    if (dx, dy, dz) != (0, 0, 0) {
                        dirs.push((dx, dy, dz));
                    }
                }
            }
        }
        // The 13 line directions: one of each opposite pair.
        let directions: Vec<_> = dirs.iter().copied().filter(|&(dx, dy, dz)| (dx, dy, dz) > (0, 0, 0)).collect();
        let cells = POLES * POLE_HEIGHT;
        let mut windows = Vec::new();
        let mut lines: Vec<Vec<u16>> = Vec::new();
        let mut neighbours = vec![Vec::new(); cells];
        let mut centrality = vec![0u8; cells];
        for (pole, &(x, y)) in POLE_XY.iter().enumerate() {
            let (x, y) = (x as i32, y as i32);
            for z in 0..POLE_HEIGHT as i32 {
                let here = pole * POLE_HEIGHT + z as usize;
                for &(dx, dy, dz) in &directions {
                    let w: Option<Vec<u16>> = (0..4).map(|i| cell(x + dx * i, y + dy * i, z + dz * i)).collect();
                    if let Some(w) = w {
                        windows.push(w);
                    }
                    if cell(x - dx, y - dy, z - dz).is_none() {
                        let line: Vec<u16> = (0..).map_while(|i| cell(x + dx * i, y + dy * i, z + dz * i)).collect();
                        if line.len() >= 4 {
                            lines.push(line);
                        }
                    }
                }
                for &(dx, dy, dz) in &dirs {
                    if let Some(n) = cell(x + dx, y + dy, z + dz) {
                        neighbours[here].push(n);
                    }
                }
                let edge = x.min(5 - x).min(y.min(5 - y));
                centrality[here] = edge as u8;
            }
        }
        std::sync::Arc::new(super::WindowTable::new(4, cells, windows, lines, neighbours, centrality))
    })
}
