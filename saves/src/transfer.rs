//! Battles in and out of a campaign as a whole: export to a standalone file,
//! import from one, and bulk insertion of a battle built in memory.

use std::path::Path;

use xenolog_engine::campaign::{CampaignEvent, Fighter, ShippedFactions, Status, decide};
use xenolog_engine::games;
use xenolog_engine::games::invasion::InvasionConfig;
use xenolog_engine::{Battle, Game, Session};
use xenolog_schema::DiceMode;
use xenolog_schema::battle_file::{
    BattleFile, CampaignLink, read_battle_file_linked, write_battle_file_linked,
};

use crate::battles::{NewBattleRow, insert_whole};
use crate::db::{Begin, Db, DbExt};
use crate::file::write_atomically;
use crate::rosters::{EntryKey, append_as};
use crate::{BattleId, Campaign, SaveError, skill_table};

/// What an import made of a battle file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The new battle's id here.
    pub id: BattleId,
    /// Whether it counts for the campaign's rosters (a roster battle from
    /// another copy of this campaign): experience, casualties, as if played
    /// here.
    pub counted: bool,
    /// Why a roster battle arrived bare, in words (`None`: it counts, or it
    /// was never a roster battle).
    pub notice: Option<String>,
}

/// A battle read from a file or another copy, checked: it rebuilds, its
/// fair seed (if any) checks out, and it replays exactly (`verify`).
pub(crate) struct Checked {
    pub battle: Box<dyn Battle>,
    pub title: String,
    pub dice_mode: DiceMode,
    pub created: i64,
    pub secret: Option<xenolog_engine::fair::Bytes32>,
}

