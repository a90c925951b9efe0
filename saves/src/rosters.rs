//! The campaign layer on disk: the campaign log (rosters, models, skills,
//! battles fought with roster models), its undo and redo, the campaign state
//! folded from it and from each battle's result, and battles started from
//! rosters.
//!
//! Nothing derived is stored as a value. `campaign_log` holds the events
//! (migration `*_campaign.sql`), and the state is always
//! [`xenolog_engine::campaign::fold`]ed from them and from each battle's
//! result **at the head of its current branch** (not at its cursor: scrubbing
//! back through a finished battle changes nothing, while switching branches,
//! or undoing and then playing on, does). `campaign_results` caches those
//! results, keyed by the battle's current branch and number of entries
//! (entries are append-only, so the pair fixes the head), and doubles as the
//! campaign as last read: [`Campaign::campaign_recompute`] says in words what
//! a battle taken back or switched changed since. `verify` recomputes every
//! cached result.

use std::collections::HashMap;

use serde_json::Value;
use xenolog_engine::Outcome;
use xenolog_engine::campaign::skills::{self, Skill};
use xenolog_engine::campaign::{
    BattleRef, CampaignEntry, CampaignError, CampaignEvent, CampaignState, Fighter, ModelId,
    RosterId, ShippedFactions, Status, changes, decide, fold, last_undoable,
};
use xenolog_engine::games;
use xenolog_engine::games::invasion::{InvasionConfig, RosterFighter, SeatRoster};
use xenolog_schema::DiceMode;

use crate::battles::insert_fresh;
use crate::campaign::now;
use crate::db::{Begin, Db, DbError, DbExt, Row};
use crate::{BattleId, BattleNames, Campaign, SaveError};

/// Each campaign battle's result (`None`: not over, or gone).
type Results = HashMap<BattleRef, Option<Outcome>>;

/// Why a campaign command did not happen: a rule refused it (nothing was
/// written), or the store failed.
#[derive(Debug, thiserror::Error)]
pub enum CampaignFail {
    /// The campaign's rules refuse it, in words (exit code 1).
    #[error("{0}")]
    Refused(#[from] CampaignError),
    /// The battle cannot be set up that way (exit code 2).
    #[error("{0}")]
    Setup(String),
    #[error("{0}")]
    Save(#[from] SaveError),
}

impl From<DbError> for CampaignFail {
    fn from(e: DbError) -> Self {
        CampaignFail::Save(e.into())
    }
}

/// A refusal whose words name the battles they number.
fn named(names: &BattleNames, e: CampaignError) -> CampaignFail {
    CampaignFail::Refused(CampaignError {
        message: names.words(&e.message),
    })
}

fn refused(words: impl Into<String>) -> CampaignFail {
    CampaignFail::Refused(CampaignError {
        message: words.into(),
    })
}

/// Where a roster battle's seed comes from.
enum Seeded<'a> {
    /// A seed of its own (a local battle).
    Plain(u64),
    /// A club battle's: the server's secret and every seat's nonce.
    Fair(
        &'a xenolog_engine::fair::Bytes32,
        Vec<xenolog_engine::fair::SeatNonce>,
    ),
}

/// The models one seat fields in a battle started from rosters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPick {
    /// The seat (0, 1, ...), as in the game's factions.
    pub seat: u8,
    pub roster: RosterId,
    pub models: Vec<ModelId>,
}

/// The campaign recomputed, and what that changed since it was last read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recomputed {
    pub state: CampaignState,
    /// In words, model by model (empty: nothing changed).
    pub changes: Vec<String>,
}

/// What `verify` found in the campaign layer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CampaignReport {
    pub entries: usize,
    pub battles: usize,
    pub models: usize,
    /// Things that are wrong (the campaign fails verification).
    pub problems: Vec<String>,
    /// Purchases a recomputation made wrong, for the players to resolve
    /// (listed, not failures).
    pub flags: Vec<String>,
}

