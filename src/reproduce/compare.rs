//! Comparing a regenerated file with the committed one: CSV tables row by row and number by
//! number (keyed by their identifying columns, so the order games finished in does not
//! matter), RON conditions without the builds that made them, anything else byte for byte.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use super::ReproduceError;

/// Columns that differ from run to run by nature (time measured, the build that ran) and so
/// are never compared.
pub const VOLATILE_COLUMNS: [&str; 5] = ["time_s", "cpu_s", "commit", "mean_ms_first", "mean_ms_second"];

/// How many differences of one file are named before the rest are only counted.
const SHOWN: usize = 12;

/// One file's differences, in words.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileDiff {
    /// Up to [`SHOWN`] lines, each naming the row, the column and both values.
    pub lines: Vec<String>,
    /// Every difference, shown or not.
    pub count: usize,
}

impl FileDiff {
    fn push(&mut self, line: String) {
        if self.lines.len() < SHOWN {
            self.lines.push(line);
        }
        self.count += 1;
    }

    pub fn is_same(&self) -> bool {
        self.count == 0
    }
}

/// Reads a file, unpacking it when its name ends in `.gz`.
pub fn read_maybe_gz(path: &Path) -> Result<Vec<u8>, ReproduceError> {
    let raw = std::fs::read(path).map_err(|source| ReproduceError::Read { path: path.into(), source })?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .map_err(|source| ReproduceError::Read { path: path.into(), source })?;
        Ok(out)
    } else {
        Ok(raw)
    }
}

/// The differences between two versions of the file `name` (its kind told by its name).
pub fn compare_bytes(name: &str, committed: &[u8], now: &[u8]) -> FileDiff {
    let plain = name.strip_suffix(".gz").unwrap_or(name);
    if plain.ends_with(".csv") {
        compare_csv(committed, now)
    } else if plain.ends_with("entrants.ron") {
        let strip = |b: &[u8]| without_commits(&String::from_utf8_lossy(b));
        compare_text(&strip(committed), &strip(now))
    } else {
        compare_text(&String::from_utf8_lossy(committed), &String::from_utf8_lossy(now))
    }
}

/// The run conditions' text without the list of builds (it names the commit, which changes
/// with every commit while the games stay the same).
fn without_commits(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("commits:") {
            skipping = !t.ends_with("],");
            continue;
        }
        if skipping {
            skipping = !t.starts_with("],");
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Lines differ by a longest-common-subsequence diff, so one inserted line is one difference
/// (not every line after it). Texts past a few thousand lines are compared line by line.
fn compare_text(committed: &str, now: &str) -> FileDiff {
    let mut d = FileDiff::default();
    let (a, b): (Vec<&str>, Vec<&str>) = (committed.lines().collect(), now.lines().collect());
    // Too large for the table of common subsequences: line by line.
    if a.len().saturating_mul(b.len()) > 25_000_000 {
        for i in 0..a.len().max(b.len()) {
            let (x, y) = (a.get(i).copied(), b.get(i).copied());
            if x != y {
                if let Some(x) = x {
                    push_line(&mut d, i + 1, "committed", x);
                }
                if let Some(y) = y {
                    push_line(&mut d, i + 1, "now", y);
                }
            }
        }
        return d;
    }
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            (i, j) = (i + 1, j + 1);
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            push_line(&mut d, j + 1, "now", b[j]);
            j += 1;
        } else {
            push_line(&mut d, i + 1, "committed", a[i]);
            i += 1;
        }
    }
    d
}

/// One differing line, in the same words whichever way it was found.
fn push_line(d: &mut FileDiff, number: usize, side: &str, text: &str) {
    d.push(format!("line {number} {side}: `{text}`"));
}

/// A CSV table: its header and rows keyed by their identifying columns.
struct Table {
    header: Vec<String>,
    rows: BTreeMap<Vec<String>, Vec<String>>,
    /// Rows whose key appeared before.
    repeated: usize,
}

