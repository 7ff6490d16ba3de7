//! How much memory a run may still take, so that a request too large for the machine is
//! refused before anything is allocated rather than killed by the kernel halfway through.
//!
//! The answer is the smallest of what Linux reports: the memory available on the machine
//! (`MemAvailable`), what is left under the process's control group (cgroup v2 `memory.max`, or
//! v1 `memory.limit_in_bytes`, minus what the group uses), and what is left of the address
//! space under `ulimit -v` and of the data under `ulimit -d` (minus the process's own size and
//! its threads' stacks). Elsewhere nothing is known and nothing is refused.

use std::fs;

use crate::error::human_bytes;

/// Bytes this process may still allocate, about; `None` when the system says nothing.
pub fn available() -> Option<u128> {
    room().map(|(bytes, _)| bytes)
}

/// What bounds the memory a run may still take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// The machine's available memory, or the control group's.
    Machine,
    /// The process's own limit (`ulimit -v` or `ulimit -d`), less what the process has mapped.
    Process(ProcessLimit),
}

/// [`available`], and which bound gives it (the process's limit where it ties).
fn room() -> Option<(u128, Bound)> {
    let machine = [mem_available(), cgroup_room()].into_iter().flatten().min();
    let limit =
        process_limit_left().map(|(left, limit)| (left.saturating_sub(THREADS_AND_SLACK), limit));
    match (machine, limit) {
        (Some(machine), Some((left, _))) if machine < left => Some((machine, Bound::Machine)),
        (_, Some((left, limit))) => Some((left, Bound::Process(limit))),
        (machine, None) => machine.map(|machine| (machine, Bound::Machine)),
    }
}

/// The stack of a thread started without a size of its own (rayon's workers, a thread of
/// [`parallel::spawn`](crate::parallel::spawn) given none): 2 MiB, the standard library's
/// default, given explicitly so that `RUST_MIN_STACK` does not change it.
pub const DEFAULT_THREAD_STACK: u128 = 2 << 20;

/// Whether threads with `stacks` bytes of stack in all may start now: always where no
/// address-space limit (`ulimit -v`) is set; under one, where [`SIGNAL_STACKS_MARGIN`] is left
/// beside their stacks.
///
/// A thread needs more than its stack. Rust's runtime maps each new thread a signal stack of
/// its own as the thread begins, and ends the whole process where that mapping fails, which no
/// caller can catch: a thread started with the address space all but spent, or while another
/// thread's stack takes the last of it, aborts the run instead of refusing it. So every thread
/// of a run asks this first and, where there is no room, the run goes on without it (its work
/// done on the caller's thread, or left undone where it is only a helper, as progress is), and
/// the margin left beside each thread keeps room for the signal stacks of threads still
/// beginning.
pub fn room_for_threads(stacks: u128) -> bool {
    address_space_left().is_none_or(|left| left >= stacks.saturating_add(SIGNAL_STACKS_MARGIN))
}

/// How many threads of `stack` bytes each, up to `most`, the address space has room for at once
/// ([`room_for_threads`] for all of them): `most` where no limit is set.
pub fn threads_that_fit(stack: u128, most: usize) -> usize {
    threads_in(address_space_left(), stack, most)
}

/// [`threads_that_fit`] with `left` bytes of address space left (`None`: no limit).
fn threads_in(left: Option<u128>, stack: u128, most: usize) -> usize {
    let Some(left) = left else {
        return most;
    };
    let room = left.saturating_sub(SIGNAL_STACKS_MARGIN);
    let fit = room.checked_div(stack).unwrap_or(u128::MAX);
    most.min(usize::try_from(fit).unwrap_or(usize::MAX))
}

/// What a thread leaves of the address space as it starts, under `ulimit -v`: room for the
/// signal stacks of the threads still beginning (12 KiB each on x86-64 Linux) and for the
/// allocator.
pub const SIGNAL_STACKS_MARGIN: u128 = 1 << 20;

/// What is left of the address space under `ulimit -v` and `ulimit -d` ([`tightest_limit`]);
/// `None` where neither limit is set (or Linux's files say nothing).
fn address_space_left() -> Option<u128> {
    process_limit_left().map(|(left, _)| left)
}

/// [`address_space_left`], and the limit that leaves it.
fn process_limit_left() -> Option<(u128, ProcessLimit)> {
    let limits = fs::read_to_string("/proc/self/limits").ok()?;
    soft_address_space_limit(&limits)?;
    let status = fs::read_to_string("/proc/self/status").ok()?;
    tightest_limit(&limits, &status)
}

