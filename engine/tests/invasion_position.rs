//! Alien Invasion position files (`engine/src/games/invasion/position.rs`):
//! a battle started from a given moment, as the command line's `battle
//! --scenario-file FILE` starts it (the config's `scenario_text`). The
//! shipped example is played on through the engine's battle calls; bad
//! files are refused in words naming their line, never with a panic.

use serde_json::json;
use xenolog_engine::games::invasion::state::{Card, CardKind, Place};
use xenolog_engine::games::invasion::{Invasion, InvasionConfig, InvasionState, position, start};
use xenolog_engine::{Actor, Game};

const EXAMPLE: &str = include_str!("../data/invasion/positions/farmyard_round3.txt");

fn config(text: &str) -> InvasionConfig {
    InvasionConfig {
        scenario_text: Some(text.to_owned()),
        ..InvasionConfig::default()
    }
}

fn from(text: &str) -> InvasionState {
    start(&config(text)).unwrap_or_else(|e| panic!("{e}"))
}

fn refused(text: &str) -> String {
    match start(&config(text)) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.0,
    }
}

fn group(s: &InvasionState, name: &str) -> usize {
    position::group_named(s, name).unwrap() as usize
}

#[test]
fn position_file_the_example_sets_the_moment_it_gives() {
    let s = from(EXAMPLE);
    assert_eq!(s.scenario.id, "skirmish");
    assert_eq!(s.factions[0].id, "unit");
    assert_eq!((s.round, s.current), (3, 1));
    assert_eq!(
        s.card(),
        Some(Card {
            seat: Some(0),
            kind: CardKind::Double
        })
    );
    // The deck: the eight cards not elsewhere, to be shuffled at the next draw.
    assert_eq!((s.deck.len(), s.discard.len(), s.shuffled), (8, 9, false));
    // Groups at their points (x, y in inches), the rest next to the first.
    let s1 = group(&s, "1st Squad, Section A");
    let at = s.groups[s1].models[0].at.unwrap();
    assert_eq!((at.x, at.y), (2200, 2200));
    assert!(s.groups[s1].placed());
    // Casualties so far.
    let s2 = group(&s, "unit-s2");
    assert_eq!(s.groups[s2].alive_count(), 3);
    assert!(!s.groups[s2].models[3].alive, "the LAWS gunner is lost");
    assert_eq!(s.groups[group(&s, "daleks-d1")].alive_count(), 2);
    assert_eq!(s.kills, vec![1, 1]);
    assert_eq!(s.groups[s1].models[3].kills, 1);
    // The melee.
    let (s3, d2) = (group(&s, "unit-s3"), group(&s, "Dalek Patrol Beta"));
    assert_eq!(s.groups[s3].locked, Some(0));
    assert_eq!(s.groups[d2].locked, Some(0));
    assert_eq!(s.melees.len(), 1);
    // A group the file does not name stays where it was deployed.
    let plain = start(&InvasionConfig {
        scenario: "skirmish".into(),
        ..InvasionConfig::default()
    })
    .unwrap();
    let s4 = group(&s, "unit-s4");
    assert_eq!(s.groups[s4], plain.groups[s4]);
}

