//! Review: the timeline along the bottom (turns and phases as ticks over the
//! entries; drag to scrub, click to jump), the playback controls, and the
//! table of entries in words that follows the cursor.

use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Rect, Role, Sense, Stroke, StrokeKind, Ui,
    WidgetInfo, accesskit, vec2,
};
use egui_extras::{Column, TableBuilder};
use xenolog_engine::Battle;

use super::boards::BoardUi;
use super::command::AppCommand;
use super::side::SideState;
use super::view::{BattleView, entry_label, position_label};
use super::widgets::icon_button;

/// Height of the tick strip.
const STRIP_HEIGHT: f32 = 46.0;
/// Inset of the first and last position from the strip's ends.
const PAD: f32 = 10.0;

/// Review state kept between frames (not persisted).
#[derive(Debug, Default)]
pub struct TimelineState {
    /// Playing back: entries per second and the time of the next step.
    pub playing: bool,
    pub next_step_at: f64,
    /// The turn typed into "Go to turn": the cursor's turn until the player
    /// types another.
    pub goto_turn: u32,
    /// The position `goto_turn` last followed.
    pub goto_follows: Option<usize>,
    /// The position the table last scrolled to and how many rows it
    /// showed, so it follows the cursor (and a panel resized) without
    /// fighting the player's own scrolling.
    pub table_follows: Option<(usize, usize)>,
    /// The notes and bookmarks of the open battle, in entry order.
    pub notes: Vec<xenolog_saves::Note>,
}

fn pos_to_x(strip: Rect, pos: usize, positions: usize) -> f32 {
    let span = (positions.max(2) - 1) as f32;
    strip.left() + PAD + (strip.width() - 2.0 * PAD) * pos as f32 / span
}

fn x_to_pos(strip: Rect, x: f32, positions: usize) -> usize {
    let span = (positions.max(2) - 1) as f32;
    let t = ((x - strip.left() - PAD) / (strip.width() - 2.0 * PAD)).clamp(0.0, 1.0);
    ((t * span).round() as usize).min(positions.saturating_sub(1))
}

/// The playback controls and the position read-out.
pub fn controls_ui(
    ui: &mut Ui,
    view: &BattleView,
    state: &mut TimelineState,
    speed: &mut f32,
    commands: &mut Vec<AppCommand>,
) {
    let last = view.line.positions() - 1;
    let pos = view.pos;
    ui.horizontal_wrapped(|ui| {
        let mut button = |ui: &mut Ui, icon: &str, label: &str, enabled: bool, cmd: AppCommand| {
            if icon_button(ui, icon, label, enabled).clicked() {
                commands.push(cmd);
            }
        };
        button(ui, "⇤", "Jump to start", pos > 0, AppCommand::SeekLine(0));
        button(
            ui,
            "←",
            "Step back",
            pos > 0,
            AppCommand::SeekLine(pos.saturating_sub(1)),
        );
        if state.playing {
            button(ui, "‖", "Pause", true, AppCommand::SetPlaying(false));
        } else {
            button(
                ui,
                "▶",
                "Play back",
                pos < last,
                AppCommand::SetPlaying(true),
            );
        }
        button(
            ui,
            "→",
            "Step forward",
            pos < last,
            AppCommand::SeekLine((pos + 1).min(last)),
        );
        button(
            ui,
            "⇥",
            "Jump to end",
            pos < last,
            AppCommand::SeekLine(last),
        );
        ui.add(
            egui::Slider::new(speed, 0.5..=60.0)
                .logarithmic(true)
                .text("entries/s")
                .max_decimals(1),
        )
        .on_hover_text("Playback speed")
        .widget_info(|| WidgetInfo::labeled(Role::Slider, true, "Playback speed"));
        ui.separator();
        if state.goto_follows != Some(pos) {
            state.goto_follows = Some(pos);
            // At Setup (no turn yet) the field offers turn 1, not the turn
            // it last showed.
            state.goto_turn = view.line.flow_at_pos(pos).map_or(1, |f| f.turn.max(1));
        }
        let word = view.line.turn_word;
        let lower = word.to_lowercase();
        let turn_label = ui.label(word);
        ui.add(egui::DragValue::new(&mut state.goto_turn).range(1..=9999))
            .labelled_by(turn_label.id);
        let target = view.line.turn_start(state.goto_turn);
        let go = ui
            .add_enabled(target.is_some(), egui::Button::new("Go"))
            .on_hover_text(format!("Jump to the start of this {lower}"));
        go.widget_info(|| {
            WidgetInfo::labeled(Role::Button, target.is_some(), format!("Go to {lower}"))
        });
        if go.clicked()
            && let Some(p) = target
        {
            commands.push(AppCommand::SeekLine(p));
        }
        ui.separator();
        let flow = view
            .line
            .flow_at_pos(pos)
            .map(|f| format!("{word} {}, {}", f.turn, f.phase))
            .unwrap_or_default();
        let at = match view.line.entry_at(pos) {
            None => "Setup".to_owned(),
            Some(id) => format!("Entry {}", entry_label(id)),
        };
        ui.label(format!("{at} · {flow}"));
        if pos < last {
            ui.weak(format!(
                "({} on this branch)",
                super::widgets::count((last - pos) as u64, "later entry", "later entries")
            ));
        }
    });
}

