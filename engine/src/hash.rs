//! The hashes that make a battle checkable: a hash of the state after every
//! entry and a hash chain over the log, rooted in the battle's game, seed,
//! rules version and config. BLAKE3, cut to 128 bits to keep entries small.

use crate::meta::BattleMeta;
use crate::record::EntryRecord;
/// A 128-bit BLAKE3 digest (defined beside the record that holds two).
pub use crate::record::Hash16;

fn cut(h: blake3::Hash) -> Hash16 {
    let mut out = [0; 16];
    out.copy_from_slice(&h.as_bytes()[..16]);
    out
}

/// Hash of an encoded state together with the stream position.
pub fn state_hash(encoded_state: &[u8], rng_draws: u64) -> Hash16 {
    let mut h = blake3::Hasher::new();
    h.update(encoded_state);
    h.update(&rng_draws.to_le_bytes());
    cut(h.finalize())
}

/// The chain value before the first entry.
pub fn root_chain(meta: &BattleMeta) -> Hash16 {
    let mut h = blake3::Hasher::new();
    h.update(b"xenolog battle\0");
    h.update(meta.game.as_bytes());
    h.update(&[0]);
    h.update(&meta.seed.to_le_bytes());
    h.update(&meta.rules_version.to_le_bytes());
    h.update(meta.config.as_bytes());
    // Hashed only when set, so battles from before strict battles keep their chain.
    if meta.strict {
        h.update(b"\0strict");
    }
    // Hashed only when set, so every battle without a fair seed keeps its chain.
    if let Some(fair) = &meta.fair {
        h.update(b"\0fair");
        h.update(&[fair.scheme]);
        h.update(&fair.commitment);
        h.update(&(fair.nonces.len() as u64).to_le_bytes());
        for n in &fair.nonces {
            h.update(&[n.seat.0, u8::from(n.absent)]);
            h.update(&n.nonce);
        }
    }
    cut(h.finalize())
}

/// The chain value of an entry: its parent's chain and all its stored content
/// except the chain itself.
///
/// The entry's rules version is hashed only when it is not `battle_rules`,
/// the version the battle was started under (hashed once in its
/// [`root_chain`]): so entries recorded before entries carried their own
/// version keep their chain values, and changing any entry's version is
/// still caught.
pub fn chain_hash(parent_chain: &Hash16, rec: &EntryRecord, battle_rules: u32) -> Hash16 {
    let mut h = blake3::Hasher::new();
    h.update(parent_chain);
    let parent = rec.parent.map_or(u64::MAX, |p| p);
    h.update(&parent.to_le_bytes());
    h.update(&rec.branch.to_le_bytes());
    h.update(&[rec.actor.0, u8::from(rec.entered)]);
    h.update(&(rec.command.len() as u64).to_le_bytes());
    h.update(&rec.command);
    h.update(&(rec.events.len() as u64).to_le_bytes());
    h.update(&rec.events);
    h.update(&(rec.dice.len() as u64).to_le_bytes());
    for d in &rec.dice {
        h.update(&[d.sides, d.value]);
    }
    h.update(&rec.rng_after.to_le_bytes());
    h.update(&rec.state_hash);
    if rec.rules_version != battle_rules {
        h.update(b"\0rules");
        h.update(&rec.rules_version.to_le_bytes());
    }
    cut(h.finalize())
}

/// The hash of a state with the stream position: the same value as
/// [`state_hash`] of its postcard encoding, computed without encoding or
/// hashing again the content it shares with every other state of its battle
/// ([`crate::shared::Shared`], whose encoding and hasher are cached).
pub fn hash_state<S: serde::Serialize>(state: &S, rng_draws: u64) -> Hash16 {
    let buf = std::rc::Rc::new(std::cell::RefCell::new(Vec::with_capacity(1024)));
    // Invariant: the game types are plain serde data (see session::encode).
    let splices = crate::shared::encode_spliced(state, &buf).expect("game types always encode");
    let bytes = buf.borrow();
    let mut from = 0;
    let mut splices = splices.iter().peekable();
    // Content that comes first: start from the hasher that has taken it in.
    let mut h = match splices.next_if(|s| s.at == 0) {
        Some(first) => first.encoded.encoded().hasher.clone(),
        None => blake3::Hasher::new(),
    };
    for s in splices {
        h.update(&bytes[from..s.at]);
        h.update(&s.encoded.encoded().bytes);
        from = s.at;
    }
    h.update(&bytes[from..]);
    h.update(&rng_draws.to_le_bytes());
    cut(h.finalize())
}