impl CampaignReport {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The skills table every campaign prices with.
pub fn skill_table() -> Vec<Skill> {
    skills::shipped()
}

/// A campaign event in words, with the names the state knows and the
/// battles by their names.
pub fn describe(event: &CampaignEvent, state: &CampaignState, battles: &BattleNames) -> String {
    use CampaignEvent as C;
    let model = |id: &ModelId| {
        state
            .model(*id)
            .map_or_else(|| format!("model {id}"), |m| m.name.clone())
    };
    let roster = |id: &RosterId| {
        state
            .roster(*id)
            .map_or_else(|| format!("roster {id}"), |r| r.name.clone())
    };
    match event {
        C::RosterCreated { name, faction, .. } => {
            format!("roster {name} raised ({})", faction_name(faction))
        }
        C::RosterRenamed { roster: r, name } => format!("{} renamed {name}", roster(r)),
        C::ModelRecruited {
            roster: r,
            name,
            kind,
            ..
        } => format!("{name} ({kind}) recruited into {}", roster(r)),
        C::ModelRenamed { model: m, name } => format!("{} renamed {name}", model(m)),
        C::ModelRetired { model: m } => format!("{} retired", model(m)),
        C::ModelRemoved { model: m } => format!("{} removed", model(m)),
        C::SkillBought { model: m, skill } => {
            let name = skills::skill(skill).map_or_else(|| skill.clone(), |s| s.name);
            format!("{} bought {name}", model(m))
        }
        C::BattleFought { battle, fighters } => {
            let names: Vec<String> = fighters.iter().map(|f| model(&f.model)).collect();
            format!("{} fought by {}", battles.name(*battle), names.join(", "))
        }
        C::SettingChanged { casualties } => format!(
            "casualties: {}",
            match casualties {
                xenolog_engine::campaign::Casualties::Dead => "dead and gone",
                xenolog_engine::campaign::Casualties::Return => "back for the next battle",
            }
        ),
        C::Undone { entry } => format!("entry {entry} undone"),
        C::Redone { entry } => format!("entry {entry} redone"),
    }
}

/// A faction's name from the shipped data (its id when unknown).
pub fn faction_name(id: &str) -> String {
    games::invasion::data::faction(id).map_or_else(|| id.to_owned(), |f| f.name.clone())
}

/// A model type's name in a faction (its id when unknown).
pub fn kind_name(faction: &str, kind: &str) -> String {
    games::invasion::data::faction(faction)
        .and_then(|f| {
            f.models
                .iter()
                .find(|m| m.id == kind)
                .map(|m| m.name.clone())
        })
        .unwrap_or_else(|| kind.to_owned())
}

/// A battle's current branch and number of entries: the key of its cached
/// result.
fn battle_key(conn: &dyn Db, id: BattleId) -> Result<Option<(u32, i64)>, SaveError> {
    let branch: Option<u32> =
        conn.row("SELECT branch FROM battles WHERE id = ?1", &[&id], |r| {
            r.get(0)
        })?;
    let Some(branch) = branch else {
        return Ok(None);
    };
    // The head, from the tail and the blocks; a damaged file may number an
    // entry up to i64::MAX: never overflow (`blocks::count_from`).
    let count = crate::blocks::entry_count(conn, id)?;
    Ok(Some((branch, i64::try_from(count).unwrap_or(i64::MAX))))
}

/// A campaign log entry from a row of `id, at, event`.
fn log_entry(r: &Row<'_>) -> Result<CampaignEntry, SaveError> {
    let id: u32 = r.get(0)?;
    let text: String = r.get(2)?;
    let event = serde_json::from_str(&text)
        .map_err(|e| SaveError::Sql(format!("campaign log entry {id} cannot be read: {e}")))?;
    Ok(CampaignEntry {
        id,
        at: r.get(1)?,
        event,
    })
}

/// The cached result of a battle: its key and outcome.
type Cached = ((u32, i64), Option<Outcome>);

impl Campaign {
    /// The campaign log, oldest first.
    pub fn campaign_log(&self) -> Result<Vec<CampaignEntry>, SaveError> {
        self.conn.rows(
            "SELECT id, at, event FROM campaign_log ORDER BY id",
            &[],
            log_entry,
        )
    }

