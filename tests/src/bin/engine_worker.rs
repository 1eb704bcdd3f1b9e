//! The engine worker the tests run cells in (`isolation = "process"`):
//! the one line an embedder's worker binary needs. Started with the
//! argument `threaded`, it first starts a thread, as a `main` under
//! `#[tokio::main]` would, to prove a host refuses such a handoff.

fn main() -> std::process::ExitCode {
    if std::env::args_os().nth(1).is_some_and(|arg| arg == "threaded") {
        let (ready, started) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = ready.send(());
            std::thread::park();
        });
        let _ = started.recv();
    }
    codemode_runtime::engine_worker()
}
