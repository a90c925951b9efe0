//! A battle in play: its entries as a tree of branches, a cursor, snapshots for
//! fast seeking, and `verify`.
//!
//! Entries live in an append-only arena; an entry's id is its index. Each entry
//! names its parent, so the arena is a tree: a command given with the cursor
//! somewhere other than the head of the current branch starts a new branch there,
//! and every old line stays. Undo and redo only move the cursor. The stream
//! position is part of the state at every entry, so the same command from the
//! same point always rolls the same dice: undo is no way to reroll.
//!
//! Commands and events are kept encoded (postcard) in [`EntryRecord`]s, which is
//! also what the store persists; the state at any entry is the nearest snapshot
//! folded forward through at most [`SNAPSHOT_EVERY`] entries.

use std::any::Any;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::game::{Actor, Game, Outcome, RuleError, RuleErrorKind, SetupError};
use crate::hash::{Hash16, chain_hash, hash_state, root_chain, state_hash};
pub use crate::meta::BattleMeta;
use crate::record::EntryHead;
pub use crate::record::{BranchId, EntryId, EntryRecord};
use crate::rng::Randomness;

/// A snapshot of the state is kept at every entry whose depth (entries from
/// the setup) is a multiple of this, so a seek folds at most this many entries.
/// Chosen by the `seek` benchmark (BENCHMARKS.md).
pub const SNAPSHOT_EVERY: u32 = 64;

/// A snapshot as stored: the state after an entry, postcard in the layout of
/// the rules version that wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSnapshot {
    pub entry: EntryId,
    pub rules_version: u32,
    pub state: Vec<u8>,
}

/// Everything a battle is rebuilt from, as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredBattle {
    pub meta: BattleMeta,
    /// Every entry, in id order.
    pub records: Vec<EntryRecord>,
    /// Every branch, in id order.
    pub branches: Vec<Branch>,
    /// Snapshots: a cache; missing, unreadable or older ones are rebuilt.
    pub snapshots: Vec<StoredSnapshot>,
    /// The player's position (`None`: at the setup).
    pub cursor: Option<EntryId>,
    /// The current branch.
    pub branch: BranchId,
}

/// A line of play. Branch 0 is the main line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branch {
    pub id: BranchId,
    pub name: String,
    /// The branch it parted from.
    pub parent: Option<BranchId>,
    /// The entry after which it parted (`None`: from the setup).
    pub fork: Option<EntryId>,
    /// How the line came to be (campaign migration 9 stores it; issue 30
    /// item 9): told by this, never by the branch's name. Absent from a
    /// branch written before kinds were kept: unrecorded, so loading works
    /// it out (not `Main`, which would skip that).
    #[serde(default = "BranchKind::unrecorded")]
    pub kind: BranchKind,
}

/// How a line of play came to be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BranchKind {
    /// The main line (branch 0).
    #[default]
    Main,
    /// Started here by taking a command back while the line it left was
    /// still being played.
    TakeBack,
    /// Started here from an earlier point of a line that had been played to
    /// its end: "what if I had fired first?".
    WhatIf,
    /// Another copy's line of the campaign, grafted here by a merge of two
    /// copies (saves' merge): its entries were played there, not taken back
    /// here.
    FromCopy,
    /// Stored before kinds were kept (a campaign file of schema 8 or older,
    /// a battle file): [`Session::from_parts`] tells which it is on loading
    /// ([`Branch::FROM_COPY`] in its name, else as a take-back or a what-if
    /// by whether the line it left had ended).
    Unrecorded,
}

impl BranchKind {
    /// The kind of a branch read without one (serde's default).
    fn unrecorded() -> Self {
        BranchKind::Unrecorded
    }

    /// The kind as stored and as `branches --json` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            BranchKind::Main => "main",
            BranchKind::TakeBack => "take-back",
            BranchKind::WhatIf => "what-if",
            BranchKind::FromCopy => "from-copy",
            BranchKind::Unrecorded => "unrecorded",
        }
    }

    /// A stored kind; `None` (no kind stored, or one this build does not
    /// know) reads as [`BranchKind::Unrecorded`].
    pub fn parse(stored: Option<&str>) -> BranchKind {
        match stored {
            Some("main") => BranchKind::Main,
            Some("take-back") => BranchKind::TakeBack,
            Some("what-if") => BranchKind::WhatIf,
            Some("from-copy") => BranchKind::FromCopy,
            _ => BranchKind::Unrecorded,
        }
    }

    /// The kind in words, as the app and the command line show it.
    pub fn words(self) -> &'static str {
        match self {
            BranchKind::Main => "main line",
            BranchKind::TakeBack => "take-back",
            BranchKind::WhatIf => "what-if",
            BranchKind::FromCopy => "another copy's line",
            BranchKind::Unrecorded => "a line",
        }
    }
}

impl Branch {
    /// What the name of a line grafted by a merge of two copies of a
    /// campaign holds: "Main (from the copy laptop.xenolog)" (saves' merge).
    /// Only read for lines stored before kinds were kept.
    pub const FROM_COPY: &'static str = " (from the copy ";

    /// Whether this line came from another copy of the campaign (a merge
    /// grafted it): its entries were played there, not taken back here.
    pub fn from_another_copy(&self) -> bool {
        self.kind == BranchKind::FromCopy
    }
}

/// A decided command, not yet part of the session: the store writes it to disk,
/// then [`Session::commit`] makes it visible. Dropping it changes nothing.
pub struct Pending {
    pub kind: PendingKind,
    /// The battle's result after this entry, if it ends the battle, so the
    /// store can write the status in the same transaction as the entry.
    pub outcome: Option<Outcome>,
    state: Option<Box<dyn Any + Send>>,
    /// Where it was decided: the cursor, the current branch and the number
    /// of entries then. Committed anywhere else it is stale.
    at: (Option<EntryId>, BranchId, usize),
}

/// A [`Pending`] committed after the battle moved (another command was
/// committed, or the cursor or branch changed since it was decided): nothing
/// was changed; decide the command again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the command was decided before the battle moved on: decide it again")]
pub struct StalePending;

/// What committing a [`Pending`] will do.
// One Pending exists at a time, briefly: boxing the large variant buys nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PendingKind {
    /// The same command from the same point was given before: the cursor moves
    /// onto the recorded entry, nothing new is written.
    Redo { entry: EntryId },
    /// A new entry, perhaps on a new branch, perhaps with a snapshot to store.
    New {
        id: EntryId,
        record: EntryRecord,
        new_branch: Option<Branch>,
        snapshot: Option<Vec<u8>>,
    },
}

/// Why a session could not be rebuilt from stored parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("entry {entry} is corrupt: {why}")]
    Corrupt { entry: EntryId, why: String },
    #[error("the battle's setup failed: {0}")]
    Setup(#[from] SetupError),
    #[error("the battle's config is not valid: {0}")]
    Config(String),
    #[error("{0}")]
    Other(String),
}

/// The first thing `verify` found wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Divergence {
    pub entry: EntryId,
    pub kind: DivergenceKind,
    /// A readable difference.
    pub detail: String,
}

/// How an entry failed verification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DivergenceKind {
    /// The stored bytes do not match the hash chain: changed after recording.
    Tampered,
    /// The stored bytes cannot be read at all.
    Corrupt,
    /// Replaying under today's rules gives another result than recorded, and
    /// the battle was recorded under another rules version.
    RulesChanged { recorded: u32, now: u32 },
    /// Replaying under the same rules version gives another result: the game
    /// is not deterministic, or the log was rewritten with fresh hashes.
    Diverged,
    /// A stored snapshot differs from the state the entries fold to.
    Snapshot,
}

/// One entry replayed by `verify`: the state after it, and whether it
/// hashed as recorded.
enum Replayed<S> {
    /// Decided and hashed as recorded.
    Same(S),
    /// An entry of older rules decided as recorded (the same refusal, events
    /// and dice) whose state hashes differently: the stored layout changed.
    Relaid(S, Divergence),
}

/// The result of `verify`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyReport {
    pub entries: u64,
    /// The first thing that does not check out: a changed or unreadable
    /// entry, or one decided under today's rules that does not replay.
    pub problem: Option<Divergence>,
    /// Entries recorded under an older rules version than today's.
    #[serde(default)]
    pub older: u64,
    /// The first entry (by id) recorded under an older rules version that
    /// today's rules decide differently. Not a failure: the battle shows it
    /// as recorded, and entries after it are checked from the recorded state.
    #[serde(default)]
    pub rules_changed: Option<Divergence>,
    /// The first entry (by id) recorded under an older rules version that
    /// today's rules decide the same (the same refusal, events and dice) but
    /// whose state hashes differently: the state's stored layout changed
    /// since (a field added), which is expected. Not a failure, and not a
    /// decision change: `rules_changed` names the first entry decided
    /// differently, if any, whatever comes before it.
    #[serde(default)]
    pub layout_changed: Option<Divergence>,
}

impl VerifyReport {
    /// A report of `entries` entries that found `problem`.
    pub fn failed(entries: u64, problem: Divergence) -> Self {
        Self {
            entries,
            problem: Some(problem),
            older: 0,
            rules_changed: None,
            layout_changed: None,
        }
    }

    /// Nothing is wrong: every byte is as recorded and every entry decided
    /// under today's rules replays (older ones may be decided differently now).
    pub fn ok(&self) -> bool {
        self.problem.is_none()
    }
}

impl std::fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.problem {
            None => {
                let (n, replay, check) = match self.entries {
                    1 => ("1 entry".to_owned(), "replays", "checks"),
                    n => (format!("{n} entries"), "replay", "check"),
                };
                let inexact = self.rules_changed.is_some() || self.layout_changed.is_some();
                match (inexact, self.older) {
                    (_, 0) | (false, _) => write!(f, "ok: {n} {replay} exactly")?,
                    (true, _) => write!(
                        f,
                        "ok: {n} {check} out (the hash chain holds and every entry decided \
                         under today's rules replays exactly)"
                    )?,
                }
                match self.older {
                    0 => {}
                    1 => write!(f, "; 1 was recorded under an older rules version")?,
                    k => write!(
                        f,
                        "; {k} of them were recorded under an older rules version"
                    )?,
                }
                if let Some(d) = &self.rules_changed
                    && let DivergenceKind::RulesChanged { recorded, now } = d.kind
                {
                    write!(
                        f,
                        "\nnote: today's rules (version {now}) decide entry {} differently than \
                         version {recorded} did; the battle shows it as it was recorded\n{}",
                        d.entry, d.detail
                    )?;
                }
                if let Some(d) = &self.layout_changed {
                    write!(
                        f,
                        "\nnote: entry {} was decided the same, hashed differently: the state's \
                         stored layout changed, expected\n{}",
                        d.entry, d.detail
                    )?;
                }
                Ok(())
            }
            Some(d) => {
                let what = match &d.kind {
                    DivergenceKind::Tampered => {
                        "was changed after it was recorded (corruption or tampering)".to_owned()
                    }
                    DivergenceKind::Corrupt => "cannot be read (corrupt)".to_owned(),
                    DivergenceKind::RulesChanged { recorded, now } => format!(
                        "replays differently: recorded under rules version {recorded}, now {now}"
                    ),
                    DivergenceKind::Diverged => {
                        "does not replay as recorded under the same rules version".to_owned()
                    }
                    DivergenceKind::Snapshot => {
                        "has a stored snapshot that does not match".to_owned()
                    }
                };
                write!(f, "FAILED at entry {}: it {what}\n{}", d.entry, d.detail)
            }
        }
    }
}

fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Invariant: postcard encoding into a Vec only fails for types serde cannot
    // describe (maps with non-string keys are fine); our game types are plain.
    // The engine's encoder writes postcard's bytes (crate::encode), shared
    // content copied from its cache.
    crate::encode::to_vec(value).expect("game types always encode")
}

/// An entry's first child or next sibling in the tree, in four bytes
/// rather than an `Option<EntryId>`'s sixteen: two of these per entry were
/// a sixth of a long battle's memory. A battle holds fewer than `u32::MAX`
/// entries ([`Session::from_parts`] refuses more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Link(u32);

impl Link {
    const NONE: Link = Link(u32::MAX);

    fn to(id: EntryId) -> Link {
        debug_assert!(id < u64::from(u32::MAX), "a battle of 2^32 entries");
        Link(id as u32)
    }

    fn get(self) -> Option<EntryId> {
        (self != Link::NONE).then_some(u64::from(self.0))
    }
}

/// One battle of game `G`.
pub struct Session<G: Game> {
    meta: BattleMeta,
    config: G::Config,
    initial: G::State,
    root_chain: Hash16,
    records: Vec<EntryRecord>,
    depth: Vec<u32>,
    first_child: Vec<Link>,
    next_sibling: Vec<Link>,
    root_first: Link,
    branches: Vec<Branch>,
    branch_head: Vec<Option<EntryId>>,
    snapshots: HashMap<EntryId, G::State>,
    /// Snapshots rebuilt on loading (missing, unreadable or of other rules),
    /// for the store to write back.
    rebuilt: Vec<EntryId>,
    cursor: Option<EntryId>,
    branch: BranchId,
    at_cursor: G::State,
    corrupt: std::cell::Cell<Option<EntryId>>,
    /// Rebuilt from stored parts ([`Session::from_parts`]): its entries and
    /// config came from outside and are untrusted until verified.
    stored: bool,
}

impl<G: Game> Session<G> {
    /// A fresh battle.
    pub fn new(seed: u64, config: G::Config) -> Result<Self, SetupError> {
        Self::new_with(seed, config, false)
    }

    /// A fresh battle, strict or not (see [`BattleMeta::strict`]).
    pub fn new_with(seed: u64, config: G::Config, strict: bool) -> Result<Self, SetupError> {
        let initial = G::setup(&config)?;
        let meta = BattleMeta {
            game: G::ID.to_owned(),
            seed,
            rules_version: G::RULES_VERSION,
            config: serde_json::to_string(&config)
                .map_err(|e| SetupError(format!("config cannot be written: {e}")))?,
            strict,
            fair: None,
        };
        Ok(Self::empty(meta, config, initial))
    }

    fn empty(meta: BattleMeta, config: G::Config, initial: G::State) -> Self {
        Self {
            root_chain: root_chain(&meta),
            meta,
            config,
            at_cursor: initial.clone(),
            initial,
            records: Vec::new(),
            depth: Vec::new(),
            first_child: Vec::new(),
            next_sibling: Vec::new(),
            root_first: Link::NONE,
            branches: vec![Branch {
                id: 0,
                name: "Main".to_owned(),
                parent: None,
                fork: None,
                kind: BranchKind::Main,
            }],
            branch_head: vec![None],
            snapshots: HashMap::new(),
            rebuilt: Vec::new(),
            cursor: None,
            branch: 0,
            corrupt: std::cell::Cell::new(None),
            stored: false,
        }
    }

    /// Parse a stored config.
    pub fn parse_config(json: &str) -> Result<G::Config, LoadError> {
        serde_json::from_str(json).map_err(|e| LoadError::Config(e.to_string()))
    }

    /// Rebuild a battle from stored parts. Checks the tree's shape and that
    /// every record decodes; hashes are checked by [`Session::verify`].
    /// Snapshots are a cache: one that is missing, does not decode, was
    /// written under other rules or does not hash as its entry records is
    /// rebuilt by folding ([`Session::rebuilt_snapshots`]).
    pub fn from_parts(parts: StoredBattle) -> Result<Self, LoadError> {
        let StoredBattle {
            meta,
            records,
            branches,
            snapshots,
            cursor,
            branch,
        } = parts;
        let config = Self::parse_config(&meta.config)?;
        let initial = G::setup_recorded(&config, meta.rules_version)?;
        let mut s = Self::empty(meta, config, initial);
        s.stored = true;
        if branches.is_empty() || branches.iter().enumerate().any(|(i, b)| b.id as usize != i) {
            return Err(LoadError::Other(
                "the branch list is damaged (ids out of order)".into(),
            ));
        }
        for b in branches.iter().skip(1) {
            if b.parent.is_none_or(|p| p >= b.id) {
                return Err(LoadError::Other(format!(
                    "the branch list is damaged (branch {} does not part from an older branch)",
                    b.id
                )));
            }
            if let Some(f) = b.fork
                && records
                    .get(f as usize)
                    .is_none_or(|r| Some(r.branch) != b.parent)
            {
                return Err(LoadError::Corrupt {
                    entry: f,
                    why: format!(
                        "branch {} parts from it, but it is not on that branch's parent",
                        b.id
                    ),
                });
            }
        }
        if records.len() as u64 >= u64::from(u32::MAX) {
            return Err(LoadError::Other(format!(
                "the battle has {} entries, more than a battle can hold",
                records.len()
            )));
        }
        s.branch_head = vec![None; branches.len()];
        s.branches = branches;
        // The records are kept in the vector they came in (a long battle's
        // log is most of its memory: moving a million of them one by one
        // into another vector wrote, and faulted in, all of it twice); only
        // the tree's indices are built here.
        s.depth.reserve_exact(records.len());
        s.first_child.reserve_exact(records.len());
        s.next_sibling.reserve_exact(records.len());
        for (i, rec) in records.iter().enumerate() {
            let id = i as EntryId;
            if rec.parent.is_some_and(|p| p >= id) {
                return Err(LoadError::Corrupt {
                    entry: id,
                    why: "its parent comes after it".into(),
                });
            }
            if rec.branch as usize >= s.branches.len() {
                return Err(LoadError::Corrupt {
                    entry: id,
                    why: format!("it names branch {} which does not exist", rec.branch),
                });
            }
            // Commands and events are decoded when first folded, not here: a
            // second full decode would double the opening time of long battles.
            // `verify` checks every byte through the hash chain.
            s.index(id, rec);
        }
        s.records = records;
        for snap in snapshots {
            let Some(rec) = s.records.get(snap.entry as usize) else {
                continue;
            };
            if snap.rules_version != G::RULES_VERSION {
                continue;
            }
            // The snapshot of an entry decided under these rules must be the
            // state its entry records (by hash, as the entry was played): one
            // that is not (a damaged row that still reads, another entry's
            // state, an altered file) is rebuilt like a missing one. The hash
            // of an entry of older rules is of another layout; its snapshot is
            // taken as written and `verify` checks it.
            if rec.rules_version == G::RULES_VERSION
                && state_hash(&snap.state, rec.rng_after) != rec.state_hash
            {
                continue;
            }
            if let Ok(state) = crate::upcast::exact::<G::State>(&snap.state) {
                s.snapshots.insert(snap.entry, state);
            }
        }
        let missing: Vec<EntryId> = (0..s.records.len() as EntryId)
            .filter(|&id| s.wants_snapshot(id) && !s.snapshots.contains_key(&id))
            .collect();
        if !missing.is_empty() {
            s.rebuild_snapshots();
            s.rebuilt = missing;
        }
        if cursor.is_some_and(|c| c as usize >= s.records.len())
            || branch as usize >= s.branches.len()
        {
            return Err(LoadError::Other(
                "the saved cursor points past the log".into(),
            ));
        }
        s.resolve_unrecorded_kinds();
        // The state first: `state_at` answers the cursor's own entry from
        // `at_cursor`, which still holds the setup here.
        s.at_cursor = s.state_at(cursor);
        s.cursor = cursor;
        s.branch = branch;
        if let Some(entry) = s.corruption() {
            let recorded = s.records[entry as usize].rules_version;
            let why = match G::decode_events(recorded, s.records[entry as usize].events()) {
                Err(e) if recorded != G::RULES_VERSION => e,
                _ if recorded > G::RULES_VERSION => {
                    crate::upcast::newer(G::NAME, G::RULES_VERSION, recorded)
                }
                _ => format!("its command or events are not valid {} data", G::NAME),
            };
            return Err(LoadError::Corrupt { entry, why });
        }
        // Stored events that applied may still have left a state the game
        // cannot show (a tile that is not in the game, a seat past the
        // last): what the app asks first is asked here, and such a battle is
        // refused naming the first entry whose state fails, rather than
        // panicking in the board or the command list on opening.
        if !shows::<G>(&s.at_cursor) {
            let line = s.path_to(cursor);
            let entry = line
                .iter()
                .copied()
                .find(|&id| !shows::<G>(&s.state_at(Some(id))));
            return Err(match entry {
                Some(entry) => LoadError::Corrupt {
                    entry,
                    why: format!(
                        "its events leave a state that is not valid {} data",
                        G::NAME
                    ),
                },
                None => {
                    LoadError::Other(format!("the battle's setup is not valid {} data", G::NAME))
                }
            });
        }
        Ok(s)
    }

    /// The kind of a branch started now, parting from the line whose head
    /// is `left`: a what-if when that line had been played to its end,
    /// else a take-back.
    fn kind_leaving(&self, left: Option<EntryId>) -> BranchKind {
        if left.is_some() && G::outcome(&self.state_at(left)).is_some() {
            BranchKind::WhatIf
        } else {
            BranchKind::TakeBack
        }
    }

