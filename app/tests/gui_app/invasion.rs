//! Alien Invasion on the table board: shooting, linked fire, hand-to-hand
//! with the casualties chosen on the board, a cover class declared at a real
//! table, a move by clicking a point of the table.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::{Value, json};
use xenolog_engine::games::invasion::{Invasion, InvasionEvent, InvasionState};
use xenolog_engine::{Actor, Session};

use super::support::{
    BOARD, app, app_on, click, click_on_board, game_state, legal, no_notices, shot, spec,
};
use crate::gui::app::App;
use crate::gui::board::Xform;
use crate::gui::command::{AppCommand, Intent, NewBattleSpec, PlayRequest};
use crate::gui::store::DiceMode;

/// Two small factions of one group each, so every figure's name is its own.
const RED: &str = "faction red \"Red Army\"\ncolour 200 40 40\nlink yes\ncards 5 3 1\n\
model trooper \"Red trooper\" species human shoot 2 move 8 kill 6 9 12\n\
group a \"Alpha\" trooper trooper trooper trooper\n\
group b \"Bravo\" trooper trooper trooper trooper\n";
const BLUE: &str = "faction blue \"Blue Legion\"\ncolour 40 60 200\nlink no\ncards 5 3 1\n\
model legionary \"Blue legionary\" species human shoot 1 move 8 kill 6 9 12\n\
group x \"X-Ray\" legionary legionary legionary legionary legionary legionary\n";

const GREEN: &str = "faction green \"Green Guard\"\ncolour 40 160 60\nlink no\ncards 5 3 1\n\
model guard \"Green guard\" species human shoot 1 move 8 kill 6 9 12\n\
group y \"Yankee\" guard guard guard guard\n";

/// An open table 48" by 24"; the second zone from `b` inches.
fn scenario(b: i32) -> String {
    format!(
        "scenario \"Open field\"\ntable 48 24\nrounds 0\nzone 0 0 8 24\nzone {b} 0 {} 24\n\
         faction red\nfaction blue\nvictory all last_standing \"Be the last faction on the table\"\n",
        b + 8
    )
}

fn battle(b: i32, real_table: bool, dice_mode: DiceMode) -> Harness<'static, App> {
    battle_on(scenario(b), real_table, dice_mode)
}

fn battle_on(scenario: String, real_table: bool, dice_mode: DiceMode) -> Harness<'static, App> {
    let config = json!({
        "scenario_text": scenario,
        "factions": ["red", "blue"],
        "faction_texts": [RED, BLUE],
        "real_table": real_table,
    });
    on_config(config, "Invasion test", dice_mode)
}

/// A battle of seed 3 set up with this Invasion config.
fn on_config(config: Value, title: &str, dice_mode: DiceMode) -> Harness<'static, App> {
    app_on(spec("invasion", 3, config, title, dice_mode))
}

fn st(h: &Harness<'_, App>) -> InvasionState {
    game_state::<Invasion>(h)
}

/// The last `n` entries up to the cursor, oldest first: the log's words
/// (command and events) and the events.
fn recent(h: &Harness<'_, App>, n: usize) -> Vec<(String, Vec<InvasionEvent>)> {
    let ob = h.state().open.as_ref().unwrap();
    let s = ob
        .battle
        .as_any()
        .downcast_ref::<Session<Invasion>>()
        .unwrap();
    let path = ob.battle.path_to(ob.battle.cursor());
    let ids = &path[path.len().saturating_sub(n)..];
    ob.battle
        .entry_texts(ids)
        .into_iter()
        .zip(ids)
        .map(|(t, id)| {
            (
                format!("{} | {}", t.command, t.events.join(" | ")),
                s.events(*id),
            )
        })
        .collect()
}

/// The events of the last `n` entries, in order.
fn recent_events(h: &Harness<'_, App>, n: usize) -> Vec<InvasionEvent> {
    recent(h, n).into_iter().flat_map(|(_, e)| e).collect()
}

/// The log's words of the last `n` entries.
fn recent_words(h: &Harness<'_, App>, n: usize) -> String {
    recent(h, n)
        .into_iter()
        .map(|(w, _)| w)
        .collect::<Vec<_>>()
        .join("\n")
}

/// What the board draws over the table with `selected` selected.
fn board_marks(h: &Harness<'_, App>, selected: Option<&str>) -> Vec<crate::gui::boards::Mark> {
    let ob = h.state().open.as_ref().unwrap();
    ob.board.marks(ob.battle.as_ref(), selected)
}

/// The entries on the line.
fn entries(h: &Harness<'_, App>) -> usize {
    super::support::position(h).1
}

/// Click the node on the board whose label holds `part`.
fn click_on_board_containing(h: &mut Harness<'_, App>, part: &str) {
    let board = h.get_by_label(BOARD).rect();
    let node = h
        .get_all_by_label_contains(part)
        .find(|n| board.contains(n.rect().center()))
        .unwrap_or_else(|| panic!("nothing labelled ...{part}... on the board"));
    node.click();
    h.run();
}

/// Play a command directly (to set the scene, not what is tested).
fn play(h: &mut Harness<'_, App>, seat: u8, command: Value) {
    h.state_mut()
        .push(AppCommand::Give(PlayRequest::new(Intent {
            actor: Actor(seat),
            command,
            text: "setup".into(),
            label: None,
        })));
    h.run();
    no_notices(h);
}

