//! Issue 28, "The app at the table": a click acts where it was pressed, a
//! new battle starts clean, notices close when their way out is taken.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::support::{BOARD, app_with, click_at, click_on_board, legal, no_notices, on_screen};
use crate::gui::app::App;
use crate::gui::dialogs::Dialog;

fn sample() -> (tempfile::TempDir, Harness<'static, App>) {
    let dir = tempfile::tempdir().unwrap();
    let h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    assert_eq!(h.state().open.as_ref().unwrap().battle.game_id(), "dimx");
    (dir, h)
}

/// Issue 28: a click on one hex followed at once by a pointer move (the
/// press, the release and the move in one frame) acted on the hex where the
/// pointer ended. It acts on the hex pressed.
/// Hovering `at` shows the picture labelled `large`, drawn large (140 px
/// at least); its rectangle (`what` names the hovered thing if not).
fn hovered_large(h: &mut Harness<'_, App>, at: egui::Pos2, large: &str, what: &str) -> egui::Rect {
    h.hover_at(at);
    h.run_steps(4);
    let picture = h
        .query_by_label(large)
        .unwrap_or_else(|| panic!("hovering {what} shows no {large:?}"))
        .rect();
    assert!(
        picture.width().max(picture.height()) >= 140.0,
        "{what}: {large} is drawn {picture:?}, not large"
    );
    picture
}

#[test]
fn a_click_acts_on_the_hex_pressed_not_where_the_pointer_went_after() {
    let (_dir, mut h) = sample();
    click_on_board(&mut h, "Heavy Weapons HW1");
    assert_eq!(h.state().look.selected(), Some("unit:HW1"));
    // Two hexes HW1 may move to, apart on the screen.
    let (a, b) = {
        let ob = h.state().open.as_ref().unwrap();
        let mut hexes: Vec<String> = ob
            .view
            .legal
            .iter()
            .filter(|c| c.subject.as_deref() == Some("unit:HW1"))
            .filter_map(|c| c.target.clone())
            .filter(|t| t.starts_with("hex:"))
            .collect();
        hexes.dedup();
        let a = hexes[0].clone();
        let b = hexes
            .iter()
            .rev()
            .find(|t| **t != a)
            .expect("two hexes")
            .clone();
        (a, b)
    };
    let (pa, pb) = (on_screen(&h, &a), on_screen(&h, &b));
    assert!(
        pa.distance(pb) > 20.0,
        "{a} and {b} are apart on the screen"
    );
    click_at(&mut h, pa);
    h.event(egui::Event::PointerMoved(pb));
    h.run();
    let wanted: Vec<String> = legal(&h)
        .iter()
        .filter(|c| c.subject.as_deref() == Some("unit:HW1") && c.target.as_deref() == Some(&a))
        .map(|c| c.text.clone())
        .collect();
    let given: Vec<String> = match h.state().messages.dialog() {
        Some(Dialog::Choose(ways)) => ways.iter().map(|i| i.text.clone()).collect(),
        other => {
            // One way there: played at once.
            assert!(other.is_none(), "{other:?}");
            let status = h.state().messages.status.clone();
            vec![
                status
                    .strip_prefix("Played: ")
                    .unwrap_or(&status)
                    .to_owned(),
            ]
        }
    };
    assert!(!given.is_empty());
    for g in &given {
        assert!(
            wanted.contains(g),
            "{g:?} is not aimed at {a} (pressed; the pointer ended on {b}): {wanted:?}"
        );
    }
}

