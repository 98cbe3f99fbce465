//! What `kuuid bench` says it was built with: the compiler's version and
//! the profile (a figure of a debug build is no figure).

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_default();
    println!("cargo:rustc-env=KUUID_RUSTC={version}");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    println!(
        "cargo:rustc-env=KUUID_PROFILE={} (opt-level {})",
        var("PROFILE"),
        var("OPT_LEVEL")
    );
    println!("cargo:rerun-if-changed=build.rs");
}
