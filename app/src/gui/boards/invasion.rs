//! Alien Invasion: the table seen from above. The selected group shows its
//! move range (the reach outline from its lead figure: the move stops at the
//! first terrain edge or barrier) and its lines of sight to every enemy group
//! (clear lines solid, blocked ones dashed, naming what blocks them); a
//! click on the table moves it there (or a drag of the group), a click on an
//! enemy group shoots at it, with linked fire collecting several shots
//! first. The side panel shows the round's cards, the last shot's total,
//! kill score and kills, and at a real table forms to declare what the
//! table shows (the cover a group ends in, base contact, a target's cover).

use std::cell::RefCell;

use eframe::egui;
use serde_json::{Value, json};
use xenolog_engine::games::invasion::model::{Cover, INCH};
use xenolog_engine::games::invasion::rules::{self, Declared, open_casualties};
use xenolog_engine::games::invasion::scene::{from_scene, to_scene};
use xenolog_engine::games::invasion::state::{GroupId, Pending, Place};
use xenolog_engine::games::invasion::{
    Invasion, InvasionCommand, InvasionEvent, InvasionState, actions, data, describe, inches, table,
};
use xenolog_engine::scene::Rgba;
use xenolog_engine::{Actor, Battle, EntryId, LegalCommand, Randomness, Scene, Session};

use super::{BoardClick, BoardUi, Mark, Prompt, at_head, swatch};
use crate::gui::board::color;
use crate::gui::command::{AppCommand, Intent, PlayRequest};
use crate::gui::view::BattleView;

/// A figure the target's player may remove.
const CASUALTY: Rgba = Rgba(230, 0, 200, 255);
const CASUALTY_FILL: Rgba = Rgba(230, 0, 200, 40);
/// A move made by the entry at the cursor.
const TRAIL: Rgba = Rgba(255, 120, 0, 230);
/// The move range's fill and edge.
const RANGE_FILL: Rgba = Rgba(255, 200, 0, 45);
const RANGE_EDGE: Rgba = Rgba(200, 130, 0, 230);
/// A clear line of sight.
const CLEAR: Rgba = Rgba(20, 150, 60, 255);
/// A blocked line of sight (paler: the clear ones are what a player looks for).
const BLOCKED: Rgba = Rgba(200, 40, 40, 150);

/// What the board keeps between frames: the marks of the selection (worked
/// out once per position and selection), the shots collected for linked
/// fire, and the real-table forms.
#[derive(Default)]
struct Kept {
    marks: Option<(MarksKey, Vec<Mark>)>,
    /// The last shot at the cursor, found once per position.
    shot: Option<(ShotKey, Option<LastShot>)>,
    /// Linked fire is being collected: the shots so far (a group once per
    /// shot), for the card it was begun on.
    link: Option<(CardKey, Vec<GroupId>)>,
    /// The figure measured in the next move of a group (clicked on the
    /// board; the group's first living figure otherwise).
    lead: Option<(GroupId, String)>,
    /// Real table: the cover the moved group ends in.
    move_cover: Option<Cover>,
    /// Real table: the enemy group reached in base contact.
    contact: Option<GroupId>,
    /// Real table: the contacted group defends a feature with this cover.
    defends: Option<Cover>,
    /// Real table: the target's cover class, declared.
    target_cover: Option<Cover>,
    /// "Something new or odd": what the selected group attempts, as typed.
    attempt: String,
}

type MarksKey = (Option<EntryId>, usize, Option<String>);
type ShotKey = (Option<EntryId>, usize);
/// An entry with a shot: its `Shot` event and the `Shared` ones after it.
type LastShot = (EntryId, Vec<InvasionEvent>);
/// A card of a round: (round, index in the round's cards).
type CardKey = (u32, usize);

/// The board UI of Alien Invasion.
#[derive(Default)]
pub struct InvasionBoard {
    kept: RefCell<Kept>,
}

fn session(battle: &dyn Battle) -> Option<&Session<Invasion>> {
    super::session_of::<Invasion>(battle)
}

fn state(battle: &dyn Battle) -> Option<&InvasionState> {
    super::state_of::<Invasion>(battle)
}

/// The group of a scene id: `group:N`, or the group of `model:ID`.
fn group_of(s: &InvasionState, id: &str) -> Option<GroupId> {
    if let Some(n) = id.strip_prefix("group:") {
        let g: GroupId = n.parse().ok()?;
        return ((g as usize) < s.groups.len()).then_some(g);
    }
    let m = id.strip_prefix("model:")?;
    s.groups
        .iter()
        .position(|g| g.models.iter().any(|x| x.id == m))
        .map(|g| g as GroupId)
}

fn card_key(s: &InvasionState) -> CardKey {
    (s.round, s.current)
}

fn cover_words(c: Cover) -> &'static str {
    match c {
        Cover::Open => "the open",
        Cover::Cover => "cover",
        Cover::Building => "a building",
    }
}

/// A command of a seat as the app gives it: refused at once, in the rule's
/// words, when the rules refuse it.
/// A row of radio buttons for a declared cover: not declared, then the
/// open, cover and a building, labelled in that order.
fn cover_ui(ui: &mut egui::Ui, cover: &mut Option<Cover>, labels: [&str; 4]) {
    let covers = [
        None,
        Some(Cover::Open),
        Some(Cover::Cover),
        Some(Cover::Building),
    ];
    ui.horizontal_wrapped(|ui| {
        for (c, label) in covers.into_iter().zip(labels) {
            ui.radio_value(cover, c, label);
        }
    });
}

fn give(battle: &dyn Battle, s: &InvasionState, seat: u8, cmd: &InvasionCommand) -> AppCommand {
    let Ok(value) = serde_json::to_value(cmd) else {
        return AppCommand::Explain("Not possible: the command could not be written".into());
    };
    match battle.prepare_json(Actor(seat), &value, None) {
        Err(e) => AppCommand::Explain(format!("Not possible: {e}")),
        Ok(_) => AppCommand::Give(PlayRequest::new(Intent {
            actor: Actor(seat),
            command: value,
            text: describe::command(s, Actor(seat), cmd),
            label: None,
        })),
    }
}

/// The dice a group rolls when it shoots, in words ("8D6").
fn shooting_words(s: &InvasionState, g: GroupId) -> String {
    let group = s.group(g);
    let faction = s.faction(group.seat);
    if faction.rules.mib_dice
        && group.role != xenolog_engine::games::invasion::model::GroupRole::CleanUp
    {
        let first = 1 + s.studied.len();
        return format!(
            "{first}D6 first for how many dice, then that many D6 for each of its {} operative{}",
            group.alive_count(),
            if group.alive_count() == 1 { "" } else { "s" }
        );
    }
    // Every other faction's dice are fixed: a throwaway stream rolls nothing.
    let mut rng = Randomness::new(0, 0, None);
    let n = rules::shooting_dice(s, g, &mut rng, &mut Vec::new()).unwrap_or(0);
    format!("{n}D6")
}

