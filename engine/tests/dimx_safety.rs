//! Bad input never panics and changes nothing (DESIGN principle 8): states
//! that name content this build lacks, scenario files that push numbers to
//! their limits, and commands that name nothing real.

#[path = "support/dimx.rs"]
mod support;

use support::*;
use xenolog_engine::games::dimx::state::{DimxEvent, Phase};
use xenolog_engine::games::dimx::{DimX, DimxCommand, DimxState};
use xenolog_engine::{Actor, Game, Randomness, RuleErrorKind};

fn decide(s: &DimxState, actor: u8, c: &DimxCommand) -> Result<Vec<DimxEvent>, String> {
    let mut rng = Randomness::new(1, 0, None);
    DimX::decide(s, Actor(actor), c, &mut rng).map_err(|e| {
        assert_eq!(e.kind, RuleErrorKind::Illegal, "{e}");
        e.to_string()
    })
}

fn start() -> DimxState {
    state(&battle(&alpha(
        "marine MS1 at 225\nkayotz K1 at 226\ncup lull awakening",
    )))
    .clone()
}

#[test]
fn a_state_naming_a_chit_the_sheet_lacks_is_refused_in_words() {
    let mut s = start();
    s.cup = vec![250];
    let why = decide(&s, 0, &cmd(END_PHASE)).unwrap_err();
    assert!(
        why.contains("chit number 250") && why.contains("has only 20 chits"),
        "{why}"
    );
    assert!(DimX::legal(&s).is_empty(), "nothing to offer");

    let mut s = start();
    s.phase = Phase::ChooseChit {
        options: vec![3, 240],
        by: xenolog_engine::games::dimx::state::Side::Marines,
    };
    assert!(DimX::legal(&s).is_empty());
    let why = decide(&s, 0, &cmd(&choose_chit("lull"))).unwrap_err();
    assert!(why.contains("chit number 240"), "{why}");

    let mut s = start();
    s.phase = Phase::Kayotz {
        chit: 199,
        step: 0,
        todo: Some(vec!["K1".into()]),
    };
    assert!(DimX::legal(&s).is_empty());
    assert!(decide(&s, 1, &cmd(&order("activate", "K1"))).is_err());
    // words and pictures of such a state still come out
    let _ = DimX::scene(&s);
    let _ = DimX::flow(&s);
}

#[test]
fn a_state_naming_a_map_or_hex_this_build_lacks_is_refused_in_words() {
    // A state naming a map this build lacks does not even decode.
    let s = start();
    let json = serde_json::to_string(&s)
        .unwrap()
        .replace(r#""map":"alpha""#, r#""map":"gamma""#);
    let why = serde_json::from_str::<DimxState>(&json)
        .unwrap_err()
        .to_string();
    assert!(why.contains("map 'gamma', which is not loaded"), "{why}");

    let mut s = start();
    s.marines[0].place = xenolog_engine::games::dimx::units::Place::Map(777);
    let why = decide(&s, 0, &cmd(&full_move("MS1", 111))).unwrap_err();
    assert!(why.contains("Marine Squad MS1 stands in 777"), "{why}");
}

#[test]
fn a_state_at_a_step_past_the_end_of_its_chit_is_refused() {
    let mut s = start();
    s.phase = Phase::Kayotz {
        chit: 0,
        step: 9,
        todo: Some(vec!["K1".into()]),
    };
    let why = decide(&s, 1, &cmd(&order("activate", "K1"))).unwrap_err();
    assert!(why.contains("step 10 of"), "{why}");
}

#[test]
fn an_empty_cup_at_the_end_of_the_action_phase_goes_to_the_end_phase() {
    let mut s = start();
    s.cup.clear();
    let ev = decide(&s, 0, &cmd(END_PHASE)).unwrap();
    assert!(
        !ev.iter().any(|e| matches!(e, DimxEvent::ChitsDrawn { .. })),
        "nothing to draw"
    );
    assert_event!(ev, DimxEvent::GoalDrawn { .. }, "G.2: the cup is empty");
    assert!(matches!(ev.last(), Some(DimxEvent::GameOver { .. })));
}

/// B: a scenario file may start on turn 99 with a sheet of 200 chits of its
/// own: the turn counter stops at its limit instead of overflowing.
#[test]
fn a_late_start_with_a_long_chit_sheet_never_overflows_the_turn() {
    let mut text =
        String::from("scenario \"t\"\nmap alpha\nother_kayotz aside\nturn 99\nmarine MS1 at 225\n");
    for i in 0..200 {
        text.push_str(&format!("chit c{i} \"Quiet {i}\"\n  nothing\n"));
    }
    let mut b = battle(&text);
    for _ in 0..200 {
        if DimX::outcome(state(&b)).is_some() {
            break;
        }
        play(&mut b, END_PHASE, &[]);
    }
    assert!(DimX::outcome(state(&b)).is_some());
    assert_eq!(state(&b).turn, 255, "saturated");
}

#[test]
fn scenario_files_past_the_limits_are_refused_with_the_line() {
    let mut steps = String::from("chit long \"Long\"\n");
    for _ in 0..101 {
        steps.push_str("  nothing\n");
    }
    let text = format!("scenario \"t\"\nmap alpha\nmarine MS1 at 225\n{steps}");
    let err = setup_refused(text);
    assert!(err.contains("more than 100 steps"), "{err}");

    let adm = vec!["3"; 201].join(" ");
    let text = format!("scenario \"t\"\nmap alpha\nmarine MS1 at 225\nadm {adm}\n");
    let err = setup_refused(text);
    assert!(err.contains("201 ADM markers; at most 200"), "{err}");
}

#[test]
fn commands_naming_nothing_real_are_refused_and_change_nothing() {
    let mut b = battle(&alpha(
        "marine MS1 at 225\nmarine SC1 at 263\nkayotz K1 at 226\ncup lull awakening",
    ));
    for json in [
        &full_move("XX9", 111),
        &full_move("MS1", 777),
        &full_move("MS1", 0),
        &jump("SC1", 65535),
        &fire("MS1", "nobody"),
        r#"{"full_fire":{"unit":"MS1","target":"K1","dice":255}}"#,
        &fire("MS1", "MS1"),
        r#"{"re_supply":{"unit":"MS1","target":"nobody"}}"#,
        r#"{"recon":{"unit":"SC1","hq":"nobody"}}"#,
        &order("take_reinforcement", "MS1"),
        &choose_chit("nonsense"),
        &order("activate", "K99"),
    ] {
        refused(&mut b, json, &[]);
    }
}
