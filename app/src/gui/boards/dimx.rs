//! Invaders From Dimension X!: which dice hit (003 D.4: each die greater than
//! the target's DN is a hit), the Kay'otz Activation Phase step by step with
//! the units of each step marked on the board, unit details, and the
//! scenario and two-player options of a new battle.

use eframe::egui;
use serde_json::{Value, json};
use xenolog_engine::games::dimx::describe::step_words;
use xenolog_engine::games::dimx::kayotz::waiting_roll;
use xenolog_engine::games::dimx::rules::{map_of, title_of};
use xenolog_engine::games::dimx::state::{Partial, Phase, PlaceWhy, Side};
use xenolog_engine::games::dimx::units::{Condition, Place};
use xenolog_engine::games::dimx::{DimX, DimxCommand, DimxEvent, DimxState};
use xenolog_engine::{Actor, Battle, EntryText, LegalCommand, Scene, Session};

use super::{BoardUi, Prompt, Step, swatch};
use crate::gui::command::AppCommand;
use crate::gui::view::BattleView;

/// Why the Marine player may not give `command` now, in the rule's words.
fn refusal(battle: &dyn Battle, command: &Value) -> Option<String> {
    battle
        .prepare_json(Actor(0), command, None)
        .err()
        .map(|e| e.to_string())
}

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

/// The player who plays a side, in words.
fn player(side: Side) -> &'static str {
    match side {
        Side::Marines => "Marine player",
        Side::Kayotz => "Kay'otz player",
    }
}

/// The decision pending in `s`, when it needs explaining.
fn prompt_of(s: &DimxState) -> Option<Prompt> {
    if s.is_over() {
        return None;
    }
    if let Some(p) = &s.placing {
        let name = title_of(s, &p.unit);
        let (ask, why) = match p.why {
            PlaceWhy::Scattered => (
                format!("choose where {name} lands"),
                "its jump scattered (C.2): it lands in one of the equally near free hexes \
                 next to where it aimed"
                    .to_owned(),
            ),
            PlaceWhy::Malfunction => (
                format!("choose where {name} comes down"),
                "its jump pack malfunctioned onto a unit (C.2): it goes to one of the equally \
                 near free hexes next to that unit"
                    .to_owned(),
            ),
            PlaceWhy::Beamed => (
                format!("choose where {name} lands"),
                "it was beamed onto a unit (D.6): it goes to one of the equally near free hexes \
                 next to that unit"
                    .to_owned(),
            ),
            PlaceWhy::Warped => (
                format!("choose where {name} lands"),
                "it warped onto a unit: it steps aside to one of the equally near free hexes"
                    .to_owned(),
            ),
            PlaceWhy::Summoned { left, .. } => (
                format!("choose where {name} comes in"),
                match left {
                    0 => "it is summoned from the cup: it comes in through one of these hexes"
                        .to_owned(),
                    n => format!(
                        "it is summoned from the cup: it comes in through one of these hexes \
                         ({n} more to summon after it)"
                    ),
                },
            ),
        };
        return Some(Prompt {
            ask: format!("Kay'otz player: {ask}"),
            why: format!(
                "Two-player variant: the Kay'otz player breaks the tie; {why}. Click a \
                 highlighted hex on the board, or pick one below."
            ),
        });
    }
    if let Some((chit, st)) = waiting_roll(s, map_of(s)) {
        let name = s
            .chits()
            .get(usize::from(chit))
            .map(|c| format!("\"{}\": ", c.name))
            .unwrap_or_default();
        return Some(Prompt {
            ask: "Kay'otz player: roll the dice for the Kay'otz units' step".to_owned(),
            why: format!(
                "{name}{}. Two-player variant: the Kay'otz player makes all the necessary die \
                 rolls for the alien units, so these dice are theirs to roll or enter, whoever's \
                 command brought the chit into play.",
                step_words(&st)
            ),
        });
    }
    match &s.phase {
        Phase::ChooseChit { by, .. } => Some(Prompt {
            ask: format!(
                "{}: choose which of the two drawn chits is enacted",
                player(*by)
            ),
            why: match by {
                Side::Marines => "The Recon succeeded (E.2): two chits were drawn and the \
                                  Marine player picks one; the other goes back into the cup."
                    .to_owned(),
                Side::Kayotz => "Two-player variant: the Kay'otz player draws two chits and \
                                 picks one; the other goes back into the cup."
                    .to_owned(),
            },
        }),
        // An obligation or an option left open by the last command: in front
        // of the player, not in a list of units.
        Phase::MarineAction {
            partial: Some(Partial::Reinforcement { hq }),
        } => Some(Prompt {
            ask: "Reinforcement granted: choose a unit from the pool".to_owned(),
            why: format!(
                "{}'s Request Reinforcements succeeded (E.6): one unit of the pool comes in and \
                 may act this phase. Finishing {0}'s action, or ending the phase, gives the \
                 reinforcement up.",
                title_of(s, hq)
            ),
        }),
        Phase::MarineAction {
            partial: Some(Partial::ShootAndScoot { unit, moved, fired }),
        } => {
            let name = title_of(s, unit);
            let left = match (moved, fired) {
                (true, false) => "fire",
                (false, true) => "move",
                _ => "move or fire",
            };
            Some(Prompt {
                ask: format!("Finish {name}'s Shoot and Scoot first"),
                why: format!(
                    "{name} is half-way through a Shoot and Scoot (C.1 b): it may still {left}, \
                     or finish its action. No other unit acts until it does."
                ),
            })
        }
        Phase::Kayotz {
            chit,
            step,
            todo: Some(todo),
        } if !todo.is_empty() => {
            let ask = match todo.as_slice() {
                [one] => format!("Kay'otz player: choose how {} acts", title_of(s, one)),
                _ => "Kay'otz player: choose which unit acts next, and how".to_owned(),
            };
            let step = s
                .chits()
                .get(usize::from(*chit))
                .and_then(|c| c.steps.get(usize::from(*step)).map(|st| (c, st)))
                .map(|(c, st)| format!("\"{}\": {}. ", c.name, step_words(st)))
                .unwrap_or_default();
            Some(Prompt {
                ask,
                why: format!(
                    "{step}Two-player variant: the Kay'otz player picks the order and breaks \
                     ties of equally near targets and hexes."
                ),
            })
        }
        _ => None,
    }
}

