//! `serde` support (feature `serde`) for every id type: ids are strings in
//! human-readable formats (JSON, YAML, ...) and bytes in binary ones (a
//! kuuid's ASCII text, a [`Uuid7`]'s or [`Simple`]'s 16 bytes, as the uuid
//! crate writes them, an [`ObjectId`]'s 12). On the way in, the text, the
//! bytes or a sequence of bytes is accepted wherever the format hands it
//! over, and validated strictly.
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
//! let doc = Doc { _id: kuuid::id_at(0u64).unwrap() };
//! let json = serde_json::to_string(&doc).unwrap();
//! assert!(json.starts_with(r#"{"_id":"00000000"#));
//! let back: Doc = serde_json::from_str(&json).unwrap();
//! assert_eq!(back._id, doc._id);
//!
//! #[derive(serde::Serialize)]
//! struct Row { id: kuuid::Uuid7, oid: kuuid::ObjectId }
//! let row = Row { id: kuuid::Uuid7::MIN, oid: kuuid::ObjectId::default() };
//! assert_eq!(
//!     serde_json::to_string(&row).unwrap(),
//!     r#"{"id":"00000000-0000-7000-8000-000000000000","oid":"000000000000000000000000"}"#
//! );
//! # }
//! ```

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::formats::objectid::ObjectId;
use crate::formats::v7::{Braced, Simple, Urn, Uuid7};
use crate::kuuid::id::{AnyKuuid, Id};
use crate::kuuid::layout::Prefix;

/// The longest binary form read from a sequence of numbers (a kuuid's 32
/// characters at most; a UUID's 36; a TypeID's 90).
const BYTES_MAX: usize = 90;

/// What serde needs of an id type: its text, its binary form and a strict
/// parser that takes either. Implemented for every [`Id`] length,
/// [`AnyKuuid`], [`Uuid7`] (and its [`Simple`], [`Braced`] and [`Urn`]
/// texts) and [`ObjectId`]; sealed.
///
/// ```
/// use kuuid::serde::IdText;
///
/// // Generic over every id type, as a serde adapter of your own would be.
/// fn round_trip<T: IdText + PartialEq + std::fmt::Debug>(id: T) {
///     let back = id.with_binary(|bytes| T::parse_any(bytes)).unwrap();
///     assert_eq!(back, id);
///     assert_eq!(id.with_text(|text| T::parse_any(text.as_bytes())), Ok(back));
/// }
/// round_trip(kuuid::id());
/// round_trip(kuuid::v7());
/// round_trip(kuuid::object_id());
/// ```
pub trait IdText: Sized + sealed::Sealed {
    /// Calls `f` with the id's text (what [`as_str`] writes everywhere).
    ///
    /// ```
    /// use kuuid::serde::IdText;
    ///
    /// let text = kuuid::ObjectId::default().with_text(str::to_owned);
    /// assert_eq!(text, "000000000000000000000000");
    /// ```
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R;
    /// Calls `f` with what binary formats get: a kuuid's ASCII text, a
    /// UUID's 16 bytes, an ObjectId's 12.
    ///
    /// ```
    /// use kuuid::serde::IdText;
    ///
    /// assert_eq!(kuuid::v7().with_binary(<[u8]>::len), 16);
    /// assert_eq!(kuuid::object_id().with_binary(<[u8]>::len), 12);
    /// assert_eq!(kuuid::id().with_binary(<[u8]>::len), 32);
    /// ```
    fn with_binary<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        self.with_text(|text| f(text.as_bytes()))
    }
    /// Strict parsing of the text, or of the binary form.
    ///
    /// ```
    /// use kuuid::{serde::IdText, Uuid7};
    ///
    /// let text = Uuid7::parse_any(b"00000000-0000-7000-8000-000000000000");
    /// assert_eq!(text, Ok(Uuid7::MIN));
    /// assert_eq!(Uuid7::parse_any(Uuid7::MIN.as_bytes()), Ok(Uuid7::MIN));
    /// assert!(Uuid7::parse_any(b"00000000-0000-4000-8000-000000000000").is_err());
    /// ```
    fn parse_any(bytes: &[u8]) -> Result<Self, String>;
    /// What a mismatch says was expected.
    ///
    /// ```
    /// use kuuid::serde::IdText;
    ///
    /// let e = serde_json::from_str::<kuuid::Uuid7>("7").unwrap_err();
    /// assert!(e.to_string().contains(kuuid::Uuid7::EXPECTING), "{e}");
    /// ```
    const EXPECTING: &'static str;
}

