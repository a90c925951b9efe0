//! The dialogs: new battle, entering real dice, starting a branch, choosing
//! between commands, notices and help. One dialog is open at a time; notices
//! stack on top of it.

use eframe::egui::{self, Id, Modal, Ui};
use xenolog_engine::OptionKind;
use xenolog_engine::games::GameInfo;

use super::boards;
use super::command::{AppCommand, Intent, NewBattleSpec, PlayRequest};
use super::position::PositionFile;
use super::side::sentence;
use super::store::DiceMode;
use super::widgets::icon_button;
use crate::random_seed;

/// A message for the player: what went wrong and that nothing changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub title: String,
    pub text: String,
    /// A way out the player may take, as a button: its label and command.
    pub action: Option<(String, AppCommand)>,
}

impl Notice {
    /// A notice with a title and its explanation.
    pub fn new(title: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            text: text.into(),
            action: None,
        }
    }

    /// Offer a way out as a button beside OK.
    pub fn with_action(mut self, label: &str, command: AppCommand) -> Self {
        self.action = Some((label.to_owned(), command));
        self
    }
}

/// The open dialog.
#[derive(Debug)]
pub enum Dialog {
    NewBattle(NewBattleForm),
    EnterDice(DiceForm),
    /// Giving this command here starts a new branch; `why` says where.
    ConfirmBranch {
        request: PlayRequest,
        why: String,
    },
    /// Giving this command gives up what the rules granted (`what`).
    ConfirmForfeit {
        request: PlayRequest,
        what: String,
    },
    Choose(Vec<Intent>),
    Shortcuts,
    About,
    /// Help > Getting started: the page for a new user.
    GettingStarted,
}

/// The New battle form.
#[derive(Clone, Debug)]
pub struct NewBattleForm {
    pub game: String,
    pub scenario: String,
    pub seed_text: String,
    pub dice_mode: DiceMode,
    /// The values of the options the game declares, by config key.
    pub options: std::collections::BTreeMap<String, serde_json::Value>,
    pub strict: bool,
    pub title: String,
    pub error: Option<String>,
    /// The game's own part of the form (see `BoardUi::new_battle_ui`).
    pub extra: serde_json::Value,
    /// The position or scenario file the battle starts from, in place of
    /// a scenario (File > New battle from a position file).
    pub position: Option<PositionFile>,
}

/// The games New battle offers: the four games (those not built yet say so),
/// and the test game when asked for or when nothing else is playable.
pub fn offered_games(show_test: bool) -> Vec<GameInfo> {
    let all = xenolog_engine::games::games();
    let playable = all.iter().any(|g| g.available && !g.test_only);
    all.into_iter()
        .filter(|g| !g.test_only || show_test || !playable)
        .collect()
}

impl NewBattleForm {
    /// The form for the first playable game, with a random seed.
    pub fn new(show_test: bool) -> Self {
        let games = offered_games(show_test);
        let game = games
            .iter()
            .find(|g| g.available)
            .map_or_else(String::new, |g| g.id.to_owned());
        let mut form = Self {
            game: String::new(),
            scenario: String::new(),
            seed_text: random_seed().to_string(),
            dice_mode: DiceMode::Rolled,
            options: Default::default(),
            strict: false,
            title: String::new(),
            error: None,
            extra: serde_json::Value::Null,
            position: None,
        };
        form.pick_game(&games, &game);
        form
    }

    /// The form for a battle from a position file, on the first game that
    /// reads it.
    pub fn from_position(show_test: bool, position: PositionFile) -> Self {
        let mut form = Self::new(show_test);
        let games = offered_games(show_test);
        let first = position.games.first().map_or("", |r| r.game);
        form.position = Some(position);
        form.pick_game(&games, first);
        form
    }

