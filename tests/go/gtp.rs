//! Golden GTP transcripts of `hamle go`: every Go command, its answers and its errors,
//! served in-process through the protocol core exactly as stdin/stdout would carry them.

use std::io::Cursor;

use hamle::go::engine::{GoEngine, Settings};
use hamle::go::rules::RuleSet;
use hamle::protocol::serve;
use pretty_assertions::assert_eq;

fn session_with(settings: Settings, input: &str) -> String {
    let mut engine = GoEngine::new(settings);
    let mut output = Vec::new();
    serve(
        &mut engine,
        Cursor::new(input.as_bytes().to_vec()),
        &mut output,
    )
    .expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

fn session(input: &str) -> String {
    session_with(
        Settings {
            playouts: 200,
            ..Settings::default()
        },
        input,
    )
}

/// Pairs each command with its response, for transcripts that read like a session log.
fn transcript(commands: &[&str]) -> String {
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    session(&input)
}

#[test]
fn board_setup_and_moves() {
    assert_eq!(
        transcript(&[
            "1 boardsize 9",
            "2 komi 6.5",
            "3 play b e5",
            "4 play W D5",
            "5 play BLACK pass",
            "6 play white c3",
            "7 list_stones black",
            "8 list_stones white",
            "9 get_komi",
            "10 captures b",
        ]),
        "=1 \n\n=2 \n\n=3 \n\n=4 \n\n=5 \n\n=6 \n\n=7 E5\n\n=8 C3 D5\n\n=9 6.5\n\n=10 0\n\n"
    );
}

#[test]
fn crlf_tabs_comments_and_blank_lines() {
    assert_eq!(
        session(
            "boardsize\t9\r\n# a comment line\r\n\r\n7 play\tb\te5 # center\r\n8 list_stones b\r\n"
        ),
        "= \n\n=7 \n\n=8 E5\n\n"
    );
}

#[test]
fn every_error_string() {
    assert_eq!(
        transcript(&[
            "1 boardsize 0",
            "2 boardsize 26",
            "3 boardsize 99999999999999999999999",
            "4 boardsize nine",
            "5 boardsize 9",
            "6 play b e5",
            "7 play w e5",
            "8 play b z9",
            "9 play b j10",
            "10 play purple e5",
            "11 play b",
            "12 fixed_handicap 2",
            "13 clear_board",
            "14 undo",
            "15 fixed_handicap 10",
            "16 fixed_handicap 1",
            "16 fixed_handicap 123456789012345678901234567890",
            "16 fixed_handicap -3",
            "16 fixed_handicap two",
            "17 set_free_handicap a1 a1",
            "18 set_free_handicap a1",
            "19 set_free_handicap a1 zz",
            "20 place_free_handicap 81",
            "21 loadsgf /nonexistent/game.sgf",
            "22 final_status_list maybe",
            "23 komi lots",
            "24 time_settings 10 x 0",
            "25 kgs-time_settings sudden 10",
            "26 frobnicate",
            "27 Play b e5",
            "28 rectangular_boardsize 9 13",
            "29 kata-set-rules martian",
        ]),
        "?1 unacceptable size\n\n\
         ?2 unacceptable size\n\n\
         ?3 unacceptable size\n\n\
         ?4 syntax error: expected a board size, got 'nine'\n\n\
         =5 \n\n\
         =6 \n\n\
         ?7 illegal move\n\n\
         ?8 syntax error: Z9 is off the 9x9 board\n\n\
         ?9 syntax error: J10 is off the 9x9 board\n\n\
         ?10 syntax error: expected a color (b, black, w or white), got 'purple'\n\n\
         ?11 syntax error: usage: play <color> <vertex>\n\n\
         ?12 board not empty\n\n\
         =13 \n\n\
         ?14 cannot undo\n\n\
         ?15 invalid number of stones\n\n\
         ?16 invalid number of stones\n\n\
         ?16 invalid number of stones\n\n\
         ?16 invalid number of stones\n\n\
         ?16 syntax error: expected a number of stones, got 'two'\n\n\
         ?17 bad vertex list\n\n\
         ?18 bad vertex list\n\n\
         ?19 bad vertex list\n\n\
         ?20 invalid number of stones\n\n\
         ?21 cannot load file: /nonexistent/game.sgf: No such file or directory (os error 2)\n\n\
         ?22 syntax error: usage: final_status_list alive | dead | seki\n\n\
         ?23 syntax error: expected a komi such as 6.5, got 'lots'\n\n\
         ?24 syntax error: expected a number of seconds, got 'x'\n\n\
         ?25 syntax error: usage: kgs-time_settings none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones>\n\n\
         ?26 unknown command\n\n\
         ?27 unknown command\n\n\
         ?28 rectangular boards are not supported: columns and rows must be equal\n\n\
         ?29 syntax error: unknown rules 'martian': use japanese, chinese, tromp-taylor, aga, new-zealand or a JSON object\n\n"
    );
}

fn answers(out: &str) -> Vec<String> {
    out.split("\n\n")
        .filter(|r| !r.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn failed_commands_keep_the_state() {
    let out = transcript(&[
        "boardsize 5",
        "play b c3",
        "play w c3",
        "play b nowhere",
        "boardsize 0",
        "loadsgf /nonexistent.sgf",
        "fixed_handicap 3",
        "list_stones b",
        "list_stones w",
    ]);
    assert_eq!(answers(&out)[7..].to_vec(), vec!["= C3", "= "]);
}

#[test]
fn undo_many_in_a_row_then_cannot_undo() {
    assert_eq!(
        transcript(&[
            "boardsize 9",
            "play b a1",
            "play w b1",
            "play b c1",
            "undo",
            "undo",
            "undo",
            "undo",
            "list_stones b",
        ]),
        "= \n\n= \n\n= \n\n= \n\n= \n\n= \n\n= \n\n? cannot undo\n\n= \n\n"
    );
}

#[test]
fn captures_and_simple_ko() {
    let out = transcript(&[
        "boardsize 5",
        "play b b3",
        "play w c3",
        "play b a2",
        "play w b2",
        "play b b1",
        "play w d2",
        "play b e5",
        "play w c1",
        // Black takes the white stone at B2: a ko.
        "play b c2",
        "captures b",
        "list_stones w",
        // The immediate retake is illegal; after an exchange elsewhere it is legal.
        "play w b2",
        "play w e4",
        "play b e3",
        "play w b2",
        "captures w",
        "list_stones b",
    ]);
    assert_eq!(
        answers(&out)[9..].to_vec(),
        vec![
            "= ",
            "= 1",
            "= C1 C3 D2",
            "? illegal move",
            "= ",
            "= ",
            "= ",
            "= 1",
            "= A2 B1 B3 E3 E5"
        ]
    );
}

#[test]
fn showboard_is_multi_line_without_empty_lines() {
    let out = transcript(&["boardsize 3", "play b b2", "showboard"]);
    assert_eq!(
        out,
        "= \n\n= \n\n= \n    A B C\n 3  . . .  3\n 2  . X .  2\n 1  . . .  1\n    A B C\n\
         Black (X) captured 0, White (O) captured 0; komi 6.5; white to move; rules japanese\n\n"
    );
}

#[test]
fn fixed_and_free_handicap() {
    assert_eq!(
        transcript(&[
            "boardsize 19",
            "fixed_handicap 9",
            "clear_board",
            "fixed_handicap 5",
            "boardsize 13",
            "fixed_handicap 4",
            "boardsize 9",
            "place_free_handicap 2",
            "boardsize 8",
            "fixed_handicap 5",
            "boardsize 9",
            "set_free_handicap c3 g7 e5",
            "list_stones b",
        ]),
        "= \n\n= D4 Q16 D16 Q4 D10 Q10 K4 K16 K10\n\n= \n\n= D4 Q16 D16 Q4 K10\n\n= \n\n\
         = D4 K10 D10 K4\n\n= \n\n= C3 G7\n\n= \n\n? invalid number of stones\n\n= \n\n= \n\n= C3 E5 G7\n\n"
    );
}

/// Black walls column C and White column D on 5×5, Chinese rules, komi 0.5: Black owns
/// columns A–C, White D–E.
const FIVE_BY_FIVE_WALLS: [&str; 13] = [
    "boardsize 5",
    "komi 0.5",
    "kgs-rules chinese",
    "play b c1",
    "play w d1",
    "play b c2",
    "play w d2",
    "play b c3",
    "play w d3",
    "play b c4",
    "play w d4",
    "play b c5",
    "play w d5",
];

#[test]
fn scoring_a_finished_position() {
    // Every stone alive and none in seki: area 15 to 10.
    let out = transcript(
        &[
            FIVE_BY_FIVE_WALLS.as_slice(),
            &[
                "final_score",
                "final_status_list dead",
                "final_status_list alive",
                "final_status_list seki",
            ],
        ]
        .concat(),
    );
    let answers = answers(&out);
    assert_eq!(
        answers[answers.len() - 4..].to_vec(),
        vec!["= B+4.5", "= ", "= C1 C2 C3 C4 C5 D1 D2 D3 D4 D5", "= "]
    );
}

#[test]
fn a_rules_change_judges_the_stones_afresh() {
    // A white stone left in Black's area is dead, but Tromp–Taylor takes no stone off:
    // the judgement kept for the position must not outlive the rules it was made under.
    let out = transcript(
        &[
            FIVE_BY_FIVE_WALLS.as_slice(),
            &[
                "play b pass",
                "play w a1",
                "final_status_list dead",
                "final_score",
                "kata-set-rules tromp-taylor",
                "final_status_list dead",
                "final_score",
            ],
        ]
        .concat(),
    );
    let answers = answers(&out);
    assert_eq!(
        answers[answers.len() - 5..].to_vec(),
        vec!["= A1", "= B+4.5", "= ", "= ", "= W+6.5"]
    );
}

#[test]
fn rules_commands() {
    assert_eq!(
        transcript(&[
            "kata-get-rules",
            "kgs-rules chinese extra words",
            "kata-get-rules",
            "kgs-rules go-ban-rules",
            "kata-set-rules tromp-taylor",
            "kata-get-rules",
            "kata-set-rules {\"ko\":\"SITUATIONAL\",\"scoring\":\"TERRITORY\",\"suicide\":true}",
            "kata-get-rules",
            "kata-set-rules {\"button\":true}",
        ]),
        "= {\"friendlyPassOk\":false,\"hasButton\":false,\"ko\":\"SIMPLE\",\"scoring\":\"TERRITORY\",\"suicide\":false,\"tax\":\"NONE\",\"whiteHandicapBonus\":\"0\"}\n\n\
         = \n\n\
         = {\"friendlyPassOk\":false,\"hasButton\":false,\"ko\":\"POSITIONAL\",\"scoring\":\"AREA\",\"suicide\":false,\"tax\":\"NONE\",\"whiteHandicapBonus\":\"N\"}\n\n\
         = \n\n\
         = \n\n\
         = {\"friendlyPassOk\":false,\"hasButton\":false,\"ko\":\"POSITIONAL\",\"scoring\":\"AREA\",\"suicide\":true,\"tax\":\"NONE\",\"whiteHandicapBonus\":\"0\"}\n\n\
         = \n\n\
         = {\"friendlyPassOk\":false,\"hasButton\":false,\"ko\":\"SITUATIONAL\",\"scoring\":\"TERRITORY\",\"suicide\":true,\"tax\":\"NONE\",\"whiteHandicapBonus\":\"0\"}\n\n\
         ? syntax error: unsupported rules field button=true\n\n"
    );
}

#[test]
fn time_commands() {
    assert_eq!(
        transcript(&[
            "time_settings 300 30 5",
            "time_left b 280 0",
            "time_left white 25.5 3",
            "kgs-time_settings none",
            "kgs-time_settings absolute 600",
            "kgs-time_settings byoyomi 600 30 5",
            "kgs-time_settings canadian 600 300 25",
            "kgs-time_settings canadian 600 300 0",
            "time_left b -1 0",
            "time_settings 1e308 0 0",
            "time_left w 1e400 0",
        ]),
        "= \n\n= \n\n= \n\n= \n\n= \n\n= \n\n= \n\n\
         ? syntax error: canadian byo-yomi needs at least 1 stone a period\n\n\
         ? syntax error: expected a number of seconds, got '-1'\n\n\
         ? syntax error: expected a number of seconds, got '1e308'\n\n\
         ? syntax error: expected a number of seconds, got '1e400'\n\n"
    );
}

#[test]
fn genmove_answers_a_legal_vertex_and_plays_it() {
    let out = transcript(&[
        "boardsize 9",
        "7 genmove b",
        "list_stones b",
        "reg_genmove w",
        "list_stones w",
    ]);
    let answers = answers(&out);
    let played = answers[1].strip_prefix("=7 ").expect("genmove succeeded");
    assert!(regex_like_vertex(played), "{played}");
    assert_eq!(answers[2], format!("= {played}"));
    assert!(
        regex_like_vertex(answers[3].trim_start_matches("= ")),
        "{}",
        answers[3]
    );
    assert_eq!(answers[4], "= ", "reg_genmove must not play");
}

fn regex_like_vertex(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some('A'..='H' | 'J'))
        && chars
            .as_str()
            .parse::<u8>()
            .is_ok_and(|n| (1..=9).contains(&n))
}

#[test]
fn genmove_is_deterministic_by_seed() {
    let run = |seed| {
        session_with(
            Settings {
                seed,
                playouts: 300,
                rules: RuleSet::Chinese,
                ..Settings::default()
            },
            "boardsize 9\nplay b e5\ngenmove w\ngenmove b\ngenmove w\n",
        )
    };
    assert_eq!(run(3), run(3));
}

#[test]
fn printsgf_then_loadsgf_round_trips_the_game() {
    let dir = std::env::temp_dir().join(format!("hamle-go-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("game.sgf");
    let path = file.display().to_string();
    let out = transcript(&[
        "boardsize 9",
        "komi 5.5",
        "fixed_handicap 2",
        "play w e5",
        "play b pass",
        "play w d3",
        &format!("printsgf {path}"),
        "clear_board",
        &format!("loadsgf {path}"),
        "list_stones b",
        "list_stones w",
        "get_komi",
        &format!("loadsgf {path} 2"),
        "list_stones w",
        "printsgf",
    ]);
    let answers = answers(&out);
    assert_eq!(
        answers[9..13].to_vec(),
        vec!["= C3 G7", "= D3 E5", "= 5.5", "= "]
    );
    assert_eq!(answers[13], "= E5");
    assert_eq!(
        answers[14],
        format!(
            "= (;GM[1]FF[4]CA[UTF-8]AP[hamle:{}]SZ[9]KM[5.5]HA[2]RU[Japanese]AB[cg][gc]\n;W[ee])",
            env!("CARGO_PKG_VERSION")
        )
    );
    let sgf = std::fs::read_to_string(&file).expect("printsgf wrote the file");
    for property in [
        "GM[1]",
        "FF[4]",
        "SZ[9]",
        "KM[5.5]",
        "HA[2]",
        "RU[Japanese]",
        "AB[cg][gc]",
        ";W[ee]",
        ";B[]",
        ";W[dg]",
    ] {
        assert!(sgf.contains(property), "{property} missing from {sgf}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn over_long_line_gets_an_error_and_the_engine_goes_on() {
    let mut input = String::from("3 play b ");
    input.push_str(&"x".repeat(hamle::protocol::MAX_LINE_BYTES + 1));
    input.push_str("\n4 name\n");
    let out = session(&input);
    assert_eq!(
        out,
        "?3 line too long: a command may hold at most 16777216 bytes\n\n=4 hamle\n\n"
    );
}
