//! The GPUs this machine offers (wgpu's adapters), listed for `queens devices` and chosen for a
//! count: by default the GPU a job scheduler assigned the process ([`assigned`](crate::assigned))
//! where it is one of them, else the first hardware GPU; a software one (lavapipe,
//! `SwiftShader`, WARP) only when named by its index, since it counts correctly but slower than
//! the CPU engines.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Mutex, OnceLock, PoisonError};

use serde::Serialize;
use thiserror::Error;

use crate::assigned::Assignment;
use crate::pci::{DeviceId, PciAddress};

/// What kind of device an adapter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeviceType {
    /// A graphics card of its own.
    Discrete,
    /// A GPU sharing the processor's package and memory.
    Integrated,
    /// A GPU emulated on the CPU (lavapipe, `SwiftShader`, WARP).
    Software,
    /// A virtual machine's GPU.
    Virtual,
    /// Anything else the driver reports.
    Other,
}

impl DeviceType {
    fn of(kind: wgpu::DeviceType) -> Self {
        match kind {
            wgpu::DeviceType::DiscreteGpu => DeviceType::Discrete,
            wgpu::DeviceType::IntegratedGpu => DeviceType::Integrated,
            wgpu::DeviceType::Cpu => DeviceType::Software,
            wgpu::DeviceType::VirtualGpu => DeviceType::Virtual,
            wgpu::DeviceType::Other => DeviceType::Other,
        }
    }

    /// Its name in `queens devices` and JSON.
    pub fn name(self) -> &'static str {
        match self {
            DeviceType::Discrete => "discrete",
            DeviceType::Integrated => "integrated",
            DeviceType::Software => "software",
            DeviceType::Virtual => "virtual",
            DeviceType::Other => "other",
        }
    }

    /// Whether it is real hardware: what the GPU engine takes by default.
    pub fn is_hardware(self) -> bool {
        matches!(
            self,
            DeviceType::Discrete | DeviceType::Integrated | DeviceType::Virtual
        )
    }
}

/// The limits of an adapter that bound the counting kernel's batches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DeviceLimits {
    /// The largest storage buffer one binding may see, in bytes.
    pub max_storage_buffer_binding_size: u64,
    /// The largest buffer, in bytes.
    pub max_buffer_size: u64,
    /// The most invocations in one workgroup.
    pub max_compute_invocations_per_workgroup: u32,
    /// The most workgroup memory, in bytes.
    pub max_compute_workgroup_storage_size: u32,
    /// The most workgroups along one dimension of a dispatch.
    pub max_compute_workgroups_per_dimension: u32,
}

impl DeviceLimits {
    fn of(limits: &wgpu::Limits) -> Self {
        DeviceLimits {
            max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
            max_buffer_size: limits.max_buffer_size,
            max_compute_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
            max_compute_workgroup_storage_size: limits.max_compute_workgroup_storage_size,
            max_compute_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
        }
    }
}

/// One adapter, as `queens devices --json` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeviceInfo {
    /// Its index, for `--device`.
    pub index: usize,
    /// The name the driver gives.
    pub name: String,
    /// Discrete, integrated, software, virtual or other.
    #[serde(rename = "type")]
    pub kind: DeviceType,
    /// The graphics API: vulkan, metal or dx12.
    pub backend: String,
    /// The driver and its version.
    pub driver: String,
    /// Its PCI address (`0000:3b:00.0`), where the driver gives it: what tells apart the GPUs
    /// of a node that share a name, and what a job scheduler's assignment is matched with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pci_bus: Option<String>,
    /// What bounds the kernel's batches.
    pub limits: DeviceLimits,
}

