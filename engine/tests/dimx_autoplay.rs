//! The autoplay property: a bot choosing uniformly among `legal` plays full
//! battles of every scenario through `Session<DimX>`; each must end in a
//! result the rule text allows, and `verify` must replay it exactly.
//!
//! The normal test run plays `DIMX_GAMES` battles (default 200). For the
//! 1,000-battle figure: `DIMX_GAMES=1000 cargo test --release -p
//! xenolog-engine --test dimx_autoplay -- --nocapture`.

#[path = "splitmix/mod.rs"]
mod splitmix;

use splitmix::SplitMix as Bot;
use xenolog_engine::games::dimx::{DimX, DimxConfig};
use xenolog_engine::{Game, Session};

/// The results the text allows: a Kay'otz Major Victory through a Mission
/// Goal (G.4), an Instant Victory (G.1), or the scenario's end (G.4).
fn allowed(summary: &str) -> bool {
    const GOALS: [&str; 6] = [
        "Inter-Dimensional Portal",
        "Enslave",
        "Decapitate Command Control",
        "Pillage",
        "Possess Sleeper-Agent",
        "Summoning",
    ];
    GOALS
        .iter()
        .any(|g| summary == format!("Kay'otz Major Victory ({g})"))
        || summary.starts_with("Instant victory: ")
        || summary.ends_with(" per scenario")
        || ["Kay'otz victory", "Marine victory", "Draw"].iter().any(|r| {
            summary == format!(
                "{r} (scenario default): the Mission Goal was not achieved and no victory condition of the scenario was met"
            )
        })
}

/// Every Marine unit a log line names is named by type and id ("Scout
/// SC1"); Kay'otz units by their titles ("Kay'otz #10"), never by counter id.
fn names_units_one_way(s: &xenolog_engine::games::dimx::DimxState, text: &str) {
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
        .filter(|w| !w.is_empty())
        .collect();
    for m in &s.marines {
        if words.contains(&m.id.as_str()) {
            assert!(
                text.contains(&m.title()),
                "{} named without its type: {text}",
                m.id
            );
        }
    }
    for a in &s.aliens {
        assert!(
            !words.contains(&a.id.as_str()),
            "{} named by counter id: {text}",
            a.id
        );
    }
    assert!(!text.contains("step complete"), "{text}");
}

struct Tally {
    games: usize,
    marine_wins: usize,
    turns: Vec<u32>,
    results: std::collections::BTreeMap<String, usize>,
}

fn play(seed: u64, scenario: &str, two_player: bool, t: &mut Tally) {
    let config = DimxConfig {
        scenario: scenario.into(),
        scenario_text: None,
        two_player,
        ..DimxConfig::default()
    };
    let mut s = Session::<DimX>::new(seed, config).expect("scenario sets up");
    let mut bot = Bot(seed ^ 0xB07);
    let mut steps = 0;
    while DimX::outcome(s.state()).is_none() {
        let legal = DimX::legal(s.state());
        assert!(
            !legal.is_empty(),
            "seed {seed} {scenario}: no legal command before the end"
        );
        let (actor, cmd) = legal[bot.below(legal.len())].clone();
        if steps % 97 == 0 {
            // the words and the picture of any moment never fail
            for (a, c) in &legal {
                assert!(!DimX::describe_command(s.state(), *a, c).is_empty());
            }
            assert!(!DimX::scene(s.state()).items.is_empty());
        }
        let id = match s.play(actor, &cmd, None) {
            Ok(id) => id,
            Err(e) => panic!("seed {seed} {scenario}: a legal command was refused: {cmd:?}: {e}"),
        };
        for e in s.events(id) {
            let text = xenolog_engine::games::dimx::describe::event(&e);
            assert!(!text.is_empty());
            names_units_one_way(s.state(), &text);
        }
        steps += 1;
        assert!(
            steps < 20_000,
            "seed {seed} {scenario}: the battle does not end"
        );
    }
    let out = DimX::outcome(s.state()).unwrap();
    assert!(
        allowed(&out.summary),
        "seed {seed} {scenario}: result not allowed by the text: {}",
        out.summary
    );
    let turn = s.state().turn;
    assert!(
        (1..=19).contains(&turn),
        "seed {seed} {scenario}: ended on turn {turn}: a game has 18 or 19 turns at most (B)"
    );
    let report = s.verify();
    assert!(report.ok(), "seed {seed} {scenario}: {report}");
    t.games += 1;
    *t.results.entry(out.summary.clone()).or_default() += 1;
    t.turns.push(u32::from(turn));
    if out.is_winner(xenolog_engine::Actor(0)) {
        t.marine_wins += 1;
    }
}

#[test]
fn autoplay_random_bot_full_battles_end_in_allowed_results_and_verify() {
    let n: u64 = std::env::var("DIMX_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let scenarios = ["alpha", "beta", "campaign"];
    let mut t = Tally {
        games: 0,
        marine_wins: 0,
        turns: Vec::new(),
        results: Default::default(),
    };
    let start = std::time::Instant::now();
    for seed in 0..n {
        let sc = scenarios[(seed % 3) as usize];
        play(seed, sc, seed % 10 == 9, &mut t);
    }
    let full = t.turns.iter().filter(|&&x| x >= 18).count();
    println!(
        "{} battles in {:.1}s: Marine win rate {:.1}% ({} wins); {} went the full 18 or 19 turns",
        t.games,
        start.elapsed().as_secs_f32(),
        100.0 * t.marine_wins as f32 / t.games as f32,
        t.marine_wins,
        full
    );
    for (summary, n) in &t.results {
        println!("{n:5}  {summary}");
    }
}
