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
    move |e| {
        // The output's own name when the error carries it (see `Named`).
        let what = named_output(&e).unwrap_or(what).to_string();
        anyhow::Error::new(e).context(Unwritten(what))
    }
}

/// The temporary files not yet renamed: removed by the signal handler. Held while a
/// temporary file is created or renamed, so that the handler sees each one either before
/// or after, never half done.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The scratch files and directories of a run that are not outputs (an index's sorting
/// runs, `explore`'s temporary index): removed by the signal handler as the temporary
/// outputs are, and by their [`Scratch`] guard otherwise.
static SCRATCH: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());

fn scratch() -> MutexGuard<'static, Vec<(PathBuf, bool)>> {
    SCRATCH.lock().unwrap_or_else(|e| e.into_inner())
}

/// A scratch file (or, if `dir`, a directory and all it holds) that the run removes when
/// the guard is dropped, and that a signal ending the run removes too. Its maker may remove
/// it first (as `tempfile` does on drop): removing what is gone is no error.
#[derive(Debug)]
pub(super) struct Scratch {
    path: PathBuf,
    dir: bool,
}

impl Scratch {
    /// Make a scratch file or directory with `make` and put it (`path` of what `make`
    /// returns) on the list of what a signal removes, as one step: a signal that comes while
    /// it is made waits, and finds it on the list.
    pub(super) fn made<T, E>(
        make: impl FnOnce() -> Result<T, E>,
        path: fn(&T) -> &Path,
        dir: bool,
    ) -> Result<(T, Scratch), E> {
        let mut list = scratch();
        let made = make()?;
        let path = path(&made).to_path_buf();
        list.push((path.clone(), dir));
        Ok((made, Scratch { path, dir }))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // (Removed under the lock, so that the handler sees it either there or gone.)
        let mut list = scratch();
        remove_scratch(&self.path, self.dir);
        if let Some(i) = list.iter().rposition(|(p, _)| *p == self.path) {
            list.swap_remove(i);
        }
    }
}

fn remove_scratch(path: &Path, dir: bool) {
    if !dir {
        let _ = fs::remove_file(path);
        return;
    }
    // A thread may still be making a file in it while it is emptied: a few tries.
    for _ in 0..4 {
        match fs::remove_dir_all(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => continue,
            _ => return,
        }
    }
}

/// Remove every temporary output still open and every scratch file, and keep the lists
/// locked: called once, just before the process exits on a signal.
fn remove_temporaries() {
    let guard = live();
    for p in guard.iter() {
        let _ = fs::remove_file(p);
    }
    let scratch = scratch();
    for (p, dir) in scratch.iter() {
        remove_scratch(p, *dir);
    }
    // Held until the process exits: no rename can follow, no scratch be made.
    std::mem::forget(guard);
    std::mem::forget(scratch);
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
        SIGHUP,
        SIGINT,
        SIGQUIT,
        SIGUSR1,
        SIGUSR2,
        SIGALRM,
        SIGTERM,
        libc::SIGSTKFLT,
        SIGXCPU,
        SIGXFSZ,
        SIGVTALRM,
        SIGPROF,
        SIGIO,
        libc::SIGPWR,
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

/// Standard input and output as the program found them, before the Rust runtime gave a
/// closed one `/dev/null` (so that no file opened later takes its number): bit 0 set if
/// standard input was closed, bit 1 if standard output was. Written once by
/// [`STREAMS_AT_START`], before `main`.
#[cfg(target_os = "linux")]
static CLOSED_AT_START: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Runs before `main` (an ELF constructor, as the C runtime calls them): the runtime's
/// replacement of a closed standard stream by `/dev/null` comes later, so this is the one
/// moment a closed stream can be told apart from a `/dev/null` the caller gave (a shell's
/// `>/dev/null`, Python's `subprocess.DEVNULL`, which opens it for reading and writing).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static STREAMS_AT_START: extern "C" fn() = {
    extern "C" fn probe() {
        let mut closed = 0;
        for fd in 0..=1 {
            // SAFETY: fcntl F_GETFL only reads the flags of a descriptor; -1 (EBADF) means
            // it is not open.
            if unsafe { libc::fcntl(fd, libc::F_GETFL) } == -1 {
                closed |= 1 << fd;
            }
        }
        CLOSED_AT_START.store(closed, std::sync::atomic::Ordering::Relaxed);
    }
    probe
};

