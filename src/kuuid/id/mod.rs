//! The id value types: [`Id`] with a fixed number of random groups
//! ([`Kuuid`], [`ShortKuuid`], ...), [`AnyKuuid`] when the number is only known
//! at run time, and [`RandomPart`], the groups alone (npm `rand()`).
//!
//! Every value holds validated base62 text: constructors either encode it
//! themselves or check it strictly.

mod any;
mod random;

pub use any::AnyKuuid;
pub use random::{RandomPart, RandomWords};

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use crate::engine::scalar::DIGIT;
use crate::engine::{GROUP_LEN, PREFIX_LEN};
use crate::error::Error;
use crate::kuuid::layout::{Layout, Prefix};
use crate::parse::{self, ManyError, ParseError};
use crate::time::Timestamp;
use random::words_of;

/// Most random groups an id can carry (128 bits).
///
/// ```
/// assert_eq!(kuuid::Kuuid::GROUPS, kuuid::MAX_GROUPS);
/// assert_eq!(kuuid::id().random_words().len(), kuuid::MAX_GROUPS);
/// ```
pub const MAX_GROUPS: usize = 4;
/// Length of the longest id (8 + 4 * 6).
pub const MAX_LEN: usize = crate::engine::MAX_ID_LEN;

/// The id lengths that exist: 1 to 4 random groups.
const ANY_LEN: &[usize] = &[14, 20, 26, 32];

/// An id of `LEN` bytes: an 8-character timestamp prefix, then
/// `(LEN - 8) / 6` random groups of 6 characters. `LEN` is 14, 20, 26 or 32;
/// use the aliases [`Kuuid`] (32), [`Kuuid3`] (26), [`ShortKuuid`] (20) and
/// [`Kuuid1`] (14).
///
/// The value is the text itself (`#[repr(transparent)]` over `[u8; LEN]`), so
/// it orders, hashes and compares as the string does: byte order is time order.
///
/// ```
/// use kuuid::{Kuuid, Layout};
///
/// let id: Kuuid = "001eVnWK4gfFC300000000000100000z".parse()?;
/// assert_eq!(id.prefix().as_str(), "001eVnWK");
/// assert_eq!(id.timestamp(Layout::SECONDS).to_string(), "2018-01-01T00:00:00Z");
/// assert_eq!(&*id.random_words(), &[u32::MAX, 0, 1, 61]);
/// # Ok::<(), kuuid::ParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Id<const LEN: usize>([u8; LEN]);

/// The standard kuuid: 32 characters, 128 random bits (npm `id()`).
///
/// ```
/// let id: kuuid::Kuuid = kuuid::id();
/// assert_eq!(id.as_str().len(), 32);
/// assert_eq!(id.as_str().parse::<kuuid::Kuuid>(), Ok(id));
/// ```
pub type Kuuid = Id<32>;
/// Three random groups: 26 characters, 96 random bits (npm `id({random: 3})`).
///
/// ```
/// use kuuid::Kuuid3;
///
/// let id = Kuuid3::from_parts(kuuid::prefix(), &[1, 2, 3])?;
/// assert_eq!(id.as_str().len(), 26);
/// assert_eq!(&*id.random_words(), &[1, 2, 3]);
/// # Ok::<(), kuuid::Error>(())
/// ```
pub type Kuuid3 = Id<26>;
/// The short form: 20 characters, 64 random bits (npm `ids()`, `idsr()`:
/// seconds, oldest and newest first).
///
/// ```
/// let id: kuuid::ShortKuuid = kuuid::ids();
/// assert_eq!(id.as_str().len(), 20);
/// assert_eq!(id.random_words().len(), 2);
/// ```
pub type ShortKuuid = Id<20>;
/// One random group: 14 characters, 32 random bits (npm `id({random: 1})`).
///
/// ```
/// use kuuid::Kuuid1;
///
/// let id: Kuuid1 = "001eVnWK4gfFC3".parse()?;
/// assert_eq!(&*id.random_words(), &[u32::MAX]);
/// # Ok::<(), kuuid::ParseError>(())
/// ```
pub type Kuuid1 = Id<14>;

