//! The campaign on the command line (issue 11), given/when/then: rosters,
//! models, every cost and cap of the Experience text, the award after a
//! battle, no experience twice for one battle, and a battle taken back
//! changing the campaign and flagging a purchase.
//!
//! The battles are played in-process through the store (a "peaceful" line:
//! every side ends every card, so every model is on the table at the end);
//! everything the test asserts about goes through the real `xenolog` binary.

#[path = "support/cli.rs"]
mod support;
use support::{assert_says_all, ok, xenolog};

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;
use xenolog_engine::campaign::{CampaignEvent, Fighter};
use xenolog_saves::Campaign;

/// A refusal: exit code 1, its words on stderr.
fn refused(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(1),
        "expected a refusal\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

struct Club {
    _dir: tempfile::TempDir,
    file: PathBuf,
}

impl Club {
    /// A campaign with a U.N.I.T. roster "Hawks" and a Dalek roster.
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("club.xenolog");
        let club = Self { _dir: dir, file };
        ok(&xenolog(&["new", club.f()]));
        ok(&xenolog(&[
            "roster",
            "add",
            club.f(),
            "--name",
            "Hawks",
            "--faction",
            "unit",
        ]));
        ok(&xenolog(&[
            "roster",
            "add",
            club.f(),
            "--name",
            "Exterminators",
            "--faction",
            "daleks",
        ]));
        club
    }

    fn f(&self) -> &str {
        self.file.to_str().unwrap()
    }

    fn on_battle(&self, verb: &str, id: &str, more: &[&str]) -> String {
        support::on_battle(self.f(), verb, id, more)
    }

    /// When a skirmish is started with `more` arguments (it may be refused).
    fn skirmish(&self, more: &[&str]) -> Output {
        let mut args = vec![
            "battle",
            self.f(),
            "--game",
            "invasion",
            "--scenario",
            "skirmish",
        ];
        args.extend_from_slice(more);
        xenolog(&args)
    }

    fn run(&self, args: &[&str]) -> Output {
        let mut all: Vec<&str> = Vec::new();
        let mut placed = false;
        for a in args {
            all.push(a);
            // The file goes after the subcommand words.
            if !placed && !matches!(*a, "roster" | "model" | "skill" | "campaign") {
                all.push(self.f());
                placed = true;
            }
        }
        xenolog(&all)
    }

    fn recruit(&self, name: &str, kind: &str) -> u32 {
        ok(&self.run(&[
            "model", "add", "--roster", "Hawks", "--name", name, "--kind", kind,
        ]))
        .trim()
        .parse()
        .unwrap()
    }

    /// Start a skirmish with these Hawks models on seat 0 (the CLI).
    fn battle(&self, models: &[u32]) -> i64 {
        let list: Vec<String> = models.iter().map(u32::to_string).collect();
        let pick = format!("1=1:{}", list.join(","));
        ok(&self.skirmish(&["--seed", "7", "--roster", &pick]))
            .trim()
            .parse()
            .unwrap()
    }

    /// Play a battle to its end with every side ending every card: every
    /// model is on the table when it ends.
    fn play_peacefully(&self, battle: i64) {
        let mut c = Campaign::open(&self.file).unwrap();
        let mut b = c.load_battle(battle).unwrap();
        for _ in 0..500 {
            if b.outcome().is_some() {
                return;
            }
            let legal = b.legal();
            let l = legal
                .iter()
                .find(|l| l.text.contains("end the card"))
                .or(legal.first())
                .expect("a command")
                .clone();
            c.play(battle, &mut *b, l.actor, &l.command, None).unwrap();
        }
        panic!("battle {battle} did not end");
    }

    fn state(&self) -> Value {
        serde_json::from_str(&ok(&self.run(&["campaign", "state", "--json"]))).unwrap()
    }

    fn sheet(&self, model: u32) -> Value {
        self.state()["models"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == model)
            .cloned()
            .unwrap()
    }

    fn log_len(&self) -> usize {
        ok(&self.run(&["campaign", "log", "--json"]))
            .lines()
            .count()
    }
}

