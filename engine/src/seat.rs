//! A seat's battle on a club server (server/DESIGN.md section 6, "The
//! client's local copy"): [`SeatBattle`] implements [`Battle`] over what
//! the seat received and nothing else: the seat's view of the state at the
//! setup and after every entry (parsed into the game's typed state), each
//! entry in words as the seat may see it, and the commands the server says
//! the seat may give at the head. The full state never reaches it, so no
//! other seat's hidden cards can show through it (principle 14).
//!
//! The scene, the flow, the seat names, whose turn it is and the outcome
//! are worked out here from those views, so the app's timeline, review,
//! notes and Luck panel work on it through `dyn Battle` as on a local
//! battle. A command is not decided here: a club battle is played through
//! its server, and it cannot be replayed until the server reveals its
//! secret at the end.

use std::any::Any;

use serde_json::Value;

use crate::battle::{Battle, EntryText, LegalCommand, PlayError};
use crate::game::{Actor, Ask, FlowMark, Game, Outcome, RuleError, RuleErrorKind, Viewer};
use crate::record::EntryFields;
use crate::scene::Scene;
use crate::session::{
    BattleMeta, Branch, BranchId, BranchKind, Divergence, DivergenceKind, EntryId, EntryRecord,
    Pending, StalePending, VerifyReport,
};

/// Why a club battle's command is not decided here.
pub const PLAYED_THROUGH_SERVER: &str = "a club battle is played through its server";
/// Why a club battle cannot be checked before its end.
pub const SEED_HELD: &str = "the server holds the seed until the end: a club battle is checked \
                             (every roll re-derived, every receipt matched) once it is over and \
                             its file is downloaded";

/// What a seat received of a battle, game-free: the view state at the
/// setup, one item per `entry` event (its `entry` and `state` fields, as
/// `club watch` prints them), the head of the live line, and the seat's
/// commands at the head.
///
/// The entries form a tree, as the server's battle does (server/DESIGN.md
/// section 9): an entry's id is its number in the whole battle, not its
/// place on one line. A take-back (`moved`) moves the head back to an entry
/// held, and the entries after it stay, on their branch; the next entry
/// follows the new head and starts a new branch. Entries the seat never
/// received (a branch taken back while it was away) are simply not here.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatLog {
    /// The seat whose view this is.
    pub seat: Actor,
    /// The seat's view of the state at the setup (the `state` request with
    /// `at: null`).
    pub setup: Value,
    /// Every entry received, in the order received, which is the order of
    /// their ids (the server numbers entries as it records them, and sends
    /// a seat only entries newer than any it holds).
    pub entries: Vec<SeatEntry>,
    /// The live line's newest entry (`None`: the setup).
    pub head: Option<EntryId>,
    /// The seat's legal commands at the head (the `legal` request).
    pub legal: Vec<LegalCommand>,
}

/// One entry as the seat received it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatEntry {
    pub text: EntryText,
    pub state: Value,
    /// The entry it follows (`None`: the setup).
    pub parent: Option<EntryId>,
    /// The kind of the entry's branch as the frame names it
    /// (`entry.branch_kind`); `None` from a server older than the key, whose
    /// branches the copy makes take-backs, as a live battle's are.
    pub branch_kind: Option<BranchKind>,
}

impl SeatEntry {
    /// Read an `entry` event of the club protocol that came when the live
    /// line ended at `head`. Its parent is the one the frame names, when it
    /// names one (`entry.parent`); else `head`: a server sends a seat the
    /// live line's entries in order, and after a take-back (`moved`, whose
    /// `to` became the head) the first entry of the new branch.
    pub fn from_event(ev: &Value, head: Option<EntryId>) -> Result<SeatEntry, String> {
        let text: EntryText = serde_json::from_value(ev["entry"].clone())
            .map_err(|e| format!("an entry from the club server cannot be read: {e}"))?;
        let parent = match ev["entry"].get("parent") {
            Some(Value::Null) => None,
            Some(p) => Some(p.as_u64().ok_or_else(|| {
                format!(
                    "entry {}'s parent from the club server is no entry number: {p}",
                    text.id
                )
            })?),
            None => head,
        };
        // A kind this build does not know reads as a take-back, the kind
        // of a live battle's branches; never as an error.
        let branch_kind =
            ev["entry"]
                .get("branch_kind")
                .map(|k| match BranchKind::parse(k.as_str()) {
                    BranchKind::Unrecorded => BranchKind::TakeBack,
                    k => k,
                });
        Ok(SeatEntry {
            text,
            state: ev["state"].clone(),
            parent,
            branch_kind,
        })
    }
}

impl SeatLog {
    /// A log of the setup only.
    pub fn new(seat: Actor, setup: Value) -> SeatLog {
        SeatLog {
            seat,
            setup,
            entries: Vec::new(),
            head: None,
            legal: Vec::new(),
        }
    }

    /// The entry `id`, if held.
    pub fn get(&self, id: EntryId) -> Option<&SeatEntry> {
        self.entries
            .binary_search_by_key(&id, |e| e.text.id)
            .ok()
            .map(|i| &self.entries[i])
    }

    /// The entries from the setup to the head, in order.
    pub fn line(&self) -> Vec<EntryId> {
        let mut out = Vec::new();
        let mut at = self.head;
        while let Some(id) = at {
            out.push(id);
            at = self.get(id).and_then(|e| e.parent);
        }
        out.reverse();
        out
    }

    /// Add an entry at the head: it becomes the head. One already held is
    /// ignored (a resumed watch overlaps), unless it is the next on a line
    /// from the head (the server walked a recorded line again): then the
    /// head moves to it. One that leaves a gap is refused in words.
    pub fn push(&mut self, entry: SeatEntry) -> Result<bool, String> {
        let id = entry.text.id;
        if let Some(held) = self.get(id) {
            if held.parent == self.head && self.head != Some(id) {
                self.head = Some(id);
                self.legal.clear();
                return Ok(true);
            }
            return Ok(false);
        }
        let newest = self.entries.last().map(|e| e.text.id);
        if newest.is_some_and(|n| id < n) {
            return Err(format!(
                "entry {id} came after entry {}: the copy of this battle has a gap",
                newest.unwrap_or_default()
            ));
        }
        // The branch its parent is on (the setup is on the first).
        let parent_branch = match entry.parent {
            None => 0,
            Some(p) => match self.get(p) {
                Some(e) => e.text.branch,
                None => {
                    return Err(format!(
                        "entry {id} follows entry {p}, which this copy does not hold: the copy \
                         of this battle has a gap"
                    ));
                }
            },
        };
        // On its parent's branch, it is the next entry recorded after the
        // parent (a branch grows only at its head); ids between are other
        // branches' entries, held. A new branch's first entry is newer than
        // anything held (checked above).
        if entry.text.branch == parent_branch {
            let first = entry.parent.map_or(0, |p| p + 1);
            if let Some(missing) = (first..id).find(|e| self.get(*e).is_none()) {
                return Err(format!(
                    "entry {id} came before entry {missing}: the copy of this battle has a gap"
                ));
            }
        }
        self.head = Some(id);
        self.legal.clear();
        self.entries.push(entry);
        Ok(true)
    }

