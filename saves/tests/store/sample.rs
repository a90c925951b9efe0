//! The sample campaign for the app's first start.

use tempfile::TempDir;
use xenolog_saves::sample::create_sample;
use xenolog_saves::{BattleSummary, Campaign, SaveError};

use super::common::place;

/// Given the sample campaign, freshly made: the battle `is` picks out (the
/// test fails naming `what` if there is none), with the open campaign.
fn given_the_sample_battle(
    is: impl Fn(&BattleSummary) -> bool,
    what: &str,
) -> (TempDir, Campaign, BattleSummary) {
    let (dir, path) = place();
    create_sample(&path).unwrap();
    let c = Campaign::open(&path).unwrap();
    let s = c
        .battles()
        .unwrap()
        .into_iter()
        .find(|s| is(s))
        .unwrap_or_else(|| panic!("expected {what} in the sample"));
    (dir, c, s)
}

/// Then the battle is at turn `turn` or later (`why` says why that much),
/// has the seats `seats` names, someone is asked to act, and it verifies.
fn then_under_way(c: &Campaign, s: &BattleSummary, turn: u32, why: &str, seats: (usize, &str)) {
    let b = c.load_battle(s.id).unwrap();
    let flow = b.flow_at(b.cursor());
    assert!(flow.turn >= turn, "{why}: {flow:?}");
    assert_eq!(b.seats().len(), seats.0, "{}", seats.1);
    assert!(!b.asked().is_empty(), "someone is asked to act");
    assert!(c.verify_battle(s.id).unwrap().ok());
}

#[test]
fn the_sample_is_a_battle_in_mid_game_with_branches() {
    let (_dir, c, s) = given_the_sample_battle(|_| true, "a battle (the first)");
    assert_eq!(s.status, "in progress");
    assert!(s.entries >= 20, "{s:?}");
    assert!(s.branches >= 3, "{s:?}");
    let b = c.load_battle(s.id).unwrap();
    assert!(b.cursor().is_some());
    assert!(!b.legal().is_empty(), "mid-game: there is a move to make");
    assert!(
        b.branches()
            .iter()
            .any(|br| br.name != format!("Branch {}", br.id) && br.id > 0)
    );
    assert!(c.verify_battle(s.id).unwrap().ok());
}

#[test]
fn the_sample_is_the_same_every_time() {
    let (_d1, a) = place();
    let (_d2, b) = place();
    create_sample(&a).unwrap();
    create_sample(&b).unwrap();
    let (a, b) = (Campaign::open(&a).unwrap(), Campaign::open(&b).unwrap());
    let (la, lb) = (a.battles().unwrap(), b.battles().unwrap());
    assert_eq!(la.len(), lb.len());
    for (x, y) in la.iter().zip(&lb) {
        assert_eq!(
            a.load_battle(x.id).unwrap().records(),
            b.load_battle(y.id).unwrap().records()
        );
    }
}

#[test]
fn the_sample_does_not_replace_a_file() {
    let (_dir, path) = place();
    std::fs::write(&path, b"mine").unwrap();
    assert!(matches!(
        create_sample(&path),
        Err(SaveError::Exists { .. })
    ));
    assert_eq!(std::fs::read(&path).unwrap(), b"mine");
}

#[test]
fn making_the_sample_leaves_no_temporary_file_beside_it() {
    let (dir, path) = place();
    create_sample(&path).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec![path.file_name().unwrap().to_string_lossy().into_owned()]
    );
    assert!(
        Campaign::open(&path)
            .unwrap()
            .verify_battle(1)
            .unwrap()
            .ok()
    );
}

#[test]
fn the_sample_has_an_alien_invasion_battle_in_mid_game() {
    let (_dir, c, s) =
        given_the_sample_battle(|s| s.game == "invasion", "an Alien Invasion battle");
    assert_eq!(s.status, "in progress");
    assert!(s.branches >= 2, "{s:?}");
    then_under_way(
        &c,
        &s,
        2,
        "mid-game, not at the first card",
        (4, "four factions"),
    );
}

#[test]
fn the_sample_has_an_alien_battle_some_turns_in() {
    let (_dir, c, s) = given_the_sample_battle(|s| s.game == "alien", "an Alien battle");
    assert_eq!(s.status, "in progress");
    then_under_way(
        &c,
        &s,
        4,
        "some turns in",
        (2, "the Alien Queen and the expedition"),
    );
}

#[test]
fn the_sample_has_a_night_of_the_saucers_game_some_turns_in() {
    let (_dir, c, s) =
        given_the_sample_battle(|s| s.game == "saucers", "a Night of the Saucers game");
    assert!(s.entries >= 20, "{s:?}");
    let b = c.load_battle(s.id).unwrap();
    assert_eq!(b.seats().len(), 2, "two players");
    assert!(b.flow_at(b.cursor()).turn >= 2, "some turns in");
    assert!(c.verify_battle(s.id).unwrap().ok());
}

#[test]
fn the_sample_shows_every_built_game_and_the_campaign() {
    let (_dir, path) = place();
    create_sample(&path).unwrap();
    let c = Campaign::open(&path).unwrap();
    let games: std::collections::BTreeSet<String> =
        c.battles().unwrap().into_iter().map(|s| s.game).collect();
    for g in ["dimx", "race", "invasion", "saucers", "alien"] {
        assert!(games.contains(g), "no {g} battle in the sample: {games:?}");
    }
    let state = c.campaign_state().unwrap();
    assert_eq!(state.rosters.len(), 2, "two rosters");
    assert!(state.battles.len() >= 3, "battles fought from the rosters");
}

#[test]
fn the_sample_has_an_alien_invasion_battle_with_the_advanced_modules() {
    let (_dir, c, s) = given_the_sample_battle(
        |s| s.title.contains("Advanced Invasion Earth"),
        "an advanced Alien Invasion battle",
    );
    assert_eq!(s.game, "invasion");
    assert!(s.entries >= 20, "{s:?}");
    let b = c.load_battle(s.id).unwrap();
    let words: Vec<String> = b
        .entry_texts(&b.path_to(b.cursor()))
        .into_iter()
        .flat_map(|t| t.events)
        .collect();
    // The modules at work in the log.
    assert!(
        words.iter().any(|w| w.starts_with("Suppressing fire")
            || w.starts_with("Fear test")
            || w.contains("lays in wait")),
        "{words:#?}"
    );
    assert!(c.verify_battle(s.id).unwrap().ok());
}

#[test]
fn opening_a_clean_campaign_for_writing_and_reading_every_battle_changes_no_byte() {
    // Loading rewrites a cache only when it is stale (an older rules
    // version's snapshot, a status a crash left behind); a clean campaign,
    // opened for writing, read through and closed, is the same file.
    let (_dir, path) = place();
    create_sample(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    {
        let c = Campaign::open(&path).unwrap();
        for s in c.battles().unwrap() {
            let b = c.load_battle(s.id).unwrap();
            assert!(b.cursor().is_some());
            assert!(c.verify_battle(s.id).unwrap().ok());
        }
    }
    assert!(std::fs::read(&path).unwrap() == before, "the file changed");
    let wal = path.with_extension(format!(
        "{}-wal",
        path.extension().and_then(|e| e.to_str()).unwrap_or("")
    ));
    assert!(!wal.exists(), "a -wal file is left beside the campaign");
}
