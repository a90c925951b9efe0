//! The side panel: who is to move, the selected unit or hex with its details
//! and legal actions as buttons, what the entry at the cursor did step by
//! step, and the dice tray.

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Role, Sense, Stroke, StrokeKind, Ui, WidgetInfo,
    vec2,
};
use xenolog_engine::scene::ItemKind;
use xenolog_engine::{Battle, EntryText, LegalCommand, Scene};

use super::board::{active, item_name};
use super::boards::{BoardUi, DieMark, Prompt};
use super::command::{AppCommand, Intent, PlayRequest};
use super::store::DiceMode;
use super::view::{BattleView, entry_label, position_label};
use super::widgets::icon_button;

/// Most height the steps of one entry take before they scroll.
const STEPS_HEIGHT: f32 = 300.0;

/// How far back the dice tray looks for the last roll.
const DICE_LOOKBACK: usize = 400;

/// Side-panel state kept between frames.
#[derive(Debug, Default)]
pub struct SideState {
    /// Which step of the entry at the cursor is shown (Kay'otz activations).
    pub step: usize,
    /// The entry whose steps are shown, to restart at step 1 when it changes.
    pub step_entry: Option<u64>,
    /// Scene items the shown step is about, marked on the board.
    pub focus: Vec<String>,
    /// The entry and step the list last showed, to scroll a step moved to
    /// (here or from the entry table) into view.
    pub shown: Option<(u64, usize)>,
    /// The board at the step shown, when it is not the entry's last (the
    /// board then shows the battle part-way through the entry).
    pub step_scene: Option<((u64, usize), Scene)>,
}

impl SideState {
    /// The scene to draw for the entry at `entry`: part-way through it when
    /// an earlier step than its last is shown.
    pub fn scene_for(&self, entry: Option<u64>) -> Option<&Scene> {
        self.step_scene
            .as_ref()
            .filter(|((e, _), _)| Some(*e) == entry)
            .map(|(_, s)| s)
    }
}

/// A command's words as a button's: a sentence starts with a capital
/// ("ends the Marine Action Phase" reads as "Ends the ...").
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

fn give(ui: &mut Ui, cmd: &LegalCommand, commands: &mut Vec<AppCommand>) {
    give_as(ui, cmd, &sentence(&cmd.text), None, commands);
}

/// The most a button's own words run to; longer, it shows the first clause
/// and the whole sentence is its tooltip.
const BUTTON_WORDS: usize = 34;

/// A button's label from a command's sentence: the sentence when short, else
/// its first clause ("Ends the Marine Action Phase; the Kay'otz activate"
/// shows "Ends the Marine Action Phase"), cut at a word with "…" if still
/// long.
pub fn button_label(text: &str) -> String {
    if text.chars().count() <= BUTTON_WORDS {
        return text.to_owned();
    }
    let clause = text
        .split_once("; ")
        .or_else(|| text.split_once(" ("))
        .or_else(|| text.split_once(": "))
        .map_or(text, |(head, _)| head)
        .trim_end_matches([',', '.']);
    if clause.chars().count() <= BUTTON_WORDS {
        return clause.to_owned();
    }
    let mut out = String::new();
    for word in clause.split(' ') {
        if out.chars().count() + word.chars().count() + 1 > BUTTON_WORDS - 1 {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.push('…');
    out
}

fn give_as(
    ui: &mut Ui,
    cmd: &LegalCommand,
    label: &str,
    hover: Option<&str>,
    commands: &mut Vec<AppCommand>,
) {
    // A short label; the whole sentence is the tooltip and the button's
    // accessible name (a screen reader reads it whole).
    let short = button_label(label);
    let mut r = ui.add(egui::Button::new(&short).wrap());
    let hover = hover
        .filter(|h| !h.is_empty())
        .or((short != label).then_some(label));
    if let Some(h) = hover {
        r = r.on_hover_text(h);
    }
    if short != label {
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label));
    }
    if r.clicked() {
        commands.push(AppCommand::Give(PlayRequest::new(Intent::from(cmd))));
    }
}

