//! Night of the Saucers on its 6x6 board: a click on an alien with a
//! student selected attacks that alien first, a click on a card of a hand
//! plays it (an Instant in anyone's turn, a discard when cards are owed),
//! and New battle chooses each player's gang and so their students.

use eframe::egui;
use serde_json::{Value, json};
use xenolog_engine::games::saucers::data::{self, CardKind, Content};
use xenolog_engine::games::saucers::describe;
use xenolog_engine::games::saucers::rules::{defeat_needs, phase_name, seat_label};
use xenolog_engine::games::saucers::scene::{card_words_but_range, status_lines};
use xenolog_engine::games::saucers::state::Offer;
use xenolog_engine::games::saucers::{
    Phase, Saucers, SaucersCommand, SaucersEvent, SaucersState, Target,
};
use xenolog_engine::{Actor, Battle, LegalCommand, Viewer};

use super::{BoardClick, BoardUi, Prompt, at_head};
use crate::gui::command::{AppCommand, Intent, PlayRequest};
use crate::gui::view::BattleView;

/// The board UI of Night of the Saucers.
pub struct SaucersBoard;

fn state(battle: &dyn Battle) -> Option<&SaucersState> {
    super::state_of::<Saucers>(battle)
}

fn command(c: &LegalCommand) -> Option<SaucersCommand> {
    serde_json::from_value(c.command.clone()).ok()
}

/// The student of a scene id `human:ID`.
fn student(s: &SaucersState, id: &str) -> Option<u16> {
    let def = id.strip_prefix("human:")?;
    s.humans
        .iter()
        .position(|h| s.content.humans[h.def as usize].id == def)
        .map(|h| h as u16)
}

/// The card a command plays or discards, if any.
fn card_of(c: &SaucersCommand) -> Option<u16> {
    match c {
        SaucersCommand::MoveCard { card, .. }
        | SaucersCommand::Instant { card, .. }
        | SaucersCommand::Discard { card } => Some(*card),
        SaucersCommand::Attack { card, .. } => *card,
        _ => None,
    }
}

/// The human of a command, if it acts with one.
fn human_of(c: &SaucersCommand) -> Option<u16> {
    match c {
        SaucersCommand::Move { human, .. }
        | SaucersCommand::MoveCard { human, .. }
        | SaucersCommand::Attack { human, .. }
        | SaucersCommand::Search { human }
        | SaucersCommand::Swap { human, .. }
        | SaucersCommand::Complete { human } => Some(*human),
        _ => None,
    }
}

/// One command given at once, several asked about.
fn one_or_choose(cmds: Vec<&LegalCommand>) -> Option<AppCommand> {
    match cmds.as_slice() {
        [] => None,
        [one] => Some(AppCommand::Give(PlayRequest::new(Intent::from(*one)))),
        many => Some(AppCommand::Choose(
            many.iter().map(|c| Intent::from(*c)).collect(),
        )),
    }
}

impl SaucersBoard {
    /// A click on the card `index` of `seat`'s hand: every command that
    /// plays or discards a card of its kind (for the selected student when
    /// one is selected).
    fn card_click(
        &self,
        battle: &dyn Battle,
        s: &SaucersState,
        selected: Option<&str>,
        seat: usize,
        index: usize,
    ) -> Option<AppCommand> {
        let card = *s.seats.get(seat)?.hand.get(index)?;
        let def = s.content.cards.get(card as usize)?;
        let who = selected.and_then(|id| student(s, id));
        let legal = battle.legal();
        let cmds: Vec<&LegalCommand> = legal
            .iter()
            .filter(|c| c.actor.0 as usize == seat)
            .filter(|c| {
                command(c).is_some_and(|cmd| {
                    card_of(&cmd).is_some_and(|k| s.content.cards[k as usize].id == def.id)
                        && (who.is_none() || human_of(&cmd).is_none_or(|h| Some(h) == who))
                })
            })
            .collect();
        one_or_choose(cmds).or_else(|| {
            Some(AppCommand::Explain(format!(
                "{}: {} cannot play it now{}",
                def.name,
                seat_label(s, seat as u8),
                match &def.kind {
                    CardKind::Event(_) => " (an Event happens when it is drawn)".to_owned(),
                    CardKind::Move { .. } | CardKind::Attack { .. } if who.is_none() => {
                        " (select one of their students first, in their turn)".to_owned()
                    }
                    _ => " (not the time for it, or its cost is not in their supplies)".to_owned(),
                }
            )))
        })
    }
}

