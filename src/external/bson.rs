//! bson (feature `bson`): an ObjectId is a `bson::oid::ObjectId` and back
//! (the same 12 bytes); every id goes into a document as a `Bson` value:
//! ObjectIds as BSON ObjectIds, kuuids and UUIDv7s as BSON strings (their
//! text, which sorts in time order; read back with `str::parse`).

use crate::formats::objectid::ObjectId;
use crate::formats::v7::{Simple, Uuid7};
use crate::kuuid::id::{AnyKuuid, Id};

impl From<ObjectId> for bson::oid::ObjectId {
    /// ```
    /// let id = kuuid::object_id();
    /// let b: bson::oid::ObjectId = id.into();
    /// assert_eq!(b.to_hex(), id.to_string());
    /// assert_eq!(kuuid::ObjectId::from(b), id);
    /// ```
    fn from(id: ObjectId) -> Self {
        bson::oid::ObjectId::from_bytes(*id.as_bytes())
    }
}

impl From<bson::oid::ObjectId> for ObjectId {
    fn from(id: bson::oid::ObjectId) -> Self {
        ObjectId::from_bytes(id.bytes())
    }
}

impl From<ObjectId> for bson::Bson {
    /// ```
    /// let id = kuuid::object_id();
    /// let doc = bson::doc! { "_id": id };
    /// assert_eq!(kuuid::ObjectId::from(doc.get_object_id("_id")?), id);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn from(id: ObjectId) -> Self {
        bson::Bson::ObjectId(id.into())
    }
}

impl<const LEN: usize> From<Id<LEN>> for bson::Bson {
    /// ```
    /// let id = kuuid::id();
    /// let doc = bson::doc! { "_id": id };
    /// assert_eq!(doc.get_str("_id")?.parse::<kuuid::Kuuid>()?, id);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn from(id: Id<LEN>) -> Self {
        bson::Bson::String(id.as_str().to_owned())
    }
}

impl From<AnyKuuid> for bson::Bson {
    fn from(id: AnyKuuid) -> Self {
        bson::Bson::String(id.as_str().to_owned())
    }
}

impl From<Uuid7> for bson::Bson {
    /// The 36-character text.
    ///
    /// ```
    /// let id = kuuid::v7();
    /// let doc = bson::doc! { "_id": id };
    /// assert_eq!(doc.get_str("_id")?.parse::<kuuid::Uuid7>()?, id);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn from(id: Uuid7) -> Self {
        bson::Bson::String(id.to_string())
    }
}

impl From<Simple> for bson::Bson {
    /// The 32-character text (npm `v7s`).
    fn from(id: Simple) -> Self {
        bson::Bson::String(id.to_string())
    }
}
