//! An agent configured per family of boards: one kind of agent whose options differ between
//! free placement, gravity and 3D Connect-4. What is tuned for one family can play worse on
//! another (a heuristic tuned on gomoku knows neither gravity nor connect3d's scoring), so the
//! strongest agent for every board is one such file. It picks its configuration from the
//! position it is asked about.

use serde::{Deserialize, Serialize};

use super::{AgentConfig, build_agent};
use crate::game::{Family, Move, Position};
use crate::search::{
    Agent, AlphaBetaConfig, ProgressSink, SearchControl, SearchLimits, SearchResult, SettingError, TreeSnapshot,
};

/// One configuration for each family of boards. All three are the same kind of searching
/// agent (alpha-beta, MCTS or the solver), so its limits, budgets and reports mean the same
/// on every board.
///
/// ```
/// use mnklab::agents::{AgentConfig, PerFamily};
/// use mnklab::game::Variant;
/// use mnklab::search::AlphaBetaConfig;
/// let wide = AlphaBetaConfig { branching_cap: Some(10), ..Default::default() };
/// let agent = AgentConfig::PerFamily(PerFamily {
///     free: Box::new(AgentConfig::AlphaBeta(wide.clone())),
///     gravity: Box::new(AgentConfig::AlphaBeta(AlphaBetaConfig::default())),
///     connect3d: Box::new(AgentConfig::AlphaBeta(AlphaBetaConfig::default())),
/// });
/// assert!(agent.validate().is_ok());
/// assert_eq!(agent.for_variant(&Variant::gomoku()), &AgentConfig::AlphaBeta(wide));
/// assert_eq!(agent.kind(), "alpha-beta");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerFamily {
    /// m,n,k-games and gomoku.
    pub free: Box<AgentConfig>,
    /// Connect-X.
    pub gravity: Box<AgentConfig>,
    /// 3D Connect-4 with line scoring.
    pub connect3d: Box<AgentConfig>,
}

impl PerFamily {
    pub fn get(&self, family: Family) -> &AgentConfig {
        match family {
            Family::Free => &self.free,
            Family::Gravity => &self.gravity,
            Family::Connect3d => &self.connect3d,
        }
    }

    pub fn get_mut(&mut self, family: Family) -> &mut AgentConfig {
        match family {
            Family::Free => &mut self.free,
            Family::Gravity => &mut self.gravity,
            Family::Connect3d => &mut self.connect3d,
        }
    }

    /// Every family's configuration must be valid, and all of one searching kind: nested
    /// per-family files, external programs (one consent a command) and random agents (nothing
    /// to configure) are refused.
    pub fn validate(&self) -> Result<(), SettingError> {
        let kind = self.free.kind();
        for family in Family::ALL {
            let c = self.get(family);
            let field = family.field();
            match c {
                AgentConfig::AlphaBeta(_) | AgentConfig::Mcts(_) | AgentConfig::Solver(_) => {}
                AgentConfig::PerFamily(_) => return Err(SettingError::PerFamilyKind { field, kind: "per family" }),
                other => return Err(SettingError::PerFamilyKind { field, kind: other.kind() }),
            }
            if c.kind() != kind {
                return Err(SettingError::PerFamilyMixed { field, kind: c.kind(), free: kind });
            }
            c.validate().map_err(|e| SettingError::InFamily { field, error: Box::new(e) })?;
        }
        Ok(())
    }

    /// `config` on every family: a per-family agent made from a plain one, to be changed
    /// family by family. A configuration no family may have (random, external) gives the
    /// default alpha-beta instead; a per-family one stays as it is.
    pub fn everywhere(config: &AgentConfig) -> PerFamily {
        let one = match config {
            AgentConfig::PerFamily(c) => return c.clone(),
            AgentConfig::AlphaBeta(_) | AgentConfig::Mcts(_) | AgentConfig::Solver(_) => config.clone(),
            AgentConfig::Random | AgentConfig::External(_) => AgentConfig::AlphaBeta(AlphaBetaConfig::default()),
        };
        PerFamily { free: Box::new(one.clone()), gravity: Box::new(one.clone()), connect3d: Box::new(one) }
    }

    /// The same agent with `change` made to every family's configuration.
    pub fn map(
        &self,
        mut change: impl FnMut(&AgentConfig) -> Result<AgentConfig, SettingError>,
    ) -> Result<PerFamily, SettingError> {
        Ok(PerFamily {
            free: Box::new(change(&self.free)?),
            gravity: Box::new(change(&self.gravity)?),
            connect3d: Box::new(change(&self.connect3d)?),
        })
    }
}

/// A per-family agent at play: the agent of the family of the position it last searched,
/// built afresh when a position of another family comes.
pub(super) struct PerFamilyAgent<P: Position> {
    config: PerFamily,
    seed: u64,
    current: Option<(Family, Box<dyn Agent<P>>)>,
}

