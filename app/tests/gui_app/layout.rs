//! The layout at the smallest window the app allows: the panels start in
//! proportion to the window and the board keeps a fair share of it.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::support::{BOARD, shot, show_panels};
use super::views::{app_at, sample_at};
use crate::gui::MIN_WINDOW_SIZE;
use crate::gui::app::App;

#[test]
fn at_the_smallest_window_the_board_keeps_half_the_width() {
    let [width, height] = MIN_WINDOW_SIZE;
    let (_dir, mut h) = app_at(egui::vec2(width, height), None);
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
        show_panels(&mut h, false, true);
        super::support::snapshot(&mut h, format!("app_{w}x{hgt}"));
    }
}

/// Issue 28: the Campaign view fits the window at 1024x700 and 1600x1000:
/// its header buttons and the Fight column are on screen with the panels
/// shown, and with them hidden the view fills the window (no black band).
#[test]
fn the_campaign_view_fits_at_1024x700() {
    campaign_view_fits(1024.0, 700.0);
}

#[test]
fn the_campaign_view_fits_at_1600x1000() {
    campaign_view_fits(1600.0, 1000.0);
}

fn campaign_view_fits(w: f32, hgt: f32) {
    let (_dir, mut h) = sample_at(egui::vec2(w, hgt));
    show_panels(&mut h, true, true);
    super::support::click(&mut h, "Rosters and experience…");
    assert!(h.state().campaign_view.shown);
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w, hgt));
    for label in ["Back to the battles", "Export campaign report (HTML)"] {
        let r = h.get_by_label(label).rect();
        assert!(window.contains_rect(r), "{w}x{hgt}: {label} at {r:?}");
    }
    let fights: Vec<egui::Rect> = h
        .get_all_by_label_contains("Fight: ")
        .map(|n| n.rect())
        .collect();
    assert!(!fights.is_empty(), "{w}x{hgt}: no Fight box");
    for r in &fights[..fights.len().min(3)] {
        assert!(window.contains_rect(*r), "{w}x{hgt}: a Fight box at {r:?}");
    }
    shot(&mut h, &format!("campaign_panels_{w}x{hgt}"));
    // Panels hidden: the view fills the window, no band left undrawn.
    show_panels(&mut h, false, false);
    shot(&mut h, &format!("campaign_hidden_{w}x{hgt}"));
    let image = super::support::render(&mut h);
    // Light theme: the view's own light fill, not the dark of a window
    // left undrawn.
    for x in [w * 0.75, w - 12.0] {
        let px = image.get_pixel(x as u32, (hgt * 0.8) as u32).0;
        assert!(
            px[..3].iter().all(|c| *c >= 200),
            "{w}x{hgt}: at x {x} the view is not drawn: {px:?}"
        );
    }
    super::support::snapshot(&mut h, format!("campaign_{w}x{hgt}"));
}

/// The board's rect, the camera, and where the units that can act are.
fn board_and_units(h: &Harness<'_, App>) -> (egui::Rect, crate::gui::board::Camera, Vec<String>) {
    let board = h.get_by_label(BOARD).rect();
    let units = super::support::acting_units(h);
    assert!(
        !units.is_empty(),
        "some unit can act in the sample's battle"
    );
    (board, h.state().look.camera, units)
}

/// The units that can act lie on the board: all of them, or (`all`
/// false: a small window may not hold them all) the first the game lists,
/// the side asked first.
fn units_in_view(h: &Harness<'_, App>, board: egui::Rect, units: &[String], all: bool, tag: &str) {
    let n = if all { units.len() } else { 1 };
    for u in &units[..n] {
        let at = super::support::on_screen(h, u);
        assert!(
            board.contains(at),
            "{tag}: {u}, which can act, is at {at:?}, off the board {board:?}"
        );
    }
}

/// The reference picture with the campaign panel's list masked (it shows
/// the temporary folder and today's date); the panel's width still shows.
fn snapshot_masking_the_campaign_list(h: &mut Harness<'_, App>, board: egui::Rect, name: &str) {
    h.mask(egui::Rect::from_min_max(
        egui::pos2(0.0, board.top()),
        egui::pos2(board.left() - 8.0, board.bottom()),
    ));
    super::support::snapshot(h, name);
}

/// Issue 28, views that fit: "after a resize the left panel stays narrow
/// and the map off-centre". A battle opened at 1600x1000, the window made
/// 1024x700 and then 1600x1000 again: the panels take their share of each
/// width (the campaign panel its full width again, not the narrow one the
/// small window gave it), the board is centred as it opened (the same
/// camera), and the units that can act are on the board (at 1024x700 those
/// it holds, the first listed among them).
#[test]
fn after_a_resize_the_panels_take_their_width_again_and_the_board_recentres() {
    let big = egui::vec2(1600.0, 1000.0);
    let small = egui::vec2(1024.0, 700.0);
    let (_dir, mut h) = sample_at(big);
    assert!(
        h.state().look.panels.is_some_and(|p| p.browser && p.side),
        "a wide window shows both panels"
    );
    let (board0, camera0, units) = board_and_units(&h);
    units_in_view(&h, board0, &units, true, "1600x1000 opened");
    snapshot_masking_the_campaign_list(&mut h, board0, "resize_1600x1000_opened");

    h.set_size(small);
    h.run();
    let (board1, _, units1) = board_and_units(&h);
    let window1 = egui::Rect::from_min_size(egui::Pos2::ZERO, small);
    assert!(window1.contains_rect(board1), "1024x700: board {board1:?}");
    // The panels shrank with the window: the board keeps a fair share.
    assert!(
        board1.left() < board0.left() - 20.0,
        "1024x700: the campaign panel kept its width (board from x {} to {})",
        board0.left(),
        board1.left()
    );
    assert!(
        board1.width() >= 0.45 * small.x,
        "1024x700: the board is {board1:?}"
    );
    units_in_view(&h, board1, &units1, false, "1024x700");
    snapshot_masking_the_campaign_list(&mut h, board1, "resize_1024x700");

    h.set_size(big);
    h.run();
    let (board2, camera2, units2) = board_and_units(&h);
    // The campaign panel has its full width again, the side panel too: the
    // board lies where it lay when the battle opened.
    for (what, a, b) in [
        ("left", board0.left(), board2.left()),
        ("right", board0.right(), board2.right()),
        ("top", board0.top(), board2.top()),
        ("bottom", board0.bottom(), board2.bottom()),
    ] {
        assert!(
            (a - b).abs() <= 1.0,
            "1600x1000 again: the board's {what} edge is at {b}, it opened at {a} \
             ({board0:?} then {board2:?})"
        );
    }
    // Centred as it opened.
    assert_eq!(camera2.zoom, camera0.zoom, "the zoom is kept");
    assert!(
        (camera2.pan - camera0.pan).length() <= 1.0,
        "1600x1000 again: the board is panned {:?}, it opened at {:?}",
        camera2.pan,
        camera0.pan
    );
    units_in_view(&h, board2, &units2, true, "1600x1000 again");
    snapshot_masking_the_campaign_list(&mut h, board2, "resize_1600x1000_again");
}
