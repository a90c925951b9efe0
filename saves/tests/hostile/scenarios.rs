//! A stranger's scenario, faction, position or data file (the texts
//! `battle --scenario-file` and `--faction-file` put into a battle's config,
//! for every game): huge declared sizes and counts are refused in words, and
//! no text makes the engine hold more than [`BOUND`] beyond the text itself.
//! The parsers are the engine's; they are measured here, through
//! `games::new_battle` as the command line calls it, because this test binary
//! has the counting allocator.

use serde_json::{Value, json};
use xenolog_engine::games;

use super::heap::{MIB, peak_during};

/// The most heap starting a battle may hold beyond its config's own bytes.
const BOUND: usize = 64 * MIB;

/// Start `game` from `config`; it must be refused, in words containing
/// `expect`, with the heap bounded.
fn refused(game: &str, config: Value, expect: &str) -> String {
    let err =
        bounded(game, config).unwrap_or_else(|| panic!("{game}: a hostile file was accepted"));
    assert!(
        err.contains(expect),
        "{game}: refused, but not for the reason expected ({expect}): {err}"
    );
    err
}

/// Start `game` from `config`, which may be accepted or refused; either way
/// the heap stays within the bound. Returns the error, if any.
fn bounded(game: &str, config: Value) -> Option<String> {
    let size = config.to_string().len();
    let (out, peak) = peak_during(|| games::new_battle(game, 1, &config).map(|_| ()));
    let err = out.err().map(|e| e.to_string());
    assert!(
        peak < BOUND + size,
        "{game}: starting held {:.1} MiB for a config of {:.1} MiB ({err:?})",
        peak as f64 / MIB as f64,
        size as f64 / MIB as f64
    );
    err
}

/// A line of `n` copies of `word` after `head`: megabytes of one statement.
fn long_line(head: &str, word: &str, n: usize) -> String {
    let mut s = String::with_capacity(head.len() + n * (word.len() + 1));
    s.push_str(head);
    for _ in 0..n {
        s.push(' ');
        s.push_str(word);
    }
    s.push('\n');
    s
}

#[test]
fn dimx_scenario_declaring_a_huge_board_is_refused() {
    let text = "scenario \"Huge\"\nmap own\nmap_name \"Huge\"\ngrid 1000000 1000000\n";
    refused("dimx", json!({ "scenario_text": text }), "1000000");
    let text = "scenario \"Huge\"\nmap own\nmap_name \"Huge\"\ngrid 99 99\n";
    refused("dimx", json!({ "scenario_text": text }), "at most");
}

#[test]
fn invasion_files_declaring_huge_sizes_and_counts_are_refused() {
    let scenario = "scenario \"Huge\"\ntable 1000000 1000000\nzone 0 0 1 1\nzone 2 2 3 3\n";
    refused("invasion", json!({ "scenario_text": scenario }), "1000000");
    let scenario = "scenario \"Long\"\ntable 48 48\nrounds 1000000000\n";
    refused(
        "invasion",
        json!({ "scenario_text": scenario }),
        "1000000000",
    );
    let faction = "faction big \"Big\"\nrule holes 1000000000\nmodel s \"S\" species human shoot 1 kill 1 1 1\ngroup g \"G\" s\n";
    refused(
        "invasion",
        json!({ "faction_texts": [faction], "factions": ["big", "big"] }),
        "1000000000",
    );
    let faction = "faction big \"Big\"\ncards 1000000000 3 1\nmodel s \"S\" species human shoot 1 kill 1 1 1\ngroup g \"G\" s\n";
    refused(
        "invasion",
        json!({ "faction_texts": [faction], "factions": ["big", "big"] }),
        "1000000000",
    );
    // A group of a million figures, one type id each.
    let faction = format!(
        "faction big \"Big\"\nmodel s \"S\" species human shoot 1 kill 1 1 1\n{}",
        long_line("group g \"G\"", "s", 1_000_000)
    );
    bounded(
        "invasion",
        json!({ "faction_texts": [faction], "factions": ["big", "big"] }),
    )
    .expect("a million figures are refused");
}

/// Megabytes of one statement: every game's text is read word by word, and
/// the words must not cost many times the text.
#[test]
fn megabytes_of_words_in_any_game_file_stay_bounded() {
    const N: usize = 2_000_000;
    let cases: Vec<(&str, Value)> = vec![
        ("dimx", json!({ "scenario_text": long_line("adm", "1", N) })),
        (
            "invasion",
            json!({ "scenario_text": long_line("scenario \"x\"\nmanhole", "1", N) }),
        ),
        (
            "saucers",
            json!({ "scenario_text": long_line("searched", "C3", N) }),
        ),
        (
            "alien",
            json!({ "scenario_text": long_line("open", "1", N) }),
        ),
        ("alien", json!({ "base_text": long_line("row", "x", N) })),
    ];
    for (game, config) in cases {
        let err = bounded(game, config);
        println!("{game}: {err:?}");
    }
    // Saucers read a position file of any size until this was found: 5.7 MB
    // of `searched C3` held 71 MiB. Now it is refused like its data files.
    let err = bounded(
        "saucers",
        json!({ "scenario_text": long_line("searched", "C3", N) }),
    )
    .expect("a position file of megabytes is refused");
    assert!(err.contains("larger than"), "{err}");
}
