//! The game record: every move tried from the start position, as a tree of lines with
//! comments (like a PGN or SGF game), and where the user stands in it.
//!
//! The first child of a node is its main continuation; the others are variations, in the
//! order they were played or promoted. The record knows moves, not rules: the position at a
//! node is the start position with the moves of [`GameTree::path`] played (checked by whoever
//! adds them, and by [`movetext`] when a record is read).
//!
//! ```
//! use mnklab::game::Move;
//! use mnklab::record::GameTree;
//!
//! let mut t = GameTree::new();
//! t.play(Move(3));
//! t.play(Move(3));
//! t.back();
//! t.play(Move(2)); // another second move: a variation beside the first
//! assert_eq!(t.path(t.current()), vec![Move(3), Move(2)]);
//! assert_eq!(t.main_line(), vec![Move(3), Move(3)]);
//! t.promote_to_main(t.current());
//! assert_eq!(t.main_line(), vec![Move(3), Move(2)]);
//! ```

pub mod movetext;

pub use movetext::RecordError;

use crate::game::Move;

/// A node of the record: the index in its tree. The start position is [`GameTree::root`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(usize);

#[derive(Clone, Debug, PartialEq)]
struct Node {
    /// The move that leads here (None only at the root).
    mv: Option<Move>,
    parent: Option<NodeId>,
    /// The main continuation first, then the variations.
    children: Vec<NodeId>,
    comment: String,
}

/// One row of the move list: moves in order, at a nesting depth (0: the main line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    pub indent: usize,
    pub nodes: Vec<NodeId>,
}

/// The tree of moves and where the user is.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTree {
    nodes: Vec<Node>,
    current: NodeId,
    /// The deepest node of the line the user is walking: "forward" heads back towards it after
    /// steps back (so going back in a variation and forward again stays in that variation).
    focus: NodeId,
}

impl Default for GameTree {
    fn default() -> Self {
        GameTree::new()
    }
}

impl GameTree {
    /// An empty record at the start position.
    pub fn new() -> GameTree {
        GameTree {
            nodes: vec![Node { mv: None, parent: None, children: Vec::new(), comment: String::new() }],
            current: NodeId(0),
            focus: NodeId(0),
        }
    }

    /// A record of one line, standing at its end.
    pub fn from_moves(moves: &[Move]) -> GameTree {
        let mut t = GameTree::new();
        for &m in moves {
            t.play(m);
        }
        t
    }

    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    pub fn current(&self) -> NodeId {
        self.current
    }

