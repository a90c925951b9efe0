//! Rule text 001, "Experience": the award after a battle, every skill's cost
//! and cap, and the campaign recomputed when a battle's result changes.
//! Given / when / then.

use xenolog_engine::Actor;
use xenolog_engine::campaign::skills::shipped;
use xenolog_engine::campaign::{
    BattleRef, CampaignEntry, CampaignEvent as C, CampaignState, Casualties, Fighter,
    ShippedFactions, Status, changes, decide, fold,
};
use xenolog_engine::game::{Fate, Outcome, PieceResult};

/// A campaign log being written, with the battles' results as they stand.
#[derive(Default)]
struct Given {
    log: Vec<CampaignEntry>,
    results: Vec<(BattleRef, Outcome)>,
}

impl Given {
    fn new() -> Self {
        let mut g = Self::default();
        g.ok(C::RosterCreated {
            roster: 1,
            name: "Benton's Boys".into(),
            faction: "unit".into(),
        });
        g.ok(C::ModelRecruited {
            roster: 1,
            model: 1,
            name: "Pte Yates".into(),
            kind: "rifleman".into(),
        });
        g
    }

    fn state(&self) -> CampaignState {
        let results = |b: BattleRef| {
            self.results
                .iter()
                .find(|(x, _)| *x == b)
                .map(|(_, o)| o.clone())
        };
        fold(&self.log, &results, &shipped(), None)
    }

    fn try_(&mut self, e: C) -> Result<(), String> {
        let s = self.state();
        decide(&s, &self.log, &e, &shipped(), &ShippedFactions).map_err(|e| e.to_string())?;
        let id = self.log.len() as u32 + 1;
        self.log.push(CampaignEntry {
            id,
            at: 1_700_000_000 + i64::from(id),
            event: e,
        });
        Ok(())
    }

    fn ok(&mut self, e: C) {
        self.try_(e).unwrap_or_else(|m| panic!("refused: {m}"));
    }

    /// When model 1 is sent to fight battle `b`: accepted, or the refusal.
    fn fights(&mut self, b: BattleRef) -> Result<(), String> {
        self.try_(C::BattleFought {
            battle: b,
            fighters: vec![Fighter {
                model: 1,
                piece: "unit-m1".into(),
            }],
        })
    }

    /// Model 1 fights battle `b`, which ends with it `fate`.
    fn battle(&mut self, b: BattleRef, fate: Fate) {
        self.fights(b).unwrap_or_else(|m| panic!("refused: {m}"));
        self.result(b, fate);
    }

    fn result(&mut self, b: BattleRef, fate: Fate) {
        self.results.retain(|(x, _)| *x != b);
        self.results.push((
            b,
            Outcome {
                winners: vec![Actor(0)],
                pieces: vec![PieceResult {
                    id: "unit-m1".into(),
                    seat: Actor(0),
                    fate,
                    kills: Some(1),
                }],
                summary: "U.N.I.T. win".into(),
                ..Outcome::default()
            },
        ));
    }

    fn buy(&mut self, skill: &str) -> Result<(), String> {
        self.try_(C::SkillBought {
            model: 1,
            skill: skill.into(),
        })
    }

    fn yates(&self) -> xenolog_engine::campaign::ModelSheet {
        self.state().model(1).unwrap().clone()
    }
}

#[test]
fn awarding_experience_a_new_model_starts_with_none() {
    let g = Given::new();
    let m = g.yates();
    assert_eq!((m.earned, m.spent, m.perception), (0, 0, 0));
    assert_eq!(m.status, Status::Fit);
}

#[test]
fn awarding_experience_every_battle_survived_gives_1_ep_and_1_perception() {
    let mut g = Given::new();
    g.battle(1, Fate::Survived);
    g.battle(2, Fate::Survived);
    let m = g.yates();
    assert_eq!((m.earned, m.unspent(), m.perception), (2, 2, 2));
    assert_eq!(m.kills, 2);
    assert!(
        m.history
            .iter()
            .any(|h| h.what == "survived battle 1: +1 EP, +1 perception"
                && h.unspent_before == 0
                && h.unspent_after == 1)
    );
}

