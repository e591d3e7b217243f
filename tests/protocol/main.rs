//! The protocol core's tests: the GTP framing every game shares, served with a small test
//! engine, and the reader's bounded read-ahead. The contract that every real engine keeps is
//! `tests/contract/`.

#[path = "../support/mod.rs"]
mod support;

mod gtp;
mod read_ahead;
mod twogtp_clock;