impl BoardUi for SaucersBoard {
    fn prompt(&self, battle: &dyn Battle) -> Option<Prompt> {
        let s = state(battle)?;
        if s.over.is_some() {
            return None;
        }
        if let Some(&(seat, n)) = s.owed.first() {
            return Some(Prompt {
                ask: format!(
                    "{}: discard {n} card{} of your choice (click it in your hand)",
                    seat_label(s, seat),
                    if n == 1 { "" } else { "s" }
                ),
                why: "A hand may hold no more cards than its limit (Cards.Hand).".into(),
            });
        }
        if let Some(o) = &s.offer {
            return Some(Prompt {
                ask: format!(
                    "{}: accept or decline the swap the {} offer",
                    seat_label(s, o.to),
                    seat_label(s, o.from)
                ),
                why: "Turn.Swap: a swap that takes from another player's hand or tokens \
                      happens only if they agree (assumption 18)."
                    .into(),
            });
        }
        let who = seat_label(s, s.current);
        let (ask, why) = match s.phase {
            Phase::Assign => (
                "Every player: give your Task Force mission to one of your students".to_owned(),
                "Setup: each player's mission is carried by one student, who delivers it at \
                 its building."
                    .to_owned(),
            ),
            Phase::Actions => {
                let left: u32 = s.living(s.current).map(|(_, h)| u32::from(h.actions)).sum();
                (
                    format!(
                        "{who}: two actions with each student ({left} left): select a student, \
                         click a lit tile to move, an alien to attack; then End the actions"
                    ),
                    "Turn.Actions: move, attack, search or swap, in any order, the same one \
                     twice if wanted."
                        .to_owned(),
                )
            }
            Phase::Defeat if !defeat_needs(s).is_empty() => (
                format!("{who}: choose the students lost to the aliens on their tiles"),
                "Turn.Defeat: an alien still on a tile with students kills one of them.".into(),
            ),
            Phase::Upkeep => (
                format!("{who}: discard any cards, then feed your students one Food"),
                "Turn.Upkeep: without Food a student starves.".into(),
            ),
            p => (format!("{who}: {}", phase_name(p)), String::new()),
        };
        Some(Prompt { ask, why })
    }

    fn action_group(&self, cmd: &LegalCommand) -> Option<(u8, &'static str)> {
        Some(match command(cmd)? {
            SaucersCommand::Move { .. } => (0, "Move"),
            SaucersCommand::MoveCard { .. } => (1, "Move with a card"),
            SaucersCommand::Attack { .. } => (2, "Attack"),
            SaucersCommand::Search { .. } => (3, "Search"),
            SaucersCommand::Complete { .. } | SaucersCommand::Assign { .. } => (4, "Mission"),
            SaucersCommand::Swap { .. } => (5, "Swap"),
            SaucersCommand::Instant { .. } => (6, "Instants"),
            SaucersCommand::Discard { .. } => (7, "Discard"),
            _ => (8, "Turn"),
        })
    }

