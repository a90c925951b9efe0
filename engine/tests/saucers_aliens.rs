//! Night of the Saucers: Defeat, Collect, Upkeep, the Alien turn and the
//! aliens, missions, the end of the game, the two variants and hidden
//! information. Each test is named after the clause of `RULES.md`.

#[path = "support/saucers.rs"]
mod support;

use support::*;
use xenolog_engine::games::saucers::data::{AlienKind, Dir, Kind, Tokens};
use xenolog_engine::games::saucers::{
    HIDDEN, Phase, Saucers, SaucersCommand as C, SaucersConfig, SaucersEvent as E, SaucersState,
    Target, Variant,
};
use xenolog_engine::{Actor, Game, Session};

/// End the actions and play Collect: the Defeat step's choices next (if any).
fn to_defeat(st: &mut xenolog_engine::games::saucers::SaucersState) {
    ok(st, st.current, C::EndActions, None);
}

#[test]
fn defeat_one_student_per_alien_left_on_the_tile_the_players_choice() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    alien(&mut st, AlienKind::Scout, "C3");
    alien(&mut st, AlienKind::Probe, "C3");
    alien(&mut st, AlienKind::Saucer, "C3");
    to_defeat(&mut st);
    assert_eq!(st.phase, Phase::Defeat);
    assert_eq!(Saucers::automatic(&st), None, "the player chooses");
    let lose: Vec<u16> = legal(&st)
        .into_iter()
        .filter(|(a, _)| a.0 == 0)
        .filter_map(|(_, c)| match c {
            C::Lose { human } => Some(human),
            _ => None,
        })
        .collect();
    assert_eq!(
        lose.len(),
        3,
        "any of the three, and only the current player's"
    );
    let patch = human(&st, "patch");
    let tabby = human(&st, "tabby");
    // Nine Lives: CPR rolls a die; a blank does not save.
    ok(&mut st, 0, C::Lose { human: patch }, dice(&[1]));
    ok(&mut st, 0, C::Lose { human: tabby }, dice(&[2]));
    assert!(!st.humans[patch as usize].alive && !st.humans[tabby as usize].alive);
    assert_eq!(
        Saucers::automatic(&st),
        Some(C::Collect),
        "two aliens on the ground, two students: the Saucer is in the air"
    );
    assert!(
        st.humans.iter().filter(|h| h.seat == 1).all(|h| h.alive),
        "the other player's students are not this turn's"
    );
}

/// Assumption 14, one rule for every step (rules version 6, review18 S2),
/// every option off: the Nine Lives lose their last student in their own
/// Defeat step and are passed over to the Alien turn ending their turn: no
/// Collect, no Upkeep asked of a gang with nobody on the board, and the log
/// says why. A battle started under version 5 (`Saucers::setup_recorded`)
/// plays on as it did: Collect, then Upkeep asked of the empty gang.
#[test]
fn turn_order_a_gang_lost_in_its_defeat_step_is_passed_over_to_the_alien_turn() {
    let config = gangs(&["nine_lives", "fly_boyz"]);
    assert!(Saucers::setup(&config).unwrap().pass_over_lost_gangs);
    assert!(
        Saucers::setup_recorded(&config, 6)
            .unwrap()
            .pass_over_lost_gangs
    );
    assert!(
        !Saucers::setup_recorded(&config, 5)
            .unwrap()
            .pass_over_lost_gangs
    );
    for pass in [true, false] {
        let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
        st.pass_over_lost_gangs = pass;
        for id in ["ace", "jet", "wingnut"] {
            put(&mut st, id, "F6");
        }
        for id in ["whiskers", "patch"] {
            let h = human(&st, id) as usize;
            st.humans[h].alive = false;
            st.humans[h].mission = None;
        }
        let tabby = human(&st, "tabby");
        alien(&mut st, AlienKind::Probe, "C3");
        to_defeat(&mut st);
        let before = st.clone();
        // CPR rolls a blank: Tabby is lost.
        let events = ok(&mut st, 0, C::Lose { human: tabby }, dice(&[1]));
        assert!(st.living(0).next().is_none() && st.over.is_none());
        let said = words(&before, &events).join("; ");
        if pass {
            assert_eq!(st.phase, Phase::Alien);
            assert!(
                said.contains("Nine Lives have no students left: on to the Alien turn"),
                "{said}"
            );
        } else {
            assert_eq!(st.phase, Phase::Defeat);
            assert!(!said.contains("no students left"), "{said}");
            step(&mut st, C::Collect);
            assert_eq!(st.phase, Phase::Upkeep);
            assert!(Saucers::asked(&st).iter().any(|a| a.seat == Actor(0)));
            ok(&mut st, 0, C::Upkeep, None);
            assert_eq!(st.phase, Phase::Alien);
        }
        assert!(Saucers::asked(&st).iter().all(|a| a.seat != Actor(0)));
        assert_eq!(Saucers::automatic(&st), Some(C::AlienTurn));
        step(&mut st, C::AlienTurn);
        if st.over.is_none() {
            assert_eq!(st.current, 1, "the Fly Boyz play next");
        }
    }
}

/// Defeat, assumption 12 (review7 S2): "If any aliens remain on the same tile
/// as any of your humans, discard 1 student for every 1 alien remaining.
/// (Player's choice.)" An alien reaches only the students on its tile: more
/// aliens than students there cost only those students, never one elsewhere;
/// the player's choice is which of the students on the tile.
#[test]
fn defeat_more_aliens_than_students_on_a_tile_cost_only_the_students_there() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    let whiskers = put(&mut st, "whiskers", "A1");
    let patch = put(&mut st, "patch", "A1");
    let tabby = human(&st, "tabby");
    alien(&mut st, AlienKind::Scout, "C3");
    alien(&mut st, AlienKind::Scout, "C3");
    to_defeat(&mut st);
    assert_eq!(st.phase, Phase::Defeat);
    let lose: Vec<u16> = legal(&st)
        .into_iter()
        .filter_map(|(_, c)| match c {
            C::Lose { human } => Some(human),
            _ => None,
        })
        .collect();
    assert_eq!(lose, vec![tabby], "only the student on the aliens' tile");
    let err = refused(
        &mut st,
        0,
        C::Lose { human: whiskers },
        dice(&[1]),
        "Defeat",
    );
    assert!(
        err.contains("no alien is left to defeat a student on A1"),
        "{err}"
    );
    ok(&mut st, 0, C::Lose { human: tabby }, dice(&[1]));
    assert!(!st.humans[tabby as usize].alive);
    assert_eq!(
        Saucers::automatic(&st),
        Some(C::Collect),
        "two aliens, one student on their tile: one lost, the step is done"
    );
    assert!(st.humans[whiskers as usize].alive && st.humans[patch as usize].alive);
}

#[test]
fn gangs_cpr_a_nine_lives_student_killed_in_combat_lives_on_a_dead_alien() {
    let mut st = quiet(&["nine_lives"], "C3");
    alien(&mut st, AlienKind::Probe, "C3");
    to_defeat(&mut st);
    let tabby = human(&st, "tabby");
    let ev = ok(&mut st, 0, C::Lose { human: tabby }, dice(&[6]));
    assert!(ev.contains(&E::Revived { human: tabby }));
    assert!(st.humans[tabby as usize].alive);
    assert_eq!(
        Saucers::automatic(&st),
        Some(C::Collect),
        "the alien's kill is spent"
    );
    // Other gangs roll nothing.
    let mut other = quiet(&["fly_boyz"], "C3");
    alien(&mut other, AlienKind::Probe, "C3");
    to_defeat(&mut other);
    let ace = human(&other, "ace");
    let err = run(&mut other, 0, C::Lose { human: ace }, dice(&[6])).unwrap_err();
    assert_eq!(err.kind, xenolog_engine::RuleErrorKind::Dice);
}

