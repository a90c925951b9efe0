//! File > New battle from a position file: a moment of a game begun at a
//! real table (Alien, Night of the Saucers) or a scenario file of one's own
//! (Dimension X, Alien Invasion), read as the command line's `battle
//! --scenario-file FILE` reads it (the config's `scenario_text`).
//!
//! The file does not say its game, so the app asks each game to start from
//! it and keeps the ones that can: the New battle dialog opens on the first,
//! and offers only those. A game's default options may not fit a file made
//! at a bigger table (a hand of a third gang of Night of the Saucers), so a
//! game that refuses it is asked again with one number option at a time at
//! its largest (`players` 4); the dialog opens with that option set. A file
//! no game reads is refused with each game's own reason, naming the line,
//! and nothing changes.

use std::path::Path;

use serde_json::{Map, Value};
use xenolog_engine::OptionKind;
use xenolog_engine::games::GameInfo;

/// A position file the New battle dialog starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionFile {
    /// The file's name, for the dialog and the battle's title.
    pub name: String,
    pub text: String,
    /// The games that read it, in the registry's order.
    pub games: Vec<Reader>,
}

/// A game that reads a position file, and the option it needs set away
/// from its default to do so (none usually).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reader {
    pub game: &'static str,
    pub options: Map<String, Value>,
}

/// The largest file read as a position (a position file is a few lines).
const MAX_BYTES: u64 = 1 << 20;

impl PositionFile {
    /// Read `path` and find the games that start from it, or say why none
    /// does (in words, with each game's reason).
    pub fn read(path: &Path) -> Result<Self, String> {
        let shown = path.display();
        let size = std::fs::metadata(path)
            .map_err(|e| format!("{shown} cannot be read: {e}"))?
            .len();
        if size > MAX_BYTES {
            return Err(format!(
                "{shown} is {size} bytes long: a position file is a few lines of text, \
                 not a file of {} MB or more",
                MAX_BYTES >> 20
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| format!("{shown} cannot be read: {e}"))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{shown} is not a text file (it is not UTF-8)"))?;
        let name = path
            .file_name()
            .map_or_else(|| shown.to_string(), |n| n.to_string_lossy().into_owned());
        Self::from_text(name, text)
    }

    /// The games that start from `text`, or why none does.
    pub fn from_text(name: String, text: String) -> Result<Self, String> {
        let mut games = Vec::new();
        let mut refusals = Vec::new();
        for g in xenolog_engine::games::games() {
            // The test games read no position files (they ignore the key).
            if !g.available || g.test_only {
                continue;
            }
            match reads(&g, &text) {
                Ok(options) => games.push(Reader {
                    game: g.id,
                    options,
                }),
                Err(e) => refusals.push(format!("As {}: {e}.", g.name)),
            }
        }
        if games.is_empty() {
            return Err(format!(
                "{name} is not a position or scenario file of any game Xenolog plays.\n{}",
                refusals.join("\n")
            ));
        }
        Ok(Self { name, text, games })
    }

    /// The reading of the game `id`, if it starts from this file.
    pub fn reader(&self, id: &str) -> Option<&Reader> {
        self.games.iter().find(|r| r.game == id)
    }

    /// Whether the game `id` starts from this file.
    pub fn is_read_by(&self, id: &str) -> bool {
        self.reader(id).is_some()
    }
}

/// Whether `game` starts from `text`: with its defaults, else with one
/// number option at its largest (that option is returned); else the reason
/// its defaults refuse it.
fn reads(game: &GameInfo, text: &str) -> Result<Map<String, Value>, String> {
    let start = |options: &Map<String, Value>| {
        let mut config = options.clone();
        config.insert("scenario_text".into(), text.into());
        xenolog_engine::games::new_battle_with(game.id, 0, &Value::Object(config), false)
            .map(|_| ())
    };
    let first = match start(&Map::new()) {
        Ok(()) => return Ok(Map::new()),
        Err(e) => e.to_string(),
    };
    for o in &game.options {
        if let OptionKind::Number { max, default, .. } = o.kind
            && max != default
        {
            let wide = Map::from_iter([(o.key.to_owned(), Value::from(max))]);
            if start(&wide).is_ok() {
                return Ok(wide);
            }
        }
    }
    Err(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_of_alien_is_read_by_alien_alone() {
        let p = PositionFile::from_text("k.txt".into(), "character hicks at K6\n".into()).unwrap();
        assert_eq!(
            p.games,
            vec![Reader {
                game: "alien",
                options: Map::new()
            }]
        );
    }

    #[test]
    fn a_hand_of_a_third_gang_is_read_with_more_players() {
        let text = "hand nine_lives bat\n";
        let p = PositionFile::from_text("h.txt".into(), text.into()).unwrap();
        let r = p.reader("saucers").expect("Night of the Saucers reads it");
        assert_eq!(r.options.get("players"), Some(&Value::from(4)));
    }

    #[test]
    fn a_file_no_game_reads_says_each_games_reason() {
        let e = PositionFile::from_text("junk.txt".into(), "fly to the moon\n".into()).unwrap_err();
        assert!(
            e.starts_with("junk.txt is not a position or scenario file"),
            "{e}"
        );
        assert!(e.contains("As Alien:"), "{e}");
        assert!(e.contains("As Night of the Saucers:"), "{e}");
        assert!(e.contains("line 1"), "{e}");
    }
}
