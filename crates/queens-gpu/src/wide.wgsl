// Wide frames, for `count.wgsl` (the token FORM): 16 bytes a frame, a row's column and diagonal
// masks before its queen and its untried squares, the record's own frame. Every frame on the
// stack has a square left to try: a step reads the top frame, takes its lowest untried square
// and writes back the rest, popping the frame when none is left, so the stack skips the rows
// whose squares are all taken, and a step is a read, a word written back and a predicated push,
// with no iteration that only backtracks.

// The first free row's frame, of an item just begun; none if it has no free square.
fn first_frame(cols: u32, left: u32, right: u32, free: u32) {
    stack[lane] = vec4<u32>(cols, left, right, free);
    top = select(bottom, lane, free != 0u);
}

// Restores a record's `depth` frames (at most FRAMES) from active_in at `base`.
fn restore_frames(base: u32, depth: u32) {
    for (var frame = 0u; frame < depth; frame++) {
        let at = base + HEADER + 4u * frame;
        stack[frame * STRIDE + lane] = vec4<u32>(
            active_in[at], active_in[at + 1u], active_in[at + 2u], active_in[at + 3u]);
    }
    top = bottom + depth * STRIDE;
    // The frames restored, paid for.
    spent += depth;
}

// Saves the stack's frames to active_out at `base`; returns how many.
fn store_frames(base: u32) -> u32 {
    let depth = (top - bottom) / STRIDE;
    for (var frame = 0u; frame < depth; frame++) {
        let at = base + HEADER + 4u * frame;
        let saved = stack[frame * STRIDE + lane];
        active_out[at] = saved.x;
        active_out[at + 1u] = saved.y;
        active_out[at + 2u] = saved.z;
        active_out[at + 3u] = saved.w;
    }
    return depth;
}

// One step: the top frame gives up its lowest untried square, and is popped if it has none
// left; the queen's child row is pushed unless it is the last row or has no free square.
fn step() {
    let frame = stack[top];
    let queen = frame.w & (0u - frame.w);
    let untried = frame.w ^ queen;
    stack[top].w = untried;
    top = select(top, top - STRIDE, untried == 0u);
    let cols = frame.x | queen;
    let left = (frame.y | queen) << 1u;
    let right = (frame.z | queen) >> 1u;
    let child = countOneBits(cols);
    let is_last = child == LAST;
    // The case's rules: `rules`, or `deadline_rules` in the kernel for settled items.
    let allowed = select({{RULES}}(child, cols & sides), last_allowed, is_last);
    let free = ~(cols | left | right) & allowed;
    // A node for the queen.
    spent += 1u;
    let open = free != 0u;
    // The last row has one column left, so it completes at most once: no population count. A
    // completion is a node too, and weighed in a branch that a lane takes on under one step in
    // a hundred, so that the other steps pay nothing for the weights.
    if (is_last && open) {
        spent += 1u;
        found += weigh(free);
    }
    let push = select(open, false, is_last);
    let above = top + STRIDE;
    if (push) {
        stack[above] = vec4<u32>(cols, left, right, free);
    }
    top = select(top, above, push);
}
