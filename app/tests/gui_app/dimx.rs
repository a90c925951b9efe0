//! Invaders From Dimension X! on the sample campaign: moving by clicking the
//! board, firing (a redo gives the recorded dice; another shot from an
//! earlier entry starts a branch), the Kay'otz activation step by step.

use egui_kittest::kittest::Queryable;
use xenolog_engine::LegalCommand;

use super::support::{
    app_with, click, click_on_board, give_on_board, go_to, legal, no_notices, position,
};
use crate::gui::board::contains;

fn sample() -> (
    tempfile::TempDir,
    egui_kittest::Harness<'static, crate::gui::app::App>,
) {
    let dir = tempfile::tempdir().unwrap();
    let h = app_with(None, Some(dir.path().to_owned()), Vec::new());
    assert_eq!(h.state().open.as_ref().unwrap().battle.game_id(), "dimx");
    (dir, h)
}

/// The legal command of `unit` aimed at `target`.
fn aimed(
    h: &egui_kittest::Harness<'_, crate::gui::app::App>,
    unit: &str,
    target: &str,
) -> LegalCommand {
    let ob = h.state().open.as_ref().unwrap();
    ob.view
        .legal
        .iter()
        .find(|c| c.subject.as_deref() == Some(unit) && c.target.as_deref() == Some(target))
        .cloned()
        .unwrap_or_else(|| panic!("{unit} has no command aimed at {target}"))
}

/// The first legal command of `unit` aimed at a hex, or at a unit.
fn command_of(
    h: &egui_kittest::Harness<'_, crate::gui::app::App>,
    unit: &str,
    at_unit: bool,
) -> LegalCommand {
    let ob = h.state().open.as_ref().unwrap();
    ob.view
        .legal
        .iter()
        .find(|c| {
            c.subject.as_deref() == Some(unit)
                && c.target
                    .as_deref()
                    .is_some_and(|t| t.starts_with("unit:") == at_unit)
        })
        .cloned()
        .unwrap_or_else(|| {
            panic!(
                "{unit} has no command aimed at a {}",
                if at_unit { "unit" } else { "hex" }
            )
        })
}

#[test]
fn move_a_unit_by_clicking_it_and_then_a_highlighted_hex() {
    let (_dir, mut h) = sample();
    let (pos, last) = position(&h);
    assert_eq!(pos, last, "the sample opens at the head of its main line");
    click_on_board(&mut h, "Heavy Weapons HW1");
    assert_eq!(h.state().look.selected(), Some("unit:HW1"));
    super::support::shot(&mut h, "dimx_selected");
    // A hex HW1 can reach in more than one way (a Full Move or a Shoot and
    // Scoot move): the board's button says so and a click asks which.
    let mv = command_of(&h, "unit:HW1", false);
    let ways = legal(&h)
        .iter()
        .filter(|c| c.subject == mv.subject && c.target == mv.target)
        .count();
    assert!(
        ways > 1,
        "{} is reached in {ways} way(s)",
        mv.target.as_deref().unwrap()
    );
    click_on_board(&mut h, &format!("{} ({ways} choices)", mv.text));
    h.get_by_label("Which command?");
    let choice = h
        .get_all_by_label(&mv.text)
        .last()
        .expect("the dialog offers the move");
    choice.click();
    h.run();
    no_notices(&h);
    assert_eq!(position(&h), (pos + 1, last + 1));
    let ob = h.state().open.as_ref().unwrap();
    let entry = ob
        .battle
        .entry_texts(&[ob.battle.cursor().unwrap()])
        .remove(0);
    assert_eq!(entry.command, mv.text);
    // The counter now stands in the hex it was sent to.
    let hex = ob.view.scene.find(mv.target.as_deref().unwrap()).unwrap();
    let counter = ob.view.scene.find("unit:HW1").unwrap();
    let xenolog_engine::scene::Shape::Rect { min, max, .. } = &counter.shape else {
        panic!("a counter is a rectangle");
    };
    let centre = [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0];
    assert!(contains(hex, centre, 0.0), "HW1 is drawn in {}", hex.id);
}

