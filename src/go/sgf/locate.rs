//! Which nodes of an SGF text make up the record's main line (the first variation at every
//! fork of the first game tree), and where in the text a main-line move is written, so
//! that a move the rules refuse can be named by its line, as a syntax error is.

use super::error::Position;
use super::parse::{NodeView, Sink, parse};

/// Follows the parser's trees and says whether the node it reports now is on the main
/// line.
#[derive(Default)]
pub(super) struct MainLine {
    /// For each game tree open now: whether it is on the main line, and whether a
    /// variation was opened in it (only the first is).
    open: Vec<(bool, bool)>,
    /// Top-level game trees closed so far: only the first is read.
    trees_closed: usize,
}

impl MainLine {
    pub(super) fn open_tree(&mut self) {
        let main = match self.open.last_mut() {
            None => self.trees_closed == 0,
            Some((parent_main, has_variations)) => {
                let main = *parent_main && !*has_variations;
                *has_variations = true;
                main
            }
        };
        self.open.push((main, false));
    }

    /// Whether a node reported now is on the main line.
    pub(super) fn here(&self) -> bool {
        self.open.last().is_some_and(|&(main, _)| main)
    }

    pub(super) fn close_tree(&mut self) {
        self.open.pop();
        if self.open.is_empty() {
            self.trees_closed += 1;
        }
    }
}

/// Where the `number`-th move (from 1, each `B` or `W` property of the main line counts
/// one, as [`super::GoRecord`]'s events do) is written in `text`: the position of its
/// node. `None` when the text has no such move or does not parse.
pub fn main_line_move_position(text: &str, number: usize) -> Option<Position> {
    struct Finder {
        main_line: MainLine,
        left: usize,
        found: Option<usize>,
    }
    impl Sink<'_> for Finder {
        fn open_tree(&mut self) {
            self.main_line.open_tree();
        }
        fn node(&mut self, node: &NodeView<'_, '_>) {
            if self.found.is_some() || !self.main_line.here() {
                return;
            }
            let moves = node
                .properties()
                .filter(|(ident, _)| *ident == "B" || *ident == "W")
                .count();
            if moves >= self.left {
                self.found = Some(node.offset);
            } else {
                self.left -= moves;
            }
        }
        fn close_tree(&mut self) {
            self.main_line.close_tree();
        }
    }
    let mut finder = Finder {
        main_line: MainLine::default(),
        left: number.max(1),
        found: None,
    };
    parse(text, &mut finder).ok()?;
    finder.found.map(|offset| Position::locate(text, offset))
}

#[cfg(test)]
mod tests {
    use super::main_line_move_position;

    #[test]
    fn a_move_is_found_on_its_line_and_variations_are_skipped() {
        let text = "(;GM[1]SZ[9]\n;B[ee]\n(;W[dd]\n;B[cc])\n(;W[aa]\n;B[bb]))\n";
        let line = |n| main_line_move_position(text, n).map(|p| p.line);
        assert_eq!(line(1), Some(2));
        assert_eq!(line(2), Some(3));
        assert_eq!(line(3), Some(4));
        assert_eq!(line(4), None, "the second variation is not the main line");
    }
}
