//! The monotonic walk behind [`crate::Generator::monotonic`]: each id's
//! random part is the last one's plus a random step, so ids from one
//! generator sort strictly in the layout's order even within one second.
//!
//! Rules (each fixes a way the order or uniqueness could break):
//! - A walk starts at a fresh random point in the lower half of the random
//!   space (upper half newest first), and steps are at most `2^11` with one
//!   group, `2^32` with more: `2^20` ids (over a million) fit in one second
//!   or millisecond before the prefix has to move, whatever the length.
//! - When the step overflows, the prefix moves one unit in the layout's
//!   direction and a fresh walk starts there. At the end of the prefix range
//!   it cannot move: that is [`Exhausted`], never a wrapped or repeated id.
//! - After a reseed (fork, [`crate::reseed`]) or a change of id length the
//!   next id starts a fresh walk one unit after the last id: a forked child
//!   and its parent never step from the same point, and a 14-character id
//!   never continues a 32-character one's words.

use crate::engine::PREFIX_LIMIT;
use crate::kuuid::id::MAX_GROUPS;

/// The monotonic sequence has no later id: the prefix is at the end of its
/// range (year 8888 in milliseconds, or a fixed time there) and the random
/// part is used up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Exhausted;

/// `Walk::groups` before the first id, and after a change of layout.
const FRESH: usize = 0;
/// `Walk::groups` after a reseed: no id may continue the walk.
const RESTART: usize = usize::MAX;

/// One generator's monotonic sequence: the last id's prefix value and
/// words. Flat fields, not an enum: the common step reads them in place
/// (an enum's match and copy-back cost ~20 instructions an id).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walk {
    /// The last id's prefix value (meaningless while `groups == FRESH`).
    value: u64,
    /// The last id's words, `groups` of them.
    words: [u32; MAX_GROUPS],
    /// The last id's number of groups (1 to 4), or [`FRESH`] or [`RESTART`].
    /// An id of another length starts a fresh walk one unit past `value`.
    groups: usize,
    /// Newest first: steps go down and "later" is a smaller prefix value.
    reverse: bool,
}

/// The largest step, less one, for `g` groups: `2^20` steps from the middle
/// of the space cannot overflow it (`2^20 * 2^11 = 2^31` for one group,
/// `2^20 * 2^32 = 2^52 < 2^63` for two).
const fn step_mask(g: usize) -> u64 {
    if g == 1 {
        (1 << 11) - 1
    } else {
        u32::MAX as u64
    }
}

impl Walk {
    /// A walk for a layout of the given order.
    pub(crate) fn new(reverse: bool) -> Self {
        Walk {
            value: 0,
            words: [0; MAX_GROUPS],
            groups: FRESH,
            reverse,
        }
    }

    /// Forgets the last id: for a new layout, whose prefix values mean
    /// other times.
    pub(crate) fn restart(&mut self, reverse: bool) {
        *self = Walk::new(reverse);
    }

    /// After a reseed: the next id starts afresh, one unit past the last.
    pub(crate) fn reseeded(&mut self) {
        if self.groups != FRESH {
            self.groups = RESTART;
        }
    }

    /// `a` is later than `b` in the layout's order.
    #[inline]
    fn later(&self, a: u64, b: u64) -> bool {
        if self.reverse { a < b } else { a > b }
    }

    /// One unit later than `value`, if the range has one.
    #[inline]
    fn next_unit(&self, value: u64) -> Result<u64, Exhausted> {
        let next = if self.reverse {
            value.checked_sub(1)
        } else {
            Some(value + 1).filter(|&v| v < PREFIX_LIMIT)
        };
        next.ok_or(Exhausted)
    }

    /// Starts a walk at prefix value `value` from fresh words `w`, put in
    /// the half of the space that leaves room to step.
    #[inline]
    fn start<const G: usize>(&mut self, value: u64, w: &mut [u32; G]) -> u64 {
        if self.reverse {
            w[0] |= 1 << 31;
        } else {
            w[0] &= !(1 << 31);
        }
        self.words[..G].copy_from_slice(w);
        self.value = value;
        self.groups = G;
        value
    }

    /// Makes each `G`-word id in `words` (already random) follow the last;
    /// their prefix values go to `prefixes`.
    pub(crate) fn run<const G: usize>(
        &mut self,
        now: u64,
        words: &mut [u32],
        prefixes: &mut [u64],
    ) -> Result<(), Exhausted> {
        for (w, p) in words.chunks_exact_mut(G).zip(prefixes) {
            *p = self.next::<G>(now, w.try_into().expect("G words"))?;
        }
        Ok(())
    }

