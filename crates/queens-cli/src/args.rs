//! The raw command line, as clap parses it. Values are validated into each command's
//! configuration afterwards, so that every message names the problem in the user's terms.

use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use queens_api::devices::DeviceId;
use queens_api::limits::{DEFAULTS, LIMITS};
use queens_web::MAX_CONNECTIONS;

use crate::numbers::{Bounds, device, positive, share, whole};

/// The N-Queens workbench: solve, verify and compare N-Queens solvers.
#[derive(Debug, Parser)]
#[command(name = "queens", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// How long work shows its progress on stderr.
    ///
    /// auto: a bar on a terminal, lines otherwise (after 5 s, then further apart, at most a
    /// minute), none for documents (--json, shard reports); lines: lines always, documents
    /// included; never: nothing.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value_t,
        hide_short_help = true
    )]
    pub progress: ProgressMode,
}

/// How work that takes a while shows its progress (`--progress`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ProgressMode {
    /// A bar on a terminal, lines otherwise; none for documents meant for programs.
    #[default]
    Auto,
    /// Lines, on a terminal too and for documents.
    Lines,
    /// Nothing.
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find one solution.
    Solve(SolveArgs),
    /// Check a board: list every pair of attacking queens and missing queens.
    Verify(VerifyArgs),
    /// Count all solutions and the unique ones (up to rotation and reflection).
    ///
    /// On all cores, a GPU or a Slurm cluster; with a position, its completions.
    Count(CountArgs),
    /// Check that shard files form one complete count, and add them up.
    Merge(MergeArgs),
    /// Run solvers many times over sizes and parameter sweeps: success rates, iterations, times.
    Experiment(ExperimentArgs),
    /// Analyse a position: which squares can still complete it, and why the others cannot.
    ///
    /// Which squares of a position of placed queens can still complete it, which queens are
    /// forced, how many completions each square has, and why blocked squares are blocked.
    Configure(ConfigureArgs),
    /// Serve the web page: configure by clicking, watch solvers, run experiments and counts.
    Serve(ServeArgs),
    /// The Queen's Challenge: the boards three searches examine around a locked queen.
    ///
    /// A classroom comparison of brute force, one-per-row brute force and backtracking: for
    /// every square as the locked queen, the boards each examines.
    Challenge(ChallengeArgs),
    /// List the GPUs `count --engine gpu` can use, with their index for --device.
    Devices(DevicesArgs),
    /// Print a shell's completion script for queens.
    ///
    /// For example, `queens completions bash > ~/.local/share/bash-completion/completions/queens`,
    /// or `queens completions zsh > ~/.zfunc/_queens`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) of queens or of one command.
    ///
    /// For example, `queens man | man -l -`, or `queens man count > queens-count.1`.
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (solve, count, ...) [default: queens itself].
    pub command: Option<String>,
}

#[derive(Debug, Args)]
pub struct DevicesArgs {
    /// Print the list as JSON: {"devices": [{"index", "name", "type", "backend", "driver",
    /// "limits"}]}.
    #[arg(long)]
    pub json: bool,
}

/// A board as `solve`, `count` and `configure` take it: its size, or an n-Queens Completion
/// instance from a file, and the squares blocked for queens.
#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Board size: N, or `RxC` where the command takes one.
    ///
    /// N for an N×N board, or `RxC` (rows × columns) where the command takes one, e.g. 8 or
    /// 6x9; none with --instance, whose file gives it.
    #[arg(
        allow_negative_numbers = true,
        required_unless_present_any = ["instance", "size_flag"],
        conflicts_with = "instance"
    )]
    pub size: Option<String>,

    /// The board size as `experiment --n` takes its sizes: `solve --n 8` says `solve 8`.
    #[arg(
        long = "n",
        value_name = "SIZE",
        allow_negative_numbers = true,
        hide = true,
        conflicts_with_all = ["size", "instance"]
    )]
    pub size_flag: Option<String>,

    /// Squares no queen may take, e.g. b2,c5.
    ///
    /// The exhaustive solvers keep off them; the configurator names them where they are why a
    /// square is dead.
    #[arg(long, value_name = "SQUARES", allow_hyphen_values = true)]
    pub block: Option<String>,

    /// A completion instance: CSPLib 079/080 or JSON.
    ///
    /// An n-Queens Completion instance: CSPLib 079's excluded diagonals (`n`, `diags`) or completion (`letting init`), 080's
    /// blocked squares (`letting blocks`), or a JSON problem (`{"n", "fixed", "blocked"}`); the
    /// placed queens and --block add to it.
    #[arg(long, value_name = "FILE")]
    pub instance: Option<PathBuf>,

    /// With an excluded-diagonals --instance: only its first D diagonals [default: all].
    #[arg(long, value_name = "D", hide_short_help = true, allow_negative_numbers = true,
          value_parser = whole::<usize>("--diagonals", Bounds::AtLeast(0)))]
    pub diagonals: Option<usize>,
}

