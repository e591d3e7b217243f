//! Reading a Go record from SGF: the main line's game information, setup and moves,
//! with every value checked against the board (typed [`SgfError`]s name the node).

use std::collections::BTreeMap;

use super::error::{SgfError, SgfErrorKind};
use super::locate::MainLine;
use super::parse::{NodeView, Sink, lend_node, parse};
use super::record::{Event, GoRecord, Setup};
use super::tree::GameTree;
use crate::go::notation::MAX_BOARD_SIZE;
use crate::go::rules::MAX_KOMI;
use crate::go::{Color, MoveVertex, Vertex};

impl GoRecord {
    /// Reads the first game of an SGF collection.
    ///
    /// The text is read in one pass that keeps only the record (the rest of the
    /// collection is checked for syntax and dropped), so a record costs the events it
    /// holds, a few bytes per move, however the file was written.
    pub fn from_sgf(text: &str) -> Result<GoRecord, SgfError> {
        let mut sink = RecordSink::default();
        parse(text, &mut sink)?;
        sink.finish()
    }

    /// Reads an SGF file's bytes, decoded by [`super::decode`].
    pub fn from_sgf_bytes(bytes: &[u8]) -> Result<GoRecord, SgfError> {
        GoRecord::from_sgf(&super::decode(bytes))
    }

    /// Reads a game from its tree's main line (the first variation at each fork).
    ///
    /// `GM` and `SZ` count only in the root, as the spec makes them root properties;
    /// game information (`KM`, `HA`, `RU`, `RE`, `PB`, `PW`) is taken from its first
    /// appearance on the main line, since collections may keep it below the root.
    /// Within a node, setup comes before moves, as the spec asks of programs that
    /// meet both in one node.
    pub fn from_game_tree(tree: &GameTree) -> Result<GoRecord, SgfError> {
        let mut sink = RecordSink::default();
        sink.open_tree();
        for node in tree.main_line() {
            lend_node(&node.properties, &mut sink);
        }
        sink.close_tree();
        sink.finish()
    }
}

/// Reads a record while the parser goes: follows the first game tree's main line and
/// hands its nodes to a [`Reader`], keeping the first error it meets (a syntax error
/// further on still wins, as the parser reports it).
#[derive(Default)]
struct RecordSink {
    main_line: MainLine,
    /// Main-line nodes seen so far.
    nodes: usize,
    reader: Option<Reader>,
    error: Option<SgfError>,
}

impl Sink<'_> for RecordSink {
    fn open_tree(&mut self) {
        self.main_line.open_tree();
    }

    fn node(&mut self, node: &NodeView<'_, '_>) {
        if self.error.is_some() || !self.main_line.here() {
            return;
        }
        self.nodes += 1;
        if let Err(error) = self.read(node) {
            self.error = Some(error);
        }
    }

    fn close_tree(&mut self) {
        self.main_line.close_tree();
    }
}

impl RecordSink {
    fn read(&mut self, node: &NodeView<'_, '_>) -> Result<(), SgfError> {
        let number = self.nodes;
        let reader = match &mut self.reader {
            Some(reader) => reader,
            None => self.reader.insert(Reader::from_root(node)?),
        };
        reader.game_info(node, number)?;
        reader.setup(node, number)?;
        reader.moves(node, number)
    }

    fn finish(self) -> Result<GoRecord, SgfError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        match self.reader {
            Some(reader) => {
                let mut record = reader.record;
                record.events.shrink_to_fit();
                Ok(record)
            }
            None => Err(SgfError::new(SgfErrorKind::ExpectedGameTree {
                found: None,
            })),
        }
    }
}

/// How many points the setup of one record (`AB`, `AW`, `AE` on its main line) may name
/// in all, counting each node's points once. A rectangle such as `AB[aa:ss]` names a whole
/// board in nine bytes, so without a limit a file of a few megabytes could ask for
/// gigabytes; real records name a few hundred.
pub const MAX_SETUP_POINTS: usize = 1_000_000;

