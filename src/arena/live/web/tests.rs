//! The live page served on 127.0.0.1:0 over a database these tests fill themselves, read
//! with a small HTTP GET of our own over a TcpStream (no client crate for a few requests),
//! the feed read from its stream, and a game page watched in headless Chromium.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::routes::record_path;
use super::serve;
use crate::arena::live::events::{LiveEvent, LiveEvents};
use crate::arena::live::schema;

const GO_RECORD: &str = "(;GM[1]FF[4]SZ[9]KM[7.5]PB[alpha]PW[beta]RE[W+R]GC[hamle match game 1 (pair 1), seed 1 (match seed 1); resignation]\n;B[ee];W[ce];B[gc];W[])\n";

const HOSTILE: &str = "<script>alert(1)</script>";

/// A fresh server folder for `name`.
pub(super) fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hamle-live-web-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("games/go9-1")).expect("temp dir");
    dir
}

/// A ladder `go9` with bots 1 (`alpha 1`) and 2 (a hostile name and version); game 1
/// finished with its record, game 2 running with two moves, games 3 and 4 finished with
/// records outside the folder, ratings after game 1.
fn fill(dir: &Path) {
    std::fs::write(dir.join("games/go9-1/0001.sgf"), GO_RECORD).expect("record");
    std::fs::write(dir.join("outside.sgf"), GO_RECORD).expect("record");
    let db = schema::open(&dir.join(schema::DATABASE_FILE)).expect("database");
    let now = schema::now_text();
    db.execute_batch(&format!(
        "INSERT INTO ladders (name, game, settings) VALUES ('go9', 'go', 'size 9 <i>');
         INSERT INTO bots (id, ladder, name, version, kind, joined)
            VALUES (1, 'go9', 'alpha', '1', 'local', '{now}'),
                   (2, 'go9', '{HOSTILE}', '<b>', 'remote', '{now}');
         INSERT INTO games (id, ladder, first, second, seed, status, score, reason, record, started, ended)
            VALUES (1, 'go9', 1, 2, 7, 'finished', 1, 'resignation', 'games/go9-1/0001.sgf', '{now}', '{now}'),
                   (2, 'go9', 2, 1, 8, 'running', NULL, '', '', '{now}', NULL),
                   (3, 'go9', 1, 2, 9, 'finished', 0, '{HOSTILE}', '../outside.sgf', '{now}', '{now}'),
                   (4, 'go9', 2, 1, 9, 'finished', 0.5, '', '{}', '{now}', '{now}');
         INSERT INTO moves (game, ply, text, ms) VALUES (2, 1, 'E5', 10), (2, 2, 'C3', 20);
         INSERT INTO ratings (ladder, bot, after_game, elo, low, high, games)
            VALUES ('go9', 1, 1, 1530, 1480, 1580, 1), ('go9', 2, 1, 1470, 1420, 1520, 1),
                   ('go9', 1, 3, 1510, 1470, 1550, 2), ('go9', 2, 3, 1490, 1450, 1530, 2);",
        dir.join("outside.sgf").display()
    ))
    .expect("fill");
}

/// Serves `dir` on a loopback port of its own; returns the address.
pub(super) async fn start(dir: &Path, events: &LiveEvents) -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(serve(listener, dir.to_path_buf(), events.clone()));
    address
}

/// `GET path`: the status and the body.
pub(super) async fn get(address: std::net::SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer))
        .await
        .expect("answered in time")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (status, body)
}

