//! Determinism and history properties of a session, checked with proptest over
//! random legal play of the test game (Dice Race).
//!
//! Commands are chosen by index into `Game::legal`, so every generated command
//! is one a player could give; undo, redo, seek and branch switches are mixed
//! in to grow a tree of branches.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use xenolog_engine::games::race::{Race, RaceConfig, RaceEvent, RaceState};
use xenolog_engine::{
    Actor, DivergenceKind, EntryId, EntryRecord, Game, LoadError, PendingKind, Randomness,
    RuleErrorKind, Session,
};

/// One thing a player does to a battle.
#[derive(Clone, Debug)]
enum Op {
    /// Give the legal command with this index (modulo how many there are).
    Play(u8),
    /// Give a command as the seat that is not to move: refused, nothing changes.
    WrongSeat,
    Undo(u8),
    Redo(u8),
    /// Undo this many entries, then give the same commands again.
    UndoRedo(u8),
    /// Switch to the branch with this index (modulo how many there are).
    Switch(u8),
    /// Move the cursor to the entry with this index (modulo, 0 = the setup).
    Seek(u16),
}

/// A battle's history: a straight run of plays long enough to pass a few
/// snapshots, then a random mix of everything.
fn ops(max: usize) -> impl Strategy<Value = Vec<Op>> {
    (
        prop::collection::vec(any::<u8>().prop_map(Op::Play), 0..200),
        prop::collection::vec(op(), 1..max),
    )
        .prop_map(|(mut run, mix)| {
            run.extend(mix);
            run
        })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        12 => any::<u8>().prop_map(Op::Play),
        1 => Just(Op::WrongSeat),
        2 => (1..6u8).prop_map(Op::Undo),
        1 => (1..6u8).prop_map(Op::Redo),
        2 => (1..6u8).prop_map(Op::UndoRedo),
        1 => any::<u8>().prop_map(Op::Switch),
        1 => any::<u16>().prop_map(Op::Seek),
    ]
}

/// A battle grown by `ops`, with the live state recorded when each entry was made.
struct Grown {
    session: Session<Race>,
    live: Vec<RaceState>,
}

fn battle(seed: u64, target: u32) -> Session<Race> {
    Session::<Race>::new(seed, RaceConfig { target }).expect("a positive target sets up")
}

fn grow(seed: u64, target: u32, ops: &[Op]) -> Result<Grown, TestCaseError> {
    let mut s = battle(seed, target);
    let mut live = Vec::new();
    for op in ops {
        let before = s.records().to_vec();
        match *op {
            Op::Play(i) => {
                let legal = Race::legal(s.state());
                if legal.is_empty() {
                    let err = s
                        .play(
                            Actor(0),
                            &xenolog_engine::games::race::RaceCommand::Hold,
                            None,
                        )
                        .expect_err("a finished battle refuses every command");
                    prop_assert_eq!(err.kind, RuleErrorKind::GameOver);
                } else {
                    let (actor, command) = &legal[i as usize % legal.len()];
                    let id = s
                        .play(*actor, command, None)
                        .expect("a legal command is accepted");
                    if id as usize == live.len() {
                        live.push(s.state().clone());
                    }
                }
            }
            Op::WrongSeat => {
                if let Some(actor) = Race::to_move(s.state()) {
                    let cursor = s.cursor();
                    let other = Actor(1 - actor.0);
                    let err = s
                        .play(other, &xenolog_engine::games::race::RaceCommand::Hold, None)
                        .expect_err("the seat not to move is refused");
                    prop_assert_eq!(err.kind, RuleErrorKind::NotYourTurn);
                    prop_assert_eq!(s.cursor(), cursor, "a refused command moves nothing");
                }
            }
            Op::Undo(n) => {
                s.undo(n as usize);
            }
            Op::Redo(n) => {
                s.redo(n as usize);
            }
            Op::UndoRedo(n) => undo_then_redo(&mut s, n as usize)?,
            Op::Switch(b) => {
                let b = u32::from(b) % s.branches().len() as u32;
                s.switch_branch(b).expect("an existing branch");
            }
            Op::Seek(e) => {
                let at = match usize::from(e) % (s.records().len() + 1) {
                    0 => None,
                    k => Some(k as EntryId - 1),
                };
                s.seek(at);
                prop_assert_eq!(s.cursor(), at);
            }
        }
        prop_assert!(
            s.records().len() >= before.len() && s.records()[..before.len()] == before[..],
            "{:?} changed or lost a recorded entry",
            op
        );
        check_tree(&s)?;
    }
    Ok(Grown { session: s, live })
}

