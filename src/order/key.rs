//! The order key value types, their validator and its error.
//!
//! A key is an integer part (a head letter that fixes its length, then
//! base62 digits) and an optional fraction (base62 digits, never ending in
//! `0`, so every position has exactly one spelling). Keys compare by byte,
//! which is ASCII order, which is the order npm `fractional-indexing` and
//! CouchDB's `_all_docs` use.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use super::out::Short;
use crate::error::order::OrderKeyError;

use crate::engine::ALPHABET;
use crate::engine::scalar::DIGIT;

/// The smallest integer part, `A` and 26 zeros: nothing sorts before it
/// without a fraction, so it is not a key on its own.
pub(crate) const SMALLEST: &[u8; 27] = b"A00000000000000000000000000";

/// The length of the integer part that `head` starts (2 for `a` and `Z`,
/// up to 27 for `z` and `A`), or `None` if `head` is not a letter.
#[inline]
pub(crate) const fn integer_len(head: u8) -> Option<usize> {
    match head {
        b'a'..=b'z' => Some((head - b'a') as usize + 2),
        b'A'..=b'Z' => Some((b'Z' - head) as usize + 2),
        _ => None,
    }
}

/// The integer part of a valid key.
#[inline]
pub(crate) fn integer_part(key: &[u8]) -> &[u8] {
    let len = integer_len(key[0]).expect("a valid key starts with a letter");
    &key[..len]
}

/// The value of a base62 digit already known to be one.
#[inline]
pub(crate) fn digit(b: u8) -> usize {
    usize::from(DIGIT[usize::from(b & 0x7F)])
}

/// The digit halfway between digit values `lo` and `hi` (`hi` up to 62,
/// the end of the alphabet), as npm's `Math.round(0.5 * (lo + hi))`
/// makes it: halves round up.
#[inline]
pub(crate) const fn middle_digit(lo: usize, hi: usize) -> u8 {
    ALPHABET[(lo + hi).div_ceil(2)]
}

/// Byte order of two keys (ASCII order, as `<` on `&[u8]`), without a
/// call into libc's `memcmp`: keys are a few bytes, and the call cost more
/// than the comparison in `key_between`'s profile.
#[inline]
pub(crate) fn cmp_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    let (mut xs, mut ys) = (a[..n].chunks_exact(8), b[..n].chunks_exact(8));
    for (x, y) in (&mut xs).zip(&mut ys) {
        let x = u64::from_be_bytes(x.try_into().expect("8 bytes"));
        let y = u64::from_be_bytes(y.try_into().expect("8 bytes"));
        if x != y {
            return x.cmp(&y);
        }
    }
    for (x, y) in xs.remainder().iter().zip(ys.remainder()) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// 1 for every byte that is not a base62 digit.
static NOT_DIGIT: [u8; 256] = {
    let mut t = [1u8; 256];
    let mut b = 0;
    while b < 128 {
        if DIGIT[b] != 0xFF {
            t[b] = 0;
        }
        b += 1;
    }
    t
};

/// Checks `key` against the format; the error says what is wrong and where.
pub(crate) fn validate(key: &[u8]) -> Result<(), OrderKeyError> {
    let Some(&head) = key.first() else {
        return Err(OrderKeyError::Empty);
    };
    let Some(int_len) = integer_len(head) else {
        return Err(OrderKeyError::Head { byte: head });
    };
    if key.len() < int_len {
        return Err(OrderKeyError::Short {
            head: head as char,
            needed: int_len,
            found: key.len(),
        });
    }
    if let Some(at) = key[1..]
        .iter()
        .position(|&b| NOT_DIGIT[usize::from(b)] != 0)
    {
        return Err(OrderKeyError::InvalidByte {
            index: at + 1,
            byte: key[at + 1],
        });
    }
    if key.len() > int_len && key[key.len() - 1] == b'0' {
        return Err(OrderKeyError::TrailingZero {
            index: key.len() - 1,
        });
    }
    if key == SMALLEST {
        return Err(OrderKeyError::Smallest);
    }
    Ok(())
}

