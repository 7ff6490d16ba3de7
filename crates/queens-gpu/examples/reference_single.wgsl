// One search an invocation, for `reference_loop.wgsl`'s SEARCHES: the invocation takes an item,
// searches it with SEARCH (`reference_wide.wgsl` or `reference_compact.wgsl`), and takes the
// next, until none is left or it has taken params.most.
    for (var taken = 0u; taken < params.most; taken++) {
        let index = atomicAdd(&counters[0], 1u);
        if (index >= params.count) {
            break;
        }
        let item = items[index];
        let first = FULL & ~(item.x | item.y | item.z);
        if (first == 0u) {
            continue;
        }
        var found = 0u;
        var steps = 0u;
{{SEARCH}}
        total = add(total, found * item.w);
        nodes = add(nodes, steps);
    }
