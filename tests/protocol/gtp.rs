//! Golden GTP transcripts of the protocol core, served with a small test engine so that
//! they pin the framing that every game shares.

use std::io::Cursor;

use hamle::protocol::{Command, Engine, GtpError, Session, serve};
use pretty_assertions::assert_eq;

/// Answers `echo` with its arguments, `fail` with a chosen standard error and `lines`
/// with a multi-line body holding an empty line that must not reach the wire.
struct TestEngine {
    echoes: usize,
}

impl Engine for TestEngine {
    fn name(&self) -> String {
        "test".into()
    }

    fn version(&self) -> String {
        "1.0".into()
    }

    fn commands(&self) -> Vec<&'static str> {
        vec!["echo", "fail", "lines", "stream"]
    }

    fn execute(
        &mut self,
        command: &Command,
        session: &mut Session<'_>,
    ) -> Result<String, GtpError> {
        match command.name.as_str() {
            "echo" => {
                self.echoes += 1;
                Ok(command.args.join(" "))
            }
            "fail" => Err(match command.arg(0)? {
                "size" => GtpError::UnacceptableSize,
                "move" => GtpError::IllegalMove,
                "undo" => GtpError::CannotUndo,
                "score" => GtpError::CannotScore,
                "file" => GtpError::CannotLoadFile(String::new()),
                "empty" => GtpError::BoardNotEmpty,
                "list" => GtpError::BadVertexList,
                "stones" => GtpError::InvalidNumberOfStones,
                other => GtpError::syntax(format!("no such failure '{other}'")),
            }),
            "lines" => Ok("\nfirst\n\nsecond\n".into()),
            "stream" => {
                session
                    .stream_line("info 1")
                    .map_err(|e| GtpError::other(e.to_string()))?;
                session
                    .stream_line("info 2")
                    .map_err(|e| GtpError::other(e.to_string()))?;
                Ok("play D4".into())
            }
            _ => Err(GtpError::UnknownCommand),
        }
    }
}

fn transcript(input: &str) -> String {
    let mut engine = TestEngine { echoes: 0 };
    let mut output = Vec::new();
    serve(
        &mut engine,
        Cursor::new(input.as_bytes().to_vec()),
        &mut output,
    )
    .expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

#[test]
fn framing_ids_and_empty_lines() {
    assert_eq!(
        transcript("1 name\r\nversion\n\n   \n# a comment\n22\tprotocol_version # trailing\n"),
        "=1 test\n\n= 1.0\n\n=22 2\n\n"
    );
}

#[test]
fn control_characters_are_dropped_and_tabs_become_spaces() {
    assert_eq!(transcript("ec\x07ho\ta\t\tb\x00\r\n"), "= a b\n\n");
}

#[test]
fn commands_are_case_sensitive() {
    assert_eq!(
        transcript("NAME\n3 Echo x\n"),
        "? unknown command\n\n?3 unknown command\n\n"
    );
}

#[test]
fn every_standard_error_string_is_verbatim() {
    let input = "1 fail size\n2 fail move\n3 fail undo\n4 fail score\n5 fail file\n6 fail empty\n7 fail list\n8 fail stones\n9 nonsense\n10 fail\n";
    assert_eq!(
        transcript(input),
        "?1 unacceptable size\n\n?2 illegal move\n\n?3 cannot undo\n\n?4 cannot score\n\n\
         ?5 cannot load file\n\n?6 board not empty\n\n?7 bad vertex list\n\n\
         ?8 invalid number of stones\n\n?9 unknown command\n\n?10 syntax error: missing argument 1\n\n"
    );
}

#[test]
fn multi_line_bodies_never_hold_an_empty_line() {
    assert_eq!(transcript("lines\n"), "= \nfirst\nsecond\n\n");
}

#[test]
fn streamed_responses_open_once_and_close_with_one_empty_line() {
    assert_eq!(
        transcript("4 stream\nname\n"),
        "=4 \ninfo 1\ninfo 2\nplay D4\n\n= test\n\n"
    );
}

#[test]
fn list_and_known_command_cover_core_and_game_commands() {
    let out = transcript(
        "known_command echo\nknown_command genmove\nknown_command list_commands\nlist_commands\n",
    );
    assert!(
        out.starts_with("= true\n\n= false\n\n= true\n\n= protocol_version\n"),
        "{out}"
    );
    assert!(out.contains("\ngogui-interrupt\n"), "{out}");
    assert!(out.ends_with("\necho\nfail\nlines\nstream\n\n"), "{out}");
}

#[test]
fn quit_answers_and_stops_reading() {
    assert_eq!(transcript("7 quit\nname\n"), "=7 \n\n");
}

#[test]
fn end_of_input_is_quit() {
    assert_eq!(transcript("name"), "= test\n\n");
}

#[test]
fn wrong_argument_counts_are_syntax_errors_with_usage() {
    assert_eq!(
        transcript("name extra\nknown_command\n"),
        "? syntax error: usage: name (no arguments)\n\n? syntax error: usage: known_command <command_name>\n\n"
    );
}

#[test]
fn an_id_alone_is_a_syntax_error() {
    assert_eq!(
        transcript("42\n"),
        "?42 syntax error: a command name must follow the id\n\n"
    );
}

#[test]
fn non_utf8_bytes_do_not_stop_the_engine() {
    let mut engine = TestEngine { echoes: 0 };
    let mut output = Vec::new();
    let input = b"echo \xff\xfe\nname\n".to_vec();
    serve(&mut engine, Cursor::new(input), &mut output).expect("serve");
    let text = String::from_utf8(output).expect("utf-8 output");
    assert!(text.ends_with("= test\n\n"), "{text}");
    assert_eq!(engine.echoes, 1);
}
