//! Where the algorithms write a key: a caller's growing `Vec`, or a fixed
//! buffer in place when the bounds are short (most keys are under 8 bytes;
//! a heap allocation would cost more than the key itself).

use std::ops::{Deref, DerefMut};

/// The few `Vec` operations the key algorithms use.
pub(crate) trait KeyOut: DerefMut<Target = [u8]> {
    fn push(&mut self, byte: u8);
    fn extend_from_slice(&mut self, bytes: &[u8]);
    fn truncate(&mut self, len: usize);
    fn resize(&mut self, len: usize, fill: u8);
}

impl KeyOut for Vec<u8> {
    #[inline]
    fn push(&mut self, byte: u8) {
        Vec::push(self, byte);
    }
    #[inline]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        Vec::extend_from_slice(self, bytes);
    }
    #[inline]
    fn truncate(&mut self, len: usize) {
        Vec::truncate(self, len);
    }
    #[inline]
    fn resize(&mut self, len: usize, fill: u8) {
        Vec::resize(self, len, fill);
    }
}

/// A key of at most `N` bytes (`N` < 256) in place: on the stack, or
/// inside an [`OrderKey`](super::OrderKey). Writing past the end panics
/// (a broken length bound in a caller, never reached from input).
#[derive(Clone, Copy)]
pub(crate) struct Short<const N: usize> {
    len: u8,
    bytes: [u8; N],
}

impl<const N: usize> Short<N> {
    pub(crate) const fn new() -> Self {
        assert!(N < 256);
        Short {
            len: 0,
            bytes: [0; N],
        }
    }

    fn len(&self) -> usize {
        usize::from(self.len)
    }
}

impl<const N: usize> Deref for Short<N> {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len()]
    }
}

impl<const N: usize> DerefMut for Short<N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u8] {
        let len = self.len();
        &mut self.bytes[..len]
    }
}

impl<const N: usize> KeyOut for Short<N> {
    #[inline]
    fn push(&mut self, byte: u8) {
        self.bytes[self.len()] = byte;
        self.len += 1;
    }
    #[inline]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        // A byte loop: the few bytes of a key cost less than a call to
        // libc's memcpy.
        let at = self.len();
        for (to, &from) in self.bytes[at..at + bytes.len()].iter_mut().zip(bytes) {
            *to = from;
        }
        self.len += bytes.len() as u8;
    }
    #[inline]
    fn truncate(&mut self, len: usize) {
        if len < self.len() {
            self.len = len as u8;
        }
    }
    #[inline]
    fn resize(&mut self, len: usize, fill: u8) {
        let at = self.len();
        if len > at {
            self.bytes[at..len].fill(fill);
        }
        self.len = u8::try_from(len).expect("a short key");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_acts_as_a_vec() {
        let (mut s, mut v) = (Short::<8>::new(), Vec::new());
        fn ops(o: &mut impl KeyOut) {
            o.extend_from_slice(b"a1");
            o.push(b'V');
            o.resize(6, b'0');
            o.truncate(4);
            o[1] = b'2';
            o.resize(3, b'x');
        }
        ops(&mut s);
        ops(&mut v);
        assert_eq!(&*s, &v[..]);
        assert_eq!(&*s, b"a2V");
    }
}
