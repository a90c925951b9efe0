//! Alien (Górski): the expedition's character cards (strength, pockets,
//! action points), the APC and the task track with only the task cards the
//! seat looking may see, the selected character's reach for its action
//! points left and its lines of fire per weapon, the Alien phase's
//! questions in words, and the legend with the FIGHT RESULT table.
//!
//! The base, the pieces and the clicks are the engine's scene and command
//! anchors (`xenolog_engine::games::alien::scene`): clicking a character
//! selects it, a lit tile next to it moves it there, a lit alien shoots
//! (asking how many charges when there is a choice), a grenade is thrown in
//! two steps (where it lands, a lit tile or a button per tile in the side
//! panel; then which three tiles it strikes, each area in words with whom it
//! kills), and the items it can use are buttons under it in the side panel.

use std::cell::RefCell;

use eframe::egui;
use serde_json::{Value, json};
use xenolog_engine::games::alien::data::{Item, Terrain, Tile};
use xenolog_engine::games::alien::rules::{self, AlienCommand as C};
use xenolog_engine::games::alien::scene::{TILE, terrain_fill};
use xenolog_engine::games::alien::state::{AlienState, Phase, Pos, Queen, QueenOption};
use xenolog_engine::games::alien::{Alien, AlienEvent};
use xenolog_engine::scene::Rgba;
use xenolog_engine::{Actor, Battle, EntryId, EntryText, LegalCommand, Scene, Session};

use super::{BoardClick, BoardUi, FirstStep, Mark, Prompt, Step, at_head, swatch};
use crate::gui::board::color;
use crate::gui::command::{AppCommand, Intent, PlayRequest};
use crate::gui::view::BattleView;

/// The board UI of Alien.
#[derive(Default)]
pub struct AlienBoard {
    /// The marks of the last selection at the last position: the reach is
    /// a search of the base, done once, not every frame.
    kept: RefCell<Option<(MarksKey, Vec<Mark>)>>,
}

type MarksKey = (Option<EntryId>, usize, Option<String>);

fn session(battle: &dyn Battle) -> Option<&Session<Alien>> {
    super::session_of::<Alien>(battle)
}

fn state(battle: &dyn Battle) -> Option<&AlienState> {
    super::state_of::<Alien>(battle)
}

/// A character's index by its scene id (`char:ID`).
fn character_of(s: &AlienState, id: &str) -> Option<u8> {
    let card = id.strip_prefix("char:")?;
    s.characters
        .iter()
        .position(|c| {
            s.content
                .characters
                .get(usize::from(c.card))
                .is_some_and(|k| k.id == card)
        })
        .map(|i| i as u8)
}

/// An alien by its scene id (`alien:N`).
fn alien_of(id: &str) -> Option<u16> {
    id.strip_prefix("alien:")?.parse().ok()
}

/// A tile by its scene id (`tile:K9`).
fn tile_of(s: &AlienState, id: &str) -> Option<Tile> {
    s.content.base.tile(id.strip_prefix("tile:")?)
}

fn centre(s: &AlienState, t: Tile) -> [f32; 2] {
    let (x, y) = s.content.base.xy(t);
    [(x as f32 + 0.5) * TILE, (y as f32 + 0.5) * TILE]
}

/// Where a character is, in words.
fn where_words(s: &AlienState, pos: Pos) -> String {
    match pos {
        Pos::Tile(t) => s.content.base.describe(t),
        Pos::Apc => format!("aboard the APC at {}", s.content.base.name(s.apc.at)),
        Pos::Outside(k) => format!("outside, track space {}", k + 1),
        Pos::Dead => "killed".into(),
    }
}

