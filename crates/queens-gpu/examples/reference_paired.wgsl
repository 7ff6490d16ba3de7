// Two searches an invocation, for `reference_loop.wgsl`'s SEARCHES: the invocation holds two
// items at once, a and b, each on a stack of its own of the original's frames (a row's frames
// for a at `lane`, for b at `lane` + STRIDE / 2, STRIDE being twice the invocations sharing
// the stacks, with a row more than the frames an item can push: see below), and each iteration
// steps both, so that a lane has two independent chains of loads and arithmetic where the
// original has one. A search whose item ends takes the next, until none is left (or one of
// them has taken params.most); the other ends its own.
    let lane_b = lane + STRIDE / 2u;
    let bottom_b = lane_b - STRIDE;
    var top_a = bottom;
    var top_b = bottom_b;
    var weight_a = 0u;
    var weight_b = 0u;
    var found_a = 0u;
    var found_b = 0u;
    var taken_a = 0u;
    var taken_b = 0u;
    var steps = 0u;
    // Whether the queue may hold another item for this invocation.
    var more = true;
    loop {
        if (more & ((top_a == bottom) | (top_b == bottom_b))) {
            if (top_a == bottom) {
                top_a = refill(lane, &total, &found_a, &weight_a, &taken_a);
                more = top_a != bottom;
            }
            if (more & (top_b == bottom_b)) {
                top_b = refill(lane_b, &total, &found_b, &weight_b, &taken_b);
                more = top_b != bottom_b;
            }
            nodes = add(nodes, steps);
            steps = 0u;
        }
        let live_a = top_a != bottom;
        let live_b = top_b != bottom_b;
        if (live_a & live_b) {
            // Both steps in one block, so that the compiler can issue both frames' loads before
            // either's arithmetic. The child is stored whether or not it is pushed (the stack
            // has a row above the deepest for it), so that no branch splits the block: a child
            // not pushed lands above the top, or on the frame just popped, and is never read.
            let frame_a = stack[top_a];
            let frame_b = stack[top_b];
            let queen_a = frame_a.w & (0u - frame_a.w);
            let queen_b = frame_b.w & (0u - frame_b.w);
            let untried_a = frame_a.w ^ queen_a;
            let untried_b = frame_b.w ^ queen_b;
            stack[top_a].w = untried_a;
            stack[top_b].w = untried_b;
            let below_a = select(top_a, top_a - STRIDE, untried_a == 0u);
            let below_b = select(top_b, top_b - STRIDE, untried_b == 0u);
            let cols_a = frame_a.x | queen_a;
            let cols_b = frame_b.x | queen_b;
            let left_a = (frame_a.y | queen_a) << 1u;
            let left_b = (frame_b.y | queen_b) << 1u;
            let right_a = (frame_a.z | queen_a) >> 1u;
            let right_b = (frame_b.z | queen_b) >> 1u;
            let free_a = FULL & ~(cols_a | left_a | right_a);
            let free_b = FULL & ~(cols_b | left_b | right_b);
            let leaf_a = countOneBits(cols_a) == N - 1u || free_a == 0u;
            let leaf_b = countOneBits(cols_b) == N - 1u || free_b == 0u;
            found_a += select(0u, countOneBits(free_a), leaf_a);
            found_b += select(0u, countOneBits(free_b), leaf_b);
            let above_a = below_a + STRIDE;
            let above_b = below_b + STRIDE;
            stack[above_a] = vec4<u32>(cols_a, left_a, right_a, free_a);
            stack[above_b] = vec4<u32>(cols_b, left_b, right_b, free_b);
            top_a = select(above_a, below_a, leaf_a);
            top_b = select(above_b, below_b, leaf_b);
            {{STEP}}
            {{STEP}}
        } else if (live_a) {
            let stepped = step(top_a);
            top_a = stepped.x;
            found_a += stepped.y;
            {{STEP}}
        } else if (live_b) {
            let stepped = step(top_b);
            top_b = stepped.x;
            found_b += stepped.y;
            {{STEP}}
        } else {
            break;
        }
    }
    total = add(total, found_a * weight_a);
    total = add(total, found_b * weight_b);
    nodes = add(nodes, steps);
