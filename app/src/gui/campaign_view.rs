//! The Campaign view: rosters, each model's row, a model's sheet with its
//! history, the Buy skill dialog, add/rename/retire, what a recomputation
//! changed, and File > Export roster sheets (the sheet itself is a report:
//! `xenolog_report::roster_sheet_html`).

use eframe::egui::{self, RichText, Ui};
use serde_json::json;
use xenolog_engine::campaign::skills::Skill;
use xenolog_engine::campaign::{
    CampaignEvent, CampaignState, ModelId, ModelSheet, RosterId, Status, why_not_buy,
};
use xenolog_saves::{BattleNames, Campaign, SeatPick, faction_name, kind_name, skill_table};

use super::command::AppCommand;

/// What the Campaign view shows and is being typed into.
#[derive(Default)]
pub struct CampaignViewState {
    /// The view is shown in place of the board.
    pub shown: bool,
    /// The campaign as last recomputed (`None`: recompute before drawing),
    /// shared so a frame draws it without copying it.
    pub state: Option<std::rc::Rc<CampaignState>>,
    /// What the last recomputation changed, in words, until dismissed.
    pub changes: Vec<String>,
    /// The model whose sheet is shown.
    pub sheet: Option<ModelId>,
    /// The model the Buy skill dialog is open for.
    pub buying: Option<ModelId>,
    /// The Recruit form.
    pub new_name: String,
    pub new_roster: Option<RosterId>,
    pub new_kind: String,
    /// The Raise a roster form: its name and faction.
    pub roster_name: String,
    pub roster_faction: String,
    /// The sheet's rename field.
    pub rename: String,
    /// The models picked to fight the next battle.
    pub picked: Vec<ModelId>,
    pub scenario: String,
    /// The next battle's seed as typed (empty: a random one).
    pub seed: String,
    /// The last thing done or refused, in words.
    pub message: String,
    /// The campaign's battles by their names (the campaign's own words
    /// come named from the file; links and new entries use these).
    pub names: BattleNames,
    /// What merges set aside, in words (`campaign log`'s), read with the
    /// campaign.
    pub set_aside: Vec<String>,
    /// The "Campaign log" fold-out's lines, newest first, read from the
    /// file when it is first drawn open after a recomputation (it read the
    /// database every frame while open); `None`: read it when drawn.
    pub log: Option<Vec<String>>,
    /// How many times the fold-out read the log (for tests).
    pub log_reads: u64,
}

impl CampaignViewState {
    /// Recompute before the next frame (a battle changed, the view opened).
    pub fn invalidate(&mut self) {
        self.state = None;
    }

    /// Another battle is open: the sheet, the dialog and the messages about
    /// the last one go (the view itself, the Recruit and Fight choices
    /// stay).
    pub fn battle_changed(&mut self) {
        self.state = None;
        self.changes.clear();
        self.sheet = None;
        self.buying = None;
        self.rename.clear();
        self.picked.clear();
        self.message.clear();
    }
}

/// Something the view asks for; applied after drawing.
#[derive(Clone, Debug, PartialEq)]
pub enum CampaignAction {
    Record(CampaignEvent),
    Recruit {
        roster: RosterId,
        name: String,
        kind: String,
    },
    /// Raise a roster of this faction.
    Raise {
        name: String,
        faction: String,
    },
    Fight {
        scenario: String,
        picks: Vec<(RosterId, Vec<ModelId>)>,
        /// The battle's seed as typed (empty: a random one).
        seed: String,
    },
    ExportSheets,
    /// The campaign report (every battle, the rosters, the luck) as HTML
    /// beside the campaign file.
    ExportReport,
    Undo,
    Redo,
}

/// Recompute when needed: the state, and what changed since last read.
pub fn refresh(st: &mut CampaignViewState, c: &Campaign) {
    if st.state.is_some() {
        return;
    }
    st.log = None;
    match c.battle_names() {
        Ok(names) => st.names = names,
        Err(e) => st.message = format!("The campaign could not be read: {e}"),
    }
    match c.campaign_recompute() {
        Ok(r) => {
            if !r.changes.is_empty() {
                st.changes = r.changes;
            }
            match c.campaign_conflicts() {
                Ok(xs) => {
                    st.set_aside = xs.iter().map(|x| x.words(&r.state, &st.names)).collect();
                }
                Err(e) => {
                    st.set_aside.clear();
                    st.message = format!("The campaign could not be read: {e}");
                }
            }
            st.state = Some(std::rc::Rc::new(r.state));
        }
        Err(e) => st.message = format!("The campaign could not be read: {e}"),
    }
}

