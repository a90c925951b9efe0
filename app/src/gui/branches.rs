//! The branch view: every line of play as a tree, the current one marked;
//! switch, rename, and compare where two branches part. Nothing here deletes:
//! every branch stays in the log.

use eframe::egui::{self, Ui};
use xenolog_engine::{Battle, BranchId, BranchKind};

use super::command::AppCommand;
use super::view::entry_label;
use super::widgets::count;

/// Branch-view state kept between frames.
#[derive(Debug, Default)]
pub struct BranchState {
    /// The branch being renamed and the name typed so far.
    pub renaming: Option<(BranchId, String)>,
    /// The two branches being compared.
    pub compare: (BranchId, BranchId),
    /// Entries from the setup to each branch's head, and the log size they
    /// were counted at.
    lengths: (usize, Vec<usize>),
}

impl BranchState {
    fn lengths(&mut self, battle: &dyn Battle) -> &[usize] {
        let n = battle.records().len();
        if self.lengths.0 != n || self.lengths.1.len() != battle.branches().len() {
            let lens = battle
                .branches()
                .iter()
                .map(|b| battle.path_to(battle.head(b.id)).len())
                .collect();
            self.lengths = (n, lens);
        }
        &self.lengths.1
    }
}

/// Branches in tree order with their depth in the tree.
fn tree(battle: &dyn Battle) -> Vec<(BranchId, usize)> {
    fn walk(
        battle: &dyn Battle,
        parent: Option<BranchId>,
        depth: usize,
        out: &mut Vec<(BranchId, usize)>,
    ) {
        for b in battle.branches().iter().filter(|b| b.parent == parent) {
            // Branch 0 is its own root; guard against a damaged self-parent.
            if Some(b.id) == parent {
                continue;
            }
            out.push((b.id, depth));
            walk(battle, Some(b.id), depth + 1, out);
        }
    }
    let mut out = Vec::new();
    walk(battle, None, 0, &mut out);
    out
}

fn name(battle: &dyn Battle, id: BranchId) -> String {
    battle
        .branches()
        .get(id as usize)
        .map_or_else(|| format!("Branch {id}"), |b| b.name.clone())
}

/// The branch tree with its actions.
pub fn branches_ui(
    ui: &mut Ui,
    battle: &dyn Battle,
    state: &mut BranchState,
    commands: &mut Vec<AppCommand>,
) {
    let current = battle.current_branch();
    let lengths = state.lengths(battle).to_vec();
    for (id, depth) in tree(battle) {
        let b = &battle.branches()[id as usize];
        let len = lengths.get(id as usize).copied().unwrap_or(0);
        // "Rename…" on the right; the name shortens with "…" in a narrow
        // panel rather than push it wider (the whole name is on hover).
        ui.horizontal(|ui| {
            ui.add_space(14.0 * depth as f32);
            let is_current = id == current;
            let text = format!(
                "{} {} · {}",
                if is_current { "●" } else { "○" },
                b.name,
                count(len as u64, "entry", "entries")
            );
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let rename = ui.small_button("Rename…");
                rename.widget_info(|| {
                    egui::WidgetInfo::labeled(
                        egui::Role::Button,
                        true,
                        format!("Rename {}", b.name),
                    )
                });
                if rename.clicked() {
                    state.renaming = Some((id, b.name.clone()));
                }
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                    let r = ui.add(egui::Button::selectable(is_current, text.as_str()).truncate());
                    let label = if is_current {
                        format!("{} (current branch)", b.name)
                    } else {
                        format!("Switch to {}", b.name)
                    };
                    r.widget_info(|| {
                        egui::WidgetInfo::selected(egui::Role::Button, true, is_current, &label)
                    });
                    if r.on_hover_text(format!("{text}\n{label}")).clicked() && !is_current {
                        commands.push(AppCommand::SwitchBranch(id));
                    }
                });
            });
        });
        if let (Some(parent), fork) = (b.parent, b.fork) {
            ui.horizontal(|ui| {
                ui.add_space(14.0 * depth as f32 + 18.0);
                let at = fork.map_or_else(|| "the setup".to_owned(), entry_label);
                // Its kind (stored, migration 9), never read from its name;
                // a take-back, what a branch played here mostly is, unsaid.
                let kind = match b.kind {
                    BranchKind::WhatIf | BranchKind::FromCopy => format!("{} ", b.kind.words()),
                    _ => String::new(),
                };
                ui.weak(format!("↳ {kind}from {} after {at}", name(battle, parent)))
                    .on_hover_text(format!("Kind: {}", b.kind.words()));
            });
        }
        if let Some((rid, text)) = &mut state.renaming
            && *rid == id
        {
            let mut done = None;
            // Within the panel's width: a row wider than the panel would
            // widen it for good.
            ui.horizontal(|ui| {
                ui.add_space(14.0 * depth as f32 + 14.0);
                let label = ui.label("New name:");
                let edit = ui
                    .add(
                        egui::TextEdit::singleline(text)
                            .desired_width(ui.available_width().clamp(60.0, 200.0)),
                    )
                    .labelled_by(label.id);
                if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    done = Some(true);
                }
            });
            ui.horizontal(|ui| {
                ui.add_space(14.0 * depth as f32 + 14.0);
                if ui.button("Save name").clicked() {
                    done = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    done = Some(false);
                }
            });
            match done {
                Some(true) => {
                    commands.push(AppCommand::RenameBranch(id, text.trim().to_owned()));
                    state.renaming = None;
                }
                Some(false) => state.renaming = None,
                None => {}
            }
        }
    }
    if battle.branches().len() > 1 {
        ui.separator();
        compare_ui(ui, battle, state, commands);
    }
}

