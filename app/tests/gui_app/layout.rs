//! The layout at the smallest window the app allows: the panels start in
//! proportion to the window and the board keeps a fair share of it.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::support::{BOARD, shot};
use crate::gui::MIN_WINDOW_SIZE;
use crate::gui::app::{App, Startup};
use crate::gui::files::ScriptedDialogs;
use crate::gui::menu::PanelsShown;
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

/// The sample campaign in a window of this size (light theme).
fn sample_at(size: egui::Vec2) -> (tempfile::TempDir, Harness<'static, App>) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_owned();
    let mut h = Harness::builder()
        .with_size(size)
        .with_pixels_per_point(1.0)
        .with_theme(egui::Theme::Light)
        .with_max_steps(8)
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
    (dir, h)
}

/// The board opens readable: it takes most of the window, and its counters
/// are big enough to read their numbers, at 1024x700 and at 1600x1000.
#[test]
fn the_board_opens_readable_at_1024x700() {
    board_opens_readable(1024.0, 700.0);
}

#[test]
fn the_board_opens_readable_at_1600x1000() {
    board_opens_readable(1600.0, 1000.0);
}

fn board_opens_readable(w: f32, hgt: f32) {
    {
        let (_dir, mut h) = sample_at(egui::vec2(w, hgt));
        shot(&mut h, &format!("board_{w}x{hgt}"));
        let board = h.get_by_label(BOARD).rect();
        let counters: Vec<f32> = h
            .get_all_by_label_contains("Marine Squad")
            .map(|n| n.rect())
            .filter(|r| board.contains_rect(*r))
            .map(|r| r.width().min(r.height()))
            .collect();
        assert!(!counters.is_empty(), "{w}x{hgt}: no counter on the board");
        let smallest = counters.iter().copied().fold(f32::INFINITY, f32::min);
        eprintln!(
            "{w}x{hgt}: board {}x{}, counters {smallest} px",
            board.width(),
            board.height()
        );
        assert!(
            board.width() * board.height() >= 0.4 * w * hgt,
            "{w}x{hgt}: the board is {}x{}",
            board.width(),
            board.height()
        );
        assert!(smallest >= 26.0, "{w}x{hgt}: counters {smallest} px across");
        // The reference picture, without the campaign panel (it shows the
        // temporary folder and today's date).
        h.state_mut().panels = Some(PanelsShown {
            browser: false,
            side: true,
        });
        h.run();
        h.snapshot(format!("app_{w}x{hgt}"));
    }
}
