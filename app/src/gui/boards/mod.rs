//! One board UI per game, for what the scene alone cannot say: a unit's full
//! stats, which dice were hits, how a new battle of the game is configured.
//! The generic board works from the scene and the command anchors alone, so a
//! game without its own board UI is still fully playable.

use eframe::egui;
use serde_json::{Value, json};
use xenolog_engine::scene::Rgba;
use xenolog_engine::{Battle, EntryText, LegalCommand, Scene, Viewer};

use super::command::AppCommand;
use super::view::BattleView;

mod alien;
mod dimx;
mod invasion;
mod race;
pub mod saucers;

/// A mark a game's board draws over the scene for the selection, in scene
/// units: where a unit may move, its lines of sight.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// An area seen from a point inside it (a move range): every edge of
    /// `outline` is in view from `centre`.
    Area {
        centre: [f32; 2],
        outline: Vec<[f32; 2]>,
        fill: Rgba,
        stroke: Rgba,
        /// What it is, on hover.
        tip: String,
    },
    /// A line (a line of sight), dashed when it is blocked.
    Line {
        from: [f32; 2],
        to: [f32; 2],
        colour: Rgba,
        dashed: bool,
        /// What it means (what blocks it), on hover.
        tip: String,
    },
}

/// How one die counted: the engine's, as the game says it
/// ([`xenolog_engine::Game::dice_meanings`]), so the dice tray, reports and
/// the luck statistics agree.
pub use xenolog_engine::DieMark;

/// A click on the board, as [`BoardUi::click`] reads it.
#[derive(Clone, Copy, Debug)]
pub struct BoardClick<'a> {
    /// The scene id of the item selected before the click.
    pub selected: Option<&'a str>,
    /// The ids of the items under the pointer, topmost first.
    pub under: &'a [&'a str],
    /// The board point clicked.
    pub at: [f32; 2],
}

/// The battle as a local session of game `G`.
pub fn session_of<G: xenolog_engine::Game + 'static>(
    battle: &dyn Battle,
) -> Option<&xenolog_engine::Session<G>> {
    battle.as_any().downcast_ref::<xenolog_engine::Session<G>>()
}

/// The state of a battle of game `G` at its head: a local session's, or a
/// club battle's as its seat sees it.
pub fn state_of<G: xenolog_engine::Game + 'static>(battle: &dyn Battle) -> Option<&G::State> {
    session_of::<G>(battle).map(|s| s.state()).or_else(|| {
        battle
            .as_any()
            .downcast_ref::<xenolog_engine::seat::SeatBattle<G>>()
            .map(|s| s.state())
    })
}

/// The state at the cursor of a local battle of game `G`, as the view's
/// viewer may see it. The session keeps the cursor's state, so nothing is
/// replayed or cloned for [`Viewer::All`] (a frame drawn while reviewing
/// costs the same as at the head); a seat's view is made once per position
/// and kept in the view ([`BattleView::kept`]).
pub fn seen_at<'a, G: xenolog_engine::Game + 'static>(
    battle: &'a dyn Battle,
    view: &BattleView,
) -> Option<Seen<'a, G::State>>
where
    G::State: 'static,
{
    let s = session_of::<G>(battle)?.state();
    Some(match view.viewer {
        Viewer::All => Seen::Shared(s),
        Viewer::Seat(seat) => Seen::Kept(view.kept(|| G::view(s, seat))),
    })
}

/// A state as a viewer sees it: the battle's own, or a seat's view kept.
pub enum Seen<'a, S> {
    Shared(&'a S),
    Kept(std::rc::Rc<S>),
}

impl<S> std::ops::Deref for Seen<'_, S> {
    type Target = S;
    fn deref(&self) -> &S {
        match self {
            Seen::Shared(s) => s,
            Seen::Kept(s) => s,
        }
    }
}

/// The strings of a JSON array (a config's list of ids); none if it is not
/// one.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the battle is shown at its newest entry (commands are given
/// only there; reviewing, a click is the generic board's: its questions
/// about branches).
pub fn at_head(battle: &dyn Battle) -> bool {
    battle.cursor() == battle.head(battle.current_branch())
}

/// One step of an entry, and the scene items it is about (drawn marked on
/// the board while the step is shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub text: String,
    pub focus: Vec<String>,
}

/// A decision the rules put to a player that the board alone does not make
/// plain (a tie to break, a chit to choose), in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// Who decides and what, e.g. "Kay'otz player: choose where Kay'otz #5
    /// lands".
    pub ask: String,
    /// Why the question comes up, with the rule.
    pub why: String,
}

/// The game-specific parts of the app.
pub trait BoardUi {
    /// The decision pending at the cursor, when it needs explaining.
    fn prompt(&self, _battle: &dyn Battle) -> Option<Prompt> {
        None
    }

    /// Why the selected unit cannot be given a command aimed at `target` (a
    /// unit or a hex that is not lit up), in the words of the rule that
    /// refuses it, as the command line would say it.
    fn why_not(&self, _battle: &dyn Battle, _selected: &str, _target: &str) -> Option<String> {
        None
    }

