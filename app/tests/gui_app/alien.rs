//! Alien (Górski) on its board: a character's six action points clicked
//! on the board and in the side panel, a shot with two charges, a grenade
//! thrown by its landing tile then its area (side panel and board), the APC,
//! the Alien player's hatching split, the hot-seat curtain over the task
//! cards, a battle started from the New battle dialog, and the board's
//! snapshots.

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use serde_json::json;
use xenolog_engine::games::alien::data::{Item, Tile};
use xenolog_engine::games::alien::state::{AlienState, Phase, Pos, QueenOption};
use xenolog_engine::games::alien::{Alien, AlienCommand as C, AlienEvent};
use xenolog_engine::{Actor, LegalCommand, Session, Viewer};

use super::support::{
    BOARD, app, app_on, click, click_on_board, give_on_board, legal, no_notices, shot, spec,
    type_into,
};
use crate::gui::app::App;
use crate::gui::side::sentence;
use crate::gui::store::DiceMode;

/// A two-player battle of Alien from a position file.
fn battle(position: &str, dice_mode: DiceMode, seed: u64) -> Harness<'static, App> {
    let config = json!({ "scenario_text": position });
    app_on(spec("alien", seed, config, "Alien test", dice_mode))
}

fn session<'a>(h: &'a Harness<'_, App>) -> &'a Session<Alien> {
    h.state()
        .open
        .as_ref()
        .unwrap()
        .battle
        .as_any()
        .downcast_ref::<Session<Alien>>()
        .expect("an Alien battle")
}

fn st(h: &Harness<'_, App>) -> AlienState {
    session(h).state().clone()
}

fn tile(s: &AlienState, name: &str) -> Tile {
    s.content.base.tile(name).unwrap()
}

fn ch(s: &AlienState, id: &str) -> usize {
    s.characters
        .iter()
        .position(|c| s.content.characters[usize::from(c.card)].id == id)
        .unwrap()
}

/// The events of the last entry.
fn last_events(h: &Harness<'_, App>) -> Vec<AlienEvent> {
    let s = session(h);
    let last = s.records().len() as u64 - 1;
    s.events(last)
}

/// The legal command (as the view offers it) that `pick` chooses.
fn find(h: &Harness<'_, App>, pick: impl Fn(&C) -> bool) -> LegalCommand {
    let legal = legal(h);
    legal
        .iter()
        .find(|c| serde_json::from_value::<C>(c.command.clone()).is_ok_and(|x| pick(&x)))
        .cloned()
        .unwrap_or_else(|| {
            panic!(
                "no such command among {:?}",
                legal.iter().map(|c| &c.text).collect::<Vec<_>>()
            )
        })
}

fn task_text(h: &Harness<'_, App>, n: u8) -> String {
    st(h)
        .content
        .tasks
        .iter()
        .find(|t| t.n == n)
        .map(|t| t.text.clone())
        .expect("a task card")
}

/// Give a command as a player does: its target on the board, or its
/// button in the side panel (opening its folded group first).
fn press(h: &mut Harness<'_, App>, cmd: &LegalCommand) {
    if cmd.target.is_some() {
        give_on_board(h, cmd);
        return;
    }
    let label = sentence(&cmd.text);
    if h.query_by_label(&label).is_none() {
        let group = {
            let ob = h.state().open.as_ref().unwrap();
            ob.board.action_group(cmd).expect("a grouped command").1
        };
        h.get_by_label_contains(&format!("{group} (")).click();
        h.run();
    }
    click(h, &label);
}

fn entered_dice(h: &mut Harness<'_, App>, dice: &str) {
    h.get_by_label("Enter your dice");
    type_into(h, "Dice rolled:", dice);
    click(h, "Play with these dice");
    no_notices(h);
}

