//! `kuuid [-n N] [--format F] ...`: mint ids, one per line (or CouchDB's
//! `/_uuids` JSON body), through a large buffer.

use std::io::{self, Write};

use clap::{Args, ValueEnum};
use kuuid::couch::{Algorithm, Uuids};
use kuuid::{
    Generator, Ksuid, ObjectId, RngKind, Timestamp, TypeId, TypeIdPrefix, Ulid, Uuid7,
    V7GeneratorAt,
};

use crate::output::Sink;
use crate::{Failure, LayoutArgs};

/// The id formats the CLI mints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum IdFormat {
    /// kuuid: 8 base62 characters of time, then random groups (npm kuuid).
    Kuuid,
    /// UUIDv7, 36 characters, ordered across the process (npm kuuid 3.x `v7`).
    V7,
    /// UUIDv7 without dashes, 32 characters (npm kuuid 3.x `v7s`).
    V7s,
    /// ULID, 26 characters of Crockford base32, ordered across the process.
    Ulid,
    /// TypeID: --prefix, `_`, a UUIDv7 in 26 small-letter base32 characters.
    Typeid,
    /// KSUID, 27 base62 characters: seconds since 2014-05-13, 128 random bits.
    Ksuid,
    /// MongoDB ObjectId, 24 hex characters.
    Objectid,
    /// CouchDB `random`: 32 hex.
    CouchRandom,
    /// CouchDB `sequential`: 26 hex of prefix, 6 of a growing counter.
    CouchSequential,
    /// CouchDB `utc_random`: 14 hex of microseconds, 18 random hex.
    CouchUtcRandom,
    /// CouchDB `utc_id`: 14 hex of microseconds, then --suffix.
    CouchUtcId,
    /// CouchDB `uuid_v4` (in --couch-format).
    UuidV4,
    /// CouchDB `uuid_v7`: random rand_a, no counter (in --couch-format).
    CouchUuidV7,
    /// An order key (fractional index), for `inspect` only (`kuuid
    /// between` makes them): hidden from the minting formats' list.
    #[value(hide = true)]
    Order,
    /// A pre-2018 ObjectId (time, 3-byte machine, 2-byte process id,
    /// counter), for `inspect` only: hidden from the minting formats' list.
    #[value(hide = true)]
    ObjectidLegacy,
}

impl IdFormat {
    /// The CouchDB algorithm behind a `couch-*`/`uuid-v4` format.
    pub fn couch(self) -> Option<Algorithm> {
        Some(match self {
            IdFormat::CouchRandom => Algorithm::Random,
            IdFormat::CouchSequential => Algorithm::Sequential,
            IdFormat::CouchUtcRandom => Algorithm::UtcRandom,
            IdFormat::CouchUtcId => Algorithm::UtcId,
            IdFormat::UuidV4 => Algorithm::UuidV4,
            IdFormat::CouchUuidV7 => Algorithm::UuidV7,
            _ => return None,
        })
    }

    /// The name as typed on the command line.
    pub fn name(self) -> String {
        self.to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_owned())
    }
}

/// CouchDB's `[uuids] format` values, for clap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CouchFormat {
    /// 32 hex characters.
    #[value(name = "base_16")]
    Base16,
    /// 36 characters, dashed (8-4-4-4-12).
    #[value(name = "rfc9562")]
    Rfc9562,
    /// 25 characters of 0-9a-z.
    #[value(name = "base_36")]
    Base36,
}

impl From<CouchFormat> for kuuid::couch::Format {
    fn from(f: CouchFormat) -> Self {
        match f {
            CouchFormat::Base16 => kuuid::couch::Format::Base16,
            CouchFormat::Rfc9562 => kuuid::couch::Format::Rfc9562,
            CouchFormat::Base36 => kuuid::couch::Format::Base36,
        }
    }
}