#[test]
fn a_new_model_starts_with_no_experience_and_a_bad_type_is_refused_in_words() {
    // Given a campaign with the Hawks roster
    let club = Club::new();
    // When a rifleman is recruited
    let benton = club.recruit("Sgt Benton", "rifleman");
    // Then he is fighting fit with no experience and no skills
    let m = club.sheet(benton);
    assert_eq!(m["status"], "fit");
    assert_eq!(
        (m["earned"].as_u64(), m["unspent"].as_i64()),
        (Some(0), Some(0))
    );
    assert_eq!(m["skills"].as_array().unwrap().len(), 0);
    // And a model type the faction does not have is refused, nothing written
    let before = club.log_len();
    let e = refused(&club.run(&[
        "model", "add", "--roster", "Hawks", "--name", "X", "--kind", "dalek",
    ]));
    assert_says_all(&e, &["no model type 'dalek'"]);
    assert_eq!(club.log_len(), before);
}

#[test]
fn a_model_that_survives_a_battle_gains_one_ep_and_one_perception_once() {
    // Given Sgt Benton fighting a battle that is not over yet
    let club = Club::new();
    let benton = club.recruit("Sgt Benton", "rifleman");
    let battle = club.battle(&[benton]);
    assert_eq!(club.sheet(benton)["earned"], 0, "no EP before the end");
    // When the battle ends with him on the table
    club.play_peacefully(battle);
    // Then he has 1 EP and +1 perception
    let m = club.sheet(benton);
    assert_eq!(m["earned"], 1);
    assert_eq!(m["unspent"], 1);
    assert_eq!(m["perception"], 1);
    assert_eq!(m["battles"], serde_json::json!([battle]));
    // And reading the campaign again, or scrubbing the battle back, awards
    // nothing more and takes nothing away
    club.on_battle("seek", &battle.to_string(), &["--to", "3"]);
    assert_eq!(club.sheet(benton)["earned"], 1);
    assert_eq!(club.sheet(benton)["earned"], 1);
    // And the same battle cannot be taken into the campaign twice
    let mut c = Campaign::open(&club.file).unwrap();
    let e = c
        .record(CampaignEvent::BattleFought {
            battle,
            fighters: vec![Fighter {
                model: benton,
                piece: "unit-m1".into(),
            }],
        })
        .unwrap_err()
        .to_string();
    assert_says_all(&e, &["never awarded twice"]);
    drop(c);
    assert_eq!(club.sheet(benton)["earned"], 1);
    // And undoing and redoing the battle's campaign entry gives it back once
    ok(&club.run(&["campaign", "undo"]));
    assert_eq!(club.sheet(benton)["earned"], 0);
    ok(&club.run(&["campaign", "redo"]));
    assert_eq!(club.sheet(benton)["earned"], 1);
}

/// (skill, cost, cap) of the shipped table, in its order: the engine's
/// `skills_every_cost_and_cap_of_the_text` (engine/tests/campaign_experience.rs)
/// pins them to the Experience text; here the command line shows and keeps
/// them.
fn table() -> Vec<(String, u32, u32)> {
    xenolog_engine::campaign::skills::shipped()
        .into_iter()
        .map(|s| (s.id, s.cost, s.max))
        .collect()
}

#[test]
fn skill_list_states_every_cost_and_cap_of_the_text() {
    let out = ok(&xenolog(&["skill", "list", "x", "--json"]));
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let table = table();
    assert_eq!(rows.len(), table.len());
    assert_eq!(table.len(), 9, "the text's nine skills");
    for (id, cost, cap) in table {
        let r = rows.iter().find(|r| r["id"] == id.as_str()).expect(&id);
        assert_eq!(
            (r["cost"].as_u64(), r["max"].as_u64()),
            (Some(u64::from(cost)), Some(u64::from(cap))),
            "{id}"
        );
    }
}