/// The screen point of a table point given in inches.
fn screen_at(h: &Harness<'_, App>, x: f32, y: f32) -> eframe::egui::Pos2 {
    let view = h.get_by_label(BOARD).rect();
    let ob = h.state().open.as_ref().unwrap();
    let xf = Xform::new(&ob.view.scene, view, &h.state().look.camera);
    xf.to_screen([x * 10.0, y * 10.0])
}

/// A rolled battle of Red and Blue (seed 3: Red Single, Blue Double, Red
/// Double, Red Single), the group `label` selected by a click on the board.
fn selected_on_board(label: &str, group: &str) -> Harness<'static, App> {
    let mut h = battle(16, false, DiceMode::Rolled);
    click_on_board(&mut h, label);
    assert_eq!(h.state().look.selected(), Some(group), "{label}");
    h
}

/// Drag and drop at the table point (x, y) (inches): a move there.
fn drop_at_point(h: &mut Harness<'_, App>, x: f32, y: f32) {
    let p = screen_at(h, x, y);
    h.drag_at(p);
    h.run();
    h.drop_at(p);
    h.run();
}

/// What a Shot event says (its stored fields, read by name).
#[derive(serde::Deserialize)]
struct Shot {
    shooters: Vec<u64>,
    dice: Vec<u8>,
    total: u32,
    cover: xenolog_engine::games::invasion::model::Cover,
    kill_score: u32,
    kills: u32,
    declared: Vec<String>,
}

/// The first Shot among the events of the last `n` entries.
fn last_shot(h: &Harness<'_, App>, n: usize) -> Shot {
    let shot = recent_events(h, n)
        .into_iter()
        .find(|e| matches!(e, InvasionEvent::Shot { .. }))
        .expect("a shot");
    let stored = serde_json::to_value(shot).unwrap();
    serde_json::from_value(stored["shot"].clone()).unwrap()
}

/// The Red Double card (both first cards ended), Alpha selected and its
/// fire linked with a shot by `second`.
fn linking(second: &str) -> Harness<'static, App> {
    let mut h = battle(16, false, DiceMode::Rolled);
    play(&mut h, 0, json!("end_card"));
    play(&mut h, 1, json!("end_card"));
    assert_eq!(st(&h).current, 2, "the Red Double card");
    click_on_board(&mut h, "Red Army Alpha");
    click(&mut h, "Link fire");
    click(&mut h, &format!("Add a shot by {second}"));
    h.get_by_label(&format!("Linked shots (2 of 2 actions): Alpha, {second}"));
    h
}

fn prompt(h: &Harness<'_, App>) -> Option<String> {
    let ob = h.state().open.as_ref().unwrap();
    ob.board.prompt(ob.battle.as_ref()).map(|p| p.ask)
}

/// The target's player picks a casualty by clicking it on the board: the
/// first figure the rules let them choose. Its id.
fn pick_casualty(h: &mut Harness<'_, App>) -> String {
    let (id, name) = {
        let s = st(h);
        let ob = h.state().open.as_ref().unwrap();
        let id = ob
            .view
            .legal
            .iter()
            .find_map(|c| c.subject.as_deref()?.strip_prefix("model:"))
            .expect("a casualty to choose")
            .to_owned();
        let name = s
            .groups
            .iter()
            .flat_map(|g| &g.models)
            .find(|m| m.id == id)
            .unwrap()
            .name
            .clone();
        (id, name)
    };
    let before = entries(h);
    click_on_board(h, &name);
    no_notices(h);
    assert!(entries(h) > before, "clicking {name} removed it");
    id
}

#[test]
fn a_shot_is_given_by_clicking_the_enemy_group_and_the_target_picks_the_casualties() {
    // Seed 3 draws Red Single, Blue Double, Red Double, Red Single.
    let mut h = selected_on_board("Red Army Alpha", "group:0");
    // Its move range and its clear line of sight to X-Ray are drawn, and
    // the dice it would roll shown.
    let marks = board_marks(&h, Some("group:0"));
    assert!(
        matches!(marks.as_slice(), [crate::gui::boards::Mark::Area { .. }, crate::gui::boards::Mark::Line { dashed: false, tip, .. }] if tip.contains("can see Blue Legion X-Ray")),
        "{marks:?}"
    );
    h.get_by_label("Shoots with 8D6");
    h.get_by_label("1. Red Army Single: being played, 1 action left");

    click_on_board(&mut h, "Alpha shoot at Blue Legion X-Ray");
    no_notices(&h);
    let words = recent_words(&h, 1);
    assert!(
        words.contains(
            "8D6 at Blue Legion X-Ray: 4,1,1,6,1,2,2,5 = 22: 3 kills at 6 each in the open"
        ),
        "{words}"
    );
    assert!(recent_events(&h, 1).iter().any(|e| matches!(
        e,
        InvasionEvent::Shot { shooters, target: 2, total: 22, kill_score: 6, kills: 3, .. } if shooters == &[0]
    )));
    // Stepping through the entry marks the groups each step is about.
    let focus: Vec<Vec<String>> = {
        let ob = h.state().open.as_ref().unwrap();
        let t = ob
            .battle
            .entry_texts(&[ob.battle.cursor().unwrap()])
            .remove(0);
        ob.board
            .steps(ob.battle.as_ref(), &t)
            .into_iter()
            .map(|s| s.focus)
            .collect()
    };
    assert!(
        focus.contains(&vec!["group:0".to_owned(), "group:2".to_owned()]),
        "{focus:?}"
    );
    // The side panel shows the total, the kill score and the kills.
    h.get_by_label("8D6: 4, 1, 1, 6, 1, 2, 2, 5 = total 22");
    h.get_by_label("Kill score 6 (target in the open)");
    h.get_by_label("3 kills; the 4 left over do nothing");
    // The Blue player chooses: three clicks on the board.
    assert_eq!(
        prompt(&h).as_deref(),
        Some("Blue Legion: choose 3 casualties of Blue Legion X-Ray")
    );
    // The figures that may be removed are ringed on the board.
    let rings = board_marks(&h, None);
    assert_eq!(rings.len(), 6, "X-Ray's six figures: {rings:?}");
    shot(&mut h, "invasion_casualties");
    let mut removed = Vec::new();
    for _ in 0..3 {
        removed.push(pick_casualty(&mut h));
    }
    let s = st(&h);
    for id in &removed {
        assert!(
            s.groups[2].models.iter().any(|m| m.id == *id && !m.alive),
            "{id} is dead"
        );
    }
    assert_eq!(s.groups[2].alive_count(), 3);
    assert!(prompt(&h).is_none());
}

