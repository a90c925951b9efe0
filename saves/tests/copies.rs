//! A campaign without a server (issue 30 item 9): copies of one campaign
//! file on several machines. A roster battle played on one copy and
//! imported into another counts for its rosters; two copies merge; what
//! comes from another machine is verified before it is trusted.

use std::path::{Path, PathBuf};

use serde_json::json;
use xenolog_engine::campaign::{CampaignEvent, ModelSheet, Status};
use xenolog_saves::{Campaign, DiceMode, SaveError, SeatPick};

/// A folder for the test's files.
fn place() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The organiser's campaign: Wyvern Platoon (four U.N.I.T. riflemen) and
/// Skaro Vanguard (two Daleks), nothing fought yet. Returns the roster ids.
fn organiser(path: &Path) -> (u32, u32) {
    let mut c = Campaign::create(path, "Hollow Farm").unwrap();
    let unit = c.add_roster("Wyvern Platoon", "unit").unwrap();
    let daleks = c.add_roster("Skaro Vanguard", "daleks").unwrap();
    for name in ["Sgt Benton", "Pte Yates", "Pte Harris", "Pte Osgood"] {
        c.add_model(unit, name, "rifleman").unwrap();
    }
    for name in ["Dalek Kaan", "Dalek Sec"] {
        c.add_model(daleks, name, "dalek").unwrap();
    }
    (unit, daleks)
}

/// A copy of a closed campaign file, as carried to another machine.
fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to).unwrap();
}

fn model_id(c: &Campaign, name: &str) -> u32 {
    c.campaign_state()
        .unwrap()
        .models
        .iter()
        .find(|m| m.name == name)
        .unwrap()
        .id
}

/// A roster battle of both rosters' fit models, played to its end
/// (shooting where it can, else ending the card).
fn roster_battle(c: &mut Campaign, seed: u64, unit: u32, daleks: u32) -> i64 {
    let s = c.campaign_state().unwrap();
    let fit = |r: u32| -> Vec<u32> {
        s.models
            .iter()
            .filter(|m| m.roster == r && m.status == Status::Fit)
            .map(|m| m.id)
            .collect()
    };
    let id = c
        .new_roster_battle(
            seed,
            &json!({"scenario": "skirmish"}),
            &[
                SeatPick {
                    seat: 0,
                    roster: unit,
                    models: fit(unit),
                },
                SeatPick {
                    seat: 1,
                    roster: daleks,
                    models: fit(daleks),
                },
            ],
            "",
            DiceMode::Rolled,
            false,
        )
        .unwrap();
    let mut b = c.load_battle(id).unwrap();
    for i in 0..3000 {
        if b.outcome().is_some() {
            break;
        }
        let legal = b.legal();
        assert!(!legal.is_empty(), "battle {id} stuck");
        // Shoot when it can (someone falls), else end the card.
        let l = legal
            .iter()
            .find(|l| l.text.contains("shoot"))
            .or_else(|| legal.iter().find(|l| l.text.contains("end the card")))
            .unwrap_or(&legal[i % legal.len()])
            .clone();
        c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
    }
    assert!(b.outcome().is_some(), "battle {id} did not end");
    id
}

/// A model's name, EP earned and spent, perception, status, kills, skills.
type Sheet = (String, u32, u32, u32, Status, u32, Vec<(String, u32)>);

/// What a model's sheet says of its campaign, whatever the battles' ids.
fn sheet(m: &ModelSheet) -> Sheet {
    (
        m.name.clone(),
        m.earned,
        m.spent,
        m.perception,
        m.status,
        m.kills,
        m.skills.clone(),
    )
}

fn sheets(c: &Campaign) -> Vec<Sheet> {
    c.campaign_state()
        .unwrap()
        .models
        .iter()
        .map(sheet)
        .collect()
}

fn log_len(c: &Campaign) -> usize {
    c.campaign_log().unwrap().len()
}

struct Copies {
    _dir: tempfile::TempDir,
    organiser: PathBuf,
    laptop: PathBuf,
    unit: u32,
    daleks: u32,
}

/// The organiser's file and a laptop's copy of it.
fn copies() -> Copies {
    let dir = place();
    let organiser_ = dir.path().join("club.xenolog");
    let laptop = dir.path().join("laptop.xenolog");
    let (unit, daleks) = organiser(&organiser_);
    copy(&organiser_, &laptop);
    Copies {
        organiser: organiser_,
        laptop,
        unit,
        daleks,
        _dir: dir,
    }
}

