//! What a WebAssembly user calls first, checked against the host's clock.

use std::collections::HashSet;

/// Mints every kind of id that reads the clock and the random source,
/// and says what is wrong, if anything: `now_ms` is the host's time.
pub fn check(now_ms: u64) -> Result<String, String> {
    let near = |what: &str, ms: u64| {
        // A minute either way: this catches a missing clock (1970) or a
        // wrong unit, not a slow machine.
        if ms + 60_000 < now_ms || ms > now_ms + 60_000 {
            Err(format!(
                "{what}: {ms} ms is not near the host's {now_ms} ms"
            ))
        } else {
            Ok(())
        }
    };
    let id = kuuid::id();
    near("id()", id.timestamp(kuuid::Layout::SECONDS).as_millis())?;
    let v7 = kuuid::v7();
    near("v7()", v7.timestamp().as_millis())?;
    let oid = kuuid::object_id();
    near("object_id()", oid.timestamp().as_millis())?;
    let ordered: Vec<kuuid::Kuuid> = (0..1000).map(|_| kuuid::idms_monotonic()).collect();
    if !ordered.windows(2).all(|w| w[0] < w[1]) {
        return Err("idms_monotonic() went down or repeated".into());
    }
    let ids: HashSet<String> = (0..10_000).map(|_| kuuid::id().to_string()).collect();
    if ids.len() != 10_000 {
        return Err(format!("{} distinct ids of 10000", ids.len()));
    }
    let parsed: kuuid::Kuuid = id.to_string().parse().map_err(|e| format!("{e}"))?;
    if parsed != id {
        return Err("an id did not read back".into());
    }
    Ok(format!("ok: {id} {v7} {oid}"))
}

/// The check, for JavaScript: throws what is wrong.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn run() -> Result<String, String> {
    check(js_sys::Date::now() as u64)
}
