//! The counting kernel's machine code a step, from a GPU's own compiler without a GPU: Mesa's
//! Vulkan driver for AMD (RADV) runs on null hardware (`RADV_FORCE_FAMILY`), compiles the
//! kernel for an RDNA3 GPU (gfx1100) with its ACO back end and prints the code
//! (`RADV_DEBUG=shaders`); this counts the instructions of one step of the hot loop.
//!
//! ```text
//! cargo run --release -p queens-gpu --example kernel_isa -- [N] [path/to/count.wgsl] [--print]
//! cargo run --release -p queens-gpu --example kernel_isa -- [N] [path/to/count.wgsl] --native
//! ```
//!
//! `kernel_ops` counts the WGSL's operations; this sees what a compiler makes of them: uniform
//! reads in the loop that become loads, short-circuit tests that become branches, address
//! arithmetic, operations fused (`v_or3_b32`), and branches turned into selects (ACO computes
//! the weighing of a completion on every step, where the WGSL branches over it). Counted: the
//! loop that ends in the branch back over the most code, less the rare branch (the largest
//! block it skips forward within itself); in it, vector ALU, scalar ALU, workgroup memory
//! (`ds_`), scalar loads, waits and branches. Needs Mesa's RADV
//! (`mesa-vulkan-drivers`) and the Vulkan loader; the module is the engine's (naga's SPIR-V,
//! no runtime checks, workgroup memory not zeroed), at 64 invocations a workgroup.
//!
//! Each form's line is followed by the statistics the driver gives of the pipeline
//! (`VK_KHR_pipeline_executable_properties`; RADV: registers, spills, code size, the waves a
//! SIMD holds). `--native` builds the kernel on the machine's own GPU instead and prints its
//! driver's statistics alone, where its driver gives them (on an NVIDIA GPU, the registers a
//! thread, which bound how many warps a multiprocessor holds, and any spills to local memory,
//! are what to look for): what a device's time depends on and no count of operations shows.
//!
//! Given `reference_loop.wgsl` (the fastest public loop, see the `reference_loop` example), it
//! prints the statistics of that loop's counted form alone, with one search an invocation and
//! with two (`--frames paired` there), to set beside the kernel's.

use std::collections::BTreeMap;
use std::process::Command;

use queens_gpu::TopFrame;
use queens_gpu::wgsl::{self, Rules};
use wgpu::naga;

/// Set in the child process that compiles.
const CHILD: &str = "QUEENS_KERNEL_ISA_CHILD";
/// Where distributions install the Vulkan drivers' loader manifests (RADV's is
/// `radeon_icd.<arch>.json`).
const ICD_DIR: &str = "/usr/share/vulkan/icd.d";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let print = args.iter().any(|arg| arg == "--print");
    let mut positional = args.iter().filter(|arg| !arg.starts_with("--"));
    let n: u32 = positional
        .next()
        .map_or(20, |text| text.parse().expect("N is a number from 4 to 32"));
    let path = positional.next().cloned();
    let text = match &path {
        Some(path) => std::fs::read_to_string(path).expect("a readable WGSL file"),
        None => include_str!("../src/count.wgsl").to_owned(),
    };
    // The fastest public loop (`reference_loop.wgsl`), for its registers beside the kernel's.
    let reference = text.contains("{{SEARCHES}}");
    let programs = programs(&text, n);
    if args.iter().any(|arg| arg == "--native") {
        native(&programs, n);
        return;
    }
    if std::env::var_os(CHILD).is_some() {
        // The statistics go to standard output, one line each, the dump to standard error.
        for (index, (_, spirv)) in programs.iter().enumerate() {
            let built = compile::pipeline(spirv, compile::Device::First);
            for (name, value) in built.statistics {
                println!("{index}\t{name}\t{value}");
            }
        }
        return;
    }
    // The driver reads its settings when it loads: compile in a child process with them set,
    // and read its dump.
    let radv = std::fs::read_dir(ICD_DIR)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .find(|path| {
            path.file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with("radeon_icd"))
        })
        .expect("RADV's manifest in /usr/share/vulkan/icd.d (install mesa-vulkan-drivers)");
    let output = Command::new(std::env::current_exe().expect("this program's path"))
        .args(&args)
        .env(CHILD, "1")
        .env("RADV_FORCE_FAMILY", "gfx1100")
        .env("RADV_DEBUG", "shaders,nocache")
        .env("VK_ICD_FILENAMES", radv)
        .output()
        .expect("the compiling child starts");
    let dump = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "RADV did not compile the kernel (is mesa-vulkan-drivers installed?):\n{dump}"
    );
    let disassembled: Vec<&str> = dump.split("disasm:").skip(1).collect();
    assert_eq!(disassembled.len(), programs.len(), "one program a form");
    let mut statistics: Vec<Vec<(String, String)>> = vec![Vec::new(); programs.len()];
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let mut fields = line.splitn(3, '\t');
        if let (Some(index), Some(name), Some(value)) =
            (fields.next(), fields.next(), fields.next())
        {
            let index: usize = index.parse().expect("a form's index");
            statistics[index].push((name.to_owned(), value.to_owned()));
        }
    }
    for (((form, _), program), statistics) in programs.iter().zip(disassembled).zip(&statistics) {
        if reference {
            // Its nested loops are not the engine's one loop with a rare branch, which is what
            // `hot_step` finds.
            println!("N = {n}, {form} on RDNA3 (gfx1100, RADV):");
            print_statistics(statistics);
            continue;
        }
        let step = hot_step(program);
        let kinds: BTreeMap<&str, usize> = step.iter().fold(BTreeMap::new(), |mut kinds, line| {
            *kinds.entry(kind(line)).or_default() += 1;
            kinds
        });
        let kinds: Vec<String> = kinds
            .iter()
            .map(|(kind, count)| format!("{kind} {count}"))
            .collect();
        println!(
            "N = {n}, {form}: {} instructions a step on RDNA3 (gfx1100, RADV): {}",
            step.len(),
            kinds.join(", ")
        );
        print_statistics(statistics);
        if print {
            for line in &step {
                println!("    {line}");
            }
        }
    }
}

