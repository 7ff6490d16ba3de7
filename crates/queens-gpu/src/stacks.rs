//! Where the counting kernel keeps its invocations' stacks, whether its loop keeps the top
//! frame in registers, and how many invocations a workgroup holds: a frame a row from the
//! item's first free row to the one before the penultimate, 16 bytes each, lane-fastest (one
//! row's frames of a warp side by side), in workgroup memory or in a storage buffer.

/// Words in a stacked row's frame: its column and diagonal masks and its untried squares.
pub const FRAME_WORDS: u32 = 4;
/// Bytes an invocation's stack frame takes.
pub const FRAME_BYTES: u32 = FRAME_WORDS * 4;
/// The most invocations a workgroup is given, however much memory the device has.
pub const MAX_WORKGROUP: u32 = 256;

/// The stack frames an invocation holds on the N×N board when items fix `start` rows: the
/// rows from its first free row to the one before the penultimate (the kernel counts the last
/// two rows without pushing them), and one where no row is stacked.
pub fn frames(n: u32, start: u32) -> u32 {
    n.saturating_sub(start + 2).max(1)
}

/// Where the kernel keeps its invocations' stacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StackMemory {
    /// Workgroup memory (shared memory, local data share): the fastest to reach, but a
    /// workgroup holds only as many invocations as it has room for the stacks of.
    #[default]
    Workgroup,
    /// A storage buffer, a frame a row for every invocation of the dispatch, reached through
    /// the device's caches: no workgroup's memory bounds the invocations a workgroup holds,
    /// nor how many workgroups a multiprocessor holds.
    Storage,
}

impl StackMemory {
    /// Its name, as the benchmarks take and print it: `workgroup` or `storage`.
    pub fn name(self) -> &'static str {
        match self {
            StackMemory::Workgroup => "workgroup",
            StackMemory::Storage => "storage",
        }
    }

    /// The stack memory named `name` ([`StackMemory::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        named(
            [StackMemory::Workgroup, StackMemory::Storage],
            Self::name,
            name,
        )
    }
}

/// The one of `all` that `name_of` calls `name`.
fn named<T: Copy, const K: usize>(
    all: [T; K],
    name_of: fn(T) -> &'static str,
    name: &str,
) -> Option<T> {
    all.into_iter().find(|&each| name_of(each) == name)
}

/// Where the kernel's loop reads a step's frame: from the stack, or from registers where the
/// step before left it (a loop form, like [`crate::wgsl::Rules`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TopFrame {
    /// From the stack: each step starts with a load whose slot the step before chose.
    #[default]
    Stack,
    /// From registers, where each step leaves the next step's frame: the child it pushed, its
    /// own frame with a square fewer, or the frame below it, loaded at the step's start (used
    /// where it pops without pushing), so that no load stands between one step and the next.
    /// Eight selects a step more.
    Registers,
}

impl TopFrame {
    /// Its name, as the benchmarks take and print it: `stack` or `registers`.
    pub fn name(self) -> &'static str {
        match self {
            TopFrame::Stack => "stack",
            TopFrame::Registers => "registers",
        }
    }

    /// The form named `name` ([`TopFrame::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        named([TopFrame::Stack, TopFrame::Registers], Self::name, name)
    }

    /// The loop's `UNDER`, `TOP` and `NEXT_TOP` (see `count.wgsl`).
    pub(crate) fn tokens(self) -> [&'static str; 3] {
        match self {
            TopFrame::Stack => ["", "stack[top]", ""],
            TopFrame::Registers => [
                "let under = stack[select(top - STRIDE, top, top == lane)];",
                "top_frame",
                "top_frame = select(select(vec4<u32>(frame.xyz, untried), under, untried == 0u), \
                 vec4<u32>(cols, left, right, live), push);",
            ],
        }
    }
}

/// Where a kernel keeps its stacks, how many invocations a workgroup has and where its loop
/// reads a step's frame: one way to build it. A kernel may be built in several, timed against
/// each other in a count's first dispatches (see [`crate::trial`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The memory the stacks are in.
    pub memory: StackMemory,
    /// Invocations a workgroup.
    pub workgroup: u32,
    /// Where the loop reads a step's frame.
    pub top: TopFrame,
}

impl Placement {
    /// Its name as the benchmarks print it: the memory's, the workgroup's invocations, and
    /// where the top frame is when not on the stack (`storage 256, top in registers`).
    pub fn name(self) -> String {
        let top = match self.top {
            TopFrame::Stack => "",
            TopFrame::Registers => ", top in registers",
        };
        format!("{} {}{top}", self.memory.name(), self.workgroup)
    }