#[test]
fn collect_kills_are_traded_for_wild_alien_tokens() {
    let (mut st, patch, p) = patch_facing(AlienKind::Probe, "C3");
    ok(&mut st, 0, attack_alien(patch, "C3", p), dice(&[3, 1]));
    to_defeat(&mut st);
    step(&mut st, C::Collect);
    assert_eq!(st.seats[0].tokens.alien, 1);
    assert_eq!(st.seats[0].kills_pending, 0);
    assert_eq!(st.phase, Phase::Upkeep);
}

#[test]
fn upkeep_discard_any_cards_and_feed_one_food_or_a_student_starves() {
    let mut st = quiet(&["nine_lives"], "C3");
    let bat = give(&mut st, 0, "bat");
    to_defeat(&mut st);
    step(&mut st, C::Collect);
    ok(&mut st, 0, C::Discard { card: bat }, None);
    assert!(st.discard.contains(&bat));
    let food = st.seats[0].tokens.food;
    ok(&mut st, 0, C::Upkeep, None);
    assert_eq!(st.seats[0].tokens.food, food - 1);
    assert_eq!(st.phase, Phase::Alien);
    // No Food, no alien token: a student starves (the player's choice).
    let mut st = quiet(&["nine_lives"], "C3");
    st.seats[0].tokens.food = 0;
    to_defeat(&mut st);
    step(&mut st, C::Collect);
    refused(&mut st, 0, C::Upkeep, None, "Turn.Upkeep");
    let whiskers = human(&st, "whiskers");
    ok(&mut st, 0, C::Starve { human: whiskers }, None);
    assert!(!st.humans[whiskers as usize].alive);
    // An alien token feeds as well (wild).
    let mut st = quiet(&["nine_lives"], "C3");
    st.seats[0].tokens.food = 0;
    st.seats[0].tokens.alien = 1;
    to_defeat(&mut st);
    step(&mut st, C::Collect);
    ok(&mut st, 0, C::Upkeep, None);
    assert_eq!(st.seats[0].tokens.alien, 0);
}

/// Cards.Cost and Upkeep with alien tokens, assumption 13 (review7 N9): "They
/// can be used in place of any color token". A cost is paid with the seat's
/// own supplies of its kind first and alien tokens only for the shortfall:
/// the wild token pays anything a supply pays (and Rat Nest's trade), so
/// keeping it is never worse, and the player is not asked.
#[test]
fn cards_cost_own_supplies_are_spent_before_a_wild_alien_token() {
    let mut st = quiet(&["nine_lives"], "C3");
    st.seats[0].tokens.food = 1;
    st.seats[0].tokens.alien = 1;
    to_defeat(&mut st);
    step(&mut st, C::Collect);
    ok(&mut st, 0, C::Upkeep, None);
    assert_eq!(
        (st.seats[0].tokens.food, st.seats[0].tokens.alien),
        (0, 1),
        "the Food is eaten, the alien token kept"
    );
    // A cost larger than the supply of its kind: the shortfall is wild.
    let held = tokens(0, 1, 0, 0, 2);
    assert_eq!(
        held.payment(&Tokens::one(Kind::Ammo, 2)),
        Some(tokens(0, 1, 0, 0, 1))
    );
    assert_eq!(held.payment(&Tokens::one(Kind::Ammo, 4)), None);
}

/// On to the Alien turn with `st`'s board as it is.
fn to_alien_turn(st: &mut xenolog_engine::games::saucers::SaucersState) {
    st.phase = Phase::Alien;
}

#[test]
fn aliens_scout_placed_at_its_coordinates_the_other_scouts_move_in_its_direction() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "A1");
    let old = alien(&mut st, AlienKind::Scout, "C3");
    let commander = alien(&mut st, AlienKind::Commander, "D4");
    let probe = alien(&mut st, AlienKind::Probe, "E5");
    top_alien(&mut st, AlienKind::Scout, "C6", Some(Dir::E));
    to_alien_turn(&mut st);
    step(&mut st, C::AlienTurn);
    assert_eq!(
        st.alien(old).unwrap().at,
        at("D3"),
        "the Scout already there moves east"
    );
    assert_eq!(
        st.alien(commander).unwrap().at,
        at("E4"),
        "the Commander follows the Scouts"
    );
    assert_eq!(st.alien(probe).unwrap().at, at("E5"), "a Probe stays");
    let new = st
        .aliens
        .iter()
        .find(|a| a.kind == AlienKind::Scout && a.id != old)
        .unwrap();
    assert_eq!(
        new.at,
        at("C6"),
        "the Scout drawn is placed at C6 and does not move"
    );
    assert_eq!(st.current, 1, "the next player clockwise starts");
    assert_eq!(st.phase, Phase::Draw);
}

#[test]
fn faq_no_wrap_a_scout_on_a6_told_to_move_south_stays_put() {
    let mut st = quiet(&["nine_lives"], "F1");
    let a6 = alien(&mut st, AlienKind::Scout, "A6");
    top_alien(&mut st, AlienKind::Scout, "D2", Some(Dir::S));
    to_alien_turn(&mut st);
    let before = st.clone();
    let ev = step(&mut st, C::AlienTurn);
    assert_eq!(
        st.alien(a6).unwrap().at,
        at("A6"),
        "the board does not wrap"
    );
    let text = words(&before, &ev).join("\n");
    assert!(
        text.contains("Alien card: Scout at D2, Scouts move south"),
        "{text}"
    );
}

#[test]
fn aliens_may_move_into_and_through_destroyed_tiles() {
    let mut st = quiet(&["nine_lives"], "F1");
    st.board[at("B2") as usize].destroyed = true;
    let s = alien(&mut st, AlienKind::Scout, "B1");
    top_alien(&mut st, AlienKind::Scout, "E6", Some(Dir::S));
    to_alien_turn(&mut st);
    step(&mut st, C::AlienTurn);
    assert_eq!(st.alien(s).unwrap().at, at("B2"));
}

/// Aliens.Commander: a Commander "cause[s] them to forget their Task Force
/// missions"; nothing else does (review17 N2). The log says a student
/// forgets only when a Commander reads its mind; a mission lost with its
/// student (a Saucer Strike), or with its building, is said so.
#[test]
fn aliens_commander_only_a_commander_makes_a_student_forget_other_losses_in_their_own_words() {
    let lines = |st: &mut SaucersState| {
        to_alien_turn(st);
        let before = st.clone();
        let ev = step(st, C::AlienTurn);
        words(&before, &ev)
    };
    // A Commander lands on the carrier.
    let mut st = quiet(&["nine_lives"], "C3");
    top_alien(&mut st, AlienKind::Commander, "C3", None);
    let w = lines(&mut st);
    assert!(w.iter().any(|l| l.contains(" forgets ")), "{w:#?}");
    // A Saucer strikes the carrier.
    let mut st = quiet(&["nine_lives"], "C3");
    let carrier = mission_ready(&mut st, 0, "C4");
    st.humans[carrier as usize].at = at("C3");
    alien(&mut st, AlienKind::Saucer, "C3");
    top_alien(&mut st, AlienKind::Probe, "A6", None);
    let w = lines(&mut st);
    let name = st.content.humans[st.humans[carrier as usize].def as usize]
        .name
        .clone();
    assert!(
        w.iter()
            .any(|l| l.ends_with(&format!("is lost with {name}"))),
        "{w:#?}"
    );
    assert!(!w.iter().any(|l| l.contains(" forgets ")), "{w:#?}");
    // A Saucer strikes the building the carrier was to deliver at.
    let mut st = quiet(&["nine_lives"], "C3");
    let carrier = mission_ready(&mut st, 0, "C4");
    alien(&mut st, AlienKind::Saucer, "C4");
    top_alien(&mut st, AlienKind::Probe, "A6", None);
    let w = lines(&mut st);
    assert!(
        w.iter()
            .any(|l| l.contains("is lost: its building is destroyed")),
        "{w:#?}"
    );
    assert!(!w.iter().any(|l| l.contains(" forgets ")), "{w:#?}");
    assert!(st.humans[carrier as usize].alive);
}

