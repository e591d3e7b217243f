//! A running game's board: the SVG after k moves is the viewer's drawing of the same
//! position of the game's own record, and a game that cannot be rebuilt gets a note.

use std::path::{Path, PathBuf};

use super::tests::{folder, get, start};
use crate::arena::bots::Bot;
use crate::arena::live::config::LadderConfig;
use crate::arena::live::events::LiveEvents;
use crate::arena::live::schema;
use crate::contract::Referee;
use crate::seed::derive_seed;

const SETTINGS: &str = "--seed 5 --max-moves 30";
const PAIRING: u64 = 3;
const FOLDER: &str = "games/kul/000003-a-vs-b";

/// Game `index` of pairing [`PAIRING`]'s referee, built as the server's pairing builds it.
fn referee(dir: &Path, index: usize) -> Box<dyn Referee> {
    let ladder = LadderConfig::stored(dir, "kul", "kulami", SETTINGS).expect("settings");
    let probe = Bot::from_command_line("hamle go", ladder.game).expect("probe");
    let mut settings = ladder
        .match_settings([probe.clone(), probe], PathBuf::new())
        .expect("match");
    settings.seed = derive_seed(ladder.options.seed, PAIRING);
    settings.referee(index)
}

/// `plies` legal moves of game `index` (the first legal one each turn), and its record.
fn play(dir: &Path, index: usize, plies: usize) -> (Vec<String>, String) {
    let mut referee = referee(dir, index);
    let mut moves = Vec::new();
    for _ in 0..plies {
        for _ in referee.interlude() {}
        let legal = referee.legal_moves().expect("legal moves");
        let seat = referee.seat_to_move();
        referee.apply(seat, &legal[legal.len() / 2]).expect("legal");
        moves.push(legal[legal.len() / 2].clone());
    }
    (moves, referee.record(None, ["a", "b"], "").0)
}

/// Ladder `kul`; games 1 (index 1 of the pairing, its first `k` moves) and 2 (index 0,
/// `moves` then a refused one), both running.
fn fill(dir: &Path, first: &[String], second: &[String]) {
    let db = schema::open(&dir.join(schema::DATABASE_FILE)).expect("database");
    let now = schema::now_text();
    let match_seed = derive_seed(5, PAIRING);
    db.execute_batch(&format!(
        "INSERT INTO ladders (name, game, settings) VALUES ('kul', 'kulami', '{SETTINGS}');
         INSERT INTO bots (id, ladder, name, kind, joined)
            VALUES (1, 'kul', 'a', 'local', '{now}'), (2, 'kul', 'b', 'local', '{now}');
         INSERT INTO games (id, ladder, first, second, seed, status, folder, started)
            VALUES (1, 'kul', 2, 1, {}, 'running', '{FOLDER}', '{now}'),
                   (2, 'kul', 1, 2, {}, 'running', '{FOLDER}', '{now}');",
        derive_seed(match_seed, 1) as i64,
        derive_seed(match_seed, 0) as i64,
    ))
    .expect("fill");
    let refused = "Z99".to_owned();
    for (game, moves) in [(1, first), (2, &[second, &[refused]].concat()[..])] {
        for (ply, text) in moves.iter().enumerate() {
            db.execute(
                "INSERT INTO moves (game, ply, text) VALUES (?1, ?2, ?3)",
                rusqlite::params![game, ply as i64 + 1, text],
            )
            .expect("move");
        }
    }
}

#[tokio::test]
async fn a_running_game_is_drawn_as_its_record_after_the_same_moves() {
    let dir = folder("board");
    let k = 5;
    let (moves, record) = play(&dir, 1, 9);
    let (second, _) = play(&dir, 0, 2);
    fill(&dir, &moves[..k], &second);
    let view = crate::games::GameKind::Kulami.viewer().view(&record);
    assert!(view.problem.is_none(), "{record}");
    let address = start(&dir, &LiveEvents::new()).await;
    let (status, svg) = get(address, "/game/1/board.svg").await;
    assert_eq!(status, 200, "{svg}");
    assert_eq!(svg, view.frames[k].svg);
    assert_ne!(svg, view.frames[k - 1].svg);
    let (status, page) = get(address, "/game/1").await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains(&view.frames[k].svg), "{page}");
    assert!(page.contains("data-src=\"/game/1/board.svg\""), "{page}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_refused_move_or_an_unknown_seed_gives_a_note_not_a_board() {
    let dir = folder("board-refused");
    let (second, _) = play(&dir, 0, 2);
    fill(&dir, &[], &second);
    let db = schema::open(&dir.join(schema::DATABASE_FILE)).expect("database");
    db.execute("INSERT INTO games (id, ladder, first, second, seed, status, folder, started) VALUES (3, 'kul', 1, 2, 77, 'running', ?1, 'now')", [FOLDER])
        .expect("game 3");
    let address = start(&dir, &LiveEvents::new()).await;
    let (status, note) = get(address, "/game/2/board.svg").await;
    assert_eq!(status, 422, "{note}");
    assert!(note.contains("move 3 is refused"), "{note}");
    let (status, page) = get(address, "/game/2").await;
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("move 3 is refused") && !page.contains("<svg"),
        "{page}"
    );
    assert!(page.contains("Z99"), "{page}");
    let (status, note) = get(address, "/game/3/board.svg").await;
    assert_eq!(status, 422, "{note}");
    assert!(note.contains("seed"), "{note}");
    let (status, _) = get(address, "/game/99/board.svg").await;
    assert_eq!(status, 404);
    let _ = std::fs::remove_dir_all(&dir);
}