    /// Why the selected unit can do nothing now (already acted, Paralyzed
    /// and unable to Rally here), when it has no command.
    fn why_idle(&self, _battle: &dyn Battle, _selected: &str) -> Option<String> {
        None
    }

    /// The group a unit's command is listed under in the side panel ("Move",
    /// "Fire", ...), in the order the groups are shown; `None`: the generic
    /// grouping (targets, hexes, the rest).
    fn action_group(&self, _cmd: &LegalCommand) -> Option<(u8, &'static str)> {
        None
    }

    /// Whether a command's target is marked apart on the board (a jump,
    /// as against a walk to the same kind of hex).
    fn marked_apart(&self, _cmd: &LegalCommand) -> bool {
        false
    }

    /// What each die of an entry's roll decides, in roll order, from its
    /// recorded events (empty: the game does not say).
    fn dice_purposes(&self, _events: &[u8]) -> Vec<String> {
        Vec::new()
    }

    /// What giving `cmd` now would throw away that the rules granted (an
    /// unused reinforcement), in words; the app asks before giving it.
    fn forfeits(&self, _battle: &dyn Battle, _cmd: &LegalCommand) -> Option<String> {
        None
    }

    /// A command's words on a choice button and its hover text, when
    /// they should differ from the command's own text (a chit by its name,
    /// with its steps on hover).
    fn choice_label(&self, _battle: &dyn Battle, _cmd: &LegalCommand) -> Option<(String, String)> {
        None
    }

    /// The name of a board target that takes several commands (`cmds`,
    /// two or more), when the first command's words and a count would
    /// mislead (a grenade's landing tile named after one of its areas).
    fn target_label(&self, _battle: &dyn Battle, _cmds: &[&LegalCommand]) -> Option<String> {
        None
    }

    /// A unit's commands of one action group chosen in two steps (a
    /// grenade's landing tile, then the three tiles it strikes): the first
    /// steps in order, each with the commands it leads to in the words and
    /// order the "Which command?" dialog shows them. `None`: a button per
    /// command.
    fn two_steps(&self, _battle: &dyn Battle, _group: &[&LegalCommand]) -> Option<Vec<FirstStep>> {
        None
    }

    /// The name of a scene id that is not drawn on the board now (a unit
    /// still in the cup, a unit in the air).
    fn name_of(&self, _battle: &dyn Battle, _id: &str) -> Option<String> {
        None
    }

    /// Details of a selected scene item beyond its tooltip.
    fn details_ui(&self, ui: &mut egui::Ui, battle: &dyn Battle, scene: &Scene, selected: &str) {
        generic_details_ui(ui, battle, scene, selected);
    }

    /// The steps of an entry to show one by one (an activation of the
    /// Kay'otz is several moves and attacks in one entry).
    fn steps(&self, _battle: &dyn Battle, entry: &EntryText) -> Vec<Step> {
        entry
            .events
            .iter()
            .map(|e| Step {
                text: e.clone(),
                focus: Vec::new(),
            })
            .collect()
    }

    /// The phase an entry is listed under: the phase it was given in
    /// (`during`), unless the entry holds a whole phase of its own (ending
    /// the Marine Action Phase runs the Kay'otz Activation Phase).
    fn phase_label(&self, _battle: &dyn Battle, _entry: &EntryText, during: &str) -> String {
        during.to_owned()
    }

    /// The line between the centres of two places (scene ids of hexes): what
    /// it crosses (scene ids, in order) and what that means for fire, in
    /// words. `None`: the game has no lines of sight, or these are not hexes.
    fn line_of_sight(
        &self,
        _battle: &dyn Battle,
        _from: &str,
        _to: &str,
    ) -> Option<(Vec<String>, Vec<String>)> {
        None
    }

    /// The board part-way through an entry: after its steps up to and with
    /// `step` (counted from 0), as [`BoardUi::steps`] lists them. `None`:
    /// the game cannot say (the board then shows the entry done).
    fn scene_at_step(
        &self,
        _battle: &dyn Battle,
        _entry: xenolog_engine::EntryId,
        _step: usize,
    ) -> Option<Scene> {
        None
    }

    /// The moves an entry made, each as the scene ids of the places it went
    /// through in order, drawn on the board as trails at the cursor.
    fn trails(&self, _battle: &dyn Battle, _entry: xenolog_engine::EntryId) -> Vec<Vec<String>> {
        Vec::new()
    }

    /// The game's legend and player aid (terrain, the chits, the combat
    /// modifiers), for Help > Legend and player aid.
    fn player_aid_ui(&self, ui: &mut egui::Ui, _battle: &dyn Battle) {
        ui.weak("This game has no player aid of its own.");
    }

    /// Marks drawn over the board for the selection (a move range, lines of
    /// sight); empty by default.
    fn marks(&self, _battle: &dyn Battle, _selected: Option<&str>) -> Vec<Mark> {
        Vec::new()
    }

