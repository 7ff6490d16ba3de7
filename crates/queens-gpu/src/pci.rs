//! PCI addresses (`0000:3b:00.0`) and the names a GPU is given by: an index in the adapter list,
//! which a driver update or another loader may reorder, or the PCI address the adapter sits at,
//! which stays while the card is in its slot (what `nvidia-smi` and `lspci` show; a node's GPUs
//! of one model differ only there).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A PCI address: domain, bus, device and function, written `0000:3b:00.0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PciAddress {
    domain: u32,
    bus: u8,
    device: u8,
    function: u8,
}

/// A text that is not a PCI address.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("'{0}' is not a PCI address (DOMAIN:BUS:DEVICE.FUNCTION in hexadecimal, as 0000:3b:00.0)")]
pub struct PciAddressError(String);

impl FromStr for PciAddress {
    type Err = PciAddressError;

    /// Reads `0000:3b:00.0`, in either case, with a domain of up to eight digits (`nvidia-smi`
    /// writes `00000000:3B:00.0`) or none (`lspci`'s `3b:00.0`, domain 0).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let refused = || PciAddressError(text.to_owned());
        let (rest, function) = text.trim().rsplit_once('.').ok_or_else(refused)?;
        let mut fields: Vec<&str> = rest.split(':').collect();
        if fields.len() == 2 {
            fields.insert(0, "0");
        }
        let [domain, bus, device] = fields[..] else {
            return Err(refused());
        };
        let hex = |field: &str, most_digits: usize| {
            (!field.is_empty()
                && field.len() <= most_digits
                && field.chars().all(|c| c.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(field, 16).ok())
            .flatten()
        };
        let address = PciAddress {
            domain: hex(domain, 8).ok_or_else(refused)?,
            bus: hex(bus, 2).ok_or_else(refused)? as u8,
            device: hex(device, 2).filter(|&d| d < 32).ok_or_else(refused)? as u8,
            function: hex(function, 1).filter(|&f| f < 8).ok_or_else(refused)? as u8,
        };
        Ok(address)
    }
}

impl fmt::Display for PciAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04x}:{:02x}:{:02x}.{:x}",
            self.domain, self.bus, self.device, self.function
        )
    }
}

/// A GPU as a user names it (`--device`): its index in `queens devices`, or its PCI address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceId {
    /// The index in the adapter list.
    Index(usize),
    /// The PCI address of the adapter.
    Address(PciAddress),
}

/// A text that names no GPU.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DeviceIdError {
    /// Neither an index nor an address.
    #[error(
        "an index that `queens devices` lists (0, 1, …) or a PCI address it shows \
         (0000:3b:00.0), got '{0}'"
    )]
    Neither(String),
    /// Written as an address, but not one.
    #[error("{0}")]
    Address(#[from] PciAddressError),
}

impl DeviceIdError {
    /// The refusal of `setting` (`--device`, Python's `device`): "--device must be an index …"
    /// or "--device: '…' is not a PCI address …".
    pub fn of(&self, setting: &str) -> String {
        match self {
            DeviceIdError::Neither(_) => format!("{setting} must be {self}"),
            DeviceIdError::Address(_) => format!("{setting}: {self}"),
        }
    }
}

impl FromStr for DeviceId {
    type Err = DeviceIdError;

    /// Reads an index (digits) or a PCI address (with a colon).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let trimmed = text.trim();
        if !trimmed.is_empty() && trimmed.chars().all(|c| c.is_ascii_digit()) {
            return trimmed
                .parse()
                .map(DeviceId::Index)
                .map_err(|_| DeviceIdError::Neither(text.to_owned()));
        }
        if trimmed.contains(':') {
            return Ok(DeviceId::Address(trimmed.parse()?));
        }
        Err(DeviceIdError::Neither(text.to_owned()))
    }
}

impl fmt::Display for DeviceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceId::Index(index) => write!(f, "{index}"),
            DeviceId::Address(address) => write!(f, "{address}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_read_as_each_tool_writes_them() {
        for (text, canonical) in [
            ("0000:3b:00.0", "0000:3b:00.0"),
            ("00000000:3B:00.0", "0000:3b:00.0"),
            ("3b:00.0", "0000:3b:00.0"),
            (" 0001:c1:1f.7 ", "0001:c1:1f.7"),
            ("ffff:00:00.1", "ffff:00:00.1"),
        ] {
            let address: PciAddress = text.parse().unwrap();
            assert_eq!(address.to_string(), canonical, "{text}");
            assert_eq!(canonical.parse::<PciAddress>(), Ok(address));
        }
        for text in [
            "",
            "0000:3b:00",
            "0000:3b:20.0",
            "0000:3b:00.8",
            "0000:3g:00.0",
            "000000000:3b:00.0",
            "0000:03b:00.0",
            "1:2:3:4.0",
            "0000::00.0",
            "0000:3b:00.",
        ] {
            let refused = text.parse::<PciAddress>().unwrap_err().to_string();
            assert!(refused.contains(&format!("'{text}'")), "{refused}");
        }
    }

    #[test]
    fn a_device_is_an_index_or_an_address() {
        assert_eq!("2".parse(), Ok(DeviceId::Index(2)));
        assert_eq!(
            "0000:3B:00.0".parse::<DeviceId>().unwrap().to_string(),
            "0000:3b:00.0"
        );
        for text in ["x", "-1", "1.5", "", "99999999999999999999999"] {
            let refused = text.parse::<DeviceId>().unwrap_err().to_string();
            assert!(
                refused.starts_with("an index that `queens devices` lists"),
                "{refused}"
            );
            assert!(refused.ends_with(&format!("got '{text}'")), "{refused}");
        }
        let refused = "0000:3b:00".parse::<DeviceId>().unwrap_err().to_string();
        assert!(refused.contains("is not a PCI address"), "{refused}");
    }
}
