//! The check as a command (wasm32-wasip1, or the host).

fn main() {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    match kuuid_wasm_check::check(now) {
        Ok(said) => println!("{said}"),
        Err(why) => {
            eprintln!("{why}");
            std::process::exit(1);
        }
    }
}
