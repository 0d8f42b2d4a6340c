//! Consent before the workbench starts a program named in a file (an `External` agent).
//!
//! Agent and matchup files are swapped between researchers, and an external entrant's display
//! name can hide what it runs. So nothing starts one until the user has seen the exact command
//! line and said yes; the answer, yes or no, is remembered per command line (kept in the
//! settings), so a changed argument list is asked about again and a refused one is not asked
//! about again until the user forgets the answers (toolbar, Programs).
//!
//! Every place that starts an agent (analysis, autoplay, review, matchup run and resume) holds
//! a clone of the one [`Consent`] and asks [`Consent::permits`] first. A refusal puts a
//! [`Question`] on screen; the workbench draws it and, on "Allow", repeats the [`Retry`].

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use crate::agents::AgentConfig;

/// What was being started when the question came up, to start it again once allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Retry {
    /// The analysis of the agent slot with this label.
    Analyse(String),
    /// An autoplay move (autoplay waits until answered; a refusal pauses it).
    Autoplay,
    /// The review of the game.
    Review,
    /// The matchup run (or its resume).
    Matchup { resume: bool },
}

/// The question on screen: who would start what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// (agent or entrant name, exact command line).
    pub commands: Vec<(String, String)>,
    pub retry: Retry,
}

#[derive(Debug, Default)]
struct State {
    allowed: BTreeSet<String>,
    refused: BTreeSet<String>,
    question: Option<Question>,
    /// Why the last start did not happen without asking (a refused command), to show.
    notice: Option<String>,
}

/// What [`Consent::permits`] decided about starting some agents.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permission {
    /// Every program they run is allowed (or they run none): start them.
    Granted,
    /// One is not known yet: the question is on screen (or another one is); start nothing now.
    Asked,
    /// One was refused: start nothing, and do not ask again (a notice says why).
    Refused,
}

impl Permission {
    pub fn granted(self) -> bool {
        self == Permission::Granted
    }
}

/// The user's answers, shared by the panels of one workbench (cheap to clone; UI thread only).
#[derive(Clone, Debug, Default)]
pub struct Consent(Rc<RefCell<State>>);

impl Consent {
    /// A consent that already allows these command lines (from the saved settings).
    pub fn with_allowed(lines: impl IntoIterator<Item = String>) -> Consent {
        let c = Consent::default();
        c.0.borrow_mut().allowed.extend(lines);
        c
    }

    /// Adds remembered answers (from the saved settings).
    pub fn allow(&self, lines: impl IntoIterator<Item = String>) {
        self.0.borrow_mut().allowed.extend(lines);
    }

    /// Adds remembered refusals (from the saved settings).
    pub fn refuse(&self, lines: impl IntoIterator<Item = String>) {
        self.0.borrow_mut().refused.extend(lines);
    }

