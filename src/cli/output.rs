//! Outputs written whole or not at all: a file named by `-o`, `--audit`, `--out-dir` or
//! `--in-place` is written to a temporary file beside it (same directory, so the rename is
//! atomic) and renamed over the target only when complete. A failed run drops the temporary
//! file; an interrupted one (Ctrl-C, `kill`, a closed terminal) is caught by the handler
//! installed by [`install_signal_handler`], which clears the progress bar, removes every
//! temporary file still open and exits with 128 + the signal's number (130 for Ctrl-C).
//! Either way no partial file is left and an existing target is untouched.
//!
//! A target that exists and is not a regular file (`/dev/null`, a named pipe) is written
//! directly: there is nothing to replace.

use std::fmt;
use std::fs::{self, File, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use tempfile::TempPath;

use super::common;

/// An output could not be written: the run goes on where it can and exits with status 1.
#[derive(Debug)]
pub(super) struct Unwritten(pub String);

impl fmt::Display for Unwritten {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {}", self.0)
    }
}

impl std::error::Error for Unwritten {}

/// Turn an I/O error into an [`Unwritten`] one about `what`.
pub(super) fn unwritten(what: &str) -> impl Fn(io::Error) -> anyhow::Error + '_ {
    move |e| anyhow::Error::new(e).context(Unwritten(what.to_string()))
}

/// The temporary files not yet renamed: removed by the signal handler. Held while a
/// temporary file is created or renamed, so that the handler sees each one either before
/// or after, never half done.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Remove every temporary output still open and keep the list locked: called once, just
/// before the process exits on a signal.
fn remove_temporaries() {
    let guard = live();
    for p in guard.iter() {
        let _ = fs::remove_file(p);
    }
    // Held until the process exits: no rename can follow.
    std::mem::forget(guard);
}

/// The asynchronous signals whose default action ends the process: every one of them is
/// caught, so that no temporary output is left behind whatever ends the run (`kill -USR1`,
/// `timeout`'s SIGALRM, a CPU or file size limit, a closed terminal, Ctrl-\\). Left to their
/// default are the signals that cannot be caught (SIGKILL, SIGSTOP), the faults (SIGSEGV,
/// SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT: handled and returned from, they would
/// come again at once), and SIGPIPE, which the Rust runtime ignores so that a closed pipe is
/// an error the program answers quietly.
#[cfg(target_os = "linux")]
fn terminating_signals() -> Vec<i32> {
    use signal_hook::consts::signal::*;
    let mut v = vec![
        SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ,
        SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
    ];
    // The real-time signals (their default ends the process too).
    v.extend(libc::SIGRTMIN()..=libc::SIGRTMAX());
    v
}

/// On every signal of [`terminating_signals`]: clear the progress bar, remove the temporary
/// outputs, say why when the cause is a limit the user may not know of (`ulimit -f`, `-t`),
/// and exit with 128 + the signal. Installed once by `main` before any output is opened.
pub(crate) fn install_signal_handler() {
    #[cfg(target_os = "linux")]
    {
        use signal_hook::consts::signal::{SIGXCPU, SIGXFSZ};
        let Ok(signals) = signal_hook::iterator::Signals::new(terminating_signals()) else {
            return;
        };
        let mut signals = signals;
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    super::progress::clear_for_exit();
                    remove_temporaries();
                    let why = match sig {
                        SIGXFSZ => Some(
                            "a file grew past the size limit of this process (ulimit -f): \
                             the run stops, and no output is left half written",
                        ),
                        SIGXCPU => Some(
                            "the CPU time limit of this process (ulimit -t) was reached: the run \
                             stops, and no output is left half written",
                        ),
                        _ => None,
                    };
                    if let Some(why) = why {
                        super::progress::message_after_exit(&format!("pdn: error: {why}"));
                    }
                    std::process::exit(128 + sig);
                }
            });
        drop(spawned);
    }
}