/// Whose turn it is, or how the battle ended, and the decision pending
/// when it needs explaining (a tie to break, a chit to choose).
pub fn status_ui(ui: &mut Ui, view: &BattleView, dice_mode: DiceMode, prompt: Option<&Prompt>) {
    match (&view.outcome, &view.to_move) {
        (Some(o), _) => {
            ui.heading("Battle over");
            ui.label(&o.summary);
        }
        (None, Some(who)) => {
            ui.heading(format!("{who} to act"));
            for (name, what) in view.asked.iter().filter(|(_, w)| !w.is_empty()) {
                if view.asked.len() == 1 {
                    ui.label(capitalised(what));
                } else {
                    ui.label(format!("{name}: {what}"));
                }
            }
            if let Some(p) = prompt {
                egui::Frame::group(ui.style())
                    .fill(ui.visuals().selection.bg_fill.linear_multiply(0.25))
                    .stroke(Stroke::new(1.5, ui.visuals().selection.bg_fill))
                    .show(ui, |ui| {
                        ui.set_width(ui.available_width());
                        ui.label(egui::RichText::new(&p.ask).strong());
                        ui.label(&p.why);
                    });
            }
        }
        (None, None) => {
            ui.heading("Nobody can act");
        }
    }
    let last = view.line.positions() - 1;
    if view.pos < last {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "Reviewing {} ({} later on this branch). A command given here starts a new \
                 branch; the later entries stay on their own branch.",
                position_label(&view.line, view.pos),
                last - view.pos
            ),
        );
    }
    ui.weak(match dice_mode {
        DiceMode::Rolled => "Dice: Xenolog rolls",
        DiceMode::Entered => "Dice: the players roll and type them in",
    });
}

