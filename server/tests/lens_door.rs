//! Principle 14 by construction: outside `lens.rs` (and the store, which
//! keeps whole battles), no server code may call the `Battle` methods that
//! show everything (`Viewer::All`) or the meta (it holds the seed). A new
//! call elsewhere fails this test, so every byte about a battle in play is
//! built from a seat's view (DESIGN.md section 6).

use std::path::Path;

use xenolog_saves::db::source;

const WHOLE: &[&str] = &[
    ".state_json(",
    ".entry_texts(",
    ".entry_facts(",
    ".records()",
    ".meta()",
    ".scene_at(",
    ".legal()",
    "Viewer::All",
];

#[test]
fn only_the_lens_turns_a_battle_into_bytes() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = source::rust_files(&src).unwrap();
    assert!(files.len() >= 5, "the sources are found");
    let mut found = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
        if rel == "lens.rs" || rel.starts_with("store") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in text.lines().enumerate() {
            for w in WHOLE {
                if line.contains(w) && !line.trim_start().starts_with("//") {
                    found.push(format!("{rel}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "whole-battle calls outside lens.rs:\n{}",
        found.join("\n")
    );
}