    /// Whether it is built as `other` is, whatever their workgroups: what a trial's choice
    /// for one kernel says of the next.
    pub fn is_built_as(self, other: Placement) -> bool {
        (self.memory, self.top) == (other.memory, other.top)
    }
}

/// How the invocations' stacks are laid out: in which memory, and the invocations a workgroup
/// and a dispatch. A frame's slot is `frame × stride + lane`, lane-fastest: one row's frames of
/// a warp side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackLayout {
    /// The memory the stacks are in.
    pub memory: StackMemory,
    /// Invocations a workgroup.
    pub workgroup: u32,
    /// Invocations a dispatch.
    pub invocations: u32,
}

impl StackLayout {
    /// The layout of `placement` for dispatches of `invocations` invocations.
    pub fn of(placement: Placement, invocations: u32) -> Self {
        StackLayout {
            memory: placement.memory,
            workgroup: placement.workgroup,
            invocations,
        }
    }

    /// Stacks in workgroup memory, for workgroups of `workgroup` invocations.
    pub fn in_workgroup(workgroup: u32) -> Self {
        StackLayout {
            memory: StackMemory::Workgroup,
            workgroup,
            invocations: workgroup,
        }
    }

    /// The slots from one row's frames to the next's: the invocations that share the stack
    /// memory.
    pub(crate) fn stride(self) -> u32 {
        match self.memory {
            StackMemory::Workgroup => self.workgroup,
            StackMemory::Storage => self.invocations,
        }
    }

    /// The kernel's declaration of the stacks.
    pub(crate) fn declaration(self) -> &'static str {
        match self.memory {
            StackMemory::Workgroup => "var<workgroup> stack: array<vec4<u32>, FRAMES * STRIDE>;",
            StackMemory::Storage => {
                "@group(0) @binding(6) var<storage, read_write> stack: array<vec4<u32>>;"
            }
        }
    }

    /// The invocation's lane in its rows of frames: its index in the workgroup or the dispatch.
    pub(crate) fn lane(self) -> &'static str {
        match self.memory {
            StackMemory::Workgroup => "local",
            StackMemory::Storage => "global.x",
        }
    }
}

/// The most invocations a workgroup can have for `frames` stack frames each in `memory`,
/// within the device's workgroup memory (for stacks there) and invocation limits: a multiple of
/// 32 (a warp) where it can be.
pub fn fit_workgroup(frames: u32, memory: StackMemory, limits: &wgpu::Limits) -> u32 {
    let by_memory = match memory {
        StackMemory::Workgroup => {
            limits.max_compute_workgroup_storage_size / (frames * FRAME_BYTES)
        }
        StackMemory::Storage => u32::MAX,
    };
    let most = by_memory
        .min(limits.max_compute_invocations_per_workgroup)
        .min(limits.max_compute_workgroup_size_x)
        .min(MAX_WORKGROUP);
    if most >= 32 {
        most / 32 * 32
    } else {
        most.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_is_found_by_its_name() {
        for memory in [StackMemory::Workgroup, StackMemory::Storage] {
            assert_eq!(StackMemory::from_name(memory.name()), Some(memory));
        }
        for top in [TopFrame::Stack, TopFrame::Registers] {
            assert_eq!(TopFrame::from_name(top.name()), Some(top));
        }
        assert_eq!(StackMemory::from_name("stack"), None);
        assert_eq!(TopFrame::from_name("workgroup"), None);
    }

    #[test]
    fn workgroups_fill_the_workgroup_memory_in_whole_warps() {
        let limits = wgpu::Limits {
            max_compute_workgroup_storage_size: 49_152,
            max_compute_invocations_per_workgroup: 1024,
            max_compute_workgroup_size_x: 1024,
            ..wgpu::Limits::default()
        };
        // N = 20 with six rows fixed: 12 frames of 16 bytes (rows 6 to 17), 256 invocations'
        // worth; N = 28: 20 frames, 153.
        assert_eq!(frames(20, 6), 12);
        assert_eq!(
            fit_workgroup(frames(20, 6), StackMemory::Workgroup, &limits),
            256
        );
        assert_eq!(
            fit_workgroup(frames(28, 6), StackMemory::Workgroup, &limits),
            128
        );
        assert!(fit_workgroup(frames(32, 2), StackMemory::Workgroup, &limits) * 28 * 16 <= 49_152);
        // Stacks in a storage buffer leave the workgroup the most invocations the engine gives.
        assert_eq!(
            fit_workgroup(frames(20, 6), StackMemory::Storage, &limits),
            MAX_WORKGROUP
        );
    }
}