/// The selection and the actions that go with it.
pub fn selection_ui(
    ui: &mut Ui,
    battle: &dyn Battle,
    view: &BattleView,
    board: &dyn BoardUi,
    selected: Option<&str>,
    choosing: bool,
    commands: &mut Vec<AppCommand>,
) {
    if let Some(sel) = selected {
        let name = view
            .scene
            .find(sel)
            .map(item_name)
            .or_else(|| board.name_of(battle, sel))
            .unwrap_or_else(|| sel.to_owned());
        ui.horizontal(|ui| {
            ui.strong(&name);
            if icon_button(ui, "×", "Clear selection", true).clicked() {
                commands.push(AppCommand::Select(None));
            }
        });
        board.details_ui(ui, battle, &view.scene, sel);
        let own: Vec<&LegalCommand> = view
            .legal
            .iter()
            .filter(|c| c.subject.as_deref() == Some(sel))
            .collect();
        if own.is_empty()
            && view.outcome.is_none()
            && let Some(why) = board.why_idle(battle, sel)
        {
            ui.colored_label(ui.visuals().warn_fg_color, format!("Cannot act now: {why}"));
        }
        if choosing || !grouped_actions_ui(ui, battle, board, &name, &own, commands) {
            actions_ui(ui, view, &own, choosing, commands);
        }
        ui.separator();
    }

    // Units that can act now, as buttons, so nothing needs a mouse on the board.
    let mut subjects: Vec<&str> = view
        .legal
        .iter()
        .filter_map(|c| c.subject.as_deref())
        .filter(|s| Some(*s) != selected)
        .collect();
    subjects.sort_unstable();
    subjects.dedup();
    let count = subjects.len();
    let units_ui = |ui: &mut Ui, commands: &mut Vec<AppCommand>| {
        // Side by side where they fit: a long list of units would
        // push the rest of the panel out of sight.
        ui.horizontal_wrapped(|ui| {
            for &s in &subjects {
                let name = view
                    .scene
                    .find(s)
                    .map(item_name)
                    .or_else(|| board.name_of(battle, s))
                    .unwrap_or_else(|| s.to_owned());
                // A unit with one thing to do (a Kay'otz unit the
                // Kay'otz player activates next) gets that as its button.
                let own: Vec<&LegalCommand> = view
                    .legal
                    .iter()
                    .filter(|c| c.subject.as_deref() == Some(s))
                    .collect();
                match own.as_slice() {
                    [one] if choosing && one.target.is_none() => give(ui, one, commands),
                    _ => {
                        let b = ui.button(&name).on_hover_text(format!("Select {name}"));
                        if b.clicked() {
                            commands.push(AppCommand::Select(Some(s.to_owned())));
                        }
                    }
                }
            }
        });
    };
    if count > 0 {
        if choosing {
            // A decision pending (a reinforcement to take, a tie to break):
            // its options in front of the player, never folded away.
            ui.label("Choose one:");
            units_ui(ui, commands);
        } else {
            egui::CollapsingHeader::new(format!("Can act ({count})"))
                .default_open(selected.is_none())
                .show(ui, |ui| units_ui(ui, commands));
        }
    }
    let general: Vec<&LegalCommand> = active(&view.legal, None).collect();
    let labels: Vec<Option<(String, String)>> = general
        .iter()
        .map(|c| board.choice_label(battle, c))
        .collect();
    if !general.is_empty() {
        // A choice between named options (chits) reads as one.
        let choice = labels.iter().all(Option::is_some);
        ui.label(if choice { "Choose one:" } else { "Actions:" });
        let shown: Vec<String> = general
            .iter()
            .zip(&labels)
            .map(|(c, l)| {
                l.as_ref()
                    .map_or_else(|| sentence(&c.text), |(t, _)| t.clone())
            })
            .collect();
        for (i, (cmd, label)) in general.iter().zip(labels).enumerate() {
            // Two seats offered the same words (each player's "Play Hidden
            // Stash" at a Saucers setup): each button names its seat, or
            // they read alike and a click may play the other player's card.
            let twin = general
                .iter()
                .zip(&shown)
                .any(|(o, s)| *s == shown[i] && o.actor != cmd.actor);
            let text = if twin {
                format!("{}: {}", battle.actor_name(cmd.actor), shown[i])
            } else {
                shown[i].clone()
            };
            let hover = label.map(|(_, hover)| hover);
            give_as(ui, cmd, &text, hover.as_deref(), commands);
        }
    }
    if view.legal.is_empty() && view.outcome.is_none() {
        ui.weak("No command is possible here.");
    }
}

/// A unit's commands in the game's groups (Move, Fire, Shoot and Scoot,
/// Special), each a folding list of short buttons: the unit's name is left
/// out, it is the heading. `false` when the game does not group them all.
fn grouped_actions_ui(
    ui: &mut Ui,
    battle: &dyn Battle,
    board: &dyn BoardUi,
    name: &str,
    own: &[&LegalCommand],
    commands: &mut Vec<AppCommand>,
) -> bool {
    let Some(mut grouped) = own
        .iter()
        .map(|c| board.action_group(c).map(|g| (g, *c)))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    if grouped.is_empty() {
        return false;
    }
    grouped.sort_by_key(|((order, _), _)| *order);
    ui.add_space(4.0);
    let prefix = format!("{name}: ");
    let mut i = 0;
    while i < grouped.len() {
        let (order, title) = grouped[i].0;
        let end = grouped[i..]
            .iter()
            .position(|((o, _), _)| *o != order)
            .map_or(grouped.len(), |n| i + n);
        let list = &grouped[i..end];
        let short = |c: &LegalCommand| sentence(c.text.strip_prefix(&prefix).unwrap_or(&c.text));
        let cmds: Vec<&LegalCommand> = list.iter().map(|(_, c)| *c).collect();
        // Commands chosen in two steps: a button per first step.
        let steps = board.two_steps(battle, &cmds);
        let buttons = steps.as_ref().map_or(list.len(), Vec::len);
        if let [(_, one)] = list {
            give_as(ui, one, &short(one), Some(&one.text), commands);
        } else {
            egui::CollapsingHeader::new(format!("{title} ({})", list.len()))
                .id_salt(("action-group", title))
                .default_open(buttons <= 6)
                .show(ui, |ui| {
                    if list.iter().any(|(_, c)| c.target.is_some()) {
                        ui.weak("Or click the highlighted place on the board.");
                    }
                    if list.iter().any(|(_, c)| board.marked_apart(c)) {
                        ui.weak("Blue hexes: walk there; violet hexes: only a jump gets there.");
                    }
                    if let Some(steps) = &steps {
                        for step in steps {
                            let label = format!("{} ({})", step.words, step.options.len());
                            let b = ui.add(egui::Button::new(label).wrap());
                            if b.on_hover_text(&step.hover).clicked() {
                                commands.push(AppCommand::Choose(step.options.clone()));
                            }
                        }
                        return;
                    }
                    for (_, c) in list {
                        give_as(ui, c, &short(c), Some(&c.text), commands);
                    }
                });
        }
        i = end;
    }
    true
}

