//! `Battle`: one battle of any game behind one object-safe trait, so the store,
//! the command line and the app drive every game the same way. Commands and
//! states cross this boundary as JSON; the app's per-game boards downcast with
//! [`Battle::as_any`] to reach the typed session.

use std::any::Any;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::{Actor, Ask, FlowMark, Game, Outcome, RuleError, Viewer};
use crate::moments::{DieMeaning, EntryFacts};
use crate::rng::Die;
use crate::scene::Scene;
use crate::session::{
    BattleMeta, Branch, BranchId, EntryId, EntryRecord, LoadError, Pending, PendingKind, Session,
    StalePending, StoredBattle, VerifyReport,
};

/// A command some player may give now, as `legal` prints it and `play` takes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegalCommand {
    pub actor: Actor,
    pub command: Value,
    /// The command in words.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub text: String,
    /// Where it sits on the board (for clicking); not needed by `play`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub subject: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target: Option<String>,
}

/// An entry in words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntryText {
    pub id: EntryId,
    pub branch: BranchId,
    pub actor: String,
    pub command: String,
    pub events: Vec<String>,
    pub dice: Vec<Die>,
    pub entered: bool,
    /// Turn and phase after the entry.
    pub flow: FlowMark,
    /// The rules version that decided the entry.
    #[serde(default)]
    pub rules_version: u32,
}

