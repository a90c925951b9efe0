//! Content shared between states: cloned for nothing, hashed once.
//!
//! Some games keep their content in the state (Alien's base and cards, Night
//! of the Saucers' tiles and decks, Alien Invasion's scenario and factions),
//! so that a battle carries the content it was started with. That content
//! never changes during play, yet every command cloned it (the working copy
//! of `decide`, the state after the entry), encoded it and hashed it: most of
//! what a command cost in those games.
//!
//! [`Shared<T>`] holds such content behind an `Arc`: a clone is a reference
//! count. It serializes exactly as `T` does (postcard has no framing, so the
//! bytes of a state, and therefore its hash and every recorded chain, are the
//! same as before), and it keeps its own encoding, computed once.
//! The engine's encoder ([`crate::encode`], used by
//! [`crate::hash::hash_state`] and the session) copies that cached encoding
//! in instead of encoding the value again; when a small state starts with
//! shared content, its hash starts from the hasher that has already taken
//! that content in (and [`crate::hash::tree_hash`] does not hash again the
//! parts of a larger state that are as in the state hashed before).

use std::cell::{Cell, RefCell};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, OnceLock};

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

/// Content that never changes during play, shared by every state of a battle.
pub struct Shared<T>(Arc<Inner<T>>);

struct Inner<T> {
    value: T,
    /// The postcard encoding of `value`.
    encoded: OnceLock<Encoded>,
}

/// A value's encoding, cached.
pub(crate) struct Encoded {
    pub(crate) bytes: Vec<u8>,
    /// A BLAKE3 hasher that has taken in `bytes` alone, made the first time
    /// a small state starts with this value ([`crate::hash::hash_state`]).
    hasher: OnceLock<blake3::Hasher>,
}

impl Encoded {
    /// The hasher after this encoding: where a state's hash starts when
    /// this value comes first in it.
    pub(crate) fn hasher(&self) -> &blake3::Hasher {
        self.hasher.get_or_init(|| {
            let mut h = blake3::Hasher::new();
            h.update(&self.bytes);
            h
        })
    }
}

impl<T> Shared<T> {
    pub fn new(value: T) -> Self {
        Shared(Arc::new(Inner {
            value,
            encoded: OnceLock::new(),
        }))
    }

    /// Whether two handles share one value (then they are equal).
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

impl<T: Clone> Shared<T> {
    /// A copy of the value to change (setting up a battle); the change is
    /// made to this handle's own copy when others share it.
    pub fn make_mut(&mut self) -> &mut T {
        let inner = Arc::make_mut(&mut self.0);
        // The cached encoding would no longer be the value's.
        inner.encoded = OnceLock::new();
        &mut inner.value
    }
}

impl<T: Clone> Clone for Inner<T> {
    fn clone(&self) -> Self {
        Inner {
            value: self.value.clone(),
            encoded: OnceLock::new(),
        }
    }
}

impl<T: Serialize> Shared<T> {
    fn encoded(&self) -> &Encoded {
        self.0.encoded.get_or_init(|| {
            // Invariant: the game types are plain serde data (see session::encode).
            let bytes = crate::encode::to_vec(&self.0.value).expect("game types always encode");
            Encoded {
                bytes,
                hasher: OnceLock::new(),
            }
        })
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0.value
    }
}

/// Changing shared content (setting a battle up, a test's own position)
/// changes this handle's own copy: the others keep the value they had.
impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.make_mut()
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Shared::ptr_eq(self, other) || self.0.value == other.0.value
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.value.fmt(f)
    }
}

impl<T: Default> Default for Shared<T> {
    fn default() -> Self {
        Shared::new(T::default())
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Self {
        Shared::new(value)
    }
}

/// Type-erased access to a [`Shared`]'s cached encoding.
pub(crate) trait AsEncoded {
    fn encoded(&self) -> &Encoded;
}

impl<T: Serialize> AsEncoded for Inner<T> {
    fn encoded(&self) -> &Encoded {
        // Invariant: set by `Shared::encoded` before it is handed over.
        self.encoded.get().expect("encoded before it is spliced")
    }
}

thread_local! {
    /// The engine's encoder asks the `Shared` it is about to write for its
    /// cached encoding ([`request_splice`]) ...
    static REQUEST: Cell<bool> = const { Cell::new(false) };
    /// ... and the `Shared` hands it over here ([`take_splice`]).
    static OFFER: RefCell<Option<Arc<dyn AsEncoded>>> = const { RefCell::new(None) };
}

/// Called by [`crate::encode`]'s encoder just before it writes a `Shared`.
pub(crate) fn request_splice() {
    REQUEST.with(|r| r.set(true));
}

/// The cached encoding the `Shared` just written handed over, if it did.
pub(crate) fn take_splice() -> Option<Arc<dyn AsEncoded>> {
    REQUEST.with(|r| r.set(false));
    OFFER.with(|o| o.borrow_mut().take())
}

/// A `Shared`'s value as the newtype struct [`crate::encode::SPLICE`]
/// holds: written whole to any serializer (postcard, serde_json), or, asked
/// by the engine's encoder, handed over as its cached encoding.
struct Splicable<'a, T>(&'a Shared<T>);

impl<T: Serialize + 'static> Serialize for Splicable<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !REQUEST.with(|r| r.replace(false)) {
            return self.0.0.value.serialize(serializer);
        }
        self.0.encoded();
        let content = self.0.0.clone() as Arc<dyn AsEncoded>;
        OFFER.with(|o| *o.borrow_mut() = Some(content));
        // Nothing is written here: the encoder copies the cached bytes in.
        serializer.serialize_unit()
    }
}