/// A unit's commands: plain ones as buttons; those aimed at a unit (fire)
/// and those aimed at a hex (moves) in groups, as they are also given by
/// clicking the highlighted targets on the board.
fn actions_ui(
    ui: &mut Ui,
    view: &BattleView,
    own: &[&LegalCommand],
    choosing: bool,
    commands: &mut Vec<AppCommand>,
) {
    if own.is_empty() {
        return;
    }
    let at_unit = |c: &LegalCommand| {
        c.target
            .as_deref()
            .and_then(|t| view.scene.find(t))
            .is_some_and(|i| matches!(i.kind, ItemKind::Counter | ItemKind::Marker))
    };
    let plain: Vec<&LegalCommand> = own.iter().copied().filter(|c| c.target.is_none()).collect();
    let fire: Vec<&LegalCommand> = own.iter().copied().filter(|c| at_unit(c)).collect();
    let moves: Vec<&LegalCommand> = own
        .iter()
        .copied()
        .filter(|c| c.target.is_some() && !at_unit(c))
        .collect();
    ui.add_space(4.0);
    for cmd in plain {
        give(ui, cmd, commands);
    }
    // A decision the rules put to a player (a tie to break) is a choice of
    // places (hexes, tiles), not a move.
    let hexes = if choosing {
        "Places to choose from"
    } else {
        "Moves"
    };
    for (title, list, open) in [("Targets", fire, true), (hexes, moves, choosing)] {
        if list.is_empty() {
            continue;
        }
        egui::CollapsingHeader::new(format!("{title} ({})", list.len()))
            .default_open(open || list.len() <= 6)
            .show(ui, |ui| {
                ui.weak("Or click the highlighted place on the board.");
                for cmd in list {
                    give(ui, cmd, commands);
                }
            });
    }
}

