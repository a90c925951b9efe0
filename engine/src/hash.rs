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
///
/// The parts are laid end to end in a buffer this thread keeps and hashed
/// in one call: BLAKE3 of the whole is the same whether it is given at once
/// or in parts, and a dozen small `update`s (one per die) cost more than
/// the hashing itself on a short entry (issue 29;
/// `tests::chain_hash_in_one_buffer_equals_the_parts_streamed`).
pub fn chain_hash(parent_chain: &Hash16, rec: &EntryRecord, battle_rules: u32) -> Hash16 {
    thread_local! {
        static BUF: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut b = BUF.with(|b| b.take());
    b.clear();
    b.extend_from_slice(parent_chain);
    let parent = rec.parent.map_or(u64::MAX, |p| p);
    b.extend_from_slice(&parent.to_le_bytes());
    b.extend_from_slice(&rec.branch.to_le_bytes());
    b.extend_from_slice(&[rec.actor.0, u8::from(rec.entered)]);
    b.extend_from_slice(&(rec.command().len() as u64).to_le_bytes());
    b.extend_from_slice(rec.command());
    b.extend_from_slice(&(rec.events().len() as u64).to_le_bytes());
    b.extend_from_slice(rec.events());
    let dice = rec.dice();
    b.extend_from_slice(&(dice.len() as u64).to_le_bytes());
    // Each die as its two bytes, sides then value: how the record keeps them.
    b.extend_from_slice(dice.as_bytes());
    b.extend_from_slice(&rec.rng_after.to_le_bytes());
    b.extend_from_slice(&rec.state_hash);
    if rec.rules_version != battle_rules {
        b.extend_from_slice(b"\0rules");
        b.extend_from_slice(&rec.rules_version.to_le_bytes());
    }
    let hash = cut(blake3::hash(&b));
    // A long entry's buffer is not kept for the life of the thread.
    if b.capacity() <= 64 * 1024 {
        BUF.with(|c| c.set(b));
    }
    hash
}

/// [`chain_hash`] as it was written before issue 29: each part given to
/// the hasher in turn. The reference the one-buffer version must equal.
#[cfg(test)]
fn chain_hash_streamed(parent_chain: &Hash16, rec: &EntryRecord, battle_rules: u32) -> Hash16 {
    let mut h = blake3::Hasher::new();
    h.update(parent_chain);
    let parent = rec.parent.map_or(u64::MAX, |p| p);
    h.update(&parent.to_le_bytes());
    h.update(&rec.branch.to_le_bytes());
    h.update(&[rec.actor.0, u8::from(rec.entered)]);
    h.update(&(rec.command().len() as u64).to_le_bytes());
    h.update(rec.command());
    h.update(&(rec.events().len() as u64).to_le_bytes());
    h.update(rec.events());
    h.update(&(rec.dice().len() as u64).to_le_bytes());
    for d in rec.dice() {
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
/// ([`crate::shared::Shared`], whose encoding is cached).
///
/// Two ways give that value; the cheaper one for the state's size is used
/// (measured by instructions a command, BENCHMARKS.md, issue 29):
/// - a small state ([`PREFIX_BELOW`] bytes or fewer) whose shared content
///   comes first starts from the hasher that has taken that content in
///   ([`hash_state_prefix`]) and hashes only the rest;
/// - any other state is hashed whole by [`tree_hash`], which does not hash
///   again the parts of the encoding that are the same as in the state this
///   thread hashed last ([`hash_state_tree`]).
pub fn hash_state<S: serde::Serialize>(state: &S, rng_draws: u64) -> Hash16 {
    with_encoded(state, rng_draws, |whole, lead| match lead {
        Some(lead) if whole.len() <= PREFIX_BELOW => prefix(whole, lead),
        _ => cut(tree_hash(whole)),
    })
}

/// The size of a state's whole encoding (with the stream position) up to
/// which [`hash_state`] starts from the hasher of its leading shared
/// content rather than hashing it through the tree cache.
pub const PREFIX_BELOW: usize = 4 * blake3::CHUNK_LEN;

/// [`hash_state`] always by the leading shared content's hasher (when the
/// state starts with shared content; otherwise BLAKE3 of the whole).
#[doc(hidden)]
pub fn hash_state_prefix<S: serde::Serialize>(state: &S, rng_draws: u64) -> Hash16 {
    with_encoded(state, rng_draws, |whole, lead| match lead {
        Some(lead) => prefix(whole, lead),
        None => state_hash_of_whole(whole),
    })
}

/// [`hash_state`] always through [`tree_hash`].
#[doc(hidden)]
pub fn hash_state_tree<S: serde::Serialize>(state: &S, rng_draws: u64) -> Hash16 {
    with_encoded(state, rng_draws, |whole, _| cut(tree_hash(whole)))
}

fn state_hash_of_whole(whole: &[u8]) -> Hash16 {
    cut(blake3::hash(whole))
}

/// Call `f` with the state's whole encoding followed by the stream
/// position (what [`state_hash`] hashes), and the shared content the
/// encoding starts with, if it starts with some. The buffer is this
/// thread's own, reused from state to state.
fn with_encoded<S: serde::Serialize>(
    state: &S,
    rng_draws: u64,
    f: impl FnOnce(&[u8], Option<&dyn crate::shared::AsEncoded>) -> Hash16,
) -> Hash16 {
    use crate::encode::Encoder;
    thread_local! {
        static BUF: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut buf = BUF.with(|b| b.take());
    buf.clear();
    let mut enc = Encoder::with_buffer(buf);
    // Invariant: the game types are plain serde data (see session::encode).
    serde::Serialize::serialize(state, &mut enc).expect("game types always encode");
    enc.out.extend_from_slice(&rng_draws.to_le_bytes());
    let lead = enc.lead.as_deref();
    let hash = f(&enc.out, lead);
    BUF.with(|b| b.set(enc.out));
    hash
}

/// The hash of `whole` that starts with `lead`'s encoding, from the hasher
/// that has already taken that encoding in.
fn prefix(whole: &[u8], lead: &dyn crate::shared::AsEncoded) -> Hash16 {
    let lead = lead.encoded();
    let mut h = lead.hasher().clone();
    h.update(&whole[lead.bytes.len()..]);
    cut(h.finalize())
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
        // The root is node 1; its children are nodes 2 and 3.
        let l = last.cv(input, 0, left, 2);
        let r = last.cv(input, left, n - left, 3);
        let root = blake3::hazmat::merge_subtrees_root(&l, &r, blake3::hazmat::Mode::Hash);
        std::mem::swap(&mut last.cvs, &mut last.next);
        last.bytes.clear();
        last.bytes.extend_from_slice(input);
        root
    })
}

/// The last input [`tree_hash`] hashed and the chaining values of its
/// subtrees, by node number: the root is 1, the children of node `k` are
/// `2k` and `2k + 1` (so a tree of `c` chunks numbers its nodes below
/// `4c`). Each is kept with its offset and length, and used only for the
/// subtree at that same place: a plain vector, no hashing of keys.
#[derive(Default)]
struct TreeCache {
    bytes: Vec<u8>,
    cvs: Vec<Option<Subtree>>,
    /// The chaining values of the input being hashed (they become `cvs`).
    next: Vec<Option<Subtree>>,
}

/// A subtree's place in its input and its chaining value.
#[derive(Clone, Copy)]
struct Subtree {
    off: usize,
    len: usize,
    cv: blake3::hazmat::ChainingValue,
}

impl TreeCache {
    /// The chaining value of the subtree of `input` at `off`, `len` bytes
    /// long (a subtree of the standard tree: `len` split by
    /// `left_subtree_len` down to chunks), which is node `node` of the tree.
    fn cv(
        &mut self,
        input: &[u8],
        off: usize,
        len: usize,
        node: usize,
    ) -> blake3::hazmat::ChainingValue {
        use blake3::hazmat::{HasherExt, Mode, left_subtree_len, merge_subtrees_non_root};
        let part = &input[off..off + len];
        let cached = self
            .cvs
            .get(node)
            .copied()
            .flatten()
            .filter(|t| t.off == off && t.len == len);
        if let Some(t) = cached
            && self.bytes.get(off..off + len) == Some(part)
        {
            self.keep(node, t);
            return t.cv;
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
            let l = self.cv(input, off, left, 2 * node);
            let r = self.cv(input, off + left, len - left, 2 * node + 1);
            merge_subtrees_non_root(&l, &r, Mode::Hash)
        };
        self.keep(node, Subtree { off, len, cv });
        cv
    }

    /// Keep `t` as node `node` of the input being hashed.
    fn keep(&mut self, node: usize, t: Subtree) {
        if self.next.len() <= node {
            self.next.resize(node + 1, None);
        }
        self.next[node] = Some(t);
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

    /// Entries of every shape (no parent or one, empty and long commands
    /// and events, events past a BLAKE3 chunk and past the buffer kept,
    /// no die or many, entered or not, the battle's rules version or
    /// another): the chain value from one buffer is the one from the parts
    /// given to the hasher in turn, so every recorded chain still verifies.
    #[test]
    fn chain_hash_in_one_buffer_equals_the_parts_streamed() {
        use super::{chain_hash, chain_hash_streamed};
        use crate::basics::Actor;
        use crate::record::{EntryFields, EntryRecord};
        use crate::rng::Die;
        let mut rng = SplitMix64(41);
        let mut n = |below: u64| (rng.next_u64() % below) as usize;
        for case in 0..400 {
            let len = |n: &mut dyn FnMut(u64) -> usize| match n(4) {
                0 => 0,
                1 => n(64),
                2 => n(3000),
                _ => 60_000 + n(20_000),
            };
            let command: Vec<u8> = (0..len(&mut n)).map(|i| (i * 7 + case) as u8).collect();
            let events: Vec<u8> = (0..len(&mut n)).map(|i| (i * 13 + case) as u8).collect();
            let dice = (0..n(12))
                .map(|i| Die {
                    sides: 6,
                    value: 1 + (i % 6) as u8,
                })
                .collect();
            let rec = EntryRecord::from(EntryFields {
                parent: (case % 3 != 0).then_some(case as u64),
                branch: (case % 5) as u32,
                actor: Actor((case % 4) as u8),
                command,
                events,
                dice,
                entered: case % 7 == 0,
                rng_after: case as u64 * 3,
                state_hash: [case as u8; 16],
                chain: [0; 16],
                rules_version: 1 + (case % 2) as u32,
            });
            let parent = [(case * 11) as u8; 16];
            assert_eq!(
                chain_hash(&parent, &rec, 1),
                chain_hash_streamed(&parent, &rec, 1),
                "case {case}"
            );
        }
    }

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

    /// Along a bot-played battle of every game: every state, command and
    /// event list the engine's encoder writes is postcard's bytes, and the
    /// two ways of hashing a state (from the leading shared content's
    /// hasher, through the tree cache) and the one `hash_state` picks all
    /// give `state_hash` of postcard's encoding.
    #[test]
    fn every_game_s_states_commands_and_events_encode_as_postcard_and_both_hashers_agree() {
        use crate::games::{alien, dimx, invasion, race, saucers};
        fn check<G: crate::Game>(config: G::Config, commands: usize) {
            use super::{hash_state, hash_state_prefix, hash_state_tree, state_hash};
            let mut s = crate::Session::<G>::new(11, config).expect("sets up");
            let mut rng = SplitMix64(11);
            let mut played = 0;
            while played < commands {
                let (actor, command) = match s.due() {
                    Some(step) => (crate::Actor::SYSTEM, step),
                    None => {
                        let mut legal = G::legal(s.state());
                        if legal.is_empty() {
                            break;
                        }
                        legal.swap_remove(rng.below(legal.len()))
                    }
                };
                let id = s.play(actor, &command, None).expect("legal");
                played += 1;
                let rec = s.records()[id as usize].clone();
                let plain = postcard::to_allocvec(s.state()).expect("encodes");
                let ours = crate::encode::to_vec(s.state()).expect("encodes");
                assert_eq!(ours, plain, "{} state after entry {id}", G::ID);
                let want = state_hash(&plain, rec.rng_after);
                assert_eq!(rec.state_hash, want, "{} entry {id}", G::ID);
                assert_eq!(hash_state(s.state(), rec.rng_after), want);
                assert_eq!(hash_state_prefix(s.state(), rec.rng_after), want);
                assert_eq!(hash_state_tree(s.state(), rec.rng_after), want);
                assert_eq!(rec.command(), postcard::to_allocvec(&command).unwrap());
                let events = s.events(id);
                assert_eq!(rec.events(), postcard::to_allocvec(&events).unwrap());
            }
            assert!(played > 20, "{}: only {played} commands", G::ID);
            assert!(s.verify().ok(), "{}", G::ID);
        }
        check::<alien::Alien>(Default::default(), 400);
        check::<saucers::Saucers>(Default::default(), 300);
        check::<invasion::Invasion>(Default::default(), 150);
        check::<dimx::DimX>(Default::default(), 300);
        check::<race::Race>(race::RaceConfig { target: u32::MAX }, 100);
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
