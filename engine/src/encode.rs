//! The engine's postcard encoder: byte for byte what `postcard::to_allocvec`
//! writes, into a plain vector, with the cached encoding of every
//! [`crate::shared::Shared`] copied in rather than produced again.
//!
//! Every state hash, chain and stored entry is defined over postcard's
//! bytes (postcard 1, which has no framing: an integer is a varint, a
//! signed one zigzagged first; a string or a sequence its length as a
//! varint then its items; an enum its variant index as a varint; a struct
//! or tuple its fields in order; `Option` a 0 or 1 byte). This writes the
//! same bytes without postcard's flavor layer: a state was encoded for its
//! hash after every command, and pushing it through a flavor byte by byte,
//! with a `memcpy` call for each small varint, was a third of a command's
//! instructions in Alien and half in Dimension X (issue 29, BENCHMARKS.md).
//! `encode::tests` and `shared::tests` check it against postcard for every
//! part of serde's data model and for every game's states, commands and
//! events along bot-played battles.

use std::sync::Arc;

use serde::Serialize;
use serde::ser::{self, Serializer};

use crate::shared::AsEncoded;

/// The name a [`crate::shared::Shared`] gives its value as a newtype
/// struct. Every serializer but this one writes a newtype struct as its
/// value (postcard, serde_json): the same bytes and JSON as the value.
pub(crate) const SPLICE: &str = "$xenolog::Shared";

/// The postcard encoding of `value`.
///
/// Written into a buffer this thread keeps and copied out at its exact
/// length: one allocation, not a vector grown by doubling from empty (a
/// command's events and the command itself were encoded on every command,
/// each growing through several reallocations; issue 29), and no spare
/// capacity kept in the entry that stores it. A value that encodes
/// another inside (a `Shared`'s first encoding) finds the buffer taken
/// and uses a fresh one.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    thread_local! {
        static BUF: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut buf = BUF.with(|b| b.take());
    buf.clear();
    let mut enc = Encoder::with_buffer(buf);
    let done = value.serialize(&mut enc);
    let out = enc.out.as_slice().to_vec();
    // A large value's buffer is not kept for the life of the thread.
    if enc.out.capacity() <= 64 * 1024 {
        BUF.with(|b| b.set(enc.out));
    }
    done.map(|()| out)
}

/// A postcard encoder into a vector (see the module's notes).
#[derive(Default)]
pub(crate) struct Encoder {
    pub(crate) out: Vec<u8>,
    /// The cached encoding copied in at offset 0, if the value starts with
    /// one (what [`crate::hash::hash_state`] starts a small state's hash
    /// from). Only that one is kept: a list of every splice was grown per
    /// state and unused past its first (issue 29).
    pub(crate) lead: Option<Arc<dyn AsEncoded>>,
}

impl Encoder {
    pub(crate) fn with_buffer(out: Vec<u8>) -> Self {
        Encoder { out, lead: None }
    }

    /// A varint of an unsigned integer of at most 64 bits (postcard writes
    /// `u16`, `u32`, `u64` and `usize` alike: seven bits a byte, low first,
    /// the top bit set on every byte but the last).
    #[inline]
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    #[inline]
    fn varint128(&mut self, mut v: u128) {
        while v >= 0x80 {
            self.out.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }
}

/// Why a value could not be encoded (only for types serde cannot describe
/// to postcard: a sequence of unknown length, or a serializer error of the
/// value's own).
#[derive(Debug)]
pub struct EncodeError(String);

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EncodeError {}

impl ser::Error for EncodeError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        EncodeError(msg.to_string())
    }
}

type Res = Result<(), EncodeError>;

fn length(len: Option<usize>) -> Result<usize, EncodeError> {
    len.ok_or_else(|| EncodeError("a sequence of unknown length cannot be encoded".into()))
}

