//! `--trace FILE`: every event of a run as one JSON object per line.

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::Path;

use anyhow::Context;
use queens_core::{Event, Interest, Observer};
use queens_io::files::StagedFile;
use queens_io::streams::StopRule;

/// Writes events to a file as JSON lines; the first write error stops the run and is kept for
/// [`finish`](Self::finish).
pub struct TraceWriter {
    out: BufWriter<StagedFile>,
    error: Option<io::Error>,
}

impl TraceWriter {
    /// Starts the trace file (which replaces an existing one when [`finish`](Self::finish)ed);
    /// a FIFO nobody opens, or a stream nobody reads, is given up on once `stop` says stop.
    pub fn create(path: &Path, stop: &StopRule) -> anyhow::Result<Self> {
        let file = StagedFile::create_with(path, stop).context("cannot create trace file")?;
        Ok(TraceWriter {
            out: BufWriter::new(file),
            error: None,
        })
    }

    /// Flushes the file and reports the first error, if any.
    pub fn finish(mut self) -> anyhow::Result<()> {
        if let Some(error) = self.error.take() {
            return Err(error).context("cannot write the trace file");
        }
        self.out
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .context("cannot write the trace file")?
            .commit()
            .context("cannot write the trace file")
    }
}

impl Observer for TraceWriter {
    fn interest(&self) -> Interest {
        Interest::ALL
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        let written = serde_json::to_writer(&mut self.out, event)
            .map_err(io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"));
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                self.error.get_or_insert(error);
                ControlFlow::Break(())
            }
        }
    }
}
