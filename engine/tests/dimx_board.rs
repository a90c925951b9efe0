//! What players see: the board scene, the log in words, hidden information,
//! click anchors, commands as JSON, and scenario files of their own.
//!
//! `DIMX_SVG=/tmp/board.svg cargo test -p xenolog-engine --test dimx_board`
//! also writes a picture of a battle in progress there.

#[path = "scene_words/mod.rs"]
mod scene_words;
#[path = "support/dimx.rs"]
mod support;

use scene_words::texts;
use support::*;
use xenolog_engine::games::dimx::chits::SummonAt;
use xenolog_engine::games::dimx::state::{DimxEvent, Hold, PlaceWhy};
use xenolog_engine::games::dimx::units::Goal;
use xenolog_engine::games::dimx::{DimX, DimxConfig};
use xenolog_engine::scene::ItemKind;
use xenolog_engine::{Actor, Game, Session};

#[test]
fn scene_draws_every_hex_counter_and_marker_with_stable_ids() {
    let text = alpha(
        "marine SC1 at 263 stunned out_of_ammo\nmarine HQ1 at 331 acted\nmarine MS1 at 225 paralyzed\nmarine MS6 pool\n\
         kayotz K10 at 421 adm 5\nkayotz K8 at 321 dormant\nkayotz K7 at 516\nmonolith MON at 666\nstrongpoint 325\nrecon yes",
    );
    let b = battle(&text);
    let sc = DimX::scene(state(&b));
    let hexes = sc.items.iter().filter(|i| i.kind == ItemKind::Hex).count();
    assert_eq!(hexes, 240, "216 numbered hexes and 24 of lava");
    assert!(sc.find("hex:263").is_some() && sc.find("hex:666").is_some());
    assert!(sc.items.iter().any(|i| i.id.starts_with("lava:")));
    assert!(sc.items.iter().any(|i| i.id.starts_with("road:")));
    for id in [
        "unit:SC1", "unit:HQ1", "unit:MS1", "unit:MS6", "unit:K10", "unit:K8", "unit:K7",
        "unit:MON",
    ] {
        let it = sc
            .items
            .iter()
            .find(|i| i.id == id && i.kind == ItemKind::Counter)
            .unwrap_or_else(|| panic!("{id} drawn"));
        assert!(it.tooltip.is_some(), "{id} has a tooltip");
    }
    let tip = |id: &str| {
        sc.items
            .iter()
            .find(|i| i.id == id && i.kind == ItemKind::Counter)
            .unwrap()
            .tooltip
            .clone()
            .unwrap()
    };
    assert!(
        tip("unit:SC1").contains("MP 4, CF 3A, DN 3")
            && tip("unit:SC1").contains("Stunned")
            && tip("unit:SC1").contains("Out of Ammo")
    );
    assert!(tip("unit:K10").contains("ADM 5"));
    assert!(tip("unit:K8").contains("Dormant"));
    assert!(tip("unit:HQ1").contains("acted"));
    assert!(
        sc.find("hex:263")
            .unwrap()
            .tooltip
            .as_ref()
            .unwrap()
            .contains("road")
    );
    let texts = texts(&sc);
    for t in [
        "STUN",
        "PARA",
        "ADM 5",
        "DORMANT",
        "SUCCESSFUL RECON",
        "#10",
        "263",
    ] {
        assert!(texts.iter().any(|x| x == t), "{t} shown");
    }
    let svg = sc.to_svg();
    assert!(svg.starts_with("<svg") && svg.contains("unit:K10"));
    if let Ok(path) = std::env::var("DIMX_SVG") {
        std::fs::write(path, svg).unwrap();
    }
}

#[test]
fn view_hides_face_down_mission_goals_and_the_adm_pile_order() {
    let b = battle(&alpha(
        "marine MS1 at 225\nadm 5 1 3\ngoals summoning portal",
    ));
    let v = DimX::view(state(&b), Actor(0));
    assert_eq!(v.goals, vec![Goal::FaceDown, Goal::FaceDown]);
    assert_eq!(v.adm_pile, vec![1, 3, 5]);
    assert_eq!(
        state(&b).goals,
        vec![Goal::Summoning, Goal::Portal],
        "the state itself keeps them"
    );
}

