//! The RFC 9562 bit layout that both UUID formats write and check: this
//! crate's UUIDv7 ([`super::v7`]) and CouchDB's `uuid_v4` and `uuid_v7`
//! ([`super::couch`]). Values are the UUID's 128 bits, big-endian: the
//! version nibble at bits 76..80, the variant at bits 62..64.

/// The last millisecond a UUIDv7's 48-bit time holds (year 10889).
pub(crate) const MAX_UNIX_MILLIS: u64 = (1 << 48) - 1;

/// The version nibble's place.
const VERSION_SHIFT: u32 = 76;
/// The variant's place: its two bits are `10` in every RFC 9562 UUID.
const VARIANT_SHIFT: u32 = 62;

/// `value` with its version nibble set to `version` and its variant to
/// `10`; every other bit kept. (CouchDB `uuid_v4`/`uuid_v7`.)
#[cfg(feature = "couch")]
pub(crate) const fn with_version(value: u128, version: u8) -> u128 {
    value & !(0xf << VERSION_SHIFT) & !(0b11 << VARIANT_SHIFT)
        | (version as u128) << VERSION_SHIFT
        | 0b10 << VARIANT_SHIFT
}

/// How 128 bits fail to be a UUID of a version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotThisUuid {
    /// The version nibble found.
    Version(u8),
    /// The variant's nibble found (its top two bits are not `10`).
    Variant(u8),
}

/// Checks that `value` is an RFC 9562 UUID of `version`: the version first,
/// then the variant.
pub(crate) const fn check(value: u128, version: u8) -> Result<(), NotThisUuid> {
    let found = ((value >> VERSION_SHIFT) & 0xf) as u8;
    if found != version {
        return Err(NotThisUuid::Version(found));
    }
    if (value >> VARIANT_SHIFT) & 0b11 != 0b10 {
        return Err(NotThisUuid::Variant(((value >> 60) & 0xf) as u8));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_version_sets_only_version_and_variant() {
        let others = !(0xf << VERSION_SHIFT) & !(0b11 << VARIANT_SHIFT);
        for (value, version) in [(0, 4), (u128::MAX, 7), (0x0123_4567_89ab_cdef << 40, 7)] {
            let v = with_version(value, version);
            assert_eq!(check(v, version), Ok(()));
            assert_eq!(v & others, value & others);
            assert_eq!(check(v, version ^ 1), Err(NotThisUuid::Version(version)));
        }
        assert_eq!(check(0x7 << VERSION_SHIFT, 7), Err(NotThisUuid::Variant(0)));
        let variant_11 = 0x7 << VERSION_SHIFT | 0xc << 60;
        assert_eq!(check(variant_11, 7), Err(NotThisUuid::Variant(0xc)));
    }
}
