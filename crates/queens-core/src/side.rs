//! The board sides a computation takes, and its one sentence refusing a larger side.
//!
//! A library checks the side it is given (a `u32`); a front end reads the side from text, where
//! it may lie past 2³²−1, which no board holds and the library never sees. Both word the
//! refusal through the computation's [`SideLimit`], so that `count 40` and `count 5000000000`
//! state the same limit, the counting kernel's 32, and not the board type's.
//!
//! ```
//! use queens_core::side::SideLimit;
//!
//! const TABLE: SideLimit = SideLimit::new(64, |most, got| {
//!     format!("the table runs N up to {most}, got {got}")
//! });
//! assert!(TABLE.takes(64) && !TABLE.takes(65) && !TABLE.takes(0));
//! assert_eq!(TABLE.refusal(&"5000000000"), "the table runs N up to 64, got 5000000000");
//! ```

use std::fmt;

/// How a computation refuses a side past its largest: given that largest and the side as
/// asked (a number, or the digits of one past 2³²−1).
pub type Refusal = fn(most: u32, got: &dyn fmt::Display) -> String;

/// The sides from 1 to a largest that a computation takes, and its refusal of a larger one.
#[derive(Clone, Copy)]
pub struct SideLimit {
    most: u32,
    refusal: Refusal,
}

impl SideLimit {
    /// Sides from 1 to `most`, a larger one refused by `refusal`.
    pub const fn new(most: u32, refusal: Refusal) -> Self {
        SideLimit { most, refusal }
    }

    /// The largest side taken.
    pub const fn most(self) -> u32 {
        self.most
    }

    /// Whether side `n` is taken.
    pub fn takes(self, n: u32) -> bool {
        (1..=self.most).contains(&n)
    }

    /// The refusal of side `got`, past [`most`](Self::most).
    pub fn refusal(self, got: &dyn fmt::Display) -> String {
        (self.refusal)(self.most, got)
    }
}

impl fmt::Debug for SideLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SideLimit")
            .field("most", &self.most)
            .finish_non_exhaustive()
    }
}

/// Every side a board holds, 1 to 2³²−1: the limit of a computation that takes any board.
pub const ANY_BOARD: SideLimit = SideLimit::new(u32::MAX, |most, got| {
    format!("N must be at most {most}, got {got}")
});