/// The legend and player aid of Dimension X, from rule text 003 (clauses
/// in brackets) and the chit sheet in force.
fn aid_ui(ui: &mut egui::Ui, state: Option<&DimxState>) {
    ui.set_max_width(ui.available_width().min(460.0));
    use xenolog_engine::games::dimx::map::Terrain;
    use xenolog_engine::games::dimx::scene::terrain_fill;
    let c = |t: Terrain| crate::gui::board::color(terrain_fill(t));
    ui.heading("Terrain");
    for (t, words) in [
        (Terrain::Clear, "Clear: 1 MP (C.1)."),
        (
            Terrain::Rough,
            "Rough: 2 MP. Fire at a unit in it: -1 (D.3, D.9); Kay'otz fire through it: -1 (D.9).",
        ),
        (
            Terrain::Forest,
            "Forest: 2 MP. Blocks a Marine line of fire it crosses or touches; a unit in it may \
             still be fired at, -1 (D.2, D.3). Kay'otz fire into or through it: -1 (D.9).",
        ),
        (
            Terrain::Buildings,
            "Buildings: Road hexes (1/2 MP along a printed road). Block Marine lines of fire \
             like Forest; a unit in them: -1 (C.1, D.2, D.3, D.9).",
        ),
        (
            Terrain::Lava,
            "Lava Flow: entered only along a road through it (a bridge); blocks every line of \
             fire, Kay'otz fire too (C.1, D.2, D.9).",
        ),
        (
            Terrain::Wormhole,
            "Wormhole: where summoned Kay'otz units come in.",
        ),
    ] {
        swatch(ui, c(t), words);
    }
    swatch(
        ui,
        egui::Color32::from_rgb(120, 100, 80),
        "Road: 1/2 MP from a Road hex into a directly connected one (C.1).",
    );
    swatch(
        ui,
        egui::Color32::from_rgb(70, 60, 60),
        "Bridge: a road across Lava Flow.",
    );
    ui.heading("Marks on the board");
    for (col, words) in crate::gui::board::MARKS {
        swatch(ui, *col, words);
    }
    ui.heading("Marine fire (D.2 to D.4, D.8)");
    for line in [
        "CF = dice rolled; each die greater than the target's DN (its ADM marker if any) is a Hit.",
        "-1 Shoot and Scoot, -1 Stunned, -1 target in Forest, Rough or Buildings.",
        "+1 next to an Active HQ, +1 Dormant target, +1 adjacent target. Below 1: no fire.",
        "3 or more Hits eliminate; 1-2 Hits draw an ADM marker, the unit's new DN.",
        "Two or more 1s: Out of Ammo after the combat (pistols 3A, adjacent aliens only).",
        "BUMP gun (D.6): six hexes, never blocked; one die: 1 Misfire, 2 Energy Recoil, \
         3 Beamed, 4-6 Vaporized.",
    ] {
        ui.label(format!("• {line}"));
    }
    ui.heading("Kay'otz fire (D.9, D.10)");
    for line in [
        "Full CF, blocked only by Lava Flow.",
        "-1 target in or line through Forest, Rough or Buildings; -1 Strongpoint in the \
         target's hex or on the line; +1 adjacent.",
        "Each die greater than the Marine's DN hits: 1-2 Hits Stunned, 3 or more Paralyzed; \
         Stunned again: Paralyzed.",
    ] {
        ui.label(format!("• {line}"));
    }
    if let Some(s) = state {
        ui.heading(format!("Activation Chits ({} in the cup)", s.cup.len()));
        for chit in s.chits() {
            let steps: Vec<String> = chit.steps.iter().map(step_words).collect();
            egui::CollapsingHeader::new(&chit.name)
                .id_salt(("aid-chit", &chit.key))
                .show(ui, |ui| {
                    for st in steps {
                        ui.label(format!("• {st}"));
                    }
                });
        }
    }
}