#[test]
fn fire_again_from_an_earlier_entry_rolls_the_same_dice_and_another_shot_branches() {
    let (_dir, mut h) = sample();
    let entries = h.state().open.as_ref().unwrap().battle.records().len();
    // Before entry 7, where Marine Squad MS2 fired at Kay'otz #12.
    go_to(&mut h, 6);
    click_on_board(&mut h, "Marine Squad MS2");
    let fire = aimed(&h, "unit:MS2", "unit:K12");
    give_on_board(&mut h, &fire);
    // The same command from the same point is the recorded entry: no
    // question, no new entry, the same dice (undo is no way to reroll).
    assert!(h.query_by_label("Start a new branch?").is_none());
    assert_eq!(
        h.state().open.as_ref().unwrap().battle.records().len(),
        entries
    );
    assert_eq!(position(&h).0, 7);
    h.get_by_label("Die 1: 4, hit");
    h.get_by_label("Die 2: 2, miss");
    h.get_by_label("2 hits");

    // Back one entry, and this time the Scout fires first: a new branch.
    h.key_press(eframe::egui::Key::ArrowLeft);
    h.run();
    click_on_board(&mut h, "Scout SC1");
    let other = aimed(&h, "unit:SC1", "unit:K12");
    give_on_board(&mut h, &other);
    h.get_by_label("Start a new branch?");
    click(&mut h, "Start new branch");
    let b = &h.state().open.as_ref().unwrap().battle;
    assert_eq!(b.records().len(), entries + 1);
    assert_eq!(b.branches().len(), 4);
    assert_eq!(b.current_branch(), 3);
    let text = b.entry_texts(&[b.cursor().unwrap()]).remove(0);
    assert!(
        text.events
            .iter()
            .any(|e| e.contains("fires at Kay'otz #12")),
        "{text:?}"
    );
    assert_eq!(text.dice.len(), 3, "the Scout fires with CF 3");

    // The old line is all there.
    click(&mut h, "Switch to Main");
    let b = &h.state().open.as_ref().unwrap().battle;
    assert_eq!(b.current_branch(), 0);
    assert_eq!(position(&h).0 + 1, position(&h).1 + 1);
}

#[test]
fn the_kayotz_activation_is_shown_step_by_step() {
    let (_dir, mut h) = sample();
    // Entry 37 chose the chit "Swarm: Odd Units": the Kay'otz then act.
    go_to(&mut h, 37);
    let n = h.state().open.as_ref().unwrap().view.line.ids.len();
    assert!(n >= 37);
    let steps = {
        let ob = h.state_mut().open.as_mut().unwrap();
        let text = ob.view.line.text(ob.battle.as_ref(), 36).unwrap().clone();
        ob.board.steps(ob.battle.as_ref(), &text)
    };
    let total = steps.len();
    // It opens at its last step: how the entry ended, as the board shows it.
    h.get_by_label(&format!("Step {total} of {total}"));
    assert!(total > 5, "{total} steps");
    let mut focused = 0;
    for k in (1..total).rev() {
        click(&mut h, "Previous step");
        h.get_by_label(&format!("Step {k} of {total}"));
        if !h.state().side.focus.is_empty() {
            focused += 1;
        }
    }
    assert!(focused > 0, "some steps mark their units on the board");
    super::support::shot(&mut h, "dimx_steps");
    click(&mut h, "Next step");
    h.get_by_label(&format!("Step 2 of {total}"));
    // A step of the list is shown by clicking it.
    click(&mut h, &format!("3. {}", steps[2].text));
    h.get_by_label(&format!("Step 3 of {total}"));
    assert_eq!(h.state().side.focus, steps[2].focus);
    // The entry table's row at the cursor steps through it too, with the
    // side panel.
    h.get_by_label(&format!("Step 3/{total}: {}", steps[2].text));
    click(&mut h, "Next step of this entry");
    h.get_by_label(&format!("Step 4/{total}: {}", steps[3].text));
    h.get_by_label(&format!("Step 4 of {total}"));
    assert_eq!(h.state().side.focus, steps[3].focus);
    super::support::shot(&mut h, "dimx_table_steps");
}

