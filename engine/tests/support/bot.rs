//! The random bot of the autoplay tests, for every game (included with
//! `#[path]`): a battle played by picking at random among the commands
//! `legal` lists, so each game's soak states only what differs (its configs,
//! the commands its bot leaves alone, what it checks on the way).
#![allow(dead_code)]

use xenolog_engine::rng::Randomness;
use xenolog_engine::{Actor, Game, Session};

/// Battle `seed` played by the random bot (its picks drawn from
/// `seed ^ bot_seed`) for at most `cap` commands, stopping at the battle's
/// end: the game's own steps as they fall due, then one of the commands
/// `legal` lists and `keep` keeps, picked at random after `look` has seen
/// them. Panics (naming the seed) when no command is left while the battle
/// goes on, when one is the game's own, or when one is refused.
pub fn random_battle<G: Game>(
    seed: u64,
    config: G::Config,
    bot_seed: u64,
    cap: usize,
    keep: impl Fn(&G::State, &G::Command) -> bool,
    mut look: impl FnMut(&G::State, &[(Actor, G::Command)]),
) -> Session<G> {
    let mut s = Session::<G>::new(seed, config).expect("setup");
    let mut bot = Randomness::new(seed ^ bot_seed, 0, None);
    for _ in 0..cap {
        s.play_due().expect("the game's own steps");
        if G::outcome(s.state()).is_some() {
            break;
        }
        let legal: Vec<_> = G::legal(s.state())
            .into_iter()
            .filter(|(_, c)| keep(s.state(), c))
            .collect();
        assert!(
            !legal.is_empty(),
            "seed {seed}: no command and no step while {:?} are asked",
            G::asked(s.state())
        );
        look(s.state(), &legal);
        let (actor, cmd) = legal[bot.pick(legal.len())].clone();
        assert_ne!(actor, Actor::SYSTEM);
        s.play(actor, &cmd, None)
            .unwrap_or_else(|e| panic!("seed {seed}: legal {cmd:?} refused: {e}"));
    }
    s
}

/// The same with every legal command kept and nothing looked at.
pub fn random_battle_of<G: Game>(
    seed: u64,
    config: G::Config,
    bot_seed: u64,
    cap: usize,
) -> Session<G> {
    random_battle(seed, config, bot_seed, cap, |_, _| true, |_, _| {})
}
