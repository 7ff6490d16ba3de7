//! `queens devices`: the GPUs the GPU counting engine can use.

use std::io::Write;

use queens_api::devices::{Adapters, DeviceInfo, missing_driver};
use serde::Serialize;

use crate::args::DevicesArgs;
use crate::exit::Exit;

/// `queens devices --json`.
#[derive(Serialize)]
struct DevicesDocument {
    devices: Vec<DeviceInfo>,
}

/// Runs `queens devices`: the adapters found, one a line (or JSON); none found is an answer too,
/// with the reason.
pub fn run(args: &DevicesArgs) -> anyhow::Result<Exit> {
    let devices = Adapters::probe().list();
    let mut out = std::io::stdout().lock();
    if args.json {
        super::write_json_line(&mut out, &DevicesDocument { devices })?;
    } else if devices.is_empty() {
        writeln!(out, "{}", missing_driver())?;
    } else {
        for device in &devices {
            let default = if Some(device.index)
                == devices
                    .iter()
                    .find(|d| d.kind.is_hardware())
                    .map(|d| d.index)
            {
                " [default]"
            } else {
                ""
            };
            writeln!(out, "{}{default}  ({})", device.line(), device.driver)?;
        }
    }
    out.flush()?;
    Ok(Exit::Success)
}
