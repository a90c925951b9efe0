//! The battle list's "asked" seats (review12 NIT 4): `Battle::asked_publicly`
//! works `Game::asked` out on the public view, so that the list sent to every
//! player tells nothing a view hides (review7 S1, Night of the Saucers'
//! Instants in hidden hands). Where nothing hidden decides who is asked, the
//! public answer is the whole state's: checked at every entry of randomly
//! played battles of every built game, so a view that starts hiding
//! something `asked` reads makes the list name the wrong seats here, not
//! silently in the club's battle list.

use serde_json::{Value, json};
use xenolog_engine::Battle;
use xenolog_engine::games::{self, new_battle};
use xenolog_engine::rng::SplitMix64;

/// Play `steps` random legal commands, calling `check` before each.
fn walk(game: &str, config: &Value, seed: u64, steps: usize, check: &mut dyn FnMut(&dyn Battle)) {
    let mut b = new_battle(game, seed, config).unwrap_or_else(|e| panic!("{game}: {e}"));
    let mut r = SplitMix64(seed);
    for _ in 0..steps {
        b.play_due().unwrap();
        check(b.as_ref());
        let legal = b.legal();
        if legal.is_empty() {
            break;
        }
        let c = &legal[r.below(legal.len())];
        let p = b.prepare_json(c.actor, &c.command, None).unwrap();
        b.commit(p).unwrap();
    }
}

#[test]
fn asked_publicly_equals_asked_where_nothing_hidden_decides_it_in_every_game() {
    let steps = |game: &str| match game {
        "invasion" => 25,
        "dimx" | "alien" => 40,
        _ => 120,
    };
    let mut games_seen = Vec::new();
    for info in games::games().into_iter().filter(|g| g.available) {
        let mut positions = 0;
        for seed in 1..=2 {
            walk(info.id, &json!({}), seed, steps(info.id), &mut |b| {
                positions += 1;
                assert_eq!(
                    b.asked_publicly(),
                    b.asked(),
                    "{}, seed {seed}, at {:?}",
                    info.id,
                    b.cursor()
                );
            });
        }
        assert!(positions > 5, "{}: {positions} positions", info.id);
        games_seen.push(info.id);
    }
    for id in ["alien", "dimx", "invasion", "saucers"] {
        assert!(games_seen.contains(&id), "{id} in {games_seen:?}");
    }
}

/// Night of the Saucers with hidden hands (or Gang Warfare), where a hidden
/// Instant decides whether a seat is asked: the public list names no seat
/// the whole state does not ask (it may name fewer).
#[test]
fn asked_publicly_in_saucers_with_hidden_hands_names_only_seats_asked() {
    for config in [
        json!({"players": 3, "hidden_hands": true}),
        json!({"players": 2, "variant": "gang_warfare"}),
    ] {
        for seed in 1..=3 {
            walk("saucers", &config, seed, 200, &mut |b| {
                let (public, whole) = (b.asked_publicly(), b.asked());
                for a in &public {
                    assert!(whole.contains(a), "{a:?} asked publicly, not in {whole:?}");
                }
            });
        }
    }
}

/// The hot-seat curtain's list (review15 N9): `asked_as(seat)` is worked out
/// on that seat's view. It keeps every ask of the seat itself (its own hidden
/// Instants included) and names another seat only as the public list does:
/// never because of that seat's hidden cards. Somewhere in these battles the
/// whole state asks a seat because of its hidden hand, so a curtain showing
/// `asked()` would tell the seat behind it what the other hand holds.
#[test]
fn asked_as_a_seat_names_its_own_asks_and_no_other_seat_asked_for_its_hidden_cards() {
    use xenolog_engine::Viewer;
    let mut hidden_asks = 0;
    for config in [
        json!({"players": 3, "hidden_hands": true}),
        json!({"players": 2, "variant": "gang_warfare"}),
    ] {
        for seed in 1..=3 {
            walk("saucers", &config, seed, 200, &mut |b| {
                let (whole, public) = (b.asked(), b.asked_publicly());
                assert_eq!(b.asked_as(Viewer::All), whole);
                for (seat, _) in b.seats() {
                    let shown = b.asked_as(Viewer::Seat(seat));
                    for a in whole.iter().filter(|a| a.seat == seat) {
                        assert!(shown.contains(a), "{seat:?}'s own {a:?} not in {shown:?}");
                    }
                    for a in shown.iter().filter(|a| a.seat != seat) {
                        assert!(public.contains(a), "{a:?} shown to {seat:?}, not public");
                    }
                    hidden_asks += whole
                        .iter()
                        .filter(|a| a.seat != seat && !shown.contains(a))
                        .count();
                }
            });
        }
    }
    assert!(
        hidden_asks > 0,
        "no position asked a seat for its hidden cards"
    );
}
