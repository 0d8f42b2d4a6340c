//! Dependency-based threat-space search, after Allis ("Searching for Solutions in Games and
//! Artificial Intelligence", 1994, ch. 5, and Allis, van den Herik and Huntjens, "Go-Moku
//! solved by new search techniques", 1996): a single-agent search for a plan of threats, then
//! a verification that the plan wins against every defence.
//!
//! The single-agent part. A threat is an attacker move (its gain square) after which the
//! defender must answer on one of its cost squares: the one cell of a four, or, for a three
//! (a move after which the attacker has a move making two fours), every cell that spoils all
//! such moves. The defender is assumed to take *every* cost square at once, so no defender
//! choice is searched: a node is a set of attacker stones and a set of defender stones added
//! to the position. A node's children are the threats that use its newest stone (the
//! dependency stage, depth first); then two nodes that are not on one branch, do not take
//! each other's squares and have stones on a common window are merged, and the merged node's
//! children must use stones of both (the combination stage). Stages alternate until a
//! threat is a goal (two fours, a line, or a three no single stone stops), nothing new is
//! found, or the budget ends.
//!
//! The verification. Taking every cost square at once ignores the defender's own threats (a
//! cost stone may make a four the attacker must answer) and the order in which the plan's
//! threats can be played. So a goal is only a plan: its attacker moves are handed to the
//! sound AND/OR threat-space search ([`ThreatSearch`]) as the only threats the attacker may
//! play (forced blocks it still plays), against every defender reply that does not lose at
//! once. A plan that search proves is a win; one it refutes is counted and the search goes on.
//! So a win found is a win, as with [`ThreatSearch`]; a failure proves nothing.
//!
//! The probe. Before the stages, the sound search alone, unrestricted, looks for a win within
//! [`PROBE_DEPTH`] attacker moves and a few thousand nodes: most wins by threats are that
//! short, and it finds them in microseconds, where the stages first classify every candidate
//! threat of the root. [`DbSearch::without_probe`] leaves it out.
//!
//! Threats here are found only among cells on a window with a stone the dependency names:
//! a three whose second four lies on a window through an older stone only is not a child of
//! the node that made it possible (a later combination may still find it). This keeps the
//! stage small and loses no soundness.

use std::collections::HashSet;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::ops::ControlFlow;
use std::time::Instant;

use super::threats::{ThreatSearch, ThreatWin, threats_apply};
use crate::eval::EvalBoard;
use crate::game::{Player, Position, WindowTable};

const EMPTY: u8 = 0;
const ATTACKER: u8 = 1;
const DEFENDER: u8 = 2;

/// Nodes the sound search may spend on one plan.
const VERIFY_BUDGET: u64 = 200_000;

/// The probe before the stages: the sound search, unrestricted, to this many attacker moves
/// within this many nodes. Most wins by threats are short, and the sound search finds them in
/// a few hundred nodes, where the stages first classify every candidate threat of the root.
pub const PROBE_DEPTH: u32 = 3;
const PROBE_BUDGET: u64 = 5_000;

/// A set of cells, one bit a cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Cells(Vec<u64>);

impl Cells {
    fn new(cells: usize) -> Cells {
        Cells(vec![0; cells.div_ceil(64)])
    }

    fn insert(&mut self, c: u16) {
        self.0[c as usize / 64] |= 1 << (c % 64);
    }

    fn intersects(&self, other: &Cells) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    fn is_subset(&self, other: &Cells) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    fn union(&self, other: &Cells) -> Cells {
        Cells(self.0.iter().zip(&other.0).map(|(a, b)| a | b).collect())
    }

    fn list(&self) -> Vec<u16> {
        self.minus(&Cells(vec![0; self.0.len()]))
    }

    /// The cells of `self` not in `other`.
    fn minus(&self, other: &Cells) -> Vec<u16> {
        let mut out = Vec::new();
        for (i, (a, b)) in self.0.iter().zip(&other.0).enumerate() {
            let mut bits = a & !b;
            while bits != 0 {
                out.push((i * 64) as u16 + bits.trailing_zeros() as u16);
                bits &= bits - 1;
            }
        }
        out
    }
}

