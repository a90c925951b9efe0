//! The campaign: rosters, models, experience and skills, as a fold.
//!
//! A campaign is an append-only log of campaign events (a roster made, a
//! model recruited, renamed, retired or removed, a skill bought, a battle
//! fought with these models, an entry undone or redone) and the current
//! result of each battle it fought. Everything a roster sheet shows
//! (experience earned, spent and unspent, the perception bonus, status,
//! skills, battles and kills) is [`fold`]ed from those two, never typed in
//! twice; when a battle is taken back or another branch of it is made
//! current, the campaign is folded again and [`changes`] says, model by
//! model, what that changed. Rule text 001, "Experience":
//!
//! * "For every battle a model survives he/she/it is rewarded 1 experience
//!   point" and "All models gain a FREE reward of +1 on perception rolls for
//!   every battle they survive".
//! * "Before beginning a battle, any models which have experience points,
//!   may spend them on acquiring a new skill", at the costs and caps of
//!   [`skills`].
//!
//! Like the battles, this module is pure: the store keeps the log and reads
//! the battles' results; the app and the command line show the fold.

pub mod skills;

use serde::{Deserialize, Serialize};

use crate::game::{Fate, Outcome};
use skills::Skill;

pub type RosterId = u32;
pub type ModelId = u32;
/// A battle of the campaign file (its row id).
pub type BattleRef = i64;

/// What happens to a model killed in a battle. The text does not say:
/// a campaign setting, dead by default (assumed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Casualties {
    /// Dead and gone: it fights no more.
    #[default]
    Dead,
    /// Back for the next battle, without the experience point.
    Return,
}

/// A roster model in a battle: the campaign model and the piece id the
/// battle knows it by (its `PieceResult::id`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub model: ModelId,
    pub piece: String,
}

/// One fact of the campaign log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CampaignEvent {
    RosterCreated {
        roster: RosterId,
        name: String,
        faction: String,
    },
    RosterRenamed {
        roster: RosterId,
        name: String,
    },
    ModelRecruited {
        roster: RosterId,
        model: ModelId,
        name: String,
        /// Its model type id in the faction file.
        kind: String,
    },
    ModelRenamed {
        model: ModelId,
        name: String,
    },
    ModelRetired {
        model: ModelId,
    },
    /// A model removed from its roster (a mistake: only one that never
    /// fought; one that fought is retired).
    ModelRemoved {
        model: ModelId,
    },
    SkillBought {
        model: ModelId,
        skill: String,
    },
    /// A battle was started with these roster models.
    BattleFought {
        battle: BattleRef,
        fighters: Vec<Fighter>,
    },
    SettingChanged {
        casualties: Casualties,
    },
    /// An earlier entry no longer counts (the campaign log's undo).
    Undone {
        entry: u32,
    },
    /// An undone entry counts again.
    Redone {
        entry: u32,
    },
}

/// An entry of the campaign log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignEntry {
    /// 1, 2, 3... in the order recorded.
    pub id: u32,
    /// When it was recorded (unix seconds).
    pub at: i64,
    pub event: CampaignEvent,
}

/// A model's status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    #[default]
    Fit,
    Dead,
    Retired,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Fit => "fighting fit",
            Status::Dead => "dead",
            Status::Retired => "retired",
        }
    }
}

/// One line of a model's history: a change and its reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryLine {
    /// The campaign entry it comes from.
    pub entry: u32,
    /// The battle it happened in, if any, and the model's piece id there
    /// (to find the entries of its battle log).
    pub battle: Option<BattleRef>,
    pub piece: Option<String>,
    pub what: String,
    /// Unspent experience before and after.
    pub unspent_before: i64,
    pub unspent_after: i64,
}

