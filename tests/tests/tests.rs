//! The one integration-test binary of `xenolog-tests` (see the crate docs).

mod checker;
mod compat;
mod conformance;
mod fuzz_corpus;
mod golden;
mod hexwar_anchor;
mod illegal;
mod properties;
