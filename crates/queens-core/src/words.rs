//! Numbers in sentences: a noun that agrees with its count, so that every message says
//! "1 subproblem" and "2 subproblems" alike.

use std::fmt::Display;

/// `count` and the noun in the form that agrees with it: `counted(1, "shard", "shards")` is
/// `"1 shard"`, `counted(0, "shard", "shards")` is `"0 shards"`.
pub fn counted<T: Display + PartialEq + From<u8> + Copy>(
    count: T,
    one: &str,
    many: &str,
) -> String {
    let noun = if count == T::from(1) { one } else { many };
    format!("{count} {noun}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nouns_agree_with_their_counts() {
        assert_eq!(counted(1_u64, "subproblem", "subproblems"), "1 subproblem");
        assert_eq!(counted(0_u32, "subproblem", "subproblems"), "0 subproblems");
        assert_eq!(
            counted(2_usize, "half board", "half boards"),
            "2 half boards"
        );
        assert_eq!(
            counted(u128::MAX, "solution", "solutions")
                .split(' ')
                .nth(1),
            Some("solutions")
        );
    }
}
