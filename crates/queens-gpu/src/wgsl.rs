//! The counting kernel's WGSL: `count.wgsl` with its tokens filled in for one N, one placement
//! of the stacks and the case's rules, as the engine builds it and as the tools that read it
//! without a device look at it; and naga's validation, as wgpu runs it before it compiles one.

use crate::stacks::{StackLayout, TopFrame, frames};

/// The kernel's source; `N`, `FULL`, `FRAMES`, `WORKGROUP`, `STACK`, `STRIDE`, `LANE`, `RULES`,
/// `UNDER`, `TOP` and `NEXT_TOP` are filled in.
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
pub fn source(n: u32, frames: u32, stacks: StackLayout, rules: Rules, top: TopFrame) -> String {
    fill_tokens(SOURCE, n, frames, stacks, rules, top)
}

/// A kernel's text (this one's, or an older one's to compare) with its tokens filled in: `N`,
/// `FULL`, `FRAMES`, `WORKGROUP`, the stacks' `STACK`, `STRIDE` and `LANE`, `RULES`, and the
/// top frame's `UNDER`, `TOP` and `NEXT_TOP`.
pub fn fill_tokens(
    text: &str,
    n: u32,
    frames: u32,
    stacks: StackLayout,
    rules: Rules,
    top: TopFrame,
) -> String {
    let [under, top, next_top] = top.tokens();
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
        .replace("{{UNDER}}", under)
        .replace("{{TOP}}", top)
        .replace("{{NEXT_TOP}}", next_top)
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

/// The loop forms a kernel's text builds: [`forms`] with the top frame on the stack, and in
/// registers where the text has the `TOP` token (a kernel from before has the one way).
pub fn loop_forms(text: &str) -> Vec<(Rules, TopFrame)> {
    let tops: &[TopFrame] = if text.contains("{{TOP}}") {
        &[TopFrame::Stack, TopFrame::Registers]
    } else {
        &[TopFrame::Stack]
    };
    forms(text)
        .iter()
        .flat_map(|&rules| tops.iter().map(move |&top| (rules, top)))
        .collect()
}

/// A loop form's name, as the tools that read the kernel print it.
pub fn form_name(rules: Rules, top: TopFrame) -> &'static str {
    match (rules, top) {
        (Rules::All, TopFrame::Stack) => "every rule (any item)",
        (Rules::Deadline, TopFrame::Stack) => "the deadline alone (settled items)",
        (Rules::All, TopFrame::Registers) => "every rule, the top frame in registers",
        (Rules::Deadline, TopFrame::Registers) => "the deadline alone, the top frame in registers",
    }
}

/// A kernel's text (this one's, or an older one's) for the N×N board as a count at the default
/// depth builds it, at 64 invocations a workgroup: what the tools that read the kernel without
/// a device (the `kernel_ops` and `kernel_isa` examples) look at.
pub fn tool_source(text: &str, n: u32, rules: Rules, top: TopFrame) -> String {
    let start = crate::items::default_depth(n) as u32;
    fill_tokens(
        text,
        n,
        frames(n, start),
        StackLayout::in_workgroup(64),
        rules,
        top,
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

    /// The kernel's source for N with 12 frames in workgroups of 256.
    fn source_of(n: u32, rules: Rules, top: TopFrame) -> String {
        source(n, 12, StackLayout::in_workgroup(256), rules, top)
    }

    #[test]
    fn the_source_has_every_token_filled_in() {
        let text = source_of(20, Rules::All, TopFrame::Stack);
        assert!(!text.contains("{{"), "{text}");
        assert!(text.contains("& rules(child, cols & sides);"));
        assert!(text.contains("let frame = stack[top];"));
        let registers = source_of(20, Rules::All, TopFrame::Registers);
        assert!(!registers.contains("{{"), "{registers}");
        assert!(registers.contains("let frame = top_frame;"));
        let settled = source_of(20, Rules::Deadline, TopFrame::Stack);
        assert!(settled.contains("& deadline_rules(child, cols & sides);"));
        assert!(text.contains("const N: u32 = 20u;"));
        assert!(text.contains("const FULL: u32 = 1048575u;"));
        assert!(text.contains("const FRAMES: u32 = 12u;"));
        assert!(text.contains("const WORKGROUP: u32 = 256u;"));
        // The row's mask at the word's edges, with no shift past it.
        assert!(
            source_of(32, Rules::All, TopFrame::Stack).contains("const FULL: u32 = 4294967295u;")
        );
        assert!(source_of(1, Rules::All, TopFrame::Stack).contains("const FULL: u32 = 1u;"));
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
                    for top in [TopFrame::Stack, TopFrame::Registers] {
                        let text = source(n, frames, stacks, rules, top);
                        if let Err(error) = validate(&text) {
                            panic!(
                                "N = {n}, start {start}, {rules:?}, {memory:?}, {top:?}: {error}"
                            );
                        }
                    }
                }
            }
        }
    }
}
