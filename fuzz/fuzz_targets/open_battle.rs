#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| xenolog_tests::fuzzing::open_battle(data));
