//! The SGF parser: reads a collection's syntax once and hands each game tree's opening
//! and closing and each node's properties to a [`Sink`].
//!
//! Two sinks use it: the generic tree (`tree.rs`), which keeps everything as owned
//! strings, and the Go record reader (`read.rs`), which keeps only the record's events.
//! Values are lent to the sink borrowed from the text wherever no escape changed them,
//! and the parser reuses one buffer for every node, so reading a long record costs what
//! the sink keeps and nothing per node besides.

use std::borrow::Cow;
use std::ops::Range;

use super::error::{SgfError, SgfErrorKind};

/// How deeply game trees may nest. Real records stay in the hundreds (one level per
/// fork on the main line); the limit turns hostile input into an error.
pub const MAX_DEPTH: usize = 10_000;

/// One property of a node being read: its identifier and where its values sit in the
/// node's value buffer.
struct Property<'t> {
    ident: Cow<'t, str>,
    values: Range<usize>,
}

/// One node's properties in file order, values unescaped, lent to a [`Sink`] for the
/// length of one call.
///
/// Identifiers are uppercase (`AB`, `KM`); a property written twice in one node stays
/// two entries.
pub struct NodeView<'n, 't> {
    /// Where the node's `;` is in the text (0 for a node lent from a tree in memory).
    pub offset: usize,
    properties: &'n [Property<'t>],
    values: &'n [Cow<'t, str>],
}

impl<'n, 't> NodeView<'n, 't> {
    /// Each property's identifier and values, in file order.
    pub fn properties(&self) -> impl Iterator<Item = (&'n str, &'n [Cow<'t, str>])> + use<'n, 't> {
        let values = self.values;
        self.properties.iter().map(move |property| {
            let slice = values.get(property.values.clone()).unwrap_or_default();
            (property.ident.as_ref(), slice)
        })
    }

    /// The first value of the first property called `ident`.
    pub fn first(&self, ident: &str) -> Option<&'n str> {
        self.properties()
            .find(|(id, _)| *id == ident)
            .and_then(|(_, values)| values.first())
            .map(|value| value.as_ref())
    }
}

/// What the parser reports, in file order. The parser has checked the syntax up to each
/// call; a syntax error further on still fails the whole parse.
pub trait Sink<'t> {
    /// A `(` opened a game tree: a top-level one, or a variation of the tree open now.
    fn open_tree(&mut self);
    /// A node of the tree open now.
    fn node(&mut self, node: &NodeView<'_, 't>);
    /// The `)` of the tree open now.
    fn close_tree(&mut self);
}

/// Lends `properties` (owned, as the generic tree keeps them) to `sink` as one node.
pub(super) fn lend_node<'t>(properties: &'t [(String, Vec<String>)], sink: &mut impl Sink<'t>) {
    let mut buffer = NodeBuffer::default();
    for (ident, values) in properties {
        let start = buffer.values.len();
        buffer
            .values
            .extend(values.iter().map(|value| Cow::Borrowed(value.as_str())));
        buffer.properties.push(Property {
            ident: Cow::Borrowed(ident.as_str()),
            values: start..buffer.values.len(),
        });
    }
    sink.node(&buffer.view(0));
}

/// Parses an SGF collection (one or more game trees), reporting to `sink`; see
/// [`super::parse_collection`] for what is accepted.
pub fn parse<'t>(text: &'t str, sink: &mut impl Sink<'t>) -> Result<(), SgfError> {
    Parser {
        text,
        pos: 0,
        node: NodeBuffer::default(),
    }
    .collection(sink)
}

/// The properties and values of the node being read, reused from node to node.
#[derive(Default)]
struct NodeBuffer<'t> {
    properties: Vec<Property<'t>>,
    values: Vec<Cow<'t, str>>,
}

impl<'t> NodeBuffer<'t> {
    fn view(&self, offset: usize) -> NodeView<'_, 't> {
        NodeView {
            offset,
            properties: &self.properties,
            values: &self.values,
        }
    }
}

struct Parser<'t> {
    text: &'t str,
    pos: usize,
    node: NodeBuffer<'t>,
}

/// A game tree the parser is inside: where its `(` is, for the "never closed" error, and
/// whether a variation was opened in it, after which no node may follow.
struct OpenTree {
    start: usize,
    has_variations: bool,
}

fn is_space(b: u8) -> bool {
    // ASCII whitespace plus vertical tab, which the spec lists and `is_ascii_whitespace` omits.
    b.is_ascii_whitespace() || b == 0x0B
}

