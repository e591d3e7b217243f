//! `DIR/server.toml`: the ladders a server runs, each a game, the flags of `hamle match`
//! that decide its games, its local bots and an anchor:
//!
//! ```toml
//! [[ladder]]
//! name = "kulami"                       # a safe file name: it names DIR/games/kulami/
//! game = "kulami"                       # go, tavla, abalone, kulami or mangala
//! settings = "--max-moves 60 --seed 3"  # `hamle match` flags (optional)
//! bots = ["k100", "quick=hamle kulami --nodes 50"]
//! anchor = "k100"                       # held at Elo 0 (optional)
//! ```
//!
//! Bots are named as `hamle ladder` takes them: bot files from the ladder's bots folder
//! (`--bots` in `settings`, relative to DIR; default DIR/bots) or command lines.

use std::path::{Path, PathBuf};

use clap::Parser;
use serde::Deserialize;

use crate::arena::bots::{Bot, BotFolders, bot_or_command, check_name, split_words};
use crate::arena::match_play::MatchSettings;
use crate::arena::options::{ArenaOptions, match_settings};
use crate::games::GameKind;

/// The server's configuration file inside its folder.
pub const CONFIG_FILE: &str = "server.toml";

/// The largest server.toml read: a configuration, not a data set.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    ladder: Vec<LadderEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LadderEntry {
    name: String,
    game: String,
    #[serde(default)]
    settings: String,
    #[serde(default)]
    bots: Vec<String>,
    anchor: Option<String>,
}

/// The flags of `settings`, parsed by `hamle match`'s own definitions.
#[derive(Parser)]
#[command(no_binary_name = true, disable_help_flag = true)]
struct SettingsFlags {
    #[command(flatten)]
    options: ArenaOptions,
}

/// One ladder of the server, checked.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    pub name: String,
    pub game: GameKind,
    /// As written in server.toml (kept in the `ladders` table).
    pub settings: String,
    pub options: ArenaOptions,
    /// The bots server.toml names, as written.
    pub bots: Vec<String>,
    pub anchor: Option<String>,
    /// Where its bot files are found.
    pub folders: BotFolders,
}

/// The server's ladders.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub dir: PathBuf,
    pub ladders: Vec<LadderConfig>,
}

impl ServerConfig {
    /// Reads and checks `DIR/server.toml`: every ladder's settings parse and make a match,
    /// every bot it names is found and plays its game.
    pub fn load(dir: &Path) -> Result<ServerConfig, String> {
        let path = dir.join(CONFIG_FILE);
        let text = crate::files::read_capped_to_string(&path, MAX_CONFIG_BYTES)
            .map_err(|error| error.to_string())?;
        let file: ConfigFile =
            toml::from_str(&text).map_err(|error| format!("{}: {error}", path.display()))?;
        if file.ladder.is_empty() {
            return Err(format!(
                "{}: no [[ladder]]: name one, e.g. [[ladder]] name = \"go9\" game = \"go\" settings = \"--size 9\" bots = [\"a\", \"b\"]",
                path.display()
            ));
        }
        let mut ladders = Vec::new();
        for entry in file.ladder {
            let ladder = LadderConfig::check(dir, entry)
                .map_err(|message| format!("{}: {message}", path.display()))?;
            if ladders.iter().any(|l: &LadderConfig| l.name == ladder.name) {
                return Err(format!(
                    "{}: two ladders are named '{}'",
                    path.display(),
                    ladder.name
                ));
            }
            ladders.push(ladder);
        }
        Ok(ServerConfig {
            dir: dir.to_path_buf(),
            ladders,
        })
    }

    pub fn ladder(&self, name: &str) -> Option<&LadderConfig> {
        self.ladders.iter().find(|ladder| ladder.name == name)
    }
}

impl LadderConfig {
    /// The ladder as the database keeps it (`ladders.game` and `.settings`), without its
    /// bots: what the live page needs to rebuild a game's referee.
    pub fn stored(
        dir: &Path,
        name: &str,
        game: &str,
        settings: &str,
    ) -> Result<LadderConfig, String> {
        let entry = LadderEntry {
            name: name.to_owned(),
            game: game.to_owned(),
            settings: settings.to_owned(),
            bots: Vec::new(),
            anchor: None,
        };
        LadderConfig::check(dir, entry)
    }

