//! [`IdText`] for each id type: its text, its binary form, its parser.

use super::IdText;
use crate::formats::objectid::ObjectId;
use crate::formats::v7::{Braced, Simple, Urn, Uuid7};
use crate::kuuid::id::{AnyKuuid, Id};

impl<const LEN: usize> IdText for Id<LEN> {
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self.as_str())
    }
    fn parse_any(bytes: &[u8]) -> Result<Self, String> {
        Id::parse_bytes(bytes).map_err(|e| e.to_string())
    }
    const EXPECTING: &'static str = "a kuuid as a string or bytes";
}

impl IdText for AnyKuuid {
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self.as_str())
    }
    fn parse_any(bytes: &[u8]) -> Result<Self, String> {
        AnyKuuid::parse_bytes(bytes).map_err(|e| e.to_string())
    }
    const EXPECTING: &'static str = "a kuuid as a string or bytes";
}

/// A UUIDv7's 16 bytes, or its text (36 or 32 characters).
fn parse_uuid7(bytes: &[u8]) -> Result<Uuid7, String> {
    match <[u8; 16]>::try_from(bytes) {
        Ok(raw) => Uuid7::from_bytes(raw),
        Err(_) => Uuid7::parse_ascii(bytes),
    }
    .map_err(|e| e.to_string())
}

impl IdText for Uuid7 {
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self.encode_hyphenated(&mut [0; 36]))
    }
    fn with_binary<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self.as_bytes())
    }
    fn parse_any(bytes: &[u8]) -> Result<Self, String> {
        parse_uuid7(bytes)
    }
    const EXPECTING: &'static str = "a UUIDv7 as a string or 16 bytes";
}

impl IdText for Simple {
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self.0.encode_simple(&mut [0; 32]))
    }
    fn with_binary<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        self.0.with_binary(f)
    }
    fn parse_any(bytes: &[u8]) -> Result<Self, String> {
        parse_uuid7(bytes).map(Simple)
    }
    const EXPECTING: &'static str = Uuid7::EXPECTING;
}

/// The braced and URN texts: 16 bytes in binary formats, as every UUIDv7.
macro_rules! uuid7_text {
    ($($ty:ident, $len:literal;)*) => {$(
        impl IdText for $ty {
            fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
                use std::io::Write;
                let mut buf = [0u8; $len];
                write!(&mut buf[..], "{self}").expect("the text's length");
                f(std::str::from_utf8(&buf).expect("ASCII"))
            }
            fn with_binary<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
                self.0.with_binary(f)
            }
            fn parse_any(bytes: &[u8]) -> Result<Self, String> {
                parse_uuid7(bytes).map($ty)
            }
            const EXPECTING: &'static str = Uuid7::EXPECTING;
        }
    )*};
}

uuid7_text! {
    Braced, 38;
    Urn, 45;
}

impl IdText for ObjectId {
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self.encode_hex(&mut [0; 24]))
    }
    fn with_binary<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self.as_bytes())
    }
    fn parse_any(bytes: &[u8]) -> Result<Self, String> {
        match <[u8; 12]>::try_from(bytes) {
            Ok(raw) => Ok(ObjectId::from_bytes(raw)),
            Err(_) => ObjectId::parse_ascii(bytes).map_err(|e| e.to_string()),
        }
    }
    const EXPECTING: &'static str = "an ObjectId as a string or 12 bytes";
}

/// A ULID's 16 bytes in binary formats, its 26 characters (capitals) as
/// text; either read back.
#[cfg(feature = "ulid")]
impl IdText for crate::formats::ulid::Ulid {
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self.encode(&mut [0; 26]))
    }
    fn with_binary<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self.as_bytes())
    }
    fn parse_any(bytes: &[u8]) -> Result<Self, String> {
        use crate::formats::ulid::Ulid;
        match <[u8; 16]>::try_from(bytes) {
            Ok(raw) => Ok(Ulid::from_bytes(raw)),
            Err(_) => Ulid::parse_bytes(bytes).map_err(|e| e.to_string()),
        }
    }
    const EXPECTING: &'static str = "a ULID as a string or 16 bytes";
}

/// A TypeID's text in every format: its prefix is part of the value.
#[cfg(feature = "typeid")]
impl IdText for crate::formats::typeid::TypeId {
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self.encode(&mut [0; Self::MAX_LEN]))
    }
    fn parse_any(bytes: &[u8]) -> Result<Self, String> {
        Self::parse_bytes(bytes).map_err(|e| e.to_string())
    }
    const EXPECTING: &'static str = "a TypeID as a string";
}

/// A KSUID's 20 bytes in binary formats, its 27 characters as text.
#[cfg(feature = "ksuid")]
impl IdText for crate::formats::ksuid::Ksuid {
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        f(self.encode(&mut [0; 27]))
    }
    fn with_binary<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self.as_bytes())
    }
    fn parse_any(bytes: &[u8]) -> Result<Self, String> {
        match <[u8; 20]>::try_from(bytes) {
            Ok(raw) => Ok(Self::from_bytes(raw)),
            Err(_) => Self::parse_bytes(bytes).map_err(|e| e.to_string()),
        }
    }
    const EXPECTING: &'static str = "a KSUID as a string or 20 bytes";
}
