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
use crate::scene::Scene;
use crate::session::{
    BattleMeta, Branch, BranchId, Divergence, DivergenceKind, EntryId, EntryRecord, Pending,
    StalePending, VerifyReport,
};

/// Why a club battle's command is not decided here.
pub const PLAYED_THROUGH_SERVER: &str = "a club battle is played through its server";
/// Why a club battle cannot be checked before its end.
pub const SEED_HELD: &str = "the server holds the seed until the end: a club battle is checked \
                             (every roll re-derived, every receipt matched) once it is over and \
                             its file is downloaded";

/// What a seat received of a battle, game-free: the view state at the
/// setup, one item per `entry` event (its `entry` and `state` fields, as
/// `club watch` prints them), and the seat's commands at the head.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatLog {
    /// The seat whose view this is.
    pub seat: Actor,
    /// The seat's view of the state at the setup (the `state` request with
    /// `at: null`).
    pub setup: Value,
    /// Every entry received, in order: the entry in words and the seat's
    /// view of the state after it.
    pub entries: Vec<SeatEntry>,
    /// The seat's legal commands at the head (the `legal` request).
    pub legal: Vec<LegalCommand>,
}

/// One entry as the seat received it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatEntry {
    pub text: EntryText,
    pub state: Value,
}

impl SeatEntry {
    /// Read an `entry` event of the club protocol.
    pub fn from_event(ev: &Value) -> Result<SeatEntry, String> {
        let text: EntryText = serde_json::from_value(ev["entry"].clone())
            .map_err(|e| format!("an entry from the club server cannot be read: {e}"))?;
        Ok(SeatEntry {
            text,
            state: ev["state"].clone(),
        })
    }
}

impl SeatLog {
    /// Add an entry; one already held is ignored (a resumed watch
    /// overlaps), one that leaves a gap is refused in words.
    pub fn push(&mut self, entry: SeatEntry) -> Result<bool, String> {
        let next = self.entries.len() as EntryId;
        if entry.text.id < next {
            return Ok(false);
        }
        if entry.text.id > next {
            return Err(format!(
                "entry {} came before entry {next}: the copy of this battle has a gap",
                entry.text.id
            ));
        }
        self.entries.push(entry);
        Ok(true)
    }
}

/// A seat's battle over what it received (see the module's words).
pub struct SeatBattle<G: Game> {
    meta: BattleMeta,
    seat: Actor,
    setup: G::State,
    states: Vec<G::State>,
    texts: Vec<EntryText>,
    records: Vec<EntryRecord>,
    branches: Vec<Branch>,
    cursor: Option<EntryId>,
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
            }],
            cursor: None,
            legal: Vec::new(),
        };
        b.catch_up(log)?;
        Ok(b)
    }

    /// Add the next entry: its view state parsed, its actor found by name.
    fn push_entry(&mut self, e: &SeatEntry) -> Result<(), String> {
        let i = self.records.len();
        if e.text.id != i as EntryId {
            return Err(format!(
                "entry {} is where entry {i} should be: the copy of this battle has a gap",
                e.text.id
            ));
        }
        let state = parse_state::<G>(&e.state, &format!("the state after entry {i}"))?;
        let before = self.states.last().unwrap_or(&self.setup);
        let actor = actor_named::<G>(before, &e.text.actor);
        self.records.push(EntryRecord {
            parent: i.checked_sub(1).map(|p| p as EntryId),
            branch: 0,
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
        });
        self.states.push(state);
        self.texts.push(e.text.clone());
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
            .unwrap_or(&self.setup)
    }

    fn head_id(&self) -> Option<EntryId> {
        self.records.len().checked_sub(1).map(|h| h as EntryId)
    }
}

/// Game code run on a view: a game's functions are written for the whole
/// state and may not be total on a view whose hidden parts are placeholders
/// (a `HIDDEN` card id indexing a table). A panic there is caught quietly
/// and the caller falls back on what the server said.
fn view_safe<R>(f: impl FnOnce() -> R) -> Option<R> {
    crate::guard::quietly(f)
}

