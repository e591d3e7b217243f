//! hamle: headless engines for Go, Tavla, Abalone, Kulami and Mangala that speak
//! text protocols over stdio.

pub mod abalone;
pub mod arena;
pub mod bench;
pub mod contract;
pub mod files;
pub mod games;
pub mod go;
pub mod kulami;
pub mod mangala;
pub mod protocol;
pub mod seed;
pub mod tavla;
pub mod text;