/// What an attacker move is in a node's picture.
#[derive(Debug, PartialEq, Eq)]
enum Threat {
    /// Wins against any single reply: two fours with distinct cells, a line, or a three no
    /// one stone stops (the plan goes to the verification).
    Goal,
    /// A four or a three: the defender's cost squares, and the windows the threat stands on
    /// (for the dependency test).
    Forcing { costs: Vec<u16>, windows: Vec<u32> },
}

#[derive(Clone, Debug)]
struct Node {
    attacker: Cells,
    defender: Cells,
    /// The gain squares applied, in an order that plays each as a threat.
    plan: Vec<u16>,
    /// The stones a child must use: the node's gain; after a combination, the stones each side
    /// brought (a child uses one of each). Empty at the root: any threat is a child.
    fresh: [Vec<u16>; 2],
}

/// What a dependency-based search found: the verified line, and the plan it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbWin {
    /// The sound search's line through the plan (as [`ThreatSearch::winning_line`]).
    pub line: ThreatWin,
    /// The plan's attacker moves (gain squares) as the single-agent search applied them: where
    /// the proof started, not a proof itself (the line may play other fours, and a plan's move
    /// alone may lose).
    pub plan: Vec<u16>,
    /// The stage in which the goal was found (1: the first dependency stage; 0: before the
    /// stages, by a line to complete or by the probe).
    pub stage: u32,
    /// Found by the probe before the stages (the sound search alone, no plan).
    pub probe: bool,
}

/// Why a search ended without a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbEnd {
    /// Every stage ran and nothing new was found: no plan of this search's threats wins
    /// (a quiet move, or a threat it does not consider, may still).
    Exhausted,
    /// The stage limit was reached with nodes still to combine.
    Stages,
    /// The node budget or the deadline.
    Stopped,
    /// The defender has a four on the board: the attacker must block it first, and the
    /// single-agent picture starts from positions without one.
    DefenderFour,
}

/// A dependency-based threat-space searcher; one search per call, its counters summed.
#[derive(Debug, Default)]
pub struct DbSearch {
    /// Nodes made: threats applied and combinations.
    pub nodes: u64,
    /// Attacker moves looked at as possible threats.
    pub tried: u64,
    /// Goals found and handed to the verification.
    pub plans: u64,
    /// Of those, plans the verification refuted (a defence the single-agent picture missed).
    pub refuted: u64,
    /// Nodes of the sound search: its probe before the stages, and its searches over the plans.
    pub verify_nodes: u64,
    /// The largest memory of one search's nodes and their hash set, as allocated, in bytes
    /// (the sound search's table, dropped after each plan, is not counted).
    pub peak_bytes: u64,
    budget: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// Skip the probe (see [`DbSearch::without_probe`]).
    no_probe: bool,
}

/// A node's picture: the position with the node's stones, and the window geometry.
struct Picture<'a> {
    table: &'a WindowTable,
    k: usize,
    cells: Vec<u8>,
}

