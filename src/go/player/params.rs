//! The search's tuning knobs ([`Params`]), shared by the tree and the playouts.
//!
//! A room of its own so that the playouts (which read the playout policy's chances) and
//! the tree (which reads the rest) both depend on it without depending on each other
//! the wrong way round: tree → playout → params.

/// The search's tuning knobs. Fixed in play ([`Params::default`]) and, apart from
/// play, in the dead-stone judgement ([`Params::judging`]); a separate value lets tests
/// pit two settings against each other.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Params {
    /// A node is expanded (gets children) once it has been a leaf this many times:
    /// expanding at once would spend memory and time on moves seen once.
    pub(crate) expand_after: u32,
    /// RAVE weight: the AMAF estimate counts as much as the node's own mean after about
    /// this many visits (Gelly and Silver's "equivalence parameter").
    pub(crate) rave_equivalence: f32,
    /// UCB exploration constant. Zero in play: the priors and RAVE spread the visits
    /// well enough, and self-play at 2000 playouts on 9×9 found 0.1 clearly weaker
    /// (17 wins in 60 games against 0).
    pub(crate) exploration: f32,
    /// Prior knowledge, as virtual visits (half of them wins) given to every child...
    pub(crate) prior_even: f32,
    /// ... and the virtual visits each heuristic adds (all wins or all losses).
    pub(crate) prior_bonus: f32,
    /// Playout policy: chances out of 256 of trying tactics and shapes first.
    pub(crate) tactics_chance: u32,
    pub(crate) pattern_chance: u32,
    /// Playout policy: when no capture or escape answers the last move, atari a
    /// two-liberty chain that cannot escape (`tactics.rs`). Off: at 1000 playouts on
    /// 9×9 against the engine without it, it won 60 of 100 games at equal playouts and
    /// 58 of 100 against 1200 playouts (its cost: about a fifth of the playout speed),
    /// but at equal time it is no gain: 52 of 100 against main's engine at 0.25 s a
    /// move each (9×9, about 6,000 playouts; Elo +14 ± 70), as its speed cost eats
    /// what it adds; on a lent 16-core machine, 163 of 353 at 0.25 s a move (Elo −26 ±
    /// 34), and Pachi's judgement of its moves at equal playouts sees no gain either
    /// (protocol.md, "Pachi's judgement as a test"). (It also moved game 14 of GNU Go's
    /// score.tst to a wrong count while the judgement searched with the playing params; the
    /// judgement has its own since, [`Params::judging`], and counts 28 of 29 with the
    /// reader on for play.)
    pub(crate) playout_reading: bool,
    /// Virtual wins for the vital point of a small eye space (nakade, `tactics.rs`).
    /// A prior rather than a playout move: in the playouts the reader cost a fifth of
    /// the playout speed and won 46 of 100 games at equal playouts; as a prior it won 55
    /// of 100 (1000 playouts, 9×9) against the same engine without it (both with the
    /// playout reading on), and 53 of 100 alone against main's engine. Off (0): on, it
    /// changed three answers of the project's own regression suite
    /// (`tests/data/regress/records.tst` 102, 103, 205: J4 and B1 for B2, D2 and G8), so it
    /// proposes vital points where none is at stake; a gain of 53 in 100 does not
    /// outweigh that until the shape test is mended.
    pub(crate) nakade_prior: f32,
    /// Last good reply with forgetting in the playouts: 0 off, 1 LGRF-1, 2 LGRF-2
    /// then LGRF-1. Off: at 5000 playouts on 9×9 against the same engine without it,
    /// LGRF-1 won 50 games of 100 and LGRF-2 27 of 58, and both cost playout speed
    /// (tables scattered in memory, more contact moves); they may pay off with more
    /// playouts or on larger boards, where the literature found them strongest.
    pub(crate) last_good_reply: u8,
    /// Virtual wins a move gets when one of the playouts' 3×3 shape patterns (hane,
    /// cuts, edge blocks) matches around it: the playouts answer with these shapes, and
    /// the tree should try them early too instead of waiting for RAVE to find them.
    pub(crate) pattern_prior: f32,
    /// Virtual wins (and visits) a move gets, at most, for the criticality of its point
    /// in the tree's playouts so far (`criticality.rs`): where owning the point goes
    /// with winning, the move is tried early. Off (0): at 10 it won 47 of 100 against
    /// main's engine at 0.2 s a move each (9×9, Elo -21 ± 69), at no measurable cost in
    /// playout speed; it may pay on larger boards, where races and life decide more.
    pub(crate) criticality_prior: f32,
    /// Virtual visits of the learned move prior (`gammas.rs`): a new child gets them with
    /// its strength over its best sibling's as the share of wins. Off (0) in these
    /// defaults, which the tests and `hamle bench go` search with; the command line's
    /// `--learned-prior` (default `MEASURED_LEARNED_PRIOR`, 4) sets it for play (see
    /// `set_learned_prior`).
    pub(crate) learned_prior: f32,
    /// Playouts stop when one side leads by the board's area divided by this many
    /// stones (0: never).
    pub(crate) mercy_fraction: usize,
}

impl Default for Params {
    /// Play uses the dead-stone judgement's params but for the changes written out here,
    /// which leave [`Params::judging`] (pinned by its test) as it is.
    fn default() -> Params {
        Params {
            expand_after: PLAY_EXPAND_AFTER,
            ..Params::judging()
        }
    }
}

/// [`Params::expand_after`] in play: 4 rather than the judgement's 8, since the learned
/// prior (`gammas.rs`) makes a node's children worth having sooner. At 2,000 playouts on
/// 9×9 (learned prior on) against the same engine at 8 it won 62 and 58 of 100 games
/// (seeds 93 and 101), and 34 of 60 at 8,000, at about 9 % more time a move (0.092 s against 0.085).
const PLAY_EXPAND_AFTER: u32 = 4;

impl Params {
    /// The params of the dead-stone judgement (`status.rs`): written out here, not
    /// derived from [`Params::default`], so that a change to how the engine plays
    /// cannot change how it counts. These are the playing params under which the
    /// judgement passed 28 of GNU Go's 29 `score.tst` games (Japanese rules) and 40 of
    /// 40 of GNU Go's own counts of its self-play games; change them only with both
    /// suites run again (`tests/go/score_suite.rs`, `tests/interop/gnugo_scoring.rs`).
    pub(crate) const fn judging() -> Params {
        Params {
            expand_after: 8,
            rave_equivalence: 2000.0,
            exploration: 0.0,
            prior_even: 10.0,
            prior_bonus: 10.0,
            tactics_chance: 230,
            pattern_chance: 240,
            playout_reading: false,
            nakade_prior: 0.0,
            last_good_reply: 0,
            pattern_prior: 5.0,
            criticality_prior: 0.0,
            learned_prior: 0.0,
            mercy_fraction: 3,
        }
    }
}