    fn check(dir: &Path, entry: LadderEntry) -> Result<LadderConfig, String> {
        let name = entry.name;
        check_name(&name).map_err(|message| format!("ladder '{name}': {message}"))?;
        let game: GameKind = entry
            .game
            .parse()
            .map_err(|message| format!("ladder {name}: {message}"))?;
        let words = split_words(&entry.settings)
            .map_err(|message| format!("ladder {name}: settings: {message}"))?;
        let mut options = SettingsFlags::try_parse_from(words)
            .map_err(|error| format!("ladder {name}: settings: {}", error.render()))?
            .options;
        if options
            .game
            .as_deref()
            .is_some_and(|given| given != entry.game)
        {
            return Err(format!(
                "ladder {name}: settings say --game {} but the ladder's game is {}",
                options.game.as_deref().unwrap_or_default(),
                entry.game
            ));
        }
        options.game = Some(game.to_string());
        // Paths in the settings are the server folder's.
        options.bots = Some(dir.join(options.bots.take().unwrap_or_else(|| "bots".into())));
        options.openings = options.openings.take().map(|path| dir.join(path));
        let folders = BotFolders::only(options.bots.as_deref().unwrap_or(dir));
        let ladder = LadderConfig {
            name,
            game,
            settings: entry.settings,
            options,
            bots: entry.bots,
            anchor: entry.anchor,
            folders,
        };
        for spec in &ladder.bots {
            ladder.bot(spec)?;
        }
        // The settings make a match (the bots here only fill the seats).
        let probe = Bot::from_command_line("hamle go", game).map_err(|e| e.to_string())?;
        ladder.match_settings([probe.clone(), probe], PathBuf::new())?;
        Ok(ladder)
    }

    /// The bot `spec` names (a bot file of the ladder's folder or a command line), playing
    /// the ladder's game.
    pub fn bot(&self, spec: &str) -> Result<Bot, String> {
        let mut bot = bot_or_command(&self.folders, spec, self.game)
            .map_err(|error| format!("ladder {}: {error}", self.name))?;
        if !bot.source.as_os_str().is_empty() && bot.game != self.game {
            return Err(format!(
                "ladder {}: {} plays {}, not {} (defined in {})",
                self.name,
                bot.name,
                bot.game,
                self.game,
                bot.source.display()
            ));
        }
        bot.game = self.game;
        check_name(&bot.name).map_err(|message| format!("ladder {}: {message}", self.name))?;
        Ok(bot)
    }

    /// A pairing's match: its two games (colours swapped) played one after the other.
    pub fn match_settings(&self, bots: [Bot; 2], out: PathBuf) -> Result<MatchSettings, String> {
        let mut settings = match_settings(&self.options, bots, self.game, 2, out)
            .map_err(|message| format!("ladder {}: settings: {message}", self.name))?;
        settings.concurrency = 1;
        settings.progress = false;
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str, toml: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hamle-live-config-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join(CONFIG_FILE), toml).expect("write");
        dir
    }

    #[test]
    fn a_ladder_reads_its_game_settings_and_bots() {
        let dir = folder(
            "good",
            "[[ladder]]\nname = \"k\"\ngame = \"kulami\"\nsettings = \"--max-moves 30 --seed 4\"\nbots = [\"a=hamle kulami --nodes 10\"]\n",
        );
        let config = ServerConfig::load(&dir).expect("loads");
        let ladder = config.ladder("k").expect("ladder");
        assert_eq!(ladder.game, GameKind::Kulami);
        assert_eq!(ladder.options.seed, 4);
        assert_eq!(ladder.bot(&ladder.bots[0]).expect("bot").name, "a");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_settings_are_refused_with_the_ladder_named() {
        for (name, toml, expected) in [
            (
                "flag",
                "[[ladder]]\nname = \"k\"\ngame = \"kulami\"\nsettings = \"--frobnicate\"\n",
                "ladder k: settings",
            ),
            (
                "game",
                "[[ladder]]\nname = \"k\"\ngame = \"chess\"\n",
                "ladder k",
            ),
            (
                "name",
                "[[ladder]]\nname = \"../x\"\ngame = \"go\"\n",
                "ladder '../x'",
            ),
            (
                "key",
                "[[ladder]]\nname = \"k\"\ngame = \"go\"\ncolour = 1\n",
                "colour",
            ),
            ("none", "", "no [[ladder]]"),
        ] {
            let dir = folder(name, toml);
            let refused = ServerConfig::load(&dir).err().unwrap_or_default();
            assert!(refused.contains(expected), "{name}: {refused}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