    /// Branches stored before kinds were kept: the main line by its place,
    /// another copy's line by its name ([`Branch::FROM_COPY`]), the rest by
    /// the same rule as a branch started now ([`Self::kind_leaving`]), the
    /// line left being the branch's parent as it stood when the branch's
    /// first entry was recorded (its last entry before that one).
    fn resolve_unrecorded_kinds(&mut self) {
        if !self
            .branches
            .iter()
            .any(|b| b.kind == BranchKind::Unrecorded)
        {
            return;
        }
        // The line each unknown branch left: one pass over the log, each
        // branch's last entry so far kept (a long log with many branches
        // is read once, not once a branch).
        let mut last: Vec<Option<EntryId>> = vec![None; self.branches.len()];
        let mut left: Vec<Option<Option<EntryId>>> = vec![None; self.branches.len()];
        for (i, r) in self.records.iter().enumerate() {
            let b = r.branch as usize;
            if left[b].is_none() {
                let p = self.branches[b].parent.map(|p| p as usize);
                left[b] = Some(p.and_then(|p| last[p]).or(self.branches[b].fork));
            }
            last[b] = Some(i as EntryId);
        }
        let kinds: Vec<BranchKind> = self
            .branches
            .iter()
            .zip(left)
            .map(|(b, left)| match b.kind {
                BranchKind::Unrecorded if b.parent.is_none() => BranchKind::Main,
                BranchKind::Unrecorded if b.name.contains(Branch::FROM_COPY) => {
                    BranchKind::FromCopy
                }
                BranchKind::Unrecorded => self.kind_leaving(left.flatten()),
                known => known,
            })
            .collect();
        for (b, kind) in self.branches.iter_mut().zip(kinds) {
            b.kind = kind;
        }
    }

    fn wants_snapshot(&self, id: EntryId) -> bool {
        self.depth[id as usize].is_multiple_of(SNAPSHOT_EVERY)
    }

    fn link(&mut self, rec: EntryRecord) {
        let id = self.records.len() as EntryId;
        if self.records.len() == self.records.capacity() {
            // Grown by an eighth rather than doubled: a long battle's log is
            // most of its memory, and doubling left up to half of it unused
            // (a 100,000-entry log sat in 131,072 slots). Appends stay
            // amortised O(1).
            let more = (self.records.len() / 8).max(256);
            self.reserve(more);
        }
        self.index(id, &rec);
        self.records.push(rec);
    }

    /// Enter entry `id` (the next one) in the tree's indices: its depth, its
    /// place among its parent's children, its branch's head.
    fn index(&mut self, id: EntryId, rec: &EntryRecord) {
        let depth = rec.parent.map_or(1, |p| self.depth[p as usize] + 1);
        // Newest child first, so children_of lists the newest first.
        let first = match rec.parent {
            Some(p) => std::mem::replace(&mut self.first_child[p as usize], Link::to(id)),
            None => std::mem::replace(&mut self.root_first, Link::to(id)),
        };
        self.next_sibling.push(first);
        self.first_child.push(Link::NONE);
        self.depth.push(depth);
        self.branch_head[rec.branch as usize] = Some(id);
    }

    /// Room for `more` entries in the log and its per-entry indices.
    fn reserve(&mut self, more: usize) {
        self.records.reserve_exact(more);
        self.depth.reserve_exact(more);
        self.first_child.reserve_exact(more);
        self.next_sibling.reserve_exact(more);
    }

    /// Fold the whole tree once to recreate every snapshot.
    fn rebuild_snapshots(&mut self) {
        let mut stack: Vec<(EntryId, G::State)> = Vec::new();
        let mut child = self.root_first.get();
        while let Some(c) = child {
            stack.push((c, self.initial.clone()));
            child = self.next_sibling[c as usize].get();
        }
        while let Some((id, mut state)) = stack.pop() {
            self.apply_stored(id, &mut state);
            if self.wants_snapshot(id) {
                self.snapshots.insert(id, state.clone());
            }
            let mut child = self.first_child[id as usize].get();
            while let Some(c) = child {
                stack.push((c, state.clone()));
                child = self.next_sibling[c as usize].get();
            }
        }
    }

    /// Note entry `id` as damaged (see [`Session::corruption`]).
    /// Whether this battle was rebuilt from stored parts (entries and config
    /// from outside, untrusted until verified) rather than started here.
    pub(crate) fn is_stored(&self) -> bool {
        self.stored
    }

    pub(crate) fn note_corrupt(&self, id: EntryId) {
        let first = self.corrupt.get().map_or(id, |c| c.min(id));
        self.corrupt.set(Some(first));
    }

    /// Apply the stored events of entry `id` to `state`; whether they applied.
    ///
    /// A stored entry is not trusted until `verify` has replayed it: bytes
    /// that decode as events the state cannot take (a character that does
    /// not exist, after a flipped bit in the file, or in a stranger's battle
    /// file) would make a game's `apply`, which may not fail, panic. The panic
    /// is caught here and the entry noted as damaged, exactly like bytes that
    /// do not decode: the state past it is unreliable, loading refuses the
    /// battle naming the entry, and `verify` reports it.
    pub(crate) fn apply_stored(&self, id: EntryId, state: &mut G::State) -> bool {
        let events = self.events_of(id);
        let applied = crate::guard::quietly(|| {
            for e in &events {
                G::apply(state, e);
            }
        });
        if applied.is_none() {
            self.note_corrupt(id);
        }
        applied.is_some()
    }

    fn events_of(&self, id: EntryId) -> Vec<G::Event> {
        let rec = &self.records[id as usize];
        match G::decode_events(rec.rules_version, rec.events()) {
            Ok(events) => events,
            Err(_) => {
                // A damaged record folds as no events; the damage is reported
                // through `corruption()` and by `verify`, never hidden.
                self.note_corrupt(id);
                Vec::new()
            }
        }
    }

    /// The first entry found so far whose stored bytes do not decode.
    pub fn corruption(&self) -> Option<EntryId> {
        self.corrupt.get()
    }

    /// The decoded events of an entry.
    pub fn events(&self, id: EntryId) -> Vec<G::Event> {
        self.events_of(id)
    }

    /// The decoded command of an entry (`None` if its bytes are damaged).
    pub fn command(&self, id: EntryId) -> Option<G::Command> {
        let rec = &self.records[id as usize];
        let c = G::decode_command(rec.rules_version, rec.command()).ok();
        if c.is_none() {
            self.note_corrupt(id);
        }
        c
    }

    pub fn meta(&self) -> &BattleMeta {
        &self.meta
    }
    pub fn config(&self) -> &G::Config {
        &self.config
    }
    pub fn records(&self) -> &[EntryRecord] {
        &self.records
    }
    pub fn branches(&self) -> &[Branch] {
        &self.branches
    }
    pub fn cursor(&self) -> Option<EntryId> {
        self.cursor
    }
    pub fn current_branch(&self) -> BranchId {
        self.branch
    }
    /// The state at the cursor.
    /// Record this new battle's fair seed ([`Battle::seal_fair`]).
    ///
    /// [`Battle::seal_fair`]: crate::Battle::seal_fair
    pub fn seal_fair(&mut self, fair: crate::fair::FairSeed) -> Result<(), String> {
        if !self.records.is_empty() {
            return Err(
                "a fair seed is sealed into a battle before its first entry, not after".into(),
            );
        }
        if self.meta.fair.is_some() {
            return Err("this battle already has its fair seed".into());
        }
        self.meta.fair = Some(fair);
        self.root_chain = root_chain(&self.meta);
        Ok(())
    }

    pub fn state(&self) -> &G::State {
        &self.at_cursor
    }
    pub fn initial(&self) -> &G::State {
        &self.initial
    }
    /// The snapshot kept at an entry, if any.
    pub fn snapshot(&self, id: EntryId) -> Option<&G::State> {
        self.snapshots.get(&id)
    }
    /// The snapshots rebuilt when the battle was loaded, because they were
    /// missing, did not decode or were written under other rules: the store
    /// writes them back so the next opening need not fold.
    pub fn rebuilt_snapshots(&self) -> &[EntryId] {
        &self.rebuilt
    }
    /// The last entry of a branch.
    pub fn head(&self, branch: BranchId) -> Option<EntryId> {
        self.branch_head.get(branch as usize).copied().flatten()
    }
    /// Depth of an entry: how many entries from the setup to it, inclusive.
    pub fn depth(&self, id: EntryId) -> u32 {
        self.depth[id as usize]
    }

    /// Children of an entry (or of the setup), newest first.
    pub fn children(&self, of: Option<EntryId>) -> Vec<EntryId> {
        let mut out = Vec::new();
        let mut child = match of {
            Some(p) => self.first_child[p as usize],
            None => self.root_first,
        }
        .get();
        while let Some(c) = child {
            out.push(c);
            child = self.next_sibling[c as usize].get();
        }
        out
    }

    /// The entries from the setup to `at`, in order.
    pub fn path_to(&self, at: Option<EntryId>) -> Vec<EntryId> {
        let mut path = Vec::new();
        let mut e = at;
        while let Some(id) = e {
            path.push(id);
            e = self.records[id as usize].parent;
        }
        path.reverse();
        path
    }

    /// The state after entry `at` (`None`: the setup), from the nearest snapshot.
    pub fn state_at(&self, at: Option<EntryId>) -> G::State {
        if at == self.cursor {
            return self.at_cursor.clone();
        }
        let mut todo = Vec::new();
        let mut e = at;
        let mut state = loop {
            match e {
                None => break self.initial.clone(),
                Some(id) => {
                    if let Some(snap) = self.snapshots.get(&id) {
                        break snap.clone();
                    }
                    todo.push(id);
                    e = self.records[id as usize].parent;
                }
            }
        };
        for &id in todo.iter().rev() {
            self.apply_stored(id, &mut state);
        }
        state
    }

    fn rng_after(&self, at: Option<EntryId>) -> u64 {
        at.map_or(0, |id| self.records[id as usize].rng_after)
    }

    fn chain_at(&self, at: Option<EntryId>) -> Hash16 {
        at.map_or(self.root_chain, |id| self.records[id as usize].chain)
    }