#[test]
fn aliens_commander_arrives_with_two_scouts_and_makes_humans_forget_missions() {
    let mut st = quiet(&["nine_lives"], "C3");
    let carrier = st.humans.iter().position(|h| h.mission.is_some()).unwrap();
    let old = st.humans[carrier].mission.unwrap();
    st.mission_pile.retain(|&m| m != old);
    top_alien(&mut st, AlienKind::Commander, "C3", None);
    to_alien_turn(&mut st);
    let ev = step(&mut st, C::AlienTurn);
    let on_c3: Vec<AlienKind> = st
        .aliens
        .iter()
        .filter(|a| a.at == at("C3"))
        .map(|a| a.kind)
        .collect();
    assert_eq!(
        on_c3,
        vec![AlienKind::Commander, AlienKind::Scout, AlienKind::Scout]
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, E::MissionLost { mission, .. } if *mission == old)),
        "the mission is forgotten"
    );
    let new = st.humans[carrier]
        .mission
        .expect("a new one drawn from the pile");
    assert_ne!(new, old);
    assert_eq!(
        st.mission_pile.first(),
        Some(&old),
        "the forgotten mission goes under the pile"
    );
}

/// Aliens.Commander, assumption 7: a Commander reads minds when it is placed
/// and when it moves, only on its own tile, once; another alien arriving on
/// its tile (or a Commander kept at the edge) reads nobody's.
#[test]
fn aliens_commander_reads_minds_only_when_placed_or_moving_not_when_another_alien_arrives() {
    let mut st = quiet(&["nine_lives"], "A1");
    let carrier = st.humans.iter().position(|h| h.mission.is_some()).unwrap();
    let kept = st.humans[carrier].mission.unwrap();
    // A Commander already on A1 (it read minds when it came); the student
    // carries a mission there now.
    alien(&mut st, AlienKind::Commander, "A1");
    // A Probe card elsewhere, then a Scout card placed on A1 telling the
    // Scouts north: the Commander at the north edge stays put.
    top_alien(&mut st, AlienKind::Scout, "A1", Some(Dir::N));
    top_alien(&mut st, AlienKind::Probe, "F6", None);
    for _ in 0..2 {
        to_alien_turn(&mut st);
        let ev = step(&mut st, C::AlienTurn);
        assert!(
            !ev.iter().any(|e| matches!(e, E::MissionLost { .. })),
            "no Commander was placed or moved: {ev:?}"
        );
        st.current = 0;
    }
    assert_eq!(st.humans[carrier].mission, Some(kept));
}

/// A Scout card moves a Commander onto a student's tile and is then placed
/// itself: the student forgets once (one mission lost, one drawn), not again
/// when the Scout lands.
#[test]
fn aliens_commander_moving_onto_a_student_reads_its_mind_once_per_card() {
    let mut st = quiet(&["nine_lives"], "B2");
    let carrier = st.humans.iter().position(|h| h.mission.is_some()).unwrap();
    let old = st.humans[carrier].mission.unwrap();
    alien(&mut st, AlienKind::Commander, "A2");
    top_alien(&mut st, AlienKind::Scout, "B2", Some(Dir::E));
    to_alien_turn(&mut st);
    let ev = step(&mut st, C::AlienTurn);
    let lost: Vec<u16> = ev
        .iter()
        .filter_map(|e| match e {
            E::MissionLost { mission, .. } => Some(*mission),
            _ => None,
        })
        .collect();
    assert_eq!(lost, vec![old], "forgotten once, as the Commander arrives");
    let new = st.humans[carrier].mission.expect("a new mission");
    assert_ne!(new, old);
}

#[test]
fn aliens_saucer_strike_destroys_the_tile_and_everything_on_it_at_the_next_alien_turn() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    for h in ["ace", "jet", "wingnut"] {
        put(&mut st, h, "F6");
    }
    let scout = alien(&mut st, AlienKind::Scout, "C3");
    top_alien(&mut st, AlienKind::Probe, "A1", None);
    top_alien(&mut st, AlienKind::Saucer, "C3", None);
    to_alien_turn(&mut st);
    step(&mut st, C::AlienTurn);
    let saucer = st
        .aliens
        .iter()
        .find(|a| a.kind == AlienKind::Saucer)
        .unwrap()
        .id;
    assert!(
        st.humans.iter().all(|h| h.alive),
        "placed in the crosshairs: not yet"
    );
    // The next player's turn; then the Alien turn: the strike.
    st.current = 0;
    to_alien_turn(&mut st);
    let ev = step(&mut st, C::AlienTurn);
    assert!(ev.contains(&E::SaucerStruck {
        alien: saucer,
        at: at("C3")
    }));
    assert!(st.board[at("C3") as usize].destroyed);
    assert!(st.alien(scout).is_none() && st.alien(saucer).is_none());
    assert!(
        st.humans.iter().filter(|h| h.seat == 0).all(|h| !h.alive),
        "every student on C3"
    );
    assert!(st.humans.iter().filter(|h| h.seat == 1).all(|h| h.alive));
    assert_eq!(
        st.current, 1,
        "a player with no student left is passed over"
    );
}

#[test]
fn aliens_hit_points_return_at_the_end_of_the_turn() {
    let mut st = quiet(&["nine_lives"], "C3");
    let scout = alien(&mut st, AlienKind::Scout, "C3");
    let tabby = human(&st, "tabby");
    ok(&mut st, 0, attack_alien(tabby, "C3", scout), dice(&[3]));
    assert_eq!(st.alien(scout).unwrap().damage, 1);
    st.aliens.iter_mut().for_each(|a| a.at = at("F6"));
    top_alien(&mut st, AlienKind::Probe, "A1", None);
    to_alien_turn(&mut st);
    step(&mut st, C::AlienTurn);
    assert_eq!(st.alien(scout).unwrap().damage, 0);
}

#[test]
fn missions_delivered_at_their_building_with_alien_tokens_wild_reward_and_a_new_mission() {
    let mut st = quiet(&["nine_lives"], "C3");
    let carrier = st.humans.iter().position(|h| h.mission.is_some()).unwrap() as u16;
    let m = st.humans[carrier as usize].mission.unwrap();
    let mdef = st.content.missions[m as usize].clone();
    let tile_id = st.content.tiles[mdef.tile].id.clone();
    let elsewhere = if tile_id == "church" {
        "hospital"
    } else {
        "church"
    };
    building(&mut st, "C3", elsewhere);
    refused(&mut st, 0, C::Complete { human: carrier }, None, "Missions");
    building(&mut st, "C3", &tile_id);
    st.seats[0].tokens = tokens(0, 0, 0, 0, 2);
    let ev = ok(&mut st, 0, C::Complete { human: carrier }, None);
    assert!(ev.iter().any(|e| matches!(e, E::MissionCompleted { .. })));
    assert_eq!(st.seats[0].missions_done, vec![m]);
    assert_eq!(
        st.humans[carrier as usize].actions, 2,
        "delivering is not an action (assumed)"
    );
    assert!(
        st.humans[carrier as usize].mission.is_some(),
        "the next mission taken"
    );
    assert!(st.over.is_none(), "one of two");
}

