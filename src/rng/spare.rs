//! Words an RNG made but has not handed out yet.
//!
//! Both RNGs make words in fixed units (a 4-word AES block, a 16-word
//! step of eight xoshiro lanes). A request that ends inside a unit keeps the
//! unit's rest here, and the next request starts with it: no word is handed
//! out twice or thrown away.

/// The rest of the last unit of `W` words, at `words[pos..]`.
#[derive(Clone)]
pub(crate) struct Spare<const W: usize> {
    words: [u32; W],
    pos: usize,
}

impl<const W: usize> Spare<W> {
    /// Nothing kept.
    pub(crate) const fn empty() -> Self {
        Spare {
            words: [0; W],
            pos: W,
        }
    }

    /// Drops what is kept (the stream it came from changed).
    pub(crate) fn clear(&mut self) {
        self.pos = W;
    }

    /// Fills `out`: kept words first, then whole units made by `make`
    /// straight into `out`, then, if words are still missing, one more unit
    /// whose rest is kept. `make` fills a slice of whole units.
    #[inline]
    pub(crate) fn fill(&mut self, mut out: &mut [u32], mut make: impl FnMut(&mut [u32])) {
        let take = out.len().min(W - self.pos);
        out[..take].copy_from_slice(&self.words[self.pos..self.pos + take]);
        self.pos += take;
        out = &mut out[take..];
        if out.is_empty() {
            return;
        }
        let whole = out.len() / W * W;
        let (bulk, tail) = out.split_at_mut(whole);
        make(bulk);
        if !tail.is_empty() {
            make(&mut self.words);
            tail.copy_from_slice(&self.words[..tail.len()]);
            self.pos = tail.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests of every size across unit edges hand out the made words
    /// in order, each once.
    #[test]
    fn hands_out_each_made_word_once_in_order() {
        let mut next = 0u32;
        let mut spare = Spare::<4>::empty();
        let mut got = Vec::new();
        for n in [0usize, 1, 3, 4, 5, 2, 7, 8, 9, 1, 1, 1, 1, 13] {
            let mut buf = vec![u32::MAX; n];
            spare.fill(&mut buf, |unit| {
                assert_eq!(unit.len() % 4, 0);
                for w in unit {
                    *w = next;
                    next += 1;
                }
            });
            got.extend(buf);
        }
        assert_eq!(got, (0..got.len() as u32).collect::<Vec<_>>());
        spare.clear();
        let mut one = [u32::MAX];
        spare.fill(&mut one, |unit| unit.fill(7));
        assert_eq!(one, [7], "a cleared spare hands out nothing kept");
    }
}
