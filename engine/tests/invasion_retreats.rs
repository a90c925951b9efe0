//! Rule text 000, "Resolving hand-to-hand combat": "If more than one
//! faction remains and an area of terrain was being defended ... any
//! defenders stay put and any attackers move back a full move ensuring
//! that they don't stay in contact themselves. If no position was being
//! held ... then all factions will move a full move apart, usually back the
//! way they came." Rules version 6 (issue 27): the way back is the group's
//! player's (`choose_point`, the shared "choose a point" pending choice);
//! the battle option `game_chooses_retreats` keeps Xenolog's old choice,
//! straight away from the enemy, which is offered first.

#[path = "support/invasion.rs"]
mod support;
#[path = "invasion_when/mod.rs"]
mod when;

use support::*;
use when::*;
use xenolog_engine::games::invasion::model::Point;
use xenolog_engine::games::invasion::state::{CardKind, GroupId, InvasionEvent as E};
use xenolog_engine::games::invasion::{Invasion, InvasionConfig, InvasionState, table};
use xenolog_engine::{Actor, Game};

fn mv(g: GroupId, x: f64, y: f64) -> String {
    let p = pt(x, y);
    format!(
        r#"{{"move":{{"group":{g},"to":{{"x":{},"y":{}}}}}}}"#,
        p.x, p.y
    )
}

fn centre(s: &InvasionState, g: GroupId) -> Point {
    table::centre(&s.group(g).points())
}