/// Undo `n` entries and give the same commands again: each must land on the
/// entry it gave before (a redo), with the same dice, writing nothing new.
fn undo_then_redo(s: &mut Session<Race>, n: usize) -> Result<(), TestCaseError> {
    let line: Vec<EntryId> = s.path_to(s.cursor());
    let undone = s.undo(n);
    let len = s.records().len();
    for &id in &line[line.len() - undone..] {
        let rec = s.records()[id as usize].clone();
        let command = s.command(id).expect("recorded commands decode");
        // Deciding again from the same point rolls the same dice...
        let parent_rng = rec.parent.map_or(0, |p| s.records()[p as usize].rng_after);
        let mut rng = Randomness::new(s.meta().seed, parent_rng, None);
        let events = Race::decide(s.state(), rec.actor, &command, &mut rng)
            .expect("a recorded command is still legal at its point");
        let used = rng.finish().expect("no entered dice");
        prop_assert_eq!(
            &used.dice,
            &rec.dice().to_vec(),
            "entry {}: dice changed on redo",
            id
        );
        prop_assert_eq!(used.draws, rec.rng_after);
        prop_assert_eq!(events, s.events(id));
        // ...and the session treats it as a redo of the recorded entry.
        let pending = s
            .prepare(rec.actor, &command, None)
            .expect("a recorded command is still legal at its point");
        prop_assert_eq!(&pending.kind, &PendingKind::Redo { entry: id });
        prop_assert_eq!(s.commit(pending), Ok(id));
    }
    prop_assert_eq!(s.records().len(), len, "redo wrote a new entry");
    prop_assert_eq!(s.cursor(), line.last().copied());
    Ok(())
}

/// The shape every battle keeps: a tree of entries reachable from the setup,
/// branches that each form one line hanging off their fork, and a cursor on
/// the current branch's line.
fn check_tree(s: &Session<Race>) -> Result<(), TestCaseError> {
    let recs = s.records();
    // Every entry is reachable from the setup exactly once.
    let mut seen = BTreeSet::new();
    let mut stack = s.children(None);
    while let Some(id) = stack.pop() {
        prop_assert!(seen.insert(id), "entry {} reached twice", id);
        stack.extend(s.children(Some(id)));
    }
    prop_assert_eq!(seen.len(), recs.len(), "some entry is unreachable");
    for (i, rec) in recs.iter().enumerate() {
        let id = i as EntryId;
        if let Some(p) = rec.parent {
            prop_assert!(p < id, "entry {} has a later parent {}", id, p);
            prop_assert_eq!(s.depth(id), s.depth(p) + 1);
        } else {
            prop_assert_eq!(s.depth(id), 1);
        }
    }
    // Branches: ids in order, parents older, each one line starting at its fork.
    let mut last_of: BTreeMap<u32, EntryId> = BTreeMap::new();
    for (i, b) in s.branches().iter().enumerate() {
        prop_assert_eq!(b.id as usize, i);
        prop_assert_eq!(
            b.parent.is_none(),
            i == 0,
            "only the main line has no parent"
        );
        if let Some(p) = b.parent {
            prop_assert!((p as usize) < i, "branch {} parts from a younger branch", i);
        }
        // A branch parts from the branch that holds its fork entry.
        if let Some(f) = b.fork {
            prop_assert_eq!(Some(recs[f as usize].branch), b.parent, "branch {}", i);
        }
    }
    for (i, rec) in recs.iter().enumerate() {
        let id = i as EntryId;
        let branch = &s.branches()[rec.branch as usize];
        match last_of.insert(rec.branch, id) {
            Some(prev) => prop_assert_eq!(rec.parent, Some(prev), "branch {} forks", rec.branch),
            None => prop_assert_eq!(rec.parent, branch.fork, "first entry of {}", rec.branch),
        }
    }
    for b in s.branches() {
        prop_assert_eq!(s.head(b.id), last_of.get(&b.id).copied());
        if b.id != 0 {
            prop_assert!(last_of.contains_key(&b.id), "branch {} has no entry", b.id);
        }
    }
    // The cursor is on the current branch's line, and the state is its fold.
    if let Some(c) = s.cursor() {
        let line = s.path_to(s.head(s.current_branch()));
        prop_assert!(line.contains(&c), "cursor {} is off its branch", c);
    }
    prop_assert_eq!(s.state(), &fold(s, s.cursor()));
    Ok(())
}

