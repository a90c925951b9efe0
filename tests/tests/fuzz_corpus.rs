//! Every committed fuzz corpus file and every fuzz regression input
//! (`fuzz/corpus/<target>/`, `fuzz/regressions/<target>/`) through the same
//! harness as the fuzzer (`xenolog_tests::fuzzing`), so an input that once
//! crashed stays fixed in a plain `cargo test`.
//!
//! The corpora are sampled (every file up to [`PER_TARGET`] per target, in
//! name order, a fixed spread beyond) to keep a debug run short; the
//! regressions always run in full.

use std::path::{Path, PathBuf};

use xenolog_tests::fuzzing::TARGETS;

const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz");

/// Most corpus files run per target in a debug build.
const PER_TARGET: usize = 40;

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

/// At most `n` of `all`, spread evenly (the first, and every k-th).
fn sample(all: Vec<PathBuf>, n: usize) -> Vec<PathBuf> {
    if all.len() <= n {
        return all;
    }
    let step = all.len().div_ceil(n);
    all.into_iter().step_by(step).collect()
}

fn run(kind: &str, limit: Option<usize>) -> usize {
    let mut ran = 0;
    for (target, harness) in TARGETS {
        let all = files(&Path::new(FUZZ).join(kind).join(target));
        let picked = match limit {
            Some(n) => sample(all, n),
            None => all,
        };
        for f in picked {
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let caught = std::panic::catch_unwind(|| harness(&bytes));
            assert!(
                caught.is_ok(),
                "fuzz {kind} input {} of target {target} fails its harness",
                f.display()
            );
            ran += 1;
        }
    }
    ran
}

#[test]
fn every_fuzz_target_has_a_committed_corpus() {
    for (target, _) in TARGETS {
        let n = files(&Path::new(FUZZ).join("corpus").join(target)).len();
        assert!(n > 0, "fuzz/corpus/{target} is empty or missing");
    }
}

#[test]
fn the_committed_fuzz_corpora_pass_their_harnesses() {
    let ran = run("corpus", Some(PER_TARGET));
    assert!(ran >= TARGETS.len(), "only {ran} corpus files ran");
}

#[test]
fn every_fuzz_regression_input_passes_its_harness() {
    run("regressions", None);
}

/// Found by fuzzing `open_battle`: a Night of the Saucers battle whose stored
/// events apply but leave a tile numbered 66 of the game's 36 on the board;
/// drawing that board indexed past the tiles and the app died on opening it.
/// Loading now asks the game to show the state at the cursor and refuses the
/// battle in words, naming the first entry whose state cannot be shown.
#[test]
fn regression_a_battle_whose_events_leave_a_tile_not_in_the_game_is_refused_on_opening() {
    let input = std::fs::read(
        Path::new(FUZZ).join("regressions/open_battle/saucers-state-with-tile-66-of-36"),
    )
    .expect("the regression input is committed");
    let version = if input[0] & 1 == 1 {
        1
    } else {
        xenolog_schema::battle_file::BATTLE_FILE_FORMAT
    };
    let sealed = xenolog_tests::fuzzing::seal_battle_file(version, &input[1..]);
    let f = xenolog_schema::battle_file::read_battle_file(&sealed).expect("the file reads");
    assert_eq!(f.meta.game, "saucers");
    let mut parts = f.into_stored();
    let (entry, refusal) = match xenolog_engine::games::load_battle(parts.clone()) {
        Ok(_) => panic!("a battle whose state cannot be shown is refused"),
        Err(e @ xenolog_engine::LoadError::Corrupt { entry, .. }) => (entry, e.to_string()),
        Err(e) => panic!("refused, but not naming an entry: {e}"),
    };
    assert!(
        refusal.contains(&format!("entry {entry} is corrupt"))
            && refusal.contains("leave a state that is not valid Night of the Saucers data"),
        "{refusal}"
    );
    // The same battle saved with its cursor at the setup opens; reviewing the
    // damaged entry shows an empty board and notes the entry, never a panic.
    parts.cursor = None;
    parts.branch = 0;
    let b = xenolog_engine::games::load_battle(parts).expect("at the setup it shows");
    assert_eq!(b.corruption(), None);
    let scene = b.scene_at(Some(entry));
    assert!(scene.items.is_empty(), "{scene:?}");
    assert_eq!(b.corruption(), Some(entry));
}