impl Picture<'_> {
    /// Attacker and defender stones of window `w`, and its empty cells (up to two kept).
    fn count(&self, w: u32) -> (usize, usize, [u16; 2]) {
        let (mut a, mut d, mut e, mut n) = (0, 0, [u16::MAX; 2], 0);
        for &c in self.table.cells_of(w as usize) {
            match self.cells[c as usize] {
                ATTACKER => a += 1,
                DEFENDER => d += 1,
                _ => {
                    if n < 2 {
                        e[n] = c;
                    }
                    n += 1;
                }
            }
        }
        (a, d, e)
    }

    /// Does a window through `c` hold K-1 defender stones and no attacker stone?
    fn defender_four_through(&self, c: u16) -> bool {
        self.table.windows_through(c as usize).iter().any(|&w| {
            let (a, d, _) = self.count(w);
            a == 0 && d + 1 == self.k
        })
    }

    /// The windows through `x` with K-2 attacker stones and no defender stone, with the
    /// empty cell other than `x` (its partner: the four's cell once `x` is played).
    fn warm_through(&self, x: u16) -> Vec<(u32, u16)> {
        let mut out = Vec::new();
        for &w in self.table.windows_through(x as usize) {
            let (a, d, e) = self.count(w);
            if d == 0 && a + 2 == self.k {
                out.push((w, if e[0] == x { e[1] } else { e[0] }));
            }
        }
        out
    }

    /// What the attacker stone on `g` (already in `cells`) makes.
    fn classify(&self, g: u16) -> Option<Threat> {
        let k = self.k;
        let mut fours: Vec<u16> = Vec::new();
        let mut four_windows = Vec::new();
        let mut warm = Vec::new();
        for &w in self.table.windows_through(g as usize) {
            let (a, d, e) = self.count(w);
            if d > 0 {
                continue;
            }
            if a == k {
                return Some(Threat::Goal);
            }
            if a + 1 == k {
                if !fours.contains(&e[0]) {
                    fours.push(e[0]);
                }
                four_windows.push(w);
            } else if a + 2 == k {
                warm.push(e);
            }
        }
        match fours.len() {
            0 => {}
            1 => return Some(Threat::Forcing { costs: fours, windows: four_windows }),
            _ => return Some(Threat::Goal),
        }
        // A three: cells of the windows through `g` where one more stone makes two fours.
        let mut doubles: Vec<(u16, Vec<(u32, u16)>)> = Vec::new();
        for x in warm.iter().flatten().copied() {
            if doubles.iter().any(|(y, _)| *y == x) {
                continue;
            }
            let through = self.warm_through(x);
            if distinct_partners(&through, u16::MAX) >= 2 {
                doubles.push((x, through));
            }
        }
        if doubles.is_empty() {
            return None;
        }
        // A defender stone spoils when no double-four cell is left.
        let mut candidates: Vec<u16> = Vec::new();
        for (x, through) in &doubles {
            for c in std::iter::once(*x).chain(through.iter().map(|&(_, p)| p)) {
                if !candidates.contains(&c) {
                    candidates.push(c);
                }
            }
        }
        let spoils = |c: u16| {
            doubles.iter().all(|(x, through)| {
                *x == c || {
                    let kept: Vec<(u32, u16)> = through
                        .iter()
                        .copied()
                        .filter(|&(w, _)| !self.table.cells_of(w as usize).contains(&c))
                        .collect();
                    distinct_partners(&kept, u16::MAX) < 2
                }
            })
        };
        let costs: Vec<u16> = candidates.into_iter().filter(|&c| spoils(c)).collect();
        if costs.is_empty() {
            return Some(Threat::Goal);
        }
        let mut windows: Vec<u32> = doubles.iter().flat_map(|(_, t)| t.iter().map(|&(w, _)| w)).collect();
        windows.sort_unstable();
        windows.dedup();
        Some(Threat::Forcing { costs, windows })
    }
}

