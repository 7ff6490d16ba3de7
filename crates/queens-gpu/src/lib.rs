//! Counting all and unique N-Queens solutions on a GPU, through [wgpu] (WGSL compute on Vulkan,
//! Metal or DX12; the driver is loaded at run time, so building needs no GPU and no SDK).
//!
//! The GPU engine counts exactly what the CPU's backtracking engine counts, by the same split
//! into symmetry classes (members of two shapes weighed by where their edge queens stand, and
//! the turns' searches for Burnside's lemma, counted on a CPU thread alongside), so it gives
//! unique counts as well as totals, and its parts, shards and checkpoints are backtracking's: a
//! GPU is one more worker.
//!
//! - [`devices`]: the adapters found, for `queens devices`, and the choice of one (by default
//!   the GPU a job scheduler assigned, else the first hardware GPU; a software one only when
//!   named).
//! - [`assigned`]: the GPU a job scheduler assigned (Slurm's `SLURM_JOB_GPUS`,
//!   `CUDA_VISIBLE_DEVICES`), located on the PCI bus, which Vulkan drivers do not honour.
//! - [`pci`]: PCI addresses, and a GPU named by its index or its address (`--device`).
//! - [`items`]: each part of the count cut into many small items on the host.
//! - [`wgsl`]: the kernel's WGSL (persistent invocations taking items from a queue, one queen
//!   placed an iteration) made for one N.
//! - [`kernel`]: the kernel on a device, one bounded dispatch at a time.
//! - [`stacks`]: where its stacks are (workgroup memory, or a storage buffer) and how many
//!   invocations a workgroup holds.
//! - [`trial`]: the placements timed against each other in a count's first dispatches on a GPU,
//!   and the fastest kept.
//! - [`counter`]: [`GpuCounter`], the [`PartCounter`](queens_exact::count::PartCounter) that
//!   streams items through the kernel and sums their tallies back into parts.
//!
//! ```no_run
//! use std::sync::Arc;
//! use queens_core::Budget;
//! use queens_exact::count::{CountJob, CountPlan, Engine};
//! use queens_gpu::{GpuCounter, GpuOptions, Selection};
//!
//! let gpu = GpuCounter::open(Selection::Default, GpuOptions::default())?;
//! let job = CountJob::new(CountPlan::with_engine(16, Engine::Gpu)?).with_counter(Arc::new(gpu));
//! let result = job.run(&Budget::unlimited(), |_, _| {})?;
//! assert_eq!((result.tally.total, result.tally.unique()), (14_772_512, 1_846_955));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod assigned;
pub mod counter;
pub mod devices;
pub mod items;
pub mod kernel;
pub mod pci;
pub mod stacks;
mod stream;
pub mod trial;
pub mod wgsl;

pub use counter::{DispatchStats, GpuCounter, GpuOptions};
pub use devices::{Adapters, DeviceInfo, DeviceType, GpuError, Reason, Selection};
pub use kernel::{Residency, Shape};
pub use pci::{DeviceId, PciAddress};
pub use stacks::{Placement, StackMemory, TopFrame};