    /// Decide a command at the cursor. Nothing changes until [`Session::commit`].
    ///
    /// Dice follow the stream's position, so the same command from the same
    /// point always rolls the same dice (undo is no way to reroll). In a
    /// [strict](BattleMeta::strict) battle a *different* command from a point
    /// after which dice were already rolled is refused as well: otherwise a
    /// player could see the dice, take the command back and give one that
    /// suits them better.
    pub fn prepare(
        &self,
        actor: Actor,
        command: &G::Command,
        entered: Option<Vec<u8>>,
    ) -> Result<Pending, RuleError> {
        match (actor == Actor::SYSTEM, G::automatic(&self.at_cursor)) {
            (true, Some(due)) if due == *command => {}
            (true, _) => {
                return Err(RuleError::new(
                    RuleErrorKind::NotYourTurn,
                    "the game takes no such step of its own now",
                ));
            }
            (false, Some(due)) => {
                return Err(RuleError::not_your_turn(format!(
                    "the game first takes a step of its own: {}",
                    G::describe_command(&self.at_cursor, Actor::SYSTEM, &due)
                )));
            }
            (false, None) => {}
        }
        let mut rng = Randomness::new(self.meta.seed, self.rng_after(self.cursor), entered);
        // The state after the events comes with them: a game that built it
        // while deciding hands it over rather than have it built again.
        let (events, state) = G::decide_and_apply(&self.at_cursor, actor, command, &mut rng)?;
        let used = rng.finish()?;
        let command_bytes = encode(command);
        for child in self.children(self.cursor) {
            let rec = &self.records[child as usize];
            // An entry recorded under older rules stores its command in that
            // version's layout: compare the commands, not the bytes.
            let same_command = if rec.rules_version == G::RULES_VERSION {
                rec.command() == command_bytes
            } else {
                G::decode_command(rec.rules_version, rec.command()).is_ok_and(|c| c == *command)
            };
            if rec.actor == actor
                && same_command
                && rec.entered == used.entered
                && (!used.entered || rec.dice() == used.dice)
            {
                return Ok(Pending {
                    kind: PendingKind::Redo { entry: child },
                    outcome: None,
                    state: None,
                    at: (self.cursor, self.branch, self.records.len()),
                });
            }
        }
        if self.meta.strict
            && let Some(seen) = self.first_roll_after(self.cursor)
        {
            return Err(RuleError::new(
                RuleErrorKind::Strict,
                format!(
                    "this is a strict battle and the dice of entry {seen} after this point \
                     have been seen: only the same command can be given again here \
                     (or go on from the end of a line)"
                ),
            ));
        }
        let id = self.records.len() as EntryId;
        let new_branch = (self.head(self.branch) != self.cursor).then(|| {
            let bid = self.branches.len() as BranchId;
            // The branch that holds the fork entry: the fork is then always
            // one of the parent's own entries (`on_line` relies on it).
            let parent = self
                .cursor
                .map_or(self.branch, |c| self.records[c as usize].branch);
            Branch {
                id: bid,
                name: format!("Branch {bid}"),
                parent: Some(parent),
                fork: self.cursor,
                // By the line it parts from as the log holds it now (its
                // head), so re-deciding the log gives the same kind.
                kind: self.kind_leaving(self.head(parent)),
            }
        });
        let mut record = EntryRecord::played(
            EntryHead {
                parent: self.cursor,
                branch: new_branch.as_ref().map_or(self.branch, |b| b.id),
                actor,
                entered: used.entered,
                rng_after: used.draws,
                state_hash: hash_state(&state, used.draws),
                chain: [0; 16],
                rules_version: G::RULES_VERSION,
            },
            &command_bytes,
            &encode(&events),
            &used.dice,
        );
        record.chain = chain_hash(
            &self.chain_at(self.cursor),
            &record,
            self.meta.rules_version,
        );
        let depth = self.cursor.map_or(1, |p| self.depth[p as usize] + 1);
        let snapshot = depth.is_multiple_of(SNAPSHOT_EVERY).then(|| encode(&state));
        Ok(Pending {
            kind: PendingKind::New {
                id,
                record,
                new_branch,
                snapshot,
            },
            outcome: G::outcome(&state),
            state: Some(Box::new(state)),
            at: (self.cursor, self.branch, self.records.len()),
        })
    }

    /// The first entry after `at` (on any line from it) that rolled dice
    /// from the stream, if one was recorded. Entries are appended in order,
    /// so every descendant of `at` has a greater id.
    pub fn first_roll_after(&self, at: Option<EntryId>) -> Option<EntryId> {
        // At the head of a line (the usual case) nothing comes after.
        if self.children(at).is_empty() {
            return None;
        }
        let from = at.map_or(0, |a| a + 1);
        let base = self.rng_after(at);
        (from..self.records.len() as EntryId).find(|&id| {
            let rec = &self.records[id as usize];
            rec.rng_after > base && self.descends_from(id, at)
        })
    }

    /// Whether `id` lies after `at` on some line (`None`: the setup).
    fn descends_from(&self, id: EntryId, at: Option<EntryId>) -> bool {
        at.is_none_or(|at| crate::record::leads_back_to(&self.records, Some(id), at))
    }

    /// The branches that were started by taking back a command whose dice had
    /// been seen: each parted from a point after which, when it was started,
    /// an entry had already rolled from the stream. Shown in the log so a
    /// casual battle's take-backs are honest.
    pub fn takebacks_past_rolls(&self) -> Vec<BranchId> {
        self.branches
            .iter()
            .skip(1)
            // A line another copy played (a merge grafted it) is no
            // take-back here.
            .filter(|b| !b.from_another_copy())
            .filter(|b| {
                let Some(first) = self.first_entry_of(b.id) else {
                    return false;
                };
                let base = self.rng_after(b.fork);
                let from = b.fork.map_or(0, |f| f + 1);
                (from..first).any(|id| {
                    self.records[id as usize].rng_after > base && self.descends_from(id, b.fork)
                })
            })
            .map(|b| b.id)
            .collect()
    }

    /// The first entry recorded on a branch.
    fn first_entry_of(&self, branch: BranchId) -> Option<EntryId> {
        self.records
            .iter()
            .position(|r| r.branch == branch)
            .map(|i| i as EntryId)
    }

    /// Make a prepared entry part of the battle and move the cursor onto it.
    /// A pending entry decided at another point (the battle moved since) is
    /// refused with [`StalePending`] and changes nothing.
    pub fn commit(&mut self, pending: Pending) -> Result<EntryId, StalePending> {
        if pending.at != (self.cursor, self.branch, self.records.len()) {
            return Err(StalePending);
        }
        Ok(match pending.kind {
            PendingKind::Redo { entry } => {
                self.seek(Some(entry));
                entry
            }
            PendingKind::New {
                id,
                record,
                new_branch,
                snapshot,
            } => {
                if let Some(b) = new_branch {
                    self.branches.push(b);
                    self.branch_head.push(None);
                }
                self.branch = record.branch;
                self.link(record);
                // Invariant: `prepare` of this session always stores a G::State.
                let state = *pending
                    .state
                    .and_then(|s| s.downcast::<G::State>().ok())
                    .expect("pending state comes from prepare");
                if snapshot.is_some() {
                    self.snapshots.insert(id, state.clone());
                }
                self.cursor = Some(id);
                self.at_cursor = state;
                id
            }
        })
    }

    /// The step the game takes on its own at the cursor, if one is due.
    pub fn due(&self) -> Option<G::Command> {
        G::automatic(&self.at_cursor)
    }

    /// Play every step the game takes on its own from the cursor, one entry
    /// each (in-memory battles, tests); stops at a step that needs entered
    /// dice. Returns the entries played.
    pub fn play_due(&mut self) -> Result<Vec<EntryId>, RuleError> {
        let mut played = Vec::new();
        while let Some(step) = self.due() {
            played.push(self.play(Actor::SYSTEM, &step, None)?);
        }
        Ok(played)
    }

    /// Decide and commit in one step (in-memory battles, tests, benchmarks).
    pub fn play(
        &mut self,
        actor: Actor,
        command: &G::Command,
        entered: Option<Vec<u8>>,
    ) -> Result<EntryId, RuleError> {
        let p = self.prepare(actor, command, entered)?;
        // Invariant: decided a moment ago at this very point, so never stale.
        Ok(self
            .commit(p)
            .expect("a command decided just now is not stale"))
    }

    /// Move the cursor to any entry (or the setup). The current branch stays if
    /// the entry is on its line; otherwise it becomes the entry's branch.
    pub fn seek(&mut self, at: Option<EntryId>) {
        if at == self.cursor {
            return;
        }
        let on_line = match at {
            None => true,
            Some(id) => self.on_line(id, self.branch),
        };
        if !on_line && let Some(id) = at {
            self.branch = self.records[id as usize].branch;
        }
        self.at_cursor = self.state_at(at);
        self.cursor = at;
    }

    /// Whether an entry lies on the line from the setup to `branch`'s head.
    ///
    /// A branch's own entries form one line (appends only ever happen at its
    /// head; a command anywhere else starts a new branch), in increasing id
    /// order. So the line is: the branch's entries, then its parent branch's
    /// entries up to the fork, and so on: O(branches), not O(entries).
    fn on_line(&self, id: EntryId, branch: BranchId) -> bool {
        let target = self.records[id as usize].branch;
        let mut b = branch;
        let mut limit = self.head(b);
        loop {
            let Some(lim) = limit else { return false };
            if target == b {
                return id <= lim;
            }
            let br = &self.branches[b as usize];
            match br.parent {
                Some(p) => {
                    b = p;
                    limit = br.fork;
                }
                None => return false,
            }
        }
    }

    /// Step the cursor back up to `steps` entries; returns how many it moved.
    pub fn undo(&mut self, steps: usize) -> usize {
        let mut at = self.cursor;
        let mut moved = 0;
        while moved < steps {
            let Some(id) = at else { break };
            at = self.records[id as usize].parent;
            moved += 1;
        }
        self.seek(at);
        moved
    }

    /// The next entry along the current branch after the cursor.
    pub fn next_on_line(&self) -> Option<EntryId> {
        let children = self.children(self.cursor);
        if let Some(&c) = children
            .iter()
            .find(|&&c| self.records[c as usize].branch == self.branch)
        {
            return Some(c);
        }
        // The cursor is before the fork of the current branch: walk up from its head.
        let head = self.head(self.branch)?;
        crate::record::next_towards(&self.records, head, self.cursor)
    }

    /// Step the cursor forward along the current branch; returns how many it moved.
    pub fn redo(&mut self, steps: usize) -> usize {
        let mut moved = 0;
        while moved < steps {
            let Some(next) = self.next_on_line() else {
                break;
            };
            let branch = self.branch;
            self.seek(Some(next));
            self.branch = branch;
            moved += 1;
        }
        moved
    }

    /// Make another branch current, with the cursor at its head.
    pub fn switch_branch(&mut self, branch: BranchId) -> Result<(), String> {
        if branch as usize >= self.branches.len() {
            return Err(format!("there is no branch {branch}"));
        }
        let head = self.head(branch);
        self.at_cursor = self.state_at(head);
        self.cursor = head;
        self.branch = branch;
        Ok(())
    }

    /// Give a branch a new name.
    pub fn rename_branch(&mut self, branch: BranchId, name: &str) -> Result<(), String> {
        let name = name.trim();
        if name.is_empty() {
            return Err("a branch name cannot be empty".into());
        }
        let b = self
            .branches
            .get_mut(branch as usize)
            .ok_or_else(|| format!("there is no branch {branch}"))?;
        // Only a merge names a line as another copy's (it is then not
        // counted as a take-back past seen dice).
        if name.contains(Branch::FROM_COPY.trim_start()) && !b.from_another_copy() {
            return Err(format!(
                "a branch played here cannot be named as from another copy (\"{}\"): only a merge of two copies names a line so",
                Branch::FROM_COPY.trim()
            ));
        }
        b.name = name.to_owned();
        Ok(())
    }