/// A position to solve or count: a board, and queens every solution holds.
#[derive(Debug, Args)]
pub struct PositionArgs {
    #[command(flatten)]
    pub board: BoardArgs,

    /// Queens every solution holds, e.g. d1,e7.
    ///
    /// Queens that every solution must contain, e.g. d1,e7 or r20c30.
    #[arg(long, value_name = "SQUARES", allow_hyphen_values = true)]
    pub fix: Option<String>,
}

#[derive(Debug, Args)]
#[expect(clippy::struct_excessive_bools, reason = "the command's switches")]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,

    /// The solver [default: the best for the board].
    #[arg(short, long)]
    pub solver: Option<String>,

    /// Queens to place [default: min(rows, columns)].
    ///
    /// Number of queens to place, fixed ones included [default: min(rows, columns)].
    #[arg(short = 'm', long, value_name = "M", allow_negative_numbers = true,
          value_parser = whole::<u32>("--queen-count", Bounds::AtLeast(1)))]
    pub queen_count: Option<u32>,

    /// Seed of randomized solvers.
    ///
    /// The same seed, the same run. The other solvers are deterministic and ignore it.
    #[arg(long, default_value_t = DEFAULTS.seed, allow_negative_numbers = true, value_parser = seed)]
    pub seed: u64,

    /// Stop after this many nodes (boards or placements examined) [default: see `--help`].
    #[arg(long, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64>("--max-nodes", Bounds::AtLeast(1)))]
    pub max_nodes: Option<u64>,

    /// Iteration cap of a local search [default: the solver's own].
    ///
    /// Stop after this many iterations [default: each solver's own, listed below].
    #[arg(long, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64>("--max-iters", Bounds::AtLeast(1)))]
    pub max_iters: Option<u64>,

    /// Set a solver parameter, e.g. --set p=0.3.
    ///
    /// Repeat for several; each solver's parameters are listed below.
    #[arg(long = "set", value_name = "NAME=VALUE", allow_hyphen_values = true)]
    pub sets: Vec<String>,

    /// List every solution, as it is found (an exhaustive solver).
    ///
    /// Every solution the search finds, each checked and written as it is found: text boards
    /// apart by a blank line, a permutation a line, or a JSON object a line before the run's
    /// document. With --set solutions=K, the first K. The solver is an exhaustive one
    /// [default: forward-checking, or brute-force where a row may hold no queen].
    #[arg(long)]
    pub all: bool,

    /// With --all, each solution once up to turning and mirroring the board: the least of its kind.
    ///
    /// Of every solution the search finds, those that are the least of their kind (their
    /// queens, sorted by rank then file, before any turn's or mirror's): one of each, the first
    /// a rank-by-rank search finds. `solve 8 --all --unique` lists the 12 of OEIS A002562.
    /// With fixed queens, blocked squares or a rectangle, the turns and mirrors that keep them.
    #[arg(long, requires = "all")]
    pub unique: bool,

    /// Stop after this many seconds of wall time.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true,
          value_parser = positive("--time-limit", "seconds"))]
    pub time_limit: Option<f64>,

    /// Output format: text, perm, json or summary.
    ///
    /// [default: text, or for boards over 1000 wide perm, which a terminal gets as a summary
    /// and a sentence saying how to have the rows]
    #[arg(short, long, value_enum, hide_possible_values = true)]
    pub format: Option<Format>,

    /// Print JSON (the same as --format json).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// Leave the rank numbers and file letters off a text board (for scripts).
    #[arg(long, hide_short_help = true)]
    pub no_labels: bool,

    /// Write every event of the run to FILE, one JSON object per line.
    #[arg(long, value_name = "FILE", hide_short_help = true)]
    pub trace: Option<PathBuf>,

    /// Write the answer to FILE, not to standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// How `solve` prints its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A diagram, top rank first, Q and `.`, with rank numbers and file letters.
    Text,
    /// For each column, the 0-based row of its queen, on one line.
    Perm,
    /// The JSON document of the contract.
    Json,
    /// One line of key=value pairs: size, solver, result, counters, time; no board.
    Summary,
}