/// Standard output was closed when the program started (`>&-`): what is written there goes
/// nowhere, so a command that writes to it fails instead (see [`guard_standard_streams`]).
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// The same for standard input (`<&-`).
static STDIN_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Give standard input, output and error a file each if one was closed when the program
/// started (`pdn … >&-`): `/dev/null`, so that no file opened later takes their number (an
/// output file opened as descriptor 2 would receive the messages of standard error). A
/// closed standard output or input is remembered: writing the output there, or reading games
/// from there, is an error, not a silent success. Called once by `main`, first.
pub(crate) fn guard_standard_streams() {
    #[cfg(unix)]
    for fd in 0..=2 {
        // SAFETY: F_GETFD only asks whether the descriptor is open.
        let closed = unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1
            && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
        if !closed {
            continue;
        }
        match fd {
            0 => STDIN_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed),
            1 => STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed),
            _ => {}
        }
        // SAFETY: a plain open of /dev/null; the lowest free descriptor, `fd`, is the one it
        // gets (the lower ones are open).
        let got = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
        if got >= 0 && got != fd {
            // SAFETY: `got` was just opened by this function and is not used elsewhere.
            unsafe {
                libc::dup2(got, fd);
                libc::close(got);
            }
        }
    }
}

/// True if standard output was closed when the program started.
pub(super) fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// True if standard input was closed when the program started.
pub(super) fn stdin_closed() -> bool {
    STDIN_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// How a file output ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Durability {
    /// Renamed when complete.
    Renamed,
    /// Also synced to disk before the rename (`--in-place`: the original is replaced).
    Synced,
}

/// A file being written: to a temporary file beside the target, renamed over it by
/// [`AtomicFile::commit`]; dropped without a commit, the temporary file goes.
pub(super) struct AtomicFile {
    inner: Option<Inner>,
    target: PathBuf,
}

enum Inner {
    /// A temporary file to rename.
    Temp {
        writer: Encoder,
        path: TempPath,
        keep: Option<Permissions>,
        durability: Durability,
    },
    /// A device or pipe, written directly.
    Direct(BufWriter<File>),
}

/// Plain bytes, or gzip (an `--in-place` fix of a compressed file stays compressed).
enum Encoder {
    Plain(BufWriter<File>),
    Gzip(flate2::write::GzEncoder<BufWriter<File>>),
}

