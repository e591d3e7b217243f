use std::str::FromStr;

use crate::text::shorten;
use nom::branch::alt;
use nom::bytes::complete::take_while1;
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, eof, opt, peek};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use super::GtpError;

/// One command line, split into its parts: `[id] name arg arg …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The id exactly as sent: echoed verbatim, so ids longer than any integer type survive.
    pub id: Option<String>,
    pub name: String,
    pub args: Vec<String>,
}

fn token(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c != ' ').parse(input)
}

fn id(input: &str) -> IResult<&str, &str> {
    terminated(digit1, peek(alt((space1, eof)))).parse(input)
}

fn command_line(input: &str) -> IResult<&str, (Option<&str>, &str, Vec<&str>)> {
    all_consuming((
        preceded(space0, opt(terminated(id, space0))),
        token,
        terminated(many0(preceded(take_while1(|c| c == ' '), token)), space0),
    ))
    .parse(input)
}

/// Splits a preprocessed line (see [`super::preprocess`]) into id, name and arguments.
///
/// A line holding only an id (`7`) has no command: it is answered `?7 syntax error`.
pub fn parse_command(line: &str) -> Result<Command, (Option<String>, GtpError)> {
    match command_line(line) {
        Ok((_, (id, name, args))) => Ok(Command {
            id: id.map(str::to_owned),
            name: name.to_owned(),
            args: args.into_iter().map(str::to_owned).collect(),
        }),
        Err(_) => {
            let digits = line.trim_start();
            let id = digits
                .split(' ')
                .next()
                .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .map(str::to_owned);
            Err((id, GtpError::syntax("a command name must follow the id")))
        }
    }
}

impl Command {
    /// Fails unless the command has exactly `count` arguments; `usage` is shown to the user.
    pub fn expect_args(&self, count: usize, usage: &str) -> Result<(), GtpError> {
        if self.args.len() == count {
            Ok(())
        } else {
            Err(self.usage_error(usage))
        }
    }

    /// Fails unless the number of arguments lies in `min..=max`.
    pub fn expect_args_between(&self, min: usize, max: usize, usage: &str) -> Result<(), GtpError> {
        if (min..=max).contains(&self.args.len()) {
            Ok(())
        } else {
            Err(self.usage_error(usage))
        }
    }

    pub fn usage_error(&self, usage: &str) -> GtpError {
        if usage.is_empty() {
            GtpError::syntax(format!("usage: {} (no arguments)", self.name))
        } else {
            GtpError::syntax(format!("usage: {} {usage}", self.name))
        }
    }

    pub fn arg(&self, index: usize) -> Result<&str, GtpError> {
        self.args
            .get(index)
            .map(String::as_str)
            .ok_or_else(|| GtpError::syntax(format!("missing argument {}", index + 1)))
    }

    /// Answers a command that takes no arguments: `parsed` when none came.
    pub fn no_args<T>(&self, parsed: T) -> Result<T, GtpError> {
        self.expect_args(0, "").map(|()| parsed)
    }

    /// Parses argument `index` as a `T`; `what` names the expected entity in the error.
    pub fn parse_arg<T: FromStr>(&self, index: usize, what: &str) -> Result<T, GtpError> {
        let text = self.arg(index)?;
        text.parse()
            .map_err(|_| GtpError::syntax(format!("expected {what}, got '{}'", shorten(text))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn cmd(id: Option<&str>, name: &str, args: &[&str]) -> Command {
        Command {
            id: id.map(str::to_owned),
            name: name.to_owned(),
            args: args.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn splits_id_name_and_arguments() {
        assert_eq!(parse_command("name"), Ok(cmd(None, "name", &[])));
        assert_eq!(
            parse_command("12 play b d4"),
            Ok(cmd(Some("12"), "play", &["b", "d4"]))
        );
        assert_eq!(
            parse_command("  play   w  pass  "),
            Ok(cmd(None, "play", &["w", "pass"]))
        );
        assert_eq!(
            parse_command("123456789012345678901234567890 name"),
            Ok(cmd(Some("123456789012345678901234567890"), "name", &[]))
        );
        // A token that starts with digits but holds letters is a command name, not an id.
        assert_eq!(parse_command("12abc"), Ok(cmd(None, "12abc", &[])));
    }

    #[test]
    fn id_without_command_is_a_syntax_error_echoing_the_id() {
        let (id, error) = parse_command("7").unwrap_err();
        assert_eq!(id.as_deref(), Some("7"));
        assert_eq!(error, GtpError::syntax("a command name must follow the id"));
    }

    #[test]
    fn typed_arguments() {
        let c = cmd(None, "boardsize", &["x9"]);
        assert_eq!(
            c.parse_arg::<usize>(0, "a board size")
                .unwrap_err()
                .to_string(),
            "syntax error: expected a board size, got 'x9'"
        );
        assert_eq!(
            c.arg(1).unwrap_err().to_string(),
            "syntax error: missing argument 2"
        );
        assert_eq!(
            c.expect_args(0, "").unwrap_err().to_string(),
            "syntax error: usage: boardsize (no arguments)"
        );
    }
}
