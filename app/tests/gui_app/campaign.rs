//! The Campaign view (issue 11): add a model, fight a battle with it, see
//! its experience rise, buy a skill, take back a turn of that battle and
//! play another line, see the campaign change and the purchase flagged.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use xenolog_saves::Campaign;

use super::support::{app_with, click, menu, no_notices, shot, type_into, until_merged};
use crate::gui::app::App;
use crate::gui::command::{AppCommand, Intent, PlayRequest};

/// A campaign file with a U.N.I.T. roster (Hawks) and a Dalek one.
fn given_campaign(dir: &Path) -> PathBuf {
    let path = dir.join("club.xenolog");
    let mut c = Campaign::create(&path, "Club").unwrap();
    c.add_roster("Hawks", "unit").unwrap();
    c.add_roster("Exterminators", "daleks").unwrap();
    path
}

/// Give a command as the board would (a new branch agreed to).
fn give(h: &mut Harness<'_, App>, l: &xenolog_engine::LegalCommand) {
    let mut req = PlayRequest::new(Intent::from(l));
    req.branch_ok = true;
    h.state_mut().push(AppCommand::Give(req));
    h.run();
}

/// Play the open battle to its end, every side ending every card.
fn play_to_end(h: &mut Harness<'_, App>) {
    for _ in 0..300 {
        let legal = {
            let ob = h.state().open.as_ref().expect("a battle is open");
            if ob.battle.outcome().is_some() {
                return;
            }
            ob.battle.legal()
        };
        let l = legal
            .iter()
            .find(|l| l.text.contains("end the card"))
            .unwrap_or(&legal[0])
            .clone();
        give(h, &l);
    }
    panic!("the battle did not end");
}

/// The app on the campaign file `path` (its data folder in `dir`), showing
/// the Campaign view.
fn campaign_view_of(path: &Path, dir: &Path) -> Harness<'static, App> {
    let mut h = app_with(Some(path.to_owned()), Some(dir.join("data")), Vec::new());
    h.run();
    click(&mut h, "Rosters and experience…");
    h
}

fn fight_with(h: &mut Harness<'_, App>, name: &str, seed: &str) {
    click(h, &format!("Fight: {name}"));
    type_into(h, "Seed:", seed);
    click(h, "Start battle with the picked models");
    no_notices(h);
    assert!(!h.state().campaign_view.shown, "the battle is shown");
    play_to_end(h);
    click(h, "Rosters and experience…");
}

#[test]
fn a_model_recruited_fights_gains_experience_buys_a_skill_and_a_taken_back_battle_flags_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = given_campaign(dir.path());
    let mut h = app_with(Some(path), Some(dir.path().join("data")), Vec::new());
    h.run();
    // Given the Campaign view
    click(&mut h, "Rosters and experience…");
    assert!(h.state().campaign_view.shown);
    // When a model is recruited
    type_into(&mut h, "Name or ID code:", "Sgt Benton");
    click(&mut h, "Recruit");
    // Then its row shows no experience
    h.get_by_label("Sgt Benton");
    h.get_by_label("EP 0/0");
    // When he fights a battle and is on the table at its end
    fight_with(&mut h, "Sgt Benton", "7");
    // Then his experience and perception rise
    h.get_by_label("EP 1/1");
    h.get_by_label("+1");
    // And after a second battle he has 2 EP to spend
    fight_with(&mut h, "Sgt Benton", "8");
    h.get_by_label("EP 2/2");
    // When the Buy skill dialog is opened
    click(&mut h, "Buy skill for Sgt Benton…");
    // Then what he cannot afford is greyed out with the reason
    assert!(
        h.get_all_by_label_contains("Lightening Action costs 6 EP and Sgt Benton has 2 unspent")
            .next()
            .is_some()
    );
    shot(&mut h, "campaign-buy");
    // When he buys Crack Shot
    click(&mut h, "Buy Crack Shot");
    click(&mut h, "Done");
    // Then it is on his row and his EP is spent
    h.get_by_label("Crack Shot");
    h.get_by_label("EP 0/2");
    // When the second battle is reopened, a turn taken back and another line played
    click(&mut h, "Back to the battles");
    for _ in 0..3 {
        h.state_mut().push(AppCommand::Undo);
        h.run();
    }
    let other = {
        let ob = h.state().open.as_ref().unwrap();
        ob.battle
            .legal()
            .into_iter()
            .find(|l| !l.text.contains("end the card"))
            .expect("another command")
    };
    give(&mut h, &other);
    no_notices(&h);
    click(&mut h, "Rosters and experience…");
    // Then the view says what changed
    h.get_by_label("The campaign was recomputed. What changed:");
    assert!(
        h.get_all_by_label_contains("Sgt Benton: -1 EP, -1 perception")
            .next()
            .is_some()
    );
    h.get_by_label("EP -1/1");
    // And the purchase is flagged for the player to resolve
    assert!(
        h.get_all_by_label_contains("To resolve: Sgt Benton's Crack Shot")
            .next()
            .is_some()
    );
    // And his sheet tells his history battle by battle
    click(&mut h, "Sgt Benton");
    h.get_by_label("Sgt Benton's sheet");
    assert!(
        h.get_all_by_label_contains("survived Campaign battle 1")
            .next()
            .is_some()
    );
    shot(&mut h, "campaign");
    // And the roster sheets print as HTML beside the campaign
    click(&mut h, "Export roster sheets (HTML)");
    let sheet = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().ends_with("Hawks.html"))
        .expect("a roster sheet");
    let html = std::fs::read_to_string(sheet.path()).unwrap();
    assert!(
        html.contains("Sgt Benton") && html.contains("Crack Shot"),
        "{html}"
    );
    // And the campaign report tells both battles and the rosters
    click(&mut h, "Export campaign report (HTML)");
    assert!(
        h.get_all_by_label_contains("Wrote the campaign report (2 battles)")
            .next()
            .is_some()
    );
    let report = std::fs::read_to_string(dir.path().join("club-report.html")).unwrap();
    // Each battle headed by its name, as the Campaign view names it.
    assert!(report.contains("<h3>Campaign battle 2</h3>"), "{report}");
    assert!(
        report.contains("Hawks") && report.contains("Crack Shot"),
        "{report}"
    );
}