/// The last shot at or before the cursor (within a few entries back):
/// the entry, its `Shot` event and the `Shared` events after it (a shot
/// into a melee shares its dice among the factions in it).
fn last_shot(battle: &dyn Battle) -> Option<LastShot> {
    let session = session(battle)?;
    let mut at = battle.cursor();
    for _ in 0..40 {
        let id = at?;
        let events = session.events(id);
        if let Some(i) = events
            .iter()
            .rposition(|e| matches!(e, InvasionEvent::Shot { .. }))
        {
            let shot: Vec<InvasionEvent> = events[i..]
                .iter()
                .enumerate()
                .take_while(|(k, e)| *k == 0 || !matches!(e, InvasionEvent::Shot { .. }))
                .map(|(_, e)| e)
                .filter(|e| matches!(e, InvasionEvent::Shot { .. } | InvasionEvent::Shared { .. }))
                .cloned()
                .collect();
            return Some((id, shot));
        }
        at = battle.records().get(id as usize)?.parent;
    }
    None
}

/// Rings around the figures the target's player may remove now.
fn casualty_rings(s: &InvasionState) -> Vec<Mark> {
    let mut out = Vec::new();
    for (_, g, _, among) in open_casualties(s) {
        for m in s.group(g).alive() {
            let Some(at) = m.at else { continue };
            if !among.is_empty() && !among.iter().any(|a| *a == m.id) {
                continue;
            }
            let c = to_scene(at);
            let r = 6.5;
            let outline = (0..16)
                .map(|k| {
                    let a = std::f32::consts::TAU * k as f32 / 16.0;
                    [c[0] + r * a.cos(), c[1] + r * a.sin()]
                })
                .collect();
            out.push(Mark::Area {
                centre: c,
                outline,
                fill: CASUALTY_FILL,
                stroke: CASUALTY,
                tip: format!("{}: click to remove it as a casualty", m.name),
            });
        }
    }
    out
}

/// The moves the entry at the cursor made, each from the middle of the
/// group before to the middle after (a fall back too), as orange lines.
fn trails(battle: &dyn Battle) -> Vec<Mark> {
    let (Some(session), Some(id)) = (session(battle), battle.cursor()) else {
        return Vec::new();
    };
    let events = session.events(id);
    if !events
        .iter()
        .any(|e| matches!(e, InvasionEvent::Moved { .. }))
    {
        return Vec::new();
    }
    let Some(parent) = battle.records().get(id as usize).map(|r| r.parent) else {
        return Vec::new();
    };
    let before = session.state_at(parent);
    events
        .iter()
        .filter_map(|e| match e {
            InvasionEvent::Moved {
                group, to, stopped, ..
            } if (*group as usize) < before.groups.len() => {
                let from = before.group(*group).points();
                let to: Vec<_> = to.iter().flatten().copied().collect();
                if from.is_empty() || to.is_empty() {
                    return None;
                }
                Some(Mark::Line {
                    from: to_scene(table::centre(&from)),
                    to: to_scene(table::centre(&to)),
                    colour: TRAIL,
                    dashed: false,
                    tip: format!(
                        "{} moved{}",
                        rules::group_name(&before, *group),
                        stopped
                            .as_ref()
                            .map_or_else(String::new, |w| format!(": {w}"))
                    ),
                })
            }
            _ => None,
        })
        .collect()
}

impl InvasionBoard {
    /// The figure a move of `g` is measured from: the one clicked, if it
    /// still lives, else the first living one.
    fn lead(&self, s: &InvasionState, g: GroupId) -> Option<(String, String)> {
        let group = s.group(g);
        let chosen = self
            .kept
            .borrow()
            .lead
            .clone()
            .filter(|(lg, _)| *lg == g)
            .and_then(|(_, id)| group.alive().find(|m| m.id == id));
        chosen
            .or_else(|| group.alive().next())
            .map(|m| (String::from(&m.id), String::from(&m.name)))
    }

    fn marks_of(&self, s: &InvasionState, g: GroupId) -> Vec<Mark> {
        let group = s.group(g);
        if s.real_table || !group.on_table() || !group.placed() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let name = rules::group_name(s, g);
        let lead_id = self.lead(s, g).map(|(id, _)| id);
        if let Some(lead) = group
            .alive()
            .find(|m| lead_id.as_ref().is_some_and(|l| m.id == *l))
            .and_then(|m| m.at)
        {
            let allowance = rules::group_move(s, g);
            let outline =
                table::reach_outline(&s.scenario, lead, allowance, rules::group_mobility(s, g));
            if outline.len() >= 3 {
                out.push(Mark::Area {
                    centre: to_scene(lead),
                    outline: outline.iter().map(|p| to_scene(*p)).collect(),
                    fill: RANGE_FILL,
                    stroke: RANGE_EDGE,
                    tip: format!(
                        "{name}: its lead figure moves up to {} (a move ends on entering a \
                         terrain feature or crossing a barrier)",
                        inches(allowance)
                    ),
                });
            }
        }
        for t in actions::enemy_groups(s, group.seat) {
            let target = s.group(t);
            if !target.placed() {
                continue;
            }
            let sight = table::line_of_sight(
                &s.scenario,
                &group.points(),
                &target.points(),
                &actions::blockers(s, g, t),
            );
            let tname = rules::group_name(s, t);
            if let Some((a, b)) = sight.clear {
                out.push(Mark::Line {
                    from: to_scene(a),
                    to: to_scene(b),
                    colour: CLEAR,
                    dashed: false,
                    tip: format!("{name} can see {tname}: a clear line of sight"),
                });
            } else if let Some(bl) = sight.blocked.first() {
                out.push(Mark::Line {
                    from: to_scene(bl.from),
                    to: to_scene(bl.to),
                    colour: BLOCKED,
                    dashed: true,
                    tip: format!(
                        "{name} cannot see {tname}: blocked by {}",
                        actions::blocker_name(s, bl.by)
                    ),
                });
            }
        }
        out
    }

    /// The shooters of a shot by `g` now: the linked shots collected on this
    /// card, or `g` alone.
    fn shooters(&self, s: &InvasionState, g: GroupId) -> Vec<GroupId> {
        match &self.kept.borrow().link {
            Some((card, shots)) if *card == card_key(s) && !shots.is_empty() => shots.clone(),
            _ => vec![g],
        }
    }

    fn shoot(&self, s: &InvasionState, g: GroupId, target: GroupId) -> InvasionCommand {
        let shooters = self.shooters(s, g);
        let unplaced = shooters
            .iter()
            .any(|&x| !s.group(x).placed() || s.group(x).points().is_empty())
            || !s.group(target).placed()
            || s.group(target).points().is_empty();
        let kept = self.kept.borrow();
        let declare = if s.real_table || unplaced {
            Declared {
                sight: Some(true),
                cover: kept.target_cover,
                ..Declared::default()
            }
        } else {
            Declared::default()
        };
        InvasionCommand::Shoot {
            shooters,
            target,
            declare,
        }
    }