#[test]
fn a_refused_command_names_the_rule_that_forbids_it() {
    let (_dir, mut h) = sample();
    let entries = h.state().open.as_ref().unwrap().battle.records().len();
    // Heavy Weapons HW1 may not fire at a Kay'otz unit it cannot see.
    let intent = crate::gui::command::Intent {
        actor: xenolog_engine::Actor(0),
        command: serde_json::json!({"full_fire": {"unit": "HW1", "target": "K1"}}),
        text: "Heavy Weapons HW1 fires at Kay'otz #1".into(),
        label: None,
    };
    h.state_mut().push(crate::gui::command::AppCommand::Give(
        crate::gui::command::PlayRequest::new(intent),
    ));
    h.run();
    h.get_by_label("Not allowed");
    h.get_by_label_contains("(rule ");
    assert_eq!(
        h.state().open.as_ref().unwrap().battle.records().len(),
        entries
    );
}

#[test]
fn compare_two_branches_and_jump_to_where_they_part() {
    let (_dir, mut h) = sample();
    let b = &h.state().open.as_ref().unwrap().battle;
    let other = b.branches()[1].clone();
    let fork_pos = b.path_to(other.fork).len();
    let fork_id = other.fork.expect("the branch leaves Main after an entry");
    h.get_by_label_contains(&format!("part after entry #{fork_id}"));
    click(&mut h, "Jump to where they part");
    assert_eq!(position(&h).0, fork_pos);
    assert_eq!(h.state().open.as_ref().unwrap().battle.current_branch(), 0);
}

#[test]
fn jump_to_a_turn_and_page_through_turns() {
    let (_dir, mut h) = sample();
    let start_of = |h: &egui_kittest::Harness<'_, crate::gui::app::App>, turn: u32| {
        h.state()
            .open
            .as_ref()
            .unwrap()
            .view
            .line
            .turn_start(turn)
            .unwrap()
    };
    h.state_mut().timeline.goto_turn = 3;
    click(&mut h, "Go to turn");
    assert_eq!(position(&h).0, start_of(&h, 3));
    h.key_press(eframe::egui::Key::PageDown);
    h.run();
    assert_eq!(position(&h).0, start_of(&h, 4));
    h.key_press(eframe::egui::Key::PageUp);
    h.key_press(eframe::egui::Key::PageUp);
    h.run();
    assert_eq!(position(&h).0, start_of(&h, 2));
}

/// With a unit selected, a Kay'otz unit it cannot fire at says why, in the
/// rule's words, when hovered or clicked; a unit that can do nothing says why.
#[test]
fn a_target_the_selected_unit_cannot_use_says_why_not() {
    let (_dir, mut h) = sample();
    // Before entry 7: Marine Squad MS2 may fire at two Kay'otz units only.
    h.state_mut()
        .push(crate::gui::command::AppCommand::SeekLine(6));
    h.run();
    click_on_board(&mut h, "Marine Squad MS2");
    let (target, name) = {
        let ob = h.state().open.as_ref().unwrap();
        let aimed: Vec<&str> = ob
            .view
            .legal
            .iter()
            .filter(|c| c.subject.as_deref() == Some("unit:MS2"))
            .filter_map(|c| c.target.as_deref())
            .collect();
        let item = ob
            .view
            .scene
            .items
            .iter()
            .find(|i| i.id.starts_with("unit:K") && !aimed.contains(&i.id.as_str()))
            .expect("a Kay'otz unit MS2 cannot fire at");
        (item.id.clone(), crate::gui::board::item_name(item))
    };
    click_on_board(&mut h, &name);
    let status = h.state().messages.status.clone();
    assert!(
        status.starts_with(&format!("Not possible: {name}: ")) && status.contains("(rule "),
        "{target}: {status}"
    );
}

