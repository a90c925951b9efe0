//! File > Merge a copy… (issue 30 item 9, "two copies of a campaign must
//! merge (the campaign log is append-only: the entries of both land, a
//! conflict is shown, none is lost)"), in the app: the other copy is picked
//! as File > Open picks a campaign (the tests script the file dialog's
//! answer), merged through the store as `xenolog campaign merge` does, what
//! landed and the conflict set aside are said in a notice, and the battles
//! that came in are checked in the background. A file that is not a
//! campaign, another campaign and the campaign's own file are refused in
//! words, and nothing changes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::json;
use xenolog::gui;
use xenolog_saves::{Campaign, DiceMode};

#[path = "support/copies.rs"]
mod copies;
use copies::retire;

#[path = "gui_app/support.rs"]
#[allow(dead_code)]
mod gui_support;

use gui::app::App;

/// The app on the campaign file `club`, its check on opening ended; the
/// file dialog answers `answers` in turn.
fn opened(
    club: &Path,
    data: &Path,
    answers: Vec<Option<std::path::PathBuf>>,
) -> Harness<'static, App> {
    let mut h = gui_support::app_with(Some(club.to_owned()), Some(data.to_owned()), answers);
    h.run();
    gui_support::until_checked(&mut h);
    h
}

/// File > Merge a copy… (the dialog answers with the next path): the notice
/// it leaves on top once the merge has ended.
fn merge_a_copy(h: &mut Harness<'_, App>) -> gui::dialogs::Notice {
    gui_support::menu(h, "File", "Merge a copy…");
    until_merged(h)
}

/// Frames until the merge's worker has ended; the notice then on top.
fn until_merged(h: &mut Harness<'_, App>) -> gui::dialogs::Notice {
    let start = std::time::Instant::now();
    while h.state().merging() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
        h.run();
    }
    h.run();
    assert!(!h.state().merging(), "the merge did not end");
    h.state()
        .messages
        .notices()
        .last()
        .cloned()
        .expect("a notice")
}

/// The organiser's campaign: Wyvern Platoon, Sgt Benton and Pte Yates.
fn organiser(path: &Path) {
    copies::organiser(path, &["Sgt Benton", "Pte Yates"], &[]);
}

/// The organiser's campaign file in `dir` and a laptop's copy of it.
fn organiser_and_laptop(dir: &Path) -> (PathBuf, PathBuf) {
    let (club, laptop) = (dir.join("club.xenolog"), dir.join("laptop.xenolog"));
    organiser(&club);
    std::fs::copy(&club, &laptop).unwrap();
    (club, laptop)
}

/// What the campaign file holds (`copies::holds`).
fn holds(path: &Path) -> (usize, Vec<String>, Vec<String>, usize) {
    copies::holds(&Campaign::open_read_only(path).unwrap())
}

