//! UI tests of the desktop app: egui_kittest drives the real `App` by
//! accessible labels, and snapshot tests compare rendered frames (wgpu on
//! EGL/llvmpipe, no GPU needed) with the reference PNGs in `snapshots/`.
//!
//! One test binary for all GUI tests, so the app is compiled once.

use xenolog::gui;

mod gui_app {
    pub mod support;

    mod alien;
    mod campaign;
    mod dimx;
    mod dimx_variant;
    mod files;
    mod hotseat;
    mod invasion;
    mod invasion_advanced;
    mod layout;
    mod numbering;
    mod play;
    mod position;
    mod reports;
    mod review;
    mod saucers;
    mod snapshots;
    mod table;
    mod targets;
    mod views;
}