/// Issue 28: "Open read-only" on the notice that the campaign is locked
/// opens it and leaves no notice about that file on the screen (asked for
/// twice, it was refused twice: both notices go).
#[test]
fn open_read_only_closes_the_lock_notice() {
    let dir = tempfile::tempdir().unwrap();
    let club = dir.path().join("club.xenolog");
    let writer = xenolog_saves::Campaign::create(&club, "Club").unwrap();
    let mut h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    for _ in 0..2 {
        h.state_mut()
            .push(crate::gui::command::AppCommand::Dropped(club.clone()));
    }
    h.run();
    assert_eq!(
        h.state().messages.notices().len(),
        2,
        "{:?}",
        h.state().messages.notices()
    );
    super::support::click(&mut h, "Open read-only");
    assert_eq!(
        h.state().campaign.as_ref().unwrap().path(),
        Some(club.as_path())
    );
    no_notices(&h);
    assert!(h.query_by_label("Open read-only").is_none());
    h.get_by_label("Read-only");
    drop(writer);
}

/// Issue 28: a new battle starts clean: the Turn field offers turn 1 at
/// Setup (not the turn the last battle was at), the status bar speaks of the
/// new battle, the Campaign view forgets the last battle's sheet.
#[test]
fn a_new_battle_resets_the_turn_field_and_the_status_bar() {
    let (_dir, mut h) = sample();
    // The sample opens late in its battle, in a turn after the first.
    let turn = h.state().timeline.goto_turn;
    assert!(turn > 1, "the sample opens in turn {turn}");
    h.state_mut().messages.status = "Played: something in the old battle".into();
    h.state_mut().campaign_view.sheet = Some(3);
    super::support::new_battle(&mut h, "Invaders From Dimension X! (1-2 players)", 5, false);
    no_notices(&h);
    assert_eq!(super::support::position(&h).0, 0);
    assert_eq!(h.state().timeline.goto_turn, 1);
    let status = h.state().messages.status.clone();
    assert!(status.starts_with("Started "), "{status}");
    assert!(h.state().campaign_view.sheet.is_none());
    // Opening another battle from the list says so, too.
    let first = h.state().battles[0].clone();
    h.state_mut()
        .push(crate::gui::command::AppCommand::OpenBattle(first.id));
    h.run();
    assert_eq!(h.state().messages.status, format!("Opened {}", first.title));
}

/// Issue 28, habits wargamers bring: N selects the next unit that can act
/// (and the board shows it), C centres the board on it, E ends the phase
/// (or says why it cannot); Help > Keyboard lists them.
#[test]
fn keys_select_the_next_unit_centre_on_it_and_end_the_phase() {
    let (_dir, mut h) = sample();
    h.state_mut()
        .push(crate::gui::command::AppCommand::Select(None));
    h.run();
    let subjects: Vec<String> = {
        let ob = h.state().open.as_ref().unwrap();
        let mut v: Vec<String> = Vec::new();
        for s in ob.view.legal.iter().filter_map(|c| c.subject.clone()) {
            if !v.contains(&s) {
                v.push(s);
            }
        }
        v
    };
    assert!(subjects.len() >= 2, "{subjects:?}");
    h.key_press(egui::Key::N);
    h.run();
    assert_eq!(h.state().look.selected(), Some(subjects[0].as_str()));
    h.key_press(egui::Key::N);
    h.run();
    assert_eq!(h.state().look.selected(), Some(subjects[1].as_str()));
    // C: the selected counter at the middle of the board.
    h.key_press(egui::Key::C);
    h.run();
    let board = h.get_by_label(BOARD).rect();
    let at = on_screen(&h, &subjects[1]);
    assert!(
        at.distance(board.center()) < 30.0,
        "{} is at {at:?}, the board's centre {:?}",
        subjects[1],
        board.center()
    );
    // E: the one command that ends the phase, or why not.
    let entries = h.state().open.as_ref().unwrap().battle.records().len();
    let ending = crate::gui::app::ending_command(legal(&h)).map(|c| c.text.clone());
    h.key_press(egui::Key::E);
    h.run();
    match ending {
        Ok(text) => {
            no_notices(&h);
            assert_eq!(h.state().messages.status, format!("Played: {text}"));
            assert_eq!(
                h.state().open.as_ref().unwrap().battle.records().len(),
                entries + 1
            );
        }
        Err(why) => assert_eq!(h.state().messages.status, why),
    }
    super::support::menu(&mut h, "Help", "Keyboard");
    h.get_by_label("Select the next unit that can act (the board shows it)");
    h.get_by_label("Centre the board on the selected unit");
}

