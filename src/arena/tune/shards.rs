//! A tune sharded across machines (`--shard I/N`, every shard the same `--out` on a shared
//! file system, as Slurm's array jobs have). SPSA's iterations depend on each other, so the
//! shards meet at every iteration: each plays its pairs of the iteration's match into a
//! folder of its own, `iterations/0001/shard-I`, exactly as `hamle match --shard I/N` would
//! (the same pair seeds, so the same games as one machine plays), then waits until every
//! other shard's folder holds its games, and steps θ by the results of all of them. Every
//! shard thus computes the same θ as an unsharded run, and the next iteration's flips and
//! seeds agree without any message between them but the folders.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::arena::match_play::{MatchError, MatchSettings};
use crate::arena::shard::Shard;
use crate::arena::store::{self, GameResult, SETTINGS_FILE, check_settings};

/// How often a shard looks at the others' folders while it waits.
const POLL: Duration = Duration::from_millis(200);

/// Where shard `shard` keeps its part of the match whose whole folder is `dir`.
pub fn shard_dir(dir: &Path, shard: Shard) -> PathBuf {
    dir.join(format!("shard-{}", shard.index))
}

/// Every shard's results of the match `settings` describes (its `out_dir` the whole
/// match's folder, its `shard` this process's, whose own results are `own`): waits until
/// each other shard's folder holds all the games its pairs make, checking that it played
/// the same match. A shard still missing after `wait` is an error naming it; the run
/// resumes with `--resume` once it is there.
pub fn gather(
    settings: &MatchSettings,
    whole_dir: &Path,
    own: Vec<GameResult>,
    wait: Duration,
) -> Result<Vec<GameResult>, MatchError> {
    let Some(mine) = settings.shard else {
        return Ok(own);
    };
    let mut all = own;
    let started = Instant::now();
    let mut told = false;
    for index in (1..=mine.count).filter(|&i| i != mine.index) {
        let shard = Shard {
            index,
            count: mine.count,
        };
        let mut other = settings.clone();
        other.shard = Some(shard);
        other.out_dir = shard_dir(whole_dir, shard);
        let results = loop {
            if let Some(results) = finished_part(&other)? {
                break results;
            }
            if started.elapsed() >= wait {
                return Err(MatchError::Invalid(format!(
                    "shard {index}/{} has not played its games in {} after {} s; \
                     run it (or rerun this shard with --resume once it has)",
                    mine.count,
                    other.out_dir.display(),
                    wait.as_secs()
                )));
            }
            if !told {
                told = true;
                eprintln!(
                    "{}waiting for shard {index}/{} ({})",
                    settings.label,
                    mine.count,
                    other.out_dir.display()
                );
            }
            std::thread::sleep(POLL);
        };
        all.extend(results);
    }
    all.sort_by_key(|result| result.game);
    Ok(all)
}

/// The results of the shard `other` describes, once it has played all its games; `None`
/// while it has not (no folder yet, or games still to come). A folder of another match
/// (other settings) is an error, never waited on.
fn finished_part(other: &MatchSettings) -> Result<Option<Vec<GameResult>>, MatchError> {
    let settings_path = other.out_dir.join(SETTINGS_FILE);
    if !settings_path.is_file() {
        return Ok(None);
    }
    check_settings(&other.out_dir, &settings_path, &other.decisive())?;
    let results = store::read_results(&other.out_dir.join(store::RESULTS_FILE))?;
    Ok((results.len() >= other.planned_games()).then_some(results))
}
