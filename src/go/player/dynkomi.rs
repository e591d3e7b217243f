//! Dynamic komi for handicap games: the komi the search's playouts count with
//! ([`SearchRequest::search_komi`](super::SearchRequest::search_komi)), as opposed to the
//! game's own komi, which still decides the game.
//!
//! Why: in a handicap game the real komi leaves one side far ahead on the board. Taking
//! stones (Black), the win rates of all moves sit near 1, and the search plays slack
//! moves that keep a margin instead of moves that win. Giving stones (White), once nearly
//! every playout is lost, the win rates sit near 0 and the search cannot tell a good move
//! from a bad one. Counting the playouts with a komi that makes the position closer to
//! even gives the search back its signal.
//!
//! How, taking stones (linear handicap compensation, after Pachi's `linear` dynamic
//! komi; our own figures): at the first move White gets an extra komi of [`STONE_VALUE`]
//! points a handicap stone beyond what the real komi already gives it; the extra fades
//! linearly to nothing by move [`fade_moves`] (two fifths of the board's area: 144 on
//! 19×19, 67 on 13×13, 32 on 9×9), from where on the search plays with the real komi.
//! The engine as Black then plays to win by the handicap's worth, not by half a point.
//! The extra is rounded to whole points, so that the komi's fraction (no draws with a
//! half-point komi) stays as it is and the komi changes only every few moves (a kept
//! tree is reused only under the same search komi).
//!
//! Then (adaptive, after the situational modes of Pachi's dynamic komi) the engine
//! corrects the komi from its own searches ([`DynamicKomi`]): when the chosen move's
//! win rate says the game is too sure (or too lost) to read, the next search's komi
//! moves towards the komi at which the search's own score estimate is even, never past
//! it; a komi asked against the engine is given back when the game gets close. Once the
//! linear extra has faded, the correction alone remains, so the endgame of a handicap
//! game is still played for a margin the estimate supports.
//!
//! Giving stones (White), the engine searches with the game's komi: measured on 9×9 with
//! two stones against hamle at a quarter of the playouts (150 games a variant, the same
//! seeds), White with the schedule won 57 games where the game's komi won 76 (31 against
//! 50 game by game), and the adaptive correction alone (when too lost) turned 6 of the
//! game's-komi wins into losses and no loss into a win. Searching with the real komi,
//! White plays for the complications that a weaker opponent loses; with a komi that
//! calls the game closer, it plays calmly and stays behind.
//!
//! An even game (no handicap stones) is searched with the real komi exactly.

use super::{Decision, SearchRequest, SearchResult};
use crate::go::color::Color;

/// Points of extra komi a handicap stone is worth to the search: about half a stone's
/// real value (twice the komi of an even game), so that the search is neither too sure
/// when taking stones nor too hopeful when giving them.
pub const STONE_VALUE: f32 = 7.0;

/// The moves (handicap stones not counted) after which the extra komi is gone: two fifths
/// of the board's area, so that the search plays the endgame, where the game is decided
/// by points, with the real komi.
pub fn fade_moves(area: usize) -> u32 {
    // At most 2 × 625 / 5: fits u32.
    (area * 2 / 5).max(1) as u32
}

/// White's komi for the search's playouts in a game of `area` points with `handicap`
/// stones, real komi `komi` (handicap compensation included) and `move_number` moves
/// played: `komi` itself in an even game, once the extra has faded, and when the real
/// komi already compensates the stones; else `komi` plus the faded extra, in whole
/// points.
pub fn linear_search_komi(komi: f32, handicap: u32, area: usize, move_number: u32) -> f32 {
    let fade = fade_moves(area);
    if handicap == 0 || move_number >= fade {
        return komi;
    }
    // What Black's stones are worth beyond the komi White gets for them; half a point of
    // it is the first move's own advantage, which an even game's komi pays.
    let worth = handicap as f32 * STONE_VALUE + 0.5 - komi;
    if worth.is_nan() || worth <= 0.0 {
        return komi;
    }
    let left = (fade - move_number) as f32 / fade as f32;
    komi + (worth * left).round()
}