/// The tick strip: drag to scrub, click to jump.
/// The timeline strip; returns where it was drawn (bookmark flags go on it).
pub fn strip_ui(ui: &mut Ui, view: &BattleView, commands: &mut Vec<AppCommand>) -> Rect {
    let positions = view.line.positions();
    let (strip, response) = ui.allocate_exact_size(
        vec2(ui.available_width(), STRIP_HEIGHT),
        Sense::click_and_drag(),
    );
    let id = response.id;
    let value = view.pos as f64;
    let max = (positions - 1) as f64;
    response.widget_info(|| WidgetInfo {
        value: Some(value),
        ..WidgetInfo::labeled(Role::Slider, true, "Timeline")
    });
    ui.ctx().accesskit_node_builder(id, |b| {
        b.set_min_numeric_value(0.0);
        b.set_max_numeric_value(max);
        b.set_numeric_value_step(1.0);
        b.add_action(accesskit::Action::SetValue);
        b.add_action(accesskit::Action::Increment);
        b.add_action(accesskit::Action::Decrement);
    });

    let visuals = ui.visuals().clone();
    let painter = ui.painter_at(strip);
    painter.rect(
        strip,
        CornerRadius::same(4),
        visuals.extreme_bg_color,
        Stroke::new(1.0, visuals.widgets.noninteractive.bg_stroke.color),
        StrokeKind::Inside,
    );
    let track_y = strip.top() + 28.0;
    painter.hline(
        strip.left() + PAD..=strip.right() - PAD,
        track_y,
        Stroke::new(2.0, visuals.widgets.inactive.bg_fill),
    );
    // Played part of the line up to the cursor.
    let cursor_x = pos_to_x(strip, view.pos, positions);
    painter.hline(
        strip.left() + PAD..=cursor_x,
        track_y,
        Stroke::new(3.0, visuals.selection.bg_fill),
    );

    // Ticks: turns tall and numbered where there is room ("T3", Alien
    // Invasion's "R3"), phases short.
    let word = view.line.turn_word;
    let initial = word.chars().next().unwrap_or('T');
    let text = visuals.text_color();
    let weak = visuals.weak_text_color();
    let mut last_label_x = f32::NEG_INFINITY;
    let mut last_minor_x = f32::NEG_INFINITY;
    for tick in &view.line.ticks {
        let x = pos_to_x(strip, tick.pos, positions);
        if tick.turn_start {
            painter.vline(x, track_y - 12.0..=track_y + 8.0, Stroke::new(1.5, text));
            // The last turn's number goes left of its tick at the right end
            // (it was left out, so the strip stopped a turn short of the
            // header's).
            let room_right = x + 24.0 < strip.right();
            if x - last_label_x > if room_right { 28.0 } else { 48.0 } {
                let (at_x, align) = if room_right {
                    (x + 2.0, Align2::LEFT_TOP)
                } else {
                    (x - 2.0, Align2::RIGHT_TOP)
                };
                painter.text(
                    egui::pos2(at_x, strip.top() + 3.0),
                    align,
                    format!("{}{}", initial, tick.flow.turn),
                    FontId::proportional(11.0),
                    text,
                );
                last_label_x = x;
            }
        } else if x - last_minor_x > 3.0 {
            painter.vline(x, track_y - 5.0..=track_y + 5.0, Stroke::new(1.0, weak));
            last_minor_x = x;
        }
    }
    // The cursor.
    painter.vline(
        cursor_x,
        strip.top() + 2.0..=strip.bottom() - 2.0,
        Stroke::new(2.0, visuals.selection.stroke.color),
    );
    painter.circle_filled(
        egui::pos2(cursor_x, track_y),
        6.0,
        visuals.selection.bg_fill,
    );
    if response.hovered()
        && let Some(p) = response.hover_pos()
    {
        let pos = x_to_pos(strip, p.x, positions);
        let flow = view.line.flow_at_pos(pos);
        let at = position_label(&view.line, pos);
        let tip = match flow {
            Some(f) => format!("At {at} · {word} {}, {}", f.turn, f.phase),
            None => format!("At {at}"),
        };
        painter.vline(
            p.x,
            strip.top() + 2.0..=strip.bottom() - 2.0,
            Stroke::new(1.0, weak),
        );
        response.clone().on_hover_text_at_pointer(tip);
    }

    let mut want = None;
    if (response.dragged() || response.clicked())
        && let Some(p) = response.interact_pointer_pos()
    {
        want = Some(x_to_pos(strip, p.x, positions));
    }
    let (set, inc, dec) = ui.input(|i| {
        let set = i
            .accesskit_action_requests(id, accesskit::Action::SetValue)
            .filter_map(|r| match r.data {
                Some(accesskit::ActionData::NumericValue(v)) => Some(v),
                _ => None,
            })
            .last();
        (
            set,
            i.num_accesskit_action_requests(id, accesskit::Action::Increment),
            i.num_accesskit_action_requests(id, accesskit::Action::Decrement),
        )
    });
    if let Some(v) = set {
        want = Some((v.max(0.0).round() as usize).min(positions - 1));
    }
    if inc + dec > 0 {
        want = Some((view.pos + inc).saturating_sub(dec).min(positions - 1));
    }
    if let Some(p) = want
        && p != view.pos
    {
        commands.push(AppCommand::SeekLine(p));
    }
    strip
}

