//! Alien Invasion played by a bot that picks among the legal commands at
//! random: every battle reaches a result the text allows, with no panic,
//! and replays exactly. The quick test plays a few battles of each kind;
//! the soaks (ignored by default, run in release) play a thousand each,
//! on every core, with a progress line on stderr every 100 battles:
//! `cargo test --release -p xenolog-engine --test invasion_autoplay -- --ignored`
//! (`XENOLOG_SOAK_N` battles instead of 1,000, `XENOLOG_SOAK_EVERY` for the
//! progress lines; RELIABILITY.md section 7).

#[path = "support/bot.rs"]
mod bot;
#[path = "support/soak.rs"]
mod soak;
#[path = "support/invasion.rs"]
mod support;

use bot::random_battle;
use support::with_every_module;
use xenolog_engine::games::invasion::{Invasion, InvasionCommand, InvasionConfig, InvasionState};
use xenolog_engine::{Actor, Game, Session};

const FACTIONS: [&str; 4] = ["unit", "daleks", "mib", "spugs"];

/// The config of soak battle `n`: both scenarios, two to four factions in
/// varied seats, on screen or at a real table, with or without the sewers.
fn config(n: u64) -> InvasionConfig {
    let crash = !n.is_multiple_of(3);
    let seats = if crash { 2 + (n % 3) as usize } else { 2 };
    let rot = (n / 3) as usize;
    InvasionConfig {
        scenario: if crash { "crash_site" } else { "skirmish" }.into(),
        factions: (0..seats)
            .map(|i| FACTIONS[(i + rot) % 4].to_owned())
            .collect(),
        real_table: n % 5 == 4,
        sewers: n % 2 == 1,
        rosters: Vec::new(),
        // Advanced Invasion Earth: a different subset of the thirteen
        // modules for each battle (bits of a hash of `n`).
        stupidity: bit(n, 0),
        fear: bit(n, 1),
        suppression: bit(n, 2),
        observers: bit(n, 3),
        sighting: bit(n, 4),
        laying_in_wait: bit(n, 5),
        grapple: bit(n, 6),
        impetuous: bit(n, 7),
        primitive_weapons: bit(n, 8),
        buildings: bit(n, 9),
        unstoppable: bit(n, 10),
        fly: bit(n, 11),
        advanced_assault: bit(n, 12),
        ..InvasionConfig::default()
    }
}

/// A faction with every profile the modules read: grapplers, impetuous
/// savages with spears, radio operators, a mortar team, a leader, an L.M.G.
const MENAGERIE: &str = r#"
faction menagerie "Menagerie"
link yes
model beast   "Beast"          species beast shoot 0 melee 4 kill 9 12 15 grapple 5
model savage  "Savage"         species human shoot 1 kill 6 9 12 impetuous weapon primitive
model radio   "Radio Operator" species human shoot 1 kill 6 9 12 radio
model mortar  "Mortar"         species human shoot 3 kill 6 9 12 weapon indirect
model chief   "Chief"          species human shoot 1 kill 6 9 12 leader
model gunner  "Gunner"         species human shoot 2 kill 6 9 12 weapon lmg
group b1 "Beast pack" beast beast
group v1 "Savage band" savage savage savage
group r1 "Spotters" radio chief gunner
group m1 "Mortar team" mortar radio
model golem   "Golem"          species golem shoot 2 kill 12 15 18 unstoppable
group g1 "Golem" golem
model wing    "Winged Horror"  species horror shoot 2 kill 9 12 15 fly 12
group w1 "Winged Horror" wing
"#;

/// Bit `i` of a hash of `n` (so consecutive battles get unrelated subsets).
fn bit(n: u64, i: u32) -> bool {
    (n.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (20 + i)) & 1 == 1
}

/// Battle `n` of every kind with every Advanced Invasion Earth module on;
/// every third battle the first seat fields the menagerie.
fn all_modules(n: u64) -> InvasionConfig {
    let mut base = config(n);
    if n.is_multiple_of(3) {
        base.factions[0] = "menagerie".into();
        base.faction_texts = vec![MENAGERIE.to_owned()];
    }
    with_every_module(base)
}