/// Which counting engine `count` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// The quadrant join where it is faster and fits in --memory, else backtracking.
    Auto,
    /// The quadrant join: meet in the middle over the board's four quadrants.
    Join,
    /// Row-by-row bitmask backtracking, the members of each symmetry class of two shapes,
    /// weighed; with a position, its completions counted row by row.
    Backtracking,
    /// Backtracking's symmetry classes searched on a GPU.
    Gpu,
}

impl ValueEnum for EngineChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            EngineChoice::Auto,
            EngineChoice::Join,
            EngineChoice::Backtracking,
            EngineChoice::Gpu,
        ]
    }

    /// Each engine with its help, its sizes from the table of limits.
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            EngineChoice::Auto => PossibleValue::new("auto").help(format!(
                "The quadrant join where it is faster (N ≥ {}) and fits in --memory, else \
                 backtracking",
                DEFAULTS.join_from
            )),
            EngineChoice::Join => PossibleValue::new("join").help(format!(
                "The quadrant join: meet in the middle over the board's four quadrants (N from 4 \
                 to {})",
                LIMITS.join_max_n
            )),
            EngineChoice::Backtracking => PossibleValue::new("backtracking").help(format!(
                "Row-by-row bitmask backtracking, the members of each symmetry class of two \
                 shapes, weighed (N up to {}); with a position, its completions counted row by \
                 row (a cross-check of the completion search, which counts them otherwise)",
                LIMITS.count_max_n
            )),
            EngineChoice::Gpu => PossibleValue::new("gpu").help(
                "Backtracking's symmetry classes searched on a GPU (Vulkan, Metal or DX12; see \
                 `queens devices`): the same parts, shards and checkpoints as backtracking",
            ),
        })
    }
}

impl EngineChoice {
    /// The choice as the front door takes it.
    pub fn choice(self) -> queens_api::count::EngineChoice {
        use queens_api::count::Engine;
        use queens_api::count::EngineChoice as Choice;
        match self {
            EngineChoice::Auto => Choice::Auto,
            EngineChoice::Join => Choice::Named(Engine::Join),
            EngineChoice::Backtracking => Choice::Named(Engine::Backtracking),
            EngineChoice::Gpu => Choice::Named(Engine::Gpu),
        }
    }
}

// Each bool is a flag of its own on the command line (--json, --slurm, --wait, --plan).
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Args)]
pub struct CountArgs {
    /// With a position (--fix, --block, --instance): its completions are counted, full
    /// solutions holding its placed queens and none of its blocked squares.
    #[command(flatten)]
    pub position: PositionArgs,

