//! The workbench's files and streams, the operating system's side of the command line, the
//! count's checkpoints and the experiment's plots, kept apart from the board model
//! (`queens-core`), which builds without libc:
//!
//! - [`files`]: regular files read within a limit, outputs staged and renamed over their
//!   target only when complete (or written in place where no rename can replace them).
//! - [`identity`]: which file a path names, through any name or link.
//! - [`quiet`]: standard error kept quiet while a library chatters on it, and given back.
//! - [`streams`]: pipes, FIFOs and terminals written so that one nobody reads never holds a
//!   run past its stop.

pub mod files;
pub mod identity;
pub mod quiet;
pub mod streams;
