// Counting N-Queens subproblems on a GPU: one invocation per record, each record one item of
// backtracking's split (a case and the columns of its first rows) with the state of its search.
//
// An invocation resumes its record's depth-first search (the three attack masks of a row, its
// free squares, and a stack of (queen, diagonals) per row), runs at most `params.steps`
// steps, and either appends the finished item's tally to `finished` or the record, saved, to
// `active_out` for the next dispatch. So a dispatch is bounded whatever an item's size, and the
// host decides between dispatches about progress, stops and new work.
//
// Tallies match the CPU kernel's exactly (crates/queens-exact/src/count/kernel.rs): nodes are
// the queens placed on the rows from the item's first free row to the penultimate, plus the
// last row's completions; a solution of a corner case is a class of 8; an edge case's solution
// with another edge distance equal to its row-0 queen's is weighed by comparing the members of
// its class. Sums are 64-bit as (low, high) pairs of u32.
//
// The host fills in the tokens STACK_ROWS, WORKGROUP and the stack's storage before compiling.

struct Params {
    n: u32,
    // Records in this dispatch: the carried ones first, then the fresh items.
    count: u32,
    // The most steps (a queen placed or taken back) an invocation takes.
    steps: u32,
    // Records carried over from the last dispatch, in active_in.
    carried: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> active_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> active_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> finished: array<u32>;
// [0]: records written to active_out, [1]: tallies written to finished.
@group(0) @binding(4) var<storage, read_write> counters: array<atomic<u32>, 4>;
// New items: head, prefix (two words), id.
@group(0) @binding(5) var<storage, read> fresh: array<vec4<u32>>;

const STACK_ROWS: u32 = {{STACK_ROWS}}u;
const WORKGROUP: u32 = {{WORKGROUP}}u;
// A record: head, prefix (two words of 5-bit columns), id, row, cols, left, right, free,
// total (2), fixed (2), nodes (2), then (queen, left and right diagonals) for each stacked
// row. The diagonals are kept, not shifted back: a bit shifted off the word cannot be shifted
// back. A row's squares not tried yet are not kept either: they are its free squares past its
// queen (the lowest is tried first), found again when the search comes back to the row.
const HEADER: u32 = 15u;
const FRAME: u32 = 3u;
const RECORD: u32 = HEADER + FRAME * STACK_ROWS;
const STARTED: u32 = 0x10000u;

{{STACK}}

// The item's constants.
var<private> n: u32;
var<private> last: u32;
var<private> full: u32;
var<private> start: u32;
var<private> edge: bool;
var<private> b: u32;
var<private> far: u32;
var<private> sides: u32;
var<private> deadline: u32;
var<private> restricted_below: u32;
var<private> restricted_above: u32;
var<private> restricted: u32;
var<private> last_allowed: u32;
var<private> prefix0: u32;
var<private> prefix1: u32;

// The item's sums so far.
var<private> total: vec2<u32>;
var<private> fixed: vec2<u32>;
var<private> nodes: vec2<u32>;
// What this dispatch adds to `nodes` and to `total` (but a tied solution's), in one word each
// until the dispatch ends: a step adds at most 33 nodes and 256 solutions, and the host gives
// a dispatch at most 2²³ steps.
var<private> visited: u32;
var<private> found: u32;

// The item's sums as a record and a tally store them: total, fixed, nodes, each (low, high).
fn sums() -> array<u32, 6> {
    return array<u32, 6>(total.x, total.y, fixed.x, fixed.y, nodes.x, nodes.y);
}

fn add(sum: vec2<u32>, x: u32) -> vec2<u32> {
    let low = sum.x + x;
    return vec2<u32>(low, sum.y + select(0u, 1u, low < x));
}

fn prefix_column(row: u32) -> u32 {
    let word = select(prefix0, prefix1, row >= 6u);
    return (word >> (5u * (row % 6u))) & 31u;
}

fn allowed(row: u32) -> u32 {
    return select(full, restricted, row < restricted_below || row > restricted_above);
}

// The side columns' deadline of an edge case: by row N−1−b both side queens stand.
fn deadline_rule(row: u32, cols: u32, free: u32) -> u32 {
    if (row != deadline) {
        return free;
    }
    let missing = sides & ~cols;
    if (missing == sides) {
        return 0u;
    }
    return select(free, free & missing, missing != 0u);
}

// The queen of `row` (below the last) in the solution being weighed.
fn placed(row: u32, penultimate: u32) -> u32 {
    if (row < start) {
        return 1u << prefix_column(row);
    }
    if (row == last - 1u) {
        return penultimate;
    }
    return stack_queen(row - start);
}

// A solution on which several edge distances equal the row-0 queen's: counted if it is the
// smallest of its class's members that put the row-0 queen on column b.
fn weigh_tied(last_queen: u32, penultimate: u32) {
    var solution: array<u32, 32>;
    var inverse: array<u32, 32>;
    for (var row = 0u; row < last; row++) {
        let col = countTrailingZeros(placed(row, penultimate));
        solution[row] = col;
        inverse[col] = row;
    }
    let last_col = countTrailingZeros(last_queen);
    solution[last] = last_col;
    inverse[last_col] = last;
    let b0 = solution[0];
    var stabiliser = 1u;
    // k's bits: read the inverse (4), read backwards (2), mirror the columns (1).
    for (var k = 1u; k < 8u; k++) {
        let inverted = (k & 4u) != 0u;
        let backwards = (k & 2u) != 0u;
        let mirrored = (k & 1u) != 0u;
        var source = select(0u, last, backwards);
        var col = select(solution[source], inverse[source], inverted);
        col = select(col, last - col, mirrored);
        if (col != b0) {
            continue;
        }
        var verdict = 0u; // 0: equal, 1: the image is smaller, 2: larger
        for (var row = 1u; row < n; row++) {
            source = select(row, last - row, backwards);
            col = select(solution[source], inverse[source], inverted);
            col = select(col, last - col, mirrored);
            if (col != solution[row]) {
                verdict = select(2u, 1u, col < solution[row]);
                break;
            }
        }
        if (verdict == 0u) {
            stabiliser += 1u;
        } else if (verdict == 1u) {
            return;
        }
    }
    let members = 8u / stabiliser;
    total = add(total, members);
    fixed = add(fixed, 8u - members);
}

// The solutions that each bit of the last row's free squares completes.
fn weigh(last_free: u32, penultimate: u32) {
    let count = countOneBits(last_free);
    visited += count;
    if (!edge) {
        found += 8u * count;
        return;
    }
    var ties = last_free & ((1u << b) | (1u << far));
    if (placed(b, penultimate) == (1u << last) || placed(far, penultimate) == 1u) {
        ties = last_free;
    }
    found += 8u * (count - countOneBits(ties));
    var rest = ties;
    while (rest != 0u) {
        let queen = rest & (0u - rest);
        rest ^= queen;
        weigh_tied(queen, penultimate);
    }
}

@compute @workgroup_size(WORKGROUP)
fn count(
    @builtin(global_invocation_id) global: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    lane = local;
    let index = global.x + global.y * groups.x * WORKGROUP;
    if (index >= params.count) {
        return;
    }
    let base = index * RECORD;
    var head: u32;
    var id: u32;
    if (index < params.carried) {
        head = active_in[base];
        prefix0 = active_in[base + 1u];
        prefix1 = active_in[base + 2u];
        id = active_in[base + 3u];
    } else {
        let item = fresh[index - params.carried];
        head = item.x;
        prefix0 = item.y;
        prefix1 = item.z;
        id = item.w;
    }
    n = params.n;
    last = n - 1u;
    full = select((1u << n) - 1u, 0xffffffffu, n == 32u);
    start = head & 31u;
    edge = ((head >> 5u) & 1u) == 1u;
    let param = (head >> 8u) & 31u;
    if (edge) {
        b = param;
        far = last - param;
        sides = 1u | (1u << last);
        deadline = far;
        restricted_below = b;
        restricted_above = far;
        restricted = full & ~sides;
        // Columns b..=N−1−b.
        last_allowed = ((1u << (far + 1u)) - 1u) & ~((1u << b) - 1u);
    } else {
        // A corner case: rows below c1 keep off column 1.
        b = 0u;
        far = 0u;
        sides = 0u;
        deadline = 0xffffffffu;
        restricted_below = param;
        restricted_above = 0xffffffffu;
        restricted = full & ~2u;
        last_allowed = full;
    }
    var row: u32;
    var cols: u32;
    var left: u32;
    var right: u32;
    var free: u32;
    if ((head & STARTED) == 0u) {
        cols = 0u;
        left = 0u;
        right = 0u;
        for (var r = 0u; r < start; r++) {
            let queen = 1u << prefix_column(r);
            cols |= queen;
            left = (left | queen) << 1u;
            right = (right | queen) >> 1u;
        }
        row = start;
        free = deadline_rule(row, cols, allowed(row) & ~(cols | left | right));
        total = vec2<u32>(0u, 0u);
        fixed = vec2<u32>(0u, 0u);
        nodes = vec2<u32>(0u, 0u);
    } else {
        row = active_in[base + 4u];
        cols = active_in[base + 5u];
        left = active_in[base + 6u];
        right = active_in[base + 7u];
        free = active_in[base + 8u];
        total = vec2<u32>(active_in[base + 9u], active_in[base + 10u]);
        fixed = vec2<u32>(active_in[base + 11u], active_in[base + 12u]);
        nodes = vec2<u32>(active_in[base + 13u], active_in[base + 14u]);
        for (var rel = 0u; rel < row - start; rel++) {
            let frame = base + HEADER + FRAME * rel;
            stack_push(rel, active_in[frame], active_in[frame + 1u], active_in[frame + 2u]);
        }
    }
    let penultimate_row = last - 1u;
    visited = 0u;
    found = 0u;
    var done = false;
    var steps = 0u;
    loop {
        if (steps >= params.steps) {
            break;
        }
        steps += 1u;
        if (free == 0u) {
            if (row == start) {
                done = true;
                break;
            }
            row -= 1u;
            let taken = stack_queen(row - start);
            cols ^= taken;
            left = stack_left(row - start);
            right = stack_right(row - start);
            // The row's squares past the queen taken back: the ones not tried yet.
            let squares = deadline_rule(row, cols, allowed(row) & ~(cols | left | right));
            free = squares & ~((taken << 1u) - 1u);
            continue;
        }
        let queen = free & (0u - free);
        free ^= queen;
        visited += 1u;
        let next_cols = cols | queen;
        let next_left = (left | queen) << 1u;
        let next_right = (right | queen) >> 1u;
        if (row == penultimate_row) {
            let last_free = last_allowed & ~(next_cols | next_left | next_right);
            if (last_free != 0u) {
                weigh(last_free, queen);
            }
            continue;
        }
        stack_push(row - start, queen, left, right);
        cols = next_cols;
        left = next_left;
        right = next_right;
        row += 1u;
        free = deadline_rule(row, cols, allowed(row) & ~(cols | left | right));
    }
    nodes = add(nodes, visited);
    total = add(total, found);
    if (done) {
        let slot = atomicAdd(&counters[1], 1u) * 8u;
        finished[slot] = id;
        var tally = sums();
        for (var i = 0u; i < 6u; i++) {
            finished[slot + 1u + i] = tally[i];
        }
        finished[slot + 7u] = 0u;
        return;
    }
    let out = atomicAdd(&counters[0], 1u) * RECORD;
    active_out[out] = head | STARTED;
    active_out[out + 1u] = prefix0;
    active_out[out + 2u] = prefix1;
    active_out[out + 3u] = id;
    active_out[out + 4u] = row;
    active_out[out + 5u] = cols;
    active_out[out + 6u] = left;
    active_out[out + 7u] = right;
    active_out[out + 8u] = free;
    var saved = sums();
    for (var i = 0u; i < 6u; i++) {
        active_out[out + 9u + i] = saved[i];
    }
    for (var rel = 0u; rel < row - start; rel++) {
        let frame = out + HEADER + FRAME * rel;
        active_out[frame] = stack_queen(rel);
        active_out[frame + 1u] = stack_left(rel);
        active_out[frame + 2u] = stack_right(rel);
    }
}
