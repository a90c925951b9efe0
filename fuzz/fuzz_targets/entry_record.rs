#![no_main]
// The harness (no panic, errors in words, a decoded entry written back reads
// as itself), and on every input the hand-written decoder against serde's
// reference: the same record or the same error (`codec::decoders_agree`;
// its corpus is replayed by `schema/tests/decoders.rs`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    xenolog_tests::fuzzing::entry_record(data);
    if let [rules, seq, bytes @ ..] = data
        && let Err(why) =
            xenolog_schema::codec::decoders_agree(u64::from(*seq), bytes, u32::from(*rules))
    {
        panic!("{why}");
    }
});