    /// A take-back (the `moved` event): the live line now ends at `to`, an
    /// entry held (or the setup); the entries after it are kept on their
    /// branch. Whether the head moved.
    pub fn moved(&mut self, to: Option<EntryId>) -> Result<bool, String> {
        if let Some(t) = to
            && self.get(t).is_none()
        {
            return Err(format!(
                "the battle was taken back to entry {t}, which this copy does not hold: the copy \
                 of this battle has a gap"
            ));
        }
        if self.head == to {
            return Ok(false);
        }
        self.head = to;
        self.legal.clear();
        Ok(true)
    }

    /// Read a `moved` event of the club protocol (its `to`).
    pub fn moved_event(&mut self, ev: &Value) -> Result<bool, String> {
        let to =
            match &ev["to"] {
                Value::Null => None,
                v => Some(v.as_u64().ok_or_else(|| {
                    format!("a take-back from the club server names no entry: {v}")
                })?),
            };
        self.moved(to)
    }
}

/// A seat's battle over what it received (see the module's words).
///
/// Entries are kept by id with their parents, as in a local battle, so the
/// timeline, the branch view and review walk the same tree; an id the seat
/// never received is a placeholder on no line (no state, no words).
pub struct SeatBattle<G: Game> {
    meta: BattleMeta,
    seat: Actor,
    setup: G::State,
    states: Vec<Option<G::State>>,
    texts: Vec<Option<EntryText>>,
    records: Vec<EntryRecord>,
    branches: Vec<Branch>,
    /// Each branch's newest entry held.
    branch_heads: Vec<Option<EntryId>>,
    /// The branch shown: the line from the setup to its head.
    branch: BranchId,
    cursor: Option<EntryId>,
    /// The live line's head (the server's cursor).
    live: Option<EntryId>,
    /// How many of the log's entries are held.
    held: usize,
    legal: Vec<LegalCommand>,
}

fn parse_state<G: Game>(v: &Value, what: &str) -> Result<G::State, String> {
    serde_json::from_value(v.clone()).map_err(|e| format!("{what} is not a {} state: {e}", G::NAME))
}

impl<G: Game> SeatBattle<G> {
    /// The battle as the log holds it, shown at its head.
    pub fn from_log(log: &SeatLog) -> Result<Self, String> {
        let setup: G::State = parse_state::<G>(&log.setup, "the setup the server sent")?;
        let mut b = Self {
            meta: BattleMeta {
                game: G::ID.to_owned(),
                // The seed is the server's until the end (section 5).
                seed: 0,
                rules_version: log
                    .entries
                    .first()
                    .map_or(G::RULES_VERSION, |e| e.text.rules_version),
                config: "{}".to_owned(),
                strict: false,
                fair: None,
            },
            seat: log.seat,
            setup,
            states: Vec::with_capacity(log.entries.len()),
            texts: Vec::with_capacity(log.entries.len()),
            records: Vec::with_capacity(log.entries.len()),
            branches: vec![Branch {
                id: 0,
                name: "Main".to_owned(),
                parent: None,
                fork: None,
                kind: BranchKind::Main,
            }],
            branch_heads: vec![None],
            branch: 0,
            cursor: None,
            live: None,
            held: 0,
            legal: Vec::new(),
        };
        b.catch_up(log)?;
        Ok(b)
    }

    fn held(&self, id: EntryId) -> bool {
        self.texts.get(id as usize).is_some_and(Option::is_some)
    }

    /// Entries a copy may hold as never received (placeholders, a branch
    /// taken back while the seat was away) before it refuses the server's
    /// frames: each costs memory, and a server that sends entry 4e9 would
    /// otherwise have the copy make four billion of them (review of
    /// session 15, item 10).
    const MAX_UNRECEIVED: usize = 10_000;

    /// Make room for branch `id`: branches never received are named so.
    /// A branch starts with an entry, so its id is never above that
    /// entry's; `id` is checked so by [`Self::push_entry`], and a slot past
    /// every entry held is refused in words rather than made.
    fn branch_slot(&mut self, id: BranchId) -> Result<(), String> {
        if id as usize > self.records.len() {
            return Err(format!(
                "branch {id} from the club server is past every entry of this copy ({}): \
                 a branch starts with an entry, so the copy does not take it",
                self.records.len()
            ));
        }
        while self.branches.len() <= id as usize {
            let n = self.branches.len() as BranchId;
            self.branches.push(Branch {
                id: n,
                name: format!("Branch {n} (not received)"),
                parent: Some(0),
                fork: None,
                // A live battle's branches are take-backs (what-ifs of a
                // finished battle are local, issue 30 item 6).
                kind: BranchKind::TakeBack,
            });
            self.branch_heads.push(None);
        }
        Ok(())
    }