/// Builds each form on the machine's own GPU and prints its driver's statistics.
fn native(programs: &[(&str, Vec<u32>)], n: u32) {
    for (form, spirv) in programs {
        let built = compile::pipeline(spirv, compile::Device::Native);
        println!("N = {n}, {form} on {}:", built.device);
        print_statistics(&built.statistics);
    }
}

/// The forms of the kernel `text` for N, each named, as SPIR-V: the kernel's (every rule, the
/// deadline alone; each with its top frame on the stack and in registers), or the reference
/// loop's counted form with one search an invocation and with two (`reference_paired.wgsl`).
fn programs(text: &str, n: u32) -> Vec<(&'static str, Vec<u32>)> {
    if !text.contains("{{SEARCHES}}") {
        return wgsl::loop_forms(text)
            .into_iter()
            .map(|(rules, top)| {
                let source = wgsl::tool_source(text, n, rules, top);
                (wgsl::form_name(rules, top), spirv(&source))
            })
            .collect();
    }
    // The reference loop: `tool_source` fills in its stack's tokens as the kernel's (16-byte
    // frames in workgroup memory, 64 invocations a workgroup); two searches an invocation take
    // a row's frames of twice the invocations, and a row more.
    let counted = |source: String, searches: &str, search: &str| {
        let source = source
            .replace("{{SEARCHES}}", searches)
            .replace("{{SEARCH}}", search)
            .replace("{{HELPERS}}", include_str!("reference_step.wgsl"))
            .replace("{{STEP}}", "steps += 1u;");
        spirv(&source)
    };
    let one_at_a_time = include_str!("reference_single.wgsl");
    let single = wgsl::tool_source(text, n, Rules::All, TopFrame::Stack);
    let paired = wgsl::tool_source(
        &text.replace("{{STRIDE}}u", "2u * WORKGROUP"),
        n,
        Rules::All,
        TopFrame::Stack,
    )
    .replace("FRAMES * STRIDE>", "(FRAMES + 1u) * STRIDE>");
    vec![
        (
            "the reference loop (counted)",
            counted(
                single.clone(),
                one_at_a_time,
                include_str!("reference_wide.wgsl"),
            ),
        ),
        (
            "the reference loop, its top frame in registers (counted)",
            counted(single, one_at_a_time, include_str!("reference_cached.wgsl")),
        ),
        (
            "the reference loop, two searches an invocation (counted)",
            counted(paired, include_str!("reference_paired.wgsl"), ""),
        ),
    ]
}

fn print_statistics(statistics: &[(String, String)]) {
    if statistics.is_empty() {
        println!("  the driver gives no statistics of the pipeline");
        return;
    }
    let listed: Vec<String> = statistics
        .iter()
        .map(|(name, value)| format!("{name} {value}"))
        .collect();
    println!("  the driver's statistics: {}", listed.join(", "));
}

/// A kernel's SPIR-V, its tokens filled in, as the engine builds it: no runtime checks,
/// workgroup memory not zeroed.
fn spirv(source: &str) -> Vec<u32> {
    let (module, info) = wgsl::validate(source)
        .unwrap_or_else(|error| panic!("the kernel is not valid WGSL: {error}"));
    let options = naga::back::spv::Options {
        lang_version: (1, 3),
        bounds_check_policies: naga::proc::BoundsCheckPolicies::default(),
        force_loop_bounding: false,
        zero_initialize_workgroup_memory: naga::back::spv::ZeroInitializeWorkgroupMemoryMode::None,
        ..naga::back::spv::Options::default()
    };
    naga::back::spv::write_vec(&module, &info, &options, None).expect("SPIR-V for the kernel")
}

