//! The record as text, PGN-style: moves in the game's notation separated by spaces, a
//! variation in parentheses right after the move it replaces, a comment in braces after the
//! move it is about (before the first move: about the start).
//!
//! ```text
//! {a quiet opening} d d {the centre} e (c c (b)) f
//! ```
//!
//! Here `c` is another third move instead of `e`, and `b` another fourth move instead of the
//! second `c`. Inside a comment `\}` and `\\` stand for `}` and `\`. Move numbers such as
//! `12.` are allowed and ignored (connect3d's moves are bare numbers, never followed by a dot).
//! Both directions work without recursion, so a game of any length reads and writes.

use super::{GameTree, NodeId};
use crate::game::{AnyPosition, GameError};

/// What is wrong with a record's text; `at` counts characters from the start of the text.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("record: move '{token}' at character {at}: {source}")]
    Move { token: String, at: usize, source: GameError },
    #[error("record: '(' at character {at} has no move before it that it could be a variation of")]
    NoMoveBefore { at: usize },
    #[error("record: ')' at character {at} closes no variation")]
    Unopened { at: usize },
    #[error("record: the variation opened at character {at} is never closed with ')'")]
    Unclosed { at: usize },
    #[error("record: the variation closed at character {at} has no moves")]
    Empty { at: usize },
    #[error("record: the comment opened at character {at} is never closed with '}}'")]
    UnclosedComment { at: usize },
    #[error("record: '}}' at character {at} closes no comment")]
    StrayBrace { at: usize },
}

enum Token {
    Open,
    Close,
    Comment(String),
    Move(String),
}

fn tokens(text: &str) -> Result<Vec<(usize, Token)>, RecordError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            c if c.is_whitespace() => i += 1,
            '(' => {
                out.push((i, Token::Open));
                i += 1;
            }
            ')' => {
                out.push((i, Token::Close));
                i += 1;
            }
            '}' => return Err(RecordError::StrayBrace { at: i }),
            '{' => {
                let start = i;
                let mut text = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        None => return Err(RecordError::UnclosedComment { at: start }),
                        Some('}') => break,
                        Some('\\') if matches!(chars.get(i + 1), Some('}') | Some('\\')) => {
                            text.push(chars[i + 1]);
                            i += 2;
                        }
                        Some(&c) => {
                            text.push(c);
                            i += 1;
                        }
                    }
                }
                i += 1;
                out.push((start, Token::Comment(text.trim().to_string())));
            }
            _ => {
                let start = i;
                let mut word = String::new();
                while let Some(&c) = chars.get(i) {
                    if c.is_whitespace() || "(){}".contains(c) {
                        break;
                    }
                    word.push(c);
                    i += 1;
                }
                // A move number ("12." or "12...") says nothing the tree does not.
                let number = word.ends_with('.') && word.trim_end_matches('.').chars().all(|c| c.is_ascii_digit());
                if !number {
                    out.push((start, Token::Move(word)));
                }
            }
        }
    }
    Ok(out)
}

/// Reads a record's text played from `start` (every move checked by the rules). The tree
/// stands at its start position.
pub fn parse(start: &AnyPosition, text: &str) -> Result<GameTree, RecordError> {
    let mut tree = GameTree::new();
    // Where the next move goes, the last move read at this level, and the position there.
    let mut cur = tree.root();
    let mut last: Option<NodeId> = None;
    let mut pos = start.clone();
    let mut stack: Vec<(usize, NodeId, Option<NodeId>, AnyPosition)> = Vec::new();
    for (at, token) in tokens(text)? {
        match token {
            Token::Move(word) => {
                let bad = |source| RecordError::Move { token: word.clone(), at, source };
                if pos.status().is_over() {
                    return Err(bad(GameError::GameOver { mv: word.clone(), ply: pos.ply() + 1 }));
                }
                let m = pos.parse_move(&word).map_err(bad)?;
                pos.try_play(m).map_err(bad)?;
                cur = tree.add(cur, m);
                last = Some(cur);
            }
            Token::Comment(text) => {
                let id = last.unwrap_or(cur);
                let joined = match tree.comment(id) {
                    "" => text,
                    old => format!("{old} {text}"),
                };
                tree.set_comment(id, &joined);
            }
            Token::Open => {
                let Some(replaced) = last else { return Err(RecordError::NoMoveBefore { at }) };
                stack.push((at, cur, last, pos.clone()));
                // The variation replaces the last move: it starts from the position before it.
                pos.undo();
                cur = tree.parent(replaced).expect("a move's node has a parent");
                last = None;
            }
            Token::Close => {
                let Some((_, c, l, p)) = stack.pop() else { return Err(RecordError::Unopened { at }) };
                if last.is_none() {
                    return Err(RecordError::Empty { at });
                }
                (cur, last, pos) = (c, l, p);
            }
        }
    }
    if let Some((at, ..)) = stack.pop() {
        return Err(RecordError::Unclosed { at });
    }
    tree.goto(tree.root());
    Ok(tree)
}

fn comment_text(text: &str) -> String {
    format!("{{{}}}", text.replace('\\', "\\\\").replace('}', "\\}"))
}

