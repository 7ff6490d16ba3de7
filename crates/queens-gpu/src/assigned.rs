//! The GPU a job scheduler gave this process, found without a graphics API. Vulkan drivers list
//! every GPU of the machine whatever the scheduler assigned (NVIDIA's ignores
//! `CUDA_VISIBLE_DEVICES`), so on a node of eight GPUs a count that took the first one would put
//! all eight tasks of a job array on one GPU and leave seven idle. The assignment is read from
//! the environment and located on the PCI bus, whose addresses the adapters report too
//! (`VK_EXT_pci_bus_info`, as [`DeviceInfo::pci_bus`](crate::devices::DeviceInfo::pci_bus)):
//!
//! - Slurm's `SLURM_STEP_GPUS`, else `SLURM_JOB_GPUS`: the global IDs of the GPUs allocated,
//!   whatever cgroup confines the task. A global ID is the number of the GPU's device file in
//!   `gres.conf` (`/dev/nvidia3` is 3, `/dev/dri/renderD129` is 129). An NVIDIA GPU's device
//!   minor and PCI address are in `/proc/driver/nvidia/gpus/ADDRESS/information`; a DRM
//!   device's address is where `/sys/class/drm/renderDN/device` (or `cardN`) points.
//! - Otherwise `CUDA_VISIBLE_DEVICES`, as a user sets it on a workstation: a GPU's UUID (`GPU-…`
//!   or a prefix of it, matched against the same files' `GPU UUID`), or an index, taken as
//!   `nvidia-smi` numbers the NVIDIA GPUs (in PCI order).
//!
//! The engine counts on one device, so only the first GPU listed is taken.

use std::path::Path;

/// Where NVIDIA's driver describes each GPU, a directory per PCI address.
const NVIDIA_GPUS: &str = "proc/driver/nvidia/gpus";
/// Where the kernel lists DRM devices (AMD's and Intel's GPUs).
const DRM_DEVICES: &str = "sys/class/drm";

/// The environment's choice of GPU, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// The variable that made it: `SLURM_JOB_GPUS`.
    pub variable: &'static str,
    /// Its value, as set.
    pub value: String,
    /// The first GPU's PCI address, as adapters report theirs (`0000:3b:00.0`); `None` where
    /// this machine's files do not say where that GPU is.
    pub pci_bus: Option<String>,
}

impl Assignment {
    /// The assignment this process's environment makes, if any, located on this machine.
    pub fn from_environment() -> Option<Self> {
        Self::read(|name| std::env::var(name).ok(), Path::new("/"))
    }

    /// The assignment that `variable` gives, located under `root` (`/` but in tests).
    fn read(variable: impl Fn(&str) -> Option<String>, root: &Path) -> Option<Self> {
        let set = |name: &'static str| {
            variable(name)
                .filter(|value| !value.trim().is_empty())
                .map(|value| (name, value))
        };
        let (name, value) = set("SLURM_STEP_GPUS")
            .or_else(|| set("SLURM_JOB_GPUS"))
            .or_else(|| set("CUDA_VISIBLE_DEVICES"))?;
        let first = value.split(',').next().unwrap_or_default().trim();
        let pci_bus = if name == "CUDA_VISIBLE_DEVICES" {
            cuda_visible(first, root)
        } else {
            first
                .parse::<u32>()
                .ok()
                .and_then(|id| device_file(id, root))
        };
        Some(Assignment {
            variable: name,
            value,
            pci_bus,
        })
    }

    /// `SLURM_JOB_GPUS=3`.
    pub fn setting(&self) -> String {
        format!("{}={}", self.variable, self.value)
    }
}

/// One NVIDIA GPU as its driver describes it.
struct NvidiaGpu {
    address: String,
    minor: Option<u32>,
    uuid: Option<String>,
}

/// The NVIDIA GPUs under `root`, in PCI order (how `nvidia-smi` numbers them).
fn nvidia_gpus(root: &Path) -> Vec<NvidiaGpu> {
    let Ok(entries) = std::fs::read_dir(root.join(NVIDIA_GPUS)) else {
        return Vec::new();
    };
    let mut gpus: Vec<NvidiaGpu> = entries
        .flatten()
        .map(|entry| {
            let information =
                std::fs::read_to_string(entry.path().join("information")).unwrap_or_default();
            let field = |key: &str| {
                information.lines().find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    (name.trim() == key).then(|| value.trim().to_owned())
                })
            };
            NvidiaGpu {
                address: entry.file_name().to_string_lossy().to_lowercase(),
                minor: field("Device Minor").and_then(|minor| minor.parse().ok()),
                uuid: field("GPU UUID"),
            }
        })
        .collect();
    gpus.sort_by(|a, b| a.address.cmp(&b.address));
    gpus
}

