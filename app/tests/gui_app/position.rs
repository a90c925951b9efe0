//! File > New battle from a position file (issue 27, 3): a moment of a game
//! begun at a real table, chosen in Xenolog's own file dialog, its game
//! found from the file, started in the open campaign and shown on the
//! board; a file no game reads is refused in a notice and nothing changes.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use xenolog_engine::Session;
use xenolog_engine::games::alien::Alien;
use xenolog_engine::games::alien::state::{Phase, Pos};
use xenolog_engine::games::saucers::Saucers;

use super::support::{BOARD, app_answering, click, menu, no_notices, shot, type_into};
use crate::gui::app::App;
use crate::gui::files::Answer;

/// The Alien position printed in engine/src/games/alien/RULES.md ("A moment
/// of the Alien phase, Hicks shot and stopped next to an alien of 3 that has
/// moved, one new alien still to place").
const ALIEN_EXAMPLE: &str = "turn 3
phase hatching
hatching roll 5 placing 1
points 1
done 6
open 11 17
character hicks at K9 strength 4 ap 0 shot stopped items rifle ammo3 grenade
character bishop at apc
character gorman at outside 2
character apone at dead
alien 4 at M8 id 4
alien 3 at K8 id 6 moved
apc G12 fuel 2 driven 3
collapsed G10
floor medkit B10
";

/// The Night of the Saucers position printed in
/// engine/src/games/saucers/RULES.md ("a study of the last Alien card").
const SAUCERS_EXAMPLE: &str = "# the last card
alien_deck saucer D3
alien_left 1
student tabby D3 mission radio
hand nine_lives \"Sewer System\" bat
tokens 1 food 1 alien 2
alien scout D3 n damage 1
turn 1 upkeep
";

/// A campaign file in a fresh folder with `file` beside it holding `text`,
/// and the app open on the campaign, whose file dialogs cannot be shown
/// (so Xenolog's own dialog asks, starting beside the campaign).
fn app_beside(file: &str, text: &str) -> (tempfile::TempDir, PathBuf, Harness<'static, App>) {
    let dir = tempfile::tempdir().unwrap();
    let club = dir.path().join("club.xenolog");
    drop(xenolog_saves::Campaign::create(&club, "Club").unwrap());
    std::fs::write(dir.path().join(file), text).unwrap();
    let h = app_answering(
        Some(club.clone()),
        None,
        vec![Answer::Unavailable("no XDG desktop portal".into())],
        // egui_file's text fields carry no accessible name (see files.rs).
        false,
    );
    (dir, club, h)
}

/// File > New battle from a position file, `file` chosen in Xenolog's own
/// dialog.
fn choose_position(h: &mut Harness<'_, App>, file: &str) {
    menu(h, "File", "New battle from a position file…");
    h.get_by_label_contains("New battle from a position file (position or scenario file)");
    click(h, &format!("🗋 {file}"));
    click(h, "Open");
    assert!(h.state().messages.in_app_dialog().is_none());
}

fn stored_battles(club: &Path) -> usize {
    xenolog_saves::Campaign::open_read_only(club)
        .unwrap()
        .battles()
        .unwrap()
        .len()
}

#[test]
fn file_new_battle_from_a_position_file_starts_the_alien_example_on_the_board() {
    let (_dir, club, mut h) = app_beside("late phase.txt", ALIEN_EXAMPLE);
    choose_position(&mut h, "late phase.txt");
    // The game is found from the file; the dialog offers only the games
    // that read it, and names the file instead of a scenario.
    h.get_by_label("New battle from a position file");
    h.get_by_label("late phase.txt");
    type_into(&mut h, "Seed:", "27");
    shot(&mut h, "position_dialog_alien");
    click(&mut h, "Start battle");
    no_notices(&h);
    assert!(h.state().messages.dialog().is_none());

    // Started in the open campaign, under the file's name.
    let ob = h.state().open.as_ref().expect("the battle is open");
    assert_eq!(ob.summary.game, "alien");
    assert_eq!(ob.summary.title, "Alien: late phase.txt");
    assert_eq!(stored_battles(&club), 1, "it is in the campaign file");

    // The board shows the file's moment.
    let s = ob
        .battle
        .as_any()
        .downcast_ref::<Session<Alien>>()
        .expect("an Alien battle")
        .state()
        .clone();
    assert_eq!((s.turn, s.phase), (3, Phase::Hatching));
    let tile = |name: &str| s.content.base.tile(name).unwrap();
    let hicks = s
        .characters
        .iter()
        .find(|c| s.content.characters[usize::from(c.card)].id == "hicks")
        .unwrap();
    assert_eq!((hicks.pos, hicks.strength), (Pos::Tile(tile("K9")), 4));
    let scene = &ob.view.scene;
    for id in ["char:hicks", "alien:4", "alien:6"] {
        assert!(scene.find(id).is_some(), "{id} is drawn");
    }
    // Apone is dead and Bishop aboard the APC: neither is on the board.
    assert!(scene.find("char:apone").is_none());
    assert!(scene.find("char:bishop").is_none());
    // Phase 2 is the Alien player's, whose task cards are hidden: the
    // screen is passed first.
    click(&mut h, "I am Alien Queen: show my view");
    let board = h.get_by_label(BOARD).rect();
    for name in ["alien 4", "alien 6"] {
        assert!(
            h.get_all_by_label(name)
                .any(|n| board.contains(n.rect().center())),
            "{name} is on the board"
        );
    }
    shot(&mut h, "position_board_alien");
}

#[test]
fn the_saucers_example_is_read_as_night_of_the_saucers() {
    let (_dir, club, mut h) = app_beside("last card", SAUCERS_EXAMPLE);
    choose_position(&mut h, "last card");
    // Nine Lives plays at a table of four, not at the default two.
    shot(&mut h, "position_dialog_saucers");
    click(&mut h, "Start battle");
    no_notices(&h);
    let ob = h.state().open.as_ref().expect("the battle is open");
    assert_eq!(ob.summary.game, "saucers");
    let s = ob
        .battle
        .as_any()
        .downcast_ref::<Session<Saucers>>()
        .expect("a Night of the Saucers battle")
        .state();
    assert_eq!(s.alien_deck.len(), 1, "the Alien deck cut to its last card");
    let config: serde_json::Value = serde_json::from_str(&ob.battle.meta().config).unwrap();
    assert_eq!(config["players"], 4);
    assert_eq!(stored_battles(&club), 1);
}

#[test]
fn a_file_no_game_reads_is_refused_in_a_notice_and_nothing_changes() {
    let (_dir, club, mut h) = app_beside("notes.txt", "character ripley at K6\nfly to the moon\n");
    let before = h.state().battles.len();
    choose_position(&mut h, "notes.txt");
    h.get_by_label("The position file was not read");
    h.get_by_label_contains("notes.txt is not a position or scenario file");
    let n = &h.state().messages.notices()[0];
    assert!(
        n.text.contains("As Alien:") && n.text.contains("line 1"),
        "{}",
        n.text
    );
    assert!(
        h.state().messages.dialog().is_none(),
        "no New battle dialog opens"
    );
    assert_eq!(h.state().battles.len(), before);
    assert_eq!(stored_battles(&club), 0);
    assert!(h.state().open.is_none());
    shot(&mut h, "position_refused");
}
