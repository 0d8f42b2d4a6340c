//! The game record under any sequence of edits: it stays a valid tree of legal moves, the
//! user always stands on a node of it, and its text reads back to the same tree.

use mnklab::game::{AnyPosition, Variant};
use mnklab::io::PositionFile;
use mnklab::record::{GameTree, NodeId, movetext};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Play(usize),
    Back,
    Forward,
    Goto(usize),
    Promote(usize),
    Demote(usize),
    ToMain(usize),
    Delete(usize),
    TakeBack,
    Comment(usize, String),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0usize..7).prop_map(Op::Play),
        2 => Just(Op::Back),
        2 => Just(Op::Forward),
        1 => any::<usize>().prop_map(Op::Goto),
        1 => any::<usize>().prop_map(Op::Promote),
        1 => any::<usize>().prop_map(Op::Demote),
        1 => any::<usize>().prop_map(Op::ToMain),
        1 => any::<usize>().prop_map(Op::Delete),
        1 => Just(Op::TakeBack),
        1 => (any::<usize>(), "[a-z{}()\\\\ ]{0,8}").prop_map(|(n, s)| Op::Comment(n, s)),
    ]
}

fn position(start: &AnyPosition, t: &GameTree, id: NodeId) -> AnyPosition {
    let mut p = start.clone();
    for m in t.path(id) {
        p.try_play(m).expect("every move in the record is legal where it stands");
    }
    p
}

/// The tree as (moves to the node, comment) in preorder: equal lists, equal trees.
fn shape(t: &GameTree) -> Vec<(Vec<mnklab::game::Move>, String)> {
    t.preorder().into_iter().map(|n| (t.path(n), t.comment(n).to_string())).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn any_edits_keep_a_valid_tree_that_reads_back(ops in proptest::collection::vec(op(), 0..80)) {
        let start = AnyPosition::new(Variant::connect4());
        let mut t = GameTree::new();
        for op in ops {
            let nodes = t.preorder();
            let pick = |n: usize| nodes[n % nodes.len()];
            match op {
                Op::Play(k) => {
                    let p = position(&start, &t, t.current());
                    if !p.status().is_over() {
                        let legal = p.legal_moves();
                        let m = legal[k % legal.len()];
                        let before = t.len();
                        let id = t.play(m);
                        prop_assert_eq!(t.current(), id);
                        prop_assert_eq!(t.mv(id), Some(m));
                        prop_assert!(t.len() == before || t.len() == before + 1);
                    }
                }
                Op::Back => {
                    let d = t.depth(t.current());
                    prop_assert_eq!(t.back(), d > 0);
                    prop_assert_eq!(t.depth(t.current()), d.saturating_sub(1));
                }
                Op::Forward => {
                    let line = t.line();
                    let d = t.depth(t.current());
                    let moved = t.forward();
                    prop_assert_eq!(moved, line.len() > d + 1);
                    if moved {
                        prop_assert_eq!(t.current(), line[d + 1], "forward follows the line shown");
                    }
                }
                Op::Goto(n) => {
                    t.goto(pick(n));
                    prop_assert_eq!(t.current(), pick(n));
                }
                Op::Promote(n) => { t.promote(pick(n)); }
                Op::Demote(n) => { t.demote(pick(n)); }
                Op::ToMain(n) => {
                    let path = t.path(pick(n));
                    t.promote_to_main(pick(n));
                    prop_assert!(t.main_line().starts_with(&path), "the line is the main line's start");
                }
                Op::Delete(n) => {
                    let id = pick(n);
                    let path = t.path(id);
                    let here = t.path(t.current());
                    let deleted = t.delete(id);
                    prop_assert_eq!(deleted, !path.is_empty());
                    if deleted {
                        prop_assert!(t.find(&path).is_none(), "the line is gone");
                        if here.starts_with(&path) {
                            prop_assert_eq!(t.path(t.current()), path[..path.len() - 1].to_vec());
                        } else {
                            prop_assert_eq!(t.path(t.current()), here, "the user stays where they were");
                        }
                    }
                }
                Op::TakeBack => {
                    let here = t.path(t.current());
                    let leaf = t.children(t.current()).is_empty();
                    t.take_back();
                    if !here.is_empty() {
                        prop_assert_eq!(t.path(t.current()), here[..here.len() - 1].to_vec());
                        prop_assert_eq!(t.find(&here).is_none(), leaf, "a last move is removed, others kept");
                    }
                }
                Op::Comment(n, text) => {
                    t.set_comment(pick(n), &text);
                    prop_assert_eq!(t.comment(pick(n)), text.trim());
                }
            }
            prop_assert!(t.is_consistent());
            let line = t.line();
            prop_assert_eq!(line[0], t.root());
            prop_assert!(line.contains(&t.current()));
            for w in line.windows(2) {
                prop_assert_eq!(t.parent(w[1]), Some(w[0]));
            }
            position(&start, &t, *line.last().unwrap());
        }
        // The text reads back to the same tree, and so does a position file holding it.
        let text = movetext::write(&t, &start);
        let back = movetext::parse(&start, &text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        prop_assert_eq!(shape(&back), shape(&t), "{}", text);
        let here = position(&start, &t, t.current());
        let file = PositionFile::from_record(&here, None, &t, &start);
        let (read, pos, tree) = PositionFile::parse_with_record(&file.to_ron(), std::path::Path::new("p.ron")).unwrap();
        prop_assert_eq!(read, file);
        prop_assert_eq!(pos.history(), here.history());
        prop_assert_eq!(shape(&tree), shape(&t));
        prop_assert_eq!(tree.path(tree.current()), t.path(t.current()), "the file opens where it was saved");
    }
}

#[test]
fn an_old_file_without_a_record_opens_as_its_line() {
    let text = "(version: 1, variant: \"connect:7,6,4\", moves: [\"d\", \"d\", \"e\"])";
    let (_, pos, tree) = PositionFile::parse_with_record(text, std::path::Path::new("old.ron")).unwrap();
    assert_eq!(pos.history_string(), "d d e");
    assert_eq!(tree.main_line(), pos.history());
    assert_eq!(tree.path(tree.current()), pos.history());
}

#[test]
fn a_record_that_misses_the_position_is_an_error() {
    let text = "(version: 2, variant: \"connect:7,6,4\", moves: [\"d\", \"c\"], record: Some(\"d d (e)\"))";
    let err = PositionFile::parse_with_record(text, std::path::Path::new("x.ron")).unwrap_err().to_string();
    assert!(err.contains("x.ron") && err.contains("not in the record"), "{err}");
    let text = "(version: 2, variant: \"connect:7,6,4\", record: Some(\"d d (e\"))";
    let err = PositionFile::parse_with_record(text, std::path::Path::new("x.ron")).unwrap_err().to_string();
    assert!(err.contains("never closed"), "{err}");
}
