//! The items that talk without playing: the handshake, the framing, the clock commands, a
//! junk line, `quit`, the answers' times, and the optional commands with what needs them.

use std::time::Duration;

use super::report::{Item, Status};
use super::wire::{Problem, Reply, Session, Transcript};
use crate::games::GameKind;

const COMMANDS_REF: &str = "1. Framing › Commands every engine answers";
const OUTPUT_REF: &str = "1. Framing › Output (`=id`/`?id`, one empty line after each answer)";
const INPUT_REF: &str = "1. Framing › Input and Errors (`? unknown command`)";
const CLOCK_REF: &str = "1. Framing › Clock commands; Arena › Time controls (--time-control)";
const QUIT_REF: &str = "1. Framing › Commands every engine answers (`quit`); Arena › What `hamle match` sends (two seconds, then killed)";

/// How long a bot may take to exit after answering `quit` (the arena's grace).
pub const QUIT_WAIT: Duration = Duration::from_secs(2);

/// A row for a command the arena does not need: a `?` is a warning, a broken answer fails.
fn courtesy(
    item: &str,
    reply: &Reply,
    transcript: &Transcript,
    good: impl Fn(&str) -> bool,
) -> Item {
    match reply {
        Ok(Ok(body)) if good(body) => Item::new(item, Status::Pass, shown(body)),
        Ok(Ok(body)) => Item::new(
            item,
            Status::Warn,
            format!("unexpected answer '{}'", shown(body)),
        )
        .with(transcript, COMMANDS_REF),
        Ok(Err(message)) => Item::new(
            item,
            Status::Warn,
            format!(
                "answered '? {}'; GTP engines answer it (the arena does not need it)",
                shown(message)
            ),
        )
        .with(transcript, COMMANDS_REF),
        Err(problem) => failed(item, problem, transcript, COMMANDS_REF),
    }
}

pub fn failed(item: &str, problem: &Problem, transcript: &Transcript, reference: &str) -> Item {
    if *problem == Problem::GaveUp {
        return Item::new(item, Status::Skip, problem.to_string());
    }
    let reference = if problem.is_framing() {
        OUTPUT_REF
    } else {
        reference
    };
    Item::new(item, Status::Fail, problem.to_string()).with(transcript, reference)
}

fn shown(text: &str) -> String {
    crate::text::shorten_to(&text.replace('\n', " "), 60)
}

/// `protocol_version`, `name`, `version`, `list_commands`, `known_command`; returns the
/// commands listed (`None`: no list).
pub async fn handshake(session: &mut Session, items: &mut Vec<Item>) -> Option<Vec<String>> {
    let timeout = session.start_timeout;
    let (reply, transcript) = session.ask("protocol_version", timeout).await;
    items.push(courtesy("protocol_version", &reply, &transcript, |b| {
        b.trim() == "2"
    }));
    for command in ["name", "version"] {
        let (reply, transcript) = session.ask(command, timeout).await;
        items.push(courtesy(command, &reply, &transcript, |_| true));
    }
    let (reply, transcript) = session.ask("list_commands", timeout).await;
    let listed = match &reply {
        Ok(Ok(body)) => Some(
            body.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>(),
        ),
        _ => None,
    };
    let mut item = courtesy("list_commands", &reply, &transcript, |_| true);
    if let Some(list) = &listed
        && item.status == Status::Pass
    {
        item.detail = format!("{} commands", list.len());
    }
    items.push(item);
    items.push(known_command(session, timeout).await);
    listed
}

/// `known_command genmove` must be `true`, and of a made-up command `false`: the arena asks
/// it before it uses an optional command.
async fn known_command(session: &mut Session, timeout: Duration) -> Item {
    let (known, transcript) = session.ask("known_command genmove", timeout).await;
    if let Err(problem) = &known {
        return failed("known_command", problem, &transcript, COMMANDS_REF);
    }
    let (unknown, second) = session
        .ask("known_command hamle-check-no-such-command", timeout)
        .await;
    if let Err(problem) = &unknown {
        return failed("known_command", problem, &second, COMMANDS_REF);
    }
    let word = |reply: &Reply| match reply {
        Ok(Ok(body)) => body.trim().to_owned(),
        _ => "?".to_owned(),
    };
    if word(&known) == "true" && word(&unknown) == "false" {
        return Item::new(
            "known_command",
            Status::Pass,
            "true for genmove, false for an unknown command",
        );
    }
    let mut both = transcript;
    both.0.extend(second.0);
    Item::new(
        "known_command",
        Status::Warn,
        format!("answered '{}' for genmove and '{}' for an unknown command; the arena asks it before optional commands", word(&known), word(&unknown)),
    )
    .with(&both, COMMANDS_REF)
}