#[test]
fn anchors_name_the_acting_unit_and_the_hex_or_unit_clicked() {
    let b = battle(&alpha("marine SC1 at 263\nkayotz K10 at 421"));
    let a = DimX::anchors(state(&b), &cmd(&full_move("SC1", 326)));
    assert_eq!(
        (a.subject.as_deref(), a.target.as_deref()),
        (Some("unit:SC1"), Some("hex:326"))
    );
    let a = DimX::anchors(state(&b), &cmd(&fire("SC1", "K10")));
    assert_eq!(a.target.as_deref(), Some("unit:K10"));
    let sc = DimX::scene(state(&b));
    for (_, c) in DimX::legal(state(&b)) {
        let a = DimX::anchors(state(&b), &c);
        for id in [a.subject, a.target].into_iter().flatten() {
            assert!(sc.find(&id).is_some(), "{id} is a scene item");
        }
    }
}

#[test]
fn commands_are_json_and_round_trip_through_legal() {
    let b = battle(&alpha(
        "marine SC1 at 263\nmarine HQ1 at 331\nkayotz K10 at 421",
    ));
    let legal = DimX::legal(state(&b));
    assert!(legal.len() > 400, "jump packs may aim at any empty hex");
    for (_, c) in &legal {
        let json = serde_json::to_string(c).unwrap();
        assert_eq!(&cmd(&json), c);
    }
    assert_eq!(
        serde_json::to_string(&cmd(r#"{"full_move":{"unit":"SC1","to":326}}"#)).unwrap(),
        r#"{"full_move":{"unit":"SC1","to":326}}"#
    );
    assert_eq!(
        serde_json::to_string(&cmd(r#""end_action_phase""#)).unwrap(),
        r#""end_action_phase""#
    );
}

#[test]
fn describe_speaks_like_a_battle_report() {
    let b = battle(&alpha(
        "marine SC1 at 263\nmarine HQ1 at 331\nkayotz K10 at 421",
    ));
    let s = state(&b);
    let t = DimX::describe_command(s, Actor(0), &cmd(&full_move("SC1", 415)));
    assert_eq!(t, "Scout SC1: Full Move from 263 to 415 (4 of 4 MP)");
    let t = DimX::describe_command(s, Actor(0), &cmd(r#"{"recon":{"unit":"SC1","hq":"HQ1"}}"#));
    assert_eq!(t, "Scout SC1: Recon, assisted by HQ HQ1");
    let mut b = battle(&alpha(
        "marine SC1 at 263\nmarine HQ1 at 331\nkayotz K10 at 421\ncup rush_8_12",
    ));
    let ev = play(&mut b, END_PHASE, &[1, 1, 1, 1, 1]);
    let w = words(&ev).join("\n");
    assert!(
        w.contains("drew \"Alien Rush: Units #8 through #12\""),
        "{w}"
    );
    assert!(w.contains("Kay'otz #10 activates"), "{w}");
    assert!(w.contains("Game over: "), "{w}");
}

/// The log names units one way (type and id for Marines, "Kay'otz #N" for
/// aliens), says what each chit step does once, with no "step complete"
/// lines, says when a unit out of ammo can no longer fire (D.8), and words
/// the ADM draw as the player's (D.5).
#[test]
fn the_log_names_units_one_way_and_has_no_step_noise() {
    let mut b = battle(&alpha("marine LG1 at 225\nkayotz K1 at 226"));
    let ev = play(&mut b, &fire("LG1", "K1"), &[1, 1, 4, 2]);
    let w = words(&ev);
    assert!(
        w.contains(
            &"Logistics LG1 is out of ammo: flipped to its back side, it may not fire at all"
                .to_owned()
        ),
        "{w:?}"
    );
    assert!(
        w.iter().any(|l| l.starts_with("the player draws an ADM")
            && l.contains("places it under Kay'otz #1: its DN is now")),
        "{w:?}"
    );
    assert_eq!(w[0], "Logistics LG1 takes a Full Fire action");

    let mut b = battle(&alpha(
        "marine MS1 at 314\nkayotz K8 at 321\nkayotz K10 at 421\ncup rush_8_12",
    ));
    let ev = play(&mut b, END_PHASE, &[1, 1, 2, 2, 3]);
    let w = words(&ev);
    assert!(
        w.contains(
            &"units #8 through #12 rush next to the nearest Active Marine unit and fire at it: Kay'otz #8, Kay'otz #10"
                .to_owned()
        ),
        "{w:?}"
    );
    assert!(!w.iter().any(|l| l.contains("step complete")), "{w:?}");
    assert!(
        w.iter()
            .any(|l| l.starts_with("Kay'otz #10 fires at Marine Squad MS1 in 314")),
        "{w:?}"
    );
}

/// Common lines read as a player would say them: a reinforcement "comes from
/// the pool to the map edge", and coming on it "moves in from the map edge"; one unit summoned lands "in a random
/// hex"; an alien that cannot fire (also after it advanced) "does not fire",
/// never "does nothing" after it moved.
#[test]
fn the_log_reads_right_for_entering_units_a_single_summon_and_units_that_cannot_fire() {
    let mut b = battle(&alpha("marine HQ1 at 225\nmarine MS1 pool"));
    play(&mut b, &order("request_reinforcements", "HQ1"), &[3]);
    let w = words(&play(&mut b, &order("take_reinforcement", "MS1"), &[]));
    assert_eq!(
        w,
        vec!["Marine Squad MS1 comes from the pool to the map edge and may act at once"]
    );
    let ev = play(&mut b, &full_move("MS1", 131), &[]);
    let w = words(&ev);
    assert!(
        w.iter().any(
            |l| l.starts_with("Marine Squad MS1 moves in from the map edge: ")
                && l.contains(" -> 131 (")
        ),
        "{w:?}"
    );

    let mut b = battle(&alpha(
        "marine MS1 at 225\nkayotz K1 cup\nother_kayotz aside\ncup pod_drop",
    ));
    let ev = play(&mut b, END_PHASE, &[4, 4, 4]);
    let w = words(&ev);
    assert!(
        w.contains(
            &"one unit from the Kay'otz unit cup (if it holds one) comes out in a random hex"
                .to_owned()
        ),
        "{w:?}"
    );
    assert!(
        w.contains(&"Kay'otz #1 comes out of the cup into 444".to_owned()),
        "{w:?}"
    );

    let line = xenolog_engine::games::dimx::describe::event(&DimxEvent::AlienHolds {
        unit: "K3".into(),
        name: "Kay'otz #3".into(),
        why: Hold::NoTarget,
    });
    assert_eq!(
        line,
        "Kay'otz #3 does not fire: no Active Marine unit it can fire at"
    );

    // D.10 in words: a marker placed, or a Stunned one turned Paralyzed
    let (mut b, mut c) = (
        battle(&alpha(
            "marine MS1 at 225\nkayotz K1 at 226\ncup barrage_odd",
        )),
        battle(&alpha(
            "marine MS1 at 225 stunned\nkayotz K1 at 226\ncup barrage_odd",
        )),
    );
    let w = words(&play(&mut b, END_PHASE, &[6, 1, 1, 1]));
    assert!(
        w.contains(&"Marine Squad MS1 is hit: it gets a Stunned marker".to_owned()),
        "{w:?}"
    );
    let w = words(&play(&mut c, END_PHASE, &[6, 1, 1, 1]));
    assert!(
        w.contains(&"Marine Squad MS1 is hit: Stunned becomes Paralyzed".to_owned()),
        "{w:?}"
    );

    // the unit is named before "it" stands for it
    let tie = |name: &str, why: PlaceWhy| {
        xenolog_engine::games::dimx::describe::event(&DimxEvent::TieToBreak {
            unit: String::new(),
            name: name.into(),
            hexes: vec![344, 323],
            why,
        })
    };
    assert_eq!(
        tie("Scout SC2", PlaceWhy::Scattered),
        "Scout SC2 scattered on its jump: the Kay'otz player chooses where it goes: 344, 323"
    );
    assert_eq!(
        tie(
            "Kay'otz #14",
            PlaceWhy::Summoned {
                left: 0,
                at: SummonAt::Wormhole,
            }
        ),
        "Kay'otz #14 comes out of the cup: the Kay'otz player chooses where it goes: 344, 323"
    );
}

#[test]
fn flow_names_the_turn_and_phase() {
    let mut b = battle(&alpha("marine MS1 at 225\ncup lull awakening"));
    let f = DimX::flow(state(&b));
    assert_eq!((f.turn, f.phase.as_str()), (1, "Marine Action Phase"));
    play(&mut b, END_PHASE, &[]);
    assert_eq!(DimX::flow(state(&b)).turn, 2);
}

#[test]
fn a_players_scenario_file_sets_up_any_moment_of_a_battle() {
    let text = "\
# a battle in progress
scenario \"Hold the ford\"
description \"turn 7, two chits left\"
map beta
turn 7
entry 111 112
exit 666
marine HQ1 at 134 stunned
marine SC1 at 153 out_of_ammo acted
marine X1 squad at 113 mp 5 cf 6 dn 4
marine MS6 pool
marine MS7 arrives 9
marine MS8 eliminated
kayotz K7 at 421 adm 2
kayotz K9 at 263 dormant
kayotz K99 at 264 number 20 cf 2 dn 4
kayotz K3 eliminated
monolith MON at 422
other_kayotz aside
strongpoint 133
cup rush_8_12 lull
adm 4 5
goals summoning pillage
goals_out enslave
instant marines \"the ford is held\" marine_in 666 eliminated 3
victory marines \"some pods down\" eliminated 2
otherwise draw
";
    let b = battle(text);
    let s = state(&b);
    assert_eq!(
        (s.scenario.as_str(), s.map.key(), s.turn),
        ("Hold the ford", "beta", 7)
    );
    assert_eq!(s.marine("X1").unwrap().mp, 5);
    assert!(s.marine("SC1").unwrap().acted && s.marine("SC1").unwrap().out_of_ammo);
    assert_eq!(s.alien("K99").unwrap().number, 20);
    assert_eq!(s.alien("K7").unwrap().defense(), 2);
    assert_eq!(s.cup.len(), 2);
    assert_eq!(s.adm_pile, vec![4, 5]);
    assert_eq!(s.goals, vec![Goal::Summoning, Goal::Pillage]);
    assert_eq!(s.goals_out, vec![Goal::Enslave]);
    assert_eq!(s.strongpoints, vec![133]);
    assert_eq!(s.eliminated(), 1);
    // and it plays: a custom chit sheet in the file replaces the printed one
    let own = "scenario \"own chits\"\nmap alpha\nother_kayotz aside\nmarine MS1 at 225\nkayotz K1 at 226\nchit volley \"Volley\"\n  fire all\n  capture\ncup volley\n";
    let mut b = battle(own);
    let ev = play(&mut b, END_PHASE, &[6, 6, 6, 6]);
    assert!(words(&ev).iter().any(|w| w.contains("drew \"Volley\"")));
    assert!(DimX::outcome(state(&b)).is_some());
}

#[test]
fn a_bad_scenario_file_is_refused_naming_the_line_and_the_problem() {
    let bad = "scenario \"x\"\nmap alpha\nmarine SC1 at 263\nkayotz K10 at 263\n";
    let refused = |config: DimxConfig| {
        let refusal = Session::<DimX>::new(1, config).err();
        refusal.expect("refused").to_string()
    };
    let err = refused(DimxConfig {
        scenario_text: Some(bad.into()),
        ..Default::default()
    });
    assert_eq!(
        err,
        "the scenario file is not valid: line 4: hex 263 already holds the unit placed on line 3: units may not start stacked"
    );
    let err = refused(DimxConfig {
        scenario: "gamma".into(),
        ..Default::default()
    });
    assert!(
        err.contains("there is no scenario 'gamma' (try one of: alpha, beta, campaign)"),
        "{err}"
    );
    let unknown: Result<DimxConfig, _> = serde_json::from_str(r#"{"scenery":"alpha"}"#);
    assert!(unknown.is_err(), "unknown options are refused");
}

#[test]
fn the_registry_lists_dimx_with_its_scenarios() {
    let g = xenolog_engine::games::games()
        .into_iter()
        .find(|g| g.id == "dimx")
        .unwrap();
    assert!(g.available);
    assert_eq!(
        g.scenarios
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>(),
        vec!["alpha", "beta", "campaign"]
    );
    let battle = xenolog_engine::games::new_battle(
        "dimx",
        3,
        &serde_json::json!({"scenario": "beta", "two_player": true}),
    )
    .unwrap();
    assert_eq!(battle.game_id(), "dimx");
    assert!(
        battle
            .legal()
            .iter()
            .any(|c| c.command == serde_json::json!("end_action_phase"))
    );
}

#[test]
fn the_state_stays_compact_the_map_and_printed_chits_stay_out_of_it() {
    for id in ["alpha", "beta", "campaign"] {
        let s = Session::<DimX>::new(
            1,
            DimxConfig {
                scenario: id.into(),
                ..Default::default()
            },
        )
        .unwrap();
        let bytes = postcard::to_allocvec(s.state()).unwrap().len();
        assert!(bytes < 1200, "{id}: {bytes} bytes");
        assert!(s.state().own_chits.is_none());
    }
}

#[test]
fn a_scenario_file_may_carry_a_map_of_its_own() {
    let text = "\
scenario \"Ridge\"
map ridge
map_name \"The Ridge\"
grid 3 2
row 1  111. 112F 113.
row 2  121.  ~   123R
road 111 121
other_kayotz aside
marine MS1 at 111
kayotz K1 at 113
cup lull
";
    let mut b = battle(text);
    assert!(
        state(&b).map.key().starts_with("ridge-"),
        "{:?}",
        state(&b).map
    );
    let why = refused(&mut b, &fire("MS1", "K1"), &[6, 6, 6, 6]);
    assert!(
        why.contains("the Forest hex 112, which blocks it"),
        "the Forest in 112 blocks: {why}"
    );
    play(&mut b, &full_move("MS1", 121), &[]);
    let sc = DimX::scene(state(&b));
    assert!(sc.find("hex:123").is_some() && sc.find("lava:2-2").is_some());
    // the same file again is the same map; a changed map is another
    let again = battle(text);
    assert_eq!(state(&again).map, state(&b).map);
    let other = battle(&text.replace("112F", "112."));
    assert_ne!(state(&other).map, state(&b).map);
    let bad = text.replace("row 2  121.  ~   123R", "row 2  121.  ~");
    let config = DimxConfig {
        scenario_text: Some(bad),
        ..Default::default()
    };
    let err = Session::<DimX>::new(1, config).err().unwrap().to_string();
    assert!(
        err.contains("line 6: row 2 has 2 hexes but the grid has 3 columns"),
        "{err}"
    );
}

fn refusal(text: &str) -> String {
    let config = DimxConfig {
        scenario_text: Some(text.into()),
        ..Default::default()
    };
    Session::<DimX>::new(1, config)
        .err()
        .expect("refused")
        .to_string()
}

#[test]
fn a_scenario_file_with_a_strongpoint_twice_on_one_hex_is_refused_naming_the_line() {
    let err = refusal(
        "scenario \"x\"\nmap alpha\nmarine SC1 at 111\nstrongpoint 263 264\nstrongpoint 263\n",
    );
    assert_eq!(
        err,
        "the scenario file is not valid: line 5: hex 263 is given a Strongpoint twice: a hex holds one Strongpoint"
    );
    assert!(
        refusal("scenario \"x\"\nmap alpha\nmarine SC1 at 111\nstrongpoint 263 263\n")
            .contains("line 4:")
    );
}

#[test]
fn a_scenario_file_with_a_unit_both_stunned_and_paralyzed_is_refused_naming_the_line() {
    let err = refusal("scenario \"x\"\nmap alpha\nmarine SC1 at 111 stunned paralyzed\n");
    assert_eq!(
        err,
        "the scenario file is not valid: line 3: SC1 is given both 'stunned' and 'paralyzed': a unit is Stunned or Paralyzed, not both"
    );
}

/// Principle 12: the two refusals above came with rules version 3. A battle
/// started under version 2 from such a file still opens, as it was then
/// (the Strongpoint listed twice, the later marker standing).
#[test]
fn a_battle_started_under_version_2_from_a_file_version_3_refuses_still_opens() {
    let text =
        "scenario \"x\"\nmap alpha\nmarine SC1 at 111 stunned paralyzed\nstrongpoint 263 263\n";
    let config = DimxConfig {
        scenario_text: Some(text.into()),
        ..Default::default()
    };
    assert!(
        Session::<DimX>::new(1, config.clone()).is_err(),
        "refused for a new battle"
    );
    let old = xenolog_engine::StoredBattle {
        meta: xenolog_engine::BattleMeta {
            game: "dimx".into(),
            seed: 1,
            rules_version: 2,
            config: serde_json::to_string(&config).unwrap(),
            strict: false,
            fair: None,
        },
        records: Vec::new(),
        branches: vec![xenolog_engine::Branch {
            id: 0,
            name: "Main".into(),
            parent: None,
            fork: None,
            kind: xenolog_engine::BranchKind::Main,
        }],
        snapshots: Vec::new(),
        cursor: None,
        branch: 0,
    };
    let s = Session::<DimX>::from_parts(old).expect("an old battle opens");
    assert_eq!(s.state().strongpoints.len(), 2, "as version 2 read it");
    let sc1 = s.state().marines.iter().find(|m| m.id == "SC1").unwrap();
    assert_eq!(
        format!("{:?}", sc1.condition),
        "Paralyzed",
        "the later marker stands"
    );
}

#[test]
fn cup_and_pool_counters_carry_their_ids_under_them() {
    use xenolog_engine::scene::Shape;
    let b = battle(&alpha(
        "marine HQ1 at 225\nmarine MS6 pool\nmarine MS7 arrives 3\nkayotz K1 at 231",
    ));
    let scene = xenolog_engine::games::dimx::scene::scene(state(&b));
    let words = |id: &str| -> Vec<String> {
        scene
            .items
            .iter()
            .filter(|i| i.id == id)
            .filter_map(|i| match &i.shape {
                Shape::Text { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect()
    };
    assert!(
        words("unit:MS6").contains(&"MS6".to_owned()),
        "{:?}",
        words("unit:MS6")
    );
    assert!(
        words("unit:MS7").contains(&"MS7 t3".to_owned()),
        "{:?}",
        words("unit:MS7")
    );
    // "other_kayotz aside" in the test scenarios: set one in the cup.
    let b = battle(&alpha("marine HQ1 at 225\nkayotz K1 at 231\nkayotz K5 cup"));
    let scene = xenolog_engine::games::dimx::scene::scene(state(&b));
    assert!(
        scene
            .items
            .iter()
            .any(|i| i.id == "unit:K5"
                && matches!(&i.shape, Shape::Text { text, .. } if text == "#5")),
        "the Kay'otz unit in the cup is named #5 under its counter"
    );
}

/// The side panel's lines stay inside the panel: a result in words as long
/// as the scenario default's ("Kay'otz victory (scenario default): the
/// Mission Goal was not achieved and no victory condition of the scenario
/// was met") is broken over lines, every word of it kept (the HTML report
/// showed it on one line wider than a phone's page).
#[test]
fn a_long_result_is_broken_over_the_panels_lines() {
    use xenolog_engine::games::dimx::state::{Phase, Side};
    use xenolog_engine::scene::Shape;
    let b = battle(&alpha("marine HQ1 at 225\nkayotz K1 at 231"));
    let mut s = state(&b).clone();
    let summary = "Kay'otz victory (scenario default): the Mission Goal was not achieved \
                   and no victory condition of the scenario was met";
    s.phase = Phase::Over {
        winner: Some(Side::Kayotz),
        summary: summary.to_owned(),
    };
    let scene = xenolog_engine::games::dimx::scene::scene(&s);
    let panel: Vec<(String, f32)> = scene
        .items
        .iter()
        .filter(|i| i.id == "panel")
        .filter_map(|i| match &i.shape {
            Shape::Text { text, size, .. } => Some((text.clone(), *size)),
            _ => None,
        })
        .collect();
    // 270 units of panel, 8 of margin each side, a character 0.55 of its size.
    for (t, size) in &panel {
        assert!(
            t.chars().count() as f32 * size * 0.55 <= 254.0,
            "wider than the panel: {t:?}"
        );
    }
    let joined = panel
        .iter()
        .map(|(t, _)| t.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(joined.contains(summary), "{panel:?}");
}