    /// The entry where two lines part: their deepest common entry.
    pub fn common_ancestor(&self, a: Option<EntryId>, b: Option<EntryId>) -> Option<EntryId> {
        <Self as crate::battle::Battle>::common_ancestor(self, a, b)
    }

    /// Re-decide every recorded command from the seed and compare the events,
    /// dice, stream positions, hashes and snapshots with what was recorded.
    ///
    /// An entry recorded under an older rules version that today's rules
    /// decide differently is not a failure: the first such entry is named in
    /// [`VerifyReport::rules_changed`], and the entries after it are checked
    /// from the state as recorded, so every entry decided under today's rules
    /// is still vouched for.
    pub fn verify(&self) -> VerifyReport {
        let n = self.records.len() as u64;
        let older = self
            .records
            .iter()
            .filter(|r| r.rules_version < G::RULES_VERSION)
            .count() as u64;
        match self.verify_inner() {
            Ok((rules_changed, layout_changed)) => VerifyReport {
                entries: n,
                problem: None,
                older,
                rules_changed,
                layout_changed,
            },
            Err(d) => VerifyReport::failed(n, d),
        }
    }

    /// The first entry decided differently under today's rules, and the
    /// first decided the same that hashes differently (a layout change).
    #[allow(clippy::type_complexity)]
    fn verify_inner(&self) -> Result<(Option<Divergence>, Option<Divergence>), Divergence> {
        // 1. The hash chain over the stored bytes.
        for (i, rec) in self.records.iter().enumerate() {
            let expect = chain_hash(&self.chain_at(rec.parent), rec, self.meta.rules_version);
            if expect != rec.chain {
                return Err(Divergence {
                    entry: i as EntryId,
                    kind: DivergenceKind::Tampered,
                    detail: "its stored content no longer matches the hash chain".into(),
                });
            }
        }
        // 2. Replay: re-decide each command against the state before it.
        let mut remaining: Vec<u32> = vec![0; self.records.len()];
        for rec in &self.records {
            if let Some(p) = rec.parent {
                remaining[p as usize] += 1;
            }
        }
        let mut live: HashMap<Option<EntryId>, G::State> = HashMap::new();
        live.insert(None, self.initial.clone());
        let mut root_left = self.children(None).len();
        let mut rules_changed = None;
        let mut layout_changed = None;
        for (i, rec) in self.records.iter().enumerate() {
            let id = i as EntryId;
            let before = match rec.parent {
                None => {
                    root_left -= 1;
                    if root_left == 0 {
                        live.remove(&None)
                    } else {
                        live.get(&None).cloned()
                    }
                }
                Some(p) => {
                    remaining[p as usize] -= 1;
                    if remaining[p as usize] == 0 {
                        live.remove(&Some(p))
                    } else {
                        live.get(&Some(p)).cloned()
                    }
                }
            }
            .ok_or_else(|| Divergence {
                entry: id,
                kind: DivergenceKind::Corrupt,
                detail: "its parent could not be replayed".into(),
            })?;
            let after = match self.replay_one(id, rec, &before) {
                Ok(Replayed::Same(after)) => after,
                Ok(Replayed::Relaid(after, d)) => {
                    layout_changed.get_or_insert(d);
                    after
                }
                Err(d) if matches!(d.kind, DivergenceKind::RulesChanged { .. }) => {
                    rules_changed.get_or_insert(d);
                    // Go on from the state as recorded.
                    let mut state = before;
                    if !self.apply_stored(id, &mut state) {
                        return Err(Divergence {
                            entry: id,
                            kind: DivergenceKind::Corrupt,
                            detail: "its recorded events cannot be applied".into(),
                        });
                    }
                    state
                }
                Err(d) => return Err(d),
            };
            if let Some(snap) = self.snapshots.get(&id)
                && *snap != after
            {
                return Err(Divergence {
                    entry: id,
                    kind: DivergenceKind::Snapshot,
                    detail:
                        "the snapshot stored at this entry is not the state its entries fold to"
                            .into(),
                });
            }
            if remaining[i] > 0 {
                live.insert(Some(id), after);
            }
        }
        Ok((rules_changed, layout_changed))
    }

    fn diverged(&self, id: EntryId, detail: String) -> Divergence {
        let recorded = self.records[id as usize].rules_version;
        let kind = if recorded != G::RULES_VERSION {
            DivergenceKind::RulesChanged {
                recorded,
                now: G::RULES_VERSION,
            }
        } else {
            DivergenceKind::Diverged
        };
        Divergence {
            entry: id,
            kind,
            detail,
        }
    }

    fn replay_one(
        &self,
        id: EntryId,
        rec: &EntryRecord,
        before: &G::State,
    ) -> Result<Replayed<G::State>, Divergence> {
        let command =
            G::decode_command(rec.rules_version, rec.command()).map_err(|e| Divergence {
                entry: id,
                kind: DivergenceKind::Corrupt,
                detail: format!("command does not decode: {e}"),
            })?;
        let entered = rec
            .entered
            .then(|| rec.dice().iter().map(|d| d.value).collect());
        let mut rng = Randomness::new(self.meta.seed, self.rng_after(rec.parent), entered);
        let decided = G::decide(before, rec.actor, &command, &mut rng)
            .map_err(|e| self.diverged(id, format!("the command is now refused: {e}")))?;
        let used = rng
            .finish()
            .map_err(|e| self.diverged(id, format!("the dice no longer fit: {e}")))?;
        let recorded =
            G::decode_events(rec.rules_version, rec.events()).map_err(|e| Divergence {
                entry: id,
                kind: DivergenceKind::Corrupt,
                detail: format!("events do not decode: {e}"),
            })?;
        if decided != recorded {
            let k = decided
                .iter()
                .zip(&recorded)
                .take_while(|(a, b)| a == b)
                .count();
            let mut at_k = before.clone();
            for e in &decided[..k] {
                G::apply(&mut at_k, e);
            }
            // The recorded event may be damaged bytes that decoded: describing
            // it must not bring verify down.
            let show = |v: &[G::Event]| {
                v.get(k)
                    .map(|e| {
                        crate::guard::quietly(|| G::describe_event(&at_k, e))
                            .unwrap_or_else(|| "(an event that cannot be read)".into())
                    })
                    .unwrap_or_else(|| "(nothing)".into())
            };
            return Err(self.diverged(
                id,
                format!(
                    "event {} differs\n  recorded: {}\n  replayed: {}",
                    k + 1,
                    show(&recorded),
                    show(&decided)
                ),
            ));
        }
        if used.dice != rec.dice() || used.draws != rec.rng_after {
            return Err(self.diverged(
                id,
                format!(
                    "dice differ\n  recorded: {:?} (stream at {})\n  replayed: {:?} (stream at {})",
                    rec.dice().iter().map(|d| d.value).collect::<Vec<_>>(),
                    rec.rng_after,
                    used.dice.iter().map(|d| d.value).collect::<Vec<_>>(),
                    used.draws
                ),
            ));
        }
        let mut after = before.clone();
        for e in &decided {
            G::apply(&mut after, e);
        }
        if hash_state(&after, used.draws) != rec.state_hash {
            let now = G::RULES_VERSION;
            let detail = match rec.rules_version {
                // The state's hash is over its stored layout: a state that
                // gained fields since the entry was recorded hashes
                // differently, with nothing wrong in the battle and nothing
                // decided otherwise (the refusal, events and dice above are
                // the recorded ones). Not a decision change: go on from the
                // state as replayed, which is the state as recorded.
                recorded if recorded < now => {
                    let d = Divergence {
                        entry: id,
                        kind: DivergenceKind::RulesChanged { recorded, now },
                        detail: format!(
                            "entry {id} was recorded under rules version {recorded}; today's \
                             version {now} decides it the same (events and dice) and folds it \
                             to a state with another hash, as the state's stored layout \
                             changed since: expected, not tampering"
                        ),
                    };
                    return Ok(Replayed::Relaid(after, d));
                }
                recorded if recorded > now => format!(
                    "entry {id} was recorded under rules version {recorded}, newer than this \
                     build's version {now}, which folds it to a state with another hash"
                ),
                _ => "the same events fold to a state with another hash (apply is not \
                      deterministic)"
                    .into(),
            };
            return Err(self.diverged(id, detail));
        }
        Ok(Replayed::Same(after))
    }

