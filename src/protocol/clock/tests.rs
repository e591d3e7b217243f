//! The clock's tests: the allotments, the engine's own account of each system (durations
//! passed in, nothing sleeps), `time_left` over that account, and the command parser.

use super::*;

fn secs(d: Option<Duration>) -> f64 {
    d.map_or(f64::NAN, |d| d.as_secs_f64())
}

#[test]
fn gtp_time_settings_meanings() {
    assert_eq!(TimeSystem::from_gtp(0.0, 1.0, 0), TimeSystem::Unlimited);
    assert_eq!(
        TimeSystem::from_gtp(300.0, 0.0, 0),
        TimeSystem::Absolute { main: 300.0 }
    );
    assert_eq!(
        TimeSystem::from_gtp(600.0, 300.0, 25),
        TimeSystem::Canadian {
            main: 600.0,
            period: 300.0,
            stones: 25
        }
    );
}

#[test]
fn no_clock_means_no_allotment() {
    assert_eq!(Clock::default().allotment(0, 40), None);
}

#[test]
fn absolute_time_is_spread_over_the_moves_left() {
    let mut clock = Clock::new(TimeSystem::Absolute { main: 600.0 });
    assert!((secs(clock.allotment(0, 60)) - 9.7).abs() < 1e-9);
    clock.set_time_left(0, 30.0, 0);
    assert!((secs(clock.allotment(0, 60)) - 0.4).abs() < 1e-9);
    // White's clock is untouched by Black's time_left.
    assert!((secs(clock.allotment(1, 60)) - 9.7).abs() < 1e-9);
}

#[test]
fn canadian_overtime_divides_by_stones_left() {
    let mut clock = Clock::new(TimeSystem::Canadian {
        main: 0.0,
        period: 100.0,
        stones: 10,
    });
    clock.set_time_left(1, 40.0, 4);
    assert!((secs(clock.allotment(1, 50)) - (9.0 - SAFETY_MARGIN)).abs() < 1e-9);
}

#[test]
fn japanese_periods_use_most_of_a_period() {
    let mut clock = Clock::new(TimeSystem::Byoyomi {
        main: 0.0,
        period: 10.0,
        periods: 3,
    });
    clock.set_time_left(0, 10.0, 3);
    assert!((secs(clock.allotment(0, 50)) - (8.0 - SAFETY_MARGIN)).abs() < 1e-9);
}

#[test]
fn absurd_clocks_stay_within_a_day() {
    let clock = Clock::new(TimeSystem::Absolute { main: f64::MAX });
    assert_eq!(secs(clock.allotment(0, 1)), MAX_ALLOTMENT_SECONDS);
    let clock = Clock::new(TimeSystem::Canadian {
        main: 0.0,
        period: f64::MAX,
        stones: 1,
    });
    assert_eq!(secs(clock.allotment(0, 1)), MAX_ALLOTMENT_SECONDS);
}

#[test]
fn allotment_never_drops_to_zero() {
    let mut clock = Clock::new(TimeSystem::Absolute { main: 1.0 });
    clock.set_time_left(0, 0.0, 0);
    assert!(secs(clock.allotment(0, 100)) > 0.0);
}

#[test]
fn canadian_main_time_adds_half_a_stone_share() {
    let clock = Clock::new(TimeSystem::Canadian {
        main: 600.0,
        period: 300.0,
        stones: 25,
    });
    // 600 / 60 + 300 / 25 * 0.5 = 16 seconds, less the margin.
    assert!((secs(clock.allotment(0, 60)) - (16.0 - SAFETY_MARGIN)).abs() < 1e-9);
}

#[test]
fn japanese_main_time_never_gives_less_than_most_of_a_period() {
    let mut clock = Clock::new(TimeSystem::Byoyomi {
        main: 600.0,
        period: 30.0,
        periods: 5,
    });
    // Fresh: 600 / 100 = 6 s, raised to 0.8 of a period.
    assert!((secs(clock.allotment(1, 100)) - (24.0 - SAFETY_MARGIN)).abs() < 1e-9);
    clock.set_time_left(1, 500.0, 0);
    assert!((secs(clock.allotment(1, 10)) - (50.0 - SAFETY_MARGIN)).abs() < 1e-9);
}

