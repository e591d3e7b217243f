//! The Go layer: a game record ([`GoRecord`]: game information, setup and moves) and
//! what is asked of it. Reading it from SGF is `read.rs`, writing it `write.rs`.

use crate::go::rules::RuleSet;
use crate::go::{Color, MoveVertex, Vertex};

/// Stones placed or removed by `AB`, `AW` and `AE` in one node, and the player to
/// move (`PL`) if the node says.
///
/// The lists are sorted and disjoint: when a node names one point more than once
/// (illegal in `FF[4]`, seen in old files), the last mention wins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    pub black: Vec<Vertex>,
    pub white: Vec<Vertex>,
    pub empty: Vec<Vertex>,
    pub to_play: Option<Color>,
}

impl Setup {
    /// The points this setup changes and what it puts there (`None`: emptied), in the
    /// form `Game::setup` takes.
    pub fn changes(&self) -> Vec<(Vertex, Option<Color>)> {
        self.black
            .iter()
            .map(|&v| (v, Some(Color::Black)))
            .chain(self.white.iter().map(|&v| (v, Some(Color::White))))
            .chain(self.empty.iter().map(|&v| (v, None)))
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.black.is_empty()
            && self.white.is_empty()
            && self.empty.is_empty()
            && self.to_play.is_none()
    }
}

/// One step of a record, in the order the main line gives them.
///
/// The setup is boxed: moves are the bulk of a record, and a move alone needs a few
/// bytes where a setup needs three lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Setup(Box<Setup>),
    Move(Color, MoveVertex),
}

/// A Go game as hamle needs it: the game information and the main line's setup
/// and moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GoRecord {
    /// Board side, 1 to [`MAX_BOARD_SIZE`](crate::go::notation::MAX_BOARD_SIZE).
    pub size: usize,
    pub komi: Option<f32>,
    /// `HA`, 0 when absent. The handicap stones themselves are in the first setup.
    pub handicap: u32,
    /// `RU` as written; see [`GoRecord::rule_set`].
    pub rules: Option<String>,
    pub result: Option<String>,
    pub player_black: Option<String>,
    pub player_white: Option<String>,
    pub events: Vec<Event>,
}

impl GoRecord {
    /// An empty record for a board of `size`.
    pub fn new(size: usize) -> GoRecord {
        GoRecord {
            size,
            komi: None,
            handicap: 0,
            rules: None,
            result: None,
            player_black: None,
            player_white: None,
            events: Vec::new(),
        }
    }

    /// `RU` as one of the rule sets hamle knows.
    pub fn rule_set(&self) -> Option<RuleSet> {
        self.rules.as_deref().and_then(RuleSet::from_sgf_name)
    }

