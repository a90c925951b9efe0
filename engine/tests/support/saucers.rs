//! Helpers shared by the Night of the Saucers tests (included with
//! `#[path]`): a game set up and dealt, then adjusted (aliens, positions,
//! hands, decks); commands decided through `rules::decide` and folded with
//! `state::apply`, dice entered as faces of the game's die (1-2 blank, 3-5
//! one hit, 6 the dead alien: two hits).
#![allow(dead_code)]

#[path = "game.rs"]
mod game;

use xenolog_engine::games::saucers::data::{AlienCard, AlienKind, Dir, Pos, Tokens, parse_coord};
use xenolog_engine::games::saucers::state::{Alien, Tile};
use xenolog_engine::games::saucers::{
    Phase, Saucers, SaucersCommand, SaucersConfig, SaucersEvent, SaucersState, Target, describe,
};
use xenolog_engine::{Actor, Game, RuleError, Session};

/// A tile by its coordinates, e.g. `at("C6")`.
pub fn at(c: &str) -> Pos {
    parse_coord(c).unwrap_or_else(|| panic!("no tile {c}"))
}

/// A game dealt, every mission given to the seat's first student, and the
/// first player's draw made: the first player's actions.
pub fn game(config: SaucersConfig) -> SaucersState {
    let mut s = Session::<Saucers>::new(7, config).expect("setup");
    s.play_due().unwrap();
    for seat in 0..s.state().seats.len() as u8 {
        let h = s.state().living(seat).next().unwrap().0 as u16;
        s.play(Actor(seat), &SaucersCommand::Assign { human: h }, None)
            .unwrap();
    }
    s.play_due().unwrap();
    assert_eq!(s.state().phase, Phase::Actions);
    s.state().clone()
}

/// Players of these gangs, in seat order.
pub fn gangs(ids: &[&str]) -> SaucersConfig {
    SaucersConfig {
        players: ids.len() as u8,
        gangs: ids.iter().map(|s| s.to_string()).collect(),
        ..SaucersConfig::default()
    }
}

/// A quiet board: no alien, nothing searched or destroyed, every student on
/// `start`, empty hands, seat 0 to act with two actions a student.
pub fn quiet(ids: &[&str], start: &str) -> SaucersState {
    let mut st = game(gangs(ids));
    st.aliens.clear();
    for t in &mut st.board {
        t.searched = false;
        t.destroyed = false;
    }
    let p = at(start);
    for h in &mut st.humans {
        h.at = p;
        h.actions = if h.seat == st.current { 2 } else { 0 };
    }
    for s in &mut st.seats {
        let hand = std::mem::take(&mut s.hand);
        st.discard.extend(hand);
    }
    st
}

/// Decide a command and fold its events into the state.
pub fn run(
    st: &mut SaucersState,
    actor: u8,
    cmd: SaucersCommand,
    dice: Option<Vec<u8>>,
) -> Result<Vec<SaucersEvent>, RuleError> {
    let actor = if actor == u8::MAX {
        Actor::SYSTEM
    } else {
        Actor(actor)
    };
    game::decide_and_apply::<Saucers>(st, actor, &cmd, 11, dice)
}

/// The same, for a command that must be accepted.
pub fn ok(
    st: &mut SaucersState,
    actor: u8,
    cmd: SaucersCommand,
    dice: Option<Vec<u8>>,
) -> Vec<SaucersEvent> {
    let before = st.clone();
    run(st, actor, cmd.clone(), dice).unwrap_or_else(|e| {
        panic!(
            "{} refused: {e}",
            describe::command(&before, Actor(actor), &cmd)
        )
    })
}

/// A step of the game (actor SYSTEM, the stream's dice).
pub fn step(st: &mut SaucersState, cmd: SaucersCommand) -> Vec<SaucersEvent> {
    ok(st, u8::MAX, cmd, None)
}

/// The events in words (each with the state before it).
pub fn words(before: &SaucersState, events: &[SaucersEvent]) -> Vec<String> {
    game::words_of::<Saucers>(before, events)
}

/// The student of this I.D. (e.g. `"ace"`).
pub fn human(st: &SaucersState, id: &str) -> u16 {
    st.humans
        .iter()
        .position(|h| st.content.humans[h.def as usize].id == id)
        .unwrap_or_else(|| panic!("no student {id} in the game")) as u16
}

/// Put a student on a tile.
pub fn put(st: &mut SaucersState, id: &str, c: &str) -> u16 {
    let h = human(st, id);
    st.humans[h as usize].at = at(c);
    h
}

/// A card of this id not in any hand, put into a seat's hand.
pub fn give(st: &mut SaucersState, seat: u8, id: &str) -> u16 {
    let held: Vec<u16> = st.seats.iter().flat_map(|s| s.hand.clone()).collect();
    let c = (0..st.content.cards.len() as u16)
        .find(|&c| st.content.cards[c as usize].id == id && !held.contains(&c))
        .unwrap_or_else(|| panic!("no free card {id}"));
    st.deck.retain(|&x| x != c);
    st.discard.retain(|&x| x != c);
    st.seats[seat as usize].hand.push(c);
    c
}

/// The first card of this id.
pub fn card(st: &SaucersState, id: &str) -> u16 {
    (0..st.content.cards.len() as u16)
        .find(|&c| st.content.cards[c as usize].id == id)
        .unwrap_or_else(|| panic!("no card {id}"))
}

/// The first `n` cards of the Draw deck's content that are not events (to
/// stack a deck or a hand with no event in it).
pub fn non_events(st: &SaucersState, n: usize) -> Vec<u16> {
    (0..st.content.cards.len() as u16)
        .filter(|&c| !st.content.cards[c as usize].is_event())
        .take(n)
        .collect()
}

