// The original's search of one item, for `reference_loop.wgsl`'s SEARCH: frames of 16
// bytes (a row's column and diagonal masks and its untried squares), the top frame giving up
// its lowest square and popped when none is left.
        stack[lane] = vec4<u32>(item.x, item.y, item.z, first);
        var top = lane;
        loop {
            if (top == bottom) {
                break;
            }
            let frame = stack[top];
            let queen = frame.w & (0u - frame.w);
            let untried = frame.w ^ queen;
            stack[top].w = untried;
            top = select(top, top - STRIDE, untried == 0u);
            let cols = frame.x | queen;
            let left = (frame.y | queen) << 1u;
            let right = (frame.z | queen) >> 1u;
            let free = FULL & ~(cols | left | right);
            let leaf = countOneBits(cols) == N - 1u || free == 0u;
            found += select(0u, countOneBits(free), leaf);
            let above = top + STRIDE;
            if (!leaf) {
                stack[above] = vec4<u32>(cols, left, right, free);
            }
            top = select(above, top, leaf);
            {{STEP}}
        }
