//! The `queens` binary: the command line of [`queens_cli`] on this process's arguments.

use std::process::ExitCode;

fn main() -> ExitCode {
    one_allocator_arena_under_an_address_limit();
    ExitCode::from(queens_cli::run(std::env::args_os()))
}

/// Under an address-space limit (`ulimit -v`), runs this program again with the C library's
/// allocator kept to one arena. Each thread that allocates would otherwise reserve an arena of
/// its own, 64 MiB of address space that the limit counts though little of it is used, so that
/// a run the memory check let through could still fail to allocate what it was estimated to
/// need. Nothing happens without a limit, off glibc, or where the variable is already set; if
/// the program cannot be started again it goes on as it is.
fn one_allocator_arena_under_an_address_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;

        const ARENAS: &str = "MALLOC_ARENA_MAX";
        if std::env::var_os(ARENAS).is_some()
            || queens_core::memory::address_space_limit().is_none()
        {
            return;
        }
        let Ok(program) = std::env::current_exe() else {
            return;
        };
        let mut args = std::env::args_os();
        let mut again = std::process::Command::new(program);
        if let Some(name) = args.next() {
            again.arg0(name);
        }
        // `exec` returns only when it failed.
        let _ = again.args(args).env(ARENAS, "1").exec();
    }
}
