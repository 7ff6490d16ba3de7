// The original's search of one item, for `reference_single.wgsl`'s SEARCH: frames of 16 bytes
// (a row's column and diagonal masks and its untried squares), one `step` an iteration.
        stack[lane] = vec4<u32>(item.x, item.y, item.z, first);
        var top = lane;
        loop {
            if (top == bottom) {
                break;
            }
            let stepped = step(top);
            top = stepped.x;
            found += stepped.y;
            {{STEP}}
        }
