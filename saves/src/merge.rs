//! Two copies of one campaign merged (issue 30 item 9: a campaign without a
//! server; server/DESIGN.md §10, "Without a server").
//!
//! The campaign log is append-only, and each entry has a key across copies
//! (the origin that wrote it and its number there, migration 7). Merging
//! another copy into this one:
//!
//! 1. refuses a file of another campaign (another [`Campaign::uid`]);
//! 2. copies over every battle only the other copy has, each checked first
//!    as an import is (it rebuilds, its fair seed checks out, it replays
//!    exactly); a battle is the same in both copies when its game, seed,
//!    start time and config are;
//! 3. takes the union of both logs, keyed by entry key, in time order (each
//!    copy's own order kept; ties by key), with the battles in this file's
//!    numbers; a model or roster number both copies gave to different
//!    recruits goes, in the later one's copy, to a new number;
//! 4. folds it entry by entry, deciding each against the campaign as the
//!    entries before it leave it: an entry that no longer validates there
//!    (the same experience spent twice, a model retired meanwhile) is a
//!    conflict: listed in words, set aside in `campaign_conflicts`, not
//!    applied, never lost;
//! 5. brings the other copy's notes and bookmarks, each on its entry in
//!    this file's numbering (a battle copied over, a grafted line); a note
//!    both copies have lands once, two on one entry are joined
//!    ([`merge_notes`]);
//! 6. writes it all in one transaction: nothing changes unless everything
//!    does.
//!
//! The merged order depends only on the entries, so merging A into B and B
//! into A give the same campaign and the same conflicts.
//!
//! A battle both copies have (matched one to one, in order of their
//! numbers: a battle held twice is two battles) and both played on is
//! grafted (see [`Graft`]): the other copy's battle is first checked as it
//! stores it (its hash chain holds, it replays), then its continuation lands
//! as a branch of kind [`BranchKind::FromCopy`] (migration 9: another
//! copy's line, not a take-back past seen dice, whatever it is later
//! named), named "… (from the copy FILE)". This copy's line stays current,
//! except where both copies played the battle to an end and the ends
//! differ: then the campaign counts the longer line (equal lines: the lower
//! state hash of its last entry), whichever way the copies are merged,
//! makes it the current line, lists a conflict naming both endings and
//! sets it aside in `campaign_conflicts` ([`SetAside::Ending`]), where
//! `campaign log` lists it again.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use xenolog_engine::campaign::{
    CampaignEntry, CampaignEvent, CampaignState, ModelId, RosterId, ShippedFactions, decide, fold,
};
use xenolog_engine::games;
use xenolog_engine::hash::{Hash16, chain_hash, root_chain};
use xenolog_engine::{
    Branch, BranchId, BranchKind, EntryId, EntryRecord, Outcome, StoredBattle, StoredSnapshot,
};

use xenolog_schema::codec::{encode_entry, encode_snapshot};

use crate::campaign::now;
use crate::db::{Begin, Db, DbExt};
use crate::rosters::EntryKey;
use crate::transfer::{checked, insert_checked};
use crate::{BattleId, BattleNames, Campaign, SaveError, describe, skill_table};

/// What a merge did, in words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Entries of the other copy that landed here.
    pub added: usize,
    /// Battle entries of the other copy that landed here, in battles both
    /// copies played on (grafted).
    pub grafted: usize,
    /// Battles copied over from the other copy, by their names here.
    pub copied: Vec<String>,
    /// Entries that did not validate where the merge put them, in words:
    /// set aside, not applied, kept (see [`Campaign::campaign_conflicts`]).
    pub conflicts: Vec<String>,
    /// Anything else to know (a battle played on in both copies).
    pub notices: Vec<String>,
    /// Notes and bookmarks of the other copy that landed here (each on
    /// its entry in this copy's numbering), or that joined a note this copy
    /// has on the same entry.
    pub notes: usize,
}

/// What a merge set aside (not applied, kept): a campaign log entry, or a
/// battle played to two endings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub id: u32,
    /// A log entry's key; for a battle's two endings, the origin
    /// [`TwoEndings::ORIGIN`] and the battle's number in this file.
    pub key: EntryKey,
    /// When it was recorded, unix seconds (two endings: when the battle
    /// was started).
    pub at: i64,
    pub what: SetAside,
    /// Why it did not validate (two endings: why the campaign counts the
    /// one it counts), in words.
    pub why: String,
}

impl Conflict {
    /// What was set aside, in words, with why: the line of `campaign log`
    /// and of the app's Campaign view ("Set aside by merges"). A battle's
    /// two endings say which one the campaign counts now; where that is no
    /// longer the merge's choice, why is the merge's.
    pub fn words(&self, state: &CampaignState, names: &BattleNames) -> String {
        let when = match &self.what {
            SetAside::Ending(TwoEndings {
                now: Some(Counts::Other | Counts::Neither),
                ..
            }) => "set aside when merged, counting the first",
            _ => "set aside",
        };
        format!(
            "{}  ({when}: {})",
            self.what.words(state, names),
            names.words(&self.why)
        )
    }
}

/// What a merge set aside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetAside {
    /// A campaign log entry that did not validate where the merge put it.
    Entry(CampaignEvent),
    /// A battle both copies played to an end, and the ends differ: the
    /// campaign counts one.
    Ending(TwoEndings),
}

impl SetAside {
    /// As stored (`campaign_conflicts.kind`, `.event`, migration 9).
    fn stored(&self) -> (&'static str, String) {
        match self {
            SetAside::Entry(e) => ("entry", serde_json::to_string(e).unwrap_or_default()),
            // As the merge decided it: which ending counts now is read, not
            // stored (it follows the battle's current line).
            SetAside::Ending(t) => {
                let t = TwoEndings {
                    now: None,
                    ..t.clone()
                };
                ("ending", serde_json::to_string(&t).unwrap_or_default())
            }
        }
    }

    /// What it is in words, in this campaign's names.
    pub fn words(&self, state: &CampaignState, names: &BattleNames) -> String {
        match self {
            SetAside::Entry(e) => describe(e, state, names),
            SetAside::Ending(t) => t.words(names),
        }
    }
}

/// A battle played to two endings in two copies of the campaign: the one
/// the campaign counts and the other (kept as a branch of the battle).
/// Both copies merged either way round give the same.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TwoEndings {
    /// Its number in this file.
    pub battle: BattleId,
    /// The ending the merge counted (its line made current then).
    pub counted: Ending,
    pub other: Ending,
    /// Which ending the campaign counts now, by where the battle's current
    /// line ends ([`Campaign::campaign_conflicts`] reads it; never stored:
    /// switching the battle's line later changes it). `None`: not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now: Option<Counts>,
}

/// Which of a battle's two endings the campaign counts now (it counts the
/// result at the head of the battle's current line, principle 11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Counts {
    /// The one the merge counted: its line is still the current one.
    Counted,
    /// The other: its line was made current since the merge.
    Other,
    /// Neither: the current line ends in neither (a take-back since, or
    /// another line).
    Neither,
}

/// One ending of a battle.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ending {
    /// The result in words.
    pub result: String,
    /// Entries from the setup to the end.
    pub entries: usize,
    /// The state hash of its last entry, hex.
    pub state_hash: String,
}

impl TwoEndings {
    /// The origin of the key it is set aside under.
    pub const ORIGIN: &'static str = "ending";

