//! The port of boardgame.io's anchor benchmark game (`hexwar`, from
//! `../shared/anchors/boardgameio/game.js` and `bench.js`): the plan is
//! bench.js's to the command, the rules are game.js's, and a battle of it is
//! deterministic and replays exactly, in memory and through the store.
//!
//! The golden numbers were printed by bench.js's own `mulberry32` and
//! `makePlan` under node 20 (see `tests/anchor/side_by_side.sh`).

use serde_json::json;
use xenolog_engine::games::hexwar::{
    self, HexWar, HexWarCommand as C, HexWarEvent, HexWarState, MAX_AMMO, MAX_HP, Mulberry32,
    PLAN_SEED,
};
use xenolog_engine::{Actor, EntryId, Game, Randomness, RuleErrorKind, Session, StoredBattle};
use xenolog_saves::{Campaign, DiceMode};

/// Commands of the plan played where a whole battle is played in debug.
const SAMPLE: usize = 2_000;

/// Play `commands` in a fresh battle, each by the player whose turn it is
/// (boardgame.io's `ctx.currentPlayer`, as bench.js's `actionFor`).
fn play(seed: u64, commands: &[C]) -> Session<HexWar> {
    let mut s = Session::<HexWar>::new(seed, Default::default()).expect("sets up");
    for (i, c) in commands.iter().enumerate() {
        let actor = Actor(s.state().current);
        s.play(actor, c, None)
            .unwrap_or_else(|e| panic!("plan command {i} ({c:?}) refused: {e}"));
    }
    s
}

fn counts(plan: &[C]) -> (usize, usize, usize) {
    let moves = plan.iter().filter(|c| matches!(c, C::Move { .. })).count();
    let fires = plan.iter().filter(|c| matches!(c, C::Fire { .. })).count();
    (moves, fires, plan.len() - moves - fires)
}

#[test]
fn mulberry32_gives_bench_js_outputs() {
    let mut r = Mulberry32::new(PLAN_SEED);
    let raw: Vec<u32> = (0..5).map(|_| r.next_u32()).collect();
    assert_eq!(
        raw,
        [4207900869, 1317490944, 2079646450, 3513001552, 2187978186]
    );
}

#[test]
fn the_plan_is_bench_js_plan_to_the_command() {
    let plan = hexwar::plan(100_000, PLAN_SEED);
    assert_eq!(plan.len(), 100_000);
    // bench.js prints `mix { endTurn: 9941, move: 49845, fire: 40214 }`.
    assert_eq!(counts(&plan), (49_845, 40_214, 9_941));
    assert_eq!(
        plan[..8],
        [
            C::EndTurn,
            C::Move { unit: 19, hex: 490 },
            C::Fire {
                attacker: 13,
                target: 2
            },
            C::Fire {
                attacker: 39,
                target: 32
            },
            C::Move { unit: 37, hex: 534 },
            C::EndTurn,
            C::Fire {
                attacker: 9,
                target: 19
            },
            C::Move { unit: 30, hex: 519 },
        ]
    );
    assert_eq!(plan[50_000], C::Move { unit: 3, hex: 395 });
    assert_eq!(plan[99_999], C::Move { unit: 1, hex: 170 });
    // A shorter plan is the longer one's start, as makePlan(n) is.
    assert_eq!(hexwar::plan(SAMPLE, PLAN_SEED)[..], plan[..SAMPLE]);
    // Every command in range and no unit firing at itself.
    assert!(plan.iter().all(|c| match *c {
        C::Move { unit, hex } => unit < hexwar::NUM_UNITS && hex < hexwar::NUM_HEXES,
        C::Fire { attacker, target } =>
            attacker < hexwar::NUM_UNITS && target < hexwar::NUM_UNITS && attacker != target,
        C::EndTurn => true,
    }));
}