/// How wide a Marine waiting at the map edge is drawn in the side panel: as
/// on the map at a readable scale (the scenario card draws them 30 board
/// units wide, about 20 px in the window the app opens).
const WAITING_PX: f32 = 44.0;

/// The Marines waiting at the map edge, drawn large in the side panel; a
/// click selects one (its entry hexes are then lit on the board). Their
/// pictures are the view's scene's, the board's at the cursor (session 22's
/// final read: the panel built a scene of its own every frame).
fn waiting_ui(
    ui: &mut egui::Ui,
    s: &DimxState,
    scene: &Scene,
    selected: Option<&str>,
    commands: &mut Vec<AppCommand>,
) {
    let waiting: Vec<String> = s
        .marines
        .iter()
        .filter(|m| m.place == Place::Waiting)
        .map(|m| unit(&m.id))
        .collect();
    if waiting.is_empty() {
        return;
    }
    ui.separator();
    ui.strong(format!("Waiting at the map edge ({})", waiting.len()));
    ui.horizontal_wrapped(|ui| {
        for id in &waiting {
            let Some(r) = crate::gui::board::counter_ui(ui, scene, id, WAITING_PX) else {
                continue;
            };
            if selected == Some(id.as_str()) {
                ui.painter().rect_stroke(
                    r.rect.expand(2.0),
                    4.0,
                    egui::Stroke::new(3.0, egui::Color32::from_rgb(255, 200, 0)),
                    egui::StrokeKind::Outside,
                );
            }
            let name = scene.find(id).map(crate::gui::board::item_name);
            let r = r.on_hover_text(format!("Select {}", name.as_deref().unwrap_or(id.as_str())));
            if r.clicked() {
                commands.push(AppCommand::Select(Some(id.clone())));
            }
        }
    });
}

impl BoardUi for DimxBoard {
    fn panel_ui(
        &self,
        ui: &mut egui::Ui,
        battle: &dyn Battle,
        view: &BattleView,
        selected: Option<&str>,
        commands: &mut Vec<AppCommand>,
    ) {
        if let Some(s) = session(battle) {
            waiting_ui(ui, s.state(), &view.scene, selected, commands);
        }
    }

    fn prompt(&self, battle: &dyn Battle) -> Option<Prompt> {
        prompt_of(session(battle)?.state())
    }

    fn action_group(&self, cmd: &LegalCommand) -> Option<(u8, &'static str)> {
        use DimxCommand as C;
        Some(match serde_json::from_value(cmd.command.clone()).ok()? {
            C::FullMove { .. } | C::Jump { .. } | C::LeaveMap { .. } => (0, "Move"),
            C::FullFire { .. } => (1, "Fire"),
            C::ShootAndScootMove { .. }
            | C::ShootAndScootJump { .. }
            | C::ShootAndScootFire { .. } => (2, "Shoot and Scoot"),
            C::Recon { .. }
            | C::BuildStrongpoint { .. }
            | C::Rally { .. }
            | C::ReSupply { .. }
            | C::RequestReinforcements { .. } => (3, "Special"),
            _ => return None,
        })
    }