#[test]
fn a_characters_full_turn_of_six_points_three_moves_a_charge_taken_a_move_and_a_shot() {
    // Vasquez's example (4): three tiles to the explosive magazine on C10,
    // an explosive charge taken, one tile more, one shot.
    let mut h = battle(
        "character vasquez at E9\nalien 2 at B8\n",
        DiceMode::Rolled,
        4,
    );
    let s = st(&h);
    let v = ch(&s, "vasquez");
    click_on_board(&mut h, "Vasquez");
    assert_eq!(h.state().look.selected(), Some("char:vasquez"));
    // Her reach for six points is marked on the board.
    let marks = {
        let ob = h.state().open.as_ref().unwrap();
        ob.board.marks(ob.battle.as_ref(), Some("char:vasquez"))
    };
    assert!(marks.iter().any(|m| matches!(m, crate::gui::boards::Mark::Area { tip, .. } if tip.starts_with("C10: 3 action points"))));
    // A click on C10, three tiles away, walks one tile towards it each time
    // (only the next tile is lit; the reach shows the rest).
    let c10 = tile(&s, "C10");
    for _ in 0..3 {
        let p = {
            let view = h.get_by_label(BOARD).rect();
            let ob = h.state().open.as_ref().unwrap();
            let xf = crate::gui::board::Xform::new(&ob.view.scene, view, &h.state().look.camera);
            let (x, y) = s.content.base.xy(c10);
            xf.to_screen([(x as f32 + 0.5) * 40.0, (y as f32 + 0.5) * 40.0])
        };
        h.hover_at(p);
        h.run();
        h.drag_at(p);
        h.run();
        h.drop_at(p);
        h.run();
        no_notices(&h);
    }
    assert_eq!(st(&h).characters[v].pos, Pos::Tile(c10));
    assert_eq!(st(&h).characters[v].ap, 3);
    let take = find(&h, |c| {
        matches!(
            c,
            C::Take {
                item: Item::Explosive,
                ..
            }
        )
    });
    press(&mut h, &take);
    no_notices(&h);
    let d10 = tile(&s, "D10");
    let step = find(&h, |c| matches!(c, C::Move { to, .. } if *to == d10));
    press(&mut h, &step);
    let fire = find(&h, |c| matches!(c, C::Shoot { charges: 1, .. }));
    press(&mut h, &fire);
    no_notices(&h);
    let after = st(&h);
    let c = &after.characters[v];
    assert_eq!(c.pos, Pos::Tile(d10));
    assert_eq!(c.ap, 0, "six points used");
    assert!(c.has(xenolog_engine::games::alien::data::Kind::Explosive));
    assert!(c.items.contains(&Item::Ammo(3)), "{:?}", c.items);
    assert!(
        last_events(&h)
            .iter()
            .any(|e| matches!(e, AlienEvent::Shot { charges: 1, .. }))
    );
    // Nothing is left to her this phase: no command of hers is offered.
    assert!(
        legal(&h)
            .iter()
            .all(|c| c.subject.as_deref() != Some("char:vasquez")),
        "no points left"
    );
    h.get_by_label_contains("Cannot act now: Vasquez has used all six action points");
}

#[test]
fn a_shot_with_two_charges_is_chosen_by_clicking_the_alien_and_rolled_by_hand() {
    // Hicks's example (6): 5 + 3 x 2 - 4 x 2 (a duct) = +3; a 5: the alien
    // loses 1 and withdraws 1.
    let mut h = battle(
        "character hicks at N6 items rifle ammo\nalien 4 at P6\n",
        DiceMode::Entered,
        1,
    );
    let s = st(&h);
    let hk = ch(&s, "hicks");
    click_on_board(&mut h, "Hicks");
    let two = find(&h, |c| matches!(c, C::Shoot { charges: 2, .. }));
    assert_eq!(two.target.as_deref(), Some("alien:1"));
    // One charge to four: the click on the alien asks how many.
    let board = h.get_by_label(BOARD).rect();
    h.get_all_by_label_contains("shoots alien 1 with a pulse rifle")
        .find(|n| board.contains(n.rect().center()))
        .expect("the alien is lit on the board")
        .click();
    h.run();
    h.get_by_label("Which command?");
    // The dialog's button (the side panel lists the same command).
    h.get_all_by_label(&two.text)
        .last()
        .expect("the dialog offers two charges")
        .click();
    h.run();
    entered_dice(&mut h, "5");
    let events = last_events(&h);
    assert!(
        events.iter().any(|e| matches!(
            e,
            AlienEvent::Shot {
                charges: 2,
                force: 3,
                roll: 5,
                ..
            }
        )),
        "{events:?}"
    );
    let after = st(&h);
    assert_eq!(
        after.characters[hk].items,
        vec![Item::Weapon(1), Item::Ammo(2)]
    );
    assert_eq!(after.characters[hk].ap, 4, "a charge is a point");
    let a = after.alien(1).expect("it survives");
    assert_eq!(a.strength, 3);
    assert_eq!(
        after.content.base.distance(a.at, tile(&s, "P6")),
        1,
        "withdrew one tile"
    );
}

