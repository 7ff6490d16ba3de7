//! Where the counting kernel keeps its invocations' stacks, in which form, and how many
//! invocations a workgroup holds: a frame a row from the item's first free row to the
//! penultimate, lane-fastest (one row's frames of a warp side by side), 16 bytes each or 8, in
//! workgroup memory or in a storage buffer.

/// Words in a record's frame, whatever the stack's form: a row's column and diagonal masks and
/// its untried squares.
pub const RECORD_FRAME_WORDS: u32 = 4;
/// The most invocations a workgroup of wide frames is given, however much memory the device
/// has.
pub const MAX_WORKGROUP: u32 = 256;
/// The most invocations a workgroup of compact frames in workgroup memory is given: the form
/// is there to hold more stacks a workgroup.
pub const MAX_COMPACT_WORKGROUP: u32 = 1024;
/// The largest board compact frames count: a row's left diagonals are undone by a shift back,
/// which loses the word's top bit, past the board below 32 columns.
pub const MAX_COMPACT_N: u32 = 31;

/// The stack frames an invocation holds on the N×N board when items fix `start` rows: the
/// rows from its first free row to the penultimate (the last row is never pushed).
pub fn frames(n: u32, start: u32) -> u32 {
    n.saturating_sub(start + 1).max(1)
}

/// The form of the stacks' frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FrameForm {
    /// 16 bytes a frame (a row's column and diagonal masks and its untried squares): one loop
    /// iteration a queen placed, and the rows with nothing left to try off the stack.
    #[default]
    Wide,
    /// 8 bytes a frame (a row's squares and right diagonals), a frame for every row of the
    /// path: twice the stacks in the same memory, for an iteration more at each return to a row
    /// with nothing left (about a third more at N = 15). Boards up to [`MAX_COMPACT_N`].
    Compact,
}

impl FrameForm {
    /// Its name, as the benchmarks take and print it: `wide` or `compact`.
    pub fn name(self) -> &'static str {
        match self {
            FrameForm::Wide => "wide",
            FrameForm::Compact => "compact",
        }
    }

    /// The form named `name` ([`FrameForm::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        [FrameForm::Wide, FrameForm::Compact]
            .into_iter()
            .find(|form| form.name() == name)
    }

    /// Bytes a frame takes.
    pub fn bytes(self) -> u32 {
        match self {
            FrameForm::Wide => 16,
            FrameForm::Compact => 8,
        }
    }

    /// Whether it counts the N×N board.
    pub fn counts(self, n: u32) -> bool {
        self == FrameForm::Wide || n <= MAX_COMPACT_N
    }

    /// The WGSL type of a frame.
    fn wgsl_type(self) -> &'static str {
        match self {
            FrameForm::Wide => "vec4<u32>",
            FrameForm::Compact => "vec2<u32>",
        }
    }

    /// The kernel's functions for frames of this form: `wide.wgsl` or `compact.wgsl`.
    pub(crate) fn source(self) -> &'static str {
        match self {
            FrameForm::Wide => include_str!("wide.wgsl"),
            FrameForm::Compact => include_str!("compact.wgsl"),
        }
    }
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
        [StackMemory::Workgroup, StackMemory::Storage]
            .into_iter()
            .find(|memory| memory.name() == name)
    }
}

/// Where a kernel keeps its stacks, in which form, and how many invocations a workgroup has:
/// one way to build it. A kernel may be built in several, timed against each other in a count's
/// first dispatches (see [`crate::trial`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The memory the stacks are in.
    pub memory: StackMemory,
    /// The frames' form.
    pub form: FrameForm,
    /// Invocations a workgroup.
    pub workgroup: u32,
}

impl Placement {
    /// Its name as the benchmarks print it: the memory's, the form's, and the workgroup's
    /// invocations.
    pub fn name(self) -> String {
        format!(
            "{} {} {}",
            self.memory.name(),
            self.form.name(),
            self.workgroup
        )
    }
}

