//! Tests of the tree's bookkeeping: every node's children are distinct legal moves in a block
//! with room for them, the per-node move mask agrees with the children, the arena counts
//! the nodes it holds, and visits add up, after plain searches, tree reuse and root-parallel
//! merges.

use super::{Mcts, MctsConfig, NONE};
use crate::game::{AnyPosition, Position, Variant};
use crate::search::{Agent, NullSink, SearchControl, SearchLimits};
use crate::with_position;

impl<P: Position> Mcts<P> {
    /// Walks the tree from the root at `pos`, asserting every invariant; returns the nodes
    /// seen.
    fn check(&self, pos: &mut P) -> usize {
        let mut seen = 0;
        self.check_node(0, pos, &mut seen);
        assert_eq!(seen, self.live, "the arena's count of live nodes");
        seen
    }

    fn check_node(&self, n: usize, pos: &mut P, seen: &mut usize) {
        *seen += 1;
        let node = self.nodes[n];
        assert!(node.tried <= node.legal, "node {n}: {} children of {} moves", node.tried, node.legal);
        if node.legal > 0 {
            assert_eq!(node.legal as usize, pos.num_legal_moves(), "node {n}: legal moves");
        }
        if node.tried == 0 {
            return;
        }
        assert_ne!(node.first_child, NONE);
        assert!(node.first_child as usize + node.cap() <= self.nodes.len(), "node {n}: block past the arena");
        let mut mask = 0u32;
        let mut moves = std::collections::HashSet::new();
        let mut child_visits = 0u64;
        for c in self.children(n) {
            let m = self.nodes[c].mv;
            assert!(pos.is_legal(m), "node {n}: child move {m:?} is not legal");
            assert!(moves.insert(m), "node {n}: two children for {m:?}");
            if m.index() < 32 {
                mask |= 1 << m.index();
            }
            child_visits += self.nodes[c].visits as u64;
            pos.play(m);
            self.check_node(c, pos, seen);
            pos.undo();
        }
        assert_eq!(node.tried_moves, mask, "node {n}: move mask");
        // Every visit but the one that created the node went on to a child (the root's
        // visits too, once merged).
        assert!(child_visits <= node.visits as u64, "node {n}: children {child_visits} > {}", node.visits);
    }
}

fn config(threads: u32, tree_reuse: bool) -> MctsConfig {
    MctsConfig { threads, tree_reuse, seed: 7, ..MctsConfig::default() }
}

#[test]
fn the_tree_keeps_its_invariants_on_every_family() {
    for game in ["connect4", "connect3d", "gomoku", "mnk:5,5,4", "connect:9,7,5"] {
        let start = AnyPosition::new(game.parse::<Variant>().unwrap());
        with_position!(&start, p => {
            let mut agent = Mcts::new(config(1, false));
            agent.search(p, &SearchLimits::iterations(5_000), &SearchControl::new(), &mut NullSink);
            let mut walk = p.clone();
            assert!(agent.check(&mut walk) > 1_000, "{game}");
        });
    }
}

#[test]
fn tree_reuse_keeps_the_invariants_and_grows_the_kept_subtree() {
    for game in ["connect4", "connect3d", "mnk:6,6,4"] {
        let start = AnyPosition::new(game.parse::<Variant>().unwrap());
        with_position!(&start, p => {
            let mut agent = Mcts::new(config(1, true));
            let mut pos = p.clone();
            for _ in 0..4 {
                let r = agent.search(&pos, &SearchLimits::iterations(3_000), &SearchControl::new(), &mut NullSink);
                let mut walk = pos.clone();
                agent.check(&mut walk);
                // The chosen move and the tree's favourite reply: the next search reuses them.
                pos.play(r.best.unwrap());
                if r.pv.len() > 1 && !pos.is_over() {
                    pos.play(r.pv[1]);
                }
                if pos.is_over() {
                    break;
                }
                let kept = agent.nodes.len();
                agent.search(&pos, &SearchLimits::iterations(1), &SearchControl::new(), &mut NullSink);
                let mut walk = pos.clone();
                assert!(agent.check(&mut walk) >= 2, "{game}: kept subtree of {kept}");
            }
        });
    }
}

#[test]
fn root_parallel_merges_keep_the_invariants() {
    let start = AnyPosition::new(Variant::connect4());
    with_position!(&start, p => {
        let mut agent = Mcts::new(config(2, false));
        agent.search(p, &SearchLimits::iterations(4_000), &SearchControl::new(), &mut NullSink);
        let mut walk = p.clone();
        agent.check(&mut walk);
    });
}

#[test]
fn the_shared_tree_keeps_its_invariants_with_every_option() {
    use super::Parallel;
    for (solver, rave) in [(false, None), (true, None), (false, Some(300.0))] {
        for game in ["connect4", "connect3d", "mnk:5,5,4"] {
            let start = AnyPosition::new(game.parse::<Variant>().unwrap());
            with_position!(&start, p => {
                let config = MctsConfig {
                    solver,
                    rave,
                    parallel: Parallel::Tree { virtual_loss: 3 },
                    ..config(2, true)
                };
                let mut agent = Mcts::new(config);
                let r = agent.search(p, &SearchLimits::iterations(6_000), &SearchControl::new(), &mut NullSink);
                let mut walk = p.clone();
                agent.check(&mut walk);
                // No virtual loss left behind: the root counts each iteration once.
                if agent.nodes[0].proven.is_none() {
                    assert_eq!(agent.nodes[0].visits as u64, r.stats.iterations, "{game}");
                }
            });
        }
    }
}

/// The tree published while a search runs (what the workbench answers the explorer from)
/// holds exactly the nodes with at least 1/`PUBLISHED_SHARE` of the root's visits, counts
/// every other visited child as hidden below its parent, and is sent only when someone
/// wants the search's trees.
#[test]
fn the_published_tree_holds_the_most_visited_nodes_and_counts_the_rest() {
    let start = AnyPosition::new(Variant::connect4());
    with_position!(&start, p => {
        let mut agent = Mcts::new(config(1, false));
        let mut sink = crate::search::progress::PublishedTrees(Vec::new());
        agent.search(p, &SearchLimits::iterations(20_000), &SearchControl::new(), &mut sink);
        assert!(sink.0.is_empty(), "no one wants the tree: nothing published");
        let wanted = SearchControl::new();
        wanted.want_trees();
        agent.search(p, &SearchLimits::iterations(300_000), &wanted, &mut sink);
        assert!(!sink.0.is_empty(), "published from the first check on");
        let tree = agent.published_tree();
        let least = agent.nodes[0].visits / super::PUBLISHED_SHARE;
        assert!(least > 1, "a tree large enough to be cut: {} visits", agent.nodes[0].visits);
        // Every node of the full tree with that many visits, and only those.
        let mut stack = vec![0usize];
        let mut kept = 0;
        while let Some(n) = stack.pop() {
            kept += 1;
            stack.extend(agent.children(n).filter(|&c| agent.nodes[c].visits >= least));
        }
        assert_eq!(tree.nodes.len(), kept);
        for node in &tree.nodes {
            let stats = node.mcts.as_ref().expect("MCTS statistics");
            assert!(stats.visits >= least as u64 || node.mv.is_none());
        }
        // The root's children: shown and hidden add up to the visited ones.
        let visited = agent.children(0).filter(|&c| agent.nodes[c].visits > 0).count();
        assert_eq!(tree.nodes[0].children.len() + tree.nodes[0].hidden_children as usize, visited);
        assert!(tree.nodes.iter().any(|n| n.hidden_children > 0), "some children too rarely visited to publish");
    });
}