impl AtomicFile {
    /// Start writing `target` (its directory must exist). `gzip` compresses what is written.
    pub(super) fn create(
        target: &Path,
        gzip: bool,
        durability: Durability,
    ) -> io::Result<AtomicFile> {
        let existing = fs::metadata(target).ok();
        if let Some(m) = &existing
            && !m.is_file()
        {
            if m.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            let f = fs::OpenOptions::new().write(true).open(target)?;
            return Ok(AtomicFile {
                inner: Some(Inner::Direct(BufWriter::with_capacity(1 << 16, f))),
                target: target.to_path_buf(),
            });
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        // A missing directory, said plainly.
        fs::metadata(dir)?;
        let name = target
            .file_name()
            .map_or_else(|| "out".into(), |n| n.to_string_lossy());
        let (file, path) = {
            let mut live = live();
            #[cfg(unix)]
            let mode = {
                use std::os::unix::fs::PermissionsExt;
                // As `File::create` would: 0666 less the umask.
                Permissions::from_mode(0o666)
            };
            let prefix = format!(".{name}.");
            let mut b = tempfile::Builder::new();
            b.prefix(&prefix).suffix(".tmp");
            #[cfg(unix)]
            b.permissions(mode);
            // tempfile's error names the temporary file: say only what went wrong.
            let made = b.tempfile_in(dir).map_err(|e| {
                let text = e.to_string();
                let what = text.split(" at path ").next().unwrap_or(&text);
                io::Error::new(e.kind(), what.to_string())
            });
            let (file, path) = made?.into_parts();
            live.push(path.to_path_buf());
            (file, path)
        };
        let file = BufWriter::with_capacity(1 << 16, file);
        let writer = if gzip {
            Encoder::Gzip(flate2::write::GzEncoder::new(
                file,
                flate2::Compression::default(),
            ))
        } else {
            Encoder::Plain(file)
        };
        Ok(AtomicFile {
            inner: Some(Inner::Temp {
                writer,
                path,
                keep: existing.map(|m| m.permissions()),
                durability,
            }),
            target: target.to_path_buf(),
        })
    }

    /// Give the file these permissions when it is put in place.
    pub(super) fn keep_permissions(&mut self, p: Permissions) {
        if let Some(Inner::Temp { keep, .. }) = &mut self.inner {
            *keep = Some(p);
        }
    }

    /// The file it writes.
    pub(super) fn target(&self) -> &Path {
        &self.target
    }

    /// Finish the file and put it in place of the target.
    pub(super) fn commit(mut self) -> io::Result<()> {
        match self.inner.take() {
            None => Ok(()),
            Some(Inner::Direct(mut w)) => w.flush(),
            Some(Inner::Temp {
                writer,
                path,
                keep,
                durability,
            }) => {
                let file = match writer {
                    Encoder::Plain(w) => w.into_inner().map_err(|e| e.into_error())?,
                    Encoder::Gzip(g) => g.finish()?.into_inner().map_err(|e| e.into_error())?,
                };
                if let Some(p) = keep {
                    // The target's permissions are kept (the temporary file's are private).
                    let _ = file.set_permissions(p);
                }
                if durability == Durability::Synced {
                    file.sync_all()?;
                }
                drop(file);
                let mut live = live();
                let temp = path.to_path_buf();
                live.retain(|p| *p != temp);
                match path.persist(&self.target) {
                    Ok(()) => Ok(()),
                    Err(e) => {
                        // Dropping the returned path removes the temporary file.
                        drop(e.path);
                        Err(e.error)
                    }
                }
            }
        }
    }
}

impl AtomicFile {
    /// What the bytes go to: the encoder of the temporary file, or the device.
    fn writer(&mut self) -> io::Result<&mut dyn Write> {
        match &mut self.inner {
            Some(Inner::Temp {
                writer: Encoder::Plain(w),
                ..
            })
            | Some(Inner::Direct(w)) => Ok(w),
            Some(Inner::Temp {
                writer: Encoder::Gzip(g),
                ..
            }) => Ok(g),
            None => Err(io::Error::other("output already closed")),
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer()?.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        // The temporary file is flushed when committed; nothing reads it before.
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(Inner::Temp { path, .. }) = self.inner.take() {
            let mut live = live();
            let temp = path.to_path_buf();
            live.retain(|p| *p != temp);
            // Dropping `path` removes the file.
            drop(path);
        }
    }
}

/// The output of a command: standard output, or a file written atomically.
pub(super) enum Output {
    Stdout(Box<dyn Write>),
    File(AtomicFile),
}

impl Output {
    /// The file `-o` names, else standard output.
    pub(super) fn open(path: Option<&Path>) -> anyhow::Result<Output> {
        Ok(match path {
            Some(p) => Output::File(
                AtomicFile::create(p, false, Durability::Renamed)
                    .map_err(|e| anyhow::Error::new(e).context(Unwritten(shown(p))))?,
            ),
            None if stdout_closed() => {
                return Err(anyhow::Error::new(io::Error::other(
                    "it was closed when pdn started (`>&-`): name a file with -o",
                ))
                .context(Unwritten("standard output".into())));
            }
            None => Output::Stdout(common::stdout()),
        })
    }

    /// Finish the output: flush standard output, or put the file in place.
    pub(super) fn finish(self) -> anyhow::Result<()> {
        match self {
            Output::Stdout(mut w) => w
                .flush()
                .map_err(|e| anyhow::Error::new(e).context(Unwritten("standard output".into()))),
            Output::File(f) => {
                let name = shown(f.target());
                f.commit()
                    .map_err(|e| anyhow::Error::new(e).context(Unwritten(name)))
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(f) => f.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(f) => f.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(f) => f.flush(),
        }
    }
}

/// A path as shown on the terminal.
pub(super) fn shown(p: &Path) -> String {
    pdn::app::terminal::escape(&p.display().to_string()).into_owned()
}