/// Missions, assumption 5 with Cards.Event ("Event happens instantly when
/// drawn"; review17 S2): a reward of N cards is N cards off the Human deck,
/// and an Event among them happens as it is drawn and is one of the N, as
/// in the Draw step ("Drawn Event cards count"). Stock the Shelter (reward:
/// 2 cards) turns up Supply Drop (1 Ammo) and one Baseball Bat; the second
/// Bat stays on the deck.
#[test]
fn missions_a_reward_of_n_cards_counts_a_drawn_event_as_one_of_the_n() {
    let mut config = gangs(&["nine_lives"]);
    config.scenario_text = Some(
        "tile D3 church\nstudent tabby D3 mission shelter\ntokens 1 food 2 ammo 0\n\
         hand 1\ndeck supply_drop bat bat\nturn 1 actions\n"
            .into(),
    );
    let mut s = Session::<Saucers>::new(4, config).unwrap();
    s.play_due().unwrap();
    let tabby = human(s.state(), "tabby");
    let shelter = s.state().humans[tabby as usize].mission.unwrap();
    assert_eq!(s.state().content.missions[shelter as usize].reward_cards, 2);
    s.play(Actor(0), &C::Complete { human: tabby }, None)
        .unwrap();
    let st = s.state();
    let ids = |cards: &[u16]| -> Vec<String> {
        cards
            .iter()
            .map(|&c| st.content.cards[c as usize].id.clone())
            .collect()
    };
    assert_eq!(
        ids(&st.seats[0].hand),
        ["bat"],
        "one card and the Event: two"
    );
    assert_eq!(ids(&st.discard[st.discard.len() - 1..]), ["supply_drop"]);
    assert_eq!(st.seats[0].tokens.get(Kind::Ammo), 1, "the Event happened");
    assert_eq!(ids(&st.deck[st.deck.len() - 1..]), ["bat"]);
}

/// Missions, with assumption 5 ("a mission whose building is destroyed is
/// lost and replaced at once"): a mission is never drawn for a building a
/// Saucer has destroyed. Here it is on top of the pile when the carrier
/// delivers its mission and takes the next: the next is the first one down
/// the pile whose building stands, and the impossible one stays in the pile.
#[test]
fn missions_a_mission_drawn_for_a_destroyed_building_is_replaced_at_once() {
    let mut st = quiet(&["nine_lives"], "C3");
    let carrier = mission_ready(&mut st, 0, "C3");
    let here = st.board[at("C3") as usize].def as usize;
    let (crater, _) = st
        .mission_pile
        .iter()
        .enumerate()
        .find(|&(_, &m)| st.content.missions[m as usize].tile != here)
        .expect("a mission for another building");
    let doomed = st.mission_pile.remove(crater);
    st.mission_pile.push(doomed);
    let building = st.content.missions[doomed as usize].tile;
    for tile in st.board.iter_mut().filter(|t| t.def as usize == building) {
        tile.destroyed = true;
    }
    let below = st.mission_pile[st.mission_pile.len() - 2];
    ok(&mut st, 0, C::Complete { human: carrier }, None);
    assert_eq!(st.humans[carrier as usize].mission, Some(below));
    assert!(st.mission_pile.contains(&doomed), "left in the pile");
    let next = st.content.missions[below as usize].tile;
    assert!(
        st.board
            .iter()
            .any(|t| t.def as usize == next && !t.destroyed),
        "the mission drawn can be delivered"
    );
}

#[test]
fn faq_missions_are_attached_to_students_not_part_of_the_hand() {
    let st = quiet(&["nine_lives"], "C3");
    assert_eq!(st.seats[0].hand.len(), 0);
    assert!(st.humans.iter().any(|h| h.mission.is_some()));
}

#[test]
fn end_victory_the_predetermined_number_of_missions_completed() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    st.seats[1].missions_done.push(0);
    let carrier = mission_ready(&mut st, 0, "C3");
    ok(&mut st, 0, C::Complete { human: carrier }, None);
    let out = Saucers::outcome(&st).expect("over");
    assert_eq!(
        out.winners,
        vec![Actor(0), Actor(1)],
        "all players win together"
    );
    assert!(
        out.summary.contains("2 Task Force missions"),
        "{}",
        out.summary
    );
}

/// End.Victory, "The Alien deck has run out", from a position whose Alien
/// deck is already out (`alien_left 0`, a study of the end; review17 N4:
/// in play the last card drawn ends the game at once, pinned by the test
/// after this one, so an Alien turn never meets an empty deck): the humans
/// have won, and no Alien turn is played on an empty deck.
#[test]
fn end_victory_a_position_whose_alien_deck_has_run_out_is_the_humans_victory() {
    let mut config = gangs(&["nine_lives"]);
    config.scenario_text = Some("alien_left 0\nturn 1 alien\n".into());
    let mut s = Session::<Saucers>::new(4, config).unwrap();
    s.play_due().unwrap();
    let st = s.state();
    assert!(st.alien_deck.is_empty() && st.alien_drawn.is_empty());
    let out = Saucers::outcome(st).expect("over");
    assert_eq!(out.winners, vec![Actor(0)]);
    assert!(out.summary.contains("run out"), "{}", out.summary);
}

/// The Alien deck holds only these cards (the last one given is the top).
fn last_alien_cards(
    st: &mut xenolog_engine::games::saucers::SaucersState,
    cards: &[(AlienKind, &str)],
) {
    st.alien_deck.clear();
    for &(k, c) in cards {
        top_alien(st, k, c, None);
    }
}

/// Step 6: "Draw 1 alien card ... Place alien onto the board ... If the deck
/// has run out, then the humans have won!!! Otherwise the next player
/// clockwise starts". Played into the moment from the Actions step: the
/// Alien turn that draws the last card ends the battle; no hit points
/// return, no next turn, no Draw, Defeat or Upkeep step, no strike.
#[test]
fn end_victory_the_humans_win_the_moment_the_last_alien_card_is_drawn_no_further_step() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    for h in ["ace", "jet", "wingnut"] {
        put(&mut st, h, "F6");
    }
    // A Probe with a hit on it (its hit points would return), and the last
    // card: a Saucer Strike on the next player's students.
    let probe = alien(&mut st, AlienKind::Probe, "A1");
    last_alien_cards(&mut st, &[(AlienKind::Saucer, "F6")]);
    st.seats[0].tokens = tokens(1, 0, 0, 0, 0);
    st.seats[1].tokens = tokens(0, 0, 0, 0, 0);
    // Seat 0 plays its turn out: actions, Defeat/Collect, Upkeep.
    ok(&mut st, 0, C::EndActions, None);
    step(&mut st, C::Collect);
    ok(&mut st, 0, C::Upkeep, None);
    assert_eq!(st.phase, Phase::Alien);
    // (A Scout of 2 life would keep a hit to the turn's end; a Probe of 1
    // cannot, so the hit is set here to show hit points do not return.)
    st.aliens
        .iter_mut()
        .for_each(|a| a.damage = u8::from(a.id == probe));
    let ev = step(&mut st, C::AlienTurn);
    assert!(
        matches!(ev.last(), Some(E::Ended(end)) if end.humans_won),
        "the battle ends with the Alien turn that empties the deck: {ev:?}"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, E::AlienPlaced { alien } if alien.kind == AlienKind::Saucer)),
        "the last card is drawn and placed first"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, E::Healed | E::TurnBegan { .. } | E::SaucerStruck { .. })),
        "no further step: {ev:?}"
    );
    let out = Saucers::outcome(&st).expect("over at once");
    assert_eq!(out.winners, vec![Actor(0), Actor(1)]);
    assert!(out.summary.contains("run out"), "{}", out.summary);
    assert_eq!(st.phase, Phase::Over);
    assert_eq!(st.current, 0, "the next player never starts");
    assert_eq!(st.alien(probe).unwrap().damage, 1, "no hit points return");
    assert!(
        st.humans.iter().all(|h| h.alive),
        "the Saucer drawn last never strikes, and seat 1 (no Food) never starves"
    );
    assert_eq!(Saucers::automatic(&st), None);
    assert!(Saucers::legal(&st).is_empty());
    assert!(Saucers::asked(&st).is_empty());
}

