//! Verified before trusted, in the app (issue 30 item 9): a campaign file
//! from elsewhere whose snapshot was altered and its hashes forged to match
//! opens at once; the check on a worker thread then names the first entry
//! that does not replay in a notice. A genuine campaign gives none.

use std::path::Path;

use egui_kittest::kittest::Queryable;
use serde_json::json;
use xenolog::gui;
use xenolog_saves::{Campaign, DiceMode};

#[path = "../../saves/tests/support/forge.rs"]
mod forge;
#[path = "gui_app/support.rs"]
#[allow(dead_code)]
mod gui_support;

#[test]
fn item_9_opening_a_campaign_with_a_forged_snapshot_shows_a_notice_naming_the_entry() {
    let (dir, data) = gui_support::folder();
    let path = dir.path().join("from-elsewhere.xenolog");
    let id = forge::raced_campaign(&path);
    let at = forge::forge_snapshot(&path, id);
    let mut h = gui_support::app_with(Some(path.clone()), Some(data.clone()), Vec::new());
    h.run();
    // It opened, on its battle (under the tests the check runs to its end
    // before the first frame; its notice comes with the first frame after).
    assert!(h.state().open.as_ref().is_some_and(|o| o.id == id));
    gui_support::until_checked(&mut h);
    let notices = h.state().messages.notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    let n = &notices[0];
    assert!(n.title.contains("does not replay"), "{n:?}");
    let words = format!("battle {id} (Race): entry {at} does not replay");
    assert!(n.text.contains(&words), "{n:?}");
    // On screen, in words.
    h.get_by_label_contains(&words);

    // A genuine campaign opened on this machine: no notice.
    let good = dir.path().join("good.xenolog");
    forge::raced_campaign(&good);
    let mut h = gui_support::app_with(Some(good), Some(data), Vec::new());
    h.run();
    gui_support::until_checked(&mut h);
    assert!(h.state().messages.notices().is_empty());
}

/// Issue 30 item 9 in the app: File > Import battle of a roster battle
/// exported from a laptop's copy of the campaign counts it for its rosters
/// (said in the status line); a second import arrives bare, with a notice
/// saying why.
#[test]
fn item_9_importing_a_roster_battle_of_a_copy_in_the_app_counts_it_or_says_why_not() {
    use xenolog_engine::campaign::Status;
    use xenolog_saves::SeatPick;
    let (dir, data) = gui_support::folder();
    let organiser = dir.path().join("club.xenolog");
    let laptop = dir.path().join("laptop.xenolog");
    {
        let mut c = Campaign::create(&organiser, "Hollow Farm").unwrap();
        let unit = c.add_roster("Wyvern Platoon", "unit").unwrap();
        let daleks = c.add_roster("Skaro Vanguard", "daleks").unwrap();
        for name in ["Sgt Benton", "Pte Yates"] {
            c.add_model(unit, name, "rifleman").unwrap();
        }
        c.add_model(daleks, "Dalek Kaan", "dalek").unwrap();
    }
    std::fs::copy(&organiser, &laptop).unwrap();
    let file = dir.path().join("skirmish.xenolog-battle");
    {
        let mut l = Campaign::open(&laptop).unwrap();
        let id = l
            .new_roster_battle(
                3,
                &json!({"scenario": "skirmish"}),
                &[
                    SeatPick {
                        seat: 0,
                        roster: 1,
                        models: vec![1, 2],
                    },
                    SeatPick {
                        seat: 1,
                        roster: 2,
                        models: vec![3],
                    },
                ],
                "",
                DiceMode::Rolled,
                false,
            )
            .unwrap();
        let mut b = l.load_battle(id).unwrap();
        while b.outcome().is_none() {
            let legal = b.legal();
            let c = legal
                .iter()
                .find(|c| c.text.contains("end the card"))
                .unwrap_or(&legal[0])
                .clone();
            l.play(id, &mut *b, c.actor, &c.command, None).unwrap();
        }
        l.export_battle(id, &file).unwrap();
    }
    let mut h = gui_support::app_with(Some(organiser.clone()), Some(data), Vec::new());
    h.run();
    gui_support::until_checked(&mut h);
    h.state_mut()
        .push(gui::command::AppCommand::ImportBattle(file.clone()));
    h.run();
    let status = h.state().messages.status.clone();
    assert!(status.contains("it counts for its rosters"), "{status}");
    assert!(h.state().messages.notices().is_empty());
    let benton = |path: &Path| {
        let s = Campaign::open_read_only(path)
            .unwrap()
            .campaign_state()
            .unwrap();
        let m = s.models.iter().find(|m| m.name == "Sgt Benton").unwrap();
        (m.earned, m.status)
    };
    assert_eq!(benton(&organiser), (1, Status::Fit));
    h.state_mut()
        .push(gui::command::AppCommand::ImportBattle(file));
    h.run();
    let notices = h.state().messages.notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].title.contains("without its rosters")
            && notices[0].text.contains("no experience is counted twice"),
        "{notices:?}"
    );
    assert_eq!(benton(&organiser), (1, Status::Fit));
}