impl DeviceInfo {
    fn of(index: usize, adapter: &wgpu::Adapter) -> Self {
        let info = adapter.get_info();
        let driver = [info.driver.as_str(), info.driver_info.as_str()]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        DeviceInfo {
            index,
            name: info.name,
            kind: DeviceType::of(info.device_type),
            backend: info.backend.to_str().to_owned(),
            driver,
            pci_bus: Some(info.device_pci_bus_id.to_lowercase()).filter(|bus| !bus.is_empty()),
            limits: DeviceLimits::of(&adapter.limits()),
        }
    }

    /// Its PCI address, where the driver gives one.
    pub fn address(&self) -> Option<PciAddress> {
        self.pci_bus.as_deref().and_then(|bus| bus.parse().ok())
    }

    /// One line: "0: NVIDIA H100 80GB HBM3 (discrete, vulkan, 0000:3b:00.0)".
    pub fn line(&self) -> String {
        let bus = self
            .pci_bus
            .as_ref()
            .map_or_else(String::new, |bus| format!(", {bus}"));
        format!(
            "{}: {} ({}, {}{bus})",
            self.index,
            self.name,
            self.kind.name(),
            self.backend
        )
    }
}

/// Which adapter a count takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// The GPU a job scheduler assigned this process, where it is one of the adapters (see
    /// [`assigned`](crate::assigned)); otherwise the first hardware GPU. A software adapter is
    /// never taken unasked.
    #[default]
    Default,
    /// The adapter with this index in [`Adapters::list`], whatever its kind.
    Index(usize),
    /// The adapter at this PCI address, whatever its kind.
    Address(PciAddress),
}

impl From<DeviceId> for Selection {
    fn from(id: DeviceId) -> Self {
        match id {
            DeviceId::Index(index) => Selection::Index(index),
            DeviceId::Address(address) => Selection::Address(address),
        }
    }
}

/// Why a count takes the adapter it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Its index or PCI address was given (`--device`).
    Named,
    /// A job scheduler assigned it: this adapter is at the assignment's PCI address.
    Assigned(Assignment),
    /// It is the first hardware GPU: nothing assigned one, or the assignment (`unmatched`)
    /// names no hardware adapter of this machine.
    FirstHardware {
        /// The assignment that was not found among the adapters.
        unmatched: Option<Assignment>,
    },
}

impl Reason {
    /// Why, in a few words: `assigned by SLURM_JOB_GPUS=3`, `the first hardware GPU`, `the first
    /// hardware GPU (SLURM_JOB_GPUS=7 names no GPU that this machine's driver files locate)`.
    pub fn phrase(&self) -> String {
        match self {
            Reason::Named => "named".to_owned(),
            Reason::Assigned(assignment) => format!("assigned by {}", assignment.setting()),
            Reason::FirstHardware { unmatched: None } => "the first hardware GPU".to_owned(),
            Reason::FirstHardware {
                unmatched: Some(assignment),
            } => format!(
                "the first hardware GPU ({} names {})",
                assignment.setting(),
                assignment.pci_bus.as_ref().map_or_else(
                    || "no GPU that this machine's driver files locate".to_owned(),
                    |bus| format!("the GPU at {bus}, where no adapter is"),
                )
            ),
        }
    }

    /// What a count on `device` for this reason says as a warning: that a job scheduler's
    /// assignment could not be followed and which GPU it counts on instead (`counting on 0: …,
    /// the first hardware GPU (SLURM_JOB_GPUS=3 names …)`), or `None` where nothing went astray.
    pub fn warning(&self, device: &DeviceInfo) -> Option<String> {
        matches!(self, Reason::FirstHardware { unmatched: Some(_) })
            .then(|| format!("counting on {}, {}", device.line(), self.phrase()))
    }
}

