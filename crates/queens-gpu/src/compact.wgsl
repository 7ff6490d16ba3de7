// Compact frames, for `count.wgsl` (the token FORM): 8 bytes a frame, a row's squares and its
// right diagonals, one frame for every row of the path, so that a workgroup's memory holds
// twice the stacks of wide frames. The columns and left diagonals of the row being searched are
// kept in registers; below it, a row's squares hold the queen placed on it as their lowest
// square (squares are taken lowest first), which undoes them on the way back: the columns lose
// it, the left diagonals shift back and lose it (a bit shifted out of the word is past the
// board, for N up to 31). A return to a row with nothing left places nothing and returns again,
// so the iterations are the queens placed and those returns (about a third more at N = 15).
//
// Records keep the wide frames' layout, so that either form resumes the other's: saving, the
// rows whose squares are all taken are left out and the masks of the others are undone from
// the registers down; restoring, those rows are replayed from the item's fixed rows (each
// queen is the last of its row's squares taken, the highest; a row's free squares are its
// masks' and the case's rules').

// The columns and left diagonals of the top frame's row: of the rows above it.
var<private> path_cols: u32;
var<private> path_left: u32;
// Whether the last iteration popped a frame: the top frame's lowest square is then the queen
// whose row below was searched, and the registers are that row's.
var<private> back: bool;

// The stack slot of row `row`'s frame (clamped: every row on the stack is from the item's first
// free row to the penultimate).
fn slot(row: u32) -> u32 {
    return min(row - start, FRAMES - 1u) * STRIDE + lane;
}

// The first free row's frame, of an item just begun; none if it has no free square.
fn first_frame(cols: u32, left: u32, right: u32, free: u32) {
    stack[lane] = vec2<u32>(free, right);
    path_cols = cols;
    path_left = left;
    back = false;
    top = select(bottom, lane, free != 0u);
}

// Restores a record's `depth` wide frames (at most FRAMES) from active_in at `base`, replaying
// the rows below and between them, whose squares were all taken (the wide frames leave them
// out), from the item's first free row.
fn restore_frames(base: u32, depth: u32) {
    top = bottom;
    back = false;
    // The rules called in the replay note where row b's and the deadline row's queens stand,
    // as the record does.
    let shift_b = tie_shift_b;
    let shift_deadline = tie_shift_deadline;
    var masks = prefix_masks();
    var row = start;
    for (var frame = 0u; frame < depth; frame++) {
        let at = base + HEADER + 4u * frame;
        let cols = active_in[at];
        let to = min(countOneBits(cols), start + FRAMES - 1u);
        for (; row < to; row++) {
            masks = replay_row(row, masks, 0u);
        }
        masks = vec3<u32>(cols, active_in[at + 1u], active_in[at + 2u]);
        let untried = active_in[at + 3u];
        if (frame + 1u == depth) {
            top = slot(row);
            stack[top] = vec2<u32>(untried, masks.z);
            path_cols = masks.x;
            path_left = masks.y;
        } else {
            masks = replay_row(row, masks, untried);
            row++;
        }
    }
    tie_shift_b = shift_b;
    tie_shift_deadline = shift_deadline;
    // The frames restored, paid for.
    spent += depth;
}

// Stacks row `row`, of masks `masks` and `untried` squares left, as it stands below the top:
// its queen is the last of its free squares taken, the highest below those left. Returns the
// next row's masks.
fn replay_row(row: u32, masks: vec3<u32>, untried: u32) -> vec3<u32> {
    let free = ~(masks.x | masks.y | masks.z) & {{RULES}}(row, masks.x & sides);
    let taken = free & ~untried;
    let queen = select(0u, 1u << (firstLeadingBit(taken) & 31u), taken != 0u);
    stack[slot(row)] = vec2<u32>(untried | queen, masks.z);
    // The row replayed, paid for.
    spent += 1u;
    return vec3<u32>(masks.x | queen, (masks.y | queen) << 1u, (masks.z | queen) >> 1u);
}

// Saves the stack as a record's wide frames to active_out at `base`, the rows with a square
// left; returns how many.
fn store_frames(base: u32) -> u32 {
    if (top == bottom) {
        return 0u;
    }
    // The top row's masks and squares left: back from the row below, its queen lifted first.
    var cols = path_cols;
    var left = path_left;
    var squares = stack[top].x;
    if (back) {
        let queen = squares & (0u - squares);
        cols ^= queen;
        left = (left >> 1u) & ~queen;
        squares ^= queen;
    }
    // The rows below the top's have a square left where they hold more than their queen.
    let rows = (top - bottom) / STRIDE - 1u;
    var depth = select(0u, 1u, squares != 0u);
    for (var frame = 0u; frame < rows; frame++) {
        let held = stack[frame * STRIDE + lane].x;
        depth += select(0u, 1u, (held & (held - 1u)) != 0u);
    }
    // Then each, from the top down, to its place counted from the bottom.
    var at = base + HEADER + 4u * depth;
    if (squares != 0u) {
        at -= 4u;
        active_out[at] = cols;
        active_out[at + 1u] = left;
        active_out[at + 2u] = stack[top].y;
        active_out[at + 3u] = squares;
    }
    for (var frame = rows; frame > 0u; frame--) {
        let held = stack[(frame - 1u) * STRIDE + lane];
        let queen = held.x & (0u - held.x);
        cols ^= queen;
        left = (left >> 1u) & ~queen;
        let untried = held.x ^ queen;
        if (untried != 0u) {
            at -= 4u;
            active_out[at] = cols;
            active_out[at + 1u] = left;
            active_out[at + 2u] = held.y;
            active_out[at + 3u] = untried;
        }
    }
    return depth;
}

// One iteration: back from the row below, the top row's queen is lifted; the row's lowest
// square left is placed, and its child row pushed unless it is the last row or has no free
// square; a row with nothing left is popped.
fn step() {
    let frame = stack[top];
    let placed = select(0u, frame.x & (0u - frame.x), back);
    path_cols ^= placed;
    path_left = select(path_left, (path_left >> 1u) & ~placed, back);
    let squares = frame.x ^ placed;
    let queen = squares & (0u - squares);
    let cols = path_cols | queen;
    let left = (path_left | queen) << 1u;
    let right = (frame.y | queen) >> 1u;
    // With no queen placed, this is the row itself, never the last: its rules note what they
    // noted when it was pushed.
    let child = countOneBits(cols);
    let is_last = child == LAST;
    let allowed = select({{RULES}}(child, cols & sides), last_allowed, is_last);
    let free = ~(cols | left | right) & allowed;
    let placing = queen != 0u;
    // A step, and a node for the queen if one was placed: a return is a step of the budget,
    // which bounds the loop, and no node.
    spent += 1u;
    returned += select(1u, 0u, placing);
    let open = free != 0u;
    // A completion (the last row is reached only by placing a queen), weighed in a branch as
    // in the wide frames' step.
    if (is_last && open) {
        spent += 1u;
        found += weigh(free);
    }
    let push = placing && open && !is_last;
    let rest = squares ^ queen;
    stack[top].x = select(rest, squares, push);
    let above = top + STRIDE;
    if (push) {
        stack[above] = vec2<u32>(free, right);
    }
    let pop = !push && rest == 0u;
    path_cols = select(path_cols, cols, push);
    path_left = select(path_left, left, push);
    top = select(select(top, top - STRIDE, pop), above, push);
    back = pop;
}
