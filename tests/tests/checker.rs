//! The determinism checker is itself checked (as ggrs tests its sync test with
//! a stub that is known to be broken): games that are deliberately not
//! deterministic must fail `verify`, at the first entry, saying what differs.
//!
//! The stub game is Dice Race with one extra event. Its `MODE` picks how it
//! misbehaves; with [`STEADY`] it behaves and must pass, which shows that the
//! failures below come from the misbehaviour and nothing else.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use xenolog_engine::games::race::{Race, RaceCommand, RaceConfig, RaceEvent, RaceState};
use xenolog_engine::{
    Actor, Divergence, DivergenceKind, FlowMark, Game, Outcome, Randomness, RuleError,
    ScenarioInfo, Scene, Session, SetupError,
};

/// Deterministic: the control.
const STEADY: u8 = 0;
/// `decide` writes a global counter into an event (like reading the clock).
const COUNTER_IN_DECIDE: u8 = 1;
/// `apply` writes a global counter into the state: the events replay the
/// same, but the state they fold to does not.
const COUNTER_IN_APPLY: u8 = 2;
/// `decide` emits events in the iteration order of a `HashSet`, which Rust
/// seeds at random for every new set: the classic accidental nondeterminism.
const HASH_ORDER_IN_DECIDE: u8 = 3;

/// A global the stub reads where a game must not: every read is new.
static TICKS: AtomicU64 = AtomicU64::new(1);

fn tick() -> u64 {
    TICKS.fetch_add(1, Ordering::Relaxed)
}

struct Stub<const MODE: u8>;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct StubState {
    race: RaceState,
    stamp: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum StubEvent {
    Race(RaceEvent),
    Stamped(u64),
    Visited(u8),
}

impl<const MODE: u8> Game for Stub<MODE> {
    type Config = RaceConfig;
    type State = StubState;
    type Command = RaceCommand;
    type Event = StubEvent;
    const ID: &'static str = "stub";
    const NAME: &'static str = "Nondeterministic stub (test game)";
    const RULES_VERSION: u32 = 1;

    fn scenarios() -> Vec<ScenarioInfo> {
        Race::scenarios()
    }

    fn setup(config: &RaceConfig) -> Result<StubState, SetupError> {
        Ok(StubState {
            race: Race::setup(config)?,
            stamp: 0,
        })
    }

    fn decide(
        state: &StubState,
        actor: Actor,
        command: &RaceCommand,
        rng: &mut Randomness,
    ) -> Result<Vec<StubEvent>, RuleError> {
        let mut events: Vec<StubEvent> = Race::decide(&state.race, actor, command, rng)?
            .into_iter()
            .map(StubEvent::Race)
            .collect();
        match MODE {
            COUNTER_IN_DECIDE => events.push(StubEvent::Stamped(tick())),
            HASH_ORDER_IN_DECIDE => {
                let units: HashSet<u8> = (1..=16).collect();
                events.extend(units.into_iter().map(StubEvent::Visited));
            }
            _ => events.push(StubEvent::Stamped(0)),
        }
        Ok(events)
    }

    fn apply(state: &mut StubState, event: &StubEvent) {
        match event {
            StubEvent::Race(e) => Race::apply(&mut state.race, e),
            StubEvent::Stamped(t) => state.stamp = *t,
            StubEvent::Visited(_) => {}
        }
        if MODE == COUNTER_IN_APPLY {
            state.stamp = tick();
        }
    }

    fn legal(state: &StubState) -> Vec<(Actor, RaceCommand)> {
        Race::legal(&state.race)
    }

    fn asked(state: &StubState) -> Vec<xenolog_engine::Ask> {
        Race::asked(&state.race)
    }

    fn outcome(state: &StubState) -> Option<Outcome> {
        Race::outcome(&state.race)
    }

    fn view(state: &StubState, _viewer: Actor) -> StubState {
        state.clone()
    }

    fn actor_name(actor: Actor) -> String {
        Race::actor_name(actor)
    }

    fn describe_command(state: &StubState, actor: Actor, command: &RaceCommand) -> String {
        Race::describe_command(&state.race, actor, command)
    }

    fn describe_event(state: &StubState, event: &StubEvent) -> String {
        match event {
            StubEvent::Race(e) => Race::describe_event(&state.race, e),
            StubEvent::Stamped(t) => format!("stamped with tick {t}"),
            StubEvent::Visited(u) => format!("visited unit {u}"),
        }
    }

    fn flow(state: &StubState) -> FlowMark {
        Race::flow(&state.race)
    }

