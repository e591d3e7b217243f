//! `hamle ladder admin DIR …`: the organiser's actions, from the server's own command
//! line only (never from a remote client). Each writes the database (and a `log` row);
//! a running server rereads it within a second: a bot added is paired, a bot removed
//! plays no new pairing (its game in progress finishes), a paused ladder starts none.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use rusqlite::{Connection, params};

use super::config::ServerConfig;
use super::schema::{self, now_text};
use super::server::log;
use crate::arena::options::hamle_exe;

/// `hamle ladder admin DIR add|remove|pause|resume|list …`
#[derive(Args, Debug)]
pub struct AdminArgs {
    /// The server's folder (as given to `hamle ladder serve`).
    pub dir: PathBuf,
    #[command(subcommand)]
    pub action: AdminAction,
}

#[derive(Subcommand, Debug)]
pub enum AdminAction {
    /// Add a local bot to a ladder (a bot file of its folder or a command line, as in
    /// server.toml), or bring a removed one back.
    Add { ladder: String, bot: String },
    /// Take a bot out of a ladder: it plays no new pairing; its games and ratings stay.
    Remove {
        ladder: String,
        name: String,
        /// The version of a remote bot (local bots have none).
        #[arg(long, default_value = "")]
        version: String,
    },
    /// Start no new pairing in a ladder (games in progress finish).
    Pause { ladder: String },
    /// Pair a paused ladder again.
    Resume { ladder: String },
    /// The ladders and their bots, with their state.
    List,
}

/// Runs `hamle ladder admin`: exit 0, or 2 with the reason.
pub fn run_admin_command(args: AdminArgs) -> ExitCode {
    match admin(&args) {
        Ok(said) => {
            println!("{said}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("hamle ladder admin: {message}");
            ExitCode::from(2)
        }
    }
}

fn admin(args: &AdminArgs) -> Result<String, String> {
    let config = ServerConfig::load(&args.dir)?;
    let path = args.dir.join(schema::DATABASE_FILE);
    let db = schema::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let failed = |e: rusqlite::Error| format!("{}: {e}", path.display());
    for ladder in &config.ladders {
        db.execute(
            "INSERT OR IGNORE INTO ladders (name, game, settings) VALUES (?1, ?2, ?3)",
            params![ladder.name, ladder.game.to_string(), ladder.settings],
        )
        .map_err(failed)?;
    }
    let known = |name: &str| {
        config.ladder(name).map(drop).ok_or_else(|| {
            let names: Vec<&str> = config.ladders.iter().map(|l| l.name.as_str()).collect();
            format!(
                "no ladder is named '{name}' (the ladders: {})",
                names.join(", ")
            )
        })
    };
    match &args.action {
        AdminAction::Add { ladder, bot } => {
            known(ladder)?;
            add(&db, &config, ladder, bot)
        }
        AdminAction::Remove {
            ladder,
            name,
            version,
        } => {
            known(ladder)?;
            remove(&db, ladder, name, version)
        }
        AdminAction::Pause { ladder } => {
            known(ladder)?;
            pause(&db, ladder, true).map_err(failed)
        }
        AdminAction::Resume { ladder } => {
            known(ladder)?;
            pause(&db, ladder, false).map_err(failed)
        }
        AdminAction::List => list(&db).map_err(failed),
    }
}

fn add(db: &Connection, config: &ServerConfig, ladder: &str, spec: &str) -> Result<String, String> {
    let Some(settings) = config.ladder(ladder) else {
        return Err(format!("no ladder is named '{ladder}'"));
    };
    let bot = settings.bot(spec)?;
    bot.launch(&hamle_exe(), None).map_err(|e| e.to_string())?;
    let said = format!("bot {} added to {ladder}", bot.name);
    let written = db
        .execute(
            "INSERT INTO bots (ladder, name, kind, command, joined) VALUES (?1, ?2, 'local', ?3, ?4)
             ON CONFLICT (ladder, name, version) DO UPDATE SET removed = 0, command = ?3
             WHERE kind = 'local'",
            params![ladder, bot.name, spec, now_text()],
        )
        .and_then(|changed| {
            log(db, &said)?;
            Ok(changed)
        })
        .map_err(|e| e.to_string())?;
    if written == 0 {
        return Err(format!(
            "{ladder} already has a remote bot named {}: give this one another name (NAME=BOT)",
            bot.name
        ));
    }
    Ok(said)
}

fn remove(db: &Connection, ladder: &str, name: &str, version: &str) -> Result<String, String> {
    let changed = db
        .execute(
            "UPDATE bots SET removed = 1 WHERE ladder = ?1 AND name = ?2 AND version = ?3",
            params![ladder, name, version],
        )
        .map_err(|e| e.to_string())?;
    if changed == 0 {
        let names: Vec<String> = bot_names(db, ladder).map_err(|e| e.to_string())?;
        return Err(format!(
            "{ladder} has no bot '{name}'{} (its bots: {})",
            if version.is_empty() {
                String::new()
            } else {
                format!(" version '{version}'")
            },
            names.join(", ")
        ));
    }
    let said = format!("bot {name} removed from {ladder}");
    log(db, &said).map_err(|e| e.to_string())?;
    Ok(said)
}

fn bot_names(db: &Connection, ladder: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement =
        db.prepare("SELECT name, version FROM bots WHERE ladder = ?1 AND removed = 0 ORDER BY id")?;
    let rows = statement.query_map([ladder], |row| {
        let (name, version): (String, String) = (row.get(0)?, row.get(1)?);
        Ok(if version.is_empty() {
            name
        } else {
            format!("{name} --version {version}")
        })
    })?;
    rows.collect()
}

fn pause(db: &Connection, ladder: &str, paused: bool) -> rusqlite::Result<String> {
    db.execute(
        "UPDATE ladders SET paused = ?2 WHERE name = ?1",
        params![ladder, paused],
    )?;
    let said = format!("{ladder} {}", if paused { "paused" } else { "resumed" });
    log(db, &said)?;
    Ok(said)
}

/// One line a ladder, then one a bot: kind, games finished, state.
fn list(db: &Connection) -> rusqlite::Result<String> {
    let mut out = Vec::new();
    let mut ladders = db.prepare("SELECT name, game, paused FROM ladders ORDER BY name")?;
    let rows: Vec<(String, String, bool)> = ladders
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (name, game, paused) in rows {
        out.push(format!(
            "{name} ({game}){}",
            if paused { ", paused" } else { "" }
        ));
        let mut bots = db.prepare(
            "SELECT b.name, b.version, b.kind, b.removed,
                    (SELECT count(*) FROM games g WHERE g.status = 'finished' AND (g.first = b.id OR g.second = b.id))
             FROM bots b WHERE b.ladder = ?1 ORDER BY b.id",
        )?;
        let lines = bots.query_map([&name], |row| {
            let (bot, version, kind, removed, games): (String, String, String, bool, i64) = (
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            );
            let version = if version.is_empty() {
                String::new()
            } else {
                format!(" {version}")
            };
            let state = if removed { ", removed" } else { "" };
            Ok(format!("  {bot}{version} ({kind}, {games} games{state})"))
        })?;
        for line in lines {
            out.push(line?);
        }
    }
    Ok(out.join("\n"))
}