/// An order key that owns its text.
///
/// Ordered by byte, like the text itself, so a `BTreeMap<OrderKey, _>` or
/// a sorted `Vec` lists items in their intended order. Keys of up to 8
/// bytes (list keys nearly always are) are held in the value itself, 16
/// bytes moved in two registers, with no allocation; longer keys on the
/// heap.
///
/// ```
/// use kuuid::order::OrderKey;
///
/// let a: OrderKey = "a0".parse()?;
/// let b: OrderKey = "a0V".parse()?;
/// assert!(a < b);
/// assert_eq!(b.as_str(), "a0V");
/// # Ok::<(), kuuid::order::OrderKeyError>(())
/// ```
#[derive(Clone)]
pub struct OrderKey(Text);

/// The longest key [`Text`] holds in a word.
const WORD: usize = 8;

/// The scratch length the general path writes a key into before it is
/// taken as an [`OrderKey`].
pub(crate) const INLINE: usize = 22;

/// A key's text: one variant a length, each with the bytes in one word
/// (in memory order, so the word's bytes are the text), or a long key on
/// the heap. Every variant is a tag and one 8-byte scalar, so rustc moves
/// the value as a register pair. A key inline in a 24-byte buffer (the
/// layout before) was written with 1-, 8- and 4-byte stores and copied by
/// its caller with a 16-byte load, which cannot take its bytes from
/// narrower stores still in flight and waits for them (docs/performance.md,
/// "Measurements behind the code").
#[derive(Clone)]
enum Text {
    L2(u64),
    L3(u64),
    L4(u64),
    L5(u64),
    L6(u64),
    L7(u64),
    L8(u64),
    /// Boxed twice for a thin pointer: a wide one would break the pair.
    Heap(Box<Box<str>>),
}

impl Text {
    /// The `n`-byte key (2 to 8 bytes) whose bytes, in memory order, are
    /// `word`'s.
    #[inline(always)]
    fn word(word: u64, n: usize) -> Self {
        match n {
            2 => Text::L2(word),
            3 => Text::L3(word),
            4 => Text::L4(word),
            5 => Text::L5(word),
            6 => Text::L6(word),
            7 => Text::L7(word),
            8 => Text::L8(word),
            _ => unreachable!("a key of {n} bytes is no word"),
        }
    }
}

impl OrderKey {
    /// Checks `text` and takes a copy.
    ///
    /// ```
    /// assert!(kuuid::order::OrderKey::parse("Zz").is_ok());
    /// assert!(kuuid::order::OrderKey::parse("b1").is_err()); // 'b' needs two digits
    /// ```
    pub fn parse(text: &str) -> Result<Self, OrderKeyError> {
        validate(text.as_bytes())?;
        Ok(OrderKey::from_valid(text.as_bytes()))
    }

