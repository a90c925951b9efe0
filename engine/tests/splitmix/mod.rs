//! The random bots' own dice (independent of the battle's stream), shared by
//! `dimx_autoplay` and the engine benchmarks (included with `#[path]`): the
//! engine's own [`xenolog_engine::rng::SplitMix64`], so a seed names the same
//! battle whatever dependency changes.

pub use xenolog_engine::rng::SplitMix64 as SplitMix;