/// Written as the value itself: postcard has no framing and serde_json
/// writes a newtype struct as its value, so a state's bytes, hash and JSON
/// are those of the plain value. The engine's encoder copies the cached
/// encoding in instead of encoding the value again.
impl<T: Serialize + 'static> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(crate::encode::SPLICE, &Splicable(self))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(Shared::new)
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::Shared;
    use crate::Game;
    use crate::hash::{hash_state, state_hash};

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Inner {
        name: String,
        cells: Vec<u32>,
    }

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Outer {
        first: Shared<Inner>,
        turn: u32,
        middle: Shared<Vec<Inner>>,
        last: Option<Shared<Inner>>,
    }

    fn inner(n: u32) -> Inner {
        Inner {
            name: format!("inner {n}"),
            // Long enough to span several BLAKE3 chunks.
            cells: (0..3000 * n).collect(),
        }
    }

    #[test]
    fn a_shared_value_encodes_exactly_as_the_value_itself() {
        let plain = inner(1);
        let shared = Shared::new(plain.clone());
        assert_eq!(
            postcard::to_allocvec(&shared).unwrap(),
            postcard::to_allocvec(&plain).unwrap()
        );
        let back: Shared<Inner> =
            postcard::from_bytes(&postcard::to_allocvec(&plain).unwrap()).unwrap();
        assert_eq!(*back, plain);
    }

    #[test]
    fn hash_state_is_the_hash_of_the_whole_encoding_wherever_the_shared_parts_are() {
        let cases = [
            Outer {
                first: Shared::new(inner(1)),
                turn: 7,
                middle: Shared::new(vec![inner(2), inner(0)]),
                last: Some(Shared::new(inner(3))),
            },
            Outer {
                first: Shared::new(inner(0)),
                turn: 300,
                middle: Shared::new(Vec::new()),
                last: None,
            },
        ];
        for case in cases {
            let bytes = postcard::to_allocvec(&case).unwrap();
            for draws in [0, 1, u64::MAX] {
                // Twice: the second time from the cached encodings.
                assert_eq!(hash_state(&case, draws), state_hash(&bytes, draws));
                assert_eq!(hash_state(&case, draws), state_hash(&bytes, draws));
            }
            // A clone shares the cache and hashes the same.
            assert_eq!(hash_state(&case.clone(), 5), state_hash(&bytes, 5));
            // Encoding a state as a whole is not disturbed by hashing.
            assert_eq!(postcard::to_allocvec(&case).unwrap(), bytes);
        }
    }

    #[test]
    fn a_changed_copy_of_shared_content_hashes_as_its_new_value() {
        let mut a = Outer {
            first: Shared::new(inner(1)),
            turn: 1,
            middle: Shared::new(vec![]),
            last: None,
        };
        let before = hash_state(&a, 0);
        let b = a.clone();
        a.first.make_mut().name = "changed".into();
        assert_ne!(hash_state(&a, 0), before);
        assert_eq!(hash_state(&b, 0), before);
        let bytes = postcard::to_allocvec(&a).unwrap();
        assert_eq!(hash_state(&a, 0), state_hash(&bytes, 0));
    }

    fn same_hash<G: Game>(config: G::Config) {
        let state = G::setup(&config).expect("the default config sets up");
        let bytes = postcard::to_allocvec(&state).unwrap();
        assert_eq!(hash_state(&state, 9), state_hash(&bytes, 9), "{}", G::ID);
    }

    #[test]
    fn every_game_s_state_hashes_as_its_encoding() {
        use crate::games::{alien, dimx, invasion, race, saucers};
        same_hash::<alien::Alien>(Default::default());
        same_hash::<saucers::Saucers>(Default::default());
        same_hash::<invasion::Invasion>(Default::default());
        same_hash::<dimx::DimX>(Default::default());
        same_hash::<race::Race>(Default::default());
    }

    /// Alien Invasion's groups are shared between the states of a battle: a
    /// command leaves the groups it does not touch shared with the state
    /// before, and every state along the way still hashes as its whole
    /// encoding.
    #[test]
    fn an_invasion_command_copies_only_the_groups_it_changes() {
        use crate::games::invasion::Invasion;
        use crate::{Actor, Session};
        let mut s = Session::<Invasion>::new(7, Default::default()).unwrap();
        let mut shared_after_a_move = false;
        for _ in 0..60 {
            let before = s.state().clone();
            let (actor, command) = match s.due() {
                Some(step) => (Actor::SYSTEM, step),
                None => match Invasion::legal(s.state()).into_iter().next() {
                    Some(legal) => legal,
                    None => break,
                },
            };
            s.play(actor, &command, None).unwrap();
            let after = s.state();
            let bytes = postcard::to_allocvec(after).unwrap();
            let draws = s.records().last().unwrap().rng_after;
            assert_eq!(hash_state(after, draws), state_hash(&bytes, draws));
            let (same, changed): (Vec<_>, Vec<_>) = before
                .groups
                .iter()
                .zip(&after.groups)
                .partition(|(a, b)| Shared::ptr_eq(a, b));
            // Shared groups are the same group.
            assert!(same.iter().all(|(a, b)| a == b));
            shared_after_a_move |= !same.is_empty() && !changed.is_empty();
        }
        assert!(shared_after_a_move, "no command kept a group shared");
    }
}