/// The columns that name a row, by the table's shape: a game (`index`), a move (`index`,
/// `ply`), a run summary (the columns before `games`), node counts (before `nodes`), and the
/// figure CSVs of `plot` (a line's series and x; a box's group; a bar's category and part; a
/// bin's edges; a heatmap cell's labels, before its value and `games`), and the accuracy
/// study's tables.
fn key_columns(header: &[String]) -> Vec<usize> {
    let at = |name: &str| header.iter().position(|h| h == name);
    let before = |end: usize| (0..end.max(1)).collect();
    match (at("index"), at("ply")) {
        (Some(i), Some(p)) => return vec![i, p],
        (Some(i), None) => return vec![i],
        _ => {}
    }
    let second = header.get(1).map(String::as_str);
    // The accuracy study: a rate's board, agent, budget and group; a crossover's board, axis
    // and pair of agents; a panel figure's panel, line and x.
    if let (Some(p), Some(_)) = (at("positions"), at("rate")) {
        return before(p);
    }
    if let Some(c) = at("crossing") {
        return before(c);
    }
    // A ladder's ratings: an agent's board, name and budget.
    if let (Some(g), Some(_)) = (at("games"), at("elo")) {
        return before(g);
    }
    if header.first().is_some_and(|h| h == "panel") && second == Some("series") {
        return vec![0, 1, 2];
    }
    if header.first().is_some_and(|h| h == "series") || second == Some("part") || at("bin_low") == Some(0) {
        vec![0, 1]
    } else if second == Some("n") {
        vec![0]
    } else if let Some(p) = at("pairs") {
        before(p)
    } else if let (Some(_), Some(_), Some(g)) = (at("first"), at("second"), at("games")) {
        before(g)
    } else if let Some(n) = at("nodes") {
        before(n)
    } else if let Some(g) = at("games") {
        before(g.saturating_sub(1))
    } else {
        vec![0]
    }
}

fn read_table(bytes: &[u8]) -> Result<Table, csv::Error> {
    let mut r = csv::ReaderBuilder::new().has_headers(true).from_reader(bytes);
    let header: Vec<String> = r.headers()?.iter().map(str::to_string).collect();
    let keys = key_columns(&header);
    let mut rows = BTreeMap::new();
    let mut repeated = 0;
    for rec in r.records() {
        let rec = rec?;
        let row: Vec<String> = rec.iter().map(str::to_string).collect();
        let key: Vec<String> = keys.iter().map(|&k| row.get(k).cloned().unwrap_or_default()).collect();
        // Numeric keys sort as numbers: game 10 after game 9.
        let key = key.into_iter().map(|k| k.parse::<u64>().map_or(k.clone(), |n| format!("{n:020}"))).collect();
        if rows.insert(key, row).is_some() {
            repeated += 1;
        }
    }
    Ok(Table { header, rows, repeated })
}