/// Where two branches part.
fn compare_ui(
    ui: &mut Ui,
    battle: &dyn Battle,
    state: &mut BranchState,
    commands: &mut Vec<AppCommand>,
) {
    let n = battle.branches().len() as BranchId;
    if state.compare.0 >= n || state.compare.1 >= n || state.compare.0 == state.compare.1 {
        state.compare = (
            battle.current_branch(),
            if battle.current_branch() == 0 { 1 } else { 0 },
        );
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Compare");
        for (salt, which) in [("cmp-a", 0), ("cmp-b", 1)] {
            let value = if which == 0 {
                &mut state.compare.0
            } else {
                &mut state.compare.1
            };
            egui::ComboBox::from_id_salt(salt)
                .selected_text(name(battle, *value))
                .show_ui(ui, |ui| {
                    for b in battle.branches() {
                        ui.selectable_value(value, b.id, &b.name);
                    }
                })
                .response
                .widget_info(|| {
                    egui::WidgetInfo::labeled(
                        egui::Role::ComboBox,
                        true,
                        if which == 0 {
                            "First branch to compare"
                        } else {
                            "Second branch to compare"
                        },
                    )
                });
            if which == 0 {
                ui.label("with");
            }
        }
    });
    let (a, b) = state.compare;
    let (ha, hb) = (battle.head(a), battle.head(b));
    let fork = battle.common_ancestor(ha, hb);
    let at = battle.path_to(fork).len();
    let lengths = state.lengths(battle);
    let (la, lb) = (lengths[a as usize], lengths[b as usize]);
    let flow = battle.flow_at(fork);
    ui.label(format!(
        "{} and {} part after {} (turn {}, {}). Then {} has {} more and {} has {}.",
        name(battle, a),
        name(battle, b),
        fork.map_or_else(
            || "the setup".to_owned(),
            |f| format!("entry {}", entry_label(f))
        ),
        flow.turn,
        flow.phase,
        name(battle, a),
        count((la - at) as u64, "entry", "entries"),
        name(battle, b),
        count((lb - at) as u64, "entry", "entries"),
    ));
    if ui.button("Jump to where they part").clicked() {
        commands.push(AppCommand::Seek(fork));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn tree_lists_children_under_their_parent() {
        let mut b = xenolog_engine::games::new_battle("race", 1, &json!({})).unwrap();
        let play = |b: &mut Box<dyn Battle>| {
            let to = b.to_move().unwrap();
            let p = b.prepare_json(to, &json!("hold"), None).unwrap();
            b.commit(p).expect("decided just now");
        };
        for _ in 0..4 {
            play(&mut b);
        }
        b.undo(2);
        let to = b.to_move().unwrap();
        let p = b
            .prepare_json(to, &json!({"roll": {"dice": 2}}), None)
            .unwrap();
        b.commit(p).expect("decided just now"); // branch 1 from main
        b.undo(1);
        b.switch_branch(0).unwrap();
        b.undo(3);
        let to = b.to_move().unwrap();
        let p = b
            .prepare_json(to, &json!({"roll": {"dice": 3}}), None)
            .unwrap();
        b.commit(p).expect("decided just now"); // branch 2 from main
        let t = tree(b.as_ref());
        assert_eq!(t, vec![(0, 0), (1, 1), (2, 1)]);
    }
}
