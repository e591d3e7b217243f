//! Golden GTP transcripts of `hamle mangala`: every command, its answers and its errors,
//! served in-process through the protocol core exactly as stdin/stdout would carry them.

use std::io::Cursor;

use hamle::mangala::engine::{MangalaEngine, Settings};
use hamle::protocol::serve;
use pretty_assertions::assert_eq;

fn session_with(settings: Settings, input: &str) -> String {
    let mut engine = MangalaEngine::new(settings, None);
    let mut output = Vec::new();
    serve(
        &mut engine,
        Cursor::new(input.as_bytes().to_vec()),
        &mut output,
    )
    .expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

fn settings() -> Settings {
    Settings {
        nodes: 20_000,
        table_bits: 14,
        ..Settings::default()
    }
}

fn transcript(commands: &[&str]) -> String {
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    session_with(settings(), &input)
}

const START_SOUTH: &str = "4,4,4,4,4,4,0/4,4,4,4,4,4,0/s";

#[test]
fn moves_extra_turns_and_undo() {
    assert_eq!(
        transcript(&[
            &format!("1 set_position {START_SOUTH}"),
            "2 play south 4",
            "3 gogui-rules_side_to_move",
            "4 play b 1",
            "5 get_position",
            "6 all_legal north",
            "7 all_legal south",
            "8 play N 6",
            "9 get_position",
            "10 undo",
            "11 undo",
            "12 get_position",
            "13 play s c1",
            "14 get_position",
        ]),
        "=1 \n\n=2 \n\n=3 black\n\n=4 \n\n\
         =5 1,5,5,2,5,5,1/4,4,4,4,4,4,0/n\n\n\
         =6 1 2 3 4 5 6\n\n=7 \n\n=8 \n\n\
         =9 2,0,5,2,5,5,1/4,4,4,4,4,1,7/s\n\n\
         =10 \n\n=11 \n\n\
         =12 4,4,4,1,5,5,1/4,4,4,4,4,4,0/s\n\n\
         =13 \n\n\
         =14 4,4,1,2,6,6,1/4,4,4,4,4,4,0/n\n\n"
    );
}

#[test]
fn showboard_shows_both_rows_stores_and_the_mover() {
    assert_eq!(
        transcript(&["set_position 0,3,0,2,1,4,14/1,0,2,0,3,1,17/n", "showboard",]),
        "= \n\n= \n\
         north    6  5  4  3  2  1\n      (  1  3  0  2  0  1 )\n   17                       14\n      (  0  3  0  2  1  4 )\n\
         south    1  2  3  4  5  6\n\
         stores: north 17 (left), south 14 (right); north to move; rules turkish; set 1 of 5\n\n"
    );
}

#[test]
fn every_error_string() {
    assert_eq!(
        transcript(&[
            &format!("1 set_position {START_SOUTH}"),
            "2 play s 7",
            "3 play s 0",
            "4 play s x",
            "5 play n 1",
            "6 play purple 1",
            "7 play s",
            "8 play s c6",
            "9 genmove n",
            "10 undo",
            "11 final_score",
            "12 set_position 4,4,4,4,4,4,1/4,4,4,4,4,4,0/s",
            "13 set_position 4,4,4,4,4,-4,8/4,4,4,4,4,4,0/s",
            "14 set_position 4,4,4,4/s",
            "15 set_position 0,0,0,0,0,0,24/4,4,4,4,4,4,0/s",
            "16 boardsize 8",
            "17 mangala-stones 9",
            "18 mangala-rules chess",
            "19 frobnicate",
            "20 play s 4",
            "21 play s 4",
            "22 play n 3",
            "23 play s 4",
            "24 get_position",
        ]),
        "=1 \n\n\
         ?2 syntax error: pit 7 is out of range: pits are 1 to 6\n\n\
         ?3 syntax error: pit 0 is out of range: pits are 1 to 6\n\n\
         ?4 syntax error: expected a pit 1-6 (or a GoGui vertex), got 'x'\n\n\
         ?5 illegal move\n\n\
         ?6 syntax error: expected a side (south, s, b, black, north, n, w or white), got 'purple'\n\n\
         ?7 syntax error: usage: play <side> <pit>\n\n\
         ?8 syntax error: C6 is not a pit of south's row\n\n\
         ?9 it is south's turn, not north's\n\n\
         ?10 cannot undo\n\n\
         ?11 cannot score\n\n\
         ?12 syntax error: bad position: the position holds 49 stones, the set has 48\n\n\
         ?13 syntax error: bad position: negative stone count '-4'\n\n\
         ?14 syntax error: bad position: expected south pits 1-6 and store / north pits 1-6 and store / side, such as 4,4,4,4,4,4,0/4,4,4,4,4,4,0/s\n\n\
         ?15 syntax error: bad position: south's row is empty but the other row holds stones: the set would have ended\n\n\
         ?16 unacceptable size\n\n\
         ?17 invalid number of stones\n\n\
         ?18 syntax error: usage: mangala-rules [turkish|kalah]\n\n\
         ?19 unknown command\n\n\
         =20 \n\n\
         =21 \n\n\
         =22 \n\n\
         ?23 illegal move\n\n\
         =24 4,4,4,0,6,5,1/4,4,1,5,5,5,0/s\n\n"
    );
}

#[test]
fn gogui_rules_commands() {
    assert_eq!(
        transcript(&[
            "1 set_position 0,3,0,2,1,4,14/1,0,2,0,3,1,17/n",
            "2 gogui-rules_game_id",
            "3 gogui-rules_board_size",
            "4 gogui-rules_side_to_move",
            "5 gogui-rules_legal_moves",
            "6 gogui-rules_board",
            "7 gogui-rules_final_result",
            "8 play white a6",
            "9 get_position",
        ]),
        "=1 \n\n=2 Mangala\n\n=3 6\n\n=4 white\n\n\
         =5 F6 D6 B6 A6\n\n\
         =6 \nO O . O . O\n. O . O . .\n. . . . . .\n. . . . . .\n. X . X . X\n. X . X X X\n\n\
         =7 unknown\n\n=8 \n\n\
         =9 0,3,0,2,1,4,14/1,0,2,0,3,0,18/n\n\n"
    );
}

#[test]
fn a_finished_set_is_scored_and_counted_in_the_match() {
    assert_eq!(
        transcript(&[
            "1 mangala-match",
            "2 set_position 0,0,0,0,0,1,20/1,2,0,0,0,0,24/s",
            "3 play s 6",
            "4 final_score",
            "5 gogui-rules_final_result",
            "6 all_legal south",
            "7 genmove south",
            "8 clear_board",
            "9 mangala-match",
            "10 gogui-rules_side_to_move",
        ]),
        "=1 south 0 north 0; sets played 0; set 1 starter south\n\n\
         =2 \n\n=3 \n\n=4 N+0\n\n"
            .replace("N+0", "0")
            + "=5 Draw, 24 to 24\n\n=6 \n\n?7 the set is over\n\n=8 \n\n\
         =9 south 0.5 north 0.5; sets played 1 (draw); set 2 starter north\n\n\
         =10 white\n\n"
    );
}

#[test]
fn rules_and_stones_settings() {
    assert_eq!(
        transcript(&[
            "1 mangala-rules",
            "2 mangala-stones",
            "3 mangala-stones 2",
            "4 get_position",
            "5 mangala-rules kalah",
            "6 mangala-rules",
            "7 set_position 0,0,0,0,0,1,10/1,2,0,0,0,0,10/s",
            "8 play s 6",
            "9 final_score",
        ]),
        "=1 turkish\n\n=2 4\n\n=3 \n\n=4 2,2,2,2,2,2,0/2,2,2,2,2,2,0/s\n\n\
         =5 \n\n=6 kalah\n\n=7 \n\n=8 \n\n=9 N+2\n\n"
    );
}

#[test]
fn the_draw_is_reproducible_from_the_seed() {
    let draws = |seed: u64| {
        session_with(
            Settings { seed, ..settings() },
            "mangala-draw\nmangala-draw north\ngogui-rules_side_to_move\n",
        )
    };
    assert_eq!(draws(7), draws(7));
    let outcomes: Vec<String> = (0..16).map(draws).collect();
    assert!(outcomes.iter().any(|o| o.contains(": south starts")));
    assert!(outcomes.iter().any(|o| o.contains(": north starts")));
    let first = &outcomes[0];
    assert!(
        first.starts_with("= south hides the stone in the "),
        "{first}"
    );
}

#[test]
fn genmove_plays_a_legal_move_deterministically() {
    // Ask whoever is to move, as a controller does after extra turns.
    let game = |seed: u64| {
        let mut engine = MangalaEngine::new(Settings { seed, ..settings() }, None);
        let mut log = String::new();
        let mut send = |engine: &mut MangalaEngine, line: String| {
            let mut output = Vec::new();
            serve(engine, Cursor::new(line.into_bytes()), &mut output).expect("serve");
            log.push_str(&String::from_utf8_lossy(&output));
        };
        send(&mut engine, format!("set_position {START_SOUTH}\n"));
        for _ in 0..12 {
            let side = engine.game().to_move();
            send(&mut engine, format!("genmove {side}\nget_position\n"));
            if engine.game().is_over() {
                break;
            }
        }
        log
    };
    let first = game(3);
    assert_eq!(first, game(3));
    assert!(!first.contains('?'), "{first}");
    assert!(first.matches("= ").count() >= 10);
}

#[test]
fn clock_commands_are_accepted_checked_and_bound_the_search() {
    assert_eq!(
        transcript(&[
            "1 time_settings 600 0 0",
            "2 kgs-time_settings none",
            "3 kgs-time_settings absolute 600",
            "4 kgs-time_settings byoyomi 300 10 3",
            "5 kgs-time_settings canadian 300 60 10",
            "6 time_left south 250 0",
            "7 time_left n 8 2",
            "8 time_left white 8 2",
            "9 time_settings 600 0",
            "10 time_left east 10 0",
            "11 time_left s 1e400 0",
            "12 kgs-time_settings blitz",
            "13 time_settings 600 0 x",
        ]),
        "=1 \n\n=2 \n\n=3 \n\n=4 \n\n=5 \n\n=6 \n\n=7 \n\n=8 \n\n\
         ?9 syntax error: usage: time_settings <main_time> <byo_yomi_time> <byo_yomi_stones>\n\n\
         ?10 syntax error: expected a side (south, s, b, black, north, n, w or white), got 'east'\n\n\
         ?11 syntax error: expected a number of seconds, got '1e400'\n\n\
         ?12 syntax error: usage: kgs-time_settings none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones>\n\n\
         ?13 syntax error: expected a number of stones, got 'x'\n\n"
    );
    let listed = transcript(&["list_commands"]);
    for name in ["time_settings", "time_left", "kgs-time_settings"] {
        assert!(listed.lines().any(|line| line == name), "{listed}");
    }
    // A node budget no search could spend: only the clock can end the search.
    let input = format!(
        "set_position {START_SOUTH}\nkgs-time_settings absolute 600\ntime_left south 0.01 0\n\
         all_legal south\ngenmove south\n"
    );
    let out = session_with(
        Settings {
            nodes: u64::MAX,
            ..settings()
        },
        &input,
    );
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 5, "{out}");
    let legal: Vec<&str> = answers[3].trim_start_matches("= ").split(' ').collect();
    let pit = answers[4].strip_prefix("= ").expect("genmove answered");
    assert!(legal.contains(&pit), "{pit} not in {legal:?}");
}