#[test]
fn awarding_experience_a_battle_not_over_gives_nothing_yet() {
    let mut g = Given::new();
    g.ok(C::BattleFought {
        battle: 7,
        fighters: vec![Fighter {
            model: 1,
            piece: "unit-m1".into(),
        }],
    });
    let m = g.yates();
    assert_eq!(m.earned, 0);
    assert!(m.history.iter().any(|h| h.what.contains("not over yet")));
}

#[test]
fn awarding_experience_never_twice_for_one_battle() {
    let mut g = Given::new();
    g.battle(1, Fate::Survived);
    let e = g.fights(1).unwrap_err();
    assert!(
        e.contains("experience is never awarded twice for one battle"),
        "{e}"
    );
    assert_eq!(g.yates().earned, 1);
}

#[test]
fn casualties_a_killed_model_is_dead_by_default_and_earns_nothing() {
    let mut g = Given::new();
    g.battle(1, Fate::Killed);
    let m = g.yates();
    assert_eq!(m.status, Status::Dead);
    assert_eq!(m.earned, 0);
    // A dead model fights no more.
    let e = g.fights(2).unwrap_err();
    assert_eq!(e, "Pte Yates is dead and cannot fight");
}

#[test]
fn casualties_the_campaign_setting_brings_them_back_without_the_point() {
    let mut g = Given::new();
    g.ok(C::SettingChanged {
        casualties: Casualties::Return,
    });
    g.battle(1, Fate::Killed);
    let m = g.yates();
    assert_eq!((m.status, m.earned), (Status::Fit, 0));
    g.battle(2, Fate::Survived);
    assert_eq!(g.yates().earned, 1);
}

/// Model 1 with `ep` experience points earned.
fn with_ep(ep: u32) -> Given {
    let mut g = Given::new();
    for b in 0..ep {
        g.battle(i64::from(b) + 1, Fate::Survived);
    }
    g
}

#[test]
fn skills_every_cost_and_cap_of_the_text() {
    // (id, cost, cap) as the text prints them; no cap stated: once.
    let table = [
        ("super_sneak", 2, 3),
        ("crack_shot", 2, 2),
        ("own_luck", 2, 3),
        ("tough", 5, 2),
        ("camouflage", 5, 1),
        ("super_agility", 3, 1),
        ("super_fast", 2, 3),
        ("lightening", 6, 1),
        ("h2h_expert", 2, 3),
    ];
    for (id, cost, cap) in table {
        // Given exactly enough for the cap, when bought up to it, then each
        // purchase costs `cost` and one more is refused by the cap.
        let mut g = with_ep(cost * cap);
        for n in 1..=cap {
            g.buy(id).unwrap_or_else(|e| panic!("{id} #{n}: {e}"));
            assert_eq!(g.yates().spent, cost * n, "{id}");
        }
        assert_eq!(g.yates().times(id), cap);
        let before = g.log.len();
        let e = g.buy(id).unwrap_err();
        assert!(
            e.contains(&format!("maximum of {cap} times"))
                || (cap == 1 && e.contains("may be bought once")),
            "{id}: {e}"
        );
        assert_eq!(g.log.len(), before, "a refusal writes nothing");
        // Given one point short, the purchase is refused by the points.
        let mut g = with_ep(cost - 1);
        let e = g.buy(id).unwrap_err();
        assert!(
            e.contains(&format!(
                "costs {cost} EP and Pte Yates has {} unspent",
                cost - 1
            )),
            "{id}: {e}"
        );
    }
}

#[test]
fn skills_unknown_skills_and_dead_models_are_refused_in_words() {
    let mut g = with_ep(3);
    let e = g.buy("flying").unwrap_err();
    assert!(
        e.starts_with("there is no skill 'flying' (there are: super_sneak,"),
        "{e}"
    );
    g.battle(9, Fate::Killed);
    let e = g.buy("crack_shot").unwrap_err();
    assert_eq!(e, "Pte Yates is dead");
}

