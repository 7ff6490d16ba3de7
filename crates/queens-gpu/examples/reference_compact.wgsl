// A search of one item with frames of 8 bytes, for `reference_single.wgsl`'s SEARCH: a row's
// squares and its right diagonals. The columns and left diagonals of the top row are kept in
// registers; below the top, a row's squares hold the queen placed on it as their lowest bit
// (squares are taken lowest first), which undoes them on the way back: the columns lose it, the
// left diagonals shift back and lose it. The shift back cannot restore the word's top bit, which
// went out on the way down: after k rows back the top k bits are lost, and a child then pushed
// misses an attack on its column 33 − k or above. So the search is exact only while N plus its
// frames is at most 34 (N = 20 with 6 rows fixed; not N = 21 with 6 rows, nor N = 22 with 7):
// the host refuses it past that. A return to a row with nothing left places nothing and returns
// again, so the iterations are the queens placed and those returns.
        stack[lane] = vec2<u32>(first, item.z);
        var top = lane;
        var cols = item.x;
        var left = item.y;
        var back = false;
        loop {
            if (top == bottom) {
                break;
            }
            let frame = stack[top];
            // Back from the row below: lift the queen placed on this row.
            let placed = select(0u, frame.x & (0u - frame.x), back);
            cols ^= placed;
            left = select(left, (left >> 1u) & ~placed, back);
            let squares = frame.x ^ placed;
            let queen = squares & (0u - squares);
            let child_cols = cols | queen;
            let child_left = (left | queen) << 1u;
            let child_right = (frame.y | queen) >> 1u;
            let free = FULL & ~(child_cols | child_left | child_right);
            let leaf = countOneBits(child_cols) == N - 1u || free == 0u;
            let placing = queen != 0u;
            found += select(0u, countOneBits(free), leaf && placing);
            let push = placing && !leaf;
            let rest = squares ^ queen;
            stack[top].x = select(rest, squares, push);
            let above = top + STRIDE;
            if (push) {
                stack[above] = vec2<u32>(free, child_right);
            }
            let pop = !push && rest == 0u;
            cols = select(cols, child_cols, push);
            left = select(left, child_left, push);
            top = select(select(top, top - STRIDE, pop), above, push);
            back = pop;
            {{STEP}}
        }
