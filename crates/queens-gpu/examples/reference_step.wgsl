// The original's step, for `reference_loop.wgsl`'s HELPERS where its searches take frames of
// 16 bytes (`reference_wide.wgsl`, `reference_paired.wgsl`). `step` is one iteration of its
// search, on the stack whose top frame is slot `top`: the frame gives up its lowest untried
// square and is popped when none is left, and the queen's child row is pushed unless it is the
// last (whose free squares are the completions) or has no free square. Returns the new top and
// the completions found.
fn step(top: u32) -> vec2<u32> {
    let frame = stack[top];
    let queen = frame.w & (0u - frame.w);
    let untried = frame.w ^ queen;
    stack[top].w = untried;
    let below = select(top, top - STRIDE, untried == 0u);
    let cols = frame.x | queen;
    let left = (frame.y | queen) << 1u;
    let right = (frame.z | queen) >> 1u;
    let free = FULL & ~(cols | left | right);
    let leaf = countOneBits(cols) == N - 1u || free == 0u;
    let above = below + STRIDE;
    if (!leaf) {
        stack[above] = vec4<u32>(cols, left, right, free);
    }
    return vec2<u32>(select(above, below, leaf), select(0u, countOneBits(free), leaf));
}

// Ends the item of the search whose stack starts at slot `lane`, weighing its completions
// `found` into `total`, and takes the next item with a free square, pushing its first row
// and keeping its weight; `taken` counts the items the search has taken. Returns the new top:
// `lane`, or the slot below it once the queue is empty or params.most are taken.
fn refill(
    lane: u32,
    total: ptr<function, vec2<u32>>,
    found: ptr<function, u32>,
    weight: ptr<function, u32>,
    taken: ptr<function, u32>,
) -> u32 {
    *total = add(*total, *found * *weight);
    *found = 0u;
    loop {
        if (*taken >= params.most) {
            break;
        }
        *taken += 1u;
        let index = atomicAdd(&counters[0], 1u);
        if (index >= params.count) {
            break;
        }
        let item = items[index];
        let first = FULL & ~(item.x | item.y | item.z);
        if (first != 0u) {
            stack[lane] = vec4<u32>(item.x, item.y, item.z, first);
            *weight = item.w;
            return lane;
        }
    }
    return lane - STRIDE;
}