/// The PCI address of the GPU whose device file has the number `id`: an NVIDIA GPU's device
/// minor where NVIDIA's driver is loaded, else a DRM render node's or card's number.
fn device_file(id: u32, root: &Path) -> Option<String> {
    let nvidia = nvidia_gpus(root);
    if !nvidia.is_empty() {
        return nvidia
            .into_iter()
            .find(|gpu| gpu.minor == Some(id))
            .map(|gpu| gpu.address);
    }
    [format!("renderD{id}"), format!("card{id}")]
        .iter()
        .find_map(|node| drm_address(&root.join(DRM_DEVICES).join(node).join("device")))
}

/// The PCI address a DRM device's `device` link points to (`…/0000:03:00.0`).
fn drm_address(link: &Path) -> Option<String> {
    let target = std::fs::read_link(link).ok()?;
    let name = target.file_name()?.to_string_lossy().to_lowercase();
    is_pci_address(&name).then_some(name)
}

/// Whether `name` reads as a PCI address, `0000:03:00.0`.
fn is_pci_address(name: &str) -> bool {
    let parts: Vec<&str> = name.split([':', '.']).collect();
    parts.len() == 4
        && [4, 2, 2, 1].iter().zip(&parts).all(|(width, part)| {
            part.len() == *width && part.chars().all(|c| c.is_ascii_hexdigit())
        })
}