/// Below this win rate (the search's, for the side searched, on the move chosen) the
/// position is too lost to read: the search komi moves in the searcher's favour.
pub const TOO_LOST: f32 = 0.2;
/// Above this the position is too sure to read: the search komi moves against the
/// searcher (Pachi's "green zone", about where it starts asking for more).
pub const TOO_SURE: f32 = 0.85;
/// Below this a komi taken against the searcher (after [`TOO_SURE`]) is given back by
/// half: the game got closer than the margin asked for.
pub const GIVE_BACK: f32 = 0.6;

/// The engine's dynamic komi over one handicap game: the linear schedule
/// ([`linear_search_komi`]) and the adaptive correction learnt from the engine's own
/// searches ([`DynamicKomi::learn`]). A value a game, forgotten with it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DynamicKomi {
    /// Off: every search counts with the game's komi (`--dynkomi off`).
    on: bool,
    /// Whole points added to the linear komi (in White's favour when positive).
    offset: f32,
}

/// The komi of one search of a handicap game, kept to learn from its result.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct KomiPlan {
    /// The game's komi and the side searched.
    pub komi: f32,
    pub me: Color,
    /// The linear schedule's komi at the search's move.
    pub linear: f32,
    /// What the playouts count with: the linear komi plus the adaptive offset.
    pub search: f32,
}

impl DynamicKomi {
    /// At the start of a game; `on` false: never another komi than the game's.
    pub fn new(on: bool) -> DynamicKomi {
        DynamicKomi { on, offset: 0.0 }
    }

    /// Forgets what the game taught (a new game starts, or moves were taken back).
    pub fn forget(&mut self) {
        self.offset = 0.0;
    }

    /// The search komi for `request` (its `komi` the game's) in a game of `handicap`
    /// stones, the engine playing `me` (the side to move but when pondering): the linear
    /// schedule plus the adaptive offset when `me` takes the stones (Black); `None` (the
    /// game's komi) when it gives them, in an even game and when off.
    pub fn plan(&self, request: &SearchRequest, handicap: u32, me: Color) -> Option<KomiPlan> {
        if !self.on || handicap == 0 || me == Color::White {
            return None;
        }
        let komi = request.komi;
        let linear = linear_search_komi(komi, handicap, request.board.area(), request.move_number);
        Some(KomiPlan {
            komi,
            me,
            linear,
            search: linear + self.offset,
        })
    }

    /// Learns from the result of a search made under `plan`, for the next search of
    /// the game: when the chosen move's win rate leaves the band from `TOO_LOST` to
    /// `TOO_SURE`, the search komi moves half way towards the komi at which the
    /// move's score estimate (the mean playout margin, counted with the game's komi)
    /// is even, and never past it: the search then reads the game as closer, but no
    /// closer than its own estimate says it is.
    pub fn learn(&mut self, plan: &KomiPlan, result: &SearchResult) {
        let mv = match result.decision {
            Decision::Play(p) => Some(p),
            Decision::Pass => None,
            Decision::Resign => return,
        };
        let Some(chosen) = result.root_moves.iter().find(|m| m.mv == mv) else {
            return;
        };
        let black_lead = match plan.me {
            Color::Black => chosen.score_lead,
            Color::White => -chosen.score_lead,
        };
        let next = adapted_komi(plan, result.win_rate, plan.komi + black_lead);
        if next.is_finite() {
            self.offset = next - plan.linear;
        }
    }
}

