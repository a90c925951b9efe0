//! # Alien Invasion
//!
//! The skirmish game of rule text 000 (`../shared/seeds/000_bcca932a72976a23.txt`):
//! factions of groups, activated by an Action deck of Single, Double, Triple
//! and Special Event cards, shooting by totals of D6 against kill scores in
//! three cover classes, hand-to-hand with even and odd dice, on a table
//! measured in inches. `RULES.md` beside this file maps every clause to code
//! and tests and lists every assumption.
//!
//! The one key decision: **everything the rules do on their own is a step of
//! the game** ([`crate::Game::automatic`]): shuffling and drawing a round's
//! cards, a Special Event card, the end of a card, each melee's resolution and
//! its aftermath, the end of the battle. Players answer in between: the
//! target's player chooses casualties in the middle of the shooter's card,
//! every faction in a melee rolls its own strike.
//!
//! A battle is played on screen (positions in hundredths of an inch, measured
//! with the `geo` crate in [`table`]) or at a real table, where the players
//! move their miniatures and declare what the table shows ([`rules::Declared`]:
//! a line of sight, a cover class, base contact), marked as declared in the log.
//!
//! Modules: [`model`] (the vocabulary), [`data`] (faction and scenario files),
//! [`table`] (geometry), [`state`] (state, events, `apply`), [`rules`]
//! (commands, the game's own steps, melees), [`actions`] (a card's actions),
//! [`victory`], [`legal`], [`describe`], [`scene`].

pub mod actions;
pub mod advanced;
pub mod assault;
pub mod choose;
pub mod data;
pub mod describe;
pub mod fire;
pub mod fly;
pub mod hidden;
pub mod legal;
pub mod model;
pub mod moments;
pub mod position;
pub mod rules;
pub mod scene;
pub mod state;
pub mod table;
pub mod victory;
pub mod wait;

use serde::{Deserialize, Serialize};

use crate::game::{
    Actor, Anchors, Ask, Fate, FlowMark, Game, GameOption, OptionKind, Outcome, PieceResult,
    RuleError, ScenarioInfo, SeatScore, SetupError,
};
use crate::rng::Randomness;
use crate::scene::Scene;

use model::{Faction, GroupRole, INCH, Point, Scenario};
pub use rules::{Declared, InvasionCommand};
use state::{Group, Model, Place};
pub use state::{InvasionEvent, InvasionState};

/// The game.
pub struct Invasion;