/// The side panel's buttons whose words start with `head`, each with the
/// number it ends with ("Land on K9 (12)": 12).
fn counted_buttons(h: &Harness<'_, App>, head: &str) -> Vec<(String, usize)> {
    h.get_all_by_label_contains(head)
        .filter_map(|n| {
            let label = n.accesskit_node().label()?;
            let (words, n) = label.strip_suffix(')')?.rsplit_once(" (")?;
            Some((words.to_owned(), n.parse().ok()?))
        })
        .collect()
}

/// The commands the open "Which command?" dialog gives: each one the rules
/// offer now (nothing illegal), none twice.
fn dialog_commands_are_legal(h: &Harness<'_, App>) {
    let Some(crate::gui::dialogs::Dialog::Choose(ways)) = h.state().messages.dialog() else {
        panic!("no Which command? dialog");
    };
    for (i, w) in ways.iter().enumerate() {
        assert!(
            legal(h)
                .iter()
                .any(|c| c.command == w.command && c.actor == w.actor),
            "{} is not a legal command",
            w.text
        );
        assert!(
            ways[..i].iter().all(|o| o.command != w.command),
            "{} twice",
            w.text
        );
    }
}

/// The "Which command?" dialog's options, in its order.
fn dialog_options(h: &Harness<'_, App>) -> Vec<String> {
    h.get_by_label("Which command?");
    let by = egui_kittest::kittest::By::new()
        .predicate(|n| matches!(n.role(), Role::Button | Role::Dialog))
        .include_labels();
    h.get_all(by)
        .skip_while(|n| n.accesskit_node().role() != Role::Dialog)
        .filter_map(|n| n.accesskit_node().label())
        .take_while(|l| l != "Cancel")
        .collect()
}