#[test]
fn recomputed_a_battle_taken_back_so_the_model_dies_flags_the_purchase_it_paid_for() {
    // Given: Yates survived battles 1 and 2 and bought Crack Shot (2 EP)
    // before battle 3.
    let mut g = with_ep(2);
    g.buy("crack_shot").unwrap();
    let before = g.state();
    assert!(before.flags.is_empty());
    // When battle 2 is taken back and played on so that he dies in it,
    g.result(2, Fate::Killed);
    let after = g.state();
    // then he lost the point and the perception, is dead, and his purchase is
    // flagged (kept, never dropped).
    let m = after.model(1).unwrap();
    assert_eq!((m.earned, m.perception, m.status), (1, 1, Status::Dead));
    assert_eq!(m.times("crack_shot"), 1);
    assert_eq!(after.flags.len(), 1);
    let words = changes(&before, &after);
    assert!(
        words[0].starts_with("Pte Yates: -1 EP, -1 perception, now dead; killed in battle 2 (was: survived battle 2: +1 EP, +1 perception)"),
        "{words:?}"
    );
    assert!(
        words[1].starts_with("to resolve: Pte Yates's Crack Shot (bought at entry ")
            && words[1].ends_with("is now not allowed: Pte Yates is dead"),
        "{words:?}"
    );
}

#[test]
fn recomputed_undoing_the_purchase_resolves_the_flag_and_refunds_it() {
    // Given battles 1 and 2 survived and Crack Shot bought (as above).
    let mut g = with_ep(2);
    g.buy("crack_shot").unwrap();
    let bought = g.log.len() as u32;
    g.result(2, Fate::Survived);
    g.result(1, Fate::NotDeployed);
    let flagged = g.state();
    assert_eq!(flagged.flags.len(), 1);
    assert_eq!(flagged.model(1).unwrap().unspent(), -1);
    g.ok(C::Undone { entry: bought });
    let s = g.state();
    assert!(s.flags.is_empty());
    assert_eq!(s.model(1).unwrap().unspent(), 1);
    assert_eq!(s.model(1).unwrap().times("crack_shot"), 0);
    // and redo brings it back, flagged again.
    g.ok(C::Redone { entry: bought });
    assert_eq!(g.state().flags.len(), 1);
}

#[test]
fn the_campaign_log_undoes_only_its_last_entry_that_counts() {
    let mut g = with_ep(2);
    g.buy("crack_shot").unwrap();
    let e = g.try_(C::Undone { entry: 1 }).unwrap_err();
    assert!(e.contains("only the last entry that counts"), "{e}");
}

#[test]
fn the_campaign_as_it_stood_at_an_earlier_date() {
    let mut g = with_ep(2);
    g.buy("crack_shot").unwrap();
    let at = g.log.last().unwrap().at - 1;
    let results = |b: BattleRef| {
        g.results
            .iter()
            .find(|(x, _)| *x == b)
            .map(|(_, o)| o.clone())
    };
    let then = fold(&g.log, &results, &shipped(), Some(at));
    assert_eq!(then.model(1).unwrap().times("crack_shot"), 0);
    assert_eq!(g.yates().times("crack_shot"), 1);
}

#[test]
fn rosters_names_and_model_types_are_checked() {
    let mut g = Given::new();
    let e = g
        .try_(C::ModelRecruited {
            roster: 1,
            model: 2,
            name: "Dalek Sec".into(),
            kind: "dalek".into(),
        })
        .unwrap_err();
    assert!(
        e.starts_with("the unit faction has no model type 'dalek' (it has: rifleman (Rifleman)"),
        "{e}"
    );
    let e = g
        .try_(C::ModelRenamed {
            model: 1,
            name: "   ".into(),
        })
        .unwrap_err();
    assert_eq!(e, "give the model a name");
    let e = g
        .try_(C::RosterCreated {
            roster: 2,
            name: "Martians".into(),
            faction: "martians".into(),
        })
        .unwrap_err();
    assert_eq!(e, "there is no Alien Invasion faction 'martians'");
    // A model that fought is retired, not removed.
    g.battle(1, Fate::Survived);
    let e = g.try_(C::ModelRemoved { model: 1 }).unwrap_err();
    assert!(e.contains("retire it instead"), "{e}");
    g.ok(C::ModelRetired { model: 1 });
    assert_eq!(g.yates().status, Status::Retired);
}