/// The adapter a count takes when none is named, and why: the assigned one where `assignment`
/// locates one of the hardware adapters of `list`, else the first hardware adapter; `None` when
/// there is no hardware adapter.
pub fn default_choice(
    list: &[DeviceInfo],
    assignment: Option<Assignment>,
) -> Option<(usize, Reason)> {
    let mut hardware = list.iter().filter(|info| info.kind.is_hardware());
    let first = hardware.clone().next()?.index;
    let Some(assignment) = assignment else {
        return Some((first, Reason::FirstHardware { unmatched: None }));
    };
    let at_bus = assignment
        .pci_bus
        .as_ref()
        .and_then(|bus| hardware.find(|info| info.pci_bus.as_ref() == Some(bus)));
    Some(match at_bus {
        Some(info) => (info.index, Reason::Assigned(assignment)),
        None => (
            first,
            Reason::FirstHardware {
                unmatched: Some(assignment),
            },
        ),
    })
}

/// Why no GPU can count.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GpuError {
    /// No adapter at all: no loader, no driver, or a driver with no device.
    #[error("{0}")]
    NoAdapter(String),
    /// Only software adapters, and none was named.
    #[error(
        "no hardware GPU found, only software adapters ({listing}); they count correctly but \
         slower than the CPU engines"
    )]
    OnlySoftware {
        /// The adapters found, one per line joined by "; ".
        listing: String,
    },
    /// `--device I` past the end of the list.
    #[error("there is no device {index}: {listing}")]
    NoSuchDevice {
        /// The index asked for.
        index: usize,
        /// What there is.
        listing: String,
    },
    /// `--device ADDRESS` where no adapter is.
    #[error(
        "there is no GPU at PCI address {address}: {listing} (a driver that does not give \
         addresses is named by index)"
    )]
    NoDeviceAt {
        /// The address asked for.
        address: PciAddress,
        /// What there is.
        listing: String,
    },
    /// The adapter refused to open a device or to build the kernel.
    #[error("the GPU {device} cannot count: {reason}")]
    Unusable {
        /// The adapter.
        device: String,
        /// What it said.
        reason: String,
    },
}

/// The adapters of this machine, found once.
pub struct Adapters {
    adapters: Vec<wgpu::Adapter>,
}

impl Adapters {
    /// Asks every compiled-in graphics API for its adapters (honouring wgpu's environment
    /// variables, such as `WGPU_BACKEND`). Never fails: no loader or no driver is no adapter.
    ///
    /// Drivers write to standard error while they are enumerated (Mesa's Wayland check says
    /// `error: XDG_RUNTIME_DIR is invalid or not set` on a machine without a session, loaders
    /// warn about manifests): that chatter is theirs, not the user's, and is kept off it
    /// ([`queens_io::quiet`], which gives standard error back even where the driver took the
    /// last descriptor the open-files limit allows). Standard error is the process's, so
    /// probes take turns (a server's counts may probe at once).
    pub fn probe() -> Self {
        static TURN: Mutex<()> = Mutex::new(());
        let _turn = TURN.lock().unwrap_or_else(PoisonError::into_inner);
        let quiet = queens_io::quiet::QuietStderr::new();
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        drop(quiet);
        Adapters { adapters }
    }

    /// Whether this machine has a hardware GPU, probed once for the process: what an
    /// automatic choice of engine asks before each count, without loading the drivers again.
    pub fn hardware_present() -> bool {
        static PRESENT: OnceLock<bool> = OnceLock::new();
        *PRESENT.get_or_init(|| Self::probe().first_hardware().is_some())
    }

    /// Every adapter, in index order.
    pub fn list(&self) -> Vec<DeviceInfo> {
        self.adapters
            .iter()
            .enumerate()
            .map(|(index, adapter)| DeviceInfo::of(index, adapter))
            .collect()
    }

    /// The first hardware GPU, if any.
    pub fn first_hardware(&self) -> Option<DeviceInfo> {
        self.list().into_iter().find(|info| info.kind.is_hardware())
    }

    /// What [`Selection::Default`] takes here, and why: `None` with no hardware adapter.
    pub fn default_choice(&self) -> Option<(usize, Reason)> {
        default_choice(&self.list(), Assignment::from_environment())
    }

