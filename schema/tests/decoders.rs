//! The hand-written entry decoder against serde's reference on every input of
//! the entry decoder's fuzz corpus (`fuzz/corpus/entry_record.tar.zst`) and
//! its regressions (`fuzz/regressions/entry_record/`, if any): the same
//! record or the same error in the same words (`codec::decoders_agree`), as
//! the fuzz target (`fuzz/fuzz_targets/entry_record.rs`) asks of every input
//! it makes. An input is the harness's: byte 0 the battle's rules version,
//! byte 1 the entry's number, the rest the stored bytes.

use std::io::Read;
use std::path::Path;

use xenolog_schema::codec::decoders_agree;

const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz");

fn check(name: &str, data: &[u8]) {
    if let [rules, seq, bytes @ ..] = data {
        decoders_agree(u64::from(*seq), bytes, u32::from(*rules))
            .unwrap_or_else(|why| panic!("fuzz input {name}: {why}"));
    }
}

#[test]
fn the_two_entry_decoders_agree_on_every_input_of_the_fuzz_corpus() {
    let path = Path::new(FUZZ).join("corpus/entry_record.tar.zst");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let zstd = ruzstd::decoding::StreamingDecoder::new(std::io::BufReader::new(file))
        .unwrap_or_else(|e| panic!("{}: not zstd: {e}", path.display()));
    let mut tar = tar::Archive::new(zstd);
    let mut n = 0;
    for entry in tar.entries().expect("a tar") {
        let mut entry = entry.expect("an entry of the archive");
        let name = entry.path().expect("a name").to_string_lossy().into_owned();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).expect("its bytes");
        check(&name, &data);
        n += 1;
    }
    assert!(n > 100, "only {n} inputs in {}", path.display());
    let regressions = Path::new(FUZZ).join("regressions/entry_record");
    if let Ok(dir) = std::fs::read_dir(&regressions) {
        for f in dir.flatten() {
            let data = std::fs::read(f.path()).expect("a regression input");
            check(&f.path().display().to_string(), &data);
        }
    }
}
