//! Night of the Saucers commands take the names players use (issue 27,
//! "commands and files take the names players use, not only internal
//! numbers"): students by their I.D. card, cards by name from the hand of the
//! seat giving the command, tiles as `C4`; numbers still pass through, and a
//! name that names nothing is refused in words listing what there is.

#[path = "support/saucers.rs"]
mod support;

use serde_json::json;
use support::*;
use xenolog_engine::games::saucers::{InstantOn, Saucers, SaucersCommand as C, SaucersState};
use xenolog_engine::{Actor, Battle, Game, Session};

/// Nine Lives (seat 1) and Fly Boyz (seat 2), dealt, with these hands.
fn from(hands: &str) -> Session<Saucers> {
    from_hidden(hands, false)
}

/// As [`from`], the hands hidden from the other seat when `hidden`.
fn from_hidden(hands: &str, hidden: bool) -> Session<Saucers> {
    let mut config = gangs(&["nine_lives", "fly_boyz"]);
    config.hidden_hands = hidden;
    config.scenario_text = Some(hands.into());
    let mut s = Session::<Saucers>::new(4, config).unwrap_or_else(|e| panic!("{e}"));
    s.play_due().unwrap();
    s
}

fn student(st: &SaucersState, name: &str) -> u16 {
    (0..st.humans.len())
        .find(|&h| st.human_name(h) == name)
        .unwrap_or_else(|| panic!("no student {name}")) as u16
}

fn read(st: &SaucersState, seat: u8, v: serde_json::Value) -> Result<C, String> {
    Saucers::command_from_json(st, Actor(seat), &v)
}

#[test]
fn names_a_student_by_its_id_card_name_or_id_in_any_case() {
    let s = from("hand 1 bat\n");
    let st = s.state();
    let jet = student(st, "Jet");
    for name in ["Jet", "jet", "JET"] {
        assert_eq!(
            read(st, 1, json!({"move": {"human": name, "to": "C4"}})).unwrap(),
            C::Move {
                human: jet,
                to: at("C4")
            }
        );
    }
    // Numbers pass through as before (what `legal --json` prints).
    assert_eq!(
        read(st, 1, json!({"move": {"human": jet, "to": 14}})).unwrap(),
        C::Move { human: jet, to: 14 }
    );
    let err = read(st, 1, json!({"search": {"human": "Hicks"}})).unwrap_err();
    assert!(
        err.starts_with("there is no student 'Hicks' in this game (the students: ")
            && err.contains("Jet")
            && err.contains("Wingnut"),
        "{err}"
    );
}

#[test]
fn names_a_card_from_the_hand_of_the_seat_giving_the_command() {
    let s = from("hand 1 bat shotgun\nhand fly_boyz shotgun sewer\n");
    let st = s.state();
    let ace = student(st, "Ace");
    let (mine, theirs) = (st.seats[1].hand.clone(), st.seats[0].hand.clone());
    let shotgun = |hand: &[u16]| {
        *hand
            .iter()
            .find(|&&c| st.content.cards[c as usize].id == "shotgun")
            .unwrap()
    };
    // Two copies of the Shotgun are held, one by each seat: the name reads
    // the one in the hand of the seat giving the command.
    assert_ne!(shotgun(&mine), shotgun(&theirs));
    let attack = json!({"attack": {"human": "Ace", "card": "Shotgun", "at": "B2", "targets": []}});
    assert_eq!(
        read(st, 1, attack.clone()).unwrap(),
        C::Attack {
            human: ace,
            card: Some(shotgun(&mine)),
            at: at("B2"),
            targets: vec![]
        }
    );
    assert!(
        matches!(read(st, 0, attack).unwrap(), C::Attack { card: Some(c), .. } if c == shotgun(&theirs))
    );
    // An Instant names its student inside what it aims at.
    let sewer = *mine
        .iter()
        .find(|&&c| st.content.cards[c as usize].id == "sewer")
        .unwrap();
    assert_eq!(
        read(
            st,
            1,
            json!({"instant": {"card": "sewer system", "on": {"escape": {"human": "ace", "to": "A1"}}}})
        )
        .unwrap(),
        C::Instant {
            card: sewer,
            on: InstantOn::Escape {
                human: ace,
                to: at("A1")
            }
        }
    );
    let err = read(st, 1, json!({"discard": {"card": "Bat"}})).unwrap_err();
    assert_eq!(
        err,
        "Fly Boyz holds no card 'Bat' (in hand: Shotgun, Sewer System)"
    );
}

