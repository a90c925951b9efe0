//! The SQLite store's take-backs and shared campaign (step S7, DESIGN.md
//! sections 9 and 10): the club file holds the battle option and the roster
//! owners (migration 4); the campaign file, through its writer thread, the
//! battle's cursor and the campaign log.

use xenolog_engine::EntryId;
use xenolog_engine::campaign::{CampaignEvent, CampaignState, RosterId};
use xenolog_saves::db::{DbError, DbExt};
use xenolog_saves::{BattleNames, Campaign, CampaignFail, describe};

use super::{Club, now};
use crate::store::table::{
    CampaignLog, EditRefused, Edited, Editor, LogLine, TableStore, TakebackRules,
};
use crate::store::{CampaignId, ClubError, ServerBattleId, TokenId};

/// At most this many entries that came first are named in a refusal.
const NAMED: usize = 3;

impl Club {
    fn campaign_fail(&self, campaign: CampaignId, why: String) -> ClubError {
        ClubError::Campaign {
            file: format!("campaign {campaign}"),
            why,
        }
    }

    fn owners(&self, campaign: CampaignId) -> Result<Vec<(RosterId, TokenId)>, ClubError> {
        let conn = self.conn()?;
        let mut out = Vec::new();
        conn.each(
            "SELECT roster, token FROM roster_owners WHERE campaign = ?1 ORDER BY roster, token",
            &[&campaign],
            |r| {
                out.push((r.get(0)?, r.get(1)?));
                Ok::<(), DbError>(())
            },
        )
        .map_err(|e| self.sql(e))?;
        Ok(out)
    }
}

/// Log entries in words.
fn lines(
    log: &[xenolog_engine::campaign::CampaignEntry],
    state: &CampaignState,
    names: &BattleNames,
) -> Vec<LogLine> {
    log.iter()
        .map(|e| LogLine {
            id: e.id,
            at: e.at,
            event: e.event.clone(),
            words: describe(&e.event, state, names),
        })
        .collect()
}

/// Whether a player owning `owned` may record `event` at `state` (section
/// 10: a player buys skills and recruits only for rosters granted to them;
/// the organiser records battles, results and settings).
fn player_may(
    event: &CampaignEvent,
    state: &CampaignState,
    owned: &[RosterId],
) -> Result<(), String> {
    use CampaignEvent as C;
    let roster_words = |r: RosterId| {
        state.roster(r).map_or_else(
            || format!("roster {r}"),
            |x| format!("roster {r} ({})", x.name),
        )
    };
    let yours = || match owned {
        [] => "you own no roster of this campaign (the organiser grants rosters)".to_owned(),
        rs => format!(
            "your token may edit roster {}",
            rs.iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        ),
    };
    let roster = match event {
        C::RosterRenamed { roster, .. } | C::ModelRecruited { roster, .. } => Some(*roster),
        C::ModelRenamed { model, .. }
        | C::ModelRetired { model }
        | C::SkillBought { model, .. } => match state.model(*model) {
            Some(m) => Some(m.roster),
            // No such model: the campaign's rules say so in their words.
            None => return Ok(()),
        },
        _ => None,
    };
    match roster {
        Some(r) if owned.contains(&r) => Ok(()),
        Some(r) => Err(format!(
            "{} is not yours to edit: {}",
            roster_words(r),
            yours()
        )),
        None => Err(
            "only the organiser raises rosters, removes models, records battles and settings, and undoes entries in a shared campaign"
                .to_owned(),
        ),
    }
}

/// The event with a fresh id where the server numbers it: a roster raised
/// or a model recruited gets the next free id at the head, so two recruits
/// made at once both land.
fn numbered(event: CampaignEvent, c: &Campaign) -> Result<CampaignEvent, xenolog_saves::SaveError> {
    use CampaignEvent as C;
    Ok(match event {
        C::RosterCreated { name, faction, .. } => C::RosterCreated {
            roster: c.campaign_state()?.next_roster(),
            name,
            faction,
        },
        C::ModelRecruited {
            roster, name, kind, ..
        } => {
            let log = c.campaign_log()?;
            C::ModelRecruited {
                roster,
                model: c.campaign_state()?.next_model(&log),
                name,
                kind,
            }
        }
        other => other,
    })
}