/// How a battle is set up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InvasionConfig {
    /// A shipped scenario id; empty means the first.
    pub scenario: String,
    /// A player's own scenario file, as text (it wins over `scenario`).
    pub scenario_text: Option<String>,
    /// The faction of each seat, by id (shipped, or of `faction_texts`);
    /// empty means the factions the scenario suggests.
    pub factions: Vec<String>,
    /// Players' own faction files, as text.
    pub faction_texts: Vec<String>,
    /// Played at a real table: no positions, the players declare what the
    /// table shows.
    pub real_table: bool,
    /// The sewers rule.
    pub sewers: bool,
    /// Campaign rosters' models fighting for seats: each seat named here
    /// fields these models (by name, with their skills) in its faction's
    /// groups instead of the file's anonymous figures.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rosters: Vec<SeatRoster>,
    /// Advanced Invasion Earth (rule text 001): the Stupidity module.
    #[serde(skip_serializing_if = "is_false")]
    pub stupidity: bool,
    /// Advanced Invasion Earth: the Fear module.
    #[serde(skip_serializing_if = "is_false")]
    pub fear: bool,
    /// Advanced Invasion Earth: Suppression Fire.
    #[serde(skip_serializing_if = "is_false")]
    pub suppression: bool,
    /// Advanced Invasion Earth: Observers.
    #[serde(skip_serializing_if = "is_false")]
    pub observers: bool,
    /// Advanced Invasion Earth: Sighting a Target (with Perception).
    #[serde(skip_serializing_if = "is_false")]
    pub sighting: bool,
    /// Advanced Invasion Earth: Laying in Wait (out of turn).
    #[serde(skip_serializing_if = "is_false")]
    pub laying_in_wait: bool,
    /// Advanced Invasion Earth: Grapple.
    #[serde(skip_serializing_if = "is_false")]
    pub grapple: bool,
    /// Advanced Invasion Earth: Impetuous.
    #[serde(skip_serializing_if = "is_false")]
    pub impetuous: bool,
    /// Advanced Invasion Earth: Primitive Weapons.
    #[serde(skip_serializing_if = "is_false")]
    pub primitive_weapons: bool,
    /// Advanced Invasion Earth: Buildings and LOS.
    #[serde(skip_serializing_if = "is_false")]
    pub buildings: bool,
    /// Advanced Invasion Earth: Unstoppable Force.
    #[serde(skip_serializing_if = "is_false")]
    pub unstoppable: bool,
    /// Advanced Invasion Earth: Lift Off, Land and Fly.
    #[serde(skip_serializing_if = "is_false")]
    pub fly: bool,
    /// Advanced Invasion Earth: Advanced Assault.
    #[serde(skip_serializing_if = "is_false")]
    pub advanced_assault: bool,
    /// A contested reading (rules version 5): Suppression Fire's MEDIUM
    /// and GIANT blast templates as Xenolog read them before (3" and 5"
    /// across) instead of Alien Invasion's one 'Blast' area, "a six inch
    /// diameter circle" (the default, as the text is explicit).
    #[serde(skip_serializing_if = "is_false")]
    pub graded_templates: bool,
    /// A battle option (rules version 5): Xenolog's assumed profiles, the
    /// profile flags the rule texts do not give (the faction files'
    /// `assumed` lines: the Spug's `stupid 3`, the Dalek's fear of it in
    /// humans) and Super Agility's +1 a die when moving and firing. Off by
    /// default: a battle plays only what the texts give.
    #[serde(default, skip_serializing_if = "is_false")]
    pub assumed_profiles: bool,
    /// A contested reading (rules version 5): every group sneaks (half a
    /// move) when suppressed or laying in wait, Daleks too, as Xenolog read
    /// it before. Off by default: the text's "No sneaking Daleks etc." (a
    /// `no_sneak` model keeps its group from moving then).
    #[serde(default, skip_serializing_if = "is_false")]
    pub everyone_sneaks: bool,
    /// A contested reading (rules version 5): "Suppressing Cover" measured
    /// from the models' kill score in their cover, as Xenolog read it
    /// before (then it is never better than suppressing the models). Off by
    /// default: "The 'target' on this occasion is the item of cover", struck
    /// directly at the models' score in the open.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cover_at_cover_score: bool,
    /// A contested reading (rules version 6): a Mite's blast is Alien
    /// Invasion's one 'Blast' area, "a six inch diameter circle" (3" from
    /// the Mite), instead of the Mites' own "6 inch radius blast effect"
    /// (the default: the Mites' clause is the particular one).
    #[serde(default, skip_serializing_if = "is_false")]
    pub mite_blast_template: bool,
    /// A contested reading (rules version 6): after a melee the game
    /// chooses which way each group falls back (straight away from the
    /// enemy), as Xenolog did before. Off by default: the group's player
    /// chooses ("move back a full move ... usually back the way they came").
    #[serde(default, skip_serializing_if = "is_false")]
    pub game_chooses_retreats: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl InvasionConfig {
    /// The Advanced Invasion Earth modules chosen, in the text's order.
    pub fn modules(&self) -> Vec<advanced::Module> {
        advanced::Module::ALL
            .into_iter()
            .filter(|m| match m {
                advanced::Module::Stupidity => self.stupidity,
                advanced::Module::Fear => self.fear,
                advanced::Module::Suppression => self.suppression,
                advanced::Module::Observers => self.observers,
                advanced::Module::Sighting => self.sighting,
                advanced::Module::LayingInWait => self.laying_in_wait,
                advanced::Module::Grapple => self.grapple,
                advanced::Module::Impetuous => self.impetuous,
                advanced::Module::Primitive => self.primitive_weapons,
                advanced::Module::Buildings => self.buildings,
                advanced::Module::Unstoppable => self.unstoppable,
                advanced::Module::Fly => self.fly,
                advanced::Module::AdvancedAssault => self.advanced_assault,
            })
            .collect()
    }
}