    /// Whether every external program of `agents` (name, config) may start. If one is not
    /// known yet, asks (unless a question is already up): [`Permission::Asked`].
    pub fn permits<'a>(&self, agents: impl IntoIterator<Item = (String, &'a AgentConfig)>, retry: Retry) -> Permission {
        let commands: Vec<(String, String)> =
            agents.into_iter().filter_map(|(who, a)| Some((who, a.external_command()?))).collect();
        self.permits_commands(commands, retry)
    }

    /// As [`Consent::permits`], for command lines already listed (a matchup's entrants).
    pub fn permits_commands(&self, commands: Vec<(String, String)>, retry: Retry) -> Permission {
        let mut s = self.0.borrow_mut();
        if let Some((who, line)) = commands.iter().find(|(_, c)| s.refused.contains(c)) {
            s.notice = Some(format!(
                "{who} was not started: you refused {line} (Programs > Forget answers to be asked again)"
            ));
            return Permission::Refused;
        }
        let unknown: Vec<(String, String)> = commands.into_iter().filter(|(_, c)| !s.allowed.contains(c)).collect();
        if unknown.is_empty() {
            return Permission::Granted;
        }
        if s.question.is_none() {
            s.question = Some(Question { commands: unknown, retry });
        }
        Permission::Asked
    }

    /// The question waiting for an answer, if any.
    pub fn question(&self) -> Option<Question> {
        self.0.borrow().question.clone()
    }

    /// Takes the user's answer; returns the question answered (to repeat its retry if allowed).
    pub fn answer(&self, allow: bool) -> Option<Question> {
        let mut s = self.0.borrow_mut();
        let q = s.question.take()?;
        let lines = q.commands.iter().map(|(_, c)| c.clone());
        if allow {
            s.allowed.extend(lines)
        } else {
            s.refused.extend(lines)
        }
        Some(q)
    }

    /// The command lines refused so far (saved with the settings).
    pub fn refused(&self) -> Vec<String> {
        self.0.borrow().refused.iter().cloned().collect()
    }

    /// Why the last start was refused without a question, once.
    pub fn take_notice(&self) -> Option<String> {
        self.0.borrow_mut().notice.take()
    }

    /// The command lines allowed so far (saved with the settings).
    pub fn allowed(&self) -> Vec<String> {
        self.0.borrow().allowed.iter().cloned().collect()
    }

    /// Forgets every answer, yes and no: each program is asked about again.
    pub fn revoke_all(&self) {
        let mut s = self.0.borrow_mut();
        s.allowed.clear();
        s.refused.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomocup::ExternalConfig;

    fn external(cmd: &str, args: &[&str]) -> AgentConfig {
        AgentConfig::External(ExternalConfig {
            args: args.iter().map(|s| s.to_string()).collect(),
            ..ExternalConfig::gomocup(cmd)
        })
    }

    #[test]
    fn asks_once_remembers_the_exact_command_line() {
        let c = Consent::default();
        let random = AgentConfig::Random;
        assert_eq!(
            c.permits([("r".to_string(), &random)], Retry::Review),
            Permission::Granted,
            "in-process agents need no consent"
        );
        let e = external("/opt/engine", &["--fast"]);
        assert_eq!(c.permits([("e".to_string(), &e)], Retry::Review), Permission::Asked);
        let q = c.question().unwrap();
        assert_eq!(q.commands, vec![("e".to_string(), "/opt/engine --fast".to_string())]);
        // A second start while the question is up does not replace it.
        assert_eq!(c.permits([("e".to_string(), &e)], Retry::Autoplay), Permission::Asked);
        assert_eq!(c.question().unwrap().retry, Retry::Review);
        // Refused: remembered too, as the dialog says: not started, not asked again, and a
        // notice says why; until the answers are forgotten.
        assert_eq!(c.answer(false).unwrap().retry, Retry::Review);
        assert!(c.question().is_none());
        assert_eq!(c.permits([("e".to_string(), &e)], Retry::Review), Permission::Refused);
        assert!(c.question().is_none(), "a refused command is not asked about again");
        assert!(c.take_notice().unwrap().contains("you refused /opt/engine --fast"));
        assert_eq!(c.refused(), vec!["/opt/engine --fast".to_string()]);
        let restored = Consent::default();
        restored.refuse(c.refused());
        assert_eq!(restored.permits([("e".to_string(), &e)], Retry::Review), Permission::Refused);
        assert!(restored.question().is_none());
        c.revoke_all();
        assert_eq!(c.permits([("e".to_string(), &e)], Retry::Review), Permission::Asked);
        c.answer(true);
        assert_eq!(c.permits([("e".to_string(), &e)], Retry::Review), Permission::Granted);
        // Other arguments to the same program are a different command: asked again.
        let other = external("/opt/engine", &["; rm -rf ~"]);
        assert_eq!(c.permits([("e".to_string(), &other)], Retry::Review), Permission::Asked);
        assert_eq!(c.allowed(), vec!["/opt/engine --fast".to_string()]);
        let again = Consent::with_allowed(c.allowed());
        assert_eq!(again.permits([("e".to_string(), &e)], Retry::Review), Permission::Granted);
    }
}