#[derive(Args)]
pub struct MintArgs {
    /// Number of ids to print.
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 1,
          allow_negative_numbers = true, value_parser = crate::count::parse)]
    count: u64,
    /// The id format.
    #[arg(long, value_name = "F", default_value = "kuuid")]
    format: IdFormat,
    /// How uuid-v4 and couch-uuid-v7 show their 128 bits (CouchDB's
    /// `[uuids] format`).
    #[arg(long, value_name = "FMT")]
    couch_format: Option<CouchFormat>,
    /// The suffix of couch-utc-id ids (CouchDB's `utc_id_suffix`).
    #[arg(long, value_name = "S")]
    suffix: Option<String>,
    /// The type prefix of typeid ids: a-z and _, starting and ending with
    /// a letter, at most 63 (default: none, the suffix alone).
    #[arg(long, value_name = "P")]
    prefix: Option<String>,
    /// Print CouchDB's `/_uuids` body, `{"uuids":[...]}`, instead of lines.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    layout: LayoutArgs,
    /// kuuid: random groups of 6 characters (1 to 4; 4 makes 32-character
    /// ids; default 4).
    #[arg(long, value_name = "K", allow_negative_numbers = true,
          value_parser = crate::count::within_as::<u8>(1, 4), conflicts_with = "short")]
    random: Option<u8>,
    /// kuuid: short ids, 2 random groups (20 characters).
    #[arg(long)]
    short: bool,
    /// Mint at TIME instead of now: RFC 3339, a date alone (midnight UTC),
    /// Ns (seconds), @N (seconds), Nms, or a bare N of milliseconds from
    /// 1973 on. v7/v7s: a run past the counter (4,194,304 ids a
    /// millisecond, fewer from its random start) goes on in the next
    /// milliseconds: -n 1e7 ends 2 ms past TIME. ulid: 80 random bits
    /// each, not ordered within the millisecond (the spec's ulid(time)).
    #[arg(long, value_name = "TIME", allow_negative_numbers = true, value_parser = crate::parse_time)]
    at: Option<Timestamp>,
    /// kuuid: use the fast xoshiro256++ engine: ids stay unique but become
    /// predictable from earlier ones (default: the secure RNG,
    /// AES-128-CTR on CPUs with AES instructions, else ChaCha12).
    #[arg(long)]
    fast: bool,
    /// kuuid: each id sorts strictly after the previous one, even within
    /// one second or millisecond (newest-first layouts: strictly before).
    #[arg(long)]
    monotonic: bool,
}

/// Ids a chunk: the bulk fills claim their sequence in blocks of this.
const CHUNK: usize = 4096;

pub fn run(a: &MintArgs) -> Result<(), Failure> {
    check_flags(a)?;
    let out = io::stdout().lock();
    let mut minter = Minter::new(a)?;
    if let (Minter::Kuuid { g, groups }, false) = (&mut minter, a.json) {
        // The generator's own bulk writer.
        g.write_lines(*groups, a.count, out)?;
        return Ok(());
    }
    let mut sink = Sink::new(out, a.json);
    let mut left = a.count;
    while left > 0 {
        let n = left.min(CHUNK as u64) as usize;
        if let Err(e) = minter.mint(n, &mut sink) {
            // The good lines go out before the error (a JSON body is cut).
            sink.flush_lines()?;
            return Err(e);
        }
        left -= n as u64;
    }
    sink.finish()?;
    Ok(())
}

/// Flags that belong to another format are refused, not ignored.
fn check_flags(a: &MintArgs) -> Result<(), Failure> {
    let f = a.format;
    if f == IdFormat::Order {
        return Err(Failure::Usage(
            "order keys are made between two keys: use kuuid between".to_owned(),
        ));
    }
    if f == IdFormat::ObjectidLegacy {
        return Err(Failure::Usage(
            "objectid-legacy is the old layout, for inspect: mint ObjectIds with --format objectid"
                .to_owned(),
        ));
    }
    let kuuid_only = [
        ("--ms", a.layout.ms),
        ("--reverse", a.layout.reverse),
        ("--random", a.random.is_some()),
        ("--short", a.short),
        ("--fast", a.fast),
        ("--monotonic", a.monotonic),
    ];
    let misplaced = |flag: &str, only: &str| {
        Failure::Usage(format!(
            "{flag} applies to --format {only} only, not {}",
            f.name()
        ))
    };
    if let (true, Some((flag, _))) = (
        f != IdFormat::Kuuid,
        kuuid_only.iter().find(|(_, set)| *set),
    ) {
        return Err(misplaced(flag, "kuuid"));
    }
    if a.couch_format.is_some() && !matches!(f, IdFormat::UuidV4 | IdFormat::CouchUuidV7) {
        return Err(misplaced("--couch-format", "uuid-v4 or couch-uuid-v7"));
    }
    if a.suffix.is_some() && f != IdFormat::CouchUtcId {
        return Err(misplaced("--suffix", "couch-utc-id"));
    }
    if a.prefix.is_some() && f != IdFormat::Typeid {
        return Err(misplaced("--prefix", "typeid"));
    }
    // A line break (or another control character) would split an id over
    // two lines of the output.
    if let Some(at) = a.suffix.as_deref().and_then(|s| s.find(char::is_control)) {
        return Err(Failure::Usage(format!(
            "--suffix holds a control character at byte {at}: an id must stay on one line"
        )));
    }
    Ok(())
}