    /// The form as the player last started a battle with it: the same
    /// game, scenario, dice, options and the game's own choices (a new
    /// random seed and the title of that scenario). A game no longer offered
    /// gives the plain form.
    pub fn remembered(show_test: bool, last: Option<&super::prefs::NewBattleChoices>) -> Self {
        let mut form = Self::new(show_test);
        let Some(last) = last else { return form };
        let games = offered_games(show_test);
        let Some(game) = games.iter().find(|g| g.id == last.game && g.available) else {
            return form;
        };
        form.pick_game(&games, game.id);
        if game.scenarios.iter().any(|s| s.id == last.scenario) {
            form.scenario = last.scenario.clone();
            form.title = default_title(game, &form.scenario);
        }
        form.dice_mode = if last.entered_dice {
            DiceMode::Entered
        } else {
            DiceMode::Rolled
        };
        form.strict = last.strict;
        if let Ok(serde_json::Value::Object(options)) =
            serde_json::from_str::<serde_json::Value>(&last.options_json)
        {
            for (k, v) in options {
                // Only the options the game still declares.
                if let Some(slot) = form.options.get_mut(&k) {
                    *slot = v;
                }
            }
        }
        if let Ok(extra) = serde_json::from_str(&last.extra_json) {
            form.extra = extra;
        }
        form
    }

    /// The choices to remember once a battle is started from the form.
    pub fn choices(&self) -> super::prefs::NewBattleChoices {
        super::prefs::NewBattleChoices {
            game: self.game.clone(),
            scenario: self.scenario.clone(),
            entered_dice: self.dice_mode == DiceMode::Entered,
            strict: self.strict,
            options_json: serde_json::to_string(&self.options).unwrap_or_default(),
            extra_json: serde_json::to_string(&self.extra).unwrap_or_default(),
        }
    }

    /// Choose the game (its first scenario, its options' defaults).
    pub fn pick_game(&mut self, games: &[GameInfo], id: &str) {
        self.game = id.to_owned();
        self.extra = serde_json::Value::Null;
        if let Some(g) = games.iter().find(|g| g.id == id) {
            self.scenario = g
                .scenarios
                .first()
                .map(|s| s.id.clone())
                .unwrap_or_default();
            self.title = match &self.position {
                Some(p) => format!("{}: {}", g.name.trim_end_matches('!'), p.name),
                None => default_title(g, &self.scenario),
            };
            self.options = g
                .options
                .iter()
                .map(|o| {
                    let value = match o.kind {
                        OptionKind::Flag { default } => serde_json::json!(default),
                        OptionKind::Number { default, .. } | OptionKind::Choice { default, .. } => {
                            serde_json::json!(default)
                        }
                    };
                    (o.key.to_owned(), value)
                })
                .collect();
            // The option the position file needs (more seats than the
            // default), as it was read.
            if let Some(r) = self.position.as_ref().and_then(|p| p.reader(id)) {
                self.options.extend(r.options.clone());
            }
        }
    }

    /// The battle to start, or why the form is not ready.
    pub fn spec(&self, games: &[GameInfo]) -> Result<NewBattleSpec, String> {
        let game = games
            .iter()
            .find(|g| g.id == self.game)
            .ok_or("choose a game")?;
        if !game.available {
            return Err(format!("{} is not built yet: it is coming", game.name));
        }
        let seed: u64 = self.seed_text.trim().parse().map_err(|_| {
            format!(
                "the seed must be a whole number from 0 to {}, not '{}'",
                u64::MAX,
                self.seed_text.trim()
            )
        })?;
        let title = self.title.trim();
        if title.is_empty() {
            return Err("give the battle a title".into());
        }
        if let Some(p) = &self.position
            && !p.is_read_by(game.id)
        {
            return Err(format!("{} does not start from {}", game.name, p.name));
        }
        let board = boards::for_game(game.id);
        let mut config = board.new_battle_config_with(&self.scenario, &self.extra);
        if let Some(map) = config.as_object_mut() {
            map.extend(self.options.clone());
            if let Some(p) = &self.position {
                map.insert("scenario_text".into(), p.text.clone().into());
            }
        }
        board.check_config(&mut config)?;
        Ok(NewBattleSpec {
            game: game.id.to_owned(),
            scenario: self.scenario.clone(),
            seed,
            config,
            title: title.to_owned(),
            dice_mode: self.dice_mode,
            strict: self.strict && self.dice_mode == DiceMode::Rolled,
        })
    }
}

fn default_title(game: &GameInfo, scenario: &str) -> String {
    let short = game.name.trim_end_matches('!');
    match game.scenarios.iter().find(|s| s.id == scenario) {
        Some(s) => format!("{short}: {}", s.name),
        None => short.to_owned(),
    }
}

