//! The arena's tests, end to end through the `hamle` binary: `hamle match` for every game
//! (`matches` for its resuming and failure policies, `games`, `tavla`, `clock`), `hamle
//! ladder`, `hamle regress` and `hamle check` (`check`); `folders` (locks, foreign
//! folders, forged results, unsafe names) and `processes` (capped logs, process groups) for both; `engine_reuse` (engines
//! kept between games against fresh ones, `hamle bench arena`); `remote` (remote bots of a
//! living ladder: `hamle connect`, the hub, relays, hostile clients).

#[path = "../support/mod.rs"]
mod support;

mod bad_settings;
mod bots;
mod check;
mod clock;
mod clock_odds;
mod engine_reuse;
mod expect;
mod folders;
mod games;
mod hostile_files;
mod hostile_text;
mod ladder;
mod matches;
mod move_times;
mod openings;
mod page_size;
mod processes;
mod protocol_log;
mod regress;
mod remote;
mod shards;
mod slurm;
mod strays;
mod tavla;
mod told_moves;
mod viewer;