fn choose(x: i32, y: i32) -> String {
    format!(r#"{{"choose_point":{{"to":{{"x":{x},"y":{y}}}}}}}"#)
}

/// U.N.I.T. in the house (defending it), the Daleks charging in from the
/// west; the melee resolved with one man lost; its aftermath due.
fn stormed() -> (InvasionState, GroupId, GroupId) {
    let (mut s, sec, dal, _) = given_the_house_charged();
    end_card_then_step(&mut s, 1);
    play(&mut s, 0, r#"{"strike":{}}"#, &[1; 8]);
    play(&mut s, 1, r#"{"strike":{}}"#, &[1; 18]);
    let one = figures(&s, sec)[3].clone();
    play(&mut s, 0, &casualties(&[&one]), &[]);
    (s, sec, dal)
}

/// U.N.I.T. and the Daleks meet in the open; the melee resolved, no one
/// holding a position: three men lost, no Dalek.
fn in_the_open() -> (InvasionState, GroupId, GroupId) {
    let (mut s, [sec, dal]) = given_at(&["unit", "daleks", "spugs"], "s1 at 20,20; d1 at 20,26");
    cards(
        &mut s,
        &[
            (Some(1), CardKind::Double),
            (Some(0), CardKind::Single),
            (Some(2), CardKind::Single),
            (Some(0), CardKind::Single),
        ],
    );
    play(&mut s, 1, &mv(dal, 20.0, 21.05), &[]);
    play(&mut s, 1, r#""end_card""#, &[]);
    step(&mut s, &[]);
    play(&mut s, 0, r#"{"strike":{}}"#, &[1; 8]);
    play(&mut s, 1, r#"{"strike":{}}"#, &[1; 18]);
    let three: Vec<String> = figures(&s, sec).into_iter().take(3).collect();
    play(
        &mut s,
        0,
        &format!(
            r#"{{"casualties":{{"models":{}}}}}"#,
            serde_json::to_string(&three).unwrap()
        ),
        &[],
    );
    (s, sec, dal)
}

#[test]
fn resolving_attackers_move_back_a_full_move_the_way_their_player_chooses() {
    let (mut s, sec, dal) = stormed();
    let held = s.group(sec).points();
    let was = centre(&s, dal);
    let p = step(&mut s, &[]);
    p.assert_says(
        "Daleks Dalek Patrol Alpha must fall back a full move: their player chooses the way",
    );
    assert!(s.melees.is_empty() && s.group(dal).locked.is_none());
    assert_eq!(asked_points(&s), vec![dal], "the defenders stay put");
    assert_eq!(Invasion::automatic(&s), None);
    let asked = Invasion::asked(&s);
    assert_eq!(asked[0].seat, Actor(1));
    assert_legal_accepted(&s);
    // South-west instead of straight back west.
    let to = Point::new(was.x - 600, was.y + 600);
    let p = play(&mut s, 1, &choose(to.x, to.y), &[]);
    p.assert_says("falls back a full move");
    let now = centre(&s, dal);
    let d = was.distance(now);
    assert!((795..=805).contains(&d), "a full move back: {d}");
    assert!(now.x < was.x && now.y > was.y, "the way chosen: {now:?}");
    assert_eq!(s.group(sec).points(), held, "the defenders stay put");
    assert!(!table::in_contact(&s.group(dal).points(), &held));
    assert!(s.pending.is_empty());
}

#[test]
fn resolving_with_no_position_held_each_faction_moves_a_full_move_apart_the_way_it_chooses() {
    let (mut s, sec, dal) = in_the_open();
    let mut old = s.clone();
    old.game_chooses_retreats = true;
    let (a, b) = (centre(&s, sec), centre(&s, dal));
    let p = step(&mut s, &[]);
    assert!(!p.any(|e| matches!(e, E::Moved { .. })));
    // Both sides, in the melee's order (the Daleks charged in); each
    // offered straight back first, which is where Xenolog moved them until
    // rules version 5.
    assert_eq!(asked_points(&s), vec![dal, sec]);
    step(&mut old, &[]);
    for (seat, g) in [(1, dal), (0, sec)] {
        let first = Invasion::legal(&s)[0].clone();
        assert_eq!(first.0, Actor(seat));
        play_cmd(&mut s, seat, &first.1);
        assert_eq!(s.group(g).points(), old.group(g).points());
    }
    assert!(centre(&s, sec).distance(a) >= 795);
    assert!(centre(&s, dal).distance(b) >= 795);
    assert!(!table::in_contact(
        &s.group(sec).points(),
        &s.group(dal).points()
    ));
    assert!(s.pending.is_empty());
}

#[test]
fn resolving_a_way_back_that_stays_in_contact_is_refused_in_words() {
    let (mut s, sec, dal) = in_the_open();
    step(&mut s, &[]);
    // The Daleks (asked first) stand just south of a long U.N.I.T. line.
    for (id, x) in [("s2", 21.1), ("s3", 25.5), ("s4", 29.9)] {
        let g = gid(&s, id);
        place(&mut s, g, x, 20.0);
    }
    let c = centre(&s, dal);
    // East along the line: a full move that stays in base contact, while
    // straight back south would not.
    let e = refused(&mut s, 1, &choose(c.x + 800, c.y), &[]);
    assert!(
        refusal(&e).contains("ensuring that they don't stay in contact themselves"),
        "{}",
        refusal(&e)
    );
    assert_eq!(e.clause.as_deref(), Some("Resolving hand-to-hand combat"));
    let e = refused(&mut s, 0, &choose(c.x, c.y + 800), &[]);
    assert!(
        refusal(&e).contains("Daleks are asked to choose the way"),
        "{}",
        refusal(&e)
    );
    let e = refused(&mut s, 1, &choose(c.x, c.y), &[]);
    assert!(
        refusal(&e).contains("away from the group"),
        "{}",
        refusal(&e)
    );
    let e = refused(&mut s, 1, r#"{"choose_point":{}}"#, &[]);
    assert!(refusal(&e).contains("name the point"), "{}", refusal(&e));
    // West, past the line's end: accepted.
    play(&mut s, 1, &choose(c.x - 800, c.y + 300), &[]);
    assert_eq!(asked_points(&s), vec![sec]);
}

#[test]
fn resolving_the_game_choosing_retreats_is_a_battle_option() {
    assert!(
        Invasion::options()
            .iter()
            .any(|o| o.key == "game_chooses_retreats")
    );
    let config: InvasionConfig =
        serde_json::from_str(r#"{"scenario":"skirmish","game_chooses_retreats":true}"#).unwrap();
    let s = xenolog_engine::games::invasion::start(&config).unwrap();
    assert!(s.game_chooses_retreats);
    // An older config reads without it: the player chooses.
    let config: InvasionConfig = serde_json::from_str(r#"{"scenario":"skirmish"}"#).unwrap();
    assert!(!config.game_chooses_retreats);
    // With it, the aftermath moves the groups itself.
    let (mut s, _, dal) = in_the_open();
    s.game_chooses_retreats = true;
    let p = step(&mut s, &[]);
    assert!(p.any(|e| matches!(e, E::Moved { group, .. } if *group == dal)));
    assert!(s.pending.is_empty());
}

fn play_cmd(
    s: &mut InvasionState,
    actor: u8,
    c: &xenolog_engine::games::invasion::InvasionCommand,
) {
    try_play_cmd(s, actor, c, &[]).unwrap_or_else(|e| panic!("{c:?} refused: {e}"));
}

/// Dalek patrols of two seats meet in the open, over and over with other
/// dice, a bot answering every question from `legal`: when both sides are
/// left, each falls back the way the bot picks among those offered, a full
/// move, and the fight is over with nothing left to answer.
#[test]
fn resolving_random_melees_fall_back_the_ways_offered_a_full_move_each() {
    use xenolog_engine::rng::Randomness;
    let mut fell_back = 0;
    for seed in 0..40u64 {
        let mut s = given(&["daleks", "daleks"]);
        let (a, b) = (0, 2);
        place(&mut s, a, 20.0, 20.0);
        place(&mut s, b, 20.0, 26.0);
        seat_cards(&mut s, &[(1, CardKind::Double), (0, CardKind::Single)]);
        play(&mut s, 1, &mv(b, 20.0, 21.05), &[]);
        play(&mut s, 1, r#""end_card""#, &[]);
        let mut bot = Randomness::new(seed ^ 0xfa11, 0, None);
        let mut n = 0u64;
        let before = (centre(&s, a), centre(&s, b));
        loop {
            n += 1;
            assert!(n < 100, "seed {seed}: the melee does not end");
            let (actor, c) = match Invasion::automatic(&s) {
                Some(c) => (Actor::SYSTEM, c),
                None if !s.melees.is_empty() || !s.pending.is_empty() => {
                    let legal = Invasion::legal(&s);
                    assert!(
                        !legal.is_empty(),
                        "seed {seed}: stalled at {:?}",
                        Invasion::asked(&s)
                    );
                    legal[bot.pick(legal.len())].clone()
                }
                None => break,
            };
            let mut rng = Randomness::new(seed * 1000 + n, 0, None);
            let events = Invasion::decide(&s, actor, &c, &mut rng)
                .unwrap_or_else(|e| panic!("seed {seed}: {c:?} refused: {e}"));
            for e in &events {
                Invasion::apply(&mut s, e);
            }
            if s.melees.is_empty() && s.pending.is_empty() {
                break;
            }
        }
        if s.group(a).alive_count() > 0 && s.group(b).alive_count() > 0 {
            fell_back += 1;
            assert!(centre(&s, a).distance(before.0) >= 700, "seed {seed}");
            assert!(
                !table::in_contact(&s.group(a).points(), &s.group(b).points()),
                "seed {seed}"
            );
        }
    }
    assert!(fell_back > 0, "in forty melees both sides were never left");
}
