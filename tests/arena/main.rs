//! The arena's tests, end to end through the `hamle` binary: `hamle match` for every game
//! (`matches` for its resuming and failure policies, `games`, `tavla`, `clock`), `hamle
//! ladder` and `hamle regress`.

#[path = "../support/mod.rs"]
mod support;

mod bad_settings;
mod bots;
mod clock;
mod games;
mod hostile_files;
mod ladder;
mod matches;
mod regress;
mod tavla;