    /// The campaign log with each entry's key across copies (migration 7),
    /// oldest first.
    pub fn campaign_log_keyed(&self) -> Result<Vec<(CampaignEntry, EntryKey)>, SaveError> {
        self.conn.rows(
            "SELECT id, at, event, origin, origin_id FROM campaign_log ORDER BY id",
            &[],
            |r| {
                let key = EntryKey {
                    origin: r.get(3)?,
                    number: r.get(4)?,
                };
                Ok((log_entry(r)?, key))
            },
        )
    }

    /// Where an entry of this key is in this file, in words ("entry 7",
    /// "set aside as a conflict"); `None`: nowhere.
    pub(crate) fn entry_with_key(&self, key: &EntryKey) -> Result<Option<String>, SaveError> {
        let id: Option<u32> = self.conn.row(
            "SELECT id FROM campaign_log WHERE origin = ?1 AND origin_id = ?2",
            &[&key.origin, &key.number],
            |r| r.get(0),
        )?;
        if let Some(id) = id {
            return Ok(Some(format!("campaign log entry {id}")));
        }
        let conflict: Option<u32> = self.conn.row(
            "SELECT id FROM campaign_conflicts WHERE origin = ?1 AND origin_id = ?2",
            &[&key.origin, &key.number],
            |r| r.get(0),
        )?;
        Ok(conflict.map(|c| format!("set aside as conflict {c}")))
    }

    /// A battle's result at the head of its current branch (`None`: not
    /// over there, or no such battle), read from the battle itself.
    pub fn head_result(&self, id: BattleId) -> Result<Option<Outcome>, SaveError> {
        if battle_key(&self.conn, id)?.is_none() {
            return Ok(None);
        }
        let mut b = self.load_battle(id)?;
        let head = b.head(b.current_branch());
        if b.cursor() != head {
            b.seek(head);
        }
        Ok(b.outcome())
    }