#[test]
fn item_9_file_merge_a_copy_lands_its_entries_shows_the_conflict_and_checks_what_came_in() {
    let (dir, data) = gui_support::folder();
    let (club, laptop) = organiser_and_laptop(dir.path());
    {
        let mut c = Campaign::open(&club).unwrap();
        retire(&mut c, "Pte Yates");
    }
    // The laptop's retirement is the later one (the one set aside).
    std::thread::sleep(Duration::from_millis(1100));
    {
        // The laptop retires Pte Yates too (a conflict),
        // recruits Pte Walsh and plays a Dice Race.
        let mut l = Campaign::open(&laptop).unwrap();
        retire(&mut l, "Pte Yates");
        l.add_model(1, "Pte Walsh", "rifleman").unwrap();
        let id = l
            .new_battle(
                "race",
                5,
                &json!({"target": 1_000}),
                "Race on the laptop",
                DiceMode::Rolled,
            )
            .unwrap();
        let mut b = l.load_battle(id).unwrap();
        for i in 0..30 {
            let legal = b.legal();
            let c = legal[i % legal.len()].clone();
            l.play(id, &mut *b, c.actor, &c.command, None).unwrap();
        }
    }
    let mut h = opened(&club, &data, vec![Some(laptop.clone())]);
    assert!(h.state().messages.notices().is_empty());
    let n = &merge_a_copy(&mut h);
    assert_eq!(h.state().messages.notices().len(), 1, "{n:?}");
    assert_eq!(
        n.title, "Merged laptop.xenolog: 1 conflict set aside",
        "{n:?}"
    );
    assert!(n.text.contains("1 entry of laptop.xenolog landed"), "{n:?}");
    assert!(n.text.contains("Race on the laptop"), "{n:?}");
    assert!(
        n.text.contains("from laptop.xenolog: Pte Yates retired")
            && n.text
                .contains("was set aside: Pte Yates is retired already")
            && n.text.contains("never lost"),
        "{n:?}"
    );
    // On screen, in words.
    assert!(
        h.get_all_by_label_contains("was set aside: Pte Yates is retired already")
            .next()
            .is_some()
    );
    // In the file: both copies' entries, the laptop's battle, the conflict kept.
    let (log, models, battles, aside) = holds(&club);
    assert_eq!(
        log,
        2 + 1 + 1 + 1,
        "roster, two recruits, a retirement, Pte Walsh"
    );
    assert!(
        models.contains(&"Pte Walsh (fighting fit)".to_owned()),
        "{models:?}"
    );
    assert!(
        models.contains(&"Pte Yates (retired)".to_owned()),
        "{models:?}"
    );
    assert_eq!(battles, ["Race on the laptop"]);
    assert_eq!(aside, 1);
    // The battle that came in is verified in the background: it replays.
    gui_support::until_checked(&mut h);
    assert!(
        h.state()
            .messages
            .notices()
            .iter()
            .all(|n| !n.title.contains("does not replay")),
        "{:?}",
        h.state().messages.notices()
    );
    assert!(
        h.state()
            .battles
            .iter()
            .any(|b| b.title == "Race on the laptop")
    );
    // Verified here: this machine's trust book now vouches for it.
    let book = xenolog_saves::trust::TrustBook::read(&data.join("trusted.json"));
    let c = Campaign::open_read_only(&club).unwrap();
    assert_eq!(book.untrusted(&c).unwrap(), Vec::<i64>::new());
}

#[test]
fn item_9_merging_a_file_that_is_not_a_copy_is_refused_in_words_and_changes_nothing() {
    let (dir, data) = gui_support::folder();
    let club = dir.path().join("club.xenolog");
    organiser(&club);
    let junk = dir.path().join("notes.xenolog");
    std::fs::write(&junk, "not a campaign at all").unwrap();
    let other = dir.path().join("other.xenolog");
    organiser(&other);
    let before = holds(&club);
    let mut h = opened(
        &club,
        &data,
        vec![Some(junk), Some(other), Some(club.clone())],
    );
    for words in [
        "notes.xenolog is not a Xenolog campaign",
        "other.xenolog is another campaign (Hollow Farm), not a copy of this one",
        "club.xenolog is this campaign's own file, not another copy of it",
    ] {
        let n = merge_a_copy(&mut h);
        assert_eq!(n.title, "The copy was not merged", "{n:?}");
        assert!(n.text.contains(words), "{words}: {n:?}");
        assert!(
            h.get_all_by_label_contains(words).next().is_some(),
            "{words}"
        );
        assert_eq!(holds(&club), before);
        h.state_mut().push(gui::command::AppCommand::DismissNotice);
        h.run();
    }
}

