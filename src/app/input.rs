//! Inputs of every command and of the Python package: files, directories (recursively,
//! `*.pdn` in any case, also `*.pdn.gz`), `-` for standard input; gzip-compressed and
//! UTF-16 data read transparently, binary data refused.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::syntax::utf16;

/// Where an input comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source<'a> {
    /// Standard input.
    Stdin,
    /// A file.
    File(&'a Path),
}

/// The inputs of a run, in order, kept compact: a run over 100,000 files holds one list of
/// path bytes with their ends (two allocations), not a name, a path and a relative path
/// allocated for each file. What each input is — its name as shown, its path, its path
/// below the directory it was found under, its size — is made from these when asked for
/// ([`InputRef`]). The stamp of each file as it is read is kept only when a run asks for it
/// ([`InputList::keep_stamps`], `--in-place`).
#[derive(Clone, Debug, Default)]
pub struct InputList {
    /// The files' paths (their bytes), one after the other.
    #[cfg(unix)]
    bytes: Vec<u8>,
    #[cfg(not(unix))]
    paths: Vec<PathBuf>,
    /// One per input, in order.
    entries: Vec<Entry>,
    /// The rare relative paths that are not the end of their input's path (by input).
    odd_rels: Vec<(usize, PathBuf)>,
    /// Each input's stamp as it was read, when kept.
    stamps: OnceLock<Box<[OnceLock<Stamp>]>>,
}

/// What [`InputList`] keeps of one input.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Where its path ends in the list's bytes (it starts where the one before ends).
    end: usize,
    /// Its size in bytes, when known ([`NO_SIZE`] if not).
    size: u64,
    /// Where its relative path starts in its path ([`NO_REL`]: it has none; [`ODD_REL`]: it
    /// is kept apart).
    rel: u32,
    stdin: bool,
}

const NO_SIZE: u64 = u64::MAX;
const NO_REL: u32 = u32::MAX;
const ODD_REL: u32 = u32::MAX - 1;

impl InputList {
    /// An empty list.
    pub fn new() -> InputList {
        InputList::default()
    }

    /// A list of the one file `path` (no size, no relative path).
    pub fn of_file(path: &Path) -> InputList {
        let mut list = InputList::new();
        list.push_file(path, None, None);
        list
    }

    /// The number of inputs.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if there is no input.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Input `i` (0-based).
    ///
    /// # Panics
    ///
    /// If there is no input `i` (a caller's error, not an input's).
    pub fn get(&self, i: usize) -> InputRef<'_> {
        assert!(i < self.entries.len(), "no input {i}");
        InputRef { list: self, i }
    }

    /// The inputs, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = InputRef<'_>> + '_ {
        (0..self.len()).map(|i| InputRef { list: self, i })
    }

    /// Input `i`'s name as shown (see [`InputRef::name`]).
    pub fn name(&self, i: usize) -> Cow<'_, str> {
        self.get(i).name()
    }

    /// Add standard input.
    pub fn push_stdin(&mut self) {
        let end = self.path_end();
        self.entries.push(Entry {
            end,
            size: NO_SIZE,
            rel: NO_REL,
            stdin: true,
        });
    }

    /// Add the file `path`, with its path below the directory it was found under (or its
    /// name) and its size when known.
    pub fn push_file(&mut self, path: &Path, rel: Option<&Path>, size: Option<u64>) {
        let index = self.entries.len();
        let rel = match rel {
            None => NO_REL,
            Some(r) => match rel_start(path, r) {
                Some(start) => start,
                None => {
                    self.odd_rels.push((index, r.to_path_buf()));
                    ODD_REL
                }
            },
        };
        self.push_path(path);
        let end = self.path_end();
        self.entries.push(Entry {
            end,
            size: size.filter(|&s| s != NO_SIZE).unwrap_or(NO_SIZE),
            rel,
            stdin: false,
        });
    }

    /// Give back what was reserved beyond the inputs.
    pub fn shrink(&mut self) {
        #[cfg(unix)]
        self.bytes.shrink_to_fit();
        #[cfg(not(unix))]
        self.paths.shrink_to_fit();
        self.entries.shrink_to_fit();
    }

    /// Keep each file's stamp as it is opened from now on ([`InputRef::stamp`]): for a run
    /// that replaces its inputs (`--in-place`) only if they are unchanged since read.
    pub fn keep_stamps(&self) {
        self.stamps
            .get_or_init(|| (0..self.len()).map(|_| OnceLock::new()).collect());
    }

    #[cfg(unix)]
    fn push_path(&mut self, p: &Path) {
        use std::os::unix::ffi::OsStrExt;
        self.bytes.extend_from_slice(p.as_os_str().as_bytes());
    }

    #[cfg(not(unix))]
    fn push_path(&mut self, p: &Path) {
        self.paths.push(p.to_path_buf());
    }

    #[cfg(unix)]
    fn path_end(&self) -> usize {
        self.bytes.len()
    }

    #[cfg(not(unix))]
    fn path_end(&self) -> usize {
        self.paths.len()
    }

    /// The path of input `i` (empty for standard input).
    #[cfg(unix)]
    fn path_of(&self, i: usize) -> &Path {
        use std::os::unix::ffi::OsStrExt;
        let start = if i == 0 { 0 } else { self.entries[i - 1].end };
        Path::new(std::ffi::OsStr::from_bytes(
            &self.bytes[start..self.entries[i].end],
        ))
    }

    #[cfg(not(unix))]
    fn path_of(&self, i: usize) -> &Path {
        let start = if i == 0 { 0 } else { self.entries[i - 1].end };
        if self.entries[i].end == start {
            return Path::new("");
        }
        &self.paths[start]
    }
}

