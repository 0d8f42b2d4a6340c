//! What the search-tree explorer shows, computed without a window: the order of a node's
//! children, the best line through a snapshot, where a snapshot stops short of the search, and
//! an order held still while the user points at the rows.

use crate::game::Move;
use crate::search::TreeSnapshot;
use crate::search::tree::SnapNode;

use super::node_score;

/// How the explorer orders a node's children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SortBy {
    /// By visits for MCTS, by value for alpha-beta (which has no visits).
    #[default]
    Auto,
    Visits,
    Value,
    Order,
}

/// The children of node `id` (at `plies` from the root), best first for the player choosing
/// there: the root's side at even depths, the opponent at odd ones. Nodes without a number sort
/// last.
pub fn sorted_children(tree: &TreeSnapshot, id: usize, plies: u32, sort: SortBy) -> Vec<usize> {
    let mut kids: Vec<usize> = tree.nodes[id].children.iter().map(|&c| c as usize).collect();
    let mcts = tree.nodes[id].mcts.is_some();
    let sort = match sort {
        SortBy::Auto if mcts => SortBy::Visits,
        SortBy::Auto => SortBy::Value,
        s => s,
    };
    let sign = if plies.is_multiple_of(2) { -1.0 } else { 1.0 };
    let key = |c: &usize| -> f64 {
        let n = &tree.nodes[*c];
        match sort {
            SortBy::Visits => -(n.mcts.as_ref().map_or(0, |m| m.visits) as f64),
            SortBy::Value => node_score(n, plies + 1).map_or(f64::INFINITY, |(s, _)| {
                let v = s.as_f64();
                if v.is_nan() { f64::INFINITY } else { sign * v }
            }),
            SortBy::Order | SortBy::Auto => n.order as f64,
        }
    };
    // Stable: equal keys keep the order the search tried them in.
    kids.sort_by(|a, b| key(a).total_cmp(&key(b)));
    kids
}

/// Whether a node has children the snapshot does not show: cut off by width or depth, or an
/// alpha-beta node searched deeper than the plies its search recorded.
pub fn has_more(node: &SnapNode) -> bool {
    node.hidden_children > 0 || (node.children.is_empty() && node.alphabeta.as_ref().is_some_and(|a| a.depth > 0))
}

/// The best line of `tree` as `sort` orders it: the first child of each node from the root
/// down, to the last node the snapshot holds. Returns its moves and that node's index.
pub fn best_line(tree: &TreeSnapshot, sort: SortBy) -> (Vec<Move>, usize) {
    let (mut id, mut path) = (0usize, Vec::new());
    if tree.nodes.is_empty() {
        return (path, id);
    }
    while let Some(&best) = sorted_children(tree, id, path.len() as u32, sort).first() {
        let Some(m) = tree.nodes[best].mv else { break };
        path.push(m);
        id = best;
    }
    (path, id)
}

/// `kids` in the order their moves had in `previous` (the rows as last drawn), children new
/// since then after them in their own order: the rows hold still under the pointer.
pub fn keep_order(tree: &TreeSnapshot, kids: Vec<usize>, previous: &[Move]) -> Vec<usize> {
    let rank = |c: &usize| {
        let mv = tree.nodes[*c].mv;
        previous.iter().position(|&m| Some(m) == mv).unwrap_or(usize::MAX)
    };
    let mut kids = kids;
    kids.sort_by_key(rank);
    kids
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tree::{AlphaBetaStats, Bound, MctsStats};

    fn ab(mv: Option<Move>, order: u32, value: i32, depth: u32, children: Vec<u32>) -> SnapNode {
        SnapNode {
            mv,
            order,
            children,
            mcts: None,
            alphabeta: Some(AlphaBetaStats {
                value,
                bound: Bound::Exact,
                alpha: -10,
                beta: 10,
                depth,
                cutoff: false,
                tt_hit: false,
                cutoff_move: None,
            }),
            hidden_children: 0,
        }
    }

    fn visits(mv: u16, order: u32, n: u64, children: Vec<u32>) -> SnapNode {
        SnapNode {
            mv: Some(Move(mv)),
            order,
            children,
            mcts: Some(MctsStats {
                visits: n,
                mean: 0.5,
                exploration: 0.0,
                proven: None,
                rave_visits: 0,
                rave_mean: 0.0,
                prior: 0,
            }),
            alphabeta: None,
            hidden_children: 0,
        }
    }

    /// Root (side to move: A) with moves 1, 2, 3. Values are for the side to move at each node,
    /// so after A's move the value is B's: move 2 (value -5 for B) is best for A. Below move 2,
    /// B chooses: 20 (A's value 7 there) or 21 (A's value -1): 21 is best for B.
    fn alpha_beta_tree() -> TreeSnapshot {
        TreeSnapshot {
            nodes: vec![
                ab(None, 0, 5, 3, vec![1, 2, 3]),
                ab(Some(Move(1)), 0, 2, 2, vec![]),
                ab(Some(Move(2)), 1, -5, 2, vec![4, 5]),
                ab(Some(Move(3)), 2, 0, 2, vec![]),
                ab(Some(Move(20)), 0, 7, 1, vec![]),
                ab(Some(Move(21)), 1, -1, 0, vec![]),
            ],
        }
    }

    #[test]
    fn children_sort_best_first_for_the_player_choosing_there() {
        let t = alpha_beta_tree();
        assert_eq!(sorted_children(&t, 0, 0, SortBy::Auto), vec![2, 3, 1], "the root's side: lowest for B first");
        assert_eq!(sorted_children(&t, 2, 1, SortBy::Value), vec![5, 4], "B at ply 1: A's lowest value first");
        assert_eq!(sorted_children(&t, 0, 0, SortBy::Order), vec![1, 2, 3]);
        assert_eq!(best_line(&t, SortBy::Auto), (vec![Move(2), Move(21)], 5));
        assert_eq!(best_line(&t, SortBy::Order), (vec![Move(1)], 1));
        assert_eq!(best_line(&TreeSnapshot::default(), SortBy::Auto), (Vec::new(), 0));
    }

    #[test]
    fn mcts_children_sort_by_visits() {
        let t = TreeSnapshot {
            nodes: vec![visits(0, 0, 100, vec![1, 2]), visits(1, 0, 30, vec![]), visits(2, 1, 70, vec![])],
        };
        assert_eq!(sorted_children(&t, 0, 0, SortBy::Auto), vec![2, 1]);
        assert_eq!(best_line(&t, SortBy::Auto).0, vec![Move(2)]);
    }

    #[test]
    fn a_node_has_more_where_the_snapshot_stops_short_of_the_search() {
        let t = alpha_beta_tree();
        assert!(has_more(&t.nodes[1]), "searched 2 plies deep, none recorded");
        assert!(!has_more(&t.nodes[5]), "a leaf of the search");
        assert!(!has_more(&t.nodes[0]), "its children are shown");
        let mut wide = t.nodes[0].clone();
        wide.hidden_children = 4;
        assert!(has_more(&wide), "children beyond the top ones");
    }

    #[test]
    fn rows_keep_their_order_and_new_rows_go_last() {
        let t = alpha_beta_tree();
        let sorted = sorted_children(&t, 0, 0, SortBy::Auto);
        assert_eq!(keep_order(&t, sorted.clone(), &[Move(1), Move(2), Move(3)]), vec![1, 2, 3], "as drawn before");
        assert_eq!(keep_order(&t, sorted.clone(), &[Move(3)]), vec![3, 2, 1], "the rest after, best first");
        assert_eq!(keep_order(&t, sorted.clone(), &[]), sorted);
    }
}
