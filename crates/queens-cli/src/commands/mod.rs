//! One module per subcommand, and the validation they share.

pub mod challenge;
pub mod configure;
pub mod count;
pub mod experiment;
pub mod merge;
pub mod serve;
pub mod solve;
pub mod verify;

use anyhow::{Context, bail};
use queens_core::CancelFlag;

/// Reads a board size: `N` for N×N or `RxC`.
pub fn parse_size(text: &str) -> anyhow::Result<(u32, u32)> {
    let lower = text.trim().to_ascii_lowercase();
    if let Some((rows, cols)) = lower.split_once(['x', '×']) {
        let context = || format!("in board size '{text}'");
        Ok((
            parse_side(rows).with_context(context)?,
            parse_side(cols).with_context(context)?,
        ))
    } else {
        let n = parse_side(&lower)?;
        Ok((n, n))
    }
}

/// A board side: a whole number from 1 to 2³²−1.
pub fn parse_side(text: &str) -> anyhow::Result<u32> {
    let text = text.trim();
    match text.parse::<i128>() {
        Ok(n) if n < 1 => bail!("N must be at least 1, got {n}"),
        Ok(n) => {
            u32::try_from(n).with_context(|| format!("N = {n} is too large (at most {})", u32::MAX))
        }
        Err(_) => bail!("N must be a positive whole number, got '{text}'"),
    }
}

/// A flag raised by Ctrl-C, so that long runs stop cleanly and report what they did.
pub fn interrupt_flag() -> CancelFlag {
    let flag = CancelFlag::new();
    let handler_flag = flag.clone();
    // A second handler cannot be installed; in that case Ctrl-C keeps its default behaviour.
    let _ = ctrlc::set_handler(move || handler_flag.cancel());
    flag
}