/// Learn whether standard input or output was closed when the program started (`pdn …
/// >&-`). A closed standard output or input is remembered: writing the output there, or
/// reading games from there, is an error, not a silent success. On Linux the streams were
/// looked at before the runtime replaced a closed one (see [`STREAMS_AT_START`]); on other
/// systems a `/dev/null` open for reading and writing is taken for the runtime's
/// replacement, since a user's own `>/dev/null` or `</dev/null` is opened one way only.
/// Called once by `main`, first.
pub(crate) fn guard_standard_streams() {
    #[cfg(target_os = "linux")]
    let closed =
        |fd: i32| CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed) & (1 << fd) != 0;
    #[cfg(all(unix, not(target_os = "linux")))]
    let closed = |fd: i32| {
        // SAFETY: fstat fills the `stat` it is given; fcntl F_GETFL only reads the flags of
        // the descriptor. Neither changes anything.
        unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            flags == -1
                || (libc::fstat(fd, &mut st) == 0
                    && st.st_mode & libc::S_IFMT == libc::S_IFCHR
                    && st.st_rdev == libc::makedev(1, 3)
                    && flags & libc::O_ACCMODE == libc::O_RDWR)
        }
    };
    #[cfg(unix)]
    for fd in 0..=1 {
        if closed(fd) {
            let flag = if fd == 0 {
                &STDIN_CLOSED
            } else {
                &STDOUT_CLOSED
            };
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
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
    /// Also synced to disk before the rename, and the directory after it (`--in-place`: the
    /// original is replaced).
    Synced,
}

/// The file a path leads to once its links are followed: the path itself, or (for a link)
/// the file at the end of its chain, existing or not (a dangling link's target is where a
/// new file goes). Writing there replaces the file the link names and keeps the link.
pub(super) fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    // As the system does: at most 40 links in a chain.
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// How many other names (hard links) the regular file at `path` has: 0 when none, or when
/// it is missing or not a regular file.
fn other_links(path: &Path) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(path).map_or(0, |m| {
            if m.is_file() {
                m.nlink().saturating_sub(1)
            } else {
                0
            }
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        0
    }
}

/// True for a path that names a stream of the process or a device (`/dev/stdout`,
/// `/dev/null`, `/proc/self/fd/1`): written directly, never replaced.
fn is_device_path(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

/// A file being written: to a temporary file beside the target, renamed over it by
/// [`AtomicFile::commit`] (or, in two steps, [`AtomicFile::finish`] then
/// [`Finished::persist`]); dropped before, the temporary file goes. A link is followed: the
/// file it names is replaced, the link kept. A replaced file keeps its permissions, and its
/// owner and group as far as the system allows.
pub(super) struct AtomicFile {
    inner: Option<Inner>,
    /// The file replaced (links followed).
    target: PathBuf,
}

enum Inner {
    /// A temporary file to rename.
    Temp {
        writer: Encoder,
        path: TempPath,
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
        let direct = |path: &Path| -> io::Result<AtomicFile> {
            // Appending: a file behind `/dev/stdout` opened by the shell with `>>` is added
            // to, one opened with `>` was emptied by the shell.
            let f = fs::OpenOptions::new().append(true).open(path)?;
            Ok(AtomicFile {
                inner: Some(Inner::Direct(BufWriter::with_capacity(1 << 16, f))),
                target: path.to_path_buf(),
            })
        };
        if is_device_path(target) {
            return direct(target);
        }
        let target = resolve_links(target)?;
        if let Ok(m) = fs::metadata(&target)
            && !m.is_file()
        {
            if m.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            return direct(&target);
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
                durability,
            }),
            target,
        })
    }

    /// The file it writes (links followed).
    pub(super) fn target(&self) -> &Path {
        &self.target
    }

    /// Finish the file and put it in place of the target, which keeps its permissions,
    /// owner and group as far as the system allows.
    pub(super) fn commit(self) -> io::Result<()> {
        match self.finish()? {
            None => Ok(()),
            Some(done) => {
                if let Ok(m) = fs::metadata(&done.target) {
                    let _ = done.keep_owner(&m);
                    let _ = done.keep_mode(&m);
                }
                done.persist()
            }
        }
    }

    /// Write out what is buffered and close the temporary file (synced if asked), without
    /// putting it in place yet: `None` for a device or pipe, written directly.
    pub(super) fn finish(mut self) -> io::Result<Option<Finished>> {
        match self.inner.take() {
            None => Ok(None),
            Some(Inner::Direct(mut w)) => w.flush().map(|()| None),
            Some(Inner::Temp {
                writer,
                path,
                durability,
            }) => {
                // Until it is persisted or dropped, the temporary file stays on the list of
                // those the signal handler removes (`Finished` takes it off).
                let file = match writer {
                    Encoder::Plain(w) => w.into_inner().map_err(|e| e.into_error()),
                    Encoder::Gzip(g) => g
                        .finish()
                        .and_then(|w| w.into_inner().map_err(|e| e.into_error())),
                };
                let done = Finished {
                    file: None,
                    path: Some(path),
                    target: std::mem::take(&mut self.target),
                    durability,
                };
                let mut done = done;
                let file = file?;
                if durability == Durability::Synced {
                    file.sync_all()?;
                }
                done.file = Some(file);
                Ok(Some(done))
            }
        }
    }
}