#[test]
fn clause_5_a_grenade_in_a_room_is_thrown_by_its_landing_tile_then_its_area() {
    // The L K8, K9, L9 of the rules' test (5): chosen in the side panel by
    // where it lands, then by its tiles and whom it kills.
    let mut h = battle(
        "character hicks at I9 items rifle ammo grenade\nalien 4 at K8\nalien 4 at L9\n",
        DiceMode::Rolled,
        3,
    );
    let s = st(&h);
    let hk = ch(&s, "hicks");
    click_on_board(&mut h, "Hicks");
    let throws: Vec<(LegalCommand, C)> = legal(&h)
        .iter()
        .filter_map(|c| match serde_json::from_value::<C>(c.command.clone()) {
            Ok(t @ C::Throw { .. }) => Some((c.clone(), t)),
            _ => None,
        })
        .collect();
    let shots = legal(&h)
        .iter()
        .filter(|c| {
            matches!(
                serde_json::from_value(c.command.clone()),
                Ok(C::Shoot { .. })
            )
        })
        .count();
    assert!(throws.len() > 50, "{} throws", throws.len());
    // The Shoot group holds the shots alone; the throws are a group of
    // their own, a button per landing tile.
    let groups = counted_buttons(&h, "Shoot (");
    assert_eq!(groups, vec![("Shoot".to_owned(), shots)]);
    assert!(shots <= 8, "{shots} shots");
    click(&mut h, &format!("Throw a grenade ({})", throws.len()));
    let landings = counted_buttons(&h, "Land on ");
    let mut tiles: Vec<String> = throws
        .iter()
        .map(|(_, t)| match t {
            C::Throw { at, .. } => format!("Land on {}", s.content.base.name(*at)),
            _ => unreachable!(),
        })
        .collect();
    tiles.sort();
    tiles.dedup();
    let mut shown: Vec<String> = landings.iter().map(|(w, _)| w.clone()).collect();
    shown.sort();
    assert_eq!(shown, tiles, "one button per landing tile");
    // Every throw is behind one of them, and no other.
    assert_eq!(landings.iter().map(|(_, n)| n).sum::<usize>(), throws.len());
    // The L lands where the rules offer it; its button asks which area.
    let mut l = vec![tile(&s, "K8"), tile(&s, "K9"), tile(&s, "L9")];
    l.sort_unstable();
    let (cmd, at) = throws
        .iter()
        .find_map(|(c, t)| match t {
            C::Throw { at, area, .. } if *area == l => Some((c.clone(), *at)),
            _ => None,
        })
        .expect("the L is offered");
    let here = s.content.base.name(at);
    // Under the landing tile nearest its centre, next to K8, and no other.
    assert!(
        s.content.base.adjacent(at, tile(&s, "K8")),
        "the L near K8 is listed under {here}"
    );
    let under = throws
        .iter()
        .filter(|(_, t)| matches!(t, C::Throw { area, .. } if *area == l))
        .count();
    assert_eq!(under, 1, "the L is listed under one landing tile");
    let (_, n) = landings
        .iter()
        .find(|(w, _)| *w == format!("Land on {here}"))
        .cloned()
        .unwrap();
    click(&mut h, &format!("Land on {here} ({n})"));
    let options = dialog_options(&h);
    dialog_commands_are_legal(&h);
    assert_eq!(options.len(), n, "{options:?}");
    // Each option names its three tiles; the L names both aliens it kills.
    let words = "K8, K9, L9: kills alien 1 (strength 4) on K8 and alien 2 (strength 4) on L9";
    assert!(options.iter().any(|o| o == words), "{options:?}");
    assert!(
        options
            .iter()
            .all(|o| o.contains(": kills ") || o.ends_with(": strikes no one")),
        "{options:?}"
    );
    assert!(
        h.state().messages.notices().is_empty()
            && cmd.target.as_deref() == Some(&*format!("tile:{here}"))
    );
    super::support::snapshot(&mut h, "alien_grenade_areas");
    h.get_all_by_label(words).last().unwrap().click();
    h.run();
    no_notices(&h);
    let events = last_events(&h);
    assert!(
        matches!(&events[0], AlienEvent::Thrown { ch, at: a, area, .. } if usize::from(*ch) == hk && *a == at && *area == l),
        "{events:?}"
    );
    assert!(st(&h).aliens.is_empty(), "both aliens die: {events:?}");
    assert!(!st(&h).characters[hk].items.contains(&Item::Grenade));
}

