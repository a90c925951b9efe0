//! Tasks (7), the Queen (8), victory (11), setup (12), and the task cards
//! hidden from the Alien player.

#[path = "support/alien.rs"]
mod support;

use support::*;
use xenolog_engine::games::alien::data::Item;
use xenolog_engine::games::alien::state::{AlienEvent as E, Phase, Pos, Queen, Result as End};
use xenolog_engine::games::alien::{Alien, AlienCommand as C, AlienConfig};
use xenolog_engine::{Actor, Game, Session};

#[test]
fn clause_7_a_floppy_disk_read_at_a_computer_draws_a_card_and_goes_back() {
    let mut s = at("character hicks at C2 items disk\n");
    let before = s.taken[xenolog_engine::games::alien::data::Kind::Disk.index()];
    let ev = act(&mut s, EXPEDITION, C::Read { ch: 0, pocket: 0 }, &[]);
    assert!(matches!(ev[0], E::DiskRead { computer: 1, .. }));
    let E::TaskDrawn { card } = ev[1] else {
        panic!("{ev:?}")
    };
    assert_eq!(s.open, vec![card]);
    assert_eq!(s.characters[0].ap, 5, "reading costs an action point");
    assert_eq!(
        s.taken[xenolog_engine::games::alien::data::Kind::Disk.index()],
        before - 1,
        "back to the warehouse"
    );
    let s = at("character hicks at C3 items disk\n");
    let e = refused(&s, EXPEDITION, C::Read { ch: 0, pocket: 0 });
    assert_eq!(e.clause.as_deref(), Some("7"));
}

#[test]
fn clause_7_at_most_three_undone_tasks() {
    let s = at("open 1 2 3\ncharacter hicks at C2 items disk\n");
    let e = refused(&s, EXPEDITION, C::Read { ch: 0, pocket: 0 });
    assert!(e.message.contains("three undone"), "{e}");
}

#[test]
fn clause_7_a_task_done_is_checked_and_scores_one_point() {
    // Reach: task 6, the laboratory (M8).
    let mut s = at("open 6\ncharacter hicks at L8\n");
    let ev = act(&mut s, EXPEDITION, move_to(0, "M8"), &[]);
    assert!(ev.contains(&E::TaskDone { card: 6 }));
    assert_eq!((s.points, s.done.clone()), (1, vec![6]));
    // Carry: task 11, a medical kit to the sick bay (B10).
    let mut s = at("open 11\ncharacter bishop at B9 items medkit\n");
    let ev = act(&mut s, EXPEDITION, move_to(4, "B10"), &[]);
    assert!(ev.contains(&E::TaskDone { card: 11 }));
    // Repair: task 1, the reactor (T2), with spare parts, which go back.
    let mut s = at("open 1\ncharacter hicks at T2 items spare\n");
    let ev = act(&mut s, EXPEDITION, C::Repair { ch: 0, pocket: 0 }, &[]);
    assert_eq!(ev[1], E::TaskDone { card: 1 });
    assert!(s.characters[0].items.is_empty());
    let s = at("open 2\ncharacter hicks at T2 items spare\n");
    refused(&s, EXPEDITION, C::Repair { ch: 0, pocket: 0 });
    // Read: task 17, at computer 2: done by reading there, no card drawn.
    let mut s = at("open 17\ncharacter hicks at K9 items disk\n");
    let ev = act(&mut s, EXPEDITION, C::Read { ch: 0, pocket: 0 }, &[]);
    assert_eq!(ev[1], E::TaskDone { card: 17 });
    assert!(s.open.is_empty());
}

#[test]
fn clause_8_option_1_the_queens_die_against_the_points() {
    let base = "points 3\ndone 6 7 8\n";
    // Less: killed, no more hatching.
    let mut s = at(base);
    act(&mut s, EXPEDITION, C::AttackQueen, &[2]);
    assert_eq!(s.queen, Queen::Dead { hatching: false });
    // Equal: killed, hatching goes on.
    let mut s = at(base);
    act(&mut s, EXPEDITION, C::AttackQueen, &[3]);
    assert_eq!(s.queen, Queen::Dead { hatching: true });
    // Greater: every point lost; no new attack until another task.
    let mut s = at(base);
    let ev = act(&mut s, EXPEDITION, C::AttackQueen, &[4]);
    assert_eq!(ev[1], E::PointsLost);
    assert_eq!((s.points, s.queen), (0, Queen::Alive));
    let e = refused(&s, EXPEDITION, C::AttackQueen);
    assert!(e.message.contains("after a task"), "{e}");
    // Only after a task: a fresh battle has none.
    refused(&at(""), EXPEDITION, C::AttackQueen);
}

#[test]
fn clause_8_option_2_the_agreed_number_of_tasks_kills_the_queen() {
    let mut s = with(AlienConfig {
        queen: 2,
        tasks: 2,
        scenario_text: Some("points 1\ndone 7\nopen 6\ncharacter hicks at L8\n".into()),
        ..AlienConfig::default()
    });
    refused(&s, EXPEDITION, C::AttackQueen);
    let ev = act(&mut s, EXPEDITION, move_to(0, "M8"), &[]);
    assert!(ev.contains(&E::QueenDied { hatching: false }), "{ev:?}");
}