/// How many different partner cells the windows give (`skip` excluded).
fn distinct_partners(through: &[(u32, u16)], skip: u16) -> usize {
    let mut seen: Vec<u16> = Vec::new();
    for &(_, p) in through {
        if p != skip && !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen.len()
}

impl DbSearch {
    /// A searcher giving up after `budget` nodes and tries (0: no limit).
    pub fn new(budget: u64) -> DbSearch {
        DbSearch { budget, ..DbSearch::default() }
    }

    /// The same searcher without the probe: by default a search first asks the sound AND/OR
    /// search, unrestricted, for a win within a few attacker moves and a few thousand nodes,
    /// and runs the stages only when it finds none. Without the probe every win comes from
    /// a plan (what the tests of the stages need).
    pub fn without_probe(mut self) -> DbSearch {
        self.no_probe = true;
        self
    }

    /// The same searcher, giving up at `deadline`.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> DbSearch {
        self.deadline = deadline;
        self
    }

    /// Does the side to move win by a plan of threats within `stages` stages (a dependency
    /// stage, then a combination stage and its dependency stage, counting 1 each)? `board`
    /// holds `pos`'s window counts, built [`EvalBoard::with_near_windows`]; both are given
    /// back unchanged. `Err` says why no win was found.
    pub fn winning_line<P: Position>(
        &mut self,
        pos: &mut P,
        board: &mut EvalBoard,
        stages: u32,
    ) -> Result<DbWin, DbEnd> {
        assert!(threats_apply(pos), "dependency-based search needs free placement and the K-or-more rule");
        let attacker = pos.side_to_move();
        self.stopped = false;
        let limit = if self.budget == 0 { u64::MAX } else { self.nodes + self.tried + self.budget };
        if pos.status().is_over() {
            return Err(DbEnd::Exhausted);
        }
        if board.has_threat_window(attacker) {
            // A line to complete now: the sound search names it.
            return self
                .verify(pos, board, attacker, Vec::new())
                .map(|line| DbWin { line, plan: Vec::new(), stage: 0, probe: false })
                .ok_or(DbEnd::Exhausted);
        }
        if board.has_threat_window(attacker.other()) {
            return Err(DbEnd::DefenderFour);
        }
        if !self.no_probe {
            let mut sound = ThreatSearch::new(PROBE_BUDGET).with_deadline(self.deadline);
            let mut line = None;
            for depth in 1..=PROBE_DEPTH {
                line = sound.winning_line(pos, board, attacker, depth);
                if line.is_some() || sound.aborted() {
                    break;
                }
            }
            self.verify_nodes += sound.nodes;
            if let Some(line) = line {
                return Ok(DbWin { line, plan: Vec::new(), stage: 0, probe: true });
            }
        }
        let table = std::sync::Arc::clone(pos.windows());
        let table = &*table;
        let mut base = vec![EMPTY; table.cells];
        for (c, cell) in base.iter_mut().enumerate() {
            if let Some(p) = pos.stone_on(c) {
                *cell = if p == attacker { ATTACKER } else { DEFENDER };
            }
        }
        let empty = Cells::new(table.cells);
        let mut run = Run {
            table,
            k: table.k,
            base,
            nodes: vec![Node {
                attacker: empty.clone(),
                defender: empty,
                plan: Vec::new(),
                fresh: [Vec::new(), Vec::new()],
            }],
            seen: HashSet::new(),
            limit,
            stage: 1,
            goals: Vec::new(),
        };
        // The stages gather goals; each is verified as it is found (below, through `verify`).
        let found = run.stages(self, stages, &mut |search, plan| search.verify(pos, board, attacker, plan.to_vec()));
        self.peak_bytes = self.peak_bytes.max(run.bytes());
        match found {
            Ok((line, plan, stage)) => Ok(DbWin { line, plan, stage, probe: false }),
            Err(end) => Err(end),
        }
    }

    /// The sound search over `plan`'s moves only: the line if it wins.
    fn verify<P: Position>(
        &mut self,
        pos: &mut P,
        board: &mut EvalBoard,
        attacker: Player,
        plan: Vec<u16>,
    ) -> Option<ThreatWin> {
        let depth = plan.len() as u32 + 4;
        let mut sound = ThreatSearch::new(VERIFY_BUDGET).with_deadline(self.deadline).restricted_to(plan);
        let line = sound.winning_line(pos, board, attacker, depth);
        self.verify_nodes += sound.nodes;
        line
    }

    /// Was the last search ended by its budget or deadline?
    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

/// One search's nodes and geometry.
struct Run<'a> {
    table: &'a WindowTable,
    k: usize,
    base: Vec<u8>,
    nodes: Vec<Node>,
    /// Hashes of the (attacker, defender) sets already made.
    seen: HashSet<u64>,
    limit: u64,
    stage: u32,
    /// Goals' plans already verified (the same plan may be reached twice).
    goals: Vec<Vec<u16>>,
}

/// A verified win: the proof's line, the plan it came from, and the stage.
type Found = (ThreatWin, Vec<u16>, u32);

type Verify<'v> = dyn FnMut(&mut DbSearch, &[u16]) -> Option<ThreatWin> + 'v;