/// A temporary file written whole, not yet put in place (see [`AtomicFile::finish`]);
/// dropped, it goes.
pub(super) struct Finished {
    file: Option<File>,
    path: Option<TempPath>,
    target: PathBuf,
    durability: Durability,
}

impl Finished {
    /// True if the bytes written are those `other` holds from its start (both read through
    /// a gzip decoder if `gzip`: a compressed file whose text would not change).
    pub(super) fn same_content(&self, other: &mut File, gzip: bool) -> io::Result<bool> {
        use std::io::{Read, Seek, SeekFrom};
        let Some(path) = &self.path else {
            return Ok(false);
        };
        other.seek(SeekFrom::Start(0))?;
        let mine = File::open(path)?;
        let (mut a, mut b): (Box<dyn Read + '_>, Box<dyn Read + '_>) = if gzip {
            (
                Box::new(flate2::read::MultiGzDecoder::new(io::BufReader::new(mine))),
                Box::new(flate2::read::MultiGzDecoder::new(io::BufReader::new(
                    &*other,
                ))),
            )
        } else {
            (Box::new(mine), Box::new(&*other))
        };
        let mut x = vec![0u8; 1 << 16];
        let mut y = vec![0u8; 1 << 16];
        loop {
            let n = read_full(&mut a, &mut x)?;
            let m = read_full(&mut b, &mut y)?;
            if n != m || x[..n] != y[..m] {
                return Ok(false);
            }
            if n == 0 {
                return Ok(true);
            }
        }
    }

    /// Give the new file the owner and group of `of` (the file it replaces). An error when
    /// the system does not allow it (a file of another user, a group one is not in).
    pub(super) fn keep_owner(&self, of: &fs::Metadata) -> io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let Some(file) = &self.file else {
                return Ok(());
            };
            let mine = file.metadata()?;
            if (mine.uid(), mine.gid()) != (of.uid(), of.gid()) {
                std::os::unix::fs::fchown(file, Some(of.uid()), Some(of.gid()))?;
            }
        }
        #[cfg(not(unix))]
        let _ = of;
        Ok(())
    }

    /// Give the new file the permissions of `of` (after its owner: a change of owner clears
    /// the set-user-ID and set-group-ID bits).
    pub(super) fn keep_mode(&self, of: &fs::Metadata) -> io::Result<()> {
        match &self.file {
            Some(file) => file.set_permissions(of.permissions()),
            None => Ok(()),
        }
    }

    /// Put the file in place of the target (renamed over it; with [`Durability::Synced`],
    /// the directory synced after).
    pub(super) fn persist(mut self) -> io::Result<()> {
        drop(self.file.take());
        let Some(path) = self.path.take() else {
            return Ok(());
        };
        let links = other_links(&self.target);
        let mut live = live();
        let temp = path.to_path_buf();
        live.retain(|p| *p != temp);
        match path.persist(&self.target) {
            Ok(()) => {
                drop(live);
                if self.durability == Durability::Synced {
                    sync_dir(&self.target);
                }
                if links > 0 {
                    // The file is replaced, not written over: its other names (hard links)
                    // still lead to the old text. Said, since the user may read it there.
                    let (s, keep) = if links == 1 {
                        ("", "it keeps")
                    } else {
                        ("s", "they keep")
                    };
                    super::progress::note(&format!(
                        "pdn: {}: {} had {links} other name{s} (hard link{s}): {keep} the text \
                         as it was; the new text is under this name only",
                        common::label(pdn::app::judge::diagnostic::Severity::Info),
                        shown(&self.target),
                    ));
                }
                Ok(())
            }
            Err(e) => {
                // Dropping the returned path removes the temporary file.
                drop(e.path);
                Err(e.error)
            }
        }
    }

    /// Put the file at `to`, which must not exist: never replaces anything (a backup).
    pub(super) fn persist_new(mut self, to: &Path) -> io::Result<()> {
        drop(self.file.take());
        let Some(path) = self.path.take() else {
            return Ok(());
        };
        let mut live = live();
        let temp = path.to_path_buf();
        live.retain(|p| *p != temp);
        match path.persist_noclobber(to) {
            Ok(()) => {
                drop(live);
                if self.durability == Durability::Synced {
                    sync_dir(to);
                }
                Ok(())
            }
            Err(e) => {
                drop(e.path);
                Err(e.error)
            }
        }
    }
}