#[test]
fn a_period_reset_restores_the_full_allotment() {
    let mut byoyomi = Clock::new(TimeSystem::Byoyomi {
        main: 0.0,
        period: 10.0,
        periods: 3,
    });
    // Late in a period: only what is left of it counts.
    byoyomi.set_time_left(0, 2.0, 3);
    assert!((secs(byoyomi.allotment(0, 50)) - (1.6 - SAFETY_MARGIN)).abs() < 1e-9);
    // A move made in time resets the period.
    byoyomi.set_time_left(0, 10.0, 3);
    assert!((secs(byoyomi.allotment(0, 50)) - (8.0 - SAFETY_MARGIN)).abs() < 1e-9);

    let mut canadian = Clock::new(TimeSystem::Canadian {
        main: 0.0,
        period: 100.0,
        stones: 10,
    });
    canadian.set_time_left(1, 5.0, 1);
    assert!((secs(canadian.allotment(1, 50)) - (4.5 - SAFETY_MARGIN)).abs() < 1e-9);
    // The period's stones were played: a fresh period of 10 stones in 100 seconds.
    canadian.set_time_left(1, 100.0, 10);
    assert!((secs(canadian.allotment(1, 50)) - (9.0 - SAFETY_MARGIN)).abs() < 1e-9);
}

#[test]
fn new_settings_forget_time_left_and_what_was_charged() {
    let mut clock = Clock::new(TimeSystem::Absolute { main: 600.0 });
    charge(&mut clock, 1, 50.0);
    clock.apply(ClockCommand::TimeLeft {
        seat: 0,
        seconds: 6.0,
        stones: 0,
    });
    assert!((secs(clock.allotment(0, 10)) - (0.6 - 0.12)).abs() < 1e-9);
    clock.apply(ClockCommand::Settings(TimeSystem::Absolute { main: 100.0 }));
    assert!((secs(clock.allotment(0, 10)) - (10.0 - SAFETY_MARGIN)).abs() < 1e-9);
    assert_left(&clock, 1, 100.0, 0);
    clock.apply(ClockCommand::Settings(TimeSystem::Unlimited));
    assert_eq!(clock.allotment(0, 10), None);
}

#[test]
fn a_new_game_restarts_both_accounts_under_the_same_settings() {
    let system = TimeSystem::Canadian {
        main: 60.0,
        period: 30.0,
        stones: 5,
    };
    let mut clock = Clock::new(system);
    charge(&mut clock, 0, 70.0);
    charge(&mut clock, 1, 20.0);
    clock.restart();
    assert_eq!(clock.system(), system);
    assert_left(&clock, 0, 60.0, 0);
    assert_left(&clock, 1, 60.0, 0);
}

fn assert_left(clock: &Clock, seat: usize, seconds: f64, stones: u32) {
    let left = clock.time_left(seat);
    assert!(
        (left.seconds - seconds).abs() < 1e-9 && left.stones == stones,
        "seat {seat}: {left:?}, expected {seconds} s and {stones}"
    );
}

fn charge(clock: &mut Clock, seat: usize, seconds: f64) {
    clock.charge(seat, Duration::from_secs_f64(seconds));
}

/// What a move that took `seconds` costs the engine's account.
fn cost(seconds: f64) -> f64 {
    seconds + UNSEEN_LATENCY
}

#[test]
fn no_clock_charges_nothing() {
    let mut clock = Clock::default();
    charge(&mut clock, 0, 5.0);
    assert_eq!(clock, Clock::default());
    assert_eq!(clock.allotment(0, 10), None);
}

#[test]
fn absolute_time_is_charged_and_the_next_allotment_shrinks() {
    let mut clock = Clock::new(TimeSystem::Absolute { main: 60.0 });
    assert!((secs(clock.allotment(0, 20)) - 2.7).abs() < 1e-9);
    charge(&mut clock, 0, 10.0);
    assert_left(&clock, 0, 60.0 - cost(10.0), 0);
    let expected = (60.0 - cost(10.0)) / 20.0 - SAFETY_MARGIN;
    assert!((secs(clock.allotment(0, 20)) - expected).abs() < 1e-9);
    // White's clock runs apart.
    assert_left(&clock, 1, 60.0, 0);
    // A clock run out stays at zero and gives a move as little as it can.
    charge(&mut clock, 0, 100.0);
    assert_left(&clock, 0, 0.0, 0);
    assert_eq!(secs(clock.allotment(0, 20)), LAST_ALLOTMENT_SECONDS);
}

#[test]
fn a_long_game_without_time_left_ends_within_the_main_time() {
    // gogui-twogtp's way: settings once, never `time_left`. Each move overruns its
    // allotment by 20 ms and the controller sees 10 ms the engine does not; 80 moves
    // outlast the estimate of 15 moves left many times over.
    let mut clock = Clock::new(TimeSystem::Absolute { main: 60.0 });
    let mut controller = 0.0;
    for _ in 0..80 {
        let took = secs(clock.allotment(0, 15)) + 0.02;
        controller += took + 0.01;
        charge(&mut clock, 0, took);
    }
    assert!(controller < 60.0, "the controller counted {controller} s");
}