/// The seat an entry's actor name names, on the state before it.
fn actor_named<G: Game>(state: &G::State, name: &str) -> Actor {
    view_safe(|| {
        G::seats(state)
            .into_iter()
            .find(|&a| G::seat_name(state, a) == name)
    })
    .flatten()
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
        0
    }
    fn head(&self, branch: BranchId) -> Option<EntryId> {
        if branch == 0 { self.head_id() } else { None }
    }
    fn children(&self, of: Option<EntryId>) -> Vec<EntryId> {
        let next = of.map_or(0, |i| i + 1);
        if (next as usize) < self.records.len() {
            vec![next]
        } else {
            Vec::new()
        }
    }
    fn path_to(&self, at: Option<EntryId>) -> Vec<EntryId> {
        match at {
            Some(id) if (id as usize) < self.records.len() => (0..=id).collect(),
            _ => Vec::new(),
        }
    }
    fn common_ancestor(&self, a: Option<EntryId>, b: Option<EntryId>) -> Option<EntryId> {
        // One line: the earlier of the two.
        a.min(b)
    }
    fn seek(&mut self, at: Option<EntryId>) {
        if at.is_none_or(|id| (id as usize) < self.records.len()) {
            self.cursor = at;
        }
    }
    fn undo(&mut self, steps: usize) -> usize {
        let mut moved = 0;
        while moved < steps
            && let Some(c) = self.cursor
        {
            self.cursor = c.checked_sub(1);
            moved += 1;
        }
        moved
    }
    fn redo(&mut self, steps: usize) -> usize {
        let mut moved = 0;
        while moved < steps && self.cursor != self.head_id() {
            self.cursor = Some(self.cursor.map_or(0, |c| c + 1));
            moved += 1;
        }
        moved
    }
    fn switch_branch(&mut self, branch: BranchId) -> Result<(), String> {
        if branch == 0 {
            Ok(())
        } else {
            Err(format!(
                "a club battle has one line; there is no branch {branch}"
            ))
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
        if self.cursor == self.head_id() {
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
        // A game's rules may not be total on a view (Night of the Saucers
        // looks into every hand for instants): when they fail, the seat is
        // asked if the server offers it commands.
        view_safe(|| G::asked(self.state())).unwrap_or_else(|| {
            if self.legal().is_empty() {
                Vec::new()
            } else {
                vec![Ask {
                    seat: self.seat,
                    what: "act (the server offers your commands)".to_owned(),
                }]
            }
        })
    }
    fn outcome(&self) -> Option<Outcome> {
        view_safe(|| G::outcome(self.state())).flatten()
    }
    fn actor_name(&self, actor: Actor) -> String {
        if actor == Actor::SYSTEM {
            return "The game".to_owned();
        }
        view_safe(|| G::seat_name(self.state(), actor))
            .unwrap_or_else(|| format!("seat {}", u16::from(actor.0) + 1))
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
            .filter_map(|&id| self.texts.get(id as usize).cloned())
            .collect()
    }
    fn scene_at_as(&self, at: Option<EntryId>, viewer: Viewer) -> Scene {
        let state = self.state_at_ref(at);
        view_safe(|| match viewer {
            Viewer::Seat(s) if s != self.seat => G::scene(&G::view(state, s)),
            _ => G::scene(state),
        })
        .unwrap_or_default()
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
        view_safe(|| G::seats(self.state()))
            .unwrap_or_default()
            .into_iter()
            .map(|a| (a, self.actor_name(a)))
            .collect()
    }
    fn flow_at(&self, at: Option<EntryId>) -> FlowMark {
        view_safe(|| G::flow(self.state_at_ref(at))).unwrap_or_else(|| {
            // The flow the server said after the entry.
            at.and_then(|id| self.texts.get(id as usize)).map_or_else(
                || FlowMark {
                    turn: 0,
                    phase: "setup".to_owned(),
                },
                |t| t.flow.clone(),
            )
        })
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
    /// Take the entries of `log` not held yet and the commands at the head;
    /// a copy shown at its newest entry stays there. How many were new.
    fn catch_up(&mut self, log: &SeatLog) -> Result<usize, String>;
}

impl<G: Game> SeatCopy for SeatBattle<G> {
    fn catch_up(&mut self, log: &SeatLog) -> Result<usize, String> {
        let at_head = self.cursor == self.head_id();
        let mut n = 0;
        for e in log.entries.iter().skip(self.records.len()) {
            self.push_entry(e)?;
            n += 1;
        }
        self.legal = log.legal.clone();
        if at_head {
            self.cursor = self.head_id();
        }
        Ok(n)
    }
}

/// The battle as a seat's copy, if it is one.
pub fn seat_copy(b: &mut dyn Battle) -> Option<&mut dyn SeatCopy> {
    use crate::games::*;
    macro_rules! copy_of {
        ($($g:ty),*) => {
            $(
                if b.as_any().is::<SeatBattle<$g>>() {
                    return b
                        .as_any_mut()
                        .downcast_mut::<SeatBattle<$g>>()
                        .map(|s| s as &mut dyn SeatCopy);
                }
            )*
        };
    }
    copy_of!(
        dimx::DimX,
        saucers::Saucers,
        alien::Alien,
        invasion::Invasion,
        race::Race,
        highcard::HighCard,
        hexwar::HexWar
    );
    None
}

fn open<G: Game>(log: &SeatLog) -> Result<Box<dyn Battle>, String> {
    Ok(Box::new(SeatBattle::<G>::from_log(log)?))
}

/// Whether a view state (JSON) is a state of `G`: it parses, and writes
/// back as it came (a state of another game may parse with defaults, but
/// does not write back the same).
fn is_state_of<G: Game>(v: &Value) -> bool {
    serde_json::from_value::<G::State>(v.clone())
        .ok()
        .and_then(|s| serde_json::to_value(s).ok())
        .is_some_and(|back| &back == v)
}

/// The game whose state `setup` is, by its shape: the club protocol's
/// frames do not name the game (a future protocol should).
pub fn game_of_state(setup: &Value) -> Option<&'static str> {
    use crate::games::*;
    if is_state_of::<dimx::DimX>(setup) {
        Some(dimx::DimX::ID)
    } else if is_state_of::<saucers::Saucers>(setup) {
        Some(saucers::Saucers::ID)
    } else if is_state_of::<alien::Alien>(setup) {
        Some(alien::Alien::ID)
    } else if is_state_of::<invasion::Invasion>(setup) {
        Some(invasion::Invasion::ID)
    } else if is_state_of::<race::Race>(setup) {
        Some(race::Race::ID)
    } else if is_state_of::<highcard::HighCard>(setup) {
        Some(highcard::HighCard::ID)
    } else if is_state_of::<hexwar::HexWar>(setup) {
        Some(hexwar::HexWar::ID)
    } else {
        None
    }
}

/// A seat's battle of game `game` (an id, `saucers`) over what it received.
pub fn seat_battle(game: &str, log: &SeatLog) -> Result<Box<dyn Battle>, String> {
    use crate::games::*;
    match game {
        dimx::DimX::ID => open::<dimx::DimX>(log),
        saucers::Saucers::ID => open::<saucers::Saucers>(log),
        alien::Alien::ID => open::<alien::Alien>(log),
        invasion::Invasion::ID => open::<invasion::Invasion>(log),
        race::Race::ID => open::<race::Race>(log),
        highcard::HighCard::ID => open::<highcard::HighCard>(log),
        hexwar::HexWar::ID => open::<hexwar::HexWar>(log),
        other => Err(format!(
            "this battle is of game '{other}', which this build of Xenolog does not know"
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
        let viewer = Viewer::Seat(seat);
        let line = b.path_to(b.cursor());
        SeatLog {
            seat,
            setup: b.state_json_as(None, viewer),
            entries: b
                .entry_texts_as(&line, viewer)
                .into_iter()
                .map(|text| SeatEntry {
                    state: b.state_json_as(Some(text.id), viewer),
                    text,
                })
                .collect(),
            legal: b.legal_as(seat),
        }
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
        let mut log = SeatLog {
            entries: Vec::new(),
            ..full.clone()
        };
        assert_eq!(log.push(full.entries[0].clone()), Ok(true));
        assert_eq!(log.push(full.entries[0].clone()), Ok(false));
        let e = log.push(full.entries[2].clone()).unwrap_err();
        assert!(e.contains("gap"), "{e}");
    }
}