    fn click(&self, battle: &dyn Battle, click: BoardClick) -> Option<AppCommand> {
        let BoardClick {
            selected, under, ..
        } = click;
        let s = state(battle)?;
        if s.over.is_some() || !at_head(battle) {
            return None;
        }
        if let Some(card) = under.iter().find_map(|i| i.strip_prefix("card:")) {
            let (seat, index) = card.split_once(':')?;
            return self.card_click(battle, s, selected, seat.parse().ok()?, index.parse().ok()?);
        }
        // A click on a student selects it, even on a tile lit for the
        // selected one: moving onto a student, or searching the selected
        // student's own tile, is a click beside the figure. (A second click
        // on the selected student searched its tile by accident.)
        if let Some(other) = under.iter().find(|i| i.starts_with("human:")) {
            return Some(AppCommand::Select(Some((*other).to_owned())));
        }
        // A student selected and an alien clicked: attacks with that alien
        // first (the standard attack and each Attack card that reaches it).
        let who = selected.and_then(|id| student(s, id))?;
        let alien: u32 = under
            .iter()
            .find_map(|i| i.strip_prefix("alien:"))?
            .parse()
            .ok()?;
        let legal = battle.legal();
        let cmds: Vec<&LegalCommand> = legal
            .iter()
            .filter(|c| {
                matches!(command(c), Some(SaucersCommand::Attack { human, targets, .. })
                    if human == who && targets.first() == Some(&Target::Alien(alien)))
            })
            .collect();
        one_or_choose(cmds)
    }

    fn player_aid_ui(&self, ui: &mut egui::Ui, _battle: &dyn Battle) {
        ui.heading("Night of the Saucers");
        for line in [
            "Tiles: sand, not searched yet; pale, searched (tinted by the supply it gives); \
             dark, a crater; a red cross marks the high school; '!' an ambush.",
            "Aliens (top half of a tile, hit points inside): green triangle a Scout (its \
             arrow points where it goes), blue square a Probe, orange diamond a Commander, \
             red disc a Saucer Strike.",
            "Students (bottom half): discs in their gang's colour; a thick ring: actions left; \
             a gold ring: carries a mission.",
            "Hands (right): yellow Event, blue Instant, red Attack, green Move; '?' a card you \
             may not see.",
            "Select a student, then click a lit tile to move or attack, or an alien to attack \
             it first. Click a card in a hand to play it (Instants in anyone's turn).",
        ] {
            ui.label(line);
        }
    }

    /// The turn and the decks, and the hand of the seat whose screen it is,
    /// listed beside the board:
    /// on a small window the hands in the scene are a drag away. Behind the
    /// hot-seat curtain only the viewing seat's cards are named; the other
    /// hands are counted (principle 14). With no curtain, the hand of the
    /// seat that owes a discard, or else of the seat whose turn it is.
    fn panel_ui_as(
        &self,
        ui: &mut egui::Ui,
        battle: &dyn Battle,
        view: &BattleView,
        selected: Option<&str>,
        commands: &mut Vec<AppCommand>,
    ) {
        let viewer = view.viewer;
        let Some(seen) = super::seen_at::<Saucers>(battle, view) else {
            return;
        };
        let head = at_head(battle);
        let s: &SaucersState = &seen;
        let seat = match viewer {
            Viewer::Seat(Actor(seat)) => seat,
            Viewer::All => s.owed.first().map_or(s.current, |&(seat, _)| seat),
        } as usize;
        let Some(hand) = s.seats.get(seat).map(|x| &x.hand) else {
            return;
        };
        ui.separator();
        if let Some(o) = &s.offer {
            offer_ui(ui, s, o, viewer);
        }
        // The head of the scene's panel, cut off on a small window.
        for line in status_lines(s) {
            ui.label(line.replace("   ", "; "));
        }
        ui.strong(format!(
            "Hand of {} ({} of {})",
            seat_label(s, seat as u8),
            hand.len(),
            s.hand_size(seat as u8)
        ));
        if hand.is_empty() {
            ui.weak("No cards.");
        }
        for (index, &card) in hand.iter().enumerate() {
            let words = panel_words(s, card);
            let range = attack_range(s, card);
            // Only at the head, and only a card with a command now, is a
            // button; the others are named with what they do.
            let play = if head && s.over.is_none() {
                self.card_click(battle, s, selected, seat, index)
                    .filter(|c| !matches!(c, AppCommand::Explain(_)))
            } else {
                None
            };
            ui.horizontal_top(|ui| {
                if let Some(range) = range {
                    range_ui(ui, &s.content.cards[card as usize].name, range);
                }
                match play {
                    Some(cmd) => {
                        if ui.add(egui::Button::new(words).wrap()).clicked() {
                            commands.push(cmd);
                        }
                    }
                    None => {
                        ui.add(egui::Label::new(words).wrap());
                    }
                }
            });
        }
        let others: Vec<String> = s
            .seats
            .iter()
            .enumerate()
            .filter(|&(o, _)| o != seat)
            .map(|(o, x)| {
                format!(
                    "{}: {} card{}",
                    seat_label(s, o as u8),
                    x.hand.len(),
                    if x.hand.len() == 1 { "" } else { "s" }
                )
            })
            .collect();
        if !others.is_empty() {
            ui.weak(format!("Other hands: {}", others.join("; ")));
        }
    }

