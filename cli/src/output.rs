//! The CLI's output: ids as lines or as the items of a JSON array, through
//! a large buffer (the mint and `seq` commands), and JSON string escaping.

use std::io::{self, Write};

/// Where ids go: lines, or the items of a JSON array, through a 64 KiB
/// buffer (a write error is the command's failure).
pub struct Sink<W: Write> {
    out: W,
    buf: Vec<u8>,
    json: bool,
    first: bool,
    /// The bulk encoders' newline-ended lines (the newlines are written
    /// once, when the line width is first seen).
    lines: Vec<u8>,
    line_width: usize,
}

impl<W: Write> Sink<W> {
    pub fn new(out: W, json: bool) -> Self {
        let mut buf = Vec::with_capacity(1 << 17);
        if json {
            buf.extend_from_slice(br#"{"uuids":["#);
        }
        Sink {
            out,
            buf,
            json,
            first: true,
            lines: Vec::new(),
            line_width: 0,
        }
    }

    pub fn push(&mut self, id: &[u8]) -> io::Result<()> {
        if self.json {
            if !self.first {
                self.buf.push(b',');
            }
            json_string(id, &mut self.buf);
        } else {
            self.buf.extend_from_slice(id);
            self.buf.push(b'\n');
        }
        self.first = false;
        if self.buf.len() >= 1 << 16 {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Pushes `n` lines of `L` bytes, a text and its newline:
    /// `encode(lines)` writes each text at the start of its `L`-byte slot
    /// and leaves the last byte alone (the bulk encoders' wider slots).
    /// The slots are kept from call to call with their newlines in place,
    /// so nothing is zeroed, newline-filled or copied again (a separate
    /// text buffer copied into lines cost 33-44 % of `--format v7`'s and
    /// `--format objectid`'s time). In JSON, each text is pushed as an
    /// item.
    pub fn push_encoded<const L: usize>(
        &mut self,
        n: usize,
        encode: impl FnOnce(&mut [[u8; L]]),
    ) -> io::Result<()> {
        if self.line_width != L || self.lines.len() < n * L {
            self.lines = vec![b'\n'; n * L];
            self.line_width = L;
        }
        let lines = &mut self.lines.as_chunks_mut::<L>().0[..n];
        encode(lines);
        if self.json {
            let lines = std::mem::take(&mut self.lines);
            let pushed = lines.as_chunks::<L>().0[..n]
                .iter()
                .try_for_each(|l| self.push(&l[..L - 1]));
            self.lines = lines;
            return pushed;
        }
        // What `push` buffered goes first, to keep the order.
        if !self.buf.is_empty() {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        self.out.write_all(&self.lines[..n * L])
    }

    pub fn flush_lines(&mut self) -> io::Result<()> {
        if !self.json {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        self.out.flush()
    }

    pub fn finish(mut self) -> io::Result<()> {
        if self.json {
            self.buf.extend_from_slice(b"]}\n");
        }
        self.out.write_all(&self.buf)?;
        self.out.flush()
    }
}

/// `text` as a JSON string: quotes, backslashes and control characters
/// escaped (only a `utc_id` suffix can hold them).
pub fn json_string(text: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    for &c in text {
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0..=0x1f => out.extend_from_slice(format!("\\u{c:04x}").as_bytes()),
            _ => out.push(c),
        }
    }
    out.push(b'"');
}
