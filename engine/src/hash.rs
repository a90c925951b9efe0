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
/// [`state_hash`] of its postcard encoding, computed without encoding again
/// the content it shares with every other state of its battle
/// ([`crate::shared::Shared`], whose encoding is cached), and without
/// hashing again the parts of the encoding that are the same as in the
/// state this thread hashed last ([`tree_hash`]).
pub fn hash_state<S: serde::Serialize>(state: &S, rng_draws: u64) -> Hash16 {
    let buf = std::rc::Rc::new(std::cell::RefCell::new(Vec::with_capacity(1024)));
    // Invariant: the game types are plain serde data (see session::encode).
    let splices = crate::shared::encode_spliced(state, &buf).expect("game types always encode");
    let outer = buf.borrow();
    // The whole encoding, the cached parts copied in (a copy is far cheaper
    // than hashing), then the stream position: what `state_hash` hashes.
    let total = outer.len()
        + splices
            .iter()
            .map(|s| s.encoded.encoded().bytes.len())
            .sum::<usize>()
        + 8;
    let mut whole = Vec::with_capacity(total);
    let mut from = 0;
    for s in &splices {
        whole.extend_from_slice(&outer[from..s.at]);
        whole.extend_from_slice(&s.encoded.encoded().bytes);
        from = s.at;
    }
    whole.extend_from_slice(&outer[from..]);
    whole.extend_from_slice(&rng_draws.to_le_bytes());
    cut(tree_hash(&whole))
}

/// BLAKE3 of `input` (the same value as `blake3::hash`), reusing the
/// chaining values of the subtrees that are byte for byte the same, at the
/// same place, as in the input this thread hashed last.
///
/// BLAKE3 is a tree over 1 KiB chunks: a chunk's chaining value depends only
/// on its bytes and its index, a parent's only on its two children. The
/// state after a command differs from the one before in a few places (the
/// groups a command touched, the deck, the card), so most of its chunks, and
/// the subtrees made of them, have the chaining values they had: only the
/// changed chunks and the parents above them are hashed again. The cache is
/// checked against the bytes themselves, so it is never wrong, whichever
/// state, battle or game came before; it only misses (then this costs what
/// `blake3::hash` costs, plus a comparison).
pub fn tree_hash(input: &[u8]) -> blake3::Hash {
    if input.len() <= blake3::CHUNK_LEN {
        return blake3::hash(input);
    }
    thread_local! {
        static LAST: std::cell::RefCell<TreeCache> = std::cell::RefCell::new(TreeCache::default());
    }
    LAST.with(|last| {
        let Ok(mut last) = last.try_borrow_mut() else {
            return blake3::hash(input);
        };
        let last = &mut *last;
        last.next.clear();
        let n = input.len();
        let left = blake3::hazmat::left_subtree_len(n as u64) as usize;
        let l = last.cv(input, 0, left);
        let r = last.cv(input, left, n - left);
        let root = blake3::hazmat::merge_subtrees_root(&l, &r, blake3::hazmat::Mode::Hash);
        std::mem::swap(&mut last.cvs, &mut last.next);
        last.bytes.clear();
        last.bytes.extend_from_slice(input);
        root
    })
}

/// The last input [`tree_hash`] hashed and the chaining values of its
/// subtrees, by (offset, length).
#[derive(Default)]
struct TreeCache {
    bytes: Vec<u8>,
    cvs: std::collections::HashMap<(usize, usize), blake3::hazmat::ChainingValue>,
    /// The chaining values of the input being hashed (they become `cvs`).
    next: std::collections::HashMap<(usize, usize), blake3::hazmat::ChainingValue>,
}

impl TreeCache {
    /// The chaining value of the subtree of `input` at `off`, `len` bytes
    /// long (a subtree of the standard tree: `len` split by
    /// `left_subtree_len` down to chunks).
    fn cv(&mut self, input: &[u8], off: usize, len: usize) -> blake3::hazmat::ChainingValue {
        use blake3::hazmat::{HasherExt, Mode, left_subtree_len, merge_subtrees_non_root};
        let part = &input[off..off + len];
        let same = self.bytes.get(off..off + len) == Some(part);
        if same && let Some(cv) = self.cvs.get(&(off, len)).copied() {
            self.next.insert((off, len), cv);
            return cv;
        }
        // Nothing of it is as before (the usual case for the changed end of
        // an input): one `update` of the whole subtree, which hashes several
        // chunks at once with the processor's vector instructions.
        let chunk = blake3::CHUNK_LEN;
        let cv = if len <= chunk || !self.any_chunk_same(input, off, len) {
            let mut h = blake3::Hasher::new();
            h.set_input_offset(off as u64);
            h.update(part);
            h.finalize_non_root()
        } else {
            let left = left_subtree_len(len as u64) as usize;
            let l = self.cv(input, off, left);
            let r = self.cv(input, off + left, len - left);
            merge_subtrees_non_root(&l, &r, Mode::Hash)
        };
        self.next.insert((off, len), cv);
        cv
    }

