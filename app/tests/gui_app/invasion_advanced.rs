//! Advanced Invasion Earth in the app: the modules offered in the New
//! battle dialog with a line each, a stupidity result and a fear test in
//! the log, and a group under their orders out of its player's hands (no
//! command offered for it on the board or in the side panel).

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use serde_json::json;
use xenolog_engine::games::invasion::advanced::{Module, Order};
use xenolog_engine::games::invasion::{Invasion, InvasionState};

use super::support::{app, app_on, click, game_state, give, legal, no_notices, shot, spec};
use crate::gui::app::App;
use crate::gui::store::DiceMode;

/// Brutes who pass their stupidity check only on a 6, and a frightening
/// Horror (fear in humans, no sight needed) against plain humans.
const BRUTES: &str = "faction brutes \"Brutes\"\ncolour 150 90 40\nlink no\ncards 5 3 1\n\
model brute \"Brute\" species brute shoot 2 move 8 kill 9 12 15 stupid 6\n\
model horror \"Horror\" species horror shoot 2 move 8 kill 9 12 15 fear human\n\
group a \"Brute pack\" brute brute brute\n\
group h \"Horror\" horror\n";
const HUMANS: &str = "faction humans \"Home Guard\"\ncolour 40 60 200\nlink no\ncards 5 3 1\n\
model guard \"Guardsman\" species human shoot 1 move 8 kill 6 9 12\n\
group x \"Platoon\" guard guard guard guard\n";

const FIELD: &str = "scenario \"Open field\"\ntable 48 24\nrounds 0\nzone 0 0 8 24\nzone 40 0 48 24\n\
faction brutes\nfaction humans\nvictory all last_standing \"Be the last faction on the table\"\n";

fn battle(seed: u64) -> Harness<'static, App> {
    battle_with(
        seed,
        json!({
            "scenario_text": FIELD,
            "factions": ["brutes", "humans"],
            "faction_texts": [BRUTES, HUMANS],
            "stupidity": true,
            "fear": true,
        }),
    )
}

fn battle_with(seed: u64, config: serde_json::Value) -> Harness<'static, App> {
    app_on(spec(
        "invasion",
        seed,
        config,
        "Advanced test",
        DiceMode::Rolled,
    ))
}

fn st(h: &Harness<'_, App>) -> InvasionState {
    game_state::<Invasion>(h)
}

/// Every event of the line in words.
/// Then an event of the open line's log is one `says` holds of.
fn assert_logged(h: &Harness<'_, App>, says: impl Fn(&str) -> bool) {
    let log = log(h);
    assert!(log.iter().any(|w| says(w)), "{log:#?}");
}

fn log(h: &Harness<'_, App>) -> Vec<String> {
    let ob = h.state().open.as_ref().unwrap();
    let b = ob.battle.as_ref();
    let line = b.path_to(b.cursor());
    b.entry_texts(&line)
        .into_iter()
        .flat_map(|t| t.events)
        .collect()
}

/// End cards by clicking "end the card" (or, when the rules ask for
/// something else first, such as casualties, give the first command
/// offered) until `done` holds, at most 40 times; whether it came to hold.
fn end_cards_until(h: &mut Harness<'_, App>, done: impl Fn(&Harness<'_, App>) -> bool) -> bool {
    for _ in 0..40 {
        if done(h) {
            return true;
        }
        if h.query_by_label("end the card").is_some() {
            click(h, "end the card");
        } else {
            let first = legal(h).first().cloned();
            let c = first.unwrap_or_else(|| panic!("nothing to do: {:#?}", log(h)));
            give(h, &c);
        }
    }
    false
}

/// End cards (as [`until`]) until a command offered reads `words`.
fn until_offered(h: &mut Harness<'_, App>, words: &str) {
    let offered = end_cards_until(h, |h| legal(h).iter().any(|c| c.text.contains(words)));
    assert!(offered, "no command reads {words:?}");
}

/// End cards (as [`end_cards_until`]) until `words` is in the log.
fn until(h: &mut Harness<'_, App>, words: &str) {
    let logged = end_cards_until(h, |h| log(h).iter().any(|w| w.contains(words)));
    assert!(logged, "no {words:?} in the log: {:#?}", log(h));
}

