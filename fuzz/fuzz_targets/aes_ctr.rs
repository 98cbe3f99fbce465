//! The secure RNG's AES-128-CTR kernels (AES-NI, 256- and 512-bit VAES,
//! ARMv8 AES) on every path this CPU has, against the `aes` crate: any key,
//! nonce and counter (wrapping included), any request sizes.
#![no_main]

use aes::cipher::{BlockCipherEncrypt, KeyInit};
use kuuid::engine::Isa;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: ([u8; 32], u64, Vec<u8>)| {
    let (seed, counter, sizes) = input;
    let sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s) * 3 % 301).collect();
    let total: usize = sizes.iter().sum();
    let cipher = aes::Aes128::new(&<[u8; 16]>::try_from(&seed[..16]).unwrap().into());
    let mut want = Vec::with_capacity(total + 4);
    let mut c = counter;
    while want.len() < total {
        let mut block = [0u8; 16];
        block[..8].copy_from_slice(&c.to_le_bytes());
        block[8..].copy_from_slice(&seed[16..24]);
        let mut b = block.into();
        cipher.encrypt_block(&mut b);
        want.extend(
            b.chunks_exact(4)
                .map(|w| u32::from_ne_bytes(w.try_into().unwrap())),
        );
        c = c.wrapping_add(1);
    }
    for isa in Isa::available() {
        if let Some(got) = kuuid::__aes_ctr_stream(isa, &seed, counter, &sizes) {
            assert!(got == want[..total], "{isa} differs from the aes crate");
        }
    }
});
