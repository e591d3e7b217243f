//! Go board: stones, chains, captures, ko.