#[test]
fn a_seed_that_is_not_a_number_is_refused_in_words_and_starts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = given_campaign(dir.path());
    let mut h = campaign_view_of(&path, dir.path());
    type_into(&mut h, "Name or ID code:", "Sgt Benton");
    click(&mut h, "Recruit");
    click(&mut h, "Fight: Sgt Benton");
    type_into(&mut h, "Seed:", "12x");
    click(&mut h, "Start battle with the picked models");
    assert!(
        h.get_all_by_label_contains("Refused: the seed must be a whole number")
            .next()
            .is_some()
    );
    assert!(h.state().campaign_view.shown, "still on the Campaign view");
    assert!(h.state().open.is_none(), "no battle opened");
    drop(h);
    assert!(Campaign::open(&path).unwrap().battles().unwrap().is_empty());
}

/// A club organiser's first campaign: a new campaign file has no roster,
/// and the app said only "raise one with `xenolog roster add`". The
/// Campaign view raises one (a name and a faction), refusing a roster with
/// no name in words, and its first model is recruited into it.
#[test]
fn a_new_campaign_raises_a_roster_in_the_app_and_recruits_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.xenolog");
    Campaign::create(&path, "Club").unwrap();
    let mut h = campaign_view_of(&path, dir.path());
    h.get_by_label_contains("No roster yet: raise one above");
    // A roster with no name is refused in words, and nothing is written.
    click(&mut h, "Raise the roster");
    assert!(
        h.get_all_by_label_contains("Refused: give the roster a name first")
            .next()
            .is_some()
    );
    // The faction: the Daleks, chosen from the list.
    type_into(&mut h, "Roster name:", "Skaro Vanguard");
    click(&mut h, "Faction");
    click(&mut h, "Daleks");
    click(&mut h, "Raise the roster");
    no_notices(&h);
    assert!(
        h.get_all_by_label_contains("Raised Skaro Vanguard (Daleks)")
            .next()
            .is_some()
    );
    h.get_by_label("Skaro Vanguard (Daleks)");
    shot(&mut h, "campaign_raised");
    type_into(&mut h, "Name or ID code:", "Dalek Kaan");
    click(&mut h, "Recruit");
    h.get_by_label("Dalek Kaan");
    drop(h);
    let c = Campaign::open(&path).unwrap();
    let state = c.campaign_state().unwrap();
    let rosters: Vec<(&str, &str)> = state
        .rosters
        .iter()
        .map(|r| (r.name.as_str(), r.faction.as_str()))
        .collect();
    assert_eq!(
        rosters,
        [("Skaro Vanguard", "daleks")],
        "one roster, written"
    );
    assert_eq!(state.rosters[0].models.len(), 1, "{:?}", state.rosters[0]);
}

/// File > Export roster sheets, from the battles (the Campaign view never
/// drawn), writes the sheets: it said "Refused: the campaign is not read
/// yet" and wrote nothing.
#[test]
fn export_roster_sheets_from_the_file_menu_writes_them() {
    let (dir, mut h) = super::views::sample_at(eframe::egui::vec2(1360.0, 860.0));
    super::support::menu(&mut h, "File", "Export roster sheets");
    let status = h.state().messages.status.clone();
    assert!(status.starts_with("Wrote the roster sheets"), "{status}");
    let sheets = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains("-roster-"))
        .count();
    assert!(
        sheets >= 2,
        "the sample's two rosters: {sheets} sheets written"
    );
}

