//! External engines as agents: a program speaking the Gomocup brain protocol, driven the way
//! a Piskvork-style manager drives it. It is started on first use, told the board, the turn
//! time and the memory limit, kept in step with `TURN` (or `BOARD` when the game jumped),
//! timed out (and killed) when it overruns the turn time plus a grace period, and restarted
//! for the next game when it crashed or hung.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use serde::{Deserialize, Serialize};

use crate::game::{Move, Position};
use crate::search::{Agent, ProgressSink, SearchControl, SearchLimits, SearchResult, SearchStats};

/// The protocol an external program speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Protocol {
    /// Piskvork's brain protocol (START/TURN/BOARD/INFO/ABOUT, x,y from the top left).
    Gomocup,
}

fn default_turn() -> f64 {
    5.0
}

fn default_grace() -> f64 {
    1.0
}

fn default_startup() -> f64 {
    10.0
}

/// An external engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalConfig {
    /// The program (a path, or a name found on PATH).
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Working directory (default: the current one).
    #[serde(default)]
    pub cwd: Option<String>,
    pub protocol: Protocol,
    /// Turn time in seconds when the limits give none (depth or iteration limits mean
    /// nothing to an external engine).
    #[serde(default = "default_turn")]
    pub default_turn: f64,
    /// Seconds allowed beyond the turn time before the move counts as a timeout.
    #[serde(default = "default_grace")]
    pub grace: f64,
    /// Seconds allowed for starting up and answering START.
    #[serde(default = "default_startup")]
    pub startup: f64,
    /// Memory limit sent as `INFO max_memory` (MiB; 0: none).
    #[serde(default)]
    pub max_memory_mb: u64,
    /// More settings of the engine's own, each sent as `INFO <key> <value>` after the
    /// protocol's (Rapfi's `max_node 1000` for a node limit, `thread_num 1`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub info: Vec<(String, String)>,
}

impl ExternalConfig {
    /// A Gomocup engine started as `command` with no arguments, every other field as a file
    /// that leaves it out reads.
    pub fn gomocup(command: &str) -> ExternalConfig {
        ExternalConfig {
            command: command.to_string(),
            args: Vec::new(),
            cwd: None,
            protocol: Protocol::Gomocup,
            default_turn: default_turn(),
            grace: default_grace(),
            startup: default_startup(),
            max_memory_mb: 0,
            info: Vec::new(),
        }
    }

    /// The exact command line that would be started, quoted as a shell would need it, with
    /// the working directory when one is set: what a user is asked to consent to.
    pub fn command_line(&self) -> String {
        let quote = |s: &str| {
            if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c)) {
                s.to_string()
            } else {
                format!("'{}'", s.replace('\'', "'\\''"))
            }
        };
        let mut line = std::iter::once(self.command.as_str())
            .chain(self.args.iter().map(String::as_str))
            .map(quote)
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(dir) = &self.cwd {
            line = format!("{line}  (in {})", quote(dir));
        }
        line
    }

    pub fn validate(&self) -> Result<(), crate::search::SettingError> {
        if self.command.trim().is_empty() {
            return Err(crate::search::SettingError::EmptyCommand);
        }
        for (name, v) in [("default_turn", self.default_turn), ("grace", self.grace), ("startup", self.startup)] {
            crate::search::check_seconds(name, v)?;
        }
        // One line each: a key of one word, a value without line breaks.
        for (key, value) in &self.info {
            let word = |s: &str| !s.is_empty() && !s.chars().any(|c| c.is_whitespace() || c.is_control());
            if !word(key) || value.chars().any(char::is_control) {
                let rule = "each entry must be a key of one word and a value on one line";
                return Err(crate::search::SettingError::Range { field: "external: info", rule, value: None });
            }
        }
        Ok(())
    }
}

/// A running engine process.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Board size it was started for.
    size: (u32, u32),
    /// Moves the engine knows (the game so far as it saw it).
    known: Vec<Move>,
    turn_ms: Option<u64>,
    /// When the engine's last move came: the next position is sent no sooner than
    /// [`SETTLE`] after it.
    moved: Option<Instant>,
}

