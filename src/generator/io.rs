//! The generator's bulk writer: ids as lines into any [`io::Write`], encoded
//! in place between newlines that are written once (the CLI's path).

use std::io::{self, Write};

use super::{BATCH, Generator, check_groups};
use crate::engine::{GROUP_LEN, PREFIX_LEN};
use crate::error::Error;

impl Generator {
    /// Writes `count` ids with `groups` random groups, one per line, to `out`,
    /// through a reused buffer: the CLI's bulk path. Fails if writing does,
    /// if `groups` is not 1 to 4 (`InvalidInput`), or if a monotonic sequence
    /// runs out (see [`Generator::monotonic`]; an error of kind `Other`
    /// wrapping [`Error::MonotonicExhausted`]); the lines before it are
    /// written.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// kuuid::Generator::fast().write_lines(2, 3, &mut out)?;
    /// assert_eq!(out.len(), 3 * 21);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_lines(
        &mut self,
        groups: usize,
        count: u64,
        mut out: impl Write,
    ) -> io::Result<()> {
        check_groups(groups).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let line = PREFIX_LEN + GROUP_LEN * groups + 1;
        // ~64 KiB writes: large enough to amortise the syscall, small enough
        // to stay in L2 while the next batch is encoded.
        let per_write = (BATCH * 8) as u64;
        let mut buf = vec![b'\n'; line * per_write as usize];
        let mut left = count;
        while left > 0 {
            let n = left.min(per_write) as usize;
            for chunk in buf[..n * line].chunks_mut(BATCH * line) {
                let ids = chunk.len() / line;
                // Newlines sit at the end of each stride and are never overwritten.
                if let Err(e) = self.mint_batch(groups, chunk, line, ids) {
                    // Write the good lines before this batch, then fail.
                    let done = chunk.as_ptr() as usize - buf.as_ptr() as usize;
                    out.write_all(&buf[..done])?;
                    out.flush()?;
                    return Err(io::Error::other(Error::from(e)));
                }
            }
            out.write_all(&buf[..n * line])?;
            left -= n as u64;
        }
        out.flush()
    }
}
