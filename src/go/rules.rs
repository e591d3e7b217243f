//! Go rule sets: the named ones (after KataGo's definitions) and their components.

use std::fmt;
use std::str::FromStr;

/// A named rule set, as GTP's `kata-set-rules` and the command line name them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    Japanese,
    Chinese,
    TrompTaylor,
    Aga,
    NewZealand,
}

impl RuleSet {
    pub const ALL: [RuleSet; 5] = [
        RuleSet::Japanese,
        RuleSet::Chinese,
        RuleSet::TrompTaylor,
        RuleSet::Aga,
        RuleSet::NewZealand,
    ];

    /// The canonical (hyphenated, lower-case) name.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Japanese => "japanese",
            RuleSet::Chinese => "chinese",
            RuleSet::TrompTaylor => "tromp-taylor",
            RuleSet::Aga => "aga",
            RuleSet::NewZealand => "new-zealand",
        }
    }

    pub fn rules(self) -> Rules {
        Rules::from(self)
    }
}

/// The rule sheet's default: territory scoring, komi 6.5.
impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::Japanese
    }
}

/// The name was not one of the known rule sets (or ko rules, scoring rules, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRulesError(pub String);

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rules: {}", self.0)
    }
}

impl std::error::Error for ParseRulesError {}

impl FromStr for RuleSet {
    type Err = ParseRulesError;

    fn from_str(s: &str) -> Result<RuleSet, ParseRulesError> {
        match s.to_ascii_lowercase().as_str() {
            "japanese" => Ok(RuleSet::Japanese),
            "chinese" => Ok(RuleSet::Chinese),
            "tromp-taylor" | "tromp_taylor" | "tromptaylor" => Ok(RuleSet::TrompTaylor),
            "aga" => Ok(RuleSet::Aga),
            "new-zealand" | "new_zealand" | "nz" => Ok(RuleSet::NewZealand),
            _ => Err(ParseRulesError(s.to_owned())),
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which repetitions are forbidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Only the immediate recapture of a single-stone ko.
    Simple,
    /// No move may recreate any earlier board position.
    PositionalSuperko,
    /// No move may recreate an earlier board position with the same player to move.
    SituationalSuperko,
}

/// KataGo's names: `SIMPLE`, `POSITIONAL`, `SITUATIONAL` (any case).
impl FromStr for KoRule {
    type Err = ParseRulesError;

    fn from_str(s: &str) -> Result<KoRule, ParseRulesError> {
        match s.to_ascii_lowercase().as_str() {
            "simple" => Ok(KoRule::Simple),
            "positional" | "positional-superko" | "psk" => Ok(KoRule::PositionalSuperko),
            "situational" | "situational-superko" | "ssk" => Ok(KoRule::SituationalSuperko),
            _ => Err(ParseRulesError(s.to_owned())),
        }
    }
}

impl fmt::Display for KoRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KoRule::Simple => "SIMPLE",
            KoRule::PositionalSuperko => "POSITIONAL",
            KoRule::SituationalSuperko => "SITUATIONAL",
        })
    }
}

/// How the final position is counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Stones on the board plus surrounded empty points.
    Area,
    /// Surrounded empty points plus prisoners.
    Territory,
}

/// KataGo's names: `AREA`, `TERRITORY` (any case).
impl FromStr for Scoring {
    type Err = ParseRulesError;

    fn from_str(s: &str) -> Result<Scoring, ParseRulesError> {
        match s.to_ascii_lowercase().as_str() {
            "area" => Ok(Scoring::Area),
            "territory" => Ok(Scoring::Territory),
            _ => Err(ParseRulesError(s.to_owned())),
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scoring::Area => "AREA",
            Scoring::Territory => "TERRITORY",
        })
    }
}

/// Points White receives for Black's handicap stones (area scoring would otherwise
/// count each handicap stone for Black).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HandicapBonus {
    Zero,
    /// One point a handicap stone.
    N,
    /// One point a handicap stone after the first.
    NMinusOne,
}

/// KataGo's names: `0`, `N`, `N-1`.
impl FromStr for HandicapBonus {
    type Err = ParseRulesError;

    fn from_str(s: &str) -> Result<HandicapBonus, ParseRulesError> {
        match s.to_ascii_uppercase().as_str() {
            "0" => Ok(HandicapBonus::Zero),
            "N" => Ok(HandicapBonus::N),
            "N-1" => Ok(HandicapBonus::NMinusOne),
            _ => Err(ParseRulesError(s.to_owned())),
        }
    }
}

impl fmt::Display for HandicapBonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandicapBonus::Zero => "0",
            HandicapBonus::N => "N",
            HandicapBonus::NMinusOne => "N-1",
        })
    }
}

/// The largest komi either way that `komi` and an SGF's `KM` accept: beyond it a komi is a
/// mistake, and scores stay exact in `f32`.
pub const MAX_KOMI: f32 = 1000.0;

/// The rules a game is played under. Fields are public so that a caller can change one
/// component (KataGo's `kata-set-rules` accepts single fields).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rules {
    pub ko: KoRule,
    pub scoring: Scoring,
    /// Multi-stone suicide. A single-stone suicide changes nothing on the board and is
    /// illegal under every rule set here, as in KataGo.
    pub suicide_allowed: bool,
    pub handicap_bonus: HandicapBonus,
    /// Komi a new game starts with.
    pub default_komi: f32,
}

