//! Writing a Go record as SGF (FF[4], UTF-8): game information and any leading setup in
//! the root, then one node per event.

use super::record::{Event, GoRecord, Setup};
use super::tree::{GameTree, Node};
use crate::go::{MoveVertex, Vertex};

impl GoRecord {
    /// The record as FF[4] text in UTF-8; [`GoRecord::from_sgf`] reads it back equal.
    pub fn to_sgf(&self) -> String {
        self.to_game_tree().to_sgf()
    }

    /// The record as a single-line game tree: game information and any leading
    /// setup in the root, then one node per event.
    pub fn to_game_tree(&self) -> GameTree {
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
        let mut nodes = vec![root];
        for event in rest {
            let mut node = Node::default();
            match event {
                Event::Setup(setup) => self.write_setup(&mut node, setup),
                Event::Move(color, MoveVertex::Pass) => node.push(color.letter().to_string(), ""),
                Event::Move(color, MoveVertex::Play(vertex)) => {
                    node.push(color.letter().to_string(), self.point(*vertex));
                }
            }
            nodes.push(node);
        }
        GameTree {
            nodes,
            variations: Vec::new(),
        }
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