/// A campaign roster's models fighting for one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRoster {
    pub seat: u8,
    /// The campaign's roster id.
    pub roster: u32,
    pub fighters: Vec<RosterFighter>,
}

/// One roster model in a battle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterFighter {
    /// The campaign's model id.
    pub model: u32,
    pub name: String,
    /// Its model type id in the faction file.
    pub kind: String,
    /// Skills bought before the battle, `(skill id, times)`.
    #[serde(default)]
    pub skills: Vec<(String, u32)>,
    /// Its campaign perception bonus (+1 a battle survived).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub perception: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The piece id (a figure's id in the battle and in its `PieceResult`) of a
/// campaign model fighting for a faction: `unit-m12`.
pub fn roster_piece(prefix: &str, model: u32) -> String {
    format!("{prefix}-m{model}")
}

/// The piece ids of a config's roster models, `(campaign model, piece)`,
/// for the campaign log ("battle fought with these models").
pub fn roster_pieces(config: &InvasionConfig) -> Result<Vec<(u32, String)>, SetupError> {
    let scenario = scenario_of(config)?;
    let factions = factions_of(config, &scenario)?;
    let mut out = Vec::new();
    for r in &config.rosters {
        let Some(f) = factions.get(r.seat as usize) else {
            continue;
        };
        let prefix = seat_prefix(&factions, r.seat as usize, f);
        for x in &r.fighters {
            out.push((x.model, roster_piece(&prefix, x.model)));
        }
    }
    Ok(out)
}

fn seat_prefix(factions: &[Faction], seat: usize, f: &Faction) -> String {
    let twice = factions.iter().filter(|o| o.id == f.id).count() > 1;
    if twice {
        format!("{}{}", f.id, seat + 1)
    } else {
        f.id.clone()
    }
}

/// The figures of a seat's groups: the file's (`None`: anonymous), or its
/// roster models, each in the first free place of its type (templates in
/// file order, groups before reserves); places left empty are dropped.
/// A figure's model type and the roster fighter it is (by index), if any.
type Figure = (String, Option<usize>);

fn fill_groups(
    f: &Faction,
    templates: &[(&model::GroupTemplate, bool)],
    roster: Option<&SeatRoster>,
) -> Result<Vec<Vec<Figure>>, SetupError> {
    let Some(r) = roster else {
        return Ok(templates
            .iter()
            .map(|(t, _)| t.models.iter().map(|k| (k.clone(), None)).collect())
            .collect());
    };
    let mut used = vec![false; r.fighters.len()];
    let mut out = Vec::new();
    for (t, _) in templates {
        let mut figures = Vec::new();
        for kind in &t.models {
            if let Some(i) = r
                .fighters
                .iter()
                .enumerate()
                .position(|(i, x)| !used[i] && &x.kind == kind)
            {
                used[i] = true;
                figures.push((kind.clone(), Some(i)));
            }
        }
        out.push(figures);
    }
    if let Some(i) = used.iter().position(|u| !u) {
        let x = &r.fighters[i];
        let kind = f.model(&x.kind).map_or(x.kind.clone(), |m| m.name.clone());
        return Err(SetupError(format!(
            "{} ({kind}) has no place in the {} groups: every {kind} place is taken or the faction has none",
            x.name, f.name
        )));
    }
    Ok(out)
}

fn setup_error(e: impl std::fmt::Display) -> SetupError {
    SetupError(e.to_string())
}

/// The scenario of a config.
pub fn scenario_of(config: &InvasionConfig) -> Result<Scenario, SetupError> {
    // A position file names a shipped scenario (`position`).
    if let Some(text) = &config.scenario_text
        && position::is_position(text)
    {
        return scenario_of(&position::config(config, text)?);
    }
    if let Some(text) = &config.scenario_text {
        return data::parse_scenario("file", text)
            .map_err(|e| SetupError(format!("the scenario file is not valid: {e}")));
    }
    let id = if config.scenario.is_empty() {
        data::SCENARIOS.first().map_or("", |s| s.0)
    } else {
        config.scenario.as_str()
    };
    data::scenario(id).ok_or_else(|| {
        let known: Vec<&str> = data::SCENARIOS.iter().map(|s| s.0).collect();
        SetupError(format!(
            "there is no Alien Invasion scenario '{id}' (try one of: {})",
            known.join(", ")
        ))
    })
}