    fn new_battle_ui(&self, ui: &mut egui::Ui, _scenario: &str, config: &mut Value) {
        let Ok(content) = data::parse(&[]) else {
            ui.colored_label(
                ui.visuals().error_fg_color,
                "The game's data files do not read: see `xenolog check`.",
            );
            return;
        };
        if config.get("gangs").and_then(Value::as_array).is_none() {
            let ids: Vec<&str> = content.gangs.iter().map(|g| g.id.as_str()).collect();
            *config = json!({ "gangs": ids });
        }
        ui.label("Gangs (one per player, in seat order; the first as many as there are players):");
        let mut gangs = super::strings(&config["gangs"]);
        for (seat, chosen) in gangs.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                let l = ui.label(format!("Player {}:", seat + 1));
                egui::ComboBox::from_id_salt(("saucers-gang", seat))
                    .selected_text(gang_name(&content, chosen))
                    .show_ui(ui, |ui| {
                        for g in &content.gangs {
                            ui.selectable_value(chosen, g.id.clone(), &g.name);
                        }
                    })
                    .response
                    .labelled_by(l.id);
                ui.weak(students(&content, chosen));
            });
        }
        config["gangs"] = json!(gangs);
    }

    fn new_battle_config_with(&self, _scenario: &str, extra: &Value) -> Value {
        match extra.get("gangs") {
            Some(g) => json!({ "gangs": g }),
            None => json!({}),
        }
    }

    fn check_config(&self, config: &mut Value) -> Result<(), String> {
        let players = config.get("players").and_then(Value::as_u64).unwrap_or(2) as usize;
        let Some(gangs) = config.get_mut("gangs").and_then(Value::as_array_mut) else {
            return Ok(());
        };
        gangs.truncate(players);
        for (i, g) in gangs.iter().enumerate() {
            if gangs[..i].contains(g) {
                return Err(format!(
                    "two players chose the gang '{}': each player runs a gang of their own",
                    g.as_str().unwrap_or_default()
                ));
            }
        }
        Ok(())
    }
}

/// A card of a hand as the side panel names it: the engine's words without
/// an Attack card's range, which is drawn beside them ([`range_ui`]).
pub fn panel_words(s: &SaucersState, card: u16) -> String {
    card_words_but_range(s, card)
}

/// The tiles an Attack card reaches, from the attacking student's tile
/// (column and row offsets); `None` for another card or one hidden.
fn attack_range(s: &SaucersState, card: u16) -> Option<&[(i8, i8)]> {
    match &s.content.cards.get(card as usize)?.kind {
        CardKind::Attack { range, .. } => Some(range),
        _ => None,
    }
}

/// How wide a tile of an Attack card's range is drawn in the side panel.
const RANGE_CELL: f32 = 9.0;

