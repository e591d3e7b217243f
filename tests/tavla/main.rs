//! The Tavla (backgammon) engine's tests: the rule book, invariants over random matches,
//! arena records replayed, and GTP transcripts. Tests against gnubg are in `tests/interop/`.

mod gtp;
mod invariants;
mod replay;
mod rules;
