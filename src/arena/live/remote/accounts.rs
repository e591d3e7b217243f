//! Remote bots' accounts and entries in the ladder's database: a name's password is set
//! at its first login and kept only as an argon2id hash with its own random salt (a PHC
//! string, `$argon2id$v=19$…`); every later login of the name must give it. A refusal is
//! written to the `log` table for the organiser.

use std::path::Path;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use rusqlite::{Connection, OptionalExtension, params};

use super::super::schema;
use super::wire::Login;
use crate::arena::bots::{GameKind, check_name};

/// The longest password taken (argon2 would take more; nobody types more).
pub const MAX_PASSWORD_BYTES: usize = 256;

/// The longest version.
pub const MAX_VERSION_CHARS: usize = 32;

/// A login let in: the bot's entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Admitted {
    pub bot_id: i64,
    pub game: GameKind,
    /// The account was made by this login.
    pub created: bool,
}

/// Why a login is refused: said to the client, and logged when `logged`.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub reason: String,
    pub logged: bool,
}

fn refuse(reason: impl Into<String>) -> Refusal {
    Refusal {
        reason: reason.into(),
        logged: false,
    }
}

/// The login's fields alone, before the database is asked: names that are safe file names
/// (they name match folders and records), a password of sensible length.
pub fn check_fields(login: &Login) -> Result<(), Refusal> {
    check_name(&login.name).map_err(refuse)?;
    if !login.version.is_empty() {
        check_name(&login.version).map_err(|why| refuse(format!("version: {why}")))?;
        if login.version.chars().count() > MAX_VERSION_CHARS
            || entry_name(&login.name, &login.version).chars().count()
                > crate::arena::bots::MAX_NAME_LENGTH
        {
            return Err(refuse(format!(
                "the name and version together are too long (at most {} characters)",
                crate::arena::bots::MAX_NAME_LENGTH
            )));
        }
    }
    if login.ladder.is_empty() || login.ladder.len() > 128 || login.ladder.contains('\0') {
        return Err(refuse("the ladder's name is empty or too long"));
    }
    if login.password.is_empty() || login.password.len() > MAX_PASSWORD_BYTES {
        return Err(refuse(format!(
            "the password must hold 1 to {MAX_PASSWORD_BYTES} bytes"
        )));
    }
    Ok(())
}

/// The name a bot plays under in matches: NAME, or NAME-VERSION.
pub fn entry_name(name: &str, version: &str) -> String {
    if version.is_empty() {
        name.to_owned()
    } else {
        format!("{name}-{version}")
    }
}

/// Checks the login against the database and makes what it needs: the account at a name's
/// first login, the bot's entry (kind 'remote') at its first login to a ladder. Slow on
/// purpose (argon2): run it on a blocking thread.
pub fn admit(dir: &Path, login: &Login, from: &str) -> Result<Admitted, Refusal> {
    let database = schema::open(&dir.join(schema::DATABASE_FILE))
        .map_err(|error| refuse(format!("the server's database fails: {error}")))?;
    let outcome = admit_in(&database, login);
    match &outcome {
        Err(refusal) if refusal.logged => log(
            &database,
            &format!(
                "login of remote bot {} refused from {from}: {}",
                login.name, refusal.reason
            ),
        ),
        Ok(admitted) if admitted.created => log(
            &database,
            &format!("account {} created from {from}", login.name),
        ),
        _ => {}
    }
    outcome
}

fn admit_in(database: &Connection, login: &Login) -> Result<Admitted, Refusal> {
    let failed = |error: rusqlite::Error| refuse(format!("the server's database fails: {error}"));
    let game: Option<String> = database
        .query_row(
            "SELECT game FROM ladders WHERE name = ?1",
            [&login.ladder],
            |row| row.get(0),
        )
        .optional()
        .map_err(failed)?;
    let Some(game) = game else {
        return Err(refuse(format!(
            "no ladder named '{}' on this server",
            crate::text::shorten_to(&login.ladder, 60)
        )));
    };
    let game: GameKind = game
        .parse()
        .map_err(|why: String| refuse(format!("the ladder's game: {why}")))?;
    let local: bool = database
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM bots WHERE name = ?1 AND kind = 'local')",
            [&login.name],
            |row| row.get(0),
        )
        .map_err(failed)?;
    if local {
        return Err(refuse(format!(
            "'{}' is the name of a bot the server runs itself; choose another",
            login.name
        )));
    }
    let created = check_password(database, login)?;
    let bot_id = entry(database, login).map_err(failed)??;
    Ok(Admitted {
        bot_id,
        game,
        created,
    })
}