    fn marked_apart(&self, cmd: &LegalCommand) -> bool {
        matches!(
            serde_json::from_value(cmd.command.clone()),
            Ok(DimxCommand::Jump { .. } | DimxCommand::ShootAndScootJump { .. })
        )
    }

    fn dice_purposes(&self, events: &[u8]) -> Vec<String> {
        xenolog_engine::games::dimx::describe::dice_purposes_of(events)
    }

    fn why_not(&self, battle: &dyn Battle, selected: &str, target: &str) -> Option<String> {
        let s = session(battle)?.state();
        let unit = selected.strip_prefix("unit:")?;
        s.marine(unit)?;
        let command = if let Some(alien) = target.strip_prefix("unit:") {
            s.alien(alien)?;
            json!({ "full_fire": { "unit": unit, "target": alien } })
        } else {
            let hex: u16 = target.strip_prefix("hex:")?.parse().ok()?;
            json!({ "full_move": { "unit": unit, "to": hex } })
        };
        refusal(battle, &command)
    }

    fn why_idle(&self, battle: &dyn Battle, selected: &str) -> Option<String> {
        let s = session(battle)?.state();
        let unit = selected.strip_prefix("unit:")?;
        let m = s.marine(unit)?;
        let hex = m.on_map()?;
        // The first check every action makes: has it acted, is it on the map;
        // then, for a Paralyzed unit, the one action it may take.
        let command = if m.condition == Condition::Paralyzed {
            json!({ "rally": { "unit": unit } })
        } else {
            json!({ "full_move": { "unit": unit, "to": hex } })
        };
        refusal(battle, &command)
    }

    fn forfeits(&self, battle: &dyn Battle, cmd: &LegalCommand) -> Option<String> {
        let s = session(battle)?.state();
        let Phase::MarineAction {
            partial: Some(Partial::Reinforcement { hq }),
        } = &s.phase
        else {
            return None;
        };
        match serde_json::from_value(cmd.command.clone()).ok()? {
            DimxCommand::FinishAction { .. } | DimxCommand::EndActionPhase => Some(format!(
                "the reinforcement {} was granted (E.6): no unit comes in from the pool",
                title_of(s, hq)
            )),
            _ => None,
        }
    }

    fn choice_label(&self, battle: &dyn Battle, cmd: &LegalCommand) -> Option<(String, String)> {
        let s = session(battle)?.state();
        let DimxCommand::ChooseChit { chit } = serde_json::from_value(cmd.command.clone()).ok()?
        else {
            return None;
        };
        let c = s.chits().iter().find(|c| c.key == chit)?;
        let steps: Vec<String> = c.steps.iter().map(step_words).collect();
        Some((format!("Enact \"{}\"", c.name), steps.join("\n")))
    }