#[test]
fn a_swap_names_given_cards_from_ones_own_hand_and_taken_ones_from_the_other() {
    let s = from("hand 1 bat bat\nhand fly_boyz shotgun shotgun\n");
    let st = s.state();
    let swap = |give: serde_json::Value, take: serde_json::Value| {
        read(
            st,
            1,
            json!({"swap": {"human": "jet", "with": 0, "give": {"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0}, "give_cards": give,
                            "take": {"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0}, "take_cards": take}}),
        )
    };
    let read = swap(json!(["Shotgun", "shotgun"]), json!(["bat"]));
    let Ok(C::Swap {
        give_cards,
        take_cards,
        ..
    }) = read
    else {
        panic!("the swap reads: {read:?}");
    };
    // Two copies named twice are the two different cards in hand.
    let mut held = st.seats[1].hand.clone();
    held.sort();
    let mut given = give_cards.clone();
    given.sort();
    assert_eq!(given, held);
    assert_eq!(take_cards.len(), 1);
    assert!(st.seats[0].hand.contains(&take_cards[0]));
    let err = swap(json!(["shotgun", "shotgun", "shotgun"]), json!([])).unwrap_err();
    assert!(
        err.contains("holds no card 'shotgun' not named already"),
        "{err}"
    );
}

#[test]
fn names_reach_the_battle_through_prepare_json_as_the_command_line_gives_them() {
    let s = from("hand 1 bat\nturn 1 actions\n");
    let legal = s.legal();
    // The first legal Move, given again by the student's name and a tile name.
    let (actor, (human, to)) = legal
        .iter()
        .find_map(|l| {
            serde_json::from_value::<C>(l.command.clone())
                .ok()
                .and_then(|c| match c {
                    C::Move { human, to } => Some((l.actor, (human, to))),
                    _ => None,
                })
        })
        .expect("a student may move");
    let st = s.state();
    let name = st.human_name(human as usize).to_owned();
    let tile = xenolog_engine::games::saucers::data::coord(to);
    let named = s
        .prepare_json(actor, &json!({"move": {"human": name, "to": tile}}), None)
        .unwrap();
    let numbered = s
        .prepare_json(actor, &json!({"move": {"human": human, "to": to}}), None)
        .unwrap();
    let record = |p: &xenolog_engine::session::Pending| match &p.kind {
        xenolog_engine::session::PendingKind::New { record, .. } => record.clone(),
        other => panic!("a new entry, not {other:?}"),
    };
    assert_eq!(record(&named), record(&numbered));
}

/// The words refusing seat 1's Jet a swap taking the card `name` from seat 0.
fn take_refused(st: &SaucersState, name: &str) -> String {
    read(
        st,
        1,
        json!({"swap": {"human": "jet", "with": 0, "give": {"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0}, "give_cards": [],
                        "take": {"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0}, "take_cards": [name]}}),
    )
    .unwrap_err()
}

/// Principle 14: the words of a refusal go back to the seat that asked, so
/// they hold nothing its view hides. A card taken in a swap is read by name
/// from the other seat's hand only when hands are open; when they are hidden,
/// a name it holds and a name it does not hold are refused in the same words,
/// which list none of its cards.
#[test]
fn names_a_card_named_in_a_hidden_hand_is_refused_without_showing_that_hand() {
    let s = from_hidden("hand 1 bat sewer\nhand fly_boyz shotgun\n", true);
    let st = s.state();
    let take = |name: &str| take_refused(st, name);
    let hidden: Vec<&str> = st.seats[0]
        .hand
        .iter()
        .flat_map(|&c| {
            let def = &st.content.cards[c as usize];
            [def.id.as_str(), def.name.as_str()]
        })
        .collect();
    assert!(hidden.contains(&"Baseball Bat"), "{hidden:?}");
    let (absent, held) = (take("zzz"), take("bat"));
    for err in [&absent, &held] {
        assert!(err.contains("the hand of Nine Lives is hidden"), "{err}");
        for name in &hidden {
            assert!(!err.contains(name), "'{name}' of a hidden hand in: {err}");
        }
    }
    assert_eq!(absent, held, "a card held and a card not held read alike");
    // The seat's own hand is its to see: a name it lacks still lists it.
    let own = read(st, 1, json!({"discard": {"card": "zzz"}})).unwrap_err();
    assert!(own.contains("(in hand: Shotgun"), "{own}");
}

/// Variant.GangWarfare with assumption 18 (rules version 4): a swap takes
/// from another gang only as an offer it answers, by card number (its hand
/// is hidden), so a take by name is refused with the hidden hand's words,
/// which send the player to the number, alike for a card held and not held
/// and naming none of that hand.
#[test]
fn variant_gang_warfare_a_card_taken_by_name_is_sent_to_its_number_like_any_hidden_hand() {
    let mut config = gangs(&["nine_lives", "fly_boyz"]);
    config.variant = 2;
    config.scenario_text = Some("hand 1 bat sewer\nhand fly_boyz shotgun\n".into());
    let mut s = Session::<Saucers>::new(4, config).unwrap_or_else(|e| panic!("{e}"));
    s.play_due().unwrap();
    let st = s.state();
    let take = |name: &str| take_refused(st, name);
    let (absent, held) = (take("zzz"), take("bat"));
    for err in [&absent, &held] {
        assert!(
            err.contains("is hidden: a card in it is given by its number"),
            "{err}"
        );
        assert!(
            !err.contains("Baseball Bat") && !err.contains("Sewer"),
            "{err}"
        );
    }
    assert_eq!(
        absent.replace("zzz", "bat"),
        held,
        "held and not held read alike"
    );
    // A card given by name from one's own hand still reads.
    let give = read(
        st,
        1,
        json!({"swap": {"human": "jet", "with": 0, "give": {"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0}, "give_cards": ["shotgun"],
                        "take": {"food": 0, "ammo": 0, "fuel": 0, "scrap": 0, "alien": 0}, "take_cards": []}}),
    );
    assert!(matches!(give, Ok(C::Swap { .. })), "{give:?}");
}

/// Review7 N10: the name reader given a state whose hand is hidden (a seat's
/// view) refuses in words instead of panicking or saying the hand lacks the
/// card.
#[test]
fn names_read_on_a_view_that_hides_the_hand_are_refused_in_words() {
    let s = from_hidden("hand 1 bat sewer\nhand fly_boyz shotgun\n", true);
    let seen = Saucers::view(s.state(), Actor(0));
    assert!(
        seen.seats[1]
            .hand
            .iter()
            .all(|&c| c == xenolog_engine::games::saucers::HIDDEN)
    );
    let err = read(&seen, 1, json!({"discard": {"card": "shotgun"}})).unwrap_err();
    assert!(
        err.contains("the hand of Fly Boyz is hidden in this view"),
        "{err}"
    );
    assert!(!err.contains("holds no card"), "{err}");
    // The seat's own view reads its own hand as before.
    let own = Saucers::view(s.state(), Actor(1));
    assert!(matches!(
        read(&own, 1, json!({"discard": {"card": "shotgun"}})),
        Ok(C::Discard { .. })
    ));
}