/// Where `rel` starts in `path`, when it is the end of `path` byte for byte (as the path of
/// a file below the directory it was found under is); `None` otherwise (then it is kept
/// apart).
#[cfg(unix)]
fn rel_start(path: &Path, rel: &Path) -> Option<u32> {
    let (p, r) = (
        path.as_os_str().as_encoded_bytes(),
        rel.as_os_str().as_encoded_bytes(),
    );
    let start = p.len().checked_sub(r.len())?;
    (p.ends_with(r) && start < ODD_REL as usize).then_some(start as u32)
}

/// Kept apart where paths are not bytes.
#[cfg(not(unix))]
fn rel_start(_: &Path, _: &Path) -> Option<u32> {
    None
}

/// The end of `path` from byte `start`.
#[cfg(unix)]
fn path_from(path: &Path, start: usize) -> &Path {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    Path::new(std::ffi::OsStr::from_bytes(
        bytes.get(start..).unwrap_or_default(),
    ))
}

#[cfg(not(unix))]
fn path_from(path: &Path, _: usize) -> &Path {
    path
}

/// One input of an [`InputList`].
#[derive(Clone, Copy, Debug)]
pub struct InputRef<'a> {
    list: &'a InputList,
    i: usize,
}

impl<'a> InputRef<'a> {
    /// Its place in the list (0-based).
    pub fn index(&self) -> usize {
        self.i
    }

    fn entry(&self) -> &'a Entry {
        &self.list.entries[self.i]
    }

    /// Where it comes from.
    pub fn source(&self) -> Source<'a> {
        match self.path() {
            Some(p) => Source::File(p),
            None => Source::Stdin,
        }
    }

    /// True for standard input.
    pub fn is_stdin(&self) -> bool {
        self.entry().stdin
    }

    /// The file's path; `None` for standard input.
    pub fn path(&self) -> Option<&'a Path> {
        (!self.is_stdin()).then(|| self.list.path_of(self.i))
    }

    /// The name used in output: the path as displayed (`-` for standard input).
    pub fn name(&self) -> Cow<'a, str> {
        match self.path() {
            None => Cow::Borrowed("-"),
            #[cfg(unix)]
            Some(p) => {
                use std::os::unix::ffi::OsStrExt;
                String::from_utf8_lossy(p.as_os_str().as_bytes())
            }
            #[cfg(not(unix))]
            Some(p) => p.to_string_lossy(),
        }
    }

    /// Size in bytes, when known (for the progress bar).
    pub fn size(&self) -> Option<u64> {
        Some(self.entry().size).filter(|&s| s != NO_SIZE)
    }

    /// A file's path below the PATH it was found under (its name, for a file named on the
    /// command line): where `--out-dir` writes its output.
    pub fn rel(&self) -> Option<&'a Path> {
        let path = self.path()?;
        match self.entry().rel {
            NO_REL => None,
            ODD_REL => {
                let odd = &self.list.odd_rels;
                // Pushed in input order.
                let k = odd.binary_search_by_key(&self.i, |(k, _)| *k).ok()?;
                Some(odd[k].1.as_path())
            }
            start => Some(path_from(path, start as usize)),
        }
    }

    /// The file as it was when it was opened to be read, if the list keeps stamps
    /// ([`InputList::keep_stamps`]) and it was opened.
    pub fn stamp(&self) -> Option<Stamp> {
        self.list.stamps.get()?.get(self.i)?.get().copied()
    }

    fn set_stamp(&self, stamp: Stamp) {
        if let Some(s) = self.list.stamps.get().and_then(|s| s.get(self.i)) {
            let _ = s.set(stamp);
        }
    }
}

