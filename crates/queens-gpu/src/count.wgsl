// Counting N-Queens subproblems on a GPU. Each invocation is persistent: it takes the next
// record of the dispatch's queue from an atomic counter (the carried records first, then the
// fresh items), searches it depth-first, and on finishing it appends the item's tally to
// `finished` and takes the next. The dispatch's budget of steps is shared: an invocation claims
// it a chunk at a time from another atomic counter, and when none is left (or it has taken its
// own most, `params.steps`) it saves the record it holds to `active_out` for the next dispatch.
// So a dispatch is bounded whatever an item's size, and the host decides between dispatches
// about progress, stops and new work. A shared budget keeps the device full whatever share of
// the invocations it holds at once: those it starts only once others have ended find the
// budget spent and end at once, where each with a budget of its own would run a second wave
// on a device left mostly idle.
//
// One loop iteration places one queen, as the fastest public kernels do. The search's frames
// (a row's column and diagonal masks before its queen, and its untried squares) are on a
// stack, 16 bytes a frame, laid out lane-fastest so that a warp's frames of one level are side
// by side: in workgroup memory, or in a storage buffer with a frame a row for every invocation
// of the dispatch (which no workgroup's memory bounds; the host chooses). Every frame on the
// stack has a square left to try. A step reads the top frame, takes its lowest untried square
// and writes back the rest, popping the frame when none is left; the queen's child row is
// pushed with the squares whose queens leave the row after it a free square, unless it is the
// penultimate row or has none (the step counts the others, whose paths end there, a node each:
// `dead_ends`). So a step is a read, a word written back and a predicated push, with no frame
// chosen by selects and no iteration that only backtracks. The child's row is the population
// count of its columns. The last two rows are never stacked: two columns are left there, so a
// step whose child is the penultimate row counts that row's queens and their completions
// itself, in a branch, from the same test (`completions`). That saves the penultimate
// row's steps (N = 15: 35.0 million loop trips against 37.4 million) and a frame an
// invocation; a lane took the branch on one step in eighteen (5.5 % at N = 15), and the
// weighing in it on under one in a hundred (0.92 %), before the queens whose paths end on the
// next row left the loop (24.4 million trips at N = 15, of which 1.7 % take the branch, those
// with a penultimate queen that leaves the last row a free square, and 1.3 % complete one).
//
// A step reads its frame from the stack (TOP is `stack[top]`), or, in the form that keeps the top
// frame in registers (`TopFrame::Registers`, which a GPU's count times beside the other and
// keeps if faster), from `top_frame`, which each step sets to the next step's frame (NEXT_TOP):
// the child pushed, the frame with its untried squares, or, where it pops without pushing, the
// frame below it, which the step loads at its start (UNDER), so that no load stands between the
// end of one step and the next step's arithmetic. The stack holds every frame in both forms.
//
// The module is built in two forms. One applies every rule of the case in the loop, for any
// item. The other, for settled items (those that fix every row before b or c₁ and row b + 1,
// most of a count's nodes), applies the side columns' deadline alone, seven operations a step
// fewer; the host sends each part's items to the form that fits them.
//
// Tallies match the CPU kernel's exactly (crates/queens-exact/src/count/kernel.rs): nodes are
// the queens placed on the rows from the item's first free row to the penultimate, plus the
// last row's completions, however they are found; a corner case's solution weighs 8, an edge
// case's solution by the class weights of crates/queens-exact/src/count/plan.rs, from where its
// side queens and its last queen stand, with no comparison of a solution with its images.
//
// Every index is in range by construction (the host builds this module without runtime
// checks):
// - a stack index is frame * STRIDE + lane with lane < STRIDE and frame < FRAMES (STRIDE is the
//   workgroup's invocations for stacks in workgroup memory, lane the invocation's index in it;
//   the dispatch's and its index in that for stacks in a storage buffer, sized for them): the
//   frames on the stack are distinct rows of one path, from the item's first free row to the
//   one before the penultimate (the last two rows are never pushed), which is FRAMES rows for
//   an item of the rows the kernel is built for and fewer for one that fixes more (an item
//   that fixes all but the last two pushes none); a restored record's
//   depth is clamped to FRAMES; a frame is read only when the stack is not empty (`top` is
//   then its top frame's slot; `bottom`, the slot below the first, lane − STRIDE modulo
//   2³², is compared with but never read or written; the frame below the top is read at
//   top − STRIDE, or at the top itself, `lane`, when the top is the first frame; a record's
//   first frame is read at `top`, or at `lane` when it has none);
// - a carried record read is below params.carried, and the host sizes the record buffers
//   for them; a fresh item's slot is params.ring_start + i, less params.ring where it passes
//   it, with params.ring_start < params.ring, i < params.count − params.carried ≤
//   params.ring, and the item buffer holding params.ring slots; a record saved
//   takes a slot of counters[0], which each invocation bumps at most once (the host launches
//   at most as many as the record buffer holds), and a tally a slot of counters[1], at most
//   once a record taken (the tally buffer holds a whole queue);
// - the loop ends: each iteration adds at least one to `spent`, and goes on past `limit` only
//   by a claim, which raises `limit` by params.chunk and is refused once `limit` would pass
//   params.steps, or by taking a record, of which the queue has params.count.
//
// The host fills in the tokens N, FULL, FRAMES, WORKGROUP, RULES, the stacks' STACK (their
// declaration), STRIDE and LANE, and the top frame's UNDER, TOP and NEXT_TOP before compiling.