/// The factions of a scenario's seats.
fn seat_factions(scenario: &str) -> Vec<String> {
    let cfg: xenolog_engine::games::invasion::InvasionConfig =
        serde_json::from_value(json!({ "scenario": scenario })).unwrap_or_default();
    xenolog_engine::games::invasion::scenario_of(&cfg)
        .and_then(|s| xenolog_engine::games::invasion::factions_of(&cfg, &s))
        .map(|fs| fs.into_iter().map(|f| f.id).collect())
        .unwrap_or_default()
}

/// Apply an action; a refusal is said in words and changes nothing.
pub fn apply(
    st: &mut CampaignViewState,
    c: &mut Campaign,
    action: CampaignAction,
    commands: &mut Vec<AppCommand>,
) {
    // An action from the menu may come before the view was ever drawn
    // (File > Export roster sheets said "the campaign is not read yet").
    refresh(st, c);
    let before = st.state.clone();
    let result: Result<String, String> = match action {
        CampaignAction::Record(event) => {
            let words = before.as_ref().map_or_else(String::new, |s| {
                xenolog_saves::describe(&event, s, &st.names)
            });
            c.record(event).map(|_| words).map_err(|e| e.to_string())
        }
        CampaignAction::Recruit { roster, name, kind } => c
            .add_model(roster, &name, &kind)
            .map(|_| {
                st.new_name.clear();
                format!("{} recruited with no experience", name.trim())
            })
            .map_err(|e| e.to_string()),
        CampaignAction::Raise { name, faction } => match name.trim() {
            "" => Err("give the roster a name first".into()),
            name => c
                .add_roster(name, &faction)
                .map(|_| {
                    st.roster_name.clear();
                    format!(
                        "Raised {name} ({}): recruit its models below",
                        faction_name(&faction)
                    )
                })
                .map_err(|e| e.to_string()),
        },
        CampaignAction::Undo => c
            .campaign_undo()
            .map(|(_, e)| format!("Took back campaign entry {e}"))
            .map_err(|e| e.to_string()),
        CampaignAction::Redo => c
            .campaign_redo()
            .map(|(_, e)| format!("Put back campaign entry {e}"))
            .map_err(|e| e.to_string()),
        CampaignAction::ExportSheets => export_sheets(c, before.as_deref()),
        CampaignAction::ExportReport => export_report(c),
        CampaignAction::Fight {
            scenario,
            picks,
            seed,
        } => 'fight: {
            let seed = match seed.trim() {
                "" => crate::random_seed(),
                s => match s.parse::<u64>() {
                    Ok(n) => n,
                    Err(_) => {
                        break 'fight Err(format!(
                            "the seed must be a whole number from 0 to {}, not \"{s}\"",
                            u64::MAX
                        ));
                    }
                },
            };
            let seats = seat_factions(&scenario);
            let state = before.as_deref().cloned().unwrap_or_default();
            let mut seat_picks = Vec::new();
            for (roster, models) in picks {
                let faction = state
                    .roster(roster)
                    .map(|r| r.faction.clone())
                    .unwrap_or_default();
                let seat = seats
                    .iter()
                    .position(|f| *f == faction)
                    .unwrap_or(usize::MAX);
                seat_picks.push(SeatPick {
                    seat: u8::try_from(seat).unwrap_or(u8::MAX),
                    roster,
                    models,
                });
            }
            let title = format!("Campaign battle {}", state.battles.len() + 1);
            match c.new_roster_battle(
                seed,
                &json!({ "scenario": scenario }),
                &seat_picks,
                &title,
                xenolog_saves::DiceMode::Rolled,
                false,
            ) {
                Ok(id) => {
                    st.picked.clear();
                    st.shown = false;
                    commands.push(AppCommand::OpenBattle(id));
                    Ok(format!("Started {title} with the picked models"))
                }
                Err(e) => Err(e.to_string()),
            }
        }
    };
    match result {
        Ok(words) => st.message = words,
        Err(why) => st.message = format!("Refused: {why}"),
    }
    st.state = None;
    refresh(st, c);
}