/// Issue 28: File > Export battle report previews the HTML report as a
/// page reads (headings, words), not as its markup, and offers the page in
/// a browser.
#[test]
fn the_html_report_preview_reads_as_a_page_not_markup() {
    let (_dir, mut h) = sample();
    super::support::menu(&mut h, "File", "Export battle report…");
    h.get_by_label("Open in browser");
    let title = h.state().open.as_ref().unwrap().summary.title.clone();
    // The report's heading (its title), beside the battle list's button.
    assert!(h.get_all_by_label(&title).count() >= 2);
    super::support::shot(&mut h, "report_preview");
    assert!(h.query_by_label_contains("<!DOCTYPE").is_none());
    assert!(h.query_by_label_contains("<h1").is_none());
}

/// Issue 28: the New battle dialog remembers the last battle started with
/// it (in the preferences, not the campaign), and a game without scenarios
/// says so instead of an empty box.
#[test]
fn the_new_battle_dialog_remembers_the_last_settings() {
    let (_dir, mut h) = sample();
    super::support::click(&mut h, "New battle…");
    let top = h.get_by_label("New battle").rect().top();
    super::support::click(&mut h, "Night of the Saucers (1-4 players)");
    h.get_by_label_contains("the set-up in the rules of Night of the Saucers");
    // Pinned: the heading stays where it was as the form changed.
    assert_eq!(h.get_by_label("New battle").rect().top(), top);
    super::support::click(&mut h, "We roll real dice and type them in");
    super::support::click(&mut h, "Start battle");
    no_notices(&h);
    assert_eq!(h.state().open.as_ref().unwrap().battle.game_id(), "saucers");
    let kept = h.state().prefs.new_battle.clone().expect("remembered");
    assert_eq!(kept.game, "saucers");
    assert!(kept.entered_dice);
    super::support::click(&mut h, "New battle…");
    match h.state().messages.dialog() {
        Some(Dialog::NewBattle(form)) => {
            assert_eq!(form.game, "saucers");
            assert_eq!(form.dice_mode, crate::gui::store::DiceMode::Entered);
        }
        other => panic!("{other:?}"),
    }
}

/// Issue 28, views that fit: a new Dimension X battle opens on the units
/// that can act (the Marines waiting at the map edge were out of view), and
/// a unit chosen from the side panel's list is brought into view when the
/// board is zoomed and panned away from it.
#[test]
fn a_new_battle_opens_on_the_units_that_can_act_and_one_chosen_from_the_list_is_brought_into_view()
{
    let (_dir, mut h) = sample();
    super::support::new_battle(&mut h, "Invaders From Dimension X! (1-2 players)", 5, false);
    let board = h.get_by_label(BOARD).rect();
    let subjects: Vec<String> = {
        let ob = h.state().open.as_ref().unwrap();
        let mut v: Vec<String> = Vec::new();
        for s in ob.view.legal.iter().filter_map(|c| c.subject.clone()) {
            if !v.contains(&s) && ob.view.scene.find(&s).is_some() {
                v.push(s);
            }
        }
        v
    };
    assert!(!subjects.is_empty(), "the Marines can act");
    let first = on_screen(&h, &subjects[0]);
    assert!(
        board.contains(first),
        "{} opens at {first:?}, off the board {board:?}",
        subjects[0]
    );
    // Zoomed in and panned far away: the unit is off the board.
    let target = subjects.last().unwrap().clone();
    h.state_mut().look.camera.zoom = 3.0;
    h.state_mut().look.camera.pan = egui::vec2(4000.0, 4000.0);
    h.run();
    assert!(
        !board.contains(on_screen(&h, &target)),
        "{target} is out of view"
    );
    let name = {
        let ob = h.state().open.as_ref().unwrap();
        crate::gui::board::item_name(ob.view.scene.find(&target).unwrap())
    };
    let button = h
        .get_all_by_label(&name)
        .find(|n| !board.contains(n.rect().center()))
        .unwrap_or_else(|| panic!("{name} is listed beside the board"));
    button.click();
    h.run();
    assert_eq!(h.state().look.selected(), Some(target.as_str()));
    let at = on_screen(&h, &target);
    assert!(
        board.contains(at),
        "{target} chosen from the list is at {at:?}, off {board:?}"
    );
}

