//! Night of the Saucers: any moment from a position file (`position.rs`,
//! RULES.md "A position file to start from"): hands, the decks' order,
//! supplies, kills, damage, students, missions and the step, each by the
//! names players use, each a small file of its own; and tiles named as the
//! text names them in commands.

#[path = "position_files/mod.rs"]
mod position_files;
#[path = "support/saucers.rs"]
mod support;

use position_files::then_each_refused;
use support::*;
use xenolog_engine::games::saucers::data::{AlienKind, Kind};
use xenolog_engine::games::saucers::{
    HIDDEN, Phase, Saucers, SaucersCommand as C, SaucersEvent as E, SaucersState,
};
use xenolog_engine::{Actor, Game, Session};

/// A two-player game (Nine Lives, Fly Boyz) from this position file, dealt.
fn from(text: &str) -> Session<Saucers> {
    let mut config = gangs(&["nine_lives", "fly_boyz"]);
    config.scenario_text = Some(text.into());
    let mut s = Session::<Saucers>::new(4, config).unwrap_or_else(|e| panic!("{e}"));
    s.play_due().unwrap();
    s
}

fn refused(text: &str) -> String {
    let mut config = gangs(&["nine_lives", "fly_boyz"]);
    config.scenario_text = Some(text.into());
    Session::<Saucers>::new(4, config).err().expect("refused").0
}

fn names(st: &SaucersState, cards: &[u16]) -> Vec<String> {
    cards
        .iter()
        .map(|&c| st.content.cards[c as usize].id.clone())
        .collect()
}

#[test]
fn position_one_tile_line_puts_one_building_on_a_tile() {
    let s = from("tile C4 gun_shop searched\n");
    let st = s.state();
    let t = &st.board[at("C4") as usize];
    assert_eq!(st.content.tiles[t.def as usize].id, "gun_shop");
    assert!(t.searched);
    let mut defs: Vec<u16> = st.board.iter().map(|t| t.def).collect();
    defs.sort();
    assert_eq!(
        defs,
        (0..36).collect::<Vec<u16>>(),
        "every building still once"
    );
    // By its name, any case.
    let s = from("tile c4 \"national guard armory\"\n");
    let st = s.state();
    assert_eq!(
        st.content.tiles[st.board[at("C4") as usize].def as usize].id,
        "armory"
    );
    assert!(s.verify().ok());
}

#[test]
fn position_a_hand_by_card_names_seat_by_number_or_gang() {
    let s = from("hand 1 bat \"Sewer System\" sewer\nhand fly_boyz 6\n");
    let st = s.state();
    assert_eq!(names(st, &st.seats[0].hand), vec!["bat", "sewer", "sewer"]);
    // Card 6 (from 0, every copy counted) is a Sewer System: the third.
    assert_eq!(names(st, &st.seats[1].hand), vec!["sewer"]);
    // Card 0 is the first of the file, an Event: never held.
    assert!(refused("hand 2 0\n").contains("Event card"));
    let s = from("hand \"Fly Boyz\" shotgun\n");
    let st = s.state();
    assert_eq!(names(st, &st.seats[1].hand), vec!["shotgun"]);
    // Every card is still somewhere exactly once.
    let mut all: Vec<u16> = st
        .seats
        .iter()
        .flat_map(|x| x.hand.clone())
        .chain(st.deck.clone())
        .chain(st.discard.clone())
        .collect();
    all.sort();
    assert_eq!(all, (0..st.content.cards.len() as u16).collect::<Vec<_>>());
    assert!(s.verify().ok());
}

#[test]
fn position_the_human_deck_top_first_and_the_discard() {
    let s = from("hand 1\nhand 2\ndeck bmx bat\ndiscard molotov\nturn 1\n");
    let st = s.state();
    // Turn 1 at its Draw step: the draw has been played from the file's top.
    assert_eq!(st.phase, Phase::Actions);
    let hand = names(st, &st.seats[0].hand);
    assert_eq!(&hand[..2], &["bmx", "bat"], "the first named was on top");
    assert!(names(st, &st.discard).contains(&"molotov".to_owned()));
}

#[test]
fn position_the_alien_deck_top_first_and_cut_to_its_last_cards() {
    let s = from("alien_deck probe D2 scout C4 s\nalien_left 2\nturn 1 upkeep\ntokens 1 food 1\n");
    let st = s.state();
    assert_eq!(st.alien_deck.len(), 2);
    let top = st.content.aliens[*st.alien_deck.last().unwrap() as usize].clone();
    assert_eq!((top.kind, top.at), (AlienKind::Probe, at("D2")));
    assert_eq!(st.phase, Phase::Upkeep);
    // Playing on: the Alien turn draws the Probe, the next one the Scout;
    // the deck is then out and the humans win at that moment.
    let mut s = s;
    s.play(Actor(0), &C::Upkeep, None).unwrap();
    s.play_due().unwrap();
    assert!(
        s.state()
            .aliens
            .iter()
            .any(|a| a.kind == AlienKind::Probe && a.at == at("D2"))
    );
    then_each_refused(
        refused,
        &[
            ("alien_deck probe Z9\n", "line 1"),
            ("alien_deck scout C4\n", "direction"),
        ],
    );
}

