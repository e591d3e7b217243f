//! The arena: bot definitions, a GTP controller with a timeout on every read,
//! `hamle regress` (GNU Go's `.tst` suites) and `hamle match` (bot against bot, refereed
//! by our own rules library, with durable, resumable results, SPRT, game clocks and loss on
//! time), `hamle ladder` (round robin, gauntlet or Swiss, maximum-likelihood Elo, a
//! crosstable and an HTML report; sharded runs merged). Their folders are locked while a
//! run uses them (`folder`).

pub mod adjudication;
pub mod bench;
pub mod bots;
pub mod cgroup;
pub mod check;
pub mod cli;
pub mod connect;
pub mod expect;
pub mod folder;
pub mod game_result;
pub mod gtp;
pub mod interrupt;
pub mod ladder;
pub mod live;
pub mod match_merge;
pub mod match_play;
pub mod options;
pub mod progress;
pub mod rating;
pub mod reaper;
pub mod regress;
pub mod report;
pub mod shard;
pub mod sprt;
pub mod store;
pub mod suite_maker;
pub mod summary;
pub mod time_control;
pub mod tune;
pub mod view;