impl<const LEN: usize> Id<LEN> {
    /// The number of random groups; using an `Id` of any other length than
    /// 14, 20, 26 or 32 is a compile-time error.
    ///
    /// ```
    /// assert_eq!(kuuid::Kuuid::GROUPS, 4);
    /// assert_eq!(kuuid::ShortKuuid::GROUPS, 2);
    /// ```
    pub const GROUPS: usize = {
        assert!(
            LEN >= PREFIX_LEN + GROUP_LEN
                && LEN <= MAX_LEN
                && (LEN - PREFIX_LEN).is_multiple_of(GROUP_LEN),
            "an id is 8 + 6 * groups bytes long, with 1 to 4 groups"
        );
        (LEN - PREFIX_LEN) / GROUP_LEN
    };
    const EXPECTED: &'static [usize] = &[LEN];

    /// Wraps bytes the caller has already encoded or validated.
    pub(crate) const fn from_valid(bytes: [u8; LEN]) -> Self {
        let _ = Self::GROUPS;
        Id(bytes)
    }

    /// Views a slice of ids as their concatenated bytes, so the batch
    /// engine can write many ids with one stride.
    pub(crate) fn as_flat_bytes_mut(ids: &mut [Self]) -> &mut [u8] {
        let len = ids.len() * LEN;
        // SAFETY: `Id<LEN>` is `#[repr(transparent)]` over `[u8; LEN]`, so a
        // slice of `n` ids is `n * LEN` initialised, contiguous bytes with no
        // padding, and any byte pattern is a valid `u8`. The returned borrow
        // is tied to `ids`, so no alias outlives it. Callers only write base62
        // ASCII into it, keeping each id's invariant.
        unsafe { std::slice::from_raw_parts_mut(ids.as_mut_ptr().cast::<u8>(), len) }
    }

    /// Strictly parses id bytes: exact length, every byte base62, every group
    /// at most `4gfFC3`.
    ///
    /// ```
    /// use kuuid::{Kuuid, ParseError};
    /// assert!(Kuuid::parse_bytes(b"00000000000000000000000000000000").is_ok());
    /// assert_eq!(Kuuid::parse_bytes(b"0000000000000000000000000000000\xff"),
    ///            Err(ParseError::InvalidByte { index: 31, byte: 0xff }));
    /// ```
    pub fn parse_bytes(text: &[u8]) -> Result<Self, ParseError> {
        let bytes: [u8; LEN] = text.try_into().map_err(|_| ParseError::Length {
            expected: Self::EXPECTED,
            found: text.len(),
        })?;
        let mut words = [0u32; MAX_GROUPS];
        parse::decode(&bytes, &mut words[..Self::GROUPS])?;
        Ok(Id(bytes))
    }

    /// Parses `out.len()` ids laid out every `stride` bytes of `text` (33 for
    /// newline-terminated lines) into `out`, strictly; stops at the first bad
    /// one. 32-character ids are validated in bulk on the SIMD engine.
    ///
    /// ```
    /// let mut text = Vec::new();
    /// for _ in 0..1000 {
    ///     text.extend_from_slice(kuuid::id().as_bytes());
    ///     text.push(b'\n');
    /// }
    /// let mut ids = vec![kuuid::Kuuid::default(); 1000];
    /// kuuid::Kuuid::parse_many(&text, 33, &mut ids)?;
    /// assert_eq!(ids[999].as_bytes(), &text[999 * 33..999 * 33 + 32]);
    /// # Ok::<(), kuuid::ManyError>(())
    /// ```
    pub fn parse_many(text: &[u8], stride: usize, out: &mut [Self]) -> Result<(), ManyError> {
        Self::parse_many_on(None, text, stride, out)
    }

    /// [`parse_many`](Self::parse_many) on a chosen engine path, as
    /// [`Generator::with_isa`](crate::Generator::with_isa) mints on one: for
    /// benchmarking a CPU's paths side by side (`kuuid bench`) and for
    /// checking one. The same ids and errors on every path; a path this CPU
    /// cannot run is [`Error::Isa`].
    ///
    /// ```
    /// use kuuid::{Kuuid, engine::Isa};
    /// let text = format!("{}\n{}\n", kuuid::id(), kuuid::id());
    /// let mut want = [Kuuid::default(); 2];
    /// Kuuid::parse_many(text.as_bytes(), 33, &mut want)?;
    /// for isa in Isa::available() {
    ///     let mut ids = [Kuuid::default(); 2];
    ///     Kuuid::parse_many_with(isa, text.as_bytes(), 33, &mut ids)?;
    ///     assert_eq!(ids, want);
    /// }
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn parse_many_with(
        isa: crate::engine::Isa,
        text: &[u8],
        stride: usize,
        out: &mut [Self],
    ) -> Result<(), Error> {
        if !isa.is_supported() {
            return Err(Error::Isa(crate::engine::IsaError::Unsupported(isa)));
        }
        Ok(Self::parse_many_on(Some(isa), text, stride, out)?)
    }

