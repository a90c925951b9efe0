//! The two-player variant of Invaders From Dimension X!: the decisions the
//! rules put to a player between the usual turns (a tie the Kay'otz player
//! breaks, a chit to choose) are shown with who decides and why, and are
//! taken by a click.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use serde_json::json;
use xenolog_engine::Actor;

use super::support::{
    BOARD, app_on, click, click_on_board, legal, no_notices, position, shot, spec, type_into,
};
use crate::gui::app::App;
use crate::gui::command::AppCommand;
use crate::gui::store::DiceMode;

/// A two-player battle of a small scenario on Mapzone Alpha.
fn variant(lines: &str, dice_mode: DiceMode) -> Harness<'static, App> {
    let text = format!(
        "scenario \"test\"\nmap alpha\nother_kayotz aside\ncup lull\nentry 111 112 113\n{lines}\n"
    );
    let config = json!({ "scenario": "", "scenario_text": text, "two_player": true });
    let h = app_on(spec("dimx", 1, config, "Variant test", dice_mode));
    assert_eq!(h.state().open.as_ref().unwrap().battle.game_id(), "dimx");
    h
}

fn to_move(h: &Harness<'_, App>) -> Option<Actor> {
    h.state().open.as_ref().unwrap().battle.to_move()
}

/// The labels of the choices the board offers (the chits to enact, ...).
fn choice_labels(h: &Harness<'_, App>) -> Vec<String> {
    let ob = h.state().open.as_ref().unwrap();
    ob.view
        .legal
        .iter()
        .filter_map(|c| ob.board.choice_label(ob.battle.as_ref(), c))
        .map(|(label, _)| label)
        .collect()
}

/// The entry at the cursor, in words (the one just played).
fn entry_at_cursor(h: &Harness<'_, App>) -> xenolog_engine::EntryText {
    let b = h.state().open.as_ref().unwrap().battle.as_ref();
    b.entry_texts(&[b.cursor().unwrap()]).remove(0)
}

/// HQ1's request for reinforcements, as offered.
fn hq1_request(h: &Harness<'_, App>) -> xenolog_engine::LegalCommand {
    legal(h)
        .iter()
        .find(|c| c.command == json!({"request_reinforcements": {"unit": "HQ1"}}))
        .cloned()
        .expect("HQ1 may request reinforcements")
}

/// A rolled battle set up as `setup` says, the Marine Action Phase ended
/// by its button.
fn marine_phase_ended(setup: &str) -> Harness<'static, App> {
    let mut h = variant(setup, DiceMode::Rolled);
    click(&mut h, "Ends the Marine Action Phase; the Kay'otz activate");
    h
}

#[test]
fn a_tie_the_kayotz_player_breaks_is_shown_and_taken_by_a_click_on_the_board() {
    let mut h = variant("marine SC1 at 111\nmarine MS1 at 244", DiceMode::Entered);
    click_on_board(&mut h, "Scout SC1");
    let jump = legal(&h)
        .iter()
        .find(|c| c.subject.as_deref() == Some("unit:SC1") && c.text.ends_with("jump pack to 225"))
        .cloned()
        .expect("SC1 may jump to 225");
    // Hex 225 takes a Full Move, a jump and a Shoot and Scoot jump: the
    // click asks which.
    let board = h.get_by_label(BOARD).rect();
    h.get_all_by_label_contains("to 225 (")
        .find(|n| board.contains(n.rect().center()))
        .expect("hex 225 is a target on the board")
        .click();
    h.run();
    h.get_by_label("Which command?");
    click(&mut h, &jump.text);
    // C.2: a 2 scatters the jump; the hexes around 225 tie.
    h.get_by_label("Enter your dice");
    type_into(&mut h, "Dice rolled:", "2");
    click(&mut h, "Play with these dice");
    no_notices(&h);
    assert_eq!(to_move(&h), Some(Actor(1)), "the Kay'otz player decides");

    // Who decides and why, and the unit selected so its hexes light up.
    h.get_by_label("Kay'otz to act");
    h.get_by_label("Kay'otz player: choose where Scout SC1 lands");
    h.get_by_label_contains("its jump scattered (C.2)");
    assert_eq!(h.state().look.selected(), Some("unit:SC1"));
    shot(&mut h, "dimx_tie");
    let places: Vec<_> = legal(&h).to_vec();
    assert!(places.len() > 1, "{places:?}");
    let pick = places.last().unwrap();
    let hex = pick.target.clone().unwrap();
    assert!(hex.starts_with("hex:"), "{hex}");

    // A click on a highlighted hex breaks the tie.
    let before = position(&h).1;
    click_on_board(&mut h, &pick.text);
    no_notices(&h);
    assert_eq!(position(&h).1, before + 1);
    assert_eq!(to_move(&h), Some(Actor(0)), "back to the Marine player");
    assert!(h.query_by_label_contains("choose where").is_none());
    let entry = entry_at_cursor(&h);
    assert_eq!(entry.command, pick.text);
    assert!(
        pick.text.ends_with(hex.trim_start_matches("hex:")),
        "{}",
        pick.text
    );
}