/// What a file was when it was read: which file (device and inode), its size and the time
/// of its last change. A file replaced or written to since has another stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    id: Identity,
    size: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    /// The stamp of a file of metadata `m`.
    pub fn of(m: &std::fs::Metadata) -> Stamp {
        Stamp {
            id: Identity::of(m),
            size: m.len(),
            modified: m.modified().ok(),
        }
    }
}

/// What the command line's paths name: the inputs in order, the paths that could not be read
/// (with why), and notes on what was passed over (a file named twice, a named pipe in a
/// directory, a link back to a directory already walked, a directory without PDN files).
#[derive(Debug, Default)]
pub struct Expanded {
    /// The inputs, in order.
    pub inputs: InputList,
    /// The paths that could not be read, with why.
    pub errors: Vec<(String, io::Error)>,
    /// What was passed over, in words.
    pub notes: Vec<String>,
}

/// A file's identity: its device and inode. Two paths to one file (`a.pdn ./a.pdn`, `d
/// d/a.pdn`, a link) give one input, so that no file is read, or written, twice in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    dev: u64,
    ino: u64,
}

impl Identity {
    #[cfg(unix)]
    /// The identity of a file of metadata `m`.
    pub fn of(m: &std::fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity {
            dev: m.dev(),
            ino: m.ino(),
        }
    }

    #[cfg(not(unix))]
    /// No identity where there is no inode.
    pub fn of(_: &std::fs::Metadata) -> Identity {
        Identity { dev: 0, ino: 0 }
    }
}

/// True for a regular file, or for what is read as one when named on the command line (a
/// named pipe, a character device such as `/dev/stdin`).
fn readable_kind(m: &std::fs::Metadata) -> bool {
    if m.is_file() {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        t.is_fifo() || t.is_char_device() || t.is_socket()
    }
    #[cfg(not(unix))]
    false
}

/// What a thing that is neither a file nor a directory is, in words.
fn kind_name(m: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    let _ = m;
    "not a regular file"
}

/// Expand the command line's paths into inputs, in order; directories are walked
/// recursively in name order. Each file is an input once, however often it is reached (by
/// identity: device and inode). A directory walk follows links, remembers the directories
/// it has read (a link back to one is noted once and skipped: no cycle), and reads only
/// regular files (a named pipe or a device found in a directory could block the run, and
/// is noted and skipped; named on the command line, it is read).
pub fn expand(paths: &[PathBuf]) -> Expanded {
    let mut out = Expanded::default();
    if paths.is_empty() {
        out.inputs.push_stdin();
        return out;
    }
    let mut seen: HashMap<Identity, usize> = HashMap::new();
    let mut walked: HashMap<Identity, PathBuf> = HashMap::new();
    let mut stdin_named = false;
    for p in paths {
        if p.as_os_str() == "-" {
            if stdin_named {
                out.notes
                    .push("- (standard input) is named twice: read once".to_string());
            } else {
                stdin_named = true;
                out.inputs.push_stdin();
            }
            continue;
        }
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => walk(p, &m, &mut seen, &mut walked, &mut out),
            Ok(m) if readable_kind(&m) => add(
                &mut out,
                &mut seen,
                Identity::of(&m),
                p,
                p.file_name().map(Path::new),
                m.is_file().then_some(m.len()),
            ),
            Ok(m) => out.errors.push((
                p.display().to_string(),
                io::Error::other(format!("{}: not read", kind_name(&m))),
            )),
            Err(e) => out.errors.push((p.display().to_string(), e)),
        }
    }
    out.inputs.shrink();
    out
}