#[test]
fn every_skill_costs_its_ep_and_stops_at_its_cap_and_beyond_the_points_is_refused() {
    // Given nine Hawks, one per skill (eight riflemen and a gunner)
    let club = Club::new();
    let table = table();
    let mut models = Vec::new();
    for (i, (id, cost, cap)) in table.iter().enumerate() {
        let kind = if i == 8 { "lsw" } else { "rifleman" };
        models.push((
            club.recruit(&format!("Trooper {id}"), kind),
            id,
            *cost,
            *cap,
        ));
    }
    let ids: Vec<u32> = models.iter().map(|m| m.0).collect();
    // When they survive one battle
    let b = club.battle(&ids);
    club.play_peacefully(b);
    // Then a 2 EP skill is beyond the 1 EP each has: refused in words, nothing written
    let before = club.log_len();
    let e = refused(&club.run(&["skill", "buy", &ids[1].to_string(), "crack_shot"]));
    assert_says_all(&e, &["Crack Shot costs 2 EP", "has 1 unspent"]);
    assert_eq!(club.log_len(), before);
    assert_eq!(club.sheet(ids[1])["unspent"], 1);
    // Given they survive nine battles more (10 EP each)
    for _ in 0..9 {
        let b = club.battle(&ids);
        club.play_peacefully(b);
    }
    for &(model, skill, cost, cap) in &models {
        let m = model.to_string();
        // When the model buys the skill up to its cap
        for n in 1..=cap {
            let out: Value =
                serde_json::from_str(&ok(&club.run(&["skill", "buy", "--json", &m, skill])))
                    .unwrap();
            // Then each purchase costs exactly the skill's EP
            assert_eq!(out["unspent"], 10 - i64::from(cost * n), "{skill} x{n}");
        }
        assert_eq!(
            club.sheet(model)["skills"],
            serde_json::json!([[skill, cap]]),
            "{skill}"
        );
        // And one more is refused with the cap in words, nothing written
        let before = club.log_len();
        let e = refused(&club.run(&["skill", "buy", &m, skill]));
        if cap == 1 {
            assert!(e.contains("may be bought once"), "{skill}: {e}");
        } else {
            assert!(
                e.contains(&format!("a maximum of {cap} times")),
                "{skill}: {e}"
            );
        }
        assert_eq!(club.log_len(), before, "{skill}");
        assert_eq!(club.sheet(model)["unspent"], 10 - i64::from(cost * cap));
    }
    // And `skill list MODEL` says why a skill cannot be bought
    let out = ok(&club.run(&["skill", "list", &ids[3].to_string()]));
    assert_says_all(&out, &["Tough as Nails", "no, "]);
    // And verify passes
    ok(&xenolog(&["verify", club.f()]));
}

#[test]
fn a_battle_taken_back_changes_the_campaign_and_flags_a_purchase() {
    // Given Pte Yates survived two battles and bought Crack Shot with the 2 EP
    let club = Club::new();
    let yates = club.recruit("Pte Yates", "rifleman");
    let first = club.battle(&[yates]);
    club.play_peacefully(first);
    let second = club.battle(&[yates]);
    club.play_peacefully(second);
    ok(&club.run(&["skill", "buy", "Pte Yates", "Crack Shot"]));
    assert_eq!(club.sheet(yates)["unspent"], 0);
    // (two battles of one title: each is named by it and its id, as the
    // app and the reports name it)
    let out = ok(&club.run(&["campaign", "state"]));
    assert!(
        out.contains(&format!(
            "\nAlien Invasion: Farmyard Skirmish (battle {second}): 1 models, "
        )),
        "{out}"
    );
    let log = ok(&club.run(&["campaign", "log"]));
    assert!(
        log.contains(&format!(
            "Alien Invasion: Farmyard Skirmish (battle {first}) fought by Pte Yates"
        )),
        "{log}"
    );
    // When the second battle is reopened, three entries taken back and another command played
    let id = second.to_string();
    club.on_battle("undo", &id, &["--steps", "3"]);
    // (an undo alone changes nothing: the head of the branch still counts)
    assert_eq!(club.sheet(yates)["earned"], 2);
    let legal = club.on_battle("legal", &id, &["--json"]);
    let other = legal
        .lines()
        .find(|l| !l.contains("end the card"))
        .expect("another command");
    let script = club._dir.path().join("other.jsonl");
    std::fs::write(&script, other).unwrap();
    club.on_battle("play", &id, &["--script", script.to_str().unwrap()]);
    // Then the campaign says what changed, in words
    let out = ok(&club.run(&["campaign", "state"]));
    assert_says_all(&out, &["changed: Pte Yates: -1 EP, -1 perception"]);
    // And the purchase is flagged for the player, not dropped
    assert_says_all(&out, &["to resolve", "Crack Shot"]);
    let m = club.sheet(yates);
    assert_eq!(
        (m["earned"].as_u64(), m["unspent"].as_i64()),
        (Some(1), Some(-1))
    );
    assert_eq!(m["skills"], serde_json::json!([["crack_shot", 1]]));
    // And verify lists the flag but passes
    let v = ok(&xenolog(&["verify", club.f()]));
    assert_says_all(&v, &["to resolve"]);
    // And switching back to the main line restores him
    club.on_battle("switch", &id, &["--branch", "0"]);
    let out = ok(&club.run(&["campaign", "state"]));
    assert_says_all(&out, &["changed: Pte Yates: +1 EP, +1 perception"]);
    assert!(!out.contains("to resolve"), "{out}");
}