/// One edit on the writer thread: the grant and the rules at the head.
fn edit_at_head(
    c: &mut Campaign,
    after: u32,
    event: CampaignEvent,
    owned: Option<Vec<RosterId>>,
) -> Result<Result<Edited, EditRefused>, xenolog_saves::SaveError> {
    let state = c.campaign_state()?;
    if let Some(owned) = &owned
        && let Err(why) = player_may(&event, &state, owned)
    {
        return Ok(Err(EditRefused::Forbidden(why)));
    }
    let event = numbered(event, c)?;
    let names = c.battle_names()?;
    let log = c.campaign_log()?;
    let came: Vec<LogLine> = lines(
        &log.iter()
            .filter(|e| e.id > after)
            .cloned()
            .collect::<Vec<_>>(),
        &state,
        &names,
    );
    match c.record(event) {
        Ok(id) => {
            let log = c.campaign_log()?;
            let state = c.campaign_state()?;
            let entry = log
                .iter()
                .filter(|e| e.id == id)
                .cloned()
                .collect::<Vec<_>>();
            let entry = lines(&entry, &state, &names).pop().ok_or_else(|| {
                xenolog_saves::SaveError::Sql(format!("campaign log entry {id} is not there"))
            })?;
            Ok(Ok(Edited {
                entry,
                before_it: came,
            }))
        }
        Err(CampaignFail::Refused(e)) => {
            let mut words = e.message;
            if !came.is_empty() {
                let first: Vec<String> = came
                    .iter()
                    .rev()
                    .take(NAMED)
                    .rev()
                    .map(|l| format!("entry {} ({})", l.id, l.words))
                    .collect();
                words = format!(
                    "{words}. Since entry {after}, the last you saw, {} came first",
                    first.join(", ")
                );
            }
            Ok(Err(EditRefused::Rule(words)))
        }
        Err(CampaignFail::Setup(why)) => Ok(Err(EditRefused::Rule(why))),
        Err(CampaignFail::Save(e)) => Err(e),
    }
}

impl TableStore for Club {
    fn takeback_rules(&self, battle: ServerBattleId) -> Result<TakebackRules, ClubError> {
        let conn = self.conn()?;
        conn.row(
            "SELECT strict, friendly_takebacks FROM server_battles WHERE id = ?1",
            &[&battle],
            |r| {
                Ok::<_, DbError>(TakebackRules {
                    strict: r.get(0)?,
                    friendly: r.get(1)?,
                })
            },
        )
        .map_err(|e| self.sql(e))?
        .ok_or(ClubError::NoSuchBattle(battle))
    }

    fn set_friendly_takebacks(&self, battle: ServerBattleId, on: bool) -> Result<(), ClubError> {
        let conn = self.conn()?;
        let n = conn
            .execute(
                "UPDATE server_battles SET friendly_takebacks = ?2 WHERE id = ?1",
                &[&battle, &on],
            )
            .map_err(|e| self.sql(e))?;
        if n == 0 {
            return Err(ClubError::NoSuchBattle(battle));
        }
        Ok(())
    }

    fn move_cursor(
        &self,
        battle: ServerBattleId,
        expect: Option<EntryId>,
        to: Option<EntryId>,
    ) -> Result<(), ClubError> {
        let slot = self.slot(battle);
        let mut guard = Self::hold(&slot);
        let lb = self.loaded(&mut guard, battle)?;
        if lb.battle.outcome().is_some() {
            return Err(ClubError::Over(battle));
        }
        let head = lb.battle.cursor();
        if head != expect {
            return Err(ClubError::Stale(match head {
                None => "the battle is at its start".to_owned(),
                Some(h) => format!("entry {h}"),
            }));
        }
        let path = self.path_of(lb.campaign)?;
        if self.pg.is_some() {
            // Several processes on one database (issue 31 P4): this one
            // may not have heard yet of an entry or a move another made.
            // The battle as stored must be the one in memory, or the
            // take-back would move the cursor back past what its seats
            // were never shown; refused `stale`, memory left as it is (the
            // listener brings it and its watchers up to date). A write of
            // another process in the few milliseconds between this read
            // and the position's is settled by the database:
            // `save_position_from` checks the battle as stored, its cursor
            // (`head`) too, under its row's lock (`FOR UPDATE`) and refuses
            // it stale (issue 31 P5; review5 M1: a take-back of another
            // process adds no entry).
            let (campaign, id, held) = (lb.campaign, lb.id, lb.battle.records().len());
            let stored = self.reading(campaign, &path, |c| c.load_battle(id))?;
            if stored.cursor() != head || stored.records().len() != held {
                return Err(ClubError::Stale(format!(
                    "another server of the club moved the battle on first (its head is {})",
                    match stored.cursor() {
                        None => "the setup".to_owned(),
                        Some(h) => format!("entry {h}"),
                    }
                )));
            }
        }
        let writer = self.writer(lb.campaign, &path)?;
        // The battle goes to the writer thread and comes back with the
        // result; until then the slot is empty, so a failure anywhere
        // leaves nothing in memory that is not on disk (it loads again).
        let Some(mut live) = guard.take() else {
            return Err(ClubError::NoSuchBattle(battle));
        };
        let id = live.id;
        let mut b = live.battle;
        b.seek(to);
        // The server plays the game's own steps only after a seat's
        // command: a line cut where such a step is due (an Alien Invasion
        // round's drawing of cards) would leave no seat a command.
        if b.due_step().is_some() {
            b.seek(head);
            live.battle = b;
            *guard = Some(live);
            return Err(ClubError::Rule(format!(
                "the game's own step comes next after {}: a take-back goes back to where a seat is asked to act (an entry before or after that step)",
                match to {
                    None => "the setup".to_owned(),
                    Some(id) => format!("entry {id}"),
                }
            )));
        }
        let saved = writer
            .run(move |c| {
                let r = c.save_position_from(id, &*b, head);
                (b, r)
            })
            .map_err(|g| self.gone(&path, g))?;
        match saved {
            (b, Ok(())) => {
                let campaign = live.campaign;
                live.battle = b;
                *guard = Some(live);
                // Heard by the other servers' watchers as `moved`.
                self.tell_moved(campaign, id);
                Ok(())
            }
            (_, Err(e)) => Err(ClubError::Campaign {
                file: path.display().to_string(),
                why: e.to_string(),
            }),
        }
    }