/// What two copies of a campaign merged set aside is shown in the Campaign
/// view afterwards (not only in the merge's notice), in `campaign log`'s
/// words: after File > Merge a copy… with the view open, and in the file
/// opened again; a campaign with nothing set aside has no such section.
#[test]
fn the_campaign_view_lists_what_merges_set_aside_in_the_campaign_logs_words() {
    let dir = tempfile::tempdir().unwrap();
    let club = given_campaign(dir.path());
    {
        let mut c = Campaign::open(&club).unwrap();
        c.add_model(1, "Pte Yates", "rifleman").unwrap();
    }
    // Both copies retire Pte Yates: a merge sets one retirement aside.
    let laptop = dir.path().join("laptop.xenolog");
    std::fs::copy(&club, &laptop).unwrap();
    let retire = |path: &Path| {
        let mut c = Campaign::open(path).unwrap();
        let s = c.campaign_state().unwrap();
        let model = s.models.iter().find(|m| m.name == "Pte Yates").unwrap().id;
        c.record(xenolog_engine::campaign::CampaignEvent::ModelRetired { model })
            .unwrap();
    };
    retire(&club);
    retire(&laptop);
    // Before the merge: no section.
    let mut h = app_with(
        Some(club.clone()),
        Some(dir.path().join("data")),
        vec![Some(laptop.clone())],
    );
    h.run();
    click(&mut h, "Rosters and experience…");
    assert!(h.query_all_by_label_contains("Pte Yates").next().is_some());
    assert!(
        h.query_by_label_contains("Set aside by merges").is_none(),
        "nothing was set aside"
    );
    // File > Merge a copy… with the view open: the section appears.
    menu(&mut h, "File", "Merge a copy…");
    until_merged(&mut h);
    assert!(h.state().campaign_view.shown, "still on the Campaign view");
    // The line `xenolog campaign log` prints for it, after its "   -  ".
    let words = {
        let c = Campaign::open_read_only(&club).unwrap();
        let (state, names) = (c.campaign_state().unwrap(), c.battle_names().unwrap());
        let xs = c.campaign_conflicts().unwrap();
        assert_eq!(xs.len(), 1, "{xs:?}");
        xs[0].words(&state, &names)
    };
    assert!(
        words.contains("Pte Yates retired")
            && words.ends_with("(set aside: Pte Yates is retired already)"),
        "{words}"
    );
    assert!(h.query_by_label("Set aside by merges (1)").is_some());
    assert!(h.query_by_label(&words).is_some(), "{words}");
    drop(h);
    // The file opened again: read with the campaign.
    let mut h = campaign_view_of(&club, dir.path());
    assert!(h.query_by_label("Set aside by merges (1)").is_some());
    assert!(h.query_by_label(&words).is_some(), "{words}");
    shot(&mut h, "campaign_set_aside");
}

/// Session 22's merge30 notes: the Campaign view's "Campaign log" fold-out
/// read the campaign's log from the file every frame while it was open. It
/// reads it once, and again after the campaign changes: a model recruited
/// with the fold-out open is in it at once.
#[test]
fn the_campaign_log_fold_out_reads_the_file_once_and_again_when_the_campaign_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = given_campaign(dir.path());
    let mut h = campaign_view_of(&path, dir.path());
    click(&mut h, "Campaign log");
    // The log's lines: "N: what happened".
    let log_lines = |h: &Harness<'_, App>| -> Vec<String> {
        h.get_all_by_label_contains(": ")
            .filter_map(|n| {
                let n = n.accesskit_node();
                n.label().or_else(|| n.value())
            })
            .filter(|l| {
                l.split_once(": ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            })
            .collect()
    };
    let first = log_lines(&h);
    assert_eq!(first.len(), 2, "the two rosters raised: {first:?}");
    let reads = |h: &Harness<'_, App>| h.state().campaign_view.log_reads;
    let once = reads(&h);
    assert!(once >= 1, "the fold-out read the log");
    for _ in 0..5 {
        h.run();
    }
    assert_eq!(reads(&h), once, "frames with nothing changed read nothing");
    assert!(h.query_by_label_contains("Sgt Benton").is_none());
    type_into(&mut h, "Name or ID code:", "Sgt Benton");
    click(&mut h, "Recruit");
    no_notices(&h);
    let lines = log_lines(&h);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with("3: ") && lines[0].contains("Sgt Benton"),
        "the third campaign entry, the recruit, heads the log: {lines:?}"
    );
    assert!(reads(&h) > once, "read again after the change");
    let again = reads(&h);
    h.run();
    h.run();
    assert_eq!(reads(&h), again);
}

/// Session 22's closing note: the Campaign view copied the campaign's state
/// every frame. Frames share the state read; a change is read anew and shows.
#[test]
fn the_campaign_view_copies_nothing_a_frame_and_a_recruit_still_shows() {
    let dir = tempfile::tempdir().unwrap();
    let path = given_campaign(dir.path());
    let mut h = campaign_view_of(&path, dir.path());
    let state = |h: &Harness<'_, App>| h.state().campaign_view.state.clone().unwrap();
    let first = state(&h);
    for _ in 0..5 {
        h.run();
    }
    assert!(
        std::rc::Rc::ptr_eq(&first, &state(&h)),
        "frames with nothing changed share the state read"
    );
    type_into(&mut h, "Name or ID code:", "Sgt Benton");
    click(&mut h, "Recruit");
    h.get_by_label("Sgt Benton");
    let after = state(&h);
    assert!(!std::rc::Rc::ptr_eq(&first, &after), "the change was read");
    assert!(
        after.models.iter().any(|m| m.name == "Sgt Benton"),
        "the recruit is in the state shown"
    );
}