struct Params {
    // The board side, which the module also has as N.
    n: u32,
    // Records in this dispatch's queue: the carried ones first, then the fresh items.
    count: u32,
    // The most steps an invocation claims, counted as the nodes it visits and the records it
    // takes.
    steps: u32,
    // Records carried over from the last dispatch, in active_in.
    carried: u32,
    // The fresh items are a ring of `ring` slots that the host fills ahead of the dispatches:
    // this dispatch's first is in slot `ring_start`.
    ring_start: u32,
    ring: u32,
    // The dispatch's budget: `chunks` chunks of `chunk` steps, claimed by the invocations.
    chunk: u32,
    chunks: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> active_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> active_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> finished: array<u32>;
// [0]: records saved to active_out, [1]: tallies written to finished, [2]: records taken,
// [3]: chunks of the budget claimed (or refused), [4]: workgroups running, [5]: the most
// workgroups running at once (see `count`).
@group(0) @binding(4) var<storage, read_write> counters: array<atomic<u32>, 6>;
// Fresh items, in a ring: head, prefix (two words), id.
@group(0) @binding(5) var<storage, read> fresh: array<vec4<u32>>;

const N: u32 = {{N}}u;
// The last row, and the columns of the board as a mask.
const LAST: u32 = N - 1u;
const FULL: u32 = {{FULL}}u;
const FRAMES: u32 = {{FRAMES}}u;
const WORKGROUP: u32 = {{WORKGROUP}}u;
// A saved record: head, prefix (two words of 5-bit columns), id, depth, the two tie shifts,
// total (2), nodes (2), then a frame of four words for each stacked row.
const HEADER: u32 = 11u;
const RECORD: u32 = HEADER + 4u * FRAMES;
// A finished tally: id, total (2), nodes (2), a spare word.
const TALLY: u32 = 6u;

// The slots from one row's frames to the next's.
const STRIDE: u32 = {{STRIDE}}u;

{{STACK}}

// The invocation's place in a row of frames (LANE): its index in the workgroup, or in the
// dispatch for stacks in a storage buffer.
var<private> lane: u32;

// The item's constants.
var<private> head: u32;
var<private> prefix0: u32;
var<private> prefix1: u32;
var<private> id: u32;
var<private> start: u32;
// Rows below `restricted_below` keep to `restricted_allowed`: off an edge case's side columns,
// off a corner case's column 1.
var<private> restricted_below: u32;
var<private> restricted_allowed: u32;
var<private> last_allowed: u32;
// An edge case: its side columns, its row b, the deadline row N−1−b by which both side queens
// stand, and the last row's columns b and N−1−b. Zero or out of reach in a corner case.
var<private> sides: u32;
var<private> row_b: u32;
var<private> deadline: u32;
var<private> tie_columns: u32;
// The row after row b, whose mask is computed once row b's queen stands.
var<private> after_b: u32;

// The stack slot of the top frame: (frames stacked − 1) × STRIDE + lane. The stack is
// empty, and the record done, when it is `bottom`, the slot below the first (lane − STRIDE,
// wrapped: every sum and difference of slots here is modulo 2³²).
var<private> top: u32;
var<private> bottom: u32;
// The top frame, in the form that keeps it in registers.
var<private> top_frame: vec4<u32>;
// Whether the current path's queens on row b and on the deadline row stand on side columns,
// as 8 or 0: the weight tables' shifts (see the hot loop).
var<private> tie_shift_b: u32;
var<private> tie_shift_deadline: u32;
var<private> total: vec2<u32>;
var<private> nodes: vec2<u32>;
// The invocation's steps in this dispatch: the nodes it visited, the records it took, and the
// rows it replayed or restored in taking them, so that the budget bounds every loop's
// iterations (a software adapter ends a shader's loops early past a limit, and an invocation
// may take thousands of small items). A record's nodes are the steps since it was taken or
// last folded, `mark`.
var<private> spent: u32;
var<private> mark: u32;
// The step at which the invocation claims its next chunk of the budget, or stops.
var<private> limit: u32;
// The weight of the solutions the item's search found in this dispatch, in one word: a loop
// trip adds at most 16 (two completions), and the host lets an invocation claim at most 2²²
// steps a dispatch.
var<private> found: u32;

fn add(sum: vec2<u32>, x: u32) -> vec2<u32> {
    let low = sum.x + x;
    return vec2<u32>(low, sum.y + select(0u, 1u, low < x));
}

fn prefix_column(row: u32) -> u32 {
    let word = select(prefix0, prefix1, row >= 6u);
    return (word >> (5u * (row % 6u))) & 31u;
}

// The columns the case's rules leave row `row` (above the last), from the side columns
// `present` taken above it (none in a corner case): rows before `restricted_below` keep to
// `restricted_allowed`, and the side columns' deadline holds (`deadline_rules`; the deadline
// row is never before `restricted_below`). Also records, for the rows below, whether row b's
// queen stands on a side column, as 8 or 0: computing row b + 1, any side queen taken is row
// b's, since the rows before b keep off the side columns.
fn rules(row: u32, present: u32) -> u32 {
    let row_b_on_side = select(0u, 8u, present != 0u);
    tie_shift_b = select(tie_shift_b, row_b_on_side, row == after_b);
    let allowed = select(FULL, restricted_allowed, row < restricted_below);
    return allowed & deadline_rules(row, present);
}

// The side columns' deadline alone: the deadline row N−1−b takes the missing side column if one
// side queen stands, anything if both do, nothing if neither does; in that row's mask both side
// columns stand for the missing one, which the row's mask leaves free. Every other row may
// take anything (FULL; none is the deadline in a corner case). Also records whether the deadline
// row's queen will stand on a side column (exactly when one side queen stands before it), as 8
// or 0. The kernel for settled items (those that fix every row before `restricted_below` and
// row b + 1, whose row b tie shift is then the item's, set in `begin`) calls this alone in its
// loop; the host sends it those items only.
fn deadline_rules(row: u32, present: u32) -> u32 {
    let both = present == sides;
    let at_deadline = row == deadline;
    tie_shift_deadline = select(tie_shift_deadline, select(8u, 0u, both), at_deadline);
    let rule = select(select(0u, sides, present != 0u), FULL, both);
    return select(FULL, rule, at_deadline);
}

// Reads the item's head and sets its constants.
fn constants() {
    start = head & 31u;
    let edge = ((head >> 5u) & 1u) == 1u;
    let param = (head >> 8u) & 31u;
    if (edge) {
        let far = LAST - param;
        sides = 1u | (1u << LAST);
        row_b = param;
        deadline = far;
        tie_columns = (1u << param) | (1u << far);
        after_b = param + 1u;
        restricted_below = param;
        restricted_allowed = FULL & ~sides;
        // Columns b..=N−1−b.
        last_allowed = ((1u << (far + 1u)) - 1u) & ~((1u << param) - 1u);
    } else {
        // A corner case: rows below c1 keep off column 1.
        sides = 0u;
        row_b = 0xffffffffu;
        deadline = 0xffffffffu;
        tie_columns = 0u;
        // No mask is computed for row 0.
        after_b = 0u;
        restricted_below = param;
        restricted_allowed = FULL & ~2u;
        last_allowed = FULL;
    }
}

// The weight of the completions whose last queens are `lasts` (none, one or two): the side
// queens on row b and on the deadline row N−1−b (0, 1 or 2) pick the weight of a last queen
// off columns b and N−1−b (8, 4, 8) or on them (4, 0, 2), the table of plan.rs.
fn weigh(lasts: u32) -> u32 {
    let shift = tie_shift_b + tie_shift_deadline;
    let ties = countOneBits(lasts & tie_columns);
    let others = countOneBits(lasts) - ties;
    return ties * ((0x020004u >> shift) & 0xffu) + others * ((0x080408u >> shift) & 0xffu);
}

// The last row's queens that complete the penultimate row's queens `live` (those that leave the
// last row a free square, `dead_ends`), one for each: two columns are left, `columns`, and a
// queen on either leaves the last row the other, so the last row's queens are `live` swapped
// within them (where both complete, both; where one does, the other column), less those the
// case keeps the last row off. `alive` is the population count of `live`, which the caller has.
fn completions(columns: u32, live: u32, alive: u32) -> u32 {
    return select(live, columns ^ live, alive == 1u) & last_allowed;
}

// The queens of the child row's free squares `free` that leave the row after it no free square,
// so that their paths end there: those that attack every square of that row free of the queens
// `cols` and of the child row's diagonals `left` and `right` (`next`). A queen attacks three
// squares of the next row, the one below it and the two beside that, so the queens that attack
// all of `next` are those on the columns from one before its highest square to one past its
// lowest (none where those are more than two apart, every one where `next` is empty): the
// columns up to one past the lowest, by its lowest bit, and from one before the highest, the
// same on the row's mirror image (`reverseBits`), which needs no test for an empty row or a
// square on the board's edge. The case's rules are not applied to that row: they only take
// squares away, so a queen found here never has a path that goes on.
fn dead_ends(cols: u32, left: u32, right: u32, free: u32) -> u32 {
    let next = ~(cols | (left << 1u) | (right >> 1u)) & FULL;
    let lowest = next & (0u - next);
    let mirrored = reverseBits(next);
    let highest_mirrored = mirrored & (0u - mirrored);
    let attackers = ((lowest << 2u) - 1u) & reverseBits((highest_mirrored << 2u) - 1u);
    return free & attackers;
}

// Starts the queue's fresh item `index`: its first free row is the stack's only frame.
fn begin(index: u32) {
    let slot = params.ring_start + index;
    let item = fresh[select(slot, slot - params.ring, slot >= params.ring)];
    head = item.x;
    prefix0 = item.y;
    prefix1 = item.z;
    id = item.w;
    constants();
    var cols = 0u;
    var left = 0u;
    var right = 0u;
    tie_shift_b = 0u;
    tie_shift_deadline = 0u;
    for (var fixed = 0u; fixed < start; fixed++) {
        let queen = 1u << prefix_column(fixed);
        let side_shift = select(0u, 8u, (queen & sides) != 0u);
        tie_shift_b = select(tie_shift_b, side_shift, fixed == row_b);
        tie_shift_deadline = select(tie_shift_deadline, side_shift, fixed == deadline);
        cols |= queen;
        left = (left | queen) << 1u;
        right = (right | queen) >> 1u;
    }
    total = vec2<u32>(0u, 0u);
    nodes = vec2<u32>(0u, 0u);
    let free = ~(cols | left | right) & rules(start, cols & sides);
    // The rows replayed, paid for.
    spent += start;
    if (start == LAST - 1u) {
        // An item of every row but the last two: counted here, with no frame.
        let live = free ^ dead_ends(cols, left, right, free);
        let lasts = completions(FULL ^ cols, live, countOneBits(live));
        nodes.x = countOneBits(free) + countOneBits(lasts);
        total.x = weigh(lasts);
        top = bottom;
        return;
    }
    stack[lane] = vec4<u32>(cols, left, right, free);
    top = select(bottom, lane, free != 0u);
}

// Resumes carried record `index` of the queue.
fn resume(index: u32) {
    let base = index * RECORD;
    head = active_in[base];
    prefix0 = active_in[base + 1u];
    prefix1 = active_in[base + 2u];
    id = active_in[base + 3u];
    constants();
    let depth = min(active_in[base + 4u], FRAMES);
    tie_shift_b = active_in[base + 5u];
    tie_shift_deadline = active_in[base + 6u];
    total = vec2<u32>(active_in[base + 7u], active_in[base + 8u]);
    nodes = vec2<u32>(active_in[base + 9u], active_in[base + 10u]);
    for (var frame = 0u; frame < depth; frame++) {
        let at = base + HEADER + 4u * frame;
        stack[frame * STRIDE + lane] = vec4<u32>(
            active_in[at], active_in[at + 1u], active_in[at + 2u], active_in[at + 3u]);
    }
    top = bottom + depth * STRIDE;
    // The frames restored, paid for.
    spent += depth;
}

// Saves the record held, with its stack, for the next dispatch.
fn save() {
    let base = atomicAdd(&counters[0], 1u) * RECORD;
    active_out[base] = head;
    active_out[base + 1u] = prefix0;
    active_out[base + 2u] = prefix1;
    active_out[base + 3u] = id;
    let depth = (top - bottom) / STRIDE;
    active_out[base + 4u] = depth;
    active_out[base + 5u] = tie_shift_b;
    active_out[base + 6u] = tie_shift_deadline;
    active_out[base + 7u] = total.x;
    active_out[base + 8u] = total.y;
    active_out[base + 9u] = nodes.x;
    active_out[base + 10u] = nodes.y;
    for (var frame = 0u; frame < depth; frame++) {
        let at = base + HEADER + 4u * frame;
        let saved = stack[frame * STRIDE + lane];
        active_out[at] = saved.x;
        active_out[at + 1u] = saved.y;
        active_out[at + 2u] = saved.z;
        active_out[at + 3u] = saved.w;
    }
}

// Appends the finished item's tally.
fn report() {
    let base = atomicAdd(&counters[1], 1u) * TALLY;
    finished[base] = id;
    finished[base + 1u] = total.x;
    finished[base + 2u] = total.y;
    finished[base + 3u] = nodes.x;
    finished[base + 4u] = nodes.y;
    finished[base + 5u] = 0u;
}

// Folds the dispatch's word sums into the item's.
fn fold() {
    total = add(total, found);
    nodes = add(nodes, spent - mark);
    found = 0u;
    mark = spent;
}

// Claims the next chunk of the dispatch's budget: false once the budget is spent, or when the
// chunk would take the invocation past its most steps.
fn claim() -> bool {
    let room = limit + params.chunk <= params.steps;
    if (room && atomicAdd(&counters[3], 1u) < params.chunks) {
        limit += params.chunk;
        return true;
    }
    return false;
}

// Whether the invocation may take another record: with a chunk of the budget claimed, or,
// the budget spent, while a carried record is untaken, with no step to search it (every
// carried record is taken in each dispatch, whatever the budget, and saved again as it was).
fn may_take() -> bool {
    if (claim()) {
        return true;
    }
    limit = spent;
    return atomicLoad(&counters[2]) < params.carried;
}

// Takes the next record of the queue; false when the queue is empty.
fn take() -> bool {
    let index = atomicAdd(&counters[2], 1u);
    if (index >= params.count) {
        return false;
    }
    if (index < params.carried) {
        resume(index);
    } else {
        begin(index - params.carried);
    }
    // The record's top frame, for the form that keeps it in registers (where the stack is
    // empty, the first slot's, never used).
    top_frame = stack[select(top, lane, top == bottom)];
    return true;
}

@compute @workgroup_size(WORKGROUP)
fn count(
    @builtin(local_invocation_index) local: u32,
    @builtin(global_invocation_id) global: vec3<u32>,
) {
    lane = {{LANE}};
    // How many workgroups the device runs at once, for the host to report: a workgroup is
    // counted from its first invocation's start to that invocation's end, so never while it is
    // not running, and the first wave's, which start together and search for most of a
    // dispatch, are all counted at once.
    if (local == 0u) {
        atomicMax(&counters[5], atomicAdd(&counters[4], 1u) + 1u);
    }
    bottom = lane - STRIDE;
    found = 0u;
    spent = 1u;
    limit = 1u;
    if (may_take() && take()) {
        mark = spent;
        search();
    }
    if (local == 0u) {
        atomicSub(&counters[4], 1u);
    }
}

// Searches the records taken, one after another, until the queue is empty or the budget spent.
fn search() {
    loop {
        // One test a step for both rare events: the record done, or the chunk spent. Both
        // sides are evaluated (`|`, not `||`), so that the test is one branch.
        let done = top == bottom;
        if (done | (spent >= limit)) {
            fold();
            if (!done) {
                if (claim()) {
                    continue;
                }
                save();
                break;
            }
            report();
            if (spent >= limit && !may_take()) {
                break;
            }
            spent += 1u;
            if (!take()) {
                break;
            }
            mark = spent;
            continue;
        }
        // The top frame gives up its lowest untried square, and is popped if it has none left.
        {{UNDER}}
        let frame = {{TOP}};
        let queen = frame.w & (0u - frame.w);
        let untried = frame.w ^ queen;
        stack[top].w = untried;
        top = select(top, top - STRIDE, untried == 0u);
        let cols = frame.x | queen;
        let left = (frame.y | queen) << 1u;
        let right = (frame.z | queen) >> 1u;
        let child = countOneBits(cols);
        // The case's rules: `rules`, or `deadline_rules` in the kernel for settled items.
        let free = ~(cols | left | right) & {{RULES}}(child, cols & sides);
        // A node for the queen.
        spent += 1u;
        // The child row's queens whose paths end on the row after it are counted here, a node
        // each, and left out of the child's frame, saving a step for each (30 to 31 % of the
        // loop's trips at N = 14 to 16); a child with no other queen is not pushed.
        let ends = dead_ends(cols, left, right, free);
        spent += countOneBits(ends);
        let live = free ^ ends;
        let any_live = live != 0u;
        // The penultimate row is never pushed: its other queens, a node each, and their
        // completions, a node each and weighed, are counted here, in a branch that a lane takes
        // on one step in sixty (1.7 % at N = 15), four times in five with a completion (the
        // weighing of none is nothing). Both sides of the test are evaluated (`&`), so that it
        // is one branch.
        let penultimate = child == LAST - 1u;
        if (penultimate & any_live) {
            let alive = countOneBits(live);
            spent += alive;
            let lasts = completions(FULL ^ cols, live, alive);
            spent += countOneBits(lasts);
            found += weigh(lasts);
        }
        let push = !penultimate & any_live;
        let above = top + STRIDE;
        if (push) {
            stack[above] = vec4<u32>(cols, left, right, live);
        }
        top = select(top, above, push);
        {{NEXT_TOP}}
    }
}