#[test]
fn linked_fire_collects_two_groups_shots_and_totals_them() {
    let mut h = linking("Bravo");
    click_on_board_containing(&mut h, "Alpha shoot at Blue Legion X-Ray");
    no_notices(&h);
    let words = recent_words(&h, 2);
    assert!(
        words.contains("Alpha and Bravo shoot (linked fire) at Blue Legion X-Ray"),
        "{words}"
    );
    let shot = last_shot(&h, 2);
    assert_eq!(shot.shooters, vec![0, 1]);
    assert_eq!(shot.dice.len(), 16, "8D6 and 8D6 in one total");
    let sum = shot.dice.iter().map(|&d| u32::from(d)).sum::<u32>();
    assert_eq!(shot.total, sum);
    assert_eq!(shot.kills, (shot.total / 6).min(6));
    h.get_by_label("Alpha and Bravo (linked fire) at Blue Legion X-Ray");
}

#[test]
fn hand_to_hand_is_struck_by_buttons_and_casualties_picked_on_the_board() {
    // X-Ray deploys 4" from Alpha: one move reaches base contact.
    let mut h = battle(4, false, DiceMode::Rolled);
    play(
        &mut h,
        0,
        json!({"move": {"group": 0, "to": {"x": 506, "y": 1100}}}),
    );
    assert!(
        recent_events(&h, 3)
            .iter()
            .any(|e| matches!(e, InvasionEvent::Locked { groups, .. } if groups == &[0, 2])),
        "{}",
        recent_words(&h, 3)
    );
    assert!(st(&h).groups[0].locked.is_some());
    // Blue's Double card: the melee is resolved after its actions.
    click(&mut h, "End the card");
    no_notices(&h);
    let mut struck = 0;
    let mut picked = Vec::new();
    for _ in 0..20 {
        match prompt(&h) {
            Some(p) if p.contains("strike in the hand-to-hand") => {
                click(&mut h, "Strike");
                no_notices(&h);
                struck += 1;
            }
            Some(p) if p.contains("casualt") => picked.push(pick_casualty(&mut h)),
            _ => break,
        }
    }
    assert_eq!(struck, 2, "both factions struck");
    assert!(!picked.is_empty(), "a casualty was chosen on the board");
    let s = st(&h);
    for id in &picked {
        assert!(
            s.groups
                .iter()
                .flat_map(|g| &g.models)
                .any(|m| m.id == *id && !m.alive),
            "{id} is dead"
        );
    }
    let words = recent_words(&h, 12);
    assert!(words.contains("strike"), "{words}");
    assert!(
        s.melees.is_empty() || s.groups[0].alive_count() == 0 || s.groups[2].alive_count() == 0,
        "{words}"
    );
}

#[test]
fn at_a_real_table_the_target_cover_is_declared_and_its_kill_score_used() {
    let mut h = battle(16, true, DiceMode::Entered);
    // No positions: the group is chosen in the side panel.
    click(&mut h, "Red Army Alpha");
    assert_eq!(h.state().look.selected(), Some("group:0"));
    h.get_by_label("Declare what the table shows");
    click(&mut h, "Target in a building");
    click(&mut h, "Shoot at Blue Legion X-Ray");
    h.get_by_label("Enter your dice");
    super::support::type_into(&mut h, "Dice rolled:", "6 6 6 6 6 6 6 6");
    click(&mut h, "Play with these dice");
    no_notices(&h);
    let shot = last_shot(&h, 1);
    assert_eq!(
        shot.cover,
        xenolog_engine::games::invasion::model::Cover::Building
    );
    assert_eq!((shot.kill_score, shot.kills, shot.total), (12, 4, 48));
    let declared = shot.declared;
    assert!(
        declared.iter().any(|d| d.contains("building")),
        "{declared:?}"
    );
    let words = recent_words(&h, 1);
    assert!(words.contains("declared"), "{words}");
    h.get_by_label("Kill score 12 (target in a building)");
}