    fn grant_roster(
        &self,
        campaign: CampaignId,
        roster: RosterId,
        token: TokenId,
    ) -> Result<(), ClubError> {
        {
            let conn = self.conn()?;
            self.campaign_path(&*conn, campaign)?;
            let role: Option<String> = conn
                .row("SELECT role FROM tokens WHERE id = ?1", &[&token], |r| {
                    r.get::<String>(0)
                })
                .map_err(|e| self.sql(e))?;
            if role.is_none() {
                return Err(ClubError::NoSuchToken(token));
            }
        }
        let log = self.campaign_log(campaign, u32::MAX)?;
        if log.standings.roster(roster).is_none() {
            return Err(ClubError::Rule(format!(
                "campaign {campaign} has no roster {roster} (the organiser raises it first)"
            )));
        }
        let conn = self.conn()?;
        conn.execute(
            "INSERT OR IGNORE INTO roster_owners (campaign, roster, token, granted)
             VALUES (?1, ?2, ?3, ?4)",
            &[&campaign, &roster, &token, &now()],
        )
        .map_err(|e| self.sql(e))?;
        Ok(())
    }

    fn rosters_of(&self, campaign: CampaignId, token: TokenId) -> Result<Vec<RosterId>, ClubError> {
        Ok(self
            .owners(campaign)?
            .into_iter()
            .filter(|(_, t)| *t == token)
            .map(|(r, _)| r)
            .collect())
    }

    fn campaign_log(&self, campaign: CampaignId, after: u32) -> Result<CampaignLog, ClubError> {
        let path = self.path_of(campaign)?;
        let writer = self.writer(campaign, &path)?;
        let (entries, head, standings) = writer
            .run(move |c| {
                let log = c.campaign_log()?;
                let state = c.campaign_state()?;
                let names = c.battle_names()?;
                let head = log.last().map_or(0, |e| e.id);
                let newer: Vec<_> = log.into_iter().filter(|e| e.id > after).collect();
                Ok::<_, xenolog_saves::SaveError>((lines(&newer, &state, &names), head, state))
            })
            .map_err(|g| self.gone(&path, g))?
            .map_err(|e| self.campaign_fail(campaign, e.to_string()))?;
        Ok(CampaignLog {
            entries,
            head,
            standings,
            owners: self.owners(campaign)?,
        })
    }

    fn campaign_edit(
        &self,
        campaign: CampaignId,
        after: u32,
        event: CampaignEvent,
        editor: Editor,
    ) -> Result<Result<Edited, EditRefused>, ClubError> {
        let path = self.path_of(campaign)?;
        let owned = match editor {
            Editor::Organiser => None,
            Editor::Player(token) => Some(self.rosters_of(campaign, token)?),
        };
        let writer = self.writer(campaign, &path)?;
        // On the writer thread: the check, the rules and the write happen
        // with nothing else between them, so the head they see is the head.
        writer
            .run(move |c| edit_at_head(c, after, event, owned))
            .map_err(|g| self.gone(&path, g))?
            .map_err(|e| self.campaign_fail(campaign, e.to_string()))
    }
}