impl Serializer for &mut Encoder {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Res {
        self.out.push(u8::from(v));
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Res {
        self.out.push(v as u8);
        Ok(())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Res {
        self.varint(u64::from(((v << 1) ^ (v >> 15)) as u16));
        Ok(())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Res {
        self.varint(u64::from(((v << 1) ^ (v >> 31)) as u32));
        Ok(())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Res {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
        Ok(())
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Res {
        self.varint128(((v << 1) ^ (v >> 127)) as u128);
        Ok(())
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Res {
        self.out.push(v);
        Ok(())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Res {
        self.varint(u64::from(v));
        Ok(())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Res {
        self.varint(u64::from(v));
        Ok(())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Res {
        self.varint(v);
        Ok(())
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Res {
        self.varint128(v);
        Ok(())
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Res {
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Res {
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Res {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Res {
        self.serialize_bytes(v.as_bytes())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Res {
        self.varint(v.len() as u64);
        self.out.extend_from_slice(v);
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Res {
        self.out.push(0);
        Ok(())
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Res {
        self.out.push(1);
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Res {
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Res {
        Ok(())
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
    ) -> Res {
        self.varint(u64::from(index));
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Res {
        if name == SPLICE {
            // Shared content: its cached encoding is copied in (it hands
            // it over instead of writing itself; see `shared::Splicable`).
            crate::shared::request_splice();
            value.serialize(&mut *self)?;
            if let Some(content) = crate::shared::take_splice() {
                let at = self.out.len();
                self.out.extend_from_slice(&content.encoded().bytes);
                if at == 0 && self.lead.is_none() {
                    self.lead = Some(content);
                }
            }
            return Ok(());
        }
        value.serialize(self)
    }
    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        value: &T,
    ) -> Res {
        self.varint(u64::from(index));
        value.serialize(self)
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, EncodeError> {
        self.varint(length(len)? as u64);
        Ok(self)
    }
    #[inline]
    fn serialize_tuple(self, _len: usize) -> Result<Self, EncodeError> {
        Ok(self)
    }
    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self, EncodeError> {
        Ok(self)
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self, EncodeError> {
        self.varint(u64::from(index));
        Ok(self)
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self, EncodeError> {
        self.varint(length(len)? as u64);
        Ok(self)
    }
    #[inline]
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self, EncodeError> {
        Ok(self)
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self, EncodeError> {
        self.varint(u64::from(index));
        Ok(self)
    }
}

/// Postcard writes a compound's parts one after another with nothing
/// between or after them (its length, where it has one, went first), so
/// every compound serializer is the same: each part written in turn,
/// field names dropped, nothing at the end.
macro_rules! compound {
    ($($trait:ident { $($method:ident ($($name:ident: $ty:ty),*)),+ })+) => {$(
        impl ser::$trait for &mut Encoder {
            type Ok = ();
            type Error = EncodeError;
            $(
                #[inline]
                fn $method<T: ?Sized + Serialize>(&mut self, $($name: $ty,)* value: &T) -> Res {
                    value.serialize(&mut **self)
                }
            )+
            #[inline]
            fn end(self) -> Res {
                Ok(())
            }
        }
    )+};
}

compound! {
    SerializeSeq { serialize_element() }
    SerializeTuple { serialize_element() }
    SerializeTupleStruct { serialize_field() }
    SerializeTupleVariant { serialize_field() }
    SerializeStruct { serialize_field(_key: &'static str) }
    SerializeStructVariant { serialize_field(_key: &'static str) }
}

impl ser::SerializeMap for &mut Encoder {
    type Ok = ();
    type Error = EncodeError;
    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Res {
        key.serialize(&mut **self)
    }
    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Res {
        value.serialize(&mut **self)
    }
    #[inline]
    fn end(self) -> Res {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};

    use super::to_vec;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum E {
        Unit,
        New(i32),
        Tuple(u8, String),
        Struct { a: Option<u64>, b: Vec<i16> },
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Unit;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct New(u32);

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Tup(i8, u16, f32);

    #[derive(Serialize, Debug)]
    struct All {
        b: [bool; 2],
        i8s: Vec<i8>,
        i16s: Vec<i16>,
        i32s: Vec<i32>,
        i64s: Vec<i64>,
        i128s: Vec<i128>,
        u8s: Vec<u8>,
        u16s: Vec<u16>,
        u32s: Vec<u32>,
        u64s: Vec<u64>,
        u128s: Vec<u128>,
        usizes: Vec<usize>,
        f32s: Vec<f32>,
        f64s: Vec<f64>,
        chars: Vec<char>,
        text: String,
        #[serde(with = "serde_bytes_like")]
        bytes: Vec<u8>,
        none: Option<u8>,
        some: Option<Option<String>>,
        unit: (),
        unit_struct: Unit,
        new: New,
        tup: Tup,
        enums: Vec<E>,
        map: BTreeMap<String, (u8, i64)>,
        nested: Vec<Vec<(u32, bool)>>,
    }

    /// `serialize_bytes`, which derive never calls on a `Vec<u8>`.
    mod serde_bytes_like {
        pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(v)
        }
    }

    /// Every part of serde's data model, at every varint length edge,
    /// encodes exactly as postcard encodes it.
    #[test]
    fn the_encoder_writes_postcard_s_bytes_for_every_part_of_serde_s_data_model() {
        let edges64: Vec<u64> = [0u64, 1, 127, 128, 255, 256, 16_383, 16_384, 1 << 21]
            .into_iter()
            .chain([(1 << 28) - 1, 1 << 28, u32::MAX as u64, 1 << 35, 1 << 56])
            .chain([u64::MAX - 1, u64::MAX])
            .collect();
        let all = All {
            b: [false, true],
            i8s: vec![i8::MIN, -1, 0, 1, i8::MAX],
            i16s: vec![i16::MIN, -65, -64, -1, 0, 63, 64, 8191, 8192, i16::MAX],
            i32s: vec![i32::MIN, -1_000_000, -1, 0, 1, 1_000_000, i32::MAX],
            i64s: vec![i64::MIN, -(1 << 40), -1, 0, 1 << 40, i64::MAX],
            i128s: vec![i128::MIN, -(1 << 100), -1, 0, 1, 1 << 100, i128::MAX],
            u8s: vec![0, 1, 127, 128, 255],
            u16s: vec![0, 127, 128, 16_383, 16_384, u16::MAX],
            u32s: edges64
                .iter()
                .filter_map(|&v| u32::try_from(v).ok())
                .collect(),
            u64s: edges64.clone(),
            u128s: vec![0, 127, 128, u64::MAX as u128 + 1, 1 << 120, u128::MAX],
            usizes: edges64.iter().map(|&v| v as usize).collect(),
            f32s: vec![0.0, -0.0, 1.5, f32::MIN, f32::MAX, f32::INFINITY],
            f64s: vec![0.0, -2.25, f64::MAX, f64::NEG_INFINITY, 1e-300],
            chars: vec!['a', 'é', '€', '😀'],
            text: "x".repeat(200),
            bytes: (0..=255).collect(),
            none: None,
            some: Some(Some("é".into())),
            unit: (),
            unit_struct: Unit,
            new: New(300),
            tup: Tup(-3, 40_000, 0.25),
            enums: vec![
                E::Unit,
                E::New(-70),
                E::Tuple(9, "t".into()),
                E::Struct {
                    a: Some(1 << 40),
                    b: vec![-1, 300],
                },
                E::Struct { a: None, b: vec![] },
            ],
            map: [("a".to_owned(), (1, -1)), ("bb".to_owned(), (2, 1 << 50))]
                .into_iter()
                .collect(),
            nested: vec![vec![], vec![(0, true), (u32::MAX, false)]],
        };
        assert_eq!(to_vec(&all).unwrap(), postcard::to_allocvec(&all).unwrap());
        // Each alone too (a value at the start of the output).
        for e in &all.enums {
            assert_eq!(to_vec(e).unwrap(), postcard::to_allocvec(e).unwrap());
        }
        assert_eq!(to_vec(&'€').unwrap(), postcard::to_allocvec(&'€').unwrap());
        assert_eq!(to_vec(&()).unwrap(), Vec::<u8>::new());
    }

    /// A sequence of unknown length is refused in words, as postcard
    /// refuses it, rather than written wrongly.
    #[test]
    fn a_sequence_of_unknown_length_is_refused_in_words() {
        struct Unknown;
        impl Serialize for Unknown {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeSeq;
                let seq = s.serialize_seq(None)?;
                seq.end()
            }
        }
        assert!(postcard::to_allocvec(&Unknown).is_err());
        let e = to_vec(&Unknown).unwrap_err();
        assert!(e.to_string().contains("unknown length"), "{e}");
    }
}