#[test]
fn clause_5_a_click_on_a_landing_tile_asks_which_area_by_its_tiles_and_victims() {
    // On the board: J9, next to Hicks, is a step and a grenade's landing
    // tile; the click asks which, the areas in words.
    let mut h = battle(
        "character hicks at I9 items grenade\ncharacter bishop at I10\nalien 2 at J8\n",
        DiceMode::Rolled,
        5,
    );
    let s = st(&h);
    click_on_board(&mut h, "Hicks");
    // The alien stands on J8, a landing tile too: a click on the alien asks
    // which of J8's areas, and nothing is played until one is chosen.
    let on_j8 = legal(&h)
        .iter()
        .filter(|c| c.target.as_deref() == Some("tile:J8"))
        .count();
    assert!(on_j8 > 0);
    let before = session(&h).records().len();
    click_on_board(&mut h, "alien 1");
    let options = dialog_options(&h);
    dialog_commands_are_legal(&h);
    assert_eq!(options.len(), on_j8, "{options:?}");
    click(&mut h, "Cancel");
    assert_eq!(session(&h).records().len(), before, "nothing played");
    let j9 = tile(&s, "J9");
    let aimed: Vec<LegalCommand> = legal(&h)
        .iter()
        .filter(|c| c.target.as_deref() == Some("tile:J9"))
        .cloned()
        .collect();
    assert!(aimed.len() > 3, "{}", aimed.len());
    // The tile reads as the step and the throw with its count of areas,
    // not as one arbitrary area's throw.
    let throws = aimed
        .iter()
        .filter(|c| c.text.starts_with("Hicks throws"))
        .count();
    assert_eq!(throws, aimed.len() - 1, "one step, the rest throws");
    click_on_board(
        &mut h,
        &format!("Hicks moves to J9 or Hicks throws a grenade at J9 ({throws} areas)"),
    );
    let options = dialog_options(&h);
    dialog_commands_are_legal(&h);
    assert_eq!(options.len(), aimed.len(), "{options:?}");
    assert!(
        options.contains(&"Hicks moves to J9".to_owned()),
        "{options:?}"
    );
    // The line through J9 down the room's column kills the alien on J8;
    // the row I9, J9, K9 kills Hicks himself.
    let column = "J8, J9, J10: kills alien 1 (strength 2) on J8";
    assert!(options.iter().any(|o| o == column), "{options:?}");
    assert!(
        options
            .iter()
            .any(|o| o == "I9, J9, K9: kills Hicks himself on I9"),
        "{options:?}"
    );
    // Its hover is the engine's full sentence.
    let sentence = "Hicks throws a grenade at J9 (striking J8, J9, J10)";
    assert!(
        h.query_by_label(sentence).is_none(),
        "shown before the hover"
    );
    h.get_all_by_label(column).last().unwrap().hover();
    h.run();
    h.get_by_label(sentence);
    h.get_all_by_label(column).last().unwrap().click();
    h.run();
    no_notices(&h);
    let events = last_events(&h);
    assert!(
        matches!(&events[0], AlienEvent::Thrown { at, area, .. } if *at == j9 && *area == vec![tile(&s, "J8"), j9, tile(&s, "J10")]),
        "{events:?}"
    );
    let after = st(&h);
    assert!(after.aliens.is_empty(), "{events:?}");
    assert!(after.characters.iter().all(|c| c.alive()));
}

#[test]
fn clause_5_a_throw_is_given_on_the_board_by_its_landing_tile_then_its_area_words() {
    // `press` (the tests' player) gives a throw as a person does: a click on
    // its landing tile ("Hicks throws a grenade at K9 (n areas)"), then its
    // area's words in "Which command?": the L K8, K9, L9 kills both aliens.
    let mut h = battle(
        "character hicks at I9 items grenade\nalien 4 at K8\nalien 4 at L9\n",
        DiceMode::Rolled,
        3,
    );
    let s = st(&h);
    click_on_board(&mut h, "Hicks");
    let mut l = vec![tile(&s, "K8"), tile(&s, "K9"), tile(&s, "L9")];
    l.sort_unstable();
    let throw = find(&h, |c| matches!(c, C::Throw { area, .. } if *area == l));
    let before = session(&h).records().len();
    press(&mut h, &throw);
    no_notices(&h);
    assert_eq!(session(&h).records().len(), before + 1, "one command given");
    let events = last_events(&h);
    assert!(
        matches!(&events[0], AlienEvent::Thrown { area, .. } if *area == l),
        "{events:?}"
    );
    assert!(st(&h).aliens.is_empty(), "both aliens die: {events:?}");
}