#[test]
fn a_move_is_given_by_clicking_a_point_of_the_table() {
    let mut h = selected_on_board("Red Army Alpha", "group:0");
    drop_at_point(&mut h, 10.0, 8.0);
    no_notices(&h);
    let words = recent_words(&h, 2);
    assert!(words.contains("move Alpha to (10\", 8\")"), "{words}");
    let s = st(&h);
    let lead = s.groups[0].models[0].at.unwrap();
    assert!(
        (lead.x - 1000).abs() <= 2 && (lead.y - 800).abs() <= 2,
        "{lead:?}"
    );
    // The move is drawn at the cursor (the entry before it, as the card ends
    // on its own after its one action).
    h.key_press(eframe::egui::Key::ArrowLeft);
    h.run();
    let marks = board_marks(&h, None);
    assert!(
        matches!(marks.as_slice(), [crate::gui::boards::Mark::Line { tip, .. }] if tip == "Red Army Alpha moved"),
        "{marks:?}"
    );
    // Step by step: before its Moved step the group stands where it was.
    let (before, after) = {
        let ob = h.state().open.as_ref().unwrap();
        let id = ob.battle.cursor().unwrap();
        let at = |step| {
            let scene = ob
                .board
                .scene_at_step(ob.battle.as_ref(), id, step)
                .unwrap();
            scene.find("group:0").unwrap().shape.clone()
        };
        (at(0), at(1))
    };
    assert_ne!(before, after);
    // The rest are placed next to the lead.
    for m in &s.groups[0].models[1..] {
        assert!(m.at.unwrap().distance(lead) <= 300, "{m:?}");
    }
    shot(&mut h, "invasion_moved");
}

#[test]
fn the_table_board_of_a_four_faction_battle_in_mid_game() {
    let mut h = app();
    h.state_mut().push(AppCommand::NewBattle(NewBattleSpec {
        game: "invasion".into(),
        scenario: "crash_site".into(),
        seed: 11,
        config: json!({ "scenario": "crash_site" }),
        title: "Crash Site".into(),
        dice_mode: DiceMode::Rolled,
        strict: false,
    }));
    h.run();
    no_notices(&h);
    assert_eq!(st(&h).factions.len(), 4);
    // Mid-game: every group that acts moves towards the nearest enemy, and
    // shoots when it can see one.
    for k in 0..40 {
        let legal = legal(&h).to_vec();
        let pick = |word: &str| {
            legal
                .iter()
                .find(|c| c.command.get(word).is_some())
                .cloned()
        };
        let Some(c) = (if k % 4 == 3 { pick("shoot") } else { None })
            .or_else(|| pick("move"))
            .or_else(|| legal.first().cloned())
        else {
            break;
        };
        play(&mut h, c.actor.0, c.command);
    }
    let s = st(&h);
    assert!(s.round >= 2, "round {}", s.round);
    // The group of the card's faction that can act, selected: its move
    // range and lines of sight.
    let sel = legal(&h)
        .iter()
        .find_map(|c| c.subject.clone())
        .expect("a group can act");
    h.state_mut().push(AppCommand::Select(Some(sel)));
    h.run();
    shot(&mut h, "invasion_mid_game");
    super::support::hide_campaign_panel(&mut h);
    super::support::snapshot(&mut h, "board_invasion");
}

#[test]
fn new_battle_offers_a_faction_per_player_and_the_table_options() {
    let mut h = app();
    click(&mut h, "New battle…");
    click(&mut h, "Alien Invasion (2-6 players)");
    // Crash Site: four players, its factions by default.
    for seat in 1..=4 {
        h.get_by_label(&format!("Player {seat}:"));
    }
    click(&mut h, "Remove player 4");
    assert!(h.query_by_label("Player 4:").is_none());
    click(&mut h, "Played at a real table");
    click(&mut h, "Sewers");
    click(&mut h, "Start battle");
    no_notices(&h);
    let s = st(&h);
    let ids: Vec<&str> = s.factions.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["unit", "daleks", "mib"]);
    assert_eq!(s.scenario.id, "crash_site");
    assert!(s.real_table && s.sewers);
    // At a real table nothing has a position.
    assert!(s.groups.iter().all(|g| g.points().is_empty()));
}

#[test]
fn dragging_a_group_moves_it_where_it_is_dropped() {
    let mut h = selected_on_board("Red Army Alpha", "group:0");
    let lead = st(&h).groups[0].models[0].at.unwrap();
    let from = screen_at(&h, lead.x as f32 / 100.0, lead.y as f32 / 100.0);
    let to = screen_at(&h, 6.0, 12.0);
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for k in 1..=4 {
        h.hover_at(from + (to - from) * (k as f32 / 4.0));
        h.run();
    }
    let camera = h.state().look.camera;
    h.drop_at(to);
    h.run();
    no_notices(&h);
    assert_eq!(
        h.state().look.camera,
        camera,
        "the drag moved the group, not the view"
    );
    let words = recent_words(&h, 2);
    assert!(words.contains("move Alpha to (6\", 12\")"), "{words}");
    let lead = st(&h).groups[0].models[0].at.unwrap();
    assert!(
        (lead.x - 600).abs() <= 2 && (lead.y - 1200).abs() <= 2,
        "{lead:?}"
    );
}