#[test]
fn position_supplies_kills_and_damage() {
    let s = from(
        "tokens nine_lives food 0 alien 3\ntokens 2 scrap 5\nkills 1 2\nalien scout C3 n damage 1\n",
    );
    let st = s.state();
    assert_eq!(st.seats[0].tokens.get(Kind::Food), 0);
    assert_eq!(st.seats[0].tokens.get(Kind::Alien), 3);
    assert_eq!(st.seats[0].tokens.get(Kind::Ammo), 2, "the rest as dealt");
    assert_eq!(st.seats[1].tokens.get(Kind::Scrap), 5);
    assert_eq!(st.seats[0].kills_pending, 2);
    let scout = st.aliens.iter().find(|a| a.at == at("C3")).unwrap();
    assert_eq!(scout.damage, 1);
    then_each_refused(
        refused,
        &[
            ("alien scout C3 damage 2\n", "defeated"),
            ("tokens 3 food 1\n", "no seat 3"),
            ("tokens 1 gold 1\n", "not a supply"),
        ],
    );
}

#[test]
fn position_students_dead_actions_missions_and_the_step() {
    let s = from(
        "student tabby D4 mission \"Radio for Help\" actions 1\nstudent Patch D4 dead\nturn nine_lives actions\n",
    );
    let st = s.state();
    assert_eq!(
        st.phase,
        Phase::Actions,
        "the setup's mission-giving skipped"
    );
    assert_eq!(st.current, 0);
    let tabby = human(st, "tabby") as usize;
    let patch = human(st, "patch") as usize;
    assert_eq!(st.humans[tabby].at, at("D4"));
    assert_eq!(st.humans[tabby].actions, 1);
    assert_eq!(
        st.content.missions[st.humans[tabby].mission.unwrap() as usize].id,
        "radio"
    );
    assert!(!st.humans[patch].alive);
    // Every seat's dealt mission went to a student: Nine Lives' to Whiskers.
    let whiskers = human(st, "whiskers") as usize;
    assert!(st.humans[whiskers].mission.is_some());
    assert!(st.seats.iter().all(|x| x.unassigned.is_none()));
    let fly = st.living(1).filter(|(_, h)| h.mission.is_some()).count();
    assert_eq!(fly, 1);
    // Missions are each in one place only.
    let mut missions: Vec<u16> = st
        .humans
        .iter()
        .filter_map(|h| h.mission)
        .chain(st.mission_pile.clone())
        .collect();
    missions.sort();
    missions.dedup();
    assert_eq!(missions.len(), st.content.missions.len());
    // Other steps by name.
    for (word, phase) in [
        ("defeat", Phase::Upkeep), // nothing to lose: the Collect step follows
        ("upkeep", Phase::Upkeep),
        ("draw", Phase::Actions),
    ] {
        let s = from(&format!("turn 2 {word}\n"));
        assert_eq!(s.state().phase, phase, "{word}");
        assert_eq!(s.state().current, 1);
    }
    assert!(refused("turn 1 lunch\n").contains("not a step"));
}

#[test]
fn position_bad_lines_are_refused_naming_them() {
    then_each_refused(
        refused,
        &[
            ("hand 1 bat bat bat bat\n", "only 3 Baseball Bat"),
            ("\n\ndeck lightsaber\n", "position line 3"),
            ("tile C4 castle\n", "no building"),
            ("student ace C4 mission moon\n", "no mission"),
            ("hand 1 bat\nhand 1 bat\n", "twice"),
        ],
    );
}

#[test]
fn position_a_hidden_hand_laid_by_the_file_is_hidden_from_the_other_seats() {
    let mut config = gangs(&["nine_lives", "fly_boyz"]);
    config.hidden_hands = true;
    config.scenario_text = Some("hand 1 bat sewer\nalien_left 3\n".into());
    let st = Saucers::setup(&config).unwrap();
    let mut rng = xenolog_engine::rng::Randomness::new(4, 0, None);
    let events = Saucers::decide(&st, Actor::SYSTEM, &C::Deal, &mut rng).unwrap();
    let overlaid = events
        .iter()
        .find(|e| matches!(e, E::Overlaid(_)))
        .expect("the file's hands are laid by one event");
    let E::Overlaid(mine) = Saucers::view_event(overlaid, Actor(0)) else {
        unreachable!()
    };
    let E::Overlaid(theirs) = Saucers::view_event(overlaid, Actor(1)) else {
        unreachable!()
    };
    assert_eq!(names(&st, &mine.hands[0]), vec!["bat", "sewer"]);
    assert!(theirs.hands[0].iter().all(|&c| c == HIDDEN));
    assert!(
        mine.alien_deck.iter().all(|&c| c == HIDDEN),
        "decks hidden from all"
    );
    assert_eq!(mine.alien_deck.len(), 3);
}