/// Write `<campaign>-report.html` beside the campaign file.
fn export_report(c: &Campaign) -> Result<String, String> {
    let story = xenolog_report::campaign::build(c).map_err(|e| e.to_string())?;
    let stem = c.path().file_stem().map_or_else(
        || "campaign".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let path = c
        .path()
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default()
        .join(format!("{stem}-report.html"));
    xenolog_saves::write_atomically(&path, xenolog_report::campaign::html(&story).as_bytes())
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "Wrote the campaign report ({} battles) to {}",
        story.battles.len(),
        path.display()
    ))
}

fn export_sheets(c: &Campaign, state: Option<&CampaignState>) -> Result<String, String> {
    let Some(state) = state else {
        return Err("the campaign is not read yet".into());
    };
    let name = c.name().unwrap_or_default();
    let dir = c
        .path()
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let stem = c.path().file_stem().map_or_else(
        || "campaign".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let mut written = Vec::new();
    for r in &state.rosters {
        let safe: String = r
            .name
            .chars()
            .map(|ch| if ch.is_alphanumeric() { ch } else { '-' })
            .collect();
        let path = dir.join(format!("{stem}-roster-{}-{safe}.html", r.id));
        xenolog_saves::write_atomically(
            &path,
            xenolog_report::roster_sheet_html(state, r.id, &name).as_bytes(),
        )
        .map_err(|e| e.to_string())?;
        written.push(path.display().to_string());
    }
    if written.is_empty() {
        return Err("there is no roster yet".into());
    }
    Ok(format!("Wrote the roster sheets: {}", written.join(", ")))
}

fn skills_text(m: &ModelSheet) -> String {
    xenolog_report::skills_words(m)
}

/// The Campaign view (in place of the board).
pub fn campaign_view_ui(
    ui: &mut Ui,
    st: &mut CampaignViewState,
    campaign: Option<&Campaign>,
    actions: &mut Vec<CampaignAction>,
    commands: &mut Vec<AppCommand>,
) {
    // Drawn in a framed central panel (the app's): the whole of it is
    // filled, however narrow the content; rows wrap to the panel's width and
    // what is still wider scrolls.
    egui::ScrollArea::both()
        .id_salt("campaign-scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| body(ui, st, campaign, actions, commands));
    buy_dialog(ui.ctx(), st, actions);
}

fn body(
    ui: &mut Ui,
    st: &mut CampaignViewState,
    campaign: Option<&Campaign>,
    actions: &mut Vec<CampaignAction>,
    commands: &mut Vec<AppCommand>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.heading("Campaign");
        if ui.button("Back to the battles").clicked() {
            commands.push(AppCommand::ShowCampaign(false));
        }
        if ui.button("Undo campaign entry").clicked() {
            actions.push(CampaignAction::Undo);
        }
        if ui.button("Redo campaign entry").clicked() {
            actions.push(CampaignAction::Redo);
        }
        if ui.button("Export roster sheets (HTML)").clicked() {
            actions.push(CampaignAction::ExportSheets);
        }
        if ui
            .button("Export campaign report (HTML)")
            .on_hover_text("Every battle's result and key moments, the rosters and the luck")
            .clicked()
        {
            actions.push(CampaignAction::ExportReport);
        }
    });
    let Some(c) = campaign else {
        ui.label("Rosters and experience live in a campaign file: open or create one (File menu).");
        return;
    };
    refresh(st, c);
    if !st.message.is_empty() {
        ui.label(RichText::new(&st.message).italics());
    }
    let Some(state) = st.state.clone() else {
        return;
    };
    if !st.changes.is_empty() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.strong("The campaign was recomputed. What changed:");
            for ch in &st.changes {
                ui.label(ch);
            }
            if ui.button("Dismiss").clicked() {
                st.changes.clear();
            }
        });
    }
    if !state.flags.is_empty() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.colored_label(ui.visuals().warn_fg_color, "To resolve:");
            for f in &state.flags {
                ui.label(format!("To resolve: {}", f.words));
            }
        });
    }
    if !st.set_aside.is_empty() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.strong(format!("Set aside by merges ({})", st.set_aside.len()));
            for x in &st.set_aside {
                ui.label(x);
            }
        });
    }
    for r in &state.rosters {
        ui.add_space(8.0);
        ui.heading(format!("{} ({})", r.name, faction_name(&r.faction)));
        egui::Grid::new(("roster", r.id))
            .striped(true)
            .num_columns(10)
            .show(ui, |ui| {
                // Fight first: the column the player ticks before every
                // battle stays in view however narrow the window.
                for h in [
                    "Fight",
                    "Name",
                    "Type",
                    "Status",
                    "EP unspent/earned",
                    "Perception",
                    "Skills",
                    "Battles",
                    "Kills",
                    "",
                ] {
                    ui.strong(h);
                }
                ui.end_row();
                for id in &r.models {
                    let Some(m) = state.model(*id) else { continue };
                    let mut pick = st.picked.contains(&m.id);
                    let fight = ui
                        .add_enabled(
                            m.status == Status::Fit,
                            egui::Checkbox::without_text(&mut pick),
                        )
                        .on_hover_text(format!("{} fights the next battle", m.name));
                    let fit = m.status == Status::Fit;
                    let label = format!("Fight: {}", m.name);
                    fight.widget_info(|| {
                        egui::WidgetInfo::selected(egui::Role::CheckBox, fit, pick, &label)
                    });
                    if fight.changed() {
                        if pick {
                            st.picked.push(m.id);
                        } else {
                            st.picked.retain(|x| *x != m.id);
                        }
                    }
                    if ui.link(&m.name).clicked() {
                        st.sheet = Some(m.id);
                        st.rename = m.name.clone();
                    }
                    ui.label(kind_name(&r.faction, &m.kind));
                    ui.label(m.status.word());
                    ui.label(format!("EP {}/{}", m.unspent(), m.earned));
                    ui.label(format!("+{}", m.perception));
                    ui.label(skills_text(m));
                    ui.label(m.battles.len().to_string());
                    ui.label(m.kills.to_string());
                    let buy = ui
                        .add_enabled(m.status == Status::Fit, egui::Button::new("Buy skill…"))
                        .on_hover_text(format!("Buy a skill for {} with experience", m.name));
                    let label = format!("Buy skill for {}…", m.name);
                    buy.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, fit, &label));
                    if buy.clicked() {
                        st.buying = Some(m.id);
                    }
                    ui.end_row();
                }
            });
    }
    ui.add_space(8.0);
    raise_ui(ui, st, actions);
    ui.add_space(8.0);
    recruit_ui(ui, st, &state, actions);
    ui.add_space(8.0);
    fight_ui(ui, st, &state, actions);
    if let Some(id) = st.sheet
        && let Some(m) = state.model(id)
    {
        ui.add_space(8.0);
        sheet_ui(ui, st, &state, m, actions, commands);
    }
    ui.add_space(8.0);
    ui.collapsing("Campaign log", |ui| {
        let lines = st.log.get_or_insert_with(|| {
            st.log_reads += 1;
            log_lines(c, &state, &st.names)
        });
        for line in lines.iter() {
            ui.label(line);
        }
    });
}