#[test]
fn gogui_board_gfx_and_final_result() {
    assert_eq!(
        transcript(&[
            "1 gogui-rules_board_gfx",
            "2 set_position 0,0,0,0,0,1,20/1,2,0,0,0,0,24/s",
            "3 gogui-rules_board_gfx",
            "4 set_position 0,0,0,0,0,1,18/3,0,0,0,0,0,26/s",
            "5 play s 6",
            "6 gogui-rules_legal_moves",
            "7 gogui-rules_final_result",
            "8 set_position 0,0,0,0,0,1,26/1,0,0,0,0,0,20/s",
            "9 play s 6",
            "10 gogui-rules_final_result",
        ]),
        "=1 COLOR #c08040 A4 A3 F3 F4\nVAR w A4 b F3\n\
         LABEL A1 4 B1 4 C1 4 D1 4 E1 4 F1 4 F6 4 E6 4 D6 4 C6 4 B6 4 A6 4 \
         A4 0 A3 store F3 0 F4 store\n\
         TEXT stores: south (black) 0, north (white) 0\n\n\
         =2 \n\n\
         =3 COLOR #c08040 A4 A3 F3 F4\nVAR w A4 b F3\n\
         LABEL A1 0 B1 0 C1 0 D1 0 E1 0 F1 1 F6 1 E6 2 D6 0 C6 0 B6 0 A6 0 \
         A4 24 A3 store F3 20 F4 store\n\
         TEXT stores: south (black) 20, north (white) 24\n\n\
         =4 \n\n=5 \n\n=6 \n\n=7 North (White) wins by 4, 22 to 26\n\n\
         =8 \n\n=9 \n\n=10 South (Black) wins by 8, 28 to 20\n\n"
    );
    let listed = transcript(&["list_commands"]);
    assert!(listed.lines().any(|line| line == "gogui-rules_board_gfx"));
}