/// Issue 28, the habits wargamers bring: "hover a counter or a card
/// anywhere (board, hand, log) to see it large, as VASSAL's mouse-over
/// viewer does". An entry of the log that names a unit shows, on hover,
/// the unit drawn large with its name (the board's viewer, one code path);
/// an entry that names none shows only its words.
#[test]
fn hovering_an_entry_of_the_log_shows_the_units_it_names_large() {
    let (_dir, mut h) = super::views::sample_at(egui::vec2(1600.0, 1000.0));
    for (game, entry, name) in [
        (
            "dimx",
            "HQ HQ1 finishes its action: HQ HQ1 has finished its action",
            "HQ HQ1",
        ),
        (
            "alien",
            "Alien 1 moves to L13: alien 1 moved to L13",
            "alien 1",
        ),
    ] {
        super::views::open_game(&mut h, game);
        let large = format!("{name}, large");
        assert!(
            h.query_by_label(&large).is_none(),
            "{game}: {name} is not drawn large before the entry is hovered"
        );
        let row = h.get_by_label(entry).rect();
        let picture = hovered_large(
            &mut h,
            row.left_center() + egui::vec2(20.0, 0.0),
            &large,
            &format!("{game}: {entry:?}"),
        );
        // Named above the picture, in the tooltip beside the entry's words.
        let named_above = h.get_all_by_label(name).map(|n| n.rect()).any(|r| {
            r.bottom() <= picture.top() + 1.0
                && r.bottom() >= picture.top() - 30.0
                && r.left() < picture.right()
                && picture.left() < r.right()
        });
        assert!(named_above, "{game}: {name}'s picture is not named");
        super::support::shot(&mut h, &format!("log_hover_{game}"));
        h.remove_cursor();
        h.run();
    }
    // An entry that names no unit: its words, no picture.
    let row = h.get_by_label("Ends the turn: turn 4 begins").rect();
    h.hover_at(row.left_center() + egui::vec2(20.0, 0.0));
    h.run_steps(4);
    assert!(
        h.query_by_label_contains(", large").is_none(),
        "an entry naming no unit shows none large"
    );
}

/// Issue 28: "a tooltip squeezed to one word a line (\"Build / ings,
/// road\")": a board tooltip shown after a shorter one keeps a sensible
/// width (egui issue 5167: the tooltip's area kept the last one's size), so
/// a hex's long description reads on a line or two.
#[test]
fn a_long_board_tooltip_after_a_short_one_is_not_squeezed_a_word_a_line() {
    let (_dir, mut h) = sample();
    let board = h.get_by_label(BOARD).rect();
    // The hexes in view with nothing on them, by the length of their tips.
    let mut bare: Vec<(String, egui::Pos2)> = {
        let ob = h.state().open.as_ref().unwrap();
        let x = crate::gui::board::Xform::new(&ob.view.scene, board, &h.state().look.camera);
        let counters: Vec<egui::Rect> = ob
            .view
            .scene
            .items
            .iter()
            .filter(|i| {
                !matches!(
                    i.kind,
                    xenolog_engine::scene::ItemKind::Hex | xenolog_engine::scene::ItemKind::Terrain
                )
            })
            .map(|i| crate::gui::board::screen_rect(i, &x).expand(4.0))
            .collect();
        ob.view
            .scene
            .items
            .iter()
            .filter(|i| i.kind == xenolog_engine::scene::ItemKind::Hex && i.tooltip.is_some())
            .map(|i| (i.tooltip.clone().unwrap(), on_screen(&h, &i.id)))
            .filter(|(_, p)| board.shrink(60.0).contains(*p))
            .filter(|(_, p)| !counters.iter().any(|r| r.contains(*p)))
            .collect()
    };
    bare.sort_by_key(|(t, _)| t.len());
    let (short, at_short) = bare.first().cloned().expect("a bare hex");
    // (a move's trail drawn over a hex gives its own tip there: the longest
    // hex tips are tried in turn)
    let mut looked = 0;
    for (long, at_long) in bare.iter().rev().take(8) {
        if long.len() < short.len() + 8 {
            break;
        }
        h.hover_at(at_short);
        h.run_steps(4);
        h.get_by_label(&short);
        h.hover_at(*at_long);
        h.run_steps(4);
        let Some(tip) = h.query_by_label(long).map(|n| n.rect()) else {
            continue;
        };
        assert!(
            tip.height() <= 40.0 && tip.width() >= 100.0,
            "{long:?} after {short:?} is drawn {tip:?}: squeezed"
        );
        looked += 1;
    }
    assert!(looked > 0, "no long hex tooltip was shown");
}