#[test]
fn the_setup_is_game_js_setup() {
    let s = HexWar::setup(&Default::default()).unwrap();
    assert_eq!(s.units.len(), 40);
    for (i, u) in s.units.iter().enumerate() {
        assert_eq!(usize::from(u.hex), i * 13 % 600);
        assert_eq!((u.hp, u.ammo, u.stunned), (MAX_HP, MAX_AMMO, false));
    }
    assert_eq!((s.log_counter, s.turn, s.current), (0, 1, 0));
}

/// Decide `command` in `state` with the players' own dice and apply it.
fn with_dice(state: &HexWarState, command: &C, dice: &[u8]) -> (Vec<HexWarEvent>, HexWarState) {
    let mut rng = Randomness::new(1, 0, Some(dice.to_vec()));
    let events = HexWar::decide(state, Actor(state.current), command, &mut rng).expect("decides");
    let used = rng.finish().expect("every die used");
    assert_eq!(used.dice.len(), 4, "a fire rolls four D6");
    let mut after = state.clone();
    for e in &events {
        HexWar::apply(&mut after, e);
    }
    (events, after)
}

const FIRE: C = C::Fire {
    attacker: 0,
    target: 1,
};

#[test]
fn a_fires_hits_are_its_dice_above_3() {
    let s = HexWar::setup(&Default::default()).unwrap();
    for (dice, hits, stunned) in [
        ([1, 2, 3, 3], 0, false),
        ([4, 1, 2, 3], 1, false),
        ([4, 5, 1, 3], 2, true),
        ([6, 5, 4, 3], 3, true),
        ([4, 4, 4, 4], 4, true),
    ] {
        let (events, after) = with_dice(&s, &FIRE, &dice);
        assert_eq!(
            events,
            vec![HexWarEvent::Fired {
                attacker: 0,
                target: 1,
                dice
            }]
        );
        assert_eq!(hexwar::hits(&dice), hits);
        assert_eq!(after.units[1].hp, MAX_HP - hits, "{dice:?}");
        assert_eq!(after.units[1].stunned, stunned, "{dice:?}");
        assert_eq!(after.units[0].ammo, MAX_AMMO - 1, "the attacker spends one");
        assert_eq!(after.units[0].hp, MAX_HP, "the attacker takes nothing");
        assert_eq!(after.log_counter, 1);
    }
}

#[test]
fn a_fire_rolls_four_d6_from_the_battles_stream() {
    let mut s = Session::<HexWar>::new(7, Default::default()).unwrap();
    s.play(Actor(0), &FIRE, None).unwrap();
    let expect: Vec<u8> = {
        let mut r = Randomness::new(7, 0, None);
        (0..4).map(|_| r.d6().unwrap()).collect()
    };
    let rec = &s.records()[0];
    assert_eq!(
        rec.dice()
            .iter()
            .map(|d| (d.sides, d.value))
            .collect::<Vec<_>>(),
        expect.iter().map(|&v| (6, v)).collect::<Vec<_>>()
    );
    assert!(!rec.entered);
    let hits = expect.iter().filter(|&&d| d > 3).count() as u8;
    assert_eq!(s.state().units[1].hp, MAX_HP - hits);
}

#[test]
fn a_unit_at_0_hp_respawns_on_the_hex_of_its_id() {
    let mut s = HexWar::setup(&Default::default()).unwrap();
    s.units[1].hex = 77;
    s.units[1].hp = 3;
    let (_, after) = with_dice(&s, &FIRE, &[6, 6, 6, 1]);
    assert_eq!(after.units[1].hp, MAX_HP, "back to full hp");
    assert_eq!(after.units[1].hex, 1, "on the hex of its id");
    assert!(!after.units[1].stunned, "a respawned unit is not stunned");
    // Below 0 (4 hits on 2 hp) respawns the same way.
    s.units[1].hp = 2;
    let (_, after) = with_dice(&s, &FIRE, &[6, 6, 6, 6]);
    assert_eq!((after.units[1].hp, after.units[1].hex), (MAX_HP, 1));
    // One hp left: no respawn, and stunned.
    s.units[1].hp = 4;
    let (_, after) = with_dice(&s, &FIRE, &[6, 6, 6, 1]);
    assert_eq!((after.units[1].hp, after.units[1].hex), (1, 77));
    assert!(after.units[1].stunned);
}

