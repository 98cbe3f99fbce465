//! TypeIDs: the spec's prefix grammar for every byte, the suffix's
//! alphabet, the derived order equal to the text's, and minting order.
//! npm typeid-js: `servers/node_typeid.rs`; in SQLite and PostgreSQL:
//! `integration-tests/tests/library/typeid_stores.rs`.

use kuuid::{TypeId, TypeIdParseError, TypeIdPrefix, Uuid7};

/// The spec's regex, `^([a-z]([a-z_]*[a-z])?)?$`, at most 63 characters.
fn spec_allows(p: &[u8]) -> bool {
    p.len() <= 63
        && (p.is_empty()
            || (p[0].is_ascii_lowercase()
                && p[p.len() - 1].is_ascii_lowercase()
                && p.iter().all(|&b| b.is_ascii_lowercase() || b == b'_')))
}

#[test]
fn every_byte_in_every_place_of_a_prefix() {
    let mut checked = 0;
    for base in [&b"a"[..], b"ab", b"abc", b"user_account"] {
        for i in 0..base.len() {
            for b in 0..=255u8 {
                let mut p = base.to_vec();
                p[i] = b;
                let text = [&p[..], b"_01h455vb4pex5vsknk084sn02q"].concat();
                let parsed = TypeId::parse_bytes(&text);
                assert_eq!(
                    parsed.is_ok(),
                    spec_allows(&p),
                    "{:?}: {parsed:?}",
                    String::from_utf8_lossy(&text)
                );
                if let Ok(id) = parsed {
                    assert_eq!(id.prefix().as_str().as_bytes(), &p[..]);
                    assert_eq!(id.to_string().as_bytes(), &text[..]);
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 4000);
    // Length: 63 is the most.
    let long = "a".repeat(63);
    assert!(TypeIdPrefix::new(&long).is_ok());
    assert_eq!(
        TypeIdPrefix::new(&(long + "a")),
        Err(TypeIdParseError::PrefixTooLong { found: 64 })
    );
}

#[test]
fn the_suffix_is_small_letters_and_at_most_128_bits() {
    let e = |t: &str| t.parse::<TypeId>().unwrap_err();
    assert_eq!(
        e("prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz"),
        TypeIdParseError::SuffixOverflow { first: b'8' }
    );
    assert!(matches!(
        e("prefix_0123456789ABCDEFGHJKMNPQRS"),
        TypeIdParseError::SuffixByte {
            index: 17,
            byte: b'A'
        }
    ));
    assert_eq!(e("_"), TypeIdParseError::SeparatorWithoutPrefix);
    assert_eq!(
        e("prefix__00000000000000000000000000"),
        TypeIdParseError::PrefixByte {
            index: 6,
            byte: b'_'
        }
    );
    assert_eq!(
        e("prefix_1234567890123456789012345"),
        TypeIdParseError::SuffixLength { found: 25 }
    );
    let max: TypeId = "7zzzzzzzzzzzzzzzzzzzzzzzzz".parse().unwrap();
    assert_eq!(max.uuid_bytes(), &[0xff; 16]);
    assert!(
        e("prefix_0000000000000000000000000i")
            .to_string()
            .contains("index 32")
    );
}

/// Random prefixes and UUIDs: `Ord` on the values is `Ord` on the text.
#[test]
fn the_order_of_values_is_the_order_of_text() {
    let mut x = 0x2545_F491_4F6C_DD1D_u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let letters = b"ab_";
    let ids: Vec<TypeId> = (0..3000)
        .map(|_| {
            let len = (next() % 6) as usize;
            let mut p: Vec<u8> = (0..len).map(|_| letters[(next() % 3) as usize]).collect();
            if let Some(f) = p.first_mut() {
                *f = b'a';
            }
            if let Some(l) = p.last_mut() {
                *l = b'b';
            }
            let prefix = TypeIdPrefix::new(std::str::from_utf8(&p).unwrap()).unwrap();
            let uuid = (u128::from(next()) << 64 | u128::from(next())) >> (next() % 128);
            TypeId::from_uuid_bytes(prefix, uuid.to_be_bytes())
        })
        .collect();
    for w in ids.windows(2) {
        let (a, b) = (w[0], w[1]);
        assert_eq!(a.cmp(&b), a.to_string().cmp(&b.to_string()), "{a} {b}");
    }
}

#[test]
fn minted_typeids_are_ordered_uuidv7s() {
    let p = TypeIdPrefix::new("user").unwrap();
    let mut ids = vec![TypeId::new(p, Uuid7::MIN); 1000];
    kuuid::fill_typeid(p, &mut ids);
    ids.push(kuuid::typeid(p));
    let mut g = kuuid::TypeIdGenerator::new(p);
    let from_g = g.generate();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    for id in ids.iter().chain([&from_g]) {
        let v7 = id.uuid7().unwrap();
        assert_eq!(id.timestamp(), v7.timestamp());
        assert_eq!(id.to_string().parse::<TypeId>().unwrap(), *id);
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_writes_the_text_everywhere() {
    let id =
        kuuid::typeid(TypeIdPrefix::new("a_rather_long_prefix_for_a_document_type_name").unwrap());
    let json = serde_json::to_string(&id).unwrap();
    assert_eq!(json, format!("\"{id}\""));
    assert_eq!(serde_json::from_str::<TypeId>(&json).unwrap(), id);
    let mut cbor = Vec::new();
    ciborium::into_writer(&id, &mut cbor).unwrap();
    assert_eq!(ciborium::from_reader::<TypeId, _>(&cbor[..]).unwrap(), id);
    let e = serde_json::from_str::<TypeId>("\"User_01h455vb4pex5vsknk084sn02q\"").unwrap_err();
    assert!(e.to_string().contains("index 0"), "{e}");
}