/// Check a battle before anything of it is written; why not, in words.
pub(crate) fn checked(f: BattleFile) -> Result<Checked, String> {
    let (title, dice_mode, created, secret) = (f.title.clone(), f.dice_mode, f.created, f.secret);
    if let (Some(seed), Some(secret)) = (&f.meta.fair, &secret) {
        let seats: Vec<_> = seed.nonces.iter().map(|n| n.seat).collect();
        let r = xenolog_engine::fair::check(seed, f.meta.seed, &seats, Some(secret), &[], &[]);
        if !r.ok() {
            let why = r.lines(&|a| format!("seat {}", a.0 as u32 + 1));
            return Err(format!(
                "its fair seed does not check out: {}",
                why.into_iter()
                    .filter(|l| l.starts_with("FAILED"))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
    }
    let battle = games::load_battle(f.into_stored())
        .map_err(|e| format!("its battle cannot be rebuilt: {e}"))?;
    let report = battle.verify();
    if !report.ok() {
        return Err(format!("it does not replay as recorded: {report}"));
    }
    Ok(Checked {
        battle,
        title,
        dice_mode,
        created,
        secret,
    })
}

/// Insert a checked battle, with its snapshots rebuilt, in the open
/// transaction; returns its id here.
pub(crate) fn insert_checked(
    tx: &dyn Db,
    c: &Checked,
    origin: &str,
) -> Result<BattleId, SaveError> {
    let battle = &*c.battle;
    let row = NewBattleRow {
        created: c.created,
        origin: Some(origin),
        secret: c.secret.as_ref(),
        ..NewBattleRow::of(battle, &c.title, c.dice_mode)
    };
    insert_whole(tx, &row, battle)
}

impl Campaign {
    /// Export one battle to a standalone file (magic header, format version,
    /// postcard payload, BLAKE3 checksum; see `xenolog_schema::battle_file`).
    /// The file is written beside `out` and renamed into place, so a crash
    /// leaves either the old file or the complete new one.
    pub fn export_battle(&self, id: BattleId, out: &Path) -> Result<(), SaveError> {
        let file = self.battle_file(id)?;
        let link = self.campaign_link(id)?;
        let bytes =
            write_battle_file_linked(&file, link.as_ref()).map_err(|e| SaveError::Corrupt {
                battle: id,
                why: e.to_string(),
            })?;
        write_atomically(out, &bytes)
    }

    /// One battle as its standalone file holds it (the revealed secret of a
    /// finished club battle included).
    pub(crate) fn battle_file(&self, id: BattleId) -> Result<BattleFile, SaveError> {
        let s = self.read_battle(id).map_err(|e| match e {
            crate::battles::ScanError::Save(e) => e,
            crate::battles::ScanError::Entry { seq, why } => SaveError::Corrupt {
                battle: id,
                why: format!("entry {seq} {why}"),
            },
        })?;
        let secret = if s.parts.meta.fair.is_some() {
            self.fair_secret(id)?
        } else {
            None
        };
        Ok(BattleFile {
            secret,
            meta: s.parts.meta,
            title: s.title,
            dice_mode: s.dice_mode,
            created: s.created,
            branches: s.parts.branches,
            records: s.parts.records,
            cursor: s.parts.cursor,
            branch: s.parts.branch,
        })
    }

    /// Import a battle file as a new battle of this campaign.
    ///
    /// Checks, before anything is written: the magic, the format version, the
    /// checksum, that the engine can rebuild the battle, and that it replays
    /// exactly (`verify`). Then inserts it in one transaction. Snapshots are
    /// not part of the file: the engine rebuilds them once here and they are
    /// stored with the battle, so it opens as fast as one played here.
    pub fn import_battle(&mut self, file: &Path) -> Result<BattleId, SaveError> {
        self.import_battle_counted(file).map(|i| i.id)
    }

    /// [`Campaign::import_battle`], and a roster battle exported from a copy
    /// of this campaign (the same [`Campaign::uid`]) counts for its rosters
    /// exactly as if it had been played here: its "battle fought" entry
    /// lands in the campaign log under the key it had there (so a merge of
    /// the two copies later counts it once). From another campaign, or when
    /// its entry is here already, it arrives bare, with a notice saying why.
    /// A roster that no longer matches (a model retired, dead or gone
    /// meanwhile) is refused in words naming it, and nothing is written.
    pub fn import_battle_counted(&mut self, file: &Path) -> Result<Imported, SaveError> {
        self.writable()?;
        let bad = |why: String| SaveError::BadBattleFile {
            path: file.to_owned(),
            why,
        };
        let bytes = std::fs::read(file).map_err(|e| SaveError::io(file, e))?;
        let (f, link) = read_battle_file_linked(&bytes).map_err(|e| bad(e.to_string()))?;
        drop(bytes);
        let checked = checked(f).map_err(bad)?;
        let origin = format!(
            "imported from {}",
            file.file_name().map_or_else(
                || file.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            )
        );
        // Issue 30 item 9: a roster battle of a copy of this campaign counts.
        let (counted, notice) = match &link {
            None => (None, None),
            Some(l) => self.link_counts(l, checked.battle.meta(), file)?,
        };
        let tx = self.conn.begin(Begin::Immediate)?;
        let id = insert_checked(&tx, &checked, &origin)?;
        if let Some((key, at, fighters)) = &counted {
            let event = CampaignEvent::BattleFought {
                battle: id,
                fighters: fighters.clone(),
            };
            append_as(&tx, key, *at, &event)?;
            // The log entry has its number written by hand: on PostgreSQL
            // the identity follows it (SQLite's rowid does by itself).
            self.conn.catch_up_identities()?;
        }
        tx.commit()?;
        Ok(Imported {
            id,
            counted: counted.is_some(),
            notice,
        })
    }

    /// The campaign link of a roster battle, for its file: `None` unless
    /// the campaign log has a "battle fought" entry for it that counts.
    fn campaign_link(&self, id: BattleId) -> Result<Option<CampaignLink>, SaveError> {
        let keyed = self.campaign_log_keyed()?;
        let Some((entry, key)) = keyed.iter().find(
            |(e, _)| matches!(&e.event, CampaignEvent::BattleFought { battle, .. } if *battle == id),
        ) else {
            return Ok(None);
        };
        let CampaignEvent::BattleFought { fighters, .. } = &entry.event else {
            return Ok(None);
        };
        let state = self.campaign_state()?;
        if state.undone.contains(&entry.id) {
            return Ok(None);
        }
        let config: String = self
            .conn
            .one("SELECT config FROM battles WHERE id = ?1", &[&id])?;
        let cfg = serde_json::from_str::<InvasionConfig>(&config).ok();
        // The fighters as the battle's own config names them (a merge may
        // have renumbered a model since: the entry names it anew, the
        // config keeps the number it was set up with), each with its
        // recruit entry's key, by which another copy knows it (review
        // findings MUST 3, SHOULD 6).
        let pieces: Vec<(u32, String)> = match cfg
            .as_ref()
            .and_then(|c| xenolog_engine::games::invasion::roster_pieces(c).ok())
        {
            Some(p) => p,
            None => fighters
                .iter()
                .map(|f| (f.model, f.piece.clone()))
                .collect(),
        };
        let recruit_of = |model: u32| {
            keyed
                .iter()
                .rev()
                .find(|(e, _)| {
                    !state.undone.contains(&e.id)
                        && matches!(&e.event, CampaignEvent::ModelRecruited { model: m, .. } if *m == model)
                })
                .map(|(_, k)| (k.origin.clone(), k.number))
        };
        let mut recruits = Vec::with_capacity(pieces.len());
        for (_, piece) in &pieces {
            match fighters
                .iter()
                .find(|f| &f.piece == piece)
                .and_then(|f| recruit_of(f.model))
            {
                Some(k) => recruits.push(k),
                // Not a battle this log can vouch for: it goes out bare.
                None => return Ok(None),
            }
        }
        let rosters = cfg
            .map(|c| c.rosters)
            .unwrap_or_default()
            .into_iter()
            .map(|r| {
                let name = state
                    .roster(r.roster)
                    .map_or_else(|| format!("roster {}", r.roster), |x| x.name.clone());
                (r.seat, r.roster, name)
            })
            .collect();
        Ok(Some(CampaignLink {
            uid: self.uid()?,
            origin: key.origin.clone(),
            number: key.number,
            at: entry.at,
            fighters: pieces,
            recruits,
            rosters,
        }))
    }

    /// Whether a linked battle counts here: `(Some(entry key, time,
    /// fighters), None)` when it does, `(None, Some(why not))` when it
    /// arrives bare; an error in words when its roster no longer matches.
    #[allow(clippy::type_complexity)]
    fn link_counts(
        &self,
        l: &CampaignLink,
        meta: &xenolog_engine::BattleMeta,
        file: &Path,
    ) -> Result<(Option<(EntryKey, i64, Vec<Fighter>)>, Option<String>), SaveError> {
        let bad = |why: String| SaveError::BadBattleFile {
            path: file.to_owned(),
            why,
        };
        let names: Vec<&str> = l.rosters.iter().map(|r| r.2.as_str()).collect();
        let rosters = names.join(" and ");
        if l.uid != self.uid()? {
            return Ok((
                None,
                Some(format!(
                    "it was fought with the rosters of another campaign ({rosters}), not of a copy of this one: it arrived as a bare battle, and no model's experience or casualty was counted"
                )),
            ));
        }
        let key = EntryKey {
            origin: l.origin.clone(),
            number: l.number,
        };
        if let Some(here) = self.entry_with_key(&key)? {
            return Ok((
                None,
                Some(format!(
                    "its \"battle fought\" entry is in this campaign already ({here}): it arrived as a bare battle, so no experience is counted twice"
                )),
            ));
        }
        // The file's link must be what its own config says (no model can be
        // slipped into a battle it never fought).
        let cfg: InvasionConfig = serde_json::from_str(&meta.config).map_err(|e| {
            bad(format!(
                "it names rosters, but its config is not an Alien Invasion battle's: {e}"
            ))
        })?;
        let pieces = xenolog_engine::games::invasion::roster_pieces(&cfg)
            .map_err(|e| bad(format!("its rosters cannot be set up: {}", e.0)))?;
        let seats: Vec<(u8, u32)> = cfg.rosters.iter().map(|r| (r.seat, r.roster)).collect();
        let linked: Vec<(u8, u32)> = l.rosters.iter().map(|r| (r.0, r.1)).collect();
        if pieces != l.fighters || seats != linked || l.recruits.len() != l.fighters.len() {
            return Err(bad(
                "its campaign link does not match the rosters its battle was set up with".into(),
            ));
        }
        let state = self.campaign_state()?;
        let keyed = self.campaign_log_keyed()?;
        // Each fighter is the model its recruit entry recruited here, by the
        // entry's key, not by its number: both copies may have given one
        // number to different recruits, and a merge renumbers one of them
        // (review finding MUST 3).
        let mut here: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
        // And each roster is the one its fighters were recruited into here,
        // by the same keys (a merge may have renumbered a roster too).
        let mut roster_here: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
        for ((model, _), (origin, number)) in l.fighters.iter().zip(&l.recruits) {
            let name = cfg
                .rosters
                .iter()
                .flat_map(|r| &r.fighters)
                .find(|f| f.model == *model)
                .map_or_else(|| format!("model {model}"), |f| f.name.clone());
            let recruited = keyed.iter().find_map(|(e, k)| match &e.event {
                CampaignEvent::ModelRecruited {
                    model: m, roster, ..
                } if k.origin == *origin && k.number == *number => Some((*m, *roster)),
                _ => None,
            });
            let Some((m, roster)) = recruited else {
                return Err(SaveError::Refused(format!(
                    "this battle counts for {name}, recruited in another copy of the campaign that this one has not had since (its recruit entry is not here; merge the copies first): nothing was imported"
                )));
            };
            here.insert(*model, m);
            roster_here.insert(*model, roster);
        }
        let local = |model: u32| here.get(&model).copied().unwrap_or(model);
        let log: Vec<_> = keyed.into_iter().map(|(e, _)| e).collect();
        for r in &cfg.rosters {
            // The roster as the file names it, and its number here (by its
            // fighters' recruit keys; by number only for a roster with none).
            let named = l
                .rosters
                .iter()
                .find(|x| x.1 == r.roster)
                .map_or_else(|| format!("roster {}", r.roster), |x| x.2.clone());
            let number = r
                .fighters
                .first()
                .and_then(|f| roster_here.get(&f.model))
                .copied()
                .unwrap_or(r.roster);
            let Some(roster) = state.roster(number) else {
                return Err(SaveError::Refused(format!(
                    "this battle counts for {named}, which this campaign no longer has: nothing was imported"
                )));
            };
            for f in &r.fighters {
                let why = match state.model(local(f.model)) {
                    None => Some(format!("{} is no longer in the campaign", f.name)),
                    Some(m) if m.roster != number => {
                        Some(format!("{} is no longer in {}", m.name, roster.name))
                    }
                    Some(m) if m.kind != f.kind => {
                        Some(format!("{} is no longer a {}", m.name, f.kind))
                    }
                    Some(m) if m.status != Status::Fit => {
                        Some(format!("{} is {} here", m.name, m.status.word()))
                    }
                    Some(_) => None,
                };
                if let Some(why) = why {
                    return Err(SaveError::Refused(format!(
                        "this battle counts for {}, which no longer matches this copy of the campaign: {why}; nothing was imported",
                        roster.name
                    )));
                }
            }
        }
        let fighters: Vec<Fighter> = l
            .fighters
            .iter()
            .map(|(model, piece)| Fighter {
                model: local(*model),
                piece: piece.clone(),
            })
            .collect();
        // As the store decides it when a battle is started here (the id is
        // new, so only the models matter).
        let event = CampaignEvent::BattleFought {
            battle: BattleId::MAX,
            fighters: fighters.clone(),
        };
        decide(&state, &log, &event, &skill_table(), &ShippedFactions)
            .map_err(|e| SaveError::Refused(format!("{e}; nothing was imported")))?;
        Ok((Some((key, l.at, fighters)), None))
    }

    /// Store a whole battle built in memory, with its snapshots, in one
    /// transaction. Meant for benchmarks and tests that need a long battle
    /// quickly (a million entries of the test game in seconds); the app
    /// stores battles command by command with [`Campaign::play`].
    pub fn insert_battle_bulk<G: Game>(
        &mut self,
        session: &Session<G>,
        title: &str,
        dice_mode: DiceMode,
    ) -> Result<BattleId, SaveError> {
        self.insert_played(session, title, dice_mode)
    }

    /// [`Campaign::insert_battle_bulk`] for a battle of any game (the app's
    /// benchmarks hold their battles as `dyn Battle`).
    pub fn insert_played(
        &mut self,
        battle: &dyn Battle,
        title: &str,
        dice_mode: DiceMode,
    ) -> Result<BattleId, SaveError> {
        self.writable()?;
        let tx = self.conn.begin(Begin::Immediate)?;
        let id = insert_whole(&tx, &NewBattleRow::of(battle, title, dice_mode), battle)?;
        tx.commit()?;
        Ok(id)
    }
}