#[tokio::test]
async fn standings_games_and_bots_are_shown_with_every_name_escaped() {
    let dir = folder("pages");
    fill(&dir);
    let address = start(&dir, &LiveEvents::new()).await;
    let (status, index) = get(address, "/").await;
    assert_eq!(status, 200, "{index}");
    assert!(index.contains("<a href=\"/ladder/go9\">go9</a>"), "{index}");
    assert!(index.contains("size 9 &lt;i&gt;"), "{index}");
    let (status, ladder) = get(address, "/ladder/go9").await;
    assert_eq!(status, 200, "{ladder}");
    assert!(ladder.contains("1510 ± 40"), "{ladder}");
    assert!(ladder.contains("1.5 / 3 (50%)"), "{ladder}");
    assert!(ladder.contains("<a href=\"/game/2\">2</a>"), "{ladder}");
    let (_, bot) = get(address, "/bot/2").await;
    assert!(bot.contains("<svg class=\"curve\""), "{bot}");
    assert!(bot.contains("(win)") && bot.contains("(loss)"), "{bot}");
    for page in [&index, &ladder, &bot] {
        let shown_as_text = HOSTILE.replace('<', "&lt;").replace('>', "&gt;");
        assert!(!page.contains(HOSTILE) && !page.contains("<b>"), "{page}");
        assert!(page.contains(&shown_as_text) || page == &index, "{page}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_finished_game_is_replayed_and_no_record_outside_the_folder_is_read() {
    let dir = folder("records");
    fill(&dir);
    let address = start(&dir, &LiveEvents::new()).await;
    let (status, replay) = get(address, "/game/1").await;
    assert_eq!(status, 200, "{replay}");
    assert!(
        replay.contains("id=\"boards\""),
        "the viewer's page: {replay}"
    );
    assert!(replay.contains("href=\"/ladder/go9\""), "{replay}");
    for (game, why) in [(3, "would leave"), (4, "would leave")] {
        let (status, page) = get(address, &format!("/game/{game}")).await;
        assert_eq!(status, 200, "{page}");
        assert!(
            page.contains(why) && !page.contains("id=\"boards\""),
            "{page}"
        );
        assert!(!page.contains(HOSTILE), "{page}");
    }
    let (_, moves) = get(address, "/game/2/moves").await;
    assert_eq!(
        moves,
        r#"{"status":"running","moves":[{"ply":1,"text":"E5","ms":10},{"ply":2,"text":"C3","ms":20}]}"#
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn unknown_paths_are_not_found_and_heads_are_bounded() {
    let dir = folder("unknown");
    fill(&dir);
    let address = start(&dir, &LiveEvents::new()).await;
    for path in [
        "/nope",
        "/ladder/none",
        "/game/99",
        "/game/abc",
        "/game/-1/moves",
        "/bot/0",
        "/ladder.db",
        "/games/go9-1/0001.sgf",
        "/../ladder.db",
        "/game/1/../../ladder.db",
    ] {
        let (status, page) = get(address, path).await;
        assert_eq!(status, 404, "{path}: {page}");
    }
    let mut stream = TcpStream::connect(address).await.expect("connect");
    let huge = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(64 * 1024)
    );
    let _ = stream.write_all(huge.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 431"),
        "{answer}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_client_that_never_finishes_its_head_is_dropped() {
    let dir = folder("slow");
    fill(&dir);
    let address = start(&dir, &LiveEvents::new()).await;
    let mut stream = TcpStream::connect(address).await.expect("connect");
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: loc")
        .await
        .expect("send");
    let mut answer = Vec::new();
    let limit = super::HEADER_TIME + Duration::from_secs(20);
    let ended = tokio::time::timeout(limit, stream.read_to_end(&mut answer)).await;
    assert!(ended.is_ok(), "still open after {limit:?}");
    let answer = String::from_utf8_lossy(&answer);
    assert!(!answer.contains("Ladders"), "{answer}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn records_must_stay_inside_the_folder() {
    let dir = folder("paths");
    fill(&dir);
    assert!(record_path(&dir, "games/go9-1/0001.sgf").is_ok());
    for record in [
        "",
        "../outside.sgf",
        "/etc/passwd",
        "games/../../x",
        "./ladder.db",
    ] {
        assert!(record_path(&dir, record).is_err(), "{record}");
    }
    let secret = dir.with_extension("secret.sgf");
    std::fs::write(&secret, GO_RECORD).expect("a file outside");
    std::os::unix::fs::symlink(&secret, dir.join("games/link.sgf")).expect("link");
    let refused = record_path(&dir, "games/link.sgf");
    assert!(
        refused.as_ref().is_err_and(|why| why.contains("leads out")),
        "{refused:?}"
    );
    let _ = std::fs::remove_file(&secret);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reads the open feed until a `data:` line holding `wanted` arrives; that line, and what
/// came before it in `seen`.
async fn feed_line(stream: &mut TcpStream, wanted: &str, seen: &mut String) -> String {
    let mut buffer = [0u8; 4096];
    loop {
        let read = stream.read(&mut buffer).await.expect("read feed");
        assert!(read > 0, "the feed ended: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
        if let Some(line) = seen
            .lines()
            .find(|l| l.starts_with("data:") && l.contains(wanted))
        {
            return line.to_owned();
        }
    }
}

#[tokio::test]
async fn a_move_sent_on_the_channel_reaches_the_feed_within_a_second() {
    let dir = folder("feed");
    fill(&dir);
    let events = LiveEvents::new();
    let address = start(&dir, &events).await;
    let mut stream = TcpStream::connect(address).await.expect("connect");
    let request = "GET /events?game=2 HTTP/1.1\r\nHost: localhost\r\n\r\n";
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut head = [0u8; 512];
    let read = stream.read(&mut head).await.expect("head");
    let head = String::from_utf8_lossy(&head[..read]).into_owned();
    assert!(head.contains("text/event-stream"), "{head}");
    // Another game's move and a ladder's ratings are not this feed's.
    events.send(LiveEvent::Move {
        game: 1,
        ply: 9,
        text: "other".into(),
        ms: 1,
    });
    events.send(LiveEvent::Ratings {
        ladder: "go9".into(),
    });
    events.send(LiveEvent::Move {
        game: 2,
        ply: 3,
        text: HOSTILE.into(),
        ms: 5,
    });
    let mut seen = String::new();
    let wanted = feed_line(&mut stream, "\"ply\":3", &mut seen);
    let line = tokio::time::timeout(Duration::from_secs(1), wanted)
        .await
        .expect("the move within a second");
    assert_eq!(
        line,
        r#"data: {"type":"move","game":2,"ply":3,"text":"<script>alert(1)</script>","ms":5}"#
    );
    assert!(
        !seen.contains("other") && !seen.contains("ratings"),
        "{seen}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_listener_that_falls_behind_is_told_to_reload() {
    let dir = folder("lagged");
    fill(&dir);
    let events = LiveEvents::new();
    let address = start(&dir, &events).await;
    let mut stream = TcpStream::connect(address).await.expect("connect");
    let request = "GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n";
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut head = [0u8; 512];
    let _ = stream.read(&mut head).await.expect("head");
    for _ in 0..crate::arena::live::events::EVENT_BACKLOG + 10 {
        events.send(LiveEvent::Ratings {
            ladder: "go9".into(),
        });
    }
    let mut seen = String::new();
    let line = tokio::time::timeout(
        Duration::from_secs(5),
        feed_line(&mut stream, "lagged", &mut seen),
    )
    .await
    .expect("told in time");
    assert_eq!(line, r#"data: {"type":"lagged"}"#);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Polls `probe` every 100 ms for up to `seconds`: its first `Some`.
async fn within<T, F: Future<Output = Option<T>>>(
    seconds: u64,
    mut probe: impl FnMut() -> F,
) -> Option<T> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(seconds);
    while tokio::time::Instant::now() < deadline {
        if let Some(found) = probe().await {
            return Some(found);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    None
}

/// The titles of the pages open in the browser whose DevTools HTTP port is `port`
/// (`/json/list`: plain HTTP, no debugging protocol).
async fn titles(port: u16) -> String {
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let Ok(mut stream) = TcpStream::connect(address).await else {
        return String::new();
    };
    let request = "GET /json/list HTTP/1.1\r\nHost: localhost\r\n\r\n";
    if stream.write_all(request.as_bytes()).await.is_err() {
        return String::new();
    }
    // DevTools keeps the connection open: read as far as its Content-Length.
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    let complete = |seen: &[u8]| {
        let text = String::from_utf8_lossy(seen);
        let (head, body) = text.split_once("\r\n\r\n")?;
        let length: usize = head.lines().find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")?
                .trim()
                .parse()
                .ok()
        })?;
        (body.len() >= length).then(|| body.to_owned())
    };
    loop {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await;
        match read {
            Ok(Ok(read)) if read > 0 => seen.extend_from_slice(&buffer[..read]),
            _ => return String::from_utf8_lossy(&seen).into_owned(),
        }
        if let Some(body) = complete(&seen) {
            return body;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_appears_on_the_open_game_page_without_reload() {
    if std::process::Command::new("chromium")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "note: the live page's browser test skipped: chromium is not installed \
             (apt-get install -y chromium; .ci/run installs it)"
        );
        return;
    }
    let dir = folder("chromium");
    fill(&dir);
    let events = LiveEvents::new();
    let address = start(&dir, &events).await;
    let profile = dir.join("profile");
    let mut browser = tokio::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--remote-debugging-port=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("http://{address}/game/2"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start chromium");
    let port_file = profile.join("DevToolsActivePort");
    let port: u16 = within(60, || async {
        std::fs::read_to_string(&port_file)
            .ok()
            .and_then(|text| text.lines().next()?.parse().ok())
    })
    .await
    .expect("chromium's DevTools port");
    // The page's script connected its feed and fetched the moves so far.
    let loaded = within(60, || async {
        let seen = titles(port).await;
        seen.contains("2 moves, last C3").then_some(seen)
    })
    .await;
    assert!(loaded.is_some(), "the page loaded: {}", titles(port).await);
    events.send(LiveEvent::Move {
        game: 2,
        ply: 3,
        text: "G7".into(),
        ms: 5,
    });
    let shown = within(10, || async {
        let seen = titles(port).await;
        seen.contains("3 moves, last G7").then_some(seen)
    })
    .await;
    let _ = browser.kill().await;
    assert!(shown.is_some(), "the move shown: {}", titles(port).await);
    // A finished game's viewer draws its boards under the page's policy header.
    let dumped = tokio::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--dump-dom",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.join("profile2").display()
        ))
        .arg(format!("http://{address}/game/1"))
        .output()
        .await
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&dumped.stdout);
    assert!(
        dom.contains("data-move=\"4\"><svg class=\"board\""),
        "{dom}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Measures, does not check (machine speed): how long a move takes from the channel to
/// each of 100 feeds over loopback, 2,000 moves sent one a millisecond. Run with
/// `cargo test --release --lib arena::live::web::tests::feed_latency -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement"]
async fn feed_latency() {
    const LISTENERS: usize = 100;
    const MOVES: usize = 2_000;
    let dir = folder("latency");
    fill(&dir);
    let events = LiveEvents::new();
    let address = start(&dir, &events).await;
    let mut readers = Vec::new();
    for _ in 0..LISTENERS {
        let mut stream = TcpStream::connect(address).await.expect("connect");
        let request = "GET /events?game=2 HTTP/1.1\r\nHost: localhost\r\n\r\n";
        stream.write_all(request.as_bytes()).await.expect("send");
        let mut head = [0u8; 512];
        let _ = stream.read(&mut head).await.expect("head");
        readers.push(tokio::spawn(async move {
            let mut arrived = vec![None; MOVES];
            let (mut seen, mut buffer, mut got) = (String::new(), [0u8; 8192], 0);
            while got < MOVES {
                let read = stream.read(&mut buffer).await.expect("read");
                assert!(read > 0, "the feed ended");
                seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
                let now = std::time::Instant::now();
                while let Some(end) = seen.find("\n\n") {
                    let ply = seen[..end]
                        .split("\"ply\":")
                        .nth(1)
                        .and_then(|rest| rest.split(',').next()?.parse::<usize>().ok());
                    if let Some(ply) = ply.filter(|p| *p < MOVES) {
                        arrived[ply] = Some(now);
                        got += 1;
                    }
                    seen.drain(..end + 2);
                }
            }
            arrived
        }));
    }
    let mut sent = Vec::with_capacity(MOVES);
    let mut tick = tokio::time::interval(Duration::from_millis(1));
    for ply in 0..MOVES {
        tick.tick().await;
        sent.push(std::time::Instant::now());
        events.send(LiveEvent::Move {
            game: 2,
            ply: ply as u32,
            text: "D4".into(),
            ms: 1,
        });
    }
    let mut delays = Vec::new();
    for reader in readers {
        let arrived = reader.await.expect("reader");
        for (ply, at) in arrived.iter().enumerate() {
            let at = at.expect("every move arrived");
            delays.push(at.duration_since(sent[ply]).as_secs_f64() * 1000.0);
        }
    }
    delays.sort_by(f64::total_cmp);
    let at = |q: f64| delays[((delays.len() - 1) as f64 * q) as usize];
    println!(
        "{LISTENERS} feeds, {MOVES} moves at 1 ms: median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        at(0.5),
        at(0.99),
        at(1.0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