/// An Attack card's range as the card prints it: five rows of five tiles,
/// the student's tile in the middle ringed, the tiles it reaches filled
/// (session 21: the panel wrote it as "..X../.X.X./..."). Named "Range of
/// CARD" with the tiles in words, for a screen reader and the tests.
fn range_ui(ui: &mut egui::Ui, card: &str, range: &[(i8, i8)]) {
    let size = egui::vec2(5.0 * RANGE_CELL, 5.0 * RANGE_CELL);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    let reach = |c: i8, r: i8| range.contains(&(c, r));
    let words = xenolog_engine::games::saucers::scene::grid(range);
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Image, true, format!("Range of {card}: {words}"))
    });
    let painter = ui.painter_at(rect.expand(1.0));
    let ink = ui.visuals().text_color();
    for r in -2i8..=2 {
        for c in -2i8..=2 {
            let min =
                rect.min + egui::vec2(f32::from(c + 2) * RANGE_CELL, f32::from(r + 2) * RANGE_CELL);
            let cell =
                egui::Rect::from_min_size(min, egui::vec2(RANGE_CELL, RANGE_CELL)).shrink(0.5);
            let fill = if reach(c, r) {
                egui::Color32::from_rgb(200, 40, 40)
            } else {
                ui.visuals().extreme_bg_color
            };
            painter.rect(
                cell,
                1.0,
                fill,
                egui::Stroke::new(0.5, ui.visuals().weak_text_color()),
                egui::StrokeKind::Inside,
            );
            if (c, r) == (0, 0) {
                painter.circle_stroke(cell.center(), RANGE_CELL * 0.3, egui::Stroke::new(1.5, ink));
            }
        }
    }
    response.on_hover_text(format!(
        "{card}: the tiles it reaches (red) from the attacking student's tile (ringed)"
    ));
}

/// A swap offered and waiting for its answer: what is offered, and who
/// answers (session 21: the panel went on with the offering seat's actions).
pub fn offer_ui(ui: &mut egui::Ui, s: &SaucersState, o: &Offer, viewer: Viewer) {
    let to = seat_label(s, o.to);
    ui.strong("Swap offered");
    let words = describe::event(s, &SaucersEvent::Offered(o.clone()));
    let mut c = words.chars();
    let words: String = c
        .next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default();
    ui.label(words);
    ui.label(match viewer {
        Viewer::Seat(Actor(v)) if v == o.to => {
            "You answer it: accept or decline, with the buttons above.".to_owned()
        }
        Viewer::Seat(Actor(v)) if v == o.from => format!(
            "Waiting for the {to} to answer: they are asked on their own screen (in a club \
             battle the server asks them, and their answer comes back here)."
        ),
        _ => format!("Waiting for the {to} to answer: accept or decline."),
    });
}

fn gang_name(content: &Content, id: &str) -> String {
    content
        .gang(id)
        .map_or_else(|| id.to_owned(), |g| content.gangs[g].name.clone())
}

/// A gang's students and its ability, in words.
fn students(content: &Content, id: &str) -> String {
    let Some(g) = content.gang(id) else {
        return String::new();
    };
    let names: Vec<&str> = content
        .gang_humans(g)
        .into_iter()
        .map(|h| content.humans[h].name.as_str())
        .collect();
    format!("{} ({})", names.join(", "), content.gangs[g].ability.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_keeps_a_gang_per_player_and_refuses_a_gang_twice() {
        let board = SaucersBoard;
        let extra = json!({ "gangs": ["a", "b", "c", "d"] });
        let mut config = board.new_battle_config_with("", &extra);
        config["players"] = json!(3);
        board.check_config(&mut config).unwrap();
        assert_eq!(config["gangs"], json!(["a", "b", "c"]));
        let mut twice = json!({ "players": 2, "gangs": ["a", "a", "b"] });
        let e = board.check_config(&mut twice).unwrap_err();
        assert!(e.contains("'a'"), "{e}");
    }
}