    /// Whether any whole chunk of the subtree at `off` is as before.
    fn any_chunk_same(&self, input: &[u8], off: usize, len: usize) -> bool {
        let chunk = blake3::CHUNK_LEN;
        (off..off + len).step_by(chunk).any(|at| {
            let end = (at + chunk).min(off + len);
            self.bytes.get(at..end) == Some(&input[at..end])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::tree_hash;
    use crate::rng::SplitMix64;

    /// Every length around the chunk and subtree edges, and inputs that
    /// differ from the one before in one byte, in a grown or shortened
    /// tail, in a run moved along, or in everything: `tree_hash` always
    /// equals `blake3::hash`, whatever its cache holds.
    #[test]
    fn tree_hash_is_blake3_whatever_was_hashed_before() {
        let mut rng = SplitMix64(29);
        let mut byte = move || rng.next_u64() as u8;
        let c = blake3::CHUNK_LEN;
        let lens = [
            0,
            1,
            c - 1,
            c,
            c + 1,
            2 * c,
            2 * c + 1,
            3 * c - 7,
            4 * c,
            4 * c + 1,
            7 * c + 500,
            8 * c,
            9 * c + 3,
            17 * c + 1,
            33 * c,
        ];
        let mut input: Vec<u8> = Vec::new();
        for &len in &lens {
            // A fresh input of this length.
            input = (0..len).map(|_| byte()).collect();
            assert_eq!(tree_hash(&input), blake3::hash(&input), "fresh {len}");
            // The same input again (everything from the cache).
            assert_eq!(tree_hash(&input), blake3::hash(&input), "again {len}");
            if len == 0 {
                continue;
            }
            // One byte changed, at the start, the middle and the end.
            for at in [0, len / 2, len - 1] {
                input[at] ^= 0x5a;
                assert_eq!(tree_hash(&input), blake3::hash(&input), "{len} at {at}");
            }
            // A byte inserted in the middle: everything after it moves.
            input.insert(len / 2, byte());
            assert_eq!(tree_hash(&input), blake3::hash(&input), "{len} inserted");
            // The tail grown by a chunk and a bit, then cut back.
            input.extend((0..c + 3).map(|_| byte()));
            assert_eq!(tree_hash(&input), blake3::hash(&input), "{len} grown");
            input.truncate(len);
            assert_eq!(tree_hash(&input), blake3::hash(&input), "{len} cut");
        }
        // Two inputs hashed in turn (two battles on one thread).
        let other: Vec<u8> = (0..5 * c + 9).map(|_| byte()).collect();
        for _ in 0..3 {
            assert_eq!(tree_hash(&other), blake3::hash(&other));
            assert_eq!(tree_hash(&input), blake3::hash(&input));
        }
    }

    /// A state hashed with its shared parts spliced in and its unchanged
    /// chunks from the cache hashes as its whole encoding, after every
    /// command of an Alien Invasion battle (checked there with the
    /// session's own check, `verify`, too).
    #[test]
    fn a_played_invasion_battle_verifies_with_the_cached_tree() {
        use crate::games::invasion::Invasion;
        use crate::{Game, Session};
        let mut s = Session::<Invasion>::new(7, Default::default()).expect("sets up");
        let mut rng = SplitMix64(7);
        for _ in 0..150 {
            if let Some(step) = Invasion::automatic(s.state()) {
                s.play(crate::Actor::SYSTEM, &step, None)
                    .expect("its own step");
                continue;
            }
            let mut legal = Invasion::legal(s.state());
            if legal.is_empty() {
                break;
            }
            let (actor, command) = legal.swap_remove(rng.below(legal.len()));
            s.play(actor, &command, None).expect("legal");
            let bytes = postcard::to_allocvec(s.state()).expect("encodes");
            let rec = s.records().last().expect("an entry");
            assert_eq!(rec.state_hash, super::state_hash(&bytes, rec.rng_after));
        }
        assert!(s.verify().ok());
    }
}
