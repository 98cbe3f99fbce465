//! What machine a bench run is on: the header every figure is read against.

use serde::{Deserialize, Serialize};

use super::host;

/// The machine, the build and the run's settings.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Header {
    pub kuuid_version: String,
    pub cpu: String,
    /// x86's vendor, family and model numbers (`/proc/cpuinfo`): what
    /// names a microarchitecture where the model name does not (every
    /// EPYC of a cloud is "AMD EPYC"). Absent in older runs and elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<u32>,
    /// When the run started (UTC, RFC 3339, seconds). Absent in older runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Threads the process may run at once.
    pub cores: usize,
    /// CPU features detected at run time (those the engine can use).
    pub features: Vec<String>,
    /// The engine path the process uses (KUUID_ISA may force one).
    pub engine_path: String,
    /// Every path this CPU can run.
    pub engine_paths: Vec<String>,
    pub target: String,
    /// Features the binary was compiled to assume.
    pub target_features: Vec<String>,
    pub ids_per_round: u64,
    pub rounds: u64,
    pub quick: bool,
    /// Whole passes (`--repeat`; 1 in older runs).
    #[serde(default = "one")]
    pub repeat: u64,
    /// The store floors' buffers, by cache level (`l1`, `l2`, `l3`,
    /// `dram`), in bytes: sized from the caches found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub floor_bytes: Vec<(String, u64)>,
    /// The core clock measured at the start (GHz, a chain of dependent
    /// adds): the per-id figures' cycles. Absent in older runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ghz: Option<f64>,
    /// The first CPU's caches (`L1d 32K`, `L2 512K`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caches: Vec<String>,
    /// The hypervisor's vendor string, where the CPU runs under one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hypervisor: Option<String>,
    /// The compiler and the profile the binary was built with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rustc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Load averages (1, 5, 15 min) at the start and at the end, and the
    /// share of CPU time the hypervisor stole over the run (%).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_start: Option<[f64; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_end: Option<[f64; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steal_pct: Option<f64>,
}

impl Header {
    pub fn detect(ids_per_round: u64, rounds: u64, quick: bool) -> Header {
        let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let number = |key: &str| cpuinfo_field(&info, key).and_then(|v| v.parse().ok());
        let now = kuuid::Timestamp::now();
        Header {
            kuuid_version: env!("CARGO_PKG_VERSION").to_owned(),
            cpu: cpu_model(&info),
            vendor: cpuinfo_field(&info, "vendor_id"),
            family: number("cpu family"),
            model: number("model"),
            // Whole seconds: a run's date, not its instant.
            date: kuuid::Timestamp::from_secs(now.as_secs()).and_then(|t| t.to_rfc3339()),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            features: features(),
            engine_path: kuuid::engine::isa().name().to_owned(),
            engine_paths: kuuid::engine::Isa::available()
                .iter()
                .map(|i| i.name().to_owned())
                .collect(),
            target: format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS),
            target_features: target_features(),
            ids_per_round,
            rounds,
            quick,
            repeat: 1,
            floor_bytes: Vec::new(),
            ghz: host::core_ghz(),
            caches: host::caches(),
            hypervisor: host::hypervisor(),
            rustc: Some(env!("KUUID_RUSTC").to_owned()).filter(|s| !s.is_empty()),
            profile: Some(env!("KUUID_PROFILE").to_owned()),
            load_start: host::load(),
            load_end: None,
            steal_pct: None,
        }
    }

    /// Why the run's figures may read high, if the machine was busy: a
    /// load average above the cores, or more than
    /// [`host::BUSY_STEAL_PCT`] of the CPU time stolen.
    pub fn busy(&self) -> Option<String> {
        let mut why = Vec::new();
        let cores = self.cores as f64;
        for (when, load) in [("start", self.load_start), ("end", self.load_end)] {
            if let Some([one, ..]) = load
                && one > cores
            {
                why.push(format!(
                    "load {one:.2} at the {when}, above the {} cores",
                    self.cores
                ));
            }
        }
        if let Some(s) = self.steal_pct.filter(|&s| s > host::BUSY_STEAL_PCT) {
            why.push(format!("{s:.1} % of the CPU time stolen by the hypervisor"));
        }
        (!why.is_empty()).then(|| why.join("; "))
    }

    /// `AMD EPYC, family 25 model 1`: the name, and the numbers where the
    /// run recorded them.
    pub fn cpu_label(&self) -> String {
        match (self.family, self.model) {
            (Some(f), Some(m)) => format!("{}, family {f} model {m}", self.cpu),
            _ => self.cpu.clone(),
        }
    }

    /// `, 2026-11-29T03:59:50Z`, or nothing for a run without a date.
    pub fn date_suffix(&self) -> String {
        self.date
            .as_deref()
            .map_or(String::new(), |d| format!(", {d}"))
    }
}

fn one() -> u64 {
    1
}

/// The first value of `key` in /proc/cpuinfo's text (the first CPU's).
fn cpuinfo_field(info: &str, key: &str) -> Option<String> {
    info.lines()
        .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_owned())
}

/// The CPU's name: `model name` in /proc/cpuinfo (x86), else the ARM
/// implementer and part numbers, else the architecture.
fn cpu_model(info: &str) -> String {
    let field = |key: &str| cpuinfo_field(info, key);
    if let Some(name) = field("model name") {
        return name;
    }
    match (field("CPU implementer"), field("CPU part")) {
        (Some(i), Some(p)) => format!("ARM implementer {i} part {p}"),
        _ => std::env::consts::ARCH.to_owned(),
    }
}

/// The run-time features the engine and the RNGs care about.
#[allow(unused_mut)]
fn features() -> Vec<String> {
    let mut found: Vec<&str> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! detect {
            ($($f:tt),*) => {
                $(if std::arch::is_x86_feature_detected!($f) { found.push($f); })*
            };
        }
        detect!(
            "sse2",
            "ssse3",
            "sse4.1",
            "popcnt",
            "aes",
            "pclmulqdq",
            "bmi2",
            "avx",
            "avx2",
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512dq",
            "avx512vbmi",
            "avx512vbmi2",
            "avx512ifma",
            "vaes",
            "vpclmulqdq",
            "gfni",
            "sha"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        macro_rules! detect {
            ($($f:tt),*) => {
                $(if std::arch::is_aarch64_feature_detected!($f) { found.push($f); })*
            };
        }
        detect!(
            "neon", "aes", "sha2", "sha3", "crc", "dotprod", "sve", "sve2"
        );
    }
    found.into_iter().map(str::to_owned).collect()
}

/// The features the compiler was told to assume (`-C target-cpu`, ...).
#[allow(unused_mut)]
fn target_features() -> Vec<String> {
    let mut on: Vec<&str> = Vec::new();
    macro_rules! compiled {
        ($($f:tt),*) => {
            $(if cfg!(target_feature = $f) { on.push($f); })*
        };
    }
    compiled!(
        "sse2", "ssse3", "sse4.1", "aes", "avx", "avx2", "bmi2", "avx512f", "avx512bw", "vaes",
        "neon"
    );
    on.into_iter().map(str::to_owned).collect()
}
