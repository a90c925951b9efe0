//! The one integration-test binary of `xenolog-tests` (see the crate docs).

mod checker;
mod compat;
mod conformance;
mod golden;
mod illegal;
mod properties;