/// The framing: a command without an id is answered without one, and every exchange so far
/// echoed its id and ended its answer with an empty line.
pub async fn framing(session: &mut Session) -> Item {
    let timeout = session.start_timeout;
    let (reply, transcript) = session.say_raw("protocol_version", None, timeout).await;
    if let Some((problem, transcript)) = session.framing.first() {
        let detail = format!("{problem} (in {} exchange(s))", session.framing.len());
        return Item::new("framing", Status::Fail, detail).with(transcript, OUTPUT_REF);
    }
    if let Err(problem) = &reply {
        return failed("framing", problem, &transcript, OUTPUT_REF);
    }
    let answers = session.times.len();
    Item::new(
        "framing",
        Status::Pass,
        format!("{answers} answers: ids echoed (none without one), each ended by an empty line"),
    )
}

/// The clock commands `--time-control` sends (none where the game's referee names no
/// clock side).
pub async fn clock(session: &mut Session, side: Option<String>) -> Item {
    let Some(side) = side else {
        return Item::new(
            "clock commands",
            Status::Skip,
            "the game's engines take no clock commands (the arena keeps the clocks)",
        );
    };
    let commands = [
        "time_settings 600 0 0".to_owned(),
        "kgs-time_settings byoyomi 600 10 3".to_owned(),
        "time_settings 600 10 1".to_owned(),
        format!("time_left {side} 600 0"),
        "time_settings 0 1 0".to_owned(),
    ];
    let mut refused = Vec::new();
    for command in &commands {
        let (reply, transcript) = session.ask(command, session.timeout).await;
        match reply {
            Ok(Ok(_)) => {}
            Ok(Err(_)) => refused.push(command.clone()),
            Err(problem) => return failed("clock commands", &problem, &transcript, CLOCK_REF),
        }
    }
    let kgs_only = refused.len() == 1 && refused[0].starts_with("kgs-");
    if refused.is_empty() || kgs_only {
        let note = if kgs_only {
            " (byo-yomi falls back to time_settings)"
        } else {
            ""
        };
        return Item::new(
            "clock commands",
            Status::Pass,
            format!("time_settings, time_left answered{note}"),
        );
    }
    Item::new(
        "clock commands",
        Status::Warn,
        format!(
            "refused {}: only --time-control needs them",
            refused.join(", ")
        ),
    )
    .reference(CLOCK_REF)
}

/// An unknown command and a line of junk get `?`, and the bot answers on.
pub async fn junk(session: &mut Session) -> Item {
    let timeout = session.timeout;
    let (unknown, transcript) = session.ask("hamle-check-unknown-command", timeout).await;
    let junk_id = None;
    let (junk, second) = match &unknown {
        Err(problem) => return failed("junk line", problem, &transcript, INPUT_REF),
        Ok(_) => {
            session
                .say_raw("%%% not a command {}", junk_id, timeout)
                .await
        }
    };
    if let Err(problem) = &junk {
        return failed("junk line", problem, &second, INPUT_REF);
    }
    let (after, third) = session.ask("protocol_version", timeout).await;
    if let Err(problem) = &after {
        let mut all = second;
        all.0.extend(third.0);
        return failed(
            "junk line",
            &Problem::Garbage(format!("after the junk line: {problem}")),
            &all,
            INPUT_REF,
        );
    }
    match (&unknown, &junk) {
        (Ok(Err(_)), Ok(Err(_))) => Item::new(
            "junk line",
            Status::Pass,
            "an unknown command and a junk line answered '?'; answers go on",
        ),
        _ => {
            let mut all = transcript;
            all.0.extend(second.0);
            Item::new(
                "junk line",
                Status::Warn,
                "an unknown command or a junk line was answered '=' (expected '?')",
            )
            .with(&all, INPUT_REF)
        }
    }
}