    /// In words, the battle by its name here, with the ending the
    /// campaign counts now.
    pub fn words(&self, names: &BattleNames) -> String {
        let name = names.name(self.battle);
        let (c, o) = (&self.counted, &self.other);
        match self.now {
            None | Some(Counts::Counted) => format!(
                "{name} was played to two endings in two copies: the campaign counts \"{}\" ({} entries); \"{}\" ({} entries) is kept as a branch of it",
                c.result, c.entries, o.result, o.entries
            ),
            Some(Counts::Other) => format!(
                "{name} was played to two endings in two copies: the campaign counts \"{}\" ({} entries) now, its line made current since the merge; \"{}\" ({} entries), which the merge counted, is kept as a branch of it",
                o.result, o.entries, c.result, c.entries
            ),
            Some(Counts::Neither) => format!(
                "{name} was played to two endings in two copies, \"{}\" ({} entries), which the merge counted, and \"{}\" ({} entries): the campaign counts neither now, as the battle's current line ends in neither (both are kept as branches of it)",
                c.result, c.entries, o.result, o.entries
            ),
        }
    }
}

/// Which copy an entry of the merged log came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Side {
    Mine,
    Theirs,
}

/// An entry on its way into the merged log: its events' battles in this
/// file's numbers, an undo's or redo's entry by key.
#[derive(Clone, Debug)]
struct Item {
    key: EntryKey,
    at: i64,
    event: CampaignEvent,
    target: Option<EntryKey>,
    side: Side,
    /// Why it cannot land whatever the order (its battle was not copied).
    blocked: Option<String>,
}

impl Item {
    fn order(&self) -> (i64, &str, u32) {
        (self.at, self.key.origin.as_str(), self.key.number)
    }

    /// The same entry, as far as both copies can tell.
    fn same(&self, other: &Item) -> bool {
        self.at == other.at
            && self.event_json() == other.event_json()
            && self.target == other.target
    }

    fn event_json(&self) -> String {
        let mut e = self.event.clone();
        if let CampaignEvent::Undone { entry } | CampaignEvent::Redone { entry } = &mut e {
            *entry = 0;
        }
        serde_json::to_string(&e).unwrap_or_default()
    }
}

/// A battle's identity across copies: game, seed, start time, config.
type Identity = (String, i64, i64, String);

fn battles_of(c: &Campaign) -> Result<Vec<(BattleId, Identity, i64)>, SaveError> {
    let mut out = Vec::new();
    c.conn.each(
        "SELECT b.id, b.game, b.seed, b.created, b.config,
                (SELECT e.seq FROM entries e WHERE e.battle = b.id ORDER BY e.seq DESC LIMIT 1),
                (SELECT k.first FROM entry_blocks k WHERE k.battle = b.id
                    ORDER BY k.first DESC LIMIT 1)
         FROM battles b ORDER BY b.id",
        &[],
        |r| {
            out.push((
                r.get::<BattleId>(0)?,
                (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?),
                // The head: tail and blocks (`blocks::count_from`).
                crate::blocks::count_from(r.get(5)?, r.get(6)?) as i64,
            ));
            Ok::<(), SaveError>(())
        },
    )?;
    Ok(out)
}

/// A side's log as items, its battles through `battle` (`Err`: why that
/// battle is not here).
fn items(
    log: &[(CampaignEntry, EntryKey)],
    side: Side,
    battle: &dyn Fn(BattleId) -> Result<BattleId, String>,
) -> Vec<Item> {
    let key_of: HashMap<u32, EntryKey> = log.iter().map(|(e, k)| (e.id, k.clone())).collect();
    log.iter()
        .map(|(e, k)| {
            let mut event = e.event.clone();
            let mut target = None;
            let mut blocked = None;
            match &mut event {
                CampaignEvent::BattleFought { battle: b, .. } => match battle(*b) {
                    Ok(here) => *b = here,
                    Err(why) => blocked = Some(why),
                },
                CampaignEvent::Undone { entry } | CampaignEvent::Redone { entry } => {
                    target = key_of.get(entry).cloned();
                }
                _ => {}
            }
            Item {
                key: k.clone(),
                at: e.at,
                event,
                target,
                side,
                blocked,
            }
        })
        .collect()
}

/// The model or roster an entry introduces.
fn introduces(e: &CampaignEvent) -> (Option<ModelId>, Option<RosterId>) {
    match e {
        CampaignEvent::ModelRecruited { model, .. } => (Some(*model), None),
        CampaignEvent::RosterCreated { roster, .. } => (None, Some(*roster)),
        _ => (None, None),
    }
}

/// Renumber models and rosters in an event.
fn renumber(
    e: &mut CampaignEvent,
    models: &HashMap<ModelId, ModelId>,
    rosters: &HashMap<RosterId, RosterId>,
) {
    let m = |x: &mut ModelId| {
        if let Some(n) = models.get(x) {
            *x = *n;
        }
    };
    let r = |x: &mut RosterId| {
        if let Some(n) = rosters.get(x) {
            *x = *n;
        }
    };
    use CampaignEvent as C;
    match e {
        C::RosterCreated { roster, .. } | C::RosterRenamed { roster, .. } => r(roster),
        C::ModelRecruited { roster, model, .. } => {
            r(roster);
            m(model);
        }
        C::ModelRenamed { model, .. }
        | C::ModelRetired { model }
        | C::ModelRemoved { model }
        | C::SkillBought { model, .. } => m(model),
        C::BattleFought { fighters, .. } => fighters.iter_mut().for_each(|f| m(&mut f.model)),
        C::SettingChanged { .. } | C::Undone { .. } | C::Redone { .. } => {}
    }
}

/// A clash: the later recruit's order, its copy, a model (else a roster),
/// the number both gave.
type Clash = ((i64, String, u32), Side, bool, u32);
/// A copy's renumbering of models and rosters.
type Renumbering = (HashMap<ModelId, ModelId>, HashMap<RosterId, RosterId>);

/// Put both copies' entries in one numbering of models and rosters, knowing
/// each model (or roster) by its recruit entry's key, not by its number:
///
/// 1. a recruit both copies have, numbered differently (an earlier merge
///    renumbered it in one of them, keeping its key): the other copy's
///    number becomes this copy's, in everything of the other copy;
/// 2. a recruit only the other copy has, given a number a recruit of this
///    copy has (shared or not): where both are only in one copy, the later
///    recruit's copy renumbers it (and everything of that copy naming it) to
///    a new number; against a shared recruit, the other copy's does.
///
/// Returns this copy's renumbering and the other copy's: each copy's
/// set-aside conflicts, kept in its numbers (migration 7), follow its own.
fn untangle(
    mine: &mut [Item],
    theirs: &mut [Item],
    shared: &HashSet<EntryKey>,
) -> (Renumbering, Renumbering) {
    let all = mine.iter().chain(theirs.iter());
    let mut next_model = all
        .clone()
        .filter_map(|i| introduces(&i.event).0)
        .max()
        .unwrap_or(0);
    let mut next_roster = all
        .filter_map(|i| introduces(&i.event).1)
        .max()
        .unwrap_or(0);
    let mut maps: HashMap<Side, Renumbering> = HashMap::new();
    // 1. Shared recruits: their number -> mine.
    let mine_by_key: HashMap<&EntryKey, &Item> = mine.iter().map(|i| (&i.key, i)).collect();
    {
        let (models, rosters) = maps.entry(Side::Theirs).or_default();
        for t in theirs.iter().filter(|i| shared.contains(&i.key)) {
            let Some(m) = mine_by_key.get(&t.key) else {
                continue;
            };
            let ((am, ar), (bm, br)) = (introduces(&m.event), introduces(&t.event));
            if let (Some(a), Some(b)) = (am, bm)
                && a != b
            {
                models.insert(b, a);
            }
            if let (Some(a), Some(b)) = (ar, br)
                && a != b
            {
                rosters.insert(b, a);
            }
        }
    }
    // 2. Clashes, in this copy's numbering: (order of the later recruit,
    // its side, model?, old number).
    let mut clashes: Vec<Clash> = Vec::new();
    for b in theirs.iter().filter(|i| !shared.contains(&i.key)) {
        let (bm, br) = introduces(&b.event);
        if bm.is_none() && br.is_none() {
            continue;
        }
        for a in mine.iter() {
            let (am, ar) = introduces(&a.event);
            let later = if shared.contains(&a.key) || a.order() < b.order() {
                b
            } else {
                a
            };
            let o = later.order();
            let o = (o.0, o.1.to_owned(), o.2);
            if am.is_some() && am == bm {
                clashes.push((o.clone(), later.side, true, am.unwrap_or(0)));
            }
            if ar.is_some() && ar == br {
                clashes.push((o, later.side, false, ar.unwrap_or(0)));
            }
        }
    }
    clashes.sort();
    // One new number per recruit (a number given twice in one copy, the
    // first recruit undone, clashes once).
    let mut seen: HashSet<(Side, bool, u32)> = HashSet::new();
    for (_, side, model, old) in clashes {
        if !seen.insert((side, model, old)) {
            continue;
        }
        let (models, rosters) = maps.entry(side).or_default();
        if model {
            next_model += 1;
            models.insert(old, next_model);
        } else {
            next_roster += 1;
            rosters.insert(old, next_roster);
        }
    }
    if let Some((models, rosters)) = maps.get(&Side::Mine) {
        for i in mine.iter_mut().filter(|i| !shared.contains(&i.key)) {
            renumber(&mut i.event, models, rosters);
        }
    }
    // All of theirs: a shared entry lands as this copy's, and compares
    // with it in this copy's numbering.
    if let Some((models, rosters)) = maps.get(&Side::Theirs) {
        for i in theirs.iter_mut() {
            renumber(&mut i.event, models, rosters);
        }
    }
    (
        maps.remove(&Side::Mine).unwrap_or_default(),
        maps.remove(&Side::Theirs).unwrap_or_default(),
    )
}