/// A format's minting state, built once so that order (monotonic kuuids,
/// CouchDB's `utc_*` at a given time) carries over from chunk to chunk.
enum Minter {
    Kuuid {
        g: Box<Generator>,
        groups: usize,
    },
    /// `g` is pinned at `--at`'s time when given: ids of one run are
    /// ordered either way.
    V7 {
        simple: bool,
        g: Option<V7GeneratorAt>,
        ids: Vec<Uuid7>,
    },
    ObjectId {
        at: Option<Timestamp>,
        ids: Vec<ObjectId>,
    },
    Ulid {
        at: Option<Timestamp>,
        ids: Vec<Ulid>,
    },
    TypeId {
        prefix: TypeIdPrefix,
        at: Option<Timestamp>,
        ids: Vec<TypeId>,
    },
    Ksuid {
        at: Option<Timestamp>,
        ids: Vec<Ksuid>,
    },
    Couch(Uuids),
}

impl Minter {
    fn new(a: &MintArgs) -> Result<Self, Failure> {
        Ok(match a.format {
            IdFormat::Kuuid => {
                let kind = if a.fast {
                    RngKind::Fast
                } else {
                    RngKind::Secure
                };
                let mut g = Generator::new(kind)?.with_layout(a.layout.layout());
                if let Some(t) = a.at {
                    g = g.at(t)?;
                }
                if a.monotonic {
                    g = g.monotonic();
                }
                let groups = if a.short {
                    2
                } else {
                    usize::from(a.random.unwrap_or(4))
                };
                Minter::Kuuid {
                    g: Box::new(g),
                    groups,
                }
            }
            IdFormat::V7 | IdFormat::V7s => {
                Minter::V7 {
                    simple: a.format == IdFormat::V7s,
                    // A bad time is refused here, before any output.
                    g: a.at.map(V7GeneratorAt::new).transpose()?,
                    ids: vec![Uuid7::MIN; CHUNK],
                }
            }
            IdFormat::Ulid => {
                if let Some(t) = a.at {
                    kuuid::ulid_at(t)?;
                }
                // Ids minted now go straight to text (`fill_ulid_text`):
                // only `--at` needs a slice of ids.
                let ids = match a.at {
                    Some(_) => vec![Ulid::MIN; CHUNK],
                    None => Vec::new(),
                };
                Minter::Ulid { at: a.at, ids }
            }
            IdFormat::Typeid => {
                let prefix = TypeIdPrefix::new(a.prefix.as_deref().unwrap_or(""))
                    .map_err(|e| Failure::Usage(format!("--prefix: {e}")))?;
                if let Some(t) = a.at {
                    kuuid::typeid_at(prefix, t)?;
                }
                Minter::TypeId {
                    prefix,
                    at: a.at,
                    ids: vec![TypeId::new(prefix, Uuid7::MIN); CHUNK],
                }
            }
            IdFormat::Ksuid => {
                if let Some(t) = a.at {
                    kuuid::ksuid_at(t)?;
                }
                Minter::Ksuid {
                    at: a.at,
                    ids: vec![Ksuid::MIN; CHUNK],
                }
            }
            IdFormat::Objectid => {
                if let Some(t) = a.at {
                    kuuid::object_id_at(t)?;
                }
                Minter::ObjectId {
                    at: a.at,
                    ids: vec![ObjectId::default(); CHUNK],
                }
            }
            f => {
                let algorithm = f.couch().expect("every other format is CouchDB's");
                let mut u = Uuids::new(algorithm);
                if let Some(f) = a.couch_format {
                    u = u.format(f.into());
                }
                if let Some(s) = &a.suffix {
                    u = u.utc_id_suffix(s.clone());
                }
                if let Some(t) = a.at {
                    u = u.at(t).map_err(couch_failure)?;
                }
                Minter::Couch(u)
            }
        })
    }

