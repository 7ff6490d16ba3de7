// The search stack in each invocation's private memory.
var<private> lane: u32;
var<private> stack_queens: array<u32, STACK_ROWS>;
var<private> stack_lefts: array<u32, STACK_ROWS>;
var<private> stack_rights: array<u32, STACK_ROWS>;

fn stack_push(rel: u32, queen: u32, left: u32, right: u32) {
    stack_queens[rel] = queen;
    stack_lefts[rel] = left;
    stack_rights[rel] = right;
}

fn stack_queen(rel: u32) -> u32 {
    return stack_queens[rel];
}

fn stack_left(rel: u32) -> u32 {
    return stack_lefts[rel];
}

fn stack_right(rel: u32) -> u32 {
    return stack_rights[rel];
}
// ----
// The search stack in workgroup memory, the invocations' rows interleaved.
var<private> lane: u32;
var<workgroup> stack_queens: array<u32, STACK_ROWS * WORKGROUP>;
var<workgroup> stack_lefts: array<u32, STACK_ROWS * WORKGROUP>;
var<workgroup> stack_rights: array<u32, STACK_ROWS * WORKGROUP>;

fn stack_push(rel: u32, queen: u32, left: u32, right: u32) {
    let at = rel * WORKGROUP + lane;
    stack_queens[at] = queen;
    stack_lefts[at] = left;
    stack_rights[at] = right;
}

fn stack_queen(rel: u32) -> u32 {
    return stack_queens[rel * WORKGROUP + lane];
}

fn stack_left(rel: u32) -> u32 {
    return stack_lefts[rel * WORKGROUP + lane];
}

fn stack_right(rel: u32) -> u32 {
    return stack_rights[rel * WORKGROUP + lane];
}