/// Both logs as one: each copy's own order kept (an entry both have comes
/// after what preceded it in either), and between entries only one has,
/// time order (ties by key). Symmetric: the two copies given the other way
/// round give the same log.
fn interleave(mine: Vec<Item>, theirs: Vec<Item>, shared: &HashSet<EntryKey>) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::with_capacity(mine.len() + theirs.len());
    let mut done: HashSet<EntryKey> = HashSet::new();
    let (mut a, mut b) = (mine.into_iter().peekable(), theirs.into_iter().peekable());
    loop {
        while a.peek().is_some_and(|x| done.contains(&x.key)) {
            a.next();
        }
        while b.peek().is_some_and(|x| done.contains(&x.key)) {
            b.next();
        }
        let take_a = match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(x), Some(y)) => {
                let (xs, ys) = (shared.contains(&x.key), shared.contains(&y.key));
                match (xs, ys) {
                    // One entry both copies have: once, as this copy's.
                    _ if x.key == y.key => {
                        b.next();
                        true
                    }
                    // A shared entry waits for what precedes it in the other copy.
                    (true, false) => false,
                    (false, true) => true,
                    _ => x.order() <= y.order(),
                }
            }
        };
        let item = if take_a { a.next() } else { b.next() };
        if let Some(i) = item {
            if shared.contains(&i.key) {
                done.insert(i.key.clone());
            }
            out.push(i);
        }
    }
    out
}