/// The account's password checked, or the account made: true when made.
fn check_password(database: &Connection, login: &Login) -> Result<bool, Refusal> {
    let failed = |error: rusqlite::Error| refuse(format!("the server's database fails: {error}"));
    let hash: Option<String> = database
        .query_row(
            "SELECT hash FROM accounts WHERE name = ?1",
            [&login.name],
            |row| row.get(0),
        )
        .optional()
        .map_err(failed)?;
    let Some(hash) = hash else {
        let hash = hash_password(&login.password).map_err(refuse)?;
        // Two first logins at once: the other's account stands and this one is checked
        // against it.
        let made = database
            .execute(
                "INSERT OR IGNORE INTO accounts (name, hash, created) VALUES (?1, ?2, ?3)",
                params![login.name, hash, schema::now_text()],
            )
            .map_err(failed)?;
        return if made == 1 {
            Ok(true)
        } else {
            check_password(database, login)
        };
    };
    if verify_password(&login.password, &hash) {
        Ok(false)
    } else {
        Err(Refusal {
            reason: format!("wrong password for '{}'", login.name),
            logged: true,
        })
    }
}

/// The bot's entry in the ladder, made at its first login there; a removed entry is
/// refused (only the organiser puts it back).
fn entry(database: &Connection, login: &Login) -> rusqlite::Result<Result<i64, Refusal>> {
    let found: Option<(i64, i64)> = database
        .query_row(
            "SELECT id, removed FROM bots WHERE ladder = ?1 AND name = ?2 AND version = ?3",
            params![login.ladder, login.name, login.version],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
    match found {
        Some((_, removed)) if removed != 0 => Ok(Err(refuse(format!(
            "'{}' was removed from ladder '{}' by its organiser",
            entry_name(&login.name, &login.version),
            login.ladder
        )))),
        Some((id, _)) => Ok(Ok(id)),
        None => {
            database.execute(
                "INSERT INTO bots (ladder, name, version, kind, joined) VALUES (?1, ?2, ?3, 'remote', ?4)",
                params![login.ladder, login.name, login.version, schema::now_text()],
            )?;
            Ok(Ok(database.last_insert_rowid()))
        }
    }
}

/// A line in the organiser's `log` table; a failure to write it is not the client's.
pub fn log(database: &Connection, what: &str) {
    let _ = database.execute(
        "INSERT INTO log (at, what) VALUES (?1, ?2)",
        params![schema::now_text(), what],
    );
}

/// Writes one line to the log of the server in `dir`.
pub fn log_in(dir: &Path, what: &str) {
    if let Ok(database) = schema::open(&dir.join(schema::DATABASE_FILE)) {
        log(&database, what);
    }
}

/// The password's argon2id hash (default parameters, a fresh random salt), a PHC string.
pub fn hash_password(password: &str) -> Result<String, String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|error| format!("cannot hash the password: {error}"))
}

/// Whether `password` is the one `hash` (a PHC string) was made from.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_kept_as_salted_argon2_hashes() {
        let one = hash_password("secret").expect("hash");
        let two = hash_password("secret").expect("hash");
        assert!(one.starts_with("$argon2id$"), "{one}");
        assert_ne!(one, two, "each hash has its own salt");
        assert!(!one.contains("secret"));
        assert!(verify_password("secret", &one));
        assert!(!verify_password("Secret", &one));
        assert!(!verify_password("secret", "not a hash"));
    }

    #[test]
    fn logins_with_unsafe_names_are_refused_before_the_database() {
        let login = |name: &str, version: &str, password: &str| Login {
            name: name.into(),
            ladder: "go9".into(),
            version: version.into(),
            password: password.into(),
        };
        assert_eq!(check_fields(&login("rnd", "1.2", "pw")), Ok(()));
        for bad in [
            login("../x", "", "pw"),
            login("rnd", "a/b", "pw"),
            login("rnd", "", ""),
            login("rnd", &"v".repeat(40), "pw"),
            login("rnd", "", &"p".repeat(300)),
        ] {
            assert!(check_fields(&bad).is_err(), "{bad:?}");
        }
        assert_eq!(entry_name("rnd", ""), "rnd");
        assert_eq!(entry_name("rnd", "2"), "rnd-2");
    }
}