/// The factions of a config, one per seat.
pub fn factions_of(
    config: &InvasionConfig,
    scenario: &Scenario,
) -> Result<Vec<Faction>, SetupError> {
    if let Some(text) = &config.scenario_text
        && position::is_position(text)
    {
        return factions_of(&position::config(config, text)?, scenario);
    }
    let mut own = Vec::new();
    for (i, text) in config.faction_texts.iter().enumerate() {
        own.push(
            data::parse_faction(text)
                .map_err(|e| SetupError(format!("faction file {} is not valid: {e}", i + 1)))?,
        );
    }
    let ids = if config.factions.is_empty() {
        scenario.factions.clone()
    } else {
        config.factions.clone()
    };
    if ids.len() < 2 {
        return Err(SetupError(
            "Alien Invasion needs at least two factions".into(),
        ));
    }
    if ids.len() > 6 || ids.len() > scenario.zones.len() {
        return Err(SetupError(format!(
            "{} factions are too many: the scenario '{}' has {} deployment zones",
            ids.len(),
            scenario.name,
            scenario.zones.len()
        )));
    }
    ids.iter()
        .map(|id| {
            own.iter()
                .find(|f| &f.id == id)
                .cloned()
                .or_else(|| data::faction(id))
                .ok_or_else(|| {
                    let known: Vec<&str> = data::FACTIONS.iter().map(|f| f.0).collect();
                    SetupError(format!(
                        "there is no faction '{id}' (shipped: {}; or give your own faction file)",
                        known.join(", ")
                    ))
                })
        })
        .collect()
}

