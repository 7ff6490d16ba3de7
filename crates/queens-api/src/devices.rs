//! The GPUs a count may run on, as `queens devices`, Python's `devices()` and `--device` see
//! them: the adapters the drivers offer, and what is missing where there is none. The engine is
//! `queens-gpu`'s; this is its door.
//!
//! ```
//! use queens_api::devices::Adapters;
//!
//! // Without a loader or a driver the list is empty: a probe is never an error.
//! for device in Adapters::probe().list() {
//!     println!("{}: {}", device.index, device.name);
//! }
//! ```

pub use queens_gpu::assigned::Assignment;
pub use queens_gpu::devices::missing_driver;
pub use queens_gpu::pci::DeviceIdError;
pub use queens_gpu::{Adapters, DeviceId, DeviceInfo, DeviceType, GpuError, PciAddress, Reason};