    /// The move leading to `id` (None at the root).
    pub fn mv(&self, id: NodeId) -> Option<Move> {
        self.nodes[id.0].mv
    }

    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes[id.0].parent
    }

    /// The moves tried after `id`: the main continuation first.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.nodes[id.0].children
    }

    pub fn comment(&self, id: NodeId) -> &str {
        &self.nodes[id.0].comment
    }

    /// Sets the comment on `id` (trimmed: the text form has no place for edge spaces).
    pub fn set_comment(&mut self, id: NodeId, text: &str) {
        self.nodes[id.0].comment = text.trim().to_string();
    }

    /// Number of nodes, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when no move has been recorded.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// The moves from the start to `id`.
    pub fn path(&self, id: NodeId) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = id;
        while let Some(m) = self.nodes[at.0].mv {
            moves.push(m);
            at = self.nodes[at.0].parent.expect("a node with a move has a parent");
        }
        moves.reverse();
        moves
    }

    /// How many moves from the start `id` is.
    pub fn depth(&self, id: NodeId) -> usize {
        let mut d = 0;
        let mut at = id;
        while let Some(p) = self.nodes[at.0].parent {
            d += 1;
            at = p;
        }
        d
    }

    /// True when `a` is `b` or one of `b`'s ancestors.
    pub fn is_ancestor(&self, a: NodeId, b: NodeId) -> bool {
        let mut at = Some(b);
        while let Some(n) = at {
            if n == a {
                return true;
            }
            at = self.nodes[n.0].parent;
        }
        false
    }

    /// The child of `id` reached by `m`, if that move was tried there.
    pub fn child_by_move(&self, id: NodeId, m: Move) -> Option<NodeId> {
        self.nodes[id.0].children.iter().copied().find(|&c| self.nodes[c.0].mv == Some(m))
    }

    /// The node reached by playing `moves` from the start, if the record has it.
    pub fn find(&self, moves: &[Move]) -> Option<NodeId> {
        moves.iter().try_fold(self.root(), |at, &m| self.child_by_move(at, m))
    }

    /// Plays `m` at the current node: an existing move is followed, a new one is added after
    /// the others (a variation, or the main continuation where there was none). Returns it.
    pub fn play(&mut self, m: Move) -> NodeId {
        let id = self.add(self.current, m);
        self.goto(id);
        id
    }

    /// Adds `m` after `at` without moving there (the existing node if `m` was tried there).
    pub fn add(&mut self, at: NodeId, m: Move) -> NodeId {
        if let Some(c) = self.child_by_move(at, m) {
            return c;
        }
        let id = NodeId(self.nodes.len());
        self.nodes.push(Node { mv: Some(m), parent: Some(at), children: Vec::new(), comment: String::new() });
        self.nodes[at.0].children.push(id);
        id
    }

    /// Stands at `id`; its line becomes the one "forward" follows.
    pub fn goto(&mut self, id: NodeId) {
        self.current = id;
        if !self.is_ancestor(id, self.focus) {
            self.focus = id;
        }
    }

    /// One move back; false at the start.
    pub fn back(&mut self) -> bool {
        match self.nodes[self.current.0].parent {
            Some(p) => {
                self.current = p;
                true
            }
            None => false,
        }
    }

    /// One move forward along the line being walked (else the main continuation); false at
    /// the end of the line.
    pub fn forward(&mut self) -> bool {
        match self.next_in_line(self.current) {
            Some(c) => {
                self.current = c;
                if !self.is_ancestor(c, self.focus) {
                    self.focus = c;
                }
                true
            }
            None => false,
        }
    }

    fn next_in_line(&self, at: NodeId) -> Option<NodeId> {
        let children = &self.nodes[at.0].children;
        if at != self.focus && self.is_ancestor(at, self.focus) {
            children.iter().copied().find(|&c| self.is_ancestor(c, self.focus))
        } else {
            children.first().copied()
        }
    }

    /// The line shown as "the game": from the start through the current node to the end of
    /// the line being walked (then main continuations). Index i is the node after i moves.
    pub fn line(&self) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = Some(self.current);
        while let Some(n) = at {
            line.push(n);
            at = self.nodes[n.0].parent;
        }
        line.reverse();
        let mut at = self.current;
        while let Some(c) = self.next_in_line(at) {
            line.push(c);
            at = c;
        }
        line
    }

    /// The moves of [`GameTree::line`].
    pub fn line_moves(&self) -> Vec<Move> {
        self.line().iter().filter_map(|&n| self.nodes[n.0].mv).collect()
    }

    /// The main line: first children from the start.
    pub fn main_line(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = self.root();
        while let Some(&c) = self.nodes[at.0].children.first() {
            moves.push(self.nodes[c.0].mv.expect("a child has a move"));
            at = c;
        }
        moves
    }

    /// The other moves tried where `id` was played, `id` included, in order.
    pub fn siblings(&self, id: NodeId) -> &[NodeId] {
        match self.nodes[id.0].parent {
            Some(p) => &self.nodes[p.0].children,
            None => &[],
        }
    }

    /// Moves `id` one place up among its siblings (towards the main continuation); false if
    /// it is first already or the root.
    pub fn promote(&mut self, id: NodeId) -> bool {
        self.shift(id, -1)
    }

    /// Moves `id` one place down among its siblings; false if it is last already.
    pub fn demote(&mut self, id: NodeId) -> bool {
        self.shift(id, 1)
    }

    fn shift(&mut self, id: NodeId, by: isize) -> bool {
        let Some(p) = self.nodes[id.0].parent else { return false };
        let children = &mut self.nodes[p.0].children;
        let i = children.iter().position(|&c| c == id).expect("a node is among its parent's children");
        let j = i as isize + by;
        if j < 0 || j as usize >= children.len() {
            return false;
        }
        children.swap(i, j as usize);
        true
    }

    /// Makes the line through `id` the main line: it and each of its ancestors become the
    /// first continuation of their parents.
    pub fn promote_to_main(&mut self, id: NodeId) {
        let mut at = id;
        while let Some(p) = self.nodes[at.0].parent {
            let children = &mut self.nodes[p.0].children;
            let i = children.iter().position(|&c| c == at).expect("a node is among its parent's children");
            let node = children.remove(i);
            children.insert(0, node);
            at = p;
        }
    }

    /// Deletes `id` and every move after it; the user standing inside goes to its parent.
    /// False for the root (the start cannot be deleted).
    pub fn delete(&mut self, id: NodeId) -> bool {
        let Some(parent) = self.nodes[id.0].parent else { return false };
        if self.is_ancestor(id, self.current) {
            self.current = parent;
        }
        if self.is_ancestor(id, self.focus) {
            self.focus = parent;
        }
        self.nodes[parent.0].children.retain(|&c| c != id);
        self.compact();
        true
    }

    /// Drops nodes no longer reachable from the root and renumbers the rest (preorder), so
    /// ids stay dense and every node is reachable.
    fn compact(&mut self) {
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![self.root()];
        while let Some(n) = stack.pop() {
            order.push(n);
            stack.extend(self.nodes[n.0].children.iter().rev());
        }
        let mut new_id = vec![usize::MAX; self.nodes.len()];
        for (i, n) in order.iter().enumerate() {
            new_id[n.0] = i;
        }
        let map = |n: NodeId| NodeId(new_id[n.0]);
        let nodes = order
            .iter()
            .map(|&n| {
                let old = &self.nodes[n.0];
                Node {
                    mv: old.mv,
                    parent: old.parent.map(map),
                    children: old.children.iter().map(|&c| map(c)).collect(),
                    comment: old.comment.clone(),
                }
            })
            .collect();
        self.nodes = nodes;
        self.current = map(self.current);
        self.focus = map(self.focus);
    }

    /// Takes back the move just played: a last move (nothing after it) is deleted and the
    /// user stands before it; elsewhere this is one step back. False at the start.
    pub fn take_back(&mut self) -> bool {
        let at = self.current;
        if self.nodes[at.0].parent.is_none() {
            return false;
        }
        if self.nodes[at.0].children.is_empty() { self.delete(at) } else { self.back() }
    }

    /// The record as the move list shows it (like Lichess or Sabaki): rows of moves, a
    /// variation on its own rows indented one level under the move it replaces, then the line
    /// it branched from going on in a new row.
    pub fn move_rows(&self) -> Vec<MoveRow> {
        enum Task {
            /// A new row that starts with this move.
            Start(NodeId, usize),
            /// A new row with the moves after this one.
            After(NodeId, usize),
        }
        let mut rows = Vec::new();
        let mut stack = vec![Task::After(self.root(), 0)];
        while let Some(task) = stack.pop() {
            let (mut at, indent, mut nodes) = match task {
                Task::Start(n, indent) => (n, indent, vec![n]),
                Task::After(n, indent) => (n, indent, Vec::new()),
            };
            loop {
                let children = self.children(at);
                let Some(&main) = children.first() else { break };
                nodes.push(main);
                if children.len() > 1 {
                    // Run order: each variation's rows, then the line on after `main`.
                    stack.push(Task::After(main, indent));
                    for &v in children[1..].iter().rev() {
                        stack.push(Task::Start(v, indent + 1));
                    }
                    break;
                }
                at = main;
            }
            if !nodes.is_empty() {
                rows.push(MoveRow { indent, nodes });
            }
        }
        rows
    }

    /// Every node in preorder (the main continuation before variations), root first.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![self.root()];
        while let Some(n) = stack.pop() {
            order.push(n);
            stack.extend(self.nodes[n.0].children.iter().rev());
        }
        order
    }

    /// Checks the tree's own consistency (every node reachable once, parents and children
    /// agree, the current and focus nodes exist): the property tests' invariant.
    pub fn is_consistent(&self) -> bool {
        let order = self.preorder();
        if order.len() != self.nodes.len() || self.nodes[0].parent.is_some() || self.nodes[0].mv.is_some() {
            return false;
        }
        let mut seen = vec![false; self.nodes.len()];
        for n in order {
            if std::mem::replace(&mut seen[n.0], true) {
                return false;
            }
            let node = &self.nodes[n.0];
            if n.0 != 0 && node.mv.is_none() {
                return false;
            }
            let mut moves: Vec<Move> = Vec::new();
            for &c in &node.children {
                if self.nodes[c.0].parent != Some(n) {
                    return false;
                }
                let m = self.nodes[c.0].mv.expect("checked");
                if moves.contains(&m) {
                    return false;
                }
                moves.push(m);
            }
        }
        self.current.0 < self.nodes.len()
            && self.focus.0 < self.nodes.len()
            && self.is_ancestor(self.current, self.focus)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `d d e (c c (b)) f`: the main line breaks after e, c's variation is indented, b's more.
    #[test]
    fn move_rows_nest_variations_under_the_move_they_replace() {
        let mut t = GameTree::from_moves(&[Move(3), Move(3), Move(4), Move(5)]);
        let dd = t.find(&[Move(3), Move(3)]).unwrap();
        let c = t.add(dd, Move(2));
        let cc = t.add(c, Move(2));
        t.add(c, Move(1));
        let mv = |n: NodeId| t.mv(n).unwrap().0;
        let rows: Vec<(usize, Vec<u16>)> =
            t.move_rows().iter().map(|r| (r.indent, r.nodes.iter().map(|&n| mv(n)).collect())).collect();
        assert_eq!(rows, vec![(0, vec![3, 3, 4]), (1, vec![2, 2]), (2, vec![1]), (0, vec![5])]);
        assert_eq!(t.mv(cc), Some(Move(2)));
        // Every node appears once.
        let mut all: Vec<NodeId> = t.move_rows().into_iter().flat_map(|r| r.nodes).collect();
        all.sort();
        assert_eq!(all.len(), t.len() - 1);
        all.dedup();
        assert_eq!(all.len(), t.len() - 1);
    }

    #[test]
    fn forward_stays_in_the_variation_walked() {
        let mut t = GameTree::from_moves(&[Move(3), Move(3), Move(4)]);
        t.goto(t.find(&[Move(3)]).unwrap());
        t.play(Move(2));
        t.play(Move(2));
        t.back();
        t.back();
        assert!(t.forward());
        assert_eq!(t.mv(t.current()), Some(Move(2)), "back into the variation, not the main line");
        assert_eq!(t.line_moves(), vec![Move(3), Move(2), Move(2)]);
        // Taking back a last move removes it; the move before stays.
        t.forward();
        assert!(t.take_back());
        assert_eq!(t.find(&[Move(3), Move(2), Move(2)]), None);
        assert_eq!(t.path(t.current()), vec![Move(3), Move(2)]);
    }
}