/// The state before the first card: every group deployed in its seat's zone.
pub fn start(config: &InvasionConfig) -> Result<InvasionState, SetupError> {
    // A position file: the battle from the moment it gives (`position`).
    if let Some(text) = &config.scenario_text
        && position::is_position(text)
    {
        return position::start(config, text);
    }
    let scenario = scenario_of(config)?;
    let mut factions = factions_of(config, &scenario)?;
    // Xenolog's assumed profiles (`assumed` lines) play only when the battle
    // chooses them; either way the state keeps the profiles played with.
    for f in &mut factions {
        let assumed = std::mem::take(&mut f.assumed);
        if config.assumed_profiles {
            for (id, extra) in assumed {
                if let Some(m) = f.models.iter_mut().find(|m| m.id == id) {
                    m.profile = m.profile.with(&extra);
                }
            }
        }
    }
    let mut groups: Vec<crate::shared::Shared<Group>> = Vec::new();
    let mut holes = Vec::new();
    let mut holes_left = Vec::new();
    let table = crate::campaign::skills::shipped();
    for r in &config.rosters {
        if r.seat as usize >= factions.len() {
            return Err(SetupError(format!(
                "roster {} is given for seat {}, and the battle has {} seats",
                r.roster,
                r.seat,
                factions.len()
            )));
        }
        if config.rosters.iter().filter(|o| o.seat == r.seat).count() > 1 {
            return Err(SetupError(format!("seat {} has two rosters", r.seat)));
        }
    }
    for (seat, f) in factions.iter().enumerate() {
        let roster = config.rosters.iter().find(|r| r.seat as usize == seat);
        let seat = seat as u8;
        let prefix = seat_prefix(&factions, seat as usize, f);
        let zone = &scenario.zones[seat as usize];
        let all: Vec<_> = f
            .groups
            .iter()
            .map(|t| (t, false))
            .chain(f.reserves.iter().map(|t| (t, true)))
            .collect();
        let filled = fill_groups(f, &all, roster)?;
        let kept: Vec<_> = all
            .into_iter()
            .zip(filled)
            .filter(|(_, figures)| !figures.is_empty())
            .collect();
        let deployed = kept.iter().filter(|((_, later), _)| !later).count().max(1) as i32;
        let mut placed: Vec<Point> = groups.iter().flat_map(|g| g.points()).collect();
        for (i, ((t, later), figures)) in kept.into_iter().enumerate() {
            let mut models = Vec::new();
            for (n, (kind, fighter)) in figures.iter().enumerate() {
                let name = f.model(kind).map_or(kind.clone(), |m| m.name.clone());
                let (id, name, bonus) = match fighter.and_then(|i| roster?.fighters.get(i)) {
                    Some(x) => (
                        roster_piece(&prefix, x.model),
                        x.name.clone(),
                        crate::campaign::skills::Bonuses {
                            perception: x.perception.min(99) as u8,
                            ..crate::campaign::skills::Bonuses::of(&table, &x.skills)
                        },
                    ),
                    None => (
                        format!("{prefix}-{}-{}", t.id, n + 1),
                        format!("{name} {}", n + 1),
                        crate::campaign::skills::Bonuses::default(),
                    ),
                };
                models.push(Model {
                    id: crate::Ident::from(id),
                    name: crate::Ident::from(name),
                    kind: crate::Ident::from(kind.as_str()),
                    at: None,
                    alive: true,
                    origin: None,
                    bonus,
                    kills: 0,
                });
            }
            if !later && !config.real_table {
                let lead = deploy_point(zone, i as i32, deployed);
                let others =
                    table::place_next_to(&scenario, lead, models.len().saturating_sub(1), &placed);
                let pts: Vec<Point> = std::iter::once(lead).chain(others).collect();
                for (m, p) in models.iter_mut().zip(&pts) {
                    m.at = Some(*p);
                }
                placed.extend(pts);
            }
            // "Ground vehicles ... in the direction they are facing": a
            // vehicle is deployed facing the middle of the table (assumed).
            let vehicle = t
                .models
                .first()
                .and_then(|k| f.model(k))
                .is_some_and(|m| matches!(m.mobility, model::Mobility::Vehicle { .. }));
            let middle = Point::new(scenario.width / 2, scenario.height / 2);
            let from = models.first().and_then(|m| m.at).unwrap_or(Point::new(
                (zone.min.x + zone.max.x) / 2,
                (zone.min.y + zone.max.y) / 2,
            ));
            let facing = vehicle.then(|| rules::facing_towards(from, middle));
            groups.push(
                Group {
                    seat,
                    name: t.name.clone(),
                    role: if later { GroupRole::CleanUp } else { t.role },
                    models,
                    place: if later || t.role == GroupRole::CleanUp {
                        Place::Reserve
                    } else {
                        Place::Table
                    },
                    below_at: None,
                    climbing: 0,
                    locked: None,
                    declared_cover: None,
                    arrival_successes: 0,
                    kills: 0,
                    facing,
                }
                .into(),
            );
        }
        if f.rules.holes > 0 {
            // "Spugs should start with a total of three holes per squad, 2 per
            // squad deployed and the rest to build as needed." Assumed: a
            // squad is a group with a figure that shoots; the deployed holes
            // lie along the back of the zone.
            let squads = f
                .groups
                .iter()
                .filter(|t| {
                    t.models
                        .iter()
                        .any(|k| f.model(k).is_some_and(|m| m.shoot > 0))
                })
                .count() as i32;
            let start_holes = 2 * squads;
            for h in 0..start_holes {
                if !config.real_table {
                    holes.push(hole_point(zone, h, start_holes));
                }
            }
            holes_left.push((
                seat,
                (i32::from(f.rules.holes).saturating_sub(2).max(0) * squads).min(255) as u8,
            ));
        }
    }
    let n = factions.len();
    Ok(InvasionState {
        scenario: scenario.into(),
        factions: factions.into(),
        real_table: config.real_table,
        sewers: config.sewers,
        groups,
        deck: Vec::new(),
        discard: Vec::new(),
        shuffled: false,
        drawn: Vec::new(),
        current: 0,
        spent: Vec::new(),
        mites_moved: false,
        moved: Vec::new(),
        round: 0,
        melees: Vec::new(),
        next_melee: 0,
        pending: Vec::new(),
        kills: vec![0; n],
        killed_species: Vec::new(),
        studied: Vec::new(),
        achieved: Vec::new(),
        holes,
        holes_left,
        over: None,
        advanced: advanced::Advanced {
            modules: config.modules(),
            ..advanced::Advanced::default()
        },
        melee_how_many: Vec::new(),
        fighters: Vec::new(),
        card_start: Vec::new(),
        card_absent: Vec::new(),
        graded_templates: config.graded_templates,
        assumed_profiles: config.assumed_profiles,
        everyone_sneaks: config.everyone_sneaks,
        cover_at_cover_score: config.cover_at_cover_score,
        mite_blast_template: config.mite_blast_template,
        game_chooses_retreats: config.game_chooses_retreats,
    })
}

