//! m,n,k and Connect-X boards on bitboards.

use std::sync::Arc;

use rand::Rng;

use super::geometry::GridGeometry;
use super::notation::{cell_name, column_name, parse_cell, parse_column};
use super::slots::Slots;
use super::zobrist::ZOBRIST;
use super::{Bits, GameError, GridRules, Move, Player, PlayoutResult, Position, SetupError, Status, Variant};

/// An m,n,k board (`GRAVITY = false`) or Connect-X board (`GRAVITY = true`) stored in the bit
/// set `B` (`u64` when it fits, else [`super::Wide`]).
///
/// ```
/// use mnklab::game::{Grid, Position, Status, Player, Variant};
/// let mut p = Grid::<u64, true>::new(Variant::connect4().grid().unwrap());
/// p.play_sequence("4455667").unwrap();
/// assert_eq!(p.status(), Status::Win(Player::First));
/// ```
#[derive(Debug)]
pub struct Grid<B: Bits, const GRAVITY: bool> {
    geo: Arc<GridGeometry>,
    variant: Variant,
    stones: [B; 2],
    /// Stones in each column (gravity only).
    heights: [u8; super::MAX_SIDE],
    /// Empty cells (free placement) or open columns (gravity), for O(1) random moves.
    open: Slots,
    history: Vec<Move>,
    /// Zobrist hash of the position under each symmetry; `hashes[0]` is the plain hash.
    hashes: [u64; 8],
    /// How many of `hashes` are kept up to date: all symmetries, or 0 while hashing is off.
    hash_count: usize,
    ply: usize,
    status: Status,
}

impl<B: Bits, const GRAVITY: bool> Clone for Grid<B, GRAVITY> {
    fn clone(&self) -> Self {
        Grid {
            geo: self.geo.clone(),
            variant: self.variant,
            stones: self.stones,
            heights: self.heights,
            open: self.open.clone(),
            history: self.history.clone(),
            hashes: self.hashes,
            hash_count: self.hash_count,
            ply: self.ply,
            status: self.status,
        }
    }

    /// Reuses the buffers: copying a position into a scratch one allocates nothing.
    fn clone_from(&mut self, source: &Self) {
        self.geo.clone_from(&source.geo);
        self.variant = source.variant;
        self.stones = source.stones;
        self.heights = source.heights;
        self.open.clone_from(&source.open);
        self.history.clone_from(&source.history);
        self.hashes = source.hashes;
        self.hash_count = source.hash_count;
        self.ply = source.ply;
        self.status = source.status;
    }
}

impl<B: Bits, const GRAVITY: bool> Grid<B, GRAVITY> {
    /// The empty board. Panics if the rules do not match `GRAVITY` or the board does not fit `B`
    /// (use [`super::AnyPosition`] to choose the right type).
    pub fn new(rules: GridRules) -> Self {
        assert_eq!(rules.gravity(), GRAVITY, "rules and board type disagree on gravity");
        let geo = Arc::new(GridGeometry::new(rules, B::CAPACITY));
        let open = if GRAVITY { Slots::full(geo.width) } else { Slots::full(geo.cells) };
        Grid {
            variant: Variant::Grid(rules),
            stones: [B::default(); 2],
            heights: [0; super::MAX_SIDE],
            open,
            history: Vec::with_capacity(geo.cells),
            hashes: [0; 8],
            hash_count: geo.nsym,
            ply: 0,
            status: Status::Ongoing,
            geo,
        }
    }

    pub fn rules(&self) -> GridRules {
        self.geo.rules
    }

    pub fn width(&self) -> usize {
        self.geo.width
    }

    pub fn height(&self) -> usize {
        self.geo.height
    }

    /// The stone on (x, y), if any.
    #[inline]
    pub fn stone_at(&self, x: usize, y: usize) -> Option<Player> {
        super::bits::owner(&self.stones, self.geo.bit(x, y))
    }

    /// Stones in column `x`.
    #[inline]
    pub fn column_height(&self, x: usize) -> usize {
        self.heights[x] as usize
    }