impl Drop for Finished {
    fn drop(&mut self) {
        if let Some(path) = self.path.take() {
            let mut live = live();
            let temp = path.to_path_buf();
            live.retain(|p| *p != temp);
            // Dropping `path` removes the file.
            drop(path);
        }
    }
}

/// Read until `buf` is full or the source ends.
fn read_full(r: &mut dyn io::Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Sync the directory of `path` (a rename in it is then on disk); a failure changes nothing
/// of what was written.
fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
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
    /// The file `-o` names, else standard output, for text that its writer made safe for a
    /// terminal (the human formats).
    pub(super) fn open(path: Option<&Path>) -> anyhow::Result<Output> {
        Self::open_with(path, common::stdout)
    }

    /// The file `-o` names, else standard output, for data (PDN, CSV, JSON, Manoury, SVG,
    /// HTML): escaped on a terminal (see `common::stdout_data`).
    pub(super) fn open_data(path: Option<&Path>) -> anyhow::Result<Output> {
        Self::open_with(path, common::stdout_data)
    }

    fn open_with(path: Option<&Path>, stdout: fn() -> Box<dyn Write>) -> anyhow::Result<Output> {
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
            None => Output::Stdout(stdout()),
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

impl Output {
    /// The output as messages name it.
    fn name(&self) -> String {
        match self {
            Output::Stdout(_) => "standard output".to_string(),
            Output::File(f) => shown(f.target()),
        }
    }
}

/// An I/O error of a named output: the error of a write carries the name of what it was
/// written to, so that the message of a run stopped by it names the file (`cannot write
/// audit.jsonl: No space left on device`), whoever reports it.
#[derive(Debug)]
pub(super) struct Named {
    /// The output, as shown.
    pub name: String,
    source: io::Error,
}

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.source.fmt(f)
    }
}

impl std::error::Error for Named {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.source()
    }
}

/// `e`, of the output `name` (its kind kept: a closed pipe is still one).
fn named(name: String, e: io::Error) -> io::Error {
    if e.get_ref().is_some_and(|inner| inner.is::<Named>()) {
        return e;
    }
    io::Error::new(e.kind(), Named { name, source: e })
}

/// The output an error of a write names, if it does (see [`Named`]).
pub(super) fn named_output(e: &io::Error) -> Option<&str> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Named>())
        .map(|n| n.name.as_str())
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(f) => f.write(buf),
        };
        r.map_err(|e| named(self.name(), e))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let r = match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(f) => f.write_all(buf),
        };
        r.map_err(|e| named(self.name(), e))
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = match self {
            Output::Stdout(w) => w.flush(),
            Output::File(f) => f.flush(),
        };
        r.map_err(|e| named(self.name(), e))
    }
}

/// An I/O error in words for a message: escaped, and with what a user may not know of the
/// cause (a file size limit of the process: `ulimit -f`).
pub(super) fn describe(e: &io::Error) -> String {
    let mut s = pdn::app::write::terminal::escape(&e.to_string()).into_owned();
    if e.kind() == io::ErrorKind::FileTooLarge {
        s.push_str(" (the file size limit of this process: ulimit -f)");
    }
    s
}

/// A path as shown on the terminal.
pub(super) fn shown(p: &Path) -> String {
    pdn::app::write::terminal::escape(&p.display().to_string()).into_owned()
}