    /// The key's text.
    ///
    /// ```
    /// let k = kuuid::order::key_between(None, None).unwrap();
    /// assert_eq!(k.as_str(), "a0");
    /// ```
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Text::Heap(text) => text,
            // Checked again (a few bytes, no `unsafe`): a key is ASCII.
            _ => std::str::from_utf8(self.as_bytes()).expect("keys are ASCII"),
        }
    }

    /// The key's bytes.
    ///
    /// ```
    /// let k = kuuid::order::key_between(None, None).unwrap();
    /// assert_eq!(k.as_bytes(), b"a0");
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        let (word, n) = match &self.0 {
            Text::L2(w) => (w, 2),
            Text::L3(w) => (w, 3),
            Text::L4(w) => (w, 4),
            Text::L5(w) => (w, 5),
            Text::L6(w) => (w, 6),
            Text::L7(w) => (w, 7),
            Text::L8(w) => (w, 8),
            Text::Heap(text) => return text.as_bytes(),
        };
        &bytemuck::bytes_of(word)[..n]
    }

    /// A borrowed view.
    ///
    /// ```
    /// let k = kuuid::order::key_between(None, None).unwrap();
    /// assert_eq!(k.as_key_ref().as_str(), "a0");
    /// ```
    pub fn as_key_ref(&self) -> OrderKeyRef<'_> {
        OrderKeyRef(self.as_str())
    }

    /// The text, given back.
    ///
    /// ```
    /// let k = kuuid::order::key_between(None, None).unwrap();
    /// assert_eq!(k.into_string(), "a0");
    /// ```
    pub fn into_string(self) -> String {
        match self.0 {
            Text::Heap(text) => (*text).into(),
            _ => self.as_str().to_owned(),
        }
    }

    /// A key of at most [`INLINE`] bytes that `write` appends to a buffer
    /// on the stack (the general path's keys: no allocation for the work).
    pub(crate) fn write_inline(write: impl FnOnce(&mut Short<INLINE>)) -> Self {
        let mut short = Short::new();
        write(&mut short);
        OrderKey::from_valid(&short)
    }

    /// The key whose `len` bytes (at most 16) are the top of `word`, as
    /// the word path makes them: no byte loop.
    #[inline(always)]
    pub(crate) fn from_word(word: u128, len: usize) -> Self {
        let key = if len <= WORD {
            let top = ((word >> 64) as u64).to_be_bytes();
            OrderKey(Text::word(u64::from_ne_bytes(top), len))
        } else {
            OrderKey::from_valid(&word.to_be_bytes()[..len])
        };
        debug_assert!(validate(key.as_bytes()).is_ok(), "{key:?}");
        key
    }

    /// Bytes the algorithms wrote or the validator passed (so ASCII).
    pub(crate) fn from_valid(bytes: &[u8]) -> Self {
        debug_assert!(validate(bytes).is_ok(), "{bytes:?}");
        if bytes.len() <= WORD {
            let mut word = [0u8; WORD];
            word[..bytes.len()].copy_from_slice(bytes);
            OrderKey(Text::word(u64::from_ne_bytes(word), bytes.len()))
        } else {
            let text = std::str::from_utf8(bytes).expect("order keys are ASCII");
            OrderKey(Text::Heap(Box::new(text.into())))
        }
    }
}

impl PartialEq for OrderKey {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for OrderKey {}

impl PartialOrd for OrderKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrderKey {
    fn cmp(&self, other: &Self) -> Ordering {
        cmp_bytes(self.as_bytes(), other.as_bytes())
    }
}

/// Hashes as the text does, as `Borrow<str>` requires.
impl Hash for OrderKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for OrderKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("OrderKey").field(&self.as_str()).finish()
    }
}

/// An order key borrowed from text that was checked.
///
/// ```
/// use kuuid::order::OrderKeyRef;
///
/// let text = String::from("a1V");
/// let k = OrderKeyRef::parse(&text)?;
/// assert_eq!(k.to_owned_key().as_str(), "a1V");
/// # Ok::<(), kuuid::order::OrderKeyError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OrderKeyRef<'a>(&'a str);

impl<'a> OrderKeyRef<'a> {
    /// Checks `text` and borrows it.
    ///
    /// ```
    /// assert!(kuuid::order::OrderKeyRef::parse("a0").is_ok());
    /// assert!(kuuid::order::OrderKeyRef::parse("a0 ").is_err());
    /// ```
    pub fn parse(text: &'a str) -> Result<Self, OrderKeyError> {
        validate(text.as_bytes())?;
        Ok(OrderKeyRef(text))
    }

    /// The key's text.
    ///
    /// ```
    /// assert_eq!(kuuid::order::OrderKeyRef::parse("a0").unwrap().as_str(), "a0");
    /// ```
    pub fn as_str(&self) -> &'a str {
        self.0
    }

    /// The length of the integer part (the head letter and its digits);
    /// the rest is the fraction.
    ///
    /// ```
    /// let k = kuuid::order::OrderKeyRef::parse("b12V").unwrap();
    /// assert_eq!(k.as_str().split_at(k.integer_len()), ("b12", "V"));
    /// ```
    pub fn integer_len(&self) -> usize {
        integer_len(self.0.as_bytes()[0]).expect("a checked key starts with a letter")
    }

    /// An owned copy.
    ///
    /// ```
    /// let k = kuuid::order::OrderKeyRef::parse("a0").unwrap();
    /// assert_eq!(k.to_owned_key(), kuuid::order::key_between(None, None).unwrap());
    /// ```
    pub fn to_owned_key(&self) -> OrderKey {
        OrderKey::from_valid(self.0.as_bytes())
    }

    /// Text the algorithms wrote, already valid.
    pub(crate) fn from_valid(text: &'a str) -> Self {
        debug_assert!(validate(text.as_bytes()).is_ok(), "{text:?}");
        OrderKeyRef(text)
    }
}