    fn cached_result(&self, id: BattleId) -> Result<Option<Cached>, SaveError> {
        let row: Option<(u32, i64, Option<String>)> = self.conn.row(
            "SELECT branch, entries, outcome FROM campaign_results WHERE battle = ?1",
            &[&id],
            |r| Ok::<_, DbError>((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        Ok(row.map(|(b, n, o)| ((b, n), o.and_then(|t| serde_json::from_str(&t).ok()))))
    }

    /// Every battle the log names: its current result and the result the
    /// campaign last read (the cache), refreshing the cache when writable.
    fn results(&self, log: &[CampaignEntry]) -> Result<(Results, Results), SaveError> {
        let mut now_ = HashMap::new();
        let mut was = HashMap::new();
        for e in log {
            let CampaignEvent::BattleFought { battle, .. } = &e.event else {
                continue;
            };
            if now_.contains_key(battle) {
                continue;
            }
            let Some(key) = battle_key(&self.conn, *battle)? else {
                now_.insert(*battle, None);
                continue;
            };
            let cached = self.cached_result(*battle)?;
            let current = match &cached {
                Some((k, o)) if *k == key => o.clone(),
                _ => {
                    let o = self.head_result(*battle)?;
                    if !self.is_read_only() {
                        let text = o.as_ref().and_then(|o| serde_json::to_string(o).ok());
                        self.conn.execute(
                            "INSERT OR REPLACE INTO campaign_results (battle, branch, entries, outcome)
                                 VALUES (?1, ?2, ?3, ?4)",
                            &[battle, &key.0, &key.1, &text],
                        )?;
                    }
                    o
                }
            };
            was.insert(*battle, cached.map_or_else(|| current.clone(), |(_, o)| o));
            now_.insert(*battle, current);
        }
        Ok((now_, was))
    }

    /// The campaign as it stands: the log folded with every battle's result
    /// at the head of its current branch.
    pub fn campaign_state(&self) -> Result<CampaignState, SaveError> {
        Ok(self.campaign_recompute()?.state)
    }

    /// The campaign as it stood at `until` (unix seconds): the entries
    /// recorded by then, with the battles' current results.
    pub fn campaign_state_at(&self, until: i64) -> Result<CampaignState, SaveError> {
        let log = self.campaign_log()?;
        let (now_, _) = self.results(&log)?;
        let mut state = fold(
            &log,
            &|b| now_.get(&b).cloned().flatten(),
            &skill_table(),
            Some(until),
        );
        self.battle_names()?.name_state(&mut state);
        Ok(state)
    }

    /// The campaign recomputed, and what changed since it was last read (a
    /// battle's branch switched, or a turn taken back and another played):
    /// "Private Yates: -1 EP, -1 perception, now dead; ...". Reading it
    /// marks it read (when the file is open for writing).
    pub fn campaign_recompute(&self) -> Result<Recomputed, SaveError> {
        let log = self.campaign_log()?;
        let (now_, was) = self.results(&log)?;
        let table = skill_table();
        let state = fold(&log, &|b| now_.get(&b).cloned().flatten(), &table, None);
        let changed = if now_ == was {
            Vec::new()
        } else {
            let before = fold(&log, &|b| was.get(&b).cloned().flatten(), &table, None);
            changes(&before, &state)
        };
        let mut r = Recomputed {
            state,
            changes: changed,
        };
        // The battles by their names, for every face (issue 28).
        self.battle_names()?.name_recomputed(&mut r);
        Ok(r)
    }

    /// Append a campaign event, decided against the campaign as it stands
    /// first: a refusal writes nothing. Returns the new entry's id.
    pub fn record(&mut self, event: CampaignEvent) -> Result<u32, CampaignFail> {
        self.writable()?;
        let log = self.campaign_log()?;
        let state = self.campaign_state()?;
        let names = self.battle_names()?;
        decide(&state, &log, &event, &skill_table(), &ShippedFactions)
            .map_err(|e| named(&names, e))?;
        let origin = self.origin()?;
        let tx = self.conn.begin(Begin::Immediate)?;
        let id = append(&tx, &origin, &event)?;
        tx.commit()?;
        Ok(id)
    }

    /// Append several campaign events in one transaction, each decided
    /// against the campaign as the ones before it leave it: all or nothing.
    pub fn record_all(&mut self, events: &[CampaignEvent]) -> Result<Vec<u32>, CampaignFail> {
        self.writable()?;
        let mut log = self.campaign_log()?;
        let (now_, _) = self.results(&log)?;
        let table = skill_table();
        let names = self.battle_names()?;
        let origin = self.origin()?;
        let tx = self.conn.begin(Begin::Immediate)?;
        let mut ids = Vec::new();
        for event in events {
            let state = fold(&log, &|b| now_.get(&b).cloned().flatten(), &table, None);
            decide(&state, &log, event, &table, &ShippedFactions).map_err(|e| named(&names, e))?;
            let id = append(&tx, &origin, event)?;
            log.push(CampaignEntry {
                id,
                at: now(),
                event: event.clone(),
            });
            ids.push(id);
        }
        tx.commit()?;
        Ok(ids)
    }

    /// Raise a roster; returns its id.
    pub fn add_roster(&mut self, name: &str, faction: &str) -> Result<RosterId, CampaignFail> {
        let roster = self.campaign_state()?.next_roster();
        self.record(CampaignEvent::RosterCreated {
            roster,
            name: name.to_owned(),
            faction: faction.to_owned(),
        })?;
        Ok(roster)
    }

    /// Recruit a model with no experience; returns its id.
    pub fn add_model(
        &mut self,
        roster: RosterId,
        name: &str,
        kind: &str,
    ) -> Result<ModelId, CampaignFail> {
        let log = self.campaign_log()?;
        let model = self.campaign_state()?.next_model(&log);
        self.record(CampaignEvent::ModelRecruited {
            roster,
            model,
            name: name.to_owned(),
            kind: kind.to_owned(),
        })?;
        Ok(model)
    }

    /// Undo the last campaign entry that counts; returns (the undo's entry,
    /// the entry taken back).
    pub fn campaign_undo(&mut self) -> Result<(u32, u32), CampaignFail> {
        let log = self.campaign_log()?;
        let state = self.campaign_state()?;
        let entry =
            last_undoable(&state, &log).ok_or_else(|| refused("there is nothing to undo"))?;
        Ok((self.record(CampaignEvent::Undone { entry })?, entry))
    }

    /// Redo the entry undone last; returns (the redo's entry, the entry).
    pub fn campaign_redo(&mut self) -> Result<(u32, u32), CampaignFail> {
        let state = self.campaign_state()?;
        let entry = *state
            .undone
            .last()
            .ok_or_else(|| refused("there is nothing to redo"))?;
        Ok((self.record(CampaignEvent::Redone { entry })?, entry))
    }

    /// Start an Alien Invasion battle with roster models: each pick puts a
    /// roster's models (with their skills as they stand) on its seat, and
    /// the campaign's "battle fought with these models" entry is written in
    /// the same transaction as the battle. `config` is the rest of the
    /// battle's config (scenario, factions...).
    pub fn new_roster_battle(
        &mut self,
        seed: u64,
        config: &Value,
        picks: &[SeatPick],
        title: &str,
        dice_mode: DiceMode,
        strict: bool,
    ) -> Result<BattleId, CampaignFail> {
        self.roster_battle(Seeded::Plain(seed), config, picks, title, dice_mode, strict)
    }

    /// [`Campaign::new_roster_battle`] for a club server: the battle's seed
    /// comes from the server's `secret` and every seat's nonce (as
    /// [`Campaign::new_club_battle`]), and the battle, its held secret and
    /// the campaign's "battle fought with these models" entry are written
    /// in one transaction. Its result and experience then come into the
    /// campaign's fold when it ends, as a local roster battle's do.
    #[allow(clippy::too_many_arguments)]
    pub fn new_club_roster_battle(
        &mut self,
        config: &Value,
        picks: &[SeatPick],
        title: &str,
        dice_mode: DiceMode,
        strict: bool,
        secret: &xenolog_engine::fair::Bytes32,
        nonces: Vec<xenolog_engine::fair::SeatNonce>,
    ) -> Result<BattleId, CampaignFail> {
        let seeded = Seeded::Fair(secret, nonces);
        self.roster_battle(seeded, config, picks, title, dice_mode, strict)
    }

    /// Whether a roster battle with these picks can be set up now (the
    /// rosters, factions and fit models as the campaign stands): the club
    /// server asks when the battle is created, long before it starts.
    pub fn check_roster_picks(
        &self,
        config: &Value,
        picks: &[SeatPick],
    ) -> Result<(), CampaignFail> {
        self.roster_setup(config, picks).map(|_| ())
    }

    /// The battle's config with each pick's fighters, and their pieces.
    #[allow(clippy::type_complexity)]
    fn roster_setup(
        &self,
        config: &Value,
        picks: &[SeatPick],
    ) -> Result<(Value, Vec<(u32, String)>, CampaignState, Vec<CampaignEntry>), CampaignFail> {
        let mut cfg: InvasionConfig = serde_json::from_value(config.clone())
            .map_err(|e| CampaignFail::Setup(format!("the battle's config is not valid: {e}")))?;
        let log = self.campaign_log()?;
        let state = self.campaign_state()?;
        let scenario = games::invasion::scenario_of(&cfg).map_err(|e| CampaignFail::Setup(e.0))?;
        let factions =
            games::invasion::factions_of(&cfg, &scenario).map_err(|e| CampaignFail::Setup(e.0))?;
        cfg.rosters.clear();
        for p in picks {
            let Some(r) = state.roster(p.roster) else {
                return Err(refused(format!("there is no roster {}", p.roster)));
            };
            let Some(f) = factions.get(usize::from(p.seat)) else {
                return Err(CampaignFail::Setup(format!(
                    "this battle has {} seats (1 to {}), not seat {}",
                    factions.len(),
                    factions.len(),
                    u16::from(p.seat) + 1
                )));
            };
            if f.id != r.faction {
                return Err(refused(format!(
                    "{} is a {} roster, and seat {} plays {}",
                    r.name,
                    faction_name(&r.faction),
                    u16::from(p.seat) + 1,
                    f.name
                )));
            }
            if cfg.rosters.iter().any(|x| x.roster == p.roster) {
                return Err(refused(format!("{} is picked for two seats", r.name)));
            }
            if p.models.is_empty() {
                return Err(refused(format!("pick at least one model of {}", r.name)));
            }
            let mut fighters = Vec::new();
            for m in &p.models {
                let Some(sheet) = state.model(*m).filter(|s| s.roster == p.roster) else {
                    return Err(refused(format!("{} has no model {m}", r.name)));
                };
                if sheet.status != Status::Fit {
                    return Err(refused(format!(
                        "{} is {} and cannot fight",
                        sheet.name,
                        sheet.status.word()
                    )));
                }
                fighters.push(RosterFighter {
                    model: *m,
                    name: sheet.name.clone(),
                    kind: sheet.kind.clone(),
                    skills: sheet.skills.clone(),
                    perception: sheet.perception,
                });
            }
            cfg.rosters.push(SeatRoster {
                seat: p.seat,
                roster: p.roster,
                fighters,
            });
        }
        let pieces = games::invasion::roster_pieces(&cfg).map_err(|e| CampaignFail::Setup(e.0))?;
        let config = serde_json::to_value(&cfg)
            .map_err(|e| CampaignFail::Setup(format!("the battle's config: {e}")))?;
        Ok((config, pieces, state, log))
    }

    fn roster_battle(
        &mut self,
        seeded: Seeded<'_>,
        config: &Value,
        picks: &[SeatPick],
        title: &str,
        dice_mode: DiceMode,
        strict: bool,
    ) -> Result<BattleId, CampaignFail> {
        self.writable()?;
        let (config, pieces, state, log) = self.roster_setup(config, picks)?;
        let (battle, held) = match seeded {
            Seeded::Plain(seed) => (
                games::new_battle_with("invasion", seed, &config, strict)
                    .map_err(SaveError::from)?,
                None,
            ),
            Seeded::Fair(secret, nonces) => (
                crate::fair::sealed_battle("invasion", &config, strict, secret, nonces)?,
                Some(secret),
            ),
        };
        let title = match title.trim() {
            "" => battle.game_name(),
            t => t,
        };
        let origin = self.origin()?;
        let tx = self.conn.begin(Begin::Immediate)?;
        let id = insert_fresh(&tx, &*battle, title, dice_mode)?;
        if let Some(secret) = held {
            tx.execute(
                "UPDATE fair_seeds SET secret = ?2 WHERE battle = ?1",
                &[&id, &&secret[..]],
            )?;
        }
        let event = CampaignEvent::BattleFought {
            battle: id,
            fighters: pieces
                .into_iter()
                .map(|(model, piece)| Fighter { model, piece })
                .collect(),
        };
        // Dropping the transaction on a refusal rolls the battle back too.
        decide(&state, &log, &event, &skill_table(), &ShippedFactions)?;
        append(&tx, &origin, &event)?;
        tx.commit()?;
        if battle.due_step().is_some() {
            let mut b = self.load_battle(id)?;
            self.play_due(id, &mut *b)?;
        }
        Ok(id)
    }

    /// Check the campaign layer: every log entry reads, the fold succeeds,
    /// every battle fought exists, every cached result is what the battle
    /// says now; the flags are listed.
    pub fn verify_campaign(&self) -> Result<CampaignReport, SaveError> {
        let mut report = CampaignReport::default();
        let mut log = Vec::new();
        {
            let mut expect = 1u32;
            self.conn.each(
                "SELECT id, at, event FROM campaign_log ORDER BY id",
                &[],
                |r| {
                    let id: u32 = r.get(0)?;
                    if id != expect {
                        report
                            .problems
                            .push(format!("campaign log entry {expect} is missing"));
                    }
                    // A damaged log may number an entry u32::MAX: never overflow.
                    expect = id.saturating_add(1);
                    let text: String = r.get(2)?;
                    match serde_json::from_str::<CampaignEvent>(&text) {
                        Ok(event) => log.push(CampaignEntry {
                            id,
                            at: r.get(1)?,
                            event,
                        }),
                        Err(e) => report
                            .problems
                            .push(format!("campaign log entry {id} cannot be read: {e}")),
                    }
                    Ok::<(), DbError>(())
                },
            )?;
        }
        report.entries = log.len();
        let mut results = HashMap::new();
        for e in &log {
            let CampaignEvent::BattleFought { battle, .. } = &e.event else {
                continue;
            };
            if results.contains_key(battle) {
                report.problems.push(format!(
                    "battle {battle} is in the campaign log twice (entry {})",
                    e.id
                ));
                continue;
            }
            let Some(key) = battle_key(&self.conn, *battle)? else {
                report.problems.push(format!(
                    "campaign log entry {} names battle {battle}, which is not in the campaign",
                    e.id
                ));
                results.insert(*battle, None);
                continue;
            };
            let o = match self.head_result(*battle) {
                Ok(o) => o,
                Err(err) => {
                    report
                        .problems
                        .push(format!("battle {battle} cannot be read: {err}"));
                    None
                }
            };
            if let Some((k, cached)) = self.cached_result(*battle)?
                && k == key
                && cached != o
            {
                report.problems.push(format!(
                    "the cached result of battle {battle} is not what the battle says"
                ));
            }
            results.insert(*battle, o);
        }
        let state = fold(
            &log,
            &|b| results.get(&b).cloned().flatten(),
            &skill_table(),
            None,
        );
        report.battles = state.battles.len();
        report.models = state.models.len();
        let names = self.battle_names()?;
        report.flags = state.flags.iter().map(|f| names.words(&f.words)).collect();
        Ok(report)
    }
}

/// A campaign log entry's identity across copies of the campaign (migration
/// 7): the origin that wrote it and its number there. Its `id` in a file is
/// only its place in that file's log.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntryKey {
    pub origin: String,
    pub number: u32,
}

/// Append an event in the open transaction, written by this open's
/// `origin` now; returns its entry id.
pub(crate) fn append(tx: &dyn Db, origin: &str, event: &CampaignEvent) -> Result<u32, SaveError> {
    let number: u32 = tx.one(
        "SELECT MAX(COALESCE((SELECT MAX(origin_id) FROM campaign_log WHERE origin = ?1), 0),
                        COALESCE((SELECT MAX(origin_id) FROM campaign_conflicts WHERE origin = ?1), 0)) + 1",
        &[&origin],
    )?;
    let key = EntryKey {
        origin: origin.to_owned(),
        number,
    };
    append_as(tx, &key, now(), event)
}

/// Append an event under its own key and time (an entry of another copy);
/// returns its entry id here.
pub(crate) fn append_as(
    tx: &dyn Db,
    key: &EntryKey,
    at: i64,
    event: &CampaignEvent,
) -> Result<u32, SaveError> {
    let text = serde_json::to_string(event)
        .map_err(|e| SaveError::Sql(format!("a campaign event cannot be written: {e}")))?;
    let next: u32 = tx.one("SELECT COALESCE(MAX(id), 0) + 1 FROM campaign_log", &[])?;
    tx.execute(
        "INSERT INTO campaign_log (id, at, event, origin, origin_id) VALUES (?1, ?2, ?3, ?4, ?5)",
        &[&next, &at, &text, &key.origin, &key.number],
    )?;
    Ok(next)
}
