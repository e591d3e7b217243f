//! The Tavla (backgammon) engine's tests: the rule book, invariants over random matches,
//! arena records replayed, GTP transcripts, and hostile input (UBGI, the external player
//! socket, a hung gnubg, bad weights), and cube decisions (`cube_gnubg` judges them with
//! gnubg). Other tests against a real gnubg are in `tests/interop/`.

#[path = "../support/mod.rs"]
mod support;

mod clock;
mod cube;
mod cube_gnubg;
mod gogui;
mod gtp;
mod hostile;
mod invariants;
mod label_files;
mod net_pinned;
mod race_net;
mod replay;
mod rules;
mod weights_files;