impl FromStr for OrderKey {
    type Err = OrderKeyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OrderKey::parse(s)
    }
}

impl<'a> TryFrom<&'a str> for OrderKeyRef<'a> {
    type Error = OrderKeyError;

    fn try_from(s: &'a str) -> Result<Self, Self::Error> {
        OrderKeyRef::parse(s)
    }
}

impl From<OrderKeyRef<'_>> for OrderKey {
    fn from(k: OrderKeyRef<'_>) -> Self {
        k.to_owned_key()
    }
}

impl From<OrderKey> for String {
    fn from(k: OrderKey) -> Self {
        k.into_string()
    }
}

impl AsRef<str> for OrderKey {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for OrderKey {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for OrderKeyRef<'_> {
    fn as_ref(&self) -> &str {
        self.0
    }
}

impl PartialEq<OrderKeyRef<'_>> for OrderKey {
    fn eq(&self, other: &OrderKeyRef<'_>) -> bool {
        self.as_bytes() == other.0.as_bytes()
    }
}

impl PartialEq<OrderKey> for OrderKeyRef<'_> {
    fn eq(&self, other: &OrderKey) -> bool {
        self.0.as_bytes() == other.as_bytes()
    }
}

impl fmt::Display for OrderKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for OrderKeyRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn hash_of<T: Hash + ?Sized>(x: &T) -> u64 {
        let mut h = DefaultHasher::new();
        x.hash(&mut h);
        h.finish()
    }

    /// Keys of every length from 2 to 30, across the word/heap boundary:
    /// each gives back its text whichever way it is read, and keys order,
    /// compare and hash as their text does.
    #[test]
    fn every_length_keeps_its_text() {
        let mut texts = vec!["a5".to_string()];
        for n in 3..=30 {
            // `a5`, then a fraction of `n - 2` digits ending in a nonzero
            // one; and the integer of `n` bytes.
            let middle: String = "z0".repeat(n).chars().take(n - 3).collect();
            texts.push(format!("a5{middle}V"));
            texts.push(format!("a5{middle}1"));
            if n <= 27 {
                let head = char::from(b'a' + (n - 2) as u8);
                texts.push(format!("{head}{}", "9".repeat(n - 1)));
            }
        }
        assert!(texts.iter().any(|t| t.len() == 8) && texts.iter().any(|t| t.len() == 9));
        let mut keys = Vec::new();
        for t in &texts {
            let k = OrderKey::parse(t).unwrap_or_else(|e| panic!("{t:?}: {e}"));
            assert_eq!(k.as_str(), t);
            assert_eq!(k.as_bytes(), t.as_bytes());
            assert_eq!(k.clone().into_string(), *t);
            assert_eq!(k.as_key_ref().as_str(), t);
            assert_eq!(hash_of(&k), hash_of(t.as_str()));
            let from_word = (t.len() <= 16).then(|| {
                let mut w = [0u8; 16];
                w[..t.len()].copy_from_slice(t.as_bytes());
                OrderKey::from_word(u128::from_be_bytes(w), t.len())
            });
            if let Some(fw) = from_word {
                assert_eq!(fw, k, "{t:?}");
            }
            keys.push(k);
        }
        for (x, kx) in texts.iter().zip(&keys) {
            for (y, ky) in texts.iter().zip(&keys) {
                assert_eq!(kx.cmp(ky), x.cmp(y), "{x:?} {y:?}");
                assert_eq!(kx == ky, x == y);
            }
        }
    }

    /// A key moves as a tag and one word (two registers); the heap
    /// variant's thin pointer keeps it so.
    #[test]
    fn a_key_is_two_words() {
        assert_eq!(std::mem::size_of::<OrderKey>(), 16);
        assert_eq!(std::mem::size_of::<Option<OrderKey>>(), 16);
    }
}
