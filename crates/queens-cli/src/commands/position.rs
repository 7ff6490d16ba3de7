//! A position as `solve`, `count` and `configure` take it: a size or an n-Queens Completion
//! instance file, with placed queens and blocked squares added from the command line.

use std::path::Path;

use queens_core::instance::Instance;
use queens_core::read::MAX_TEXT_BYTES;
use queens_core::side::SideLimit;
use queens_io::files::read_regular_text;

use super::{parse_size_for, squares_flag};
use crate::args::{BoardArgs, PositionArgs};

impl PositionArgs {
    /// The position of `solve` and `count`: the board, with `--fix`'s queens, for a computation
    /// that takes `sides`.
    pub fn read(&self, sides: SideLimit) -> anyhow::Result<Instance> {
        self.board.read(self.fix.as_deref(), "--fix", sides)
    }
}

impl BoardArgs {
    /// The board size, given as the command's argument or as `--n`.
    pub fn size(&self) -> Option<&str> {
        self.size.as_deref().or(self.size_flag.as_deref())
    }

    /// The position as an instance: the instance file's (its excluded diagonals turned into
    /// the squares they block) or the size's board, with `placed` (given by `flag`) and
    /// `--block` added before the file's own. A size past `sides`, those of the computation
    /// the position is for, is refused in its words.
    pub fn read(
        &self,
        placed: Option<&str>,
        flag: &str,
        sides: SideLimit,
    ) -> anyhow::Result<Instance> {
        let mut fixed = squares_flag(placed, flag)?;
        let mut blocked = squares_flag(self.block.as_deref(), "--block")?;
        let mut instance = match (&self.instance, self.size()) {
            (Some(path), _) => {
                let instance = read_instance(path, self.diagonals)?;
                Instance {
                    blocked: instance.blocked_squares()?,
                    diagonals: Vec::new(),
                    ..instance
                }
            }
            (None, Some(size)) => {
                anyhow::ensure!(
                    self.diagonals.is_none(),
                    "--diagonals takes the first diagonals of an --instance; none is given"
                );
                let (rows, cols) = parse_size_for(size, sides)?;
                Instance {
                    rows,
                    cols,
                    queens: None,
                    fixed: Vec::new(),
                    blocked: Vec::new(),
                    diagonals: Vec::new(),
                }
            }
            (None, None) => anyhow::bail!("give a board size or an --instance"),
        };
        fixed.append(&mut instance.fixed);
        blocked.append(&mut instance.blocked);
        Ok(Instance {
            fixed,
            blocked,
            ..instance
        })
    }
}

/// The side of `position`'s N×N board of N queens, or why it is not one (`what` is refused on
/// other boards).
pub fn square_side(position: &Instance, what: &str) -> anyhow::Result<u32> {
    if position.rows != position.cols || position.queens.is_some_and(|q| q != position.rows) {
        anyhow::bail!("{what} N queens on an N×N board");
    }
    Ok(position.rows)
}

/// The instance in `path`, with its first `diagonals` excluded diagonals when given.
pub fn read_instance(path: &Path, diagonals: Option<usize>) -> anyhow::Result<Instance> {
    let text = read_regular_text(path, MAX_TEXT_BYTES)?;
    let instance =
        Instance::parse(&text).map_err(|error| anyhow::anyhow!("{}: {error}", path.display()))?;
    Ok(instance.with_diagonals(diagonals)?)
}
