//! words -> text -> words on every engine path, through the public types too.
#![no_main]

use kuuid::engine::{Isa, decode_with, encode_with};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u64, Vec<u32>)| {
    let (t, mut words) = input;
    words.truncate(words.len() / 4 * 4);
    let count = words.len() / 4;
    let prefix = kuuid::Layout::MILLIS.prefix(t % 62u64.pow(8)).unwrap();
    let mut text = vec![b'\n'; count * 33];
    for isa in Isa::available() {
        encode_with(isa, prefix.as_bytes(), &words, 4, &mut text, 33, count).unwrap();
        let (mut p, mut w) = (vec![0u64; count], vec![0u32; 4 * count]);
        for dec in Isa::available() {
            assert_eq!(decode_with(dec, &text, 33, &mut p, &mut w).unwrap(), count);
            assert_eq!(w, words, "encode {isa}, decode {dec}");
            assert!(p.iter().all(|&v| v == prefix.value()));
        }
    }
    for (i, chunk) in words.chunks_exact(4).enumerate() {
        let id = kuuid::Kuuid::from_parts(prefix, chunk).unwrap();
        assert_eq!(id.as_bytes(), &text[i * 33..i * 33 + 32]);
        assert_eq!(&*id.random_words(), chunk);
        let back: kuuid::Kuuid = id.as_str().parse().unwrap();
        assert_eq!(back, id);
    }
});