/// One input, unless its file is an input already (then a note).
fn add(
    out: &mut Expanded,
    seen: &mut HashMap<Identity, usize>,
    id: Identity,
    path: &Path,
    rel: Option<&Path>,
    size: Option<u64>,
) {
    match seen.get(&id) {
        Some(&k) => {
            let name = path.display().to_string();
            let first = out.inputs.name(k);
            out.notes.push(if *first == name {
                format!("{name} is named twice: read once")
            } else {
                format!("{name} is the file {first} again: read once")
            });
        }
        None => {
            seen.insert(id, out.inputs.len());
            out.inputs.push_file(path, rel, size);
        }
    }
}

/// True for the names a directory walk picks up: `*.pdn` and `*.pdn.gz`, any case.
pub fn is_pdn_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".pdn") || name.ends_with(".pdn.gz")
}

/// The PDN files below `root` (whose metadata is `meta`), in name order; `walked` holds
/// every directory read so far, by identity.
fn walk(
    root: &Path,
    meta: &std::fs::Metadata,
    seen: &mut HashMap<Identity, usize>,
    walked: &mut HashMap<Identity, PathBuf>,
    out: &mut Expanded,
) {
    if let Some(first) = walked.get(&Identity::of(meta)) {
        out.notes.push(format!(
            "{}: the directory {} again: read once",
            root.display(),
            first.display()
        ));
        return;
    }
    walked.insert(Identity::of(meta), root.to_path_buf());
    // Iterative, so that deep trees cannot overflow the stack.
    let mut stack = vec![root.to_path_buf()];
    let mut found = Vec::new();
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                out.errors.push((dir.display().to_string(), e));
                continue;
            }
        };
        let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        names.sort();
        // Reverse so that the stack pops in name order.
        for p in names.into_iter().rev() {
            match std::fs::metadata(&p) {
                Ok(m) if m.is_dir() => match walked.get(&Identity::of(&m)) {
                    // A link back to a directory already read (its own parent: a cycle).
                    Some(first) => out.notes.push(format!(
                        "{}: a link to {}, already read: skipped",
                        p.display(),
                        first.display()
                    )),
                    None => {
                        walked.insert(Identity::of(&m), p.clone());
                        stack.push(p);
                    }
                },
                Ok(m) if m.is_file() && is_pdn_name(&p) => {
                    found.push((p, m.len(), Identity::of(&m)));
                }
                Ok(m) if is_pdn_name(&p) => out.notes.push(format!(
                    "{}: {}, not a regular file: skipped (name it on the command line to read it)",
                    p.display(),
                    kind_name(&m)
                )),
                Ok(_) => {}
                // A broken link or a file gone: an error only for a name the walk reads.
                Err(e) if is_pdn_name(&p) => out.errors.push((p.display().to_string(), e)),
                Err(_) => {}
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    if found.is_empty() {
        out.notes.push(format!(
            "{}: no PDN file in it (*.pdn, *.pdn.gz)",
            root.display()
        ));
    }
    for (p, size, id) in found {
        add(out, seen, id, &p, p.strip_prefix(root).ok(), Some(size));
    }
}

/// A reader that ends for good at its first end of file. A terminal ends a read at each
/// Ctrl-D and goes on after it: without this, a reader that asks again after the end (the
/// buffered layers above do) would wait for a second Ctrl-D.
struct Fused<R> {
    inner: R,
    ended: bool,
}

impl<R: Read> Read for Fused<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended || buf.is_empty() {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        self.ended = n == 0;
        Ok(n)
    }
}

/// True if a file starts with the gzip magic bytes.
pub fn is_gzip(path: &Path) -> bool {
    let mut head = [0u8; 2];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == [0x1f, 0x8b]
}