    /// Linked fire: a toggle, then a shot added per click, fired at the
    /// target clicked next.
    fn link_ui(
        &self,
        ui: &mut egui::Ui,
        battle: &dyn Battle,
        s: &InvasionState,
        g: GroupId,
        commands: &mut Vec<AppCommand>,
    ) {
        let seat = s.group(g).seat;
        if !s.faction(seat).link_fire || s.actions_left() < 2 {
            return;
        }
        let card = card_key(s);
        let mut kept = self.kept.borrow_mut();
        if kept.link.as_ref().is_some_and(|(c, _)| *c != card) {
            kept.link = None;
        }
        let mut on = kept.link.is_some();
        ui.checkbox(&mut on, "Link fire")
            .on_hover_text("Linked fire: every shot of this card at one target is totalled before kills are counted (a group twice, or two groups).");
        if on != kept.link.is_some() {
            kept.link = on.then(|| (card, vec![g]));
        }
        let Some((_, shots)) = &mut kept.link else {
            return;
        };
        let names: Vec<String> = shots.iter().map(|&x| s.group(x).name.clone()).collect();
        ui.label(format!(
            "Linked shots ({} of {} actions): {}",
            shots.len(),
            s.actions_left(),
            names.join(", ")
        ));
        if shots.len() < s.actions_left() as usize {
            let mine: Vec<GroupId> = (0..s.groups.len() as GroupId)
                .filter(|&o| s.group(o).seat == seat && s.group(o).on_table() && s.may_act(o))
                .collect();
            ui.horizontal_wrapped(|ui| {
                for o in mine {
                    if ui
                        .button(format!("Add a shot by {}", s.group(o).name))
                        .clicked()
                    {
                        shots.push(o);
                    }
                }
            });
        }
        if s.real_table {
            ui.weak("Shoot below: the linked shots fire as one total.");
            return;
        }
        ui.weak("Click the target on the board, or fire below: one total.");
        drop(kept);
        for t in actions::enemy_groups(s, seat) {
            if ui
                .button(format!(
                    "Fire the linked shots at {}",
                    rules::group_name(s, t)
                ))
                .clicked()
            {
                let cmd = self.shoot(s, g, t);
                let out = give(battle, s, seat, &cmd);
                if matches!(out, AppCommand::Give(_)) {
                    self.kept.borrow_mut().link = None;
                }
                commands.push(out);
            }
        }
    }

    /// "If a player wants to attempt something new or odd then common sense
    /// and a quick discussion between players should decide whether to
    /// allow it": once they agree, the group makes an Action roll for it.
    fn attempt_ui(
        &self,
        ui: &mut egui::Ui,
        battle: &dyn Battle,
        s: &InvasionState,
        g: GroupId,
        commands: &mut Vec<AppCommand>,
    ) {
        let seat = s.group(g).seat;
        ui.collapsing("Something new or odd", |ui| {
            ui.weak(
                "Agree it with the other players first; the group then spends an action \
                 and rolls a D6 per figure: any 6 succeeds.",
            );
            let mut kept = self.kept.borrow_mut();
            ui.horizontal(|ui| {
                let l = ui.label("They attempt:");
                ui.add(
                    egui::TextEdit::singleline(&mut kept.attempt)
                        .hint_text("e.g. hot-wire the milk float")
                        .char_limit(actions::MAX_TRY_WORDS),
                )
                .labelled_by(l.id);
            });
            let what = kept.attempt.trim().to_owned();
            drop(kept);
            let button = ui.add_enabled(!what.is_empty(), egui::Button::new("Attempt it"));
            if button.clicked() {
                let cmd = InvasionCommand::Try { group: g, what };
                let out = give(battle, s, seat, &cmd);
                if matches!(out, AppCommand::Give(_)) {
                    self.kept.borrow_mut().attempt.clear();
                }
                commands.push(out);
            }
        });
    }

    /// At a real table: the move and the shot with what the table shows.
    fn table_forms_ui(
        &self,
        ui: &mut egui::Ui,
        battle: &dyn Battle,
        s: &InvasionState,
        g: GroupId,
        commands: &mut Vec<AppCommand>,
    ) {
        let group = s.group(g);
        let seat = group.seat;
        let enemies = actions::enemy_groups(s, seat);
        ui.add_space(4.0);
        ui.strong("Declare what the table shows");
        let mut kept = self.kept.borrow_mut();
        // The move.
        ui.label("Move: the group ends in");
        cover_ui(
            ui,
            &mut kept.move_cover,
            [
                "Not declared",
                "Ends in the open",
                "Ends in cover",
                "Ends in a building",
            ],
        );
        ui.horizontal_wrapped(|ui| {
            ui.radio_value(&mut kept.contact, None, "No base contact");
            for &e in &enemies {
                ui.radio_value(
                    &mut kept.contact,
                    Some(e),
                    format!("In base contact with {}", rules::group_name(s, e)),
                );
            }
        });
        if kept.contact.is_some() {
            ui.horizontal_wrapped(|ui| {
                for (c, label) in [
                    (None, "They defend nothing"),
                    (Some(Cover::Cover), "They defend cover"),
                    (Some(Cover::Building), "They defend a building"),
                ] {
                    ui.radio_value(&mut kept.defends, c, label);
                }
            });
        }
        if ui.button("Move at the table").clicked() {
            let cmd = InvasionCommand::Move {
                group: g,
                to: None,
                lead: None,
                face: None,
                declare: Declared {
                    cover: kept.move_cover,
                    contact: kept.contact,
                    defends: kept.contact.and(kept.defends),
                    ..Declared::default()
                },
            };
            commands.push(give(battle, s, seat, &cmd));
            kept.contact = None;
            kept.defends = None;
        }
        // The shot.
        ui.add_space(4.0);
        ui.label("Shoot: the target is in");
        cover_ui(
            ui,
            &mut kept.target_cover,
            [
                "Its last declared cover",
                "Target in the open",
                "Target in cover",
                "Target in a building",
            ],
        );
        ui.weak("Each button declares that the table shows a line of sight to the target.");
        drop(kept);
        for e in enemies {
            let label = format!("Shoot at {}", rules::group_name(s, e));
            if ui.button(&label).clicked() {
                let cmd = self.shoot(s, g, e);
                commands.push(give(battle, s, seat, &cmd));
            }
        }
    }