/// Review finding SHOULD 5 in the app: two copies of a campaign file from
/// before migration 7, upgraded apart (each got its own uid), are refused
/// as another campaign, with a button by which the player says they are
/// copies of one campaign; pressed, the copy merges (their entries from
/// before the upgrade agree) and the notice says it was merged as said.
#[test]
fn item_9_should_5_a_copy_upgraded_apart_merges_when_the_player_says_it_is_one_campaign() {
    let (dir, data) = gui_support::folder();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/compat/2026-11-27-club/campaign.xenolog");
    let club = dir.path().join("club.xenolog");
    let laptop = dir.path().join("laptop.xenolog");
    for p in [&club, &laptop] {
        std::fs::copy(&fixture, p).unwrap();
    }
    {
        let mut l = Campaign::open(&laptop).unwrap();
        l.add_model(1, "Pte Walsh", "rifleman").unwrap();
    }
    drop(Campaign::open(&club).unwrap());
    let before = holds(&club);
    let mut h = opened(&club, &data, vec![Some(laptop.clone())]);
    h.state_mut().messages.retain_notices(|_| false);
    let n = merge_a_copy(&mut h);
    assert_eq!(n.title, "The copy was not merged", "{n:?}");
    assert!(n.text.contains("not a copy of this one"), "{n:?}");
    assert_eq!(holds(&club), before);
    gui_support::click(&mut h, "They are copies of one campaign: merge");
    let n = until_merged(&mut h);
    assert_eq!(n.title, "Merged laptop.xenolog", "{n:?}");
    assert!(
        n.text
            .contains("merged as a copy of this campaign, as you said"),
        "{n:?}"
    );
    let (log, models, _, aside) = holds(&club);
    assert_eq!((log, aside), (before.0 + 1, 0));
    assert!(
        models.contains(&"Pte Walsh (fighting fit)".to_owned()),
        "{models:?}"
    );
}

/// Review finding SHOULD 7 in the app: the battle open in the app was
/// played on in both copies. After File > Merge a copy… the notice says the
/// other copy's line landed as a branch, the open battle is read again (it
/// shows both branches, this copy's line current) and play goes on from it
/// (a battle held from before the merge would be refused as stale).
#[test]
fn item_9_should_7_the_open_battle_played_on_in_both_copies_shows_the_other_line_and_plays_on() {
    use gui::command::{AppCommand, Intent, PlayRequest};
    let (dir, data) = gui_support::folder();
    let club = dir.path().join("club.xenolog");
    let laptop = dir.path().join("laptop.xenolog");
    let play = |path: &Path, id: i64, n: usize, k: usize| {
        let mut c = Campaign::open(path).unwrap();
        let mut b = c.load_battle(id).unwrap();
        for i in 0..n {
            let legal = b.legal();
            let l = legal[(i * k + 2) % legal.len()].clone();
            c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
        }
    };
    let id = {
        let mut c = Campaign::create(&club, "Club").unwrap();
        c.new_battle(
            "race",
            8,
            &json!({"target": 1_000_000}),
            "Race",
            DiceMode::Rolled,
        )
        .unwrap()
    };
    play(&club, id, 20, 5);
    std::fs::copy(&club, &laptop).unwrap();
    play(&club, id, 10, 5);
    play(&laptop, id, 12, 3);
    // A note on the laptop's own last entry (issue 30 item 9 left-over).
    Campaign::open(&laptop)
        .unwrap()
        .set_note(id, 31, "the laptop's last push")
        .unwrap();
    let before = Campaign::open_read_only(&club)
        .unwrap()
        .load_battle(id)
        .unwrap()
        .records()
        .len();
    let mut h = opened(&club, &data, vec![Some(laptop.clone())]);
    assert_eq!(h.state().open.as_ref().map(|o| o.id), Some(id));
    let n = merge_a_copy(&mut h);
    assert!(
        n.text.contains("this copy's line is kept")
            && n.text
                .contains("as the branch \"Main (from the copy laptop.xenolog)\""),
        "{n:?}"
    );
    assert!(
        n.text
            .contains("The notes and bookmarks of 1 entry came over, each on its entry here."),
        "{n:?}"
    );
    let (branches, current, entries, kind) = {
        let b = &h.state().open.as_ref().unwrap().battle;
        (
            b.branches().len(),
            b.current_branch(),
            b.records().len(),
            b.branches()[1].kind,
        )
    };
    assert_eq!((branches, current), (2, 0));
    assert_eq!(kind, xenolog_engine::BranchKind::FromCopy, "shown by kind");
    h.run();
    assert!(
        h.query_by_label("↳ another copy's line from Main after #20")
            .is_some(),
        "the Branches panel says what the grafted line is"
    );
    let on_disk = Campaign::open_read_only(&club)
        .unwrap()
        .load_battle(id)
        .unwrap()
        .records()
        .len();
    assert_eq!(entries, on_disk, "the open battle was read again");
    // The notice counts the battle entries that landed, not only the log's
    // (review 1 SHOULD), and the merge's status line is not overwritten by
    // the open battle read again.
    let grafted = on_disk - before;
    assert!(grafted > 1);
    assert!(
        n.text.contains(&format!(
            "0 entries of laptop.xenolog landed in this campaign's log, and {grafted} battle entries of its moves in battles played on in both copies."
        )),
        "{n:?}"
    );
    assert_eq!(
        h.state().messages.status,
        format!(
            "Merged laptop.xenolog: 0 log entries and {grafted} battle entries landed, 0 battles copied, 0 conflicts set aside"
        )
    );
    // Play goes on from this copy's line.
    let l = h.state().open.as_ref().unwrap().battle.legal()[0].clone();
    h.state_mut().messages.retain_notices(|_| false);
    h.state_mut()
        .push(AppCommand::Give(PlayRequest::new(Intent::from(&l))));
    h.run();
    assert!(
        h.state().messages.notices().is_empty(),
        "{:?}",
        h.state().messages.notices()
    );
    let b = Campaign::open_read_only(&club)
        .unwrap()
        .load_battle(id)
        .unwrap();
    assert_eq!(b.records().len(), on_disk + 1);
    assert_eq!(b.current_branch(), 0);
}