/// The lead figure of the `i`th of `n` groups, spread along the zone's long side.
fn deploy_point(zone: &model::Zone, i: i32, n: i32) -> Point {
    let (w, h) = (zone.max.x - zone.min.x, zone.max.y - zone.min.y);
    let frac = |len: i32| (2 * i + 1) * len / (2 * n.max(1));
    if w >= h {
        Point::new(zone.min.x + frac(w), zone.min.y + h / 3)
    } else {
        Point::new(zone.min.x + w / 3, zone.min.y + frac(h))
    }
}

fn hole_point(zone: &model::Zone, i: i32, n: i32) -> Point {
    let (w, h) = (zone.max.x - zone.min.x, zone.max.y - zone.min.y);
    let frac = |len: i32| (2 * i + 1) * len / (2 * n.max(1));
    if w >= h {
        Point::new(zone.min.x + frac(w), zone.max.y - h / 5)
    } else {
        Point::new(zone.max.x - w / 5, zone.min.y + frac(h))
    }
}

impl Game for Invasion {
    type Config = InvasionConfig;
    type State = InvasionState;
    type Command = InvasionCommand;
    type Event = InvasionEvent;
    const ID: &'static str = "invasion";
    const NAME: &'static str = "Alien Invasion";
    /// 1: the first release. 2: winners re-form and may take the ground they
    /// won, casualties of mixed kill scores paid each at its own, boarding
    /// vehicles, something new or odd (new commands and events at the end:
    /// version 1 entries read in today's layout). 3: the Advanced Invasion
    /// Earth modules (a model type's profile and the modules' state are new
    /// fields, so a state's hash differs from version 2's for the same
    /// battle: `verify` reports older entries as recorded under version 2).
    /// 6: the losers of a melee below the table surface at a point of
    /// their choosing (`choose_point`), and a Burrower's carried squads
    /// fight in the sewers' sudden melee; groups falling back after a
    /// melee go the way their player chooses (option
    /// `game_chooses_retreats` keeps the old way). 7: Advanced Invasion
    /// Earth's sighting mends (review6): a target is sighted as the table
    /// stood when the card began, every group where it stood then;
    /// uncontrolled Mites charge regardless of LOS and a Controller sights
    /// for his Mites at any range; a group inside a building away from its
    /// windows is out of every line of sight (no layout change: older
    /// entries verify, those decided differently are named). 8: the
    /// sighting questions session 20 left (session 21): a perception test
    /// is refused only for a target in sight as the card began; a group
    /// that came onto the table on the card stood nowhere then (a new
    /// state field, `card_absent`: a state's hash differs from version 7's);
    /// a group laying in wait inside a building stands at its windows for
    /// as long as it waits; touching blocking features are one obstacle
    /// (`RULES.md`, "Rules versions"). 9 (session 22): a figure killed on
    /// the card still blocks a line traced as the card began (Sighting a
    /// Target; `fire::blockers_at_start`). 10 (session 23): the criteria
    /// read the whole table as the card began: a target group in sight then
    /// through a figure killed since is sighted, a leader killed on the card
    /// still points out what he saw, and a group that charged into the
    /// target's fight on the card blocks the line it stood in; mended
    /// before release (session 23, invmend2, review19): the target's fight
    /// is the one as the card began, by base contact then, so a group that
    /// left it on the card blocks nothing, and a figure that went below or
    /// aboard on the card stood where it stood then (no layout change:
    /// `fire::start_points`, `fire::fight_at_start`, `fire::stood_at_start`).
    const RULES_VERSION: u32 = 10;

    fn moment(state: &InvasionState, event: &InvasionEvent) -> crate::Moment {
        moments::moment(state, event)
    }