/// Turns a game's main-line nodes into its record, one node at a time.
struct Reader {
    record: GoRecord,
    handicap_seen: bool,
    /// Setup points named so far, against [`MAX_SETUP_POINTS`].
    setup_points: usize,
}

fn invalid(ident: &str, value: &str, node: usize, reason: &'static str) -> SgfError {
    SgfError::new(SgfErrorKind::InvalidValue {
        ident: ident.to_owned(),
        value: value.to_owned(),
        node,
        reason,
    })
}

impl Reader {
    /// A reader for the game whose root is `root`: `GM` must be Go, `SZ` a size.
    fn from_root(root: &NodeView<'_, '_>) -> Result<Reader, SgfError> {
        if let Some(game) = root.first("GM") {
            let game = game.trim();
            if !game.is_empty() && game != "1" {
                let game = game.to_owned();
                return Err(SgfError::new(SgfErrorKind::NotGo { game }));
            }
        }
        let size = match root.first("SZ") {
            Some(value) => parse_size(value)?,
            None => 19,
        };
        Ok(Reader {
            record: GoRecord::new(size),
            handicap_seen: false,
            setup_points: 0,
        })
    }

    fn game_info(&mut self, node: &NodeView<'_, '_>, number: usize) -> Result<(), SgfError> {
        let record = &mut self.record;
        if record.komi.is_none()
            && let Some(value) = node.first("KM")
        {
            record.komi =
                parse_komi(value).map_err(|reason| invalid("KM", value, number, reason))?;
        }
        if !self.handicap_seen
            && let Some(value) = node.first("HA")
        {
            self.handicap_seen = true;
            let trimmed = value.trim();
            record.handicap = if trimmed.is_empty() {
                0
            } else {
                trimmed.parse().map_err(|_| {
                    invalid(
                        "HA",
                        value,
                        number,
                        "the handicap must be a whole number of stones",
                    )
                })?
            };
        }
        let texts = [
            ("RU", &mut record.rules),
            ("RE", &mut record.result),
            ("PB", &mut record.player_black),
            ("PW", &mut record.player_white),
        ];
        for (ident, field) in texts {
            if field.is_none() {
                *field = node.first(ident).map(simple_text);
            }
        }
        Ok(())
    }

    fn setup(&mut self, node: &NodeView<'_, '_>, number: usize) -> Result<(), SgfError> {
        let size = self.record.size;
        // Keyed by vertex so that a later mention of a point overrides an earlier
        // one and the lists come out sorted.
        let mut stones: BTreeMap<Vertex, Option<Color>> = BTreeMap::new();
        let mut to_play = None;
        for (ident, values) in node.properties() {
            let stone = match ident {
                "AB" => Some(Color::Black),
                "AW" => Some(Color::White),
                "AE" => None,
                "PL" => {
                    for value in values {
                        let color = value
                            .trim()
                            .parse()
                            .map_err(|_| invalid(ident, value, number, "expected B or W"))?;
                        to_play = Some(color);
                    }
                    continue;
                }
                _ => continue,
            };
            for value in values {
                let points = parse_points(value, size).ok_or_else(|| {
                    invalid(
                        ident,
                        value,
                        number,
                        "not a point or a rectangle of points on the board",
                    )
                })?;
                for vertex in points {
                    stones.insert(vertex, stone);
                }
            }
        }
        self.setup_points += stones.len();
        if self.setup_points > MAX_SETUP_POINTS {
            return Err(SgfError::new(SgfErrorKind::TooManySetupPoints {
                limit: MAX_SETUP_POINTS,
                node: number,
            }));
        }
        let mut setup = Setup {
            to_play,
            ..Setup::default()
        };
        for (vertex, stone) in stones {
            match stone {
                Some(Color::Black) => setup.black.push(vertex),
                Some(Color::White) => setup.white.push(vertex),
                None => setup.empty.push(vertex),
            }
        }
        if !setup.is_empty() {
            self.record.events.push(Event::Setup(Box::new(setup)));
        }
        Ok(())
    }