/// Session 19: File > Merge a copy… runs on a worker thread (a large copy
/// froze the window): while it runs the window goes on drawing, a
/// "Merging…" notice says so and the campaign is shown read-only, the file
/// as it was; when it ends that notice gives way to the result's, the
/// campaign is writable again and its battles are read again.
#[test]
fn item_9_merge_a_copy_runs_on_a_worker_with_a_merging_notice_then_the_result() {
    let (dir, data) = gui_support::folder();
    let (club, laptop) = organiser_and_laptop(dir.path());
    {
        let mut l = Campaign::open(&laptop).unwrap();
        l.add_model(1, "Pte Walsh", "rifleman").unwrap();
        l.new_battle(
            "race",
            5,
            &json!({"target": 1_000}),
            "Race on the laptop",
            DiceMode::Rolled,
        )
        .unwrap();
    }
    let before = holds(&club);
    let mut h = opened(&club, &data, vec![Some(laptop.clone())]);
    let hold = h.state_mut().hold_merges();
    gui_support::menu(&mut h, "File", "Merge a copy…");
    // The worker waits: frames go on being drawn meanwhile.
    for _ in 0..3 {
        h.run();
    }
    assert!(h.state().merging());
    let n = h
        .state()
        .messages
        .notices()
        .last()
        .cloned()
        .expect("a notice");
    assert_eq!(n.title, "Merging laptop.xenolog…", "{n:?}");
    assert!(
        h.get_all_by_label_contains("Merging laptop.xenolog…")
            .next()
            .is_some(),
        "the notice is on screen"
    );
    assert_eq!(h.state().messages.status, "Merging laptop.xenolog…");
    assert!(h.state().campaign.as_ref().unwrap().is_read_only());
    assert_eq!(holds(&club), before, "nothing is written before it runs");
    hold.release();
    let n = until_merged(&mut h);
    assert_eq!(n.title, "Merged laptop.xenolog", "{n:?}");
    assert!(n.text.contains("1 entry of laptop.xenolog landed"), "{n:?}");
    assert!(
        h.state()
            .messages
            .notices()
            .iter()
            .all(|n| !n.title.starts_with("Merging")),
        "{:?}",
        h.state().messages.notices()
    );
    assert!(!h.state().campaign.as_ref().unwrap().is_read_only());
    assert!(
        h.state()
            .battles
            .iter()
            .any(|b| b.title == "Race on the laptop")
    );
    let (_, models, battles, _) = holds(&club);
    assert!(models.contains(&"Pte Walsh (fighting fit)".to_owned()));
    assert_eq!(battles, ["Race on the laptop"]);
}