impl Rules {
    /// Rules from single components; the default komi follows the scoring (6.5 for
    /// territory, 7.5 for area) and there is no handicap bonus.
    pub fn custom(ko: KoRule, scoring: Scoring, suicide_allowed: bool) -> Rules {
        Rules {
            ko,
            scoring,
            suicide_allowed,
            handicap_bonus: HandicapBonus::Zero,
            default_komi: match scoring {
                Scoring::Area => 7.5,
                Scoring::Territory => 6.5,
            },
        }
    }

    /// Points White gets for `handicap` handicap stones.
    pub fn white_handicap_compensation(&self, handicap: u32) -> f32 {
        let points = match self.handicap_bonus {
            HandicapBonus::Zero => 0,
            HandicapBonus::N => handicap,
            HandicapBonus::NMinusOne => handicap.saturating_sub(1),
        };
        points as f32
    }

    /// The named rule set these rules are, if any.
    pub fn rule_set(&self) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|&r| Rules::from(r) == *self)
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::from(RuleSet::default())
    }
}

/// KataGo's definitions, except that `chinese` here uses positional superko (KataGo's
/// `chinese` is simple ko; its `chinese-ogs` has positional superko): the project's
/// choice, since automated play needs cycles to end.
impl From<RuleSet> for Rules {
    fn from(set: RuleSet) -> Rules {
        let (ko, scoring, suicide_allowed, handicap_bonus, default_komi) = match set {
            RuleSet::Japanese => (
                KoRule::Simple,
                Scoring::Territory,
                false,
                HandicapBonus::Zero,
                6.5,
            ),
            RuleSet::Chinese => (
                KoRule::PositionalSuperko,
                Scoring::Area,
                false,
                HandicapBonus::N,
                7.5,
            ),
            RuleSet::TrompTaylor => (
                KoRule::PositionalSuperko,
                Scoring::Area,
                true,
                HandicapBonus::Zero,
                7.5,
            ),
            RuleSet::Aga => (
                KoRule::SituationalSuperko,
                Scoring::Area,
                false,
                HandicapBonus::NMinusOne,
                7.5,
            ),
            RuleSet::NewZealand => (
                KoRule::SituationalSuperko,
                Scoring::Area,
                true,
                HandicapBonus::Zero,
                7.5,
            ),
        };
        Rules {
            ko,
            scoring,
            suicide_allowed,
            handicap_bonus,
            default_komi,
        }
    }
}

/// The rule set's name when the rules are a named set, else KataGo's short form
/// (`koPOSITIONALscoreAREAsui1whbN`-like, but readable).
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule_set() {
            Some(set) => set.fmt(f),
            None => write!(
                f,
                "ko={} scoring={} suicide={} whb={} komi={}",
                self.ko, self.scoring, self.suicide_allowed, self.handicap_bonus, self.default_komi
            ),
        }
    }
}

/// Names in SGF's `RU` property: the SGF spec's (`Japanese`, `Chinese`, `AGA`, `NZ`) and, for
/// Tromp–Taylor, common usage.
impl RuleSet {
    pub fn sgf_name(self) -> &'static str {
        match self {
            RuleSet::Japanese => "Japanese",
            RuleSet::Chinese => "Chinese",
            RuleSet::Aga => "AGA",
            RuleSet::NewZealand => "NZ",
            RuleSet::TrompTaylor => "Tromp-Taylor",
        }
    }

    /// Reads an `RU` value, forgiving case, spaces and dashes (`tromp taylor`, `aga`).
    pub fn from_sgf_name(name: &str) -> Option<RuleSet> {
        let key: String = name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match key.as_str() {
            "japanese" => Some(RuleSet::Japanese),
            "chinese" => Some(RuleSet::Chinese),
            "aga" => Some(RuleSet::Aga),
            "nz" | "newzealand" => Some(RuleSet::NewZealand),
            "tromptaylor" => Some(RuleSet::TrompTaylor),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for set in RuleSet::ALL {
            assert_eq!(set.to_string().parse::<RuleSet>(), Ok(set));
            assert_eq!(set.rules().rule_set(), Some(set));
        }
        assert_eq!("Tromp_Taylor".parse::<RuleSet>(), Ok(RuleSet::TrompTaylor));
        assert_eq!("TROMPTAYLOR".parse::<RuleSet>(), Ok(RuleSet::TrompTaylor));
        assert_eq!("NZ".parse::<RuleSet>(), Ok(RuleSet::NewZealand));
        assert_eq!("new_zealand".parse::<RuleSet>(), Ok(RuleSet::NewZealand));
        assert!("ing".parse::<RuleSet>().is_err());
    }

    #[test]
    fn handicap_compensation() {
        assert_eq!(RuleSet::Chinese.rules().white_handicap_compensation(4), 4.0);
        assert_eq!(RuleSet::Aga.rules().white_handicap_compensation(4), 3.0);
        assert_eq!(RuleSet::Aga.rules().white_handicap_compensation(0), 0.0);
        assert_eq!(
            RuleSet::Japanese.rules().white_handicap_compensation(4),
            0.0
        );
        assert_eq!(
            RuleSet::TrompTaylor.rules().white_handicap_compensation(4),
            0.0
        );
    }
}
