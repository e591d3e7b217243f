//! The protocol core shared by every game.