/// The Home Guard (seat 0) against the Brutes on the open field with the
/// module `module` (seed 3), cards ended until a command reads `offered`;
/// then the platoon selected among the groups that can act: its commands
/// in the side panel.
fn platoon_offered(module: &str, offered: &str) -> Harness<'static, App> {
    let mut h = battle_with(
        3,
        json!({
            "scenario_text": FIELD,
            "factions": ["humans", "brutes"],
            "faction_texts": [BRUTES, HUMANS],
            module: true,
        }),
    );
    until_offered(&mut h, offered);
    let platoon = h
        .get_all_by_label_contains("Platoon")
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
        .unwrap_or_else(|| {
            let names: Vec<String> = h
                .get_all_by_role(egui::accesskit::Role::Button)
                .filter_map(|n| n.accesskit_node().label())
                .collect();
            panic!("no button for the platoon among {names:?}")
        });
    platoon.click();
    h.run();
    h
}

#[test]
fn new_battle_offers_the_advanced_modules_each_with_a_line_on_what_it_does() {
    let mut h = app();
    click(&mut h, "New battle…");
    click(&mut h, "Alien Invasion (2-6 players)");
    // The form scrolls: down to the modules, past the table's options.
    for label in [
        "Played at a real table",
        "Sewers",
        "Advanced Invasion Earth:",
    ] {
        h.get_by_label(label).scroll_to_me();
        h.run();
    }
    for m in Module::ALL {
        h.get_by_label(m.name());
        h.get_by_label(m.help());
    }
    click(&mut h, "Stupidity");
    shot(&mut h, "invasion_advanced_new_battle");
    // Start battle stays on the screen below the scrolled form.
    let screen = h.ctx.content_rect();
    assert!(screen.contains(h.get_by_label("Start battle").rect().center()));
    click(&mut h, "Start battle");
    no_notices(&h);
    assert_eq!(st(&h).advanced.modules, [Module::Stupidity]);
}

#[test]
fn a_stupidity_result_is_in_the_log_and_its_group_is_out_of_its_players_hands() {
    // The first seed whose first check fails (a 6 is needed to pass).
    let (mut h, words) = (12..40)
        .map(|seed| {
            let mut h = battle(seed);
            until(&mut h, "Stupidity check for Brutes Brute pack");
            let words = log(&h);
            (h, words)
        })
        .find(|(_, w)| w.iter().any(|x| x.ends_with(": failed")))
        .expect("a seed whose check fails");
    shot(&mut h, "invasion_stupidity");
    assert!(
        h.get_all_by_label_contains("Tests at the start of the Brutes")
            .next()
            .is_some(),
        "the check's entry in the log table"
    );
    let stricken = words
        .iter()
        .find(|w| w.contains(" is stricken: "))
        .expect("a model stricken, in words");
    assert!(stricken.starts_with("Brute "), "{stricken}");
    let s = st(&h);
    let pack = 0;
    // Whatever it was made to do, its player is offered nothing for it.
    let ob = h.state().open.as_ref().unwrap();
    let offered: Vec<&String> = ob
        .view
        .legal
        .iter()
        .filter(|c| c.command.to_string().contains("\"group\":0"))
        .map(|c| &c.text)
        .collect();
    assert!(offered.is_empty(), "{offered:?}");
    assert!(!s.may_act(pack));
    shot(&mut h, "invasion_stupidity");
}

#[test]
fn a_fear_test_is_in_the_log_and_a_1_to_3_ends_the_tests() {
    // The platoon faces the Horror from the start: it tests on its first card.
    let mut h = battle(5);
    until(
        &mut h,
        "Fear test for Home Guard Platoon facing Brutes Horror",
    );
    h.get_by_label_contains("Fear test for Home Guard Platoon");
    let words = log(&h);
    let test = words
        .iter()
        .find(|w| w.starts_with("Fear test for Home Guard Platoon"))
        .unwrap();
    let s = st(&h);
    let platoon = 2;
    let brave = test.ends_with("BRAVE HEART, BRAVE MIND");
    assert_eq!(s.advanced.fearless.contains(&platoon), brave, "{test}");
    if test.ends_with("FREEZE") {
        assert_eq!(s.advanced.order(platoon), Some(Order::Nothing));
    }
    shot(&mut h, "invasion_fear");
}