/// Typing in real dice for one command.
#[derive(Clone, Debug)]
pub struct DiceForm {
    pub request: PlayRequest,
    /// Sides of each die the command rolls, in order.
    pub sides: Vec<u8>,
    /// What each die decides, in order, as far as the game says.
    pub purposes: Vec<String>,
    pub text: String,
    pub error: Option<String>,
}

/// Read typed dice: numbers separated by spaces or commas, one per die.
pub fn parse_dice(text: &str, sides: &[u8]) -> Result<Vec<u8>, String> {
    let mut dice = Vec::new();
    for word in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
    {
        let v: u8 = word
            .parse()
            .map_err(|_| format!("'{word}' is not a die: type the number each die shows"))?;
        let s = sides.get(dice.len()).copied().unwrap_or(6);
        if v == 0 || v > s {
            return Err(format!(
                "die {} shows {v}, but a {s}-sided die shows 1 to {s}",
                dice.len() + 1
            ));
        }
        dice.push(v);
    }
    // The count is the rules' to judge: a roll can decide how many follow.
    if dice.is_empty() {
        return Err("type the number each die shows, e.g. 3 5 6".into());
    }
    Ok(dice)
}

/// Runs of dice that decide the same thing: (first, last, what), counted
/// from 1. The dice of one roll carry its name ("shooting dice"); the three
/// dice of Dimension X's random hex, each its digit ("a random hex: its
/// tens digit (A.3)"), read as one run.
fn runs(purposes: &[String]) -> Vec<(usize, usize, String)> {
    let mut out: Vec<(usize, usize, String)> = Vec::new();
    for (i, p) in purposes.iter().enumerate() {
        let what = p
            .split_once(": its ")
            .map_or(p.as_str(), |(head, _)| head)
            .to_owned();
        match out.last_mut() {
            Some(last) if last.2 == what && last.1 == i => last.1 = i + 1,
            _ => out.push((i + 1, i + 1, what)),
        }
    }
    out
}

fn dice_words(sides: &[u8]) -> String {
    let n = sides.len();
    if sides.iter().all(|&s| s == 6) {
        format!("{n} six-sided {}", if n == 1 { "die" } else { "dice" })
    } else {
        let each: Vec<String> = sides.iter().map(|s| format!("d{s}")).collect();
        format!("{n} dice ({})", each.join(", "))
    }
}

pub(super) fn labelled_edit(
    ui: &mut Ui,
    label: &str,
    text: &mut String,
    hint: &str,
    width: f32,
) -> egui::Response {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(
            egui::TextEdit::singleline(text)
                .hint_text(hint)
                .desired_width(width),
        )
        .labelled_by(l.id)
    })
    .inner
}