/// A model's sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSheet {
    pub id: ModelId,
    pub roster: RosterId,
    pub name: String,
    pub kind: String,
    pub status: Status,
    /// Experience earned in all.
    pub earned: u32,
    /// Experience spent on skills.
    pub spent: u32,
    /// The free +1 on perception rolls per battle survived.
    pub perception: u32,
    /// Skills bought, `(id, times)`, in the order first bought.
    pub skills: Vec<(String, u32)>,
    /// Battles it fought, in order.
    pub battles: Vec<BattleRef>,
    /// Enemies put out of action, where the game counts them per model.
    pub kills: u32,
    pub history: Vec<HistoryLine>,
}

impl ModelSheet {
    /// Experience not spent (negative only when a recomputation took away
    /// points already spent: the purchase is flagged).
    pub fn unspent(&self) -> i64 {
        i64::from(self.earned) - i64::from(self.spent)
    }

    pub fn times(&self, skill: &str) -> u32 {
        self.skills
            .iter()
            .find(|(s, _)| s == skill)
            .map_or(0, |(_, n)| *n)
    }
}

/// A roster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roster {
    pub id: RosterId,
    pub name: String,
    pub faction: String,
    /// Its models, in the order recruited (removed ones are gone).
    pub models: Vec<ModelId>,
}

/// A battle as the campaign sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleLine {
    pub battle: BattleRef,
    pub entry: u32,
    pub fighters: Vec<Fighter>,
    /// Its result, when over (at the head of its current branch).
    pub result: Option<String>,
}

/// Something a recomputation made wrong, for the player to resolve (never
/// silently dropped).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flag {
    pub entry: u32,
    pub model: ModelId,
    pub words: String,
}

/// The campaign as the log and the battles' results make it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignState {
    pub casualties: Casualties,
    pub rosters: Vec<Roster>,
    pub models: Vec<ModelSheet>,
    pub battles: Vec<BattleLine>,
    pub flags: Vec<Flag>,
    /// Entries that no longer count (undone), in the order undone.
    pub undone: Vec<u32>,
    /// The last entry folded.
    pub last: u32,
}

impl CampaignState {
    pub fn model(&self, id: ModelId) -> Option<&ModelSheet> {
        self.models.iter().find(|m| m.id == id)
    }

    fn model_mut(&mut self, id: ModelId) -> Option<&mut ModelSheet> {
        self.models.iter_mut().find(|m| m.id == id)
    }

    pub fn roster(&self, id: RosterId) -> Option<&Roster> {
        self.rosters.iter().find(|r| r.id == id)
    }

    /// The next free roster and model ids.
    pub fn next_roster(&self) -> RosterId {
        self.rosters.iter().map(|r| r.id).max().unwrap_or(0) + 1
    }

    pub fn next_model(&self, log: &[CampaignEntry]) -> ModelId {
        // Never reuse an id, even of a removed or undone model.
        log.iter()
            .filter_map(|e| match e.event {
                CampaignEvent::ModelRecruited { model, .. } => Some(model),
                _ => None,
            })
            .max()
            .unwrap_or(0)
            + 1
    }

    /// The battle that fought with this model last (for "before battle N").
    pub fn fought_in(&self, battle: BattleRef) -> bool {
        self.battles.iter().any(|b| b.battle == battle)
    }
}

/// Why a campaign command is refused, in words, with the rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CampaignError {
    pub message: String,
}

fn refuse(message: impl Into<String>) -> CampaignError {
    CampaignError {
        message: message.into(),
    }
}

/// Longest roster or model name.
pub const MAX_NAME: usize = 60;

fn check_name(what: &str, name: &str) -> Result<(), CampaignError> {
    let n = name.trim();
    if n.is_empty() {
        return Err(refuse(format!("give the {what} a name")));
    }
    if n.chars().count() > MAX_NAME || n.chars().any(char::is_control) {
        return Err(refuse(format!(
            "a {what}'s name is one line of at most {MAX_NAME} characters"
        )));
    }
    Ok(())
}

