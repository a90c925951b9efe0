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
//! [`crate::hash::hash_state`] encodes a state with each `Shared` spliced in
//! from that cache: its bytes are not produced again (and
//! [`crate::hash::tree_hash`] does not hash again the parts of a state that
//! are as in the state hashed before).

use std::cell::RefCell;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeTuple, Serializer};

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
            // The plain encoding of the value, with no splicing of any
            // `Shared` inside it.
            let bytes = SPLICES.with(|s| {
                let outer = s.borrow_mut().take();
                let bytes = postcard::to_allocvec(&self.0.value);
                *s.borrow_mut() = outer;
                bytes
            });
            // Invariant: the game types are plain serde data (see session::encode).
            let bytes = bytes.expect("game types always encode");
            Encoded { bytes }
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

/// A place in an encoding where a cached one goes.
pub(crate) struct Splice {
    /// How many bytes of the outer encoding come before it.
    pub(crate) at: usize,
    pub(crate) encoded: Arc<dyn AsEncoded>,
}

/// Type-erased access to a [`Shared`]'s cached encoding.
pub(crate) trait AsEncoded {
    fn encoded(&self) -> &Encoded;
}

impl<T: Serialize> AsEncoded for Inner<T> {
    fn encoded(&self) -> &Encoded {
        // Invariant: set by `Shared::encoded` before the splice is recorded.
        self.encoded.get().expect("encoded before it is spliced")
    }
}

thread_local! {
    /// While [`crate::hash::hash_state`] encodes a state: the buffer the
    /// encoding goes into and the splices made so far.
    static SPLICES: RefCell<Option<Splicing>> = const { RefCell::new(None) };
}

pub(crate) struct Splicing {
    /// The outer encoding so far (shared with its postcard flavor).
    buf: Rc<RefCell<Vec<u8>>>,
    splices: Vec<Splice>,
}

/// Encode `value` into `buf` with every [`Shared`] in it left out and noted
/// as a splice instead; the splices are returned in order.
pub(crate) fn encode_spliced<S: Serialize>(
    value: &S,
    buf: &Rc<RefCell<Vec<u8>>>,
) -> Result<Vec<Splice>, postcard::Error> {
    let outer = SPLICES.with(|s| {
        s.borrow_mut().replace(Splicing {
            buf: buf.clone(),
            splices: Vec::new(),
        })
    });
    // Put the outer state back even if serializing panics.
    struct Restore(Option<Option<Splicing>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(outer) = self.0.take() {
                SPLICES.with(|s| *s.borrow_mut() = outer);
            }
        }
    }
    let mut restore = Restore(Some(outer));
    let done = postcard::serialize_with_flavor(value, Flavor(buf.clone()));
    let outer = restore.0.take().flatten();
    let mine = SPLICES.with(|s| std::mem::replace(&mut *s.borrow_mut(), outer));
    done?;
    Ok(mine.map(|m| m.splices).unwrap_or_default())
}

/// A postcard flavor writing into a shared buffer, so a [`Shared`] met on
/// the way can tell how many bytes come before it.
struct Flavor(Rc<RefCell<Vec<u8>>>);

impl postcard::ser_flavors::Flavor for Flavor {
    type Output = ();
    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        self.0.borrow_mut().push(data);
        Ok(())
    }
    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        self.0.borrow_mut().extend_from_slice(data);
        Ok(())
    }
    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

impl<T: Serialize + 'static> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let spliced = SPLICES.with(|s| s.borrow().is_some());
        if !spliced {
            return self.0.value.serialize(serializer);
        }
        self.encoded();
        SPLICES.with(|s| {
            if let Some(sp) = s.borrow_mut().as_mut() {
                let at = sp.buf.borrow().len();
                sp.splices.push(Splice {
                    at,
                    encoded: self.0.clone() as Arc<dyn AsEncoded>,
                });
            }
        });
        // Nothing is written here: postcard writes nothing for an empty
        // tuple, and the cached bytes go in at this place when hashing.
        serializer.serialize_tuple(0)?.end()
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