/// The instructions of one step of the hot loop in a disassembly: the loop that ends in the
/// unconditional branch back over the most code, less the largest block that a conditional
/// branch inside it skips forward (the rare branch: a record done, the budget spent).
fn hot_step(program: &str) -> Vec<String> {
    let lines: Vec<String> = program
        .lines()
        .map(|line| line.split(';').next().unwrap_or("").trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect();
    let labels: BTreeMap<&str, usize> = lines
        .iter()
        .enumerate()
        .filter_map(|(at, line)| line.strip_suffix(':').map(|label| (label, at)))
        .collect();
    let target = |line: &str| {
        line.split_whitespace()
            .nth(1)
            .and_then(|l| labels.get(l).copied())
    };
    let (head, back) = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.starts_with("s_branch "))
        .filter_map(|(at, line)| target(line).filter(|&to| to < at).map(|to| (to, at)))
        .max_by_key(|&(to, at)| at - to)
        .expect("a loop");
    let (skip_from, skip_to) = (head..back)
        .filter(|&at| lines[at].starts_with("s_cbranch"))
        .filter_map(|at| {
            target(&lines[at])
                .filter(|&to| to > at && to <= back)
                .map(|to| (at, to))
        })
        .max_by_key(|&(at, to)| to - at)
        .expect("a rare branch");
    (head..=back)
        .filter(|&at| at <= skip_from || at >= skip_to)
        .map(|at| lines[at].clone())
        .filter(|line| !labels.contains_key(line.trim_end_matches(':')))
        .collect()
}

/// An instruction's kind.
fn kind(line: &str) -> &'static str {
    let op = line.split_whitespace().next().unwrap_or("");
    if op.starts_with("v_") {
        "vector ALU"
    } else if op.starts_with("ds_") {
        "workgroup memory"
    } else if op.starts_with("s_waitcnt") {
        "waits"
    } else if op.contains("branch") {
        "branches"
    } else if op.starts_with("s_load") || op.starts_with("s_buffer_load") {
        "scalar loads"
    } else if op.starts_with("s_") {
        "scalar ALU"
    } else {
        "other"
    }
}

/// A compute pipeline built with raw Vulkan: wgpu cannot open RADV's null hardware (it
/// submits work when it opens a device), and building a pipeline is all the dump needs.
#[allow(unsafe_code)]
mod compile {
    use std::ffi::CStr;

    use ash::vk;