#[test]
fn commands_take_tiles_by_the_names_the_text_gives_them() {
    let by_name: C =
        serde_json::from_value(serde_json::json!({"move": {"human": 0, "to": "C4"}})).unwrap();
    let by_number: C =
        serde_json::from_value(serde_json::json!({"move": {"human": 0, "to": 20}})).unwrap();
    assert_eq!(
        by_name,
        C::Move {
            human: 0,
            to: at("C4")
        }
    );
    assert_eq!(by_name, by_number, "numbers keep working");
    let attack: C = serde_json::from_value(serde_json::json!(
        {"attack": {"human": 1, "card": null, "at": "b2", "targets": [{"alien": 3}]}}
    ))
    .unwrap();
    assert!(matches!(attack, C::Attack { at: a, .. } if a == at("B2")));
    let escape: C = serde_json::from_value(serde_json::json!(
        {"instant": {"card": 4, "on": {"escape": {"human": 2, "to": "F6"}}}}
    ))
    .unwrap();
    assert!(format!("{escape:?}").contains(&format!("to: {}", at("F6"))));
    let bad = serde_json::from_value::<C>(serde_json::json!({"move": {"human": 0, "to": "K6"}}))
        .unwrap_err();
    assert!(
        bad.to_string().contains("not a tile from A1 to F6"),
        "{bad}"
    );
    let off = serde_json::from_value::<C>(serde_json::json!({"move": {"human": 0, "to": 36}}))
        .unwrap_err();
    assert!(off.to_string().contains("off the board"), "{off}");
    // Stored entries keep the number: the same bytes as before.
    let bytes = postcard::to_allocvec(&by_name).unwrap();
    let back: C = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, by_name);
    assert_eq!(
        bytes,
        vec![3, 0, at("C4")],
        "variant, human, tile: as in rules version 1"
    );
}

#[test]
fn position_legal_commands_played_from_a_position_are_the_legal_ones() {
    let s = from("student tabby C3\nalien probe C3\nturn 1 actions\n");
    let st = s.state();
    assert!(
        Saucers::legal(st)
            .iter()
            .any(|(a, c)| a.0 == 0 && matches!(c, C::Attack { at: p, .. } if *p == at("C3")))
    );
    let seen = Saucers::view(st, Actor(1));
    assert!(seen.deck.iter().all(|&c| c == HIDDEN));
}

/// The example of RULES.md reads and plays: the Nine Lives feed, the last
/// card (a Saucer over Tabby) is drawn and the humans win at once.
#[test]
fn position_the_example_in_rules_md_reads_and_plays_to_the_last_card() {
    let md = include_str!("../src/games/saucers/RULES.md");
    let start = md.find("```text\n# the last card").expect("the example") + 8;
    let end = start + md[start..].find("```").unwrap();
    let mut s = from(&md[start..end]);
    let st = s.state();
    assert_eq!(st.phase, Phase::Upkeep);
    assert_eq!(st.seats[0].tokens.get(Kind::Alien), 2);
    assert_eq!(names(st, &st.seats[0].hand), vec!["sewer", "bat"]);
    s.play(Actor(0), &C::Upkeep, None).unwrap();
    s.play_due().unwrap();
    let out = Saucers::outcome(s.state()).expect("the deck ran out");
    assert!(out.summary.contains("run out"), "{}", out.summary);
    assert!(
        s.state().humans.iter().all(|h| h.alive),
        "the Saucer never struck"
    );
}

/// A position-file start with hidden hands, the file's hidden parts differing
/// by `hand` (seat 1's cards) and `aliens` (the Alien deck's next cards).
fn hidden_from(hand: &str, aliens: &str) -> Session<Saucers> {
    let mut config = gangs(&["nine_lives", "fly_boyz"]);
    config.hidden_hands = true;
    config.scenario_text = Some(format!(
        "hand 1 {hand}\nalien_deck {aliens}\nalien_left 3\n"
    ));
    let mut s = Session::<Saucers>::new(4, config).unwrap_or_else(|e| panic!("{e}"));
    s.play_due().unwrap();
    s
}