    /// Turns fresh random words `w` under prefix value `now` into the next
    /// id of the sequence; returns its prefix value.
    #[inline]
    pub(crate) fn next<const G: usize>(
        &mut self,
        now: u64,
        w: &mut [u32; G],
    ) -> Result<u64, Exhausted> {
        if self.groups != G {
            return self.start_after(now, w);
        }
        let last = self.value;
        if self.later(now, last) {
            return Ok(self.start(now, w));
        }
        let step = (u64::from(w[G - 1]) & step_mask(G)) + 1;
        let next: &mut [u32; G] = (&mut self.words[..G]).try_into().expect("G <= 4");
        let mut stepped = *next;
        let carried = if self.reverse {
            sub_step(&mut stepped, step)
        } else {
            add_step(&mut stepped, step)
        };
        if carried {
            // The random part is used up: one unit on, a fresh walk. At the
            // end of the range the words are pinned to the end of their
            // space, so every later call fails too (no smaller step slips by).
            let Ok(value) = self.next_unit(last) else {
                let end = if self.reverse { 0 } else { u32::MAX };
                self.words[..G].fill(end);
                return Err(Exhausted);
            };
            return Ok(self.start(value, w));
        }
        *next = stepped;
        *w = stepped;
        Ok(last)
    }

    /// The first id of a walk: at now if fresh, else (after a reseed or a
    /// change of length) one unit past the last id, or now if that is later.
    #[cold]
    fn start_after<const G: usize>(
        &mut self,
        now: u64,
        w: &mut [u32; G],
    ) -> Result<u64, Exhausted> {
        if self.groups == FRESH {
            return Ok(self.start(now, w));
        }
        let value = self.next_unit(self.value)?;
        let at = if self.later(now, value) { now } else { value };
        Ok(self.start(at, w))
    }
}

/// Adds `step` to the big-endian number in `w`; true on overflow.
///
/// Branch-free (a carry of 0 runs on through the higher words): a random
/// step carries out of the lowest word half the time, a branch there
/// mispredicted on every other id.
#[inline]
fn add_step(w: &mut [u32], step: u64) -> bool {
    let mut carry = step;
    for x in w.iter_mut().rev() {
        let s = u64::from(*x) + carry;
        *x = s as u32;
        carry = s >> 32;
    }
    carry != 0
}

/// Subtracts `step` from the big-endian number in `w`; true on underflow.
/// Branch-free, as [`add_step`].
#[inline]
fn sub_step(w: &mut [u32], step: u64) -> bool {
    let mut borrow = step;
    for x in w.iter_mut().rev() {
        let low = borrow & 0xFFFF_FFFF;
        let (d, under) = x.overflowing_sub(low as u32);
        *x = d;
        borrow = (borrow >> 32) + u64::from(under);
    }
    borrow != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_carry_and_borrow_across_groups() {
        let mut w = [0, u32::MAX, u32::MAX];
        assert!(!add_step(&mut w, 1));
        assert_eq!(w, [1, 0, 0]);
        let mut w = [u32::MAX, u32::MAX];
        assert!(add_step(&mut w, 5));
        let mut w = [1, 0, 3];
        assert!(!sub_step(&mut w, 4));
        assert_eq!(w, [0, u32::MAX, u32::MAX]);
        let mut w = [0, 0];
        assert!(sub_step(&mut w, 1));
        let mut w = [7];
        assert!(!add_step(&mut w, 1 << 32 >> 1));
        assert_eq!(w, [7 + (1 << 31)]);
    }

    /// The worst case of the bound in the module docs: a fresh one-group
    /// walk at the top of its half, `2^20` maximal steps, no overflow.
    #[test]
    fn a_million_largest_steps_fit_one_unit() {
        for reverse in [false, true] {
            let mut walk = Walk::new(reverse);
            let mut w = [if reverse { 0 } else { u32::MAX }];
            assert_eq!(walk.next::<1>(5, &mut w), Ok(5));
            for i in 0..1 << 20 {
                let mut w = [u32::MAX];
                assert_eq!(walk.next::<1>(5, &mut w), Ok(5), "step {i}");
            }
        }
    }

    /// At the end of the range the walk reports exhaustion instead of
    /// repeating or going back; with a later time available it moves on.
    #[test]
    fn the_end_of_the_range_is_an_error() {
        let end = PREFIX_LIMIT - 1;
        for (reverse, edge) in [(false, end), (true, 0)] {
            let mut walk = Walk::new(reverse);
            let mut w = [0u32];
            assert_eq!(walk.next::<1>(edge, &mut w), Ok(edge));
            let mut out = Ok(edge);
            for _ in 0..1 << 22 {
                out = walk.next::<1>(edge, &mut [u32::MAX]);
                if out.is_err() {
                    break;
                }
            }
            assert_eq!(out, Err(Exhausted));
        }
    }

    /// A change of length or a reseed starts one unit later with the fresh
    /// words (their top bit moved into the walk's half).
    #[test]
    fn restarts_move_one_unit_on_with_fresh_words() {
        let mut walk = Walk::new(false);
        assert_eq!(walk.next::<4>(10, &mut [1, 2, 3, 4]), Ok(10));
        let mut w = [u32::MAX, 9];
        assert_eq!(walk.next::<2>(10, &mut w), Ok(11));
        assert_eq!(w, [u32::MAX >> 1, 9]);
        walk.reseeded();
        let mut w = [5, 6];
        assert_eq!(walk.next::<2>(11, &mut w), Ok(12));
        assert_eq!(w, [5, 6]);
        // A later clock wins over the next unit.
        walk.reseeded();
        assert_eq!(walk.next::<2>(40, &mut [5, 6]), Ok(40));
    }
}