#[test]
fn at_a_real_table_a_move_declares_its_cover_and_base_contact() {
    use xenolog_engine::games::invasion::model::Cover;
    let mut h = battle(16, true, DiceMode::Rolled);
    click(&mut h, "Red Army Alpha");
    click(&mut h, "Ends in cover");
    click(&mut h, "In base contact with Blue Legion X-Ray");
    click(&mut h, "They defend a building");
    click(&mut h, "Move at the table");
    no_notices(&h);
    let events = recent_events(&h, 2);
    assert!(
        events.iter().any(|e| matches!(
            e,
            InvasionEvent::Moved {
                group: 0,
                declared_cover: Some(Cover::Cover),
                ..
            }
        )),
        "{events:?}"
    );
    assert!(
        events.iter().any(|e| matches!(
            e,
            InvasionEvent::Locked { groups, defender: Some((2, Cover::Building)), .. } if groups == &[0, 2]
        )),
        "{events:?}"
    );
    let words = recent_words(&h, 2);
    assert!(words.contains("declared"), "{words}");
    // The side panel lists the groups as the table has them.
    h.get_by_label("Alpha: 4 figures, in cover (declared), locked in hand-to-hand");
    shot(&mut h, "invasion_real_table");
    let s = st(&h);
    assert_eq!(s.groups[0].declared_cover, Some(Cover::Cover));
    assert!(s.groups[0].locked.is_some() && s.groups[2].locked.is_some());
}

/// Help > Legend and player aid: the cover classes, the marks, and the kill
/// scores of the factions in the battle.
#[test]
fn the_player_aid_lists_the_cover_classes_and_the_factions_kill_scores() {
    let mut h = battle(16, false, DiceMode::Rolled);
    super::support::menu(&mut h, "Help", "Legend and player aid");
    h.get_by_label_contains("Building: hardened");
    click(&mut h, "Red Army");
    h.get_by_label("Red trooper: 2D6 shooting, 2D6 hand-to-hand, moves 8\"; kill 6 / 9 / 12");
    shot(&mut h, "invasion_player_aid");
}

