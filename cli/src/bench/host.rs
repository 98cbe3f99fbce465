//! What the machine is doing and what it is, beyond the CPU's name: the
//! load and the hypervisor's steal over the run (so a busy run says so),
//! the core clock measured in the run (so a figure converts to cycles, and
//! two CPUs compare by microarchitecture, not frequency), the caches and
//! the hypervisor.

use std::hint::black_box;
use std::time::Instant;

/// Above this share of the CPU time taken by the hypervisor over the run,
/// or a load average above the cores, the run is marked busy.
pub const BUSY_STEAL_PCT: f64 = 1.0;

/// The load averages (1, 5, 15 minutes), from `/proc/loadavg`.
pub fn load() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(|w| w.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// All CPUs' time so far and the part of it the hypervisor stole
/// (`/proc/stat`'s first line, in clock ticks).
#[derive(Clone, Copy, Debug)]
pub struct CpuTimes {
    total: u64,
    steal: u64,
}

impl CpuTimes {
    pub fn now() -> Option<CpuTimes> {
        let text = std::fs::read_to_string("/proc/stat").ok()?;
        let line = text.lines().next()?.strip_prefix("cpu ")?;
        let v: Vec<u64> = line
            .split_whitespace()
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()?;
        // user nice system idle iowait irq softirq steal [guest guest_nice]:
        // guest time is counted in user already.
        Some(CpuTimes {
            total: v.iter().take(8).sum(),
            steal: *v.get(7)?,
        })
    }

    /// The stolen share of the CPU time between `self` and `later`, in %.
    pub fn steal_pct(self, later: CpuTimes) -> Option<f64> {
        let total = later.total.checked_sub(self.total)?;
        let steal = later.steal.checked_sub(self.steal)?;
        (total > 0).then(|| 100.0 * steal as f64 / total as f64)
    }
}

/// Adds per timed run of [`core_ghz`]: about 20 ms at 2.5 GHz.
const ADDS: u64 = 50_000_000;

/// The core's clock in GHz, from a chain of dependent adds (one a cycle
/// on every x86-64 and ARM64 core: each needs the one before), the
/// fastest of seven runs (a preempted run is only slower). `None` where
/// no such chain is written for the architecture.
pub fn core_ghz() -> Option<f64> {
    let secs = (0..7)
        .map(|_| {
            let start = Instant::now();
            black_box(add_chain(black_box(ADDS / 100)));
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    cfg!(any(target_arch = "x86_64", target_arch = "aarch64")).then(|| ADDS as f64 / secs / 1e9)
}

/// `blocks` x 100 dependent adds on one register.
#[cfg(target_arch = "x86_64")]
fn add_chain(blocks: u64) -> u64 {
    let mut x = 0u64;
    for _ in 0..blocks {
        // SAFETY: the assembly adds to `x`, a register it is given, and
        // touches no memory, stack or flags the compiler relies on.
        unsafe {
            std::arch::asm!(
                ".rept 100", "add {x}, 1", ".endr",
                x = inout(reg) x,
                options(nomem, nostack)
            );
        }
    }
    x
}

/// `blocks` x 100 dependent adds on one register.
#[cfg(target_arch = "aarch64")]
fn add_chain(blocks: u64) -> u64 {
    let mut x = 0u64;
    for _ in 0..blocks {
        // SAFETY: the assembly adds to `x`, a register it is given, and
        // touches no memory, stack or flags the compiler relies on.
        unsafe {
            std::arch::asm!(
                ".rept 100", "add {x}, {x}, #1", ".endr",
                x = inout(reg) x,
                options(nomem, nostack, preserves_flags)
            );
        }
    }
    x
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn add_chain(blocks: u64) -> u64 {
    blocks
}

/// The first CPU's caches, as `L1d 32K`, `L2 512K`, ...: sysfs's, or
/// where sysfs names none (some containers and guests), what CPUID's cache
/// leaves say on x86-64.
pub fn caches() -> Vec<String> {
    let found = sysfs_caches();
    if found.is_empty() {
        cpuid_caches()
    } else {
        found
    }
}

/// Sorted by level, data before instruction (`L1d`, `L1i`, `L2`, `L3`).
fn sorted(mut found: Vec<(u32, String)>) -> Vec<String> {
    found.sort();
    found.into_iter().map(|(_, s)| s).collect()
}

fn sysfs_caches() -> Vec<String> {
    let dir = "/sys/devices/system/cpu/cpu0/cache";
    sorted(
        (0..8)
            .filter_map(|i| {
                let read = |f: &str| {
                    std::fs::read_to_string(format!("{dir}/index{i}/{f}"))
                        .ok()
                        .map(|s| s.trim().to_owned())
                };
                let level: u32 = read("level")?.parse().ok()?;
                let kind = match read("type")?.as_str() {
                    "Data" => "d",
                    "Instruction" => "i",
                    _ => "",
                };
                Some((level, format!("L{level}{kind} {}", read("size")?)))
            })
            .collect(),
    )
}

/// One cache as CPUID's deterministic cache leaf describes it (Intel's
/// leaf 4 and AMD's 0x8000001D share the layout): its level and name, or
/// `None` past the last cache (type 0).
#[cfg(any(target_arch = "x86_64", test))]
fn cpuid_cache(eax: u32, ebx: u32, ecx: u32) -> Option<(u32, String)> {
    let kind = match eax & 0x1f {
        1 => "d",
        2 => "i",
        3 => "",
        _ => return None,
    };
    let level = (eax >> 5) & 7;
    let ways = u64::from(ebx >> 22) + 1;
    let partitions = u64::from((ebx >> 12) & 0x3ff) + 1;
    let line = u64::from(ebx & 0xfff) + 1;
    let sets = u64::from(ecx) + 1;
    let bytes = ways * partitions * line * sets;
    // sysfs's units: K below a MiB's multiple, M from there.
    let size = if bytes % (1 << 20) == 0 && bytes >= 8 << 20 {
        format!("{}M", bytes >> 20)
    } else {
        format!("{}K", bytes >> 10)
    };
    Some((level, format!("L{level}{kind} {size}")))
}

#[cfg(target_arch = "x86_64")]
fn cpuid_caches() -> Vec<String> {
    use std::arch::x86_64::__cpuid_count;
    // SAFETY (each call below): CPUID exists on every x86-64 CPU, and a
    // leaf above the maximum the CPU reports is never asked for. (Safe to
    // call in newer Rust; the crate's minimum Rust wants `unsafe`.)
    #[allow(unused_unsafe)]
    let cpuid = |leaf: u32, sub: u32| unsafe { __cpuid_count(leaf, sub) };
    let v = cpuid(0, 0);
    let vendor: Vec<u8> = [v.ebx, v.edx, v.ecx]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let leaf = if vendor == b"AuthenticAMD" || vendor == b"HygonGenuine" {
        // The cache leaf needs TOPOEXT (leaf 0x80000001, ECX bit 22).
        let ext = cpuid(0x8000_0000, 0).eax;
        if ext < 0x8000_001d || cpuid(0x8000_0001, 0).ecx & (1 << 22) == 0 {
            return Vec::new();
        }
        0x8000_001d
    } else if v.eax >= 4 {
        4
    } else {
        return Vec::new();
    };
    sorted(
        (0..8)
            .map_while(|sub| {
                let r = cpuid(leaf, sub);
                cpuid_cache(r.eax, r.ebx, r.ecx)
            })
            .collect(),
    )
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_caches() -> Vec<String> {
    Vec::new()
}

/// The hypervisor's vendor where the CPU says it runs under one (x86's
/// CPUID leaf 0x40000000: `KVMKVMKVM`, `Microsoft Hv`, ...).
pub fn hypervisor() -> Option<String> {
    #[cfg(target_arch = "x86_64")]
    {
        let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let flags = info.lines().find(|l| l.starts_with("flags"))?;
        if !flags.split_whitespace().any(|f| f == "hypervisor") {
            return None;
        }
        // SAFETY: CPUID exists on every x86-64 CPU, and a leaf the CPU does
        // not know returns numbers, not a fault. (Safe to call in newer
        // Rust; the crate's minimum Rust wants `unsafe`.)
        #[allow(unused_unsafe)]
        let r = unsafe { std::arch::x86_64::__cpuid(0x4000_0000) };
        let bytes: Vec<u8> = [r.ebx, r.ecx, r.edx]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .filter(|&b| b != 0)
            .collect();
        let name = String::from_utf8_lossy(&bytes).trim().to_owned();
        Some(if name.is_empty() {
            "unknown".into()
        } else {
            name
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// Bytes of the cache `level` names (`L1d`, `L2`, `L3`) in [`caches`]'
/// list (`L2 512K`).
fn cache_bytes(caches: &[String], level: &str) -> Option<u64> {
    caches.iter().find_map(|c| {
        let (name, size) = c.split_once(' ')?;
        if name != level {
            return None;
        }
        let (digits, unit) = size.split_at(size.find(|ch: char| !ch.is_ascii_digit())?);
        let n: u64 = digits.parse().ok()?;
        Some(match unit {
            "K" => n << 10,
            "M" => n << 20,
            _ => n,
        })
    })
}

/// The store floors' buffers, by level: half the L1 data cache, half the
/// L2 (each core's own, so the row stays in it beside the stack and
/// code), half the L3, and DRAM past four L3s (at least 64 MiB with
/// `--quick`, 256 MiB otherwise). Where sysfs names no cache, a common
/// size: 32 KiB, 512 KiB, 8 MiB.
pub fn floors(caches: &[String], quick: bool) -> Vec<(String, u64)> {
    let l1 = cache_bytes(caches, "L1d").unwrap_or(32 << 10);
    let l2 = cache_bytes(caches, "L2").unwrap_or(512 << 10);
    let l3 = cache_bytes(caches, "L3").unwrap_or(8 << 20);
    let dram = (4 * l3).max(if quick { 64 << 20 } else { 256 << 20 });
    [
        ("l1", l1 / 2),
        ("l2", l2 / 2),
        ("l3", l3 / 2),
        ("dram", dram),
    ]
    .into_iter()
    .map(|(n, b)| (n.to_owned(), b))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floors_are_half_of_each_cache_and_dram_past_the_l3() {
        let caches: Vec<String> = ["L1d 32K", "L1i 32K", "L2 512K", "L3 32768K"]
            .map(str::to_owned)
            .to_vec();
        let f = floors(&caches, false);
        let bytes = |n: &str| f.iter().find(|(k, _)| k == n).unwrap().1;
        assert_eq!(bytes("l1"), 16 << 10);
        assert_eq!(bytes("l2"), 256 << 10);
        assert_eq!(bytes("l3"), 16 << 20);
        assert_eq!(bytes("dram"), 256 << 20);
        assert_eq!(floors(&["L3 128M".to_owned()], true)[3].1, 512 << 20);
    }

    #[test]
    fn a_cpuid_cache_leaf_reads_as_sysfs_names_it() {
        // Zen 3's L1d (8 ways, 64 sets of 64 bytes) and L3 (16 ways, 32768
        // sets), and the end of the list.
        let l1 = cpuid_cache(0x121, (7 << 22) | 63, 63);
        assert_eq!(l1, Some((1, "L1d 32K".to_owned())));
        let l3 = cpuid_cache(0x163, (15 << 22) | 63, 32767);
        assert_eq!(l3, Some((3, "L3 32M".to_owned())));
        assert_eq!(cpuid_cache(0, 0, 0), None);
    }

    /// Where both are there, CPUID's list is sysfs's (a guest may be shown
    /// another topology, so sizes, not counts, are compared, level by level).
    #[test]
    fn cpuid_and_sysfs_agree_where_both_answer() {
        let (sysfs, cpuid) = (sysfs_caches(), cpuid_caches());
        if sysfs.is_empty() || cpuid.is_empty() {
            eprintln!("skipped: sysfs {sysfs:?}, CPUID {cpuid:?}");
            return;
        }
        for level in ["L1d", "L2", "L3"] {
            let (a, b) = (cache_bytes(&sysfs, level), cache_bytes(&cpuid, level));
            if a.is_some() && b.is_some() {
                assert_eq!(a, b, "{level}: sysfs {sysfs:?}, CPUID {cpuid:?}");
            }
        }
    }
}