    /// Mints `n <= CHUNK` ids into `sink`.
    fn mint<W: Write>(&mut self, n: usize, sink: &mut Sink<W>) -> Result<(), Failure> {
        match self {
            Minter::Kuuid { g, groups } => {
                let mut lines = Vec::with_capacity(n * 33);
                g.write_lines(*groups, n as u64, &mut lines)?;
                for line in lines.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
                    sink.push(line)?;
                }
            }
            Minter::V7 { simple, g, ids } => {
                let ids = &mut ids[..n];
                match g {
                    None => kuuid::fill_v7(ids),
                    // The only error: the last millisecond used up.
                    Some(g) => g.fill(ids).map_err(|_| {
                        Failure::Usage(
                            "--at: the ids used up the counter of the last millisecond a UUIDv7 holds (2^48 - 1, in year 10889): no later UUIDv7 exists".into(),
                        )
                    })?,
                }
                if *simple {
                    sink.push_encoded(ids.len(), |lines: &mut [[u8; 33]]| {
                        Uuid7::encode_simple_many(ids, lines);
                    })?;
                } else {
                    sink.push_encoded(ids.len(), |lines: &mut [[u8; 37]]| {
                        Uuid7::encode_hyphenated_many(ids, lines);
                    })?;
                }
            }
            Minter::ObjectId { at, ids } => {
                let ids = &mut ids[..n];
                match at {
                    None => kuuid::fill_object_id(ids),
                    Some(t) => {
                        for id in ids.iter_mut() {
                            *id = kuuid::object_id_at(*t)?;
                        }
                    }
                }
                sink.push_encoded(ids.len(), |lines: &mut [[u8; 25]]| {
                    ObjectId::encode_hex_many(ids, lines);
                })?;
            }
            // Minted now: straight into the lines, no slice of ids between.
            Minter::Ulid { at: None, .. } => {
                sink.push_encoded(n, |lines: &mut [[u8; 27]]| kuuid::fill_ulid_text(lines))?;
            }
            Minter::Ulid { at: Some(t), ids } => {
                let ids = &mut ids[..n];
                for id in ids.iter_mut() {
                    *id = kuuid::ulid_at(*t)?;
                }
                sink.push_encoded(ids.len(), |lines: &mut [[u8; 27]]| {
                    Ulid::encode_many(ids, lines);
                })?;
            }
            Minter::TypeId { prefix, at, ids } => {
                let ids = &mut ids[..n];
                match at {
                    None => kuuid::fill_typeid(*prefix, ids),
                    Some(t) => {
                        for id in ids.iter_mut() {
                            *id = kuuid::typeid_at(*prefix, *t)?;
                        }
                    }
                }
                let mut buf = [0u8; TypeId::MAX_LEN];
                for id in ids.iter() {
                    sink.push(id.encode(&mut buf).as_bytes())?;
                }
            }
            Minter::Ksuid { at, ids } => {
                let ids = &mut ids[..n];
                match at {
                    None => kuuid::fill_ksuid(ids),
                    Some(t) => {
                        for id in ids.iter_mut() {
                            *id = kuuid::ksuid_at(*t)?;
                        }
                    }
                }
                sink.push_encoded(ids.len(), |lines: &mut [[u8; 28]]| {
                    Ksuid::encode_many(ids, lines);
                })?;
            }
            Minter::Couch(uuids) => {
                let mut text = Vec::with_capacity(64);
                for _ in 0..n {
                    text.clear();
                    uuids
                        .generate_into_bytes(&mut text)
                        .map_err(couch_failure)?;
                    sink.push(&text)?;
                }
            }
        }
        Ok(())
    }
}

fn couch_failure(e: kuuid::couch::Error) -> Failure {
    Failure::Usage(e.to_string())
}