impl<P: Position> PerFamilyAgent<P> {
    pub(super) fn new(config: PerFamily, seed: u64) -> Self {
        PerFamilyAgent { config, seed, current: None }
    }
}

impl<P: Position> Agent<P> for PerFamilyAgent<P> {
    fn search(
        &mut self,
        pos: &P,
        limits: &SearchLimits,
        control: &SearchControl,
        sink: &mut dyn ProgressSink,
    ) -> SearchResult {
        let family = pos.variant().family();
        if self.current.as_ref().is_none_or(|(f, _)| *f != family) {
            self.current = Some((family, build_agent(self.config.get(family), self.seed)));
        }
        let (_, agent) = self.current.as_mut().expect("built above");
        agent.search(pos, limits, control, sink)
    }

    fn snapshot(&self, depth: u32, top: usize) -> Option<TreeSnapshot> {
        self.current.as_ref()?.1.snapshot(depth, top)
    }

    fn subtree(&self, path: &[Move], depth: u32, top: usize) -> Option<TreeSnapshot> {
        self.current.as_ref()?.1.subtree(path, depth, top)
    }

    fn new_game(&mut self) {
        if let Some((_, agent)) = &mut self.current {
            agent.new_game();
        }
    }

    fn about(&self) -> Option<String> {
        self.current.as_ref()?.1.about()
    }