/// The state after `at`, folded from the setup through the stored event bytes,
/// decoded here (not by the session) so the session's own decoding is checked too.
fn fold(s: &Session<Race>, at: Option<EntryId>) -> RaceState {
    let mut state = Race::setup(s.config()).expect("set up before");
    for id in s.path_to(at) {
        let events: Vec<RaceEvent> =
            postcard::from_bytes(s.records()[id as usize].events()).expect("stored events decode");
        for e in &events {
            Race::apply(&mut state, e);
        }
    }
    state
}

/// Give the recorded commands again, in the order they were recorded, to a
/// fresh battle with the same seed: it must record the very same bytes.
fn redecide(s: &Session<Race>) -> Session<Race> {
    let mut t = battle(s.meta().seed, s.config().target);
    for (i, rec) in s.records().iter().enumerate() {
        // Stand where the command was given: on its branch, or for the first
        // entry of a branch, on the branch it parted from.
        let branch = if (rec.branch as usize) < t.branches().len() {
            rec.branch
        } else {
            s.branches()[rec.branch as usize]
                .parent
                .expect("a new branch has a parent")
        };
        t.switch_branch(branch).expect("branch exists");
        t.seek(rec.parent);
        let id = t
            .play(rec.actor, &s.command(i as EntryId).expect("decodes"), None)
            .expect("a recorded command is accepted again");
        assert_eq!(id, i as EntryId);
    }
    t
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 96,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn folding_recorded_events_gives_the_live_state_at_every_entry(
        seed in any::<u64>(),
        target in 20u32..300,
        ops in ops(250),
    ) {
        let g = grow(seed, target, &ops)?;
        let s = &g.session;
        prop_assert_eq!(g.live.len(), s.records().len());
        for (i, live) in g.live.iter().enumerate() {
            let at = Some(i as EntryId);
            prop_assert_eq!(&fold(s, at), live, "entry {}", i);
            prop_assert_eq!(&s.state_at(at), live, "state_at({})", i);
            if let Some(snap) = s.snapshot(i as EntryId) {
                prop_assert_eq!(snap, live, "snapshot at {}", i);
            }
        }
    }

    #[test]
    fn redeciding_from_seed_and_commands_gives_identical_entries(
        seed in any::<u64>(),
        target in 20u32..300,
        ops in ops(200),
    ) {
        let s = grow(seed, target, &ops)?.session;
        let report = s.verify();
        prop_assert!(report.ok(), "{}", report);
        prop_assert_eq!(report.entries, s.records().len() as u64);
        let t = redecide(&s);
        prop_assert_eq!(t.records(), s.records());
        prop_assert_eq!(t.branches(), s.branches());
    }

    #[test]
    fn undo_branch_and_switch_never_lose_an_entry_and_verify_passes(
        seed in any::<u64>(),
        ops in ops(300),
    ) {
        // `grow` checks after every step that no entry changed or went missing
        // and that the tree keeps its shape; here the whole is verified too.
        let s = grow(seed, 60, &ops)?.session;
        let report = s.verify();
        prop_assert!(report.ok(), "{}", report);
        // Reloading the stored parts gives back the same battle.
        let t = reload(&s, s.records().to_vec()).expect("unchanged parts load");
        prop_assert_eq!(t.records(), s.records());
        prop_assert_eq!(t.state(), s.state());
        prop_assert!(t.verify().ok());
    }

    #[test]
    fn any_changed_byte_in_a_stored_entry_is_caught(
        seed in any::<u64>(),
        ops in ops(120),
        which in any::<prop::sample::Index>(),
        field in 0..Field::COUNT,
        pos in any::<usize>(),
        mask in 1..=255u8,
    ) {
        let mut ops = ops;
        ops.insert(0, Op::Play(0));
        let s = grow(seed, 60, &ops)?.session;
        let mut recs = s.records().to_vec();
        let i = which.index(recs.len());
        let field = Field::ALL[field];
        let changed = flip(&mut recs[i], field, pos, mask);
        prop_assert_ne!(&recs[i], &s.records()[i], "{:?} was not changed", changed);
        match reload(&s, recs) {
            Err(LoadError::Corrupt { entry, .. }) => prop_assert_eq!(entry, i as EntryId),
            Err(e) => prop_assert!(false, "flipping {:?} gave an unexpected error: {}", changed, e),
            Ok(t) => {
                let report = t.verify();
                let problem = report.problem.clone();
                prop_assert!(problem.is_some(), "flipping {:?} of entry {} went unnoticed", changed, i);
                let problem = problem.expect("checked above");
                prop_assert_eq!(problem.kind, DivergenceKind::Tampered, "{}", report);
                prop_assert_eq!(problem.entry, i as EntryId);
            }
        }
    }
}

