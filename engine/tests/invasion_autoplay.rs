//! Alien Invasion played by a bot that picks among the legal commands at
//! random: every battle reaches a result the text allows, with no panic,
//! and replays exactly.

use xenolog_engine::games::invasion::{Invasion, InvasionConfig};
use xenolog_engine::rng::Randomness;
use xenolog_engine::{Game, Session};

fn play(seed: u64, config: InvasionConfig, cap: usize) -> Session<Invasion> {
    let mut s = Session::<Invasion>::new(seed, config).expect("setup");
    let mut bot = Randomness::new(seed ^ 0x5eed, 0, None);
    for _ in 0..cap {
        s.play_due().expect("the game's own steps");
        if Invasion::outcome(s.state()).is_some() {
            break;
        }
        let legal = Invasion::legal(s.state());
        assert!(
            !legal.is_empty(),
            "no command and no step at {:?}",
            Invasion::asked(s.state())
        );
        let (actor, cmd) = legal[bot.pick(legal.len())].clone();
        s.play(actor, &cmd, None)
            .expect("a legal command is accepted");
    }
    s
}

#[test]
fn four_faction_battles_end_with_a_result_and_replay_exactly() {
    for seed in 0..20 {
        let s = play(seed, InvasionConfig::default(), 5000);
        let outcome = Invasion::outcome(s.state()).expect("the battle ends");
        assert!(!outcome.summary.is_empty());
        assert!(
            s.verify().problem.is_none(),
            "seed {seed}: {:?}",
            s.verify()
        );
    }
}