    /// The moves, without the setup between them.
    pub fn moves(&self) -> impl Iterator<Item = (Color, MoveVertex)> + '_ {
        self.events.iter().filter_map(|event| match event {
            Event::Move(color, mv) => Some((*color, *mv)),
            Event::Setup(_) => None,
        })
    }

    /// The events before the move numbered `move_number` (counting from 1), as GTP's
    /// `loadsgf file move_number` wants; all of them if the game is shorter.
    pub fn events_before_move(&self, move_number: usize) -> &[Event] {
        let mut moves_seen = 0;
        for (i, event) in self.events.iter().enumerate() {
            if matches!(event, Event::Move(..)) {
                moves_seen += 1;
                if moves_seen >= move_number {
                    return &self.events[..i];
                }
            }
        }
        &self.events
    }

    /// Who moves after the first `events` events: the last `PL` or the opponent of
    /// the last mover, whichever came later; before either, White after a handicap
    /// and Black otherwise.
    pub fn to_play_after(&self, events: usize) -> Color {
        let start = if self.handicap >= 2 {
            Color::White
        } else {
            Color::Black
        };
        self.events
            .iter()
            .take(events)
            .fold(start, |to_play, event| match event {
                Event::Move(color, _) => color.opponent(),
                Event::Setup(setup) => setup.to_play.unwrap_or(to_play),
            })
    }

    /// Who moves at the end of the record.
    pub fn to_play(&self) -> Color {
        self.to_play_after(self.events.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str, size: usize) -> Vertex {
        Vertex::parse_on(text, size).expect("test vertex")
    }

    fn play(color: Color, text: &str, size: usize) -> Event {
        Event::Move(color, MoveVertex::Play(v(text, size)))
    }

    fn setup_event(setup: Setup) -> Event {
        Event::Setup(Box::new(setup))
    }

    fn record(text: &str) -> GoRecord {
        GoRecord::from_sgf(text).expect("reads")
    }

    fn error(text: &str) -> String {
        GoRecord::from_sgf(text)
            .expect_err("must be rejected")
            .to_string()
    }

    fn assert_round_trip(record: &GoRecord) {
        let text = record.to_sgf();
        assert_eq!(GoRecord::from_sgf(&text).as_ref(), Ok(record), "{text}");
    }

    #[test]
    fn coordinates_turn_upside_down() {
        let r = record("(;SZ[9];B[aa];W[ai];B[ia];W[ee])");
        assert_eq!(
            r.events,
            [
                play(Color::Black, "A9", 9),
                play(Color::White, "A1", 9),
                play(Color::Black, "J9", 9),
                play(Color::White, "E5", 9),
            ]
        );
        let r = record("(;SZ[25];B[yy];W[ay])");
        assert_eq!(
            r.events,
            [play(Color::Black, "Z1", 25), play(Color::White, "A1", 25)]
        );
        assert_eq!(
            record("(;SZ[1];B[aa])").events,
            [play(Color::Black, "A1", 1)]
        );
    }

    #[test]
    fn game_information() {
        let r = record(
            "(;GM[1]FF[4]SZ[13]KM[6.5]HA[2]RU[Chinese]RE[W+R]PB[Black\\]Bot]PW[Line\nbreak]AB[dd][jj])",
        );
        assert_eq!(r.size, 13);
        assert_eq!(r.komi, Some(6.5));
        assert_eq!(r.handicap, 2);
        assert_eq!(r.rules.as_deref(), Some("Chinese"));
        assert_eq!(r.rule_set(), Some(RuleSet::Chinese));
        assert_eq!(r.result.as_deref(), Some("W+R"));
        assert_eq!(r.player_black.as_deref(), Some("Black]Bot"));
        assert_eq!(r.player_white.as_deref(), Some("Line break"));
        assert_eq!(r.to_play(), Color::White);
        let defaults = record("(;C[nothing])");
        assert_eq!(defaults, GoRecord::new(19));
        assert_eq!(defaults.to_play(), Color::Black);
        assert_eq!(record("(;KM[-5])").komi, Some(-5.0));
        assert_eq!(record("(;KM[ 7,5 ])").komi, Some(7.5));
        assert_eq!(record("(;KM[]HA[])").komi, None);
        assert_eq!(record("(;SZ[19:19])").size, 19);
    }

    #[test]
    fn game_information_below_the_root() {
        let r = record("(;GM[1]SZ[9];KM[5.5]PB[first];KM[7]PB[second]B[ee])");
        assert_eq!(r.komi, Some(5.5));
        assert_eq!(r.player_black.as_deref(), Some("first"));
        assert_round_trip(&r);
    }

    #[test]
    fn pass_forms() {
        assert_eq!(
            record("(;SZ[9];B[tt])").moves().next(),
            Some((Color::Black, MoveVertex::Pass))
        );
        let r = record("(;SZ[19];B[];W[tt];B[ ])");
        assert_eq!(r.moves().count(), 3);
        assert!(r.moves().all(|(_, mv)| mv == MoveVertex::Pass));
        assert_round_trip(&r);
        // Uppercase letters are coordinates 27 to 52, never a pass.
        assert!(GoRecord::from_sgf("(;SZ[19];W[TT])").is_err());
        // On boards of 20 and more, `tt` is the point at column 20, row 20 from the top.
        let r = record("(;SZ[20];B[tt];W[])");
        assert_eq!(
            r.events,
            [
                play(Color::Black, "U1", 20),
                Event::Move(Color::White, MoveVertex::Pass)
            ]
        );
        assert_round_trip(&r);
    }

    #[test]
    fn setup_lists_and_compressed_points() {
        let r = record("(;SZ[5]AB[aa:bc][ee]AW[ca:cb]AE[];PL[W])");
        let Event::Setup(setup) = &r.events[0] else {
            panic!("setup expected: {:?}", r.events);
        };
        let mut black = vec![
            v("A5", 5),
            v("A4", 5),
            v("A3", 5),
            v("B5", 5),
            v("B4", 5),
            v("B3", 5),
            v("E1", 5),
        ];
        black.sort();
        assert_eq!(setup.black, black);
        assert_eq!(setup.white, [v("C4", 5), v("C5", 5)]);
        assert!(setup.empty.is_empty());
        assert_eq!(
            r.events[1],
            setup_event(Setup {
                to_play: Some(Color::White),
                ..Setup::default()
            })
        );
        // Corners in the other order name the same rectangle.
        assert_eq!(
            record("(;SZ[5]AB[bc:aa])").events,
            record("(;SZ[5]AB[aa:bc])").events
        );
        assert_round_trip(&r);
    }

    #[test]
    fn setup_interleaves_with_moves_in_order() {
        let r = record("(;SZ[9]AB[cc];W[gg];AE[cc]AW[dd];B[ee]AB[ff];W[])");
        assert_eq!(
            r.events,
            [
                setup_event(Setup {
                    black: vec![v("C7", 9)],
                    ..Setup::default()
                }),
                play(Color::White, "G3", 9),
                setup_event(Setup {
                    white: vec![v("D6", 9)],
                    empty: vec![v("C7", 9)],
                    ..Setup::default()
                }),
                // Setup first within a node, as the spec asks.
                setup_event(Setup {
                    black: vec![v("F4", 9)],
                    ..Setup::default()
                }),
                play(Color::Black, "E5", 9),
                Event::Move(Color::White, MoveVertex::Pass),
            ]
        );
        assert_eq!(r.events_before_move(1).len(), 1);
        assert_eq!(r.events_before_move(2).len(), 4);
        assert_eq!(r.events_before_move(99).len(), 6);
        assert_eq!(r.to_play_after(1), Color::Black);
        assert_eq!(r.to_play_after(2), Color::Black);
        assert_eq!(r.to_play(), Color::Black);
        assert_round_trip(&r);
    }

    #[test]
    fn later_mention_of_a_point_wins_within_a_node() {
        let r = record("(;SZ[9]AB[aa][bb]AW[aa]AE[bb])");
        assert_eq!(
            r.events,
            [setup_event(Setup {
                white: vec![v("A9", 9)],
                empty: vec![v("B8", 9)],
                ..Setup::default()
            })]
        );
    }

    #[test]
    fn main_line_takes_first_variations() {
        let r = record("(;SZ[9];B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee]))");
        let moves: Vec<_> = r.moves().map(|(_, mv)| mv.to_string()).collect();
        assert_eq!(moves, ["A9", "B8", "C7"]);
    }

    #[test]
    fn only_the_first_games_main_line_is_read() {
        let text = "(;SZ[9];B[aa](;W[bb](;B[cc])(;B[zz]))(;W[zz]))(;GM[2]SZ[99];B[zz])";
        let r = record(text);
        let moves: Vec<_> = r.moves().map(|(_, mv)| mv.to_string()).collect();
        assert_eq!(moves, ["A9", "B8", "C7"]);
        let tree = &super::super::parse_collection(text).expect("parses")[0];
        assert_eq!(GoRecord::from_game_tree(tree).as_ref(), Ok(&r));
    }

    #[test]
    fn a_syntax_error_anywhere_wins_over_a_record_error() {
        assert_eq!(
            error("(;SZ[9];B[zz];W[aa]"),
            "game tree opened here is never closed: missing ')' before the end at line 1, column 1"
        );
        assert_eq!(
            error("(;GM[2])(;B[aa]C)"),
            "property C has no value: expected '[' at line 1, column 17"
        );
        // Else the first record error on the main line.
        assert_eq!(
            error("(;SZ[9];B[zz];W[yy])"),
            "B[zz] in node 2 of the main line: not a point on the board, nor a pass ([] or [tt])"
        );
    }

    #[test]
    fn setup_points_are_limited() {
        let nodes = super::super::MAX_SETUP_POINTS / 361;
        let ok = format!("(;{})", ";AB[aa:ss]".repeat(nodes));
        assert_eq!(record(&ok).events.len(), nodes);
        let over = format!("(;{})", ";AB[aa:ss]".repeat(nodes + 1));
        assert_eq!(
            error(&over),
            format!(
                "setup in node {} of the main line takes the record over 1000000 setup points in all",
                nodes + 2
            )
        );
        // Points named twice in one node count once.
        let twice = format!("(;{})", ";AB[aa:ss]AW[aa:ss]AE[aa:ss]".repeat(nodes));
        assert_eq!(record(&twice).events.len(), nodes);
    }

    #[test]
    fn events_stay_small() {
        // Moves are most of a long record: a few bytes each, however setups are kept.
        assert!(std::mem::size_of::<Event>() <= 16);
    }

    #[test]
    fn old_format_files() {
        let r = record("(;GaMe[1]SiZe[9]AddBlack[aa]AddWhite[bb];Black[cc];White[tt];Black[])");
        assert_eq!(r.size, 9);
        assert_eq!(r.events.len(), 4);
        assert_eq!(
            r.moves().filter(|(_, mv)| *mv == MoveVertex::Pass).count(),
            2
        );
    }

    #[test]
    fn go_errors() {
        assert_eq!(
            error("(;GM[2]SZ[8])"),
            "not a Go record: GM[2] (Go is GM[1])"
        );
        assert_eq!(
            error("(;SZ[19:13])"),
            "rectangular boards are not supported (SZ[19:13])"
        );
        assert_eq!(
            error("(;SZ[26])"),
            "unsupported board size SZ[26]: expected a number from 1 to 25"
        );
        assert_eq!(
            error("(;SZ[0])"),
            "unsupported board size SZ[0]: expected a number from 1 to 25"
        );
        assert_eq!(
            error("(;SZ[big])"),
            "unsupported board size SZ[big]: expected a number from 1 to 25"
        );
        assert_eq!(
            error("(;SZ[9];B[jj])"),
            "B[jj] in node 2 of the main line: not a point on the board, nor a pass ([] or [tt])"
        );
        assert_eq!(
            error("(;SZ[9];B[abc])"),
            "B[abc] in node 2 of the main line: not a point on the board, nor a pass ([] or [tt])"
        );
        assert_eq!(
            error("(;;;W[aa][bb])"),
            "W[aa][bb] in node 3 of the main line: a move takes exactly one value"
        );
        assert_eq!(
            error("(;AB[aa:zz])"),
            "AB[aa:zz] in node 1 of the main line: not a point or a rectangle of points on the board"
        );
        assert_eq!(
            error("(;AW[a])"),
            "AW[a] in node 1 of the main line: not a point or a rectangle of points on the board"
        );
        assert_eq!(
            error("(;KM[six])"),
            "KM[six] in node 1 of the main line: komi must be a number from -1000 to 1000"
        );
        assert_eq!(
            error("(;KM[NaN])"),
            "KM[NaN] in node 1 of the main line: komi must be a number from -1000 to 1000"
        );
        assert_eq!(
            error("(;KM[1e30])"),
            "KM[1e30] in node 1 of the main line: komi must be a number from -1000 to 1000"
        );
        assert_eq!(
            error("(;HA[-1])"),
            "HA[-1] in node 1 of the main line: the handicap must be a whole number of stones"
        );
        assert_eq!(
            error("(;PL[X])"),
            "PL[X] in node 1 of the main line: expected B or W"
        );
        assert_eq!(
            error("(;SZ[9]"),
            "game tree opened here is never closed: missing ')' before the end at line 1, column 1"
        );
    }

    #[test]
    fn writes_ff4() {
        let mut r = GoRecord::new(9);
        r.komi = Some(7.0);
        r.handicap = 2;
        r.rules = Some(RuleSet::TrompTaylor.sgf_name().to_owned());
        r.result = Some("B+3.5".to_owned());
        r.events = vec![
            setup_event(Setup {
                black: vec![v("C3", 9), v("G7", 9)],
                ..Setup::default()
            }),
            play(Color::White, "E5", 9),
            Event::Move(Color::Black, MoveVertex::Pass),
        ];
        let text = r.to_sgf();
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            text,
            format!(
                "(;GM[1]FF[4]CA[UTF-8]AP[hamle:{version}]SZ[9]KM[7]HA[2]RU[Tromp-Taylor]RE[B+3.5]AB[cg][gc]\n;W[ee];B[])\n"
            )
        );
        assert_round_trip(&r);
        assert_eq!(
            GoRecord::from_sgf(&text).map(|r| r.rule_set()),
            Ok(Some(RuleSet::TrompTaylor))
        );
    }

    #[test]
    fn rule_set_names() {
        for rules in [
            RuleSet::Japanese,
            RuleSet::Chinese,
            RuleSet::Aga,
            RuleSet::NewZealand,
            RuleSet::TrompTaylor,
        ] {
            assert_eq!(RuleSet::from_sgf_name(rules.sgf_name()), Some(rules));
        }
        assert_eq!(
            RuleSet::from_sgf_name("tromp taylor"),
            Some(RuleSet::TrompTaylor)
        );
        assert_eq!(
            RuleSet::from_sgf_name("New Zealand"),
            Some(RuleSet::NewZealand)
        );
        assert_eq!(RuleSet::from_sgf_name("GOE"), None);
    }

    #[test]
    fn off_board_vertices_are_not_written_as_points() {
        let mut r = GoRecord::new(9);
        r.events.push(play(Color::Black, "K10", 19));
        assert!(r.to_sgf().contains(";B[??]"));
        assert!(GoRecord::from_sgf(&r.to_sgf()).is_err());
        let mut r = GoRecord::new(0);
        r.events.push(play(Color::Black, "A1", 19));
        assert!(GoRecord::from_sgf(&r.to_sgf()).is_err());
    }

    #[test]
    fn non_utf8_bytes_read_as_latin1() {
        let r = GoRecord::from_sgf_bytes(b"(;SZ[9]PB[Jos\xe9];B[aa])").expect("reads");
        assert_eq!(r.player_black.as_deref(), Some("José"));
        assert_round_trip(&r);
    }
}