/// How the invocations' stacks are laid out: in which memory, and the invocations a workgroup
/// and a dispatch. A frame's slot is `frame × stride + lane`, lane-fastest: one row's frames of
/// a warp side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackLayout {
    /// The memory the stacks are in.
    pub memory: StackMemory,
    /// The frames' form.
    pub form: FrameForm,
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
            form: placement.form,
            workgroup: placement.workgroup,
            invocations,
        }
    }

    /// Stacks of wide frames in workgroup memory, for workgroups of `workgroup` invocations.
    pub fn in_workgroup(workgroup: u32) -> Self {
        StackLayout {
            memory: StackMemory::Workgroup,
            form: FrameForm::Wide,
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
    pub(crate) fn declaration(self) -> String {
        let frame = self.form.wgsl_type();
        match self.memory {
            StackMemory::Workgroup => {
                format!("var<workgroup> stack: array<{frame}, FRAMES * STRIDE>;")
            }
            StackMemory::Storage => {
                format!("@group(0) @binding(6) var<storage, read_write> stack: array<{frame}>;")
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

/// The most invocations a workgroup can have for `frames` stack frames each of `form` in
/// `memory`, within the device's workgroup memory (for stacks there) and invocation limits: a
/// multiple of 32 (a warp) where it can be.
pub fn fit_workgroup(
    frames: u32,
    memory: StackMemory,
    form: FrameForm,
    limits: &wgpu::Limits,
) -> u32 {
    let (by_memory, cap) = match (memory, form) {
        (StackMemory::Workgroup, FrameForm::Compact) => (
            limits.max_compute_workgroup_storage_size / (frames * form.bytes()),
            MAX_COMPACT_WORKGROUP,
        ),
        (StackMemory::Workgroup, FrameForm::Wide) => (
            limits.max_compute_workgroup_storage_size / (frames * form.bytes()),
            MAX_WORKGROUP,
        ),
        (StackMemory::Storage, _) => (u32::MAX, MAX_WORKGROUP),
    };
    let most = by_memory
        .min(limits.max_compute_invocations_per_workgroup)
        .min(limits.max_compute_workgroup_size_x)
        .min(cap);
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
    fn workgroups_fill_the_workgroup_memory_in_whole_warps() {
        use FrameForm::{Compact, Wide};
        use StackMemory::{Storage, Workgroup};
        let limits = wgpu::Limits {
            max_compute_workgroup_storage_size: 49_152,
            max_compute_invocations_per_workgroup: 1024,
            max_compute_workgroup_size_x: 1024,
            ..wgpu::Limits::default()
        };
        let fit = |n, memory, form| fit_workgroup(frames(n, 6), memory, form, &limits);
        // N = 20 with six rows fixed: 13 frames of 16 bytes, 236 invocations' worth; N = 28:
        // 21 frames, 146. Compact frames: twice as many, 472 and 292.
        assert_eq!(fit(20, Workgroup, Wide), 224);
        assert_eq!(fit(28, Workgroup, Wide), 128);
        assert_eq!(fit(20, Workgroup, Compact), 448);
        assert_eq!(fit(28, Workgroup, Compact), 288);
        assert!(fit_workgroup(frames(32, 2), Workgroup, Wide, &limits) * 29 * 16 <= 49_152);
        // Compact frames up to the device's invocations, wide ones to 256.
        assert_eq!(
            fit_workgroup(2, Workgroup, Compact, &limits),
            MAX_COMPACT_WORKGROUP
        );
        assert_eq!(fit_workgroup(2, Workgroup, Wide, &limits), MAX_WORKGROUP);
        // Stacks in a storage buffer leave the workgroup the most invocations the engine gives.
        assert_eq!(fit(20, Storage, Wide), MAX_WORKGROUP);
        assert_eq!(fit(20, Storage, Compact), MAX_WORKGROUP);
    }

    #[test]
    fn compact_frames_count_boards_up_to_31_columns() {
        assert!(FrameForm::Compact.counts(31));
        assert!(!FrameForm::Compact.counts(32));
        assert!(FrameForm::Wide.counts(32));
        for form in [FrameForm::Wide, FrameForm::Compact] {
            assert_eq!(FrameForm::from_name(form.name()), Some(form));
        }
    }
}