/// A unit's actions are grouped (Move, Fire, Shoot and Scoot, Special) with
/// short labels, and a jump-only hex is marked apart on the board.
#[test]
fn a_units_actions_are_grouped_with_short_labels() {
    let (_dir, mut h) = sample();
    // SC1 is Paralyzed: it may only Rally; SC2 may do anything.
    click_on_board(&mut h, "Scout SC2");
    super::support::shot(&mut h, "actions_grouped");
    assert!(
        h.query_all_by_label_contains("Move (").next().is_some(),
        "a Move group"
    );
    h.get_by_label_contains("Shoot and Scoot (");
    // Off the board (whose targets keep their whole sentence).
    let board = h.get_by_label(super::support::BOARD).rect();
    assert!(
        h.query_all_by_label_contains("Scout SC2: Full Move")
            .all(|n| board.contains(n.rect().center())),
        "the unit's name is the heading, not in every button"
    );
    let ob = h.state().open.as_ref().unwrap();
    let jumps = ob
        .view
        .legal
        .iter()
        .filter(|c| c.subject.as_deref() == Some("unit:SC2"))
        .filter(|c| ob.board.marked_apart(c))
        .count();
    assert!(jumps > 0, "SC2 has a jump pack: its jumps are marked apart");
}

/// Help > Legend and player aid: terrain, the marks, the combat modifiers
/// and the chits of the battle, beside the board.
#[test]
fn the_legend_and_player_aid_are_reachable_from_help() {
    let (_dir, mut h) = sample();
    super::support::menu(&mut h, "Help", "Legend and player aid");
    h.get_by_label("Terrain");
    h.get_by_label_contains("Forest: 2 MP");
    h.get_by_label_contains("Violet: a hex only a jump gets to");
    h.get_by_label("Marine fire (D.2 to D.4, D.8)");
    h.get_by_label_contains("Activation Chits (");
    super::support::shot(&mut h, "player_aid");
    assert!(h.state().look.show_aid);
}

/// The move the entry at the cursor made is drawn as a trail along its path
/// (in playback, each move in turn).
#[test]
fn the_move_at_the_cursor_is_drawn_as_a_trail() {
    let (_dir, mut h) = sample();
    let (pos, id) = {
        let ob = h.state().open.as_ref().unwrap();
        let ids = ob.view.line.ids.clone();
        let texts = ob.battle.entry_texts(&ids);
        let i = texts
            .iter()
            .rposition(|t| t.command.contains("Full Move"))
            .expect("the sample has a Full Move");
        (i + 1, ids[i])
    };
    h.state_mut()
        .push(crate::gui::command::AppCommand::SeekLine(pos));
    h.run();
    super::support::shot(&mut h, "trail");
    let ob = h.state().open.as_ref().unwrap();
    let trails = ob.board.trails(ob.battle.as_ref(), id);
    assert_eq!(trails.len(), 1, "{trails:?}");
    assert!(trails[0].len() >= 2);
    assert!(
        trails[0].iter().all(|s| ob.view.scene.find(s).is_some()),
        "every place of the path is on the board: {trails:?}"
    );
}

/// The line-of-sight tool: pick two hexes, see the line and what it crosses
/// (the rule book's example: the Forest blocks the line from 263 to 421).
#[test]
fn the_line_of_sight_tool_shows_what_a_line_crosses() {
    use crate::gui::command::AppCommand;
    let (_dir, mut h) = sample();
    click(&mut h, "Line of sight: pick two hexes");
    h.get_by_label("Click the hex the line starts in.");
    let entries = h.state().open.as_ref().unwrap().battle.records().len();
    h.state_mut().push(AppCommand::LosPick("hex:263".into()));
    h.run();
    h.get_by_label("Click the hex the line ends in.");
    h.state_mut().push(AppCommand::LosPick("hex:421".into()));
    h.run();
    super::support::shot(&mut h, "line_of_sight");
    let words = h.state().look.los.as_ref().unwrap().words.join("\n");
    assert!(
        words.starts_with("From 263 to 421: crosses or touches"),
        "{words}"
    );
    assert!(
        words.contains("Marine fire: blocked by") && words.contains("(Forest)"),
        "{words}"
    );
    h.get_by_label_contains("Marine fire: blocked by");
    assert!(!h.state().look.los.as_ref().unwrap().crossed.is_empty());
    assert_eq!(
        h.state().open.as_ref().unwrap().battle.records().len(),
        entries,
        "measuring plays nothing"
    );
    click(&mut h, "Close the line-of-sight tool");
    assert!(h.state().look.los.is_none());
}