fn compare_csv(committed: &[u8], now: &[u8]) -> FileDiff {
    let mut d = FileDiff::default();
    let (a, b) = match (read_table(committed), read_table(now)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => {
            d.push(format!("the committed file is not CSV: {e}"));
            return d;
        }
        (_, Err(e)) => {
            d.push(format!("the new file is not CSV: {e}"));
            return d;
        }
    };
    if a.header != b.header {
        d.push(format!("columns: committed {}, now {}", a.header.join(","), b.header.join(",")));
        return d;
    }
    if a.repeated + b.repeated > 0 {
        d.push(format!("rows named twice: {} committed, {} now", a.repeated, b.repeated));
    }
    let keys = key_columns(&a.header);
    let name_of = |key: &[String]| {
        let shown = |v: &String| v.parse::<u64>().map_or(v.clone(), |n| n.to_string());
        keys.iter().zip(key).map(|(&k, v)| format!("{} {}", a.header[k], shown(v))).collect::<Vec<_>>().join(", ")
    };
    for (key, row) in &a.rows {
        match b.rows.get(key) {
            None => d.push(format!("row ({}): committed, missing now", name_of(key))),
            Some(new) => {
                for (c, column) in a.header.iter().enumerate() {
                    if VOLATILE_COLUMNS.contains(&column.as_str()) {
                        continue;
                    }
                    let (x, y) = (row.get(c).map_or("", String::as_str), new.get(c).map_or("", String::as_str));
                    if x != y {
                        d.push(format!("row ({}) column {column}: committed {x}, now {y}", name_of(key)));
                    }
                }
            }
        }
    }
    for key in b.rows.keys().filter(|k| !a.rows.contains_key(*k)) {
        d.push(format!("row ({}): new, not committed", name_of(key)));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str =
        "index,variant,outcome,moves,commit\n0,tictactoe,Draw,b2 a1,abc\n1,tictactoe,FirstWins,a1 b1,abc\n";

    #[test]
    fn the_same_games_in_another_order_and_build_are_the_same() {
        let now = "index,variant,outcome,moves,commit\n1,tictactoe,FirstWins,a1 b1,def\n0,tictactoe,Draw,b2 a1,def\n";
        assert!(compare_bytes("games.csv", GAMES.as_bytes(), now.as_bytes()).is_same());
    }

    #[test]
    fn a_changed_outcome_names_the_game_the_column_and_both_values() {
        let now = "index,variant,outcome,moves,commit\n0,tictactoe,Draw,b2 a1,abc\n1,tictactoe,SecondWins,a1 b1,abc\n";
        let d = compare_bytes("games.csv", GAMES.as_bytes(), now.as_bytes());
        assert_eq!(d.count, 1);
        assert_eq!(d.lines[0], "row (index 1) column outcome: committed FirstWins, now SecondWins");
    }

    #[test]
    fn missing_and_new_rows_and_changed_columns_are_differences() {
        let now = "index,variant,outcome,moves,commit\n0,tictactoe,Draw,b2 a1,abc\n2,tictactoe,Draw,c3,abc\n";
        let d = compare_bytes("games.csv", GAMES.as_bytes(), now.as_bytes());
        assert_eq!(d.count, 2, "{:?}", d.lines);
        assert!(d.lines[0].contains("index 1") && d.lines[0].contains("missing now"));
        assert!(d.lines[1].contains("index 2") && d.lines[1].contains("new, not committed"));
        let other = "index,variant,result\n0,tictactoe,Draw\n";
        assert!(compare_bytes("games.csv", GAMES.as_bytes(), other.as_bytes()).lines[0].starts_with("columns:"));
    }

    #[test]
    fn moves_are_keyed_by_game_and_ply_and_times_are_not_compared() {
        let a = "index,ply,move,nodes,time_s\n0,1,b2,500,0.1\n0,2,a1,501,0.2\n10,1,c3,7,0.1\n";
        let b = "index,ply,move,nodes,time_s\n10,1,c3,7,0.3\n0,2,a1,502,0.9\n0,1,b2,500,0.5\n";
        let d = compare_bytes("moves.csv", a.as_bytes(), b.as_bytes());
        assert_eq!(d.lines, vec!["row (index 0, ply 2) column nodes: committed 501, now 502".to_string()]);
    }

    #[test]
    fn figure_rows_are_keyed_by_their_labels() {
        let a = "board,K,score of alam-ab,games\n3x3,3,0.5625,200\n4x4,4,0.5,200\n";
        let b = "board,K,score of alam-ab,games\n4x4,4,0.5,200\n3x3,3,0.57,200\n";
        let d = compare_bytes("fig.csv", a.as_bytes(), b.as_bytes());
        assert_eq!(
            d.lines,
            vec!["row (board 3x3, K 3) column score of alam-ab: committed 0.5625, now 0.57".to_string()]
        );
    }

    /// The accuracy study's tables: a rate is named by its board, agent, budget and group
    /// (boards alone repeat), a crossover by its board, axis and pair.
    #[test]
    fn accuracy_rows_are_keyed_by_board_agent_budget_and_group() {
        let head = "board,agent,budget_kind,budget,group,positions,mistakes,rate,lo,hi\n";
        let a = format!(
            "{head}b,ab,nodes,64,all,100,10,0.1,0.05,0.15\nb,ab,nodes,64,quiet,80,10,0.125,0.06,0.19\nb,ab,nodes,128,all,100,8,0.08,0.04,0.12\n"
        );
        let b = a.replace("128,all,100,8,0.08", "128,all,100,9,0.09");
        let d = compare_bytes("accuracy.csv", a.as_bytes(), b.as_bytes());
        assert_eq!(d.count, 2, "{:?}", d.lines);
        assert!(
            d.lines[0].starts_with("row (board b, agent ab, budget_kind nodes, budget 128, group all) column mistakes"),
            "{:?}",
            d.lines
        );
        let c =
            "board,budget_kind,a,b,crossing,lo,hi,better_at_smallest\nb,nodes,x,y,70,60,80,x\nb,cpu_seconds,x,y,,,,x\n";
        assert!(compare_bytes("crossovers.csv", c.as_bytes(), c.as_bytes()).is_same());
        let moved = c.replace(",70,", ",71,");
        let d = compare_bytes("crossovers.csv", c.as_bytes(), moved.as_bytes());
        assert_eq!(
            d.lines,
            vec!["row (board b, budget_kind nodes, a x, b y) column crossing: committed 70, now 71".to_string()]
        );
    }

    /// A ladder's ratings are named by board, agent and budget (agents repeat a budget each).
    #[test]
    fn elo_rows_are_keyed_by_board_agent_and_budget() {
        let a = "board,agent,budget_kind,budget,games,points,elo,lo,hi\nb,ab,nodes,64,10,5,0.0,-9.0,9.0\nb,ab,nodes,128,10,6,70.4,1.0,140.0\n";
        let b = a.replace("70.4", "71.0");
        let d = compare_bytes("elo.csv", a.as_bytes(), b.as_bytes());
        assert_eq!(
            d.lines,
            vec![
                "row (board b, agent ab, budget_kind nodes, budget 128) column elo: committed 70.4, now 71.0"
                    .to_string()
            ]
        );
    }

    #[test]
    fn run_conditions_differ_only_in_what_was_played() {
        let a = "(\n    version: 1,\n    scale: 1.0,\n    commits: [\n        \"abc\",\n    ],\n    entrants: [],\n)\n";
        let b = a.replace("abc", "def");
        assert!(compare_bytes("entrants.ron", a.as_bytes(), b.as_bytes()).is_same());
        let c = b.replace("scale: 1.0", "scale: 0.5");
        // The line removed and the line added.
        assert_eq!(compare_bytes("entrants.ron", a.as_bytes(), c.as_bytes()).count, 2);
    }

    #[test]
    fn an_inserted_line_is_one_difference() {
        let a = "one\ntwo\nthree\n";
        let b = "one\nnew\ntwo\nthree\n";
        let d = compare_bytes("RESULTS.md", a.as_bytes(), b.as_bytes());
        assert_eq!(d.lines, vec!["line 2 now: `new`".to_string()]);
        let c = "one\nTWO\nthree\n";
        let d = compare_bytes("RESULTS.md", a.as_bytes(), c.as_bytes());
        assert_eq!(d.count, 2, "{:?}", d.lines);
    }

    #[test]
    fn gzip_files_are_read_unpacked() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv.gz");
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(GAMES.as_bytes()).unwrap();
        std::fs::write(&path, e.finish().unwrap()).unwrap();
        assert_eq!(read_maybe_gz(&path).unwrap(), GAMES.as_bytes());
    }
}