impl<'t> Parser<'t> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn char_at(&self, offset: usize) -> Option<char> {
        self.text.get(offset..).and_then(|rest| rest.chars().next())
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(is_space) {
            self.pos += 1;
        }
    }

    fn error(&self, kind: SgfErrorKind, offset: usize) -> SgfError {
        SgfError::at(kind, self.text, offset)
    }

    /// Parses with an explicit stack of open trees, so nesting depth costs heap,
    /// not call stack.
    fn collection(mut self, sink: &mut impl Sink<'t>) -> Result<(), SgfError> {
        if self.text.starts_with('\u{FEFF}') {
            self.pos = '\u{FEFF}'.len_utf8();
        }
        let mut trees = 0usize;
        let mut open: Vec<OpenTree> = Vec::new();
        loop {
            self.skip_space();
            let Some(b) = self.peek() else { break };
            match b {
                b'(' => {
                    if open.len() >= MAX_DEPTH {
                        return Err(
                            self.error(SgfErrorKind::TooDeep { limit: MAX_DEPTH }, self.pos)
                        );
                    }
                    if let Some(parent) = open.last_mut() {
                        parent.has_variations = true;
                    }
                    open.push(OpenTree {
                        start: self.pos,
                        has_variations: false,
                    });
                    sink.open_tree();
                    self.pos += 1;
                    self.skip_space();
                    if self.peek() != Some(b';') {
                        let found = self.char_at(self.pos);
                        return Err(self.error(SgfErrorKind::ExpectedNode { found }, self.pos));
                    }
                }
                b';' => {
                    let Some(tree) = open.last() else {
                        let found = Some(';');
                        return Err(self.error(SgfErrorKind::ExpectedGameTree { found }, self.pos));
                    };
                    if tree.has_variations {
                        return Err(self.error(SgfErrorKind::NodeAfterVariation, self.pos));
                    }
                    let offset = self.pos;
                    self.pos += 1;
                    self.node()?;
                    sink.node(&self.node.view(offset));
                }
                b')' => {
                    if open.pop().is_none() {
                        return Err(self.error(SgfErrorKind::UnmatchedClose, self.pos));
                    }
                    self.pos += 1;
                    sink.close_tree();
                    if open.is_empty() {
                        trees += 1;
                    }
                }
                _ => {
                    let found = self.char_at(self.pos);
                    let kind = match (open.is_empty(), found) {
                        (false, Some(found)) => SgfErrorKind::UnexpectedChar { found },
                        _ => SgfErrorKind::ExpectedGameTree { found },
                    };
                    return Err(self.error(kind, self.pos));
                }
            }
        }
        if let Some(tree) = open.last() {
            return Err(self.error(SgfErrorKind::UnclosedGameTree, tree.start));
        }
        if trees == 0 {
            return Err(self.error(SgfErrorKind::ExpectedGameTree { found: None }, self.pos));
        }
        Ok(())
    }

    /// Reads one node's properties into the node buffer.
    fn node(&mut self) -> Result<(), SgfError> {
        self.node.properties.clear();
        self.node.values.clear();
        loop {
            self.skip_space();
            if !self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
                return Ok(());
            }
            self.property()?;
        }
    }

    fn property(&mut self) -> Result<(), SgfError> {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            self.pos += 1;
        }
        let raw = &self.text[start..self.pos];
        // FF[3] and earlier allowed lowercase letters in identifiers and ignored them.
        let ident: Cow<'t, str> = if raw.bytes().all(|b| b.is_ascii_uppercase()) {
            Cow::Borrowed(raw)
        } else {
            Cow::Owned(raw.chars().filter(char::is_ascii_uppercase).collect())
        };
        if ident.is_empty() {
            let ident = raw.to_owned();
            return Err(self.error(SgfErrorKind::InvalidIdentifier { ident }, start));
        }
        let first_value = self.node.values.len();
        loop {
            self.skip_space();
            if self.peek() != Some(b'[') {
                break;
            }
            let value = self.value()?;
            self.node.values.push(value);
        }
        if self.node.values.len() == first_value {
            let ident = ident.into_owned();
            return Err(self.error(SgfErrorKind::MissingValue { ident }, self.pos));
        }
        self.node.properties.push(Property {
            ident,
            values: first_value..self.node.values.len(),
        });
        Ok(())
    }

    /// Reads one `[...]` value: borrowed from the text when it holds no escape, else
    /// copied. Segments between escapes are copied whole; every cut falls on an ASCII
    /// byte, hence on a character boundary.
    fn value(&mut self) -> Result<Cow<'t, str>, SgfError> {
        let text = self.text;
        let open = self.pos;
        self.pos += 1;
        let mut out: Option<String> = None;
        let mut segment = self.pos;
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error(SgfErrorKind::UnterminatedValue, open));
            };
            match b {
                b']' => {
                    let last = &text[segment..self.pos];
                    self.pos += 1;
                    return Ok(match out {
                        None => Cow::Borrowed(last),
                        Some(mut out) => {
                            out.push_str(last);
                            Cow::Owned(out)
                        }
                    });
                }
                b'\\' => {
                    out.get_or_insert_default()
                        .push_str(&text[segment..self.pos]);
                    self.pos += 1;
                    match self.peek() {
                        None => return Err(self.error(SgfErrorKind::UnterminatedValue, open)),
                        // A soft line break: the backslash and the line break (in any of
                        // its four spellings) vanish.
                        Some(first @ (b'\n' | b'\r')) => {
                            self.pos += 1;
                            let pair = if first == b'\n' { b'\r' } else { b'\n' };
                            if self.peek() == Some(pair) {
                                self.pos += 1;
                            }
                            segment = self.pos;
                        }
                        // Any other character stands for itself; stepping over its
                        // first byte keeps a ']' or '\' from being read as syntax.
                        Some(_) => {
                            segment = self.pos;
                            self.pos += 1;
                        }
                    }
                }
                _ => self.pos += 1,
            }
        }
    }
}