/// The board shows the battle at the step shown: a step before the last is
/// drawn part-way through the entry.
#[test]
fn the_board_shows_the_state_at_the_step_shown() {
    let (_dir, mut h) = sample();
    let pos = {
        let ob = h.state().open.as_ref().unwrap();
        let texts = ob.battle.entry_texts(&ob.view.line.ids);
        texts
            .iter()
            .rposition(|t| t.command.contains("Full Move from 213 to 336"))
            .expect("the sample moves MS1 from 213 to 336")
            + 1
    };
    h.state_mut()
        .push(crate::gui::command::AppCommand::SeekLine(pos));
    h.run();
    let centre = |s: &xenolog_engine::Scene, id: &str| {
        let i = s.find(id).unwrap();
        match &i.shape {
            xenolog_engine::scene::Shape::Polygon(ps) => {
                let n = ps.len() as f32;
                let (x, y) = ps.iter().fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
                [x / n, y / n]
            }
            xenolog_engine::scene::Shape::Rect { min, max, .. } => {
                [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0]
            }
            xenolog_engine::scene::Shape::Circle { center, .. } => *center,
            _ => panic!("{id}: no centre"),
        }
    };
    let near = |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).abs() < 20.0 && (a[1] - b[1]).abs() < 20.0;
    h.get_by_label("Step 2 of 2");
    assert!(
        h.state().side.step_scene.is_none(),
        "the last step: the entry done"
    );
    let done = &h.state().open.as_ref().unwrap().view.scene;
    assert!(near(centre(done, "unit:MS1"), centre(done, "hex:336")));
    click(&mut h, "Previous step");
    h.get_by_label("Step 1 of 2");
    let (_, before) = h
        .state()
        .side
        .step_scene
        .as_ref()
        .expect("a scene part-way");
    assert!(
        near(centre(before, "unit:MS1"), centre(before, "hex:213")),
        "step 1 (takes a Full Move action): MS1 still in 213"
    );
}

/// Session 22's closing note: the details panel cut a unit's name out of
/// its tooltip at the first ": ". Each counter carries its name apart; the
/// panel lists the facts after it, and the unit is named by it.
#[test]
fn the_details_panel_lists_a_units_facts_after_the_name_its_counter_carries() {
    let (_dir, mut h) = sample();
    let (id, name, first_fact) = {
        let ob = h.state().open.as_ref().unwrap();
        let counters: Vec<_> = ob
            .view
            .scene
            .items
            .iter()
            .filter(|i| {
                i.id.starts_with("unit:") && i.kind == xenolog_engine::scene::ItemKind::Counter
            })
            .collect();
        assert!(!counters.is_empty());
        for c in &counters {
            let name = c
                .name
                .as_deref()
                .unwrap_or_else(|| panic!("{} has no name", c.id));
            assert!(
                c.tooltip
                    .as_deref()
                    .unwrap()
                    .starts_with(&format!("{name}: ")),
                "{}: {:?} begins with its name {name:?}",
                c.id,
                c.tooltip
            );
            assert_eq!(crate::gui::board::item_name(c), name);
        }
        let ms = counters
            .iter()
            .find(|c| c.id.starts_with("unit:M"))
            .expect("a Marine counter");
        let name = ms.name.clone().unwrap();
        let tip = ms.tooltip.clone().unwrap();
        let rest = &tip[name.len() + 2..];
        let first = rest.split([',', ';']).next().unwrap().trim().to_owned();
        (ms.id.clone(), name, first)
    };
    h.state_mut()
        .push(crate::gui::command::AppCommand::Select(Some(id.clone())));
    h.run();
    assert!(first_fact.starts_with("MP "), "{first_fact}");
    assert!(
        h.query_by_label(&first_fact).is_some(),
        "the details of {name} ({id}) list {first_fact:?} alone"
    );
}
