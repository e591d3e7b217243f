//! The arena's tests, end to end through the `hamle` binary: `hamle match` for every game
//! (`matches` for its resuming and failure policies, `games`, `tavla`, `clock`), `hamle
//! ladder` and `hamle regress`; `processes` (capped logs, process groups) for both.

#[path = "../support/mod.rs"]
mod support;

mod bad_settings;
mod bots;
mod clock;
mod games;
mod ladder;
mod matches;
mod processes;
mod regress;
mod tavla;