/// Dice in words: `3 5 6`, with entered dice marked.
pub fn dice_words(dice: &[xenolog_engine::Die], entered: bool) -> String {
    if dice.is_empty() {
        return String::new();
    }
    let faces: Vec<String> = dice
        .iter()
        .map(|d| {
            if d.sides == 6 {
                d.value.to_string()
            } else {
                format!("{}/d{}", d.value, d.sides)
            }
        })
        .collect();
    format!(
        "{}{}",
        faces.join(" "),
        if entered { " (entered)" } else { "" }
    )
}

/// Why an entry's number jumps from the one before it on the line: the
/// entries between (`from` up to it) are on other branches, named.
pub fn jump_words(battle: &dyn Battle, t: &xenolog_engine::EntryText, from: u64) -> String {
    let branch_name = |id| {
        battle
            .branches()
            .iter()
            .find(|b| b.id == id)
            .map_or_else(|| format!("branch {id}"), |b| b.name.clone())
    };
    let records = battle.records();
    let mut others: Vec<String> = Vec::new();
    for e in from..t.id {
        if let Some(r) = records.get(e as usize) {
            let name = branch_name(r.branch);
            if !others.contains(&name) {
                others.push(name);
            }
        }
    }
    let between = if t.id == from + 1 {
        entry_label(from)
    } else {
        format!("{} to {}", entry_label(from), entry_label(t.id - 1))
    };
    format!(
        "{} is on {}; {between} between are on {}",
        entry_label(t.id),
        branch_name(t.branch),
        if others.is_empty() {
            "other branches".to_owned()
        } else {
            others.join(", ")
        }
    )
}

/// An entry of the log on hover: its command, what happened, and the
/// counters and cards it names drawn large, named, as the board's
/// mouse-over viewer draws them (issue 28: "hover a counter or a card
/// anywhere (board, hand, log) to see it large"). Drawn as they stand at
/// the cursor; one no longer on the board is not drawn.
fn entry_hover_ui(ui: &mut Ui, scene: &xenolog_engine::Scene, command: &str, events: &[String]) {
    // As the board's tooltips: the tooltip's area keeps the size of the
    // last one shown (egui issue 5167).
    ui.set_max_width(ui.spacing().tooltip_width);
    ui.set_min_width(super::board::TOOLTIP_MIN_WIDTH);
    ui.strong(command);
    for e in events {
        ui.label(format!("• {e}"));
    }
    let words: Vec<&str> = std::iter::once(command)
        .chain(events.iter().map(String::as_str))
        .collect();
    let named = super::board::items_named_in(scene, &words);
    if named.is_empty() {
        return;
    }
    // The one who acts and the one acted on: two at most, side by side.
    ui.horizontal_top(|ui| {
        for item in named.iter().take(2) {
            ui.vertical(|ui| {
                ui.strong(super::board::item_name(item));
                super::board::magnified_ui(ui, scene, &item.id, None);
            });
        }
    });
}