/// The campaign log in words, newest first, an undone entry marked.
fn log_lines(c: &Campaign, state: &CampaignState, names: &BattleNames) -> Vec<String> {
    let Ok(log) = c.campaign_log() else {
        return Vec::new();
    };
    log.iter()
        .rev()
        .map(|e| {
            let undone = if state.undone.contains(&e.id) {
                " (undone)"
            } else {
                ""
            };
            format!(
                "{}: {}{undone}",
                e.id,
                xenolog_saves::describe(&e.event, state, names)
            )
        })
        .collect()
}

/// Raise a roster: a name and one of the shipped factions (the command
/// line's `xenolog roster add`; a new campaign had no way to it in the app).
fn raise_ui(ui: &mut Ui, st: &mut CampaignViewState, actions: &mut Vec<CampaignAction>) {
    ui.strong("Raise a roster (Alien Invasion)");
    let factions = xenolog_engine::games::invasion::data::FACTIONS;
    if !factions.iter().any(|(id, _)| *id == st.roster_faction) {
        st.roster_faction = factions
            .first()
            .map_or_else(String::new, |f| f.0.to_owned());
    }
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("Roster name:");
        ui.add(egui::TextEdit::singleline(&mut st.roster_name).desired_width(160.0))
            .labelled_by(l.id);
        egui::ComboBox::from_label("Faction")
            .selected_text(faction_name(&st.roster_faction))
            .show_ui(ui, |ui| {
                for (id, _) in factions {
                    ui.selectable_value(&mut st.roster_faction, (*id).to_owned(), faction_name(id));
                }
            });
        if ui.button("Raise the roster").clicked() {
            actions.push(CampaignAction::Raise {
                name: st.roster_name.clone(),
                faction: st.roster_faction.clone(),
            });
        }
    });
}