/// What the campaign needs to know of the game's data: a faction's model
/// types by id (`None`: no such faction), to check rosters against.
pub trait Factions {
    fn kinds(&self, faction: &str) -> Option<Vec<(String, String)>>;
}

/// The shipped Alien Invasion factions.
pub struct ShippedFactions;

impl Factions for ShippedFactions {
    fn kinds(&self, faction: &str) -> Option<Vec<(String, String)>> {
        crate::games::invasion::data::faction(faction).map(|f| {
            f.models
                .iter()
                .map(|m| (m.id.clone(), m.name.clone()))
                .collect()
        })
    }
}

/// Check a new campaign event against the campaign as it stands; `Ok` means
/// it may be appended. A refusal names the rule and changes nothing.
pub fn decide(
    state: &CampaignState,
    log: &[CampaignEntry],
    event: &CampaignEvent,
    table: &[Skill],
    factions: &dyn Factions,
) -> Result<(), CampaignError> {
    use CampaignEvent as C;
    let model = |id: ModelId| {
        state
            .model(id)
            .ok_or_else(|| refuse(format!("there is no model {id} in the campaign")))
    };
    match event {
        C::RosterCreated {
            roster,
            name,
            faction,
        } => {
            check_name("roster", name)?;
            if state.roster(*roster).is_some() {
                return Err(refuse(format!("roster {roster} exists already")));
            }
            if factions.kinds(faction).is_none() {
                return Err(refuse(format!(
                    "there is no Alien Invasion faction '{faction}'"
                )));
            }
        }
        C::RosterRenamed { roster, name } => {
            check_name("roster", name)?;
            if state.roster(*roster).is_none() {
                return Err(refuse(format!("there is no roster {roster}")));
            }
        }
        C::ModelRecruited {
            roster,
            model: id,
            name,
            kind,
        } => {
            check_name("model", name)?;
            let Some(r) = state.roster(*roster) else {
                return Err(refuse(format!("there is no roster {roster}")));
            };
            if log
                .iter()
                .any(|e| matches!(&e.event, C::ModelRecruited { model, .. } if model == id))
            {
                return Err(refuse(format!("model {id} exists already")));
            }
            let kinds = factions.kinds(&r.faction).unwrap_or_default();
            if !kinds.iter().any(|(k, _)| k == kind) {
                let known: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} ({n})")).collect();
                return Err(refuse(format!(
                    "the {} faction has no model type '{kind}' (it has: {})",
                    r.faction,
                    known.join(", ")
                )));
            }
        }
        C::ModelRenamed { model: id, name } => {
            check_name("model", name)?;
            model(*id)?;
        }
        C::ModelRetired { model: id } => {
            let m = model(*id)?;
            if m.status != Status::Fit {
                return Err(refuse(format!("{} is {} already", m.name, m.status.word())));
            }
        }
        C::ModelRemoved { model: id } => {
            let m = model(*id)?;
            if !m.battles.is_empty() {
                return Err(refuse(format!(
                    "{} has fought {} battle{}: retire it instead (its history stays)",
                    m.name,
                    m.battles.len(),
                    if m.battles.len() == 1 { "" } else { "s" }
                )));
            }
        }
        C::SkillBought { model: id, skill } => {
            let m = model(*id)?;
            let Some(s) = table.iter().find(|s| &s.id == skill) else {
                let known: Vec<&str> = table.iter().map(|s| s.id.as_str()).collect();
                return Err(refuse(format!(
                    "there is no skill '{skill}' (there are: {})",
                    known.join(", ")
                )));
            };
            why_not_buy(m, s).map_or(Ok(()), |why| Err(refuse(why)))?;
        }
        C::BattleFought { battle, fighters } => {
            if state.fought_in(*battle) {
                return Err(refuse(format!(
                    "battle {battle} is in the campaign already: experience is never awarded twice for one battle"
                )));
            }
            for (i, f) in fighters.iter().enumerate() {
                let m = model(f.model)?;
                if m.status != Status::Fit {
                    return Err(refuse(format!(
                        "{} is {} and cannot fight",
                        m.name,
                        m.status.word()
                    )));
                }
                if fighters[..i].iter().any(|o| o.model == f.model) {
                    return Err(refuse(format!("{} is listed twice", m.name)));
                }
            }
        }
        C::SettingChanged { .. } => {}
        C::Undone { entry } => {
            if last_undoable(state, log) != Some(*entry) {
                return Err(refuse(match last_undoable(state, log) {
                    Some(e) => format!("only the last entry that counts ({e}) can be undone"),
                    None => "there is nothing to undo".into(),
                }));
            }
        }
        C::Redone { entry } => {
            if state.undone.last() != Some(entry) {
                return Err(refuse("only the entry undone last can be redone"));
            }
        }
    }
    Ok(())
}