    /// The bitboard of one player's stones, in the padded layout described in `geometry`.
    #[inline]
    pub fn stones(&self, p: Player) -> &B {
        &self.stones[p.index()]
    }

    /// The (x, y) cell a move puts its stone on, in the current position.
    #[inline]
    pub fn target_cell(&self, m: Move) -> (usize, usize) {
        if GRAVITY {
            (m.index(), self.heights[m.index()] as usize)
        } else {
            (m.index() / self.geo.height, m.index() % self.geo.height)
        }
    }

    /// The (x, y) cell where the `i`-th move of the history landed.
    pub fn history_cell(&self, i: usize) -> (usize, usize) {
        let m = self.history[i];
        if GRAVITY {
            let later = self.history[i + 1..].iter().filter(|&&n| n == m).count();
            (m.index(), self.heights[m.index()] as usize - 1 - later)
        } else {
            (m.index() / self.geo.height, m.index() % self.geo.height)
        }
    }

    /// The move that puts a stone on (x, y), if that is legal now.
    pub fn move_to(&self, x: usize, y: usize) -> Option<Move> {
        if x >= self.geo.width || y >= self.geo.height || self.status.is_over() {
            return None;
        }
        if GRAVITY {
            (self.heights[x] as usize == y).then_some(Move(x as u16))
        } else {
            self.stone_at(x, y).is_none().then_some(Move((x * self.geo.height + y) as u16))
        }
    }

    /// Cells of every maximal run of `p` that counts as a line (K, or exactly K).
    pub fn lines_of(&self, p: Player) -> Vec<Vec<(usize, usize)>> {
        let geo = &*self.geo;
        let b = &self.stones[p.index()];
        let mut lines = Vec::new();
        for x in 0..geo.width {
            for y in 0..geo.height {
                let start = geo.bit(x, y);
                if !b.get(start) {
                    continue;
                }
                for &d in &geo.dirs {
                    if b.get(start - d) {
                        continue; // not the start of its run
                    }
                    let mut run = Vec::new();
                    let mut q = start;
                    while b.get(q) {
                        run.push(geo.xy_of_bit(q));
                        q += d;
                    }
                    if self.is_line_length(run.len()) {
                        lines.push(run);
                    }
                }
            }
        }
        lines
    }

    #[inline(always)]
    fn is_line_length(&self, run: usize) -> bool {
        if self.geo.rules.exact() { run == self.geo.k } else { run >= self.geo.k }
    }

    /// Does the stone just put on `bit` make a line for `p`? Walks from it in the four
    /// directions; the padding ends every walk.
    #[inline(always)]
    fn line_through(&self, bit: usize, p: usize) -> bool {
        let b = &self.stones[p];
        let k = self.geo.k;
        let exact = self.geo.rules.exact();
        // "k or more" on a 64-bit board: a few shifts over the whole board (the padding bits
        // are never set, so no run wraps). Before this stone there was no line (the game
        // would be over), so a line found now goes through it.
        if !exact && b.has_run(1, 1).is_some() {
            return self.geo.dirs.iter().any(|&d| b.has_run(d, k) == Some(true));
        }
        for (i, &d) in self.geo.dirs.iter().enumerate() {
            let mut run = 1;
            let mut q = bit - d;
            while b.get(q) {
                run += 1;
                q -= d;
            }
            // Under gravity nothing lies above the stone just dropped.
            if !(GRAVITY && i == 0) {
                let mut q = bit + d;
                while b.get(q) {
                    run += 1;
                    q += d;
                }
            }
            if run == k || (!exact && run > k) {
                return true;
            }
        }
        false
    }

    #[inline(always)]
    fn toggle_hashes(&mut self, p: usize, cell: usize) {
        let geo = &*self.geo;
        for s in 0..self.hash_count {
            self.hashes[s] ^= ZOBRIST[p][geo.sym[s * geo.cells + cell] as usize];
        }
    }

