//! How much memory a run may still take, so that a request too large for the machine is
//! refused before anything is allocated rather than killed by the kernel halfway through.
//!
//! The answer is the smallest of what Linux reports: the memory available on the machine
//! (`MemAvailable`), what is left under the process's control group (cgroup v2 `memory.max`, or
//! v1 `memory.limit_in_bytes`, minus what the group uses), and what is left of the address
//! space under `ulimit -v` (minus the process's own size and its threads' stacks). Elsewhere
//! nothing is known and nothing is refused.

use std::fs;

use crate::error::human_bytes;

/// Bytes this process may still allocate, about; `None` when the system says nothing.
pub fn available() -> Option<u128> {
    let limits = [
        mem_available(),
        cgroup_room(),
        fs::read_to_string("/proc/self/limits")
            .ok()
            .zip(fs::read_to_string("/proc/self/status").ok())
            .and_then(|(limits, status)| address_space_room(&limits, &status)),
    ];
    limits.into_iter().flatten().min()
}

/// The process's address-space limit (`ulimit -v`), if one is set. A GPU driver maps hundreds
/// of megabytes to gigabytes of address space when it is only asked for its adapters, so under
/// such a limit the GPU is looked for only when it is asked for by name.
pub fn address_space_limit() -> Option<u128> {
    let limits = fs::read_to_string("/proc/self/limits").ok()?;
    soft_address_space_limit(&limits)
}

/// The soft "Max address space" of `/proc/self/limits`, in bytes; `None` when unlimited.
fn soft_address_space_limit(limits: &str) -> Option<u128> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line.trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `Err` with one sentence when `needed` bytes are more than [`available`].
pub fn check(what: &str, needed: u128) -> Result<(), String> {
    match available() {
        Some(room) if needed > room => Err(format!(
            "{what} needs about {} for this board, but only {} of memory is available",
            human_bytes(needed),
            human_bytes(room)
        )),
        _ => Ok(()),
    }
}

fn mem_available() -> Option<u128> {
    let info = fs::read_to_string("/proc/meminfo").ok()?;
    meminfo_available(&info)
}

/// `MemAvailable` from `/proc/meminfo`, in bytes.
fn meminfo_available(info: &str) -> Option<u128> {
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u128 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// What is left under the control group's limit, v2 or v1.
fn cgroup_room() -> Option<u128> {
    let membership = fs::read_to_string("/proc/self/cgroup").ok()?;
    let read = |path: &str| fs::read_to_string(path).ok();
    // cgroup v2: the line "0::/path"; the group's files under the unified mount, or at its root
    // when the process sees its own group as the root (a container).
    if let Some(path) = membership.lines().find_map(|line| line.strip_prefix("0::")) {
        for dir in [format!("/sys/fs/cgroup{path}"), "/sys/fs/cgroup".to_owned()] {
            if let Some(room) = room_under(
                read(&format!("{dir}/memory.max")),
                read(&format!("{dir}/memory.current")),
            ) {
                return Some(room);
            }
        }
    }
    // cgroup v1: the memory controller's line "N:memory:/path".
    let path = membership.lines().find_map(|line| {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        controllers
            .split(',')
            .any(|c| c == "memory")
            .then_some(path)
    })?;
    for dir in [
        format!("/sys/fs/cgroup/memory{path}"),
        "/sys/fs/cgroup/memory".to_owned(),
    ] {
        if let Some(room) = room_under(
            read(&format!("{dir}/memory.limit_in_bytes")),
            read(&format!("{dir}/memory.usage_in_bytes")),
        ) {
            return Some(room);
        }
    }
    None
}

/// The limit minus the usage; `None` for no limit ("max", or v1's huge "unlimited" number).
fn room_under(limit: Option<String>, usage: Option<String>) -> Option<u128> {
    let limit: u128 = limit?.trim().parse().ok()?;
    if limit >= 1 << 62 {
        return None;
    }
    let usage: u128 = usage.and_then(|u| u.trim().parse().ok()).unwrap_or(0);
    Some(limit.saturating_sub(usage))
}

/// Address space a run takes beyond its data under `ulimit -v`: the stacks of the threads it
/// starts (progress, signals, deadlines, two workers of the validator or of min-conflicts'
/// start, 2 MiB each) and the allocator's slack.
pub const THREADS_AND_SLACK: u128 = 16 << 20;

/// `ulimit -v` (the soft "Max address space" of `/proc/self/limits`) minus the process's
/// `VmSize` from `/proc/self/status` and [`THREADS_AND_SLACK`].
fn address_space_room(limits: &str, status: &str) -> Option<u128> {
    let soft = soft_address_space_limit(limits)?;
    let size_kib: u128 = status
        .lines()
        .find(|l| l.starts_with("VmSize:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0);
    Some(soft.saturating_sub(size_kib * 1024 + THREADS_AND_SLACK))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_meminfo() {
        let info = "MemTotal: 100 kB\nMemFree: 10 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(meminfo_available(info), Some(2048 * 1024));
    }

    #[test]
    fn cgroup_limits_leave_the_unused_part() {
        assert_eq!(
            room_under(Some("1000\n".into()), Some("300\n".into())),
            Some(700)
        );
        assert_eq!(room_under(Some("max\n".into()), Some("300".into())), None);
        assert_eq!(
            room_under(Some("9223372036854771712".into()), Some("1".into())),
            None
        );
    }

    #[test]
    fn ulimit_v_counts_against_the_process_size() {
        let limits = "Limit Soft Limit Hard Limit Units\n\
                      Max address space         1048576000           unlimited            bytes\n";
        let status = "Name: queens\nVmSize:     24000 kB\n";
        assert_eq!(
            address_space_room(limits, status),
            Some(1_048_576_000 - 24_000 * 1024 - THREADS_AND_SLACK)
        );
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_room(unlimited, status), None);
    }

    #[test]
    fn the_machine_reports_something_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(available().is_some_and(|bytes| bytes > 0));
        }
    }
}