    fn scene(state: &StubState) -> Scene {
        Race::scene(&state.race)
    }
}

/// A few commands of play, each accepted.
fn played<const MODE: u8>() -> Session<Stub<MODE>> {
    let mut s = Session::<Stub<MODE>>::new(11, RaceConfig::default()).expect("default sets up");
    for command in [
        RaceCommand::Roll { dice: 2 },
        RaceCommand::Hold,
        RaceCommand::Roll { dice: 3 },
        RaceCommand::Hold,
    ] {
        let actor = Stub::<MODE>::to_move(s.state()).expect("the battle goes on");
        s.play(actor, &command, None).expect("legal");
    }
    s
}

/// The detail of what a stub's `verify` found, which must be a divergence
/// at the first entry.
fn diverged_at_entry_0(problem: Option<Divergence>) -> String {
    let problem = problem.expect("the checker must notice");
    assert_eq!(problem.kind, DivergenceKind::Diverged);
    assert_eq!(problem.entry, 0);
    problem.detail
}

#[test]
fn the_deterministic_control_passes_verify() {
    let report = played::<STEADY>().verify();
    assert!(report.ok(), "{report}");
    assert_eq!(report.entries, 4);
}

#[test]
fn a_decide_that_reads_a_global_counter_diverges_at_the_first_entry() {
    let report = played::<COUNTER_IN_DECIDE>().verify();
    let detail = diverged_at_entry_0(report.problem.clone());
    // The detail names the differing event, as recorded and as replayed.
    // Entry 0 rolled two dice (one Race event), so the stamp is event 2.
    let lines: Vec<&str> = detail.lines().collect();
    assert_eq!(lines.first(), Some(&"event 2 differs"), "{detail}");
    for side in ["recorded", "replayed"] {
        let stamped = format!("{side}: stamped with tick");
        assert!(
            lines.iter().any(|l| l.trim().starts_with(&stamped)),
            "{detail}"
        );
    }
    let text = report.to_string();
    assert!(text.starts_with("FAILED at entry 0"), "{text}");
    assert!(
        text.contains("does not replay as recorded under the same rules version"),
        "{text}"
    );
}

#[test]
fn a_decide_that_follows_hash_set_order_diverges_at_the_first_entry() {
    // Sixteen units: the chance that two randomly seeded sets iterate in the
    // same order is negligible.
    let report = played::<HASH_ORDER_IN_DECIDE>().verify();
    let detail = diverged_at_entry_0(report.problem);
    assert!(detail.contains("visited unit"), "{detail}");
}

#[test]
fn an_apply_that_reads_a_global_counter_is_caught_by_the_state_hash() {
    let report = played::<COUNTER_IN_APPLY>().verify();
    let detail = diverged_at_entry_0(report.problem);
    assert!(
        detail.contains("another hash") && detail.contains("apply is not deterministic"),
        "{detail}"
    );
}

#[test]
fn a_log_rewritten_with_fresh_hashes_is_caught_by_replay() {
    // Someone drops a recorded die and recomputes the whole hash chain: the
    // chain now agrees, so this is no longer visible as tampering, but
    // re-deciding the command rolls the die again and the dice differ.
    let s = played::<STEADY>();
    let mut recs = s.records().to_vec();
    recs[0] = recs[0].edited(|f| {
        f.dice.pop();
    });
    let mut chain = xenolog_engine::hash::root_chain(s.meta());
    for rec in &mut recs {
        rec.chain = xenolog_engine::hash::chain_hash(&chain, rec, s.meta().rules_version);
        chain = rec.chain;
    }
    let t = Session::<Stub<STEADY>>::from_parts(xenolog_engine::StoredBattle {
        meta: s.meta().clone(),
        records: recs,
        branches: s.branches().to_vec(),
        snapshots: vec![],
        cursor: s.cursor(),
        branch: s.current_branch(),
    })
    .expect("the parts still decode");
    let detail = diverged_at_entry_0(t.verify().problem);
    assert!(detail.starts_with("dice differ"), "{detail}");
}

/// The conformance test that every registered game must pass is itself
/// checked: registered as games, the misbehaving stubs fail it and the
/// steady control passes.
#[test]
fn the_conformance_test_fails_on_every_nondeterministic_stub() {
    use crate::conformance::conform;
    use xenolog_engine::games::built;
    let two = xenolog_engine::games::Seats::new(2, 2, "side");
    let steady = built::<Stub<STEADY>>(two, true);
    conform(&steady, 5, 60).unwrap_or_else(|e| panic!("the control must pass: {e}"));
    for (mode, stub) in [
        (
            "counter in decide",
            built::<Stub<COUNTER_IN_DECIDE>>(two, true),
        ),
        (
            "counter in apply",
            built::<Stub<COUNTER_IN_APPLY>>(two, true),
        ),
        (
            "hash order in decide",
            built::<Stub<HASH_ORDER_IN_DECIDE>>(two, true),
        ),
    ] {
        let err = conform(&stub, 5, 60).expect_err(mode);
        assert!(err.starts_with("stub (seed 5): "), "{mode}: {err}");
    }
}