#[test]
fn japanese_byoyomi_resets_a_period_met_and_loses_a_period_overrun() {
    let mut clock = Clock::new(TimeSystem::Byoyomi {
        main: 10.0,
        period: 5.0,
        periods: 3,
    });
    charge(&mut clock, 0, 4.0);
    assert_left(&clock, 0, 10.0 - cost(4.0), 0);
    // Main time runs out during the move, which is made in the first period: it resets.
    charge(&mut clock, 0, 8.0);
    assert_left(&clock, 0, 5.0, 3);
    charge(&mut clock, 0, 4.0);
    assert_left(&clock, 0, 5.0, 3);
    assert!((secs(clock.allotment(0, 30)) - (4.0 - SAFETY_MARGIN)).abs() < 1e-9);
    // A period overrun is lost; the move is made in the next, which resets.
    charge(&mut clock, 0, 7.0);
    assert_left(&clock, 0, 5.0, 2);
    // Overrunning both periods left runs out of time for good.
    charge(&mut clock, 0, 12.0);
    assert_left(&clock, 0, 0.0, 1);
    charge(&mut clock, 0, 0.5);
    assert_left(&clock, 0, 0.0, 1);
    assert_eq!(secs(clock.allotment(0, 30)), LAST_ALLOTMENT_SECONDS);
}

#[test]
fn japanese_byoyomi_without_main_time_starts_in_a_period() {
    let mut clock = Clock::new(TimeSystem::Byoyomi {
        main: 0.0,
        period: 10.0,
        periods: 5,
    });
    assert_left(&clock, 1, 10.0, 5);
    // Two whole periods overrun: the move is made in the third, which resets.
    charge(&mut clock, 1, 25.0);
    assert_left(&clock, 1, 10.0, 3);
    // What `time_left` says is left of a period counts: 2 s of the 3 left is in time.
    clock.set_time_left(1, 3.0, 3);
    charge(&mut clock, 1, 2.0);
    assert_left(&clock, 1, 10.0, 3);
}

#[test]
fn canadian_overtime_counts_stones_and_starts_a_period_afresh() {
    let mut clock = Clock::new(TimeSystem::Canadian {
        main: 10.0,
        period: 20.0,
        stones: 2,
    });
    // The move that crosses into overtime is the period's first stone.
    charge(&mut clock, 0, 12.0);
    assert_left(&clock, 0, 20.0 - (cost(12.0) - 10.0), 1);
    let expected = (20.0 - (cost(12.0) - 10.0)) * 0.9 - SAFETY_MARGIN;
    assert!((secs(clock.allotment(0, 30)) - expected).abs() < 1e-9);
    // The period's stones are played: a fresh period.
    charge(&mut clock, 0, 3.0);
    assert_left(&clock, 0, 20.0, 2);
    charge(&mut clock, 0, 5.0);
    assert_left(&clock, 0, 20.0 - cost(5.0), 1);
    // The time of the period runs out before its stones are played.
    charge(&mut clock, 0, 15.0);
    assert_left(&clock, 0, 0.0, 1);
    charge(&mut clock, 0, 0.5);
    assert_left(&clock, 0, 0.0, 1);
    assert_eq!(secs(clock.allotment(0, 30)), LAST_ALLOTMENT_SECONDS);
}

#[test]
fn canadian_without_main_time_starts_in_a_period() {
    let mut clock = Clock::new(TimeSystem::Canadian {
        main: 0.0,
        period: 60.0,
        stones: 10,
    });
    assert_left(&clock, 0, 60.0, 10);
    charge(&mut clock, 0, 4.0);
    assert_left(&clock, 0, 60.0 - cost(4.0), 9);
}

#[test]
fn time_left_overrides_the_engines_own_account() {
    let mut clock = Clock::new(TimeSystem::Absolute { main: 60.0 });
    charge(&mut clock, 0, 20.0);
    clock.apply(ClockCommand::TimeLeft {
        seat: 0,
        seconds: 30.0,
        stones: 0,
    });
    assert_left(&clock, 0, 30.0, 0);
    // The engine counts on from what the controller said.
    charge(&mut clock, 0, 10.0);
    assert_left(&clock, 0, 30.0 - cost(10.0), 0);

    let mut canadian = Clock::new(TimeSystem::Canadian {
        main: 600.0,
        period: 300.0,
        stones: 25,
    });
    canadian.set_time_left(1, 40.0, 4);
    charge(&mut canadian, 1, 1.0);
    assert_left(&canadian, 1, 40.0 - cost(1.0), 3);
}