/// Three factions in one melee: each strikes at a faction it chooses, by a
/// button naming it; the even dice go to that faction, the odd ones to the
/// other.
#[test]
fn in_a_melee_of_three_factions_the_strike_names_its_target_faction() {
    let text = "scenario \"Crossroads\"\ntable 24 24\nrounds 0\nzone 0 0 8 24\nzone 6 8 8 10\n\
                zone 6 11 8 13\nfaction red\nfaction blue\nfaction green\n\
                victory all last_standing \"Be the last faction on the table\"\n";
    let config = json!({
        "scenario_text": text,
        "factions": ["red", "blue", "green"],
        "faction_texts": [RED, BLUE, GREEN],
    });
    let mut h = on_config(config, "Three-way melee", DiceMode::Rolled);
    // Every card up to Red's is given up; Alpha then charges between the two.
    for _ in 0..8 {
        let s = st(&h);
        match s.card().and_then(|c| c.seat) {
            Some(0) => break,
            Some(seat) => play(&mut h, seat, json!("end_card")),
            None => panic!("no card: {:?}", s.drawn),
        }
    }
    let s = st(&h);
    eprintln!(
        "{:?}",
        s.groups.iter().map(|g| g.points()).collect::<Vec<_>>()
    );
    play(
        &mut h,
        0,
        json!({"move": {"group": 0, "to": {"x": 672, "y": 1063}}}),
    );
    let s = st(&h);
    let melee = s.melees.first().expect("a melee").clone();
    assert_eq!(melee.groups.len(), 3, "{}", recent_words(&h, 3));
    // Cards are given up until the melee is resolved.
    for _ in 0..12 {
        if prompt(&h).is_some_and(|p| p.contains("strike")) {
            break;
        }
        let s = st(&h);
        let seat = s.card().and_then(|c| c.seat).expect("a faction's card");
        play(&mut h, seat, json!("end_card"));
    }
    let ask = prompt(&h).expect("a strike is asked");
    let striker = ["Red Army", "Blue Legion", "Green Guard"]
        .iter()
        .position(|n| ask.starts_with(n))
        .unwrap_or_else(|| panic!("{ask}"));
    let target = (striker + 1) % 3;
    let other = (striker + 2) % 3;
    let names = ["Red Army", "Blue Legion", "Green Guard"];
    // Both other factions are offered, each by name.
    h.get_by_label(&format!("Strike at {}", names[other]));
    click(&mut h, &format!("Strike at {}", names[target]));
    no_notices(&h);
    let events = recent_events(&h, 1);
    let dice = events
        .iter()
        .find_map(|e| match e {
            InvasionEvent::Struck {
                seat,
                target: t,
                dice,
                ..
            } if usize::from(*seat) == striker && usize::from(*t) == target => Some(dice.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{}", recent_words(&h, 1)));
    let group_of = |seat: usize| {
        s.groups
            .iter()
            .position(|g| usize::from(g.seat) == seat)
            .unwrap() as u16
    };
    let shared: Vec<(u16, Vec<u8>)> = events
        .iter()
        .filter_map(|e| match e {
            InvasionEvent::Shared { group, dice, .. } => Some((*group, dice.clone())),
            _ => None,
        })
        .collect();
    let even: Vec<u8> = dice.iter().copied().filter(|d| d % 2 == 0).collect();
    let odd: Vec<u8> = dice.iter().copied().filter(|d| d % 2 == 1).collect();
    assert_eq!(shared.len(), 2, "{shared:?}");
    assert_eq!(shared[0].0, group_of(target));
    assert_eq!(shared[0].1, even, "the even dice to the target faction");
    assert_eq!(shared[1].0, group_of(other));
    let mut rest = shared[1].1.clone();
    rest.sort_unstable();
    let mut odd_sorted = odd.clone();
    odd_sorted.sort_unstable();
    assert_eq!(rest, odd_sorted, "the odd dice to the other faction");
}

/// A barn between the two sides: no line of sight, drawn dashed with what
/// blocks it, and a click on the hidden group says why in the rule's words.
#[test]
fn a_group_behind_a_building_cannot_be_shot_and_the_board_says_why() {
    let text = scenario(16).replace(
        "faction red",
        "terrain barn \"Tithe barn\" building blocks at 14 0 18 0 18 24 14 24\nfaction red",
    );
    let mut h = battle_on(text, false, DiceMode::Rolled);
    click_on_board(&mut h, "Red Army Alpha");
    let marks = board_marks(&h, Some("group:0"));
    assert!(
        marks.iter().any(|m| matches!(
            m,
            crate::gui::boards::Mark::Line { dashed: true, tip, .. }
                if tip == "Red Army Alpha cannot see Blue Legion X-Ray: blocked by Tithe barn"
        )),
        "{marks:?}"
    );
    let before = entries(&h);
    click_on_board(&mut h, "Blue Legion X-Ray");
    assert_eq!(entries(&h), before, "nothing was played");
    let status = h.state().messages.status.clone();
    assert!(
        status.starts_with("Not possible:") && status.contains("blocked by Tithe barn"),
        "{status}"
    );
}

/// Issue 28: a click inside the selected group's move range that is no place
/// its move may end (here it is the other faction's card, so the group may
/// not move now) says why in words, plays nothing and keeps the group
/// selected; it used to drop the selection silently.
#[test]
fn a_click_inside_a_move_range_that_is_no_legal_end_point_says_why_and_keeps_the_selection() {
    let mut h = selected_on_board("Blue Legion X-Ray", "group:2");
    let lead = st(&h).groups[2].models[0].at.unwrap();
    let (x, y) = (lead.x as f32 / 100.0 + 5.0, lead.y as f32 / 100.0);
    let marks = board_marks(&h, Some("group:2"));
    assert!(
        marks.iter().any(|m| matches!(
            m,
            crate::gui::boards::Mark::Area { outline, .. }
                if crate::gui::board::in_polygon(outline, [x * 10.0, y * 10.0])
        )),
        "the point 5\" from the lead is inside the move range drawn: {marks:?}"
    );
    let before = entries(&h);
    drop_at_point(&mut h, x, y);
    assert_eq!(entries(&h), before, "nothing was played");
    assert_eq!(
        h.state().look.selected(),
        Some("group:2"),
        "the group stays selected"
    );
    let status = h.state().messages.status.clone();
    assert!(
        status.starts_with("Not possible: Blue Legion X-Ray cannot end a move there: "),
        "{status}"
    );
    assert!(status.len() > "Not possible: Blue Legion X-Ray cannot end a move there: ".len());
}

/// "1. Move": any one figure of the group may be the one measured; a click
/// on it makes it the lead, and the move range is drawn from it.
#[test]
fn a_click_on_a_figure_of_the_selected_group_makes_it_lead_the_move() {
    let mut h = selected_on_board("Red Army Alpha", "group:0");
    let range = |h: &Harness<'_, App>| {
        let ob = h.state().open.as_ref().unwrap();
        ob.board
            .marks(ob.battle.as_ref(), Some("group:0"))
            .into_iter()
            .find_map(|m| match m {
                crate::gui::boards::Mark::Area { centre, .. } => Some(centre),
                _ => None,
            })
            .expect("a move range")
    };
    let first = range(&h);
    click_on_board(&mut h, "Red trooper 3");
    assert_eq!(h.state().look.selected(), Some("group:0"));
    assert!(
        h.state()
            .messages
            .status
            .contains("Red trooper 3 leads Alpha's next move"),
        "{}",
        h.state().messages.status
    );
    h.get_by_label("Leads the move: Red trooper 3");
    let third = st(&h).groups[0].models[2].at.unwrap();
    assert_ne!(range(&h), first);
    assert_eq!(
        range(&h),
        xenolog_engine::games::invasion::scene::to_scene(third)
    );
    // 8.9" from the first figure, less than 8" from the third: only a move
    // measured from the third gets there.
    drop_at_point(&mut h, 7.1, 13.7);
    no_notices(&h);
    let words = recent_words(&h, 2);
    assert!(words.contains("move Alpha to (7.1\", 13.7\")"), "{words}");
    assert!(!words.contains("stop"), "{words}");
    let s = st(&h);
    assert!(
        s.groups[0]
            .points()
            .iter()
            .any(|p| (p.x - 710).abs() <= 2 && (p.y - 1370).abs() <= 2),
        "{:?}",
        s.groups[0].points()
    );
}

/// Linked fire of one group shooting twice on a Double card, fired from the
/// side panel.
#[test]
fn linked_fire_of_one_group_twice_is_fired_from_the_side_panel() {
    let mut h = linking("Alpha");
    click(&mut h, "Fire the linked shots at Blue Legion X-Ray");
    no_notices(&h);
    let shot = last_shot(&h, 2);
    assert_eq!((shot.shooters, shot.dice.len()), (vec![0, 0], 16));
    assert!(
        h.query_by_label("Link fire").is_none(),
        "the card's actions are spent"
    );
}

/// Rules version 2: the winners of a melee take the ground they won by a
/// button; and "something new or odd" is typed in and rolled for.
#[test]
fn the_winners_of_a_stormed_building_take_the_ground_by_a_button() {
    use xenolog_engine::games::invasion::model::Cover;
    // Red against Green Guard's four (the building's 12 each: 48 kills all).
    let config = json!({
        "scenario_text": scenario(16).replace("faction blue", "faction green"),
        "factions": ["red", "green"],
        "faction_texts": [RED, GREEN],
        "real_table": true,
    });
    let mut h = on_config(config, "Invasion test", DiceMode::Rolled);
    // Red storms Green Yankee, which defends a building (declared at the table).
    play(
        &mut h,
        0,
        json!({"move": {"group": 0, "declare": {"contact": 2, "defends": "building"}}}),
    );
    // Play on until a Double or Triple card resolves the melee; force the
    // dice by playing the strikes directly: Red's 8 sixes kill all six.
    let mut offered = false;
    for _ in 0..40 {
        let s = st(&h);
        match s.pending.first() {
            Some(xenolog_engine::games::invasion::state::Pending::Strike { seat, .. }) => {
                let seat = *seat;
                h.state_mut().push(AppCommand::Give(PlayRequest {
                    dice: Some(if seat == 0 { vec![6; 8] } else { vec![1; 4] }),
                    ..PlayRequest::new(Intent {
                        actor: Actor(seat),
                        command: json!({"strike": {}}),
                        text: "strike".into(),
                        label: None,
                    })
                }));
                h.run();
                no_notices(&h);
            }
            Some(xenolog_engine::games::invasion::state::Pending::Casualties {
                seat,
                group,
                ..
            }) => {
                let id = s.groups[*group as usize].alive().next().unwrap().id.clone();
                play(&mut h, *seat, json!({"casualties": {"models": [id]}}));
            }
            Some(xenolog_engine::games::invasion::state::Pending::Occupy { .. }) => {
                offered = true;
                break;
            }
            _ => {
                if s.melees.is_empty() {
                    break;
                }
                click(&mut h, "End the card");
                no_notices(&h);
            }
        }
    }
    assert!(offered, "{}", recent_words(&h, 6));
    let ask = prompt(&h).expect("the winners are asked");
    assert!(
        ask.contains("Red Army: take the ground you won (a building)"),
        "{ask}"
    );
    shot(&mut h, "invasion_take_the_ground");
    click(&mut h, "Take the ground they won");
    no_notices(&h);
    let s = st(&h);
    assert!(s.melees.is_empty() && s.pending.is_empty());
    assert_eq!(s.groups[0].declared_cover, Some(Cover::Building));
    // Green is gone: the battle ends after the ground is taken.
    let words = recent_words(&h, 3);
    assert!(words.contains("take the ground they won | Red Army Alpha moved at the table: takes the ground its enemy held (declared: in a building)"), "{words}");
}

#[test]
fn something_new_or_odd_is_typed_in_and_rolled_for() {
    let mut h = battle(16, false, DiceMode::Rolled);
    click_on_board_containing(&mut h, "Alpha");
    click(&mut h, "Something new or odd");
    super::support::type_into(&mut h, "They attempt:", "climb the water tower");
    let before = entries(&h);
    click(&mut h, "Attempt it");
    no_notices(&h);
    assert!(entries(&h) > before);
    let n = entries(&h) - before;
    let words = recent_words(&h, n);
    assert!(
        words.contains("Alpha attempt something new: climb the water tower")
            && words.contains("try something new (climb the water tower)"),
        "{words}"
    );
    assert!(
        recent_events(&h, n)
            .iter()
            .any(|e| matches!(e, InvasionEvent::Tried { dice, .. } if dice.len() == 4))
    );
}

/// Session 21's list, item 5: on the sample's Alien Invasion table names ran
/// across figures and markers ("Mite Swarm Two" across the sewer holes,
/// "Agents L and M" across the next group's tokens). At the window the app
/// opens and at 1024x700, no name drawn covers a figure, a marker or
/// another name.
#[test]
fn the_sample_tables_names_cover_no_figure_and_no_other_name() {
    for size in [egui::vec2(1360.0, 860.0), egui::vec2(1024.0, 700.0)] {
        let (_dir, mut h) = super::views::sample_at(size);
        super::views::open_game(&mut h, "invasion");
        let names = crate::gui::board::drawn_names(&h.ctx);
        assert!(names.len() >= 10, "{size:?}: names drawn: {names:?}");
        let board = h.get_by_label(super::support::BOARD).rect();
        let ob = h.state().open.as_ref().unwrap();
        let x = crate::gui::board::Xform::new(&ob.view.scene, board, &h.state().look.camera);
        let figures: Vec<(String, egui::Rect)> = ob
            .view
            .scene
            .items
            .iter()
            .filter(|i| i.id.starts_with("model:") || i.id.starts_with("hole:"))
            .map(|i| (i.id.clone(), crate::gui::board::screen_rect(i, &x)))
            .collect();
        assert!(!figures.is_empty());
        for (i, (name, r)) in names.iter().enumerate() {
            for (f, fr) in &figures {
                assert!(
                    !fr.shrink(1.0).intersects(*r),
                    "{size:?}: {name} at {r:?} covers {f} at {fr:?}"
                );
            }
            for (other, o) in &names[..i] {
                assert!(
                    !o.intersects(*r),
                    "{size:?}: {name} at {r:?} covers {other} at {o:?}"
                );
            }
        }
    }
}

/// Session 21's list, item 5: the dice tray showed an Alien Invasion roll's
/// dice without what they needed (the log's row said "(no 6)"). For every
/// roll of the sample's table that needed something, the tray at that entry
/// says which dice, what for and what they needed, in the engine's words.
#[test]
fn the_dice_tray_says_what_each_roll_needed() {
    let (_dir, mut h) = super::views::sample_at(egui::vec2(1360.0, 860.0));
    super::views::open_game(&mut h, "invasion");
    // The entries of the line whose dice needed something, and the words.
    let wanted: Vec<(usize, String)> = {
        let ob = h.state().open.as_ref().unwrap();
        (1..ob.view.line.positions())
            .filter_map(|pos| {
                let id = ob.view.line.entry_at(pos)?;
                let facts = ob.battle.entry_facts(&[id]).into_iter().next()?;
                let d = facts
                    .dice
                    .iter()
                    .find(|d| d.need != xenolog_engine::Need::Nothing)?;
                Some((pos, format!("needs {}", d.need.words())))
            })
            .collect()
    };
    assert!(
        wanted.len() >= 2,
        "the sample's table has rolls that needed something: {wanted:?}"
    );
    for (pos, words) in wanted.iter().rev().take(3) {
        super::support::go_to(&mut h, *pos);
        assert!(
            h.query_by_label_contains(words).is_some(),
            "at position {pos} the tray does not say {words:?}"
        );
    }
}

/// Session 22's final read: the dice tray asked the engine for its entry's
/// facts (what each roll needed, how each die counted) twice every frame.
/// It works them out once for each position shown, and a move of the
/// cursor still shows the roll there.
#[test]
fn the_dice_tray_works_out_its_roll_once_a_position_and_follows_the_cursor() {
    let (_dir, mut h) = super::views::sample_at(egui::vec2(1360.0, 860.0));
    super::views::open_game(&mut h, "invasion");
    let builds = |h: &Harness<'_, App>| h.state().open.as_ref().unwrap().view.tray_builds;
    let before = builds(&h);
    assert!(before >= 1, "the tray was drawn");
    for _ in 0..5 {
        h.run();
    }
    assert_eq!(
        builds(&h),
        before,
        "frames with nothing changed work out nothing"
    );
    // Two rolls that needed different things: each shows at its position.
    let wanted: Vec<(usize, String)> = {
        let ob = h.state().open.as_ref().unwrap();
        let mut seen: Vec<(usize, String)> = Vec::new();
        for pos in 1..ob.view.line.positions() {
            let Some(id) = ob.view.line.entry_at(pos) else {
                continue;
            };
            let Some(facts) = ob.battle.entry_facts(&[id]).into_iter().next() else {
                continue;
            };
            if let Some(d) = facts
                .dice
                .iter()
                .find(|d| d.need != xenolog_engine::Need::Nothing)
            {
                let words = format!("needs {}", d.need.words());
                if !seen.iter().any(|(_, w)| *w == words) {
                    seen.push((pos, words));
                }
            }
        }
        seen
    };
    assert!(
        wanted.len() >= 2,
        "two rolls needing different things: {wanted:?}"
    );
    for (pos, words) in wanted.iter().rev().take(2) {
        let was = builds(&h);
        super::support::go_to(&mut h, *pos);
        assert!(
            h.query_by_label_contains(words).is_some(),
            "at position {pos} the tray does not say {words:?}"
        );
        let now = builds(&h);
        assert!(now > was, "a new position works the tray out again");
        h.run();
        h.run();
        assert_eq!(builds(&h), now, "and once only");
    }
}

/// Session 22's closing note: the tray and the dice dialog cut "shooting
/// dice: its die 2 of 3" at ": its " to name the roll. The engine names
/// each die by its roll alone; the tray shows that name for a roll of
/// several dice.
#[test]
fn the_tray_names_a_roll_of_several_dice_by_the_engines_words_uncut() {
    let (_dir, mut h) = super::views::sample_at(egui::vec2(1360.0, 860.0));
    super::views::open_game(&mut h, "invasion");
    let found = {
        let ob = h.state().open.as_ref().unwrap();
        (1..ob.view.line.positions()).find_map(|pos| {
            let id = ob.view.line.entry_at(pos)?;
            let facts = ob.battle.entry_facts(&[id]).into_iter().next()?;
            let first = facts
                .dice
                .iter()
                .find(|d| d.need != xenolog_engine::Need::Nothing)?;
            let roll: Vec<_> = facts.dice.iter().filter(|d| d.roll == first.roll).collect();
            (roll.len() > 1).then(|| {
                let names: Vec<String> = roll.iter().map(|d| d.purpose.clone()).collect();
                (pos, names)
            })
        })
    };
    let (pos, names) = found.expect("the sample rolls several dice needing something");
    assert!(
        names
            .iter()
            .all(|n| *n == names[0] && !n.contains("its die")),
        "each die of the roll carries the roll's name alone: {names:?}"
    );
    super::support::go_to(&mut h, pos);
    assert!(
        h.query_by_label_contains(&format!(": {}: needs ", names[0]))
            .is_some(),
        "the tray names the roll {:?}",
        names[0]
    );
}
