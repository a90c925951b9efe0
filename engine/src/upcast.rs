//! Reading commands and events recorded under older rules versions.
//!
//! Every entry records the rules version that decided it
//! ([`crate::EntryRecord::rules_version`]), and its command and events are
//! stored in the layout of that version. A game reads them back with
//! [`crate::Game::decode_command`] and [`crate::Game::decode_events`], which
//! dispatch on that version: today's layout is read directly, and an older one
//! goes through an *upcaster*, as in cqrs-es, the stored form kept apart from
//! the domain form.
//!
//! ## When a rules version changes a layout
//!
//! Postcard is not self-describing: old bytes read with a new layout either
//! fail or, worse, read as something else. So a game that changes the layout
//! of its command or event types in rules version `N`:
//!
//! 1. keeps the old types, frozen, in a module named after the last version
//!    that wrote them (e.g. `mod v1 { pub enum RaceEventV1 { .. } }`), with a
//!    conversion into today's type;
//! 2. overrides `decode_events` (or `decode_command`) to read versions before
//!    `N` as the old type and convert, and everything else with [`current`];
//! 3. keeps a test that decodes bytes recorded under the old version.
//!
//! The state needs no upcaster: snapshots are a cache, stored with the rules
//! version that wrote them, and one of another version is dropped and rebuilt
//! by folding the (upcast) events. A change of the state's layout, like any
//! rule change, makes `verify` report the entries recorded under the old
//! version as "recorded under rules version X, now Y", never as tampering.

use serde::de::DeserializeOwned;

/// Read a whole postcard value: bytes left over mean the layout is not the
/// one the bytes were written in, which must be an error, not a guess.
pub fn exact<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let (value, rest) = postcard::take_from_bytes::<T>(bytes).map_err(|e| e.to_string())?;
    if rest.is_empty() {
        Ok(value)
    } else {
        Err(format!(
            "{} bytes left over: the layout is not the one it was written in",
            rest.len()
        ))
    }
}

/// Why bytes of a newer rules version cannot be read: `game` is the game's
/// name and `ours` this build's rules version of it (`G::NAME`,
/// `G::RULES_VERSION`; passed in, so that this module does not import the
/// `Game` trait whose default methods call it).
pub fn newer(game: &str, ours: u32, rules_version: u32) -> String {
    format!(
        "it was recorded under rules version {rules_version} of {game}, newer than this build's \
         version {ours}: update Xenolog to read it"
    )
}

/// Read bytes recorded under `rules_version` in today's layout (`ours`, the
/// build's rules version of `game`): right for today's version and for older
/// ones whose layout did not change; a newer version is refused.
pub fn current<T: DeserializeOwned>(
    game: &str,
    ours: u32,
    rules_version: u32,
    bytes: &[u8],
) -> Result<T, String> {
    if rules_version > ours {
        return Err(newer(game, ours, rules_version));
    }
    exact(bytes)
}
