//! `hamle ladder serve` and `hamle ladder admin` end to end through the binary, with local
//! Kulami engines at node budgets (deterministic; the waits below are only deadlines for
//! a failure, never what a test measures).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use rusqlite::Connection;

const HAMLE: &str = env!("CARGO_BIN_EXE_hamle");

/// How long a test waits for what it expects before it fails.
const DEADLINE: Duration = Duration::from_secs(180);

/// A server folder with bots `k{nodes}` for each budget and one ladder of `bots`.
fn server(name: &str, budgets: &[u32], bots: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hamle-live-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bots")).expect("create server folder");
    for nodes in budgets {
        let text = format!(
            "name = \"k{nodes}\"\ngame = \"kulami\"\ncommand = [\"hamle\", \"kulami\", \"--nodes\", \"{nodes}\"]\n"
        );
        std::fs::write(dir.join("bots").join(format!("k{nodes}.toml")), text).expect("bot");
    }
    let list: Vec<String> = bots.iter().map(|b| format!("\"{b}\"")).collect();
    let config = format!(
        "[[ladder]]\nname = \"kul\"\ngame = \"kulami\"\nsettings = \"--seed 3\"\nbots = [{}]\nanchor = \"{}\"\n",
        list.join(", "),
        bots[0]
    );
    std::fs::write(dir.join("server.toml"), config).expect("server.toml");
    dir
}

fn serve(dir: &Path, extra: &[&str]) -> Output {
    Command::new(HAMLE)
        .args(["ladder", "serve"])
        .arg(dir)
        .args(extra)
        .output()
        .expect("run hamle")
}

fn serve_in_background(dir: &Path) -> Child {
    Command::new(HAMLE)
        .args(["ladder", "serve"])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hamle")
}