/// Why `m` cannot buy `s` now, in the words of the rule; `None`: it can.
pub fn why_not_buy(m: &ModelSheet, s: &Skill) -> Option<String> {
    if m.status != Status::Fit {
        return Some(format!("{} is {}", m.name, m.status.word()));
    }
    let times = m.times(&s.id);
    if times >= s.max {
        return Some(if s.max == 1 {
            format!("{} may be bought once, and {} has it", s.name, m.name)
        } else {
            format!(
                "{} may be chosen a maximum of {} times, and {} has it {times} times",
                s.name, s.max, m.name
            )
        });
    }
    if m.unspent() < i64::from(s.cost) {
        return Some(format!(
            "{} costs {} EP and {} has {} unspent",
            s.name,
            s.cost,
            m.name,
            m.unspent()
        ));
    }
    None
}

/// The entry an undo would take back: the last that counts and is not an
/// undo or redo itself.
pub fn last_undoable(state: &CampaignState, log: &[CampaignEntry]) -> Option<u32> {
    log.iter()
        .rev()
        .filter(|e| {
            !matches!(
                e.event,
                CampaignEvent::Undone { .. } | CampaignEvent::Redone { .. }
            )
        })
        .map(|e| e.id)
        .find(|id| !state.undone.contains(id))
}

/// Fold the log (entries recorded up to `until`, unix seconds; `None`: all)
/// with the battles' current results (`results`: battle to outcome, for the
/// battles that are over). The skills table prices the purchases.
pub fn fold(
    log: &[CampaignEntry],
    results: &dyn Fn(BattleRef) -> Option<Outcome>,
    table: &[Skill],
    until: Option<i64>,
) -> CampaignState {
    let entries: Vec<&CampaignEntry> = log
        .iter()
        .filter(|e| until.is_none_or(|t| e.at <= t))
        .collect();
    // Which entries count: undo and redo toggle them, in order.
    let mut undone: Vec<u32> = Vec::new();
    for e in &entries {
        match e.event {
            CampaignEvent::Undone { entry } => {
                undone.retain(|x| *x != entry);
                undone.push(entry);
            }
            CampaignEvent::Redone { entry } => undone.retain(|x| *x != entry),
            _ => {}
        }
    }
    let mut s = CampaignState {
        undone: undone.clone(),
        last: entries.last().map_or(0, |e| e.id),
        ..CampaignState::default()
    };
    for e in entries {
        if undone.contains(&e.id) {
            continue;
        }
        apply(&mut s, e, results, table);
    }
    s
}