/// Open an input for reading, decompressing gzip data (recognised by its magic bytes) and
/// turning UTF-16 text into UTF-8 (recognised by [`utf16::detect`]).
pub fn open(input: InputRef<'_>) -> io::Result<Box<dyn Read + Send>> {
    let raw: Box<dyn Read + Send> = match input.source() {
        Source::Stdin => Box::new(Fused {
            inner: io::stdin(),
            ended: false,
        }),
        Source::File(p) => {
            let f = File::open(p)?;
            if let Ok(m) = f.metadata() {
                input.set_stamp(Stamp::of(&m));
            }
            Box::new(f)
        }
    };
    let mut buffered = BufReader::with_capacity(1 << 16, raw);
    let head = buffered.fill_buf()?;
    if head.len() >= 2 && head[0] == 0x1f && head[1] == 0x8b {
        let mut inner =
            BufReader::with_capacity(1 << 16, flate2::read::MultiGzDecoder::new(buffered));
        let head = inner.fill_buf()?;
        return Ok(match utf16::detect(head) {
            Some(order) => Box::new(utf16::Utf16Reader::new(inner, order)),
            None => {
                not_binary(head)?;
                Box::new(inner)
            }
        });
    }
    if utf16::detect(head).is_none() {
        not_binary(head)?;
    }
    Ok(match utf16::detect(head) {
        Some(order) => Box::new(utf16::Utf16Reader::new(buffered, order)),
        // The bytes looked at, then the input itself: the reader reads into its own buffer,
        // with no second copy through this one.
        None => {
            let head = io::Cursor::new(head.to_vec());
            Box::new(head.chain(buffered.into_inner()))
        }
    })
}

