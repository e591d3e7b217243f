//! Golden GTP transcripts of `hamle kulami`: every Kulami command, its answers and its
//! errors, served in-process through the protocol core exactly as stdin/stdout carry them.

use std::io::Cursor;

use hamle::kulami::engine::{KulamiEngine, Settings};
use hamle::protocol::serve;
use pretty_assertions::assert_eq;

fn session_with(settings: Settings, commands: &[&str]) -> String {
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    let mut engine = KulamiEngine::new(settings);
    let mut output = Vec::new();
    serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

fn transcript(commands: &[&str]) -> String {
    session_with(
        Settings {
            nodes: 2_000,
            ..Settings::default()
        },
        commands,
    )
}

#[test]
fn moves_legal_lists_position_and_undo() {
    assert_eq!(
        transcript(&[
            "1 play b d5",
            "2 all_legal red",
            "3 all_legal black",
            "4 play R E5",
            "5 gogui-rules_legal_moves",
            "6 is_legal b h5",
            "7 is_legal b f5",
            "8 kulami-position",
            "9 undo",
            "10 kulami-position",
            "11 play white e5",
            "12 gogui-rules_side_to_move",
            "13 undo",
            "14 undo",
            "15 undo",
        ]),
        "=1 \n\n\
         =2 A5 B5 D1 D2 D3 D7 D8 E5 F5 G5 H5\n\n\
         =3 \n\n\
         =4 \n\n\
         =5 A5 B5 E1 E2 E3 E6 E7 E8 H5\n\n\
         =6 1\n\n\
         =7 0\n\n\
         =8 8/8/8/3XO3/8/8/8/8\n\n\
         =9 \n\n\
         =10 8/8/8/3X4/8/8/8/8\n\n\
         =11 \n\n\
         =12 black\n\n\
         =13 \n\n\
         =14 \n\n\
         ?15 cannot undo\n\n"
    );
}

#[test]
fn every_bad_input_names_the_broken_rule_and_keeps_the_state() {
    assert_eq!(
        transcript(&[
            "1 play b d5",
            "2 play b e5",
            "3 play r d5",
            "4 play r a1",
            "5 play r c5",
            "6 play r z9",
            "7 play r i5",
            "8 play purple e5",
            "9 play r",
            "10 play r pass",
            "11 kulami-new_game AABBCCDD/EEBBFFFG",
            "12 kulami-new_game AABBCCCC/EEBBFFFG/EEHHFFFG/EEHHIIIJ/KKHHIIIJ/KKLMNNNJ/OOLMPPQQ/OOLMPPQQ",
            "13 kulami-set_position 8/8/8/3XOo2/8/8/8/8",
            "14 kulami-set_position 8/8/8/3q4/8/8/8/8",
            "15 kulami-position",
            "16 boardsize 9",
            "17 genmove b",
            "18 kulami-new_game random x",
            "19 kulami-position",
        ]),
        "=1 \n\n\
         ?2 illegal move: it is red's turn\n\n\
         ?3 illegal move: D5 is occupied\n\n\
         ?4 illegal move: A1 is not in the row or column of the opponent's last marble D5\n\n\
         ?5 illegal move: C5 is on tile H, which holds black's marker on D5\n\n\
         ?6 syntax error: expected a cell such as d5 (columns a-k without i, rows 1-10), got 'z9'\n\n\
         ?7 syntax error: expected a cell such as d5 (columns a-k without i, rows 1-10), got 'i5'\n\n\
         ?8 syntax error: expected a color (b, black, r, red, or w, white for red), got 'purple'\n\n\
         ?9 syntax error: usage: play <color> <cell>\n\n\
         ?10 illegal move: red has a legal hole, and Kulami has no passing\n\n\
         ?11 invalid layout: tile G is 1x1: tiles are 2x3, 2x2, 1x3 or 1x2 (either way round)\n\n\
         ?12 invalid layout: tile C is 4x1: tiles are 2x3, 2x2, 1x3 or 1x2 (either way round)\n\n\
         ?13 syntax error: bad position: black has 1 marbles and red 2: black moves first, so black has as many as red or one more, at most 28\n\n\
         ?14 syntax error: bad position: 'q' is not allowed: use digits for empty cells, x/o for marbles, X/O for the marked last marbles\n\n\
         =15 8/8/8/3X4/8/8/8/8\n\n\
         ?16 unacceptable size\n\n\
         ?17 illegal move: it is red's turn\n\n\
         ?18 syntax error: expected a seed, got 'x'\n\n\
         =19 8/8/8/3X4/8/8/8/8\n\n"
    );
}

#[test]
fn showboard_draws_tiles_and_markers() {
    assert_eq!(
        transcript(&["play b d5", "play r e5", "play b h5", "showboard"]),
        "= \n\n= \n\n= \n\n= \n      a   b   c   d   e   f   g   h
    +---+---+---+---+---+---+---+---+
 8  | .   . | .   . | .   . | .   . |  8
    +---+---+       +---+---+---+---+
 7  | .   . | .   . | .   .   . | . |  7
    +       +---+---+           +   +
 6  | .   . | .   . | .   .   . | . |  6
    +       +       +---+---+---+---+
 5  | .   . | .   X |[O]  .   . |[X]|  5
    +---+---+       +           +   +
 4  | .   . | .   . | .   .   . | . |  4
    +       +---+---+---+---+---+   +
 3  | .   . | . | . | .   .   . | . |  3
    +---+---+   +   +---+---+---+---+
 2  | .   . | . | . | .   . | .   . |  2
    +       +   +   +       +       +
 1  | .   . | . | . | .   . | .   . |  1
    +---+---+---+---+---+---+---+---+
Black (X) 26 marbles left, marker H5; Red (O) 27 left, marker E5; red to move; scoring tournament (row bonus length)\n\n"
    );
}

#[test]
fn layouts_travel_in_the_protocol() {
    assert_eq!(
        transcript(&[
            "1 kulami-layout",
            "2 kulami-new_game random 3",
            "3 gogui-rules_board_size",
            "4 kulami-new_game AABBCCDD EEBBFFFG EEHHFFFG EEHHIIIJ KKHHIIIJ KKLMNNNJ OOLMPPQQ OOLMPPQQ",
            "5 kulami-new_game default",
            "6 boardsize 8",
            "7 clear_board",
            "8 gogui-rules_game_id",
        ]),
        "=1 AABBCCDD/EEBBFFFG/EEHHFFFG/EEHHIIIJ/KKHHIIIJ/KKLMNNNJ/OOLMPPQQ/OOLMPPQQ\n\n\
         =2 .DDD.KKKQQ/PDDDBBBEE./P...BBBEE./MMMAAA..L./JCCAAAFFL./JCC.HHFFL./JCC.HH..../GG..II..../GGNNIIO.../......O...\n\n\
         =3 10\n\n\
         =4 AABBCCDD/EEBBFFFG/EEHHFFFG/EEHHIIIJ/KKHHIIIJ/KKLMNNNJ/OOLMPPQQ/OOLMPPQQ\n\n\
         =5 AABBCCDD/EEBBFFFG/EEHHFFFG/EEHHIIIJ/KKHHIIIJ/KKLMNNNJ/OOLMPPQQ/OOLMPPQQ\n\n\
         =6 \n\n\
         =7 \n\n\
         =8 Kulami\n\n"
    );
}

#[test]
fn the_end_of_a_game_scores_each_bonus_and_referees_for_gogui() {
    // Black to move with no hole (see kulami_rules): the game is over. Tiles: black holds
    // G (2) and O (4), red D (2) and J (3); A, B, C and Q are even. No two marbles of a
    // colour touch, so each largest area is 1.
    assert_eq!(
        transcript(&[
            "1 kulami-set_position xoxoxo1O/8/7X/7o/7x/7o/7x/x6o",
            "2 gogui-rules_legal_moves",
            "3 gogui-rules_final_result",
            "4 final_score",
            "5 genmove b",
            "6 play b pass",
            "7 gogui-rules_board",
            "8 play b a2",
        ]),
        "=1 \n\n\
         =2 \n\n\
         =3 Black wins by 1, 7 to 6\n\n\
         =4 B+1 (black 7: rows 0, area 1, tiles 6; red 6: rows 0, area 1, tiles 5)\n\n\
         =5 pass\n\n\
         =6 \n\n\
         =7 \nX O X O X O . O\n. . . . . . . .\n. . . . . . . X\n. . . . . . . O\n. . . . . . . X\n. . . . . . . O\n. . . . . . . X\nX . . . . . . O\n\n\
         ?8 illegal move: the game is over\n\n"
    );
}

#[test]
fn genmove_is_reproducible_and_plays_legal_moves_to_the_end() {
    let mut commands = vec!["kulami-new_game random 5"];
    for _ in 0..30 {
        commands.push("genmove b");
        commands.push("genmove r");
    }
    commands.push("gogui-rules_final_result");
    let first = transcript(&commands);
    assert_eq!(
        first,
        transcript(&commands),
        "same seed and budget, same game"
    );
    assert!(!first.contains('?'), "{first}");
    let last = first.trim_end().rsplit("\n\n").next().unwrap_or_default();
    assert!(last.contains("wins") || last.contains("Draw"), "{last}");
}

#[test]
fn gogui_sees_the_rules_commands() {
    let listed = transcript(&["list_commands"]);
    for command in [
        "gogui-rules_game_id",
        "gogui-rules_board_size",
        "gogui-rules_board",
        "gogui-rules_legal_moves",
        "gogui-rules_side_to_move",
        "gogui-rules_final_result",
        "kulami-new_game",
        "final_score",
    ] {
        assert!(
            listed
                .lines()
                .any(|l| l.trim_start_matches("= ") == command),
            "{command}"
        );
    }
}

/// The answers of `out`, one per command, without their `=`/`?` and id.
fn answer_texts(out: &str) -> Vec<String> {
    out.split("\n\n")
        .filter(|block| !block.is_empty())
        .map(|block| block.to_owned())
        .collect()
}

#[test]
fn clock_commands_are_accepted_checked_and_bound_the_search() {
    assert_eq!(
        transcript(&[
            "1 time_settings 1800 0 0",
            "2 time_settings 600 300 25",
            "3 kgs-time_settings none",
            "4 kgs-time_settings absolute 1800",
            "5 kgs-time_settings byoyomi 600 30 5",
            "6 kgs-time_settings canadian 600 300 25",
            "7 time_left black 1500 0",
            "8 time_left r 12.5 3",
            "9 time_settings 1800 x 0",
            "10 time_left purple 10 0",
            "11 time_left b -1 0",
            "12 kgs-time_settings sudden 10",
            "13 kgs-time_settings canadian 600 300 0",
            "14 time_left b 10",
        ]),
        "=1 \n\n=2 \n\n=3 \n\n=4 \n\n=5 \n\n=6 \n\n=7 \n\n=8 \n\n\
         ?9 syntax error: expected a number of seconds, got 'x'\n\n\
         ?10 syntax error: expected a color (b, black, r, red, or w, white for red), got 'purple'\n\n\
         ?11 syntax error: expected a number of seconds, got '-1'\n\n\
         ?12 syntax error: usage: kgs-time_settings none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones>\n\n\
         ?13 syntax error: canadian byo-yomi needs at least 1 stone a period\n\n\
         ?14 syntax error: usage: time_left <color> <time> <stones>\n\n"
    );
    let listed = transcript(&["list_commands"]);
    for name in ["time_settings", "time_left", "kgs-time_settings"] {
        assert!(listed.lines().any(|line| line == name), "{listed}");
    }
    // A node budget no search could spend: only the clock can end these searches.
    let out = session_with(
        Settings {
            nodes: u64::MAX,
            ..Settings::default()
        },
        &[
            "kgs-time_settings absolute 1800",
            "play b d5",
            "play r e5",
            "time_left b 0.01 0",
            "all_legal b",
            "genmove b",
            "time_left red 0 0",
            "all_legal red",
            "genmove red",
        ],
    );
    let answers = answer_texts(&out);
    assert_eq!(answers.len(), 9, "{out}");
    for (legal, played) in [(&answers[4], &answers[5]), (&answers[7], &answers[8])] {
        let cell = played.strip_prefix("= ").expect("genmove answered");
        let legal: Vec<&str> = legal.trim_start_matches("= ").split(' ').collect();
        assert!(legal.contains(&cell), "{cell} not in {legal:?}");
    }
}

#[test]
fn tiles_gfx_colours_every_hole_and_squares_the_marked_tiles() {
    let out = transcript(&[
        "kulami-tiles",
        "play b d5",
        "play r e5",
        "kulami-tiles",
        "gogui-rules_board_gfx",
    ]);
    let answers = answer_texts(&out);
    let (before, after) = (&answers[0], &answers[3]);
    // GoGui draws gogui-rules_board_gfx after every move: the same graphics, and the holes
    // where the next marble may go circled (black's, in row 5 or column E, off the closed
    // tiles).
    assert_eq!(
        answers[4],
        format!("{}\nCIRCLE A5 B5 E1 E2 E3 E6 E7 E8 H5", answers[3])
    );
    let coloured: Vec<&str> = before
        .lines()
        .filter_map(|l| l.strip_prefix("COLOR #"))
        .flat_map(|l| l.split(' ').skip(1))
        .collect();
    let mut unique = coloured.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        (coloured.len(), unique.len()),
        (64, 64),
        "each hole coloured once"
    );
    let labels = before
        .lines()
        .find_map(|l| l.strip_prefix("LABEL "))
        .expect("labels");
    assert_eq!(
        labels.split(' ').count(),
        128,
        "a tile letter on every hole"
    );
    assert!(
        !before.contains("SQUARE"),
        "no marker before the first marble"
    );
    // Black's D5 lies on the six-hole tile C4–D6, red's E5 on the six-hole tile E4–G5.
    let squares = after
        .lines()
        .find_map(|l| l.strip_prefix("SQUARE "))
        .expect("the marked tiles");
    assert_eq!(squares.split(' ').count(), 12, "{squares}");
    assert!(
        squares.contains("D5") && squares.contains("G4"),
        "{squares}"
    );
}