/// Issue 28, the habits wargamers bring: "hover a counter or a card
/// anywhere (board, hand, log) to see it large". On the board a small
/// counter (an Alien character's token, 24 px at 1024x700) and a card in a
/// hand (Night of the Saucers' hands lie on the board) are drawn large, named,
/// in their tooltip.
#[test]
fn hovering_a_small_counter_or_a_card_in_a_hand_shows_it_large() {
    let (_dir, mut h) = super::views::sample_at(egui::vec2(1024.0, 700.0));
    for (game, id) in [("alien", "char:hicks"), ("saucers", "card:0:0")] {
        super::views::open_game(&mut h, game);
        let board = h.get_by_label(BOARD).rect();
        let name = {
            let ob = h.state().open.as_ref().unwrap();
            crate::gui::board::item_name(ob.view.scene.find(id).expect("drawn"))
        };
        let at = on_screen(&h, id);
        assert!(board.contains(at), "{game}: {id} is in view at {at:?}");
        let large = format!("{name}, large");
        assert!(h.query_by_label(&large).is_none());
        hovered_large(&mut h, at, &large, &format!("{game}: {id}"));
        super::support::shot(&mut h, &format!("board_hover_{game}"));
        h.remove_cursor();
        h.run();
    }
}

/// A new user's first solitaire battle: a new Dimension X battle at the
/// window the app opens (1360x860) shows its Marines waiting in the
/// scenario card beside the map and as much of the map as the board holds:
/// a map that fits the board's height is wholly in view (the board opened
/// with a band of 150 px above the map and its bottom rows cut off), and
/// across, the map and the card fill the board.
#[test]
fn a_new_dimension_x_battle_opens_with_no_empty_band_beside_the_map() {
    for seed in [3, 5] {
        let mut h = new_solo(seed);
        super::support::shot(&mut h, &format!("dimx_new_{seed}"));
        let board = h.get_by_label(BOARD).rect();
        let (map, whole) = {
            let ob = h.state().open.as_ref().unwrap();
            let scene = &ob.view.scene;
            let x = crate::gui::board::Xform::new(scene, board, &h.state().look.camera);
            let map = scene
                .items
                .iter()
                .filter(|i| i.kind == xenolog_engine::scene::ItemKind::Hex)
                .map(|i| crate::gui::board::screen_rect(i, &x))
                .reduce(|a, b| a.union(b))
                .expect("the map's hexes are drawn");
            let whole = egui::Rect::from_two_pos(
                x.to_screen([0.0, 0.0]),
                x.to_screen([scene.width, scene.height]),
            );
            (map, whole)
        };
        if map.height() <= board.height() {
            assert!(
                map.top() >= board.top() - 1.0 && map.bottom() <= board.bottom() + 1.0,
                "seed {seed}: the map fits the board's height but is cut: board {board:?}, \
                 map {map:?}"
            );
        } else {
            assert!(
                map.top() <= board.top() + 1.0 && map.bottom() >= board.bottom() - 1.0,
                "seed {seed}: an empty band above or below the map: board {board:?}, map {map:?}"
            );
        }
        assert!(
            whole.left() <= board.left() + 1.0 && whole.right() >= board.right() - 1.0,
            "seed {seed}: an empty band beside the map and its card: board {board:?}, \
             scene {whole:?}"
        );
        // The Marines that can act are still in view.
        let acting = super::support::acting_units(&h);
        assert!(!acting.is_empty());
        for id in &acting {
            let at = on_screen(&h, id);
            assert!(
                board.contains(at),
                "seed {seed}: {id} at {at:?}, off {board:?}"
            );
        }
    }
}