/// An error if the first bytes of an input are binary data rather than text: more than one
/// in twenty of its first 8 KiB (trailing NUL padding aside) are control bytes that no text
/// holds (C0 controls other than tab, line feed, vertical tab, form feed, carriage return,
/// escape and the DOS end-of-file mark). Such a file (an executable, an image, an archive
/// named `.pdn`) is one unreadable input, not thousands of findings.
fn not_binary(head: &[u8]) -> io::Result<()> {
    let head = &head[..head.len().min(8192)];
    let end = head.iter().rposition(|&b| b != 0).map_or(0, |k| k + 1);
    let head = &head[..end];
    let odd = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1a | 0x1b))
        .count();
    if head.len() >= 16 && odd * 20 > head.len() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "not a text file: {}% of its first {} bytes are control bytes (binary data)",
                odd * 100 / head.len(),
                head.len()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fused_ends_for_good() {
        // A terminal: a line, an end (Ctrl-D), then more that must not be read.
        struct Terminal(Vec<&'static [u8]>);
        impl Read for Terminal {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let chunk = self.0.remove(0);
                buf[..chunk.len()].copy_from_slice(chunk);
                Ok(chunk.len())
            }
        }
        let mut f = Fused {
            inner: Terminal(vec![b"1. 32-28 *\n", b"", b"more"]),
            ended: false,
        };
        let mut all = Vec::new();
        f.read_to_end(&mut all).unwrap();
        assert_eq!(all, b"1. 32-28 *\n");
        assert_eq!(f.read(&mut [0; 8]).unwrap(), 0);
    }

    /// An input longer than the bytes looked at to tell its encoding reads back whole, in
    /// order, whatever the sizes of the reads (plain, gzip, UTF-16).
    #[test]
    fn an_input_reads_back_whole_past_the_bytes_looked_at() {
        let text: Vec<u8> = (0..200_000u32)
            .flat_map(|i| format!("{}. {}-{} ", i, i % 50 + 1, (i + 7) % 50 + 1).into_bytes())
            .take(300_000)
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &text).unwrap();
        let mut utf16 = vec![0xff, 0xfe];
        utf16.extend(text.iter().flat_map(|&b| [b, 0]));
        for (name, bytes) in [
            ("plain.pdn", text.clone()),
            ("gz.pdn.gz", gz.finish().unwrap()),
            ("utf16.pdn", utf16),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let input = InputList::of_file(&path);
            let mut reader = open(input.get(0)).unwrap();
            let mut back = Vec::new();
            let mut chunk = vec![0u8; 7_919];
            loop {
                let n = reader.read(&mut chunk).unwrap();
                if n == 0 {
                    break;
                }
                back.extend_from_slice(&chunk[..n]);
            }
            assert!(
                back == text,
                "{name}: {} bytes back of {}",
                back.len(),
                text.len()
            );
        }
    }

    /// Each input gives back what was pushed: its name, path, relative path and size,
    /// standard input among the files, a path that is no UTF-8, a relative path that is not
    /// the end of its path; stamps only once kept.
    #[test]
    fn a_list_gives_back_each_input_as_pushed() {
        let mut list = InputList::new();
        list.push_file(Path::new("d/a/x.pdn"), Some(Path::new("a/x.pdn")), Some(12));
        list.push_stdin();
        list.push_file(Path::new("y.pdn"), None, None);
        list.push_file(Path::new("d/./z.pdn"), Some(Path::new("z2.pdn")), Some(0));
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let odd = Path::new(std::ffi::OsStr::from_bytes(b"d/J\xe9.pdn"));
            list.push_file(
                odd,
                Some(Path::new(std::ffi::OsStr::from_bytes(b"J\xe9.pdn"))),
                None,
            );
        }
        list.shrink();
        let got: Vec<_> = list
            .iter()
            .map(|i| {
                (
                    i.index(),
                    i.name().into_owned(),
                    i.path().map(Path::to_path_buf),
                    i.rel().map(Path::to_path_buf),
                    i.size(),
                    i.is_stdin(),
                )
            })
            .collect();
        let p = |s: &str| Some(PathBuf::from(s));
        assert_eq!(
            got[0],
            (
                0,
                "d/a/x.pdn".into(),
                p("d/a/x.pdn"),
                p("a/x.pdn"),
                Some(12),
                false
            )
        );
        assert_eq!(got[1], (1, "-".into(), None, None, None, true));
        assert_eq!(got[2], (2, "y.pdn".into(), p("y.pdn"), None, None, false));
        assert_eq!(
            got[3],
            (
                3,
                "d/./z.pdn".into(),
                p("d/./z.pdn"),
                p("z2.pdn"),
                Some(0),
                false
            )
        );
        assert_eq!(list.get(1).source(), Source::Stdin);
        assert_eq!(list.get(2).source(), Source::File(Path::new("y.pdn")));
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            assert_eq!(got.len(), 5);
            assert_eq!(got[4].1, "d/J\u{fffd}.pdn");
            assert_eq!(
                got[4].2.as_deref().map(|p| p.as_os_str().as_bytes()),
                Some(&b"d/J\xe9.pdn"[..])
            );
            assert_eq!(
                got[4].3.as_deref().map(|p| p.as_os_str().as_bytes()),
                Some(&b"J\xe9.pdn"[..])
            );
        }
        // Stamps: none until kept, then each file's as it is opened.
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.pdn");
        std::fs::write(&f, "1. 32-28 *\n").unwrap();
        let list = InputList::of_file(&f);
        drop(open(list.get(0)).unwrap());
        assert_eq!(list.get(0).stamp(), None);
        list.keep_stamps();
        drop(open(list.get(0)).unwrap());
        let m = std::fs::metadata(&f).unwrap();
        assert_eq!(list.get(0).stamp(), Some(Stamp::of(&m)));
    }

    /// A walk gives each file its path below the directory named, in name order.
    #[test]
    fn a_walk_lists_its_files_with_their_relative_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("b/c")).unwrap();
        for f in ["b/c/2.pdn", "b/1.PDN", "a.pdn", "n.txt"] {
            std::fs::write(dir.path().join(f), "1. 32-28 *\n").unwrap();
        }
        let root = dir.path().join("b").join("..");
        let e = expand(&[root.clone(), dir.path().join("a.pdn")]);
        let rels: Vec<_> = e
            .inputs
            .iter()
            .map(|i| i.rel().unwrap().to_path_buf())
            .collect();
        assert_eq!(
            rels,
            [
                Path::new("a.pdn"),
                Path::new("b/1.PDN"),
                Path::new("b/c/2.pdn")
            ]
        );
        let names: Vec<_> = e.inputs.iter().map(|i| i.name().into_owned()).collect();
        assert_eq!(names[1], root.join("b/1.PDN").display().to_string());
        assert_eq!(e.inputs.get(0).size(), Some(11));
        // The file named again: one input, and a note.
        assert_eq!(e.inputs.len(), 3);
        assert_eq!(e.notes.len(), 1, "{:?}", e.notes);
    }

    #[test]
    fn pdn_names() {
        assert!(is_pdn_name(Path::new("a/B.PDN")));
        assert!(is_pdn_name(Path::new("x.pdn.gz")));
        assert!(!is_pdn_name(Path::new("NKCS06.txt")));
    }
}
