//! Which game is played: its spelling on the command line and in files, and its limits.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::GameError;

/// The largest board side. Any M, N up to this fits the 512-bit padded board
/// ((M + 2) * (N + 1) + 1 bits).
pub const MAX_SIDE: usize = 21;

/// Rules of an m,n,k-game or Connect-X game. Made only by [`GridRules::new`], which checks
/// the ranges, so every `GridRules` is a board the engine can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridRules {
    width: u8,
    height: u8,
    k: u8,
    exact: bool,
    gravity: bool,
}

impl GridRules {
    /// Checks the ranges and builds the rules.
    pub fn new(width: u32, height: u32, k: u32, exact: bool, gravity: bool) -> Result<GridRules, GameError> {
        let max = MAX_SIDE as u32;
        if !(1..=max).contains(&width) || !(1..=max).contains(&height) {
            return Err(GameError::SizeOutOfRange { width, height, max });
        }
        let kmax = width.max(height);
        if !(1..=kmax).contains(&k) {
            return Err(GameError::KOutOfRange { k, width, height, max: kmax });
        }
        Ok(GridRules { width: width as u8, height: height as u8, k: k as u8, exact, gravity })
    }

    pub fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// M: columns.
    #[inline]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// N: rows.
    #[inline]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// K: stones in a row that win.
    #[inline]
    pub fn k(&self) -> u8 {
        self.k
    }

    /// Only lines of exactly K win (standard gomoku); otherwise K or more ("freestyle").
    #[inline]
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// Stones fall to the lowest empty cell of a column (Connect-X).
    #[inline]
    pub fn gravity(&self) -> bool {
        self.gravity
    }
}

/// The families of boards, which play differently enough that an agent may be tuned for
/// each: free placement (m,n,k-games, gomoku), gravity (Connect-X) and 3D Connect-4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Free,
    Gravity,
    Connect3d,
}

impl Family {
    pub const ALL: [Family; 3] = [Family::Free, Family::Gravity, Family::Connect3d];

    /// The family's field in a per-family agent file.
    pub fn field(self) -> &'static str {
        match self {
            Family::Free => "free",
            Family::Gravity => "gravity",
            Family::Connect3d => "connect3d",
        }
    }

    /// A human name, for forms and messages.
    pub fn label(self) -> &'static str {
        match self {
            Family::Free => "free placement (m,n,k, gomoku)",
            Family::Gravity => "gravity (Connect-X)",
            Family::Connect3d => "3D Connect-4",
        }
    }
}

/// A game variant. Spelled `mnk:M,N,K`, `mnk:M,N,K:exact`, `connect:M,N,K`, `connect3d`, or a
/// preset: `tictactoe`, `gomoku`, `gomoku-exact`, `connect4`. In files it is that string.
///
/// ```
/// use mnklab::game::Variant;
/// let v: Variant = "connect4".parse().unwrap();
/// assert_eq!(v.to_string(), "connect:7,6,4");
/// assert!("mnk:3,3,9".parse::<Variant>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Variant {
    Grid(GridRules),
    Connect3d,
}

impl Variant {
    pub fn tictactoe() -> Variant {
        Variant::Grid(GridRules { width: 3, height: 3, k: 3, exact: false, gravity: false })
    }
    pub fn gomoku() -> Variant {
        Variant::Grid(GridRules { width: 15, height: 15, k: 5, exact: false, gravity: false })
    }
    pub fn connect4() -> Variant {
        Variant::Grid(GridRules { width: 7, height: 6, k: 4, exact: false, gravity: true })
    }