/// A new Dimension X battle, solitaire, at the window the app opens.
fn new_solo(seed: u64) -> Harness<'static, App> {
    super::support::app_on(super::support::spec(
        "dimx",
        seed,
        serde_json::json!({}),
        "Solo",
        crate::gui::store::DiceMode::Rolled,
    ))
}

/// Session 21's list, item 3: a new Dimension X battle's Marines waiting at
/// the map edge were drawn about 20 px wide in the scenario card, and the
/// camera buttons covered the card's title. The side panel draws each
/// waiting Marine as large as a counter on a readable map, a click selects
/// it; the camera buttons cover none of the card's writing.
#[test]
fn a_new_dimension_x_battle_draws_its_waiting_marines_large_and_leaves_the_card_title_clear() {
    for seed in [3, 5] {
        let mut h = new_solo(seed);
        let waiting: Vec<String> = {
            let s = super::support::game_state::<xenolog_engine::games::dimx::DimX>(&h);
            s.marines
                .iter()
                .filter(|m| m.place == xenolog_engine::games::dimx::units::Place::Waiting)
                .map(|m| format!("unit:{}", m.id))
                .collect()
        };
        assert!(
            !waiting.is_empty(),
            "seed {seed}: Marines wait at the map edge"
        );
        h.get_by_label_contains("Waiting at the map edge");
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, super::support::SIZE);
        for id in &waiting {
            let name = {
                let ob = h.state().open.as_ref().unwrap();
                crate::gui::board::item_name(ob.view.scene.find(id).unwrap())
            };
            let label = format!("{name}, large");
            let node = h.get_by_label(&label);
            let r = node.rect();
            assert!(
                r.width() >= 40.0 && window.contains_rect(r),
                "seed {seed}: {name} is drawn at {r:?}"
            );
            node.click();
            h.run();
            assert_eq!(
                h.state().look.selected(),
                Some(id.as_str()),
                "seed {seed}: a click on {name} selects it"
            );
        }
        // The scenario card's writing (its title first) is clear of the
        // camera and line-of-sight buttons.
        let board = h.get_by_label(BOARD).rect();
        let buttons: Vec<egui::Rect> = [
            "Zoom in",
            "Zoom out",
            "Back to the opening view",
            "Line of sight: pick two hexes",
        ]
        .iter()
        .map(|l| h.get_by_label(l).rect())
        .collect();
        let ob = h.state().open.as_ref().unwrap();
        let x = crate::gui::board::Xform::new(&ob.view.scene, board, &h.state().look.camera);
        let card: Vec<egui::Rect> = ob
            .view
            .scene
            .items
            .iter()
            .filter(|i| {
                i.id == "panel" && matches!(i.shape, xenolog_engine::scene::Shape::Text { .. })
            })
            .map(|i| crate::gui::board::screen_rect(i, &x))
            .collect();
        assert!(!card.is_empty());
        for b in &buttons {
            for w in &card {
                assert!(
                    !b.intersects(*w),
                    "seed {seed}: a button at {b:?} covers the card's writing at {w:?}"
                );
            }
        }
    }
}

