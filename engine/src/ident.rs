//! A short name kept in a state (a unit's counter id, `SC1`, `K10`): cloned
//! without allocating.
//!
//! States are cloned on every command (the working copy `decide` changes,
//! the state after the entry), and a `String` in each of a state's units
//! made every clone allocate and free one string per unit (Dimension X: a
//! sixth of a command's instructions, issue 29). An [`Ident`] is a
//! reference to one copy of its text kept for the life of the process
//! (interned: each distinct name of at most [`Ident::INTERNED_LEN`] bytes is
//! kept once, up to [`Ident::INTERNED_MAX`] names), so a clone copies a
//! pointer and a drop does nothing; a longer name, or one met after that
//! many, is shared behind an `Arc` instead (a player's own scenario may name
//! a unit at length; a stream of made-up names cannot grow the table
//! without bound).
//!
//! It serializes exactly as a `String` does (serde's `str`: postcard writes
//! the length and the bytes, JSON a string), and reads from any string, so
//! changing a field from `String` to `Ident` changes no stored byte, hash or
//! recorded chain. Its `Debug` and `Display` are the string's. The table
//! changes no value: two `Ident`s are equal when their text is.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{Arc, Mutex};

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

/// A short, immutable string that clones without allocating; see the module.
#[derive(Clone)]
pub struct Ident(Repr);

#[derive(Clone)]
enum Repr {
    /// The process's one copy of this text.
    Interned(&'static str),
    /// Too long, or the table is full.
    Shared(Arc<str>),
}

/// The interned names.
static TABLE: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

impl Ident {
    /// The longest name kept in the table.
    pub const INTERNED_LEN: usize = 64;
    /// How many distinct names the table keeps at most.
    pub const INTERNED_MAX: usize = 1 << 16;

    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Interned(s) => s,
            Repr::Shared(s) => s,
        }
    }

    /// Whether this name is kept in the process's table (not an `Arc`).
    pub fn is_interned(&self) -> bool {
        matches!(self.0, Repr::Interned(_))
    }

    /// The table's copy of `s`, made if it has none and there is room.
    fn intern(s: &str) -> Option<&'static str> {
        if s.len() > Ident::INTERNED_LEN {
            return None;
        }
        // A panic elsewhere while holding the lock leaves the set whole
        // (inserts are single calls), so a poisoned lock is used as is.
        let mut table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
        let set = table.get_or_insert_with(HashSet::new);
        if let Some(&kept) = set.get(s) {
            return Some(kept);
        }
        if set.len() >= Ident::INTERNED_MAX {
            return None;
        }
        let kept: &'static str = Box::leak(s.into());
        set.insert(kept);
        Some(kept)
    }
}

impl From<&str> for Ident {
    fn from(s: &str) -> Self {
        match Ident::intern(s) {
            Some(kept) => Ident(Repr::Interned(kept)),
            None => Ident(Repr::Shared(Arc::from(s))),
        }
    }
}

impl From<String> for Ident {
    fn from(s: String) -> Self {
        Ident::from(s.as_str())
    }
}

impl From<&String> for Ident {
    fn from(s: &String) -> Self {
        Ident::from(s.as_str())
    }
}

impl From<Ident> for String {
    fn from(id: Ident) -> Self {
        id.as_str().to_owned()
    }
}

impl From<&Ident> for String {
    fn from(id: &Ident) -> Self {
        id.as_str().to_owned()
    }
}

impl Default for Ident {
    fn default() -> Self {
        Ident::from("")
    }
}

impl Deref for Ident {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Ident {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Ident {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl PartialEq for Ident {
    fn eq(&self, other: &Ident) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Ident {}

impl PartialOrd for Ident {
    fn partial_cmp(&self, other: &Ident) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ident {
    /// As the strings order (byte order is `str`'s order).
    fn cmp(&self, other: &Ident) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Ident {
    /// As the string hashes, so that `Borrow<str>` lookups find it.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

macro_rules! eq_with_strings {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Ident {
            fn eq(&self, other: &$t) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }
        impl PartialEq<Ident> for $t {
            fn eq(&self, other: &Ident) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}
eq_with_strings!(str, &str, String, &String);

impl Serialize for Ident {
    /// As a `String`: the same bytes in postcard, the same JSON.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Ident {
    /// From any string, as a `String` reads.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdentVisitor;
        impl Visitor<'_> for IdentVisitor {
            type Value = Ident;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Ident, E> {
                Ok(Ident::from(v))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Ident, E> {
                Ok(Ident::from(v.as_str()))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Ident, E> {
                std::str::from_utf8(v)
                    .map(Ident::from)
                    .map_err(|_| E::invalid_value(de::Unexpected::Bytes(v), &self))
            }
        }
        deserializer.deserialize_string(IdentVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::Ident;

    /// Short and long names, empty and multi-byte: the same postcard bytes
    /// and JSON as the `String`, read back equal, compared and shown as the
    /// string; short ones are kept once in the table, long ones are not.
    #[test]
    fn an_ident_encodes_reads_compares_and_shows_as_its_string() {
        let names = [
            "",
            "SC1",
            "K10",
            "Sergeant Kowalski's",
            "a name of exactly sixty-four bytes, the longest the table keeps.",
            "a name of sixty-five bytes, one more than the table keeps at most",
            "Kay'otz Überlord ✦",
        ];
        for name in names {
            let id = Ident::from(name);
            let owned = name.to_owned();
            assert_eq!(id.as_str(), name);
            assert_eq!(id.len(), name.len());
            assert_eq!(
                postcard::to_allocvec(&id).unwrap(),
                postcard::to_allocvec(&owned).unwrap(),
                "{name}"
            );
            assert_eq!(
                crate::encode::to_vec(&id).unwrap(),
                postcard::to_allocvec(&owned).unwrap(),
                "{name}"
            );
            assert_eq!(
                serde_json::to_string(&id).unwrap(),
                serde_json::to_string(&owned).unwrap()
            );
            let back: Ident =
                postcard::from_bytes(&postcard::to_allocvec(&owned).unwrap()).unwrap();
            assert_eq!(back, id);
            let back: Ident =
                serde_json::from_str(&serde_json::to_string(&owned).unwrap()).unwrap();
            assert_eq!(back, id);
            assert!(id == name, "{name}");
            assert!(name == id, "{name}");
            assert!(id == owned, "{name}");
            assert!(owned == id, "{name}");
            assert_eq!(format!("{id}"), name);
            assert_eq!(format!("{id:?}"), format!("{owned:?}"));
            assert_eq!(String::from(id.clone()), owned);
            assert_eq!(id.clone(), id);
            assert_eq!(
                id.is_interned(),
                name.len() <= Ident::INTERNED_LEN,
                "{name}"
            );
            if id.is_interned() {
                // One copy of the text, however many times it is made.
                assert!(std::ptr::eq(id.as_str(), Ident::from(owned).as_str()));
            }
        }
        let (k1, k10) = (Ident::from("K1"), Ident::from("K10"));
        assert!(k10 != "K1");
        assert!(k1 < k10);
        assert_eq!(Ident::default(), "");
        // Not a string: refused in words, as a `String` would be.
        assert!(serde_json::from_str::<Ident>("7").is_err());
    }
}