#[test]
fn the_apc_drives_with_its_passenger_who_leaves_for_a_point_and_fuel_is_delivered() {
    let mut h = battle(
        "character hicks at apc\ncharacter hudson at I12 items fuel\napc G12 fuel 1\n",
        DiceMode::Rolled,
        2,
    );
    let s = st(&h);
    let (hk, hu) = (ch(&s, "hicks"), ch(&s, "hudson"));
    // The APC drives first: selected on the board, a lit tile next to it.
    click_on_board(&mut h, "APC");
    let h12 = tile(&s, "H12");
    let drive = find(&h, |c| matches!(c, C::Drive { to } if *to == h12));
    press(&mut h, &drive);
    no_notices(&h);
    let after = st(&h);
    assert_eq!(after.apc.at, h12);
    assert_eq!(after.characters[hk].pos, Pos::Apc, "Hicks rides along");
    // Hicks, aboard (not drawn on the board), is chosen in the side panel
    // and leaves onto a lit tile next to the APC for a point.
    click(&mut h, "Hicks");
    assert_eq!(h.state().look.selected(), Some("char:hicks"));
    let g12 = tile(&s, "G12");
    let leave = find(&h, |c| matches!(c, C::Leave { to, .. } if *to == g12));
    press(&mut h, &leave);
    no_notices(&h);
    let after = st(&h);
    assert_eq!(after.characters[hk].pos, Pos::Tile(g12));
    assert_eq!(after.characters[hk].ap, 5);
    // He may not board again this phase.
    assert!(
        !legal(&h)
            .iter()
            .any(|c| c.target.as_deref() == Some("tile:H12")
                && c.subject.as_deref() == Some("char:hicks")),
        "no re-entering in the same phase"
    );
    // Hudson next to it delivers a container: three phases more.
    click_on_board(&mut h, "Hudson");
    let fuel = find(
        &h,
        |c| matches!(c, C::Fuel { ch, .. } if usize::from(*ch) == hu),
    );
    press(&mut h, &fuel);
    no_notices(&h);
    assert_eq!(st(&h).apc.fuel, 3);
    assert!(st(&h).characters[hu].items.is_empty());
}

#[test]
fn the_alien_player_chooses_the_hatching_split_and_where_each_new_alien_goes() {
    let mut h = battle("character hicks at K9\n", DiceMode::Rolled, 6);
    let end = find(&h, |c| matches!(c, C::EndPhase));
    click(&mut h, &sentence(&end.text));
    no_notices(&h);
    let s = st(&h);
    assert_eq!(s.phase, Phase::Hatching);
    let roll = s.hatch_roll.expect("the game rolled");
    assert!(
        roll >= 2,
        "seed 6 rolls {roll}: pick a seed that rolls 2 or more"
    );
    h.get_by_label_contains(&format!(
        "Alien Queen: split the hatching roll of {roll} into new aliens"
    ));
    // The split with the most aliens, clicked by the words of its button.
    let splits: Vec<Vec<u8>> = legal(&h)
        .iter()
        .filter_map(|c| match serde_json::from_value(c.command.clone()) {
            Ok(C::Hatch { parts }) => Some(parts),
            _ => None,
        })
        .collect();
    assert!(
        splits
            .iter()
            .all(|p| p.iter().sum::<u8>() == roll && p.iter().all(|&x| x <= 4))
    );
    let parts = splits.iter().max_by_key(|p| p.len()).unwrap().clone();
    let words: Vec<String> = parts.iter().map(u8::to_string).collect();
    click(
        &mut h,
        &format!("{} aliens of {}", parts.len(), words.join(" + ")),
    );
    no_notices(&h);
    assert_eq!(st(&h).to_place, parts);
    h.get_by_label_contains("place the new alien of strength");
    // The first on hatching place 2 (by the board), the rest on place 4
    // (by the side panel's button).
    let first = find(&h, |c| matches!(c, C::Place { hatch: 2 }));
    press(&mut h, &first);
    for _ in 1..parts.len() {
        click(&mut h, "Hatching place 4 (M14)");
    }
    no_notices(&h);
    let s = st(&h);
    assert_eq!(s.phase, Phase::Moving);
    let r6 = tile(&s, "R6");
    let m14 = tile(&s, "M14");
    let mut placed: Vec<(u8, Tile)> = s.aliens.iter().map(|a| (a.strength, a.at)).collect();
    placed.sort();
    let mut want: Vec<(u8, Tile)> = parts
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, if i == 0 { r6 } else { m14 }))
        .collect();
    want.sort();
    assert_eq!(placed, want);
}