    /// A position set up from stones. `to_move`, if given, must agree with the counts.
    pub fn from_stones(
        rules: GridRules,
        first: &[(usize, usize)],
        second: &[(usize, usize)],
        to_move: Option<Player>,
    ) -> Result<Self, SetupError> {
        let mut g = Self::new(rules);
        let (w, h) = (g.geo.width, g.geo.height);
        for (p, list) in [(Player::First, first), (Player::Second, second)] {
            for &(x, y) in list {
                if x >= w || y >= h {
                    return Err(SetupError::OffBoard { cell: cell_name(x, y), width: w, height: h });
                }
                match g.stone_at(x, y) {
                    Some(q) if q == p => {
                        return Err(SetupError::Duplicate { cell: cell_name(x, y), player: p });
                    }
                    Some(_) => {
                        return Err(SetupError::Overlap { cell: cell_name(x, y) });
                    }
                    None => {}
                }
                let bit = g.geo.bit(x, y);
                g.stones[p.index()].set(bit);
                g.toggle_hashes(p.index(), x * h + y);
            }
        }
        let (nf, ns) = (first.len(), second.len());
        if !(nf == ns || nf == ns + 1) {
            return Err(SetupError::StoneCounts { first: nf, second: ns });
        }
        let expected = Player::to_move_after(nf + ns);
        if let Some(given) = to_move
            && given != expected
        {
            return Err(SetupError::SideToMove { given, expected, first: nf, second: ns });
        }
        if GRAVITY {
            for x in 0..w {
                let mut top = 0;
                while top < h && g.stone_at(x, top).is_some() {
                    top += 1;
                }
                if let Some(y) = (top..h).find(|&y| g.stone_at(x, y).is_some()) {
                    return Err(SetupError::Floating { cell: cell_name(x, y) });
                }
                g.heights[x] = top as u8;
            }
            g.open = Slots::from_values(w, (0..w as u16).filter(|&x| (g.heights[x as usize] as usize) < h));
        } else {
            let empty = (0..g.geo.cells as u16).filter(|&c| {
                let b = g.geo.bit_of[c as usize] as usize;
                !g.stones[0].get(b) && !g.stones[1].get(b)
            });
            g.open = Slots::from_values(g.geo.cells, empty);
        }
        g.ply = nf + ns;
        let lines = [g.lines_of(Player::First), g.lines_of(Player::Second)];
        match (lines[0].first(), lines[1].first()) {
            (Some(a), Some(b)) => {
                return Err(SetupError::BothLines {
                    first: cell_name(a[0].0, a[0].1),
                    second: cell_name(b[0].0, b[0].1),
                });
            }
            (None, None) => {
                g.status = if g.ply == g.geo.cells { Status::Draw } else { Status::Ongoing };
            }
            (a, b) => {
                let (winner, line) = if let Some(a) = a { (Player::First, a) } else { (Player::Second, b.unwrap()) };
                let line_cell = cell_name(line[0].0, line[0].1);
                if expected != winner.other() {
                    return Err(SetupError::PlayedOnAfterLine { player: winner, cell: line_cell });
                }
                if !g.some_last_stone_made_all_lines(winner) {
                    return Err(SetupError::PlayedOnAfterLine { player: winner, cell: line_cell });
                }
                g.status = Status::Win(winner);
            }
        }
        Ok(g)
    }

    /// Is there a stone of `p` that could have been placed last (the top of its column under
    /// gravity) and whose removal leaves `p` with no line? Otherwise the game went on after a
    /// line was made.
    fn some_last_stone_made_all_lines(&self, p: Player) -> bool {
        let mut probe = self.clone();
        let (w, h) = (self.geo.width, self.geo.height);
        for x in 0..w {
            for y in 0..h {
                if self.stone_at(x, y) != Some(p) || (GRAVITY && y + 1 != self.heights[x] as usize) {
                    continue;
                }
                let bit = self.geo.bit(x, y);
                probe.stones[p.index()].clear(bit);
                let clean = probe.lines_of(p).is_empty();
                probe.stones[p.index()].set(bit);
                if clean {
                    return true;
                }
            }
        }
        false
    }
}

impl<B: Bits, const GRAVITY: bool> Position for Grid<B, GRAVITY> {
    type Key = [B; 2];

    #[inline]
    fn variant(&self) -> &Variant {
        &self.variant
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        Player::to_move_after(self.ply)
    }

