//! kuuid's own format, npm's: the id value types ([`id`]: `Kuuid`,
//! `ShortKuuid`, any length in `Id`, `AnyKuuid`, `RandomPart`), the
//! prefix's layouts ([`layout`]: precision and order), the key ranges of
//! a time interval ([`range`]), the monotonic walk behind `idms_monotonic`
//! ([`monotonic`]) and batch parsing of id lines ([`lines`]). The minting
//! around it (`Generator`, the per-thread state, the free functions) sits
//! above, shared with the other formats.

pub(crate) mod id;
pub(crate) mod layout;
pub(crate) mod lines;
pub(crate) mod monotonic;
pub(crate) mod range;