/// The least time between an engine's move and the next position sent to it. A brain may
/// print its move a moment before it is ready to read again (Rapfi drops a TURN that comes
/// in between, and then reads its coordinates as an unknown command); an opponent that
/// answers at once (a forced move) would otherwise hit that moment.
const SETTLE: Duration = Duration::from_millis(10);

/// Why an external engine gave no move (a game's forfeit reason, as it is recorded) or could
/// not be started.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the Gomocup protocol plays free-placement boards, not {0}")]
    NotFreePlacement(crate::game::Variant),
    #[error("cannot start '{command}': {source}")]
    Start { command: String, source: std::io::Error },
    #[error("no {0}")]
    NoPipe(&'static str),
    #[error("the engine's input closed: {0}")]
    InputClosed(std::io::Error),
    /// No answer line before the deadline.
    #[error("timeout")]
    Timeout,
    /// A move's answer did not come in its turn time and grace.
    #[error("timeout: no move within {turn_ms} ms + {grace} s")]
    NoMoveInTime { turn_ms: u64, grace: f64 },
    #[error("crashed ({0})")]
    Crashed(std::process::ExitStatus),
    #[error("closed its output")]
    ClosedOutput,
    #[error("no answer to {command}: {cause}")]
    NoAnswer { command: String, cause: Box<EngineError> },
    #[error("the engine refused {command}: {answer}")]
    Refused { command: String, answer: String },
    #[error("not a move: '{0}'")]
    NotAMove(String),
    #[error("illegal move {x},{y}: off the {width}x{height} board")]
    OffBoard { x: usize, y: usize, width: u8, height: u8 },
    #[error("illegal move {x},{y}: the cell is taken")]
    Taken { x: usize, y: usize },
}

impl Engine {
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(EngineError::InputClosed)
    }

    /// The next answer line before `deadline`, skipping MESSAGE and DEBUG lines.
    fn answer(&mut self, deadline: Instant) -> Result<String, EngineError> {
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    let t = line.trim();
                    let word = t.split_whitespace().next().unwrap_or("");
                    if t.is_empty() || matches!(word, "MESSAGE" | "DEBUG" | "SUGGEST") {
                        continue;
                    }
                    return Ok(t.to_string());
                }
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout),
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.try_wait().ok().flatten();
                    return Err(status.map_or(EngineError::ClosedOutput, EngineError::Crashed));
                }
            }
        }
    }

    /// Waits out [`SETTLE`] after the engine's last move, and drops the lines that came while
    /// it was not its turn (they answer nothing asked now): before anything is sent to it.
    fn settle(&mut self) {
        if let Some(moved) = self.moved {
            std::thread::sleep(SETTLE.saturating_sub(moved.elapsed()));
        }
        while self.lines.try_recv().is_ok() {}
    }

    fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("END");
        // A polite brain exits at END; give it a moment, then make sure.
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if !self.alive() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the engine for `variant`'s board and ends it again: run before a matchup's first
/// game, so that a program that does not exist, or does not answer START, is an error naming
/// it rather than a forfeit of every game. (What it does after START is the games' business.)
pub fn check_starts(config: &ExternalConfig, variant: crate::game::Variant) -> Result<(), EngineError> {
    let rules = variant.grid().filter(|r| !r.gravity()).ok_or(EngineError::NotFreePlacement(variant))?;
    start_engine(config, (rules.width() as u32, rules.height() as u32)).map(drop)
}