/// What the entry at the cursor did, step by step.
pub fn entry_steps_ui(
    ui: &mut Ui,
    battle: &dyn Battle,
    view: &mut BattleView,
    board: &dyn BoardUi,
    state: &mut SideState,
) {
    state.focus.clear();
    let Some(t) = view
        .pos
        .checked_sub(1)
        .and_then(|i| view.line.text(battle, i))
        .cloned()
    else {
        ui.weak("The battle is at its start.");
        return;
    };
    // A new entry at the cursor starts at its last step: how it ended is
    // what the board shows.
    if state.step_entry != Some(t.id) {
        state.step_entry = Some(t.id);
        state.step = usize::MAX;
    }
    ui.label(
        egui::RichText::new(format!("{} {}", entry_label(t.id), sentence(&t.command))).strong(),
    );
    let steps = board.steps(battle, &t);
    if steps.len() > 1 {
        let n = steps.len();
        state.step = state.step.min(n - 1);
        state.focus = steps[state.step].focus.clone();
        ui.horizontal(|ui| {
            if icon_button(ui, "◀", "Previous step", state.step > 0).clicked() {
                state.step -= 1;
            }
            ui.label(format!("Step {} of {n}", state.step + 1));
            if icon_button(ui, "▶", "Next step", state.step + 1 < n).clicked() {
                state.step += 1;
            }
        });
        // A long activation keeps its own scroll, so the buttons above and
        // the dice tray below stay in sight; the step shown scrolls into
        // view when the player moves to it.
        // Scrolled only when the step moved within the entry: a new entry
        // at the cursor (playback) leaves the panel where the player put it.
        let moved = state
            .shown
            .is_some_and(|(e, k)| e == t.id && k != state.step);
        state.shown = Some((t.id, state.step));
        egui::ScrollArea::vertical()
            .id_salt("steps-scroll")
            .max_height(STEPS_HEIGHT)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                // Room for the scroll bar, which floats over the text.
                ui.set_max_width(ui.available_width() - 10.0);
                for (k, s) in steps.iter().enumerate() {
                    let text = format!("{}. {}", k + 1, s.text);
                    let rich = if k == state.step {
                        egui::RichText::new(text)
                            .strong()
                            .background_color(ui.visuals().selection.bg_fill.linear_multiply(0.4))
                    } else if k < state.step {
                        egui::RichText::new(text)
                    } else {
                        egui::RichText::new(text).weak()
                    };
                    let r = ui
                        .add(egui::Label::new(rich).sense(Sense::click()))
                        .on_hover_text("Show this step");
                    if r.clicked() {
                        state.step = k;
                    }
                    if moved && k == state.step {
                        r.scroll_to_me(Some(egui::Align::Center));
                    }
                }
            });
        // The board at the step shown (folded from the entry before it).
        let key = (t.id, state.step);
        if state.step + 1 >= n {
            state.step_scene = None;
        } else if state.step_scene.as_ref().map(|(k, _)| *k) != Some(key) {
            state.step_scene = board
                .scene_at_step(battle, t.id, state.step)
                .map(|s| (key, s));
        }
    } else {
        state.step_scene = None;
        for s in steps {
            ui.label(s.text);
        }
    }
}

/// The latest entry at or before the cursor that rolled dice.
fn last_roll(battle: &dyn Battle, view: &mut BattleView) -> Option<EntryText> {
    let pos = view.pos;
    (pos.saturating_sub(DICE_LOOKBACK)..pos)
        .rev()
        .find_map(|i| {
            view.line
                .text(battle, i)
                .filter(|t| !t.dice.is_empty())
                .cloned()
        })
}

/// What the dice tray shows: the last roll at the cursor, how each die
/// counted and what each roll needed, as the engine says. Worked out once
/// for each view of the battle (a cursor move, a new entry, a take-back,
/// another seat's eyes), not every frame (session 22's final read: the tray
/// asked the engine for the entry's facts twice a frame).
#[derive(Clone, Debug)]
pub struct Tray {
    pub entry: EntryText,
    pub marks: Vec<DieMark>,
    pub needs: Vec<String>,
}

impl Tray {
    fn of(battle: &dyn Battle, view: &mut BattleView) -> Option<Tray> {
        let entry = last_roll(battle, view)?;
        let facts = battle.entry_facts(&[entry.id]).into_iter().next();
        let marks = facts
            .as_ref()
            .map(|f| f.dice.iter().map(|d| d.mark).collect())
            .unwrap_or_default();
        let needs = facts.as_ref().map(roll_needs).unwrap_or_default();
        Some(Tray {
            entry,
            marks,
            needs,
        })
    }
}

