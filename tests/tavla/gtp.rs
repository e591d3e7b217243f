//! Golden GTP transcripts of `hamle tavla`, its bad-input errors (each leaves the position
//! as it was), seeded determinism and the UBGI dialect, all served in-process.

use std::io::Cursor;

use hamle::protocol::serve;
use hamle::tavla::engine::{Settings, TavlaEngine};
use hamle::tavla::player::Level;
use pretty_assertions::assert_eq;

fn settings(seed: u64) -> Settings {
    Settings {
        seed,
        level: Level::default(),
        match_length: 0,
        crawford: true,
    }
}

fn run(engine: &mut TavlaEngine, commands: &[&str]) -> String {
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    let mut output = Vec::new();
    serve(engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

fn transcript(seed: u64, commands: &[&str]) -> String {
    run(&mut TavlaEngine::new(settings(seed)), commands)
}

#[test]
fn opening_plays_dice_cube_and_ids() {
    assert_eq!(
        transcript(
            1,
            &[
                "1 new_match 5",
                "2 new_game 3 5",
                "3 get_position",
                "4 all_legal",
                "5 play black 53 8/3 6/3",
                "6 get_position",
                "7 dice 6 4",
                "8 play 24/18 13/9",
                "9 pip_count",
                "10 roll",
                "11 undo",
                "12 double",
                "13 genmove_cube",
                "14 match_status",
                "15 fibs_board",
            ]
        ),
        "=1 \n\n=2 black 53\n\n=3 4HPwATDgc/ABMA:cImuAAAAAAAE\n\n\
         =4 24/16\n24/21 13/8\n24/21 8/3\n13/10 13/8\n13/5\n13/10 8/3\n13/8 6/3\n8/5 8/3\n8/3 6/3\n\n\
         =5 \n\n=6 jGfwATDgc/ABMA:MAGgAAAAAAAE\n\n=7 \n\n=8 \n\n=9 white 157 black 159\n\n\
         =10 16\n\n=11 \n\n=12 \n\n=13 take\n\n\
         =14 match to 5; score white 0 black 0; games 0; cube 2 owned by white; crawford rule on; black to roll\n\n\
         =15 board:black:white:5:0:0:0:-1:0:2:0:0:4:-1:2:0:0:0:-4:5:0:0:-1:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:2:0:1:0:1:-1:0:25:0:0:0:0:0:0:0:0\n\n"
    );
}

const FIBS_START: &str = "board:black:white:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:2:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0";

#[test]
fn positions_fibs_boards_and_settings() {
    assert_eq!(
        transcript(
            1,
            &[
                "1 set_position 4HPwATDgc/ABMA:cAkAAAAAAAAA",
                "2 get_position",
                "3 crawford",
                "4 crawford off",
                "5 crawford",
                "6 final_result",
                &format!("7 set_fibs_board {FIBS_START}"),
                "8 get_position",
                "9 fibs_board",
                "10 all_legal",
                "11 play 24/23 13/11",
                "12 fibs_board white",
            ]
        ),
        format!(
            "=1 \n\n=2 4HPwATDgc/ABMA:cAkAAAAAAAAE\n\n=3 on\n\n=4 \n\n=5 off\n\n\
             ?6 cannot score\n\n=7 \n\n=8 4HPwATDgc/ABMA:cAllAAAAAAAE\n\n=9 {FIBS_START}\n\n\
             =10 24/23 24/22\n24/21\n24/23 13/11\n24/23 8/6\n24/23 6/4\n24/22 8/7\n24/22 6/5\n13/10\n13/11 8/7\n13/11 6/5\n8/7 8/6\n8/5\n8/7 6/4\n6/5 6/4\n6/3\n\n\
             =11 \n\n=12 board:white:black:3:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0\n\n"
        )
    );
}

/// A whole game between the engine and itself, every decision asked of it.
fn self_play(games: usize) -> Vec<&'static str> {
    let mut commands = vec!["new_match 3"];
    for _ in 0..games {
        commands.extend(["new_game"]);
        for _ in 0..150 {
            commands.extend(["genmove_cube", "genmove_cube", "genmove"]);
        }
    }
    commands.push("match_status");
    commands
}

#[test]
fn the_same_seed_gives_the_same_dice_and_moves() {
    // Five games: every game gives someone a point or more, so a match to 3 has ended by
    // then whatever the net plays (three did not always suffice).
    let commands = self_play(5);
    let first = transcript(9, &commands);
    let again = transcript(9, &commands);
    assert_eq!(first, again);
    assert_ne!(first, transcript(10, &commands));
    // `seed` restarts the roller: the same opening and roll again.
    let reseeded = transcript(
        4,
        &[
            "new_game",
            "roll",
            "seed 4",
            "new_match",
            "new_game",
            "roll",
        ],
    );
    let answers: Vec<&str> = reseeded.split("\n\n").collect();
    assert_eq!(answers[0..2], answers[4..6], "{reseeded}");
    // The match reached its end: a score of 3.
    assert!(first.contains("won the match"), "{first}");
}

/// `genmove_analyze` plays what `genmove` plays (the same seed gives the same games) and
/// adds a line with the mover's cubeless equity after its play; at a level without a net
/// it adds none.
#[test]
fn genmove_analyze_plays_as_genmove_and_gives_the_equity() {
    let commands = self_play(2);
    let analyzed: Vec<&str> = commands
        .iter()
        .map(|c| {
            if *c == "genmove" {
                "genmove_analyze"
            } else {
                c
            }
        })
        .collect();
    let plain = transcript(9, &commands);
    let judged = transcript(9, &analyzed);
    let equity = regex::Regex::new(r"(?m)^equity -?\d+\.\d{3}\n").expect("regex");
    assert_eq!(equity.replace_all(&judged, ""), plain);
    let plays = regex::Regex::new(r"(?m)^= \d\d ").expect("regex");
    let judged_plays = equity.find_iter(&judged).count();
    assert!(judged_plays > 20, "{judged}");
    assert_eq!(judged_plays, plays.find_iter(&plain).count(), "{judged}");
    let mut greedy = TavlaEngine::new(Settings {
        level: Level::Greedy,
        ..settings(9)
    });
    let answer = run(&mut greedy, &["new_game 3 1", "genmove_analyze white"]);
    assert!(
        regex::Regex::new(r"\n= 31 \S+ \S+\n\n$")
            .expect("regex")
            .is_match(&answer),
        "{answer}"
    );
    let answer = run(&mut greedy, &["genmove_analyze pink"]);
    assert!(answer.starts_with("? syntax error"), "{answer}");
}

#[test]
fn records_the_match_as_a_mat_file() {
    let mut engine = TavlaEngine::new(settings(5));
    run(&mut engine, &self_play(12));
    let record = engine.mat_record().expect("a record");
    assert!(
        record.starts_with(" 3 point match\n\n Game 1\n White : 0"),
        "{record}"
    );
    assert!(record.contains("Wins"), "{record}");
}

fn position(engine: &mut TavlaEngine) -> String {
    run(engine, &["get_position"])
}

/// A Position ID from raw rows (opponent's row first), bypassing every check.
fn raw_position_id(rows: [[u8; 25]; 2]) -> String {
    let mut bits = Vec::new();
    for row in rows {
        for count in row {
            bits.extend(std::iter::repeat_n(1u8, usize::from(count)));
            bits.push(0);
        }
    }
    bits.resize(84, 0);
    let mut bytes = [0u8; 11];
    for (i, bit) in bits.iter().take(80).enumerate() {
        bytes[i / 8] |= bit << (i % 8);
    }
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    (0..14)
        .map(|i| {
            let mut sextet = 0usize;
            for j in 0..6 {
                let bit = i * 6 + j;
                sextet = sextet << 1 | usize::from(bytes[bit / 8] >> (7 - bit % 8) & 1);
            }
            ALPHABET[sextet] as char
        })
        .collect()
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut both = [[0u8; 25]; 2];
    both[0][23] = 15; // black on its 24-point: white's 1-point
    both[1][0] = 15; // white on its 1-point
    let mut sixteen = [[0u8; 25]; 2];
    sixteen[0][5] = 15;
    sixteen[1][5] = 16;
    let sixteen_fibs = FIBS_START.replacen(":5:0:3:", ":6:0:3:", 1);
    let both_id = raw_position_id(both);
    let sixteen_id = raw_position_id(sixteen);
    let bad: Vec<(String, &str)> = vec![
        (
            "set_position 4HPwATDgc/ABM".into(),
            "? syntax error: bad position: a Position ID has 14 characters",
        ),
        (
            "set_position 4HPwATDgc/AB!A".into(),
            "? syntax error: bad position: '!' is not a Base64",
        ),
        (
            format!("set_position {sixteen_id}"),
            "? syntax error: bad position: Position ID",
        ),
        (
            format!("set_position {both_id}"),
            "? syntax error: bad position: Position ID",
        ),
        (
            "set_position 4HPwATDgc/ABMA:cAkAAAAAAAA".into(),
            "? syntax error: bad position: a Match ID has 12",
        ),
        (
            format!("set_fibs_board {sixteen_fibs}"),
            "? syntax error: bad FIBS board: black has 16 checkers",
        ),
        (
            "set_fibs_board board:1:2".into(),
            "? syntax error: bad FIBS board: a FIBS board has at least 52",
        ),
        (
            "play 24/10".into(),
            "? illegal move: '24/10' is not a legal play",
        ),
        (
            "play white 13/11".into(),
            "? it is black's turn to play, not white's",
        ),
        ("play black 24/22 24/23".into(), "? illegal move:"),
        (
            "play black 71 24/17".into(),
            "? syntax error: '71' is not a roll",
        ),
        (
            "play black 62 24/18 13/11".into(),
            "? black is to play 53, not 62",
        ),
        (
            "dice 7 1".into(),
            "? syntax error: expected a die 1-6, got '7'",
        ),
        (
            "dice 0 3".into(),
            "? syntax error: expected a die 1-6, got '0'",
        ),
        (
            "dice 6 1".into(),
            "? black cannot roll: black is to play 53",
        ),
        ("roll".into(), "? black cannot roll: black is to play 53"),
        ("take".into(), "? no double to take"),
        ("drop white".into(), "? no double to drop"),
        (
            "double".into(),
            "? black may double only before rolling on its own turn",
        ),
        (
            "genmove white".into(),
            "? it is black's turn to play, not white's",
        ),
        ("genmove_cube".into(), "? black has no cube decision now"),
        ("new_game".into(), "? a game is in progress"),
        ("new_game 4 4".into(), "? a game is in progress"),
        (
            "new_match x".into(),
            "? syntax error: expected a match length",
        ),
        ("seed -1".into(), "? syntax error: expected a seed"),
        (
            "crawford maybe".into(),
            "? syntax error: usage: crawford [on|off]",
        ),
        ("final_result".into(), "? cannot score"),
        (
            "save_mat /nonexistent-dir/x.mat".into(),
            "? cannot write /nonexistent-dir/x.mat",
        ),
        ("bogus".into(), "? unknown command"),
    ];
    let mut engine = TavlaEngine::new(settings(1));
    run(&mut engine, &["new_match 5", "new_game 3 5"]);
    let before = position(&mut engine);
    for (command, expected) in &bad {
        let answer = run(&mut engine, &[command.as_str()]);
        assert!(
            answer.starts_with(expected),
            "{command}: expected '{expected}…', got '{answer}'"
        );
        assert_eq!(
            position(&mut engine),
            before,
            "{command} changed the position"
        );
    }
    // Before any game: an equal opening roll is refused, undo has nothing to take back.
    let mut fresh = TavlaEngine::new(settings(1));
    let before = position(&mut fresh);
    assert_eq!(
        run(&mut fresh, &["new_game 4 4", "undo", "genmove", "double"]),
        "? equal opening dice are thrown again\n\n? cannot undo\n\n\
         ? no game started (new_game)\n\n? no game started (new_game)\n\n"
    );
    assert_eq!(position(&mut fresh), before);
}

#[test]
fn ubgi_dialect() {
    let input = "ubgi\nisready\nnewsession type match length 5 crawford on\nsetscore 1 2\n\
                 setcube value 2 owner p1\nposition gnubgid 4HPwATDgc/ABMA\ngo\ndice 6 5\n\
                 go role chequer\ngo\ngo role cube\ngo role take\ndice 7 1\nposition gnubgid xx\n\
                 position xgid X\nfoo\nposition gnubgid 4HPwATDgc/ABMA:cIkKAAAAAAAE\n\
                 go role chequer\nposition gnubgid 4HPwATDgc/ABMA:zzzz\nquit\nisready\n";
    let mut output = Vec::new();
    hamle::tavla::ubgi::serve(Level::default(), Cursor::new(input), &mut output).unwrap();
    let output = String::from_utf8(output).unwrap();
    assert_eq!(
        output.replace(env!("CARGO_PKG_VERSION"), "V"),
        "id name hamle\nid author the hamle authors\nid version V\n\
         option name Level type combo default net2 var greedy var pubeval var net var net1 \
         var net2\nubgiok\nreadyok\n\
         error missing_context dice\nbestmove 24/18 18/13\nerror missing_context dice\n\
         bestmove roll\nbestmove take\nerror bad_argument dice\n\
         error bad_argument invalid_position\nerror unsupported_feature position_xgid\n\
         error unknown_command foo\nbestmove 24/22 13/8\nerror bad_argument invalid_match_id\n"
    );
}

/// A Match ID of a 5-point match at 2–4 (p0 trails, p1 is one point away), p0 on roll
/// before rolling, the cube centred; `crawford` marks the Crawford game.
fn trailer_on_roll(crawford: bool) -> String {
    use hamle::tavla::board::Side;
    use hamle::tavla::ids::{GameState, MatchKey, match_id};
    match_id(&MatchKey {
        cube: 1,
        cube_owner: None,
        dice_owner: Side::White,
        crawford,
        state: GameState::Playing,
        turn: Side::White,
        doubled: false,
        resigned: 0,
        dice: None,
        match_length: 5,
        score: [2, 4],
        jacoby: false,
    })
}

#[test]
fn ubgi_takes_the_crawford_game_from_the_match_id() {
    // After the Crawford game the trailer doubles at once (its opponent's gammons and
    // the cube cost it nothing more); in the Crawford game nobody may double.
    let ask = |crawford: bool| {
        let input = format!(
            "newsession type match length 5 crawford on\nposition gnubgid 4HPwATDgc/ABMA:{}\n\
             go role cube\n",
            trailer_on_roll(crawford)
        );
        let mut output = Vec::new();
        hamle::tavla::ubgi::serve(Level::default(), Cursor::new(input), &mut output)
            .expect("serve");
        String::from_utf8(output).expect("utf-8")
    };
    assert_eq!(
        (ask(false), ask(true)),
        ("bestmove double\n".to_owned(), "bestmove roll\n".to_owned())
    );
}