/// Why a command from outside was not accepted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PlayError {
    /// The JSON is not a command of this game.
    #[error("not {} {game} command: {why}", article(game))]
    BadCommand { game: &'static str, why: String },
    /// The rules refuse it.
    #[error("{0}")]
    Rule(#[from] RuleError),
}

/// "a" or "an" before a game's name: "an Alien Invasion command".
fn article(name: &str) -> &'static str {
    if name.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// One battle of any game.
pub trait Battle: Send {
    fn game_id(&self) -> &'static str;
    fn game_name(&self) -> &'static str;
    fn meta(&self) -> &BattleMeta;
    fn records(&self) -> &[EntryRecord];
    fn branches(&self) -> &[Branch];
    fn cursor(&self) -> Option<EntryId>;
    fn current_branch(&self) -> BranchId;
    fn head(&self, branch: BranchId) -> Option<EntryId>;
    fn children(&self, of: Option<EntryId>) -> Vec<EntryId>;
    fn path_to(&self, at: Option<EntryId>) -> Vec<EntryId>;
    /// The entry where two lines part: their deepest common entry (of the
    /// lines [`Battle::path_to`] gives).
    fn common_ancestor(&self, a: Option<EntryId>, b: Option<EntryId>) -> Option<EntryId> {
        let pa = self.path_to(a);
        let pb = self.path_to(b);
        pa.iter()
            .zip(pb.iter())
            .take_while(|(x, y)| x == y)
            .last()
            .map(|(x, _)| *x)
    }
    fn seek(&mut self, at: Option<EntryId>);
    fn undo(&mut self, steps: usize) -> usize;
    fn redo(&mut self, steps: usize) -> usize;
    fn switch_branch(&mut self, branch: BranchId) -> Result<(), String>;
    fn rename_branch(&mut self, branch: BranchId, name: &str) -> Result<(), String>;
    /// Decide a JSON command at the cursor; nothing changes until `commit`.
    fn prepare_json(
        &self,
        actor: Actor,
        command: &Value,
        dice: Option<Vec<u8>>,
    ) -> Result<Pending, PlayError>;
    /// Make a prepared command part of the battle; refused, changing
    /// nothing, if the battle moved since it was prepared.
    fn commit(&mut self, pending: Pending) -> Result<EntryId, StalePending>;
    /// The dice a command given now would roll, one entry per die (its
    /// sides), found by deciding it on the stream and keeping nothing. How
    /// many dice a command rolls can depend on what the first ones show (a
    /// success that earns another die): this is the count the stream's dice
    /// give, the least a player may have to enter. A redo rolls nothing new.
    fn dice_needed(&self, actor: Actor, command: &Value) -> Result<Vec<u8>, PlayError> {
        let pending = self.prepare_json(actor, command, None)?;
        Ok(match &pending.kind {
            PendingKind::New { record, .. } => record.dice().iter().map(|d| d.sides).collect(),
            PendingKind::Redo { .. } => Vec::new(),
        })
    }
    /// Every command some player may give at the cursor; while the game has
    /// a step of its own due, that step alone (actor [`Actor::SYSTEM`]).
    fn legal(&self) -> Vec<LegalCommand>;
    /// The step the game takes on its own at the cursor, if one is due.
    fn due_step(&self) -> Option<LegalCommand>;
    /// Play every step the game takes on its own from the cursor, in memory
    /// (the store writes each one durably instead: `Campaign::play_due`).
    fn play_due(&mut self) -> Result<Vec<EntryId>, RuleError>;
    /// The seats asked to act at the cursor and what for (the game itself,
    /// [`Actor::SYSTEM`], while a step of its own is due).
    fn asked(&self) -> Vec<Ask>;
    /// The seats asked, worked out on the public view ([`Actor::SYSTEM`]'s):
    /// what a list shown to every seat may name. A seat asked only because
    /// of what it hides (an Instant card in a hidden hand) is not named.
    fn asked_publicly(&self) -> Vec<Ask>;
    /// The seats asked, worked out on `viewer`'s view: what the hot-seat
    /// curtain may show that seat (its own hidden cards' asks, none that
    /// another seat's hidden cards make). [`Viewer::All`] is [`Battle::asked`].
    fn asked_as(&self, viewer: Viewer) -> Vec<Ask>;
    /// The seats asked that the battle waits for ([`Game::waits_for`]), in
    /// the order [`Battle::asked`] gives, each once: whose turn it is.
    fn waited_for(&self) -> Vec<Actor>;
    /// The first seat asked.
    fn to_move(&self) -> Option<Actor> {
        self.asked().first().map(|a| a.seat)
    }
    fn outcome(&self) -> Option<Outcome>;
    fn actor_name(&self, actor: Actor) -> String;
    /// The full state after an entry (`None`: the setup) as JSON.
    fn state_json(&self, at: Option<EntryId>) -> Value {
        self.state_json_as(at, Viewer::All)
    }
    /// The state after an entry as `viewer` may see it, as JSON.
    fn state_json_as(&self, at: Option<EntryId>, viewer: Viewer) -> Value;
    /// Consecutive entries of one line in words (one fold along the way).
    fn entry_texts(&self, line: &[EntryId]) -> Vec<EntryText> {
        self.entry_texts_as(line, Viewer::All)
    }
    /// Entries in words as `viewer` may see them: another seat's hidden
    /// draws and face-down cards left out.
    fn entry_texts_as(&self, line: &[EntryId], viewer: Viewer) -> Vec<EntryText>;
    /// What consecutive entries of one line meant (one fold along the way):
    /// each event's importance and whom it concerns, and each die's meaning
    /// as the game says it. A die the game says nothing about is plain and
    /// the luck of the seat that gave the command.
    fn entry_facts(&self, line: &[EntryId]) -> Vec<EntryFacts> {
        line.iter()
            .map(|&id| {
                let rec = &self.records()[id as usize];
                EntryFacts {
                    id,
                    moments: Vec::new(),
                    dice: plain_dice(rec.dice().len(), rec.actor),
                }
            })
            .collect()
    }
    fn scene_at(&self, at: Option<EntryId>) -> Scene {
        self.scene_at_as(at, Viewer::All)
    }
    /// The board after an entry as `viewer` may see it.
    fn scene_at_as(&self, at: Option<EntryId>, viewer: Viewer) -> Scene;
    /// Whether some seat may not see everything at the cursor: the game
    /// hides something now (a hand, a face-down chit).
    fn hides_information(&self) -> bool;
    /// Whether the seats see different things at the cursor (one holds a
    /// hand the other may not see): the app's hot-seat curtain is for this,
    /// not for what is hidden from every seat alike (a shuffled cup).
    fn seats_see_differently(&self) -> bool;
    /// The battle's seats and their names.
    fn seats(&self) -> Vec<(Actor, String)>;
    fn flow_at(&self, at: Option<EntryId>) -> FlowMark;
    /// The word for one turn of the flow ([`FlowMark::turn`]), as the
    /// game's players say it: see [`Game::turn_word`].
    fn turn_word(&self) -> &'static str {
        "Turn"
    }
    fn verify(&self) -> VerifyReport;
    /// This build's rules version of the battle's game: what new entries are
    /// decided under (the battle's stamp, [`BattleMeta::rules_version`], is
    /// the version that started it).
    fn rules_version_now(&self) -> u32;
    /// Snapshots rebuilt when the battle was loaded, for the store to write back.
    fn rebuilt_snapshots(&self) -> &[EntryId];
    /// Branches started by taking back a command whose dice had been seen.
    fn takebacks_past_rolls(&self) -> Vec<BranchId>;
    /// The first entry after a point that rolled from the stream: where a
    /// strict battle refuses a new command.
    fn first_roll_after(&self, at: Option<EntryId>) -> Option<EntryId>;
    /// The stored form (postcard) of the snapshot kept at an entry, if any:
    /// what the store writes so a battle opens without refolding.
    fn snapshot_bytes(&self, id: EntryId) -> Option<Vec<u8>>;
    /// The first entry found so far whose stored bytes do not decode (the board
    /// past it is unreliable; `verify` says more).
    fn corruption(&self) -> Option<EntryId>;
    /// Make this new battle a club battle whose seed was derived from a
    /// committed secret and every seat's nonce ([`crate::fair`]): recorded in
    /// its meta and hashed into its chain. Only before the first entry. The
    /// battle must already have been started with the seed those nonces give
    /// ([`crate::fair::FairSeed::new`]); this does not check it (it has no
    /// secret), `verify` with the revealed secret does.
    fn seal_fair(&mut self, fair: crate::fair::FairSeed) -> Result<(), String>;
    /// The commands `seat` may give now, described as that seat sees the
    /// state (its view): what a club server sends a seat, so no other
    /// seat's hidden cards reach it through the words. Empty while the
    /// game's own step is due.
    fn legal_as(&self, seat: Actor) -> Vec<LegalCommand>;
    /// The first seat whose view, seen again as the public view, differs from
    /// the public view ([`Actor::SYSTEM`]'s) at `at`: the public view would
    /// then show something that seat may not see. `None` when the public view
    /// knows nothing any seat does not (checked by the conformance test; what
    /// spectators of a club battle receive relies on it).
    fn public_view_leaks(&self, at: Option<EntryId>) -> Option<Actor>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// Add what the store holds after this battle's last entry (another
    /// process wrote it): [`Session::extend_stored`]. Refused in words,
    /// nothing changed, when it does not fit; then read the battle whole.
    /// A battle that is no stored session (a seat's copy of a club
    /// battle, [`crate::seat::SeatBattle`]) takes nothing from a store.
    fn extend_stored(&mut self, more: StoredBattle) -> Result<(), LoadError> {
        let _ = more;
        Err(LoadError::Other(format!(
            "a {} battle held as a seat's copy takes no entries from a store",
            self.game_name()
        )))
    }
}