    /// Worker threads (the default: the variable rayon reads, else one per core). `-j` and
    /// `--jobs`, as make and cargo name them, say the same.
    #[arg(short, long, value_name = "T", allow_negative_numbers = true,
          short_alias = 'j', alias = "jobs",
          help = "Worker threads [default: RAYON_NUM_THREADS, else one per core]",
          value_parser = whole::<usize>("--threads", Bounds::Between(1, LIMITS.max_threads as u64)))]
    pub threads: Option<usize>,

    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,

    /// Count only shard I of M (0 ≤ I < M), printing its JSON report.
    ///
    /// `slurm` takes I and M from the Slurm job array's variables.
    #[arg(long, value_name = "I/M", allow_hyphen_values = true)]
    pub shard: Option<String>,

    /// Submit the count to Slurm: --shards tasks and a merge, in --dir.
    ///
    /// A job array of --shards shards and a merge job after them, all writing to --dir.
    #[arg(long, requires_all = ["shards", "dir"], conflicts_with_all = ["shard", "checkpoint"])]
    pub slurm: bool,

    /// Shards of a --slurm count (the array's tasks), or of a --plan.
    #[arg(long, value_name = "M", hide_short_help = true, allow_negative_numbers = true,
          value_parser = whole::<u32>("--shards", Bounds::Between(1, LIMITS.max_shards as u64)))]
    pub shards: Option<u32>,

    /// The directory of a cluster count: shard reports, checkpoints, logs and result.json.
    ///
    /// With --shard, the report and checkpoint go there (shard-I-of-M.json, .checkpoint).
    #[arg(long, value_name = "DIR", hide_short_help = true)]
    pub dir: Option<PathBuf>,

    /// The most tasks a Slurm array of --slurm or --plan has (the cluster's largest array size
    /// less one); more shards go to further arrays.
    #[arg(long, value_name = "TASKS", hide_short_help = true, allow_negative_numbers = true,
          value_parser = whole::<u32>("--array-size", Bounds::Between(1, LIMITS.max_shards as u64)))]
    pub array_size: Option<u32>,

    /// With --slurm: wait for the jobs and print the merged count.
    #[arg(long, requires = "slurm", hide_short_help = true)]
    pub wait: bool,

    /// With --slurm: options for sbatch, after `--` (e.g. -- --partition=long --time=4:00:00).
    #[arg(
        last = true,
        index = 2,
        value_name = "SBATCH OPTIONS",
        hide_short_help = true
    )]
    pub sbatch_args: Vec<String>,

    /// Plan a record count: its nodes, device-hours, shards and Slurm arrays.
    ///
    /// Plan the count without counting: its nodes (estimated by random probes), the
    /// device-hours at --rate, shards of about an hour, and the Slurm arrays that run them
    /// (with --dir, writing there).
    #[arg(long, conflicts_with_all = ["shard", "slurm", "checkpoint", "time_limit"], hide_short_help = true)]
    pub plan: bool,

    /// With --plan: nodes a second of one device.
    #[arg(
        long,
        value_name = "NODES_PER_SECOND",
        requires = "plan",
        hide_short_help = true,
        allow_hyphen_values = true,
        value_parser = positive("--rate", "nodes a second")
    )]
    pub rate: Option<f64>,

    /// With --plan: the share of the shards drawn to count again on other devices [default:
    /// 0.01; 0 for none].
    #[arg(
        long,
        value_name = "SHARE",
        requires = "plan",
        hide_short_help = true,
        allow_hyphen_values = true,
        value_parser = share("--recount-share")
    )]
    pub recount_share: Option<f64>,

    /// Save finished subproblems to FILE and resume from it.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// Seconds between checkpoint saves (at least 0.1, and at least twenty times the last save)
    /// [default: 5]; with --slurm or --plan, every task's.
    #[arg(long, value_name = "SECONDS", hide = true, allow_hyphen_values = true,
          value_parser = positive("--checkpoint-every", "seconds"))]
    pub checkpoint_every: Option<f64>,

    /// When the checkpoint cannot be saved (a full disk): say so and keep counting, trying
    /// again at the next save, or stop and print what was counted [default: continue]; with
    /// --slurm or --plan, every task's.
    #[arg(long, value_enum, value_name = "WHAT", hide_short_help = true)]
    pub on_save_failure: Option<SaveFailureChoice>,

    /// Stop after this many seconds, keeping what was counted.
    ///
    /// With --checkpoint, the count resumes from there when run again.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true,
          value_parser = positive("--time-limit", "seconds"))]
    pub time_limit: Option<f64>,

    /// The counting engine.
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto, hide_possible_values = true)]
    pub engine: EngineChoice,

    /// The GPU for --engine gpu, by its index or PCI address in `queens devices`.
    ///
    /// An index (`1`), or a PCI address as `queens devices`, `nvidia-smi` or `lspci` show it
    /// (`0000:3b:00.0`), which a driver update does not reorder. [default: the GPU a job
    /// scheduler assigned (`SLURM_JOB_GPUS`, `CUDA_VISIBLE_DEVICES`), else the first hardware
    /// GPU]; a software adapter (such as lavapipe) is used only when named.
    #[arg(long, value_name = "I|ADDRESS", allow_negative_numbers = true, value_parser = device)]
    pub device: Option<DeviceId>,

    /// Refuse a count whose estimated time is longer than this many seconds.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true,
          value_parser = positive("--max-estimate", "seconds"))]
    pub max_estimate: Option<f64>,

    /// The most memory the count may plan to use, like 8G or 512M; a count that needs more is
    /// refused before it starts (auto then chooses backtracking).
    #[arg(
        long,
        value_name = "SIZE",
        hide_short_help = true,
        allow_hyphen_values = true
    )]
    pub memory: Option<String>,
}