impl<'a> Run<'a> {
    fn stages(&mut self, search: &mut DbSearch, stages: u32, verify: &mut Verify) -> Result<Found, DbEnd> {
        if let Some(win) = self.dependency(search, 0, verify) {
            return Ok(win);
        }
        let mut fresh_from = 1;
        while self.stage < stages {
            if search.stopped {
                return Err(DbEnd::Stopped);
            }
            self.stage += 1;
            let before = self.nodes.len();
            if let Some(win) = self.combination(search, fresh_from, verify) {
                return Ok(win);
            }
            if self.nodes.len() == before {
                return Err(if search.stopped { DbEnd::Stopped } else { DbEnd::Exhausted });
            }
            fresh_from = before;
        }
        Err(if search.stopped {
            DbEnd::Stopped
        } else if self.nodes.len() < 3 {
            // Fewer than two threat nodes: there was nothing to combine.
            DbEnd::Exhausted
        } else {
            DbEnd::Stages
        })
    }

    /// The nodes' and the hash set's memory as allocated.
    fn bytes(&self) -> u64 {
        let vec = |cap: usize, item: usize| (cap * item) as u64;
        let nodes: u64 = self
            .nodes
            .iter()
            .map(|n| {
                vec(n.attacker.0.capacity(), 8)
                    + vec(n.defender.0.capacity(), 8)
                    + vec(n.plan.capacity(), 2)
                    + vec(n.fresh[0].capacity(), 2)
                    + vec(n.fresh[1].capacity(), 2)
            })
            .sum();
        nodes + vec(self.nodes.capacity(), std::mem::size_of::<Node>()) + vec(self.seen.capacity(), 9)
    }

