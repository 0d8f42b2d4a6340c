//! mnklab as a Gomocup brain: `START`, `RECTSTART`, `RESTART`, `BEGIN`, `TURN`, `BOARD` ...
//! `DONE`, `INFO`, `END` and `ABOUT`. Every malformed command is answered with `ERROR` and a
//! reason; nothing a manager sends can make the brain panic.

use std::io::{BufRead, Write};
use std::time::Instant;

use crate::agents::{AgentConfig, AgentFile, build_agent};
use crate::game::{AnyPosition, GridRules, Move, Player, Setup, Variant, cell_name};
use crate::search::{NullSink, SearchControl, SearchLimits};
use crate::with_position;

/// Time kept in reserve for the manager's clock and our answer.
const SAFETY_MS: u64 = 60;
/// The longest line read: far beyond any command (a BOARD line is a dozen bytes). Longer
/// lines are skipped, not held in memory.
pub const MAX_LINE: usize = 64 * 1024;
/// How much of a bad command is quoted back in an ERROR.
const QUOTE: usize = 40;

/// At most [`QUOTE`] characters of `s`, for an ERROR that names what it did not understand.
fn quote(s: &str) -> String {
    match s.char_indices().nth(QUOTE) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

pub struct Brain {
    agent: AgentFile,
    k: u8,
    exact: bool,
    position: Option<AnyPosition>,
    /// Stones read by BOARD: (x, y from the bottom, own).
    board_lines: Option<Vec<(usize, usize, bool)>>,
    /// A BOARD block had a bad line: it was answered with one ERROR, and the rest of the
    /// block up to DONE is skipped without more.
    board_failed: bool,
    timeout_turn: Option<u64>,
    time_left: Option<u64>,
    max_memory: Option<u64>,
    seed: u64,
}

fn parse_xy(s: &str) -> Option<(usize, usize)> {
    let mut it = s.split(',').map(|p| p.trim().parse::<usize>());
    match (it.next(), it.next(), it.next()) {
        (Some(Ok(x)), Some(Ok(y)), None) => Some((x, y)),
        _ => None,
    }
}

impl Brain {
    pub fn new(agent: AgentFile, k: u8, exact: bool) -> Brain {
        let seed = agent.seed;
        Brain {
            agent,
            k,
            exact,
            position: None,
            board_lines: None,
            board_failed: false,
            timeout_turn: None,
            time_left: None,
            max_memory: None,
            seed,
        }
    }

    fn start(&mut self, w: usize, h: usize) -> String {
        // Checked before narrowing: 4294967311 as a u32 is 15 (it played 15x15 and said OK).
        let max = crate::game::MAX_SIDE;
        if w > max || h > max {
            return format!("ERROR a {w}x{h} board is larger than mnklab plays (sides up to {max})");
        }
        match GridRules::new(w as u32, h as u32, self.k as u32, self.exact, false) {
            Ok(r) => {
                self.position = Some(AnyPosition::new(Variant::Grid(r)));
                "OK".into()
            }
            Err(e) => format!("ERROR {e}"),
        }
    }

    fn dims(&self) -> Option<(usize, usize)> {
        let r = self.position.as_ref()?.variant().grid()?;
        Some((r.width() as usize, r.height() as usize))
    }

    /// Manager coordinates (y from the top) to ours (y from the bottom).
    fn to_ours(&self, x: usize, y: usize) -> Option<(usize, usize)> {
        let (w, h) = self.dims()?;
        (x < w && y < h).then(|| (x, h - 1 - y))
    }

    /// Our move (a free-placement cell id) in manager coordinates.
    fn answer_move(&self, m: Move) -> String {
        let (_, h) = self.dims().expect("a game is on");
        let (x, y) = (m.index() / h, m.index() % h);
        format!("{},{}", x, h - 1 - y)
    }

    /// The search's time for this move: the turn limit, and a share of the match time left,
    /// less a safety margin.
    fn limits(&self) -> SearchLimits {
        let mut ms = self.timeout_turn.unwrap_or(5_000);
        if let Some(left) = self.time_left {
            ms = ms.min(left / 12);
        }
        let ms = ms.saturating_sub(SAFETY_MS).max(10);
        let mut limits = self.agent.limits;
        let time = ms as f64 / 1000.0;
        limits.time = Some(limits.time.map_or(time, |t| t.min(time)));
        limits
    }

    /// The agent, with its tables and trees kept within the manager's memory limit.
    fn agent_config(&self) -> AgentConfig {
        let mut c = self.agent.agent.clone();
        if let Some(bytes) = self.max_memory.filter(|&b| b > 0) {
            let mb = ((bytes / 3) >> 20).max(1) as u32;
            for one in c.each_mut() {
                match one {
                    AgentConfig::AlphaBeta(a) => a.tt_mb = a.tt_mb.min(mb),
                    AgentConfig::Mcts(m) => m.memory_mb = m.memory_mb.min(mb),
                    AgentConfig::Solver(s) => {
                        s.tt_mb = s.tt_mb.min(mb);
                        s.fallback.tt_mb = s.fallback.tt_mb.min(mb);
                    }
                    AgentConfig::Random | AgentConfig::External(_) | AgentConfig::PerFamily(_) => {}
                }
            }
        }
        c
    }

    /// Searches and plays the brain's move; answers "x,y".
    fn think(&mut self) -> String {
        let Some(pos) = self.position.as_ref() else { return "ERROR no game: send START first".into() };
        if pos.status().is_over() {
            return "ERROR the game is over".into();
        }
        let started = Instant::now();
        let limits = self.limits();
        let config = self.agent_config();
        self.seed = self.seed.wrapping_add(1);
        let seed = self.seed;
        let r = with_position!(pos, p => build_agent(&config, seed).search(p, &limits, &SearchControl::new(), &mut NullSink));
        let Some(m) = r.best else { return "ERROR no move found".into() };
        if let Some(left) = self.time_left.as_mut() {
            *left = left.saturating_sub(started.elapsed().as_millis() as u64);
        }
        let answer = self.answer_move(m);
        let _ = self.position.as_mut().unwrap().try_play(m);
        answer
    }

    fn finish_board(&mut self) -> String {
        let lines = self.board_lines.take().unwrap_or_default();
        let Some(pos) = self.position.as_ref() else { return "ERROR no game: send START first".into() };
        let variant = pos.variant();
        let own = lines.iter().filter(|l| l.2).count();
        let theirs = lines.len() - own;
        // The brain is to move: it moved first if the counts are equal.
        let own_first = if own == theirs {
            true
        } else if theirs == own + 1 {
            false
        } else {
            return format!(
                "ERROR impossible stone counts: {own} of ours and {theirs} of the opponent's with us to move"
            );
        };
        let cells =
            |want_own: bool| lines.iter().filter(|l| l.2 == want_own).map(|l| cell_name(l.0, l.1)).collect::<Vec<_>>();
        let setup = Setup {
            first: cells(own_first),
            second: cells(!own_first),
            to_move: Some(if own_first { Player::First } else { Player::Second }),
            ..Setup::default()
        };
        match AnyPosition::from_setup(variant, &setup) {
            Ok(p) => {
                self.position = Some(p);
                self.think()
            }
            Err(e) => format!("ERROR {e}"),
        }
    }

    /// Handles one line; returns the answer lines (possibly none) and whether to stop.
    pub fn handle(&mut self, line: &str) -> (Vec<String>, bool) {
        let line = line.trim();
        if line.is_empty() {
            return (vec![], false);
        }
        if line.eq_ignore_ascii_case("END") {
            return (vec![], true);
        }
        if self.board_failed {
            self.board_failed = !line.eq_ignore_ascii_case("DONE");
            return (vec![], false);
        }
        if self.board_lines.is_some() {
            return (self.board_line(line), false);
        }
        let (cmd, rest) = line.split_once(' ').map_or((line, ""), |(c, r)| (c, r.trim()));
        let answer = match cmd.to_ascii_uppercase().as_str() {
            "START" => match rest.parse::<usize>() {
                Ok(n) => self.start(n, n),
                Err(_) => format!("ERROR START needs a board size, not '{}'", quote(rest)),
            },
            "RECTSTART" => match parse_xy(rest) {
                Some((w, h)) => self.start(w, h),
                None => format!("ERROR RECTSTART needs width,height, not '{}'", quote(rest)),
            },
            "RESTART" => match self.dims() {
                Some((w, h)) => self.start(w, h),
                None => "ERROR no game to restart: send START first".into(),
            },
            "BEGIN" => self.think(),
            "TURN" => self.turn(rest),
            "BOARD" => {
                if self.position.is_none() {
                    // The block's lines belong to this command: skip them up to DONE, so the
                    // manager gets one ERROR for the command, not one per line.
                    self.board_failed = true;
                    "ERROR no game: send START first".into()
                } else {
                    self.board_lines = Some(Vec::new());
                    return (vec![], false);
                }
            }
            "INFO" => return (self.info(rest).into_iter().collect(), false),
            "ABOUT" => format!(
                "name=\"mnklab {}\", version=\"{}\", author=\"mnklab developers\", country=\"n/a\", www=\"https://crates.io/crates/mnklab\"",
                self.agent.name,
                env!("CARGO_PKG_VERSION")
            ),
            "END" => return (vec![], true),
            other => format!("ERROR unknown command '{}'", quote(other)),
        };
        (vec![answer], false)
    }

    /// One line of a BOARD block: a stone, or DONE (the answer: the brain's move). A bad
    /// line ends the block with one error, and the rest of it up to DONE is skipped.
    fn board_line(&mut self, line: &str) -> Vec<String> {
        if line.eq_ignore_ascii_case("DONE") {
            return vec![self.finish_board()];
        }
        let parts: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = match parts.as_slice() {
            [x, y, f] => match (x.parse::<usize>(), y.parse::<usize>(), f.parse::<u8>()) {
                // 3 marks a stone of a continuous game's winning line, which is not played here.
                (Ok(x), Ok(y), Ok(f @ 1..=2)) => Some((x, y, f)),
                _ => None,
            },
            _ => None,
        };
        let fail = |brain: &mut Brain, message: String| {
            brain.board_lines = None;
            brain.board_failed = true;
            vec![message]
        };
        let Some((x, y, field)) = parsed else {
            let message = format!("ERROR bad BOARD line '{}': expected x,y,field with field 1 or 2", quote(line));
            return fail(self, message);
        };
        let Some((w, h)) = self.dims() else {
            return fail(self, "ERROR no game: send START first".into());
        };
        if x >= w || y >= h {
            return fail(self, format!("ERROR BOARD line '{line}' is off the {w}x{h} board"));
        }
        if let Some(lines) = self.board_lines.as_mut() {
            lines.push((x, h - 1 - y, field == 1));
        }
        vec![]
    }

    /// TURN x,y: the opponent's move, then the brain's answer.
    fn turn(&mut self, rest: &str) -> String {
        let Some((x, y)) = parse_xy(rest) else {
            return format!("ERROR TURN needs x,y, not '{}'", quote(rest));
        };
        match self.to_ours(x, y) {
            None if self.position.is_none() => "ERROR no game: send START first".into(),
            None => format!("ERROR move {x},{y} is off the board"),
            Some((ox, oy)) => {
                let pos = self.position.as_mut().unwrap();
                match pos.move_to(ox, oy) {
                    None => format!("ERROR move {x},{y} is not legal here"),
                    Some(m) => {
                        let _ = pos.try_play(m);
                        if pos.status().is_over() { "ERROR the game is over".into() } else { self.think() }
                    }
                }
            }
        }
    }

    /// INFO key value: the manager's settings; an error line for a value refused.
    fn info(&mut self, rest: &str) -> Option<String> {
        let (key, value) = rest.split_once(' ').map_or((rest, ""), |(k, v)| (k, v.trim()));
        let number = value.parse::<i64>().ok();
        let key = key.to_ascii_lowercase();
        // Times and sizes are counts: a negative one is a manager's error to report,
        // not a default to fall back on silently.
        if let ("timeout_turn" | "timeout_match" | "time_left" | "max_memory", Some(v)) = (key.as_str(), number)
            && v < 0
        {
            return Some(format!("ERROR INFO {key} must be 0 or more, not {v}"));
        }
        match (key.as_str(), number) {
            // At most MAX_SECONDS: a larger number would overflow the search's deadline.
            // 0 asks for a move as fast as possible (the shortest search there is).
            ("timeout_turn", Some(v)) => {
                self.timeout_turn = Some((v as u64).min(crate::search::MAX_SECONDS as u64 * 1000))
            }
            ("timeout_match", Some(_)) => {}
            ("time_left", Some(v)) => self.time_left = Some(v.max(0) as u64),
            ("max_memory", Some(v)) => self.max_memory = (v > 0).then_some(v as u64),
            ("rule", Some(v)) => {
                if v & 4 != 0 {
                    return Some("ERROR renju rules are not supported".into());
                }
                if v & 8 != 0 {
                    return Some("ERROR caro rules are not supported".into());
                }
                self.exact = v & 1 != 0;
                if let Some(p) = &self.position
                    && let Some(r) = p.variant().grid()
                    && r.exact() != self.exact
                    && p.ply() == 0
                {
                    let _ = self.start(r.width() as usize, r.height() as usize);
                }
            }
            ("game_type" | "evaluate" | "folder", _) => {}
            (_, None) if !value.is_empty() && key != "evaluate" && key != "folder" => {
                return Some(format!("ERROR INFO {} needs a whole number, not '{}'", quote(&key), quote(value)));
            }
            _ => {}
        }
        None
    }
}

/// Runs the protocol until END or the end of input.
pub fn run_brain<R: BufRead, W: Write>(mut input: R, mut output: W, brain: &mut Brain) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    loop {
        let (read, whole) = read_line_bounded(&mut input, &mut bytes, MAX_LINE)?;
        if read == 0 {
            break;
        }
        if !whole {
            writeln!(output, "ERROR the line is longer than {MAX_LINE} bytes: skipped")?;
            output.flush()?;
            continue;
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            // Not UTF-8: answer, keep going.
            writeln!(output, "ERROR the line is not UTF-8 text")?;
            output.flush()?;
            continue;
        };
        let (answers, stop) = brain.handle(line);
        for a in answers {
            writeln!(output, "{a}")?;
        }
        output.flush()?;
        if stop {
            break;
        }
    }
    Ok(())
}

/// Reads one line into `buf` (without its newline), keeping at most `max` bytes of it and
/// skipping the rest. Returns the bytes read from `input` (0 at the end) and whether the
/// line fitted.
fn read_line_bounded<R: BufRead>(input: &mut R, buf: &mut Vec<u8>, max: usize) -> std::io::Result<(usize, bool)> {
    buf.clear();
    let (mut read, mut fits) = (0, true);
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((read, fits));
        }
        let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if fits && buf.len() + take <= max {
            buf.extend_from_slice(&chunk[..take]);
        } else {
            fits = false;
            buf.clear();
        }
        let used = take + usize::from(end);
        input.consume(used);
        read += used;
        if end {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok((read, fits));
        }
    }
}