/// Starts the program and has it answer START (or RECTSTART) for a board of `size`.
fn start_engine(c: &ExternalConfig, size: (u32, u32)) -> Result<Engine, EngineError> {
    let mut cmd = Command::new(&c.command);
    cmd.args(&c.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
    if let Some(dir) = &c.cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().map_err(|source| EngineError::Start { command: c.command.clone(), source })?;
    let stdin = child.stdin.take().ok_or(EngineError::NoPipe("stdin"))?;
    let stdout = child.stdout.take().ok_or(EngineError::NoPipe("stdout"))?;
    let (tx, rx) = unbounded();
    // The reader ends when the engine closes its output (exit or crash).
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut engine = Engine { child, stdin, lines: rx, size, known: Vec::new(), turn_ms: None, moved: None };
    let deadline = Instant::now() + Duration::from_secs_f64(c.startup);
    let start = if size.0 == size.1 { format!("START {}", size.0) } else { format!("RECTSTART {},{}", size.0, size.1) };
    engine.send(&start)?;
    let ok = engine
        .answer(deadline)
        .map_err(|cause| EngineError::NoAnswer { command: start.clone(), cause: Box::new(cause) })?;
    if ok != "OK" {
        return Err(EngineError::Refused { command: start, answer: ok });
    }
    Ok(engine)
}

/// The command that brings an engine knowing the moves `known` to `history` and asks for its
/// move, on a board of `h` rows: BEGIN, TURN with the last move, or the whole board.
fn position_command(history: &[Move], known: &[Move], h: usize) -> String {
    let xy = |m: Move| (m.index() / h, h - 1 - m.index() % h);
    if history.is_empty() && known.is_empty() {
        "BEGIN".to_string()
    } else if history.len() == known.len() + 1 && history.starts_with(known) {
        let (x, y) = xy(history[history.len() - 1]);
        format!("TURN {x},{y}")
    } else {
        // The game jumped (a new game, an opening, a take-back).
        board_command(history, h)
    }
}

/// BOARD: the whole game, in move order, 1 for the engine's stones and 2 for the opponent's.
fn board_command(history: &[Move], h: usize) -> String {
    let me = history.len() % 2;
    let mut lines = vec!["BOARD".to_string()];
    for (i, &m) in history.iter().enumerate() {
        let (x, y) = (m.index() / h, h - 1 - m.index() % h);
        lines.push(format!("{x},{y},{}", if i % 2 == me { 1 } else { 2 }));
    }
    lines.push("DONE".into());
    lines.join("\n")
}

/// An external engine as an [`Agent`].
pub struct ExternalAgent {
    config: ExternalConfig,
    engine: Option<Engine>,
    about: Option<String>,
    failure: Option<String>,
}

impl ExternalAgent {
    pub fn new(config: ExternalConfig) -> ExternalAgent {
        ExternalAgent { config, engine: None, about: None, failure: None }
    }

    fn spawn(&mut self, size: (u32, u32), exact: bool) -> Result<(), EngineError> {
        self.engine = None;
        let c = &self.config;
        let mut engine = start_engine(c, size)?;
        let deadline = Instant::now() + Duration::from_secs_f64(c.startup);
        engine.send("INFO game_type 1")?;
        engine.send(&format!("INFO rule {}", if exact { 1 } else { 0 }))?;
        if c.max_memory_mb > 0 {
            engine.send(&format!("INFO max_memory {}", c.max_memory_mb << 20))?;
        }
        for (key, value) in &c.info {
            engine.send(&format!("INFO {key} {value}"))?;
        }
        engine.send("ABOUT")?;
        // ABOUT is optional for old brains: an empty or refused answer is no error.
        self.about = engine.answer(deadline).ok().filter(|a| a.contains('='));
        self.engine = Some(engine);
        Ok(())
    }

    /// Brings the engine to `pos` and returns its move.
    fn ask<P: Position>(&mut self, pos: &P, turn_ms: u64) -> Result<Move, EngineError> {
        let rules =
            pos.variant().grid().filter(|r| !r.gravity()).ok_or(EngineError::NotFreePlacement(*pos.variant()))?;
        let size = (rules.width() as u32, rules.height() as u32);
        let h = rules.height() as usize;
        let alive = self.engine.as_mut().is_some_and(|e| e.alive() && e.size == size);
        if !alive {
            self.spawn(size, rules.exact())?;
        }
        let grace = self.config.grace;
        let engine = self.engine.as_mut().expect("spawned");
        engine.settle();
        if engine.turn_ms != Some(turn_ms) {
            engine.send(&format!("INFO timeout_turn {turn_ms}"))?;
            engine.turn_ms = Some(turn_ms);
        }
        let history = pos.history();
        let mut command = position_command(history, &engine.known, h);
        let mut resent = false;
        let answer = loop {
            engine.send(&command)?;
            let deadline = Instant::now() + Duration::from_millis(turn_ms) + Duration::from_secs_f64(grace);
            match engine.answer(deadline) {
                // The engine did not take the move in (see SETTLE): the whole board, once.
                Ok(a) if a.starts_with("ERROR") && !resent && command.starts_with("TURN") => {
                    command = board_command(history, h);
                    resent = true;
                }
                Ok(a) => break a,
                Err(e) => {
                    // A brain that overran is killed: its next game starts afresh.
                    self.engine = None;
                    return Err(match e {
                        EngineError::Timeout => EngineError::NoMoveInTime { turn_ms, grace },
                        e => e,
                    });
                }
            }
        };
        engine.moved = Some(Instant::now());
        let parsed = {
            let mut it = answer.split(',').map(|s| s.trim().parse::<usize>());
            match (it.next(), it.next(), it.next()) {
                (Some(Ok(x)), Some(Ok(y)), None) => Some((x, y)),
                _ => None,
            }
        };
        let Some((x, y)) = parsed else {
            return Err(EngineError::NotAMove(answer));
        };
        if x >= rules.width() as usize || y >= h {
            return Err(EngineError::OffBoard { x, y, width: rules.width(), height: rules.height() });
        }
        let cell = x * h + (h - 1 - y);
        let m = pos.cell_move(cell).ok_or(EngineError::Taken { x, y })?;
        engine.known = history.to_vec();
        engine.known.push(m);
        Ok(m)
    }
}

impl<P: Position> Agent<P> for ExternalAgent {
    fn search(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        _control: &SearchControl,
        _sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        let started = Instant::now();
        let turn_ms = (limits.time.unwrap_or(self.config.default_turn) * 1000.0).round().max(1.0) as u64;
        self.failure = None;
        let best = match self.ask(pos, turn_ms) {
            Ok(m) => Some(m),
            Err(e) => {
                self.failure = Some(e.to_string());
                None
            }
        };
        SearchResult {
            best,
            pv: best.into_iter().collect(),
            stats: SearchStats { elapsed: started.elapsed().as_secs_f64(), ..Default::default() },
            ..Default::default()
        }
    }

    fn new_game(&mut self) {
        // RESTART keeps a healthy engine; a dead or confused one is started again on demand.
        if let Some(engine) = self.engine.as_mut() {
            engine.settle();
            let deadline = Instant::now() + Duration::from_secs_f64(self.config.startup);
            let ok =
                engine.alive() && engine.send("RESTART").is_ok() && engine.answer(deadline).is_ok_and(|a| a == "OK");
            if ok {
                engine.known.clear();
            } else {
                self.engine = None;
            }
        }
    }

    fn about(&self) -> Option<String> {
        self.about.clone()
    }

    fn failure(&self) -> Option<String> {
        self.failure.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(info: &[(&str, &str)]) -> ExternalConfig {
        let info = info.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        ExternalConfig { info, ..ExternalConfig::gomocup("pbrain-rapfi") }
    }

    #[test]
    fn engine_settings_are_one_line_each() {
        assert!(config(&[("max_node", "1000"), ("thread_num", "1")]).validate().is_ok());
        // A key with a space, an empty key, or a line break would send another command.
        for bad in [("max node", "1"), ("", "1"), ("max_node", "1\nBEGIN"), ("max_node\n", "1")] {
            assert!(config(&[bad]).validate().is_err(), "{bad:?}");
        }
        // Left out of the file when there are none, so older files read the same.
        let text = ron::to_string(&config(&[])).unwrap();
        assert!(!text.contains("info"), "{text}");
        let back: ExternalConfig = ron::from_str(&text).unwrap();
        assert!(back.info.is_empty());
    }
}
