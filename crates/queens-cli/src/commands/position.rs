//! A position as `solve`, `count` and `configure` take it: a size or an n-Queens Completion
//! instance file, with placed queens and blocked squares added from the command line.

use std::path::Path;

use queens_core::Square;
use queens_core::files::read_regular_text;
use queens_core::instance::Instance;
use queens_core::read::MAX_TEXT_BYTES;

use super::{parse_size, squares_flag};
use crate::args::PositionArgs;

/// A position read from the command line.
#[derive(Debug)]
pub struct GivenPosition {
    /// Board ranks.
    pub rows: u32,
    /// Board files.
    pub cols: u32,
    /// Queens to place, when the instance says.
    pub queen_count: Option<u32>,
    /// Queens already placed: the command line's, then the instance's.
    pub fixed: Vec<Square>,
    /// Squares no queen may take: the command line's, then the instance's.
    pub blocked: Vec<Square>,
}

/// Where a position comes from: the flags of one command.
pub struct PositionFlags<'a> {
    /// The size argument (`N` or `RxC`), absent with an instance.
    pub size: Option<&'a str>,
    /// The placed queens, and the flag that gives them (`--fix`, `--queens`).
    pub placed: (Option<&'a str>, &'static str),
    /// `--block`.
    pub block: Option<&'a str>,
    /// `--instance`.
    pub instance: Option<&'a Path>,
    /// `--diagonals`.
    pub diagonals: Option<usize>,
}

impl PositionArgs {
    /// The flags of `solve` and `count`.
    pub fn flags(&self) -> PositionFlags<'_> {
        PositionFlags {
            size: self.size.as_deref(),
            placed: (self.fix.as_deref(), "--fix"),
            block: self.block.as_deref(),
            instance: self.instance.as_deref(),
            diagonals: self.diagonals,
        }
    }
}

impl PositionFlags<'_> {
    /// The position: the instance's board or the size's, with the placed and blocked squares.
    pub fn read(&self) -> anyhow::Result<GivenPosition> {
        let (placed, flag) = self.placed;
        let mut fixed = squares_flag(placed, flag)?;
        let mut blocked = squares_flag(self.block, "--block")?;
        let (rows, cols, queen_count) = match (self.instance, self.size) {
            (Some(path), _) => {
                let instance = read_instance(path, self.diagonals)?;
                fixed.extend(&instance.fixed);
                blocked.extend(instance.blocked_squares()?);
                (instance.rows, instance.cols, instance.queens)
            }
            (None, Some(size)) => {
                anyhow::ensure!(
                    self.diagonals.is_none(),
                    "--diagonals takes the first diagonals of an --instance; none is given"
                );
                let (rows, cols) = parse_size(size)?;
                (rows, cols, None)
            }
            (None, None) => anyhow::bail!("give a board size or an --instance"),
        };
        Ok(GivenPosition {
            rows,
            cols,
            queen_count,
            fixed,
            blocked,
        })
    }
}

impl GivenPosition {
    /// The side of an N×N board of N queens, or why the position is not one (`what` is
    /// refused on other boards).
    pub fn square_side(&self, what: &str) -> anyhow::Result<u32> {
        if self.rows != self.cols || self.queen_count.is_some_and(|q| q != self.rows) {
            anyhow::bail!("{what} N queens on an N×N board");
        }
        Ok(self.rows)
    }
}

/// The instance in `path`, with its first `diagonals` excluded diagonals when given.
pub fn read_instance(path: &Path, diagonals: Option<usize>) -> anyhow::Result<Instance> {
    let text = read_regular_text(path, MAX_TEXT_BYTES)?;
    let instance =
        Instance::parse(&text).map_err(|error| anyhow::anyhow!("{}: {error}", path.display()))?;
    Ok(instance.with_diagonals(diagonals)?)
}