fn recruit_ui(
    ui: &mut Ui,
    st: &mut CampaignViewState,
    state: &CampaignState,
    actions: &mut Vec<CampaignAction>,
) {
    ui.strong("Recruit a model");
    if state.rosters.is_empty() {
        ui.label("No roster yet: raise one above (or with `xenolog roster add`).");
        return;
    }
    let roster = st
        .new_roster
        .and_then(|r| state.roster(r))
        .unwrap_or(&state.rosters[0])
        .clone();
    let kinds = xenolog_engine::games::invasion::data::faction(&roster.faction)
        .map(|f| {
            f.models
                .iter()
                .map(|m| (m.id.clone(), m.name.clone()))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    if !kinds.iter().any(|(k, _)| *k == st.new_kind) {
        st.new_kind = kinds.first().map(|k| k.0.clone()).unwrap_or_default();
    }
    ui.horizontal_wrapped(|ui| {
        egui::ComboBox::from_label("Roster")
            .selected_text(&roster.name)
            .show_ui(ui, |ui| {
                for r in &state.rosters {
                    if ui.selectable_label(r.id == roster.id, &r.name).clicked() {
                        st.new_roster = Some(r.id);
                    }
                }
            });
        let kind_name = kinds
            .iter()
            .find(|k| k.0 == st.new_kind)
            .map_or(String::new(), |k| k.1.clone());
        egui::ComboBox::from_label("Type")
            .selected_text(kind_name)
            .show_ui(ui, |ui| {
                for (k, n) in &kinds {
                    ui.selectable_value(&mut st.new_kind, k.clone(), n);
                }
            });
        let l = ui.label("Name or ID code:");
        ui.add(egui::TextEdit::singleline(&mut st.new_name).desired_width(160.0))
            .labelled_by(l.id);
        if ui.button("Recruit").clicked() {
            actions.push(CampaignAction::Recruit {
                roster: roster.id,
                name: st.new_name.clone(),
                kind: st.new_kind.clone(),
            });
        }
    });
}

fn fight_ui(
    ui: &mut Ui,
    st: &mut CampaignViewState,
    state: &CampaignState,
    actions: &mut Vec<CampaignAction>,
) {
    ui.strong("Fight a battle (Alien Invasion)");
    if st.scenario.is_empty() {
        st.scenario = "skirmish".into();
    }
    let scenarios: Vec<(&str, String)> = xenolog_engine::games::invasion::data::SCENARIOS
        .iter()
        .map(|s| (s.0, s.0.replace('_', " ")))
        .collect();
    ui.horizontal_wrapped(|ui| {
        egui::ComboBox::from_label("Scenario")
            .selected_text(st.scenario.replace('_', " "))
            .show_ui(ui, |ui| {
                for (id, name) in &scenarios {
                    ui.selectable_value(&mut st.scenario, (*id).to_owned(), name);
                }
            });
        super::dialogs::labelled_edit(ui, "Seed:", &mut st.seed, "random", 120.0);
        let seats = seat_factions(&st.scenario);
        let mut picks: Vec<(RosterId, Vec<ModelId>)> = Vec::new();
        for m in &st.picked {
            if let Some(sheet) = state.model(*m) {
                match picks.iter_mut().find(|p| p.0 == sheet.roster) {
                    Some(p) => p.1.push(*m),
                    None => picks.push((sheet.roster, vec![*m])),
                }
            }
        }
        let names: Vec<String> = picks
            .iter()
            .filter_map(|(r, _)| state.roster(*r))
            .map(|r| {
                let seat = seats.iter().position(|f| *f == r.faction);
                match seat {
                    Some(s) => format!("{} on seat {}", r.name, s + 1),
                    None => format!("{} (its faction is not in this scenario)", r.name),
                }
            })
            .collect();
        let ok = !picks.is_empty();
        if ui
            .add_enabled(ok, egui::Button::new("Start battle with the picked models"))
            .clicked()
        {
            actions.push(CampaignAction::Fight {
                scenario: st.scenario.clone(),
                picks,
                seed: st.seed.clone(),
            });
        }
        ui.label(if ok {
            names.join(", ")
        } else {
            "Tick \"Fight\" on the models that fight.".to_owned()
        });
    });
}

fn sheet_ui(
    ui: &mut Ui,
    st: &mut CampaignViewState,
    state: &CampaignState,
    m: &ModelSheet,
    actions: &mut Vec<CampaignAction>,
    commands: &mut Vec<AppCommand>,
) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.heading(format!("{}'s sheet", m.name));
            if ui.button("Close sheet").clicked() {
                st.sheet = None;
            }
        });
        ui.label(format!(
            "{}, {}: EP {} unspent of {} earned, perception +{}, {} battles, {} kills; skills: {}",
            xenolog_report::model_kind(state, m),
            m.status.word(),
            m.unspent(),
            m.earned,
            m.perception,
            m.battles.len(),
            m.kills,
            skills_text(m)
        ));
        ui.horizontal(|ui| {
            let l = ui.label("New name:");
            ui.add(egui::TextEdit::singleline(&mut st.rename).desired_width(160.0))
                .labelled_by(l.id);
            if ui.button("Rename").clicked() {
                actions.push(CampaignAction::Record(CampaignEvent::ModelRenamed {
                    model: m.id,
                    name: st.rename.clone(),
                }));
            }
            if ui
                .add_enabled(m.status == Status::Fit, egui::Button::new("Retire"))
                .clicked()
            {
                actions.push(CampaignAction::Record(CampaignEvent::ModelRetired {
                    model: m.id,
                }));
            }
            if ui
                .add_enabled(m.battles.is_empty(), egui::Button::new("Remove"))
                .on_disabled_hover_text("A model that fought is retired, not removed")
                .clicked()
            {
                st.sheet = None;
                actions.push(CampaignAction::Record(CampaignEvent::ModelRemoved {
                    model: m.id,
                }));
            }
        });
        ui.strong("History");
        egui::Grid::new("history").striped(true).show(ui, |ui| {
            for h in &m.history {
                ui.label(format!("entry {}", h.entry));
                ui.label(&h.what);
                ui.label(format!("EP {} → {}", h.unspent_before, h.unspent_after));
                match h.battle {
                    Some(b) => {
                        if ui.link(format!("Open {}", st.names.name(b))).clicked() {
                            commands.push(AppCommand::ShowCampaign(false));
                            commands.push(AppCommand::OpenBattle(b));
                        }
                    }
                    None => {
                        ui.label("");
                    }
                }
                ui.end_row();
            }
        });
        for f in state.flags.iter().filter(|f| f.model == m.id) {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("To resolve: {}", f.words),
            );
        }
    });
}