/// GoGui clears its status line after every human move, so the holes where a marble may go
/// are drawn on the board: `gogui-rules_board_gfx` circles exactly the legal holes after
/// every move (all 64 before the first), and none once the game is over.
#[test]
fn board_gfx_circles_the_legal_holes_after_every_move() {
    let circled = |gfx: &str| -> Vec<String> {
        gfx.lines()
            .find_map(|l| l.strip_prefix("CIRCLE "))
            .map(|l| l.split(' ').map(String::from).collect())
            .unwrap_or_default()
    };
    let legal = |answer: &str| -> Vec<String> {
        answer
            .trim_start_matches("= ")
            .split(' ')
            .filter(|c| !c.is_empty())
            .map(String::from)
            .collect()
    };
    let out = transcript(&[
        "gogui-rules_board_gfx",
        "play b d5",
        "gogui-rules_legal_moves",
        "gogui-rules_board_gfx",
        "play r d2",
        "gogui-rules_legal_moves",
        "gogui-rules_board_gfx",
    ]);
    let answers = answer_texts(&out);
    assert_eq!(circled(&answers[0]).len(), 64, "{}", answers[0]);
    for (listed, gfx) in [(&answers[2], &answers[3]), (&answers[5], &answers[6])] {
        let listed = legal(listed);
        assert!(!listed.is_empty());
        assert_eq!(circled(gfx), listed);
    }
}