/// The PCI address of the first GPU `CUDA_VISIBLE_DEVICES` names: a UUID or a unique prefix of
/// one (`GPU-8932f937`), or an index in PCI order.
fn cuda_visible(first: &str, root: &Path) -> Option<String> {
    let gpus = nvidia_gpus(root);
    if first.starts_with("GPU-") {
        let mut matching = gpus.into_iter().filter(|gpu| {
            gpu.uuid
                .as_deref()
                .is_some_and(|uuid| uuid.starts_with(first))
        });
        let gpu = matching.next()?;
        return matching.next().is_none().then_some(gpu.address);
    }
    let index: usize = first.parse().ok()?;
    gpus.into_iter().nth(index).map(|gpu| gpu.address)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::path::PathBuf;

    /// A machine's files under a scratch root.
    struct Machine {
        root: PathBuf,
    }

    impl Machine {
        fn new(name: &str) -> Self {
            let root =
                std::env::temp_dir().join(format!("queens-assigned-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&root);
            std::fs::create_dir_all(&root).unwrap();
            Machine { root }
        }

        /// An NVIDIA GPU as its driver describes it (the layout of a real `information`).
        fn nvidia(&self, address: &str, minor: u32, uuid: &str) -> &Self {
            let dir = self.root.join(NVIDIA_GPUS).join(address);
            std::fs::create_dir_all(&dir).unwrap();
            let information = format!(
                "Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 0\nGPU UUID: \t {uuid}\n\
                 Video BIOS: \t 96.00.99.00.01\nBus Type: \t PCIe\nDMA Size: \t 52 bits\n\
                 Bus Location: \t {address}\nDevice Minor: \t {minor}\nGPU Excluded:\t No\n"
            );
            std::fs::write(dir.join("information"), information).unwrap();
            self
        }

        /// A DRM node whose device link points to a PCI address.
        #[cfg(unix)]
        fn drm(&self, node: &str, address: &str) -> &Self {
            let dir = self.root.join(DRM_DEVICES).join(node);
            std::fs::create_dir_all(&dir).unwrap();
            let target = format!("../../../0000:00:01.0/{address}");
            std::os::unix::fs::symlink(target, dir.join("device")).unwrap();
            self
        }

        fn read(&self, variables: &[(&str, &str)]) -> Option<Assignment> {
            let variables: HashMap<String, String> = variables
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect();
            Assignment::read(|name| variables.get(name).cloned(), &self.root)
        }
    }

    impl Drop for Machine {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }

    /// Four NVIDIA GPUs whose device minors are not in PCI order, as on some servers.
    fn four_gpus(name: &str) -> Machine {
        let machine = Machine::new(name);
        machine
            .nvidia(
                "0000:18:00.0",
                2,
                "GPU-11111111-aaaa-bbbb-cccc-000000000018",
            )
            .nvidia(
                "0000:2a:00.0",
                0,
                "GPU-22222222-aaaa-bbbb-cccc-00000000002a",
            )
            .nvidia(
                "0000:ab:00.0",
                3,
                "GPU-33333333-aaaa-bbbb-cccc-0000000000ab",
            )
            .nvidia(
                "0000:3a:00.0",
                1,
                "GPU-44444444-aaaa-bbbb-cccc-00000000003a",
            );
        machine
    }

    fn bus(assignment: Option<Assignment>) -> Option<String> {
        assignment.and_then(|assignment| assignment.pci_bus)
    }

    #[test]
    fn slurm_global_ids_are_device_minors() {
        let machine = four_gpus("slurm");
        for (id, address) in [
            ("0", "0000:2a:00.0"),
            ("1", "0000:3a:00.0"),
            ("2", "0000:18:00.0"),
            ("3", "0000:ab:00.0"),
        ] {
            // CUDA_VISIBLE_DEVICES is 0 in a task whose devices a cgroup confines: the global
            // ID is what locates the GPU.
            let found = machine.read(&[("SLURM_JOB_GPUS", id), ("CUDA_VISIBLE_DEVICES", "0")]);
            assert_eq!(found.as_ref().unwrap().variable, "SLURM_JOB_GPUS");
            assert_eq!(bus(found).as_deref(), Some(address), "SLURM_JOB_GPUS={id}");
        }
        // A step's GPUs before the job's, and the first of several.
        let found = machine.read(&[("SLURM_STEP_GPUS", "3,1"), ("SLURM_JOB_GPUS", "0,1,3")]);
        assert_eq!(found.as_ref().unwrap().setting(), "SLURM_STEP_GPUS=3,1");
        assert_eq!(bus(found).as_deref(), Some("0000:ab:00.0"));
    }

    #[test]
    fn an_id_no_gpu_has_is_located_nowhere() {
        let machine = four_gpus("nowhere");
        for value in ["7", "NoDevFiles", "-1"] {
            let found = machine.read(&[("SLURM_JOB_GPUS", value)]).unwrap();
            assert_eq!(found.pci_bus, None, "{value}");
            assert_eq!(found.setting(), format!("SLURM_JOB_GPUS={value}"));
        }
        assert_eq!(
            Machine::new("bare")
                .read(&[("SLURM_JOB_GPUS", "0")])
                .unwrap()
                .pci_bus,
            None
        );
    }

    #[test]
    fn no_variable_no_assignment() {
        let machine = four_gpus("unset");
        assert_eq!(machine.read(&[]), None);
        assert_eq!(machine.read(&[("CUDA_VISIBLE_DEVICES", "")]), None);
        assert_eq!(machine.read(&[("SLURM_JOB_GPUS", " ")]), None);
    }

    #[test]
    fn cuda_visible_devices_by_index_and_uuid() {
        let machine = four_gpus("cuda");
        // Indices count the GPUs in PCI order, as nvidia-smi does.
        for (index, address) in [
            ("0", "0000:18:00.0"),
            ("2,0", "0000:3a:00.0"),
            ("3", "0000:ab:00.0"),
        ] {
            let found = machine.read(&[("CUDA_VISIBLE_DEVICES", index)]);
            assert_eq!(bus(found).as_deref(), Some(address), "{index}");
        }
        assert_eq!(bus(machine.read(&[("CUDA_VISIBLE_DEVICES", "4")])), None);
        let uuid = "GPU-33333333-aaaa-bbbb-cccc-0000000000ab";
        assert_eq!(
            bus(machine.read(&[("CUDA_VISIBLE_DEVICES", uuid)])).as_deref(),
            Some("0000:ab:00.0")
        );
        assert_eq!(
            bus(machine.read(&[("CUDA_VISIBLE_DEVICES", "GPU-2222")])).as_deref(),
            Some("0000:2a:00.0")
        );
        // A prefix that two GPUs share names neither; a MIG instance is not a whole GPU.
        assert_eq!(bus(machine.read(&[("CUDA_VISIBLE_DEVICES", "GPU-")])), None);
        assert_eq!(
            bus(machine.read(&[("CUDA_VISIBLE_DEVICES", "MIG-1234")])),
            None
        );
    }

    #[test]
    #[cfg(unix)]
    fn drm_render_nodes_locate_other_gpus() {
        let machine = Machine::new("drm");
        machine
            .drm("renderD128", "0000:03:00.0")
            .drm("renderD129", "0000:83:00.0")
            .drm("card1", "0000:83:00.0");
        let at = |id: &str| bus(machine.read(&[("SLURM_JOB_GPUS", id)]));
        assert_eq!(at("129").as_deref(), Some("0000:83:00.0"));
        assert_eq!(at("128").as_deref(), Some("0000:03:00.0"));
        assert_eq!(at("1").as_deref(), Some("0000:83:00.0"));
        assert_eq!(at("130"), None);
    }

    #[test]
    fn pci_addresses_are_recognised() {
        assert!(is_pci_address("0000:3b:00.0"));
        assert!(!is_pci_address("card0"));
        assert!(!is_pci_address("0000:3b:00"));
        assert!(!is_pci_address("0000:3b:0g.0"));
    }
}