mod sealed {
    pub trait Sealed {}
    impl<const LEN: usize> Sealed for crate::kuuid::id::Id<LEN> {}
    impl Sealed for crate::kuuid::id::AnyKuuid {}
    impl Sealed for crate::formats::v7::Uuid7 {}
    impl Sealed for crate::formats::v7::Simple {}
    impl Sealed for crate::formats::v7::Braced {}
    impl Sealed for crate::formats::v7::Urn {}
    impl Sealed for crate::formats::objectid::ObjectId {}
    #[cfg(feature = "ulid")]
    impl Sealed for crate::formats::ulid::Ulid {}
    #[cfg(feature = "typeid")]
    impl Sealed for crate::formats::typeid::TypeId {}
    #[cfg(feature = "ksuid")]
    impl Sealed for crate::formats::ksuid::Ksuid {}
}

mod ids;

/// Text for people, the binary form for machines.
fn serialize_id<T: IdText, S: Serializer>(id: &T, s: S) -> Result<S::Ok, S::Error> {
    if s.is_human_readable() {
        id.with_text(|text| s.serialize_str(text))
    } else {
        id.with_binary(|bytes| s.serialize_bytes(bytes))
    }
}

/// Accepts a string or bytes and parses them strictly.
struct IdVisitor<T>(PhantomData<T>);

impl<'de, T: IdText> Visitor<'de> for IdVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    /// Formats that write bytes as an array of numbers.
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut buf = [0u8; BYTES_MAX];
        let mut n = 0;
        while let Some(b) = seq.next_element::<u8>()? {
            if n == buf.len() {
                return Err(de::Error::invalid_length(n + 1, &self));
            }
            buf[n] = b;
            n += 1;
        }
        T::parse_any(&buf[..n]).map_err(de::Error::custom)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        T::parse_any(v.as_bytes()).map_err(E::custom)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<T, E> {
        T::parse_any(v).map_err(E::custom)
    }
}

/// A string from people, bytes from machines, parsed strictly.
fn deserialize_id<'de, D: Deserializer<'de>, T: IdText>(d: D) -> Result<T, D::Error> {
    if d.is_human_readable() {
        d.deserialize_str(IdVisitor(PhantomData))
    } else {
        d.deserialize_bytes(IdVisitor(PhantomData))
    }
}

/// Serialize and Deserialize for id types through [`IdText`].
macro_rules! serde_impls {
    ($([$($gen:tt)*] $ty:ty;)*) => {$(
        impl<$($gen)*> Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                serialize_id(self, s)
            }
        }

        impl<'de, $($gen)*> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                deserialize_id(d)
            }
        }
    )*};
}

serde_impls! {
    [const LEN: usize] Id<LEN>;
    [] AnyKuuid;
    [] Uuid7;
    [] Simple;
    [] Braced;
    [] Urn;
    [] ObjectId;
}

#[cfg(feature = "ulid")]
serde_impls! {
    [] crate::formats::ulid::Ulid;
}

#[cfg(feature = "typeid")]
serde_impls! {
    [] crate::formats::typeid::TypeId;
}

#[cfg(feature = "ksuid")]
serde_impls! {
    [] crate::formats::ksuid::Ksuid;
}

impl Serialize for Prefix {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
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
    ///
    /// ```
    /// let value = kuuid::serde::as_str::serialize(&kuuid::ObjectId::default(), serde_json::value::Serializer);
    /// assert_eq!(value.unwrap(), "000000000000000000000000");
    /// ```
    pub fn serialize<T: IdText, S: Serializer>(id: &T, s: S) -> Result<S::Ok, S::Error> {
        id.with_text(|text| s.serialize_str(text))
    }

    /// Reads a string (or bytes), strictly.
    ///
    /// ```
    /// use kuuid::serde::as_str;
    ///
    /// let text = serde_json::json!("001eVnWK4gfFC3000000000000000000");
    /// let id: kuuid::Kuuid = as_str::deserialize(text).unwrap();
    /// assert_eq!(id.prefix().as_str(), "001eVnWK");
    /// assert!(as_str::deserialize::<kuuid::Kuuid, _>(serde_json::json!("001eVnWK")).is_err());
    /// ```
    pub fn deserialize<'de, T: IdText, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        d.deserialize_str(IdVisitor(PhantomData))
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
    ///
    /// ```
    /// let value = kuuid::serde::any::serialize(&kuuid::Uuid7::MIN, serde_json::value::Serializer);
    /// assert_eq!(value.unwrap(), "00000000-0000-7000-8000-000000000000");
    /// ```
    pub fn serialize<T: IdText, S: Serializer>(id: &T, s: S) -> Result<S::Ok, S::Error> {
        serialize_id(id, s)
    }

