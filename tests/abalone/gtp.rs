//! Golden GTP transcripts of `hamle abalone`: every Abalone command, its answers and its
//! errors, served in-process through the protocol core exactly as stdin/stdout carry them.

use std::io::Cursor;
use std::time::Duration;

use hamle::abalone::engine::{AbaloneEngine, Settings};
use hamle::protocol::serve;
use pretty_assertions::assert_eq;

fn session_with(settings: Settings, commands: &[&str]) -> String {
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    let mut engine = AbaloneEngine::new(settings);
    let mut output = Vec::new();
    serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

fn transcript(commands: &[&str]) -> String {
    session_with(
        Settings {
            nodes: 3_000,
            table_bits: 12,
            ..Settings::default()
        },
        commands,
    )
}

#[test]
fn showboard_draws_the_hexagon() {
    assert_eq!(
        transcript(&["1 showboard"]),
        "=1 \n    I O O O O O\n   H O O O O O O\n  G . . O O O . .\n F . . . . . . . .\nE . . . . . . . . .\n \
         D . . . . . . . . 9\n  C . . X X X . . 8\n   B X X X X X X 7\n    A X X X X X 6\n       1 2 3 4 5\n\
         Black (X) marbles off 0, White (O) marbles off 0; ply 0; black to move\n\n"
    );
}

#[test]
fn moves_in_both_notations_and_the_position_string() {
    assert_eq!(
        transcript(&[
            "1 play b c3d4",
            "2 play W i5h5",
            "3 play black B6B5C7",
            "4 abalone-position",
            "5 undo",
            "6 play b b5b6c6",
            "7 abalone-position",
            "8 is_legal w g5f5",
            "9 is_legal b g5f5",
            "10 gogui-rules_side_to_move",
            "11 abalone-marbles_off",
            "12 final_score",
            "13 gogui-rules_final_result",
        ]),
        "=1 \n\n=2 \n\n=3 \n\n\
         =4 1wwww/wwwwww/2www2/3w4/9/3b4/3bbbb/bbbb2/bbbbb w 0 0\n\n\
         =5 \n\n=6 \n\n\
         =7 1wwww/wwwwww/2www2/3w4/9/3b4/3bbbb/bbbb2/bbbbb w 0 0\n\n\
         =8 1\n\n=9 0\n\n=10 white\n\n=11 black 0 white 0\n\n=12 0\n\n=13 unknown\n\n"
    );
}

#[test]
fn bad_input_names_the_reason_and_keeps_the_state() {
    assert_eq!(
        transcript(&[
            "1 play b a1a6",
            "2 play b j1j2",
            "3 play b a1c3",
            "4 play b a1a2a3",
            "5 play w i5h5",
            "6 play b i5h5",
            "7 play b e5e6",
            "8 play b a1a2",
            "9 play b a3a2",
            "10 play b a1a2b1",
            "11 play b b6a5",
            "12 play",
            "13 play red a1b1",
            "14 abalone-position",
        ]),
        "?1 syntax error: malformed move 'a1a6': unknown cell 'a6': row a has diagonals 1 to 5\n\n\
         ?2 syntax error: malformed move 'j1j2': unknown cell 'j1'\n\n\
         ?3 syntax error: malformed move 'a1c3': the two cells of an in-line move must be neighbours\n\n\
         ?4 syntax error: malformed move 'a1a2a3': the third cell must be the neighbour the first end moves to\n\n\
         ?5 illegal move: it is black's turn\n\n\
         ?6 illegal move: i5 holds an opponent's marble: only your own marbles move\n\n\
         ?7 illegal move: e5 holds no marble\n\n\
         ?8 illegal move: 4 or more marbles in line: at most 3 move (a fourth behind them stays where it is)\n\n\
         ?9 illegal move: the marble at a1 would leave the board: never push your own marble off\n\n\
         ?10 illegal move: a broadside moves only into empty cells, and b1 is not empty\n\n\
         ?11 illegal move: the marble at a5 would leave the board: never push your own marble off\n\n\
         ?12 syntax error: usage: play <color> <move>\n\n\
         ?13 syntax error: expected a color (b, black, w or white), got 'red'\n\n\
         =14 wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0\n\n"
    );
}

#[test]
fn sumito_rules_on_the_wire() {
    // Black d4 d5 d6 against white d7 d8 (3 v 2, d8 on the edge); black e5 e6 against
    // white e7 e8 (2 v 2); black f6 against white f7 (1 v 1); black g6 g7 against white g8
    // with black g9 behind it (blocked by the mover's own marble).
    let position = "5/6/3bbwb/4bw2/4bbww1/3bbbww/7/6/5 b 0 0";
    assert_eq!(
        transcript(&[
            &format!("1 abalone-set_position {position}"),
            "2 abalone-position",
            "3 play b e5e6",
            "4 play b f6f7",
            "5 play b g6g7",
            "6 play b d4d5",
            "7 abalone-marbles_off",
            "8 abalone-position",
            "9 undo",
            "10 abalone-position",
        ]),
        format!(
            "=1 \n\n=2 {position}\n\n\
             ?3 illegal move: 2 marbles cannot push 2: sumito needs 2 against 1, 3 against 1 or 3 against 2\n\n\
             ?4 illegal move: 1 marbles cannot push 1: sumito needs 2 against 1, 3 against 1 or 3 against 2\n\n\
             ?5 illegal move: the push is blocked by your own marble at g9\n\n\
             =6 \n\n=7 black 0 white 1\n\n\
             =8 5/6/3bbwb/4bw2/4bbww1/4bbbw/7/6/5 w 0 1\n\n\
             =9 \n\n=10 {position}\n\n"
        )
    );
}

#[test]
fn positions_and_starts_are_validated() {
    assert_eq!(
        transcript(&[
            "1 abalone-set_position 5/6/7/8/9/8/7/6 b 0 0",
            "2 abalone-set_position 5/6/7/8/9/8/7/6/5 b 0 7",
            "3 abalone-set_position 5/6/7/8/9/8/7/6/5 b 0 6",
            "4 abalone-set_position 5/6/7/8/9/8/7/6/5x b 0 0",
            "5 abalone-new_game belgian-daisy",
            "6 abalone-position",
            "7 abalone-new_game chess",
            "8 clear_board",
            "9 abalone-position",
            "10 abalone-new_game",
            "11 boardsize 19",
            "12 boardsize 9",
        ]),
        "?1 syntax error: bad position: expected 9 rows separated by '/', got 8\n\n\
         ?2 syntax error: bad position: 7 white marbles off: the game ends when the sixth is pushed off\n\n\
         ?3 syntax error: bad position: black pushed the sixth white marble off, so white must be the side to move\n\n\
         ?4 syntax error: bad position: row a: 'x' is not b, w or a digit counting empty cells\n\n\
         =5 belgian-daisy\n\n\
         =6 ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b 0 0\n\n\
         ?7 syntax error: unknown start position 'chess': standard, belgian-daisy or german-daisy\n\n\
         =8 \n\n\
         =9 ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b 0 0\n\n\
         =10 belgian-daisy\n\n\
         ?11 unacceptable size\n\n=12 \n\n"
    );
}

#[test]
fn gogui_rules_and_legal_moves() {
    let out = transcript(&[
        "1 gogui-rules_game_id",
        "2 gogui-rules_board_size",
        "3 gogui-rules_side_to_move",
        "4 gogui-rules_board",
        "5 all_legal w",
    ]);
    assert_eq!(
        out,
        "=1 Abalone\n\n=2 9 9 hex\n\n=3 black\n\n=4 \n\
         ? ? ? ? O O O O O\n\
         ? ? ? O O O O O O\n\
         ? ? . . O O O . .\n\
         ? . . . . . . . .\n\
         . . . . . . . . .\n\
         . . . . . . . . ?\n\
         . . X X X . . ? ?\n\
         X X X X X X ? ? ?\n\
         X X X X X ? ? ? ?\n\n\
         =5 \n\n"
    );
    let legal = transcript(&["gogui-rules_legal_moves"]);
    assert_eq!(
        legal.trim_start_matches("= ").split_whitespace().count(),
        44
    );
}

#[test]
fn genmove_plays_a_legal_move_reproducibly_and_clock_commands_work() {
    let commands = [
        "1 time_settings 600 0 0",
        "2 time_left b 300 0",
        "3 genmove b",
        "4 genmove w",
        "5 genmove w",
        "6 reg_genmove b",
        "7 abalone-position",
    ];
    let first = transcript(&commands);
    assert_eq!(
        first,
        transcript(&commands),
        "same seed and budget, same moves"
    );
    let move_re = regex::Regex::new(
        r"^=1 \n\n=2 \n\n=3 ([a-i][1-9]){2,3}\n\n=4 ([a-i][1-9]){2,3}\n\n\?5 illegal move: it is black's turn\n\n=6 ([a-i][1-9]){2,3}\n\n=7 [wb1-9/]+ b 0 0\n\n$",
    )
    .expect("regex");
    assert!(move_re.is_match(&first), "{first}");
    assert_eq!(
        transcript(&["1 time_settings -5 0 0", "2 time_left b x 0", "3 genmove"]),
        "?1 syntax error: expected a number of seconds, got '-5'\n\n\
         ?2 syntax error: expected a number of seconds, got 'x'\n\n\
         ?3 syntax error: usage: genmove <color>\n\n"
    );
}

#[test]
fn the_game_ends_at_six_off_and_genmove_refuses_after() {
    // White has lost five; black e7 e8 push white e9, the east end of row E, off.
    let position = "5/6/7/8/6bbw/8/7/6/5 b 0 5";
    assert_eq!(
        transcript(&[
            &format!("1 abalone-set_position {position}"),
            "2 play b e7e8",
            "3 gogui-rules_final_result",
            "4 final_score",
            "5 genmove w",
            "6 all_legal",
            "7 play w i5h5",
        ]),
        "=1 \n\n=2 \n\n\
         =3 Black wins (six marbles pushed off; black pushed off 6, white 0)\n\n\
         =4 B+6\n\n\
         ?5 illegal move: the game is over\n\n=6 \n\n\
         ?7 illegal move: the game is over\n\n"
    );
}

#[test]
fn the_length_cap_adjudicates_by_marbles_off() {
    let settings = Settings {
        nodes: 500,
        table_bits: 12,
        end_rules: hamle::abalone::EndRules {
            max_plies: 2,
            repetition_draw: false,
        },
        ..Settings::default()
    };
    let out = session_with(
        settings,
        &[
            "1 play b a1b1",
            "2 play w i5h5",
            "3 gogui-rules_final_result",
            "4 final_score",
            "5 undo",
            "6 gogui-rules_final_result",
        ],
    );
    assert_eq!(
        out,
        "=1 \n\n=2 \n\n=3 Draw (move cap reached, adjudicated by marbles pushed off; black pushed off 0, white 0)\n\n\
         =4 0\n\n=5 \n\n=6 unknown\n\n"
    );
}

#[test]
fn genmove_sees_the_game_s_repetitions_and_its_cap() {
    let settings = |max_plies, repetition_draw| Settings {
        nodes: 20_000,
        table_bits: 14,
        end_rules: hamle::abalone::EndRules {
            max_plies,
            repetition_draw,
        },
        ..Settings::default()
    };
    // White has lost five; the cycle c3d3 a2a3 d3c3 a3a2 comes back to this position. After
    // seven plies White's a3 is attacked from b3 c3 and a3a2, the only defence, is the
    // position's third occurrence: a draw the engine must take.
    let cycle = "2w2/6/7/8/9/8/1bb4/1bbb2/1w1b1 b 0 5";
    assert_eq!(
        session_with(
            settings(200, true),
            &[
                &format!("1 abalone-set_position {cycle}"),
                "2 play b c3d3",
                "3 play w a2a3",
                "4 play b d3c3",
                "5 play w a3a2",
                "6 play b c3d3",
                "7 play w a2a3",
                "8 play b d3c3",
                "9 genmove w",
                "10 gogui-rules_final_result",
            ],
        ),
        "=1 \n\n=2 \n\n=3 \n\n=4 \n\n=5 \n\n=6 \n\n=7 \n\n=8 \n\n=9 a3a2\n\n\
         =10 Draw (threefold repetition; black pushed off 5, white 0)\n\n"
    );
    // Two off each, the cap at five plies: Black's genmove is the game's last move, and
    // pushing i7 off wins it by adjudication.
    let grab = "2w2/3b2/4b2/8/4ww3/8/7/6/bbb2 b 2 2";
    assert_eq!(
        session_with(
            settings(5, false),
            &[
                &format!("1 abalone-set_position {grab}"),
                "2 play b a1b1",
                "3 play w e6f7",
                "4 play b b1a1",
                "5 play w f7e6",
                "6 genmove b",
                "7 gogui-rules_final_result",
            ],
        ),
        "=1 \n\n=2 \n\n=3 \n\n=4 \n\n=5 \n\n=6 g7h7\n\n\
         =7 Black wins (move cap reached, adjudicated by marbles pushed off; black pushed off 3, white 2)\n\n"
    );
}

#[test]
fn clock_commands_are_accepted_checked_and_bound_the_search() {
    assert_eq!(
        transcript(&[
            "1 time_settings 900 0 0",
            "2 kgs-time_settings none",
            "3 kgs-time_settings absolute 900",
            "4 kgs-time_settings byoyomi 600 30 5",
            "5 kgs-time_settings canadian 600 300 25",
            "6 time_left white 800 0",
            "7 time_left b 20 3",
            "8 time_left red 10 0",
            "9 kgs-time_settings absolute",
            "10 time_settings 900 0 0 0",
        ]),
        "=1 \n\n=2 \n\n=3 \n\n=4 \n\n=5 \n\n=6 \n\n=7 \n\n\
         ?8 syntax error: expected a color (b, black, w or white), got 'red'\n\n\
         ?9 syntax error: usage: kgs-time_settings none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones>\n\n\
         ?10 syntax error: usage: time_settings <main_time> <byo_yomi_time> <byo_yomi_stones>\n\n"
    );
    let listed = transcript(&["list_commands"]);
    for name in ["time_settings", "time_left", "kgs-time_settings"] {
        assert!(listed.lines().any(|line| line == name), "{listed}");
    }
    // A node budget no search could spend: only the clock (first game) or --movetime
    // (second, with no clock set) can end the searches.
    let unbounded = |move_time: Option<Duration>, commands: &[&str]| {
        session_with(
            Settings {
                nodes: u64::MAX,
                move_time,
                table_bits: 12,
                ..Settings::default()
            },
            commands,
        )
    };
    let clocked = unbounded(
        None,
        &[
            "kgs-time_settings absolute 900",
            "time_left b 0.01 0",
            "all_legal b",
            "genmove b",
        ],
    );
    let timed = unbounded(
        Some(Duration::from_millis(50)),
        &["all_legal b", "genmove b"],
    );
    for out in [clocked, timed] {
        let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
        let [.., legal, played] = answers[..] else {
            panic!("{out}");
        };
        let legal: Vec<&str> = legal.trim_start_matches("= ").split(' ').collect();
        let mv = played.strip_prefix("= ").expect("genmove answered");
        assert!(legal.contains(&mv), "{mv} not in {legal:?}");
    }
}

fn gogui_transcript(commands: &[&str]) -> String {
    session_with(
        Settings {
            nodes: 3_000,
            table_bits: 12,
            gogui: true,
            ..Settings::default()
        },
        commands,
    )
}

#[test]
fn under_gogui_a_move_is_entered_click_by_click_and_undone_click_by_click() {
    assert_eq!(
        gogui_transcript(&[
            "1 gogui-rules_legal_moves",
            "2 play b C3",
            "3 play b D3",
            "4 gogui-rules_legal_moves",
            "5 gogui-rules_side_to_move",
            "6 gogui-rules_board_gfx",
            "7 play b C4",
            "8 gogui-rules_side_to_move",
            "9 abalone-position",
            "10 gogui-rules_board_gfx",
            "11 undo",
            "12 gogui-rules_side_to_move",
            "13 abalone-position",
            "14 gogui-rules_legal_moves",
            "15 undo",
            "16 undo",
            "17 undo",
            "18 play b c3d4",
            "19 abalone-position",
            "20 undo",
            "21 gogui-rules_legal_moves",
        ]),
        "=1 A1 B1 C1 D1 E1 A2 B2 C2 D2 E2 F2 C3 D3 E3\n\n\
         =2 \n\n=3 \n\n\
         =4 B3 E3 C4 D4\n\n\
         =5 black\n\n\
         =6 VAR w A9 b H1\nMARK C3 D3\nCIRCLE B3 C4 D4\n\
         LABEL A9 0 B9 off H1 0 J1 off J4 click H3 \"a ring\" J3 or G2 add H2 a J2 ball\n\
         TEXT black selected C3 D3 (c3 c4): click another marble, \
         or where they go (circled: in front of the line, or where C3 steps sideways)\n\n\
         =7 \n\n=8 white\n\n\
         =9 wwwww/wwwwww/2www2/8/9/2bb4/4b2/bbbbbb/bbbbb w 0 0\n\n\
         =10 VAR w A9 b H1\n\
         LABEL A9 0 B9 off H1 0 J1 off A8 click B8 your C8 balls A7 then B7 where A6 \"to go\"\n\
         TEXT white to move: click the marbles that move, then where they go (last move c3c4d3)\n\n\
         =11 \n\n=12 black\n\n\
         =13 wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0\n\n\
         =14 B3 E3 C4 D4\n\n\
         =15 \n\n=16 \n\n\
         ?17 cannot undo\n\n\
         =18 \n\n\
         =19 wwwww/wwwwww/2www2/8/9/3b4/3bb2/bbbbbb/bbbbb w 0 0\n\n\
         =20 \n\n\
         =21 A1 C1 B2 C2 B3 D3 E3 C4 D4\n\n"
    );
}

#[test]
fn under_gogui_refused_clicks_name_the_reason_and_keep_the_selection() {
    assert_eq!(
        gogui_transcript(&[
            "1 play b C3",
            "2 play b E5",
            "3 play b C3",
            "4 play b I5",
            "5 play w G9",
            "6 play b c4d5",
            "7 showboard",
        ]),
        "=1 \n\n\
         ?2 illegal move: e5 ends no legal move of c3: click the cell in front of the line \
         (in-line) or where c3 goes (broadside)\n\n\
         ?3 illegal move: c3 is already selected (undo takes the last click back)\n\n\
         ?4 syntax error: unknown vertex 'I5': GoGui names a cell by its diagonal (A to H, J) \
         and its row (1 to 9), e.g. D3 for c4\n\n\
         ?5 illegal move: it is black's turn\n\n\
         ?6 a move is half entered (c3 selected): click where it goes, or undo the clicks\n\n\
         =7 \n    I O O O O O\n   H O O O O O O\n  G . . O O O . .\n F . . . . . . . .\nE . . . . . . . . .\n \
         D . . . . . . . . 9\n  C . . X X X . . 8\n   B X X X X X X 7\n    A X X X X X 6\n       1 2 3 4 5\n\
         Black (X) marbles off 0, White (O) marbles off 0; ply 0; black to move\n\
         Selected (move half entered): c3\n\n"
    );
}

/// `genmove` answers until the side to move changes, as GoGui asks; the clicks made.
fn gogui_genmoves(engine: &mut AbaloneEngine, color: &str) -> Vec<String> {
    let mut clicks = Vec::new();
    let to_move = engine.game().to_move();
    let plies = engine.game().plies();
    while engine.game().plies() == plies {
        let answer = answer_of(engine, &format!("genmove {color}"));
        clicks.push(answer);
        assert!(
            clicks.len() <= 4,
            "a move takes at most 4 clicks: {clicks:?}"
        );
    }
    assert_ne!(engine.game().to_move(), to_move);
    clicks
}

fn answer_of(engine: &mut AbaloneEngine, command: &str) -> String {
    let mut output = Vec::new();
    serve(
        engine,
        Cursor::new(format!("{command}\n").into_bytes()),
        &mut output,
    )
    .expect("serve");
    let text = String::from_utf8(output).expect("utf-8 output");
    text.strip_prefix("= ")
        .unwrap_or_else(|| panic!("{command}: {text}"))
        .trim_end()
        .to_string()
}

#[test]
fn under_gogui_genmove_answers_the_searched_move_click_by_click() {
    let settings = |gogui| Settings {
        nodes: 3_000,
        table_bits: 12,
        seed: 5,
        gogui,
        ..Settings::default()
    };
    let mut plain = AbaloneEngine::new(settings(false));
    let mut gogui = AbaloneEngine::new(settings(true));
    for (ply, color) in ["b", "w", "b", "w", "b", "w"].into_iter().enumerate() {
        let mv = answer_of(&mut plain, &format!("genmove {color}"));
        let clicks = gogui_genmoves(&mut gogui, color);
        assert_eq!(
            gogui.game().moves().last().map(|m| m.to_string()),
            Some(mv.clone()),
            "ply {ply}: the clicks {clicks:?} make the same move"
        );
        assert_eq!(
            gogui.game().position().to_string(),
            plain.game().position().to_string()
        );
    }
    // Undo takes back the last click: the rest of the move is selected again, and genmove
    // answers the same click.
    let last = gogui.game().moves().last().map(|m| m.to_string());
    answer_of(&mut gogui, "undo");
    assert_eq!(gogui.game().plies(), 5);
    let again = gogui_genmoves(&mut gogui, "w");
    assert_eq!(again.len(), 1, "one click finishes the move: {again:?}");
    assert_eq!(gogui.game().moves().last().map(|m| m.to_string()), last);
}

#[test]
fn under_gogui_genmove_finishes_the_move_the_user_began() {
    let mut engine = AbaloneEngine::new(Settings {
        nodes: 3_000,
        table_bits: 12,
        gogui: true,
        ..Settings::default()
    });
    // Black selects a1, a corner marble the search would not choose to move alone, then
    // asks the engine to play on: the move must move a1.
    answer_of(&mut engine, "play b A1");
    let clicks = gogui_genmoves(&mut engine, "b");
    let mv = engine.game().moves().last().expect("a move");
    let before = engine.game().start();
    let marbles = hamle::abalone::clicks::moving_marbles(before, mv);
    let a1: hamle::abalone::Cell = "a1".parse().expect("a cell");
    assert_ne!(marbles & a1.bit(), 0, "{mv} after A1, clicks {clicks:?}");
}

/// GoGui clears its status line after every human move, so the marbles pushed off, the
/// selection and what to click are drawn on the board: ghost marbles labelled with the
/// counts on GoGui's removed points (A9 White's, H1 Black's), the selection crossed, the
/// cells that complete it circled, and short words in the corner of the side to move.
#[test]
fn under_gogui_marbles_off_and_the_selection_are_drawn_on_the_board() {
    // Black d4 d5 d6 push white d7 d8 off the edge: clicks D4 E4 F4, then G4 (d7).
    let position = "5/6/3bbwb/4bw2/4bbww1/3bbbww/7/6/5 b 1 2";
    assert_eq!(
        gogui_transcript(&[
            &format!("1 abalone-set_position {position}"),
            "2 play b D4",
            "3 play b E4",
            "4 play b F4",
            "5 gogui-rules_board_gfx",
            "6 play b G4",
            "7 abalone-marbles_off",
            "8 gogui-rules_board_gfx",
        ]),
        "=1 \n\n=2 \n\n=3 \n\n=4 \n\n\
         =5 VAR w A9 b H1\nMARK D4 E4 F4\nCIRCLE C3 D3 C4 G4\n\
         LABEL A9 2 B9 off H1 1 J1 off J4 click H3 \"a ring\" J3 or G2 add H2 a J2 ball\n\
         TEXT black selected D4 E4 F4 (d4 d5 d6): click another marble, or where they go \
         (circled: in front of the line, or where D4 steps sideways)\n\n\
         =6 \n\n=7 black 1 white 3\n\n\
         =8 VAR w A9 b H1\n\
         LABEL A9 3 B9 off H1 1 J1 off A8 click B8 your C8 balls A7 then B7 where A6 \"to go\"\n\
         TEXT white to move: click the marbles that move, then where they go (last move d4d5)\n\n"
    );
}

/// Without `--gogui` no move can be clicked, so only the trays are drawn; once the game is
/// over no instructions are either.
#[test]
fn without_gogui_or_after_the_end_only_the_marbles_off_are_drawn() {
    assert_eq!(
        transcript(&[
            "1 abalone-set_position 5/6/3bbwb/4bw2/4bbww1/3bbbww/7/6/5 b 1 2",
            "2 gogui-rules_board_gfx",
        ]),
        "=1 \n\n=2 VAR w A9 b H1\nLABEL A9 2 B9 off H1 1 J1 off\nTEXT black to move\n\n"
    );
    let over = gogui_transcript(&[
        "1 abalone-set_position 5/6/3bbwb/4bw2/4bbww1/3bbbww/7/6/5 b 0 5",
        "2 play b d4d5",
        "3 gogui-rules_final_result",
        "4 gogui-rules_board_gfx",
    ]);
    assert!(
        over.contains("=4 VAR w A9 b H1\nLABEL A9 6 B9 off H1 0 J1 off\nTEXT Black wins"),
        "{over}"
    );
}

/// A stream of moves through the binary (two marbles shuffling to and fro, no ply cap):
/// the game keeps 10,000 plies, refuses more with one line and keeps what it has, and the
/// engine's memory stays flat.
#[test]
fn a_flood_of_moves_stops_at_the_kept_plies_and_memory_stays_flat() {
    use crate::support::gtp::GtpChild;
    const CYCLES: usize = 3_000;
    let mut engine = GtpChild::start(&["abalone", "--max-plies", "0"]);
    let cycle = "play b c3c2\nplay w g5g4\nplay b c2c3\nplay w g4g5\n";
    let answers = engine.flood(&cycle.repeat(CYCLES), Duration::from_secs(60));
    assert_eq!(answers.len(), 4 * CYCLES);
    let refusal =
        "? game too long: a game keeps at most 10000 plies; start a new one (clear_board)";
    assert!(answers[..10_000].iter().all(|a| a.trim_end() == "="));
    // Past the limit Black's moves are refused for the length, and White's then for the
    // turn (Black's refused move was not played).
    for (ply, answer) in answers.iter().enumerate().skip(10_000) {
        let expected = if ply % 2 == 0 {
            refusal
        } else {
            "? illegal move: it is black's turn"
        };
        assert_eq!(answer, expected, "ply {ply}");
    }
    // The game is kept: a move taken back can be played again.
    let patience = Duration::from_secs(60);
    assert_eq!(engine.ask("undo", patience), Ok(String::new()));
    assert_eq!(engine.ask("play w g4g5", patience), Ok(String::new()));
    assert_eq!(engine.ask("play b c3c2", patience), Err(refusal.to_owned()));
    if let Some(peak) = engine.peak_memory() {
        assert!(peak < 200 * 1024 * 1024, "{peak} bytes at the peak");
    }
}