/// The Buy skill dialog: every skill with its cost and cap, greyed out with
/// the reason when it cannot be bought.
fn buy_dialog(ctx: &egui::Context, st: &mut CampaignViewState, actions: &mut Vec<CampaignAction>) {
    let Some(id) = st.buying else { return };
    let Some(m) = st.state.as_ref().and_then(|s| s.model(id)).cloned() else {
        st.buying = None;
        return;
    };
    let table: Vec<Skill> = skill_table();
    let mut open = true;
    egui::Window::new(format!("Buy a skill for {}", m.name))
        .collapsible(false)
        .open(&mut open)
        .show(ctx, |ui| {
            ui.label(format!(
                "{} has {} EP unspent. Skills are bought before a battle.",
                m.name,
                m.unspent()
            ));
            egui::Grid::new("buy-skill").striped(true).show(ui, |ui| {
                for h in ["Skill", "Cost", "Most", "Has", ""] {
                    ui.strong(h);
                }
                ui.end_row();
                for s in &table {
                    let why = why_not_buy(&m, s);
                    ui.label(&s.name);
                    ui.label(format!("{} EP", s.cost));
                    ui.label(if s.max == 1 {
                        "once".to_owned()
                    } else {
                        format!("{} times", s.max)
                    });
                    ui.label(m.times(&s.id).to_string());
                    ui.horizontal(|ui| {
                        if ui
                            .add_enabled(
                                why.is_none(),
                                egui::Button::new(format!("Buy {}", s.name)),
                            )
                            .clicked()
                        {
                            actions.push(CampaignAction::Record(CampaignEvent::SkillBought {
                                model: m.id,
                                skill: s.id.clone(),
                            }));
                        }
                        if let Some(w) = why {
                            ui.weak(w);
                        }
                    });
                    ui.end_row();
                }
            });
            if ui.button("Done").clicked() {
                st.buying = None;
            }
        });
    if !open {
        st.buying = None;
    }
}