/// `quit`: answered, and the bot exits within the arena's grace.
pub async fn quit(session: &mut Session) -> Item {
    let (reply, transcript, exited) = session.quit(QUIT_WAIT).await;
    match reply {
        Err(problem) => failed("quit", &problem, &transcript, QUIT_REF),
        Ok(Err(message)) => Item::new("quit", Status::Fail, format!("answered '? {}'", shown(&message)))
            .with(&transcript, QUIT_REF),
        Ok(Ok(_)) if exited => Item::new("quit", Status::Pass, "answered and exited"),
        Ok(Ok(_)) => Item::new(
            "quit",
            Status::Fail,
            format!("answered but still ran {} s later (a match kills it then; its group was killed here)", QUIT_WAIT.as_secs()),
        )
        .with(&transcript, QUIT_REF),
    }
}

/// Each kind of answer's slowest and mean time; slow answers are a warning.
pub fn times(session: &Session) -> Item {
    let mut kinds: Vec<(String, Duration, Duration, u32)> = Vec::new();
    for (name, took) in &session.times {
        match kinds.iter_mut().find(|(kind, ..)| kind == name) {
            Some((_, max, sum, count)) => {
                *max = (*max).max(*took);
                *sum += *took;
                *count += 1;
            }
            None => kinds.push((name.clone(), *took, *took, 1)),
        }
    }
    kinds.sort_by_key(|kind| std::cmp::Reverse(kind.1));
    let shown: Vec<String> = kinds
        .iter()
        .take(3)
        .map(|(name, max, sum, count)| {
            format!(
                "{name} {:.3} s (mean {:.3} s of {count})",
                max.as_secs_f64(),
                sum.as_secs_f64() / f64::from(*count)
            )
        })
        .collect();
    let slowest = kinds.first().map_or(Duration::ZERO, |k| k.1);
    let status = if slowest > session.timeout / 2 {
        Status::Warn
    } else {
        Status::Pass
    };
    Item::new(
        "answer times",
        status,
        format!("slowest: {}", shown.join(", ")),
    )
}

/// The optional commands and what needs each: (command, the game it matters to or all,
/// what needs it).
const OPTIONAL: &[(&str, Option<GameKind>, &str)] = &[
    (
        "undo",
        None,
        "--illegal warn3 (the engine takes an illegal move back)",
    ),
    (
        "set_random_seed",
        None,
        "a bot file's seed_command (engines kept between games, reseeded)",
    ),
    (
        "gogui-rules_legal_moves",
        None,
        "GoGui's rules extension (the arena draws --opening-plies from its own rules)",
    ),
    (
        "final_score",
        Some(GameKind::Go),
        "--adjudicate MARGIN:MOVES (score adjudication)",
    ),
    (
        "kgs-genmove_cleanup",
        Some(GameKind::Go),
        "KGS and GoGui (not the arena)",
    ),
    (
        "lz-analyze",
        Some(GameKind::Go),
        "live analysis in Sabaki and Lizzie (not the arena)",
    ),
    (
        "kata-analyze",
        Some(GameKind::Go),
        "live analysis in KaTrain and Sabaki (not the arena)",
    ),
    (
        "kata-genmove_analyze",
        Some(GameKind::Go),
        "--record-judgement (the engine's win rate and score lead kept with each move)",
    ),
    (
        "lz-genmove_analyze",
        Some(GameKind::Go),
        "--record-judgement (the engine's win rate kept with each move)",
    ),
    (
        "gogui-rules_game_id",
        None,
        "GoGui's rules extension (GoGui draws the game)",
    ),
];

/// One row an optional command: present or absent, and what needs it.
pub async fn optional(
    session: &mut Session,
    kind: GameKind,
    listed: Option<&[String]>,
) -> Vec<Item> {
    let mut items = Vec::new();
    for (command, game, needed_by) in OPTIONAL {
        if game.is_some_and(|game| game != kind) {
            continue;
        }
        let present = match listed {
            Some(list) => list.iter().any(|c| c == command),
            None => {
                let (reply, _) = session
                    .ask(&format!("known_command {command}"), session.start_timeout)
                    .await;
                matches!(reply, Ok(Ok(ref body)) if body.trim() == "true")
            }
        };
        let word = if present { "present" } else { "absent" };
        items.push(Item::new(
            command,
            Status::Info,
            format!("{word}; used by {needed_by}"),
        ));
    }
    items
}