fn play(seed: u64, config: InvasionConfig, cap: usize) -> Session<Invasion> {
    random_battle(
        seed,
        config,
        0x5eed,
        cap,
        |_, _| true,
        |st, legal| no_move_ends_where_it_began(seed, st, legal),
    )
}

/// A move offered on the table goes somewhere: a group with no move left, or
/// already in base contact with the enemy it heads for, is not offered a
/// "move" to where it stands (a vehicle's turn on the spot changes its facing).
fn no_move_ends_where_it_began(seed: u64, st: &InvasionState, legal: &[(Actor, InvasionCommand)]) {
    for (_, c) in legal {
        if let InvasionCommand::Move {
            group,
            to: Some(to),
            face,
            ..
        } = c
        {
            let g = st.group(*group);
            let from = g.points().first().copied();
            assert!(
                from != Some(*to) || face.is_some_and(|f| Some(f) != g.facing),
                "seed {seed}: group {group} is offered a move to where it stands: {c:?}"
            );
        }
    }
}

fn check(seed: u64, config: InvasionConfig) {
    let s = play(seed, config.clone(), 20_000);
    let outcome = Invasion::outcome(s.state())
        .unwrap_or_else(|| panic!("seed {seed} {config:?}: the battle does not end"));
    let st = s.state();
    // A result the text allows: the rounds are played out, or one faction
    // is left; every winner met one of its scenario's victory conditions.
    assert!(
        st.round >= st.scenario.rounds
            || (0..st.factions.len() as u8)
                .filter(|&x| st.in_battle(x))
                .count()
                <= 1,
        "seed {seed}: ended early in round {}",
        st.round
    );
    use xenolog_engine::games::invasion::{model::VictoryKind, victory::met};
    for w in &outcome.winners {
        // A scenario's condition, or the MiB's own ("in addition to any
        // scenario specific victory conditions").
        let mib = st.factions[w.0 as usize].rules.study && met(st, w.0, &VictoryKind::StudyAll);
        assert!(
            mib || st
                .scenario
                .victories
                .iter()
                .any(|v| v.seat.is_none_or(|x| Actor(x) == *w) && met(st, w.0, &v.kind)),
            "seed {seed}: {w:?} won without meeting a condition"
        );
    }
    let report = s.verify();
    assert!(report.problem.is_none(), "seed {seed}: {report:?}");
}

#[test]
fn battles_of_every_kind_end_with_a_result_the_text_allows_and_replay_exactly() {
    for n in 0..8 {
        check(n, config(n));
    }
}

#[test]
fn battles_with_every_advanced_module_on_end_with_a_result_and_replay_exactly() {
    for n in 0..4 {
        check(300 + n, all_modules(n));
    }
}

/// Four factions on the Crash Site table, every faction in every seat in
/// turn, on screen or at a real table, with or without the sewers.
fn four_factions(n: u64) -> InvasionConfig {
    let rot = n as usize;
    InvasionConfig {
        scenario: "crash_site".into(),
        factions: (0..4).map(|i| FACTIONS[(i + rot) % 4].to_owned()).collect(),
        real_table: n % 5 == 4,
        sewers: n % 2 == 1,
        rosters: Vec::new(),
        ..InvasionConfig::default()
    }
}

/// A soak of `XENOLOG_SOAK_N` battles (default 1,000): battle `n` is
/// `check(first + n, config(n))`.
fn soak_of(name: &str, first: u64, config: fn(u64) -> InvasionConfig) {
    let battles = soak::soak_battles(None, 1000);
    soak::soak(name, battles, soak::soak_every(), |i| {
        check(first + i, config(i))
    });
}

#[test]
#[ignore = "a thousand battles: run in release (see the module docs)"]
fn a_thousand_four_faction_battles_end_with_a_result_and_replay_exactly() {
    soak_of("four factions", 1000, four_factions);
}

#[test]
#[ignore = "a thousand battles: run in release (see the module docs)"]
fn a_thousand_battles_of_every_kind_end_with_a_result_and_replay_exactly() {
    soak_of("every kind", 5000, config);
}

#[test]
#[ignore = "a thousand battles: run in release (see the module docs)"]
fn a_thousand_battles_with_every_advanced_module_on_end_with_a_result_and_replay_exactly() {
    soak_of("every advanced module", 9000, all_modules);
}
