//! Starting the app in a harness, and small helpers to drive it.

use std::path::PathBuf;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::gui::app::{App, Startup};
use crate::gui::files::ScriptedDialogs;
use crate::gui::prefs::{Prefs, ThemeChoice};

/// The window size every test and snapshot uses.
pub const SIZE: egui::Vec2 = egui::vec2(1360.0, 860.0);

/// The app on a campaign kept in memory (no files), light theme.
pub fn app_with(
    campaign: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    answers: Vec<Option<PathBuf>>,
) -> Harness<'static, App> {
    let prefs = Prefs {
        theme: ThemeChoice::Light,
        ..Prefs::default()
    };
    Harness::builder()
        .with_size(SIZE)
        .with_pixels_per_point(1.0)
        .with_theme(egui::Theme::Light)
        .build_eframe(move |cc| {
            App::with_prefs(
                &cc.egui_ctx,
                prefs,
                Startup {
                    campaign,
                    data_dir,
                    dialogs: Box::new(ScriptedDialogs::new(answers)),
                    screenshot: None,
                    restore_last: false,
                    started: std::time::Instant::now(),
                },
            )
        })
}

/// The app on a campaign kept in memory.
pub fn app() -> Harness<'static, App> {
    app_with(None, None, Vec::new())
}

/// Click the node with this exact label and let the app settle.
pub fn click(h: &mut Harness<'_, App>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// Open a menu of the menu bar and click one of its items (the item's
/// label may carry its shortcut; a panel button with the same words comes
/// after it).
pub fn menu(h: &mut Harness<'_, App>, menu: &str, item: &str) {
    click(h, menu);
    // The open menu is drawn with the menu bar, before the panels.
    let node = h
        .get_all_by_label_contains(item)
        .next()
        .unwrap_or_else(|| panic!("no menu item {item}"));
    node.click();
    h.run();
}

/// Type into the text field labelled `label`, replacing what it holds.
pub fn type_into(h: &mut Harness<'_, App>, label: &str, text: &str) {
    h.get_by_label(label).click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Start a battle through the New battle dialog.
pub fn new_battle(h: &mut Harness<'_, App>, game_label: &str, seed: u64, real_dice: bool) {
    click(h, "New battle…");
    click(h, game_label);
    type_into(h, "Seed:", &seed.to_string());
    if real_dice {
        click(h, "We roll real dice and type them in");
    }
    click(h, "Start battle");
}

/// The open battle's cursor position on its line and the line's length.
pub fn position(h: &Harness<'_, App>) -> (usize, usize) {
    let ob = h.state().open.as_ref().expect("a battle is open");
    (ob.view.pos, ob.view.line.positions() - 1)
}