    /// What a click on the board does, before the generic board decides (a
    /// move to any point of a table, a shot at a group). `None`: the generic
    /// board decides (highlighted targets, selecting).
    fn click(&self, _battle: &dyn Battle, _click: BoardClick) -> Option<AppCommand> {
        None
    }

    /// Whether dragging the selected item moves it: the drop is then a
    /// [`BoardUi::click`] at the drop point, not a pan of the board.
    fn drags(&self, _battle: &dyn Battle, _selected: &str) -> bool {
        false
    }

    /// The game's own part of the side panel (the cards of the round, the
    /// last shot, forms for what the board cannot show), below the selection.
    fn panel_ui(
        &self,
        _ui: &mut egui::Ui,
        _battle: &dyn Battle,
        _view: &BattleView,
        _selected: Option<&str>,
        _commands: &mut Vec<AppCommand>,
    ) {
    }

    /// [`BoardUi::panel_ui`] as `viewer` may see it: a game that hides
    /// something from a seat (a task card) shows that seat only its view
    /// behind the hot-seat curtain. By default the same for every viewer.
    fn panel_ui_as(
        &self,
        ui: &mut egui::Ui,
        battle: &dyn Battle,
        view: &BattleView,
        selected: Option<&str>,
        commands: &mut Vec<AppCommand>,
    ) {
        self.panel_ui(ui, battle, view, selected, commands);
    }

    /// Options of a new battle beyond the scenario and the game's declared
    /// options (the faction of each seat), drawn in New battle; `config` is
    /// the game's part of the form, kept between frames.
    fn new_battle_ui(&self, _ui: &mut egui::Ui, _scenario: &str, _config: &mut Value) {}

    /// The game's config for a new battle from this scenario, before the
    /// options the game declares (`Game::options`) are added to it; `extra`
    /// is what [`BoardUi::new_battle_ui`] kept. Empty by default: a game
    /// whose config names its scenario says how.
    fn new_battle_config_with(&self, scenario: &str, _extra: &Value) -> Value {
        self.new_battle_config(scenario)
    }

    /// Check and finish the whole config of a new battle, with the
    /// declared options in it (keep a faction per player): why it cannot
    /// start, in words. Nothing to do by default.
    fn check_config(&self, _config: &mut Value) -> Result<(), String> {
        Ok(())
    }

    /// The game's config for a new battle from this scenario, before the
    /// options the game declares (`Game::options`) are added to it. Empty by
    /// default: a game whose config names its scenario says how.
    fn new_battle_config(&self, _scenario: &str) -> Value {
        json!({})
    }
}

/// The first of two steps that choose a command ([`BoardUi::two_steps`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FirstStep {
    /// Its button's words ("Land on K9").
    pub words: String,
    /// What it does, on hover.
    pub hover: String,
    /// The commands it leads to, as the dialog lists them.
    pub options: Vec<super::command::Intent>,
}

/// Works from the scene alone.
pub struct GenericBoard;

impl BoardUi for GenericBoard {}

/// The board UI of a game.
/// A legend's line: a coloured square as the board draws it, then its
/// words (the player aids of the boards).
pub(crate) fn swatch(ui: &mut egui::Ui, fill: egui::Color32, words: &str) {
    ui.horizontal_top(|ui| {
        let (r, _) = ui.allocate_exact_size(egui::vec2(18.0, 14.0), egui::Sense::hover());
        ui.painter().rect_filled(r, 2.0, fill);
        ui.add(egui::Label::new(words).wrap());
    });
}

pub fn for_game(game: &str) -> Box<dyn BoardUi> {
    BOARDS.iter().find(|(id, _)| *id == game).map_or_else(
        || Box::new(GenericBoard) as Box<dyn BoardUi>,
        |(_, make)| make(),
    )
}

/// Makes a game's board UI.
type MakeBoard = fn() -> Box<dyn BoardUi>;

/// The games with a board UI of their own: one line each, as the engine's
/// registry (`xenolog_engine::games::REGISTRY`); every other game is played
/// on the generic board.
static BOARDS: &[(&str, MakeBoard)] = &[
    ("alien", || Box::new(alien::AlienBoard::default())),
    ("dimx", || Box::new(dimx::DimxBoard)),
    ("invasion", || Box::new(invasion::InvasionBoard::default())),
    ("race", || Box::new(race::RaceBoard)),
    ("saucers", || Box::new(saucers::SaucersBoard)),
];

/// The selected item's tooltip, line by line.
pub fn generic_details_ui(ui: &mut egui::Ui, _battle: &dyn Battle, scene: &Scene, selected: &str) {
    match scene.find(selected) {
        Some(item) => match &item.tooltip {
            Some(text) => {
                for line in text.lines() {
                    ui.label(line);
                }
            }
            None => {
                ui.label(selected);
            }
        },
        None => {
            ui.weak("Not on the board at this point of the battle.");
        }
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn every_board_is_of_a_game_the_engine_registers() {
        for (id, _) in BOARDS {
            assert!(
                xenolog_engine::games::entry(id).is_some_and(|e| e.rules.is_some()),
                "a board for '{id}', which the engine does not build"
            );
        }
    }
}
