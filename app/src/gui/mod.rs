//! The desktop app: campaign browser, boards drawn from the log, timeline
//! review, undo and branches (eframe/egui 0.37 on wgpu).
//!
//! The app holds no copy of game state: each frame it asks the open battle
//! (through a view cache that rebuilds only when the cursor, the branch or the
//! log changed) for the scene, the legal commands and the entries in words.
//! UI pieces are `*_ui` functions that push [`command::AppCommand`]s; the
//! [`app::App`] applies them after drawing. Game-specific details come from a
//! [`boards::BoardUi`] per game, with a generic default that works from the
//! scene and the command anchors alone. File dialogs sit behind
//! [`files::FileDialogs`] so tests never open one.

pub mod app;
pub mod board;
pub mod boards;
pub mod branches;
pub mod browser;
pub mod campaign_view;
pub mod club;
pub mod club_ui;
pub mod command;
pub mod dialogs;
pub mod files;
pub mod getting_started;
pub mod look;
pub mod menu;
pub mod merge;
pub mod messages;
pub mod open;
pub mod position;
pub mod prefs;
pub mod reports;
pub mod shortcuts;
pub mod side;
pub mod store;
pub mod timeline;
pub mod trust;
pub mod view;
pub mod widgets;

use std::path::PathBuf;

use eframe::egui;

/// The window's first size.
pub const WINDOW_SIZE: [f32; 2] = [1360.0, 860.0];
/// The window's smallest size: every panel still readable.
pub const MIN_WINDOW_SIZE: [f32; 2] = [960.0, 620.0];

/// Start the desktop app, optionally on a given campaign file.
///
/// With the environment variable `XENOLOG_SCREENSHOT=PATH` set, the app saves
/// a PNG of its first fully drawn frame to PATH and quits (for CI and docs).
pub fn run(campaign: Option<PathBuf>) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let screenshot = std::env::var_os("XENOLOG_SCREENSHOT").map(PathBuf::from);
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Xenolog")
            .with_app_id("xenolog")
            .with_inner_size(WINDOW_SIZE)
            .with_min_inner_size(MIN_WINDOW_SIZE)
            .with_drag_and_drop(true),
        ..Default::default()
    };
    let data_dir = store::data_dir();
    // On the very first start (no preferences saved yet) the sample campaign
    // is made while the window and the GPU come up, not after.
    let first_start = eframe::storage_dir("Xenolog").is_none_or(|d| !d.join("app.ron").exists());
    let sample = match (&campaign, &data_dir) {
        (None, Some(dir)) if first_start && !dir.join(store::SAMPLE_FILE).exists() => {
            let dir = dir.clone();
            Some(std::thread::spawn(move || store::make_sample(&dir)))
        }
        _ => None,
    };
    let startup = app::Startup {
        campaign,
        data_dir,
        sample,
        dialogs: Box::new(files::RfdDialogs),
        screenshot,
        restore_last: true,
        started,
    };
    eframe::run_native(
        "Xenolog",
        options,
        Box::new(|cc| Ok(Box::new(app::App::new(cc, startup)))),
    )
    .map_err(|e| anyhow::anyhow!("the Xenolog window could not be opened: {}", no_window(&e)))
}

/// Why the window could not be opened, with a way forward: where there is
/// no display at all (a server, a shell over ssh), that first, in words.
fn no_window(e: &dyn std::fmt::Display) -> String {
    let no_display = ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .all(|v| std::env::var_os(v).is_none_or(|s| s.is_empty()));
    let why = if no_display {
        "there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set): \
         start it from a desktop session, or over ssh with `ssh -X`. "
    } else {
        ""
    };
    format!(
        "{why}Without a window, the command line does everything the app does to a battle: \
         `xenolog --help` lists it. ({e})"
    )
}