/// The process's limit on the memory it maps, if one is set: the smaller of the address-space
/// limit (`ulimit -v`) and the data limit (`ulimit -d`, which since Linux 4.7 holds every
/// private writable mapping: the heap, large allocations, threads' stacks). A GPU driver maps
/// hundreds of megabytes to gigabytes of address space when it is only asked for its
/// adapters, so under such a limit the GPU is looked for only when it is asked for by name.
pub fn address_space_limit() -> Option<u128> {
    let limits = fs::read_to_string("/proc/self/limits").ok()?;
    soft_address_space_limit(&limits)
}

/// The process's limit that leaves it the least room, in words for a sentence that says it
/// leaves too little: "the address-space limit (ulimit -v)" or "the data limit (ulimit -d)".
/// Where both are set this is the one with less left under it, which need not be the lower (a
/// process near its `-v` limit under a higher `-d` it barely uses).
pub fn address_space_limit_words() -> &'static str {
    let limits = fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    tightest_limit(&limits, &status)
        .map_or(ProcessLimit::AddressSpace, |(_, limit)| limit)
        .words()
}

/// A limit of the process on the memory it maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ProcessLimit {
    /// `ulimit -v`, counted against the process's `VmSize`.
    AddressSpace,
    /// `ulimit -d`, counted against its `VmData`.
    Data,
}

impl ProcessLimit {
    /// The line of `/proc/self/limits` that sets it, and the field of `/proc/self/status` that
    /// counts against it.
    fn lines(self) -> (&'static str, &'static str) {
        match self {
            ProcessLimit::AddressSpace => (ADDRESS_SPACE_LIMIT, "VmSize:"),
            ProcessLimit::Data => (DATA_LIMIT, "VmData:"),
        }
    }

    fn words(self) -> &'static str {
        match self {
            ProcessLimit::AddressSpace => "the address-space limit (ulimit -v)",
            ProcessLimit::Data => "the data limit (ulimit -d)",
        }
    }
}

/// `/proc/self/limits`' lines of the address-space and data limits.
const ADDRESS_SPACE_LIMIT: &str = "Max address space";
const DATA_LIMIT: &str = "Max data size";

/// The main thread's stack limit (`ulimit -s`), if one is set, in bytes.
pub fn stack_limit() -> Option<u128> {
    let limits = fs::read_to_string("/proc/self/limits").ok()?;
    soft_limit(&limits, "Max stack size")
}

/// The lower of the soft "Max address space" and "Max data size" of `/proc/self/limits`, in
/// bytes; `None` when both are unlimited.
fn soft_address_space_limit(limits: &str) -> Option<u128> {
    [ADDRESS_SPACE_LIMIT, DATA_LIMIT]
        .into_iter()
        .filter_map(|name| soft_limit(limits, name))
        .min()
}

