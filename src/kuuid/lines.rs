//! Ids one per line: the reader behind `kuuid inspect` and bulk imports.
//! Runs of 32-character lines are validated in bulk on the SIMD engine.

use crate::engine::{GROUP_LEN, PREFIX_LEN};
use crate::kuuid::id::AnyKuuid;
use crate::parse::ParseError;

/// One line of [`parse_lines`]: its number, its text, and the id or the fault.
///
/// ```
/// use kuuid::ParsedLine;
///
/// let text = b"  00000000000001  \n000000004gfFC4\n";
/// let mut lines = kuuid::parse_lines(text);
/// let first: ParsedLine = lines.next().unwrap();
/// assert_eq!((first.line, first.text), (1, &b"00000000000001"[..]));
/// let second = lines.next().unwrap();
/// assert_eq!(second.id, Err(kuuid::ParseError::GroupOverflow { index: 8 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedLine<'a> {
    /// 1-based line number in the text.
    pub line: usize,
    /// The line without its line ending and surrounding whitespace.
    pub text: &'a [u8],
    /// The id, or why the line is not one.
    pub id: Result<AnyKuuid, ParseError>,
}

/// Parses one id per line (any of the four lengths; `\n` or `\r\n`
/// endings; blank lines skipped). Runs of 32-character lines are validated
/// in bulk on the SIMD engine; other lines one by one. Every line is yielded,
/// good or bad, so a caller can report each fault and go on.
///
/// ```
/// let text = b"001eVnWK4gfFC3000000000000000000\nnot an id\n\n00000000000001\r\n";
/// let lines: Vec<_> = kuuid::parse_lines(text).collect();
/// assert_eq!(lines.len(), 3);
/// assert!(lines[0].id.is_ok());
/// assert_eq!(lines[1].line, 2);
/// assert!(lines[1].id.is_err());
/// assert_eq!(lines[2].id.unwrap().groups(), 1);
/// ```
pub fn parse_lines(text: &[u8]) -> ParseLines<'_> {
    ParseLines {
        rest: text,
        line: 0,
        ready: Vec::new(),
        next_ready: 0,
    }
}

/// The iterator of [`parse_lines`].
///
/// ```
/// // Count the good lines and report the bad ones, in one pass.
/// let text = b"001eVnWK4gfFC3000000000000000000\nnope\n001eVnWK4gfFC3000000000000000001\n";
/// let mut good = 0;
/// for line in kuuid::parse_lines(text) {
///     match line.id {
///         Ok(_) => good += 1,
///         Err(e) => assert_eq!((line.line, line.text), (2, &b"nope"[..]), "{e}"),
///     }
/// }
/// assert_eq!(good, 2);
/// ```
#[derive(Clone, Debug)]
pub struct ParseLines<'a> {
    rest: &'a [u8],
    /// Lines consumed so far.
    line: usize,
    /// A validated run waiting to be yielded, from `next_ready`.
    ready: Vec<ParsedLine<'a>>,
    next_ready: usize,
}

/// A full id line: 32 characters and `\n`.
const RUN_STRIDE: usize = PREFIX_LEN + 4 * GROUP_LEN + 1;
/// Lines validated per engine call.
const RUN_MAX: usize = 256;

impl<'a> ParseLines<'a> {
    /// Validates the run of plain 32-character lines at the front, if any.
    fn fill_run(&mut self) {
        let mut k = 0;
        while k < RUN_MAX
            && self.rest.len() >= (k + 1) * RUN_STRIDE
            && self.rest[k * RUN_STRIDE + RUN_STRIDE - 1] == b'\n'
        {
            k += 1;
        }
        if k < 2 {
            return;
        }
        let mut prefixes = [0u64; RUN_MAX];
        let mut words = [0u32; RUN_MAX * 4];
        let valid = crate::engine::decode_ids(
            None,
            self.rest,
            RUN_STRIDE,
            &mut prefixes[..k],
            &mut words[..k * 4],
        );
        self.ready.clear();
        self.next_ready = 0;
        for j in 0..valid {
            let text = &self.rest[j * RUN_STRIDE..j * RUN_STRIDE + RUN_STRIDE - 1];
            self.ready.push(ParsedLine {
                line: self.line + j + 1,
                text,
                id: Ok(AnyKuuid::from_valid(text)),
            });
        }
        self.rest = &self.rest[valid * RUN_STRIDE..];
        self.line += valid;
    }
}

impl<'a> Iterator for ParseLines<'a> {
    type Item = ParsedLine<'a>;

    fn next(&mut self) -> Option<ParsedLine<'a>> {
        loop {
            if let Some(l) = self.ready.get(self.next_ready) {
                self.next_ready += 1;
                return Some(*l);
            }
            self.fill_run();
            if self.next_ready < self.ready.len() {
                continue;
            }
            if self.rest.is_empty() {
                return None;
            }
            let end = self.rest.iter().position(|&b| b == b'\n');
            let (line, rest) = match end {
                Some(e) => (&self.rest[..e], &self.rest[e + 1..]),
                None => (self.rest, &self.rest[self.rest.len()..]),
            };
            self.rest = rest;
            self.line += 1;
            let text = line.trim_ascii();
            if text.is_empty() {
                continue;
            }
            return Some(ParsedLine {
                line: self.line,
                text,
                id: AnyKuuid::parse_bytes(text),
            });
        }
    }
}
