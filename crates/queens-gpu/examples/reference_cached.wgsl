// The original's search of one item with its top frame in registers, for
// `reference_single.wgsl`'s SEARCH: the frames and the steps of `reference_wide.wgsl`, but a
// step reads its frame from registers, not from the stack, so that no load stands between one
// step and the next. The stack still holds every frame (each step writes the top's untried
// squares and pushes the child as the original does); what a step may need from it is the
// frame below the top, which becomes the top when the step pops without pushing, and that is
// loaded at the step's start, so that its latency overlaps the step's arithmetic. At the first
// frame, which has none below it, the step loads the first frame itself and never uses it.
        var frame = vec4<u32>(item.x, item.y, item.z, first);
        stack[lane] = frame;
        var top = lane;
        loop {
            if (top == bottom) {
                break;
            }
            let under = stack[select(top - STRIDE, top, top == lane)];
            let queen = frame.w & (0u - frame.w);
            let untried = frame.w ^ queen;
            stack[top].w = untried;
            let popped = untried == 0u;
            let below = select(top, top - STRIDE, popped);
            let cols = frame.x | queen;
            let left = (frame.y | queen) << 1u;
            let right = (frame.z | queen) >> 1u;
            let free = FULL & ~(cols | left | right);
            let leaf = countOneBits(cols) == N - 1u || free == 0u;
            found += select(0u, countOneBits(free), leaf);
            let above = below + STRIDE;
            let child = vec4<u32>(cols, left, right, free);
            if (!leaf) {
                stack[above] = child;
            }
            top = select(above, below, leaf);
            let kept = vec4<u32>(frame.xyz, untried);
            frame = select(select(kept, under, popped), child, !leaf);
            {{STEP}}
        }