#[test]
fn clause_11_one_character_on_the_landing_field_after_the_queen_wins_for_the_expedition() {
    let mut s = with(AlienConfig {
        players: 3,
        scenario_text: Some("queen dead\ncharacter apone at F12\ncharacter hicks at K9\n".into()),
        ..AlienConfig::default()
    });
    // Every other start tile is still taken: free E12.
    for c in s.characters.iter_mut() {
        if c.pos == Pos::Tile(t("E12")) {
            c.pos = Pos::Tile(t("K10"));
        }
    }
    let apone = ch(&s, "apone");
    let seat = Actor(s.characters[apone as usize].seat);
    act(&mut s, seat, move_to(apone, "E12"), &[]);
    assert_eq!(s.over, Some(End::Expedition));
    let o = Alien::outcome(&s).unwrap();
    assert_eq!(
        o.winners,
        vec![Actor(1), Actor(2)],
        "every expedition player wins"
    );
}

#[test]
fn clause_11_all_killed_after_the_queen_is_a_draw_and_before_it_the_aliens_win() {
    let dead = "character hudson at dead\ncharacter vasquez at dead\ncharacter gorman at dead\ncharacter bishop at dead\ncharacter apone at dead\n";
    for (queen, result) in [("queen dead\n", End::Draw), ("", End::Aliens)] {
        let mut s = at(&format!(
            "{queen}{dead}character hicks at G9 strength 1\nalien 4 at G8\nalien 4 at G10\n"
        ));
        s.phase = Phase::Attacks;
        act(&mut s, ALIEN, C::Attack { ch: 0 }, &[6]);
        assert_eq!(s.over, Some(result));
        let o = Alien::outcome(&s).unwrap();
        assert_eq!(o.winners.is_empty(), result == End::Draw);
    }
}

#[test]
fn clause_12_setup_on_the_landing_field_without_aliens_or_fuel() {
    let s = at("");
    let landing =
        |t: u16| s.content.base.terrain(t) == xenolog_engine::games::alien::data::Terrain::Landing;
    assert!(s.characters.iter().all(|c| c.tile().is_some_and(landing)));
    assert!(landing(s.apc.at) && s.apc.fuel == 0);
    assert!(s.aliens.is_empty() && s.open.is_empty() && s.deck.len() == 20);
    // Characters leave the landing field on their way into the base.
    let mut s = at("");
    let e12 = s.character_at(t("E12")).unwrap() as u8;
    act(&mut s, EXPEDITION, move_to(e12, "F12"), &[]);
    let d12 = s.character_at(t("D12")).unwrap() as u8;
    act(&mut s, EXPEDITION, move_to(d12, "E12"), &[]);
    let c13 = s.character_at(t("C13")).unwrap() as u8;
    let e = refused(&s, EXPEDITION, move_to(c13, "B13"));
    assert!(e.message.contains("landing field"), "not deeper: {e}");
}

#[test]
fn task_cards_are_hidden_from_the_alien_player_until_the_battle_ends() {
    let mut session = Session::<Alien>::new(
        3,
        AlienConfig {
            scenario_text: Some("character hicks at C2 items disk\n".into()),
            ..AlienConfig::default()
        },
    )
    .unwrap();
    // Before a card is drawn every seat sees the same (the pile is face
    // down for all): no hot-seat curtain is needed yet.
    assert!(!xenolog_engine::Battle::seats_see_differently(&session));
    assert_eq!(
        Alien::view(session.state(), ALIEN),
        Alien::view(session.state(), EXPEDITION)
    );
    session
        .play(EXPEDITION, &C::Read { ch: 0, pocket: 0 }, None)
        .unwrap();
    assert!(xenolog_engine::Battle::seats_see_differently(&session));
    let s = session.state();
    let card = s.open[0];
    assert_ne!(card, 0);
    let alien_view = Alien::view(s, ALIEN);
    assert_eq!(alien_view.open, vec![0]);
    assert!(alien_view.deck.iter().all(|&c| c == 0));
    assert_eq!(Alien::view(s, EXPEDITION).open, vec![card]);
    assert!(Alien::view(s, EXPEDITION).deck.iter().all(|&c| c == 0));
    let drawn = E::TaskDrawn { card };
    assert_eq!(Alien::view_event(&drawn, ALIEN), E::TaskDrawn { card: 0 });
    assert_eq!(Alien::view_event(&drawn, EXPEDITION), drawn);
    // The public view (spectators of a club battle) sees what the Alien
    // player sees of the Expedition's cards: that one was drawn, not which.
    assert_eq!(Alien::view(s, Actor::SYSTEM).open, vec![0]);
    assert_eq!(
        Alien::view_event(&drawn, Actor::SYSTEM),
        E::TaskDrawn { card: 0 }
    );
    assert_eq!(
        xenolog_engine::Battle::public_view_leaks(&session, session.cursor()),
        None
    );
    assert_eq!(
        Alien::describe_event(&alien_view, &E::TaskDrawn { card: 0 }),
        "the expedition drew a task card (hidden)"
    );
    let scene = Alien::scene(&alien_view);
    assert!(scene.items.iter().any(|i| matches!(&i.shape, xenolog_engine::scene::Shape::Text { text, .. } if text == "a task card you may not see")));
    // Once the battle is over, everything is shown.
    let mut over = s.clone();
    over.over = Some(End::Aliens);
    assert_eq!(Alien::view(&over, ALIEN).open, vec![card]);
    let _ = Item::Disk;
}
