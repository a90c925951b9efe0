//! The layout at the smallest window the app allows: the panels start in
//! proportion to the window and the board keeps a fair share of it.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::support::{BOARD, shot};
use crate::gui::MIN_WINDOW_SIZE;
use crate::gui::app::{App, Startup};
use crate::gui::files::ScriptedDialogs;
use crate::gui::prefs::{Prefs, ThemeChoice};

#[test]
fn at_the_smallest_window_the_board_keeps_half_the_width() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_owned();
    let [width, height] = MIN_WINDOW_SIZE;
    let mut h = Harness::builder()
        .with_size(egui::vec2(width, height))
        .with_pixels_per_point(1.0)
        .with_theme(egui::Theme::Light)
        .build_eframe(move |cc| {
            App::with_prefs(
                &cc.egui_ctx,
                Prefs {
                    theme: ThemeChoice::Light,
                    ..Prefs::default()
                },
                Startup {
                    campaign: None,
                    data_dir: Some(data),
                    dialogs: Box::new(ScriptedDialogs::new(Vec::new())),
                    screenshot: None,
                    restore_last: false,
                    started: std::time::Instant::now(),
                    sample: None,
                },
            )
        });
    h.run();
    shot(&mut h, "layout_smallest");
    let board = h.get_by_label(BOARD).rect();
    assert!(
        board.width() >= 0.5 * width,
        "the board is {} wide in a {width} window",
        board.width()
    );
    assert!(
        board.height() >= 0.45 * height,
        "the board is {} high in a {height} window",
        board.height()
    );
}
