//! The AES-128 key schedule (FIPS-197 section 5.2), in portable code: the
//! ARMv8 path's (it has no key-schedule instruction), and the reference the
//! AES-NI schedule (`x86_64::expand_aesni`) is tested against. Every path
//! (AES-NI, VAES, the ARMv8 crypto extension) takes the same eleven round
//! keys as bytes.

/// Round keys of AES-128, round `r` at `[r]`, in the standard's byte order.
pub(crate) type RoundKeys = [[u8; 16]; 11];

/// The S-box (FIPS-197 5.1.1), computed rather than typed in: the inverse in
/// GF(2^8) (0 for 0), then the affine map.
const SBOX: [u8; 256] = {
    let mut s = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        let b = inverse(x as u8);
        s[x] = b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63;
        x += 1;
    }
    s
};

/// Product in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
const fn mul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
        b >>= 1;
    }
    p
}

/// `x^254`, which is `x^-1` for `x != 0` and 0 for 0.
const fn inverse(x: u8) -> u8 {
    let mut result = 1;
    let mut base = x;
    let mut e = 254u8;
    while e != 0 {
        if e & 1 != 0 {
            result = mul(result, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    result
}

/// The eleven round keys for `key`.
pub(crate) fn expand(key: &[u8; 16]) -> RoundKeys {
    let mut w = [[0u8; 4]; 44];
    for (i, word) in w.iter_mut().take(4).enumerate() {
        word.copy_from_slice(&key[4 * i..4 * i + 4]);
    }
    let mut rcon = 1u8;
    for i in 4..44 {
        let mut t = w[i - 1];
        if i % 4 == 0 {
            t = [
                SBOX[t[1] as usize],
                SBOX[t[2] as usize],
                SBOX[t[3] as usize],
                SBOX[t[0] as usize],
            ];
            t[0] ^= rcon;
            rcon = mul(rcon, 2);
        }
        for (b, prev) in t.iter_mut().zip(w[i - 4]) {
            *b ^= prev;
        }
        w[i] = t;
    }
    let mut keys = [[0u8; 16]; 11];
    for (r, k) in keys.iter_mut().enumerate() {
        for j in 0..4 {
            k[4 * j..4 * j + 4].copy_from_slice(&w[4 * r + j]);
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS-197 5.1.1's worked example and the table's corners.
    #[test]
    fn sbox_matches_the_standard() {
        assert_eq!(SBOX[0x00], 0x63);
        assert_eq!(SBOX[0x53], 0xed);
        assert_eq!(SBOX[0xff], 0x16);
        let mut seen = [false; 256];
        for &b in &SBOX {
            seen[b as usize] = true;
        }
        assert!(seen.iter().all(|&s| s), "the S-box is a permutation");
    }

    /// FIPS-197 appendix A.1: the expansion of 2b7e1516 28aed2a6 abf71588 09cf4f3c.
    #[test]
    fn expansion_matches_appendix_a1() {
        let key = [
            0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf,
            0x4f, 0x3c,
        ];
        let keys = expand(&key);
        assert_eq!(keys[0], key);
        assert_eq!(keys[1][..4], [0xa0, 0xfa, 0xfe, 0x17]);
        assert_eq!(
            keys[10],
            [
                0xd0, 0x14, 0xf9, 0xa8, 0xc9, 0xee, 0x25, 0x89, 0xe1, 0x3f, 0x0c, 0xc8, 0xb6, 0x63,
                0x0c, 0xa6
            ]
        );
    }
}
