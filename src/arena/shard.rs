//! What sharded runs share, matches and ladders alike: `--shard I/N` (which slice of the
//! run's pairs or pairings this process plays), and the pieces of their `merge`: the
//! settings files read back and compared (equal but for `shard`), the shards checked to
//! cover the run once (same N, no index twice, none missing), the output folder taken new
//! and locked, and folders copied.

use std::path::{Path, PathBuf};

use super::folder::{self, FolderKind, FolderLock};
use super::match_play::MatchError;
use super::store::{self, StoreError, write_atomically};
use crate::games::{GameKind, MatchFlags};
use clap::{Args, FromArgMatches};

/// `--shard I/N`: this run plays the pairs (a match) or pairings (a ladder) k, from 0,
/// with k mod N = I - 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// From 1.
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard must be I/N with 1 <= I <= N, got '{text}'");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether pair or pairing `number` (from 0) is this shard's.
    pub fn plays(&self, number: usize) -> bool {
        number % self.count == self.index - 1
    }
}

/// The settings key that names a folder's shard.
pub const SHARD_KEY: &str = "shard";

/// The `key = value` lines of a settings file, in order.
pub fn settings_lines(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_once(" = "))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// A run folder's settings read back for a merge: the file's lines and the shard they name.
pub struct ShardFolder {
    pub dir: PathBuf,
    pub settings: Vec<(String, String)>,
    /// `None` for a folder of an unsharded run.
    pub shard: Option<Shard>,
}

impl ShardFolder {
    /// Reads `dir/settings_file` (`match.txt`, `ladder.txt`); a folder without one, or with
    /// a `shard` line that is not I/N, is an error naming it.
    pub fn read(dir: &Path, kind: FolderKind) -> Result<ShardFolder, MatchError> {
        let path = dir.join(kind.marker);
        if !path.is_file() {
            return Err(MatchError::Invalid(format!(
                "{} holds no {} ({} is missing)",
                dir.display(),
                kind.kind,
                kind.marker
            )));
        }
        let text = folder::read_text(&path).map_err(io(&path))?;
        let settings = settings_lines(&text);
        let shard = match settings.iter().find(|(key, _)| key == SHARD_KEY) {
            Some((_, value)) => Some(value.parse().map_err(|why| {
                MatchError::Invalid(format!("{}: {SHARD_KEY} line: {why}", path.display()))
            })?),
            None => None,
        };
        Ok(ShardFolder {
            dir: dir.to_owned(),
            settings,
            shard,
        })
    }

    /// The settings without the `shard` line: what every shard of one run shares.
    pub fn shared_settings(&self) -> Vec<(String, String)> {
        self.settings
            .iter()
            .filter(|(key, _)| key != SHARD_KEY)
            .cloned()
            .collect()
    }
}

/// Every folder's settings equal the first's but for `shard` (the hamle build that played
/// them included); the first that differs is an error naming each difference.
pub fn check_same_run(folders: &[ShardFolder], kind: FolderKind) -> Result<(), MatchError> {
    let Some(first) = folders.first() else {
        return Ok(());
    };
    let reference = first.shared_settings();
    for folder in &folders[1..] {
        let other = folder.shared_settings();
        if other == reference {
            continue;
        }
        let mut differences = Vec::new();
        for (key, value) in &reference {
            let now = other
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str());
            if now != Some(value.as_str()) {
                let why = if key == store::BUILD_KEY {
                    " (the shards were played by different hamle builds: play every shard with one build)"
                } else {
                    ""
                };
                differences.push(format!(
                    "{key} is '{value}' in {}, '{}' here{why}",
                    first.dir.display(),
                    now.unwrap_or("")
                ));
            }
        }
        for (key, value) in &other {
            if !reference.iter().any(|(k, _)| k == key) {
                differences.push(format!(
                    "{key} = '{value}' is not in {}",
                    first.dir.display()
                ));
            }
        }
        if differences.is_empty() {
            differences.push("the settings are in another order".to_owned());
        }
        return Err(MatchError::Invalid(format!(
            "{} is not a shard of the same {}: {}",
            folder.dir.join(kind.marker).display(),
            kind.kind,
            differences.join("; ")
        )));
    }
    Ok(())
}