    /// At a real table the board shows no figures: every group in words,
    /// a button to select it.
    fn groups_ui(ui: &mut egui::Ui, s: &InvasionState, commands: &mut Vec<AppCommand>) {
        egui::CollapsingHeader::new("Groups at the table")
            .id_salt("invasion-groups")
            .default_open(true)
            .show(ui, |ui| {
                for (seat, f) in s.factions.iter().enumerate() {
                    ui.strong(&f.name);
                    for (i, g) in s.groups.iter().enumerate() {
                        if usize::from(g.seat) != seat || g.alive_count() == 0 {
                            continue;
                        }
                        let mut words = format!(
                            "{}: {} figure{}",
                            g.name,
                            g.alive_count(),
                            if g.alive_count() == 1 { "" } else { "s" }
                        );
                        match g.place {
                            Place::Table => {}
                            Place::Below => words.push_str(", below the table"),
                            Place::Reserve => words.push_str(", not arrived"),
                            Place::Carried(_) => words.push_str(", carried"),
                            Place::Air => words.push_str(", in the air"),
                            Place::Gone => {}
                        }
                        if let Some(c) = g.declared_cover {
                            words.push_str(&format!(", in {} (declared)", cover_words(c)));
                        }
                        if g.locked.is_some() {
                            words.push_str(", locked in hand-to-hand");
                        }
                        let r = ui
                            .add(egui::Button::new(&words).frame(false).wrap())
                            .on_hover_text(format!(
                                "Select {}",
                                rules::group_name(s, i as GroupId)
                            ));
                        if r.clicked() {
                            commands.push(AppCommand::Select(Some(format!("group:{i}"))));
                        }
                    }
                }
            });
    }

    fn cards_ui(ui: &mut egui::Ui, s: &InvasionState) {
        ui.strong(if s.round == 0 {
            "Cards: none drawn yet".to_owned()
        } else {
            format!("Cards of round {}", s.round)
        });
        for (i, card) in s.drawn.iter().enumerate() {
            let name = describe::card_name(s, *card);
            let text = if i < s.current {
                format!("{}. {name}: played", i + 1)
            } else if i == s.current && s.over.is_none() {
                let left = s.actions_left();
                format!(
                    "{}. {name}: being played, {left} action{} left",
                    i + 1,
                    if left == 1 { "" } else { "s" }
                )
            } else {
                format!("{}. {name}", i + 1)
            };
            if i == s.current && s.over.is_none() {
                ui.label(egui::RichText::new(text).strong());
            } else {
                ui.label(text);
            }
        }
    }

    /// The last shot at the cursor (decoded once per position, not per frame).
    fn last_shot(&self, battle: &dyn Battle) -> Option<LastShot> {
        let key: ShotKey = (battle.cursor(), battle.records().len());
        if let Some((k, shot)) = &self.kept.borrow().shot
            && *k == key
        {
            return shot.clone();
        }
        let shot = last_shot(battle);
        self.kept.borrow_mut().shot = Some((key, shot.clone()));
        shot
    }

