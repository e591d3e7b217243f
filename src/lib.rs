//! hamle: headless engines for Go, Tavla, Abalone, Kulami and Mangala that speak
//! text protocols over stdio.

pub mod go;
pub mod protocol;