    fn picture(&self, node: &Node) -> Picture<'a> {
        let mut cells = self.base.clone();
        for c in node.attacker.list() {
            cells[c as usize] = ATTACKER;
        }
        for c in node.defender.list() {
            cells[c as usize] = DEFENDER;
        }
        Picture { table: self.table, k: self.k, cells }
    }

    fn out_of_budget(&self, search: &mut DbSearch) -> bool {
        if search.nodes + search.tried >= self.limit {
            search.stopped = true;
        }
        if search.tried.is_multiple_of(256) && search.deadline.is_some_and(|d| Instant::now() >= d) {
            search.stopped = true;
        }
        search.stopped
    }

    /// Node `at`'s threats that use its fresh stones, and theirs, depth first.
    fn dependency(&mut self, search: &mut DbSearch, at: usize, verify: &mut Verify) -> Option<Found> {
        let node = self.nodes[at].clone();
        let mut picture = self.picture(&node);
        let mut threats = Vec::new();
        for g in self.candidates(&picture, &node) {
            search.tried += 1;
            if self.out_of_budget(search) {
                return None;
            }
            picture.cells[g as usize] = ATTACKER;
            if let Some(threat) = picture.classify(g) {
                threats.push((g, threat));
            }
            picture.cells[g as usize] = EMPTY;
        }
        // Goals first: the shortest plans are verified before any child is searched.
        threats.sort_by_key(|(_, t)| *t != Threat::Goal);
        for (g, threat) in threats {
            match threat {
                Threat::Goal => {
                    let mut plan = node.plan.clone();
                    plan.push(g);
                    let mut key = plan.clone();
                    key.sort_unstable();
                    if self.goals.contains(&key) {
                        continue;
                    }
                    self.goals.push(key);
                    search.plans += 1;
                    match verify(search, &plan) {
                        Some(line) => return Some((line, plan, self.stage)),
                        None => search.refuted += 1,
                    }
                }
                Threat::Forcing { costs, windows } => {
                    if !self.depends(&node, &windows) {
                        continue;
                    }
                    // A cost stone making a four for the defender: the attacker would have to
                    // answer it, which the single-agent picture cannot express.
                    picture.cells[g as usize] = ATTACKER;
                    costs.iter().for_each(|&c| picture.cells[c as usize] = DEFENDER);
                    let counter = costs.iter().any(|&c| picture.defender_four_through(c));
                    picture.cells[g as usize] = EMPTY;
                    costs.iter().for_each(|&c| picture.cells[c as usize] = EMPTY);
                    if counter {
                        continue;
                    }
                    let mut attacker = node.attacker.clone();
                    attacker.insert(g);
                    let mut defender = node.defender.clone();
                    for &c in &costs {
                        defender.insert(c);
                    }
                    let mut plan = node.plan.clone();
                    plan.push(g);
                    let child = Node { attacker, defender, plan, fresh: [vec![g], Vec::new()] };
                    if let ControlFlow::Break(end) = self.grow(search, child, verify) {
                        return end;
                    }
                }
            }
        }
        None
    }

    /// Does a threat on `windows` use the stones node's dependency names?
    fn depends(&self, node: &Node, windows: &[u32]) -> bool {
        let uses =
            |fresh: &[u16]| windows.iter().any(|&w| self.table.cells_of(w as usize).iter().any(|c| fresh.contains(c)));
        match &node.fresh {
            [a, _] if a.is_empty() => true,
            [a, b] if b.is_empty() => uses(a),
            [a, b] => uses(a) && uses(b),
        }
    }

    /// Cells where a threat using the node's fresh stones may stand: the empty cells of
    /// windows through them with no defender stone and K-3 or more attacker stones (every
    /// such window at the root).
    fn candidates(&self, picture: &Picture, node: &Node) -> Vec<u16> {
        let mut out: Vec<u16> = Vec::new();
        let mut consider = |w: u32| {
            let cells = self.table.cells_of(w as usize);
            let (a, d, _) = picture.count(w);
            if d == 0 && a + 3 >= self.k {
                for &c in cells {
                    if picture.cells[c as usize] == EMPTY && !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        };
        if node.fresh[0].is_empty() {
            for w in 0..self.table.len() as u32 {
                consider(w);
            }
        } else {
            for &f in node.fresh.iter().flatten() {
                for &w in self.table.windows_through(f as usize) {
                    consider(w);
                }
            }
        }
        out
    }

    /// Merges every new node (index `fresh_from` on) with every older or new one it may
    /// combine with, and runs the dependency stage from each merge.
    fn combination(&mut self, search: &mut DbSearch, fresh_from: usize, verify: &mut Verify) -> Option<Found> {
        let end = self.nodes.len();
        for a in fresh_from..end {
            for b in 1..a {
                search.tried += 1;
                if self.out_of_budget(search) {
                    return None;
                }
                let (na, nb) = (&self.nodes[a], &self.nodes[b]);
                if na.attacker.is_subset(&nb.attacker)
                    || nb.attacker.is_subset(&na.attacker)
                    || na.attacker.intersects(&nb.defender)
                    || nb.attacker.intersects(&na.defender)
                {
                    continue;
                }
                let only_a = na.attacker.minus(&nb.attacker);
                let only_b = nb.attacker.minus(&na.attacker);
                if !self.share_window(&only_a, &only_b) {
                    continue;
                }
                let attacker = na.attacker.union(&nb.attacker);
                let defender = na.defender.union(&nb.defender);
                let mut plan = na.plan.clone();
                plan.extend(nb.plan.iter().filter(|g| !na.plan.contains(g)));
                let merged = Node { attacker, defender, plan, fresh: [only_a, only_b] };
                if let ControlFlow::Break(end) = self.grow(search, merged, verify) {
                    return end;
                }
            }
        }
        None
    }

    /// Adds `node` unless its stones were made before, then runs the dependency stage from
    /// it. Break ends the stage: with a win, or with None when the budget ran out.
    fn grow(&mut self, search: &mut DbSearch, node: Node, verify: &mut Verify) -> ControlFlow<Option<Found>> {
        if !self.seen.insert(set_key(&node.attacker, &node.defender)) {
            return ControlFlow::Continue(());
        }
        self.nodes.push(node);
        search.nodes += 1;
        match self.dependency(search, self.nodes.len() - 1, verify) {
            Some(win) => ControlFlow::Break(Some(win)),
            None if search.stopped => ControlFlow::Break(None),
            None => ControlFlow::Continue(()),
        }
    }

    /// Is there a window holding a cell of each list?
    fn share_window(&self, a: &[u16], b: &[u16]) -> bool {
        a.iter().any(|&x| {
            self.table
                .windows_through(x as usize)
                .iter()
                .any(|&w| self.table.cells_of(w as usize).iter().any(|c| b.contains(c)))
        })
    }
}

fn set_key(attacker: &Cells, defender: &Cells) -> u64 {
    let mut h = DefaultHasher::new();
    attacker.hash(&mut h);
    defender.hash(&mut h);
    h.finish()
}