/// Show the open dialog; closing it sets `dialog` to `None`.
pub fn dialog_ui(
    ctx: &egui::Context,
    dialog: &mut Option<Dialog>,
    show_test_games: bool,
    commands: &mut Vec<AppCommand>,
) {
    let Some(d) = dialog else { return };
    let mut close = false;
    let id = Id::unique("xenolog-dialog");
    let mut modal = Modal::new(id);
    if matches!(d, Dialog::NewBattle(_)) {
        // Pinned by its top at a fixed width: as the form grows (another
        // game's options) it grows downwards, and what is under the pointer
        // stays put (centred, it moved, and a click landed on another
        // option).
        modal = modal
            .area(Modal::default_area(id).anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 36.0)));
    }
    let modal = modal.show(ctx, |ui| {
        if matches!(d, Dialog::NewBattle(_)) {
            ui.set_width(NEW_BATTLE_WIDTH);
        }
        ui.set_max_width(520.0);
        match d {
            Dialog::NewBattle(form) => close = new_battle_ui(ui, form, show_test_games, commands),
            Dialog::EnterDice(form) => close = dice_ui(ui, form, commands),
            Dialog::ConfirmBranch { request, why } => {
                ui.heading("Start a new branch?");
                ui.label(why.as_str());
                ui.label(format!("Command: {}", request.intent.text));
                ui.horizontal(|ui| {
                    if ui.button("Start new branch").clicked() {
                        let mut r = request.clone();
                        r.branch_ok = true;
                        commands.push(AppCommand::Give(r));
                        close = true;
                    }
                    if ui.button("Cancel").clicked() {
                        close = true;
                    }
                });
            }
            Dialog::ConfirmForfeit { request, what } => {
                ui.heading("Give this up?");
                ui.label(format!("{}: {what}.", sentence(&request.intent.text)));
                ui.horizontal(|ui| {
                    if ui.button("Give it up").clicked() {
                        let mut r = request.clone();
                        r.forfeit_ok = true;
                        commands.push(AppCommand::Give(r));
                        close = true;
                    }
                    if ui.button("Keep it").clicked() {
                        close = true;
                    }
                });
            }
            Dialog::Choose(options) => {
                ui.heading("Which command?");
                // Many options (a grenade's areas) scroll, at their full
                // height from the first frame (grown from the last frame's
                // size, the dialog grew a row a frame and moved under the
                // pointer).
                let most = ui.ctx().content_rect().height() * 0.7;
                let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
                egui::ScrollArea::vertical()
                    .max_height(most)
                    .min_scrolled_height(most.min(row * options.len() as f32))
                    .id_salt("which-command")
                    .show(ui, |ui| {
                        for o in options.iter() {
                            let button = match &o.label {
                                Some(words) => ui.button(words).on_hover_text(&o.text),
                                None => ui.button(&o.text),
                            };
                            if button.clicked() {
                                commands.push(AppCommand::Give(PlayRequest::new(o.clone())));
                                close = true;
                            }
                        }
                    });
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            }
            Dialog::Shortcuts => {
                ui.heading("Keyboard shortcuts");
                egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                    for (k, what) in SHORTCUTS {
                        ui.monospace(*k);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
                close = ui.button("Close").clicked();
            }
            Dialog::GettingStarted => {
                // At its full height from the first frame (grown from the
                // last frame's size, the dialog grew a row a frame and its
                // Close button moved under the pointer).
                let most = ui.ctx().content_rect().height() * 0.7;
                egui::ScrollArea::vertical()
                    .max_height(most)
                    .min_scrolled_height(most)
                    .id_salt("getting-started")
                    .show(ui, super::getting_started::page_ui);
                close = ui.button("Close").clicked();
            }
            Dialog::About => {
                ui.heading("Xenolog");
                ui.label(format!("Version {}", env!("CARGO_PKG_VERSION")));
                ui.label(
                    "A campaign manager for alien-invasion tabletop games. Every roll, draw and \
                     move is kept in a log that replays exactly from its seed; undo never loses \
                     anything and a new command from an earlier point starts a new branch.",
                );
                close = ui.button("Close").clicked();
            }
        }
    });
    if close || modal.should_close() {
        *dialog = None;
    }
}

/// The New battle dialog's fixed width.
const NEW_BATTLE_WIDTH: f32 = 520.0;

/// The keyboard shortcuts, as Help lists them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Ctrl+Z", "Undo (move back one entry)"),
    ("Ctrl+Shift+Z, Ctrl+Y", "Redo (move forward on this branch)"),
    ("Left / Right", "Step back / forward"),
    ("Home / End", "Jump to the start / the end"),
    ("Page Up / Page Down", "Previous / next turn"),
    ("Space", "Play back / pause"),
    ("Ctrl+N", "New battle"),
    ("Ctrl+O", "Open campaign"),
    (
        "+ / - / 0",
        "Zoom the board in / out / back to the opening view",
    ),
    ("Ctrl+B", "Show or hide the campaign panel (left)"),
    ("Ctrl+Shift+B", "Show or hide the side panel (right)"),
    (
        "Ctrl+Plus / Ctrl+Minus",
        "Make all text and controls larger / smaller",
    ),
    (
        "N",
        "Select the next unit that can act (the board shows it)",
    ),
    (
        "E",
        "End the phase, card or turn (when one command ends it)",
    ),
    ("C", "Centre the board on the selected unit"),
    ("Escape", "Clear the selection, close a dialog"),
];