#[test]
fn rosters_and_models_are_renamed_retired_and_removed_by_the_rules() {
    let club = Club::new();
    let bell = club.recruit("Cpl Bell", "lsw");
    let yates = club.recruit("Pte Yates", "rifleman");
    ok(&club.run(&["roster", "rename", "Hawks", "--name", "Grey Hawks"]));
    ok(&club.run(&["model", "rename", &bell.to_string(), "--name", "Sgt Bell"]));
    let list = ok(&club.run(&["roster", "list"]));
    assert_says_all(&list, &["Grey Hawks", "Sgt Bell"]);
    // A model that never fought can be removed
    ok(&club.run(&["model", "remove", "Pte Yates"]));
    assert!(!ok(&club.run(&["roster", "list"])).contains("Pte Yates"));
    let _ = yates;
    // One that fought cannot: retire it
    let b = club.battle(&[bell]);
    club.play_peacefully(b);
    let e = refused(&club.run(&["model", "remove", "Sgt Bell"]));
    assert_says_all(&e, &["retire it instead"]);
    ok(&club.run(&["model", "retire", "Sgt Bell"]));
    assert_eq!(club.sheet(bell)["status"], "retired");
    // A retired model cannot fight or buy
    let o = club.skirmish(&["--roster", &format!("1=Grey Hawks:{bell}")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("retired and cannot fight"));
    assert_eq!(
        ok(&xenolog(&["battles", club.f()])).lines().count(),
        1,
        "no battle written"
    );
    // The log has every entry in words, and the state at an earlier date is empty
    let log = ok(&club.run(&["campaign", "log"]));
    assert_says_all(&log, &["Sgt Bell retired"]);
    let then: Value = serde_json::from_str(&ok(&club.run(&[
        "campaign",
        "state",
        "--json",
        "--at",
        "2000-01-01",
    ])))
    .unwrap();
    assert_eq!(then["rosters"], serde_json::json!([]));
    // A roster sheet prints as HTML
    let html = club._dir.path().join("sheet.html");
    ok(&club.run(&[
        "roster",
        "show",
        "Grey Hawks",
        "--html",
        html.to_str().unwrap(),
    ]));
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.contains("<table>") && page.contains("Sgt Bell"));
}

#[test]
fn a_roster_of_the_wrong_faction_for_the_seat_is_refused_and_nothing_is_written() {
    let club = Club::new();
    let benton = club.recruit("Sgt Benton", "rifleman");
    let before = club.log_len();
    let o = club.skirmish(&["--roster", &format!("2=Hawks:{benton}")]);
    let e = refused(&o);
    assert_says_all(&e, &["Hawks is a U.N.I.T. roster, and seat 2 plays Daleks"]);
    assert_eq!(club.log_len(), before);
    assert_eq!(ok(&xenolog(&["battles", club.f()])).trim(), "");
    // Bad usage is exit code 2
    let o = xenolog(&[
        "battle",
        club.f(),
        "--game",
        "invasion",
        "--roster",
        "nonsense",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = xenolog(&["campaign", "state", club.f(), "--at", "yesterday"]);
    assert_eq!(o.status.code(), Some(2));
}