/// GoGui rebuilds its ruler's board by `clear_board` and a replay of every move, also once
/// the set is over: with `--gogui` that replay must give the same set again (without it,
/// `clear_board` moves on to set 2, which North starts, and the replay is refused).
#[test]
fn gogui_mode_clear_board_restarts_the_set_so_replays_work() {
    let moves = "play b C1\nplay w F6\n";
    let replay = format!("{moves}get_position\nclear_board\n{moves}get_position\nmangala-match\n");
    let gogui = session_with(
        Settings {
            gogui_vertices: true,
            clear_restarts_set: true,
            ..settings()
        },
        &replay,
    );
    assert_eq!(
        gogui,
        "= \n\n= \n\n= 4,4,1,5,5,5,0/1,5,5,5,4,4,0/s\n\n= \n\n= \n\n= \n\n\
         = 4,4,1,5,5,5,0/1,5,5,5,4,4,0/s\n\n\
         = south 0 north 0; sets played 0; set 1 starter south\n\n"
    );
    // A finished set: clear_board and the replay of its last move give the finished set again.
    let finished = "set_position 0,0,0,0,0,1,20/1,2,0,0,0,0,24/s\nplay s 6\nclear_board\n\
                    gogui-rules_side_to_move\nmangala-match\n";
    let gogui = session_with(
        Settings {
            gogui_vertices: true,
            clear_restarts_set: true,
            ..settings()
        },
        finished,
    );
    assert_eq!(
        gogui,
        "= \n\n= \n\n= \n\n= black\n\n= south 0 north 0; sets played 0; set 1 starter south\n\n"
    );
}

/// GoGui clears its status line after every human move, so the stores must be on the board:
/// after GoGui's `play b E1` (South's pit 5: 1 back in E1, F1, the store, North's pit 1) the
/// graphics it draws label South's store (F3) with 1, every pit with its count, and keep the
/// store rows free of bars.
#[test]
fn after_a_move_the_stores_are_labelled_on_the_board() {
    assert_eq!(
        transcript(&[
            "1 play b E1",
            "2 gogui-rules_board_gfx",
            "3 gogui-rules_board",
        ]),
        "=1 \n\n\
         =2 COLOR #c08040 A4 A3 F3 F4\nVAR w A4 b F3\n\
         LABEL A1 4 B1 4 C1 4 D1 4 E1 1 F1 5 F6 5 E6 4 D6 4 C6 4 B6 4 A6 4 \
         A4 0 A3 store F3 1 F4 store\n\
         TEXT stores: south (black) 1, north (white) 0\n\n\
         =3 \nO O O O O O\nO O O O O O\n. . . . . .\n. . . . . .\nX X X X . X\nX X X X X X\n\n"
    );
}
