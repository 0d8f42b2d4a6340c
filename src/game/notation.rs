//! Move notation: cells like `h8` (column letter from the left, row number from the bottom),
//! gravity moves as a column (`d` or `4`), connect3d moves as pole numbers 1..24.

use super::{GameError, Variant};

/// A move with its number in the game, as move lists write it: "5. d", "12. h8". A move
/// named by a number (connect3d's poles, numbered columns) follows a colon, "8: 14": after a
/// point, "8. 14" still read as a decimal.
pub fn numbered_move(ply: usize, name: &str) -> String {
    if name.starts_with(|c: char| c.is_ascii_digit()) { format!("{ply}: {name}") } else { format!("{ply}. {name}") }
}

/// `a`, `b`, ... for column 0, 1, ...
pub fn column_name(x: usize) -> String {
    char::from(b'a' + x as u8).to_string()
}

/// `h8` for (7, 7).
pub fn cell_name(x: usize, y: usize) -> String {
    if x < 26 { format!("{}{}", column_name(x), y + 1) } else { format!("({x},{y})") }
}

/// Parses `h8` into (x, y) on a `width` x `height` board.
pub fn parse_cell(token: &str, width: usize, height: usize) -> Result<(usize, usize), GameError> {
    let bad = |reason: String| GameError::BadMove { token: token.to_string(), reason };
    let (x, y) = parse_cell_unbounded(token).map_err(|r| bad(r.to_string()))?;
    if x >= width {
        let last = column_name(width - 1);
        return Err(bad(format!("column {} is off the board (columns a..{last})", column_name(x))));
    }
    if y >= height {
        return Err(bad(format!("row {} is off the board (rows 1..{height})", y as u128 + 1)));
    }
    Ok((x, y))
}

/// Parses `h8` into (7, 7) with no board in mind (rows saturate at `usize::MAX`).
pub(crate) fn parse_cell_unbounded(token: &str) -> Result<(usize, usize), &'static str> {
    let t = token.trim().to_ascii_lowercase();
    let mut chars = t.chars();
    let letter = chars.next().ok_or("empty move")?;
    if !letter.is_ascii_lowercase() {
        return Err("a cell starts with a column letter, like h8");
    }
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("a cell is a column letter then a row number, like h8");
    }
    let y = digits.parse::<usize>().unwrap_or(usize::MAX);
    if y == 0 {
        return Err("rows are numbered from 1");
    }
    Ok(((letter as u8 - b'a') as usize, y - 1))
}

/// Parses a column given alone: a letter (`d`) or a 1-based number (`4`).
pub fn parse_column(token: &str, width: usize) -> Option<usize> {
    let t = token.trim().to_ascii_lowercase();
    if t.len() == 1 && t.as_bytes()[0].is_ascii_lowercase() {
        let x = (t.as_bytes()[0] - b'a') as usize;
        return (x < width).then_some(x);
    }
    match t.parse::<usize>() {
        Ok(n) if (1..=width).contains(&n) => Some(n - 1),
        _ => None,
    }
}

/// How moves are named back to a user: in the game's notation, or, for gravity columns
/// typed as digits (`4453`, the Connect-4 benchmark style), as those digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColumnStyle {
    #[default]
    Notation,
    Digits,
}

impl ColumnStyle {
    /// The style `moves` were typed in: digits when every token is a number and the game has
    /// gravity (free-placement cells and connect3d's poles have one notation).
    pub fn of_typed(variant: &Variant, moves: &str) -> ColumnStyle {
        let gravity = matches!(variant, Variant::Grid(r) if r.gravity());
        let mut chunks = moves.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|c| !c.is_empty());
        let mut any = false;
        let digits = chunks.all(|c| {
            any = true;
            c.bytes().all(|b| b.is_ascii_digit())
        });
        if gravity && any && digits { ColumnStyle::Digits } else { ColumnStyle::Notation }
    }
}