#[test]
fn an_attacker_without_ammo_reloads_instead_of_spending() {
    let mut s = HexWar::setup(&Default::default()).unwrap();
    s.units[0].ammo = 1;
    let (_, after) = with_dice(&s, &FIRE, &[1, 1, 1, 1]);
    assert_eq!(after.units[0].ammo, 0);
    let (_, after) = with_dice(&after, &FIRE, &[1, 1, 1, 1]);
    assert_eq!(after.units[0].ammo, MAX_AMMO, "auto-reload at no ammo");
}

#[test]
fn a_move_goes_anywhere_and_unstuns() {
    let mut s = HexWar::setup(&Default::default()).unwrap();
    s.units[5].stunned = true;
    let mut rng = Randomness::new(1, 0, None);
    let events = HexWar::decide(&s, Actor(0), &C::Move { unit: 5, hex: 599 }, &mut rng).unwrap();
    assert_eq!(rng.finish().unwrap().draws, 0, "a move rolls nothing");
    for e in &events {
        HexWar::apply(&mut s, e);
    }
    assert_eq!((s.units[5].hex, s.units[5].stunned), (599, false));
    assert_eq!(s.log_counter, 1);
}

#[test]
fn ending_the_turn_passes_to_the_other_player() {
    let mut s = Session::<HexWar>::new(3, Default::default()).unwrap();
    s.play(Actor(0), &C::EndTurn, None).unwrap();
    assert_eq!((s.state().turn, s.state().current), (2, 1));
    assert_eq!(s.state().log_counter, 0, "an end of turn is not counted");
    let err = s.play(Actor(0), &C::EndTurn, None).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
    assert!(err.to_string().contains("Player 1's turn"), "{err}");
    s.play(Actor(1), &C::EndTurn, None).unwrap();
    assert_eq!((s.state().turn, s.state().current), (3, 0));
}

