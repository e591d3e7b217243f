use std::fmt;

use crate::text::shorten;

/// Where in the SGF text a problem was found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Byte offset from the start of the text.
    pub offset: usize,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
}

impl Position {
    /// Locates `offset` in `text`. Called once per error, so the linear scan costs
    /// nothing on the happy path and keeps the parser free of line bookkeeping.
    pub(crate) fn locate(text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let before = text.as_bytes().get(..offset).unwrap_or_default();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        // Counting UTF-8 lead bytes gives characters without requiring `offset` to
        // sit on a character boundary.
        let column = 1 + before[line_start..]
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count();
        Position {
            offset,
            line,
            column,
        }
    }
}

/// What went wrong while reading SGF.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SgfErrorKind {
    /// A game tree must open with `(`; `found` is `None` at the end of the input.
    ExpectedGameTree { found: Option<char> },
    /// `(` must be followed by the `;` of the tree's first node.
    ExpectedNode { found: Option<char> },
    /// A character that cannot start a property, a node or a game tree.
    UnexpectedChar { found: char },
    /// A `;` after a variation: a tree's nodes must all come before its variations.
    NodeAfterVariation,
    /// A `)` with no open game tree.
    UnmatchedClose,
    /// The input ended inside the game tree opened at the error's position.
    UnclosedGameTree,
    /// The input ended inside the property value opened at the error's position.
    UnterminatedValue,
    /// A property identifier not followed by any `[value]`.
    MissingValue { ident: String },
    /// An identifier with no uppercase letter, which `FF[1]`–`FF[4]` all reject.
    InvalidIdentifier { ident: String },
    /// Game trees nested deeper than [`super::MAX_DEPTH`].
    TooDeep { limit: usize },
    /// `GM` names a game other than Go.
    NotGo { game: String },
    /// `SZ[columns:rows]` with different sides.
    RectangularBoard { columns: String, rows: String },
    /// `SZ` is not a number from 1 to 25.
    BoardSize { value: String },
    /// The main line's setup (`AB`, `AW`, `AE`) names more than `limit` points in all,
    /// the first time in node `node` (1-based, on the main line).
    TooManySetupPoints { limit: usize, node: usize },
    /// A Go property whose value does not fit its type or the board.
    InvalidValue {
        ident: String,
        value: String,
        /// 1-based index of the node on the main line (the root is node 1).
        node: usize,
        reason: &'static str,
    },
}

/// An error from reading SGF, with its position in the text when it is a syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    pub kind: SgfErrorKind,
    pub position: Option<Position>,
}

impl SgfError {
    pub(crate) fn new(kind: SgfErrorKind) -> SgfError {
        SgfError {
            kind,
            position: None,
        }
    }

    pub(crate) fn at(kind: SgfErrorKind, text: &str, offset: usize) -> SgfError {
        SgfError {
            kind,
            position: Some(Position::locate(text, offset)),
        }
    }
}

/// What was found, quoting only SGF's own punctuation: a file that is no SGF at all
/// (`loadsgf /etc/shadow`) must not have its first byte shown.
fn describe(found: Option<char>) -> String {
    match found {
        Some(c) if "()[];".contains(c) => format!("'{c}'"),
        Some(c) if c.is_control() || c.is_whitespace() => "a space or control character".into(),
        Some(_) => "other text (not shown)".into(),
        None => "the end of the input".to_owned(),
    }
}

impl fmt::Display for SgfErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfErrorKind::ExpectedGameTree { found: None } => {
                f.write_str("expected '(' at start of a game tree, found the end of the input")
            }
            SgfErrorKind::ExpectedGameTree { found } => write!(
                f,
                "expected '(' at start of a game tree, found {}",
                describe(*found)
            ),
            SgfErrorKind::ExpectedNode { found } => write!(
                f,
                "expected ';' to start the first node after '(', found {}",
                describe(*found)
            ),
            SgfErrorKind::UnexpectedChar { found } => write!(
                f,
                "found {} where a property identifier, ';', '(' or ')' was expected",
                describe(Some(*found))
            ),
            SgfErrorKind::NodeAfterVariation => f.write_str(
                "node after a variation: a game tree's nodes must all come before its '(' variations",
            ),
            SgfErrorKind::UnmatchedClose => f.write_str("')' without a matching '('"),
            SgfErrorKind::UnclosedGameTree => {
                f.write_str("game tree opened here is never closed: missing ')' before the end")
            }
            SgfErrorKind::UnterminatedValue => f.write_str(
                "unterminated property value: no closing ']' (a ']' inside a value must be written '\\]')",
            ),
            SgfErrorKind::MissingValue { ident } => {
                write!(f, "property {} has no value: expected '['", shorten(ident))
            }
            SgfErrorKind::InvalidIdentifier { ident } => write!(
                f,
                "property identifier '{}' has no uppercase letter",
                shorten(ident)
            ),
            SgfErrorKind::TooDeep { limit } => {
                write!(f, "game trees nested more than {limit} deep")
            }
            SgfErrorKind::NotGo { game } => write!(
                f,
                "not a Go record: GM[{}] (Go is GM[1])",
                shorten(game)
            ),
            SgfErrorKind::RectangularBoard { columns, rows } => write!(
                f,
                "rectangular boards are not supported (SZ[{}:{}])",
                shorten(columns),
                shorten(rows)
            ),
            SgfErrorKind::BoardSize { value } => write!(
                f,
                "unsupported board size SZ[{}]: expected a number from 1 to {}",
                shorten(value),
                crate::go::notation::MAX_BOARD_SIZE
            ),
            SgfErrorKind::TooManySetupPoints { limit, node } => write!(
                f,
                "setup in node {node} of the main line takes the record over {limit} setup points in all"
            ),
            SgfErrorKind::InvalidValue {
                ident,
                value,
                node,
                reason,
            } => write!(
                f,
                "{ident}[{}] in node {node} of the main line: {reason}",
                shorten(value)
            ),
        }
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(p) => write!(f, "{} at line {}, column {}", self.kind, p.line, p.column),
            None => self.kind.fmt(f),
        }
    }
}

impl std::error::Error for SgfError {}