    /// Reads whichever form the format holds, strictly.
    ///
    /// ```
    /// use serde_json::Value;
    ///
    /// // JSON has no bytes: serde_json hands them over as an array.
    /// let oid = kuuid::ObjectId::default();
    /// let bytes: kuuid::ObjectId = kuuid::serde::any::deserialize(Value::from(vec![0u8; 12])).unwrap();
    /// let text: kuuid::ObjectId = kuuid::serde::any::deserialize(Value::from("0".repeat(24))).unwrap();
    /// assert_eq!((bytes, text), (oid, oid));
    /// ```
    pub fn deserialize<'de, T: IdText, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        d.deserialize_any(IdVisitor(PhantomData))
    }
}

/// A [`Uuid7`] field written as braced text (`{...}`) in every format,
/// `#[serde(with = "kuuid::serde::braced")]`, as uuid's `serde::braced`;
/// reads any text of a UUIDv7 (or its 16 bytes where the format hands
/// bytes over).
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Row {
///     #[serde(with = "kuuid::serde::braced")]
///     id: kuuid::Uuid7,
/// }
/// let row = Row { id: kuuid::Uuid7::MIN };
/// let json = serde_json::to_string(&row).unwrap();
/// assert_eq!(json, r#"{"id":"{00000000-0000-7000-8000-000000000000}"}"#);
/// assert_eq!(serde_json::from_str::<Row>(&json).unwrap(), row);
/// ```
pub mod braced {
    use super::*;

    /// Writes `{...}`.
    ///
    /// ```
    /// let value = kuuid::serde::braced::serialize(&kuuid::Uuid7::MIN, serde_json::value::Serializer);
    /// assert_eq!(value.unwrap(), "{00000000-0000-7000-8000-000000000000}");
    /// ```
    pub fn serialize<S: Serializer>(id: &Uuid7, s: S) -> Result<S::Ok, S::Error> {
        as_str::serialize(&id.braced(), s)
    }

    /// Reads any text of a UUIDv7, or its bytes, strictly.
    ///
    /// ```
    /// let text = serde_json::json!("{00000000-0000-7000-8000-000000000000}");
    /// assert_eq!(kuuid::serde::braced::deserialize(text).unwrap(), kuuid::Uuid7::MIN);
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Uuid7, D::Error> {
        deserialize_id(d)
    }
}

/// A [`Uuid7`] field written as a URN (`urn:uuid:...`) in every format,
/// `#[serde(with = "kuuid::serde::urn")]`, as uuid's `serde::urn`; reads
/// any text of a UUIDv7 (or its 16 bytes where the format hands bytes
/// over).
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Row {
///     #[serde(with = "kuuid::serde::urn")]
///     id: kuuid::Uuid7,
/// }
/// let row = Row { id: kuuid::Uuid7::MIN };
/// let json = serde_json::to_string(&row).unwrap();
/// assert_eq!(json, r#"{"id":"urn:uuid:00000000-0000-7000-8000-000000000000"}"#);
/// assert_eq!(serde_json::from_str::<Row>(&json).unwrap(), row);
/// ```
pub mod urn {
    use super::*;

    /// Writes `urn:uuid:...`.
    ///
    /// ```
    /// let value = kuuid::serde::urn::serialize(&kuuid::Uuid7::MIN, serde_json::value::Serializer);
    /// assert_eq!(value.unwrap(), "urn:uuid:00000000-0000-7000-8000-000000000000");
    /// ```
    pub fn serialize<S: Serializer>(id: &Uuid7, s: S) -> Result<S::Ok, S::Error> {
        as_str::serialize(&id.urn(), s)
    }

    /// Reads any text of a UUIDv7, or its bytes, strictly.
    ///
    /// ```
    /// let text = serde_json::json!("urn:uuid:00000000-0000-7000-8000-000000000000");
    /// assert_eq!(kuuid::serde::urn::deserialize(text).unwrap(), kuuid::Uuid7::MIN);
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Uuid7, D::Error> {
        deserialize_id(d)
    }
}