    fn failure(&self) -> Option<String> {
        self.current.as_ref()?.1.failure()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::preset;
    use crate::game::AnyPosition;
    use crate::search::{MctsConfig, NullSink};
    use crate::with_position;

    fn ab() -> Box<AgentConfig> {
        Box::new(AgentConfig::AlphaBeta(AlphaBetaConfig::default()))
    }

    /// What an agent answers at a node budget: move, score and nodes, which equal agents share.
    fn answer(agent: &AgentConfig, variant: &str, moves: &str) -> (Option<Move>, String, u64) {
        let pos = AnyPosition::from_moves(variant.parse().unwrap(), moves).unwrap();
        with_position!(&pos, p => {
            let r = build_agent(agent, 1).search(p, &SearchLimits::nodes(20_000), &SearchControl::new(), &mut NullSink);
            (r.best, format!("{:?}", r.score), r.stats.nodes)
        })
    }

    /// strong-ab's file repeats its families' agents so that it reads whole, and each must be
    /// theirs field for field: an option added to gomoku-ab alone would leave strong-ab
    /// playing the older agent, which the same answers at a small budget (below) need not show.
    #[test]
    fn strong_abs_families_are_their_presets_field_for_field() {
        let AgentConfig::PerFamily(strong) = preset("strong-ab").unwrap().agent else {
            panic!("strong-ab is per family")
        };
        let gomoku = preset("gomoku-ab").unwrap().agent;
        let v1 = preset("strong-ab-v1").unwrap().agent;
        assert_eq!(*strong.free, gomoku);
        assert_eq!(*strong.gravity, v1);
        assert_eq!(*strong.connect3d, v1);
    }

    /// The preset strong-ab plays each family's positions exactly as that family's agent
    /// alone: strong-ab-v1 on gravity and 3D boards, gomoku-ab on free placement. So on
    /// Connect-X and connect3d it has strong-ab-v1's strength to the move.
    #[test]
    fn strong_ab_plays_each_family_as_its_agent() {
        let strong = preset("strong-ab").unwrap().agent;
        let v1 = preset("strong-ab-v1").unwrap().agent;
        let gomoku = preset("gomoku-ab").unwrap().agent;
        let cases = [
            ("connect4", "d d c", &v1),
            ("connect:6,5,4", "c d", &v1),
            ("connect3d", "1 6", &v1),
            ("gomoku", "h8 h9 j8", &gomoku),
            ("mnk:9,9,5", "e5 e6", &gomoku),
            ("mnk:5,5,4", "c3", &gomoku),
        ];
        for (variant, moves, alone) in cases {
            assert_eq!(answer(&strong, variant, moves), answer(alone, variant, moves), "{variant} after {moves}");
        }
        // The families' agents differ, so the cases above tell them apart.
        assert_ne!(answer(&v1, "gomoku", "h8 h9 j8"), answer(&gomoku, "gomoku", "h8 h9 j8"));
        assert_ne!(answer(&v1, "connect4", "d d c"), answer(&gomoku, "connect4", "d d c"));
    }

    /// The family's agent answers for the per-family one: its tree, for the explorer.
    #[test]
    fn the_family_agents_tree_is_the_one_shown() {
        let strong = preset("strong-ab").unwrap().agent;
        for (variant, moves) in [("mnk:7,7,5", "d4"), ("connect4", "d"), ("connect3d", "1 6")] {
            let pos = AnyPosition::from_moves(variant.parse().unwrap(), moves).unwrap();
            with_position!(&pos, p => {
                let mut agent = build_agent(&strong, 1);
                assert!(agent.snapshot(2, usize::MAX).is_none(), "no tree before a search");
                let r = agent.search(p, &SearchLimits::nodes(20_000), &SearchControl::new(), &mut NullSink);
                // Every root move, as the workbench asks for them.
                let tree = agent.snapshot(2, usize::MAX).expect("the tree of the search");
                let root = tree.root().expect("a root");
                assert!(root.children.iter().any(|&c| tree.nodes[c as usize].mv == r.best), "{variant}: the best move");
                agent.new_game();
            });
        }
    }

    #[test]
    fn families_must_be_one_searching_kind() {
        let mixed =
            PerFamily { free: ab(), gravity: Box::new(AgentConfig::Mcts(MctsConfig::default())), connect3d: ab() };
        let e = AgentConfig::PerFamily(mixed).validate().unwrap_err().to_string();
        assert!(e.contains("gravity is mcts, free is alpha-beta"), "{e}");
        let random = PerFamily { free: ab(), gravity: ab(), connect3d: Box::new(AgentConfig::Random) };
        let e = AgentConfig::PerFamily(random).validate().unwrap_err().to_string();
        assert!(e.starts_with("connect3d: ") && e.contains("not random"), "{e}");
        let inner = PerFamily { free: ab(), gravity: ab(), connect3d: ab() };
        let nested = PerFamily { free: Box::new(AgentConfig::PerFamily(inner)), gravity: ab(), connect3d: ab() };
        let e = AgentConfig::PerFamily(nested).validate().unwrap_err().to_string();
        assert!(e.starts_with("free: ") && e.ends_with("not per family"), "{e}");
        let bad = AlphaBetaConfig { tt_mb: 0, branching_cap: Some(0), ..Default::default() };
        let one_bad = PerFamily { free: ab(), gravity: ab(), connect3d: Box::new(AgentConfig::AlphaBeta(bad)) };
        let e = AgentConfig::PerFamily(one_bad).validate().unwrap_err().to_string();
        assert!(e.starts_with("connect3d: ") && e.contains("branching_cap"), "the family and the field: {e}");
        // A radius of 0 leaves no move to search: it proved a loss one stone into gomoku.
        let none_near = AlphaBetaConfig { radius: Some(0), ..Default::default() };
        let e = AgentConfig::AlphaBeta(none_near.clone()).validate().unwrap_err().to_string();
        assert!(e.starts_with("alpha-beta: radius must be at least 1"), "{e}");
        let in_free = PerFamily { free: Box::new(AgentConfig::AlphaBeta(none_near)), gravity: ab(), connect3d: ab() };
        let e = AgentConfig::PerFamily(in_free).validate().unwrap_err().to_string();
        assert!(e.starts_with("free: alpha-beta: radius"), "{e}");
    }

    /// A plain agent becomes a per-family one with itself on every family, valid as it is.
    #[test]
    fn a_plain_agent_goes_everywhere() {
        let v1 = preset("strong-ab-v1").unwrap().agent;
        let p = PerFamily::everywhere(&v1);
        assert!(Family::ALL.iter().all(|&f| p.get(f) == &v1));
        assert!(AgentConfig::PerFamily(p.clone()).validate().is_ok());
        assert_eq!(PerFamily::everywhere(&AgentConfig::PerFamily(p.clone())), p, "a per-family agent stays");
        let from_random = PerFamily::everywhere(&AgentConfig::Random);
        assert_eq!(*from_random.gravity, AgentConfig::AlphaBeta(AlphaBetaConfig::default()));
        assert!(AgentConfig::PerFamily(from_random).validate().is_ok());
    }

    #[test]
    fn threads_and_limits_cover_every_family() {
        let strong = preset("strong-ab").unwrap().agent;
        assert_eq!(strong.kind(), "alpha-beta");
        assert!(strong.heeds().cpu_time, "one thread in every family reads CPU time");
        let two = strong.with_threads(2).unwrap();
        assert_eq!(two.threads(), 2);
        assert!(two.each().iter().all(|c| c.threads() == 2));
        assert!(!two.heeds().cpu_time, "a CPU-time budget is one thread's");
        assert!(strong.with_parallel(crate::search::Parallel::default()).is_err(), "parallel is MCTS's");
        let text = crate::agents::PRESETS.iter().find(|(n, _)| *n == "strong-ab").unwrap().1;
        let file = crate::agents::AgentFile::parse(text, std::path::Path::new("strong-ab.ron")).unwrap();
        let again = crate::agents::AgentFile::parse(&file.to_ron(), std::path::Path::new("again.ron")).unwrap();
        assert_eq!(file, again, "the per-family file reads back as written");
    }
}