/// Rebuild a battle from its parts (as the store does), with `records` instead
/// of the session's own and the snapshots it keeps.
fn reload(s: &Session<Race>, records: Vec<EntryRecord>) -> Result<Session<Race>, LoadError> {
    let snapshots = (0..s.records().len() as EntryId)
        .filter_map(|entry| {
            s.snapshot(entry).map(|st| xenolog_engine::StoredSnapshot {
                entry,
                rules_version: Race::RULES_VERSION,
                state: postcard::to_allocvec(st).expect("a state encodes"),
            })
        })
        .collect();
    Session::<Race>::from_parts(xenolog_engine::StoredBattle {
        meta: s.meta().clone(),
        records,
        branches: s.branches().to_vec(),
        snapshots,
        cursor: s.cursor(),
        branch: s.current_branch(),
    })
}

/// A stored field of an entry record.
#[derive(Clone, Copy, Debug)]
enum Field {
    Command,
    Events,
    Dice,
    StateHash,
    Chain,
    RngAfter,
    Actor,
    Entered,
    Parent,
    Branch,
    RulesVersion,
}

impl Field {
    const ALL: [Field; 11] = [
        Field::Command,
        Field::Events,
        Field::Dice,
        Field::StateHash,
        Field::Chain,
        Field::RngAfter,
        Field::Actor,
        Field::Entered,
        Field::Parent,
        Field::Branch,
        Field::RulesVersion,
    ];
    const COUNT: usize = Self::ALL.len();
}

/// XOR one byte of `field` at `pos` (modulo its length) with `mask`. A field
/// that has no byte to change here (no dice, no parent) changes the events
/// instead. Returns the field actually changed.
fn flip(rec: &mut EntryRecord, field: Field, pos: usize, mask: u8) -> Field {
    fn byte(bytes: &mut [u8], pos: usize, mask: u8) {
        let n = bytes.len();
        bytes[pos % n] ^= mask;
    }
    match field {
        Field::Command => *rec = rec.edited(|f| byte(&mut f.command, pos, mask)),
        Field::Events => *rec = rec.edited(|f| byte(&mut f.events, pos, mask)),
        Field::Dice if !rec.dice().is_empty() => {
            *rec = rec.edited(|f| {
                let n = f.dice.len();
                let d = &mut f.dice[(pos / 2) % n];
                if pos.is_multiple_of(2) {
                    d.sides ^= mask;
                } else {
                    d.value ^= mask;
                }
            })
        }
        Field::StateHash => byte(&mut rec.state_hash, pos, mask),
        Field::Chain => byte(&mut rec.chain, pos, mask),
        Field::RngAfter => {
            let mut b = rec.rng_after.to_le_bytes();
            byte(&mut b, pos, mask);
            rec.rng_after = u64::from_le_bytes(b);
        }
        Field::Actor => rec.actor.0 ^= mask,
        Field::RulesVersion => {
            let mut b = rec.rules_version.to_le_bytes();
            byte(&mut b, pos, mask);
            rec.rules_version = u32::from_le_bytes(b);
        }
        Field::Entered => rec.entered = !rec.entered,
        Field::Parent if rec.parent.is_some() => {
            let mut b = rec.parent.expect("checked").to_le_bytes();
            byte(&mut b, pos, mask);
            rec.parent = Some(u64::from_le_bytes(b));
        }
        Field::Branch => {
            let mut b = rec.branch.to_le_bytes();
            byte(&mut b, pos, mask);
            rec.branch = u32::from_le_bytes(b);
        }
        Field::Dice | Field::Parent => return flip(rec, Field::Events, pos, mask),
    }
    field
}

#[test]
fn loading_a_battle_restores_the_state_at_its_saved_cursor() {
    // Regression: `from_parts` once set the cursor before folding to it, so a
    // loaded battle showed the setup instead of the state at its cursor.
    let mut s = battle(0, 60);
    s.play(
        Actor(0),
        &xenolog_engine::games::race::RaceCommand::Roll { dice: 1 },
        None,
    )
    .expect("legal");
    assert_ne!(s.state(), s.initial(), "the roll changed something");
    let t = reload(&s, s.records().to_vec()).expect("unchanged parts load");
    assert_eq!(t.state(), s.state());
}
