//! `inspect`'s standard input as a line filter: each line answered as
//! soon as the read that completes it returns, overlong lines reported
//! and skipped.

use std::io::{self, BufWriter, Read, Write};

use kuuid::AnyKuuid;

use crate::Failure;

/// The longest line read from a stream; a longer one is reported once its
/// first `MAX_LINE + 1` bytes are in, and its rest is skipped unread.
pub(super) const MAX_LINE: usize = 4096;

/// Bytes asked of each read (a pipe gives at most 64 KiB at once).
const READ: usize = 1 << 16;

/// `report`s each line of `input` (numbered from 1) as soon as the read that
/// completes it returns, and flushes `out` before the next read waits: a
/// line filter (`tail -f log | kuuid inspect`). Each byte is looked at a
/// fixed number of times, however long its line.
pub(super) fn filter(
    input: &mut impl Read,
    bulk: bool,
    out: &mut BufWriter<impl Write>,
    report: &mut impl FnMut(
        Option<usize>,
        &[u8],
        Option<Result<AnyKuuid, kuuid::ParseError>>,
        &mut dyn Write,
    ) -> io::Result<()>,
) -> Result<(), Failure> {
    // The unfinished line (at most MAX_LINE bytes, no newline) and a read.
    let mut buf = vec![0u8; MAX_LINE + READ];
    let mut len = 0;
    // Lines already reported.
    let mut done = 0usize;
    // Inside a line too long to keep: its rest is dropped up to its newline.
    let mut skipping = false;
    loop {
        let n = match input.read(&mut buf[len..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // An input error, not an output one: say which input.
            Err(e) => {
                return Err(Failure::Io(io::Error::new(
                    e.kind(),
                    format!("standard input: {e}"),
                )));
            }
        };
        let eof = n == 0;
        let mut fresh = len;
        len += n;
        if skipping {
            match buf[fresh..len].iter().position(|&b| b == b'\n') {
                Some(p) => {
                    buf.copy_within(fresh + p + 1..len, 0);
                    len -= fresh + p + 1;
                    fresh = 0;
                    skipping = false;
                    done += 1;
                }
                None => len = 0,
            }
        }
        // Complete lines end at the last newline, found among the new bytes
        // only: the unfinished line before them has none.
        let complete = if eof {
            len
        } else {
            buf[fresh..len]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| fresh + p + 1)
        };
        // Lines of the region: the last one yielded's number, and the blank
        // lines after it (counted in the few bytes after its text, not in
        // the whole region: a second scan cost ~10 % of a bulk run).
        let region = &buf[..complete];
        let mut last = (0, 0);
        for line in kuuid::parse_lines(region) {
            report(
                Some(done + line.line),
                line.text,
                bulk.then_some(line.id),
                out,
            )?;
            last = (
                line.line,
                line.text.as_ptr() as usize - region.as_ptr() as usize + line.text.len(),
            );
        }
        let newlines = region[last.1..].iter().filter(|&&b| b == b'\n').count();
        // The last line's own newline is among them (none at EOF without one).
        done += last.0 + newlines - usize::from(last.0 > 0 && newlines > 0);
        buf.copy_within(complete..len, 0);
        len -= complete;
        if len > MAX_LINE {
            report(Some(done + 1), &buf[..len], None, out)?;
            skipping = true;
            len = 0;
        }
        // Answers go out before a read that would wait: at once after a
        // short read (the writer is caught up), else only when nothing more
        // is ready (a flush per full read cost ~4 % of a bulk run).
        if n < READ || !stdin_ready() {
            out.flush()?;
        }
        if eof {
            return Ok(());
        }
    }
}

/// Whether stdin has bytes to read now (a read would not wait).
#[cfg(unix)]
fn stdin_ready() -> bool {
    let mut fd = libc::pollfd {
        fd: 0,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one pollfd that we own, a timeout of 0 (no wait).
    unsafe { libc::poll(&mut fd, 1, 0) == 1 }
}

#[cfg(not(unix))]
fn stdin_ready() -> bool {
    false
}
