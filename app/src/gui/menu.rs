//! The menu bar: File, Edit, View, Help.

use eframe::egui::{self, Button, KeyboardShortcut, Ui};

use super::board::Camera;
use super::command::{AppCommand, FileRequest};
use super::prefs::{Prefs, ThemeChoice};
use super::shortcuts;

/// Which panels beside the board are shown (the board takes the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PanelsShown {
    /// The campaign browser and branches, on the left.
    pub browser: bool,
    /// The selection, the entry at the cursor and the dice tray, on the right.
    pub side: bool,
}

/// What the menus need to know to enable their items.
pub struct MenuContext {
    pub battle_open: bool,
    pub can_undo: bool,
    pub can_redo: bool,
    pub show_branches: bool,
    /// Every seat's hidden information is shown (hot-seat curtain off).
    pub reveal_hidden: bool,
    pub show_campaign: bool,
    /// A campaign file of this machine is open for writing (a copy can
    /// be merged into it).
    pub campaign_file: bool,
}

fn item(ui: &mut Ui, text: &str, shortcut: Option<&KeyboardShortcut>, enabled: bool) -> bool {
    let mut b = Button::new(text);
    if let Some(s) = shortcut {
        b = b.shortcut_text(ui.ctx().format_shortcut(s));
    }
    ui.add_enabled(enabled, b).clicked()
}

/// The menu bar. View settings change `prefs` and `camera` directly (they
/// are UI state); everything else is pushed as a command.
pub fn menu_bar_ui(
    ui: &mut Ui,
    m: &MenuContext,
    prefs: &mut Prefs,
    camera: &mut Camera,
    panels: &mut PanelsShown,
    commands: &mut Vec<AppCommand>,
) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if item(ui, "New campaign…", None, true) {
                commands.push(AppCommand::AskFile(FileRequest::NewCampaign));
            }
            if item(ui, "Open campaign…", Some(&shortcuts::OPEN), true) {
                commands.push(AppCommand::AskFile(FileRequest::OpenCampaign));
            }
            ui.menu_button("Open recent", |ui| {
                if prefs.recent.is_empty() {
                    ui.weak("No recent campaigns");
                }
                for path in &prefs.recent {
                    let name = path.file_stem().map_or_else(
                        || path.display().to_string(),
                        |s| s.to_string_lossy().into_owned(),
                    );
                    if ui
                        .button(name)
                        .on_hover_text(path.display().to_string())
                        .clicked()
                    {
                        commands.push(AppCommand::OpenCampaign(path.clone()));
                    }
                }
            });
            if item(ui, "Connect to a club…", None, true) {
                commands.push(AppCommand::ShowConnectClub);
            }
            ui.separator();
            if item(ui, "New battle…", Some(&shortcuts::NEW_BATTLE), true) {
                commands.push(AppCommand::ShowNewBattle);
            }
            if item(ui, "New battle from a position file…", None, true) {
                commands.push(AppCommand::AskFile(FileRequest::PositionFile));
            }
            if item(ui, "Import battle…", None, true) {
                commands.push(AppCommand::AskFile(FileRequest::ImportBattle));
            }
            if item(ui, "Export battle…", None, m.battle_open) {
                commands.push(AppCommand::AskFile(FileRequest::ExportBattle));
            }
            if item(ui, "Export board picture…", None, m.battle_open) {
                commands.push(AppCommand::AskFile(FileRequest::ExportPicture));
            }
            if item(ui, "Export roster sheets", None, true) {
                commands.push(AppCommand::ExportRosterSheets);
            }
            if item(ui, "Export battle report…", None, m.battle_open) {
                commands.push(AppCommand::ShowReportExport);
            }
            ui.separator();
            // Another copy of this campaign file, from another machine.
            if item(ui, "Merge a copy…", None, m.campaign_file) {
                commands.push(AppCommand::AskFile(FileRequest::MergeCopy));
            }
            ui.separator();
            if item(ui, "Quit", None, true) {
                commands.push(AppCommand::Quit);
            }
        });
        ui.menu_button("Edit", |ui| {
            if item(ui, "Undo", Some(&shortcuts::UNDO), m.can_undo) {
                commands.push(AppCommand::Undo);
            }
            if item(ui, "Redo", Some(&shortcuts::REDO), m.can_redo) {
                commands.push(AppCommand::Redo);
            }
            ui.separator();
            // Shows the panel (View > Branches is the switch that hides it).
            if item(ui, "Branches…", None, m.battle_open) {
                commands.push(AppCommand::ShowBranches(true));
            }
            if item(ui, "Check this battle", None, m.battle_open) {
                commands.push(AppCommand::CheckBattle);
            }
        });
        ui.menu_button("View", |ui| {
            ui.label("Theme");
            ui.radio_value(&mut prefs.theme, ThemeChoice::System, "Follow the system");
            ui.radio_value(&mut prefs.theme, ThemeChoice::Light, "Light");
            ui.radio_value(&mut prefs.theme, ThemeChoice::Dark, "Dark");
            ui.separator();
            if item(ui, "Zoom in", Some(&shortcuts::ZOOM_IN), true) {
                camera.zoom = (camera.zoom * 1.25).min(super::board::ZOOM_RANGE.1);
            }
            if item(ui, "Zoom out", Some(&shortcuts::ZOOM_OUT), true) {
                camera.zoom = (camera.zoom * 0.8).max(super::board::ZOOM_RANGE.0);
            }
            if item(ui, "Opening view", Some(&shortcuts::ZOOM_FIT), true) {
                camera.reset();
            }
            ui.separator();
            let toggle = |ui: &mut Ui, on: &mut bool, text: &str, key: &KeyboardShortcut| {
                let text = format!("{text} ({})", ui.ctx().format_shortcut(key));
                ui.checkbox(on, text);
            };
            toggle(
                ui,
                &mut panels.browser,
                "Campaign panel",
                &shortcuts::TOGGLE_BROWSER,
            );
            toggle(ui, &mut panels.side, "Side panel", &shortcuts::TOGGLE_SIDE);
            ui.checkbox(&mut prefs.show_table, "Entries table");
            if item(ui, "Luck panel", None, m.battle_open) {
                commands.push(AppCommand::ShowLuck);
            }
            let mut b = m.show_branches;
            if ui.checkbox(&mut b, "Branches").changed() {
                commands.push(AppCommand::ShowBranches(b));
            }
            let mut c = m.show_campaign;
            if ui
                .checkbox(&mut c, "Campaign: rosters and experience")
                .changed()
            {
                commands.push(AppCommand::ShowCampaign(c));
            }
            ui.checkbox(&mut prefs.show_test_games, "Offer test games");
            let mut r = m.reveal_hidden;
            if ui
                .checkbox(&mut r, "Show every seat's hidden cards")
                .on_hover_text(
                    "Turns the hot-seat curtain off: every hand and secret is shown to whoever \
                     looks at the screen. For reviewing a battle, not for playing one.",
                )
                .changed()
            {
                commands.push(AppCommand::RevealHidden(r));
            }
        });
        ui.menu_button("Help", |ui| {
            if item(ui, "Getting started", None, true) {
                commands.push(AppCommand::ShowGettingStarted);
            }
            if item(ui, "Legend and player aid", None, true) {
                commands.push(AppCommand::ShowPlayerAid);
            }
            if item(ui, "Keyboard shortcuts", None, true) {
                commands.push(AppCommand::ShowShortcuts);
            }
            if item(ui, "About Xenolog", None, true) {
                commands.push(AppCommand::ShowAbout);
            }
        });
    });
}