/// Then: the game's battle options (`Saucers::options`) include each of
/// these keys.
pub fn assert_options_include(keys: &[&str]) {
    let listed: Vec<&str> = Saucers::options().iter().map(|o| o.key).collect();
    for k in keys {
        assert!(listed.contains(k), "{k}");
    }
}

/// An alien placed on a tile; its id.
pub fn alien(st: &mut SaucersState, kind: AlienKind, c: &str) -> u32 {
    let id = st.next_alien;
    st.next_alien += 1;
    st.aliens.push(Alien {
        id,
        kind,
        at: at(c),
        damage: 0,
        dir: None,
    });
    id
}

/// An alien card made the top of the Alien deck.
pub fn top_alien(st: &mut SaucersState, kind: AlienKind, c: &str, dir: Option<Dir>) -> u16 {
    st.content.aliens.push(AlienCard {
        kind,
        at: at(c),
        dir,
    });
    let i = (st.content.aliens.len() - 1) as u16;
    st.alien_deck.push(i);
    i
}

/// The building of a tile replaced by the first one with this id.
pub fn building(st: &mut SaucersState, c: &str, id: &str) {
    let def = st.content.tiles.iter().position(|t| t.id == id).unwrap() as u16;
    // Swap so every building stays on the board once.
    let other = st.board.iter().position(|t| t.def == def).unwrap();
    let here = at(c) as usize;
    let old = st.board[here].def;
    st.board[other] = Tile {
        def: old,
        searched: st.board[other].searched,
        destroyed: st.board[other].destroyed,
    };
    st.board[here].def = def;
}

pub fn tokens(food: u16, ammo: u16, fuel: u16, scrap: u16, alien: u16) -> Tokens {
    Tokens {
        food,
        ammo,
        fuel,
        scrap,
        alien,
    }
}

/// Seat `seat`'s actions, on a fresh turn.
pub fn turn_of(st: &mut SaucersState, seat: u8) {
    st.current = seat;
    st.phase = Phase::Actions;
    for h in &mut st.humans {
        h.actions = if h.seat == seat && h.alive { 2 } else { 0 };
    }
}

pub fn is_illegal(r: Result<Vec<SaucersEvent>, RuleError>, clause: &str) -> String {
    match r {
        Err(e) => {
            assert_eq!(e.clause.as_deref(), Some(clause), "{e}");
            e.message
        }
        Ok(ev) => panic!("accepted, but {clause} forbids it: {ev:?}"),
    }
}

// ---- given / when / then -------------------------------------------------------------
//
// A clause test reads: given a board (`quiet`, then `alien`, `put`, `give`...),
// when a command (`move_to`, `attack`...) with its dice (`ok` / `run`), then the
// events and the state, or `refused` naming the clause that forbids it.

/// Given: the quiet Nine Lives board (as `quiet`) with every student on
/// `tile` and an alien of this kind there: the state, Patch, the alien.
pub fn patch_facing(kind: AlienKind, tile: &str) -> (SaucersState, u16, u32) {
    let mut st = quiet(&["nine_lives"], tile);
    let alien = alien(&mut st, kind, tile);
    let patch = human(&st, "patch");
    (st, patch, alien)
}

/// When: a student attacks one alien on a tile.
pub fn attack_alien(human: u16, tile: &str, alien: u32) -> SaucersCommand {
    attack(human, tile, vec![Target::Alien(alien)])
}

/// When: a student moves to a tile (`SaucersCommand::Move`).
pub fn move_to(human: u16, to: &str) -> SaucersCommand {
    SaucersCommand::Move { human, to: at(to) }
}

/// When: a student moves with a Move card instead (`SaucersCommand::MoveCard`).
pub fn move_card(human: u16, card: u16, to: &str) -> SaucersCommand {
    SaucersCommand::MoveCard {
        human,
        card,
        to: at(to),
    }
}

/// When: a student's standard attack (no card) on a tile, hits to these
/// targets in order.
pub fn attack(human: u16, tile: &str, targets: Vec<Target>) -> SaucersCommand {
    SaucersCommand::Attack {
        human,
        card: None,
        at: at(tile),
        targets,
    }
}

/// When: a student attacks a tile with an Attack card.
pub fn attack_card(human: u16, card: u16, tile: &str, targets: Vec<Target>) -> SaucersCommand {
    SaucersCommand::Attack {
        human,
        card: Some(card),
        at: at(tile),
        targets,
    }
}

/// Given: seat `seat`'s mission carrier standing on `tile`, which is made its
/// mission's building, and the seat rich enough to deliver; the carrier.
pub fn mission_ready(st: &mut SaucersState, seat: u8, tile: &str) -> u16 {
    let carrier = st
        .humans
        .iter()
        .position(|h| h.seat == seat && h.mission.is_some())
        .unwrap() as u16;
    let m = st.humans[carrier as usize].mission.unwrap();
    let tile_id = st.content.tiles[st.content.missions[m as usize].tile]
        .id
        .clone();
    building(st, tile, &tile_id);
    st.seats[seat as usize].tokens = tokens(9, 9, 9, 9, 0);
    carrier
}

/// The dice entered for a command.
pub fn dice(faces: &[u8]) -> Option<Vec<u8>> {
    Some(faces.to_vec())
}

/// Then: the command is refused by this clause; the refusal's words.
pub fn refused(
    st: &mut SaucersState,
    actor: u8,
    cmd: SaucersCommand,
    dice: Option<Vec<u8>>,
    clause: &str,
) -> String {
    is_illegal(run(st, actor, cmd, dice), clause)
}

pub fn legal(st: &SaucersState) -> Vec<(Actor, SaucersCommand)> {
    Saucers::legal(st)
}
