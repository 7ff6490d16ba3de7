//! The counting kernel's cost a step without a device: the 32-bit integer operations, and the
//! loads and stores of workgroup memory, in one trip of its hot loop, read from the WGSL as
//! naga parses it.
//!
//! ```text
//! cargo run --release -p queens-gpu --example kernel_ops -- [N] [path/to/count.wgsl]
//! ```
//!
//! A device that issues every instruction it can pays for each of them, so this is what a change
//! to the loop costs there; it is not a device's time (on an H200, half the operations a step
//! took N = 20 in the same time: docs/gpu.md), nor lavapipe's, whose SIMD lanes pay for loop
//! trips, memory and masks in other ways. Counted: the loop's body without its rare branch (the
//! one that calls the procedures that finish, save and take records), each arithmetic, logic,
//! compare and select once a component, the case's rules where they are called. A branch that
//! computes (the weighing of a completion) is counted apart: a step pays for it only when a
//! lane of its warp takes it.
//! A driver may fuse some (an and-not, a three-input logic operation), so compare kernels with
//! one another, not with a device's instruction count. Give an older kernel's file to compare
//! (`git show REV:crates/queens-gpu/src/count.wgsl > old.wgsl`).

use queens_gpu::wgsl;
use wgpu::naga;
use wgpu::naga::valid::{FunctionInfo, ModuleInfo};
use wgpu::naga::{Block, Expression, Function, Handle, Module, Statement};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args
        .next()
        .map_or(20, |text| text.parse().expect("N is a number from 4 to 32"));
    let text = match args.next() {
        Some(path) => std::fs::read_to_string(&path).expect("a readable WGSL file"),
        None => include_str!("../src/count.wgsl").to_owned(),
    };
    for (rules, top) in wgsl::loop_forms(&text) {
        let (module, info) = wgsl::validate(&wgsl::tool_source(&text, n, rules, top))
            .unwrap_or_else(|error| panic!("the kernel is not valid WGSL: {error}"));
        let cost = loop_cost(&module, &info);
        let form = wgsl::form_name(rules, top);
        println!(
            "N = {n}, {form}: {} integer operations a step; workgroup memory: {}, {}",
            cost.operations,
            plural(cost.loads, "load"),
            plural(cost.stores, "store")
        );
        for branch in &cost.branches {
            println!(
                "  and a branch of {} (workgroup memory: {}, {}), on the steps that take it",
                plural(branch.operations, "integer operation"),
                plural(branch.loads, "load"),
                plural(branch.stores, "store")
            );
        }
    }
}

/// The cost of one trip of the hot loop: the entry point's, or that of the function `search`
/// where the entry point calls it (as `count.wgsl` does, so that the entry point can count the
/// workgroups running around it).
fn loop_cost(module: &Module, info: &ModuleInfo) -> Cost {
    let entry = &module.entry_points[0].function;
    let (function, function_info, body) = if let Some(body) = first_loop(entry) {
        (entry, info.get_entry_point(0), body)
    } else {
        let (handle, search) = module
            .functions
            .iter()
            .find(|(_, function)| function.name.as_deref() == Some("search"))
            .expect("the kernel has a loop, in its entry point or in `search`");
        let body = first_loop(search).expect("`search` has a loop");
        (search, &info[handle], body)
    };
    let mut cost = Cost::default();
    let counter = Counter { module, info };
    counter.block(function, function_info, body, &mut cost);
    cost
}

/// The body of the first loop among `function`'s own statements.
fn first_loop(function: &Function) -> Option<&Block> {
    function.body.iter().find_map(|statement| match statement {
        Statement::Loop { body, .. } => Some(body),
        _ => None,
    })
}

fn plural(count: usize, noun: &str) -> String {
    format!("{count} {noun}{}", if count == 1 { "" } else { "s" })
}

#[derive(Default)]
struct Cost {
    operations: usize,
    loads: usize,
    stores: usize,
    /// The branches that compute, each counted on its own.
    branches: Vec<Cost>,
}

struct Counter<'a> {
    module: &'a Module,
    info: &'a ModuleInfo,
}

impl Counter<'_> {
    fn block(&self, function: &Function, info: &FunctionInfo, block: &Block, cost: &mut Cost) {
        for statement in block {
            match statement {
                Statement::Emit(range) => {
                    for handle in range.clone() {
                        self.expression(function, info, handle, cost);
                    }
                }
                // A branch that calls a function for its result (the weighing) is counted
                // apart; others (the push's predicated store, a short-circuit `&&`) are
                // counted in the step, both arms.
                Statement::If { accept, reject, .. }
                    if !calls_a_procedure(accept) && calls_a_function(accept) =>
                {
                    let mut branch = Cost::default();
                    self.block(function, info, accept, &mut branch);
                    cost.branches.push(branch);
                    self.block(function, info, reject, cost);
                }
                Statement::If { accept, reject, .. } if !calls_a_procedure(accept) => {
                    self.block(function, info, accept, cost);
                    self.block(function, info, reject, cost);
                }
                Statement::Block(inner) => self.block(function, info, inner, cost),
                Statement::Store { pointer, .. } if self.in_workgroup(function, *pointer) => {
                    cost.stores += 1;
                }
                Statement::Call {
                    function: called, ..
                } => {
                    let body = &self.module.functions[*called];
                    self.block(body, &self.info[*called], &body.body, cost);
                }
                _ => {}
            }
        }
    }

    fn expression(
        &self,
        function: &Function,
        info: &FunctionInfo,
        handle: Handle<Expression>,
        cost: &mut Cost,
    ) {
        let components = match info[handle].ty.inner_with(&self.module.types) {
            naga::TypeInner::Vector { size, .. } => *size as usize,
            _ => 1,
        };
        match &function.expressions[handle] {
            Expression::Binary { .. }
            | Expression::Unary { .. }
            | Expression::Select { .. }
            | Expression::Math { .. } => cost.operations += components,
            Expression::Load { pointer } if self.in_workgroup(function, *pointer) => {
                cost.loads += 1;
            }
            _ => {}
        }
    }

    /// Whether a pointer reaches into workgroup memory.
    fn in_workgroup(&self, function: &Function, pointer: Handle<Expression>) -> bool {
        match &function.expressions[pointer] {
            Expression::GlobalVariable(global) => {
                self.module.global_variables[*global].space == naga::AddressSpace::WorkGroup
            }
            Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => {
                self.in_workgroup(function, *base)
            }
            _ => false,
        }
    }
}

/// Whether a block calls a procedure (a function with no result): the rare branch does.
fn calls_a_procedure(block: &Block) -> bool {
    calls(block, false)
}

/// Whether a block calls a function for its result: the completion's branch does.
fn calls_a_function(block: &Block) -> bool {
    calls(block, true)
}

/// Whether a block, or a block within it, calls a function with a result or one without.
fn calls(block: &Block, with_result: bool) -> bool {
    block.iter().any(|statement| match statement {
        Statement::Call { result, .. } => result.is_some() == with_result,
        Statement::If { accept, reject, .. } => {
            calls(accept, with_result) || calls(reject, with_result)
        }
        Statement::Block(inner) => calls(inner, with_result),
        _ => false,
    })
}