/// The virtualised table of entries on the current line. The row at the
/// cursor steps through its entry when it has several steps (a Kay'otz
/// activation), with the side panel: the same step is shown in both and its
/// units are marked on the board.
pub fn entries_table_ui(
    ui: &mut Ui,
    battle: &dyn Battle,
    view: &mut BattleView,
    state: &mut TimelineState,
    board: &dyn BoardUi,
    side: &mut SideState,
    commands: &mut Vec<AppCommand>,
) {
    let rows = view.line.positions();
    let pos = view.pos;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    // The body shows whole rows (session 21: its top row was half cut,
    // the cursor's row centred in a height that was no multiple of a row):
    // as many as the panel has room for below the header, at least one,
    // scrolled by whole rows.
    let stride = row_height + ui.spacing().item_spacing.y;
    // (the header a row and its spacing, the body rows with spacing
    // between them; the panel keeps the height they take)
    let shown = ((ui.available_height() - row_height) / stride + 0.01)
        .floor()
        .max(1.0);
    // Selectable text would take the click meant for the row.
    ui.style_mut().interaction.selectable_labels = false;
    let mut table = TableBuilder::new(ui)
        .id_salt("entries")
        .striped(true)
        .sense(Sense::click())
        .resizable(false)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        // Narrow enough that every column, the Note too, is on screen in a
        // 1024-pixel window; "What happened" takes what is left.
        .column(Column::exact(64.0))
        // Room for "Round" (Alien Invasion's word), taken from Phase.
        .column(Column::exact(50.0))
        .column(Column::exact(114.0).clip(true))
        .column(Column::exact(72.0).clip(true))
        .column(Column::remainder().at_least(140.0).clip(true))
        .column(Column::exact(92.0).clip(true))
        .column(Column::exact(120.0).clip(true))
        .min_scrolled_height(0.0)
        // (the last row has no spacing below it)
        .max_scroll_height(shown * stride - (stride - row_height))
        .auto_shrink([false, false]);
    let follows = Some((pos, shown as usize));

    if state.table_follows != follows {
        // The cursor's row in the middle of the rows shown, as near as
        // whole rows allow (the last rows of the line at the bottom).
        let top = (pos as f32 - ((shown - 1.0) / 2.0).floor())
            .min(rows as f32 - shown)
            .max(0.0);
        table = table.scroll_to_row(top as usize, Some(egui::Align::Min));
        state.table_follows = follows;
    }
    let line = &mut view.line;
    let scene = &view.scene;
    table
        .header(row_height, |mut header| {
            let word = line.turn_word;
            for title in ["#", word, "Phase", "Who", "What happened", "Dice", "Note"] {
                header.col(|ui| {
                    ui.strong(title);
                });
            }
        })
        .body(|body| {
            body.rows(row_height, rows, |mut row| {
                let i = row.index();
                row.set_selected(i == pos);
                if i == 0 {
                    row.col(|ui| {
                        ui.label("Setup");
                    });
                    let flow = line.ticks.first().map(|t| t.flow.clone());
                    row.col(|ui| {
                        ui.label(
                            flow.as_ref()
                                .map(|f| f.turn.to_string())
                                .unwrap_or_default(),
                        );
                    });
                    row.col(|ui| {
                        ui.label(flow.map(|f| f.phase).unwrap_or_default());
                    });
                    row.col(|_| {});
                    row.col(|ui| {
                        ui.label("Start of the battle");
                    });
                    row.col(|_| {});
                    row.col(|_| {});
                } else if let Some(t) = line.text(battle, i - 1).cloned() {
                    // The turn and phase the command was given in: the flow
                    // after the entry before it.
                    let during = match i {
                        1 => line.ticks.first().map(|t| t.flow.clone()),
                        _ => line.text(battle, i - 2).map(|p| p.flow.clone()),
                    }
                    .unwrap_or_else(|| t.flow.clone());
                    // Where the numbers jump (#59 then #71), the entries
                    // between are on other branches: the row says so.
                    let before = line.entry_at(i - 1);
                    let jumped = before.map_or(t.id > 0, |b| t.id != b + 1);
                    row.col(|ui| {
                        if !jumped {
                            ui.label(entry_label(t.id));
                            return;
                        }
                        let from = before.map_or(0, |b| b + 1);
                        let r = ui.label(format!("{} ↪", entry_label(t.id)));
                        let tip = jump_words(battle, &t, from);
                        r.on_hover_text(tip);
                    });
                    row.col(|ui| {
                        ui.label(during.turn.to_string());
                    });
                    row.col(|ui| {
                        ui.label(board.phase_label(battle, &t, &during.phase));
                    });
                    row.col(|ui| {
                        ui.label(&t.actor);
                    });
                    let steps = if i == pos {
                        board.steps(battle, &t)
                    } else {
                        Vec::new()
                    };
                    row.col(|ui| {
                        let command = super::side::sentence(&t.command);
                        if steps.len() > 1 {
                            // Ids of their own: the rows around move as the
                            // table scrolls to the cursor.
                            ui.push_id(("entry-steps", t.id), |ui| {
                                let n = steps.len();
                                // The last step until one is chosen, as
                                // in the side panel.
                                let k = if side.step_entry == Some(t.id) {
                                    side.step.min(n - 1)
                                } else {
                                    n - 1
                                };
                                if icon_button(ui, "◀", "Previous step of this entry", k > 0)
                                    .clicked()
                                {
                                    side.step_entry = Some(t.id);
                                    side.step = k - 1;
                                }
                                if icon_button(ui, "▶", "Next step of this entry", k + 1 < n)
                                    .clicked()
                                {
                                    side.step_entry = Some(t.id);
                                    side.step = k + 1;
                                }
                                ui.label(format!("Step {}/{n}: {}", k + 1, steps[k].text))
                                    .on_hover_ui(|ui| {
                                        entry_hover_ui(ui, scene, &command, &t.events);
                                    });
                            });
                            return;
                        }
                        // The command and how it ended (its last step), not
                        // every step again: those are on hover, and in the
                        // side panel when the row is at the cursor.
                        let what = match t.events.as_slice() {
                            [] => command.clone(),
                            [one] => format!("{command}: {one}"),
                            [.., last] => {
                                format!("{command}: … {last}  ({} steps)", t.events.len())
                            }
                        };
                        ui.label(what).on_hover_ui(|ui| {
                            entry_hover_ui(ui, scene, &command, &t.events);
                        });
                    });
                    row.col(|ui| {
                        let d = dice_words(&t.dice, t.entered);
                        if t.entered {
                            ui.colored_label(Color32::from_rgb(200, 120, 0), d);
                        } else {
                            ui.label(d);
                        }
                    });
                    let note = state.notes.iter().find(|n| n.entry == t.id);
                    row.col(|ui| {
                        if let Some(n) = note {
                            let mark = if n.bookmark { "★ " } else { "" };
                            ui.label(format!("{mark}{}", n.text))
                                .on_hover_text(format!("Note on entry {}: {}", t.id, n.text));
                        }
                    });
                }
                if row.response().clicked() {
                    commands.push(AppCommand::SeekLine(i));
                }
            });
        });
    // What is left under the last whole row stays the panel's: the panel
    // keeps the height its content takes, and would shrink by it each time
    // the rows shown change.
    let rest = ui.available_height().max(0.0);
    ui.allocate_space(egui::vec2(0.0, rest));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_positions_round_trip() {
        let strip = Rect::from_min_size(egui::pos2(0.0, 0.0), vec2(820.0, 40.0));
        for n in [1, 2, 3, 100, 100_001] {
            for pos in [0, n / 3, n - 1] {
                let x = pos_to_x(strip, pos, n);
                let back = x_to_pos(strip, x, n);
                let tol = n / 800;
                assert!(back.abs_diff(pos) <= tol, "n={n} pos={pos} back={back}");
            }
        }
        assert_eq!(x_to_pos(strip, -50.0, 10), 0);
        assert_eq!(x_to_pos(strip, 5000.0, 10), 9);
    }

    #[test]
    fn entered_dice_are_marked() {
        let d = |v| xenolog_engine::Die { sides: 6, value: v };
        assert_eq!(dice_words(&[d(3), d(6)], false), "3 6");
        assert_eq!(dice_words(&[d(1)], true), "1 (entered)");
        assert_eq!(dice_words(&[], true), "");
    }
}
