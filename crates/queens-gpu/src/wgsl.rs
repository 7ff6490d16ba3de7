//! The counting kernel's WGSL: `count.wgsl` with its tokens filled in for one N, one placement
//! of the stacks and the case's rules, as the engine builds it and as the tools that read it
//! without a device look at it; and naga's validation, as wgpu runs it before it compiles one.

use crate::stacks::{StackLayout, frames};

/// The kernel's source; `N`, `FULL`, `FRAMES`, `WORKGROUP`, `STACK`, `STRIDE`, `LANE` and
/// `RULES` are filled in.
const SOURCE: &str = include_str!("count.wgsl");

/// Which of the case's rules the kernel's loop applies below an item's fixed rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// All of them: the rows before b or c₁ kept off their columns, where row b's queen
    /// stands, and the side columns' deadline. For any item.
    All,
    /// The side columns' deadline alone (none in a corner case), five operations a step
    /// fewer: for settled items only ([`crate::items::settled`]), whose fixed rows hold the
    /// others.
    Deadline,
}

impl Rules {
    /// The rules for the items of `sub`, a part of the N×N count, cut at `depth` rows.
    pub fn for_items(n: u32, sub: &queens_exact::count::Subproblem, depth: usize) -> Rules {
        if crate::items::settled(n, sub, depth) {
            Rules::Deadline
        } else {
            Rules::All
        }
    }

    /// The kernel's function that applies them.
    fn function(self) -> &'static str {
        match self {
            Rules::All => "rules",
            Rules::Deadline => "deadline_rules",
        }
    }
}

/// The kernel's source for the N×N board (N up to 32, a row in one word: the engine refuses
/// larger boards before it asks for a kernel).
pub fn source(n: u32, frames: u32, stacks: StackLayout, rules: Rules) -> String {
    fill_tokens(SOURCE, n, frames, stacks, rules)
}

/// A kernel's text (this one's, or an older one's to compare) with its tokens filled in: `N`,
/// `FULL`, `FRAMES`, `WORKGROUP`, the stacks' `STACK`, `STRIDE` and `LANE`, and `RULES`.
pub fn fill_tokens(text: &str, n: u32, frames: u32, stacks: StackLayout, rules: Rules) -> String {
    // The row's mask, N low bits set; no shift past the word whatever N is.
    let full = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    text.replace("{{N}}", &n.to_string())
        .replace("{{FULL}}", &full.to_string())
        .replace("{{FRAMES}}", &frames.to_string())
        .replace("{{WORKGROUP}}", &stacks.workgroup.to_string())
        .replace("{{STACK}}", stacks.declaration())
        .replace("{{STRIDE}}", &stacks.stride().to_string())
        .replace("{{LANE}}", stacks.lane())
        .replace("{{RULES}}", rules.function())
}

/// The forms a kernel's text builds: both where it has the `RULES` token, and the form for any
/// item alone for a kernel from before the settled items' form (to compare with).
pub fn forms(text: &str) -> &'static [Rules] {
    if text.contains("{{RULES}}") {
        &[Rules::All, Rules::Deadline]
    } else {
        &[Rules::All]
    }
}

/// A kernel's text (this one's, or an older one's) for the N×N board as a count at the default
/// depth builds it, at 64 invocations a workgroup: what the tools that read the kernel without
/// a device (the `kernel_ops` and `kernel_isa` examples) look at.
pub fn tool_source(text: &str, n: u32, rules: Rules) -> String {
    let start = crate::items::default_depth(n) as u32;
    fill_tokens(
        text,
        n,
        frames(n, start),
        StackLayout::in_workgroup(64),
        rules,
    )
}

/// A kernel's WGSL parsed and validated by naga, as wgpu does before it compiles one; `Err` with
/// naga's words.
pub fn validate(
    source: &str,
) -> Result<(wgpu::naga::Module, wgpu::naga::valid::ModuleInfo), String> {
    use wgpu::naga;
    let module =
        naga::front::wgsl::parse_str(source).map_err(|error| error.emit_to_string(source))?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
    .validate(&module)
    .map_err(|error| format!("{error:?}"))?;
    Ok((module, info))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stacks::{StackMemory, fit_workgroup};

    #[test]
    fn the_source_has_every_token_filled_in() {
        let text = source(20, 12, StackLayout::in_workgroup(256), Rules::All);
        assert!(!text.contains("{{"), "{text}");
        assert!(text.contains("& rules(child, cols & sides);"));
        let settled = source(20, 12, StackLayout::in_workgroup(256), Rules::Deadline);
        assert!(settled.contains("& deadline_rules(child, cols & sides);"));
        assert!(text.contains("const N: u32 = 20u;"));
        assert!(text.contains("const FULL: u32 = 1048575u;"));
        assert!(text.contains("const FRAMES: u32 = 12u;"));
        assert!(text.contains("const WORKGROUP: u32 = 256u;"));
        // The row's mask at the word's edges, with no shift past it.
        assert!(
            source(32, 12, StackLayout::in_workgroup(256), Rules::All)
                .contains("const FULL: u32 = 4294967295u;")
        );
        assert!(
            source(1, 2, StackLayout::in_workgroup(256), Rules::All)
                .contains("const FULL: u32 = 1u;")
        );
    }

    /// Every N's kernel is valid WGSL (lavapipe in CI compiles and runs the kernels up to
    /// N = 15 only).
    #[test]
    fn every_kernel_is_valid_wgsl() {
        let limits = wgpu::Limits::default();
        for n in [4, 20, 28, 31, 32] {
            for (start, rules) in [2, 6]
                .into_iter()
                .flat_map(|start| [Rules::All, Rules::Deadline].map(|rules| (start, rules)))
            {
                let frames = frames(n, start);
                for memory in [StackMemory::Workgroup, StackMemory::Storage] {
                    let stacks = StackLayout {
                        memory,
                        workgroup: fit_workgroup(frames, memory, &limits),
                        invocations: 1 << 17,
                    };
                    let text = source(n, frames, stacks, rules);
                    if let Err(error) = validate(&text) {
                        panic!("N = {n}, start {start}, {rules:?}, {memory:?}: {error}");
                    }
                }
            }
        }
    }
}