    /// Which device builds the pipeline.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub enum Device {
        /// The first the loader lists (RADV's null device, where it is the only driver).
        First,
        /// The machine's GPU: the first discrete one, else the first integrated one, else the
        /// first device.
        Native,
    }

    /// A pipeline built: the device's name and the driver's statistics of it, name and value.
    pub struct Built {
        pub device: String,
        pub statistics: Vec<(String, String)>,
    }

    /// Builds the kernel's pipeline, so that a driver asked to prints its code, and reads the
    /// driver's statistics of it where the driver gives them.
    pub fn pipeline(code: &[u32], which: Device) -> Built {
        // SAFETY: plain Vulkan calls on objects this function creates, with structures that
        // outlive the calls; the process ends soon after it.
        unsafe {
            let entry = ash::Entry::load().expect("the Vulkan loader");
            let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
            let instance = entry
                .create_instance(
                    &vk::InstanceCreateInfo::default().application_info(&app),
                    None,
                )
                .expect("a Vulkan instance");
            let (physical, device_name) = choose(&instance, which);
            let has_statistics = instance
                .enumerate_device_extension_properties(physical)
                .expect("the device's extensions")
                .iter()
                .any(|extension| extension.extension_name_as_c_str() == Ok(STATISTICS));
            let device = open(&instance, physical, has_statistics);
            let pipeline = build(&device, code, has_statistics);
            let statistics = if has_statistics {
                read_statistics(&instance, &device, pipeline)
            } else {
                Vec::new()
            };
            Built {
                device: device_name,
                statistics,
            }
        }
    }

    /// The extension that gives a pipeline's statistics.
    const STATISTICS: &CStr = ash::khr::pipeline_executable_properties::NAME;

    /// The physical device `which` names, and its name.
    unsafe fn choose(instance: &ash::Instance, which: Device) -> (vk::PhysicalDevice, String) {
        // SAFETY: queries of the instance's own devices.
        unsafe {
            let physicals = instance
                .enumerate_physical_devices()
                .expect("Vulkan devices");
            let kind = |physical: &vk::PhysicalDevice| {
                instance
                    .get_physical_device_properties(*physical)
                    .device_type
            };
            let physical = match which {
                Device::First => physicals.first(),
                Device::Native => [
                    vk::PhysicalDeviceType::DISCRETE_GPU,
                    vk::PhysicalDeviceType::INTEGRATED_GPU,
                ]
                .iter()
                .find_map(|wanted| physicals.iter().find(|p| kind(p) == *wanted))
                .or(physicals.first()),
            };
            let physical = *physical.expect("a Vulkan device");
            let properties = instance.get_physical_device_properties(physical);
            let name = properties.device_name_as_c_str().map_or_else(
                |_| "a device".to_owned(),
                |name| name.to_string_lossy().into(),
            );
            (physical, name)
        }
    }

    /// Opens the device with one queue that computes, and the statistics' extension where
    /// it has it.
    unsafe fn open(
        instance: &ash::Instance,
        physical: vk::PhysicalDevice,
        has_statistics: bool,
    ) -> ash::Device {
        // SAFETY: the create infos and what they point to outlive the call.
        unsafe {
            let family = instance
                .get_physical_device_queue_family_properties(physical)
                .iter()
                .position(|family| family.queue_flags.contains(vk::QueueFlags::COMPUTE))
                .expect("a queue family that computes") as u32;
            let priorities = [1.0];
            let queues = [vk::DeviceQueueCreateInfo::default()
                .queue_family_index(family)
                .queue_priorities(&priorities)];
            let mut memory_model =
                vk::PhysicalDeviceVulkan12Features::default().vulkan_memory_model(true);
            let mut executable_info =
                vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
                    .pipeline_executable_info(true);
            let extensions = [STATISTICS.as_ptr()];
            let mut device_info = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queues)
                .push_next(&mut memory_model);
            if has_statistics {
                device_info = device_info
                    .enabled_extension_names(&extensions)
                    .push_next(&mut executable_info);
            }
            instance
                .create_device(physical, &device_info, None)
                .expect("a Vulkan device opened")
        }
    }

    /// The kernel's compute pipeline, its statistics captured if asked.
    unsafe fn build(device: &ash::Device, code: &[u32], statistics: bool) -> vk::Pipeline {
        // SAFETY: the create infos and what they point to outlive the calls.
        unsafe {
            let module = device
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(code), None)
                .expect("the kernel's module");
            let bindings: Vec<vk::DescriptorSetLayoutBinding<'_>> = (0..6)
                .map(|binding| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(binding)
                        .descriptor_type(if binding == 0 {
                            vk::DescriptorType::UNIFORM_BUFFER
                        } else {
                            vk::DescriptorType::STORAGE_BUFFER
                        })
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            let set = device
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                    None,
                )
                .expect("the kernel's bindings");
            let sets = [set];
            let layout = device
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&sets),
                    None,
                )
                .expect("the kernel's layout");
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"count");
            let flags = if statistics {
                vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
            } else {
                vk::PipelineCreateFlags::empty()
            };
            let info = [vk::ComputePipelineCreateInfo::default()
                .flags(flags)
                .stage(stage)
                .layout(layout)];
            device
                .create_compute_pipelines(vk::PipelineCache::null(), &info, None)
                .map_err(|(_, error)| error)
                .expect("the kernel's pipeline")[0]
        }
    }

    /// The driver's statistics of the pipeline's one executable, name and value.
    unsafe fn read_statistics(
        instance: &ash::Instance,
        device: &ash::Device,
        pipeline: vk::Pipeline,
    ) -> Vec<(String, String)> {
        // SAFETY: the device was opened with the extension and the pipeline built with its
        // statistics captured.
        unsafe {
            let executables =
                ash::khr::pipeline_executable_properties::Device::new(instance, device);
            let executable = vk::PipelineExecutableInfoKHR::default()
                .pipeline(pipeline)
                .executable_index(0);
            executables
                .get_pipeline_executable_statistics(&executable)
                .expect("the pipeline's statistics")
                .iter()
                .map(|statistic| {
                    let name = statistic.name_as_c_str().unwrap_or(c"?");
                    (text(name), value(statistic))
                })
                .collect()
        }
    }

    fn text(name: &CStr) -> String {
        name.to_string_lossy().into_owned()
    }

    /// A statistic's value as its format says.
    fn value(statistic: &vk::PipelineExecutableStatisticKHR<'_>) -> String {
        // SAFETY: the union's field read is the one its format names.
        unsafe {
            match statistic.format {
                vk::PipelineExecutableStatisticFormatKHR::BOOL32 => {
                    (statistic.value.b32 != 0).to_string()
                }
                vk::PipelineExecutableStatisticFormatKHR::INT64 => statistic.value.i64.to_string(),
                vk::PipelineExecutableStatisticFormatKHR::UINT64 => statistic.value.u64.to_string(),
                _ => format!("{:.2}", statistic.value.f64),
            }
        }
    }
}