#[test]
fn after_a_successful_recon_the_marine_player_chooses_a_chit_by_its_name() {
    let mut h = marine_phase_ended("marine SC1 at 225\ncup lull awakening rush_1_4\nrecon yes");
    no_notices(&h);
    assert_eq!(to_move(&h), Some(Actor(0)));
    h.get_by_label("Marine player: choose which of the two drawn chits is enacted");
    h.get_by_label_contains("The Recon succeeded (E.2)");
    h.get_by_label("Choose one:");
    shot(&mut h, "dimx_chit");
    let chits = choice_labels(&h);
    assert_eq!(chits.len(), 2, "{chits:?}");
    assert!(chits.iter().all(|c| c.starts_with("Enact \"")), "{chits:?}");
    let name = chits[1]
        .trim_start_matches("Enact \"")
        .trim_end_matches('"')
        .to_owned();
    click(&mut h, &chits[1]);
    no_notices(&h);
    let entry = entry_at_cursor(&h);
    assert_eq!(
        entry.command,
        format!("the Marines choose the chit \"{name}\"")
    );
    assert!(entry.events.iter().any(|e| e.contains(&name)), "{entry:?}");
}

#[test]
fn the_kayotz_player_picks_which_unit_activates_next_by_a_button() {
    let mut h =
        marine_phase_ended("marine MS1 at 225\nkayotz K8 at 226\nkayotz K12 at 224\ncup rush_8_12");
    assert_eq!(to_move(&h), Some(Actor(1)));
    h.get_by_label("Kay'otz player: choose which unit acts next, and how");
    h.get_by_label_contains("\"Alien Rush: Units #8 through #12\": ");
    shot(&mut h, "dimx_activate");
    let legal = legal(&h).to_vec();
    let k12 = legal
        .iter()
        .find(|c| c.subject.as_deref() == Some("unit:K12"))
        .expect("K12 may act");
    let label = crate::gui::side::sentence(&k12.text);
    click(&mut h, &label);
    no_notices(&h);
    let entry = entry_at_cursor(&h);
    assert_eq!(entry.command, k12.text);
}

/// A granted reinforcement is put in front of the player, and a command that
/// would give it up asks first.
#[test]
fn a_granted_reinforcement_is_offered_and_never_thrown_away_without_asking() {
    use crate::gui::command::{Intent, PlayRequest};
    let mut h = variant(
        "marine HQ1 at 225\nmarine MS6 pool\nmarine MS7 pool",
        DiceMode::Entered,
    );
    let request = hq1_request(&h);
    let mut req = PlayRequest::new(Intent::from(&request));
    req.dice = Some(vec![5]);
    h.state_mut().push(AppCommand::Give(req));
    h.run();
    no_notices(&h);
    let entries = h.state().open.as_ref().unwrap().battle.records().len();
    // The obligation, and the pool's units as buttons, in front of the player.
    h.get_by_label("Reinforcement granted: choose a unit from the pool");
    h.get_by_label("Takes Marine Squad MS6 from the pool as a reinforcement");
    shot(&mut h, "reinforcement_granted");
    // Finishing HQ1's action would give it up: asked first, kept on "Keep it".
    let finish = h
        .get_all_by_label_contains("finishes its action")
        .next()
        .expect("a button to finish HQ1's action")
        .accesskit_node()
        .label()
        .unwrap_or_default();
    click(&mut h, &finish);
    h.get_by_label("Give this up?");
    h.get_by_label_contains("no unit comes in from the pool");
    click(&mut h, "Keep it");
    assert_eq!(
        h.state().open.as_ref().unwrap().battle.records().len(),
        entries,
        "nothing was given"
    );
    // Taking it is one click.
    click(
        &mut h,
        "Takes Marine Squad MS7 from the pool as a reinforcement",
    );
    no_notices(&h);
    assert_eq!(
        h.state().open.as_ref().unwrap().battle.records().len(),
        entries + 1
    );
}

/// Asking for real dice says what the roll decides.
#[test]
fn the_dice_prompt_says_what_the_roll_decides() {
    use crate::gui::command::{Intent, PlayRequest};
    let mut h = variant("marine HQ1 at 225\nmarine MS6 pool", DiceMode::Entered);
    let request = hq1_request(&h);
    h.state_mut()
        .push(AppCommand::Give(PlayRequest::new(Intent::from(&request))));
    h.run();
    h.get_by_label("Enter your dice");
    h.get_by_label("Die 1: whether HQ1's request for reinforcements is granted (E.6)");
}

/// Variant: "The Kay'otz player makes all the necessary die rolls for the
/// alien units": a Summon to random hexes picked by the Marine player after
/// a successful Recon waits for the Kay'otz player's dice, and the board says
/// who rolls and why; the roll offered is the Kay'otz player's and plays.
#[test]
fn the_kayotz_player_is_asked_to_roll_the_dice_of_a_summon_the_marine_player_picked() {
    let mut h = marine_phase_ended(
        "marine SC1 at 225\nkayotz K1 cup\nkayotz K2 cup\ncup terror lull\nrecon yes",
    );
    no_notices(&h);
    let chits = choice_labels(&h);
    let terror = chits
        .iter()
        .find(|c| !c.contains("Lull"))
        .expect("the Terror's chit is offered")
        .clone();
    click(&mut h, &terror);
    no_notices(&h);
    assert_eq!(to_move(&h), Some(Actor(1)), "the Kay'otz player rolls");
    h.get_by_label("Kay'otz player: roll the dice for the Kay'otz units' step");
    h.get_by_label_contains("makes all the necessary die rolls for the alien units");
    let roll = legal(&h).to_vec();
    assert_eq!(roll.len(), 1, "{roll:?}");
    assert_eq!(roll[0].command, json!("roll_for_aliens"));
    let before = position(&h).1;
    // The command's button, its words capitalised.
    let mut button = roll[0].text.clone();
    button[..1].make_ascii_uppercase();
    click(&mut h, &button);
    no_notices(&h);
    assert_eq!(position(&h).1, before + 1);
    assert!(h.query_by_label_contains("roll the dice for").is_none());
}