/// Principle 14: the state keeps the position file (the deal reads it), and
/// what `view` passes on of it must hide what the rest of the view hides.
/// Two files that differ only in a hand and the Alien deck's order give the
/// other seat and the spectators the same view, and the other seat's view
/// holds none of those cards anywhere.
#[test]
fn position_the_file_kept_in_the_state_shows_no_seat_its_hidden_parts() {
    let a = hidden_from("bat sewer", "probe D2 scout C4 s");
    let b = hidden_from("shotgun rifle", "scout C4 s probe D2");
    let (sa, sb) = (a.state(), b.state());
    assert_ne!(sa.seats[0].hand, sb.seats[0].hand, "the hands differ");
    assert_ne!(sa.alien_deck, sb.alien_deck, "the decks differ");
    let shown =
        |st: &SaucersState, who: Actor| serde_json::to_value(Saucers::view(st, who)).unwrap();
    assert_eq!(
        shown(sa, Actor::SYSTEM),
        shown(sb, Actor::SYSTEM),
        "the public view tells the two files apart"
    );
    let seen = Saucers::view(sa, Actor(1));
    assert!(seen.seats[0].hand.iter().all(|&c| c == HIDDEN));
    let file = seen.preset.unwrap_or_default();
    assert!(
        file.hands.iter().all(|(seat, _)| *seat == 1)
            && file.alien_top.is_empty()
            && file.deck_top.is_empty(),
        "the other seat's view carries the file's hidden parts: {file:?}"
    );
}

/// Fly Boyz (seat 2) hold a Hidden Stash, an Instant they may play in Nine
/// Lives' actions; the hands are hidden when `hidden`.
fn stash_held(hidden: bool) -> Session<Saucers> {
    let mut config = gangs(&["nine_lives", "fly_boyz"]);
    config.hidden_hands = hidden;
    config.scenario_text = Some("hand 2 stash\nturn 1 actions\n".into());
    let mut s = Session::<Saucers>::new(4, config).unwrap_or_else(|e| panic!("{e}"));
    s.play_due().unwrap();
    s
}

/// Cards.Instant and principle 14: a seat holding an Instant it may play is
/// asked, but when hands are hidden, whether it is asked tells what its hand
/// holds, so the seats asked publicly (what a battle list shows every seat)
/// are worked out on the public view. With open hands nothing is hidden and
/// both lists name it.
#[test]
fn hidden_hands_whether_another_seat_may_play_an_instant_is_not_shown_publicly() {
    use xenolog_engine::Battle;
    let seats = |asks: Vec<xenolog_engine::Ask>| asks.iter().map(|a| a.seat).collect::<Vec<_>>();
    let hidden = stash_held(true);
    assert_eq!(hidden.state().current, 0, "Nine Lives' actions");
    assert_eq!(seats(hidden.asked()), vec![Actor(0), Actor(1)]);
    assert_eq!(seats(hidden.asked_publicly()), vec![Actor(0)]);
    let open = stash_held(false);
    assert_eq!(seats(open.asked()), vec![Actor(0), Actor(1)]);
    assert_eq!(seats(open.asked_publicly()), vec![Actor(0), Actor(1)]);
}

/// A position the game cannot go on from is refused naming its line
/// (review18 N1; rules version 6): the turn of a seat whose students are
/// all dead (nobody to act), or, without a `turn` line, a seat with no
/// living student to be given its mission at the setup (the game would wait
/// on it forever). A gang wiped out while another plays is a position like
/// any other. A battle started under version 5 opens as it was.
#[test]
fn position_a_seat_with_no_living_student_neither_takes_the_turn_nor_stalls_the_setup() {
    let dead =
        "student tabby A1 dead\nstudent whiskers A1 dead\n# the last\nstudent patch A1 dead\n";
    let why = refused(&format!("{dead}turn nine_lives actions\n"));
    assert!(
        why.contains("position line 5") && why.contains("whose students are all dead"),
        "{why}"
    );
    let why = refused(&format!("{dead}turn 1 draw\n"));
    assert!(why.contains("position line 5"), "{why}");
    let why = refused(dead);
    assert!(
        why.contains("position line 4")
            && why.contains("seat 1 (Nine Lives)")
            && why.contains("'turn' line"),
        "{why}"
    );
    let s = from(&format!("{dead}turn 2 actions\n"));
    assert_eq!((s.state().current, s.state().phase), (1, Phase::Actions));
    assert!(s.state().living(0).next().is_none());
    let two_dead = from("student tabby A1 dead\nstudent whiskers A1 dead\n");
    assert_eq!(two_dead.state().phase, Phase::Assign);
    let mut config = gangs(&["nine_lives", "fly_boyz"]);
    config.scenario_text = Some(dead.into());
    Saucers::setup_recorded(&config, 5).expect("a battle of version 5 opens as it was");
}
