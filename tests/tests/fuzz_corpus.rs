//! Every committed fuzz corpus input and every fuzz regression input
//! (`fuzz/corpus/<target>.tar.zst`, `fuzz/regressions/<target>/`) through the
//! same harness as the fuzzer (`xenolog_tests::fuzzing`), so an input that
//! once crashed stays fixed in a plain `cargo test`.
//!
//! A target's minimised corpus is committed as one archive (a flat tar of its
//! inputs, zstd-compressed; `fuzz/run.sh` makes it on `cmin` and unpacks it
//! before a run): thousands of small files would otherwise be most of the
//! repository's files. The regressions are committed as files, by name.
//!
//! The corpora are sampled (every input up to [`PER_TARGET`] per target, in
//! name order, a fixed spread beyond) to keep a debug run short; set
//! `XENOLOG_FUZZ_CORPUS=all` to replay every input. The regressions always
//! run in full.

use std::io::Read;
use std::path::{Path, PathBuf};

use xenolog_tests::fuzzing::TARGETS;

const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz");

/// Most corpus inputs run per target in a debug build.
const PER_TARGET: usize = 40;

/// One input: its file name and bytes.
type Input = (String, Vec<u8>);

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

/// The committed corpus archive of `target`.
fn archive(target: &str) -> PathBuf {
    Path::new(FUZZ)
        .join("corpus")
        .join(format!("{target}.tar.zst"))
}

/// Every input of `target`'s corpus archive, in name order. The archive is
/// flat: an entry in a folder, or of another kind than a file, is an error.
fn corpus(target: &str) -> Vec<Input> {
    let path = archive(target);
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (fuzz/run.sh cmin makes it)", path.display()));
    let zstd = ruzstd::decoding::StreamingDecoder::new(std::io::BufReader::new(file))
        .unwrap_or_else(|e| panic!("{}: not zstd: {e}", path.display()));
    let mut tar = tar::Archive::new(zstd);
    let mut out = Vec::new();
    for entry in tar
        .entries()
        .unwrap_or_else(|e| panic!("{}: not a tar: {e}", path.display()))
    {
        let mut entry = entry.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = entry
            .path()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .to_string_lossy()
            .into_owned();
        assert!(
            entry.header().entry_type() == tar::EntryType::Regular && !name.contains('/'),
            "{}: {name} is not a file at the top of the archive",
            path.display()
        );
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .unwrap_or_else(|e| panic!("{}: {name}: {e}", path.display()));
        out.push((name, bytes));
    }
    out.sort();
    out
}

/// At most `n` of `all`, spread evenly (the first, and every k-th).
fn sample<T>(all: Vec<T>, n: usize) -> Vec<T> {
    if all.len() <= n {
        return all;
    }
    let step = all.len().div_ceil(n);
    all.into_iter().step_by(step).collect()
}

/// Run every input of `inputs` through `target`'s harness; `kind` names them
/// in a failure.
fn replay(kind: &str, target: &str, inputs: Vec<Input>) -> usize {
    let harness = TARGETS
        .iter()
        .find(|(t, _)| *t == target)
        .map(|(_, h)| *h)
        .expect("a target of TARGETS");
    let n = inputs.len();
    for (name, bytes) in inputs {
        let caught = std::panic::catch_unwind(|| harness(&bytes));
        assert!(
            caught.is_ok(),
            "fuzz {kind} input {name} of target {target} fails its harness"
        );
    }
    n
}

#[test]
fn every_fuzz_target_has_a_committed_corpus() {
    for (target, _) in TARGETS {
        let n = corpus(target).len();
        assert!(n > 0, "fuzz/corpus/{target}.tar.zst is empty");
    }
}

/// The corpus is one archive per target and nothing else: no loose corpus
/// file is committed under `fuzz/corpus/` (checked against git's index when
/// the tests run in a git checkout).
#[test]
fn the_fuzz_corpus_is_committed_as_one_archive_per_target() {
    let mut want: Vec<String> = TARGETS
        .iter()
        .map(|(t, _)| format!("{t}.tar.zst"))
        .collect();
    want.sort();
    for name in &want {
        let path = Path::new(FUZZ).join("corpus").join(name);
        assert!(path.is_file(), "{} is missing", path.display());
    }
    if let Some(files) = crate::git_tracked(Path::new(FUZZ), "corpus") {
        let mut got: Vec<String> = files
            .iter()
            .map(|p| p.trim_start_matches("corpus/").to_owned())
            .collect();
        got.sort();
        assert_eq!(got, want, "fuzz/corpus/ in git");
    }
}

#[test]
fn the_committed_fuzz_corpora_pass_their_harnesses() {
    let all = std::env::var("XENOLOG_FUZZ_CORPUS").is_ok_and(|v| v == "all");
    let (mut ran, mut held) = (0, 0);
    for (target, _) in TARGETS {
        let inputs = corpus(target);
        held += inputs.len();
        let picked = if all {
            inputs
        } else {
            sample(inputs, PER_TARGET)
        };
        ran += replay("corpus", target, picked);
    }
    eprintln!("replayed {ran} of the {held} corpus inputs");
    assert!(ran >= TARGETS.len(), "only {ran} corpus inputs ran");
}

#[test]
fn every_fuzz_regression_input_passes_its_harness() {
    let mut ran = 0;
    for (target, _) in TARGETS {
        let inputs = files(&Path::new(FUZZ).join("regressions").join(target))
            .into_iter()
            .map(|f| {
                let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                (f.display().to_string(), bytes)
            })
            .collect();
        ran += replay("regression", target, inputs);
    }
    eprintln!("replayed {ran} regression inputs");
    assert!(ran > 0, "no regression input in fuzz/regressions");
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
    let version = xenolog_tests::fuzzing::format_of(input[0]);
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
