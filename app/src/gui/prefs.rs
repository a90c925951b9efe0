//! The player's UI preferences, kept by eframe between runs. Game data is
//! never here: it lives in the campaign file.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// How many recent campaigns the File menu lists.
const RECENT: usize = 8;

/// Light, dark, or whatever the system uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThemeChoice {
    #[default]
    System,
    Light,
    Dark,
}

impl ThemeChoice {
    /// The same choice in egui's terms.
    pub fn to_egui(self) -> eframe::egui::ThemePreference {
        match self {
            Self::System => eframe::egui::ThemePreference::System,
            Self::Light => eframe::egui::ThemePreference::Light,
            Self::Dark => eframe::egui::ThemePreference::Dark,
        }
    }
}

/// Persisted UI preferences (eframe storage key [`Prefs::KEY`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    pub theme: ThemeChoice,
    /// Most recent first.
    pub recent: Vec<PathBuf>,
    pub last_campaign: Option<PathBuf>,
    /// Board zoom relative to fitting the window.
    pub zoom: f32,
    /// Entries played back per second.
    pub playback_speed: f32,
    pub show_table: bool,
    pub show_test_games: bool,
    /// The battle last looked at in each campaign file.
    pub last_battle: std::collections::BTreeMap<PathBuf, i64>,
    /// What the New battle dialog was last started with (the player's habit,
    /// not the campaign's: kept here, not in the campaign file).
    pub new_battle: Option<NewBattleChoices>,
}

/// The New battle dialog's choices as last started: the game, its scenario,
/// the dice and taking back, the game's options and its own part of the form
/// (as JSON text, which any storage keeps).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NewBattleChoices {
    pub game: String,
    pub scenario: String,
    pub entered_dice: bool,
    pub strict: bool,
    pub options_json: String,
    pub extra_json: String,
}

impl Default for Prefs {
    fn default() -> Self {
        Self {
            theme: ThemeChoice::System,
            recent: Vec::new(),
            last_campaign: None,
            zoom: 1.0,
            playback_speed: 4.0,
            show_table: true,
            show_test_games: false,
            last_battle: std::collections::BTreeMap::new(),
            new_battle: None,
        }
    }
}

impl Prefs {
    /// The key of the preferences in eframe's storage.
    pub const KEY: &'static str = "xenolog-prefs";

    /// Remember a campaign as the last one and first of the recent list.
    pub fn opened(&mut self, path: &std::path::Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_owned());
        self.recent.truncate(RECENT);
        self.last_campaign = Some(path.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_list_is_unique_newest_first_and_bounded() {
        let mut p = Prefs::default();
        for i in 0..10 {
            p.opened(std::path::Path::new(&format!("/c/{i}.xenolog")));
        }
        p.opened(std::path::Path::new("/c/5.xenolog"));
        assert_eq!(p.recent.len(), RECENT);
        assert_eq!(p.recent[0], PathBuf::from("/c/5.xenolog"));
        assert_eq!(
            p.recent.iter().filter(|r| r.ends_with("5.xenolog")).count(),
            1
        );
        assert_eq!(p.last_campaign, Some(PathBuf::from("/c/5.xenolog")));
    }

    #[test]
    fn old_prefs_with_missing_fields_still_load() {
        let p: Prefs = serde_json::from_str(r#"{"theme":"Dark"}"#).unwrap();
        assert_eq!(p.theme, ThemeChoice::Dark);
        assert_eq!(p.zoom, 1.0);
    }
}
