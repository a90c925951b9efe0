//! The real `xenolog` binary, started under Xvfb on the sample campaign in an
//! empty home directory: it must open a window, draw the board and save a
//! screenshot of its first full frame (`XENOLOG_SCREENSHOT`). The picture is
//! checked: not blank, and the board area holds many colours.
//!
//! Needs `xvfb-run` and Mesa (EGL/llvmpipe). Without `xvfb-run` the test says
//! so and passes, unless `XENOLOG_REQUIRE_XVFB=1` (CI sets it). The picture is
//! kept at `XENOLOG_SCREENSHOT_OUT` when that is set (`app/tests/screenshot.sh`).

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn have_xvfb() -> bool {
    Command::new("xvfb-run")
        .arg("--help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// Distinct colours in a rectangle of the picture (fractions of its size).
fn colours(img: &image::RgbaImage, x: (f32, f32), y: (f32, f32)) -> usize {
    let (w, h) = img.dimensions();
    let mut seen = HashSet::new();
    let xs = (w as f32 * x.0) as u32..(w as f32 * x.1) as u32;
    let ys = (h as f32 * y.0) as u32..(h as f32 * y.1) as u32;
    for py in ys {
        for px in xs.clone() {
            seen.insert(img.get_pixel(px, py).0);
        }
    }
    seen.len()
}

#[test]
fn the_real_app_draws_the_sample_campaign_under_xvfb() {
    if !have_xvfb() {
        assert!(
            std::env::var("XENOLOG_REQUIRE_XVFB").is_err(),
            "XENOLOG_REQUIRE_XVFB is set but xvfb-run is not installed"
        );
        eprintln!("skipped: xvfb-run is not installed");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let shot = home.path().join("screenshot.png");
    let start = Instant::now();
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1600x1000x24"])
        .arg(env!("CARGO_BIN_EXE_xenolog"))
        .env("HOME", home.path())
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("WAYLAND_DISPLAY")
        .env("XENOLOG_SCREENSHOT", &shot)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xvfb-run starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("xenolog did not finish within two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let wall = start.elapsed();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(status.success(), "xenolog failed: {status}\n{stderr}");
    assert!(shot.exists(), "no screenshot was saved\n{stderr}");
    eprintln!("{}", stderr.trim());
    eprintln!(
        "wall time from launch to screenshot saved and exit: {} ms",
        wall.as_millis()
    );

    let img = image::open(&shot).unwrap().to_rgba8();
    let (w, h) = img.dimensions();
    assert!(w >= 900 && h >= 600, "the window is cramped: {w}x{h}");
    let all = colours(&img, (0.0, 1.0), (0.0, 1.0));
    assert!(all > 200, "the window looks blank: {all} colours");
    // The board sits in the middle, between the side panels and above the timeline.
    let board = colours(&img, (0.38, 0.72), (0.08, 0.6));
    assert!(
        board >= 12,
        "the board did not draw: {board} colours in its area"
    );
    assert!(Path::new(&shot).exists());
    if let Some(keep) = std::env::var_os("XENOLOG_SCREENSHOT_OUT") {
        std::fs::copy(&shot, &keep).unwrap();
        eprintln!("screenshot kept at {}", Path::new(&keep).display());
    }
}