impl<G: Game> Session<G> {
    /// Each entry of `line` (a path down the tree) read against the state
    /// before it: the walk starts from the state before the first entry and
    /// `each`, given that state, the entry's id, record and events, applies
    /// the events it reads, so the next entry sees the state after them.
    fn along<T>(
        &self,
        line: &[EntryId],
        mut each: impl FnMut(&mut G::State, EntryId, &EntryRecord, Vec<G::Event>) -> T,
    ) -> Vec<T> {
        let Some(&first) = line.first() else {
            return Vec::new();
        };
        let mut state = self.state_at(self.records()[first as usize].parent);
        line.iter()
            .map(|&id| {
                each(
                    &mut state,
                    id,
                    &self.records()[id as usize],
                    self.events(id),
                )
            })
            .collect()
    }

    /// Game code showing a state folded from stored entries, which are
    /// untrusted until verified: loading checks the state at the cursor
    /// (`Session::from_parts`), but review may reach any other. A panic on
    /// a state the entries left damaged is caught quietly, the entry noted
    /// as damaged (`at`: the state after that entry; `None`: the cursor's),
    /// and `fallback` given: the app shows nothing there rather than dying.
    /// A battle started here has only states this build made, and a panic
    /// on one is a bug to see (and for the fuzzers to find): it is not caught.
    fn shown<R>(
        &self,
        at: Option<Option<EntryId>>,
        fallback: impl FnOnce() -> R,
        f: impl FnOnce() -> R,
    ) -> R {
        if !self.is_stored() {
            return f();
        }
        crate::guard::quietly(f).unwrap_or_else(|| {
            if let Some(id) = at.unwrap_or_else(|| self.cursor()) {
                self.note_corrupt(id);
            }
            fallback()
        })
    }
}

