//! `serde` support (feature `serde`): ids are strings in human-readable
//! formats (JSON, YAML, ...) and their ASCII bytes in binary ones. Both
//! forms are validated strictly on the way in.
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

impl<T> Visitor<'_> for IdVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a kuuid string")
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
