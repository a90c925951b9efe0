//! The one integration-test binary of `xenolog-tests` (see the crate docs).

mod golden;
mod properties;