    fn name_of(&self, battle: &dyn Battle, id: &str) -> Option<String> {
        let s = session(battle)?.state();
        let unit = id.strip_prefix("unit:")?;
        (s.marine(unit).is_some() || s.alien(unit).is_some()).then(|| title_of(s, unit))
    }

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
        // The facts after the unit's name, which the game gives apart.
        let body = item
            .name
            .as_deref()
            .and_then(|n| tip.strip_prefix(n))
            .and_then(|rest| rest.strip_prefix(": "))
            .unwrap_or(tip.as_str());
        for part in body.split("; ") {
            for fact in part.split(", ") {
                ui.label(fact);
            }
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

    fn phase_label(&self, battle: &dyn Battle, entry: &EntryText, during: &str) -> String {
        let events = session(battle)
            .map(|s| s.events(entry.id))
            .unwrap_or_default();
        if events
            .iter()
            .any(|e| matches!(e, DimxEvent::ActionPhaseEnded { .. }))
        {
            "Kay'otz Activation Phase".to_owned()
        } else {
            during.to_owned()
        }
    }

    fn scene_at_step(
        &self,
        battle: &dyn Battle,
        entry: xenolog_engine::EntryId,
        step: usize,
    ) -> Option<Scene> {
        // The steps are the entry's events one by one: fold those up to
        // `step` onto the state before the entry.
        let s = session(battle)?;
        let parent = battle.records().get(entry as usize)?.parent;
        let mut state = s.state_at(parent);
        for e in s.events(entry).iter().take(step + 1) {
            xenolog_engine::games::dimx::state::apply(&mut state, e);
        }
        Some(xenolog_engine::games::dimx::scene::scene(&state))
    }

    fn line_of_sight(
        &self,
        battle: &dyn Battle,
        from: &str,
        to: &str,
    ) -> Option<(Vec<String>, Vec<String>)> {
        use xenolog_engine::games::dimx::map::Terrain;
        use xenolog_engine::games::dimx::rules::map_of;
        use xenolog_engine::games::dimx::scene::hex_id;
        let s = session(battle)?.state();
        let map = map_of(s);
        let cell = |id: &str| map.cell(id.strip_prefix("hex:")?.parse().ok()?);
        let (a, b) = (cell(from)?, cell(to)?);
        let crossed = map.between_in_order(a, b);
        let unit_at = |c| {
            let h = map.hex(c).number?;
            s.marines
                .iter()
                .find(|m| m.on_map() == Some(h))
                .map(|m| m.title())
                .or_else(|| {
                    s.aliens
                        .iter()
                        .find(|x| x.on_map() == Some(h))
                        .map(|x| x.title())
                })
        };
        let mut words = vec![format!(
            "From {} to {}: {}",
            map.label(a),
            map.label(b),
            if crossed.is_empty() {
                "adjacent, nothing in between.".to_owned()
            } else {
                format!(
                    "crosses or touches {}.",
                    crossed
                        .iter()
                        .map(|&c| map.label(c))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        )];
        let (mut marine_block, mut kayotz_block, mut cover) = (Vec::new(), Vec::new(), false);
        for &c in &crossed {
            let t = map.terrain(c);
            let mut what = format!("{} ({})", map.label(c), t.name());
            if let Some(u) = unit_at(c) {
                what.push_str(&format!(", {u}"));
                marine_block.push(what.clone());
            } else if map.blocks_marines.contains(c) {
                marine_block.push(what.clone());
            }
            if t == Terrain::Lava {
                kayotz_block.push(what.clone());
            }
            cover |= map.cover.contains(c);
        }
        words.push(if marine_block.is_empty() {
            "Marine fire: open (D.2).".to_owned()
        } else {
            format!("Marine fire: blocked by {} (D.2).", marine_block.join("; "))
        });
        words.push(if !kayotz_block.is_empty() {
            format!(
                "Kay'otz fire: blocked by {} (D.9).",
                kayotz_block.join("; ")
            )
        } else if cover {
            "Kay'otz fire: open, -1 for Forest, Rough or Buildings on the line (D.9).".to_owned()
        } else {
            "Kay'otz fire: open (D.9).".to_owned()
        });
        words.push(
            "The hexes at either end count too: a target in Forest, Rough or Buildings is -1 \
             (D.3, D.9)."
                .to_owned(),
        );
        let ids = crossed.iter().map(|&c| hex_id(map, c)).collect();
        Some((ids, words))
    }

    fn trails(&self, battle: &dyn Battle, entry: xenolog_engine::EntryId) -> Vec<Vec<String>> {
        // A spot is a hex number, or 10000 + column * 100 + row for a Lava
        // Flow hex (map::spot_label), whose scene id is lava:COL-ROW.
        let spot = |s: u16| {
            if s >= 10000 {
                format!("lava:{}-{}", (s - 10000) / 100, (s - 10000) % 100)
            } else {
                format!("hex:{s}")
            }
        };
        let Some(session) = session(battle) else {
            return Vec::new();
        };
        session
            .events(entry)
            .iter()
            .filter_map(|e| match e {
                DimxEvent::Moved { from, path, .. } => Some(
                    from.iter()
                        .chain(path.iter())
                        .map(|s| spot(*s))
                        .collect::<Vec<_>>(),
                ),
                DimxEvent::AlienMoved {
                    from: Some(from),
                    to,
                    ..
                } => Some(vec![spot(*from), spot(*to)]),
                _ => None,
            })
            .filter(|t| t.len() > 1)
            .collect()
    }

    fn player_aid_ui(&self, ui: &mut egui::Ui, battle: &dyn Battle) {
        aid_ui(ui, session(battle).map(|s| s.state()));
    }

    fn new_battle_config(&self, scenario: &str) -> Value {
        json!({ "scenario": scenario })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shot_focuses_on_shooter_and_target() {
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
        assert_eq!(focus(&e), vec!["unit:MS1".to_owned(), "unit:K3".to_owned()]);
    }
}
