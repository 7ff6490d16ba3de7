// The fastest public GPU counter's loop (ygch/n_queens, arXiv 2511.12009: mirror symmetry
// only, totals only), written in WGSL to run through wgpu beside the engine's kernel, so that a
// device shows what the same loop costs on this path and what the engine's own loop adds to
// it. Not a counting engine: `reference_loop.rs` says what it is for.
//
// Persistent invocations take items (a prefix of placed rows: columns, diagonals, and the
// mirror weight 2 or 1) from an atomic counter and search them depth-first, as the host fills
// in (SEARCHES, with the functions they call in HELPERS): one item at a time
// (`reference_single.wgsl`) with the original's search (`reference_wide.wgsl`, one iteration
// placing one queen with `step` of `reference_step.wgsl`: the stack's top frame, a row's masks
// and its untried squares, gives up its lowest square and is popped when none is left; the
// child row is pushed unless it is the last, whose free squares a population count adds, or has
// none), one with frames of half the size (`reference_compact.wgsl`) or the original's with its
// top frame in registers (`reference_cached.wgsl`); or two items at a time, each with the
// original's frames, both stepped each iteration (`reference_paired.wgsl`). The frames are
// lane-fastest.
//
// The stack is in workgroup memory, as the original keeps it in shared memory, or (the `storage`
// stack) in a storage buffer, one frame a row for every search of the dispatch, which no
// workgroup's memory bounds: the host fills in its declaration (STACK, with the frames' type
// and its rows), the stride from one row's frames to the next's (STRIDE: a search for each of
// the workgroup's invocations, or the dispatch's) and the lane's place in a row (LANE: its
// index in the workgroup, or in the dispatch; the second search of two is STRIDE / 2 further).
//
// Every index is in range: a stack slot is frame * STRIDE + lane with lane < STRIDE and frame
// below the stack's rows: FRAMES (the rows from the item's first free row to the penultimate;
// the last row is never pushed), and one more for two searches an invocation, which store a
// child one row above the deepest frame whether or not they push it; `top` is read only above
// `bottom`. An item is read below params.count, which the host sizes the item buffer for;
// `sums` has one slot an invocation. Each loop ends: every iteration of a search takes a square
// off its stack or pops a frame, and an invocation takes at most params.most items a search,
// each once. The host also fills in N, FULL, FRAMES, WORKGROUP and STEP (nothing for the loop
// alone; a node count, or a node count and the engine's budget test, for the forms that
// measure what those add).

struct Params {
    count: u32,
    // The most items an invocation takes in a dispatch: no bound on a hardware GPU (one
    // dispatch a count), one on a software adapter, which ends a shader's loops past a limit
    // and runs a workgroup's invocations in batches one after another (so the first would take
    // every item).
    most: u32,
    // The step at which the `budget` form would stop: past any item, so never reached, but read
    // from the host so that the test stays in the loop.
    limit: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> items: array<vec4<u32>>;
// Per invocation: its weighted total and its steps, each as (low, high), summed over the
// count's dispatches.
@group(0) @binding(2) var<storage, read_write> sums: array<vec4<u32>>;
// [0]: the next item, [1]: workgroups running, [2]: the most workgroups running at once (each
// counted from its first invocation's start to that invocation's end, as the engine counts
// them).
@group(0) @binding(3) var<storage, read_write> counters: array<atomic<u32>, 3>;

const N: u32 = {{N}}u;
const FULL: u32 = {{FULL}}u;
const FRAMES: u32 = {{FRAMES}}u;
const WORKGROUP: u32 = {{WORKGROUP}}u;

const STRIDE: u32 = {{STRIDE}}u;

{{STACK}}

fn add(sum: vec2<u32>, x: u32) -> vec2<u32> {
    let low = sum.x + x;
    return vec2<u32>(low, sum.y + select(0u, 1u, low < x));
}

{{HELPERS}}

@compute @workgroup_size(WORKGROUP)
fn count(
    @builtin(local_invocation_index) local: u32,
    @builtin(global_invocation_id) global: vec3<u32>,
) {
    let lane = {{LANE}};
    if (local == 0u) {
        atomicMax(&counters[2], atomicAdd(&counters[1], 1u) + 1u);
    }
    let before = sums[global.x];
    var total = before.xy;
    var nodes = before.zw;
    let bottom = lane - STRIDE;
{{SEARCHES}}
    sums[global.x] = vec4<u32>(total, nodes);
    if (local == 0u) {
        atomicSub(&counters[1], 1u);
    }
}
