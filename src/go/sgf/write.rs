//! Writing a Go record as SGF (FF[4], UTF-8): game information and any leading setup in
//! the root, then one node per event.

use super::record::{Event, GoRecord, Setup};
use super::tree::{GameTree, Node, line_break_before, write_node};
use crate::go::{MoveVertex, Vertex};

impl GoRecord {
    /// The record as `FF[4]` text in UTF-8; [`GoRecord::from_sgf`] reads it back equal.
    ///
    /// The same text as [`GoRecord::to_game_tree`]'s, written straight from the events:
    /// a long game costs its text, not a tree of strings.
    pub fn to_sgf(&self) -> String {
        self.to_sgf_annotated(&[])
    }

    /// [`GoRecord::to_sgf`] with `notes[i]` (SGF properties, written as they are) after
    /// the i-th move's property: a move's time left and comment, say. Moves past the
    /// notes get none.
    pub fn to_sgf_annotated(&self, notes: &[String]) -> String {
        let (root, rest) = self.root_node();
        let mut moves = 0;
        let mut out = String::with_capacity(64 + 8 * rest.len());
        out.push('(');
        write_node(&mut out, &root);
        for (i, event) in rest.iter().enumerate() {
            if line_break_before(i + 1, 0) {
                out.push('\n');
            }
            match event {
                Event::Move(color, mv) => {
                    out.push(';');
                    out.push(color.letter());
                    out.push('[');
                    if let MoveVertex::Play(vertex) = mv {
                        out.push_str(&self.point(*vertex));
                    }
                    out.push(']');
                    if let Some(note) = notes.get(moves) {
                        out.push_str(note);
                    }
                    moves += 1;
                }
                Event::Setup(_) => write_node(&mut out, &self.event_node(event)),
            }
        }
        out.push_str(")\n");
        out
    }

    /// The record as a single-line game tree: game information and any leading
    /// setup in the root, then one node per event.
    pub fn to_game_tree(&self) -> GameTree {
        let (root, rest) = self.root_node();
        let mut nodes = Vec::with_capacity(1 + rest.len());
        nodes.push(root);
        nodes.extend(rest.iter().map(|event| self.event_node(event)));
        GameTree {
            nodes,
            variations: Vec::new(),
        }
    }

    /// The root: game information and the setup if the record starts with one; and the
    /// events after it, one node each.
    fn root_node(&self) -> (Node, &[Event]) {
        let mut root = Node::default();
        root.push("GM", "1");
        root.push("FF", "4");
        root.push("CA", "UTF-8");
        root.push("AP", concat!("hamle:", env!("CARGO_PKG_VERSION")));
        root.push("SZ", self.size.to_string());
        if let Some(komi) = self.komi {
            root.push("KM", komi.to_string());
        }
        if self.handicap > 0 {
            root.push("HA", self.handicap.to_string());
        }
        let info = [
            ("RU", &self.rules),
            ("RE", &self.result),
            ("PB", &self.player_black),
            ("PW", &self.player_white),
        ];
        for (ident, value) in info {
            if let Some(value) = value {
                root.push(ident, value.as_str());
            }
        }
        let rest = match self.events.split_first() {
            Some((Event::Setup(setup), rest)) => {
                self.write_setup(&mut root, setup);
                rest
            }
            _ => &self.events[..],
        };
        (root, rest)
    }

    fn event_node(&self, event: &Event) -> Node {
        let mut node = Node::default();
        match event {
            Event::Setup(setup) => self.write_setup(&mut node, setup),
            Event::Move(color, MoveVertex::Pass) => node.push(color.letter().to_string(), ""),
            Event::Move(color, MoveVertex::Play(vertex)) => {
                node.push(color.letter().to_string(), self.point(*vertex));
            }
        }
        node
    }

    fn write_setup(&self, node: &mut Node, setup: &Setup) {
        let lists = [
            ("AB", &setup.black),
            ("AW", &setup.white),
            ("AE", &setup.empty),
        ];
        for (ident, vertices) in lists {
            if !vertices.is_empty() {
                let values = vertices.iter().map(|&v| self.point(v)).collect();
                node.properties.push((ident.to_owned(), values));
            }
        }
        if let Some(color) = setup.to_play {
            node.push("PL", color.letter().to_string());
        }
    }

    /// SGF letters for a vertex. A vertex off this record's board gets `?`, which
    /// no reader accepts, rather than a wrong point or a panic.
    fn point(&self, vertex: Vertex) -> String {
        let letter = |index: Option<usize>| match index {
            Some(i @ 0..26) => char::from(b'a' + i as u8),
            Some(i @ 26..52) => char::from(b'A' + (i - 26) as u8),
            _ => '?',
        };
        let col = usize::from(vertex.col);
        let x = (col < self.size).then_some(col);
        let y = (self.size.checked_sub(1)).and_then(|top| top.checked_sub(usize::from(vertex.row)));
        [letter(x), letter(y)].iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;

    #[test]
    fn text_is_the_game_trees_text() {
        let mut record = GoRecord::new(9);
        record.komi = Some(6.5);
        record.player_black = Some("a]b\\c".to_owned());
        let setup = |black: Vec<Vertex>| {
            Event::Setup(Box::new(Setup {
                black,
                to_play: Some(Color::White),
                ..Setup::default()
            }))
        };
        record.events.push(setup(vec![Vertex::new(2, 2)]));
        for i in 0..35u8 {
            let color = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mv = match i % 3 {
                0 => MoveVertex::Pass,
                _ => MoveVertex::Play(Vertex::new(i % 9, i / 9)),
            };
            record.events.push(Event::Move(color, mv));
            if i == 17 {
                record
                    .events
                    .push(setup(vec![Vertex::new(8, 8), Vertex::new(0, 8)]));
            }
        }
        // Off the board: written as `??`, as the tree writes it.
        record.events.push(Event::Move(
            Color::Black,
            MoveVertex::Play(Vertex::new(12, 12)),
        ));
        assert_eq!(record.to_sgf(), record.to_game_tree().to_sgf());
        record.events.remove(0);
        assert_eq!(record.to_sgf(), record.to_game_tree().to_sgf());
        assert_eq!(
            GoRecord::new(19).to_sgf(),
            GoRecord::new(19).to_game_tree().to_sgf()
        );
    }
}