    fn moves(&mut self, node: &NodeView<'_, '_>, number: usize) -> Result<(), SgfError> {
        for (ident, values) in node.properties() {
            let color = match ident {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            let [value] = values else {
                let value = values.join("][");
                return Err(invalid(
                    ident,
                    &value,
                    number,
                    "a move takes exactly one value",
                ));
            };
            let mv = parse_move(value, self.record.size).ok_or_else(|| {
                invalid(
                    ident,
                    value,
                    number,
                    "not a point on the board, nor a pass ([] or [tt])",
                )
            })?;
            self.record.events.push(Event::Move(color, mv));
        }
        Ok(())
    }
}

fn parse_size(value: &str) -> Result<usize, SgfError> {
    let number = |text: &str| {
        text.trim()
            .parse::<usize>()
            .ok()
            .filter(|size| (1..=MAX_BOARD_SIZE).contains(size))
            .ok_or_else(|| {
                SgfError::new(SgfErrorKind::BoardSize {
                    value: value.to_owned(),
                })
            })
    };
    match value.split_once(':') {
        // SZ[19:19] is illegal FF[4] but unambiguous.
        Some((columns, rows)) if columns.trim() == rows.trim() => number(columns),
        Some((columns, rows)) => Err(SgfError::new(SgfErrorKind::RectangularBoard {
            columns: columns.trim().to_owned(),
            rows: rows.trim().to_owned(),
        })),
        None => number(value),
    }
}

fn parse_komi(value: &str) -> Result<Option<f32>, &'static str> {
    let text = value.trim();
    if text.is_empty() {
        return Ok(None);
    }
    // Some European programs write a decimal comma.
    text.replace(',', ".")
        .parse::<f32>()
        .ok()
        .filter(|komi| komi.is_finite() && komi.abs() <= MAX_KOMI)
        .map(Some)
        .ok_or("komi must be a number from -1000 to 1000")
}

/// SGF's letters: `a`–`z` for 0–25, `A`–`Z` for 26–51.
fn coordinate(letter: u8) -> Option<usize> {
    match letter {
        b'a'..=b'z' => Some(usize::from(letter - b'a')),
        b'A'..=b'Z' => Some(usize::from(letter - b'A') + 26),
        _ => None,
    }
}

/// SGF counts rows from the top, GTP from the bottom.
fn parse_point(text: &str, size: usize) -> Option<Vertex> {
    let &[x, y] = text.trim().as_bytes() else {
        return None;
    };
    let (col, from_top) = (coordinate(x)?, coordinate(y)?);
    let row = size.checked_sub(1)?.checked_sub(from_top)?;
    if col >= size {
        return None;
    }
    Some(Vertex::new(
        u8::try_from(col).ok()?,
        u8::try_from(row).ok()?,
    ))
}

fn parse_move(value: &str, size: usize) -> Option<MoveVertex> {
    let text = value.trim();
    // `tt` is FF[3]'s pass, kept by FF[4] for boards where it is off the board.
    if text.is_empty() || (text == "tt" && size <= 19) {
        return Some(MoveVertex::Pass);
    }
    parse_point(text, size).map(MoveVertex::Play)
}

/// A point list value: one point, a compressed rectangle `aa:cc`, or nothing (as
/// `AE[]` may be written).
fn parse_points(value: &str, size: usize) -> Option<Vec<Vertex>> {
    if value.trim().is_empty() {
        return Some(Vec::new());
    }
    let Some((first, second)) = value.split_once(':') else {
        return parse_point(value, size).map(|v| vec![v]);
    };
    let (a, b) = (parse_point(first, size)?, parse_point(second, size)?);
    // The spec puts the upper left corner first; taking the corners in either order
    // costs nothing and reads what other programs wrote.
    let cols = a.col.min(b.col)..=a.col.max(b.col);
    let rows = a.row.min(b.row)..=a.row.max(b.row);
    Some(
        cols.flat_map(|col| rows.clone().map(move |row| Vertex::new(col, row)))
            .collect(),
    )
}

/// SimpleText: each line break (in any spelling) and other whitespace becomes a space.
fn simple_text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\r' => {
                out.push(' ');
                chars.next_if_eq(&if c == '\n' { '\r' } else { '\n' });
            }
            '\t' | '\x0B' | '\x0C' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}