fn new_battle_ui(
    ui: &mut Ui,
    form: &mut NewBattleForm,
    show_test: bool,
    commands: &mut Vec<AppCommand>,
) -> bool {
    let games = offered_games(show_test);
    ui.heading(if form.position.is_some() {
        "New battle from a position file"
    } else {
        "New battle"
    });
    // The form scrolls between its heading and its buttons, so that Start
    // battle stays on the screen however many options a game has.
    let room = (ui.ctx().content_rect().height() - 140.0).max(160.0);
    egui::ScrollArea::vertical()
        .max_height(room)
        .min_scrolled_height(room)
        .auto_shrink([false, true])
        .show(ui, |ui| new_battle_form_ui(ui, form, &games));
    if games.iter().all(|g| g.id != form.game) {
        return ui.button("Cancel").clicked();
    }
    if let Some(e) = &form.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    let mut close = false;
    ui.horizontal(|ui| {
        if ui.button("Start battle").clicked() {
            match form.spec(&games) {
                Ok(spec) => {
                    // A file's battle is not the one New battle offers next.
                    if form.position.is_none() {
                        commands.push(AppCommand::RememberNewBattle(form.choices()));
                    }
                    commands.push(AppCommand::NewBattle(spec));
                    close = true;
                }
                Err(e) => form.error = Some(e),
            }
        }
        if ui.button("Cancel").clicked() {
            close = true;
        }
    });
    close
}

/// The New battle form between its heading and its buttons.
fn new_battle_form_ui(ui: &mut Ui, form: &mut NewBattleForm, games: &[GameInfo]) {
    ui.label("Game:");
    for g in games {
        // From a position file: only the games that read it.
        let reads = form.position.as_ref().is_none_or(|p| p.is_read_by(g.id));
        let text = if g.available {
            format!("{} ({} players)", g.name, g.seats.range())
        } else {
            format!("{} (coming)", g.name)
        };
        let why_not = match &form.position {
            Some(p) if g.available && !reads => {
                format!(
                    "{} is not a position or scenario file of {}.",
                    p.name, g.name
                )
            }
            _ => format!(
                "{} is not built yet: Xenolog will play it in a later version.",
                g.name
            ),
        };
        let r = ui
            .add_enabled(
                g.available && reads,
                egui::RadioButton::new(form.game == g.id, text),
            )
            .on_disabled_hover_text(why_not);
        if r.clicked() && form.game != g.id {
            form.pick_game(games, g.id);
        }
    }
    if let Some(g) = games.iter().find(|g| g.id == form.game && g.available) {
        ui.weak(format!("{}: {}.", g.name, g.seats.words()));
    }
    if games.iter().any(|g| !g.available) {
        ui.weak(
            "Games marked (coming) are planned but not built yet: they cannot be played in \
             this version.",
        );
    }
    let Some(game) = games.iter().find(|g| g.id == form.game).cloned() else {
        ui.label("No game can be played yet.");
        return;
    };
    ui.separator();
    if let Some(p) = &form.position {
        ui.horizontal(|ui| {
            ui.label("Starts from:");
            ui.strong(&p.name);
        });
        ui.weak(format!(
            "The battle begins where this file sets it out; what the file does not name \
             is as {} sets it up.",
            game.name
        ));
    } else if game.scenarios.is_empty() {
        // A game without scenarios to choose from (Night of the Saucers:
        // one campus, set up by its rules) says so, not an empty box.
        ui.horizontal(|ui| {
            ui.label("Scenario:");
            ui.label(format!("the set-up in the rules of {}", game.name));
        });
    }
    if !game.scenarios.is_empty() && form.position.is_none() {
        ui.horizontal(|ui| {
            let l = ui.label("Scenario:");
            let current = game
                .scenarios
                .iter()
                .find(|s| s.id == form.scenario)
                .map_or_else(|| form.scenario.clone(), |s| s.name.clone());
            let before = form.scenario.clone();
            egui::ComboBox::from_id_salt("scenario")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for s in &game.scenarios {
                        ui.selectable_value(&mut form.scenario, s.id.clone(), &s.name);
                    }
                })
                .response
                .labelled_by(l.id);
            if before != form.scenario {
                form.title = default_title(&game, &form.scenario);
            }
        });
    }
    if let Some(s) = game.scenarios.iter().find(|s| s.id == form.scenario)
        && form.position.is_none()
    {
        ui.weak(&s.description);
    }
    boards::for_game(game.id).new_battle_ui(ui, &form.scenario, &mut form.extra);
    ui.horizontal(|ui| {
        labelled_edit(ui, "Seed:", &mut form.seed_text, "a whole number", 200.0);
        if ui.button("New random seed").clicked() {
            form.seed_text = random_seed().to_string();
        }
    });
    ui.weak("The seed decides every roll Xenolog makes: the same seed and commands replay the same battle.");
    ui.label("Dice:");
    ui.radio_value(
        &mut form.dice_mode,
        DiceMode::Rolled,
        "Xenolog rolls the dice",
    );
    ui.radio_value(
        &mut form.dice_mode,
        DiceMode::Entered,
        "We roll real dice and type them in",
    );
    if form.dice_mode == DiceMode::Rolled {
        ui.label("Taking back:");
        ui.checkbox(
            &mut form.strict,
            "Strict: no taking back a command once its dice are seen",
        );
        ui.weak(if form.strict {
            "Commands that rolled nothing can still be taken back, and any moment reviewed."
        } else {
            "Casual: anything can be taken back; the log counts take-backs past a roll."
        });
    }
    options_ui(ui, &game, &mut form.options);
    labelled_edit(
        ui,
        "Title:",
        &mut form.title,
        "a name for this battle",
        420.0,
    );
}