    fn shot_ui(&self, ui: &mut egui::Ui, battle: &dyn Battle, s: &InvasionState) {
        let Some((entry, events)) = self.last_shot(battle) else {
            return;
        };
        let Some(InvasionEvent::Shot {
            shooters,
            target,
            dice,
            how_many,
            total,
            cover,
            kill_score,
            kills,
            declared,
        }) = events.first().cloned()
        else {
            return;
        };
        ui.add_space(4.0);
        ui.strong(format!("Last shot (entry #{entry})"));
        let names: Vec<String> = shooters
            .iter()
            .filter(|&&g| (g as usize) < s.groups.len())
            .map(|&g| s.group(g).name.clone())
            .collect();
        let target = if (target as usize) < s.groups.len() {
            rules::group_name(s, target)
        } else {
            format!("group {target}")
        };
        ui.label(format!(
            "{}{} at {target}",
            names.join(" and "),
            if shooters.len() > 1 {
                " (linked fire)"
            } else {
                ""
            }
        ));
        if !how_many.is_empty() {
            ui.label(format!(
                "How many dice: {}",
                how_many
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        ui.label(format!(
            "{}D6: {} = total {total}",
            dice.len(),
            dice.iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let shares: Vec<&InvasionEvent> = events[1..].iter().collect();
        if shares.is_empty() {
            ui.label(format!(
                "Kill score {kill_score} (target in {})",
                cover_words(cover)
            ));
            let left = total % kill_score.max(1);
            ui.label(format!(
                "{kills} kill{}{}",
                if kills == 1 { "" } else { "s" },
                if left > 0 && kills * kill_score < total {
                    format!("; the {left} left over do nothing")
                } else {
                    String::new()
                }
            ));
        } else {
            ui.label(
                "Into a melee: the even dice to the target, the odd ones shared among the others",
            );
        }
        for e in shares {
            if let InvasionEvent::Shared {
                group,
                dice,
                total,
                kill_score,
                kills,
            } = e
                && (*group as usize) < s.groups.len()
            {
                ui.label(format!(
                    "{}: {} = {total} against kill score {kill_score}: {kills} kill{}",
                    rules::group_name(s, *group),
                    if dice.is_empty() {
                        "no dice".to_owned()
                    } else {
                        dice.iter()
                            .map(u8::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
                    if *kills == 1 { "" } else { "s" }
                ));
            }
        }
        if !declared.is_empty() {
            ui.weak(format!("Declared at the table: {}", declared.join(", ")));
        }
    }
}

/// The scene items an event is about, marked on the board while its step
/// is shown.
fn focus(e: &InvasionEvent) -> Vec<String> {
    use InvasionEvent as E;
    let g = |g: &GroupId| format!("group:{g}");
    match e {
        E::Shot {
            shooters, target, ..
        } => shooters
            .iter()
            .chain(std::iter::once(target))
            .map(g)
            .collect(),
        E::Moved { group, .. }
        | E::Spent { group }
        | E::Shared { group, .. }
        | E::MustRemove { group, .. }
        | E::Attempted { group, .. }
        | E::Surfaced { group, .. }
        | E::Arrived { group, .. }
        | E::Detonated { group, .. } => vec![g(group)],
        E::Killed { model, .. } => vec![format!("model:{model}")],
        E::Locked { groups, .. } => groups.iter().map(g).collect(),
        E::Merged { from, into } => vec![g(from), g(into)],
        _ => Vec::new(),
    }
}

impl BoardUi for InvasionBoard {
    fn scene_at_step(&self, battle: &dyn Battle, entry: EntryId, step: usize) -> Option<Scene> {
        // The steps are the entry's events one by one: fold those up to
        // `step` onto the state before the entry.
        let s = session(battle)?;
        let parent = battle.records().get(entry as usize)?.parent;
        let mut state = s.state_at(parent);
        for e in s.events(entry).iter().take(step + 1) {
            xenolog_engine::games::invasion::state::apply(&mut state, e);
        }
        Some(xenolog_engine::games::invasion::scene::scene(&state))
    }

    fn steps(&self, battle: &dyn Battle, entry: &xenolog_engine::EntryText) -> Vec<super::Step> {
        let events = session(battle)
            .map(|s| s.events(entry.id))
            .unwrap_or_default();
        let aligned = events.len() == entry.events.len();
        entry
            .events
            .iter()
            .enumerate()
            .map(|(i, text)| super::Step {
                text: text.clone(),
                focus: if aligned {
                    events.get(i).map(focus).unwrap_or_default()
                } else {
                    Vec::new()
                },
            })
            .collect()
    }

    fn prompt(&self, battle: &dyn Battle) -> Option<Prompt> {
        let s = state(battle)?;
        if s.over.is_some() {
            return None;
        }
        if let Some((seat, g, count, among)) = open_casualties(s).into_iter().next() {
            return Some(Prompt {
                ask: format!(
                    "{}: choose {count} casualt{} of {}",
                    s.faction(seat).name,
                    if count == 1 { "y" } else { "ies" },
                    rules::group_name(s, g)
                ),
                why: format!(
                    "\"The player controlling the target group decides which figures to \
                     remove\" (Shoot){}. Click the figures on the board, or pick them below.",
                    if among.is_empty() {
                        ""
                    } else {
                        ": only figures caught in the blast"
                    }
                ),
            });
        }
        if let Some(Pending::Strike { seat, dice, .. }) = s.pending.first() {
            return Some(Prompt {
                ask: format!(
                    "{}: strike in the hand-to-hand with {dice}D6",
                    s.faction(*seat).name
                ),
                why: "Resolving hand-to-hand combat: every faction rolls its close-combat \
                      dice before casualties are removed. When more than two factions fight, \
                      the even dice go to the faction you choose and the odd dice are shared \
                      among the others."
                    .into(),
            });
        }
        if let Some(Pending::Occupy { seat, cover, .. }) = s.pending.first() {
            return Some(Prompt {
                ask: format!(
                    "{}: take the ground you won ({}), or stay",
                    s.faction(*seat).name,
                    cover_words(*cover)
                ),
                why: "Resolving hand-to-hand combat: \"If there is a single faction remaining \
                      they ... may move to occupy any ground that their opponent was holding\" \
                      (over a barricade, inside a stormed building)."
                    .into(),
            });
        }
        None
    }

    fn dice_purposes(&self, events: &[u8]) -> Vec<String> {
        xenolog_engine::games::invasion::describe::dice_purposes_of(events)
    }

    fn why_not(&self, battle: &dyn Battle, selected: &str, target: &str) -> Option<String> {
        let s = state(battle)?;
        let g = selected
            .strip_prefix("group:")
            .and_then(|_| group_of(s, selected))?;
        let t = group_of(s, target)?;
        if s.group(t).seat == s.group(g).seat {
            return None;
        }
        let cmd = serde_json::to_value(self.shoot(s, g, t)).ok()?;
        battle
            .prepare_json(Actor(s.group(g).seat), &cmd, None)
            .err()
            .map(|e| e.to_string())
    }

    fn why_idle(&self, battle: &dyn Battle, selected: &str) -> Option<String> {
        let s = state(battle)?;
        let g = selected
            .strip_prefix("group:")
            .and_then(|_| group_of(s, selected))?;
        let cmd = serde_json::to_value(InvasionCommand::Move {
            group: g,
            to: None,
            lead: None,
            face: None,
            declare: Declared::default(),
        })
        .ok()?;
        battle
            .prepare_json(Actor(s.group(g).seat), &cmd, None)
            .err()
            .map(|e| e.to_string())
    }

    fn action_group(&self, cmd: &LegalCommand) -> Option<(u8, &'static str)> {
        use InvasionCommand as C;
        Some(match serde_json::from_value(cmd.command.clone()).ok()? {
            C::Move { .. } | C::Board { .. } => (0, "Move"),
            C::Shoot { .. } => (1, "Shoot"),
            C::Suppress { .. } => (2, "Suppressing fire"),
            C::Relay { .. } | C::Perceive { .. } => (3, "Sighting"),
            C::Detonate { .. } => (4, "Detonate"),
            C::Casualties { .. }
            | C::Strike { .. }
            | C::Occupy { .. }
            | C::Spring { .. }
            | C::LetPass
            | C::EndCard
            | C::Continue => return None,
            _ => (5, "Special"),
        })
    }

    fn name_of(&self, battle: &dyn Battle, id: &str) -> Option<String> {
        let s = state(battle)?;
        if id.starts_with("group:") {
            return group_of(s, id).map(|g| rules::group_name(s, g));
        }
        let m = id.strip_prefix("model:")?;
        s.groups
            .iter()
            .flat_map(|g| &g.models)
            .find(|x| x.id == m)
            .map(|x| String::from(&x.name))
    }

    fn details_ui(&self, ui: &mut egui::Ui, battle: &dyn Battle, scene: &Scene, selected: &str) {
        let Some(s) = state(battle) else {
            super::generic_details_ui(ui, battle, scene, selected);
            return;
        };
        let Some(g) = group_of(s, selected) else {
            super::generic_details_ui(ui, battle, scene, selected);
            return;
        };
        let group = s.group(g);
        let alive = group.alive_count();
        ui.label(format!(
            "{}: {alive} figure{}",
            s.faction(group.seat).name,
            if alive == 1 { "" } else { "s" }
        ));
        let kinds: Vec<String> = group
            .alive()
            .map(|m| {
                s.model_type(group.seat, &m.kind)
                    .map_or_else(|| String::from(&m.name), |t| t.name.clone())
            })
            .collect();
        if !kinds.is_empty() {
            ui.weak(kinds.join(", "));
        }
        match group.place {
            Place::Table => {}
            Place::Below => {
                ui.label("Below the table");
            }
            Place::Reserve => {
                ui.label("Not arrived yet");
            }
            Place::Carried(w) => {
                ui.label(format!("Carried by {}", rules::group_name(s, w)));
            }
            Place::Air => {
                ui.label("In the air");
            }
            Place::Gone => {
                ui.label("Every figure is dead");
            }
        }
        if alive > 0 {
            ui.label(format!("Shoots with {}", shooting_words(s, g)));
            // MiB operatives fight with their shooting dice: a D6 first for
            // how many, rolled when the melee is resolved (text 000).
            if rules::melee_rolls_how_many(s, g) {
                ui.label(format!(
                    "Hand-to-hand: as they shoot ({})",
                    shooting_words(s, g)
                ));
            } else {
                ui.label(format!("Hand-to-hand: {}D6", rules::melee_dice(s, g)));
            }
            let mv = rules::group_move(s, g);
            if mv > 0 {
                ui.label(format!("Moves {}", inches(mv)));
            }
            let ks = |c| rules::kill_score(s, g, c);
            ui.label(format!(
                "Kill scores: {} open, {} cover, {} building",
                ks(Cover::Open),
                ks(Cover::Cover),
                ks(Cover::Building)
            ));
            let (cover, declared) = rules::cover_of(s, g, None);
            ui.label(format!(
                "Now in {}{}",
                cover_words(cover),
                if declared { " (declared)" } else { "" }
            ));
        }
        if group.locked.is_some() {
            ui.colored_label(ui.visuals().warn_fg_color, "Locked in hand-to-hand combat");
        }
        if xenolog_engine::games::invasion::fire::suppressed(s, g) {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "Suppressed until the end of its next card: shoots at -2 a die, sneaks (half a move), may not assault or return suppressing fire",
            );
        }
        if let Some(assault) = xenolog_engine::games::invasion::wait::waiting(s, g) {
            ui.label(if assault {
                "Laying in wait to assault an enemy that comes within its move"
            } else {
                "Laying in wait to fire at an enemy that comes into sight (at -1 a die)"
            });
        }
        if s.advanced.relaying.contains(&g) {
            ui.label("Relaying on this card: may not move or fire");
        }
        if group.kills > 0 {
            ui.label(format!("Kills: {}", group.kills));
        }
    }

    fn marks(&self, battle: &dyn Battle, selected: Option<&str>) -> Vec<Mark> {
        let Some(s) = state(battle) else {
            return Vec::new();
        };
        let key: MarksKey = (
            battle.cursor(),
            battle.records().len(),
            selected.map(str::to_owned),
        );
        if let Some((k, marks)) = &self.kept.borrow().marks
            && *k == key
        {
            return marks.clone();
        }
        let mut marks = trails(battle);
        marks.extend(casualty_rings(s));
        marks.extend(
            selected
                .filter(|id| id.starts_with("group:"))
                .and_then(|id| group_of(s, id))
                .map(|g| self.marks_of(s, g))
                .unwrap_or_default(),
        );
        self.kept.borrow_mut().marks = Some((key, marks.clone()));
        marks
    }

    fn click(&self, battle: &dyn Battle, click: BoardClick) -> Option<AppCommand> {
        let BoardClick {
            selected,
            under,
            at,
        } = click;
        let s = state(battle)?;
        if s.over.is_some() || !at_head(battle) {
            return None;
        }
        // The target's player picks casualties by clicking the figures.
        let open = open_casualties(s);
        if !open.is_empty() {
            let m = under.iter().find_map(|i| i.strip_prefix("model:"))?;
            let g = group_of(s, under.iter().find(|i| i.starts_with("model:"))?)?;
            let (seat, ..) = open.iter().find(|(_, og, ..)| *og == g)?;
            return Some(give(
                battle,
                s,
                *seat,
                &InvasionCommand::Casualties {
                    models: vec![m.to_owned()],
                },
            ));
        }
        // A group asked where it goes (a melee's losers surfacing, a group
        // falling back, rules version 6): a click on the table is its point.
        if let Some((seat, cmd)) = point_click(s, at) {
            return Some(give(battle, s, seat, &cmd));
        }
        let mine = selected
            .filter(|id| id.starts_with("group:"))
            .and_then(|id| group_of(s, id));
        let clicked = under
            .iter()
            .find(|i| i.starts_with("model:") || i.starts_with("group:"))
            .and_then(|i| group_of(s, i));
        // A Burrower below the table: a click on the table tunnels there
        // or surfaces there (asked which).
        if let Some(g) = mine
            && clicked.is_none()
            && s.group(g).place == Place::Below
            && s.is_worm(g)
            && !s.real_table
            && at[0] >= 0.0
            && at[1] >= 0.0
        {
            let to = from_scene(at);
            if to.x > s.scenario.width || to.y > s.scenario.height {
                return None;
            }
            let seat = s.group(g).seat;
            let ways: Vec<Intent> = [
                InvasionCommand::Tunnel {
                    group: g,
                    to: Some(to),
                },
                InvasionCommand::Surface {
                    group: g,
                    to: Some(to),
                    hole: None,
                    declare: Declared::default(),
                },
            ]
            .iter()
            .filter_map(|c| match give(battle, s, seat, c) {
                AppCommand::Give(r) => Some(r.intent),
                _ => None,
            })
            .collect();
            return match ways.len() {
                0 => Some(give(
                    battle,
                    s,
                    seat,
                    &InvasionCommand::Tunnel {
                        group: g,
                        to: Some(to),
                    },
                )),
                1 => ways
                    .into_iter()
                    .next()
                    .map(|i| AppCommand::Give(PlayRequest::new(i))),
                _ => Some(AppCommand::Choose(ways)),
            };
        }
        match (mine, clicked) {
            (Some(g), Some(t)) if s.group(t).seat != s.group(g).seat && s.may_act(g) => {
                let cmd = self.shoot(s, g, t);
                let out = give(battle, s, s.group(g).seat, &cmd);
                if matches!(out, AppCommand::Give(_)) {
                    self.kept.borrow_mut().link = None;
                }
                Some(out)
            }
            // A figure of the selected group leads its next move.
            (Some(g), Some(t))
                if t == g
                    && !s.real_table
                    && s.may_act(g)
                    && under.first().is_some_and(|i| i.starts_with("model:")) =>
            {
                let id = under.first()?.strip_prefix("model:")?.to_owned();
                let name = s.group(g).alive().find(|m| m.id == id)?.name.clone();
                let mut kept = self.kept.borrow_mut();
                kept.lead = Some((g, id));
                kept.marks = None;
                Some(AppCommand::Explain(format!(
                    "{name} leads {}'s next move: click where it goes",
                    s.group(g).name
                )))
            }
            // A figure selects its group.
            (_, Some(t)) => Some(AppCommand::Select(Some(format!("group:{t}")))),
            (Some(g), None) => {
                let group = s.group(g);
                let on_table = at[0] >= 0.0
                    && at[1] >= 0.0
                    && from_scene(at).x <= s.scenario.width
                    && from_scene(at).y <= s.scenario.height;
                if !on_table
                    || s.real_table
                    || !group.on_table()
                    || !group.placed()
                    || !s.may_act(g)
                    || under.iter().any(|i| i.starts_with("card:"))
                {
                    return None;
                }
                let lead = self.lead(s, g).map(|(id, _)| id);
                let (to, face) = vehicle_click(s, g, lead.as_deref(), from_scene(at));
                let cmd = InvasionCommand::Move {
                    group: g,
                    to: Some(to),
                    lead,
                    face,
                    declare: Declared::default(),
                };
                Some(give(battle, s, group.seat, &cmd))
            }
            (None, None) => None,
        }
    }

    fn drags(&self, battle: &dyn Battle, selected: &str) -> bool {
        let Some(s) = state(battle) else {
            return false;
        };
        selected.starts_with("group:")
            && group_of(s, selected).is_some_and(|g| {
                !s.real_table && s.group(g).on_table() && s.group(g).placed() && s.may_act(g)
            })
    }

    fn panel_ui(
        &self,
        ui: &mut egui::Ui,
        battle: &dyn Battle,
        _view: &BattleView,
        selected: Option<&str>,
        commands: &mut Vec<AppCommand>,
    ) {
        let Some(s) = state(battle) else { return };
        ui.separator();
        Self::cards_ui(ui, s);
        self.shot_ui(ui, battle, s);
        if s.real_table {
            Self::groups_ui(ui, s, commands);
        }
        let head = at_head(battle);
        let Some(g) = selected
            .filter(|id| id.starts_with("group:"))
            .and_then(|id| group_of(s, id))
        else {
            return;
        };
        if !head || s.over.is_some() || !s.may_act(g) || !s.pending.is_empty() {
            return;
        }
        let group = s.group(g);
        if group.place != Place::Table {
            return;
        }
        ui.add_space(4.0);
        self.link_ui(ui, battle, s, g, commands);
        self.attempt_ui(ui, battle, s, g, commands);
        if s.real_table || !group.placed() {
            self.table_forms_ui(ui, battle, s, g, commands);
        } else {
            if let Some((_, name)) = self.lead(s, g) {
                ui.label(format!("Leads the move: {name}"));
            }
            ui.weak(format!(
                "Click a point on the table (or drag the group) to move its lead figure up \
                 to {}; click one of its figures to lead with it instead; click an enemy \
                 group to shoot at it.",
                inches(rules::group_move(s, g).max(INCH))
            ));
        }
    }

    fn player_aid_ui(&self, ui: &mut egui::Ui, battle: &dyn Battle) {
        aid_ui(ui, state(battle));
    }

    fn new_battle_ui(&self, ui: &mut egui::Ui, scenario: &str, config: &mut Value) {
        factions_ui(ui, scenario, config);
    }

    fn new_battle_config(&self, scenario: &str) -> Value {
        json!({ "scenario": scenario })
    }

    fn new_battle_config_with(&self, scenario: &str, extra: &Value) -> Value {
        let mut config = json!({ "scenario": scenario });
        if let Some(f) = extra.get("factions").filter(|f| f.is_array()) {
            config["factions"] = f.clone();
        }
        if let Some(text) = extra
            .get("faction_text")
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty())
        {
            config["faction_texts"] = json!([text]);
        }
        config
    }
}

/// The legend and player aid of Alien Invasion (rule text 000, its section
/// names in brackets), with the kill scores of the factions in the battle.
fn aid_ui(ui: &mut egui::Ui, s: Option<&InvasionState>) {
    use xenolog_engine::games::invasion::scene::cover_fill;
    ui.set_max_width(ui.available_width().min(460.0));
    ui.heading("The table");
    for (c, soft, words) in [
        (
            Cover::Open,
            false,
            "Open: no protection; the open kill score (Cover).",
        ),
        (
            Cover::Cover,
            false,
            "Cover: hedges, woods, rubble; the cover kill score (Cover).",
        ),
        (
            Cover::Building,
            false,
            "Building: hardened; the building kill score (Cover).",
        ),
        (
            Cover::Open,
            true,
            "Soft going (water, marsh): Spugs and Mites cannot cross it (Terrain).",
        ),
    ] {
        swatch(ui, color(cover_fill(c, soft)), words);
    }
    ui.label("A thick edge: the feature blocks lines of sight. A brown line: a linear barrier; a move ends once it crosses one (1. Move).");
    ui.label("Grey discs: manholes (the sewers option). Brown discs: Spug holes.");
    ui.heading("Marks for the selected group");
    swatch(
        ui,
        color(RANGE_FILL),
        "Its move range: where its lead figure can get to; the rest are placed next to it (1. Move).",
    );
    swatch(
        ui,
        color(CLEAR),
        "A clear line of sight: it may shoot at that group (2. Shoot).",
    );
    swatch(
        ui,
        color(BLOCKED),
        "Dashed: no line of sight; hover for what blocks it (terrain or an intervening group).",
    );
    ui.heading("Actions (Mechanics of Play)");
    for line in [
        "Single card: one action. Double: two. Triple: three; split among groups as the text allows; a player never has to use them all (End the card).",
        "Move: click a point of the table, or drag the group. Shoot: click an enemy group; roll the group's dice, one kill per kill score reached, the rest do nothing; the target's player picks the casualties.",
        "Linked fire: tick Link fire and add shots (a group twice, or two groups) before clicking the target: one total.",
        "Hand-to-hand: locked on base contact; resolved after the actions of a Double or Triple card; each faction strikes with its close-combat dice before casualties are removed.",
    ] {
        ui.label(format!("• {line}"));
    }
    let Some(s) = s else { return };
    ui.heading("Kill scores (open / cover / building)");
    for (seat, f) in s.factions.iter().enumerate() {
        egui::CollapsingHeader::new(&f.name)
            .id_salt(("aid-faction", seat))
            .show(ui, |ui| {
                for t in &f.models {
                    ui.label(format!(
                        "{}: {}D6 shooting, {}D6 hand-to-hand, moves {}; kill {} / {} / {}",
                        t.name,
                        t.shoot,
                        t.melee_dice(),
                        inches(t.moves),
                        t.kill.open,
                        t.kill.cover,
                        t.kill.building
                    ));
                }
            });
    }
}

/// The factions of a new battle, one per player: the scenario's by default,
/// any shipped faction (or the player's own file) per seat, 2 to as many
/// seats as the scenario has deployment zones (at most 6).
fn factions_ui(ui: &mut egui::Ui, scenario: &str, config: &mut Value) {
    let Some(sc) = data::scenario(scenario).or_else(|| {
        data::SCENARIOS
            .first()
            .and_then(|(id, _)| data::scenario(id))
    }) else {
        return;
    };
    if config.get("for").and_then(Value::as_str) != Some(scenario) {
        *config = json!({ "for": scenario, "factions": sc.factions, "faction_text": "" });
    }
    let most = sc.zones.len().min(data::MAX_SEATS);
    let mut factions = super::strings(&config["factions"]);
    let mut text = config["faction_text"].as_str().unwrap_or("").to_owned();
    let mut choices: Vec<(String, String)> = data::FACTIONS
        .iter()
        .filter_map(|(id, _)| data::faction(id).map(|f| ((*id).to_owned(), f.name)))
        .collect();
    let own = (!text.trim().is_empty()).then(|| data::parse_faction(&text));
    if let Some(Ok(f)) = &own {
        choices.push((f.id.clone(), format!("{} (your file)", f.name)));
    }
    ui.label(format!("Factions (one per player, 2 to {most}):"));
    let mut remove = None;
    for (i, f) in factions.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            let l = ui.label(format!("Player {}:", i + 1));
            let shown = choices
                .iter()
                .find(|(id, _)| id == f)
                .map_or_else(|| f.clone(), |(_, n)| n.clone());
            egui::ComboBox::from_id_salt(("invasion-faction", i))
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    for (id, name) in &choices {
                        ui.selectable_value(f, id.clone(), name);
                    }
                })
                .response
                .labelled_by(l.id);
            if i >= 2 && ui.button(format!("Remove player {}", i + 1)).clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        factions.remove(i);
    }
    if factions.len() < most && ui.button("Add a player").clicked() {
        let next = sc
            .factions
            .get(factions.len())
            .cloned()
            .unwrap_or_else(|| "unit".to_owned());
        factions.push(next);
    }
    egui::CollapsingHeader::new("Your own faction file")
        .id_salt("invasion-own-faction")
        .show(ui, |ui| {
            ui.weak("Paste the text of a faction file (the format is in RULES.md); it is then offered above.");
            ui.add(
                egui::TextEdit::multiline(&mut text)
                    .desired_rows(4)
                    .desired_width(f32::INFINITY)
                    .hint_text("faction myid \"My faction\" ..."),
            );
            match &own {
                Some(Err(e)) => {
                    ui.colored_label(ui.visuals().error_fg_color, e.to_string());
                }
                Some(Ok(f)) => {
                    ui.label(format!("Read: {} ({})", f.name, f.id));
                }
                None => {}
            }
        });
    config["factions"] = json!(factions);
    config["faction_text"] = json!(text);
}

/// A click for a ground vehicle ("Vehicle movement": straight ahead, then a
/// turn): a click within 45 degrees of its facing moves it to the click's
/// point on the line straight ahead; any other click turns it on the spot to
/// face the click. Any other group goes to the click.
fn vehicle_click(
    s: &InvasionState,
    g: GroupId,
    lead: Option<&str>,
    click: xenolog_engine::games::invasion::model::Point,
) -> (xenolog_engine::games::invasion::model::Point, Option<i32>) {
    use xenolog_engine::games::invasion::model::{Mobility, Point};
    let group = s.group(g);
    let from = group
        .alive()
        .find(|m| Some(m.id.as_str()) == lead)
        .or_else(|| group.alive().next())
        .and_then(|m| m.at);
    let (Mobility::Vehicle { .. }, Some(facing), Some(from)) =
        (rules::group_mobility(s, g), group.facing, from)
    else {
        return (click, None);
    };
    if click == from {
        return (click, None);
    }
    let off = rules::angle_between(rules::bearing(from, click), f64::from(facing));
    if off > 45.0 {
        return (from, Some(rules::facing_towards(from, click)));
    }
    let (sin, cos) = f64::from(facing).to_radians().sin_cos();
    let along = f64::from(click.x - from.x) * cos + f64::from(click.y - from.y) * sin;
    let to = Point::new(
        from.x + (cos * along).round() as i32,
        from.y + (sin * along).round() as i32,
    );
    (to, None)
}

/// The command a click on the table gives while a group is asked where it
/// goes (`Pending::Point`: a melee's losers surfacing, a group falling
/// back): that point, for the seat asked. `None` off the table, at a real
/// table (the players place the figures) and when nothing is asked.
fn point_click(s: &InvasionState, at: [f32; 2]) -> Option<(u8, InvasionCommand)> {
    let Some(Pending::Point { seat, .. }) = s.pending.first() else {
        return None;
    };
    if s.real_table || at[0] < 0.0 || at[1] < 0.0 {
        return None;
    }
    let to = from_scene(at);
    (to.x <= s.scenario.width && to.y <= s.scenario.height)
        .then_some((*seat, InvasionCommand::ChoosePoint { to: Some(to) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_on_the_table_answers_where_a_group_asked_for_a_point_goes() {
        use xenolog_engine::games::invasion::choose::PointFor;
        use xenolog_engine::games::invasion::{InvasionConfig, start};
        let mut s = start(&InvasionConfig {
            scenario: "skirmish".into(),
            ..InvasionConfig::default()
        })
        .unwrap();
        let at = to_scene(xenolog_engine::games::invasion::model::Point::new(
            1200, 800,
        ));
        assert_eq!(
            point_click(&s, at),
            None,
            "nothing asked: a click is not a point"
        );
        s.pending.push(Pending::Point {
            seat: 1,
            group: 0,
            why: PointFor::Surface,
        });
        let (seat, cmd) = point_click(&s, at).expect("the click answers the question");
        assert_eq!(seat, 1);
        let InvasionCommand::ChoosePoint { to: Some(p) } = cmd else {
            panic!("{cmd:?}");
        };
        assert!((p.x - 1200).abs() <= 1 && (p.y - 800).abs() <= 1, "{p:?}");
        assert_eq!(point_click(&s, [-5.0, 10.0]), None, "off the table");
        s.real_table = true;
        assert_eq!(
            point_click(&s, at),
            None,
            "at a real table the players place them"
        );
    }

    #[test]
    fn the_new_battle_config_names_the_scenario_the_factions_and_an_own_file() {
        let board = InvasionBoard::default();
        let extra = json!({
            "for": "skirmish",
            "factions": ["unit", "mine"],
            "faction_text": "faction mine \"Mine\"",
        });
        assert_eq!(
            board.new_battle_config_with("skirmish", &extra),
            json!({
                "scenario": "skirmish",
                "factions": ["unit", "mine"],
                "faction_texts": ["faction mine \"Mine\""],
            })
        );
        assert_eq!(
            board.new_battle_config_with("crash_site", &Value::Null),
            json!({ "scenario": "crash_site" })
        );
    }

    #[test]
    fn a_shot_at_a_group_of_the_same_faction_is_refused_in_the_rules_words() {
        let mut battle =
            xenolog_engine::games::new_battle("invasion", 3, &json!({ "scenario": "skirmish" }))
                .unwrap();
        // The game's own steps: the first round's cards.
        while let [step] = battle.legal().as_slice()
            && step.actor == Actor::SYSTEM
        {
            let p = battle
                .prepare_json(step.actor, &step.command, None)
                .unwrap();
            battle.commit(p).expect("decided just now");
        }
        let s = state(battle.as_ref()).unwrap();
        let seat = s.card().and_then(|c| c.seat).unwrap();
        let mine: Vec<GroupId> = (0..s.groups.len() as GroupId)
            .filter(|&g| s.group(g).seat == seat)
            .collect();
        let cmd = InvasionCommand::Shoot {
            shooters: vec![mine[0]],
            target: mine[1],
            declare: Declared::default(),
        };
        match give(battle.as_ref(), s, seat, &cmd) {
            AppCommand::Explain(why) => assert!(why.contains("opposing group"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_click_moves_a_ground_vehicle_along_its_facing_or_turns_it() {
        use xenolog_engine::games::invasion::model::Point;
        use xenolog_engine::games::invasion::{InvasionConfig, start};
        let motor = "faction motor \"Motor Pool\"\n\
                     model jeep \"Land Rover\" species human shoot 2 move 12 kill 9 12 15 vehicle offroad\n\
                     model man \"Trooper\" species human shoot 1 kill 6 9 12\n\
                     group j1 \"Recce\" jeep\n\
                     group t1 \"Escort\" man\n";
        let mut s = start(&InvasionConfig {
            scenario: "skirmish".into(),
            factions: vec!["motor".into(), "daleks".into()],
            faction_texts: vec![motor.into()],
            ..InvasionConfig::default()
        })
        .unwrap();
        s.groups[0].models[0].at = Some(Point::new(1000, 1000));
        s.groups[0].facing = Some(0);
        // Ahead and a little off the line: the point on the line.
        assert_eq!(
            vehicle_click(&s, 0, None, Point::new(1800, 1300)),
            (Point::new(1800, 1000), None)
        );
        // Off to the side: a turn on the spot towards the click.
        assert_eq!(
            vehicle_click(&s, 0, None, Point::new(1000, 1800)),
            (Point::new(1000, 1000), Some(90))
        );
        // A group on foot goes where it is clicked.
        assert_eq!(
            vehicle_click(&s, 1, None, Point::new(1234, 567)),
            (Point::new(1234, 567), None)
        );
    }
}