/// The example played on as `xenolog battle --scenario-file` plays it: the
/// battle calls of the engine's registry, its legal commands, the melee at
/// the end of U.N.I.T.'s Double card, the deck's eight cards shuffled from
/// the seed at the next draw.
#[test]
fn position_file_the_example_plays_on_through_the_battle_calls() {
    let cfg = json!({"scenario_text": EXAMPLE});
    let mut orders = Vec::new();
    for seed in [1u64, 2] {
        let mut b = xenolog_engine::games::new_battle("invasion", seed, &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut shuffled = None;
        let mut melee_struck = false;
        for step in 0..200 {
            b.play_due().expect("the game's own steps");
            let state: InvasionState =
                serde_json::from_value(b.state_json(b.cursor())).expect("the state");
            if state.shuffled && shuffled.is_none() {
                // The deck as shuffled: what is left, then the round's cards
                // (drawn from the top, the end).
                let mut deck = state.deck.clone();
                deck.extend(state.drawn.iter().rev());
                shuffled = Some(deck);
            }
            if state.round >= 4 {
                break;
            }
            let legal = b.legal();
            assert!(!legal.is_empty(), "step {step}: nothing to do");
            // U.N.I.T. shoot from the farmhouse first, then every card is
            // ended; strikes as they come.
            let pick = legal
                .iter()
                .find(|l| l.command.to_string().contains("\"shoot\""))
                .filter(|_| step == 0)
                .or_else(|| {
                    legal
                        .iter()
                        .find(|l| l.command.to_string().contains("strike"))
                })
                .or_else(|| legal.iter().find(|l| l.command == json!("end_card")))
                .unwrap_or(&legal[0]);
            if pick.command.to_string().contains("strike") {
                melee_struck = true;
            }
            let p = b
                .prepare_json(pick.actor, &pick.command, None)
                .unwrap_or_else(|e| panic!("legal {} refused: {e}", pick.command));
            b.commit(p).expect("committed");
        }
        assert!(
            melee_struck,
            "the melee was resolved at the end of the Double card"
        );
        let texts = b.entry_texts(&b.path_to(b.cursor()));
        assert!(
            texts.iter().any(|t| t
                .events
                .iter()
                .any(|e| e.contains("shuffled the Action deck (8 cards)"))),
            "{texts:#?}"
        );
        assert!(b.verify().ok());
        orders.push(shuffled.expect("the deck was shuffled at the next draw"));
    }
    let mut a = orders[0].clone();
    let mut b = orders[1].clone();
    assert_ne!(a, b, "two seeds, two orders");
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
}

#[test]
fn position_file_a_small_change_is_a_small_file_and_the_deck_in_its_order() {
    let s = from(
        "position \"Farmyard Skirmish\"\nround 2\ndeck daleks:triple unit:single special\n\
         discard unit:single unit:single unit:single unit:single unit:double unit:double unit:double unit:triple \
         daleks:single daleks:single daleks:single daleks:single daleks:single daleks:double daleks:double daleks:double special\n",
    );
    assert_eq!(s.round, 2);
    assert!(s.shuffled);
    // Top card first in the file; the state keeps the top last.
    assert_eq!(
        s.deck.last(),
        Some(&Card {
            seat: Some(1),
            kind: CardKind::Triple
        })
    );
    // The next draw: three cards left are fewer than four, so the discard
    // pile is shuffled under them ("If the deck is exhausted").
    let mut t = s.clone();
    let c = Invasion::automatic(&t).unwrap();
    let mut rng = xenolog_engine::rng::Randomness::new(3, 0, None);
    let events = Invasion::decide(&t, Actor::SYSTEM, &c, &mut rng).unwrap();
    for e in &events {
        Invasion::apply(&mut t, e);
    }
    assert_eq!(t.round, 3);
    assert_eq!(
        t.drawn[0],
        Card {
            seat: Some(1),
            kind: CardKind::Triple
        }
    );
    // Only the scenario named: the scenario's deployment.
    let plain = from("position skirmish\n");
    let shipped = start(&InvasionConfig {
        scenario: "skirmish".into(),
        ..InvasionConfig::default()
    })
    .unwrap();
    assert_eq!(plain, shipped);
    // Below the table with the sewers.
    let mut cfg = config("position skirmish\ngroup unit-s1 below 24 14 climbing\n");
    cfg.sewers = true;
    let s = start(&cfg).unwrap();
    let g = &s.groups[0];
    assert_eq!((g.place, g.climbing), (Place::Below, 1));
}

#[test]
fn position_file_bad_files_are_refused_in_words_naming_the_line() {
    let cases: &[(&str, &str)] = &[
        ("", "the file is empty"),
        ("round 2\n", "the scenario file is not valid"),
        (
            "position moon_base\n",
            "line 1: there is no scenario 'moon_base'",
        ),
        (
            "position skirmish\nfactions unit cybermen\n",
            "line 2: there is no faction 'cybermen'",
        ),
        (
            "position skirmish\ngroup \"Sontaran Platoon\" at 3 3\n",
            "line 2: there is no group 'Sontaran Platoon'",
        ),
        (
            "position skirmish\n\ngroup unit-s1 at 60 3\n",
            "line 3: 'at' 60 3 is off the table (48 by 48 inches)",
        ),
        (
            "position skirmish\ngroup unit-s1 at 3\n",
            "line 2: 'at' needs two numbers",
        ),
        (
            "position skirmish\ngroup unit-s1 at x 3\n",
            "line 2: 'at' 'x 3' is not a point",
        ),
        (
            "position skirmish\ngroup unit-s1 dead 9\n",
            "line 2: 'dead 9': the group has 4 figures alive",
        ),
        (
            "position skirmish\ngroup unit-s1 flying\n",
            "line 2: 'flying' is not something a group line says",
        ),
        (
            "position skirmish\ngroup unit-s1 suppressed\n",
            "line 2: 'suppressed' needs the Advanced Invasion Earth module",
        ),
        (
            "position skirmish\nround 9\n",
            "line 2: round 9 is past the scenario's last round (6)",
        ),
        (
            "position skirmish\nround 1\ncards unit:quadruple\n",
            "line 3: 'unit:quadruple': a faction's card is single, double or triple",
        ),
        (
            "position skirmish\nround 1\ncards mib:single\n",
            "line 3: no faction in this battle is called 'mib'",
        ),
        (
            "position skirmish\nround 1\ncards unit:triple unit:triple\n",
            "the battle's deck has 1",
        ),
        (
            "position skirmish\nplaying 2\n",
            "line 2: 'playing' needs this round's 'cards'",
        ),
        (
            "position skirmish\nround 1\ncards unit:single\nplaying 3\n",
            "line 4: 'playing 3': the round has 1 cards",
        ),
        (
            "position skirmish\ndeck special special special\n",
            "line 2: the deck, the discard pile and this round's cards still to play hold 3 Special Event cards; the battle's deck has 2",
        ),
        (
            "position skirmish\nmelee unit-s1 unit-s2\n",
            "line 2: a melee is between groups of two factions or more",
        ),
        (
            "position skirmish\ngroup unit-s1 below 3 3\n",
            "is below the table, and the battle is not played with the sewers",
        ),
        (
            "position skirmish\nfigure unit-s9-1 dead\n",
            "line 2: there is no figure 'unit-s9-1'",
        ),
        (
            "position skirmish\nteleport unit-s1\n",
            "line 2: unknown statement 'teleport'",
        ),
        (
            "position skirmish\ngroup \"unit-s1 at 3 3\n",
            "line 2: a quoted text is not closed",
        ),
        (
            "position skirmish\nround 1\nround 2\n",
            "line 3: 'round' is given twice",
        ),
    ];
    for (text, says) in cases {
        let e = refused(text);
        assert!(e.contains(says), "{text:?}: {e:?} does not say {says:?}");
        assert!(
            e.starts_with("the position file is not valid") || !text.starts_with("position"),
            "{e}"
        );
    }
}

/// Every line of the example damaged in a few ways: refused in words or
/// accepted, never a panic.
#[test]
fn position_file_damaged_lines_never_panic() {
    let lines: Vec<&str> = EXAMPLE.lines().collect();
    for i in 0..lines.len() {
        for damage in [
            "",
            "x",
            "group",
            "figure",
            "melee",
            "cards",
            "deck",
            "kills",
            "group unit-s1 at",
            "group 99",
            "melee 0 4 defends 4",
            "holes 1",
            "holes_left daleks 3",
        ] {
            let mut l = lines.clone();
            l[i] = damage;
            let text = l.join("\n");
            let _ = std::panic::catch_unwind(|| start(&config(&text)))
                .unwrap_or_else(|_| panic!("panicked on line {i} as {damage:?}"));
        }
        let truncated: String = EXAMPLE.lines().take(i).collect::<Vec<_>>().join("\n");
        let _ = std::panic::catch_unwind(|| start(&config(&truncated)))
            .unwrap_or_else(|_| panic!("panicked on the first {i} lines"));
    }
}

#[test]
fn position_file_at_a_real_table_groups_have_no_points() {
    let mut cfg = config("position skirmish\ngroup unit-s1 at 3 3\n");
    cfg.real_table = true;
    let e = start(&cfg).unwrap_err().0;
    assert!(
        e.contains("line 2: this battle is played at a real table"),
        "{e}"
    );
    let mut cfg =
        config("position skirmish\ngroup daleks-d1 dead 1 table\nround 1\ncards special\n");
    cfg.real_table = true;
    let s = start(&cfg).unwrap();
    let g = &s.groups[4];
    assert_eq!((g.place, g.alive_count()), (Place::Table, 2));
    assert!(g.models.iter().all(|m| m.at.is_none()));
    let e = refused("position skirmish\ngroup unit-s1 table\n");
    assert!(e.contains("needs its point"), "{e}");
}
