//! The one integration-test binary of `xenolog-tests` (see the crate docs).

mod checker;
mod golden;
mod properties;