/// Splits a move list into tokens. Separators are spaces, commas and semicolons. Within a
/// chunk, cells may run together (`h8i9`), gravity columns may run together as letters
/// (`dde`) or, on boards up to 9 columns, as digits in the Connect-4 benchmark style (`4453`).
pub fn split_move_tokens(variant: &Variant, moves: &str) -> Result<Vec<String>, GameError> {
    let mut out = Vec::new();
    for chunk in moves.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|c| !c.is_empty()) {
        let bad = |reason: &str| GameError::BadMove { token: chunk.to_string(), reason: reason.to_string() };
        if !chunk.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(bad("moves are cells like h8, columns like d or 4, or pole numbers"));
        }
        let all_digits = chunk.bytes().all(|b| b.is_ascii_digit());
        match variant {
            Variant::Connect3d => {
                if !all_digits {
                    return Err(bad("connect3d moves are pole numbers 1..24"));
                }
                out.push(chunk.to_string());
            }
            Variant::Grid(r) if all_digits => {
                if r.gravity() && r.width() <= 9 {
                    out.extend(chunk.chars().map(|c| c.to_string()));
                } else if r.gravity() {
                    out.push(chunk.to_string());
                } else {
                    return Err(bad("a cell is a column letter then a row number, like h8"));
                }
            }
            Variant::Grid(_) => {
                // Letter followed by optional digits, repeated.
                let bytes = chunk.as_bytes();
                let mut i = 0;
                while i < bytes.len() {
                    if !bytes[i].is_ascii_alphabetic() {
                        // A run of gravity columns that starts with digits: `4455c` read as
                        // letters said only "expected a column letter" of its first digit.
                        return Err(bad(match variant {
                            Variant::Grid(r) if r.gravity() && bytes[0].is_ascii_digit() => {
                                "it mixes column digits and letters: give columns as digits (4455) or as letters (dde), or separate them with spaces"
                            }
                            _ => "expected a column letter",
                        }));
                    }
                    let start = i;
                    i += 1;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    out.push(chunk[start..i].to_string());
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_moves_never_read_as_decimals() {
        assert_eq!(numbered_move(5, "9"), "5: 9");
        assert_eq!(numbered_move(8, "14"), "8: 14");
        assert_eq!(numbered_move(12, "h8"), "12. h8");
    }

    #[test]
    fn cells_parse_and_name() {
        assert_eq!(parse_cell("h8", 15, 15).unwrap(), (7, 7));
        assert_eq!(cell_name(7, 7), "h8");
        assert_eq!(parse_cell("A1", 3, 3).unwrap(), (0, 0));
        assert!(parse_cell("d1", 3, 3).is_err());
        assert!(parse_cell("a4", 3, 3).is_err());
        assert!(parse_cell("a0", 3, 3).is_err());
        assert!(parse_cell("a99999999999999999999999", 3, 3).is_err());
        assert!(parse_cell("", 3, 3).is_err());
        assert!(parse_cell("1a", 3, 3).is_err());
    }

    #[test]
    fn typed_digits_are_named_back_as_digits() {
        let c4 = Variant::connect4();
        assert_eq!(ColumnStyle::of_typed(&c4, "4453"), ColumnStyle::Digits);
        assert_eq!(ColumnStyle::of_typed(&c4, "4 4, 5"), ColumnStyle::Digits);
        assert_eq!(ColumnStyle::of_typed(&c4, "dde"), ColumnStyle::Notation);
        assert_eq!(ColumnStyle::of_typed(&c4, ""), ColumnStyle::Notation);
        assert_eq!(ColumnStyle::of_typed(&Variant::Connect3d, "5 9"), ColumnStyle::Notation);
        assert_eq!(ColumnStyle::of_typed(&Variant::tictactoe(), "b2"), ColumnStyle::Notation);
    }

    #[test]
    fn tokens_split() {
        let c4 = Variant::connect4();
        assert_eq!(split_move_tokens(&c4, "4453").unwrap(), ["4", "4", "5", "3"]);
        let mixed = split_move_tokens(&c4, "4455c").unwrap_err().to_string();
        assert!(mixed.contains("'4455c'") && mixed.contains("mixes column digits and letters"), "{mixed}");
        assert_eq!(split_move_tokens(&c4, "4455 c").unwrap(), ["4", "4", "5", "5", "c"]);
        assert_eq!(split_move_tokens(&c4, "d, d e").unwrap(), ["d", "d", "e"]);
        assert_eq!(split_move_tokens(&c4, "dde").unwrap(), ["d", "d", "e"]);
        let g = Variant::gomoku();
        assert_eq!(split_move_tokens(&g, "h8i9 j10").unwrap(), ["h8", "i9", "j10"]);
        assert!(split_move_tokens(&g, "h8 12").is_err());
        assert!(split_move_tokens(&g, "h8-i9").is_err());
        assert_eq!(split_move_tokens(&Variant::Connect3d, "1 24,7").unwrap(), ["1", "24", "7"]);
    }
}
