//! Invaders From Dimension X!: which dice hit (003 D.4: each die greater than
//! the target's DN is a hit), the Kay'otz Activation Phase step by step with
//! the units of each step marked on the board, unit details, and the
//! scenario and two-player options of a new battle.

use eframe::egui;
use serde_json::{Value, json};
use xenolog_engine::games::dimx::{DimX, DimxEvent};
use xenolog_engine::{Battle, EntryText, Scene, Session};

use super::{BoardUi, DieMark, Step};

/// The board UI of Invaders From Dimension X!.
pub struct DimxBoard;

fn session(battle: &dyn Battle) -> Option<&Session<DimX>> {
    battle.as_any().downcast_ref::<Session<DimX>>()
}

fn unit(id: &str) -> String {
    format!("unit:{id}")
}

/// The scene items an event is about.
fn focus(e: &DimxEvent) -> Vec<String> {
    use DimxEvent as E;
    match e {
        E::Fired {
            shooter, target, ..
        }
        | E::NoFire {
            shooter, target, ..
        } => vec![unit(shooter), unit(target)],
        E::BumpFired {
            unit: u, target, ..
        } => vec![unit(u), unit(target)],
        E::AlienMoved { unit: u, to, .. } => vec![unit(u), format!("hex:{to}")],
        E::Moved { unit: u, .. }
        | E::JumpRolled { unit: u, .. }
        | E::Landed { unit: u, .. }
        | E::MarineEliminated { unit: u, .. }
        | E::ConditionChanged { unit: u, .. }
        | E::AlienEliminated { unit: u, .. }
        | E::AdmPlaced { unit: u, .. }
        | E::OutOfAmmo { unit: u, .. }
        | E::AlienTurn { unit: u, .. }
        | E::AlienFlipped { unit: u, .. }
        | E::AlienHolds { unit: u, .. }
        | E::ActionChosen { unit: u, .. }
        | E::RallyRolled { unit: u, .. }
        | E::StrongpointRolled { unit: u, .. } => vec![unit(u)],
        E::StepBegan { units, .. } => units.iter().map(|u| unit(u)).collect(),
        E::RandomHex { hex, .. } => vec![format!("hex:{hex}")],
        _ => Vec::new(),
    }
}

/// How the dice an event rolled counted, in roll order.
fn marks(e: &DimxEvent) -> Vec<DieMark> {
    use DimxEvent as E;
    let pass = |ok: bool| if ok { DieMark::Pass } else { DieMark::Fail };
    match e {
        // 003 D.4: each die greater than the target's DN is a Hit.
        E::Fired { dice, dn, .. } => dice
            .iter()
            .map(|d| if d > dn { DieMark::Hit } else { DieMark::Miss })
            .collect(),
        E::RandomHex { .. } => vec![DieMark::Plain; 3],
        E::JumpRolled { .. } | E::BumpFired { .. } => vec![DieMark::Plain],
        E::ReconRolled { success, .. }
        | E::StrongpointRolled { success, .. }
        | E::RallyRolled { success, .. }
        | E::ReinforcementsRolled { success, .. } => vec![pass(*success)],
        _ => Vec::new(),
    }
}

impl BoardUi for DimxBoard {
    fn details_ui(&self, ui: &mut egui::Ui, _battle: &dyn Battle, scene: &Scene, selected: &str) {
        let Some(item) = scene.find(selected) else {
            ui.weak("Not on the board at this point of the battle.");
            return;
        };
        let Some(tip) = &item.tooltip else {
            return;
        };
        // "HQ HQ1: MP 4, CF 3, DN 3, jump pack; Stunned (-1 MP, -1 CF)"
        // reads better as one fact per line.
        let body = tip.split_once(": ").map_or(tip.as_str(), |(_, rest)| rest);
        for part in body.split("; ") {
            for fact in part.split(", ") {
                ui.label(fact);
            }
        }
    }

    fn die_marks(&self, battle: &dyn Battle, entry: &EntryText) -> Vec<DieMark> {
        let Some(s) = session(battle) else {
            return Vec::new();
        };
        let all: Vec<DieMark> = s.events(entry.id).iter().flat_map(marks).collect();
        // Only trust the marks when every die is accounted for.
        if all.len() == entry.dice.len() {
            all
        } else {
            Vec::new()
        }
    }

    fn steps(&self, battle: &dyn Battle, entry: &EntryText) -> Vec<Step> {
        let events = session(battle)
            .map(|s| s.events(entry.id))
            .unwrap_or_default();
        entry
            .events
            .iter()
            .enumerate()
            .map(|(i, text)| Step {
                text: text.clone(),
                focus: events.get(i).map(focus).unwrap_or_default(),
            })
            .collect()
    }

    fn two_player_variant(&self) -> bool {
        true
    }

    fn new_battle_config(&self, scenario: &str, two_player: bool) -> Value {
        json!({ "scenario": scenario, "two_player": two_player })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fire_dice_above_the_dn_are_hits_d4() {
        let e = DimxEvent::Fired {
            shooter: "MS1".into(),
            shooter_name: "Marine Squad MS1".into(),
            target: "K3".into(),
            target_name: "Kay'otz K3".into(),
            at: 101,
            base: 4,
            mods: Vec::new(),
            dice: vec![1, 3, 4, 6],
            dn: 3,
            hits: 2,
        };
        assert_eq!(
            marks(&e),
            vec![DieMark::Miss, DieMark::Miss, DieMark::Hit, DieMark::Hit]
        );
        assert_eq!(focus(&e), vec!["unit:MS1".to_owned(), "unit:K3".to_owned()]);
    }
}