/// The seats of `asked` that the battle waits for in `state`, each once
/// (the game's own step, [`Actor::SYSTEM`], always).
pub(crate) fn waited_for<G: Game>(state: &G::State, asked: Vec<Ask>) -> Vec<Actor> {
    let mut out: Vec<Actor> = Vec::new();
    for a in asked {
        if (a.seat == Actor::SYSTEM || G::waits_for(state, a.seat)) && !out.contains(&a.seat) {
            out.push(a.seat);
        }
    }
    out
}

impl<G: Game> Battle for Session<G> {
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
        Session::meta(self)
    }
    fn records(&self) -> &[EntryRecord] {
        Session::records(self)
    }
    fn branches(&self) -> &[Branch] {
        Session::branches(self)
    }
    fn cursor(&self) -> Option<EntryId> {
        Session::cursor(self)
    }
    fn current_branch(&self) -> BranchId {
        Session::current_branch(self)
    }
    fn head(&self, branch: BranchId) -> Option<EntryId> {
        Session::head(self, branch)
    }
    fn children(&self, of: Option<EntryId>) -> Vec<EntryId> {
        Session::children(self, of)
    }
    fn path_to(&self, at: Option<EntryId>) -> Vec<EntryId> {
        Session::path_to(self, at)
    }
    fn seek(&mut self, at: Option<EntryId>) {
        Session::seek(self, at)
    }
    fn undo(&mut self, steps: usize) -> usize {
        Session::undo(self, steps)
    }
    fn redo(&mut self, steps: usize) -> usize {
        Session::redo(self, steps)
    }
    fn switch_branch(&mut self, branch: BranchId) -> Result<(), String> {
        Session::switch_branch(self, branch)
    }
    fn rename_branch(&mut self, branch: BranchId, name: &str) -> Result<(), String> {
        Session::rename_branch(self, branch, name)
    }
    fn prepare_json(
        &self,
        actor: Actor,
        command: &Value,
        dice: Option<Vec<u8>>,
    ) -> Result<Pending, PlayError> {
        let command = G::command_from_json(self.state(), actor, command)
            .map_err(|why| PlayError::BadCommand { game: G::NAME, why })?;
        Ok(self.prepare(actor, &command, dice)?)
    }
    fn commit(&mut self, pending: Pending) -> Result<EntryId, StalePending> {
        Session::commit(self, pending)
    }
    fn legal(&self) -> Vec<LegalCommand> {
        if let Some(step) = self.due_step() {
            return vec![step];
        }
        let state = self.state();
        self.shown(None, Vec::new, || {
            G::legal(state)
                .into_iter()
                .map(|(actor, c)| {
                    let anchors = G::anchors(state, &c);
                    LegalCommand {
                        actor,
                        subject: anchors.subject,
                        target: anchors.target,
                        text: G::describe_command(state, actor, &c),
                        // Invariant: game commands are plain serde types and always encode.
                        command: serde_json::to_value(&c).expect("commands encode to JSON"),
                    }
                })
                .collect()
        })
    }
    fn play_due(&mut self) -> Result<Vec<EntryId>, RuleError> {
        Session::play_due(self)
    }
    fn due_step(&self) -> Option<LegalCommand> {
        let state = self.state();
        self.shown(
            None,
            || None,
            || {
                G::automatic(state).map(|c| {
                    let anchors = G::anchors(state, &c);
                    LegalCommand {
                        actor: Actor::SYSTEM,
                        subject: anchors.subject,
                        target: anchors.target,
                        text: G::describe_command(state, Actor::SYSTEM, &c),
                        // Invariant: game commands are plain serde types and always encode.
                        command: serde_json::to_value(&c).expect("commands encode to JSON"),
                    }
                })
            },
        )
    }
    fn asked(&self) -> Vec<Ask> {
        if let Some(step) = self.due_step() {
            return vec![Ask {
                seat: Actor::SYSTEM,
                what: step.text,
            }];
        }
        self.shown(None, Vec::new, || G::asked(self.state()))
    }
    fn asked_publicly(&self) -> Vec<Ask> {
        if self.due_step().is_some() {
            return self.asked();
        }
        self.shown(None, Vec::new, || {
            G::asked(&G::view(self.state(), Actor::SYSTEM))
        })
    }
    fn waited_for(&self) -> Vec<Actor> {
        waited_for::<G>(self.state(), self.asked())
    }
    fn asked_as(&self, viewer: Viewer) -> Vec<Ask> {
        match viewer {
            Viewer::All => self.asked(),
            Viewer::Seat(_) if self.due_step().is_some() => self.asked(),
            Viewer::Seat(seat) => {
                self.shown(None, Vec::new, || G::asked(&G::view(self.state(), seat)))
            }
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.shown(None, || None, || G::outcome(self.state()))
    }
    fn actor_name(&self, actor: Actor) -> String {
        if actor == Actor::SYSTEM {
            return "The game".to_owned();
        }
        self.shown(
            None,
            || format!("seat {}", actor.0),
            || G::seat_name(self.state(), actor),
        )
    }
    fn state_json_as(&self, at: Option<EntryId>, viewer: Viewer) -> Value {
        let state = self.state_at(at);
        self.shown(
            Some(at),
            || Value::Null,
            || {
                let value = match viewer {
                    Viewer::All => serde_json::to_value(&state),
                    Viewer::Seat(seat) => serde_json::to_value(G::view(&state, seat)),
                };
                value.unwrap_or(Value::Null)
            },
        )
    }
    fn seal_fair(&mut self, fair: crate::fair::FairSeed) -> Result<(), String> {
        self.seal_fair(fair)
    }
    fn legal_as(&self, seat: Actor) -> Vec<LegalCommand> {
        if self.due_step().is_some() {
            return Vec::new();
        }
        let state = self.state();
        self.shown(None, Vec::new, || {
            let seen = G::view(state, seat);
            G::legal(state)
                .into_iter()
                .filter(|(actor, _)| *actor == seat)
                .map(|(actor, c)| {
                    let anchors = G::anchors(&seen, &c);
                    LegalCommand {
                        actor,
                        subject: anchors.subject,
                        target: anchors.target,
                        text: G::describe_command(&seen, actor, &c),
                        command: serde_json::to_value(&c).expect("commands encode to JSON"),
                    }
                })
                .collect()
        })
    }
    fn public_view_leaks(&self, at: Option<EntryId>) -> Option<Actor> {
        let state = self.state_at(at);
        self.shown(
            Some(at),
            || None,
            || {
                let public = G::view(&state, Actor::SYSTEM);
                G::seats(&state)
                    .into_iter()
                    .find(|&s| G::view(&G::view(&state, s), Actor::SYSTEM) != public)
            },
        )
    }
    fn hides_information(&self) -> bool {
        let state = self.state();
        self.shown(
            None,
            || false,
            || G::seats(state).iter().any(|&s| G::view(state, s) != *state),
        )
    }
    fn seats_see_differently(&self) -> bool {
        let state = self.state();
        self.shown(
            None,
            || false,
            || {
                let seats = G::seats(state);
                let Some((&first, rest)) = seats.split_first() else {
                    return false;
                };
                let seen = G::view(state, first);
                rest.iter().any(|&s| G::view(state, s) != seen)
            },
        )
    }
    fn seats(&self) -> Vec<(Actor, String)> {
        self.shown(None, Vec::new, || G::seats(self.state()))
            .into_iter()
            .map(|a| (a, self.actor_name(a)))
            .collect()
    }
    fn entry_texts_as(&self, line: &[EntryId], viewer: Viewer) -> Vec<EntryText> {
        self.along(line, |state, id, rec, events| {
            // Stored entries are untrusted until verified: damaged bytes that
            // decode may name what the state does not have, and describing or
            // applying them must not panic (see `Session::apply_stored`).
            let told = crate::guard::quietly(|| {
                let command_text = match Session::command(self, id) {
                    Some(command) => match viewer {
                        Viewer::All => G::describe_command(state, rec.actor, &command),
                        Viewer::Seat(seat) => G::describe_command(
                            &G::view(state, seat),
                            rec.actor,
                            &G::view_command(&command, rec.actor, seat),
                        ),
                    },
                    None => "(this entry's stored command is damaged; run verify)".to_owned(),
                };
                let mut texts = Vec::with_capacity(events.len());
                for e in &events {
                    texts.push(match viewer {
                        Viewer::All => G::describe_event(state, e),
                        Viewer::Seat(seat) => {
                            G::describe_event(&G::view(state, seat), &G::view_event(e, seat))
                        }
                    });
                    G::apply(state, e);
                }
                (command_text, texts)
            });
            let (command_text, texts) = told.unwrap_or_else(|| {
                self.note_corrupt(id);
                (
                    "(this entry's stored events are damaged; run verify)".to_owned(),
                    Vec::new(),
                )
            });
            EntryText {
                id,
                branch: rec.branch,
                actor: self.actor_name(rec.actor),
                command: command_text,
                events: texts,
                dice: rec.dice().to_vec(),
                entered: rec.entered,
                flow: G::flow(state),
                rules_version: rec.rules_version,
            }
        })
    }
    fn entry_facts(&self, line: &[EntryId]) -> Vec<EntryFacts> {
        self.along(line, |state, id, rec, events| {
            // As in `entry_texts_as`: a damaged stored entry must not panic.
            let dice = crate::guard::quietly(|| G::dice_meanings(state, rec.actor, &events))
                // Only trust the meanings when every die is accounted for.
                .filter(|dice| dice.len() == rec.dice().len())
                .unwrap_or_else(|| plain_dice(rec.dice().len(), rec.actor));
            let moments = crate::guard::quietly(|| {
                let mut moments = Vec::with_capacity(events.len());
                for e in &events {
                    moments.push(G::moment(state, e));
                    G::apply(state, e);
                }
                moments
            })
            .unwrap_or_else(|| {
                self.note_corrupt(id);
                Vec::new()
            });
            EntryFacts { id, moments, dice }
        })
    }
    fn scene_at_as(&self, at: Option<EntryId>, viewer: Viewer) -> Scene {
        let state = self.state_at(at);
        self.shown(Some(at), Scene::default, || match viewer {
            Viewer::All => G::scene(&state),
            Viewer::Seat(seat) => G::scene(&G::view(&state, seat)),
        })
    }
    fn flow_at(&self, at: Option<EntryId>) -> FlowMark {
        let state = self.state_at(at);
        self.shown(
            Some(at),
            || FlowMark {
                turn: 0,
                phase: "damaged".to_owned(),
            },
            || G::flow(&state),
        )
    }
    fn verify(&self) -> VerifyReport {
        Session::verify(self)
    }
    fn corruption(&self) -> Option<EntryId> {
        Session::corruption(self)
    }
    fn rules_version_now(&self) -> u32 {
        G::RULES_VERSION
    }
    fn rebuilt_snapshots(&self) -> &[EntryId] {
        Session::rebuilt_snapshots(self)
    }
    fn takebacks_past_rolls(&self) -> Vec<BranchId> {
        Session::takebacks_past_rolls(self)
    }
    fn first_roll_after(&self, at: Option<EntryId>) -> Option<EntryId> {
        Session::first_roll_after(self, at)
    }
    fn snapshot_bytes(&self, id: EntryId) -> Option<Vec<u8>> {
        self.snapshot(id)
            .and_then(|s| postcard::to_allocvec(s).ok())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn extend_stored(&mut self, more: StoredBattle) -> Result<(), LoadError> {
        Session::extend_stored(self, more)
    }
}

/// Dice the game says nothing about: plain, the luck of the seat that gave
/// the command (nobody's when the game itself rolled them).
fn plain_dice(n: usize, actor: Actor) -> Vec<DieMeaning> {
    let seat = (actor != Actor::SYSTEM).then_some(actor);
    (0..n)
        .map(|i| DieMeaning::plain("a die", seat, i as u16))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    /// Regression (issue 16, illegal commands): JSON that is no command of
    /// Alien Invasion was refused as "not a Alien Invasion command".
    #[test]
    fn a_bad_command_reads_an_alien_invasion_command_not_a() {
        let b = games::new_battle("invasion", 1, &serde_json::json!({})).unwrap();
        let err = b
            .prepare_json(Actor(0), &serde_json::json!({"fly_away": 1}), None)
            .err()
            .unwrap();
        assert!(
            err.to_string()
                .starts_with("not an Alien Invasion command: "),
            "{err}"
        );
        let b = games::new_battle("race", 1, &serde_json::json!({})).unwrap();
        let err = b
            .prepare_json(Actor(0), &serde_json::json!(7), None)
            .err()
            .unwrap();
        assert!(
            err.to_string()
                .starts_with("not a Dice Race (test game) command: "),
            "{err}"
        );
    }
}