/// Issue 30 item 9: "a roster battle played on a laptop's copy of the
/// campaign, exported and imported into the organiser's file" counts for
/// its rosters exactly as if played there: experience, perception, the dead.
#[test]
fn item_9_a_roster_battle_from_another_copy_counts_on_import_as_if_played_here() {
    let k = copies();
    let file = k.laptop.with_extension("xenolog-battle");
    let played = {
        let mut l = Campaign::open(&k.laptop).unwrap();
        assert_eq!(
            l.uid().unwrap(),
            Campaign::open_read_only(&k.organiser)
                .unwrap()
                .uid()
                .unwrap(),
            "a copy keeps the campaign's uid"
        );
        let id = roster_battle(&mut l, 11, k.unit, k.daleks);
        l.export_battle(id, &file).unwrap();
        sheets(&l)
    };
    assert!(
        played.iter().any(|s| s.1 > 0),
        "someone gained experience on the laptop: {played:?}"
    );
    assert!(
        played.iter().any(|s| s.4 == Status::Dead),
        "someone died on the laptop: {played:?}"
    );
    let mut o = Campaign::open(&k.organiser).unwrap();
    // A bare battle first, so the imported battle's id differs from the laptop's.
    o.new_battle("race", 1, &json!({}), "", DiceMode::Rolled)
        .unwrap();
    assert_ne!(sheets(&o), played);
    let got = o.import_battle_counted(&file).unwrap();
    assert!(got.counted, "{got:?}");
    assert_eq!(got.notice, None);
    assert_eq!(
        sheets(&o),
        played,
        "the organiser's rosters are as the laptop's"
    );
    let s = o.campaign_state().unwrap();
    assert_eq!(s.battles.len(), 1);
    assert_eq!(s.battles[0].battle, got.id);
    assert!(o.verify_campaign().unwrap().ok());

    // The same file again: it arrives bare, nothing counted twice.
    let n = log_len(&o);
    let again = o.import_battle_counted(&file).unwrap();
    assert!(!again.counted);
    let why = again.notice.unwrap();
    assert!(why.contains("in this campaign already"), "{why}");
    assert_eq!(log_len(&o), n);
    assert_eq!(sheets(&o), played);
}

/// Into another campaign (not a copy: another uid) the battle arrives bare,
/// with a notice saying why.
#[test]
fn item_9_a_roster_battle_of_another_campaign_arrives_bare_with_a_notice() {
    let k = copies();
    let file = k.laptop.with_extension("xenolog-battle");
    {
        let mut l = Campaign::open(&k.laptop).unwrap();
        let id = roster_battle(&mut l, 12, k.unit, k.daleks);
        l.export_battle(id, &file).unwrap();
    }
    let other_path = k.laptop.with_file_name("other.xenolog");
    organiser(&other_path);
    let mut other = Campaign::open(&other_path).unwrap();
    let before = sheets(&other);
    let got = other.import_battle_counted(&file).unwrap();
    assert!(!got.counted);
    let why = got.notice.unwrap();
    assert!(
        why.contains("another campaign") && why.contains("Wyvern Platoon"),
        "{why}"
    );
    assert_eq!(sheets(&other), before);
    assert!(other.battles().unwrap().iter().any(|b| b.id == got.id));
}

/// A roster that no longer matches (a model retired meanwhile on the
/// organiser's copy) is refused in words naming it, and nothing is written.
#[test]
fn item_9_a_roster_that_no_longer_matches_is_refused_naming_the_model() {
    let k = copies();
    let file = k.laptop.with_extension("xenolog-battle");
    {
        let mut l = Campaign::open(&k.laptop).unwrap();
        let id = roster_battle(&mut l, 13, k.unit, k.daleks);
        l.export_battle(id, &file).unwrap();
    }
    let mut o = Campaign::open(&k.organiser).unwrap();
    let yates = model_id(&o, "Pte Yates");
    o.record(CampaignEvent::ModelRetired { model: yates })
        .unwrap();
    let (log, battles) = (log_len(&o), o.battles().unwrap().len());
    let err = o.import_battle_counted(&file).unwrap_err();
    assert!(matches!(err, SaveError::Refused(_)), "{err:?}");
    let words = err.to_string();
    assert!(
        words.contains("Pte Yates is retired") && words.contains("Wyvern Platoon"),
        "{words}"
    );
    assert!(words.contains("nothing was imported"), "{words}");
    assert_eq!(log_len(&o), log);
    assert_eq!(o.battles().unwrap().len(), battles);
}

/// A battle file whose link was altered to credit a model that never fought
/// is refused: the link must be what the battle's own config says.
#[test]
fn item_9_a_link_that_does_not_match_its_battle_is_refused() {
    use xenolog_schema::battle_file::{read_battle_file_linked, write_battle_file_linked};
    let k = copies();
    let file = k.laptop.with_extension("xenolog-battle");
    {
        let mut l = Campaign::open(&k.laptop).unwrap();
        let id = roster_battle(&mut l, 14, k.unit, k.daleks);
        l.export_battle(id, &file).unwrap();
    }
    let (f, link) = read_battle_file_linked(&std::fs::read(&file).unwrap()).unwrap();
    let mut link = link.expect("a roster battle's file carries its campaign link");
    link.fighters[0].0 = 999;
    let forged = k.laptop.with_file_name("forged.xenolog-battle");
    std::fs::write(&forged, write_battle_file_linked(&f, Some(&link)).unwrap()).unwrap();
    let mut o = Campaign::open(&k.organiser).unwrap();
    let err = o.import_battle_counted(&forged).unwrap_err();
    assert!(
        err.to_string().contains("does not match the rosters"),
        "{err}"
    );
    assert!(o.battles().unwrap().is_empty());
}