#[test]
fn bad_commands_are_refused_in_words_and_change_nothing() {
    let mut b = xenolog_engine::games::new_battle("hexwar", 5, &json!({})).unwrap();
    let first = b
        .prepare_json(Actor(0), &json!({"move": {"unit": 1, "hex": 2}}), None)
        .unwrap();
    b.commit(first).unwrap();
    let before = (b.records().to_vec(), b.state_json(b.cursor()));
    for (actor, command, words) in [
        (0, json!({"move": {"unit": 40, "hex": 2}}), "no unit 40"),
        (0, json!({"move": {"unit": 1, "hex": 600}}), "no hex 600"),
        (
            0,
            json!({"fire": {"attacker": 3, "target": 3}}),
            "cannot fire at itself",
        ),
        (
            0,
            json!({"fire": {"attacker": 3, "target": 250}}),
            "no unit 250",
        ),
        (1, json!("end_turn"), "Player 0's turn"),
        (0, json!({"move": {"unit": 1}}), "not a Hex War"),
        (0, json!({"teleport": {"unit": 1}}), "not a Hex War"),
        (0, json!({"move": {"unit": -1, "hex": 2}}), "not a Hex War"),
    ] {
        let err = match b.prepare_json(Actor(actor), &command, None) {
            Ok(_) => panic!("{command} was accepted"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(words), "{command}: {err}");
    }
    // Dice the players typed in must fit the fire.
    let err = b
        .prepare_json(
            Actor(0),
            &json!({"fire": {"attacker": 0, "target": 1}}),
            Some(vec![7, 1, 1, 1]),
        )
        .err()
        .expect("a 7 on a D6 is refused")
        .to_string();
    assert!(!err.is_empty());
    assert_eq!((b.records().to_vec(), b.state_json(b.cursor())), before);
}

#[test]
fn the_same_seed_gives_the_same_battle_and_another_seed_other_dice() {
    let plan = hexwar::plan(SAMPLE, PLAN_SEED);
    let a = play(42, &plan);
    let b = play(42, &plan);
    let hash = |s: &Session<HexWar>| s.records().last().unwrap().state_hash;
    assert_eq!(hash(&a), hash(&b));
    assert_eq!(a.state(), b.state());
    assert_eq!(a.records(), b.records());
    let c = play(43, &plan);
    assert_ne!(hash(&a), hash(&c), "other dice, another battle");
    // The plan alone fixes the counters, whatever the dice.
    let (moves, fires, ends) = counts(&plan);
    for s in [&a, &c] {
        assert_eq!(s.state().log_counter as usize, moves + fires);
        assert_eq!(s.state().turn as usize, 1 + ends);
    }
    assert_eq!(
        a.records().iter().map(|r| r.dice().len()).sum::<usize>(),
        4 * fires
    );
}

#[test]
fn replay_equals_live() {
    let plan = hexwar::plan(SAMPLE, PLAN_SEED);
    let live = play(42, &plan);
    // verify: re-decide every command from the log, check dice, hashes, chain.
    let report = live.verify();
    assert!(report.ok(), "{report}");
    assert_eq!(report.entries, SAMPLE as u64);
    // Re-decide the recorded commands by hand in a fresh battle: the same log.
    let mut again = Session::<HexWar>::new(42, Default::default()).unwrap();
    for (i, rec) in live.records().iter().enumerate() {
        let command = live.command(i as EntryId).expect("decodes");
        again.play(rec.actor, &command, None).unwrap();
    }
    assert_eq!(again.records(), live.records());
    assert_eq!(again.state(), live.state());
    // Rebuilt from its stored parts without snapshots (a fold of the events):
    // the same state at every 97th entry and at the end, and seeking agrees.
    let mut back = Session::<HexWar>::from_parts(StoredBattle {
        meta: live.meta().clone(),
        records: live.records().to_vec(),
        branches: live.branches().to_vec(),
        snapshots: Vec::new(),
        cursor: live.cursor(),
        branch: live.current_branch(),
    })
    .unwrap();
    for id in (0..SAMPLE as EntryId)
        .step_by(97)
        .chain([SAMPLE as EntryId - 1])
    {
        assert_eq!(
            back.state_at(Some(id)),
            live.state_at(Some(id)),
            "entry {id}"
        );
    }
    back.seek(Some(999));
    assert_eq!(back.state(), &live.state_at(Some(999)));
}

/// The store's path, as a player's commands go: JSON commands through
/// `Campaign::play` (one durable transaction each), then the file reopened.
#[test]
fn replay_equals_live_through_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("anchor.xenolog");
    let plan = hexwar::plan(120, PLAN_SEED);
    let mut campaign = Campaign::create(&path, "Anchor").unwrap();
    let id = campaign
        .new_battle("hexwar", 42, &json!({}), "Anchor", DiceMode::Rolled)
        .unwrap();
    let mut battle = campaign.load_battle(id).unwrap();
    for c in &plan {
        let actor = battle.to_move().unwrap();
        campaign
            .play(
                id,
                &mut *battle,
                actor,
                &serde_json::to_value(c).unwrap(),
                None,
            )
            .unwrap();
    }
    let live = play(42, &plan);
    drop(campaign);
    let reopened = Campaign::open_read_only(&path).unwrap();
    let stored = reopened.load_battle(id).unwrap();
    assert_eq!(stored.records(), live.records());
    assert_eq!(
        stored.state_json(stored.cursor()),
        serde_json::to_value(live.state()).unwrap()
    );
    assert!(reopened.verify_battle(id).unwrap().ok());
}