#[test]
fn the_curtain_hides_the_task_cards_from_the_alien_player() {
    let mut h = battle(
        "points 1\ndone 6\nopen 11 17\ncharacter hicks at K9\n",
        DiceMode::Rolled,
        6,
    );
    let s = st(&h);
    let secret = |n: u8| {
        s.content
            .tasks
            .iter()
            .find(|t| t.n == n)
            .map(|t| format!("Task {n}: {}", t.text))
            .unwrap()
    };
    // The expedition is asked first: the screen is passed to it.
    h.get_by_label("Pass the screen to Expedition");
    assert!(h.query_by_label(BOARD).is_none());
    click(&mut h, "I am Expedition: show my view");
    assert_eq!(
        h.state().open.as_ref().unwrap().view.viewer,
        Viewer::Seat(Actor(1))
    );
    h.get_by_label(&secret(11));
    h.get_by_label(&secret(17));
    let end = find(&h, |c| matches!(c, C::EndPhase));
    click(&mut h, &sentence(&end.text));
    // The hatching roll puts the Alien player in front of the screen.
    h.get_by_label("Pass the screen to Alien Queen");
    click(&mut h, "I am Alien Queen: show my view");
    assert_eq!(
        h.state().open.as_ref().unwrap().view.viewer,
        Viewer::Seat(Actor(0))
    );
    h.get_by_label(BOARD);
    assert!(h.query_by_label_contains("Task 11:").is_none());
    assert!(h.query_by_label_contains("Task 17:").is_none());
    assert_eq!(
        h.get_all_by_label("A task card only the expedition may see")
            .count(),
        2
    );
    // Nor does the board's task track show them.
    let shown: Vec<String> = h
        .state()
        .open
        .as_ref()
        .unwrap()
        .view
        .scene
        .items
        .iter()
        .filter(|i| i.id.starts_with("task:"))
        .filter_map(|i| match &i.shape {
            xenolog_engine::scene::Shape::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(shown.len(), 2);
    assert!(shown.iter().all(|t| t.contains("may not see")), "{shown:?}");
    // The task done (6) is checked, and shown to all.
    h.get_by_label_contains("Done: task 6");
}

#[test]
fn the_new_battle_dialog_starts_an_alien_game_with_real_dice() {
    let mut h = app();
    click(&mut h, "New battle…");
    click(&mut h, "Alien (2-7 players)");
    // Seats and the way to kill the Queen are the game's options.
    // (The number field is the last node named by its label: "Players:"
    // also heads the group.) The way to kill the Queen is chosen by name.
    h.get_by_label("Killing the Queen:");
    h.get_by_value("Option 1: attack the Queen").click();
    h.run();
    click(&mut h, "Option 2: a number of tasks");
    h.get_all_by_label("Players:")
        .last()
        .expect("the field")
        .click();
    h.run();
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::A);
    h.run();
    h.get_all_by_label("Players:")
        .last()
        .expect("the field")
        .type_text("3");
    h.key_press(eframe::egui::Key::Enter);
    h.run();
    type_into(&mut h, "Seed:", "77");
    click(&mut h, "We roll real dice and type them in");
    shot(&mut h, "alien_new_battle_dialog");
    click(&mut h, "Start battle");
    no_notices(&h);
    let ob = h.state().open.as_ref().expect("a battle is open");
    assert_eq!(ob.summary.game, "alien");
    assert_eq!(ob.summary.dice_mode, DiceMode::Entered);
    let s = st(&h);
    assert_eq!(s.players, 3, "the Alien Queen and two expedition players");
    assert_eq!(s.option, QueenOption::Tasks(3));
    assert_eq!(
        s.characters.iter().map(|c| c.seat).collect::<Vec<_>>(),
        vec![1, 2, 1, 2, 1, 2],
        "the six characters shared round robin"
    );
    assert!(
        s.aliens.is_empty(),
        "no aliens before the first Alien phase"
    );
    assert!(
        s.characters
            .iter()
            .all(|c| matches!(c.pos, Pos::Tile(t) if s.content.base.terrain(t) == xenolog_engine::games::alien::data::Terrain::Landing))
    );
    // The expedition's cards in the side panel.
    h.get_by_label("The expedition");
    h.get_by_label_contains("Task points: 0. The Queen is alive (option 2: 3 tasks kill her)");
}

#[test]
fn board_alien_snapshot() {
    let mut h = battle(
        "turn 7\npoints 1\ndone 6\nopen 11 17\n\
         character hicks at K9 strength 4 items rifle ammo3 grenade\n\
         character hudson at O6 items rifle ammo explosive\n\
         character vasquez at apc\ncharacter gorman at outside 2 items pistol ammo suit\n\
         character bishop at I10 items medkit medkit\ncharacter apone at dead\n\
         alien 4 at Q6\nalien 3 at M8\nalien 2 at G4\nalien 1 at R6\nalien 4 at W9\n\
         apc O12 fuel 2\ncollapsed G10\nfloor disk M2\n",
        DiceMode::Rolled,
        9,
    );
    click(&mut h, "I am Expedition: show my view");
    click_on_board(&mut h, "Hicks");
    // Hicks's reach and his lines of fire are drawn.
    let marks = {
        let ob = h.state().open.as_ref().unwrap();
        ob.board.marks(ob.battle.as_ref(), Some("char:hicks"))
    };
    assert!(marks.len() > 5, "{}", marks.len());
    // The side panel scrolled to the expedition's cards and the task track.
    h.get_by_label("The expedition").scroll_to_me();
    h.run();
    h.get_by_label(&format!("Task 11: {}", task_text(&h, 11)));
    // The shots alone under Shoot; the grenade's 147 throws folded under a
    // button per landing tile.
    let count = |pick: fn(&C) -> bool| {
        legal(&h)
            .iter()
            .filter(|c| c.subject.as_deref() == Some("char:hicks"))
            .filter(|c| serde_json::from_value::<C>(c.command.clone()).is_ok_and(|x| pick(&x)))
            .count()
    };
    let shots = count(|c| matches!(c, C::Shoot { .. }));
    let throws = count(|c| matches!(c, C::Throw { .. }));
    assert_eq!((shots, throws), (3, 147));
    h.get_by_label("Shoot (3)");
    h.get_by_label("Throw a grenade (147)");
    shot(&mut h, "alien_board");
    super::support::hide_campaign_panel(&mut h);
    super::support::snapshot(&mut h, "board_alien");
}

/// Session 22's closing note: the panel copied the seat's view of the
/// state every frame behind the curtain. It makes it once for each
/// position and viewer; the next seat's view still shows its own cards.
#[test]
fn the_panel_makes_a_seats_view_once_a_position_and_the_next_seat_sees_its_own() {
    let mut h = battle(
        "points 1\ndone 6\nopen 11 17\ncharacter hicks at K9\n",
        DiceMode::Rolled,
        6,
    );
    click(&mut h, "I am Expedition: show my view");
    h.get_by_label_contains("Task 11:");
    let builds = |h: &Harness<'_, App>| h.state().open.as_ref().unwrap().view.kept_builds.get();
    let before = builds(&h);
    assert!(before >= 1, "the seat's view was made");
    for _ in 0..5 {
        h.run();
    }
    assert_eq!(
        builds(&h),
        before,
        "frames with nothing changed copy nothing"
    );
    let end = find(&h, |c| matches!(c, C::EndPhase));
    click(&mut h, &sentence(&end.text));
    click(&mut h, "I am Alien Queen: show my view");
    assert!(builds(&h) > before, "the new position's view was made");
    assert!(h.query_by_label_contains("Task 11:").is_none());
    assert_eq!(
        h.get_all_by_label("A task card only the expedition may see")
            .count(),
        2
    );
}
