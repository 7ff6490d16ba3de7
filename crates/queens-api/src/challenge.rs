//! The Queen's Challenge as every front end runs it: brute force, one-queen-per-row brute force
//! and backtracking with a queen locked by the user, the boards each examines, as one table.
//! The table is `queens-lab`'s; this is its door.
//!
//! ```
//! use queens_api::Catalogue;
//! use queens_api::challenge::Challenge;
//!
//! let backtracking = Catalogue::standard().get("backtracking")?;
//! let challenge = Challenge { n: 5, solvers: vec![backtracking], max_nodes: None };
//! let table = challenge.run(&queens_core::Budget::unlimited(), |_| {})?;
//! assert_eq!(table.rows[0].runs, 25);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use queens_lab::challenge::{
    Challenge, ChallengeError, EXAMINED_EVERY, Lock, MAX_N, Progress, Row, SIDES, Table,
};