    fn dice_meanings(
        state: &InvasionState,
        actor: Actor,
        events: &[InvasionEvent],
    ) -> Vec<crate::DieMeaning> {
        moments::dice_meanings(state, actor, events)
    }

    fn scenarios() -> Vec<ScenarioInfo> {
        data::SCENARIOS
            .iter()
            .filter_map(|(id, _)| data::scenario(id))
            .map(|s| ScenarioInfo {
                id: s.id.clone(),
                name: s.name.clone(),
                description: s.description.clone(),
            })
            .collect()
    }

    fn options() -> Vec<GameOption> {
        vec![
            GameOption {
                key: "real_table",
                group: "Table",
                label: "Played at a real table",
                help: "Move your miniatures on the table; Xenolog deals, rolls and keeps the log, and you declare lines of sight, cover and contact.",
                kind: OptionKind::Flag { default: false },
            },
            GameOption {
                key: "sewers",
                group: "Rules",
                label: "Sewers",
                help: "Groups may go down manholes and Spug holes (descend 1 action, move 1, surface 2); a Special Event card sets off a melee below.",
                kind: OptionKind::Flag { default: false },
            },
            GameOption {
                key: "mite_blast_template",
                group: "Rules",
                label: "Mites blast a 6\" circle (a reading)",
                help: "A Mite blows up over the game's one Blast area, \"a six inch diameter circle\" (3\" round the Mite), instead of the Mites' own \"6 inch radius blast effect\" (6\" round it).",
                kind: OptionKind::Flag { default: false },
            },
        ]
        .into_iter()
        .chain(advanced::Module::ALL.into_iter().map(|m| GameOption {
            key: m.key(),
            group: "Advanced Invasion Earth",
            label: m.name(),
            help: m.help(),
            kind: OptionKind::Flag { default: false },
        }))
        .chain([GameOption {
            key: "graded_templates",
            group: "Advanced Invasion Earth",
            label: "Graded suppression templates (a reading)",
            help: "Suppressing fire by two models covers a 3\" circle and by more a 5\" one, instead of Alien Invasion's one 6\" Blast circle for both (the text: \"a 'Blast' area which is a six inch diameter circle\").",
            kind: OptionKind::Flag { default: false },
        },
        GameOption {
            key: "assumed_profiles",
            group: "Advanced Invasion Earth",
            label: "Xenolog's assumed profiles",
            help: "Profiles the rule texts do not give, as Xenolog assumed them: Spugs suffer stupidity (score 3), Daleks cause fear in humans (line of sight required), and Super Agility adds +1 a die when a model moves and fires (the text: \"It suffers penalty (-1) for MOVEing and FIREing\", a penalty Alien Invasion does not have). Off, a battle plays only what the texts give.",
            kind: OptionKind::Flag { default: false },
        },
        GameOption {
            key: "everyone_sneaks",
            group: "Advanced Invasion Earth",
            label: "Daleks sneak too (a reading)",
            help: "A suppressed group, or one laying in wait on its own card, moves half its move whatever its models, instead of the text's \"No sneaking Daleks etc.\" (a model that cannot sneak keeps its group where it is).",
            kind: OptionKind::Flag { default: false },
        },
        GameOption {
            key: "cover_at_cover_score",
            group: "Advanced Invasion Earth",
            label: "Suppressing cover at the cover score (a reading)",
            help: "Fire at an item of cover is measured from the kill score of the models in their cover, instead of the text's \"The 'target' on this occasion is the item of cover being fired at, not the model/s behind it\" (measured from their score in the open; a strike's kills still count at their cover).",
            kind: OptionKind::Flag { default: false },
        },
        GameOption {
            key: "game_chooses_retreats",
            group: "Rules",
            label: "The game chooses retreats (a reading)",
            help: "After a melee, groups that fall back go a full move straight away from the enemy, as Xenolog chose before, instead of the way their player chooses (the text: \"move back a full move ensuring that they don't stay in contact themselves ... usually back the way they came\").",
            kind: OptionKind::Flag { default: false },
        }])
        .collect()
    }

    fn setup(config: &InvasionConfig) -> Result<InvasionState, SetupError> {
        start(config).map_err(setup_error)
    }