/// The shards the folders hold cover one run at most once: all sharded the same N (an
/// unsharded folder counts as 1/1), no index twice. Returns the shards no folder holds.
pub fn missing_shards(folders: &[ShardFolder]) -> Result<Vec<Shard>, MatchError> {
    let shard_of = |folder: &ShardFolder| folder.shard.unwrap_or(Shard { index: 1, count: 1 });
    let Some(first) = folders.first() else {
        return Ok(Vec::new());
    };
    let count = shard_of(first).count;
    let mut holders: Vec<Option<&Path>> = vec![None; count];
    for folder in folders {
        let shard = shard_of(folder);
        if shard.count != count {
            return Err(MatchError::Invalid(format!(
                "{} is shard {shard} but {} is shard {}: the shards of one run are all I/N with the same N",
                folder.dir.display(),
                first.dir.display(),
                shard_of(first)
            )));
        }
        if let Some(before) = holders[shard.index - 1].replace(&folder.dir) {
            return Err(MatchError::Invalid(format!(
                "{} and {} are both shard {shard}: give each shard once",
                before.display(),
                folder.dir.display()
            )));
        }
    }
    Ok((0..count)
        .filter(|&i| holders[i].is_none())
        .map(|i| Shard {
            index: i + 1,
            count,
        })
        .collect())
}

/// A merge's output folder must be new or empty: anything in it is refused, naming it,
/// before anything is read or written.
pub fn check_empty_output(out: &Path) -> Result<(), MatchError> {
    match std::fs::read_dir(out) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(io(out)(error)),
        Ok(mut entries) => match entries.next() {
            None => Ok(()),
            Some(entry) => {
                let name = entry.map_or_else(
                    |_| "an entry".to_owned(),
                    |e| e.file_name().to_string_lossy().into_owned(),
                );
                Err(MatchError::Invalid(format!(
                    "{} exists and is not empty (it holds {name}): merge into a new or empty folder",
                    out.display()
                )))
            }
        },
    }
}

/// Takes an empty or new folder for a run or a merge: checked, locked (the lock returned),
/// checked again under the lock, then its settings file written.
pub fn take_new_folder(
    dir: &Path,
    kind: FolderKind,
    settings_text: &str,
) -> Result<FolderLock, MatchError> {
    if let Some(in_use) = folder::in_use(dir) {
        return Err(in_use.into());
    }
    folder::check_new(dir, kind)?;
    let lock = FolderLock::take(dir)?;
    let path = dir.join(kind.marker);
    if path.exists() {
        return Err(MatchError::Store(StoreError::Exists {
            dir: dir.to_owned(),
        }));
    }
    folder::check_new(dir, kind)?;
    write_atomically(&path, settings_text.as_bytes())?;
    Ok(lock)
}

pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MatchError + '_ {
    move |source| {
        MatchError::Store(StoreError::Io {
            path: path.to_owned(),
            source,
        })
    }
}

/// Copies the folder `from` to `to`, files and subfolders (links and the like are left).
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), MatchError> {
    std::fs::create_dir_all(to).map_err(io(to))?;
    for entry in std::fs::read_dir(from).map_err(io(from))? {
        let entry = entry.map_err(io(from))?;
        let target = to.join(entry.file_name());
        let kind = entry.file_type().map_err(io(from))?;
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            crate::files::copy_regular(&entry.path(), &target)
                .map_err(super::store::StoreError::from)?;
        }
    }
    Ok(())
}

/// The seats' names of the game a run folder plays (`game = kulami` in its settings; Go
/// when a folder older than the other games names none). The names do not depend on the
/// game's settings, so its defaults do.
pub fn folder_sides(settings: &[(String, String)]) -> Result<[String; 2], MatchError> {
    let game = settings
        .iter()
        .find(|(key, _)| key == "game")
        .map_or("go", |(_, value)| value.as_str());
    let kind: GameKind = game.parse().map_err(MatchError::Invalid)?;
    let command = MatchFlags::augment_args(clap::Command::new("hamle"));
    let defaults = command
        .try_get_matches_from(["hamle"])
        .and_then(|matches| MatchFlags::from_arg_matches(&matches))
        .map_err(|error| MatchError::Invalid(format!("the game's default settings: {error}")))?;
    let settings = crate::games::settings(kind, &defaults).map_err(MatchError::Invalid)?;
    Ok(store::seat_sides(settings.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(dir: &str, shard: Option<&str>) -> ShardFolder {
        ShardFolder {
            dir: PathBuf::from(dir),
            settings: Vec::new(),
            shard: shard.map(|s| s.parse().expect("I/N")),
        }
    }

    #[test]
    fn shards_must_cover_a_run_once() {
        let missing = missing_shards(&[folder("a", Some("1/3")), folder("c", Some("3/3"))])
            .expect("no clash");
        assert_eq!(missing, [Shard { index: 2, count: 3 }]);
        let twice = missing_shards(&[folder("a", Some("1/2")), folder("b", Some("1/2"))]);
        assert!(twice.is_err_and(|e| e.to_string().contains("both shard 1/2")));
        let other_n = missing_shards(&[folder("a", Some("1/2")), folder("b", Some("2/3"))]);
        assert!(other_n.is_err_and(|e| e.to_string().contains("same N")));
        assert!("0/2".parse::<Shard>().is_err() && "3/2".parse::<Shard>().is_err());
        assert!(Shard { index: 2, count: 3 }.plays(4));
    }
}