/// Session 21's list, item 4: the entries table showed a half-cut row at its
/// top, and at 1024x700 one or two rows. It shows whole rows, four at least
/// at 1024x700, in every game of the sample, at its last entry.
#[test]
fn the_entries_table_shows_whole_rows_and_four_at_least_at_1024x700() {
    for (w, hgt) in [(1024.0, 700.0), (1360.0, 860.0), (1600.0, 1000.0)] {
        let (_dir, mut h) = super::views::sample_at(egui::vec2(w, hgt));
        for game in ["dimx", "invasion", "alien", "saucers"] {
            super::views::open_game(&mut h, game);
            let header = h.get_by_label("What happened").rect();
            let status = h.get_by_label_contains("Opened ").rect().top();
            let rows: Vec<egui::Rect> = h
                .query_all_by(|n| {
                    n.role() == egui::accesskit::Role::Label
                        && n.value().is_some_and(|v| {
                            v == "Setup"
                                || v.strip_prefix('#').is_some_and(|d| {
                                    !d.is_empty() && d.chars().all(|c| c.is_ascii_digit())
                                })
                        })
                })
                .map(|n| n.rect())
                .filter(|r| r.left() < 60.0)
                .collect();
            // A row's text is centred in it, as the header's: the body
            // begins a spacing (3) below the header's row, which ends
            // below its text by as much as the text is below the row's
            // top. No row straddles that line (one just above it, hidden,
            // may be laid out).
            let row_pad = 3.0;
            let body_top = header.bottom() + row_pad + 3.0;
            for r in &rows {
                let (top, bottom) = (r.top() - row_pad, r.bottom() + row_pad);
                assert!(
                    !(top < body_top - 1.0 && bottom > body_top + 1.0),
                    "{w}x{hgt} {game}: a row cut by the header at {r:?} (header {header:?})"
                );
            }
            let whole = rows
                .iter()
                .filter(|r| r.top() >= header.bottom() && r.bottom() <= status)
                .count();
            assert!(
                whole >= 4,
                "{w}x{hgt} {game}: {whole} rows of entries shown whole ({rows:?})"
            );
        }
    }
}

/// Session 22's final read: the side panel's waiting Marines were drawn
/// from a scene it built itself every frame. They are drawn from the
/// view's scene, the board's at the cursor: a Marine that moves onto the
/// map leaves the panel, and going back to the setup shows it waiting again.
#[test]
fn a_marine_moved_onto_the_map_leaves_the_waiting_panel_and_comes_back_at_the_setup() {
    let mut h = new_solo(3);
    let waiting = |h: &Harness<'_, App>| -> Vec<String> {
        let s = super::support::game_state::<xenolog_engine::games::dimx::DimX>(h);
        s.marines
            .iter()
            .filter(|m| m.place == xenolog_engine::games::dimx::units::Place::Waiting)
            .map(|m| format!("unit:{}", m.id))
            .collect()
    };
    let before = waiting(&h);
    let n = before.len();
    h.get_by_label(&format!("Waiting at the map edge ({n})"));
    let onto = legal(&h)
        .iter()
        .find(|l| l.text.contains("onto the map") && l.subject.is_some())
        .expect("a Marine may move onto the map")
        .clone();
    let moved = onto.subject.clone().unwrap();
    assert!(before.contains(&moved), "{moved} waits");
    let name = {
        let ob = h.state().open.as_ref().unwrap();
        crate::gui::board::item_name(ob.view.scene.find(&moved).unwrap())
    };
    h.get_by_label(&format!("{name}, large"));
    super::support::give(&mut h, &onto);
    no_notices(&h);
    assert_eq!(waiting(&h).len(), n - 1);
    h.get_by_label(&format!("Waiting at the map edge ({})", n - 1));
    assert!(
        h.query_by_label(&format!("{name}, large")).is_none(),
        "{name} is on the map, not waiting"
    );
    super::support::go_to(&mut h, 0);
    h.get_by_label(&format!("Waiting at the map edge ({n})"));
    h.get_by_label(&format!("{name}, large"));
}
