//! `serde` support (feature `serde`): ids are strings in human-readable
//! formats (JSON, YAML, ...) and their ASCII bytes in binary ones. On the
//! way in, a string, a byte string or a sequence of bytes is accepted
//! wherever the format hands it over, and validated strictly.
//!
//! A format decides which form it hands over by the call made: a CBOR or
//! MessagePack document written elsewhere may hold ids as text where this
//! crate would write bytes. For such data, [`any`] reads either form from
//! any self-describing format, and [`as_str`] writes text everywhere.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Doc { _id: kuuid::Kuuid }
//! let doc = Doc { _id: kuuid::try_id(0u64).unwrap() };
//! let json = serde_json::to_string(&doc).unwrap();
//! assert!(json.starts_with(r#"{"_id":"00000000"#));
//! let back: Doc = serde_json::from_str(&json).unwrap();
//! assert_eq!(back._id, doc._id);
//! # }
//! ```

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::{AnyKuuid, Id, Prefix};

/// Text for people, bytes for machines.
fn serialize_id<S: Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    if s.is_human_readable() {
        s.serialize_str(text)
    } else {
        s.serialize_bytes(text.as_bytes())
    }
}

impl<const LEN: usize> Serialize for Id<LEN> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_id(self.as_str(), s)
    }
}

impl Serialize for AnyKuuid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_id(self.as_str(), s)
    }
}

impl Serialize for Prefix {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Accepts a string or bytes and parses them with `parse`.
struct IdVisitor<T>(PhantomData<T>, fn(&[u8]) -> Result<T, crate::ParseError>);

impl<'de, T> Visitor<'de> for IdVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a kuuid as a string or bytes")
    }

    /// Formats that write bytes as an array of numbers.
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut buf = [0u8; crate::id::MAX_LEN];
        let mut n = 0;
        while let Some(b) = seq.next_element::<u8>()? {
            if n == buf.len() {
                return Err(de::Error::invalid_length(n + 1, &self));
            }
            buf[n] = b;
            n += 1;
        }
        (self.1)(&buf[..n]).map_err(de::Error::custom)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.1)(v.as_bytes()).map_err(E::custom)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<T, E> {
        (self.1)(v).map_err(E::custom)
    }
}

/// A string from people, bytes from machines, parsed strictly by `parse`.
fn deserialize_id<'de, D: Deserializer<'de>, T>(
    d: D,
    parse: fn(&[u8]) -> Result<T, crate::ParseError>,
) -> Result<T, D::Error> {
    let v = IdVisitor(PhantomData, parse);
    if d.is_human_readable() {
        d.deserialize_str(v)
    } else {
        d.deserialize_bytes(v)
    }
}

impl<'de, const LEN: usize> Deserialize<'de> for Id<LEN> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_id(d, Id::<LEN>::parse_bytes)
    }
}

impl<'de> Deserialize<'de> for AnyKuuid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_id(d, AnyKuuid::parse_bytes)
    }
}

/// What the adapter modules need of an id type: its text and its strict
/// parser. Implemented for every [`Id`] length and [`AnyKuuid`]; sealed.
pub trait IdText: Sized + sealed::Sealed {
    /// The id's text.
    fn text(&self) -> &str;
    /// Strict parsing of the id's bytes.
    fn parse_text(bytes: &[u8]) -> Result<Self, crate::ParseError>;
}

mod sealed {
    pub trait Sealed {}
    impl<const LEN: usize> Sealed for crate::Id<LEN> {}
    impl Sealed for crate::AnyKuuid {}
}

impl<const LEN: usize> IdText for Id<LEN> {
    fn text(&self) -> &str {
        self.as_str()
    }
    fn parse_text(bytes: &[u8]) -> Result<Self, crate::ParseError> {
        Id::parse_bytes(bytes)
    }
}

impl IdText for AnyKuuid {
    fn text(&self) -> &str {
        self.as_str()
    }
    fn parse_text(bytes: &[u8]) -> Result<Self, crate::ParseError> {
        AnyKuuid::parse_bytes(bytes)
    }
}

/// Ids as text in every format, binary ones too (`#[serde(with =
/// "kuuid::serde::as_str")]`): what a document read by other languages
/// wants. Reads text, or bytes where the format hands them over.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Doc {
///     #[serde(with = "kuuid::serde::as_str")]
///     _id: kuuid::Kuuid,
/// }
/// let doc = Doc { _id: kuuid::id() };
/// let mut cbor = Vec::new();
/// ciborium::into_writer(&ciborium::Value::serialized(&doc).unwrap(), &mut cbor).unwrap();
/// // A CBOR text string (major type 3, one length byte) holds the id.
/// assert!(cbor.windows(2).any(|w| w == [0x78, 32]));
/// let back: Doc = ciborium::Value::deserialized(&ciborium::from_reader::<ciborium::Value, _>(&cbor[..]).unwrap()).unwrap();
/// assert_eq!(back, doc);
/// ```
pub mod as_str {
    use super::*;

    /// Writes the id as a string.
    pub fn serialize<T: IdText, S: Serializer>(id: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(id.text())
    }

    /// Reads a string (or bytes), strictly.
    pub fn deserialize<'de, T: IdText, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        d.deserialize_str(IdVisitor(PhantomData, T::parse_text))
    }
}

/// Reads an id given as a string or as bytes in any self-describing
/// format (CBOR, MessagePack, BSON, JSON), whichever form the document
/// holds; writes as the default does. Not for bincode or postcard, which
/// cannot say what comes next (the default impl already reads both there:
/// their strings and bytes are encoded alike).
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Doc {
///     #[serde(with = "kuuid::serde::any")]
///     _id: kuuid::Kuuid,
/// }
/// let id = kuuid::id();
/// for value in [ciborium::Value::Text(id.to_string()), ciborium::Value::Bytes(id.as_bytes().to_vec())] {
///     let doc = ciborium::Value::Map(vec![("_id".into(), value)]);
///     let back: Doc = doc.deserialized().unwrap();
///     assert_eq!(back._id, id);
/// }
/// ```
pub mod any {
    use super::*;

    /// Writes the id as the default impl does.
    pub fn serialize<T: IdText, S: Serializer>(id: &T, s: S) -> Result<S::Ok, S::Error> {
        serialize_id(id.text(), s)
    }

    /// Reads whichever form the format holds, strictly.
    pub fn deserialize<'de, T: IdText, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        d.deserialize_any(IdVisitor(PhantomData, T::parse_text))
    }
}