/// Writes the whole tree (main line, variations in parentheses, comments in braces), with the
/// moves in `start`'s notation. [`parse`] reads it back to the same tree.
pub fn write(tree: &GameTree, start: &AnyPosition) -> String {
    enum Task {
        /// The move into this node, with its comment.
        Emit(NodeId),
        /// Everything after this node.
        After(NodeId),
        Text(&'static str),
    }
    let mut words: Vec<String> = Vec::new();
    if !tree.comment(tree.root()).is_empty() {
        words.push(comment_text(tree.comment(tree.root())));
    }
    let position_at = |id: NodeId| {
        let mut p = start.clone();
        for m in tree.path(id) {
            let _ = p.try_play(m);
        }
        p
    };
    let mut stack = vec![Task::After(tree.root())];
    while let Some(task) = stack.pop() {
        match task {
            Task::Text(t) => words.push(t.into()),
            Task::Emit(id) => {
                let parent = tree.parent(id).expect("a move's node has a parent");
                let m = tree.mv(id).expect("a move's node has a move");
                words.push(position_at(parent).format_move(m));
                if !tree.comment(id).is_empty() {
                    words.push(comment_text(tree.comment(id)));
                }
            }
            Task::After(id) => {
                let children = tree.children(id);
                let Some(&main) = children.first() else { continue };
                // Run order: the main move, each variation in brackets, then the main line on.
                stack.push(Task::After(main));
                for &v in children[1..].iter().rev() {
                    stack.push(Task::Text(")"));
                    stack.push(Task::After(v));
                    stack.push(Task::Emit(v));
                    stack.push(Task::Text("("));
                }
                stack.push(Task::Emit(main));
            }
        }
    }
    let mut out = String::new();
    for w in words {
        let glue = !out.is_empty() && !out.ends_with('(') && w != ")";
        if glue {
            out.push(' ');
        }
        out.push_str(&w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Move, Variant};

    fn c4() -> AnyPosition {
        AnyPosition::new(Variant::connect4())
    }

    #[test]
    fn variations_and_comments_read_where_they_belong() {
        let t = parse(&c4(), "{quiet} d d {centre} e (c c (b)) f").unwrap();
        assert_eq!(t.comment(t.root()), "quiet");
        assert_eq!(t.main_line(), vec![Move(3), Move(3), Move(4), Move(5)]);
        let dd = t.find(&[Move(3), Move(3)]).unwrap();
        assert_eq!(t.comment(dd), "centre");
        // c is another third move; b another fourth move after c.
        assert_eq!(t.children(dd).len(), 2);
        let ddc = t.find(&[Move(3), Move(3), Move(2)]).unwrap();
        assert_eq!(t.children(ddc).iter().map(|&n| t.mv(n).unwrap()).collect::<Vec<_>>(), vec![Move(2), Move(1)]);
        assert_eq!(write(&t, &c4()), "{quiet} d d {centre} e (c c (b)) f");
    }

    #[test]
    fn bad_text_is_named() {
        let err = |s: &str| parse(&c4(), s).unwrap_err().to_string();
        assert!(err("(d)").contains("no move before"), "{}", err("(d)"));
        assert!(err("d )").contains("closes no variation"));
        assert!(err("d (c").contains("never closed"));
        assert!(err("d ()").contains("has no moves"));
        assert!(err("d {open").contains("comment"));
        // A stray closing brace is an error, not a loop for ever (a case the fuzzer found).
        assert!(
            err("d a ks nothing} d").contains("'}' at character 14 closes no comment"),
            "{}",
            err("d a ks nothing} d")
        );
        assert!(err("d z").contains("'z' at character 2"), "{}", err("d z"));
        // Seven in one column: the seventh does not fit.
        assert!(err("a a a a a a a").contains("character 12"), "{}", err("a a a a a a a"));
        // After a win no move is legal.
        assert!(err("a b a b a b a b").contains("'b' at character 14"), "{}", err("a b a b a b a b"));
    }

    #[test]
    fn comments_keep_braces_and_backslashes() {
        let mut t = GameTree::from_moves(&[Move(3)]);
        t.set_comment(t.current(), "a } and a \\ here");
        let text = write(&t, &c4());
        let back = parse(&c4(), &text).unwrap();
        assert_eq!(back.comment(back.find(&[Move(3)]).unwrap()), "a } and a \\ here");
    }

    #[test]
    fn move_numbers_are_skipped_and_long_games_need_no_recursion() {
        let t = parse(&c4(), "1. d 2. d 3... e").unwrap();
        assert_eq!(t.main_line(), vec![Move(3), Move(3), Move(4)]);
        // 200 moves on 15x15 (nine in a row to win, so no early end): 200 nodes deep.
        let gomoku = AnyPosition::new("mnk:15,15,9".parse().unwrap());
        let mut p = gomoku.clone();
        let mut text = String::new();
        let mut t = GameTree::new();
        while p.ply() < 200 && !p.status().is_over() {
            let legal = p.legal_moves();
            let m = legal[(p.ply() * 7919) % legal.len()];
            text.push_str(&p.format_move(m));
            text.push(' ');
            t.play(m);
            p.try_play(m).unwrap();
        }
        assert!(t.main_line().len() > 100);
        let back = parse(&gomoku, &text).unwrap();
        assert_eq!(back.main_line(), t.main_line());
        assert_eq!(parse(&gomoku, &write(&back, &gomoku)).unwrap().main_line(), t.main_line());
    }
}