const SIDES: &str = "a color (b or w)";

fn side(word: &str) -> Option<usize> {
    match word {
        "b" => Some(0),
        "w" => Some(1),
        "x" => Some(2), // a broken game mapping: refused, not a panic later
        _ => None,
    }
}

fn parse(line: &str) -> Result<ClockCommand, GtpError> {
    let command = super::super::parse_command(line).expect("a command");
    ClockCommand::parse(&command, SIDES, side)
}

fn error(line: &str) -> String {
    parse(line).expect_err(line).to_string()
}

#[test]
fn the_parser_reads_the_three_commands() {
    assert_eq!(
        parse("time_settings 300 30 5"),
        Ok(ClockCommand::Settings(TimeSystem::Canadian {
            main: 300.0,
            period: 30.0,
            stones: 5
        }))
    );
    assert_eq!(
        parse("time_settings 300 0 0"),
        Ok(ClockCommand::Settings(TimeSystem::Absolute { main: 300.0 }))
    );
    assert_eq!(
        parse("time_left w 25.5 3"),
        Ok(ClockCommand::TimeLeft {
            seat: 1,
            seconds: 25.5,
            stones: 3
        })
    );
    assert_eq!(
        parse("kgs-time_settings none"),
        Ok(ClockCommand::Settings(TimeSystem::Unlimited))
    );
    assert_eq!(
        parse("kgs-time_settings ABSOLUTE 600"),
        Ok(ClockCommand::Settings(TimeSystem::Absolute { main: 600.0 }))
    );
    assert_eq!(
        parse("kgs-time_settings byoyomi 600 30 5"),
        Ok(ClockCommand::Settings(TimeSystem::Byoyomi {
            main: 600.0,
            period: 30.0,
            periods: 5
        }))
    );
    assert_eq!(
        parse("kgs-time_settings canadian 600 300 25"),
        Ok(ClockCommand::Settings(TimeSystem::Canadian {
            main: 600.0,
            period: 300.0,
            stones: 25
        }))
    );
}

#[test]
fn the_parser_names_what_was_wrong() {
    const KGS_USAGE: &str = "syntax error: usage: kgs-time_settings none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones>";
    assert_eq!(
        error("time_settings 300 30"),
        "syntax error: usage: time_settings <main_time> <byo_yomi_time> <byo_yomi_stones>"
    );
    assert_eq!(
        error("time_settings 10 x 0"),
        "syntax error: expected a number of seconds, got 'x'"
    );
    assert_eq!(
        error("time_settings -5 0 0"),
        "syntax error: expected a number of seconds, got '-5'"
    );
    assert_eq!(
        error("time_settings 1e308 0 0"),
        "syntax error: expected a number of seconds, got '1e308'"
    );
    assert_eq!(
        error("time_settings 300 30 -1"),
        "syntax error: expected a number of stones, got '-1'"
    );
    assert_eq!(
        error("time_left b 10"),
        "syntax error: usage: time_left <color> <time> <stones>"
    );
    assert_eq!(
        error("time_left purple 10 0"),
        "syntax error: expected a color (b or w), got 'purple'"
    );
    assert_eq!(
        error("time_left x 10 0"),
        "syntax error: expected a color (b or w), got 'x'"
    );
    assert_eq!(
        error("time_left w 1e400 0"),
        "syntax error: expected a number of seconds, got '1e400'"
    );
    assert_eq!(
        error("time_left w nan 0"),
        "syntax error: expected a number of seconds, got 'nan'"
    );
    assert_eq!(error("kgs-time_settings"), KGS_USAGE);
    assert_eq!(error("kgs-time_settings sudden 10"), KGS_USAGE);
    assert_eq!(error("kgs-time_settings absolute"), KGS_USAGE);
    assert_eq!(error("kgs-time_settings byoyomi 600 30"), KGS_USAGE);
    assert_eq!(
        error("kgs-time_settings byoyomi 600 30 many"),
        "syntax error: expected a number of periods, got 'many'"
    );
    assert_eq!(
        error("kgs-time_settings canadian 600 300 0"),
        "syntax error: canadian byo-yomi needs at least 1 stone a period"
    );
    assert_eq!(error("time_elapsed b 10 0"), "unknown command");
}

