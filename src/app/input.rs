//! Inputs of every command and of the Python package: files, directories (recursively,
//! `*.pdn` in any case, also `*.pdn.gz`), `-` for standard input; gzip-compressed and
//! UTF-16 data read transparently, binary data refused.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::syntax::utf16;

/// Where an input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

/// One input to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The name used in output (`-` for standard input).
    pub name: String,
    /// Where it comes from.
    pub source: Source,
    /// Size in bytes, when known (for the progress bar).
    pub size: Option<u64>,
    /// A file's path below the PATH it was found under (its name, for a file named on the
    /// command line): where `--out-dir` writes its output.
    pub rel: Option<PathBuf>,
    /// The file as it was when it was opened to be read (`--in-place` replaces it only if
    /// it is still that file, unchanged).
    pub stamp: OnceLock<Stamp>,
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
    pub inputs: Vec<Input>,
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
        out.inputs.push(stdin());
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
                out.inputs.push(stdin());
            }
            continue;
        }
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => walk(p, &m, &mut seen, &mut walked, &mut out),
            Ok(m) if readable_kind(&m) => add(
                &mut out,
                &mut seen,
                Identity::of(&m),
                p.clone(),
                p.file_name().map(PathBuf::from),
                m.is_file().then_some(m.len()),
            ),
            Ok(m) => out.errors.push((
                p.display().to_string(),
                io::Error::other(format!("{}: not read", kind_name(&m))),
            )),
            Err(e) => out.errors.push((p.display().to_string(), e)),
        }
    }
    out
}

/// One input, unless its file is an input already (then a note).
fn add(
    out: &mut Expanded,
    seen: &mut HashMap<Identity, usize>,
    id: Identity,
    path: PathBuf,
    rel: Option<PathBuf>,
    size: Option<u64>,
) {
    let name = path.display().to_string();
    match seen.get(&id) {
        Some(&k) => {
            let first = &out.inputs[k].name;
            out.notes.push(if *first == name {
                format!("{name} is named twice: read once")
            } else {
                format!("{name} is the file {first} again: read once")
            });
        }
        None => {
            seen.insert(id, out.inputs.len());
            out.inputs.push(Input {
                name,
                source: Source::File(path),
                size,
                rel,
                stamp: OnceLock::new(),
            });
        }
    }
}

fn stdin() -> Input {
    Input {
        name: "-".to_string(),
        source: Source::Stdin,
        size: None,
        rel: None,
        stamp: OnceLock::new(),
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
    // At once: the list of a walk of 100,000 files grown by doubling is copied at each step
    // (the old and the new list both held).
    out.inputs.reserve(found.len());
    for (p, size, id) in found {
        let rel = p.strip_prefix(root).ok().map(Path::to_path_buf);
        add(out, seen, id, p, rel, Some(size));
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
pub fn open(input: &Input) -> io::Result<Box<dyn Read + Send>> {
    let raw: Box<dyn Read + Send> = match &input.source {
        Source::Stdin => Box::new(Fused {
            inner: io::stdin(),
            ended: false,
        }),
        Source::File(p) => {
            let f = File::open(p)?;
            if let Ok(m) = f.metadata() {
                let _ = input.stamp.set(Stamp::of(&m));
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
            let input = Input {
                name: name.to_string(),
                source: Source::File(path),
                size: None,
                rel: None,
                stamp: OnceLock::new(),
            };
            let mut reader = open(&input).unwrap();
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

    #[test]
    fn pdn_names() {
        assert!(is_pdn_name(Path::new("a/B.PDN")));
        assert!(is_pdn_name(Path::new("x.pdn.gz")));
        assert!(!is_pdn_name(Path::new("NKCS06.txt")));
    }
}