    /// Add to this battle what its store holds after its last entry, as
    /// another process wrote it (issue 31 P5: a club server brought up to
    /// date by a notification reads only what is new, not the whole
    /// battle). `more` is read as [`Session::from_parts`] reads a whole
    /// battle, except that its `records` are the entries from
    /// `self.records().len()` on (none, for a move of the cursor alone), its
    /// `branches` are every branch (the names as stored now), and its
    /// snapshots are not needed (the new entries are folded).
    ///
    /// What loading checks is checked, and more: the battle is this one
    /// (its meta), each new entry's parent exists and comes before it, its
    /// branch exists, its rules version is one this build reads, its
    /// command and events decode and apply, and its chain links to its
    /// parent's (so it continues the log held here, not another's); the
    /// branches held are the ones stored; the cursor and branch are in the
    /// log; the game can show the state at the cursor. Anything that does
    /// not fit is refused in words naming the entry, and nothing changes:
    /// the caller reads the battle whole instead. Otherwise the state is
    /// advanced as a load would leave it: the new entries in the tree, a
    /// snapshot where a load keeps one, the cursor and branch as stored.
    pub fn extend_stored(&mut self, more: StoredBattle) -> Result<(), LoadError> {
        let StoredBattle {
            meta,
            records,
            branches,
            snapshots: _,
            cursor,
            branch,
        } = more;
        if meta != self.meta {
            return Err(LoadError::Other(
                "the stored battle is not the one held (its game, seed, rules version, config \
                 or fair seed differ)"
                    .into(),
            ));
        }
        let first = self.records.len() as EntryId;
        let total = first + records.len() as EntryId;
        if total >= u64::from(u32::MAX) {
            return Err(LoadError::Other(format!(
                "the battle would have {total} entries, more than a battle can hold"
            )));
        }
        let held = self.branches.len();
        if branches.len() < held {
            return Err(LoadError::Other(format!(
                "the store holds {} branches of the battle, fewer than the {held} held",
                branches.len()
            )));
        }
        // An entry's branch, held or new.
        let branch_of = |id: EntryId| -> Option<BranchId> {
            if id < first {
                Some(self.records[id as usize].branch)
            } else {
                records.get((id - first) as usize).map(|r| r.branch)
            }
        };
        for (i, b) in branches.iter().enumerate() {
            if b.id as usize != i {
                return Err(LoadError::Other(
                    "the branch list is damaged (ids out of order)".into(),
                ));
            }
            if let Some(h) = self.branches.get(i) {
                if (h.parent, h.fork) != (b.parent, b.fork) {
                    return Err(LoadError::Other(format!(
                        "branch {i} as stored does not part where the one held does"
                    )));
                }
                continue;
            }
            if b.parent.is_none_or(|p| p >= b.id) {
                return Err(LoadError::Other(format!(
                    "the branch list is damaged (branch {} does not part from an older branch)",
                    b.id
                )));
            }
            if let Some(f) = b.fork
                && branch_of(f) != b.parent
            {
                return Err(LoadError::Corrupt {
                    entry: f,
                    why: format!(
                        "branch {} parts from it, but it is not on that branch's parent",
                        b.id
                    ),
                });
            }
        }
        if cursor.is_some_and(|c| c >= total) || branch as usize >= branches.len() {
            return Err(LoadError::Other(
                "the saved cursor points past the log".into(),
            ));
        }
        // Each new entry checked and folded from its parent's state, before
        // anything changes here.
        let mut states: Vec<G::State> = Vec::with_capacity(records.len());
        for (k, rec) in records.iter().enumerate() {
            let id = first + k as EntryId;
            let corrupt = |why: String| LoadError::Corrupt { entry: id, why };
            if rec.parent.is_some_and(|p| p >= id) {
                return Err(corrupt("its parent comes after it".into()));
            }
            if rec.branch as usize >= branches.len() {
                return Err(corrupt(format!(
                    "it names branch {} which does not exist",
                    rec.branch
                )));
            }
            if rec.rules_version > G::RULES_VERSION {
                return Err(corrupt(crate::upcast::newer(
                    G::NAME,
                    G::RULES_VERSION,
                    rec.rules_version,
                )));
            }
            let parent_chain = match rec.parent {
                Some(p) if p >= first => records[(p - first) as usize].chain,
                p => self.chain_at(p),
            };
            if chain_hash(&parent_chain, rec, self.meta.rules_version) != rec.chain {
                return Err(corrupt(
                    "its hash chain does not link to its parent's: it does not continue the log \
                     held here"
                        .into(),
                ));
            }
            if G::decode_command(rec.rules_version, rec.command()).is_err() {
                return Err(corrupt(format!(
                    "its command is not valid {} data",
                    G::NAME
                )));
            }
            let events = G::decode_events(rec.rules_version, rec.events())
                .map_err(|e| corrupt(format!("its events cannot be read: {e}")))?;
            let mut state = match rec.parent {
                Some(p) if p >= first => states[(p - first) as usize].clone(),
                p => self.state_at(p),
            };
            let applied = crate::guard::quietly(|| {
                for e in &events {
                    G::apply(&mut state, e);
                }
            });
            if applied.is_none() {
                return Err(corrupt(format!(
                    "its events cannot be applied to the {} state before it",
                    G::NAME
                )));
            }
            states.push(state);
        }
        let at_cursor = match cursor {
            Some(c) if c >= first => states[(c - first) as usize].clone(),
            c => self.state_at(c),
        };
        // (At the setup the state is the game's own, from the config that
        // loading accepted: nothing stored folded into it.)
        if let Some(entry) = cursor
            && !shows::<G>(&at_cursor)
        {
            let why = format!(
                "its events leave a state that is not valid {} data",
                G::NAME
            );
            return Err(LoadError::Corrupt { entry, why });
        }
        // It fits: take it.
        for (h, b) in self.branches.iter_mut().zip(&branches) {
            h.name.clone_from(&b.name);
        }
        for b in branches.into_iter().skip(held) {
            self.branches.push(b);
            self.branch_head.push(None);
        }
        // Entries from outside came in: untrusted as a load's are (review5
        // NIT 2), so a panic of the game on their states is caught.
        if total > first {
            self.stored = true;
        }
        for (rec, state) in records.into_iter().zip(states) {
            let id = self.records.len() as EntryId;
            self.link(rec);
            if self.wants_snapshot(id) {
                self.snapshots.insert(id, state);
            }
        }
        self.cursor = cursor;
        self.branch = branch;
        self.at_cursor = at_cursor;
        self.resolve_unrecorded_kinds();
        Ok(())
    }
}