/// The search komi after a search under `plan` whose chosen move's win rate was
/// `win_rate` and whose score estimate is even at komi `even` (see
/// [`DynamicKomi::learn`]); moves are whole points, so the komi's fraction stays.
pub fn adapted_komi(plan: &KomiPlan, win_rate: f32, even: f32) -> f32 {
    let search = plan.search;
    // +1: the direction of White's favour, -1 of Black's.
    let mine = match plan.me {
        Color::White => 1.0,
        Color::Black => -1.0,
    };
    if win_rate < GIVE_BACK && (search - plan.linear) * mine < 0.0 {
        // Give back half of what was asked beyond the schedule (at least a point).
        let taken = (search - plan.linear).abs();
        return search + mine * (taken / 2.0).ceil().min(taken);
    }
    let toward = if win_rate < TOO_LOST {
        mine
    } else if win_rate > TOO_SURE {
        -mine
    } else {
        return search;
    };
    let gap = even - search;
    // The estimate must lie on the side the win rate points to, a point away at least.
    let whole = (gap * toward).floor();
    if whole.is_nan() || whole < 1.0 {
        return search;
    }
    search + toward * (whole / 2.0).ceil()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_game_keeps_its_komi_exactly() {
        for move_number in [0, 1, 10, 100, 400] {
            for komi in [7.5, 6.5, 0.5, -3.0] {
                let search = linear_search_komi(komi, 0, 361, move_number);
                assert_eq!(search.to_bits(), komi.to_bits(), "{komi} at {move_number}");
            }
        }
    }

    #[test]
    fn a_handicap_favours_white_and_fades_to_the_real_komi() {
        // 19×19, four stones, komi 0.5: 28 points at first, none from move 144 on.
        assert_eq!(fade_moves(361), 144);
        assert_eq!(linear_search_komi(0.5, 4, 361, 0), 28.5);
        assert_eq!(linear_search_komi(0.5, 4, 361, 72), 14.5);
        assert_eq!(linear_search_komi(0.5, 4, 361, 144), 0.5);
        assert_eq!(linear_search_komi(0.5, 4, 361, 300), 0.5);
        let mut before = f32::INFINITY;
        for move_number in 0..=150 {
            let komi = linear_search_komi(0.5, 4, 361, move_number);
            assert!(komi <= before && komi >= 0.5, "{komi} at {move_number}");
            assert_eq!(komi.fract(), 0.5, "the half point stays at {move_number}");
            before = komi;
        }
    }

    #[test]
    fn the_real_komi_counts_against_the_extra() {
        // Chinese rules: 2 stones, komi 0.5 plus 2 points of compensation; 9×9 fades by
        // move 32.
        assert_eq!(fade_moves(81), 32);
        assert_eq!(linear_search_komi(2.5, 2, 81, 0), 14.5);
        // A komi that already pays for the stones adds nothing.
        assert_eq!(linear_search_komi(20.5, 2, 81, 0), 20.5);
        assert!(linear_search_komi(f32::NAN, 2, 81, 0).is_nan());
    }
}

/// The adaptive correction: which way the search komi moves, how far, and where it stops.
#[cfg(test)]
mod adaptive {
    use super::*;
    use crate::go::board::Board;
    use crate::go::player::tests::{chinese, request};

    /// White giving stones, after the linear extra has faded: komi 2.5.
    fn white_at(search: f32) -> KomiPlan {
        KomiPlan {
            komi: 2.5,
            me: Color::White,
            linear: 2.5,
            search,
        }
    }

    #[test]
    fn too_lost_moves_half_way_towards_the_estimate_and_never_past_it() {
        // Black leads by 20 on the estimate: even at komi 22.5.
        assert_eq!(adapted_komi(&white_at(2.5), 0.05, 22.5), 12.5);
        assert_eq!(adapted_komi(&white_at(12.5), 0.1, 22.5), 17.5);
        assert_eq!(adapted_komi(&white_at(21.5), 0.1, 22.5), 22.5);
        assert_eq!(adapted_komi(&white_at(22.5), 0.1, 22.7), 22.5);
        // Within the band, or an estimate on the other side: no change.
        assert_eq!(adapted_komi(&white_at(12.5), 0.5, 22.5), 12.5);
        assert_eq!(adapted_komi(&white_at(12.5), 0.1, 2.5), 12.5);
    }

    #[test]
    fn too_sure_asks_for_more_and_gives_it_back_when_close() {
        // Black taking stones, 15 ahead on the estimate (even at komi 17.5).
        let black = |search: f32| KomiPlan {
            komi: 2.5,
            me: Color::Black,
            linear: 2.5,
            search,
        };
        assert_eq!(adapted_komi(&black(2.5), 0.95, 17.5), 10.5);
        assert_eq!(adapted_komi(&black(10.5), 0.9, 17.5), 14.5);
        // Never past the estimate.
        assert_eq!(adapted_komi(&black(17.5), 0.99, 17.5), 17.5);
        // Closer than asked: half of the komi taken beyond the schedule comes back.
        assert_eq!(adapted_komi(&black(14.5), 0.5, 17.5), 8.5);
        assert_eq!(adapted_komi(&black(3.5), 0.3, 17.5), 2.5);
        // White too sure the same way: the komi goes down, towards the estimate.
        assert_eq!(adapted_komi(&white_at(2.5), 0.95, -9.5), -3.5);
    }

