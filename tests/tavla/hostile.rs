//! Hostile input on Tavla's line protocols besides GTP: an over-long or garbled line on
//! UBGI and on gnubg's external player socket is answered with that protocol's error and
//! changes nothing, and no answer quotes more than a few dozen characters of it.

use std::io::{BufRead, BufReader, Cursor, Write};
use std::net::{TcpListener, TcpStream};

use hamle::protocol::MAX_LINE_BYTES;
use hamle::tavla::external;
use hamle::tavla::player::{Level, Player};
use pretty_assertions::assert_eq;

/// Longer than any line hamle reads: 17 MiB.
fn over_long_line(start: &str) -> Vec<u8> {
    let mut line = start.as_bytes().to_vec();
    line.resize(MAX_LINE_BYTES + 1024 * 1024, b'x');
    line.push(b'\n');
    line
}

fn ubgi(input: Vec<u8>) -> String {
    let mut output = Vec::new();
    hamle::tavla::ubgi::serve(Level::default(), Cursor::new(input), &mut output)
        .expect("UBGI reads on after bad lines");
    String::from_utf8(output).expect("utf-8 output")
}

#[test]
fn ubgi_answers_over_long_and_garbled_lines_and_keeps_its_context() {
    let set_up = b"newsession type match length 5\nposition gnubgid 4HPwATDgc/ABMA\ndice 6 5\n";
    let finish = b"go\nisready\n";
    let clean = ubgi([&set_up[..], finish].concat());
    assert_eq!(clean, "bestmove 24/18 18/13\nreadyok\n");

    let mut hostile = set_up.to_vec();
    hostile.extend(over_long_line("dice "));
    hostile.extend_from_slice(b"\xff\xfe\n");
    hostile.extend_from_slice(b"go role \xff\n");
    hostile.extend(format!("{}\n", "y".repeat(10_000)).as_bytes());
    hostile.extend_from_slice(finish);
    let output = ubgi(hostile);
    assert_eq!(
        output,
        format!(
            "error bad_argument line_too_long\nerror unknown_command \u{fffd}\u{fffd}\n\
             error bad_argument go\nerror unknown_command {}…\n{clean}",
            "y".repeat(40)
        )
    );
}

#[test]
fn ubgi_reads_a_last_line_without_its_newline() {
    assert_eq!(ubgi(b"isready\nisready".to_vec()), "readyok\nreadyok\n");
}

/// A FIBS board at the start of a match, black to play 2-1.
const BOARD: &str = "board:black:white:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:2:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0";

#[test]
fn external_player_answers_over_long_and_garbled_lines_and_reads_on() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().expect("its address").port();
    let server = std::thread::spawn(move || external::serve_listener(&listener, Level::default()));
    let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let mut writer = stream.try_clone().expect("clone the stream");
    // The 17 MiB line is written on its own thread: the server answers it (and may fill
    // the socket's buffer) before the test reads.
    let lines = std::thread::spawn(move || {
        writer.write_all(&over_long_line("board:"))?;
        writer.write_all(b"\0board:\xff\xfe\n")?;
        writer.write_all(format!("\0board:{}\n", "7".repeat(100_000)).as_bytes())?;
        writer.write_all(format!("\0{BOARD}\n").as_bytes())?;
        writer.flush()
    });
    let mut answers = BufReader::new(stream);
    let mut read_answer = || {
        let mut answer = String::new();
        answers.read_line(&mut answer).expect("an answer");
        answer
    };
    assert_eq!(
        read_answer(),
        format!("Error: line too long (a board line may hold at most {MAX_LINE_BYTES} bytes)\n")
    );
    let garbled = read_answer();
    assert!(
        garbled.starts_with("Error: badly formed board"),
        "{garbled}"
    );
    let huge_field = read_answer();
    assert!(
        huge_field.starts_with("Error: badly formed board") && huge_field.len() < 200,
        "{huge_field}"
    );
    let play = read_answer();
    let expected = external::reply(BOARD, &mut Player::new(Level::default()));
    assert!(!expected.starts_with("Error"), "{expected}");
    assert_eq!(play.trim_end(), expected);
    lines
        .join()
        .expect("writer thread")
        .expect("write the lines");
    drop(answers);
    server
        .join()
        .expect("server thread")
        .expect("served until closed");
}