fn dice_ui(ui: &mut Ui, form: &mut DiceForm, commands: &mut Vec<AppCommand>) -> bool {
    ui.heading("Enter your dice");
    ui.label(form.request.intent.text.as_str());
    ui.label(format!(
        "This command rolls {}, as far as can be told before the dice show (a roll can \
         decide how many follow). Roll them and type what each shows, in order.",
        dice_words(&form.sides)
    ));
    // Every roll says what it decides.
    for (from, to, what) in runs(&form.purposes) {
        let dice = if from == to {
            format!("Die {from}")
        } else {
            format!("Dice {from} to {to}")
        };
        ui.label(format!("{dice}: {what}"));
    }
    let max = form.sides.iter().copied().max().unwrap_or(6).min(12);
    let typed = form.text.clone();
    ui.horizontal_wrapped(|ui| {
        for v in 1..=max {
            if icon_button(ui, &v.to_string(), &format!("Add a die showing {v}"), true).clicked() {
                if !form.text.trim().is_empty() {
                    form.text.push(' ');
                }
                form.text.push_str(&v.to_string());
            }
        }
        if ui.button("Clear dice").clicked() {
            form.text.clear();
        }
    });
    let edit = labelled_edit(ui, "Dice rolled:", &mut form.text, "e.g. 3 5 6", 220.0);
    let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    // An error is about the dice it was given: new dice, no old error.
    if form.text != typed {
        form.error = None;
    }
    if let Some(e) = &form.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    let mut close = false;
    ui.horizontal(|ui| {
        if ui.button("Play with these dice").clicked() || enter {
            match parse_dice(&form.text, &form.sides) {
                Ok(dice) => {
                    let mut r = form.request.clone();
                    r.dice = Some(dice);
                    commands.push(AppCommand::Give(r));
                    close = true;
                }
                Err(e) => form.error = Some(e),
            }
        }
        if ui.button("Cancel").clicked() {
            close = true;
        }
    });
    close
}

/// The first notice not yet dismissed: notices are shown in the order things
/// happened, so the first complaint (about the file the player asked for) is
/// read first.
pub fn notice_ui(ctx: &egui::Context, notices: &[Notice], commands: &mut Vec<AppCommand>) {
    let Some(n) = notices.first() else { return };
    let modal = Modal::new(Id::unique("xenolog-notice")).show(ctx, |ui| {
        ui.set_max_width(480.0);
        ui.heading(&n.title);
        ui.label(&n.text);
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            let mut close = ui.button("OK").clicked();
            if let Some((label, command)) = &n.action
                && ui.button(label).clicked()
            {
                commands.push(command.clone());
                close = true;
            }
            close
        })
        .inner
    });
    if modal.inner || modal.should_close() {
        // The notice goes before its action runs, so a new notice stays.
        commands.insert(0, AppCommand::DismissNotice);
    }
}