fn admin(dir: &Path, args: &[&str]) -> String {
    let output = Command::new(HAMLE)
        .args(["ladder", "admin"])
        .arg(dir)
        .args(args)
        .output()
        .expect("run hamle");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn succeeded(output: &Output) {
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn db(dir: &Path) -> Connection {
    let db = Connection::open(dir.join("ladder.db")).expect("open the database");
    db.busy_timeout(Duration::from_secs(10))
        .expect("busy timeout");
    db
}

fn count(dir: &Path, sql: &str) -> i64 {
    db(dir)
        .query_row(sql, [], |row| row.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Finished games, 0 while the server has not made its tables yet.
fn finished_so_far(dir: &Path) -> i64 {
    Connection::open(dir.join("ladder.db"))
        .and_then(|db| {
            db.query_row(
                "SELECT count(*) FROM games WHERE status = 'finished'",
                [],
                |row| row.get(0),
            )
        })
        .unwrap_or(0)
}

/// (id, status, record) of every game.
fn games(dir: &Path) -> Vec<(i64, String, String)> {
    let db = db(dir);
    let mut statement = db
        .prepare("SELECT id, status, record FROM games ORDER BY id")
        .expect("query");
    statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("games")
}

/// Waits until `ready` holds (polling), or fails naming `what`.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < DEADLINE, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn finished_games_of(dir: &Path, bot: &str) -> i64 {
    count(
        dir,
        &format!(
            "SELECT count(*) FROM games g JOIN bots b ON b.id IN (g.first, g.second)
             WHERE b.name = '{bot}' AND g.status = 'finished'"
        ),
    )
}

/// Every finished game once, with its own record file on disk.
fn check_records(dir: &Path) {
    let finished: Vec<String> = games(dir)
        .into_iter()
        .filter(|(_, status, _)| status == "finished")
        .map(|(_, _, record)| record)
        .collect();
    let mut distinct = finished.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        finished.len(),
        "a record twice: {finished:?}"
    );
    for record in &finished {
        assert!(dir.join(record).is_file(), "{record} is missing");
    }
}

fn stop(child: &mut Child, signal: &str) -> std::process::ExitStatus {
    let pid = child.id().to_string();
    let sent = Command::new("kill")
        .args([signal, &pid])
        .status()
        .expect("kill");
    assert!(sent.success());
    child.wait().expect("wait")
}

#[test]
fn a_ladder_plays_to_n_games_each_recorded_once_with_its_moves_and_ratings() {
    let dir = server("plays", &[100, 500, 3000], &["k100", "k500", "k3000"]);
    let output = serve(&dir, &["--stop-after-games", "6"]);
    succeeded(&output);
    assert_eq!(
        count(&dir, "SELECT count(*) FROM games WHERE status = 'finished'"),
        6
    );
    assert_eq!(
        count(
            &dir,
            "SELECT count(*) FROM games WHERE status != 'finished'"
        ),
        0
    );
    check_records(&dir);
    // Three bots, three pairings: each met each other once, colours swapped.
    for bot in ["k100", "k500", "k3000"] {
        assert_eq!(finished_games_of(&dir, bot), 4, "{bot}");
        let firsts = count(
            &dir,
            &format!(
                "SELECT count(*) FROM games g JOIN bots b ON b.id = g.first WHERE b.name = '{bot}'"
            ),
        );
        assert_eq!(firsts, 2, "{bot} sat first");
    }
    // Every game's moves, numbered from 1, as many as the record's.
    assert_eq!(
        count(
            &dir,
            "SELECT count(*) FROM games g WHERE (SELECT count(*) FROM moves m WHERE m.game = g.id) = 0"
        ),
        0
    );
    // Ratings after every game; the anchor held at 0 once rated.
    assert_eq!(
        count(&dir, "SELECT count(DISTINCT after_game) FROM ratings"),
        6
    );
    assert_eq!(
        count(
            &dir,
            "SELECT count(*) FROM ratings r JOIN bots b ON b.id = r.bot WHERE b.name = 'k100' AND r.elo != 0"
        ),
        0
    );
    let last = count(&dir, "SELECT max(after_game) FROM ratings");
    assert_eq!(
        count(
            &dir,
            &format!("SELECT count(*) FROM ratings WHERE after_game = {last}")
        ),
        3
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_restart_continues_and_a_game_cut_by_kill_9_is_voided_and_replayed() {
    let dir = server("restart", &[100, 20000], &["k100", "k20000"]);
    succeeded(&serve(&dir, &["--stop-after-games", "2"]));
    succeeded(&serve(&dir, &["--stop-after-games", "2"]));
    assert_eq!(
        count(&dir, "SELECT count(*) FROM games WHERE status = 'finished'"),
        4
    );
    check_records(&dir);
    // kill -9 while a game is being played.
    let mut child = serve_in_background(&dir);
    wait_for("a game in progress with moves", || {
        count(
            &dir,
            "SELECT count(*) FROM games g WHERE g.status = 'running' AND (SELECT count(*) FROM moves m WHERE m.game = g.id) >= 3",
        ) > 0
    });
    child.kill().expect("kill -9");
    let _ = child.wait();
    let before = games(&dir);
    let cut: Vec<i64> = before
        .iter()
        .filter(|(_, status, _)| status == "running")
        .map(|(id, _, _)| *id)
        .collect();
    let finished = before
        .iter()
        .filter(|(_, status, _)| status == "finished")
        .count();
    assert!(!cut.is_empty(), "{before:?}");
    let output = serve(&dir, &["--stop-after-games", "2"]);
    succeeded(&output);
    assert!(String::from_utf8_lossy(&output.stdout).contains("voided"));
    let after = games(&dir);
    for id in &cut {
        let (_, status, _) = after.iter().find(|(g, _, _)| g == id).expect("cut game");
        assert_eq!(status, "void", "game {id}");
    }
    // Nothing finished before the kill was lost or doubled; the restart played 2 more.
    for game in before.iter().filter(|(_, status, _)| status == "finished") {
        assert!(after.contains(game), "{game:?} changed");
    }
    let now = after
        .iter()
        .filter(|(_, status, _)| status == "finished")
        .count();
    assert_eq!(now, finished + 2);
    assert_eq!(
        count(&dir, "SELECT count(*) FROM games WHERE status = 'running'"),
        0
    );
    check_records(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bot_added_while_the_server_runs_is_paired_and_rated_and_sigterm_voids_the_rest() {
    let dir = server("added", &[100, 500, 3000], &["k100", "k500"]);
    let mut child = serve_in_background(&dir);
    wait_for("a first game", || finished_so_far(&dir) >= 1);
    assert!(admin(&dir, &["add", "kul", "k3000"]).contains("k3000 added"));
    wait_for("k3000 rated", || {
        count(
            &dir,
            "SELECT count(*) FROM ratings r JOIN bots b ON b.id = r.bot WHERE b.name = 'k3000'",
        ) > 0
    });
    let status = stop(&mut child, "-TERM");
    assert_eq!(status.code(), Some(143));
    assert_eq!(
        count(&dir, "SELECT count(*) FROM games WHERE status = 'running'"),
        0
    );
    assert!(finished_games_of(&dir, "k3000") >= 1);
    check_records(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Pairings (folders) a bot has played in.
fn pairings_of(dir: &Path, bot: &str) -> usize {
    std::fs::read_dir(dir.join("games").join("kul"))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.ends_with(&format!("-{bot}")) || name.contains(&format!("-{bot}-vs-"))
                })
                .count()
        })
        .unwrap_or(0)
}

/// True when every pairing folder's two games are over (no pairing between its games).
fn quiet(dir: &Path) -> bool {
    let folders = std::fs::read_dir(dir.join("games").join("kul"))
        .map(|entries| entries.count())
        .unwrap_or(0) as i64;
    count(dir, "SELECT count(*) FROM games WHERE status != 'running'") == 2 * folders
}

#[test]
fn admin_pause_stops_new_pairings_and_a_removed_bot_plays_no_more() {
    let dir = server("admin", &[100, 500, 3000], &["k100", "k500", "k3000"]);
    let mut child = serve_in_background(&dir);
    wait_for("two games", || finished_so_far(&dir) >= 2);
    assert!(admin(&dir, &["pause", "kul"]).contains("paused"));
    wait_for("the running pairing to end", || quiet(&dir));
    // A pairing the server chose just before it saw the pause has begun by now.
    std::thread::sleep(Duration::from_millis(1600));
    wait_for("the running pairing to end", || quiet(&dir));
    let paused_at = games(&dir).len();
    // Three polls of the server go by: nothing starts while paused.
    std::thread::sleep(Duration::from_millis(1600));
    assert_eq!(games(&dir).len(), paused_at);
    assert!(admin(&dir, &["list"]).contains("kul (kulami), paused"));
    assert!(admin(&dir, &["remove", "kul", "k3000"]).contains("removed"));
    let k3000 = pairings_of(&dir, "k3000");
    admin(&dir, &["resume", "kul"]);
    wait_for("four more games", || {
        count(&dir, "SELECT count(*) FROM games WHERE status = 'finished'") >= paused_at as i64 + 4
    });
    assert_eq!(pairings_of(&dir, "k3000"), k3000);
    assert_eq!(stop(&mut child, "-INT").code(), Some(130));
    assert_eq!(
        count(&dir, "SELECT count(*) FROM games WHERE status = 'running'"),
        0
    );
    check_records(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_server_toml_or_admin_command_is_refused_with_a_reason() {
    let dir = server("bad", &[100], &["k100", "nobody"]);
    let output = serve(&dir, &["--stop-after-games", "2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("nobody"));
    let dir = server("bad-admin", &[100], &["k100"]);
    let output = Command::new(HAMLE)
        .args(["ladder", "admin"])
        .arg(&dir)
        .args(["remove", "kul", "ghost"])
        .output()
        .expect("run hamle");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no bot 'ghost'"));
    let _ = std::fs::remove_dir_all(&dir);
}