/// The other copy's entries of a battle both copies have that this copy
/// lacks (review finding SHOULD 7: a battle played on in both copies),
/// ready to append: the store is append-only, so this copy's line stays as
/// it is, and the other copy's continuation lands after it as a branch from
/// the point where the two parted (a what-if line), or on this copy's line
/// where it simply goes on from its end.
struct Graft {
    battle: BattleId,
    /// The new entries, numbered after this copy's.
    records: Vec<(EntryId, EntryRecord)>,
    branches: Vec<Branch>,
    snapshots: Vec<StoredSnapshot>,
    /// The position afterwards, and the status there.
    cursor: Option<EntryId>,
    branch: BranchId,
    status: (&'static str, Option<String>),
    /// The result at the head of the current branch (for the campaign).
    head_result: Option<Outcome>,
    words: String,
    /// Both copies played it to an end and the ends differ: which one the
    /// campaign counts, why, and the same in words naming the branches
    /// (set aside as a conflict, listed).
    ending: Option<(TwoEndings, &'static str, String)>,
}

/// A state hash in hex, as an [`Ending`] keeps it.
fn hex(h: &Hash16) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

/// What an entry is, wherever it is numbered: everything of its record but
/// its number, its parent's number, its branch and its chain.
fn same_entry(a: &EntryRecord, b: &EntryRecord) -> bool {
    a.actor == b.actor
        && a.entered == b.entered
        && a.command() == b.command()
        && a.events() == b.events()
        && a.dice() == b.dice()
        && a.rng_after == b.rng_after
        && a.state_hash == b.state_hash
        && a.rules_version == b.rules_version
}

/// Put the entries of `theirs` that `mine` lacks after `mine`'s (see
/// [`Graft`]); `Ok(None)`: it has none. Each entry is known by its line:
/// an entry of theirs is one of mine when its parent is and its content is
/// the same. The grown battle is rebuilt and replayed in full before
/// anything is written; why not, in words.
fn graft(
    id: BattleId,
    mine: StoredBattle,
    theirs: &StoredBattle,
    name: &str,
) -> Result<(Vec<EntryId>, Option<Graft>), String> {
    let meta = mine.meta.clone();
    let mut records = mine.records;
    let mut branches = mine.branches;
    let mine_branches = branches.len();
    let first_new = records.len() as EntryId;
    let mut head: Vec<Option<EntryId>> = vec![None; branches.len()];
    let mut children: HashMap<Option<EntryId>, Vec<EntryId>> = HashMap::new();
    for (n, r) in records.iter().enumerate() {
        if let Some(h) = head.get_mut(r.branch as usize) {
            *h = Some(n as EntryId);
        }
        children.entry(r.parent).or_default().push(n as EntryId);
    }
    let old_head = head.get(mine.branch as usize).copied().flatten();
    let root = root_chain(&meta);
    // Each of their entries, numbered here.
    let mut here: Vec<EntryId> = Vec::with_capacity(theirs.records.len());
    let mut lines: Vec<(BranchId, Option<EntryId>, usize)> = Vec::new();
    for t in &theirs.records {
        let parent = match t.parent {
            None => None,
            Some(p) => match here.get(p as usize) {
                Some(x) => Some(*x),
                None => return Err("its entries are out of order".into()),
            },
        };
        if let Some(c) = children
            .get(&parent)
            .and_then(|cs| cs.iter().find(|c| same_entry(&records[**c as usize], t)))
        {
            here.push(*c);
            continue;
        }
        let n = records.len() as EntryId;
        let on = parent.map_or(0, |p| records[p as usize].branch);
        let branch = if head.get(on as usize).copied().flatten() == parent {
            // It goes on from the end of a line: it stays on that line.
            on
        } else {
            // A what-if line from where the copies parted.
            let b = branches.len() as BranchId;
            let theirs_name = theirs
                .branches
                .get(t.branch as usize)
                .map_or("a line", |b| b.name.as_str());
            branches.push(Branch {
                id: b,
                name: format!("{theirs_name}{}{name})", Branch::FROM_COPY),
                parent: Some(on),
                fork: parent,
                // Review 1 MUST 2: another copy's line (not a take-back here
                // past seen dice), by kind (migration 9): a rename keeps it.
                kind: BranchKind::FromCopy,
            });
            head.push(None);
            lines.push((b, parent, 0));
            b
        };
        if let Some(l) = lines.iter_mut().find(|l| l.0 == branch) {
            l.2 += 1;
        } else {
            lines.push((branch, parent, 1));
        }
        let mut rec = t.clone();
        rec.parent = parent;
        rec.branch = branch;
        let parent_chain = parent.map_or(root, |p| records[p as usize].chain);
        rec.chain = chain_hash(&parent_chain, &rec, meta.rules_version);
        records.push(rec);
        head[branch as usize] = Some(n);
        children.entry(parent).or_default().push(n);
        here.push(n);
    }
    if records.len() as EntryId == first_new {
        return Ok((here, None));
    }
    // This copy's position stays, unless it was at the end of a line the
    // other copy went on with: then it follows the line to its new end.
    let new_head = head.get(mine.branch as usize).copied().flatten();
    let cursor = if mine.cursor == old_head && new_head != old_head {
        new_head
    } else {
        mine.cursor
    };
    let new_branches = branches[mine_branches..].to_vec();
    let parts = StoredBattle {
        meta,
        records,
        branches,
        snapshots: mine.snapshots,
        cursor,
        branch: mine.branch,
    };
    let mut b = games::load_battle(parts)
        .map_err(|e| format!("its entries from {name} cannot be put after this copy's: {e}"))?;
    let report = b.verify();
    if !report.ok() {
        return Err(format!(
            "its entries from {name} do not replay after this copy's: {report}"
        ));
    }
    // Review 1 MUST 6: both copies played the battle to an end, and the
    // ends differ: the campaign counts one, by a rule that does not depend
    // on which copy is merged into which (the longer line; equal lines, the
    // lower state hash of the last entry), and its line is made current.
    let their_end = theirs
        .records
        .iter()
        .rposition(|r| r.branch == theirs.branch)
        .map(|i| here[i]);
    let my_end = b.head(mine.branch);
    let mut ending = None;
    if their_end.is_some() && their_end != my_end {
        let at_end = |b: &mut Box<dyn xenolog_engine::Battle>, end: Option<EntryId>| {
            let e = end?;
            let br = b.records()[e as usize].branch;
            b.switch_branch(br).ok()?;
            b.seek(end);
            let r = &b.records()[e as usize];
            b.outcome()
                .map(|o| (b.path_to(end).len(), r.state_hash, e, br, o))
        };
        let (was_cursor, was_branch) = (b.cursor(), b.current_branch());
        let ends = (at_end(&mut b, my_end), at_end(&mut b, their_end));
        let _ = b.switch_branch(was_branch);
        b.seek(was_cursor);
        if let (Some(m), Some(t)) = ends
            && m.4 != t.4
        {
            let mine_counts = (m.0 > t.0) || (m.0 == t.0 && m.1 <= t.1);
            let (won, lost) = if mine_counts { (m, t) } else { (t, m) };
            let why = if won.0 == lost.0 {
                "the lines are as long, and its last entry's state hash is the lower"
            } else {
                "the longer line"
            };
            let _ = b.switch_branch(won.3);
            b.seek(Some(won.2));
            let bname = |x: BranchId| b.branches()[x as usize].name.clone();
            let words = format!(
                "battle {id} was played to two endings: the campaign counts \"{}\" (the branch \"{}\", {why}), made its current line; the other, \"{}\", is the branch \"{}\"",
                won.4.summary,
                bname(won.3),
                lost.4.summary,
                bname(lost.3)
            );
            let end = |x: &(usize, Hash16, EntryId, BranchId, Outcome)| Ending {
                result: x.4.summary.clone(),
                entries: x.0,
                state_hash: hex(&x.1),
            };
            let two = TwoEndings {
                battle: id,
                counted: end(&won),
                other: end(&lost),
                now: None,
            };
            ending = Some((two, why, words));
        }
    }
    let status = match b.outcome() {
        Some(o) => ("over", Some(o.summary)),
        None => ("in progress", None),
    };
    let rules_version = b.rules_version_now();
    let total = b.records().len() as EntryId;
    let snapshots = (first_new..total)
        .filter_map(|e| {
            b.snapshot_bytes(e).map(|state| StoredSnapshot {
                entry: e,
                rules_version,
                state,
            })
        })
        .collect();
    let new_records: Vec<(EntryId, EntryRecord)> = (first_new..total)
        .map(|e| (e, b.records()[e as usize].clone()))
        .collect();
    let (cursor, branch) = (b.cursor(), b.current_branch());
    let h = b.head(branch);
    if b.cursor() != h {
        b.seek(h);
    }
    let head_result = b.outcome();
    let landed = total - first_new;
    let mut words = format!(
        "battle {id} was played on in both copies: this copy's line is kept, and the {} of {name} this copy lacks landed beside it:",
        if landed == 1 {
            "entry".to_owned()
        } else {
            format!("{landed} entries")
        }
    );
    for (n, (br, fork, count)) in lines.iter().enumerate() {
        let bname = &b.branches()[*br as usize].name;
        let from = fork.map_or_else(|| "the setup".to_owned(), |f| format!("entry {f}"));
        let what = if new_branches.iter().any(|x| x.id == *br) {
            format!("as the branch \"{bname}\", a what-if line from {from}")
        } else {
            format!("on the line \"{bname}\", going on from its end at {from}")
        };
        words.push_str(&format!("{} {count} {what}", if n == 0 { "" } else { ";" }));
    }
    Ok((
        here,
        Some(Graft {
            battle: id,
            records: new_records,
            branches: new_branches,
            snapshots,
            cursor,
            branch,
            status,
            head_result,
            words,
            ending,
        }),
    ))
}

/// Review 1 MUST 3: the other copy's battle as it is stored there checks
/// out (its hash chain holds and it replays exactly) before anything of it
/// is grafted here, where its entries get chain hashes of this file; why
/// not, in words naming the entry.
fn stored_checks_out(theirs: &StoredBattle, name: &str) -> Result<(), String> {
    let b = games::load_battle(theirs.clone())
        .map_err(|e| format!("as stored in {name} it cannot be read: {e}"))?;
    let report = b.verify();
    if report.ok() {
        Ok(())
    } else {
        Err(format!(
            "as stored in {name} it does not check out: {report}"
        ))
    }
}

/// How a merge is to take the other file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// The user says the other file is a copy of this campaign although its
    /// uid differs: both were copied from one file before migration 7 gave
    /// each campaign one uid, and each got a uid of its own when upgraded
    /// (review finding SHOULD 5). Merged only if their entries from before
    /// the upgrade agree, entry by entry.
    pub same_campaign: bool,
}

/// The entries written before migration 7 (origin ''), by number.
fn legacy(log: &[(CampaignEntry, EntryKey)]) -> HashMap<u32, &CampaignEntry> {
    log.iter()
        .filter(|(_, k)| k.origin.is_empty())
        .map(|(e, k)| (k.number, e))
        .collect()
}

/// Whether two files' logs begin with the same entry written before
/// migration 7 (same number 1, time and event).
fn began_as_one(mine: &Campaign, theirs: &Campaign) -> Result<bool, SaveError> {
    let (a, b) = (mine.campaign_log_keyed()?, theirs.campaign_log_keyed()?);
    let (a, b) = (legacy(&a), legacy(&b));
    Ok(matches!((a.get(&1), b.get(&1)), (Some(x), Some(y)) if x.at == y.at && x.event == y.event))
}

/// Refuse, in words naming the first, entries written before migration 7
/// that both files number alike but that differ (SHOULD 5).
fn legacy_entries_agree(
    mine: &Campaign,
    theirs: &Campaign,
    mine_log: &[(CampaignEntry, EntryKey)],
    theirs_log: &[(CampaignEntry, EntryKey)],
    same: &HashMap<BattleId, BattleId>,
    name: &str,
) -> Result<(), SaveError> {
    let (a, b) = (legacy(mine_log), legacy(theirs_log));
    let mut numbers: Vec<u32> = a.keys().filter(|n| b.contains_key(n)).copied().collect();
    numbers.sort_unstable();
    for n in numbers {
        let (x, y) = (a[&n], b[&n]);
        // Their battle in this file's numbers.
        let mut theirs_event = y.event.clone();
        if let CampaignEvent::BattleFought { battle, .. } = &mut theirs_event {
            *battle = same.get(battle).copied().unwrap_or(BattleId::MIN);
        }
        if x.at == y.at && x.event == theirs_event {
            continue;
        }
        let here = describe(&x.event, &mine.campaign_state()?, &mine.battle_names()?);
        let there = describe(&y.event, &theirs.campaign_state()?, &theirs.battle_names()?);
        return Err(SaveError::Refused(format!(
            "{name} and this file were edited apart before they were upgraded to keep one campaign uid: entry {n} is \"{here}\" here (recorded {}) but \"{there}\" in {name} (recorded {}), so entries numbered alike in the two are not the same entries, and merging them could put one copy's later entries on the other's models: nothing was merged",
            utc(x.at),
            utc(y.at)
        )));
    }
    Ok(())
}

/// A battle as the store keeps it.
fn parts(c: &Campaign, id: BattleId) -> Result<StoredBattle, SaveError> {
    c.read_battle(id).map(|b| b.parts).map_err(|e| match e {
        crate::battles::ScanError::Save(e) => e,
        crate::battles::ScanError::Entry { seq, why } => SaveError::Corrupt {
            battle: id,
            why: format!("entry {seq} {why}"),
        },
    })
}

/// Append a graft's entries, branches and snapshots, and the position and
/// status after it, in the merge's transaction (nothing is rewritten).
fn write_graft(tx: &dyn Db, g: &Graft) -> Result<(), SaveError> {
    // Sealed into blocks where they complete one (`blocks.rs`).
    crate::blocks::write_entries(
        tx,
        g.battle,
        g.records.iter().map(|(seq, rec)| {
            let bytes = encode_entry(*seq, rec).map_err(|e| SaveError::Corrupt {
                battle: g.battle,
                why: e.to_string(),
            })?;
            Ok((*seq, bytes))
        }),
    )?;
    for b in &g.branches {
        tx.execute(
            crate::battles::INSERT_BRANCH,
            &[
                &g.battle,
                &b.id,
                &b.name,
                &b.parent,
                &b.fork.map(|f| f as i64),
                &b.kind.as_str(),
            ],
        )?;
    }
    let mut put = tx.statement(crate::battles::INSERT_SNAPSHOT)?;
    for s in &g.snapshots {
        put.execute(&[
            &g.battle,
            &(s.entry as i64),
            &encode_snapshot(s.rules_version, &s.state),
        ])?;
    }
    drop(put);
    tx.execute(
        "UPDATE battles SET cursor = ?1, branch = ?2, status = ?3, result = ?4, updated = ?5
         WHERE id = ?6",
        &[
            &g.cursor.map(|c| c as i64),
            &g.branch,
            &g.status.0,
            &g.status.1,
            &now(),
            &g.battle,
        ],
    )?;
    Ok(())
}

/// A note as stored: battle, entry, bookmark, text, created, updated.
type StoredNote = (BattleId, i64, bool, String, i64, i64);

/// Every note and bookmark of a campaign, by battle and entry.
fn all_notes(c: &Campaign) -> Result<Vec<StoredNote>, SaveError> {
    let mut notes: Vec<StoredNote> = Vec::new();
    c.conn.each(
        "SELECT battle, entry, bookmark, text, created, updated FROM notes ORDER BY battle, entry",
        &[],
        |r| {
            notes.push((
                r.get(0)?,
                r.get(1)?,
                r.get::<i64>(2)? != 0,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ));
            Ok::<(), SaveError>(())
        },
    )?;
    Ok(notes)
}

/// What joins two notes on one entry: a blank line, as a user writes
/// paragraphs.
const NOTE_JOIN: &str = "\n\n";

/// A note's parts: its paragraphs, each trimmed, the empty left out.
fn note_parts(text: &str) -> Vec<&str> {
    text.split(NOTE_JOIN)
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// Two notes on one entry as one (`created`, `text` each), the same
/// whichever is given first: a note whose every paragraph the other holds
/// whole is in it already, so the other is kept as it is; else the older
/// (ties by text) and then each paragraph of the newer it does not hold.
/// Paragraphs are compared whole, never as a piece of one ("ok" is not in
/// "look").
fn join_notes(a: (i64, &str), b: (i64, &str)) -> String {
    let (old, new) = if a <= b { (a.1, b.1) } else { (b.1, a.1) };
    let (po, pn) = (note_parts(old), note_parts(new));
    if pn.iter().all(|p| po.contains(p)) {
        return old.to_owned();
    }
    if po.iter().all(|p| pn.contains(p)) {
        return new.to_owned();
    }
    let mut out = old.to_owned();
    for p in pn.iter().filter(|p| !po.contains(p)) {
        out.push_str(NOTE_JOIN);
        out.push_str(p);
    }
    out
}

/// What [`merge_notes`] did: how many entries' annotations changed here,
/// and the other copy's battles whose notes found no entry here (not
/// copied, not grafted), with how many entries' notes each.
#[derive(Default)]
struct NotesMerged {
    changed: usize,
    left: std::collections::BTreeMap<BattleId, usize>,
}

/// The other copy's notes and bookmarks, each on its entry in this copy's
/// numbering (`entries_here`: its battles here, and where each of their
/// entries is, `None` where the numbering is the same), written in the
/// merge's transaction: a note only the other copy has lands; where both
/// copies annotate one entry, the bookmark is kept if either has it and
/// the texts are joined ([`join_notes`]: by whole paragraphs, oldest
/// first), so merging either way round gives the same. A note of a battle
/// (or an entry) that is not here is counted in `left`, for the merge to
/// say so.
fn merge_notes(
    tx: &dyn Db,
    notes: Vec<StoredNote>,
    entries_here: &HashMap<BattleId, (BattleId, Option<Vec<EntryId>>)>,
) -> Result<NotesMerged, SaveError> {
    let mut out = NotesMerged::default();
    for (battle, entry, bookmark, text, created, updated) in notes {
        let here_entry = entries_here.get(&battle).and_then(|(here, map)| match map {
            None => Some((here, entry)),
            Some(m) => m.get(entry as usize).map(|e| (here, *e as i64)),
        });
        let Some((here, entry)) = here_entry else {
            *out.left.entry(battle).or_default() += 1;
            continue;
        };
        let mine: Option<(bool, String, i64, i64)> = tx.row(
            "SELECT bookmark, text, created, updated FROM notes WHERE battle = ?1 AND entry = ?2",
            &[here, &entry],
            |r| Ok::<_, SaveError>((r.get::<i64>(0)? != 0, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        let joined = match &mine {
            None => (bookmark, text, created, updated),
            Some((b, t, c, u)) => (
                *b || bookmark,
                join_notes((*c, t), (created, &text)),
                (*c).min(created),
                (*u).max(updated),
            ),
        };
        if mine
            .as_ref()
            .is_some_and(|(b, t, _, _)| (*b, t) == (joined.0, &joined.1))
        {
            continue;
        }
        tx.execute(
            "INSERT INTO notes (battle, entry, bookmark, text, created, updated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (battle, entry) DO UPDATE
             SET bookmark = excluded.bookmark, text = excluded.text,
                 created = excluded.created, updated = excluded.updated",
            &[
                here,
                &entry,
                &i64::from(joined.0),
                &joined.1,
                &joined.2,
                &joined.3,
            ],
        )?;
        out.changed += 1;
    }
    Ok(out)
}

/// A time in words, UTC ("2026-11-27 15:20 UTC").
pub(crate) fn utc(at: i64) -> String {
    let days = at.div_euclid(86_400);
    let secs = at.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60
    )
}

/// The other copy a merge takes (session 18): a campaign file, opened
/// read-only for the merge, or a campaign already open, on either backend
/// (a file, a PostgreSQL schema, memory). `&Path`, `&PathBuf` and
/// `&Campaign` all convert into it, so [`Campaign::merge`] takes any.
#[derive(Clone, Copy, Debug)]
pub enum MergeSource<'a> {
    File(&'a Path),
    Open(&'a Campaign),
}

impl<'a> From<&'a Path> for MergeSource<'a> {
    fn from(p: &'a Path) -> Self {
        MergeSource::File(p)
    }
}
impl<'a> From<&'a std::path::PathBuf> for MergeSource<'a> {
    fn from(p: &'a std::path::PathBuf) -> Self {
        MergeSource::File(p)
    }
}
impl<'a> From<&'a Campaign> for MergeSource<'a> {
    fn from(c: &'a Campaign) -> Self {
        MergeSource::Open(c)
    }
}

/// The other copy in words: a file by its name, a PostgreSQL campaign as
/// "PostgreSQL schema NAME" (never its connection string).
fn copy_name(theirs: MergeSource<'_>) -> String {
    let path = match theirs {
        MergeSource::File(p) => p,
        MergeSource::Open(c) if c.postgres_schema().is_some() => {
            return c.path().display().to_string();
        }
        MergeSource::Open(c) if c.is_in_memory() => return "the other copy".into(),
        MergeSource::Open(c) => c.path(),
    };
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Whether two open campaigns are one store: the same file, or the same
/// schema of the same PostgreSQL database (its name and the server's
/// address and port).
fn same_store(a: &Campaign, b: &Campaign) -> Result<bool, SaveError> {
    match (a.postgres_schema(), b.postgres_schema()) {
        (Some(_), Some(_)) => Ok(a.conn.postgres_place()? == b.conn.postgres_place()?),
        (None, None) if !a.is_in_memory() && !b.is_in_memory() => Ok(matches!(
            (std::fs::canonicalize(a.path()), std::fs::canonicalize(b.path())),
            (Ok(x), Ok(y)) if x == y
        )),
        _ => Ok(false),
    }
}

impl Campaign {
    /// Merge another copy of this campaign into this one (see the module
    /// docs): its battles copied over, its log entries landed, the entries
    /// that no longer validate set aside as conflicts. `theirs` is only
    /// read: a file ([`MergeSource::File`]) or a campaign open on either
    /// backend ([`MergeSource::Open`]: a PostgreSQL copy into a file, a
    /// file into a PostgreSQL campaign).
    pub fn merge<'t>(&mut self, theirs: impl Into<MergeSource<'t>>) -> Result<Merged, SaveError> {
        self.merge_with(theirs, MergeOptions::default())
    }

    /// Whether the file at `theirs_path` may be a copy of this campaign
    /// made before copies kept one uid (review finding SHOULD 5): its uid
    /// differs, and its log begins with this log's first entry (same time,
    /// same event), written before migration 7. The user is to say whether
    /// it is one ([`MergeOptions::same_campaign`]).
    pub fn may_be_older_copy(&self, theirs_path: &Path) -> bool {
        let Ok(theirs) = Campaign::open_read_only(theirs_path) else {
            return false;
        };
        matches!((self.uid(), theirs.uid()), (Ok(a), Ok(b)) if a != b)
            && began_as_one(self, &theirs).unwrap_or(false)
    }

    /// [`Campaign::merge`], with [`MergeOptions`].
    pub fn merge_with<'t>(
        &mut self,
        theirs: impl Into<MergeSource<'t>>,
        options: MergeOptions,
    ) -> Result<Merged, SaveError> {
        self.writable()?;
        let source = theirs.into();
        let name = copy_name(source);
        // This campaign's own file (or schema) is no other copy of it.
        let own = match source {
            MergeSource::File(p) => matches!(
                (std::fs::canonicalize(self.path()), std::fs::canonicalize(p)),
                (Ok(a), Ok(b)) if a == b && !self.is_in_memory() && self.postgres_schema().is_none()
            ),
            MergeSource::Open(c) => same_store(self, c)?,
        };
        if own {
            let what = if self.postgres_schema().is_some() {
                "schema"
            } else {
                "file"
            };
            return Err(SaveError::Refused(format!(
                "{name} is this campaign's own {what}, not another copy of it: nothing was merged"
            )));
        }
        let opened;
        let theirs: &Campaign = match source {
            MergeSource::File(p) => {
                opened = Campaign::open_read_only(p)?;
                &opened
            }
            MergeSource::Open(c) => c,
        };
        // A copy that cannot be written meanwhile by this open is read from
        // one snapshot (a file opened here, or a read-only PostgreSQL
        // campaign that others may be writing): every battle and log entry
        // as they were at one moment. A writable open campaign is read as
        // it is (its reads may refresh its caches, which a read-only
        // snapshot would refuse).
        let seen = if theirs.is_read_only() && !theirs.conn.in_transaction() {
            Some(theirs.conn.begin(Begin::Snapshot)?)
        } else {
            None
        };
        let mut out = Merged::default();
        let other_uid = theirs.uid()? != self.uid()?;
        if other_uid && !options.same_campaign {
            let hint = if began_as_one(self, theirs)? {
                " (if both are copies of one campaign made before Xenolog kept one uid per campaign, as their first entries suggest, say so to merge them: --same-campaign)"
            } else {
                ""
            };
            return Err(SaveError::Refused(format!(
                "{name} is another campaign ({}), not a copy of this one ({}){hint}: nothing was merged",
                theirs.name()?,
                self.name()?
            )));
        }
        // Review 1 MUST 5: said to be one campaign, they must have begun as
        // one (the same first entry, written before migration 7).
        if other_uid && options.same_campaign && !began_as_one(self, theirs)? {
            return Err(SaveError::Refused(format!(
                "{name} ({}) and this file ({}) did not begin as one campaign: their logs do not begin with the same entry written before Xenolog kept one uid per campaign, so --same-campaign cannot make them one: nothing was merged",
                theirs.name()?,
                self.name()?
            )));
        }
        // Battles: the same in both, or only in theirs (copied, checked first).
        let here = battles_of(self)?;
        let there = battles_of(theirs)?;
        let mut same: HashMap<BattleId, BattleId> = HashMap::new();
        let mut to_copy = Vec::new();
        let mut not_copied: HashMap<BattleId, String> = HashMap::new();
        // The other copy's battles whose entries did not land (for their
        // notes, which then cannot): why, in words.
        let mut not_landed: HashMap<BattleId, String> = HashMap::new();
        let mut grafts: Vec<Graft> = Vec::new();
        // Where the other copy's entries of a battle are here, for its
        // notes: (battle here, its entries' numbers here; `None`: the same).
        let mut entries_here: HashMap<BattleId, (BattleId, Option<Vec<EntryId>>)> = HashMap::new();
        // Battles played to two endings: set aside (their start as `at`).
        let mut endings: Vec<(TwoEndings, &'static str, i64)> = Vec::new();
        // Review 1 MUST 4: matched one to one, in order of their numbers (a
        // battle held twice in a file, its file imported back, is two
        // battles in each copy): a battle of theirs beyond this copy's of
        // the same identity is copied over as its own battle.
        let mut matched: HashSet<BattleId> = HashSet::new();
        for (tid, ident, _) in &there {
            match here
                .iter()
                .find(|(m, i, _)| i == ident && !matched.contains(m))
            {
                Some((mid, _, _)) => {
                    matched.insert(*mid);
                    same.insert(*tid, *mid);
                    if self.entries_digest(*mid)? == theirs.entries_digest(*tid)? {
                        entries_here.insert(*tid, (*mid, None));
                        continue;
                    }
                    // Review finding SHOULD 7: this copy's line is kept, and
                    // the other copy's continuation lands beside it.
                    let mine_parts = parts(self, *mid)?;
                    let got = parts(theirs, *tid)
                        .map_err(|e| e.to_string())
                        .and_then(|t| {
                            stored_checks_out(&t, &name)?;
                            graft(*mid, mine_parts, &t, &name)
                        });
                    match got {
                        Ok((map, g)) => {
                            entries_here.insert(*tid, (*mid, Some(map)));
                            if let Some(g) = g {
                                out.grafted += g.records.len();
                                out.notices.push(g.words.clone());
                                if let Some((two, why, words)) = &g.ending {
                                    out.conflicts.push(words.clone());
                                    endings.push((two.clone(), why, ident.2));
                                }
                                grafts.push(g);
                            }
                        }
                        Err(why) => {
                            out.notices.push(format!(
                                "battle {mid} was played on in both copies; what {name} has of it beyond this copy's did not land ({why}): this copy's is kept as it was"
                            ));
                            not_landed.insert(
                                *tid,
                                format!("what {name} has of battle {mid} did not land"),
                            );
                        }
                    }
                }
                None => {
                    let f = theirs.battle_file(*tid).map_err(|e| match e {
                        SaveError::Corrupt { why, .. } => SaveError::Refused(format!(
                            "battle {tid} of {name} is damaged ({why}): nothing was merged"
                        )),
                        e => e,
                    })?;
                    let title = f.title.clone();
                    match checked(f) {
                        Ok(c) => to_copy.push((*tid, c)),
                        Err(why) => {
                            out.notices.push(format!(
                                "battle {tid} of {name} ({title}) was not copied: {why}"
                            ));
                            not_copied.insert(
                                *tid,
                                format!("its battle ({title}) was not copied: {why}"),
                            );
                            not_landed.insert(
                                *tid,
                                format!("battle {tid} of {name} ({title}) was not copied"),
                            );
                        }
                    }
                }
            }
        }
        let mine_log = self.campaign_log_keyed()?;
        let theirs_log = theirs.campaign_log_keyed()?;
        if other_uid {
            // Review finding SHOULD 5: said to be a copy of this campaign,
            // though each file got its own uid when upgraded. Their entries
            // from before the upgrade share keys by number only: an entry
            // numbered alike must be the same entry in both, else the
            // copies were edited apart before the upgrade, and merging
            // could put one copy's later entries on the other's models.
            legacy_entries_agree(self, theirs, &mine_log, &theirs_log, &same, &name)?;
            out.notices.push(format!(
                "{name} has a campaign uid of its own (it was upgraded apart from this file, from before copies kept one uid): it was merged as a copy of this campaign, as you said, and its entries from before the upgrade are the same as this file's. It keeps its own uid, so a roster battle exported from it still arrives here bare: carry this merged file to that machine in its place to make them one campaign again"
            ));
        }
        let mut mine_conflicts = self.stored_conflicts()?;
        let set_aside: HashSet<EntryKey> = mine_conflicts.iter().map(|c| c.key.clone()).collect();
        let theirs_conflicts = theirs.stored_conflicts()?;
        let theirs_notes = all_notes(theirs)?;
        drop(seen);
        let origin_words = format!("from {name}");
        // Each named battle of this file, at the head of its current branch.
        let mut results: HashMap<BattleId, Option<Outcome>> = HashMap::new();
        for (id, _, _) in &here {
            let named = mine_log.iter().any(|(e, _)| {
                matches!(&e.event, CampaignEvent::BattleFought { battle, .. } if battle == id)
            }) || theirs_log.iter().any(|(e, _)| {
                matches!(&e.event, CampaignEvent::BattleFought { battle, .. } if same.get(battle) == Some(id))
            });
            if named {
                results.insert(*id, self.head_result(*id)?);
            }
        }

        for g in &grafts {
            if let Some(r) = results.get_mut(&g.battle) {
                *r = g.head_result.clone();
            }
        }

        let tx = self.conn.begin(Begin::Immediate)?;
        for g in &grafts {
            write_graft(&tx, g)?;
        }
        for (tid, mut c) in to_copy {
            let id = insert_checked(&tx, &c, &format!("merged from {name}"))?;
            same.insert(tid, id);
            entries_here.insert(tid, (id, None));
            let head = c.battle.head(c.battle.current_branch());
            if c.battle.cursor() != head {
                c.battle.seek(head);
            }
            results.insert(id, c.battle.outcome());
            out.copied.push(c.title.clone());
        }
        let mut mine = items(&mine_log, Side::Mine, &|b| Ok(b));
        let mut their = items(&theirs_log, Side::Theirs, &|b| {
            same.get(&b).copied().ok_or_else(|| {
                not_copied
                    .get(&b)
                    .cloned()
                    .unwrap_or_else(|| format!("its battle {b} is not in {name}"))
            })
        });
        let mine_keys: HashMap<EntryKey, usize> = mine
            .iter()
            .enumerate()
            .map(|(n, i)| (i.key.clone(), n))
            .collect();
        let mut conflicts: Vec<(Item, String)> = Vec::new();
        // An entry both have is kept in its place (so what came after it in
        // that copy stays after it), landing once, as this copy's.
        let shared: HashSet<EntryKey> = their
            .iter()
            .filter(|t| mine_keys.contains_key(&t.key))
            .map(|t| t.key.clone())
            .collect();
        their.retain(|t| shared.contains(&t.key) || !set_aside.contains(&t.key));
        let ((my_models, my_rosters), (their_models, their_rosters)) =
            untangle(&mut mine, &mut their, &shared);
        // Review 1 MUST 1: this copy's kept conflicts are in this file's
        // numbers (migration 7): they follow this copy's recruits where the
        // merge renumbers them (rewritten below, in the transaction).
        let mut renumbered: Vec<(u32, String)> = Vec::new();
        for c in &mut mine_conflicts {
            if let SetAside::Entry(event) = &mut c.what {
                let before = serde_json::to_string(event).unwrap_or_default();
                renumber(event, &my_models, &my_rosters);
                let after = serde_json::to_string(event).unwrap_or_default();
                if after != before {
                    renumbered.push((c.id, after));
                }
            }
        }
        // What is set aside already, each key with its event: an entry is
        // set aside again only as another version of it (never lost).
        let mut kept: HashSet<(EntryKey, String)> = mine_conflicts
            .into_iter()
            .map(|c| (c.key, c.what.stored().1))
            .collect();
        for t in their.iter().filter(|t| shared.contains(&t.key)) {
            if let Some(n) = mine_keys.get(&t.key)
                && !mine[*n].same(t)
            {
                conflicts.push((
                    t.clone(),
                    "this copy has another entry under the same key".into(),
                ));
            }
        }
        let merged = interleave(mine, their, &shared);
        // Fold entry by entry; whatever no longer validates is set aside.
        let table = skill_table();
        let res = |b: BattleId| results.get(&b).cloned().flatten();
        let mut log: Vec<CampaignEntry> = Vec::new();
        let mut keys: Vec<EntryKey> = Vec::new();
        let mut new_id: HashMap<EntryKey, u32> = HashMap::new();
        for mut item in merged {
            if let Some(why) = item.blocked.clone() {
                conflicts.push((item, why));
                continue;
            }
            if let CampaignEvent::Undone { entry } | CampaignEvent::Redone { entry } =
                &mut item.event
            {
                match item.target.as_ref().and_then(|k| new_id.get(k)) {
                    Some(n) => *entry = *n,
                    None => {
                        conflicts.push((
                            item,
                            "the entry it takes back or puts back did not land".into(),
                        ));
                        continue;
                    }
                }
            }
            let state = fold(&log, &res, &table, None);
            if let Err(e) = decide(&state, &log, &item.event, &table, &ShippedFactions) {
                conflicts.push((item, e.message));
                continue;
            }
            let id = log.len() as u32 + 1;
            new_id.insert(item.key.clone(), id);
            log.push(CampaignEntry {
                id,
                at: item.at,
                event: item.event.clone(),
            });
            keys.push(item.key.clone());
            if item.side == Side::Theirs {
                out.added += 1;
            }
        }
        for (id, text) in &renumbered {
            tx.execute(
                "UPDATE campaign_conflicts SET event = ?1 WHERE id = ?2",
                &[text, id],
            )?;
        }
        tx.execute("DELETE FROM campaign_log", &[])?;
        for (e, k) in log.iter().zip(&keys) {
            let text = serde_json::to_string(&e.event)
                .map_err(|e| SaveError::Sql(format!("a campaign event cannot be written: {e}")))?;
            tx.execute(
                "INSERT INTO campaign_log (id, at, event, origin, origin_id) VALUES (?1, ?2, ?3, ?4, ?5)",
                &[&e.id, &e.at, &text, &k.origin, &k.number],
            )?;
        }
        let merged_at = now();
        let mut aside =
            |key: &EntryKey, at: i64, what: &SetAside, why: &str| {
                let (kind, text) = what.stored();
                // Set aside once; another version under the same key (this
                // copy's entry that no longer validates, where the other copy's
                // was set aside before) is kept beside it.
                if !kept.insert((key.clone(), text.clone())) {
                    return Ok::<bool, SaveError>(false);
                }
                tx.execute(
                "INSERT INTO campaign_conflicts (origin, origin_id, at, event, why, merged, kind)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                &[&key.origin, &key.number, &at, &text, &why, &merged_at, &kind],
            )?;
                Ok(true)
            };
        let mut fresh = Vec::new();
        for (item, why) in &conflicts {
            if aside(
                &item.key,
                item.at,
                &SetAside::Entry(item.event.clone()),
                why,
            )? {
                fresh.push((item.side, item.at, item.event.clone(), why.clone()));
            }
        }
        // A battle played to two endings: set aside under its number here,
        // so it is listed again later (`campaign log`) and merging either
        // way round keeps the same (listed in words above, by branch).
        for (two, why, at) in endings {
            let key = EntryKey {
                origin: TwoEndings::ORIGIN.into(),
                number: two.battle as u32,
            };
            aside(&key, at, &SetAside::Ending(two), why)?;
        }
        // The other copy's own conflicts stay kept here too.
        for mut c in theirs_conflicts {
            if new_id.contains_key(&c.key) {
                continue;
            }
            match &mut c.what {
                SetAside::Entry(event) => {
                    if let CampaignEvent::BattleFought { battle, .. } = event {
                        *battle = same.get(battle).copied().unwrap_or(0);
                    }
                    // In this file's numbers: its models and rosters as the
                    // merge renumbered the other copy's.
                    renumber(event, &their_models, &their_rosters);
                }
                SetAside::Ending(two) => {
                    let Some(here) = same.get(&two.battle).copied() else {
                        continue;
                    };
                    two.battle = here;
                    c.key.number = here as u32;
                }
            }
            aside(&c.key, c.at, &c.what, &c.why)?;
        }
        let notes = merge_notes(&tx, theirs_notes, &entries_here)?;
        out.notes = notes.changed;
        // A note that found no entry here is said, never dropped unsaid.
        for (tid, n) in notes.left {
            let why = not_landed
                .get(&tid)
                .cloned()
                .unwrap_or_else(|| format!("battle {tid} of {name} is not here"));
            out.notices.push(format!(
                "the notes and bookmarks of {} of battle {tid} of {name} did not come over: {why}, so they have no entry here",
                if n == 1 {
                    "1 entry".to_owned()
                } else {
                    format!("{n} entries")
                }
            ));
        }
        // The log was written with its own numbers: on PostgreSQL the next
        // number the database chooses follows them (SQLite's rowid does).
        self.conn.catch_up_identities()?;
        tx.commit()?;
        let state = self.campaign_state()?;
        let names = self.battle_names()?;
        for (side, at, event, why) in fresh {
            out.conflicts.push(format!(
                "{}: {} (recorded {}) was set aside: {}",
                match side {
                    Side::Mine => "from this copy",
                    Side::Theirs => origin_words.as_str(),
                },
                describe(&event, &state, &names),
                utc(at),
                names.words(&why)
            ));
        }
        Ok(out)
    }

    /// The campaign log entries merges set aside (not applied, kept), oldest
    /// first; a battle's two endings with the one the campaign counts now
    /// ([`TwoEndings::now`], by where the battle's current line ends: its
    /// line may have been switched since the merge).
    pub fn campaign_conflicts(&self) -> Result<Vec<Conflict>, SaveError> {
        let mut out = self.stored_conflicts()?;
        for c in &mut out {
            if let SetAside::Ending(two) = &mut c.what {
                two.now = self.ending_now(two)?;
            }
        }
        Ok(out)
    }

    /// Which of `two`'s endings battle `two.battle`'s current line ends in
    /// (`None`: the battle is not in this file).
    fn ending_now(&self, two: &TwoEndings) -> Result<Option<Counts>, SaveError> {
        match self.summary(two.battle) {
            Err(SaveError::NoSuchBattle(_)) => return Ok(None),
            Err(e) => return Err(e),
            Ok(_) => {}
        }
        let b = self.load_battle(two.battle)?;
        let end = b
            .head(b.current_branch())
            .map(|e| hex(&b.records()[e as usize].state_hash));
        Ok(Some(match end {
            Some(h) if h == two.counted.state_hash => Counts::Counted,
            Some(h) if h == two.other.state_hash => Counts::Other,
            _ => Counts::Neither,
        }))
    }

    /// The conflicts as the merges stored them (a battle's two endings
    /// without [`TwoEndings::now`]).
    fn stored_conflicts(&self) -> Result<Vec<Conflict>, SaveError> {
        let mut out = Vec::new();
        self.conn.each(
            "SELECT id, origin, origin_id, at, event, why, kind FROM campaign_conflicts ORDER BY id",
            &[],
            |r| {
                let id: u32 = r.get(0)?;
                let text: String = r.get(4)?;
                let kind: String = r.get(6)?;
                let bad = |e: serde_json::Error| {
                    SaveError::Sql(format!("conflict {id} cannot be read: {e}"))
                };
                let what = match kind.as_str() {
                    "ending" => SetAside::Ending(serde_json::from_str(&text).map_err(bad)?),
                    "entry" => SetAside::Entry(serde_json::from_str(&text).map_err(bad)?),
                    other => {
                        return Err(SaveError::Sql(format!(
                            "conflict {id} cannot be read: it is of a kind this build does not know ({other})"
                        )));
                    }
                };
                out.push(Conflict {
                    id,
                    key: EntryKey {
                        origin: r.get(1)?,
                        number: r.get(2)?,
                    },
                    at: r.get(3)?,
                    what,
                    why: r.get(5)?,
                });
                Ok::<(), SaveError>(())
            },
        )?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::join_notes;

    /// merge_notes' join (session 23): notes are compared by whole
    /// paragraph, never as a piece of one: "ok" is not in "look".
    #[test]
    fn notes_join_by_whole_paragraphs_ok_is_not_in_look() {
        assert_eq!(join_notes((1, "look"), (2, "ok")), "look\n\nok");
        assert_eq!(join_notes((2, "ok"), (1, "look")), "look\n\nok");
        // A note the other holds as a paragraph lands once.
        assert_eq!(
            join_notes((1, "a fair roll"), (2, "Benton\n\na fair roll")),
            "Benton\n\na fair roll"
        );
        assert_eq!(join_notes((1, "a\n\nb"), (2, "b")), "a\n\nb");
        // Joined notes joined again with one of theirs: nothing twice.
        let once = join_notes((1, "x\n\ny"), (2, "x\n\nz"));
        assert_eq!(once, "x\n\ny\n\nz");
        assert_eq!(join_notes((1, &once), (2, "x\n\nz")), once);
        assert_eq!(join_notes((2, "x\n\nz"), (1, &once)), once);
        // Equal times: by text, the same whichever comes first.
        assert_eq!(
            join_notes((5, "b"), (5, "a")),
            join_notes((5, "a"), (5, "b"))
        );
    }
}
