//! What the integration test targets share, one room per concern: seeded random positions
//! (`abalone`, `tavla`), the arena's scratch folders, bots and `hamle match` runs (`arena`),
//! hostile files (a FIFO, a sparse huge file) and runs that fail rather than hang (`files`),
//! `hamle` driven over its pipes with deadlines (`gtp`), and the outside programs the tests talk to: GTP processes, GNU Go, gnubg and the python
//! fixtures (`peers`). Each target includes this folder with
//! `#[path = "../support/mod.rs"] mod support;` and uses what it needs.

// A target uses only some of the helpers; the rest would warn in it.
#![allow(dead_code)]

pub mod abalone;
pub mod arena;
pub mod files;
pub mod gtp;
pub mod peers;
pub mod tavla;