    /// Add an entry received: its view state parsed, its actor found by
    /// name, its branch made when it is the first of one.
    fn push_entry(&mut self, e: &SeatEntry) -> Result<(), String> {
        let id = e.text.id;
        let i = id as usize;
        if i < self.records.len() {
            return Err(format!(
                "entry {id} came after entry {}: the copy of this battle has a gap",
                self.records.len() - 1
            ));
        }
        if let Some(p) = e.parent
            && !self.held(p)
        {
            return Err(format!(
                "entry {id} follows entry {p}, which this copy does not hold: the copy of this \
                 battle has a gap"
            ));
        }
        // A branch starts with an entry (its first), so no branch id is
        // above its entry's id; and the ids skipped are bounded.
        if u64::from(e.text.branch) > id {
            return Err(format!(
                "entry {id} from the club server is on branch {}, and a branch starts with an \
                 entry, so no branch after entry {id} is numbered above it: the frame is refused",
                e.text.branch
            ));
        }
        let unreceived = i.saturating_sub(self.held);
        if unreceived > Self::MAX_UNRECEIVED {
            return Err(format!(
                "entry {id} from the club server would leave {unreceived} entries this copy \
                 never received (at most {} are kept as placeholders): the frame is refused",
                Self::MAX_UNRECEIVED
            ));
        }
        let state = parse_state::<G>(&e.state, &format!("the state after entry {id}"))?;
        // Ids never received (entries of a branch taken back while this
        // seat was away): placeholders on no line.
        while self.records.len() < i {
            let near = self.records.last().map_or(0, |r| r.branch);
            self.records.push(EntryRecord::from(EntryFields {
                parent: None,
                branch: near,
                actor: Actor::SYSTEM,
                command: Vec::new(),
                events: Vec::new(),
                dice: Vec::new(),
                entered: false,
                rng_after: 0,
                state_hash: [0; 16],
                chain: [0; 16],
                rules_version: self.meta.rules_version,
            }));
            self.states.push(None);
            self.texts.push(None);
        }
        let parent_branch = e.parent.map_or(0, |p| self.records[p as usize].branch);
        let branch = e.text.branch;
        let known = self
            .branch_heads
            .get(branch as usize)
            .is_some_and(Option::is_some);
        self.branch_slot(branch)?;
        if branch != parent_branch && !known {
            self.branches[branch as usize] = Branch {
                id: branch,
                name: format!("Branch {branch}"),
                parent: Some(parent_branch),
                fork: e.parent,
                kind: BranchKind::TakeBack,
            };
        }
        // The kind the server names (every entry carries it, so a copy
        // resumed mid-branch learns it too): a grafted line (a merge into a
        // club campaign) is another copy's, not a take-back. Only branch 0
        // is the main line.
        if let Some(k) = e.branch_kind
            && (branch == 0) == (k == BranchKind::Main)
        {
            self.branches[branch as usize].kind = k;
        }
        let before = self.state_at_ref(e.parent);
        let actor = actor_named::<G>(before, &e.text.actor);
        self.records.push(EntryRecord::from(EntryFields {
            parent: e.parent,
            branch,
            actor,
            // What the seat holds is the entry in words and the view state
            // after it; the command and events as decided are the server's
            // (and, after the end, the downloaded file's).
            command: Vec::new(),
            events: Vec::new(),
            dice: e.text.dice.clone(),
            entered: e.text.entered,
            rng_after: 0,
            state_hash: [0; 16],
            chain: [0; 16],
            rules_version: e.text.rules_version,
        }));
        self.states.push(Some(state));
        self.texts.push(Some(e.text.clone()));
        self.branch_heads[branch as usize] = Some(id);
        Ok(())
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Actor {
        self.seat
    }

    /// The seat's view of the state at the cursor.
    pub fn state(&self) -> &G::State {
        self.state_at_ref(self.cursor)
    }

    fn state_at_ref(&self, at: Option<EntryId>) -> &G::State {
        at.and_then(|id| self.states.get(id as usize))
            .and_then(Option::as_ref)
            .unwrap_or(&self.setup)
    }

    /// The branch an entry is on (the setup: the first).
    fn branch_of(&self, at: Option<EntryId>) -> BranchId {
        at.map_or(0, |id| self.records[id as usize].branch)
    }

    /// Whether `id` is on the line from the setup to `branch`'s head.
    fn on_line(&self, id: EntryId, branch: BranchId) -> bool {
        let head = self.branch_heads.get(branch as usize).copied().flatten();
        crate::record::leads_back_to(&self.records, head, id)
    }

    /// The next entry after the cursor on the line of the branch shown.
    fn next_on_line(&self) -> Option<EntryId> {
        let head = self
            .branch_heads
            .get(self.branch as usize)
            .copied()
            .flatten()?;
        crate::record::next_towards(&self.records, head, self.cursor)
    }
}

// Game code runs here on views, with no guard: every game's seats, asked,
// flow, outcome and scene work on any seat's view (a hidden card is no card
// the rules can look up), as
// `tests::every_games_rules_work_on_every_seats_view_with_no_guard` checks.

/// The seat an entry's actor name names, on the state before it.
fn actor_named<G: Game>(state: &G::State, name: &str) -> Actor {
    G::seats(state)
        .into_iter()
        .find(|&a| G::seat_name(state, a) == name)
        .unwrap_or(Actor::SYSTEM)
}

impl<G: Game> Battle for SeatBattle<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }
    fn game_name(&self) -> &'static str {
        G::NAME
    }
    fn turn_word(&self) -> &'static str {
        G::turn_word()
    }
    fn meta(&self) -> &BattleMeta {
        &self.meta
    }
    fn records(&self) -> &[EntryRecord] {
        &self.records
    }
    fn branches(&self) -> &[Branch] {
        &self.branches
    }
    fn cursor(&self) -> Option<EntryId> {
        self.cursor
    }
    fn current_branch(&self) -> BranchId {
        self.branch
    }
    fn head(&self, branch: BranchId) -> Option<EntryId> {
        self.branch_heads.get(branch as usize).copied().flatten()
    }
    fn children(&self, of: Option<EntryId>) -> Vec<EntryId> {
        // Newest first, as in a local battle.
        let from = of.map_or(0, |p| p as usize + 1);
        (from..self.records.len())
            .rev()
            .map(|i| i as EntryId)
            .filter(|&i| self.held(i) && self.records[i as usize].parent == of)
            .collect()
    }
    fn path_to(&self, at: Option<EntryId>) -> Vec<EntryId> {
        let mut path = Vec::new();
        let mut e = at.filter(|&id| self.held(id));
        while let Some(id) = e {
            path.push(id);
            e = self.records[id as usize].parent;
        }
        path.reverse();
        path
    }
    fn seek(&mut self, at: Option<EntryId>) {
        // The branch shown stays if the entry is on its line; otherwise it
        // becomes the entry's branch (as in a local battle).
        match at {
            None => self.cursor = None,
            Some(id) if self.held(id) => {
                if !self.on_line(id, self.branch) {
                    self.branch = self.records[id as usize].branch;
                }
                self.cursor = at;
            }
            Some(_) => {}
        }
    }
    fn undo(&mut self, steps: usize) -> usize {
        let mut moved = 0;
        while moved < steps
            && let Some(c) = self.cursor
        {
            self.cursor = self.records[c as usize].parent;
            moved += 1;
        }
        moved
    }
    fn redo(&mut self, steps: usize) -> usize {
        let mut moved = 0;
        while moved < steps
            && let Some(next) = self.next_on_line()
        {
            self.cursor = Some(next);
            moved += 1;
        }
        moved
    }
    fn switch_branch(&mut self, branch: BranchId) -> Result<(), String> {
        match self.head(branch) {
            Some(h) => {
                self.branch = branch;
                self.cursor = Some(h);
                Ok(())
            }
            None => Err(format!(
                "this seat's copy holds no entry of branch {branch}"
            )),
        }
    }
    fn rename_branch(&mut self, _branch: BranchId, _name: &str) -> Result<(), String> {
        Err(format!("{PLAYED_THROUGH_SERVER}: its line is the server's"))
    }
    fn prepare_json(
        &self,
        _actor: Actor,
        _command: &Value,
        _dice: Option<Vec<u8>>,
    ) -> Result<Pending, PlayError> {
        Err(PlayError::Rule(RuleError::new(
            RuleErrorKind::Illegal,
            PLAYED_THROUGH_SERVER,
        )))
    }
    fn commit(&mut self, _pending: Pending) -> Result<EntryId, StalePending> {
        Err(StalePending)
    }
    fn dice_needed(&self, _actor: Actor, _command: &Value) -> Result<Vec<u8>, PlayError> {
        // The stream's dice of a command are the server's to know (a count
        // can tell a seat its coming dice): none are entered here.
        Ok(Vec::new())
    }
    fn legal(&self) -> Vec<LegalCommand> {
        // Commands are given at the live line's head only.
        if self.cursor == self.live {
            self.legal.clone()
        } else {
            Vec::new()
        }
    }
    fn due_step(&self) -> Option<LegalCommand> {
        None
    }
    fn play_due(&mut self) -> Result<Vec<EntryId>, RuleError> {
        Ok(Vec::new())
    }
    fn asked(&self) -> Vec<Ask> {
        // Worked out on the seat's view: another seat's hidden cards are
        // not here, so whether it may play an instant is not either.
        G::asked(self.state())
    }
    fn asked_publicly(&self) -> Vec<Ask> {
        G::asked(&G::view(self.state(), Actor::SYSTEM))
    }
    fn waited_for(&self) -> Vec<Actor> {
        crate::battle::waited_for::<G>(self.state(), self.asked())
    }
    fn asked_as(&self, viewer: Viewer) -> Vec<Ask> {
        match viewer {
            Viewer::All => self.asked(),
            Viewer::Seat(seat) => G::asked(&G::view(self.state(), seat)),
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        G::outcome(self.state())
    }
    fn actor_name(&self, actor: Actor) -> String {
        if actor == Actor::SYSTEM {
            return "The game".to_owned();
        }
        G::seat_name(self.state(), actor)
    }
    fn state_json_as(&self, at: Option<EntryId>, viewer: Viewer) -> Value {
        let state = self.state_at_ref(at);
        let value = match viewer {
            Viewer::All => serde_json::to_value(state),
            // Another seat's view of this seat's view hides this seat's
            // cards too; it never shows more.
            Viewer::Seat(s) if s != self.seat => serde_json::to_value(G::view(state, s)),
            Viewer::Seat(_) => serde_json::to_value(state),
        };
        value.unwrap_or(Value::Null)
    }
    fn entry_texts_as(&self, line: &[EntryId], _viewer: Viewer) -> Vec<EntryText> {
        line.iter()
            .filter_map(|&id| self.texts.get(id as usize).cloned().flatten())
            .collect()
    }
    fn scene_at_as(&self, at: Option<EntryId>, viewer: Viewer) -> Scene {
        let state = self.state_at_ref(at);
        match viewer {
            Viewer::Seat(s) if s != self.seat => G::scene(&G::view(state, s)),
            _ => G::scene(state),
        }
    }
    fn hides_information(&self) -> bool {
        // What is hidden from this seat is not here at all.
        false
    }
    fn seats_see_differently(&self) -> bool {
        // One seat's screen: no hot-seat curtain.
        false
    }
    fn seats(&self) -> Vec<(Actor, String)> {
        G::seats(self.state())
            .into_iter()
            .map(|a| (a, self.actor_name(a)))
            .collect()
    }
    fn flow_at(&self, at: Option<EntryId>) -> FlowMark {
        G::flow(self.state_at_ref(at))
    }
    fn verify(&self) -> VerifyReport {
        VerifyReport::failed(
            self.records.len() as u64,
            Divergence {
                entry: 0,
                kind: DivergenceKind::Diverged,
                detail: format!("not checked: {SEED_HELD}"),
            },
        )
    }
    fn rules_version_now(&self) -> u32 {
        G::RULES_VERSION
    }
    fn rebuilt_snapshots(&self) -> &[EntryId] {
        &[]
    }
    fn takebacks_past_rolls(&self) -> Vec<BranchId> {
        Vec::new()
    }
    fn first_roll_after(&self, _at: Option<EntryId>) -> Option<EntryId> {
        None
    }
    fn snapshot_bytes(&self, _id: EntryId) -> Option<Vec<u8>> {
        None
    }
    fn corruption(&self) -> Option<EntryId> {
        None
    }
    fn seal_fair(&mut self, _fair: crate::fair::FairSeed) -> Result<(), String> {
        Err(format!("{PLAYED_THROUGH_SERVER}: its server seals it"))
    }
    fn legal_as(&self, seat: Actor) -> Vec<LegalCommand> {
        if seat == self.seat {
            self.legal()
        } else {
            Vec::new()
        }
    }
    fn public_view_leaks(&self, _at: Option<EntryId>) -> Option<Actor> {
        None
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A seat's copy that takes in what arrived since it was built, parsing
/// only the new entries (a view state carries the game's tables: parsing a
/// long battle's every state on each arrival would cost a frame).
pub trait SeatCopy {
    /// Take the entries of `log` not held yet, its head (a take-back moves
    /// it back) and the commands there; a copy shown at the live line's
    /// head follows it. How many entries were new.
    fn catch_up(&mut self, log: &SeatLog) -> Result<usize, String>;
    /// The live line's head: where a command is given.
    fn live_head(&self) -> Option<EntryId>;
}

impl<G: Game> SeatCopy for SeatBattle<G> {
    fn catch_up(&mut self, log: &SeatLog) -> Result<usize, String> {
        if let Some(h) = log.head
            && log.get(h).is_none()
        {
            return Err(format!(
                "the live line's head, entry {h}, is not in this seat's log"
            ));
        }
        let at_live = self.cursor == self.live;
        let mut n = 0;
        for e in log.entries.iter().skip(self.held) {
            self.push_entry(e)?;
            self.held += 1;
            n += 1;
        }
        self.live = log.head;
        self.legal = log.legal.clone();
        if at_live {
            self.cursor = self.live;
            if self.live.is_some() || n > 0 {
                self.branch = self.branch_of(self.live);
            }
        }
        Ok(n)
    }
    fn live_head(&self) -> Option<EntryId> {
        self.live
    }
}

/// Whether `b` is a seat's battle of one of the games, as `$b` of `$as`.
macro_rules! each_seat_game {
    ($b:ident, $as:ident, $conv:ident, $tr:ty) => {{
        use crate::games::*;
        macro_rules! one {
            ($g:ty) => {
                if $b.as_any().is::<SeatBattle<$g>>() {
                    return $b.$as().$conv::<SeatBattle<$g>>().map(|s| s as $tr);
                }
            };
        }
        one!(dimx::DimX);
        one!(saucers::Saucers);
        one!(alien::Alien);
        one!(invasion::Invasion);
        one!(race::Race);
        one!(highcard::HighCard);
        one!(hexwar::HexWar);
        None
    }};
}

/// The battle as a seat's copy, if it is one.
pub fn seat_copy(b: &mut dyn Battle) -> Option<&mut dyn SeatCopy> {
    each_seat_game!(b, as_any_mut, downcast_mut, &mut dyn SeatCopy)
}

/// The battle as a seat's copy, to read, if it is one.
pub fn seat_copy_ref(b: &dyn Battle) -> Option<&dyn SeatCopy> {
    each_seat_game!(b, as_any, downcast_ref, &dyn SeatCopy)
}

/// A seat's battle of `G` over what it received.
pub(crate) fn open<G: Game>(log: &SeatLog) -> Result<Box<dyn Battle>, String> {
    Ok(Box::new(SeatBattle::<G>::from_log(log)?))
}

/// The game whose state `setup` is, by its shape: only for a club server
/// older than session 15, whose frames do not name the game (a newer one
/// names it in the battle list, the `state` and `watch` replies and `live`).
pub fn game_of_state(setup: &Value) -> Option<&'static str> {
    crate::games::REGISTRY
        .iter()
        .find(|e| e.rules.is_some_and(|r| (r.is_state)(setup)))
        .map(|e| e.id)
}

/// A seat's battle of game `game` (an id, `saucers`) over what it received.
pub fn seat_battle(game: &str, log: &SeatLog) -> Result<Box<dyn Battle>, String> {
    match crate::games::entry(game).and_then(|e| e.rules) {
        Some(rules) => (rules.open_seat)(log),
        None => Err(format!(
            "this battle is of game '{game}', which this build of Xenolog does not know"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    /// A seat log made from a local battle the way the server's lens makes
    /// a seat's frames: views only.
    fn log_of(b: &dyn Battle, seat: Actor) -> SeatLog {
        let line = b.path_to(b.cursor());
        let mut log = SeatLog::new(seat, b.state_json_as(None, Viewer::Seat(seat)));
        for e in entries_of(b, seat, &line) {
            log.push(e).unwrap();
        }
        log.legal = b.legal_as(seat);
        log
    }

    /// The entries `ids` as `seat` receives them, each with its parent.
    fn entries_of(b: &dyn Battle, seat: Actor, ids: &[EntryId]) -> Vec<SeatEntry> {
        let viewer = Viewer::Seat(seat);
        b.entry_texts_as(ids, viewer)
            .into_iter()
            .map(|text| SeatEntry {
                state: b.state_json_as(Some(text.id), viewer),
                parent: b.records()[text.id as usize].parent,
                branch_kind: None,
                text,
            })
            .collect()
    }

    /// An `entry` event as the server's lens makes it (no parent named).
    fn frame_of(e: &SeatEntry) -> Value {
        serde_json::json!({"battle": 1, "seat": 1, "entry": e.text, "state": e.state})
    }

    /// Play the first legal command that makes a new entry (one already
    /// recorded there would only be walked again), after the game's steps.
    fn play_one(b: &mut dyn Battle) {
        b.play_due().unwrap();
        let p = b
            .legal()
            .into_iter()
            .map(|c| b.prepare_json(c.actor, &c.command, None).unwrap())
            .find(|p| matches!(p.kind, crate::session::PendingKind::New { .. }))
            .expect("a command not recorded here yet");
        b.commit(p).unwrap();
        b.play_due().unwrap();
    }

    fn played(game: &str, seed: u64, steps: usize) -> Box<dyn Battle> {
        let mut b = games::new_battle(game, seed, &serde_json::json!({})).unwrap();
        for _ in 0..steps {
            b.play_due().unwrap();
            let Some(c) = b.legal().into_iter().next() else {
                break;
            };
            let p = b.prepare_json(c.actor, &c.command, None).unwrap();
            b.commit(p).unwrap();
        }
        b
    }

    #[test]
    fn a_seat_battle_shows_the_seats_views_entry_by_entry() {
        let b = played("race", 3, 6);
        let log = log_of(b.as_ref(), Actor(1));
        assert_eq!(game_of_state(&log.setup), Some("race"));
        let mut s = seat_battle("race", &log).unwrap();
        assert_eq!(s.records().len(), b.records().len());
        assert_eq!(s.cursor(), b.cursor());
        let line = b.path_to(b.cursor());
        assert_eq!(
            s.entry_texts(&line),
            b.entry_texts_as(&line, Viewer::Seat(Actor(1)))
        );
        for &id in &line {
            assert_eq!(s.flow_at(Some(id)), b.flow_at(Some(id)));
            assert_eq!(
                s.records()[id as usize].actor,
                b.records()[id as usize].actor
            );
        }
        assert_eq!(s.legal(), b.legal_as(Actor(1)));
        assert_eq!(s.asked(), b.asked());
        // Review: back to the setup and forward again; commands only at the head.
        assert_eq!(s.undo(100), line.len());
        assert_eq!(s.cursor(), None);
        assert!(s.legal().is_empty());
        assert_eq!(s.redo(100), line.len());
        assert_eq!(s.legal(), b.legal_as(Actor(1)));
    }

    #[test]
    fn a_seat_battle_is_played_and_checked_through_its_server_in_words() {
        let b = played("race", 3, 2);
        let s = seat_battle("race", &log_of(b.as_ref(), Actor(0))).unwrap();
        let c = b.legal().into_iter().next().unwrap();
        let e = s.prepare_json(c.actor, &c.command, None).err().unwrap();
        assert!(e.to_string().contains(PLAYED_THROUGH_SERVER), "{e}");
        let r = s.verify();
        assert!(!r.ok());
        assert!(
            r.to_string()
                .contains("the server holds the seed until the end"),
            "{r}"
        );
        assert_eq!(s.meta().seed, 0, "the seed is never in a seat's copy");
    }

    #[test]
    fn a_seat_battle_of_saucers_holds_only_the_seats_view() {
        let b = played("saucers", 5, 12);
        let log = log_of(b.as_ref(), Actor(1));
        assert_eq!(game_of_state(&log.setup), Some("saucers"));
        let s = seat_battle("saucers", &log).unwrap();
        let line = b.path_to(b.cursor());
        let mut hidden = 0;
        for at in std::iter::once(None).chain(line.iter().map(|&i| Some(i))) {
            let seen = s.state_json(at);
            assert_eq!(seen, b.state_json_as(at, Viewer::Seat(Actor(1))));
            hidden += usize::from(seen != b.state_json(at));
        }
        assert!(hidden > 0, "the other seats' hands are hidden from seat 1");
        // Whose turn and the board are worked out on views without a panic
        // (Saucers' own `asked` looks into hidden hands: the server's
        // commands stand in), at every entry.
        let mut s = s;
        for &id in line.iter().rev() {
            s.seek(Some(id));
            let _ = (s.asked(), s.scene_at(Some(id)), s.outcome(), s.seats());
        }
        s.seek(b.cursor());
        assert_eq!(
            s.asked().iter().any(|a| a.seat == Actor(1)),
            b.asked().iter().any(|a| a.seat == Actor(1)),
            "seat 1 is asked in its copy exactly when it is asked"
        );
    }

    #[test]
    fn a_seat_copy_catches_up_entry_by_entry_as_if_built_whole() {
        let b = played("race", 3, 6);
        let full = log_of(b.as_ref(), Actor(1));
        let mut log = SeatLog {
            entries: full.entries[..2].to_vec(),
            head: Some(full.entries[1].text.id),
            legal: Vec::new(),
            ..full.clone()
        };
        let mut copy = seat_battle("race", &log).unwrap();
        for e in &full.entries[2..] {
            log.push(e.clone()).unwrap();
            let n = seat_copy(copy.as_mut()).unwrap().catch_up(&log).unwrap();
            assert_eq!(n, 1);
        }
        log.legal = full.legal.clone();
        seat_copy(copy.as_mut()).unwrap().catch_up(&log).unwrap();
        let whole = seat_battle("race", &full).unwrap();
        assert_eq!(copy.records(), whole.records());
        assert_eq!(
            copy.cursor(),
            whole.cursor(),
            "at the head, it follows the head"
        );
        assert_eq!(copy.legal(), whole.legal());
        let line = whole.path_to(whole.cursor());
        assert_eq!(copy.entry_texts(&line), whole.entry_texts(&line));
        // A local battle is no seat's copy.
        let mut local = played("race", 3, 1);
        assert!(seat_copy(local.as_mut()).is_none());
    }

    #[test]
    fn an_entry_that_leaves_a_gap_is_refused_in_words() {
        let b = played("race", 3, 3);
        let full = log_of(b.as_ref(), Actor(0));
        let mut log = SeatLog::new(full.seat, full.setup.clone());
        assert_eq!(log.push(full.entries[0].clone()), Ok(true));
        assert_eq!(log.push(full.entries[0].clone()), Ok(false));
        // Entry 2 as the server frames it: it follows the head, entry 0,
        // on the same branch, so entry 1 is missing.
        let e = SeatEntry::from_event(&frame_of(&full.entries[2]), log.head)
            .and_then(|e| log.push(e))
            .unwrap_err();
        assert!(
            e.contains("came before entry 1") && e.contains("gap"),
            "{e}"
        );
        // A take-back to an entry the copy does not hold, in words.
        let e = log.moved(Some(7)).unwrap_err();
        assert!(e.contains("taken back to entry 7"), "{e}");
        assert_eq!(log.head, Some(0), "nothing changed");
    }

    /// Review of session 15, item 10: a server that sends a huge entry id
    /// or branch id does not make the copy grow without limit; the frame
    /// is refused in words and the copy keeps what it held.
    #[test]
    fn a_huge_entry_or_branch_id_from_the_server_is_refused_in_words_and_changes_nothing() {
        let seat = Actor(0);
        let b = played("race", 3, 3);
        let full = log_of(b.as_ref(), seat);
        let mut copy = seat_battle("race", &full).unwrap();
        let held = copy.records().len();
        let branches = copy.branches().len();
        let bad = |id: EntryId, branch: BranchId| {
            let mut log = full.clone();
            let mut e = full.entries[0].clone();
            e.text.id = id;
            e.text.branch = branch;
            // A new branch from the setup: the log itself takes it.
            e.parent = None;
            assert_eq!(log.push(e), Ok(true), "the log holds no placeholders");
            log
        };
        // Entry 4e9 on a new branch: four billion placeholders.
        let log = bad(4_000_000_000, 1);
        let e = seat_copy(copy.as_mut())
            .unwrap()
            .catch_up(&log)
            .unwrap_err();
        assert!(e.contains("never received") && e.contains("refused"), "{e}");
        assert!(seat_battle("race", &log).is_err());
        // Branch 4e9 on entry 5: four billion branch slots.
        let next = held as EntryId + 2;
        let log = bad(next, 4_000_000_000);
        let e = seat_copy(copy.as_mut())
            .unwrap()
            .catch_up(&log)
            .unwrap_err();
        assert!(
            e.contains("branch 4000000000") && e.contains("refused"),
            "{e}"
        );
        assert_eq!(copy.records().len(), held, "nothing was added");
        assert_eq!(copy.branches().len(), branches, "no branch was made");
        // Within the bounds, a few entries never received are placeholders.
        let log = bad(next, 1);
        assert_eq!(seat_copy(copy.as_mut()).unwrap().catch_up(&log), Ok(1));
        assert_eq!(copy.records().len() as EntryId, next + 1);
    }

    /// A battle of `game` played `steps` seeded random commands (the game's
    /// own steps between).
    fn played_randomly(
        game: &str,
        config: serde_json::Value,
        seed: u64,
        steps: usize,
    ) -> Box<dyn Battle> {
        let mut b = games::new_battle(game, seed, &config).unwrap();
        let mut r = crate::rng::SplitMix64(seed);
        for _ in 0..steps {
            b.play_due().unwrap();
            let legal = b.legal();
            if legal.is_empty() {
                break;
            }
            let c = &legal[r.below(legal.len())];
            let p = b.prepare_json(c.actor, &c.command, None).unwrap();
            b.commit(p).unwrap();
        }
        b
    }

    /// What a seat's copy works out on a view, with no guard: a panic
    /// here fails the test (the seat's copy runs exactly these).
    fn rules_on_every_view<G: Game>(b: &dyn Battle) -> usize {
        let line = b.path_to(b.cursor());
        let seats = G::seats(&serde_json::from_value::<G::State>(b.state_json(None)).unwrap());
        let mut n = 0;
        for at in std::iter::once(None).chain(line.iter().map(|&i| Some(i))) {
            for &seat in &seats {
                let v: G::State =
                    serde_json::from_value(b.state_json_as(at, Viewer::Seat(seat))).unwrap();
                // A seat is asked on its own view exactly when it is asked.
                let whole: G::State = serde_json::from_value(b.state_json(at)).unwrap();
                let asked = G::asked(&v);
                assert_eq!(
                    asked.iter().any(|a| a.seat == seat),
                    G::asked(&whole).iter().any(|a| a.seat == seat),
                    "{}: {seat:?} asked on its view at {at:?}: {asked:?}",
                    G::ID
                );
                assert_eq!(
                    G::flow(&v),
                    G::flow(&whole),
                    "{}: the flow at {at:?}",
                    G::ID
                );
                let _ = (G::outcome(&v), G::flow(&v), G::scene(&v));
                let _ = G::asked(&G::view(&whole, Actor::SYSTEM));
                for a in G::seats(&v) {
                    let _ = G::seat_name(&v, a);
                }
                // The copy shows another seat's view of its own view.
                for &other in &seats {
                    let _ = G::scene(&G::view(&v, other));
                }
                n += 1;
            }
        }
        n
    }

    /// The quiet guard gone from the seat's copy (review of session 14):
    /// every game's seats, whose turn, flow, outcome and scene work on every
    /// seat's view at every entry of played battles, with no guard (Night
    /// of the Saucers' `asked` looked a hidden card up in the card table).
    #[test]
    fn every_games_rules_work_on_every_seats_view_with_no_guard() {
        use crate::games::*;
        use serde_json::json;
        let mut views = 0;
        for seed in 1..=2 {
            for config in [json!({}), json!({"players": 2, "variant": "gang_warfare"})] {
                let b = played_randomly("saucers", config, seed, 300);
                views += rules_on_every_view::<saucers::Saucers>(b.as_ref());
            }
            let b = played_randomly("race", json!({}), seed, 60);
            views += rules_on_every_view::<race::Race>(b.as_ref());
            let b = played_randomly("highcard", json!({}), seed, 60);
            views += rules_on_every_view::<highcard::HighCard>(b.as_ref());
        }
        let b = played_randomly("saucers", json!({"players": 4}), 1, 100);
        views += rules_on_every_view::<saucers::Saucers>(b.as_ref());
        let b = played_randomly("alien", json!({}), 5, 60);
        views += rules_on_every_view::<alien::Alien>(b.as_ref());
        let b = played_randomly("invasion", json!({}), 5, 25);
        views += rules_on_every_view::<invasion::Invasion>(b.as_ref());
        let b = played_randomly("dimx", json!({}), 5, 40);
        views += rules_on_every_view::<dimx::DimX>(b.as_ref());
        let b = played_randomly("hexwar", json!({}), 5, 40);
        views += rules_on_every_view::<hexwar::HexWar>(b.as_ref());
        assert!(views > 1000, "{views} views looked at");
    }

    /// Server/DESIGN.md section 9, take-backs: a seat's copy is a tree.
    /// The seat receives entries 0-5, then `moved` back to entry 2, then
    /// the new branch's entries (their parent derived from `moved`'s `to`,
    /// as the server's frames name none). The copy follows the live line
    /// (0, 1, 2 and the new branch), keeps the old branch (3-5), and at
    /// every entry of both its state is the engine's view for that seat.
    #[test]
    fn a_seat_copy_follows_a_takeback_onto_the_new_branch_and_keeps_the_old() {
        let seat = Actor(1);
        let mut b = played("race", 3, 6);
        let old = b.path_to(b.cursor());
        assert!(old.len() >= 4, "{old:?}");
        let last = *old.last().unwrap();
        let mut log = SeatLog::new(seat, b.state_json_as(None, Viewer::Seat(seat)));
        for e in entries_of(b.as_ref(), seat, &old) {
            log.push(SeatEntry::from_event(&frame_of(&e), log.head).unwrap())
                .unwrap();
        }
        log.legal = b.legal_as(seat);
        let mut copy = seat_battle("race", &log).unwrap();
        assert_eq!(copy.cursor(), Some(last));
        let held = b.records().len();

        // The take-back: the server's cursor moves to entry 2; play on.
        let to = old[2];
        b.seek(Some(to));
        assert_eq!(log.moved_event(&serde_json::json!({"to": to})), Ok(true));
        assert_eq!(log.line(), old[..3].to_vec());
        seat_copy(copy.as_mut()).unwrap().catch_up(&log).unwrap();
        assert_eq!(
            copy.cursor(),
            Some(to),
            "the copy at the head follows it back"
        );
        assert_eq!(copy.records().len(), held, "nothing is dropped");
        play_one(b.as_mut());
        play_one(b.as_mut());
        let new = b.path_to(b.cursor());
        let fresh: Vec<EntryId> = new.iter().copied().filter(|e| *e > last).collect();
        assert!(!fresh.is_empty());
        assert_ne!(b.current_branch(), 0, "the server started a new branch");
        for e in entries_of(b.as_ref(), seat, &fresh) {
            assert_eq!(
                log.push(SeatEntry::from_event(&frame_of(&e), log.head).unwrap()),
                Ok(true)
            );
        }
        log.legal = b.legal_as(seat);
        assert_eq!(log.line(), new);
        assert_eq!(
            seat_copy(copy.as_mut()).unwrap().catch_up(&log),
            Ok(fresh.len())
        );

        // Caught up and built whole, the copy is the server's tree.
        let whole = seat_battle("race", &log).unwrap();
        for c in [&copy, &whole] {
            assert_eq!(c.cursor(), b.cursor(), "at the live head");
            assert_eq!(c.current_branch(), b.current_branch());
            assert_eq!(c.path_to(c.cursor()), new, "the live line");
            assert_eq!(c.legal(), b.legal_as(seat));
            assert_eq!(c.records().len(), b.records().len());
            for (id, (r, want)) in c.records().iter().zip(b.records()).enumerate() {
                assert_eq!(
                    (r.parent, r.branch, r.actor),
                    (want.parent, want.branch, want.actor)
                );
                let at = Some(id as EntryId);
                assert_eq!(
                    c.state_json(at),
                    b.state_json_as(at, Viewer::Seat(seat)),
                    "entry {id}"
                );
                assert_eq!(c.flow_at(at), b.flow_at(at));
            }
            assert_eq!(c.branches(), b.branches(), "the branches, forks and names");
            assert_eq!(c.head(0), Some(last), "the old branch is kept");
            assert_eq!(c.children(Some(to)), b.children(Some(to)));
            assert_eq!(c.common_ancestor(Some(last), c.cursor()), Some(to));
            let line = c.path_to(c.cursor());
            assert_eq!(
                c.entry_texts(&line),
                b.entry_texts_as(&line, Viewer::Seat(seat))
            );
        }
        // Review walks the tree: back to the fork, forward on the new line;
        // the old branch can be looked at, commands only at the live head.
        let mut c = whole;
        assert_eq!(c.undo(fresh.len()), fresh.len());
        assert_eq!(c.cursor(), Some(to));
        assert!(c.legal().is_empty(), "the live head is further on");
        assert_eq!(c.redo(100), fresh.len());
        assert_eq!(c.cursor(), b.cursor());
        c.switch_branch(0).unwrap();
        assert_eq!(c.path_to(c.cursor()), old);
        assert!(c.legal().is_empty());
        c.seek(b.cursor());
        assert_eq!(c.current_branch(), b.current_branch());
        assert_eq!(c.legal(), b.legal_as(seat));
        assert_eq!(seat_copy_ref(c.as_ref()).unwrap().live_head(), b.cursor());
    }

    /// fmt5's item 4: an entry frame names its branch's kind
    /// (`entry.branch_kind`); the copy's branch takes it (a line grafted by
    /// a merge into a club campaign is another copy's, not a take-back). A
    /// frame without the key (an older server) or with a kind this build
    /// does not know makes a take-back, as before.
    #[test]
    fn a_seat_copy_keeps_the_branch_kind_its_entry_frames_name() {
        let seat = Actor(1);
        let mut b = played("race", 3, 6);
        let old = b.path_to(b.cursor());
        b.seek(Some(old[2]));
        play_one(b.as_mut());
        play_one(b.as_mut());
        let branch = b.current_branch();
        assert_ne!(branch, 0);
        let line = b.path_to(b.cursor());
        let kind_of = |named: Option<&str>| {
            let mut log = SeatLog::new(seat, b.state_json_as(None, Viewer::Seat(seat)));
            for e in entries_of(b.as_ref(), seat, &line) {
                let mut ev = frame_of(&e);
                ev["entry"]["parent"] = serde_json::json!(e.parent);
                if let Some(k) = named {
                    let k = if e.text.branch == 0 { "main" } else { k };
                    ev["entry"]["branch_kind"] = serde_json::json!(k);
                }
                log.push(SeatEntry::from_event(&ev, log.head).unwrap())
                    .unwrap();
            }
            let c = seat_battle("race", &log).unwrap();
            assert_eq!(c.current_branch(), branch);
            assert_eq!(c.branches()[0].kind, BranchKind::Main);
            c.branches()[branch as usize].kind
        };
        assert_eq!(kind_of(Some("from-copy")), BranchKind::FromCopy);
        assert_eq!(kind_of(Some("what-if")), BranchKind::WhatIf);
        assert_eq!(kind_of(Some("take-back")), BranchKind::TakeBack);
        assert_eq!(
            kind_of(None),
            BranchKind::TakeBack,
            "an older server's frame"
        );
        assert_eq!(
            kind_of(Some("sideways")),
            BranchKind::TakeBack,
            "a kind not known"
        );
    }

    /// A seat that joins (or watches from the start) after a take-back
    /// receives the live line only: the taken-back entries are ids it never
    /// received, on no line; the live line's states are the seat's views.
    #[test]
    fn a_copy_of_the_live_line_only_skips_the_entries_taken_back_before_it() {
        let seat = Actor(0);
        let mut b = played("race", 7, 5);
        let old = b.path_to(b.cursor());
        b.seek(Some(old[1]));
        play_one(b.as_mut());
        play_one(b.as_mut());
        let log = log_of(b.as_ref(), seat);
        let live = b.path_to(b.cursor());
        assert_eq!(log.line(), live);
        let c = seat_battle("race", &log).unwrap();
        assert_eq!(c.records().len(), b.records().len());
        assert_eq!(c.path_to(c.cursor()), live);
        for &id in &live {
            assert_eq!(
                c.state_json(Some(id)),
                b.state_json_as(Some(id), Viewer::Seat(seat))
            );
        }
        for &gone in &old[2..] {
            assert!(
                c.path_to(Some(gone)).is_empty(),
                "entry {gone} was never received"
            );
            assert!(c.entry_texts(&[gone]).is_empty());
        }
        assert_eq!(c.legal(), b.legal_as(seat));
    }
}
