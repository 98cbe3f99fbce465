//! Any RFC 9562 UUID in its 36-character text, for `inspect`: its kind,
//! version and variant, and the time where its version carries one (v1
//! and v6 in 100 ns ticks since 1582-10-15, v7 in milliseconds since
//! 1970). Versions 4 and 7 of the RFC variant keep their own formats
//! (`uuid-v4`, `v7`); this reads the rest: v1, v3, v5, v6, v8, nil, max
//! and the other variants.

use kuuid::Timestamp;

use super::quoted;

/// 100 ns ticks from the Gregorian epoch (1582-10-15) to 1970-01-01.
const GREGORIAN_TO_UNIX: i128 = 0x01B2_1DD2_1381_4000;

/// A UUID's 128 bits, most significant first.
#[derive(Clone, Copy)]
pub(super) struct AnyUuid(u128);

impl AnyUuid {
    /// The 36-character hyphenated text (either case), or `None`.
    pub(super) fn parse(text: &[u8]) -> Option<Self> {
        if text.len() != 36 {
            return None;
        }
        let mut value = 0u128;
        for (i, &b) in text.iter().enumerate() {
            if matches!(i, 8 | 13 | 18 | 23) {
                if b != b'-' {
                    return None;
                }
                continue;
            }
            value = value << 4 | u128::from(char::from(b).to_digit(16)?);
        }
        Some(AnyUuid(value))
    }

    /// The version nibble.
    pub(super) fn version(self) -> u8 {
        ((self.0 >> 76) & 0xf) as u8
    }

    /// Whether the variant is RFC 9562's (`10x`).
    pub(super) fn is_rfc(self) -> bool {
        (self.0 >> 62) & 0b11 == 0b10
    }

    fn variant(self) -> &'static str {
        match (self.0 >> 61) & 0b111 {
            0b000..=0b011 => "ncs",
            0b100 | 0b101 => "rfc9562",
            0b110 => "microsoft",
            _ => "future",
        }
    }

    /// The version of an RFC-variant UUID; `None` for nil, max and the
    /// other variants.
    fn rfc_version(self) -> Option<u8> {
        (self.is_rfc() && self.0 != 0 && self.0 != u128::MAX).then(|| self.version())
    }

    fn kind(self) -> String {
        match (self.0, self.rfc_version()) {
            (0, _) => "nil".into(),
            (u128::MAX, _) => "max".into(),
            (_, None) => format!("{}-variant", self.variant()),
            (_, Some(v @ 1..=8)) => format!("v{v}"),
            (_, Some(_)) => "unknown-version".into(),
        }
    }

    /// 100 ns ticks since 1582-10-15 (v1, v6).
    fn gregorian_ticks(self) -> Option<u64> {
        let v = self.0;
        let top = (v >> 96) as u64;
        let mid = ((v >> 80) & 0xffff) as u64;
        let low12 = ((v >> 64) & 0x0fff) as u64;
        match self.rfc_version()? {
            // time_low | time_mid | version, time_high
            1 => Some(low12 << 48 | mid << 32 | top),
            // time_high | time_mid | version, time_low
            6 => Some(top << 28 | mid << 12 | low12),
            _ => None,
        }
    }

    /// The time and the fields `inspect` prints.
    pub(super) fn fields(self) -> (Option<Timestamp>, Vec<(&'static str, String)>) {
        let mut fields = vec![
            ("kind", quoted(&self.kind())),
            ("version", self.version().to_string()),
            ("variant", quoted(self.variant())),
        ];
        let mut time = None;
        if let Some(ticks) = self.gregorian_ticks() {
            let unix_100ns = i128::from(ticks) - GREGORIAN_TO_UNIX;
            fields.push(("unix_100ns", unix_100ns.to_string()));
            fields.push(("clock_seq", (((self.0 >> 48) & 0x3fff) as u16).to_string()));
            let node: String = (0..6)
                .rev()
                .map(|i| format!("{:02x}", (self.0 >> (8 * i)) as u8))
                .collect();
            fields.push(("node", quoted(&node)));
            // Before 1970 there is no Timestamp: the ticks above say it.
            time = u64::try_from(unix_100ns.div_euclid(10_000))
                .ok()
                .map(Timestamp::from_millis);
        } else if self.rfc_version() == Some(7) {
            time = Some(Timestamp::from_millis((self.0 >> 80) as u64));
        }
        (time, fields)
    }
}
