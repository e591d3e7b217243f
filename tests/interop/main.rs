//! Tests that talk to an outside program or package, each named after its peer: GNU Go
//! (`gnugo_*`: differential rules and scoring, whole games, its regression suites and SGF
//! corpus), GNU Backgammon (`gnubg_*`: gnubg-nn's move generator and pubeval, gnubg 1.07
//! importing our records and playing us), Sabaki's GTP client (`sabaki_client`) and SGF parser (`sabaki_sgf`) and
//! abalone-boai (`boai_diff`). `.ci/run` installs the peers; where one is missing, its tests
//! fail with one line naming it and its install command (`support::peers::peer_missing`).
//! GNU Go's own regression suites (`../shared/gnugo-regression`) are the one optional extra:
//! not the project's data, so their two tests pass with a note when the folder is absent.

#[path = "../support/mod.rs"]
mod support;

mod boai_diff;
mod gnubg_diff;
mod gnubg_interop;
mod gnubg_pubeval;
mod gnugo_diff;
mod gnugo_games;
mod gnugo_regression;
mod gnugo_scoring;
mod gnugo_sgf_corpus;
mod sabaki_client;
mod sabaki_sgf;