/// The options the game declares, each under its heading (its own heading:
/// under "Dice:" an option read as another way to roll).
fn options_ui(
    ui: &mut egui::Ui,
    game: &GameInfo,
    values: &mut std::collections::BTreeMap<String, serde_json::Value>,
) {
    let mut heading = "";
    for o in &game.options {
        if o.group != heading {
            heading = o.group;
            ui.label(format!("{heading}:"));
        }
        let value = values
            .entry(o.key.to_owned())
            .or_insert(serde_json::Value::Null);
        match o.kind {
            OptionKind::Flag { default } => {
                let mut on = value.as_bool().unwrap_or(default);
                ui.checkbox(&mut on, o.label);
                *value = serde_json::json!(on);
            }
            OptionKind::Number { min, max, default } => {
                let mut n = value.as_i64().unwrap_or(default);
                ui.horizontal(|ui| {
                    let l = ui.label(format!("{}:", o.label));
                    ui.add(egui::DragValue::new(&mut n).range(min..=max))
                        .labelled_by(l.id);
                });
                *value = serde_json::json!(n);
            }
            OptionKind::Choice { choices, default } => {
                let mut n = value.as_i64().unwrap_or(default);
                ui.horizontal(|ui| {
                    let l = ui.label(format!("{}:", o.label));
                    let shown = choices
                        .iter()
                        .find(|c| c.0 == n)
                        .map_or_else(|| n.to_string(), |c| c.1.to_owned());
                    egui::ComboBox::from_id_salt(("option", o.key))
                        .selected_text(shown)
                        .show_ui(ui, |ui| {
                            for &(v, name) in choices {
                                ui.selectable_value(&mut n, v, name);
                            }
                        })
                        .response
                        .labelled_by(l.id);
                });
                *value = serde_json::json!(n);
            }
        }
        ui.weak(o.help);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_deciding_one_thing_read_as_one_run() {
        let p = |s: &str| s.to_owned();
        let purposes = vec![
            p("whether MS1 hits K1 (D.4)"),
            p("whether MS1 hits K1 (D.4)"),
            p("a random hex: its hundreds digit (A.3)"),
            p("a random hex: its tens digit (A.3)"),
            p("a random hex: its units digit (A.3)"),
            p("whether MS1 hits K1 (D.4)"),
        ];
        assert_eq!(
            runs(&purposes),
            vec![
                (1, 2, p("whether MS1 hits K1 (D.4)")),
                (3, 5, p("a random hex")),
                (6, 6, p("whether MS1 hits K1 (D.4)")),
            ]
        );
    }

    #[test]
    fn typed_dice_must_fit_the_command() {
        assert_eq!(parse_dice("3 5, 6", &[6, 6, 6]), Ok(vec![3, 5, 6]));
        // Too few or too many is for the rules to say.
        assert_eq!(parse_dice("3 5", &[6, 6, 6]), Ok(vec![3, 5]));
        assert!(
            parse_dice("  ", &[6])
                .unwrap_err()
                .contains("type the number")
        );
        assert!(
            parse_dice("3 7 1", &[6, 6, 6])
                .unwrap_err()
                .contains("shows 1 to 6")
        );
        assert!(parse_dice("three", &[6]).unwrap_err().contains("not a die"));
        assert_eq!(parse_dice("10", &[10]), Ok(vec![10]));
    }

    #[test]
    fn the_form_refuses_a_bad_seed_and_a_game_not_built() {
        let games = offered_games(true);
        let mut form = NewBattleForm::new(true);
        form.game = "race".into();
        form.seed_text = "12x".into();
        assert!(form.spec(&games).unwrap_err().contains("whole number"));
        form.seed_text = " 42 ".into();
        let spec = form.spec(&games).unwrap();
        assert_eq!(spec.seed, 42);
        if let Some(coming) = games.iter().find(|g| !g.available) {
            form.game = coming.id.into();
            assert!(form.spec(&games).unwrap_err().contains("coming"));
        }
    }

    #[test]
    fn the_four_games_are_offered_and_the_test_game_only_when_needed() {
        let names: Vec<&str> = offered_games(false).iter().map(|g| g.id).collect();
        for id in ["dimx", "saucers", "alien", "invasion"] {
            assert!(names.contains(&id), "{id} missing from {names:?}");
        }
        let playable = xenolog_engine::games::games()
            .iter()
            .any(|g| g.available && !g.test_only);
        assert_eq!(names.contains(&"race"), !playable);
        assert!(offered_games(true).iter().any(|g| g.id == "race"));
    }
}
