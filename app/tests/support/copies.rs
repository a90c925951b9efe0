//! Copies of one campaign for the merge tests (issue 30 item 9; the command
//! line's `cli_copies.rs` and `cli_merge_pg.rs`, the app's `gui_copies.rs`):
//! the organiser's campaign, a model found by its name, a roster battle
//! played to its end, and what a campaign holds, compared before and after.
#![allow(dead_code)]

use std::path::Path;

use serde_json::json;
use xenolog_engine::campaign::{CampaignEvent, ModelSheet, Status};
use xenolog_saves::{Campaign, DiceMode, SeatPick};

/// The organiser's campaign "Hollow Farm" at `path`: Wyvern Platoon
/// (U.N.I.T.) of `riflemen`, and Skaro Vanguard (Daleks) of `daleks` when
/// there are any.
pub fn organiser(path: &Path, riflemen: &[&str], daleks: &[&str]) {
    let mut c = Campaign::create(path, "Hollow Farm").unwrap();
    let unit = c.add_roster("Wyvern Platoon", "unit").unwrap();
    let skaro = (!daleks.is_empty()).then(|| c.add_roster("Skaro Vanguard", "daleks").unwrap());
    for name in riflemen {
        c.add_model(unit, name, "rifleman").unwrap();
    }
    for name in daleks {
        c.add_model(skaro.unwrap(), name, "dalek").unwrap();
    }
}

/// The model called `name` (the test fails if there is none).
pub fn model_named(c: &Campaign, name: &str) -> ModelSheet {
    let s = c.campaign_state().unwrap();
    s.models
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no model is called {name}"))
        .clone()
}

/// The experience `name` has earned.
pub fn earned(c: &Campaign, name: &str) -> u32 {
    model_named(c, name).earned
}

pub fn retire(c: &mut Campaign, name: &str) {
    let model = model_named(c, name).id;
    c.record(CampaignEvent::ModelRetired { model }).unwrap();
}

pub fn buy(c: &mut Campaign, model: u32, skill: &str) {
    c.record(CampaignEvent::SkillBought {
        model,
        skill: skill.into(),
    })
    .unwrap();
}

/// A roster battle of every fit model of rosters 1 and 2, played to its
/// end by ending cards (everyone survives); its id.
pub fn peaceful_battle(c: &mut Campaign, seed: u64) -> i64 {
    let st = c.campaign_state().unwrap();
    let fit = |r: u32| -> Vec<u32> {
        st.models
            .iter()
            .filter(|m| m.roster == r && m.status == Status::Fit)
            .map(|m| m.id)
            .collect()
    };
    let picks = [
        SeatPick {
            seat: 0,
            roster: 1,
            models: fit(1),
        },
        SeatPick {
            seat: 1,
            roster: 2,
            models: fit(2),
        },
    ];
    let id = c
        .new_roster_battle(
            seed,
            &json!({"scenario": "skirmish"}),
            &picks,
            "",
            DiceMode::Rolled,
            false,
        )
        .unwrap();
    let mut b = c.load_battle(id).unwrap();
    for _ in 0..3000 {
        if b.outcome().is_some() {
            return id;
        }
        let legal = b.legal();
        let l = legal
            .iter()
            .find(|l| l.text.contains("end the card"))
            .or(legal.first())
            .unwrap()
            .clone();
        c.play(id, &mut *b, l.actor, &l.command, None).unwrap();
    }
    panic!("battle {id} did not end");
}

/// What a campaign holds: its log's length, the models' names and
/// statuses, its battles' titles, the entries set aside.
pub fn holds(c: &Campaign) -> (usize, Vec<String>, Vec<String>, usize) {
    let s = c.campaign_state().unwrap();
    (
        c.campaign_log().unwrap().len(),
        s.models
            .iter()
            .map(|m| format!("{} ({})", m.name, m.status.word()))
            .collect(),
        c.battles().unwrap().into_iter().map(|b| b.title).collect(),
        c.campaign_conflicts().unwrap().len(),
    )
}