#[test]
fn suppressing_fire_is_offered_for_the_selected_group_and_its_result_is_in_the_log() {
    // The platoon selected: its commands, suppressing fire among them, in
    // the side panel.
    let mut h = platoon_offered("suppression", "lay down suppressing fire");
    assert!(
        h.query_by_label_contains("Suppressing fire (").is_some(),
        "a folding list of suppressing fire"
    );
    shot(&mut h, "invasion_suppression_offered");
    click(
        &mut h,
        "Platoon lay down suppressing fire at Brutes Brute pack",
    );
    let words = log(&h);
    let line = words
        .iter()
        .find(|w| w.starts_with("Suppressing fire, 4D6 at Brutes Brute pack in the open"))
        .unwrap_or_else(|| panic!("no suppressing fire in the log: {words:#?}"));
    // The result in the text's terms, and the state agrees.
    let s = st(&h);
    let pack = s
        .groups
        .iter()
        .position(|g| g.name == "Brute pack")
        .unwrap() as u16;
    let pinned = line.contains("pinned down: Brutes Brute pack");
    assert_eq!(s.advanced.suppressed.contains(&pack), pinned, "{line}");
    // The board says so beside the group.
    let scene = &h.state().open.as_ref().unwrap().view.scene;
    assert_eq!(
        scene.find(&format!("status:{pack}")).is_some(),
        pinned,
        "{line}"
    );
    assert!(
        line.contains("(suppresses from 5, strikes from 13)"),
        "9 to kill a Brute in the open, 4 dice: {line}"
    );
    shot(&mut h, "invasion_suppression");
}

#[test]
fn a_laying_in_wait_shot_is_offered_and_fired_in_the_other_sides_card() {
    let mut h = platoon_offered("laying_in_wait", "lay in wait to fire");
    click(&mut h, "Platoon lay in wait to fire");
    assert_logged(&h, |w| {
        w.starts_with("Home Guard Platoon lays in wait to fire")
    });
    // On to the Brutes' card; the Brute pack moves (in the open, into the
    // platoon's sight).
    for _ in 0..10 {
        let view = &h.state().open.as_ref().unwrap().view;
        let brutes_move = view
            .legal
            .iter()
            .find(|c| c.actor.0 == 1 && c.text.contains("move Brute pack"))
            .cloned();
        let done = brutes_move.is_some();
        let next = brutes_move.or_else(|| {
            view.legal
                .iter()
                .find(|c| c.text.ends_with("end the card"))
                .or(view.legal.first())
                .cloned()
        });
        let c = next.expect("a command");
        give(&mut h, &c);
        if done {
            break;
        }
    }
    assert_logged(&h, |w| {
        w.contains("comes into the sight of Home Guard Platoon, laying in wait")
    });
    // The Home Guard is asked, in the Brutes' card: spring it or let it pass.
    h.get_by_label_contains("Home Guard to act");
    shot(&mut h, "invasion_ambush_offered");
    // Offered on the side panel and on the board (the target highlighted).
    let spring = "Platoon spring their ambush on Brutes Brute pack";
    let board = h.get_by_label(super::support::BOARD).rect();
    assert_eq!(h.get_all_by_label(spring).count(), 2);
    h.get_all_by_label(spring)
        .find(|n| !board.contains(n.rect().center()))
        .expect("the side panel's button")
        .click();
    h.run();
    let words = log(&h);
    assert!(
        words
            .iter()
            .any(|w| w == "Home Guard Platoon springs its ambush on Brutes Brute pack, out of turn"),
        "{words:#?}"
    );
    assert!(
        words
            .iter()
            .any(|w| w
                .contains("(-1 a die: Home Guard Platoon fires from laying in wait, not aimed)")),
        "{words:#?}"
    );
    // The Brutes' card goes on.
    h.get_by_label_contains("Brutes to act");
    shot(&mut h, "invasion_ambush");
}