/// `count --on-save-failure`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SaveFailureChoice {
    /// Keep counting; the result is printed at the end.
    #[default]
    Continue,
    /// Stop at once, printing what was counted.
    Stop,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard reports written by `queens count --shard I/M`, or patterns of their names in
    /// quotes ('DIR/shard-*-of-M.json'), expanded here: any number of shards.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// A report of a shard counted again on another device or engine (a file or a quoted
    /// pattern; repeat for more): the merge is refused if any disagrees with its shard's report.
    #[arg(long, value_name = "FILE")]
    pub recount: Vec<PathBuf>,

    /// Print the sums as JSON.
    #[arg(long)]
    pub json: bool,

    /// Write the result to FILE (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// Solvers, comma-separated [default: the seven of the original comparison]. (`--solvers`
    /// is an alias.)
    #[arg(short, long, alias = "solvers", value_delimiter = ',')]
    pub solver: Vec<String>,

    /// Board sides N, comma-separated, e.g. 4,8,16. (`--n 4,8,16` says the same.)
    #[arg(
        value_name = "SIZES",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    pub sizes: Vec<String>,

    /// The board sides, as earlier versions took them.
    #[arg(
        long = "n",
        value_delimiter = ',',
        allow_negative_numbers = true,
        hide = true,
        conflicts_with = "sizes"
    )]
    pub sizes_flag: Vec<String>,

    /// Runs per cell.
    #[arg(long, default_value_t = DEFAULTS.experiment_runs, allow_negative_numbers = true,
          value_parser = whole::<u64>("--runs", Bounds::AtLeast(1)))]
    pub runs: u64,

    /// Master seed: run i of every cell uses a seed derived from it and i.
    #[arg(long, default_value_t = DEFAULTS.seed, allow_negative_numbers = true, value_parser = seed)]
    pub seed: u64,

    /// Iteration cap of each run [default: each solver's own; 1000 for the original study's
    /// local search].
    #[arg(long, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64>("--max-iters", Bounds::AtLeast(1)))]
    pub max_iters: Option<u64>,

    /// Node cap of each run of a tree search [default: none].
    #[arg(long, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64>("--max-nodes", Bounds::AtLeast(1)))]
    pub max_nodes: Option<u64>,

    /// Sweep a parameter: NAME=V1,V2,... (repeat for a grid); `max_iters=V1,V2,...` sweeps the
    /// iteration cap.
    #[arg(long = "set", value_name = "NAME=VALUES", allow_hyphen_values = true)]
    pub sets: Vec<String>,

    /// Stop after this many seconds, printing the rows of the runs that finished.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true,
          value_parser = positive("--time-limit", "seconds"))]
    pub time_limit: Option<f64>,

    /// Also write results.csv, results.json and plots (SVG and PNG) to DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Print the rows as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The board file; standard input when absent or `-`.
    pub file: Option<PathBuf>,

    /// List every attacking pair, however many.
    #[arg(long)]
    pub all_conflicts: bool,

    /// The board's size, N or `RxC`, when the input does not tell it (a list of squares, a
    /// permutation with empty columns at the end) [default: read from the board].
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true)]
    pub size: Option<String>,

    /// Queens a solution holds, as `solve -m` places them [default: one per row or column,
    /// min(rows, cols)].
    #[arg(short = 'm', long, value_name = "M", allow_negative_numbers = true,
          value_parser = whole::<u32>("--queen-count", Bounds::AtLeast(1)))]
    pub queen_count: Option<u32>,

    /// Print the findings as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ConfigureArgs {
    #[command(flatten)]
    pub board: BoardArgs,

    /// The placed queens, e.g. d1,e7 or r1c4,r7c5 [default: none].
    #[arg(long, value_name = "SQUARES", allow_hyphen_values = true)]
    pub queens: Option<String>,

    /// Print the analysis as JSON.
    #[arg(long)]
    pub json: bool,

    /// The engine deciding the statuses: auto, bdd or search.
    #[arg(long, default_value = "auto", value_name = "ENGINE")]
    pub engine: String,

    /// Search nodes the analysis may spend (squares it cannot decide are reported unknown).
    #[arg(long, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64>("--max-nodes", Bounds::AtLeast(1)))]
    pub max_nodes: Option<u64>,

    /// Stop after this many seconds.
    ///
    /// Squares not decided by then are reported unknown.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true,
          value_parser = positive("--time-limit", "seconds"))]
    pub time_limit: Option<f64>,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Host and port to listen on [default: 127.0.0.1:7878].
    ///
    /// The host is an IP address or a name, such as localhost; port 0 picks a free port. With
    /// --port, the host alone.
    #[arg(long, value_name = "ADDR")]
    pub addr: Option<String>,

    /// Port on 127.0.0.1 or on --addr's host (0: any free port).
    #[arg(short, long, value_name = "PORT", allow_negative_numbers = true,
          value_parser = whole::<u16>("--port", Bounds::Between(0, u16::MAX as u64)))]
    pub port: Option<u16>,

    /// Let pages from ORIGIN call the API (repeat for several).
    ///
    /// Pages from ORIGIN (scheme://host:port) may call the API, and requests for that host
    /// name are accepted; repeat for several. By default only the server's own page may, and only
    /// for localhost or an IP address.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allowed_origins: Vec<String>,

    /// What makes requests one client's: peer or header:NAME.
    ///
    /// What makes requests one client's for the per-client job limits: `peer` (the address;
    /// every loopback address is one client, an IPv6 peer its /64) or `header:NAME`, a header
    /// set by a trusted reverse proxy (such as header:X-Forwarded-For).
    #[arg(long, value_name = "KEY", default_value = "peer")]
    pub client_key: String,

    /// Connections open at once.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<usize>("--max-connections", Bounds::Between(8, MAX_CONNECTIONS as u64 * 64)))]
    pub max_connections: Option<usize>,
}