fn apply(
    s: &mut CampaignState,
    e: &CampaignEntry,
    results: &dyn Fn(BattleRef) -> Option<Outcome>,
    table: &[Skill],
) {
    use CampaignEvent as C;
    match &e.event {
        C::RosterCreated {
            roster,
            name,
            faction,
        } => s.rosters.push(Roster {
            id: *roster,
            name: name.trim().to_owned(),
            faction: faction.clone(),
            models: Vec::new(),
        }),
        C::RosterRenamed { roster, name } => {
            if let Some(r) = s.rosters.iter_mut().find(|r| r.id == *roster) {
                r.name = name.trim().to_owned();
            }
        }
        C::ModelRecruited {
            roster,
            model,
            name,
            kind,
        } => {
            if let Some(r) = s.rosters.iter_mut().find(|r| r.id == *roster) {
                r.models.push(*model);
            }
            s.models.push(ModelSheet {
                id: *model,
                roster: *roster,
                name: name.trim().to_owned(),
                kind: kind.clone(),
                status: Status::Fit,
                earned: 0,
                spent: 0,
                perception: 0,
                skills: Vec::new(),
                battles: Vec::new(),
                kills: 0,
                history: vec![HistoryLine {
                    entry: e.id,
                    battle: None,
                    piece: None,
                    what: "recruited with no experience".into(),
                    unspent_before: 0,
                    unspent_after: 0,
                }],
            });
        }
        C::ModelRenamed { model, name } => {
            if let Some(m) = s.model_mut(*model) {
                let was = std::mem::replace(&mut m.name, name.trim().to_owned());
                let u = m.unspent();
                m.history.push(HistoryLine {
                    entry: e.id,
                    battle: None,
                    piece: None,
                    what: format!("renamed from {was}"),
                    unspent_before: u,
                    unspent_after: u,
                });
            }
        }
        C::ModelRetired { model } => {
            if let Some(m) = s.model_mut(*model) {
                m.status = Status::Retired;
                let u = m.unspent();
                m.history.push(HistoryLine {
                    entry: e.id,
                    battle: None,
                    piece: None,
                    what: "retired".into(),
                    unspent_before: u,
                    unspent_after: u,
                });
            }
        }
        C::ModelRemoved { model } => {
            s.models.retain(|m| m.id != *model);
            for r in &mut s.rosters {
                r.models.retain(|m| m != model);
            }
        }
        C::SkillBought { model, skill } => {
            let Some(sk) = table.iter().find(|x| &x.id == skill).cloned() else {
                return;
            };
            let next_battle = format!("entry {}", e.id);
            let Some(m) = s.model_mut(*model) else {
                return;
            };
            // Checked when bought; a recomputation that makes it wrong flags
            // it for the player to resolve and keeps it.
            if let Some(why) = why_not_buy(m, &sk) {
                let words = format!(
                    "{}'s {} (bought at {next_battle}) is now not allowed: {why}",
                    m.name, sk.name
                );
                s.flags.push(Flag {
                    entry: e.id,
                    model: *model,
                    words,
                });
            }
            let Some(m) = s.model_mut(*model) else {
                return;
            };
            let before = m.unspent();
            m.spent += sk.cost;
            match m.skills.iter_mut().find(|(x, _)| x == skill) {
                Some(x) => x.1 += 1,
                None => m.skills.push((skill.clone(), 1)),
            }
            let after = m.unspent();
            m.history.push(HistoryLine {
                entry: e.id,
                battle: None,
                piece: None,
                what: format!("bought {} for {} EP", sk.name, sk.cost),
                unspent_before: before,
                unspent_after: after,
            });
        }
        C::BattleFought { battle, fighters } => {
            let outcome = results(*battle);
            s.battles.push(BattleLine {
                battle: *battle,
                entry: e.id,
                fighters: fighters.clone(),
                result: outcome.as_ref().map(|o| o.summary.clone()),
            });
            let casualties = s.casualties;
            for f in fighters {
                let Some(m) = s.models.iter_mut().find(|m| m.id == f.model) else {
                    continue;
                };
                if m.status != Status::Fit {
                    s.flags.push(Flag {
                        entry: e.id,
                        model: f.model,
                        words: format!(
                            "{} fought in battle {battle} though {}",
                            m.name,
                            m.status.word()
                        ),
                    });
                }
                m.battles.push(*battle);
                let before = m.unspent();
                let line = |what: String, after: i64| HistoryLine {
                    entry: e.id,
                    battle: Some(*battle),
                    piece: Some(f.piece.clone()),
                    what,
                    unspent_before: before,
                    unspent_after: after,
                };
                let Some(o) = &outcome else {
                    m.history.push(line(
                        format!("fighting in battle {battle} (not over yet)"),
                        before,
                    ));
                    continue;
                };
                let piece = o.pieces.iter().find(|p| p.id == f.piece);
                if let Some(k) = piece.and_then(|p| p.kills) {
                    m.kills += k;
                }
                match piece.map(|p| p.fate) {
                    Some(Fate::Survived | Fate::Escaped) => {
                        m.earned += 1;
                        m.perception += 1;
                        let after = m.unspent();
                        m.history.push(line(
                            format!("survived battle {battle}: +1 EP, +1 perception"),
                            after,
                        ));
                    }
                    Some(Fate::Killed) => match casualties {
                        Casualties::Dead => {
                            m.status = Status::Dead;
                            m.history
                                .push(line(format!("killed in battle {battle}"), before));
                        }
                        Casualties::Return => m.history.push(line(
                            format!("killed in battle {battle}: back for the next battle, no EP"),
                            before,
                        )),
                    },
                    Some(Fate::NotDeployed) => m
                        .history
                        .push(line(format!("held back in battle {battle}: no EP"), before)),
                    None => m.history.push(line(
                        format!("not in the result of battle {battle}: no EP"),
                        before,
                    )),
                }
            }
        }
        C::SettingChanged { casualties } => s.casualties = *casualties,
        C::Undone { .. } | C::Redone { .. } => {}
    }
}