/// Cards.Event with End.Victory: a Reinforcements event that draws the last
/// alien card ends the battle in the Draw step, before any action.
#[test]
fn end_victory_reinforcements_drawing_the_last_alien_card_ends_the_draw_step() {
    let mut st = quiet(&["nine_lives"], "F6");
    let reinf = card(&st, "reinforcements");
    let filler: Vec<u16> = non_events(&st, 6);
    st.deck = filler;
    st.deck.push(reinf);
    last_alien_cards(&mut st, &[(AlienKind::Probe, "B2")]);
    st.phase = Phase::Draw;
    let ev = step(&mut st, C::Draw);
    assert!(
        matches!(ev.last(), Some(E::Ended(end)) if end.humans_won),
        "{ev:?}"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, E::Drew { .. } | E::PhaseChanged { .. })),
        "no card after the event, no Actions step: {ev:?}"
    );
    assert!(st.aliens.iter().any(|a| a.at == at("B2")), "placed first");
}

/// Variant.Hunter with End.Victory: the tally is taken at the moment the
/// deck runs out, kills of the turn included.
#[test]
fn variant_hunter_the_tally_is_taken_the_moment_the_deck_runs_out() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    st.variant = Variant::Hunter;
    st.seats[1].kills = 1;
    let scout = alien(&mut st, AlienKind::Probe, "C3");
    last_alien_cards(&mut st, &[(AlienKind::Probe, "A1")]);
    let tabby = human(&st, "tabby");
    ok(&mut st, 0, attack_alien(tabby, "C3", scout), dice(&[6]));
    ok(&mut st, 0, C::EndActions, None);
    step(&mut st, C::Collect);
    ok(&mut st, 0, C::Upkeep, None);
    step(&mut st, C::AlienTurn);
    let out = Saucers::outcome(&st).expect("over at the last card");
    let points: Vec<i64> = out.scores.iter().map(|s| s.points).collect();
    assert_eq!(points, vec![1, 1]);
    assert_eq!(out.winners, vec![Actor(0), Actor(1)], "tied hunters share");
}

/// Variant.GangWarfare with End.Victory: "gameplay continues as usual", so
/// the deck running out ends the battle at the same moment; no gang has
/// finished its mission, so no gang wins (assumption 16).
#[test]
fn variant_gang_warfare_the_deck_running_out_ends_the_battle_at_once_with_no_winner() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    st.variant = Variant::GangWarfare;
    last_alien_cards(&mut st, &[(AlienKind::Scout, "A1")]);
    ok(&mut st, 0, C::EndActions, None);
    step(&mut st, C::Collect);
    ok(&mut st, 0, C::Upkeep, None);
    let ev = step(&mut st, C::AlienTurn);
    assert!(!ev.iter().any(|e| matches!(e, E::TurnBegan { .. })));
    let out = Saucers::outcome(&st).expect("over");
    assert!(out.winners.is_empty(), "{}", out.summary);
    assert!(
        st.over.as_ref().is_some_and(|end| !end.humans_won),
        "no co-operative victory either"
    );
}

#[test]
fn end_defeat_alien_domination_when_every_student_is_eliminated() {
    let mut st = quiet(&["nine_lives"], "C3");
    for h in st.humans.iter_mut().skip(1) {
        h.alive = false;
    }
    alien(&mut st, AlienKind::Probe, "C3");
    to_defeat(&mut st);
    let last = st.living(0).next().unwrap().0 as u16;
    ok(&mut st, 0, C::Lose { human: last }, dice(&[1]));
    let out = Saucers::outcome(&st).expect("the game ends immediately");
    assert!(out.winners.is_empty());
    assert!(out.summary.contains("Alien Domination"));
    assert!(Saucers::legal(&st).is_empty());
}

#[test]
fn variant_hunter_individual_kills_and_missions_are_tallied_at_the_end() {
    let mut st = game(SaucersConfig {
        players: 3,
        variant: 1,
        ..SaucersConfig::default()
    });
    st.seats[0].kills = 4;
    st.seats[1].kills = 2;
    st.seats[1].missions_done = vec![3];
    st.alien_deck.clear();
    st.phase = Phase::Alien;
    step(&mut st, C::AlienTurn);
    let out = Saucers::outcome(&st).unwrap();
    let points: Vec<i64> = out.scores.iter().map(|s| s.points).collect();
    assert_eq!(points, vec![4, 7, 0], "1 an alien, 5 a mission (assumed)");
    assert_eq!(out.winners, vec![Actor(1)], "the Great Grey Hunter");
    assert!(out.summary.contains("Great Grey Hunter"), "{}", out.summary);
}

#[test]
fn variant_gang_warfare_random_starts_secret_missions_and_hidden_hands() {
    let mut s = Session::<Saucers>::new(
        5,
        SaucersConfig {
            players: 3,
            variant: 2,
            ..SaucersConfig::default()
        },
    )
    .unwrap();
    s.play_due().unwrap();
    let st = s.state().clone();
    let starts: Vec<u8> = (0..3u8)
        .map(|seat| st.living(seat).next().unwrap().1.at)
        .collect();
    assert!(
        starts[0] != starts[1] && starts[1] != starts[2] && starts[0] != starts[2],
        "each gang on its own tile"
    );
    let coords: Vec<u8> = st.content.aliens.iter().map(|a| a.at).collect();
    assert!(
        starts.iter().all(|p| coords.contains(p)),
        "from alien card coordinates"
    );
    let seen = Saucers::view(&st, Actor(1));
    assert_eq!(
        seen.seats[0].unassigned,
        Some(HIDDEN),
        "missions are secret"
    );
    assert!(seen.seats[0].hand.iter().all(|&c| c == HIDDEN));
    assert_eq!(seen.seats[1].hand, st.seats[1].hand, "one's own hand");
    assert!(
        seen.deck.iter().all(|&c| c == HIDDEN),
        "the deck's order is nobody's"
    );
    // The log as seat 1 sees it names no card of another hand.
    let shown = Saucers::view_event(
        &xenolog_engine::games::saucers::SaucersEvent::Drew {
            seat: 0,
            card: 3,
            open: false,
        },
        Actor(1),
    );
    assert_eq!(
        shown,
        E::Drew {
            seat: 0,
            card: HIDDEN,
            open: false
        }
    );
}

#[test]
fn variant_gang_warfare_hits_on_another_gang_cost_it_cards_of_its_choice() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    st.variant = Variant::GangWarfare;
    let a = give(&mut st, 1, "bat");
    let b = give(&mut st, 1, "sewer");
    give(&mut st, 1, "skateboard");
    let patch = human(&st, "patch");
    ok(
        &mut st,
        0,
        attack(patch, "C3", vec![Target::Gang(1)]),
        dice(&[3, 4]),
    );
    assert_eq!(st.owed, vec![(1, 2)]);
    let asked: Vec<u8> = Saucers::asked(&st).iter().map(|x| x.seat.0).collect();
    assert_eq!(asked, vec![1], "the victim chooses");
    ok(&mut st, 1, C::Discard { card: b }, None);
    ok(&mut st, 1, C::Discard { card: a }, None);
    assert_eq!(st.seats[1].hand.len(), 1);
    assert!(st.owed.is_empty());
    assert!(st.humans.iter().all(|h| h.alive), "no student dies of it");
    // In the co-operative game no gang is a target.
    let mut coop = quiet(&["nine_lives", "fly_boyz"], "C3");
    give(&mut coop, 1, "bat");
    let patch = human(&coop, "patch");
    refused(
        &mut coop,
        0,
        attack(patch, "C3", vec![Target::Gang(1)]),
        dice(&[3, 4]),
        "FAQ.Split",
    );
}