    #[inline]
    fn ply(&self) -> usize {
        self.ply
    }

    #[inline]
    fn status(&self) -> Status {
        self.status
    }

    fn points(&self) -> [u32; 2] {
        [0, 0]
    }

    fn num_actions(&self) -> usize {
        if GRAVITY { self.geo.width } else { self.geo.cells }
    }

    fn max_game_length(&self) -> usize {
        self.geo.cells
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status.is_over() {
            return;
        }
        if GRAVITY {
            let h = self.geo.height as u8;
            out.extend((0..self.geo.width).filter(|&x| self.heights[x] < h).map(|x| Move(x as u16)));
        } else {
            // In id order without a sort: walk the cells and keep the empty ones.
            let both = [&self.stones[0], &self.stones[1]];
            let bit_of = &self.geo.bit_of;
            out.extend(
                (0..self.geo.cells)
                    .filter(|&c| !both[0].get(bit_of[c] as usize) && !both[1].get(bit_of[c] as usize))
                    .map(|c| Move(c as u16)),
            );
        }
    }

    #[inline]
    fn num_legal_moves(&self) -> usize {
        if self.status.is_over() { 0 } else { self.open.len() }
    }

    fn is_legal(&self, m: Move) -> bool {
        if self.status.is_over() || m.index() >= self.num_actions() {
            return false;
        }
        if GRAVITY {
            (self.heights[m.index()] as usize) < self.geo.height
        } else {
            let b = self.geo.bit_of[m.index()] as usize;
            !self.stones[0].get(b) && !self.stones[1].get(b)
        }
    }

