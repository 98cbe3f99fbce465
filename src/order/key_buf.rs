//! The reusable buffer the `n`-key functions write into: keys laid end to
//! end in one allocation.

use std::ops::Range;

use super::key::OrderKeyRef;

/// Order keys laid end to end in one allocation, reused across calls: the
/// buffer form of the `n`-key functions allocates nothing per key.
///
/// ```
/// use kuuid::order::{KeyBuf, n_keys_between_into};
///
/// let mut buf = KeyBuf::new();
/// n_keys_between_into(None, None, 3, &mut buf)?;
/// let keys: Vec<&str> = buf.iter().map(|k| k.as_str()).collect();
/// assert_eq!(keys, ["a0", "a1", "a2"]);
/// buf.clear();
/// n_keys_between_into(Some("a0"), Some("a1"), 2, &mut buf)?;
/// assert_eq!(buf.get(0).unwrap().as_str(), "a0G");
/// # Ok::<(), kuuid::order::OrderError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyBuf {
    /// The keys' bytes, end to end. `many.rs`'s algorithms write here
    /// directly (steps, reversals), then [`KeyBuf::seal`] each key.
    pub(super) text: Vec<u8>,
    /// Where each key ends in `text`.
    pub(super) ends: Vec<usize>,
}

impl KeyBuf {
    /// An empty buffer.
    ///
    /// ```
    /// assert!(kuuid::order::KeyBuf::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty buffer with room for `keys` keys of `bytes` bytes in all.
    ///
    /// ```
    /// let buf = kuuid::order::KeyBuf::with_capacity(1000, 4000);
    /// assert_eq!(buf.len(), 0);
    /// ```
    pub fn with_capacity(keys: usize, bytes: usize) -> Self {
        KeyBuf {
            text: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(keys),
        }
    }

    /// The number of keys.
    ///
    /// ```
    /// let mut buf = kuuid::order::KeyBuf::new();
    /// kuuid::order::rebalance_into(5, &mut buf)?;
    /// assert_eq!(buf.len(), 5);
    /// # Ok::<(), kuuid::order::OrderError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no keys.
    ///
    /// ```
    /// assert!(kuuid::order::KeyBuf::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Removes every key, keeping the allocations.
    ///
    /// ```
    /// let mut buf = kuuid::order::KeyBuf::new();
    /// kuuid::order::rebalance_into(5, &mut buf)?;
    /// buf.clear();
    /// assert!(buf.is_empty());
    /// # Ok::<(), kuuid::order::OrderError>(())
    /// ```
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Key `i`, if there is one.
    ///
    /// ```
    /// let mut buf = kuuid::order::KeyBuf::new();
    /// kuuid::order::n_keys_between_into(None, None, 2, &mut buf)?;
    /// assert_eq!(buf.get(1).unwrap().as_str(), "a1");
    /// assert!(buf.get(2).is_none());
    /// # Ok::<(), kuuid::order::OrderError>(())
    /// ```
    pub fn get(&self, i: usize) -> Option<OrderKeyRef<'_>> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(self.key(start..end))
    }

    /// The keys in order.
    ///
    /// ```
    /// let mut buf = kuuid::order::KeyBuf::new();
    /// kuuid::order::n_keys_between_into(None, Some("a0"), 2, &mut buf)?;
    /// let keys: Vec<String> = buf.iter().map(|k| k.to_string()).collect();
    /// assert_eq!(keys, ["Zy", "Zz"]);
    /// # Ok::<(), kuuid::order::OrderError>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = OrderKeyRef<'_>> + '_ {
        (0..self.ends.len()).map(move |i| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            self.key(start..self.ends[i])
        })
    }

    /// The keys' bytes in order, without the `&str` check that
    /// [`KeyBuf::iter`] makes on each: for writers, which want bytes.
    ///
    /// ```
    /// let mut buf = kuuid::order::KeyBuf::new();
    /// kuuid::order::n_keys_between_into(None, None, 2, &mut buf)?;
    /// let keys: Vec<&[u8]> = buf.iter_bytes().collect();
    /// assert_eq!(keys, [b"a0", b"a1"]);
    /// # Ok::<(), kuuid::order::OrderError>(())
    /// ```
    pub fn iter_bytes(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        (0..self.ends.len()).map(move |i| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            &self.text[start..self.ends[i]]
        })
    }

    fn key(&self, range: Range<usize>) -> OrderKeyRef<'_> {
        let text = std::str::from_utf8(&self.text[range]).expect("order keys are ASCII");
        OrderKeyRef::from_valid(text)
    }

    /// The text of the last key, if any.
    pub(super) fn last_bytes(&self) -> Option<&[u8]> {
        let end = *self.ends.last()?;
        let start = self.ends.len().checked_sub(2).map_or(0, |i| self.ends[i]);
        Some(&self.text[start..end])
    }

    /// Appends a key the algorithms wrote.
    pub(crate) fn push_valid(&mut self, key: &[u8]) {
        self.text.extend_from_slice(key);
        self.seal();
    }

    /// Ends the key whose bytes were appended to `text` since the last end.
    #[inline]
    pub(super) fn seal(&mut self) {
        self.ends.push(self.text.len());
    }
}
