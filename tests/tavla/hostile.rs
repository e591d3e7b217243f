//! Hostile input on Tavla's line protocols besides GTP: an over-long or garbled line on
//! UBGI and on gnubg's external player socket is answered with that protocol's error and
//! changes nothing, and no answer quotes more than a few dozen characters of it. A gnubg
//! that hangs (`--gnubg`, fakes in `tests/fixtures/`) is given up after `--gnubg-timeout`.

use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use hamle::protocol::MAX_LINE_BYTES;
use hamle::tavla::external;
use hamle::tavla::net::Net;
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

/// Far longer than the one-second gnubg timeout the tests set, far shorter than the fakes'
/// two-minute hang: an engine still running then waits on gnubg without a timeout.
const PATIENCE: Duration = Duration::from_secs(60);

fn fake_gnubg(name: &str) -> Child {
    let fake = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    Command::new(env!("CARGO_BIN_EXE_hamle"))
        .args([
            "tavla",
            "--gnubg",
            "--gnubg-timeout",
            "1",
            "--gnubg-path",
            &fake,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hamle")
}

/// Waits for `child` to exit within [`PATIENCE`]; returns whether it succeeded, its
/// stdout and its stderr.
fn finish(mut child: Child) -> (bool, String, String) {
    let begun = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll hamle") {
            break status;
        }
        if begun.elapsed() > PATIENCE {
            child.kill().ok();
            panic!("hamle still waits on a hung gnubg after {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = text_of(child.stdout.take());
    let stderr = text_of(child.stderr.take());
    (status.success(), stdout, stderr)
}

fn text_of(stream: Option<impl Read>) -> String {
    let mut text = String::new();
    stream
        .expect("piped")
        .read_to_string(&mut text)
        .expect("read");
    text
}

#[test]
fn a_gnubg_that_never_answers_fails_the_start_after_the_timeout() {
    // stdin stays open: an engine that started serving would wait on it.
    let child = fake_gnubg("gnubg_hangs_at_start.sh");
    let (success, stdout, stderr) = finish(child);
    assert!(!success, "{stdout}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("starting gnubg: gnubg (")
            && stderr.contains("gnubg_hangs_at_start.sh) did not answer within 1 s"),
        "{stderr}"
    );
}

#[test]
fn a_gnubg_that_hangs_on_a_move_fails_that_move_and_the_engine_serves_on() {
    let mut child = fake_gnubg("gnubg_hangs_on_hint.sh");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(
            b"1 new_game\n2 get_position\n3 genmove\n4 name\n5 get_position\n6 genmove\n7 quit\n",
        )
        .expect("write the commands");
    drop(stdin);
    let (success, stdout, stderr) = finish(child);
    assert!(success, "{stderr}");
    let responses: Vec<&str> = stdout.split("\n\n").collect();
    let fake = format!(
        "{}/tests/fixtures/gnubg_hangs_on_hint.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    assert_eq!(
        responses[2..],
        [
            format!("?3 gnubg failed: gnubg ({fake}) did not answer within 1 s (--gnubg-timeout)")
                .as_str(),
            "=4 hamle",
            &responses[1].replace("=2", "=5"),
            &format!("?6 gnubg failed: gnubg ({fake}) was stopped after it did not answer in time"),
            "=7 ",
            "",
        ]
    );
}

/// A scratch folder of this test's own.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hamle-hostile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn train(start: &std::path::Path, out: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hamle"))
        .args(["tavla", "train", "--games", "1", "--start"])
        .arg(start)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run hamle tavla train")
}

#[test]
fn training_refuses_a_start_file_with_a_nan_weight_and_names_it() {
    let dir = scratch("nan-weights");
    let mut bytes = Net::random(1).to_bytes();
    // Input 1's weight to hidden unit 20 (after the 16-byte header; w1 is stored by input).
    let index = hamle::tavla::net::HIDDEN + 20;
    bytes[16 + 4 * index..20 + 4 * index].copy_from_slice(&f32::NAN.to_le_bytes());
    let start = dir.join("nan.bin");
    std::fs::write(&start, &bytes).expect("write the weights");
    let out = dir.join("out.bin");
    let output = train(&start, &out);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains(&format!(
            "{}: weight {index} (w1, input 1 to hidden 20) is NaN",
            start.display()
        )),
        "{stderr}"
    );
    assert!(!out.exists(), "no weights are written from a refused start");

    // The committed weights still load and train on.
    let committed = format!("{}/src/tavla/weights/net.bin", env!("CARGO_MANIFEST_DIR"));
    let output = train(std::path::Path::new(&committed), &out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(Net::from_bytes(&std::fs::read(&out).expect("trained weights")).is_ok());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn save_mat_refuses_a_fifo_a_link_and_a_device_and_keeps_the_match() {
    use crate::support::files::{PATIENCE, Scratch, WRITE_RULE, assert_untouched, unwritable};
    use crate::support::gtp::GtpChild;
    let scratch = Scratch::new("tavla", "save-mat");
    let mut engine = GtpChild::start(&["tavla", "--seed", "1"]);
    for command in ["new_match 5", "new_game 3 5"] {
        let answer = engine.ask(command, PATIENCE);
        assert!(answer.is_ok(), "{command}: {answer:?}");
    }
    let position = engine.ask("get_position", PATIENCE);
    // A FIFO blocked the engine for good before; `ask` fails the test after PATIENCE.
    for (path, reason) in unwritable(&scratch.0) {
        assert_eq!(
            engine.ask(&format!("save_mat {}", path.display()), PATIENCE),
            Err(format!(
                "? cannot write {}: {reason}; {WRITE_RULE}",
                path.display()
            ))
        );
        assert_eq!(engine.ask("get_position", PATIENCE), position);
    }
    assert_untouched(&scratch.0);
    let file = scratch.0.join("match.mat");
    let saved = engine.ask(&format!("save_mat {}", file.display()), PATIENCE);
    assert_eq!(saved, Ok(String::new()));
    assert!(
        std::fs::read_to_string(&file)
            .expect("written")
            .contains("5 point match")
    );
    engine.quit();
}

/// A money session of games through the binary, each an opening, a play, a double and a
/// drop: the session keeps 200,000 actions, refuses more with one line and keeps what it
/// has, and the engine's memory stays flat.
#[test]
fn a_flood_of_games_stops_at_the_kept_actions_and_memory_stays_flat() {
    use crate::support::gtp::GtpChild;
    const GAMES: usize = 40_100;
    let patience = Duration::from_secs(120);
    let mut engine = GtpChild::start(&["tavla"]);
    assert_eq!(engine.ask("new_match 0", patience), Ok(String::new()));
    let game = "new_game 3 1\nplay white 31 8/5 6/5\ndouble black\ndrop white\n";
    let answers = engine.flood(&game.repeat(GAMES), patience);
    let refusal =
        "? game too long: a match keeps at most 200000 actions; start a new one (new_match)";
    let first_refused = answers
        .iter()
        .position(|a| a.starts_with('?'))
        .expect("a refusal");
    // Five kept actions a game from four lines (the opening roll, the play, the double, the
    // drop, and the win the drop makes).
    assert_eq!(first_refused, 160_000);
    assert_eq!(answers[first_refused], refusal);
    assert!(answers[first_refused..].iter().all(|a| a.starts_with('?')));
    let status = engine.ask("match_status", patience).expect("the status");
    assert!(status.contains("games 40000;"), "{status}");
    assert_eq!(engine.ask("undo", patience), Ok(String::new()));
    assert_eq!(engine.ask("drop white", patience), Ok(String::new()));
    if let Some(peak) = engine.peak_memory() {
        assert!(peak < 200 * 1024 * 1024, "{peak} bytes at the peak");
    }
}