    /// The presets and general forms, for help texts and pickers.
    pub const SPELLINGS: &'static [&'static str] = &[
        "tictactoe",
        "gomoku",
        "gomoku-exact",
        "connect4",
        "connect3d",
        "mnk:M,N,K",
        "mnk:M,N,K:exact",
        "connect:M,N,K",
        "connect:M,N,K:exact",
    ];

    pub fn grid(&self) -> Option<GridRules> {
        match self {
            Variant::Grid(r) => Some(*r),
            Variant::Connect3d => None,
        }
    }

    /// The family of boards it belongs to, for agents configured per family.
    ///
    /// ```
    /// use mnklab::game::{Family, Variant};
    /// assert_eq!(Variant::gomoku().family(), Family::Free);
    /// assert_eq!(Variant::connect4().family(), Family::Gravity);
    /// assert_eq!(Variant::Connect3d.family(), Family::Connect3d);
    /// ```
    pub fn family(&self) -> Family {
        match self {
            Variant::Grid(r) if r.gravity => Family::Gravity,
            Variant::Grid(_) => Family::Free,
            Variant::Connect3d => Family::Connect3d,
        }
    }

    pub fn has_gravity(&self) -> bool {
        match self {
            Variant::Grid(r) => r.gravity,
            Variant::Connect3d => true,
        }
    }

    /// A human name: the preset's if it is one.
    pub fn label(&self) -> String {
        let s = self.to_string();
        match s.as_str() {
            "mnk:3,3,3" => "Tic-tac-toe".into(),
            "mnk:15,15,5" => "Gomoku (freestyle)".into(),
            "mnk:15,15,5:exact" => "Gomoku (exactly five)".into(),
            "connect:7,6,4" => "Connect-4".into(),
            "connect3d" => "3D Connect-4".into(),
            _ => s,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Connect3d => f.write_str("connect3d"),
            Variant::Grid(r) => {
                let kind = if r.gravity { "connect" } else { "mnk" };
                write!(f, "{kind}:{},{},{}", r.width, r.height, r.k)?;
                if r.exact {
                    f.write_str(":exact")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for Variant {
    type Err = GameError;

    fn from_str(s: &str) -> Result<Variant, GameError> {
        let t = s.trim().to_ascii_lowercase();
        let unknown = || GameError::UnknownVariant(s.to_string());
        match t.as_str() {
            "tictactoe" | "tic-tac-toe" => return Ok(Variant::tictactoe()),
            "gomoku" => return Ok(Variant::gomoku()),
            "gomoku-exact" => return "mnk:15,15,5:exact".parse(),
            "connect4" | "connect-4" => return Ok(Variant::connect4()),
            "connect3d" => return Ok(Variant::Connect3d),
            _ => {}
        }
        let (kind, rest) = t.split_once(':').ok_or_else(unknown)?;
        let gravity = match kind {
            "mnk" => false,
            "connect" => true,
            _ => return Err(unknown()),
        };
        let (numbers, exact) = match rest.split_once(':') {
            None => (rest, false),
            Some((n, "exact")) => (n, true),
            Some(_) => return Err(unknown()),
        };
        let parts: Vec<&str> = numbers.split(',').map(str::trim).collect();
        if parts.len() != 3 {
            return Err(unknown());
        }
        let mut v = [0u32; 3];
        for (slot, p) in v.iter_mut().zip(&parts) {
            // Numbers too large for u32 are certainly out of range: report them as such.
            *slot = match p.parse::<i128>() {
                // Named as typed: "board 0x3" would hide the -3 the user wrote.
                Ok(x) if x < 0 => return Err(GameError::Negative(p.to_string())),
                Ok(x) => x.min(u32::MAX as i128) as u32,
                Err(_) => return Err(unknown()),
            };
        }
        Ok(Variant::Grid(GridRules::new(v[0], v[1], v[2], exact, gravity)?))
    }
}

impl TryFrom<String> for Variant {
    type Error = GameError;
    fn try_from(s: String) -> Result<Variant, GameError> {
        s.parse()
    }
}

impl From<Variant> for String {
    fn from(v: Variant) -> String {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip() {
        for s in ["mnk:3,3,3", "mnk:15,15,5:exact", "connect:7,6,4", "connect3d", "mnk:21,21,5", "connect:5,4,4"] {
            assert_eq!(s.parse::<Variant>().unwrap().to_string(), s);
        }
        assert_eq!("gomoku".parse::<Variant>().unwrap().to_string(), "mnk:15,15,5");
        assert_eq!("gomoku-exact".parse::<Variant>().unwrap().to_string(), "mnk:15,15,5:exact");
        assert_eq!("tictactoe".parse::<Variant>().unwrap().to_string(), "mnk:3,3,3");
    }

    #[test]
    fn out_of_range_is_named() {
        assert!(matches!("mnk:22,5,3".parse::<Variant>(), Err(GameError::SizeOutOfRange { width: 22, .. })));
        assert!(matches!("mnk:0,5,3".parse::<Variant>(), Err(GameError::SizeOutOfRange { .. })));
        assert!(matches!("mnk:5,5,6".parse::<Variant>(), Err(GameError::KOutOfRange { k: 6, .. })));
        assert!(matches!("mnk:5,5,0".parse::<Variant>(), Err(GameError::KOutOfRange { k: 0, .. })));
        assert!(matches!("mnk:5,5".parse::<Variant>(), Err(GameError::UnknownVariant(_))));
        assert!(matches!("chess".parse::<Variant>(), Err(GameError::UnknownVariant(_))));
        assert!(matches!("mnk:99999999999,5,3".parse::<Variant>(), Err(GameError::SizeOutOfRange { .. })));
    }
}