    /// The adapter `selection` names, with its description and why it is the one.
    pub fn choose(
        self,
        selection: Selection,
    ) -> Result<(wgpu::Adapter, DeviceInfo, Reason), GpuError> {
        let list = self.list();
        // The scheduler's assignment is looked for only where it has a say.
        let assignment = match selection {
            Selection::Default => Assignment::from_environment(),
            Selection::Index(_) | Selection::Address(_) => None,
        };
        let (index, reason) = pick(&list, selection, assignment)?;
        let info = list[index].clone();
        let adapter = self
            .adapters
            .into_iter()
            .nth(index)
            .expect("the index is in the list");
        Ok((adapter, info, reason))
    }
}

/// The adapter of `list` that `selection` names (with `assignment`, a job scheduler's, for the
/// default), and why it is the one.
pub fn pick(
    list: &[DeviceInfo],
    selection: Selection,
    assignment: Option<Assignment>,
) -> Result<(usize, Reason), GpuError> {
    if list.is_empty() {
        return Err(GpuError::NoAdapter(missing_driver()));
    }
    let listing = || {
        list.iter()
            .map(DeviceInfo::line)
            .collect::<Vec<_>>()
            .join("; ")
    };
    match selection {
        Selection::Index(index) if index < list.len() => Ok((index, Reason::Named)),
        Selection::Index(index) => Err(GpuError::NoSuchDevice {
            index,
            listing: format!(
                "{} found ({})",
                if list.len() == 1 {
                    "1 adapter".to_owned()
                } else {
                    format!("{} adapters", list.len())
                },
                listing()
            ),
        }),
        Selection::Address(address) => list
            .iter()
            .position(|info| info.address() == Some(address))
            .map(|index| (index, Reason::Named))
            .ok_or_else(|| GpuError::NoDeviceAt {
                address,
                listing: listing(),
            }),
        Selection::Default => default_choice(list, assignment)
            .ok_or_else(|| GpuError::OnlySoftware { listing: listing() }),
    }
}

/// Why no adapter was found, as far as can be told without loading anything: `WGPU_BACKEND`
/// naming no graphics API this system reaches a GPU through, the Vulkan loader missing, or
/// present with no driver that has a device.
pub fn missing_driver() -> String {
    let mut message = String::from("no GPU to count on: ");
    let backend = std::env::var_os("WGPU_BACKEND");
    if let Some(left_out) =
        backends_left_out(backend.as_ref().map(|v| v.to_string_lossy()).as_deref())
    {
        message.push_str(&left_out);
        return message;
    }
    if cfg!(target_os = "macos") {
        message.push_str("Metal reports no device");
        return message;
    }
    let loader = if cfg!(windows) {
        "vulkan-1.dll"
    } else {
        "libvulkan.so.1"
    };
    if cfg!(target_os = "linux") && !vulkan_loader_installed() {
        let _ = write!(
            message,
            "the Vulkan loader ({loader}) is not installed; install it (Debian and Ubuntu: \
             libvulkan1) and your GPU's Vulkan driver"
        );
        return message;
    }
    message.push_str(
        "no Vulkan driver with a device was found; install your GPU's Vulkan driver \
         (NVIDIA's, AMD's or Intel's; Mesa's mesa-vulkan-drivers for AMD, Intel and the \
         software lavapipe)",
    );
    for variable in ["VK_DRIVER_FILES", "VK_ICD_FILENAMES"] {
        if let Ok(value) = std::env::var(variable) {
            let _ = write!(message, "; {variable} is set to {value:?}");
        }
    }
    message
}

/// The graphics APIs wgpu reaches a GPU through on this system, as `WGPU_BACKEND` names them.
const USABLE_BACKENDS: (wgpu::Backends, &str) = if cfg!(target_os = "macos") {
    (wgpu::Backends::METAL, "metal")
} else if cfg!(windows) {
    (
        wgpu::Backends::VULKAN.union(wgpu::Backends::DX12),
        "vulkan or dx12",
    )
} else {
    (wgpu::Backends::VULKAN, "vulkan")
};