/// Turn.Swap ("swap any number of supplies or cards with another player")
/// is an exchange both players agree to, and Gang Warfare's gangs are
/// enemies whose cards are otherwise lost only to hits, "victim's choice".
/// Rules version 4 (assumption 18, review7 M2's fuller reading): a swap that
/// takes from another gang is an offer that gang answers; until it does,
/// only it is asked; a decline moves nothing, an accept makes the swap.
/// (Version 3 refused every take; giving still needs only the giver.)
#[test]
fn variant_gang_warfare_a_swap_takes_from_another_gang_only_with_its_agreement() {
    let mut st = quiet(&["nine_lives", "sewer_rats"], "C3");
    st.variant = Variant::GangWarfare;
    let tabby = human(&st, "tabby");
    let bat = give(&mut st, 0, "bat");
    let sewer = give(&mut st, 1, "sewer");
    let swap = |give: Tokens, give_cards: Vec<u16>, take: Tokens, take_cards: Vec<u16>| C::Swap {
        human: tabby,
        with: 1,
        give,
        give_cards,
        take,
        take_cards,
    };
    let none = tokens(0, 0, 0, 0, 0);
    let theirs = (st.seats[1].tokens, st.seats[1].hand.clone());
    let mine = (st.seats[0].tokens, st.seats[0].hand.clone());
    let everything = swap(none, vec![], tokens(2, 2, 2, 2, 0), vec![sewer]);
    ok(&mut st, 0, everything.clone(), None);
    // Offered, not taken: the other gang is asked first, and the offering
    // gang may do nothing until it answers but withdraw the offer (rules
    // version 5).
    assert_eq!((st.seats[1].tokens, st.seats[1].hand.clone()), theirs);
    let asked: Vec<u8> = Saucers::asked(&st).iter().map(|a| a.seat.0).collect();
    assert_eq!(asked, vec![1, 0]);
    let wait = run(&mut st.clone(), 0, C::EndActions, None).unwrap_err();
    assert_eq!(
        (wait.kind, wait.clause.as_deref()),
        (xenolog_engine::RuleErrorKind::Illegal, Some("Turn.Swap")),
        "{wait}"
    );
    assert!(
        wait.to_string().contains("waits for") && wait.to_string().contains("withdraw it to go on"),
        "{wait}"
    );
    // The asked seat itself is not out of turn: any other command of its
    // is against the swap's rule, in words that say what to do.
    let other = run(&mut st.clone(), 1, C::EndActions, None).unwrap_err();
    assert_eq!(
        (other.kind, other.clause.as_deref()),
        (xenolog_engine::RuleErrorKind::Illegal, Some("Turn.Swap")),
        "{other}"
    );
    assert!(
        other
            .to_string()
            .contains("must first answer the swap offered by")
            && other.to_string().contains("accept or decline"),
        "{other}"
    );
    let answers: Vec<(Actor, C)> = legal(&st);
    assert!(answers.contains(&(Actor(1), C::Answer { accept: true })));
    assert!(answers.contains(&(Actor(1), C::Answer { accept: false })));
    assert!(answers.contains(&(Actor(0), C::Withdraw)));
    assert_eq!(answers.len(), 3, "{answers:?}");
    // Declined: nothing moves, the offer is gone, the action spent.
    let ev = ok(&mut st, 1, C::Answer { accept: false }, None);
    assert!(!ev.iter().any(|e| matches!(e, E::Swapped { .. })));
    assert_eq!((st.seats[1].tokens, st.seats[1].hand.clone()), theirs);
    assert_eq!((st.seats[0].tokens, st.seats[0].hand.clone()), mine);
    assert!(st.offer.is_none());
    assert_eq!(st.humans[tabby as usize].actions, 1);
    // Accepted: the swap is made as offered.
    let trade = swap(
        tokens(1, 0, 0, 0, 0),
        vec![bat],
        tokens(0, 1, 0, 0, 0),
        vec![sewer],
    );
    ok(&mut st, 0, trade, None);
    let ev = ok(&mut st, 1, C::Answer { accept: true }, None);
    assert!(ev.iter().any(|e| matches!(e, E::Swapped { .. })));
    assert!(st.seats[0].hand.contains(&sewer) && st.seats[1].hand.contains(&bat));
    assert_eq!(st.seats[1].tokens, tokens(3, 1, 2, 2, 0));
    // Giving needs only the giver (no offer).
    let bat_back = give(&mut st, 0, "shotgun");
    let mut gift = st.clone();
    gift.humans[tabby as usize].actions = 1;
    ok(&mut gift, 0, swap(none, vec![bat_back], none, vec![]), None);
    assert!(gift.offer.is_none() && gift.seats[1].hand.contains(&bat_back));
    // The co-operative game with open hands still takes the other player's
    // agreement as given.
    let mut coop = quiet(&["nine_lives", "sewer_rats"], "C3");
    let sewer = give(&mut coop, 1, "sewer");
    let tabby = human(&coop, "tabby");
    ok(
        &mut coop,
        0,
        C::Swap {
            human: tabby,
            with: 1,
            give: none,
            give_cards: vec![],
            take: tokens(0, 1, 0, 0, 0),
            take_cards: vec![sewer],
        },
        None,
    );
    assert_eq!(coop.seats[0].hand, vec![sewer]);
}

