use std::fmt;

/// A failure response. The variants with a fixed text use GTP v2's standard error
/// messages verbatim, because controllers (GoGui, gogui-twogtp, gomill) match on them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpError {
    UnknownCommand,
    /// The arguments do not fit the command; the detail says what was expected.
    Syntax(String),
    UnacceptableSize,
    IllegalMove,
    CannotUndo,
    CannotScore,
    /// The detail names the file and the reason.
    CannotLoadFile(String),
    BoardNotEmpty,
    BadVertexList,
    InvalidNumberOfStones,
    /// The input line exceeded [`crate::protocol::MAX_LINE_BYTES`].
    LineTooLong,
    /// Any other failure, in words a person can act on.
    Other(String),
}

impl GtpError {
    pub fn syntax(detail: impl Into<String>) -> GtpError {
        GtpError::Syntax(detail.into())
    }

    pub fn other(message: impl Into<String>) -> GtpError {
        GtpError::Other(message.into())
    }
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GtpError::UnknownCommand => f.write_str("unknown command"),
            GtpError::Syntax(detail) if detail.is_empty() => f.write_str("syntax error"),
            GtpError::Syntax(detail) => write!(f, "syntax error: {detail}"),
            GtpError::UnacceptableSize => f.write_str("unacceptable size"),
            GtpError::IllegalMove => f.write_str("illegal move"),
            GtpError::CannotUndo => f.write_str("cannot undo"),
            GtpError::CannotScore => f.write_str("cannot score"),
            GtpError::CannotLoadFile(detail) if detail.is_empty() => {
                f.write_str("cannot load file")
            }
            GtpError::CannotLoadFile(detail) => write!(f, "cannot load file: {detail}"),
            GtpError::BoardNotEmpty => f.write_str("board not empty"),
            GtpError::BadVertexList => f.write_str("bad vertex list"),
            GtpError::InvalidNumberOfStones => f.write_str("invalid number of stones"),
            GtpError::LineTooLong => write!(
                f,
                "line too long: a command may hold at most {} bytes",
                super::MAX_LINE_BYTES
            ),
            GtpError::Other(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for GtpError {}
