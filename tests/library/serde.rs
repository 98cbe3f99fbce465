//! Serde for every id type: text in human-readable formats (JSON), the
//! binary form in binary ones (CBOR through ciborium: a kuuid's ASCII, a
//! UUID's 16 bytes, an ObjectId's 12), the `as_str` and `any` adapters,
//! and strict refusals that say what was expected.

use ciborium::Value;
use kuuid::{Kuuid, ObjectId, Simple, Uuid7};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

/// CBOR value of `v` (ciborium's serializer is not human-readable).
fn cbor<T: Serialize>(v: &T) -> Value {
    Value::serialized(v).unwrap()
}

/// JSON and CBOR round trips, and the forms each writes.
fn round_trips<T>(id: T, text: &str, binary: &[u8])
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let json = serde_json::to_string(&id).unwrap();
    assert_eq!(json, format!("\"{text}\""));
    assert_eq!(serde_json::from_str::<T>(&json).unwrap(), id);
    let value = cbor(&id);
    assert_eq!(value, Value::Bytes(binary.to_vec()));
    assert_eq!(value.deserialized::<T>().unwrap(), id);
}

#[test]
fn every_id_type_is_text_for_people_and_bytes_for_machines() {
    let k = kuuid::id();
    round_trips(k, k.as_str(), k.as_str().as_bytes());
    let u = kuuid::v7();
    round_trips(u, &u.to_string(), u.as_bytes());
    let s = kuuid::v7s();
    round_trips(s, &s.to_string(), s.0.as_bytes());
    let o = kuuid::object_id();
    round_trips(o, &o.to_string(), o.as_bytes());
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct AsStr {
    #[serde(with = "kuuid::serde::as_str")]
    v7: Uuid7,
    #[serde(with = "kuuid::serde::as_str")]
    v7s: Simple,
    #[serde(with = "kuuid::serde::as_str")]
    oid: ObjectId,
    #[serde(with = "kuuid::serde::as_str")]
    kuuid: Kuuid,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Any {
    #[serde(with = "kuuid::serde::any")]
    v7: Uuid7,
    #[serde(with = "kuuid::serde::any")]
    oid: ObjectId,
}

#[test]
fn as_str_writes_text_in_binary_formats_and_any_reads_both_forms() {
    let doc = AsStr {
        v7: kuuid::v7(),
        v7s: kuuid::v7s(),
        oid: kuuid::object_id(),
        kuuid: kuuid::id(),
    };
    let Value::Map(fields) = cbor(&doc) else {
        panic!("not a map")
    };
    let texts: Vec<_> = fields.iter().map(|(_, v)| v.clone()).collect();
    assert_eq!(
        texts,
        [
            Value::Text(doc.v7.to_string()),
            Value::Text(doc.v7s.to_string()),
            Value::Text(doc.oid.to_string()),
            Value::Text(doc.kuuid.to_string()),
        ]
    );
    assert_eq!(cbor(&doc).deserialized::<AsStr>().unwrap(), doc);

    let (v7, oid) = (kuuid::v7(), kuuid::object_id());
    let forms = [
        (Value::Text(v7.to_string()), Value::Text(oid.to_string())),
        (
            Value::Text(v7.simple().to_string()),
            Value::Text(oid.to_string().to_uppercase()),
        ),
        (
            Value::Bytes(v7.as_bytes().to_vec()),
            Value::Bytes(oid.as_bytes().to_vec()),
        ),
    ];
    for (v, o) in forms {
        let value = Value::Map(vec![("v7".into(), v), ("oid".into(), o)]);
        assert_eq!(
            value.deserialized::<Any>().unwrap(),
            Any { v7, oid },
            "{value:?}"
        );
    }
}

#[test]
fn bad_input_is_refused_with_what_was_expected() {
    // Not a UUIDv7: a version-4 UUID, as text and as bytes.
    let v4 = "017f22e2-79b0-4cc3-98c4-dc0c0c07398f";
    let err = serde_json::from_str::<Uuid7>(&format!("\"{v4}\"")).unwrap_err();
    assert!(
        err.to_string().contains("version is 4, expected 7"),
        "{err}"
    );
    let mut raw = *kuuid::v7().as_bytes();
    raw[6] = 0x40 | (raw[6] & 0x0f);
    let err = Value::Bytes(raw.to_vec())
        .deserialized::<Uuid7>()
        .unwrap_err();
    assert!(err.to_string().contains("version is 4"), "{err}");
    // Wrong lengths.
    let err = Value::Bytes(vec![0; 11])
        .deserialized::<ObjectId>()
        .unwrap_err();
    assert!(err.to_string().contains("length is 11 bytes"), "{err}");
    let err = serde_json::from_str::<ObjectId>("\"zz0000000000000000000000\"").unwrap_err();
    assert!(err.to_string().contains("at index 0"), "{err}");
    // A number is neither form: the message names the type's forms.
    let err = serde_json::from_str::<Simple>("7").unwrap_err();
    assert!(
        err.to_string().contains("a UUIDv7 as a string or 16 bytes"),
        "{err}"
    );
    let err = serde_json::from_str::<ObjectId>("[1, 2]").unwrap_err();
    assert!(
        err.to_string()
            .contains("an ObjectId as a string or 12 bytes"),
        "{err}"
    );
    // A byte array (formats that write bytes as numbers) is parsed strictly.
    let json = format!(r#"{{"v7": "{}", "oid": [1, 2, 3]}}"#, kuuid::v7());
    let err = serde_json::from_str::<Any>(&json).unwrap_err();
    assert!(err.to_string().contains("length is 3 bytes"), "{err}");
}