/// Assumption 18 (rules version 4, review12 NIT 2): in the co-operative game
/// with hidden hands a card taken by number is offered, not checked against
/// the hidden hand, so a card held and a card not held read alike to the
/// taker; only the holder can accept, and a third seat sees the offer's
/// cards face down.
#[test]
fn assumed_18_a_take_by_number_from_a_hidden_hand_tells_the_taker_nothing() {
    let mut st = quiet(&["nine_lives", "sewer_rats", "fly_boyz"], "C3");
    st.hidden_hands = true;
    let tabby = human(&st, "tabby");
    let sewer = give(&mut st, 1, "sewer");
    let absent = card(&st, "shotgun");
    assert!(!st.seats[1].hand.contains(&absent));
    let take = |c: u16| C::Swap {
        human: tabby,
        with: 1,
        give: tokens(0, 0, 0, 0, 0),
        give_cards: vec![],
        take: tokens(0, 0, 0, 0, 0),
        take_cards: vec![c],
    };
    let (mut held, mut not_held) = (st.clone(), st.clone());
    let a = ok(&mut held, 0, take(sewer), None);
    let b = ok(&mut not_held, 0, take(absent), None);
    let shape = |ev: &[E]| -> Vec<String> {
        ev.iter()
            .map(|e| {
                format!("{e:?}")
                    .split(['(', ' '])
                    .next()
                    .unwrap_or("")
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(
        shape(&a),
        shape(&b),
        "a card held and one not held read alike"
    );
    assert_eq!(Saucers::asked(&held), Saucers::asked(&not_held));
    // Only the holder can accept; the other declines, and nothing moves.
    assert!(legal(&held).contains(&(Actor(1), C::Answer { accept: true })));
    assert_eq!(
        legal(&not_held),
        vec![
            (Actor(1), C::Answer { accept: false }),
            (Actor(0), C::Withdraw)
        ]
    );
    refused(
        &mut not_held.clone(),
        1,
        C::Answer { accept: true },
        None,
        "Turn.Swap",
    );
    ok(&mut not_held, 1, C::Answer { accept: false }, None);
    assert_eq!(not_held.seats[1].hand, vec![sewer]);
    // A third seat sees the offer and the swap with their cards face down.
    let seen = Saucers::view(&held, Actor(2));
    assert_eq!(
        seen.offer.as_ref().map(|o| o.take_cards.clone()),
        Some(vec![HIDDEN])
    );
    assert!(a.iter().any(|e| matches!(Saucers::view_event(e, Actor(2)),
        E::Offered(o) if o.take_cards == vec![HIDDEN])));
    let ev = ok(&mut held, 1, C::Answer { accept: true }, None);
    assert_eq!(held.seats[0].hand, vec![sewer]);
    assert!(ev.iter().any(|e| matches!(Saucers::view_event(e, Actor(2)),
        E::Swapped { take_cards, .. } if take_cards == vec![HIDDEN])));
}

/// Assumption 18 (rules version 5, session 22): the seat that offered a
/// swap may withdraw it while it waits, so a battle whose answering player
/// is away goes on. Nothing moves, the action stays spent, the answering
/// seat is still the one the game waits for (asked first, the hot-seat
/// curtain's), and the seats learn only that the offer was withdrawn:
/// the event names the seats, never what was offered. Only the offering
/// seat may withdraw; under version 4 there was no way to.
#[test]
fn assumed_18_the_offering_seat_may_withdraw_its_swap_the_others_learn_only_that() {
    let mut st = quiet(&["nine_lives", "sewer_rats", "fly_boyz"], "C3");
    st.hidden_hands = true;
    let tabby = human(&st, "tabby");
    let bat = give(&mut st, 0, "bat");
    let sewer = give(&mut st, 1, "sewer");
    let none = tokens(0, 0, 0, 0, 0);
    refused(&mut st.clone(), 0, C::Withdraw, None, "Turn.Swap");
    let before = st.clone();
    ok(
        &mut st,
        0,
        C::Swap {
            human: tabby,
            with: 1,
            give: tokens(1, 0, 0, 0, 0),
            give_cards: vec![bat],
            take: none,
            take_cards: vec![sewer],
        },
        None,
    );
    assert!(st.offer.is_some());
    let asked: Vec<(u8, String)> = Saucers::asked(&st)
        .into_iter()
        .map(|a| (a.seat.0, a.what))
        .collect();
    assert_eq!(asked[0].0, 1, "the answering seat first: {asked:?}");
    assert_eq!(Saucers::to_move(&st), Some(Actor(1)));
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert_eq!(asked[1].0, 0);
    assert!(asked[1].1.contains("withdraw"), "{asked:?}");
    // The game waits for the answer: the offering seat, asked only to
    // withdraw, holds nothing up (a list names the answering seat's turn).
    assert!(Saucers::waits_for(&st, Actor(1)));
    assert!(!Saucers::waits_for(&st, Actor(0)));
    assert!(legal(&st).contains(&(Actor(0), C::Withdraw)));
    // Neither the answering seat nor a third seat may withdraw it.
    let not_theirs = refused(&mut st.clone(), 1, C::Withdraw, None, "Turn.Swap");
    assert!(
        not_theirs.contains("must first answer"),
        "the answering seat answers: {not_theirs}"
    );
    let third = run(&mut st.clone(), 2, C::Withdraw, None).unwrap_err();
    assert_eq!(
        third.kind,
        xenolog_engine::RuleErrorKind::NotYourTurn,
        "{third}"
    );
    assert!(third.to_string().contains("may withdraw it"), "{third}");
    // Withdrawn: one event naming the seats, nothing moved, the action
    // spent, the turn goes on with the offering seat.
    let offered = st.clone();
    let ev = ok(&mut st, 0, C::Withdraw, None);
    assert_eq!(ev, vec![E::Withdrawn { from: 0, to: 1 }]);
    assert!(st.offer.is_none());
    for s in 0..3 {
        assert_eq!(st.seats[s].hand, before.seats[s].hand, "seat {s}");
        assert_eq!(st.seats[s].tokens, before.seats[s].tokens, "seat {s}");
    }
    assert_eq!(
        st.humans[tabby as usize].actions, 1,
        "the action stays spent"
    );
    let asked: Vec<u8> = Saucers::asked(&st).iter().map(|a| a.seat.0).collect();
    assert_eq!(asked.first(), Some(&0), "{asked:?}");
    assert!(Saucers::waits_for(&st, Actor(0)), "its turn again");
    // What the others read: the withdrawal, no card.
    for seat in [1u8, 2] {
        let seen = Saucers::view_event(&ev[0], Actor(seat));
        assert_eq!(seen, ev[0]);
        let text = Saucers::describe_event(&Saucers::view(&offered, Actor(seat)), &seen);
        assert!(text.contains("withdraw the swap"), "{text}");
        for c in [bat, sewer] {
            let name = &offered.content.cards[c as usize].name;
            assert!(
                !text.contains(name.as_str()),
                "names no card ({name}): {text}"
            );
        }
        assert!(!text.contains("Food"), "names no supply: {text}");
    }
    // Nothing is left to withdraw or answer.
    refused(&mut st.clone(), 0, C::Withdraw, None, "Turn.Swap");
    refused(
        &mut st.clone(),
        1,
        C::Answer { accept: true },
        None,
        "Turn.Swap",
    );
    ok(&mut st, 0, C::EndActions, None);
}

/// Assumption 18 (rules version 5) as a club seat meets it: the offering
/// seat is offered `"withdraw"` in its own words and gives it as JSON; the
/// answering seat is not offered it; the battle list names both seats
/// while the offer waits (the answering one first); each seat reads the
/// entry as a withdrawal naming no card, and no seat's view shows the
/// public view anything it may not see. The battle verifies.
#[test]
fn assumed_18_a_seat_withdraws_its_offer_by_json_and_every_seat_reads_only_that() {
    use serde_json::json;
    use xenolog_engine::{Battle, Viewer};
    let mut config = gangs(&["nine_lives", "fly_boyz"]);
    config.hidden_hands = true;
    config.scenario_text = Some("hand 1 bat\nhand 2 shotgun\nturn 1 actions\n".into());
    let mut s = Session::<Saucers>::new(4, config).unwrap_or_else(|e| panic!("{e}"));
    s.play_due().unwrap();
    let shotgun = s.state().seats[1].hand[0];
    let none = json!({"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0});
    let b: &mut dyn Battle = &mut s;
    let play = |b: &mut dyn Battle, seat: u8, command: serde_json::Value| {
        let p = b
            .prepare_json(Actor(seat), &command, None)
            .unwrap_or_else(|e| panic!("{command}: {e}"));
        b.commit(p).unwrap()
    };
    play(
        b,
        0,
        json!({"swap": {"human": "tabby", "with": 1, "give": none, "give_cards": ["bat"],
                        "take": none, "take_cards": [shotgun]}}),
    );
    let withdraws = |b: &dyn Battle, seat: u8| -> Vec<String> {
        b.legal_as(Actor(seat))
            .into_iter()
            .filter(|l| l.command == json!("withdraw"))
            .map(|l| l.text)
            .collect()
    };
    assert_eq!(
        withdraws(b, 0),
        vec!["withdraw the swap offered to the Fly Boyz".to_owned()]
    );
    assert!(withdraws(b, 1).is_empty());
    let public: Vec<u8> = b.asked_publicly().iter().map(|a| a.seat.0).collect();
    assert_eq!(public, vec![1, 0]);
    assert_eq!(b.public_view_leaks(b.cursor()), None);
    let refused = b.prepare_json(Actor(1), &json!("withdraw"), None);
    assert!(refused.is_err(), "only the offering seat withdraws");
    let id = play(b, 0, json!("withdraw"));
    assert_eq!(b.public_view_leaks(Some(id)), None);
    for viewer in [Viewer::Seat(Actor(0)), Viewer::Seat(Actor(1)), Viewer::All] {
        let t = b.entry_texts_as(&[id], viewer).remove(0);
        assert_eq!(t.command, "withdraw the swap offered to the Fly Boyz");
        assert_eq!(
            t.events,
            vec!["the Nine Lives withdraw the swap offered to the Fly Boyz: nothing changes hands"]
        );
    }
    let offer = b.cursor().map(|c| c - 1);
    for t in b.entry_texts_as(&[offer.unwrap()], Viewer::Seat(Actor(1))) {
        assert!(t.command.contains("swaps with"), "{}", t.command);
    }
    let report = b.verify();
    assert!(report.ok(), "{report}");
    let after = b.state_json(b.cursor());
    assert!(after["offer"].is_null(), "{after}");
}

#[test]
fn variant_gang_warfare_the_first_gang_to_complete_its_mission_wins() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    st.variant = Variant::GangWarfare;
    let carrier = mission_ready(&mut st, 0, "C3");
    ok(&mut st, 0, C::Complete { human: carrier }, None);
    let out = Saucers::outcome(&st).unwrap();
    assert_eq!(out.winners, vec![Actor(0)]);
}

#[test]
fn hidden_hands_are_open_in_the_cooperative_game_unless_the_table_hides_them() {
    let st = game(SaucersConfig {
        players: 2,
        ..SaucersConfig::default()
    });
    let seen = Saucers::view(&st, Actor(1));
    assert_eq!(seen.seats[0].hand, st.seats[0].hand, "open by default");
    let st = game(SaucersConfig {
        players: 2,
        hidden_hands: true,
        ..SaucersConfig::default()
    });
    let seen = Saucers::view(&st, Actor(1));
    assert!(seen.seats[0].hand.iter().all(|&c| c == HIDDEN));
    assert!(
        seen.humans
            .iter()
            .any(|h| h.mission.is_some_and(|m| m != HIDDEN)),
        "missions are open in the co-operative game"
    );
}

#[test]
fn cards_event_reinforcements_an_alien_card_is_drawn_and_placed_at_once() {
    let mut st = quiet(&["nine_lives"], "F6");
    let reinf = card(&st, "reinforcements");
    let filler: Vec<u16> = non_events(&st, 6);
    st.deck = filler;
    st.deck.push(reinf);
    top_alien(&mut st, AlienKind::Probe, "B2", None);
    let left = st.alien_deck.len();
    st.phase = Phase::Draw;
    step(&mut st, C::Draw);
    assert!(
        st.aliens
            .iter()
            .any(|a| a.kind == AlienKind::Probe && a.at == at("B2"))
    );
    assert_eq!(st.alien_deck.len(), left - 1);
}

/// Gangs.CPR: "When a member of the Nine Lives is killed in combat, the
/// player rolls 1 die". A Saucer Strike is not combat: its students die with
/// no roll (review of 2026-11-27, U1).
#[test]
fn gangs_cpr_a_student_struck_by_a_saucer_is_not_killed_in_combat_no_roll() {
    let mut st = quiet(&["nine_lives", "fly_boyz"], "C3");
    for h in ["ace", "jet", "wingnut"] {
        put(&mut st, h, "F6");
    }
    alien(&mut st, AlienKind::Saucer, "C3");
    top_alien(&mut st, AlienKind::Probe, "A1", None);
    to_alien_turn(&mut st);
    let ev = step(&mut st, C::AlienTurn);
    assert!(ev.iter().any(|e| matches!(e, E::SaucerStruck { .. })));
    assert!(
        !ev.iter()
            .any(|e| matches!(e, E::Rolled { .. } | E::Revived { .. })),
        "no CPR roll for a strike"
    );
    assert!(st.humans.iter().filter(|h| h.seat == 0).all(|h| !h.alive));
}

/// Gangs.CPR, "when a Nine Lives student is killed in combat": a student who
/// starves in the Upkeep step was not, so no die is rolled for it: a die
/// entered for it is not wanted (review7 N2).
#[test]
fn gangs_cpr_a_student_who_starves_is_not_killed_in_combat_no_roll() {
    let mut st = quiet(&["nine_lives"], "C3");
    st.seats[0].tokens.food = 0;
    to_defeat(&mut st);
    step(&mut st, C::Collect);
    let whiskers = human(&st, "whiskers");
    let mut entered = st.clone();
    let err = run(&mut entered, 0, C::Starve { human: whiskers }, dice(&[6])).unwrap_err();
    assert!(err.to_string().contains("rolls no dice"), "{err}");
    assert!(
        entered.humans[whiskers as usize].alive,
        "refused, nothing changed"
    );
    let ev = ok(&mut st, 0, C::Starve { human: whiskers }, None);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, E::Rolled { .. } | E::Revived { .. })),
        "no CPR roll for starving: {ev:?}"
    );
    assert!(!st.humans[whiskers as usize].alive);
}

/// Aliens.Saucer: "can only be attacked with Surface to Air Attack cards";
/// an Instant that hits is not one (review of 2026-11-27, U2).
#[test]
fn aliens_saucer_an_instant_hit_card_cannot_hit_a_saucer_strike() {
    let mut st = quiet(&["nine_lives"], "C3");
    let saucer = alien(&mut st, AlienKind::Saucer, "C3");
    let probe = alien(&mut st, AlienKind::Probe, "C3");
    let fire = give(&mut st, 0, "firecrackers");
    let before = st.clone();
    refused(
        &mut st,
        0,
        C::Instant {
            card: fire,
            on: xenolog_engine::games::saucers::InstantOn::Alien { alien: saucer },
        },
        None,
        "Cards.Instant",
    );
    assert_eq!(st.aliens, before.aliens, "nothing changed");
    assert!(st.seats[0].hand.contains(&fire));
    // The same card may hit the Probe on that tile.
    ok(
        &mut st,
        0,
        C::Instant {
            card: fire,
            on: xenolog_engine::games::saucers::InstantOn::Alien { alien: probe },
        },
        None,
    );
    assert!(st.alien(probe).is_none(), "1 hit kills a Probe (1 HP)");
    assert!(st.alien(saucer).is_some());
}

/// Missions: "If at any time a player loses their mission card, they may
/// draw a new one from the Missions pile": a student killed in the Defeat
/// step loses its mission and another of the player's students draws one
/// (assumption 20; review of 2026-11-27, U3).
#[test]
fn missions_a_student_killed_loses_its_mission_and_another_student_draws_a_new_one() {
    let mut st = quiet(&["nine_lives"], "C3");
    let carrier = st.humans.iter().position(|h| h.mission.is_some()).unwrap();
    let old = st.humans[carrier].mission.unwrap();
    alien(&mut st, AlienKind::Probe, "C3");
    to_defeat(&mut st);
    let ev = ok(
        &mut st,
        0,
        C::Lose {
            human: carrier as u16,
        },
        dice(&[1]),
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, E::MissionLost { mission, .. } if *mission == old))
    );
    assert!(!st.humans[carrier].alive);
    let others: Vec<u16> = st
        .humans
        .iter()
        .filter(|h| h.seat == 0 && h.alive)
        .filter_map(|h| h.mission)
        .collect();
    assert_eq!(others.len(), 1, "one new mission, on a living student");
    assert_ne!(others[0], old);
}