    #[inline(always)]
    fn play(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "illegal move {m:?}");
        let p = self.ply & 1;
        let cell = if GRAVITY {
            let x = m.index();
            let y = self.heights[x] as usize;
            self.heights[x] += 1;
            if y + 1 == self.geo.height {
                self.open.remove(m.0);
            }
            x * self.geo.height + y
        } else {
            self.open.remove(m.0);
            m.index()
        };
        let bit = self.geo.bit_of[cell] as usize;
        self.stones[p].set(bit);
        self.toggle_hashes(p, cell);
        self.ply += 1;
        self.history.push(m);
        if self.line_through(bit, p) {
            self.status = Status::Win(if p == 0 { Player::First } else { Player::Second });
        } else if self.ply == self.geo.cells {
            self.status = Status::Draw;
        }
    }

    #[inline(always)]
    fn undo(&mut self) {
        let m = self.history.pop().expect("undo with no move played");
        self.ply -= 1;
        let p = self.ply & 1;
        let cell = if GRAVITY {
            let x = m.index();
            if self.heights[x] as usize == self.geo.height {
                self.open.restore(m.0);
            }
            self.heights[x] -= 1;
            x * self.geo.height + self.heights[x] as usize
        } else {
            self.open.restore(m.0);
            m.index()
        };
        self.stones[p].clear(self.geo.bit_of[cell] as usize);
        self.toggle_hashes(p, cell);
        self.status = Status::Ongoing;
    }

    #[inline]
    fn history(&self) -> &[Move] {
        &self.history
    }

    #[inline]
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Move {
        Move(self.open.get(crate::rng::below(rng, self.open.len())))
    }

    /// The fast paths of [`super::playout`]; they play the same game as the default.
    #[inline]
    fn random_playout<R: Rng + ?Sized>(&self, _scratch: &mut Self, rng: &mut R) -> PlayoutResult {
        if self.status.is_over() {
            return PlayoutResult::over(self.status, [0, 0]);
        }
        let geo = &*self.geo;
        if GRAVITY
            && !geo.rules.exact()
            && let (Some(a), Some(b)) = (self.stones[0].as_u64(), self.stones[1].as_u64())
        {
            return super::playout::connect_u64(geo, [a, b], self.open.as_slice(), self.ply, rng);
        }
        super::playout::by_lines::<_, _, GRAVITY>(geo, &self.stones, self.open.as_slice(), &self.heights, self.ply, rng)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hashes[0]
    }

    #[inline]
    fn canonical_hash(&self) -> u64 {
        *self.hashes[..self.geo.nsym].iter().min().unwrap()
    }

    fn key(&self) -> [B; 2] {
        self.stones
    }

    fn set_hashing(&mut self, on: bool) {
        if on && self.hash_count == 0 {
            self.hash_count = self.geo.nsym;
            self.hashes = [0; 8];
            for cell in 0..self.geo.cells {
                if let Some(p) = self.stone_on(cell) {
                    self.toggle_hashes(p.index(), cell);
                }
            }
        } else if !on {
            self.hash_count = 0;
        }
    }

    fn scan_status(&self) -> Status {
        if !self.lines_of(Player::First).is_empty() {
            Status::Win(Player::First)
        } else if !self.lines_of(Player::Second).is_empty() {
            Status::Win(Player::Second)
        } else if self.ply == self.geo.cells {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    fn parse_move(&self, token: &str) -> Result<Move, GameError> {
        let (w, h) = (self.geo.width, self.geo.height);
        let m = if GRAVITY {
            match parse_cell(token, w, h) {
                Ok((x, y)) => {
                    if self.heights[x] as usize != y {
                        let reason = if (self.heights[x] as usize) < h {
                            format!(
                                "a stone dropped in column {} lands on {}",
                                column_name(x),
                                cell_name(x, self.heights[x] as usize)
                            )
                        } else {
                            format!("column {} is full", column_name(x))
                        };
                        return Err(GameError::IllegalMove { mv: token.to_string(), reason });
                    }
                    Move(x as u16)
                }
                Err(_) => match parse_column(token, w) {
                    Some(x) => Move(x as u16),
                    // Under gravity a move is a column: say so, not how to write a cell.
                    None => {
                        let reason = format!(
                            "a move here is a column, a..{} or 1..{w} (or the cell it lands on, like {})",
                            column_name(w - 1),
                            cell_name(0, 0)
                        );
                        return Err(GameError::BadMove { token: token.to_string(), reason });
                    }
                },
            }
        } else {
            let (x, y) = parse_cell(token, w, h)?;
            Move((x * h + y) as u16)
        };
        if self.status.is_over() {
            return Err(GameError::GameOver { mv: token.to_string(), ply: self.ply() + 1 });
        }
        if !self.is_legal(m) {
            let reason = if GRAVITY {
                format!("column {} is full", column_name(m.index()))
            } else {
                "the cell is taken".to_string()
            };
            return Err(GameError::IllegalMove { mv: token.to_string(), reason });
        }
        Ok(m)
    }

    fn format_move(&self, m: Move) -> String {
        if GRAVITY {
            column_name(m.index())
        } else {
            cell_name(m.index() / self.geo.height, m.index() % self.geo.height)
        }
    }

    #[inline]
    fn windows(&self) -> &Arc<super::WindowTable> {
        &self.geo.windows
    }

    #[inline]
    fn move_cell(&self, m: Move) -> usize {
        if GRAVITY { m.index() * self.geo.height + self.heights[m.index()] as usize } else { m.index() }
    }

    #[inline]
    fn cell_move(&self, cell: usize) -> Option<Move> {
        if self.status.is_over() || self.stone_on(cell).is_some() {
            return None;
        }
        if GRAVITY {
            let (x, y) = (cell / self.geo.height, cell % self.geo.height);
            (self.heights[x] as usize == y).then_some(Move(x as u16))
        } else {
            Some(Move(cell as u16))
        }
    }

    #[inline]
    fn stone_on(&self, cell: usize) -> Option<Player> {
        super::bits::owner(&self.stones, self.geo.bit_of[cell] as usize)
    }

    fn render(&self) -> String {
        let (w, h) = (self.geo.width, self.geo.height);
        let mut s = String::from("   ");
        for x in 0..w {
            s.push(' ');
            s.push_str(&column_name(x));
        }
        s.push('\n');
        for y in (0..h).rev() {
            s.push_str(&format!("{:>3}", y + 1));
            for x in 0..w {
                s.push(' ');
                s.push(self.stone_at(x, y).map_or('.', Player::symbol));
            }
            s.push('\n');
        }
        s
    }
}
