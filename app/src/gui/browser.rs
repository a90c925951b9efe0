//! The campaign browser: the open campaign, its battles with game, date,
//! status and result, and the actions on them.

use eframe::egui::{self, Ui};

use super::command::{AppCommand, FileRequest};
use super::store::{BattleId, BattleSummary};
use super::widgets::{count, date};

/// Whether a game is a test game (View > Offer test games shows them).
pub fn is_test_game(id: &str) -> bool {
    xenolog_engine::games::games()
        .iter()
        .any(|g| g.id == id && g.test_only)
}

fn game_name(id: &str) -> String {
    xenolog_engine::games::games()
        .into_iter()
        .find(|g| g.id == id)
        .map_or_else(|| id.to_owned(), |g| g.name.to_owned())
}

/// Under the sample campaign's name: what it is, and where a new user's own
/// campaign begins.
pub const SAMPLE_WORDS: &str = "Made for you to look around in: open a battle below and play \
     on (Ctrl+Z takes back; nothing is lost). Your own battles: File > New campaign…";

/// The campaign header and its battles.
pub fn browser_ui(
    ui: &mut Ui,
    campaign: Option<(&str, Option<&std::path::Path>)>,
    battles: &[BattleSummary],
    open: Option<BattleId>,
    show_test_games: bool,
    remote: bool,
    commands: &mut Vec<AppCommand>,
) {
    match campaign {
        Some((name, path)) => {
            ui.heading(name);
            match path {
                Some(p) => {
                    ui.weak(p.display().to_string());
                    // What a new user opens on the first start: say what it
                    // is and where their own campaign begins.
                    if p.file_name() == Some(std::ffi::OsStr::new(super::store::SAMPLE_FILE)) {
                        ui.label(SAMPLE_WORDS);
                        if ui.button("Getting started…").clicked() {
                            commands.push(AppCommand::ShowGettingStarted);
                        }
                    }
                }
                // A club server's battles: not started here, nor imported.
                None if remote => {
                    ui.weak(
                        "Your seats in this club's battles, played through its server \
                         (File > Connect to a club).",
                    );
                }
                None => {
                    ui.weak("Kept in memory only: create or open a campaign file to keep it.");
                }
            }
        }
        None => {
            ui.heading("No campaign open");
        }
    }
    if !remote {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New battle…").clicked() {
                commands.push(AppCommand::ShowNewBattle);
            }
            if ui.button("Import battle…").clicked() {
                commands.push(AppCommand::AskFile(FileRequest::ImportBattle));
            }
        });
    }
    ui.separator();
    if battles.is_empty() {
        ui.weak("No battles yet. Start one with New battle.");
        return;
    }
    // Battles of test games are listed only while test games are offered
    // (the one open stays listed).
    let shown: Vec<&BattleSummary> = battles
        .iter()
        .filter(|b| show_test_games || !is_test_game(&b.game) || open == Some(b.id))
        .collect();
    ui.label(format!("Battles ({})", shown.len()));
    let hidden = battles.len() - shown.len();
    if hidden > 0 {
        ui.weak(format!(
            "Hidden: {}, of a game for testing the app, not one of the four to play \
             (View > Offer test games)",
            count(hidden as u64, "battle", "battles")
        ));
    }
    for b in shown {
        let selected = open == Some(b.id);
        // Long titles wrap rather than widen the panel past its size.
        let r = ui
            .add(egui::Button::selectable(selected, egui::RichText::new(&b.title).strong()).wrap());
        if r.clicked() && !selected {
            commands.push(AppCommand::OpenBattle(b.id));
        }
        let status = match &b.result {
            Some(result) => format!("{}: {result}", b.status),
            None => b.status.clone(),
        };
        ui.weak(format!(
            // The count is of every branch together; each branch's own
            // length is in the Branches panel.
            "{} · {} · {status} · {} on {}{}",
            game_name(&b.game),
            date(b.updated),
            count(b.entries, "entry", "entries"),
            if b.branches == 1 {
                "its one branch".to_owned()
            } else {
                format!("{} branches together", b.branches)
            },
            if b.dice_mode == super::store::DiceMode::Entered {
                " · real dice"
            } else {
                ""
            },
        ));
        ui.add_space(4.0);
    }
}