#[test]
fn kata_time_settings_reads_every_system_and_fischer() {
    assert_eq!(
        parse("kata-time_settings fischer 300 5"),
        Ok(ClockCommand::Settings(TimeSystem::Fischer {
            main: 300.0,
            increment: 5.0,
            main_cap: None,
            move_cap: None,
        }))
    );
    assert_eq!(
        parse("kata-time_settings fischer-capped 300 5.5 600 -1"),
        Ok(ClockCommand::Settings(TimeSystem::Fischer {
            main: 300.0,
            increment: 5.5,
            main_cap: Some(600.0),
            move_cap: None,
        }))
    );
    assert_eq!(
        parse("kata-time_settings byo-yomi 60 10 3"),
        parse("kgs-time_settings byoyomi 60 10 3")
    );
    assert_eq!(
        parse("kata-time_settings none"),
        Ok(ClockCommand::Settings(TimeSystem::Unlimited))
    );
    assert_eq!(
        parse("kata-list_time_settings"),
        Ok(ClockCommand::ListSystems)
    );
    // Fischer is KataGo's: kgs-time_settings does not take it.
    assert!(error("kgs-time_settings fischer 300 5").contains("usage: kgs-time_settings"));
    assert!(error("kata-time_settings fischer 300").contains("fischer <main> <increment>"));
    assert_eq!(
        error("kata-time_settings fischer-capped 300 5 200 -1"),
        "syntax error: the main time cap of fischer-capped must be at least the main time"
    );
    assert_eq!(
        error("kata-time_settings fischer 300 -5"),
        "syntax error: expected a number of seconds, got '-5'"
    );
    let mut clock = Clock::default();
    assert_eq!(clock.apply(ClockCommand::ListSystems), KATA_TIME_SYSTEMS);
    let system = TimeSystem::Fischer {
        main: 10.0,
        increment: 1.0,
        main_cap: Some(12.0),
        move_cap: Some(2.0),
    };
    assert_eq!(system.to_string(), "fischer-capped 10 1 12 2");
}

#[test]
fn fischer_adds_the_increment_after_each_move_up_to_the_cap() {
    let mut clock = Clock::new(TimeSystem::Fischer {
        main: 10.0,
        increment: 2.0,
        main_cap: Some(11.0),
        move_cap: None,
    });
    assert_left(&clock, 0, 10.0, 0);
    charge(&mut clock, 0, 0.5);
    // 10 - 0.55 + 2, capped at 11.
    assert_left(&clock, 0, 11.0, 0);
    charge(&mut clock, 0, 4.0);
    assert_left(&clock, 0, 11.0 - cost(4.0) + 2.0, 0);
    // A clock run out gains the increment from zero.
    charge(&mut clock, 0, 100.0);
    assert_left(&clock, 0, 2.0, 0);
    assert_left(&clock, 1, 10.0, 0);
}

#[test]
fn a_fischer_move_gets_its_share_and_most_of_the_increment_never_the_whole_clock() {
    let mut clock = Clock::new(TimeSystem::Fischer {
        main: 300.0,
        increment: 5.0,
        main_cap: None,
        move_cap: None,
    });
    // 300 / 30 + 0.8 × 5, less the margin.
    assert!((secs(clock.allotment(0, 30)) - (14.0 - SAFETY_MARGIN)).abs() < 1e-9);
    // Nearly out of time: the increment comes after the move, so the share stays within
    // what is left.
    clock.set_time_left(0, 1.0, 0);
    let share = secs(clock.allotment(0, 30));
    assert!(share < 0.8, "{share}");
    clock.set_time_left(0, 0.0, 0);
    assert_eq!(secs(clock.allotment(0, 30)), LAST_ALLOTMENT_SECONDS);
    // A cap on each move holds.
    let capped = Clock::new(TimeSystem::Fischer {
        main: 300.0,
        increment: 5.0,
        main_cap: None,
        move_cap: Some(3.0),
    });
    assert!((secs(capped.allotment(0, 30)) - (3.0 - SAFETY_MARGIN)).abs() < 1e-9);
}

#[test]
fn a_long_fischer_game_without_time_left_keeps_within_its_clock() {
    // Each move overruns its allotment by 20 ms and the controller sees 10 ms the engine
    // does not; the controller's clock, with its increments, never runs out.
    let system = TimeSystem::Fischer {
        main: 5.0,
        increment: 0.5,
        main_cap: None,
        move_cap: None,
    };
    let mut clock = Clock::new(system);
    let mut controller = 5.0;
    for _ in 0..200 {
        let took = secs(clock.allotment(0, 30)) + 0.02;
        assert!(
            took + 0.01 <= controller,
            "{controller} left, the move took {took}"
        );
        controller = controller - took - 0.01 + 0.5;
        charge(&mut clock, 0, took);
    }
}