fn pockets_words(s: &AlienState, items: &[Item]) -> String {
    if items.is_empty() {
        return "empty pockets".into();
    }
    items
        .iter()
        .map(|i| s.content.items.name(*i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tiles a character may walk to with its action points left (4, 4.1):
/// free ground, never through another character or an alien, stopping on
/// the first tile next to an alien; with the steps each takes.
pub fn reach(s: &AlienState, ch: u8) -> Vec<(Tile, u8)> {
    let Some(c) = s.characters.get(usize::from(ch)) else {
        return Vec::new();
    };
    let Some(from) = c.tile() else {
        return Vec::new();
    };
    if c.shot || c.stopped || c.ap == 0 || s.phase != Phase::Expedition {
        return Vec::new();
    }
    let base = &s.content.base;
    // The APC's tile boards it: only with fuel, not again after leaving it.
    let board_apc = s.apc.fuel > 0 && !c.left_apc;
    let ok = |t: Tile| {
        let ground = if t == s.apc.at {
            board_apc
        } else {
            rules::character_ground(s, t)
        };
        ground && s.character_at(t).is_none() && !s.alien_at(t)
    };
    let mut seen = vec![(from, 0u8)];
    let mut i = 0;
    while i < seen.len() {
        let (t, d) = seen[i];
        i += 1;
        // Onto the APC or next to an alien: the walk ends there.
        if d >= c.ap || (t != from && (s.next_to_alien(t) || t == s.apc.at)) {
            continue;
        }
        for n in base.neighbours_iter(t) {
            if ok(n) && !seen.iter().any(|x| x.0 == n) {
                seen.push((n, d + 1));
            }
        }
    }
    seen.retain(|x| x.0 != from);
    seen
}

/// The first tile of the shortest walk from a character to `to` within its
/// reach (4.1), `None` when `to` is out of reach.
pub fn first_step(s: &AlienState, ch: u8, to: Tile) -> Option<Tile> {
    let tiles = reach(s, ch);
    let mut d = tiles.iter().find(|x| x.0 == to)?.1;
    let base = &s.content.base;
    let mut at = to;
    // Walk back through tiles one step nearer until the first step.
    while d > 1 {
        let (prev, _) = *tiles
            .iter()
            .find(|x| x.1 == d - 1 && base.adjacent(x.0, at) && !s.next_to_alien(x.0))?;
        at = prev;
        d -= 1;
    }
    Some(at)
}

/// The selected character's reach (a square per tile) and its lines of
/// fire: one per weapon in its pockets and alien in that weapon's range,
/// dashed when a wall, a character or another alien is in the way (6).
fn character_marks(s: &AlienState, ch: u8) -> Vec<Mark> {
    let mut marks = Vec::new();
    let c = &s.characters[usize::from(ch)];
    let half = TILE / 2.0 - 3.0;
    for (t, d) in reach(s, ch) {
        let [x, y] = centre(s, t);
        marks.push(Mark::Area {
            centre: [x, y],
            outline: vec![
                [x - half, y - half],
                [x + half, y - half],
                [x + half, y + half],
                [x - half, y + half],
            ],
            fill: Rgba(80, 160, 255, 40),
            stroke: Rgba(80, 160, 255, 150),
            tip: format!(
                "{}: {d} action point{} away",
                s.content.base.name(t),
                if d == 1 { "" } else { "s" }
            ),
        });
    }
    let Some(from) = c.tile() else {
        return marks;
    };
    let card = &s.content.characters[usize::from(c.card)];
    if card.unarmed {
        return marks;
    }
    let base = &s.content.base;
    for it in &c.items {
        let Item::Weapon(w) = it else { continue };
        let Some(weapon) = s.content.items.weapons.get(usize::from(*w)) else {
            continue;
        };
        for a in &s.aliens {
            let d = base.distance(from, a.at);
            if d > i32::from(weapon.range) {
                continue;
            }
            let clear = rules::clear_line(s, from, a.at, a.id);
            marks.push(Mark::Line {
                from: centre(s, from),
                to: centre(s, a.at),
                colour: if clear {
                    Rgba::rgb(230, 60, 40)
                } else {
                    Rgba::rgb(140, 140, 140)
                },
                dashed: !clear,
                tip: format!(
                    "{} (range {}, shot strength {}) at alien {} ({} tiles): {}",
                    weapon.name,
                    weapon.range,
                    weapon.power,
                    a.id,
                    d,
                    if clear {
                        "a clear line"
                    } else {
                        "blocked by a wall, a character or another alien"
                    }
                ),
            });
        }
    }
    marks
}

/// A grenade's area in words: its three tiles, then whom it kills there
/// (5: every alien and character on them).
fn blast_words(s: &AlienState, thrower: u8, area: &[Tile]) -> String {
    let base = &s.content.base;
    let tiles: Vec<String> = area.iter().map(|t| base.name(*t)).collect();
    let mut struck = Vec::new();
    for &t in area {
        for a in s.aliens.iter().filter(|a| a.at == t) {
            struck.push(format!(
                "alien {} (strength {}) on {}",
                a.id,
                a.strength,
                base.name(t)
            ));
        }
        if let Some(i) = s.character_at(t) {
            let who = if i == usize::from(thrower) {
                format!("{} himself", s.name(thrower))
            } else {
                s.name(i as u8)
            };
            struck.push(format!("{who} on {}", base.name(t)));
        }
    }
    let what = match struck.as_slice() {
        [] => "strikes no one".to_owned(),
        [one] => format!("kills {one}"),
        [init @ .., last] => format!("kills {} and {last}", init.join(", ")),
    };
    format!("{}: {what}", tiles.join(", "))
}

/// A command as a choice in "Which command?": in its
/// [`BoardUi::choice_label`] words, the engine's sentence on hover.
fn choice_intent(board: &AlienBoard, battle: &dyn Battle, cmd: &LegalCommand) -> Intent {
    let mut intent = Intent::from(cmd);
    intent.label = board.choice_label(battle, cmd).map(|(words, _)| words);
    intent
}

/// Throws (every command must be one, else `None`) in the order a person
/// wants them: those that kill aliens and no character first, most aliens
/// first, then those that strike no one, then those that kill characters;
/// otherwise as the rules list them.
fn throw_choices<'c>(
    s: &AlienState,
    cmds: impl Iterator<Item = &'c LegalCommand>,
) -> Option<Vec<&'c LegalCommand>> {
    let mut ranked = Vec::new();
    for cmd in cmds {
        let C::Throw { area, .. } = serde_json::from_value(cmd.command.clone()).ok()? else {
            return None;
        };
        let aliens = s.aliens.iter().filter(|a| area.contains(&a.at)).count();
        let friends = area
            .iter()
            .filter(|t| s.character_at(**t).is_some())
            .count();
        ranked.push(((friends, std::cmp::Reverse(aliens)), cmd));
    }
    ranked.sort_by_key(|x| x.0);
    Some(ranked.into_iter().map(|x| x.1).collect())
}

/// The state as `viewer` may see it: task cards hidden from the Alien
/// player until the battle ends (the engine's view, 7).
/// The six character cards: strength, action points, where, pockets; a
/// name selects its character (one aboard the APC or outside, too).
fn cards_ui(
    ui: &mut egui::Ui,
    s: &AlienState,
    selected: Option<&str>,
    commands: &mut Vec<AppCommand>,
) {
    ui.strong("The expedition");
    for (i, c) in s.characters.iter().enumerate() {
        let card = &s.content.characters[usize::from(c.card)];
        let name = if s.players > 2 {
            format!("{} (seat {})", card.name, c.seat + 1)
        } else {
            card.name.clone()
        };
        ui.horizontal(|ui| {
            if !c.alive() {
                ui.weak(format!("{name}: killed"));
                return;
            }
            let id = format!("char:{}", card.id);
            let r = ui
                .selectable_label(selected == Some(id.as_str()), name)
                .on_hover_text(format!("Select {}", card.name));
            if r.clicked() {
                commands.push(AppCommand::Select(Some(id)));
            }
            ui.label(format!("strength {}/{}", c.strength, card.strength));
            if s.phase == Phase::Expedition {
                ui.label(format!("{} of 6 points left", c.ap));
            }
        });
        if !c.alive() {
            continue;
        }
        let note = if c.shot {
            " (has shot: only more shots)"
        } else if c.stopped {
            " (next to an alien: no more moving)"
        } else {
            ""
        };
        let text = format!(
            "{}; {}{note}",
            where_words(s, c.pos),
            pockets_words(s, &c.items)
        );
        ui.indent(("alien-card", i), |ui| {
            ui.add(egui::Label::new(egui::RichText::new(text).small()).wrap());
        });
    }
}

/// The APC, the Queen, the task track and the task cards the viewer may see.
fn track_ui(ui: &mut egui::Ui, s: &AlienState) {
    let aboard: Vec<String> = (0..s.characters.len() as u8)
        .filter(|&i| s.characters[usize::from(i)].pos == Pos::Apc)
        .map(|i| s.name(i))
        .collect();
    ui.label(format!(
        "APC at {}: fuel for {} phase{}; {}",
        s.content.base.name(s.apc.at),
        s.apc.fuel,
        if s.apc.fuel == 1 { "" } else { "s" },
        if aboard.is_empty() {
            "no one aboard".to_owned()
        } else {
            format!("aboard: {}", aboard.join(", "))
        }
    ));
    let queen = match s.queen {
        Queen::Alive => "alive".to_owned(),
        Queen::Dead { hatching: true } => "dead (aliens still hatch)".into(),
        Queen::Dead { hatching: false } => "dead: back to the ship!".into(),
    };
    let option = match s.option {
        QueenOption::Declare => "option 1: attack her after a task".to_owned(),
        QueenOption::Tasks(n) => format!("option 2: {n} tasks kill her"),
    };
    ui.label(format!(
        "Task points: {}. The Queen is {queen} ({option}).",
        s.points
    ));
    ui.strong(format!("Task cards ({} undone, at most 3)", s.open.len()));
    if s.open.is_empty() {
        ui.weak("None drawn: read a floppy disk at a computer.");
    }
    for &card in &s.open {
        if card == 0 {
            ui.weak("A task card only the expedition may see");
            continue;
        }
        if let Some(t) = s.content.tasks.iter().find(|t| t.n == card) {
            ui.add(egui::Label::new(format!("Task {}: {}", t.n, t.text)).wrap());
        }
    }
    if !s.done.is_empty() {
        let done: Vec<String> = s.done.iter().map(u8::to_string).collect();
        ui.weak(format!("Done: task {}", done.join(", task ")));
    }
    ui.weak(format!("{} cards left in the pile", s.deck.len()));
}

/// The decision in front of the Alien player, in words.
fn prompt_of(s: &AlienState) -> Option<Prompt> {
    if s.over.is_some() {
        return None;
    }
    match s.phase {
        Phase::Hatching => {
            let roll = s.hatch_roll?;
            Some(if s.to_place.is_empty() {
                Prompt {
                    ask: format!("Alien Queen: split the hatching roll of {roll} into new aliens"),
                    why: "Hatching (9.1): new aliens of strength 1 to 4 whose strengths add up \
                          to the roll exactly, as many as the Alien player likes. Pick a split \
                          below."
                        .into(),
                }
            } else {
                let left: Vec<String> = s.to_place.iter().map(u8::to_string).collect();
                Prompt {
                    ask: format!(
                        "Alien Queen: place the new alien of strength {} on a hatching place",
                        s.to_place[0]
                    ),
                    why: format!(
                        "Hatching (9.1): every new alien starts on a hatching place, together \
                         or apart (still to place: {}). Click a lit hatching place.",
                        left.join(", ")
                    ),
                }
            })
        }
        Phase::Moving => Some(Prompt {
            ask: "Alien Queen: move the aliens, then end their movement".into(),
            why: "Movement (9.2): each alien up to four tiles through corridors, ducts and \
                  rooms, never through another alien; one that comes next to a character \
                  stops there to attack. Select an alien, click a lit tile."
                .into(),
        }),
        Phase::Attacks => Some(Prompt {
            ask: "Alien Queen: attack with the aliens next to the characters".into(),
            why: "Attacks (10): every alien next to a character attacks it, several \
                  together: their strength (doubled in a duct) less the character's. Click a \
                  lit character."
                .into(),
        }),
        Phase::Expedition | Phase::Metamorphosis => None,
    }
}

/// The scene items an event is about, marked while its step is shown.
fn focus(s: &AlienState, e: &AlienEvent) -> Vec<String> {
    use AlienEvent as E;
    let ch = |c: &u8| {
        s.characters
            .get(usize::from(*c))
            .and_then(|x| s.content.characters.get(usize::from(x.card)))
            .map(|k| format!("char:{}", k.id))
    };
    let tile = |t: &Tile| format!("tile:{}", s.content.base.name(*t));
    let mut out: Vec<String> = match e {
        E::Moved { ch: c, to, .. } => ch(c).into_iter().chain([tile(to)]).collect(),
        E::Shot { ch: c, alien, .. } => ch(c)
            .into_iter()
            .chain([format!("alien:{alien}")])
            .collect(),
        E::Attacked { ch: c, aliens, .. } => ch(c)
            .into_iter()
            .chain(aliens.iter().map(|a| format!("alien:{a}")))
            .collect(),
        E::AlienMoved { alien, to } | E::AlienWithdrew { alien, to } => {
            vec![format!("alien:{alien}"), tile(to)]
        }
        E::Hatched { alien, at, .. } => vec![format!("alien:{alien}"), tile(at)],
        E::CharacterHit { ch: c, .. } | E::CharacterKilled { ch: c } => ch(c).into_iter().collect(),
        E::CharacterWithdrew { ch: c, to } => ch(c).into_iter().chain([tile(to)]).collect(),
        E::AlienHit { alien, .. } | E::AlienKilled { alien, .. } => {
            vec![format!("alien:{alien}")]
        }
        E::ApcDrove { to, .. } => vec!["apc".into(), tile(to)],
        _ => Vec::new(),
    };
    out.dedup();
    out
}

/// The legend and player aid of Alien (rule text 004, the clauses of its
/// RULES.md in brackets), with the FIGHT RESULT table in force.
fn aid_ui(ui: &mut egui::Ui, s: Option<&AlienState>) {
    ui.set_max_width(ui.available_width().min(480.0));
    ui.heading("The base");
    for (t, words) in [
        (
            Terrain::Corridor,
            "Corridor: the APC drives here; a charge collapses it (5).",
        ),
        (
            Terrain::Room,
            "Room: storages, computers and the task places are here.",
        ),
        (
            Terrain::Duct,
            "Air duct (hatched): an alien's strength counts double; two aliens on one duct \
             tile merge (9.2, 9.3). No APC.",
        ),
        (
            Terrain::Landing,
            "Landing field: closed until the Queen is dead, then one character there wins (4.1, 8).",
        ),
        (
            Terrain::Airlock(1),
            "Airlock: out to the track with a vacuum suit; no aliens, no APC (4.3).",
        ),
        (Terrain::Wall, "Wall."),
    ] {
        swatch(ui, color(terrain_fill(t)), words);
    }
    ui.label(
        "Letters on tiles: SUIT, FUEL, COMP (component warehouse: floppy disks, spare parts), \
         MAG (magazine), MED (medical supplies), ARM (armoury); PC1-PC3 computers; H1-H5 \
         hatching places.",
    );
    ui.label(
        "A character shows its name, strength and pockets (S suit, F fuel, D disk, P spare \
         parts, X explosive, + medical kit, G grenade, A cartridge, W weapon); an alien its \
         strength (x2 in a duct).",
    );
    ui.heading("Action points (4)");
    for line in [
        "Six a phase: a tile moved, an item taken, dropped or handed over, a shot (a charge), \
         a task read, a charge used: one point each.",
        "After shooting only more shots; next to an alien a character stops.",
        "Shot: strength + weapon strength x charges - the alien's strength (x2 in a duct) (6).",
        "Aliens' attack: their strengths together - the character's strength (10).",
    ] {
        ui.label(format!("• {line}"));
    }
    let Some(s) = s else { return };
    let t = &s.content.table;
    ui.heading("FIGHT RESULT (assumed table, fight.txt)");
    ui.weak("A: attacker loses / withdraws; D: defender loses / withdraws.");
    egui::Grid::new("alien-fight").striped(true).show(ui, |ui| {
        ui.weak("force");
        for roll in 1..=6 {
            ui.weak(format!("roll {roll}"));
        }
        ui.end_row();
        for (k, col) in t.columns.iter().enumerate() {
            ui.label(if *col > 0 {
                format!("+{col}")
            } else {
                col.to_string()
            });
            for row in &t.rows {
                let c = row.get(k).copied().unwrap_or_default();
                let part =
                    |tag: &str, l: u8, w: u8| (l > 0 || w > 0).then(|| format!("{tag}{l}/{w}"));
                let words: Vec<String> = [
                    part("A", c.attacker.lost, c.attacker.withdraw),
                    part("D", c.defender.lost, c.defender.withdraw),
                ]
                .into_iter()
                .flatten()
                .collect();
                ui.monospace(if words.is_empty() {
                    "-".into()
                } else {
                    words.join(" ")
                });
            }
            ui.end_row();
        }
    });
}

impl AlienBoard {
    /// The command the selected character would give at `target`, for
    /// asking the rules why it is refused.
    fn probe(s: &AlienState, ch: u8, target: &str) -> Option<C> {
        if let Some(to) = tile_of(s, target) {
            return Some(C::Move { ch, to });
        }
        let alien = alien_of(target)?;
        let c = &s.characters[usize::from(ch)];
        let weapon = c
            .items
            .iter()
            .position(|i| matches!(i, Item::Weapon(_)))
            .unwrap_or(0) as u8;
        Some(C::Shoot {
            ch,
            weapon,
            alien,
            charges: 1,
        })
    }
}

impl BoardUi for AlienBoard {
    fn prompt(&self, battle: &dyn Battle) -> Option<Prompt> {
        prompt_of(state(battle)?)
    }

    fn why_not(&self, battle: &dyn Battle, selected: &str, target: &str) -> Option<String> {
        let s = state(battle)?;
        let ch = character_of(s, selected)?;
        let cmd = serde_json::to_value(Self::probe(s, ch, target)?).ok()?;
        let seat = Actor(s.characters[usize::from(ch)].seat);
        battle
            .prepare_json(seat, &cmd, None)
            .err()
            .map(|e| e.to_string())
    }

    fn why_idle(&self, battle: &dyn Battle, selected: &str) -> Option<String> {
        let s = state(battle)?;
        if let Some(ch) = character_of(s, selected) {
            let c = &s.characters[usize::from(ch)];
            let name = s.name(ch);
            return Some(if !c.alive() {
                format!("{name} is dead")
            } else if s.phase != Phase::Expedition {
                "the characters act in phase 1; this is the Alien phase".into()
            } else if s.seats_done.contains(&c.seat) {
                format!("{name}'s player has ended the phase")
            } else if c.ap == 0 {
                format!("{name} has used all six action points this phase")
            } else {
                format!("{name} has nothing to do here")
            });
        }
        let a = alien_of(selected)?;
        let alien = s.alien(a)?;
        Some(if s.phase != Phase::Moving {
            "aliens move in the Alien phase (9.2)".into()
        } else if alien.moved {
            format!("alien {a} has moved this phase")
        } else {
            format!("alien {a} has no free tile to move to")
        })
    }

    fn action_group(&self, cmd: &LegalCommand) -> Option<(u8, &'static str)> {
        Some(match serde_json::from_value(cmd.command.clone()).ok()? {
            C::Move { .. } | C::Leave { .. } | C::MoveAlien { .. } | C::Drive { .. } => (0, "Move"),
            C::Shoot { .. } => (1, "Shoot"),
            C::Throw { .. } => (2, "Throw a grenade"),
            C::Take { .. } | C::Drop { .. } | C::Give { .. } => (3, "Items"),
            C::Read { .. }
            | C::Repair { .. }
            | C::Fuel { .. }
            | C::Blow { .. }
            | C::Heal { .. }
            | C::GoOut { .. }
            | C::ComeIn { .. } => (4, "Use"),
            _ => return None,
        })
    }

    fn choice_label(&self, battle: &dyn Battle, cmd: &LegalCommand) -> Option<(String, String)> {
        let s = state(battle)?;
        match serde_json::from_value(cmd.command.clone()).ok()? {
            // 9.1: a split of the hatching roll reads as the aliens it makes.
            C::Hatch { parts } => {
                let words: Vec<String> = parts.iter().map(u8::to_string).collect();
                Some((
                    format!(
                        "{} alien{} of {}",
                        parts.len(),
                        if parts.len() == 1 { "" } else { "s" },
                        words.join(" + ")
                    ),
                    cmd.text.clone(),
                ))
            }
            C::Place { hatch } => {
                let t = s
                    .content
                    .base
                    .hatches
                    .get(usize::from(hatch).wrapping_sub(1))?;
                Some((
                    format!("Hatching place {hatch} ({})", s.content.base.name(*t)),
                    cmd.text.clone(),
                ))
            }
            // 5: a grenade's area reads as its three tiles and who dies.
            C::Throw { ch, area, .. } => Some((blast_words(s, ch, &area), cmd.text.clone())),
            _ => None,
        }
    }

    /// A landing tile reads as the throw and how many areas it offers
    /// ("Hicks throws a grenade at J8 (22 areas)"), after any other command
    /// on it (a step, a shot), not as one arbitrary area's throw.
    fn target_label(&self, battle: &dyn Battle, cmds: &[&LegalCommand]) -> Option<String> {
        let s = state(battle)?;
        let mut others: Vec<String> = Vec::new();
        // Per thrower, in the commands' order: the tile and the count.
        let mut throws: Vec<(u8, Tile, usize)> = Vec::new();
        for cmd in cmds {
            match serde_json::from_value(cmd.command.clone()) {
                Ok(C::Throw { ch, at, .. }) => match throws.iter_mut().find(|x| x.0 == ch) {
                    Some(x) => x.2 += 1,
                    None => throws.push((ch, at, 1)),
                },
                _ => others.push(cmd.text.clone()),
            }
        }
        if throws.is_empty() {
            return None;
        }
        others.extend(throws.into_iter().map(|(ch, at, n)| {
            format!(
                "{} throws a grenade at {} ({n} area{})",
                s.name(ch),
                s.content.base.name(at),
                if n == 1 { "" } else { "s" }
            )
        }));
        Some(others.join(" or "))
    }

    /// A grenade is thrown in two steps: where it lands (the lit tile), then
    /// which three tiles it strikes.
    fn two_steps(&self, battle: &dyn Battle, group: &[&LegalCommand]) -> Option<Vec<FirstStep>> {
        let s = state(battle)?;
        let mut steps: Vec<(Tile, u8, FirstStep)> = Vec::new();
        for cmd in throw_choices(s, group.iter().copied())? {
            let C::Throw { ch, pocket, at, .. } =
                serde_json::from_value(cmd.command.clone()).ok()?
            else {
                return None;
            };
            if let Some((_, _, step)) = steps.iter_mut().find(|x| (x.0, x.1) == (at, pocket)) {
                step.options.push(choice_intent(self, battle, cmd));
                continue;
            }
            let c = s.characters.get(usize::from(ch))?;
            let grenades = c.items.iter().filter(|i| **i == Item::Grenade).count();
            let which = if grenades > 1 {
                format!(" (grenade in pocket {})", pocket + 1)
            } else {
                String::new()
            };
            let name = s.content.base.name(at);
            let step = FirstStep {
                words: format!("Land on {name}{which}"),
                hover: format!(
                    "{} throws the grenade{which} to land on {name}; then choose the three \
                     tiles it strikes (5)",
                    s.name(ch)
                ),
                options: vec![choice_intent(self, battle, cmd)],
            };
            steps.push((at, pocket, step));
        }
        Some(steps.into_iter().map(|x| x.2).collect())
    }

    fn name_of(&self, battle: &dyn Battle, id: &str) -> Option<String> {
        let s = state(battle)?;
        character_of(s, id).map(|ch| s.name(ch))
    }

    fn details_ui(&self, ui: &mut egui::Ui, battle: &dyn Battle, scene: &Scene, selected: &str) {
        let Some(s) = state(battle) else {
            super::generic_details_ui(ui, battle, scene, selected);
            return;
        };
        if let Some(ch) = character_of(s, selected) {
            let c = &s.characters[usize::from(ch)];
            let card = &s.content.characters[usize::from(c.card)];
            ui.label(format!(
                "Strength {} of {}{}",
                c.strength,
                card.strength,
                if card.android { " (the android)" } else { "" }
            ));
            if s.phase == Phase::Expedition && c.alive() {
                ui.label(format!("Action points left: {} of 6", c.ap));
            }
            ui.label(where_words(s, c.pos));
            for p in 0..3 {
                ui.label(format!(
                    "Pocket {}: {}",
                    p + 1,
                    c.items
                        .get(p)
                        .map_or_else(|| "empty".into(), |i| s.content.items.name(*i))
                ));
            }
            if card.medic {
                ui.weak("Uses medical kits on a neighbour.");
            }
            if card.unarmed {
                ui.weak("May not shoot or throw grenades.");
            }
            if c.kills > 0 {
                ui.label(format!("Aliens killed: {}", c.kills));
            }
            return;
        }
        if let Some(a) = alien_of(selected).and_then(|a| s.alien(a)) {
            let duct = s.content.base.terrain(a.at) == Terrain::Duct;
            ui.label(format!(
                "Strength {}{} on {}",
                a.strength,
                if duct {
                    format!(" ({} in this duct)", 2 * a.strength)
                } else {
                    String::new()
                },
                s.content.base.name(a.at)
            ));
            if a.moved {
                ui.weak("Has moved this phase.");
            }
            if a.attacked {
                ui.weak("Has attacked this phase.");
            }
            return;
        }
        super::generic_details_ui(ui, battle, scene, selected);
    }

    fn steps(&self, battle: &dyn Battle, entry: &EntryText) -> Vec<Step> {
        let (Some(sess), Some(s)) = (session(battle), state(battle)) else {
            return entry
                .events
                .iter()
                .map(|e| Step {
                    text: e.clone(),
                    focus: Vec::new(),
                })
                .collect();
        };
        let events = sess.events(entry.id);
        let aligned = events.len() == entry.events.len();
        entry
            .events
            .iter()
            .enumerate()
            .map(|(i, text)| Step {
                text: text.clone(),
                focus: if aligned {
                    events.get(i).map(|e| focus(s, e)).unwrap_or_default()
                } else {
                    Vec::new()
                },
            })
            .collect()
    }

    fn player_aid_ui(&self, ui: &mut egui::Ui, battle: &dyn Battle) {
        aid_ui(ui, state(battle));
    }

    fn marks(&self, battle: &dyn Battle, selected: Option<&str>) -> Vec<Mark> {
        let Some(s) = state(battle) else {
            return Vec::new();
        };
        let Some(ch) = selected.and_then(|id| character_of(s, id)) else {
            return Vec::new();
        };
        let key: MarksKey = (
            battle.cursor(),
            battle.records().len(),
            selected.map(str::to_owned),
        );
        if let Some((k, marks)) = &*self.kept.borrow()
            && *k == key
        {
            return marks.clone();
        }
        // `s` is the state at the cursor, reviewing or not.
        let marks = character_marks(s, ch);
        *self.kept.borrow_mut() = Some((key, marks.clone()));
        marks
    }

    /// A click on a tile the selected character reaches but that is not
    /// next to it: the first step of its walk there (one tile a command,
    /// one action point each, 4.1). A click on a grenade's landing tile:
    /// which command, its areas each by its three tiles and whom it kills
    /// (5). Anything else: the generic board.
    fn click(&self, battle: &dyn Battle, click: BoardClick) -> Option<AppCommand> {
        let BoardClick {
            selected, under, ..
        } = click;
        let s = state(battle)?;
        if !at_head(battle) || s.over.is_some() {
            return None;
        }
        let ch = selected.and_then(|id| character_of(s, id))?;
        let to = under.iter().find_map(|i| tile_of(s, i))?;
        let legal = battle.legal();
        let actor = Actor(s.characters[usize::from(ch)].seat);
        let here = |c: &LegalCommand| {
            c.subject.as_deref() == selected
                && c.target.as_deref().is_some_and(|t| under.contains(&t))
        };
        let aimed: Vec<&LegalCommand> = legal.iter().filter(|c| here(c)).collect();
        let throws = aimed.iter().any(|c| {
            matches!(
                serde_json::from_value(c.command.clone()),
                Ok(C::Throw { .. })
            )
        });
        let occupied = under
            .iter()
            .any(|i| i.starts_with("alien:") || i.starts_with("char:") || *i == "apc");
        if occupied && !throws {
            return None;
        }
        let from = s.characters[usize::from(ch)].tile()?;
        // The first step of a walk there, when it is not next to him.
        let walk = (!occupied && !s.content.base.adjacent(from, to))
            .then(|| first_step(s, ch, to))
            .flatten()
            .and_then(|step| serde_json::to_value(C::Move { ch, to: step }).ok())
            .and_then(|cmd| legal.iter().find(|c| c.command == cmd && c.actor == actor));
        // A grenade's landing tile (5): which of its areas, each by its
        // tiles and whom it kills (or the step there, the walk, a shot at
        // the alien on it).
        if throws {
            let is_throw = |c: &&LegalCommand| {
                matches!(
                    serde_json::from_value(c.command.clone()),
                    Ok(C::Throw { .. })
                )
            };
            let (thrown, other): (Vec<&LegalCommand>, Vec<&LegalCommand>) =
                aimed.into_iter().partition(is_throw);
            let options = walk
                .into_iter()
                .chain(other)
                .chain(throw_choices(s, thrown.into_iter())?)
                .map(|c| choice_intent(self, battle, c))
                .collect();
            return Some(AppCommand::Choose(options));
        }
        walk.map(|found| AppCommand::Give(PlayRequest::new(Intent::from(found))))
    }

    fn panel_ui_as(
        &self,
        ui: &mut egui::Ui,
        battle: &dyn Battle,
        view: &BattleView,
        selected: Option<&str>,
        commands: &mut Vec<AppCommand>,
    ) {
        let Some(seen) = super::seen_at::<Alien>(battle, view) else {
            return;
        };
        ui.separator();
        if let Some(roll) = seen.hatch_roll
            && seen.phase == Phase::Hatching
        {
            ui.label(format!("Hatching roll: {roll}"));
        }
        cards_ui(ui, &seen, selected, commands);
        ui.add_space(4.0);
        track_ui(ui, &seen);
    }

    fn new_battle_ui(&self, ui: &mut egui::Ui, _scenario: &str, _config: &mut Value) {
        ui.weak(
            "Seat 1 is the Alien Queen's player; the expedition's players share the six \
             characters in card order (Hicks, Hudson, Vasquez, Gorman, Bishop, Apone). Task \
             cards are shown only to the expedition: with hot-seat play the screen is passed \
             behind a curtain.",
        );
    }

    fn new_battle_config(&self, scenario: &str) -> Value {
        json!({ "scenario": scenario })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xenolog_engine::games::alien::{AlienConfig, start};

    fn at(position: &str) -> AlienState {
        start(&AlienConfig {
            scenario_text: Some(position.to_owned()),
            ..AlienConfig::default()
        })
        .expect("position")
    }

    #[test]
    fn the_reach_stops_next_to_an_alien_and_counts_the_points_left() {
        let s = at("character hicks at K9\nalien 2 at M8\n");
        let h = character_of(&s, "char:hicks").unwrap();
        let r = reach(&s, h);
        let t = |n: &str| s.content.base.tile(n).unwrap();
        let d = |n: &str| r.iter().find(|x| x.0 == t(n)).map(|x| x.1);
        assert_eq!(d("J9"), Some(1));
        assert_eq!(d("L9"), Some(1));
        // M9 is next to the alien on M8: the walk stops there, never past it.
        assert_eq!(d("M9"), Some(2));
        assert_eq!(d("N9"), None, "{r:?}");
        assert!(r.iter().all(|x| x.1 <= 6));
    }

    #[test]
    fn a_far_tile_is_walked_to_one_step_at_a_time() {
        let s = at("character hicks at K9\nalien 2 at O2\n");
        let h = character_of(&s, "char:hicks").unwrap();
        let t = |n: &str| s.content.base.tile(n).unwrap();
        let step = first_step(&s, h, t("K11")).expect("within reach");
        assert_eq!(step, t("K10"));
        assert_eq!(first_step(&s, h, t("A1")), None, "out of reach");
    }

    #[test]
    fn lines_of_fire_are_dashed_when_blocked() {
        let s = at("character hicks at K9 items rifle ammo\nalien 2 at M9\nalien 3 at O9\n");
        let h = character_of(&s, "char:hicks").unwrap();
        let lines: Vec<bool> = character_marks(&s, h)
            .into_iter()
            .filter_map(|m| match m {
                Mark::Line { dashed, .. } => Some(dashed),
                _ => None,
            })
            .collect();
        // M9 in the clear; O9 behind the alien on M9.
        assert_eq!(lines, vec![false, true]);
    }
}