    fn decide(
        state: &InvasionState,
        actor: Actor,
        command: &InvasionCommand,
        rng: &mut Randomness,
    ) -> Result<Vec<InvasionEvent>, RuleError> {
        rules::decide(state, actor, command, rng)
    }

    fn apply(state: &mut InvasionState, event: &InvasionEvent) {
        state::apply(state, event);
    }

    fn legal(state: &InvasionState) -> Vec<(Actor, InvasionCommand)> {
        legal::legal(state)
    }

    fn automatic(state: &InvasionState) -> Option<InvasionCommand> {
        rules::automatic(state)
    }

    fn asked(state: &InvasionState) -> Vec<Ask> {
        legal::asked(state)
    }

    fn outcome(state: &InvasionState) -> Option<Outcome> {
        let end = state.over.as_ref()?;
        let mut pieces = Vec::new();
        for (gi, g) in state.groups.iter().enumerate() {
            for m in &g.models {
                let fate = if !m.alive {
                    Fate::Killed
                } else if g.place == Place::Reserve {
                    Fate::NotDeployed
                } else {
                    Fate::Survived
                };
                pieces.push(PieceResult {
                    id: String::from(&m.id),
                    seat: Actor(g.seat),
                    fate,
                    kills: Some(m.kills),
                });
            }
            let _ = gi;
        }
        Some(Outcome {
            winners: end.winners.iter().map(|&w| Actor(w)).collect(),
            scores: (0..state.factions.len())
                .map(|seat| SeatScore {
                    seat: Actor(seat as u8),
                    points: i64::from(state.kills[seat]),
                })
                .collect(),
            pieces,
            summary: end.summary.clone(),
        })
    }

    fn view(state: &InvasionState, _viewer: Actor) -> InvasionState {
        // The deck is face down for everyone: its order is hidden alike
        // from every seat (`hidden`).
        hidden::view(state)
    }

    fn view_event(event: &InvasionEvent, _viewer: Actor) -> InvasionEvent {
        hidden::view_event(event)
    }

    fn seats(state: &InvasionState) -> Vec<Actor> {
        (0..state.factions.len() as u8).map(Actor).collect()
    }

    fn actor_name(actor: Actor) -> String {
        format!("Player {}", u16::from(actor.0) + 1)
    }

    fn seat_name(state: &InvasionState, actor: Actor) -> String {
        state
            .factions
            .get(actor.0 as usize)
            .map_or_else(|| Self::actor_name(actor), |f| f.name.clone())
    }

    fn describe_command(state: &InvasionState, actor: Actor, command: &InvasionCommand) -> String {
        describe::command(state, actor, command)
    }

    fn describe_event(state: &InvasionState, event: &InvasionEvent) -> String {
        describe::event(state, event)
    }

    /// Rounds counted one way (issue 28): round N is the drawing of its
    /// cards ("Once the cards have been used another set of cards is
    /// drawn") and their play, as the log says "draws the cards of round N"
    /// and the side panel "Cards of round N"; the setup is round 1's
    /// drawing, so there is no round 0.
    fn flow(state: &InvasionState) -> FlowMark {
        let last_played = state.scenario.rounds > 0 && state.round >= state.scenario.rounds;
        let (turn, phase) = match (&state.over, state.card()) {
            (Some(_), _) => (state.round.max(1), "Battle over".to_owned()),
            (None, Some(card)) => (state.round, describe::card_name(state, card)),
            (None, None) if last_played => (state.round, "Ending the battle".to_owned()),
            (None, None) => (state.round + 1, "Drawing cards".to_owned()),
        };
        FlowMark { turn, phase }
    }

    fn turn_word() -> &'static str {
        "Round"
    }

    fn scene(state: &InvasionState) -> Scene {
        scene::scene(state)
    }

    fn anchors(state: &InvasionState, command: &InvasionCommand) -> Anchors {
        legal::anchors(state, command)
    }
}

/// Inches as the log writes them: `8"`, `7.5"`.
pub fn inches(hundredths: i32) -> String {
    if hundredths % INCH == 0 {
        format!("{}\"", hundredths / INCH)
    } else {
        format!("{:.1}\"", f64::from(hundredths) / f64::from(INCH))
    }
}
