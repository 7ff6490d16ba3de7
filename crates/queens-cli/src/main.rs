//! The `queens` binary: the command line of [`queens_cli`] on this process's arguments.

use std::process::ExitCode;

fn main() -> ExitCode {
    one_allocator_arena_under_an_address_limit();
    ExitCode::from(on_a_stack_of_at_least(COMMAND_STACK))
}

/// The command line on this process's arguments.
fn run_command() -> u8 {
    queens_cli::run(std::env::args_os())
}

/// The stack a command runs on at the least: the usual main thread's (8 MiB). Completion's
/// search of a 1024×1024 board, the deepest, takes about 1 MiB of it.
const COMMAND_STACK: usize = 8 << 20;

/// Runs the command on this thread, or, where the stack limit (`ulimit -s`) gave this thread
/// less than `stack` and the address space has room, on a thread with that stack: so that a low
/// `ulimit -s` does not end a deep search (or even the parsing of a command) in a stack
/// overflow. Threads that a command starts have stacks of their own size, whatever the limit.
fn on_a_stack_of_at_least(stack: usize) -> u8 {
    let small = queens_core::memory::stack_limit().is_some_and(|limit| limit < stack as u128);
    if small
        && let Ok(thread) = queens_core::parallel::spawn(Some("queens"), Some(stack), run_command)
    {
        return thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    }
    run_command()
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