    /// [`parse_many`](Self::parse_many) on `isa`, or the process's path.
    fn parse_many_on(
        isa: Option<crate::engine::Isa>,
        text: &[u8],
        stride: usize,
        out: &mut [Self],
    ) -> Result<(), ManyError> {
        let n = out.len();
        // Checked even for no ids: a stride of 0 would divide by zero below.
        if stride < LEN {
            return Err(ManyError {
                index: 0,
                error: ParseError::Length {
                    expected: Self::EXPECTED,
                    found: stride,
                },
            });
        }
        // Ids wholly inside `text`; a short last one is a length error.
        let whole = n.min(parse::whole_records(text.len(), LEN, stride));
        let bad = |i: usize| -> ManyError {
            let error = Self::parse_bytes(parse::record(text, i, LEN, stride))
                .expect_err("the engine rejected it");
            ManyError { index: i, error }
        };
        if Self::GROUPS == MAX_GROUPS {
            const CHUNK: usize = 256;
            let mut prefixes = [0u64; CHUNK];
            let mut words = [0u32; CHUNK * MAX_GROUPS];
            let mut done = 0;
            while done < whole {
                let k = (whole - done).min(CHUNK);
                let chunk = &text[done * stride..];
                let valid = crate::engine::decode_ids(
                    isa,
                    chunk,
                    stride,
                    &mut prefixes[..k],
                    &mut words[..k * MAX_GROUPS],
                );
                for (j, slot) in out[done..done + valid].iter_mut().enumerate() {
                    let bytes = &chunk[j * stride..j * stride + LEN];
                    *slot = Id::from_valid(bytes.try_into().expect("LEN bytes"));
                }
                if valid < k {
                    return Err(bad(done + valid));
                }
                done += k;
            }
        } else {
            for (i, slot) in out[..whole].iter_mut().enumerate() {
                *slot = Self::parse_bytes(&text[i * stride..i * stride + LEN])
                    .map_err(|error| ManyError { index: i, error })?;
            }
        }
        if whole < n {
            return Err(bad(whole));
        }
        Ok(())
    }

    /// Builds an id from its prefix and exactly [`Self::GROUPS`] random words.
    ///
    /// ```
    /// use kuuid::{Kuuid, Layout};
    /// let prefix = Layout::SECONDS.prefix(0u64)?;
    /// let id = Kuuid::from_parts(prefix, &[0, 1, 2, u32::MAX])?;
    /// assert_eq!(id.as_str(), "000000000000000000010000024gfFC3");
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn from_parts(prefix: Prefix, words: &[u32]) -> Result<Self, Error> {
        if words.len() != Self::GROUPS {
            return Err(Error::WordCount {
                expected: Self::GROUPS,
                found: words.len(),
            });
        }
        let mut bytes = [0u8; LEN];
        crate::engine::encode_ids(
            None,
            prefix.as_bytes(),
            words,
            Self::GROUPS,
            &mut bytes,
            LEN,
            1,
        );
        Ok(Id(bytes))
    }

    /// The id as text.
    ///
    /// Each call checks the bytes as UTF-8 (no `unsafe` for text: the
    /// crate keeps it to SIMD, OS calls and the two spots `src/sys/mod.rs`
    /// lists): about 60 instructions, about 3 ns on a Zen 4 (`cargo bench --bench hot_path -- 'single/kuuid::id'`), a third
    /// of a [`crate::id`]. Where bytes do, as when writing to a socket or a
    /// buffer, [`as_bytes`](Self::as_bytes) is free.
    ///
    /// ```
    /// let id = kuuid::id();
    /// assert_eq!(id.as_str().len(), 32);
    /// assert_eq!(id.as_str().as_bytes(), id.as_bytes());
    /// ```
    pub fn as_str(&self) -> &str {
        text(&self.0)
    }

    /// The id's ASCII bytes.
    ///
    /// ```
    /// let id = kuuid::id();
    /// assert_eq!(id.as_bytes().len(), 32);
    /// ```
    pub const fn as_bytes(&self) -> &[u8; LEN] {
        &self.0
    }