/// The soft value of `/proc/self/limits`' line `name`; `None` when unlimited.
fn soft_limit(limits: &str, name: &str) -> Option<u128> {
    let line = limits.lines().find(|l| l.starts_with(name))?;
    line.trim_start_matches(name)
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `Err` with one sentence when `needed` bytes are more than [`available`], naming the
/// process's limit where that is what leaves too little.
pub fn check(what: &str, needed: u128) -> Result<(), String> {
    match room() {
        Some((room, bound)) if needed > room => Err(shortfall(
            what,
            needed,
            room,
            match bound {
                Bound::Process(limit) => Some(limit.words()),
                Bound::Machine => None,
            },
        )),
        _ => Ok(()),
    }
}

/// [`check`]'s sentence: `what` needs `needed` bytes where `room` are left, under the process's
/// `limit` (in words) where that is the bound. A limit the program's own code and threads
/// already take is said so, rather than "only 0 B".
fn shortfall(what: &str, needed: u128, room: u128, limit: Option<&str>) -> String {
    let needs = format!("{what} needs about {} for this board", human_bytes(needed));
    match limit {
        Some(limit) if room == 0 => format!(
            "{needs}, but {limit} leaves no memory beyond what the program itself takes (its \
             code, its threads' stacks)"
        ),
        Some(limit) => format!(
            "{needs}, but only {} of memory is available under {limit}",
            human_bytes(room)
        ),
        None => format!(
            "{needs}, but only {} of memory is available",
            human_bytes(room)
        ),
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
/// start, 2 MiB each), their signal stacks and the allocator's slack.
pub const THREADS_AND_SLACK: u128 = 16 << 20;

/// What the process may still map, and the limit that leaves it that: `ulimit -v` (the soft
/// "Max address space" of `/proc/self/limits`) less its `VmSize`, and `ulimit -d` ("Max data
/// size") less its `VmData` (its private writable mappings, which that limit counts), from
/// `/proc/self/status`; the one with less left where both are set (the address-space limit
/// where they leave the same).
fn tightest_limit(limits: &str, status: &str) -> Option<(u128, ProcessLimit)> {
    [ProcessLimit::AddressSpace, ProcessLimit::Data]
        .into_iter()
        .filter_map(|limit| {
            let (line, field) = limit.lines();
            let used_kib = status_number(status, field).unwrap_or(0);
            let room = soft_limit(limits, line)?.saturating_sub(used_kib * 1024);
            Some((room, limit))
        })
        .min_by_key(|&(room, _)| room)
}

/// The number of `/proc/self/status`' line `field` (`VmSize:` in KiB, `Threads:`).
pub(crate) fn status_number(status: &str, field: &str) -> Option<u128> {
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room_left(limits: &str, status: &str) -> Option<u128> {
        tightest_limit(limits, status).map(|(room, _)| room)
    }

    #[test]
    fn a_shortfall_names_the_limit_that_leaves_too_little() {
        let what = "splitting N = 8 into 19 parts";
        assert_eq!(
            shortfall(what, 1200, 0, Some("the data limit (ulimit -d)")),
            "splitting N = 8 into 19 parts needs about 1.2 KiB for this board, but the data \
             limit (ulimit -d) leaves no memory beyond what the program itself takes (its code, \
             its threads' stacks)"
        );
        assert_eq!(
            shortfall(
                what,
                3 << 20,
                1 << 20,
                Some("the address-space limit (ulimit -v)")
            ),
            "splitting N = 8 into 19 parts needs about 3.0 MiB for this board, but only 1.0 MiB \
             of memory is available under the address-space limit (ulimit -v)"
        );
        assert_eq!(
            shortfall(what, 3 << 20, 0, None),
            "splitting N = 8 into 19 parts needs about 3.0 MiB for this board, but only 0 B of \
             memory is available"
        );
    }

    #[test]
    fn the_threads_that_fit_are_what_is_left_beside_the_margin_in_whole_stacks() {
        let stack = 2 << 20;
        assert_eq!(threads_in(None, stack, 16), 16);
        assert_eq!(threads_in(Some(0), stack, 16), 0);
        assert_eq!(
            threads_in(Some(SIGNAL_STACKS_MARGIN + stack - 1), stack, 16),
            0
        );
        assert_eq!(
            threads_in(Some(SIGNAL_STACKS_MARGIN + 3 * stack), stack, 16),
            3
        );
        assert_eq!(threads_in(Some(u128::MAX), stack, 16), 16);
        assert_eq!(threads_in(Some(u128::MAX), 0, 16), 16);
    }

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
            room_left(limits, status),
            Some(1_048_576_000 - 24_000 * 1024)
        );
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(room_left(unlimited, status), None);
        let stack = "Max stack size            65536                unlimited            bytes\n";
        assert_eq!(soft_limit(stack, "Max stack size"), Some(65536));
        assert_eq!(soft_limit(stack, "Max address space"), None);
    }

    #[test]
    fn ulimit_d_counts_against_the_process_data() {
        let status = "Name: queens\nVmSize:     100000 kB\nVmData:     20000 kB\n";
        let data = "Max data size             104857600            unlimited            bytes\n";
        assert_eq!(room_left(data, status), Some(104_857_600 - 20_000 * 1024));
        assert_eq!(soft_address_space_limit(data), Some(104_857_600));
        let words = |limits: &str, status: &str| {
            tightest_limit(limits, status).map(|(_, limit)| limit.words())
        };
        assert_eq!(words(data, status), Some("the data limit (ulimit -d)"));
        // Both set: the less room of the two, and the limit that leaves it named, which need
        // not be the lower.
        let both = format!(
            "{data}Max address space         209715200            unlimited            bytes\n"
        );
        assert_eq!(room_left(&both, status), Some(104_857_600 - 20_000 * 1024));
        assert_eq!(words(&both, status), Some("the data limit (ulimit -d)"));
        let near_space = "Name: queens\nVmSize:     200000 kB\nVmData:     20000 kB\n";
        assert_eq!(
            room_left(&both, near_space),
            Some(209_715_200 - 200_000 * 1024)
        );
        assert_eq!(
            words(&both, near_space),
            Some("the address-space limit (ulimit -v)")
        );
        assert_eq!(words("", status), None);
    }

    #[test]
    fn threads_start_where_no_limit_is_set() {
        if address_space_limit().is_none() {
            assert!(room_for_threads(DEFAULT_THREAD_STACK));
            assert!(room_for_threads(u128::MAX));
        }
    }

    #[test]
    fn the_machine_reports_something_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(available().is_some_and(|bytes| bytes > 0));
        }
    }
}
