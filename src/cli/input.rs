//! Inputs of every command: files, directories (recursively, `*.pdn` in any case, also
//! `*.pdn.gz`), `-` for standard input; gzip-compressed data read transparently.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use pdn::syntax::utf16;

/// Where an input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Source {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

/// One input to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Input {
    /// The name used in output (`-` for standard input).
    pub name: String,
    /// Where it comes from.
    pub source: Source,
    /// Size in bytes, when known (for the progress bar).
    pub size: Option<u64>,
    /// A file's path below the PATH it was found under (its name, for a file named on the
    /// command line): where `--out-dir` writes its output.
    pub rel: Option<PathBuf>,
}

/// Expand the command line's paths into inputs, in order; directories are walked
/// recursively in name order. Paths that cannot be read are returned as errors.
pub(super) fn expand(paths: &[PathBuf]) -> (Vec<Input>, Vec<(String, io::Error)>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    if paths.is_empty() {
        inputs.push(stdin());
        return (inputs, errors);
    }
    for p in paths {
        if p.as_os_str() == "-" {
            inputs.push(stdin());
            continue;
        }
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => walk(p, &mut inputs, &mut errors),
            Ok(m) => inputs.push(Input {
                name: p.display().to_string(),
                source: Source::File(p.clone()),
                size: Some(m.len()),
                rel: p.file_name().map(PathBuf::from),
            }),
            Err(e) => errors.push((p.display().to_string(), e)),
        }
    }
    (inputs, errors)
}

fn stdin() -> Input {
    Input {
        name: "-".to_string(),
        source: Source::Stdin,
        size: None,
        rel: None,
    }
}

/// True for the names a directory walk picks up: `*.pdn` and `*.pdn.gz`, any case.
pub(super) fn is_pdn_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".pdn") || name.ends_with(".pdn.gz")
}

fn walk(root: &Path, inputs: &mut Vec<Input>, errors: &mut Vec<(String, io::Error)>) {
    // Iterative, so that deep trees cannot overflow the stack.
    let mut stack = vec![root.to_path_buf()];
    let mut found = Vec::new();
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                errors.push((dir.display().to_string(), e));
                continue;
            }
        };
        let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        names.sort();
        // Reverse so that the stack pops in name order.
        for p in names.into_iter().rev() {
            match std::fs::metadata(&p) {
                Ok(m) if m.is_dir() => stack.push(p),
                Ok(m) if is_pdn_name(&p) => found.push((p, m.len())),
                Ok(_) => {}
                Err(e) => errors.push((p.display().to_string(), e)),
            }
        }
    }
    found.sort();
    for (p, size) in found {
        inputs.push(Input {
            name: p.display().to_string(),
            rel: p.strip_prefix(root).ok().map(Path::to_path_buf),
            source: Source::File(p),
            size: Some(size),
        });
    }
}

/// The command line's inputs, for the pipeline.
impl super::pipeline::Inputs for Vec<Input> {
    fn count(&self) -> usize {
        self.len()
    }
    fn open(&self, i: usize) -> io::Result<Box<dyn Read + Send>> {
        open(&self[i])
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
pub(super) fn is_gzip(path: &Path) -> bool {
    let mut head = [0u8; 2];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == [0x1f, 0x8b]
}

/// Open an input for reading, decompressing gzip data (recognised by its magic bytes) and
/// turning UTF-16 text into UTF-8 (recognised by `pdn::syntax::utf16::detect`).
pub(super) fn open(input: &Input) -> io::Result<Box<dyn Read + Send>> {
    let raw: Box<dyn Read + Send> = match &input.source {
        Source::Stdin if super::output::stdin_closed() => {
            return Err(io::Error::other(
                "standard input was closed when pdn started (`<&-`)",
            ));
        }
        Source::Stdin => Box::new(Fused {
            inner: io::stdin(),
            ended: false,
        }),
        Source::File(p) => Box::new(File::open(p)?),
    };
    let mut buffered = BufReader::with_capacity(1 << 16, raw);
    let head = buffered.fill_buf()?;
    if head.len() >= 2 && head[0] == 0x1f && head[1] == 0x8b {
        let mut inner =
            BufReader::with_capacity(1 << 16, flate2::read::MultiGzDecoder::new(buffered));
        let head = inner.fill_buf()?;
        return Ok(match utf16::detect(head) {
            Some(order) => Box::new(utf16::Utf16Reader::new(inner, order)),
            None => Box::new(inner),
        });
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