    /// Copies the text into a caller's buffer (no allocation) and returns it
    /// as `&str`; fails if the buffer is shorter than the id.
    ///
    /// ```
    /// let id = kuuid::id();
    /// let mut buf = [0u8; 64];
    /// assert_eq!(id.encode_to(&mut buf)?, id.as_str());
    /// assert!(id.encode_to(&mut [0u8; 31]).is_err());
    /// # Ok::<(), kuuid::Error>(())
    /// ```
    pub fn encode_to<'b>(&self, buf: &'b mut [u8]) -> Result<&'b mut str, Error> {
        encode_to(&self.0, buf)
    }

    /// The 8-character timestamp prefix.
    ///
    /// ```
    /// let id = kuuid::id_at("2018-01-01T00:00:00Z")?;
    /// assert_eq!(id.prefix().as_str(), "001eVnWK");
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn prefix(&self) -> Prefix {
        prefix_of(&self.0)
    }

    /// When the id was minted, read under the layout it was minted with (the
    /// text does not record it).
    ///
    /// ```
    /// use kuuid::Layout;
    /// let id = kuuid::idmsr_at(1_514_764_800_123u64)?;
    /// assert_eq!(id.timestamp(Layout::MILLIS_REVERSE).as_millis(), 1_514_764_800_123);
    /// # Ok::<(), kuuid::TimeError>(())
    /// ```
    pub fn timestamp(&self, layout: Layout) -> Timestamp {
        self.prefix().timestamp(layout)
    }

    /// The random part as text (everything after the prefix).
    ///
    /// ```
    /// let id = kuuid::id();
    /// assert_eq!(id.random_str().len(), 24);
    /// ```
    pub fn random_str(&self) -> &str {
        &self.as_str()[PREFIX_LEN..]
    }

    /// The random groups as numbers, first group first.
    ///
    /// ```
    /// let id: kuuid::ShortKuuid = "0000000000000100000A".parse()?;
    /// assert_eq!(&*id.random_words(), &[1, 10]);
    /// # Ok::<(), kuuid::ParseError>(())
    /// ```
    pub fn random_words(&self) -> RandomWords {
        words_of(&self.0)
    }
}

/// All zeros: the smallest id of this length (time 0, random words 0).
impl<const LEN: usize> Default for Id<LEN> {
    fn default() -> Self {
        Id::from_valid([b'0'; LEN])
    }
}

impl<const LEN: usize> fmt::Display for Id<LEN> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<const LEN: usize> fmt::Debug for Id<LEN> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Id({:?})", self.as_str())
    }
}

impl<const LEN: usize> AsRef<str> for Id<LEN> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<const LEN: usize> AsRef<[u8]> for Id<LEN> {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl<const LEN: usize> FromStr for Id<LEN> {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, ParseError> {
        Self::parse_bytes(s.as_bytes())
    }
}

impl<const LEN: usize> TryFrom<&str> for Id<LEN> {
    type Error = ParseError;

    fn try_from(s: &str) -> Result<Self, ParseError> {
        Self::parse_bytes(s.as_bytes())
    }
}

impl<const LEN: usize> TryFrom<&[u8]> for Id<LEN> {
    type Error = ParseError;

    fn try_from(b: &[u8]) -> Result<Self, ParseError> {
        Self::parse_bytes(b)
    }
}

impl<const LEN: usize> From<Id<LEN>> for [u8; LEN] {
    fn from(id: Id<LEN>) -> Self {
        id.0
    }
}

impl<const LEN: usize> From<Id<LEN>> for String {
    fn from(id: Id<LEN>) -> Self {
        id.as_str().to_owned()
    }
}

impl<const LEN: usize> PartialEq<str> for Id<LEN> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<const LEN: usize> PartialEq<&str> for Id<LEN> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Validated id bytes as `&str`.
fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("id text is base62 ASCII")
}

fn encode_to<'b>(text: &[u8], buf: &'b mut [u8]) -> Result<&'b mut str, Error> {
    let found = buf.len();
    let dst = buf.get_mut(..text.len()).ok_or(Error::BufferTooSmall {
        needed: text.len(),
        found,
    })?;
    dst.copy_from_slice(text);
    Ok(std::str::from_utf8_mut(dst).expect("id text is base62 ASCII"))
}

/// Value of base62 digits already validated.
fn value_of(digits: &[u8]) -> u64 {
    digits.iter().fold(0u64, |v, &b| {
        v * 62 + u64::from(DIGIT[usize::from(b & 0x7F)])
    })
}

fn prefix_of(text: &[u8]) -> Prefix {
    Prefix::from_value(value_of(&text[..PREFIX_LEN]))
}