/// What a recomputation changed, model by model, in words ("Private Yates
/// no longer survived battle 4: -1 EP, -1 perception; now dead").
pub fn changes(before: &CampaignState, after: &CampaignState) -> Vec<String> {
    let mut out = Vec::new();
    for m in &after.models {
        let Some(b) = before.model(m.id) else {
            continue;
        };
        let mut parts = Vec::new();
        let de = i64::from(m.earned) - i64::from(b.earned);
        if de != 0 {
            parts.push(format!("{de:+} EP"));
        }
        let dp = i64::from(m.perception) - i64::from(b.perception);
        if dp != 0 {
            parts.push(format!("{dp:+} perception"));
        }
        if m.status != b.status {
            parts.push(format!("now {}", m.status.word()));
        }
        let dk = i64::from(m.kills) - i64::from(b.kills);
        if dk != 0 {
            parts.push(format!("{dk:+} kills"));
        }
        // Which battles' lines changed.
        let lines = |x: &ModelSheet| -> Vec<(BattleRef, String)> {
            x.history
                .iter()
                .filter_map(|h| h.battle.map(|bt| (bt, h.what.clone())))
                .collect()
        };
        let (lb, la) = (lines(b), lines(m));
        let mut why = Vec::new();
        for (bt, w) in &la {
            let was = lb.iter().find(|(x, _)| x == bt).map(|(_, w)| w.clone());
            if was.as_deref() != Some(w.as_str()) {
                why.push(match was {
                    Some(was) => format!("{} (was: {})", w, was),
                    None => w.clone(),
                });
            }
        }
        if !parts.is_empty() || !why.is_empty() {
            let mut line = format!("{}: {}", m.name, parts.join(", "));
            if !why.is_empty() {
                if !parts.is_empty() {
                    line.push_str("; ");
                }
                line.push_str(&why.join("; "));
            }
            out.push(line);
        }
    }
    for f in &after.flags {
        if !before.flags.contains(f) {
            out.push(format!("to resolve: {}", f.words));
        }
    }
    for f in &before.flags {
        if !after.flags.contains(f) {
            out.push(format!("resolved: {}", f.words));
        }
    }
    out
}