    #[test]
    fn the_offset_follows_the_schedule_and_is_forgotten() {
        let mut dynkomi = DynamicKomi::new(true);
        dynkomi.offset = 3.0;
        let board = Board::new(9).expect("9x9");
        let rules = chinese();
        let mut req = request(&board, Color::Black, &rules, 10);
        req.komi = 2.5;
        req.move_number = 0;
        let plan = dynkomi
            .plan(&req, 2, Color::Black)
            .expect("a handicap game");
        assert_eq!((plan.linear, plan.search), (14.5, 17.5));
        // Giving the stones: the game's komi.
        assert_eq!(dynkomi.plan(&req, 2, Color::White), None);
        assert_eq!(dynkomi.plan(&req, 0, Color::Black), None);
        assert_eq!(DynamicKomi::new(false).plan(&req, 2, Color::Black), None);
        dynkomi.forget();
        assert_eq!(
            dynkomi.plan(&req, 2, Color::Black).map(|p| p.search),
            Some(14.5)
        );
    }
}

/// The search's komi moves the playouts' verdicts only: what the player decides against
/// the game (passing, resigning) and the scores it reports stay the game's.
#[cfg(test)]
mod decisions {
    use crate::go::board::Board;
    use crate::go::color::Color;
    use crate::go::player::tests::{board_from, chinese, request};
    use crate::go::player::{Decision, ResignPolicy, search};

    /// Black walls column C, White column D, both alive: Black's area is 15, White's 10,
    /// and each side may still play inside its own.
    fn walls() -> Board {
        board_from(&[
            ". . X O .",
            ". . X O .",
            ". . X O .",
            ". . X O .",
            ". . X O .",
        ])
    }

    #[test]
    fn scores_are_reported_with_the_game_komi() {
        let board = walls();
        let rules = chinese();
        let lead = |search_komi: Option<f32>| {
            let mut req = request(&board, Color::Black, &rules, 1000);
            req.komi = 0.5;
            req.search_komi = search_komi;
            let result = search(&req);
            let best = result
                .root_moves
                .iter()
                .max_by_key(|m| m.visits)
                .expect("root moves");
            (best.score_lead, best.win_rate)
        };
        let (real_lead, real_rate) = lead(None);
        let (dynamic_lead, dynamic_rate) = lead(Some(20.5));
        // Black leads by about 4.5 either way; only the win rates see the search komi.
        assert!((real_lead - 4.5).abs() < 3.0, "{real_lead}");
        assert!((dynamic_lead - 4.5).abs() < 3.0, "{dynamic_lead}");
        assert!(
            real_rate > 0.8 && dynamic_rate < 0.2,
            "{real_rate} {dynamic_rate}"
        );
    }

    #[test]
    fn passing_is_decided_with_the_game_komi() {
        let board = walls();
        let rules = chinese();
        let mut req = request(&board, Color::Black, &rules, 500);
        req.komi = 0.5;
        // Every playout is lost by 15.5 under this komi, but passing now wins by 4.5.
        req.search_komi = Some(20.5);
        req.opponent_passed = true;
        assert_eq!(search(&req).decision, Decision::Pass);
    }

    #[test]
    fn a_search_komi_against_it_never_makes_it_resign() {
        let board = Board::new(7).expect("7x7");
        let rules = chinese();
        let resigns = |komi: f32, search_komi: Option<f32>| {
            let mut req = request(&board, Color::Black, &rules, 1000);
            req.komi = komi;
            req.search_komi = search_komi;
            req.resign = ResignPolicy {
                min_move_number: Some(0),
                ..ResignPolicy::default()
            };
            search(&req).decision == Decision::Resign
        };
        // Under a komi of 60.5 every playout of a 7×7 board (49 points) is lost...
        assert!(resigns(60.5, None));
        // ... but that is the search's komi only: the game's is 0.5.
        assert!(!resigns(0.5, Some(60.5)));
    }
}