#[derive(Debug, Args)]
pub struct ChallengeArgs {
    /// Board side.
    #[arg(default_value_t = DEFAULTS.side.to_string(), allow_negative_numbers = true)]
    pub size: String,

    /// The board side as `experiment --n` takes its sizes: `challenge --n 6` says `challenge 6`.
    #[arg(
        long = "n",
        value_name = "SIZE",
        allow_negative_numbers = true,
        hide = true,
        conflicts_with = "size"
    )]
    pub size_flag: Option<String>,

    /// Solvers to compare, comma-separated [default: all four]. (`--solvers` is an alias.)
    #[arg(short, long = "solver", alias = "solvers", value_delimiter = ',')]
    pub solvers: Vec<String>,

    /// Print the table as JSON.
    #[arg(long)]
    pub json: bool,

    /// Node cap per run [default: none; brute force over the 64 locks of 8×8 examines about 8.5
    /// billion boards, minutes on a laptop].
    #[arg(long, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64>("--max-nodes", Bounds::AtLeast(1)))]
    pub max_nodes: Option<u64>,

    /// Stop after this many seconds, printing the table of the runs that finished.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true,
          value_parser = positive("--time-limit", "seconds"))]
    pub time_limit: Option<f64>,
}

/// `--seed`: a whole number from 0 to 2⁶⁴ − 1, refused in the words every front end uses.
fn seed(text: &str) -> Result<u64, String> {
    queens_api::request::parse_whole(text, "--seed", 0, u64::MAX).map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Values that are names, addresses or shell words, where a word after the flag that
    /// begins with a minus sign is more likely a forgotten value than the value itself.
    const WORDS: [&str; 8] = [
        "solver",
        "solvers",
        "engine",
        "command",
        "addr",
        "allowed_origins",
        "client_key",
        "sbatch_args",
    ];

    /// Every flag or argument whose value is a number, or starts like one (`--shard -1/4`,
    /// `--memory -5`, `experiment -3`), takes a value that begins with a minus sign, so that
    /// it is refused in the flag's own words and not as "unexpected argument '-3'". Paths,
    /// fixed choices and the words above are left to clap.
    #[test]
    fn a_value_beginning_with_a_minus_sign_is_the_flags_value() {
        fn walk(command: &clap::Command, path: &str, unread: &mut Vec<String>) {
            let path_type = clap::builder::ValueParser::path_buf().type_id();
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                let read_as_is = !arg.get_action().takes_values()
                    || arg.get_value_parser().type_id() == path_type
                    || !arg.get_possible_values().is_empty()
                    || WORDS.contains(&id);
                if !read_as_is
                    && !arg.is_allow_negative_numbers_set()
                    && !arg.is_allow_hyphen_values_set()
                {
                    unread.push(format!("{path} {id}"));
                }
            }
            for sub in command.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), unread);
            }
        }
        let mut unread = Vec::new();
        walk(&super::Cli::command(), "queens", &mut unread);
        assert!(
            unread.is_empty(),
            "a leading minus is not read as the value of: {unread:?}"
        );
    }
}
