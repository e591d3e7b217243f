//! GNU Go's counting suite, `score.tst` (finished 19×19 amateur games under Japanese rules,
//! many ending with large dead groups on the board), run against `hamle go --rules
//! japanese` through the product's runner (`hamle::arena::regress`, what `hamle regress`
//! runs). The engine's judgement runs fixed playout budgets from a fixed seed, so its
//! answers, and the pass count asserted here, are the same on every machine; only the
//! time they take is not, and the per-command limit is generous.
//!
//! The suite is GNU Go's, read in place from `../shared/gnugo-regression` (or the folder
//! `HAMLE_GNUGO_REGRESSION` names); without it the test passes with a note saying so.
//! GNU Go 3.8 itself passes 28 of its 29 games (`hamle regress "/usr/games/gnugo --mode
//! gtp" ../shared/gnugo-regression/score.tst`).

use std::path::Path;
use std::time::Duration;

use hamle::arena::bots::{Bot, GameKind};
use hamle::arena::regress::Regress;

use crate::support::peers::gnugo_regression_data;

/// The games of `score.tst` whose `final_score` hamle must get right: as many as GNU Go.
const MIN_PASSES: usize = 28;

#[test]
fn score_tst_passes_at_least_as_often_as_gnugo() {
    let Some(dir) = gnugo_regression_data("score_tst_passes_at_least_as_often_as_gnugo") else {
        return;
    };
    let bot = Bot::from_command_line("hamle go --rules japanese --seed 0", GameKind::Go)
        .expect("a valid command line");
    let files = Regress::read_files(&[dir.join("score.tst")]).expect("score.tst is a .tst file");
    let regress = Regress {
        bot: &bot,
        hamle_exe: Path::new(env!("CARGO_BIN_EXE_hamle")),
        timeout: Duration::from_secs(600),
        stderr_log: None,
        protocol_log: None,
    };
    let mut printed = Vec::new();
    let (reports, _) = regress.run(&files, &mut printed).expect("write to memory");
    let printed = String::from_utf8_lossy(&printed);
    let report = &reports[0];
    assert_eq!(report.fatal, None, "the engine failed:\n{printed}");
    assert!(
        report.command_errors.is_empty(),
        "{:?}",
        report.command_errors
    );
    assert!(
        report.passes() >= MIN_PASSES,
        "score.tst: {} of {} passed, expected at least {MIN_PASSES}:\n{printed}",
        report.passes(),
        report.counted()
    );
}