/// The dice tray: the last roll die by die, hits marked, rolled or entered.
pub fn dice_tray_ui(ui: &mut Ui, battle: &dyn Battle, view: &mut BattleView) {
    let Some(tray) = view.tray(|view| Tray::of(battle, view)) else {
        ui.weak("No dice rolled yet.");
        return;
    };
    let Tray {
        entry: t,
        marks,
        needs,
    } = tray;
    ui.label(format!("{} {}", entry_label(t.id), sentence(&t.command)));
    ui.horizontal_wrapped(|ui| {
        for (k, die) in t.dice.iter().enumerate() {
            let mark = marks.get(k).copied().unwrap_or(DieMark::Plain);
            die_ui(ui, k + 1, die.value, die.sides, mark);
        }
    });
    // What each roll needed, as the engine says (session 21: Alien
    // Invasion's tray showed the study dice and not that a 6 was needed).
    for line in needs {
        ui.label(line);
    }
    let hits = marks.iter().filter(|m| **m == DieMark::Hit).count();
    if marks
        .iter()
        .any(|m| matches!(m, DieMark::Hit | DieMark::Miss))
    {
        ui.label(format!("{hits} hit{}", if hits == 1 { "" } else { "s" }));
    }
    ui.weak(if t.entered {
        "Entered by the players (real dice)"
    } else {
        "Rolled by Xenolog"
    });
}

/// One line for each roll of an entry that needed something: "Die 2:
/// study die: needs 6+", "Dice 1-8: shooting dice: needs total 24 a kill
/// (at most 2)"; nothing for a roll that needed nothing.
pub fn roll_needs(facts: &xenolog_engine::moments::EntryFacts) -> Vec<String> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < facts.dice.len() {
        let first = &facts.dice[k];
        let n = facts.dice[k..]
            .iter()
            .take_while(|d| d.roll == first.roll)
            .count();
        if first.need != xenolog_engine::moments::Need::Nothing {
            let which = if n == 1 {
                format!("Die {}", k + 1)
            } else {
                format!("Dice {}-{}", k + 1, k + n)
            };
            out.push(format!(
                "{which}: {}: needs {}",
                first.purpose,
                first.need.words()
            ));
        }
        k += n;
    }
    out
}

fn die_ui(ui: &mut Ui, n: usize, value: u8, sides: u8, mark: DieMark) {
    let (rect, response) = ui.allocate_exact_size(vec2(34.0, 34.0), Sense::hover());
    let what = match mark {
        DieMark::Hit => ", hit",
        DieMark::Miss => ", miss",
        DieMark::Pass => ", success",
        DieMark::Fail => ", failure",
        DieMark::Plain => "",
    };
    let label = format!("Die {n}: {value}{what}");
    response.widget_info(|| WidgetInfo::labeled(Role::Image, true, &label));
    let (fill, text, stroke) = match mark {
        DieMark::Hit => (
            Color32::from_rgb(200, 40, 40),
            Color32::WHITE,
            Stroke::new(2.5, Color32::from_rgb(255, 210, 0)),
        ),
        DieMark::Miss | DieMark::Fail => (
            Color32::from_gray(200),
            Color32::from_gray(90),
            Stroke::new(1.0, Color32::from_gray(120)),
        ),
        DieMark::Pass => (
            Color32::from_rgb(40, 150, 60),
            Color32::WHITE,
            Stroke::new(2.5, Color32::from_rgb(255, 210, 0)),
        ),
        DieMark::Plain => (
            Color32::from_rgb(245, 240, 225),
            Color32::BLACK,
            Stroke::new(1.0, Color32::from_gray(60)),
        ),
    };
    let painter = ui.painter();
    painter.rect(
        rect.shrink(1.0),
        CornerRadius::same(6),
        fill,
        stroke,
        StrokeKind::Inside,
    );
    painter.text(
        rect.center(),
        Align2::CENTER_CENTER,
        value.to_string(),
        FontId::proportional(18.0),
        text,
    );
    if sides != 6 {
        painter.text(
            rect.right_bottom() - vec2(3.0, 2.0),
            Align2::RIGHT_BOTTOM,
            format!("d{sides}"),
            FontId::proportional(8.0),
            text,
        );
    }
    response.on_hover_text(label);
}

/// `what` with a capital first letter, as a sentence.
fn capitalised(what: &str) -> String {
    let mut c = what.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
