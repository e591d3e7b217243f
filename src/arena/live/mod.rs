//! `hamle ladder serve DIR`: a living ladder. Bots join and leave while it runs (local bot
//! files the server starts, remote bots relayed by `hamle connect` from their authors'
//! machines), idle bots are paired continuously, ratings move after every game, and a web
//! page shows standings and games in progress.
//!
//! Its rooms, side by side, meeting only through what this file and the two below define:
//!
//! ```text
//! schema.rs   the SQLite file DIR/ladder.db: tables every room reads and writes
//! events.rs   what happens, broadcast in the process (the web page's live feed)
//! ```
//!
//! The server core: `config` (DIR/server.toml), `server` (`hamle ladder serve`: the
//! pairing loop, restart, stop), `pairing` (who plays next), `watch` (a pairing's games,
//! moves and ratings into the database and the events), `admin` (`hamle ladder admin`).
//!
//! The pairing loop asks a [`RemoteRoster`] which remote bots are connected and free; each
//! comes as an ordinary [`Bot`] whose command starts a relay to its connection, so a
//! remote bot's games are played, refereed, timed and recorded exactly as a local bot's.

pub mod admin;
pub mod config;
pub mod events;
pub mod pairing;
pub mod remote;
pub mod schema;
pub mod server;
pub mod watch;
pub mod web;

use super::bots::Bot;

/// A remote bot connected and free to play, as the pairing loop sees it.
#[derive(Clone, Debug)]
pub struct RemoteEntry {
    /// `bots.id` in the ladder's database.
    pub bot_id: i64,
    pub name: String,
    pub version: String,
    /// Launching it starts a relay to the author's connection (`hamle ladder relay …`).
    pub bot: Bot,
}

/// The remote bots connected to the server, one roster for all its ladders.
pub trait RemoteRoster: Send + Sync {
    /// The remote bots of `ladder` connected now and in no game.
    fn idle(&self, ladder: &str) -> Vec<RemoteEntry>;
    /// Marks the bot busy for a pairing; false when it has left or is busy already
    /// (then the pairing is not played with it).
    fn reserve(&self, bot_id: i64) -> bool;
    /// The pairing is over: the bot is free again (if still connected).
    fn release(&self, bot_id: i64);
}

/// A server with no remote listener: nobody connects.
pub struct NoRemotes;

impl RemoteRoster for NoRemotes {
    fn idle(&self, _ladder: &str) -> Vec<RemoteEntry> {
        Vec::new()
    }
    fn reserve(&self, _bot_id: i64) -> bool {
        false
    }
    fn release(&self, _bot_id: i64) {}
}