/// Where `WGPU_BACKEND` (`given`, `None` where unset) leaves out every graphics API this
/// system reaches a GPU through, the sentence that says so: wgpu then asks no driver, and
/// passes over a name it does not know (`WGPU_BACKEND=garbage`) in silence.
fn backends_left_out(given: Option<&str>) -> Option<String> {
    let given = given?;
    let (usable, names) = USABLE_BACKENDS;
    if wgpu::Backends::from_comma_list(given).intersects(usable) {
        return None;
    }
    Some(format!(
        "WGPU_BACKEND is set to {given:?}, which leaves out {names}, the graphics API this \
         system reaches a GPU through; unset it or name {names}"
    ))
}

/// Whether `libvulkan.so.1` is in `LD_LIBRARY_PATH` or one of the usual library directories.
fn vulkan_loader_installed() -> bool {
    let from_environment = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
    let usual = [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
        "/lib/x86_64-linux-gnu",
        "/lib/aarch64-linux-gnu",
        "/lib64",
        "/lib",
        "/usr/local/lib",
    ];
    from_environment
        .split(':')
        .filter(|dir| !dir.is_empty())
        .chain(usual)
        .any(|dir| Path::new(dir).join("libvulkan.so.1").exists())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backend_variable_that_leaves_out_every_usable_api_is_named() {
        let (_, names) = USABLE_BACKENDS;
        for given in ["garbage", "", "gl", "noop", "webgpu"] {
            assert_eq!(
                backends_left_out(Some(given)),
                Some(format!(
                    "WGPU_BACKEND is set to \"{given}\", which leaves out {names}, the graphics \
                     API this system reaches a GPU through; unset it or name {names}"
                ))
            );
        }
        assert_eq!(backends_left_out(None), None);
        let usable = names.split(" or ").next().unwrap();
        for given in [usable.to_owned(), format!("gl, {}", usable.to_uppercase())] {
            assert_eq!(backends_left_out(Some(&given)), None, "{given}");
        }
    }

    fn adapter(index: usize, kind: DeviceType, pci_bus: Option<&str>) -> DeviceInfo {
        DeviceInfo {
            index,
            name: "NVIDIA H100 80GB HBM3".to_owned(),
            kind,
            backend: "vulkan".to_owned(),
            driver: "NVIDIA 580.159.04".to_owned(),
            pci_bus: pci_bus.map(str::to_owned),
            limits: DeviceLimits {
                max_storage_buffer_binding_size: 1 << 31,
                max_buffer_size: 1 << 40,
                max_compute_invocations_per_workgroup: 1024,
                max_compute_workgroup_storage_size: 49_152,
                max_compute_workgroups_per_dimension: 65_535,
            },
        }
    }

    fn assigned(pci_bus: Option<&str>) -> Assignment {
        Assignment {
            variable: "SLURM_JOB_GPUS",
            value: "2".to_owned(),
            pci_bus: pci_bus.map(str::to_owned),
        }
    }

    /// A node of three GPUs of one name after a software adapter, the way Vulkan lists them.
    fn node() -> Vec<DeviceInfo> {
        vec![
            adapter(0, DeviceType::Software, None),
            adapter(1, DeviceType::Discrete, Some("0000:18:00.0")),
            adapter(2, DeviceType::Discrete, Some("0000:2a:00.0")),
            adapter(3, DeviceType::Discrete, Some("0000:3a:00.0")),
        ]
    }

    #[test]
    fn the_assigned_gpu_is_the_default() {
        let (index, reason) =
            default_choice(&node(), Some(assigned(Some("0000:2a:00.0")))).unwrap();
        assert_eq!(index, 2);
        assert_eq!(reason.phrase(), "assigned by SLURM_JOB_GPUS=2");
        let (index, _) = default_choice(&node(), Some(assigned(Some("0000:3a:00.0")))).unwrap();
        assert_eq!(index, 3);
    }

    #[test]
    fn without_an_assignment_the_first_hardware_gpu() {
        let (index, reason) = default_choice(&node(), None).unwrap();
        assert_eq!(reason.warning(&node()[index]), None);
        assert_eq!(Reason::Named.warning(&node()[index]), None);
        assert_eq!(
            (index, reason.phrase().as_str()),
            (1, "the first hardware GPU")
        );
        // None at all but software: nothing is taken unasked, assigned or not.
        let software = [adapter(0, DeviceType::Software, None)];
        assert_eq!(default_choice(&software, None), None);
        assert_eq!(default_choice(&software, Some(assigned(None))), None);
    }

    #[test]
    fn an_assignment_no_adapter_matches_falls_back_and_says_so() {
        // A task whose cgroup shows Vulkan one GPU, at another address than /proc's.
        let (index, reason) =
            default_choice(&node(), Some(assigned(Some("0000:ab:00.0")))).unwrap();
        assert_eq!(index, 1);
        assert_eq!(
            reason.phrase(),
            "the first hardware GPU (SLURM_JOB_GPUS=2 names the GPU at 0000:ab:00.0, where no \
             adapter is)"
        );
        let warning = reason.warning(&node()[index]).unwrap();
        assert!(
            warning.starts_with(
                "counting on 1: NVIDIA H100 80GB HBM3 (discrete, vulkan, 0000:18:00.0), the \
                 first hardware GPU (SLURM_JOB_GPUS=2 names the GPU at 0000:ab:00.0"
            ),
            "{warning}"
        );
        let (index, reason) = default_choice(&node(), Some(assigned(None))).unwrap();
        assert_eq!(index, 1);
        assert!(
            reason
                .phrase()
                .contains("names no GPU that this machine's driver files locate")
        );
    }

    /// A GPU named by its index or its address is taken whatever its kind and whatever a
    /// scheduler assigned; a name that fits none is refused with the list.
    #[test]
    fn a_named_gpu_is_taken_by_index_or_address() {
        let named =
            |selection: Selection| pick(&node(), selection, Some(assigned(Some("0000:2a:00.0"))));
        assert_eq!(named(Selection::Index(0)), Ok((0, Reason::Named)));
        for (address, index) in [("0000:3a:00.0", 3), ("00000000:18:00.0", 1), ("2A:00.0", 2)] {
            let id: DeviceId = address.parse().unwrap();
            assert_eq!(named(id.into()), Ok((index, Reason::Named)), "{address}");
        }
        assert_eq!(
            named(Selection::Default),
            Ok((2, Reason::Assigned(assigned(Some("0000:2a:00.0")))))
        );
        let missing = named(Selection::Address("0000:4b:00.0".parse().unwrap()))
            .unwrap_err()
            .to_string();
        assert!(
            missing.starts_with("there is no GPU at PCI address 0000:4b:00.0: 0: NVIDIA"),
            "{missing}"
        );
        assert!(missing.contains("3: NVIDIA H100 80GB HBM3 (discrete, vulkan, 0000:3a:00.0)"));
        let past = named(Selection::Index(4)).unwrap_err().to_string();
        assert!(
            past.starts_with("there is no device 4: 4 adapters found"),
            "{past}"
        );
        assert!(matches!(
            pick(&[], Selection::Index(0), None),
            Err(GpuError::NoAdapter(_))
        ));
    }

    #[test]
    fn a_line_names_the_pci_address_where_known() {
        assert_eq!(
            adapter(2, DeviceType::Discrete, Some("0000:2a:00.0")).line(),
            "2: NVIDIA H100 80GB HBM3 (discrete, vulkan, 0000:2a:00.0)"
        );
        assert_eq!(
            adapter(0, DeviceType::Software, None).line(),
            "0: NVIDIA H100 80GB HBM3 (software, vulkan)"
        );
    }
}
