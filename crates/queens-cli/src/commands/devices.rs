//! `queens devices`: the GPUs the GPU counting engine can use, and which a count takes.

use std::io::Write;

use queens_api::devices::{Adapters, DeviceInfo, Reason, missing_driver};
use serde::Serialize;

use crate::args::DevicesArgs;
use crate::exit::Exit;

/// `queens devices --json`.
#[derive(Serialize)]
struct DevicesDocument {
    devices: Vec<DeviceInfo>,
    /// What a count takes without `--device`; `null` with no hardware GPU.
    default: Option<DefaultDevice>,
}

/// The adapter a count takes without `--device`, and why.
#[derive(Serialize)]
struct DefaultDevice {
    index: usize,
    /// `assigned by SLURM_JOB_GPUS=3`, `the first hardware GPU`, or why an assignment was not
    /// followed.
    reason: String,
}

/// Runs `queens devices`: the adapters found, one a line (or JSON), the default marked; none
/// found is an answer too, with the reason.
pub fn run(args: &DevicesArgs) -> anyhow::Result<Exit> {
    let adapters = Adapters::probe();
    let devices = adapters.list();
    let default = adapters.default_choice();
    let mut out = crate::output::standard_output();
    if args.json {
        let default = default.map(|(index, reason)| DefaultDevice {
            index,
            reason: reason.phrase(),
        });
        super::write_json_line(&mut out, &DevicesDocument { devices, default })?;
    } else if devices.is_empty() {
        writeln!(out, "{}", missing_driver())?;
    } else {
        for device in &devices {
            let marker = if default.as_ref().map(|(index, _)| *index) == Some(device.index) {
                " [default]"
            } else {
                ""
            };
            writeln!(out, "{}{marker}  ({})", device.line(), device.driver)?;
        }
        // The default needs a word only where a job scheduler had a say in it.
        if let Some((index, reason)) = &default
            && !matches!(reason, Reason::FirstHardware { unmatched: None })
        {
            writeln!(
                out,
                "A count takes {index} by default: {}.",
                reason.phrase()
            )?;
        }
    }
    out.flush()?;
    Ok(Exit::Success)
}