/// Whether the game can show `state` as the app first shows a battle (its
/// board and state for every viewer, its commands in words, who is asked,
/// its place in the flow, its outcome) without panicking. Run on a state
/// folded from stored, unverified entries ([`Session::from_parts`]).
fn shows<G: Game>(state: &G::State) -> bool {
    crate::guard::quietly(|| {
        let _ = G::scene(state);
        let _ = serde_json::to_value(state);
        let _ = G::flow(state);
        let _ = G::outcome(state);
        let _ = G::asked(state);
        let seats = G::seats(state);
        for &seat in &seats {
            let _ = G::seat_name(state, seat);
            let _ = G::scene(&G::view(state, seat));
        }
        let mut commands = G::legal(state);
        commands.extend(G::automatic(state).map(|c| (Actor::SYSTEM, c)));
        for (actor, c) in &commands {
            let _ = G::anchors(state, c);
            let _ = G::describe_command(state, *actor, c);
        }
    })
    .is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::{Race, RaceCommand, RaceConfig};

    fn roll(n: u8) -> RaceCommand {
        RaceCommand::Roll { dice: n }
    }

    /// A branch read from JSON written before kinds were kept is
    /// unrecorded, so loading works its kind out (final read: it read as
    /// the main line, and a grafted line lost its mark).
    #[test]
    fn a_branch_read_without_its_kind_is_unrecorded_not_main() {
        let b: Branch =
            serde_json::from_str(r#"{"id": 2, "name": "x", "parent": 0, "fork": 3}"#).unwrap();
        assert_eq!(b.kind, BranchKind::Unrecorded);
        let kept: Branch = serde_json::from_value(
            serde_json::to_value(Branch {
                kind: BranchKind::FromCopy,
                ..b
            })
            .unwrap(),
        )
        .unwrap();
        assert_eq!(kept.kind, BranchKind::FromCopy);
    }

    fn battle(seed: u64) -> Session<Race> {
        Session::<Race>::new(seed, RaceConfig::default()).unwrap()
    }

    /// review5 NIT 2: a battle started here and then extended with another
    /// process's stored entries holds untrusted entries, as a loaded one does.
    #[test]
    fn a_battle_started_here_and_extended_with_stored_entries_counts_as_stored() {
        let mut whole = battle(9);
        let mut held = battle(9);
        for i in 0..6 {
            let a = Race::to_move(whole.state()).unwrap();
            whole.play(a, &roll(1), None).unwrap();
            if i < 3 {
                held.play(a, &roll(1), None).unwrap();
            }
        }
        assert!(!held.is_stored(), "started here");
        held.extend_stored(StoredBattle {
            meta: whole.meta().clone(),
            records: whole.records()[3..].to_vec(),
            branches: whole.branches().to_vec(),
            snapshots: Vec::new(),
            cursor: whole.cursor(),
            branch: whole.current_branch(),
        })
        .unwrap();
        assert_eq!(held.records(), whole.records());
        assert!(held.is_stored(), "its new entries came from outside");
        // Nothing added: a battle started here stays as it was.
        let mut alone = battle(9);
        alone
            .extend_stored(StoredBattle {
                meta: alone.meta().clone(),
                records: Vec::new(),
                branches: alone.branches().to_vec(),
                snapshots: Vec::new(),
                cursor: None,
                branch: 0,
            })
            .unwrap();
        assert!(!alone.is_stored());
    }

    #[test]
    fn undo_then_redo_gives_the_same_dice() {
        let mut s = battle(42);
        s.play(Actor(0), &roll(3), None).unwrap();
        let first = s.records()[0].clone();
        assert_eq!(s.undo(1), 1);
        let again = s.play(Actor(0), &roll(3), None).unwrap();
        assert_eq!(again, 0, "the same command from the same point is a redo");
        assert_eq!(s.records().len(), 1);
        assert_eq!(s.records()[0], first);
    }

    #[test]
    fn a_new_command_from_an_earlier_point_starts_a_branch_and_keeps_the_old_line() {
        let mut s = battle(7);
        for _ in 0..4 {
            let a = Race::to_move(s.state()).unwrap();
            s.play(a, &RaceCommand::Hold, None).unwrap();
        }
        s.undo(2);
        let a = Race::to_move(s.state()).unwrap();
        let id = s.play(a, &roll(1), None).unwrap();
        assert_eq!(s.branches().len(), 2);
        assert_eq!(s.records()[id as usize].branch, 1);
        assert_eq!(s.records()[id as usize].parent, Some(1));
        assert_eq!(s.head(0), Some(3), "the main line is kept whole");
        s.switch_branch(0).unwrap();
        assert_eq!(s.cursor(), Some(3));
        // Redo from before the fork follows the current branch.
        s.switch_branch(1).unwrap();
        s.seek(Some(0));
        assert_eq!(s.current_branch(), 1);
        assert_eq!(s.redo(5), 2);
        assert_eq!(s.cursor(), Some(id));
        assert!(s.verify().ok());
    }

    #[test]
    fn state_at_any_entry_equals_a_fold_from_the_setup() {
        let mut s = battle(1);
        for i in 0..300u32 {
            let a = match Race::to_move(s.state()) {
                Some(a) => a,
                None => break,
            };
            let c = if i % 3 == 2 {
                RaceCommand::Hold
            } else {
                roll(1)
            };
            s.play(a, &c, None).unwrap();
        }
        let n = s.records().len() as EntryId;
        for at in (0..n).step_by(7) {
            let mut state = s.initial().clone();
            for id in s.path_to(Some(at)) {
                for e in s.events(id) {
                    Race::apply(&mut state, &e);
                }
            }
            assert_eq!(s.state_at(Some(at)), state, "entry {at}");
        }
    }

    /// The stored parts of `s` with other records and meta.
    fn parts(s: &Session<Race>, meta: BattleMeta, records: Vec<EntryRecord>) -> StoredBattle {
        StoredBattle {
            meta,
            records,
            branches: s.branches().to_vec(),
            snapshots: Vec::new(),
            cursor: s.cursor(),
            branch: s.current_branch(),
        }
    }

    /// Re-stamp `s` as recorded under Race rules version 1 (its events in
    /// that version's layout), with fresh chain values.
    fn recorded_under(s: &Session<Race>, version: u32) -> (BattleMeta, Vec<EntryRecord>) {
        use crate::games::race::{RaceEvent, v1::RaceEventV1};
        assert_eq!(version, 1, "the test game's only older version");
        let mut meta = s.meta().clone();
        meta.rules_version = version;
        let root = root_chain(&meta);
        let mut recs = s.records().to_vec();
        for i in 0..recs.len() {
            let old: Vec<RaceEventV1> = s
                .events(i as EntryId)
                .into_iter()
                .map(|e| match e {
                    RaceEvent::Rolled { dice, bust: false } => RaceEventV1::Rolled { dice },
                    RaceEvent::Rolled { dice, bust: true } => RaceEventV1::Busted { dice },
                    RaceEvent::Held { points } => RaceEventV1::Held { points },
                    RaceEvent::Won { player } => RaceEventV1::Won { player },
                })
                .collect();
            recs[i] = recs[i].edited(|f| f.events = encode(&old));
            recs[i].rules_version = version;
            let parent = recs[i].parent.map_or(root, |p| recs[p as usize].chain);
            recs[i].chain = chain_hash(&parent, &recs[i], version);
        }
        (meta, recs)
    }

    #[test]
    fn verify_catches_a_changed_event_byte_as_tampering() {
        let mut s = battle(3);
        s.play(Actor(0), &roll(2), None).unwrap();
        s.play(Actor(0), &roll(2), None).ok();
        let meta = s.meta().clone();
        let mut recs = s.records().to_vec();
        let last = recs[0].events().len() - 1;
        recs[0] = recs[0].edited(|f| f.events[last] ^= 1);
        match Session::<Race>::from_parts(parts(&s, meta, recs)) {
            Err(LoadError::Corrupt { entry: 0, .. }) => {}
            Ok(t) => {
                let r = t.verify();
                let p = r.problem.expect("tampering is caught");
                assert_eq!(p.entry, 0);
                assert_eq!(p.kind, DivergenceKind::Tampered);
            }
            Err(e) => panic!("unexpected {e}"),
        }
    }

    #[test]
    fn a_rules_version_change_is_reported_as_such_and_is_not_a_failure() {
        let mut s = battle(9);
        s.play(Actor(0), &roll(2), None).unwrap();
        s.play(Actor(0), &RaceCommand::Hold, None).unwrap();
        let old = Race::RULES_VERSION - 1;
        let (meta, mut recs) = recorded_under(&s, old);
        // Recorded under the old version, where the roll came out differently.
        recs[0].rng_after += 1;
        let root = root_chain(&meta);
        recs[0].chain = chain_hash(&root, &recs[0], old);
        recs[1].chain = chain_hash(&recs[0].chain, &recs[1], old);
        let t = Session::<Race>::from_parts(parts(&s, meta, recs)).unwrap();
        let report = t.verify();
        assert!(report.ok(), "{report}");
        assert_eq!(report.older, 2);
        let d = report
            .rules_changed
            .clone()
            .expect("the first difference is named");
        assert_eq!(d.entry, 0);
        assert_eq!(
            d.kind,
            DivergenceKind::RulesChanged {
                recorded: old,
                now: Race::RULES_VERSION
            }
        );
        let text = report.to_string();
        assert!(
            text.contains("decide entry 0 differently")
                && text.contains(&format!("version {old} did")),
            "{text}"
        );
    }

    /// Stamp entry `id` of `recs` with another state hash and re-seal the
    /// chain from it on: events and dice replay, only the fold's hash differs.
    fn with_state_hash_of_entry(meta: &BattleMeta, recs: &mut [EntryRecord], id: usize) {
        recs[id].state_hash[0] ^= 1;
        let root = root_chain(meta);
        for i in 0..recs.len() {
            let parent = recs[i].parent.map_or(root, |p| recs[p as usize].chain);
            recs[i].chain = chain_hash(&parent, &recs[i], meta.rules_version);
        }
    }

    /// An entry recorded under an older rules version whose events and dice
    /// replay but fold to a state with another hash (the state gained fields
    /// since) is a layout change, in words that say so: not a decision
    /// change, and not a fault of apply.
    #[test]
    fn an_older_entry_folding_to_another_state_hash_is_a_layout_change_not_a_fault() {
        let mut s = battle(9);
        s.play(Actor(0), &roll(2), None).unwrap();
        s.play(Actor(0), &RaceCommand::Hold, None).unwrap();
        let old = Race::RULES_VERSION - 1;
        let (meta, mut recs) = recorded_under(&s, old);
        with_state_hash_of_entry(&meta, &mut recs, 1);
        let t = Session::<Race>::from_parts(parts(&s, meta, recs)).unwrap();
        let report = t.verify();
        assert!(report.ok(), "{report}");
        assert_eq!(report.rules_changed, None, "nothing is decided otherwise");
        let d = report.layout_changed.clone().expect("the entry is named");
        assert_eq!(d.entry, 1);
        assert_eq!(
            d.kind,
            DivergenceKind::RulesChanged {
                recorded: old,
                now: Race::RULES_VERSION
            }
        );
        let want = format!(
            "entry 1 was recorded under rules version {old}; today's version {} decides it \
             the same (events and dice) and folds it to a state with another hash, as the \
             state's stored layout changed since: expected, not tampering",
            Race::RULES_VERSION
        );
        assert_eq!(d.detail, want);
        let text = report.to_string();
        assert!(
            text.contains(&want)
                && text.contains(
                    "entry 1 was decided the same, hashed differently: the state's stored \
                     layout changed, expected"
                )
                && !text.contains("differently than")
                && !text.contains("replay exactly")
                && !text.contains("not deterministic"),
            "{text}"
        );
        let back: VerifyReport =
            serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
        assert_eq!(back, report);
    }

    /// Review14 S1: when every older entry hashes differently (a field was
    /// added), the entry named as decided differently is still the first
    /// one whose refusal, events or dice differ, not entry 0.
    #[test]
    fn a_layout_change_at_entry_0_does_not_hide_the_first_entry_decided_differently() {
        let mut s = battle(9);
        s.play(Actor(0), &roll(2), None).unwrap();
        s.play(Actor(0), &RaceCommand::Hold, None).unwrap();
        let old = Race::RULES_VERSION - 1;
        let (meta, mut recs) = recorded_under(&s, old);
        // Recorded under the old version, where the hold drew from the stream.
        recs[1].rng_after += 1;
        with_state_hash_of_entry(&meta, &mut recs, 0);
        let t = Session::<Race>::from_parts(parts(&s, meta, recs)).unwrap();
        let report = t.verify();
        assert!(report.ok(), "{report}");
        let changed = report.rules_changed.clone().expect("entry 1 is named");
        assert_eq!(changed.entry, 1, "{report}");
        assert!(changed.detail.starts_with("dice differ"), "{report}");
        let relaid = report.layout_changed.clone().expect("entry 0 is named");
        assert_eq!(relaid.entry, 0, "{report}");
        let text = report.to_string();
        assert!(
            text.contains(&format!(
                "decide entry 1 differently than version {old} did"
            )) && text.contains("entry 0 was decided the same, hashed differently"),
            "{text}"
        );
    }

    /// The same difference under today's rules version is a fault: apply is
    /// not deterministic (or the log was re-sealed with other hashes).
    #[test]
    fn an_entry_of_todays_rules_folding_to_another_state_hash_is_a_fault_of_apply() {
        let mut s = battle(9);
        s.play(Actor(0), &roll(2), None).unwrap();
        s.play(Actor(0), &RaceCommand::Hold, None).unwrap();
        let meta = s.meta().clone();
        let mut recs = s.records().to_vec();
        with_state_hash_of_entry(&meta, &mut recs, 1);
        let t = Session::<Race>::from_parts(parts(&s, meta, recs)).unwrap();
        let report = t.verify();
        let p = report
            .problem
            .clone()
            .expect("a fault under the same rules");
        assert_eq!((p.entry, &p.kind), (1, &DivergenceKind::Diverged));
        assert_eq!(
            p.detail,
            "the same events fold to a state with another hash (apply is not deterministic)"
        );
        assert!(
            report.to_string().starts_with("FAILED at entry 1"),
            "{report}"
        );
    }

    #[test]
    fn a_battle_that_goes_on_after_an_upgrade_records_each_entrys_rules_version() {
        let mut s = battle(11);
        s.play(Actor(0), &roll(2), None).unwrap();
        let old = Race::RULES_VERSION - 1;
        let (meta, recs) = recorded_under(&s, old);
        let mut t = Session::<Race>::from_parts(parts(&s, meta.clone(), recs)).unwrap();
        let a = Race::to_move(t.state()).unwrap();
        let id = t.play(a, &RaceCommand::Hold, None).unwrap();
        assert_eq!(t.records()[0].rules_version, old);
        assert_eq!(t.records()[id as usize].rules_version, Race::RULES_VERSION);
        assert_eq!(t.meta().rules_version, old, "the battle keeps its stamp");
        let report = t.verify();
        assert!(report.ok() && report.rules_changed.is_none(), "{report}");
        assert_eq!(report.older, 1);
        // Claiming the new entry was decided under the old rules is caught.
        let mut recs = t.records().to_vec();
        recs[id as usize].rules_version = old;
        match Session::<Race>::from_parts(StoredBattle {
            cursor: Some(id),
            ..parts(&t, meta, recs)
        }) {
            // Its events do not read in the old layout...
            Err(LoadError::Corrupt { entry, .. }) => assert_eq!(entry, id),
            // ...or, if they happen to, the chain does not hold.
            Ok(forged) => {
                let p = forged.verify().problem.expect("caught");
                assert_eq!((p.entry, p.kind), (id, DivergenceKind::Tampered));
            }
            Err(e) => panic!("unexpected {e}"),
        }
    }

    #[test]
    fn a_redo_after_an_upgrade_lands_on_the_entry_recorded_under_the_old_rules() {
        let mut s = battle(12);
        s.play(Actor(0), &roll(3), None).unwrap();
        let old = Race::RULES_VERSION - 1;
        let (meta, recs) = recorded_under(&s, old);
        let mut t = Session::<Race>::from_parts(StoredBattle {
            cursor: None,
            ..parts(&s, meta, recs)
        })
        .unwrap();
        let again = t.play(Actor(0), &roll(3), None).unwrap();
        assert_eq!(again, 0, "the same command is a redo, not a new branch");
        assert_eq!(t.records().len(), 1);
    }

    /// A session of `n` Hold/Roll commands: deep enough for a snapshot.
    fn long_battle(seed: u64, n: usize) -> Session<Race> {
        let mut s = Session::<Race>::new(seed, RaceConfig { target: 1000 }).unwrap();
        for i in 0..n {
            let Some(a) = Race::to_move(s.state()) else {
                break;
            };
            let c = if i % 2 == 0 {
                roll(1)
            } else {
                RaceCommand::Hold
            };
            s.play(a, &c, None).unwrap();
        }
        s
    }

    #[test]
    fn snapshots_are_a_cache_an_unreadable_older_or_wrong_one_is_rebuilt() {
        let s = long_battle(13, 2 * SNAPSHOT_EVERY as usize);
        let at = (SNAPSHOT_EVERY - 1) as EntryId;
        let good = s.snapshot(at).expect("a snapshot at depth 64").clone();
        let mut cases = vec![
            ("garbage", Race::RULES_VERSION, vec![0xff, 0xff, 0xff]),
            (
                "cut short",
                Race::RULES_VERSION,
                encode(&good)[..3].to_vec(),
            ),
            ("older rules", Race::RULES_VERSION - 1, encode(&good)),
            (
                "another entry's state",
                Race::RULES_VERSION,
                encode(&s.state_at(Some(at - 1))),
            ),
        ];
        cases.push(("readable", Race::RULES_VERSION, encode(&good)));
        for (what, rules_version, state) in cases {
            let t = Session::<Race>::from_parts(StoredBattle {
                snapshots: vec![StoredSnapshot {
                    entry: at,
                    rules_version,
                    state,
                }],
                ..parts(&s, s.meta().clone(), s.records().to_vec())
            })
            .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(t.snapshot(at), Some(&good), "{what}");
            let rebuilt = what != "readable";
            assert_eq!(t.rebuilt_snapshots().contains(&at), rebuilt, "{what}");
            assert!(t.verify().ok(), "{what}");
        }
    }

    fn strict_battle(seed: u64) -> Session<Race> {
        Session::<Race>::new_with(seed, RaceConfig { target: 1000 }, true).unwrap()
    }

    #[test]
    fn a_strict_battle_refuses_another_command_where_dice_have_been_seen() {
        let mut s = strict_battle(21);
        s.play(Actor(0), &roll(2), None).unwrap();
        let seen = s.records()[0].clone();
        s.undo(1);
        let err = s.play(Actor(0), &roll(3), None).unwrap_err();
        assert_eq!(err.kind, RuleErrorKind::Strict);
        assert!(err.message.contains("dice of entry 0"), "{err}");
        let err = s.play(Actor(0), &RaceCommand::Hold, None).unwrap_err();
        assert_eq!(
            err.kind,
            RuleErrorKind::Strict,
            "holding instead is refused too"
        );
        assert_eq!(s.records().len(), 1, "nothing was recorded");
        // The same command again is a redo onto the recorded entry.
        assert_eq!(s.play(Actor(0), &roll(2), None).unwrap(), 0);
        assert_eq!(s.records()[0], seen);
        assert!(s.verify().ok());
    }

    #[test]
    fn a_strict_battle_lets_a_command_that_rolled_nothing_be_taken_back() {
        let mut s = strict_battle(22);
        let a = Race::to_move(s.state()).unwrap();
        s.play(a, &RaceCommand::Hold, None).unwrap();
        s.undo(1);
        let b = Race::to_move(s.state()).unwrap();
        s.play(b, &roll(1), None)
            .expect("no dice were seen after this point");
        assert_eq!(s.branches().len(), 2);
        // Reviewing any point stays free; only a new command is refused.
        s.seek(None);
        assert_eq!(s.cursor(), None);
    }

    #[test]
    fn a_casual_battle_counts_its_takebacks_past_a_roll() {
        let mut s = Session::<Race>::new(23, RaceConfig { target: 1000 }).unwrap();
        s.play(Actor(0), &RaceCommand::Hold, None).unwrap();
        s.undo(1);
        s.play(Actor(0), &roll(1), None).unwrap(); // branch 1: past a hold only
        s.undo(1);
        s.play(Actor(0), &roll(2), None).unwrap(); // branch 2: past the roll of branch 1
        assert_eq!(s.takebacks_past_rolls(), vec![2]);
        assert!(s.verify().ok());
    }

    /// A line another copy of the campaign played, grafted by a merge
    /// (saves' merge names it "… (from the copy FILE)"), is no take-back
    /// here; a branch played here cannot be renamed to claim so.
    #[test]
    fn a_line_from_another_copy_is_no_takeback_past_a_roll_and_no_branch_here_may_claim_it() {
        let mut s = Session::<Race>::new(23, RaceConfig { target: 1000 }).unwrap();
        s.play(Actor(0), &roll(1), None).unwrap();
        s.undo(1);
        s.play(Actor(0), &roll(2), None).unwrap();
        assert_eq!(s.takebacks_past_rolls(), vec![1]);
        let err = s
            .rename_branch(1, "Main (from the copy laptop.xenolog)")
            .unwrap_err();
        assert!(
            err.contains("cannot be named as from another copy"),
            "{err}"
        );
        assert_eq!(s.takebacks_past_rolls(), vec![1]);
        s.branches[1].name = format!("Main{}laptop.xenolog)", Branch::FROM_COPY);
        assert!(
            !s.branches()[1].from_another_copy(),
            "a name is no kind (migration 9)"
        );
        s.branches[1].kind = BranchKind::FromCopy;
        assert!(s.branches()[1].from_another_copy());
        assert!(s.takebacks_past_rolls().is_empty());
        // Renamed, the grafted line stays another copy's line: the kind is
        // not in its name (before migration 9 a rename dropped the mark).
        s.rename_branch(1, "Walsh's game").unwrap();
        assert!(s.branches()[1].from_another_copy());
        assert!(s.takebacks_past_rolls().is_empty());
        // ... and may be named so again; a branch played here may not.
        s.rename_branch(1, "Main (from the copy laptop.xenolog)")
            .unwrap();
        s.rename_branch(0, "Main (from the copy laptop.xenolog)")
            .unwrap_err();
    }

    /// Play `s` until its battle is over (a race to a small target).
    fn play_to_the_end(s: &mut Session<Race>) {
        for _ in 0..500 {
            if Race::outcome(s.state()).is_some() {
                return;
            }
            let a = Race::to_move(s.state()).unwrap();
            let cmd = if s.state().turn_total > 0 {
                RaceCommand::Hold
            } else {
                roll(3)
            };
            s.play(a, &cmd, None).unwrap();
        }
        panic!("the race did not end in 500 commands");
    }

    /// A race to 12 with a take-back (branch 1, from the setup while the
    /// race was on) played to its end, then a what-if from its first entry
    /// (branch 2).
    fn branched() -> Session<Race> {
        let mut s = Session::<Race>::new(5, RaceConfig { target: 12 }).unwrap();
        let a = Race::to_move(s.state()).unwrap();
        s.play(a, &roll(1), None).unwrap();
        s.undo(1);
        s.play(a, &roll(2), None).unwrap();
        play_to_the_end(&mut s);
        s.seek(s.path_to(s.cursor()).first().copied());
        let a = Race::to_move(s.state()).unwrap();
        s.play(a, &roll(2), None).unwrap();
        s
    }

    /// A branch carries its kind: a command taken back while the line was
    /// being played starts a take-back, one from an earlier point of a
    /// line played to its end a what-if (issue 30 item 6: what-ifs of a
    /// finished battle); the main line is the main line.
    #[test]
    fn a_branch_is_a_takeback_while_the_line_is_played_and_a_what_if_after_its_end() {
        let s = branched();
        let kinds: Vec<BranchKind> = s.branches().iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [BranchKind::Main, BranchKind::TakeBack, BranchKind::WhatIf]
        );
    }

    /// A held battle extended with stored entries whose branches were
    /// stored before kinds were kept (another process's read of an older
    /// campaign) tells their kinds as a load does.
    #[test]
    fn branches_stored_without_a_kind_are_told_when_a_held_battle_is_extended() {
        let whole = branched();
        let mut held = Session::<Race>::new(5, RaceConfig { target: 12 }).unwrap();
        let mut more = parts(&whole, whole.meta().clone(), whole.records().to_vec());
        for b in &mut more.branches {
            b.kind = BranchKind::Unrecorded;
        }
        held.extend_stored(more).unwrap();
        let kinds: Vec<BranchKind> = held.branches().iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [BranchKind::Main, BranchKind::TakeBack, BranchKind::WhatIf]
        );
    }

    /// A battle stored before kinds were kept (every kind `Unrecorded`)
    /// loads with the kinds a battle played now gets, and a line named as
    /// another copy's (how a merge marked it before migration 9) as one.
    #[test]
    fn branches_stored_without_a_kind_are_told_on_loading() {
        let mut s = branched();
        // Branch 3: from the setup while branch 2's line is being played.
        s.seek(None);
        let a = Race::to_move(s.state()).unwrap();
        s.play(a, &roll(3), None).unwrap();
        assert_eq!(s.branches()[3].kind, BranchKind::TakeBack);
        let mut old = parts(&s, s.meta().clone(), s.records().to_vec());
        for b in &mut old.branches {
            b.kind = BranchKind::Unrecorded;
        }
        old.branches[1].name = format!("Main{}laptop.xenolog)", Branch::FROM_COPY);
        let t = Session::<Race>::from_parts(old).unwrap();
        let got: Vec<BranchKind> = t.branches().iter().map(|b| b.kind).collect();
        assert_eq!(
            got,
            [
                BranchKind::Main,
                BranchKind::FromCopy,
                BranchKind::WhatIf,
                BranchKind::TakeBack
            ]
        );
    }

    #[test]
    fn a_pending_entry_committed_after_the_battle_moved_is_refused_and_changes_nothing() {
        let mut s = battle(31);
        let early = s.prepare(Actor(0), &roll(1), None).unwrap();
        s.play(Actor(0), &roll(2), None).unwrap();
        let before = (s.records().to_vec(), s.cursor(), s.branches().to_vec());
        assert_eq!(s.commit(early), Err(StalePending));
        assert_eq!(
            (s.records().to_vec(), s.cursor(), s.branches().to_vec()),
            before
        );
        // Moving the cursor makes a pending redo stale too.
        s.undo(1);
        let redo = s.prepare(Actor(0), &roll(2), None).unwrap();
        s.redo(1);
        assert_eq!(s.commit(redo), Err(StalePending));
        assert!(s.verify().ok());
    }

    #[test]
    fn entered_dice_are_marked_and_replayed() {
        let mut s = battle(5);
        let id = s.play(Actor(0), &roll(2), Some(vec![6, 5])).unwrap();
        let rec = &s.records()[id as usize];
        assert!(rec.entered);
        assert_eq!(
            rec.dice().iter().map(|d| d.value).collect::<Vec<_>>(),
            vec![6, 5]
        );
        assert_eq!(rec.rng_after, 0);
        assert_eq!(s.state().turn_total, 11);
        assert!(s.verify().ok());
        let err = s.play(Actor(0), &roll(2), Some(vec![6])).unwrap_err();
        assert_eq!(err.kind, crate::game::RuleErrorKind::MoreDice);
        assert_eq!(s.records().len(), 1, "a refused command changes nothing");
    }
}
