//! One output per input file: `--out-dir DIR` (`fix`, `convert`) and `fix --in-place
//! [--backup SUFFIX]`; and the check, before any work, of every file a run writes. Each file
//! is written atomically (`super::output`); one that cannot be written is reported and
//! counted, and the others go on.
//!
//! `--out-dir` mirrors the inputs: an input's output is DIR joined with the input's path
//! below the PATH argument it was found under (a file named on the command line: its name),
//! with a trailing `.gz` dropped and the extension replaced by the format's. DIR is created
//! before any work (a DIR that is a file, or that cannot be created, stops the run there).
//! Standard input has no name to mirror: `-` with `--out-dir` or `--in-place` is a usage
//! error.
//!
//! **Every target is checked before any work** ([`check_targets`]): `-o`, `--audit`, the
//! files of `--out-dir` and the backups of `--in-place` may not name one file twice, nor an
//! input (only `--in-place` replaces its own inputs). Paths are compared as the files they
//! lead to: links followed, `.` and `..` resolved.
//!
//! `--in-place` replaces each input with its output (links followed: the file a link names
//! is replaced, the link kept), a gzip-compressed input by a compressed output, and only
//! when all of this holds, checked under an exclusive lock of the file (so that two runs
//! cannot replace one file at once):
//! - the input was read whole (no read error, no game over the size limit);
//! - it is still the file that was read, unchanged (same file, size and time of change: not
//!   replaced or written to by another run or program meanwhile);
//! - the output differs from it (a file that `fix` would not change is not rewritten, and
//!   needs no backup);
//! - with `--backup SUFFIX`, the original could be kept as FILE+SUFFIX, which must not
//!   exist: a backup never overwrites anything (the file is then left as it is);
//! - its owner and group can be kept (and its permissions are).
//!
//! The new file is synced to disk before the rename, and the directory after it.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::{self, File};
use std::io;
use std::path::{Component, Path, PathBuf};

use anyhow::{Result, bail};

use super::input::{self, InputList, Stamp};
use super::output::{AtomicFile, Durability, describe, resolve_links, shown};
use super::progress;

/// Where the per-file outputs go.
enum Mode {
    OutDir,
    /// (The backups' names are in `PerFile::backups`.)
    InPlace,
}

/// What became of one output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Closed {
    /// Written (in place: the input replaced).
    Written,
    /// In place: the output is the input's own bytes; the file was left as it is.
    Unchanged,
    /// Not written (reported and counted).
    Failed,
}

/// Paths kept in one buffer: a run over 100,000 files keeps two allocations, not one per
/// path (memory: the paths' bytes and one offset each).
#[derive(Default)]
pub(super) struct PathList {
    /// The paths' bytes, one after the other.
    #[cfg(unix)]
    bytes: Vec<u8>,
    /// Where each path ends in `bytes`.
    #[cfg(unix)]
    ends: Vec<usize>,
    #[cfg(not(unix))]
    paths: Vec<PathBuf>,
}

impl PathList {
    fn with_capacity(n: usize) -> PathList {
        PathList {
            #[cfg(unix)]
            ends: Vec::with_capacity(n),
            #[cfg(not(unix))]
            paths: Vec::with_capacity(n),
            ..PathList::default()
        }
    }

    #[cfg(unix)]
    fn push(&mut self, p: &Path) {
        use std::os::unix::ffi::OsStrExt;
        self.bytes.extend_from_slice(p.as_os_str().as_bytes());
        self.ends.push(self.bytes.len());
    }

    #[cfg(not(unix))]
    fn push(&mut self, p: &Path) {
        self.paths.push(p.to_path_buf());
    }

    /// The `i`th path.
    #[cfg(unix)]
    fn get(&self, i: usize) -> &Path {
        use std::os::unix::ffi::OsStrExt;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Path::new(std::ffi::OsStr::from_bytes(
            &self.bytes[start..self.ends[i]],
        ))
    }

    #[cfg(not(unix))]
    fn get(&self, i: usize) -> &Path {
        &self.paths[i]
    }

    fn len(&self) -> usize {
        #[cfg(unix)]
        return self.ends.len();
        #[cfg(not(unix))]
        return self.paths.len();
    }

    /// Give back what was reserved beyond the paths.
    fn shrink(&mut self) {
        #[cfg(unix)]
        {
            self.bytes.shrink_to_fit();
            self.ends.shrink_to_fit();
        }
    }
}

/// The per-file outputs of a run.
pub(super) struct PerFile {
    /// The file each input's output goes to (in place: the input itself, links followed).
    targets: PathList,
    /// In place with `--backup`: the suffix of the name where each input's original is
    /// kept (`backup`).
    backup: Option<String>,
    mode: Mode,
    /// Files written.
    pub written: u64,
    /// Files left as they were because `fix` would not change them (in place).
    pub unchanged: u64,
    /// Files that could not be written.
    pub failed: u64,
}

/// The name of `rel`'s output: `.gz` dropped, the extension replaced by `ext`.
fn out_name(rel: &Path, ext: &str) -> PathBuf {
    let mut p = rel.to_path_buf();
    if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz")) {
        p.set_extension("");
    }
    p.set_extension(ext);
    p
}

fn no_stdin(inputs: &InputList, option: &str) -> Result<()> {
    if inputs.iter().any(|i| i.is_stdin()) {
        bail!(
            "{option} writes one file per input file, and standard input has no name: use -o \
             (or standard output) for it"
        );
    }
    Ok(())
}

impl PerFile {
    /// Outputs below `dir` (created now), named with the extension `ext`.
    pub(super) fn out_dir(dir: &Path, inputs: &InputList, ext: &str) -> Result<PerFile> {
        no_stdin(inputs, "--out-dir")?;
        if let Ok(m) = fs::metadata(dir)
            && !m.is_dir()
        {
            bail!(
                "--out-dir {} is not a directory: name a directory (it is created if missing)",
                shown(dir)
            );
        }
        let mut targets = PathList::with_capacity(inputs.len());
        // Each target by its hash (the paths are in `targets`): the input it is for.
        let mut seen = Seen::with_capacity(inputs.len());
        for (k, i) in inputs.iter().enumerate() {
            let name = i.name();
            let rel = i.rel().unwrap_or_else(|| Path::new(name.as_ref()));
            let target = dir.join(out_name(rel, ext));
            let hash = hash_of(&target);
            if let Some(first) = seen.find(hash, |f| targets.get(f) == target) {
                bail!(
                    "{} and {} would both be written to {}: --out-dir writes a file named on \
                     the command line under its name alone, and a file found in a directory \
                     under its path below that directory; name a directory that holds both, or \
                     run once for each",
                    shown(Path::new(inputs.name(first).as_ref())),
                    shown(Path::new(name.as_ref())),
                    shown(&target)
                );
            }
            seen.insert(hash, k);
            targets.push(&target);
        }
        drop(seen);
        targets.shrink();
        if let Err(e) = fs::create_dir_all(dir) {
            bail!(
                "--out-dir {}: cannot create it: {}",
                shown(dir),
                pdn::app::write::terminal::escape(&e.to_string())
            );
        }
        Ok(PerFile {
            targets,
            backup: None,
            mode: Mode::OutDir,
            written: 0,
            unchanged: 0,
            failed: 0,
        })
    }

    /// Each input replaced by its output.
    pub(super) fn in_place(inputs: &InputList, backup: Option<String>) -> Result<PerFile> {
        no_stdin(inputs, "--in-place")?;
        if backup.as_deref() == Some("") {
            bail!("--backup needs a suffix that is not empty");
        }
        let mut targets = PathList::with_capacity(inputs.len());
        // Each input is replaced only if it is still the file that was read.
        inputs.keep_stamps();
        for i in inputs.iter() {
            let Some(f) = i.path() else {
                continue;
            };
            match resolve_links(f) {
                Ok(real) => targets.push(&real),
                Err(_) => targets.push(f),
            }
        }
        targets.shrink();
        Ok(PerFile {
            targets,
            backup,
            mode: Mode::InPlace,
            written: 0,
            unchanged: 0,
            failed: 0,
        })
    }

    /// The output of input `i`.
    pub(super) fn target(&self, i: usize) -> &Path {
        self.targets.get(i)
    }

    /// In place with `--backup`: where the original of input `i` is kept.
    fn backup(&self, i: usize) -> Option<PathBuf> {
        self.backup.as_ref().map(|suffix| {
            let mut name = OsString::from(self.target(i).as_os_str());
            name.push(suffix);
            PathBuf::from(name)
        })
    }

    /// True when each input is replaced by its output.
    pub(super) fn in_place_mode(&self) -> bool {
        matches!(self.mode, Mode::InPlace)
    }

    /// Start the output of input `i`; `None` (reported, counted) if it cannot be created.
    pub(super) fn open(&mut self, i: usize) -> Option<AtomicFile> {
        let target = self.targets.get(i);
        let made = match self.mode {
            Mode::OutDir => target
                .parent()
                .map_or(Ok(()), fs::create_dir_all)
                .and_then(|()| AtomicFile::create(target, false, Durability::Renamed)),
            Mode::InPlace => AtomicFile::create(target, input::is_gzip(target), Durability::Synced),
        };
        match made {
            Ok(f) => Some(f),
            Err(e) => {
                self.lost(i, &e);
                None
            }
        }
    }

    /// A write to the output of input `i` failed: report it and count it (the caller drops
    /// the file, which removes its temporary file).
    pub(super) fn lost(&mut self, i: usize, e: &io::Error) {
        self.failed += 1;
        progress::message(&format!(
            "pdn: cannot write {}: {}",
            shown(self.target(i)),
            describe(e)
        ));
    }

    /// Finish the output of input `i`: put it in place. In place, only when the input was
    /// read whole (`not_whole` says why not) and all the module's conditions hold; `stamp` is
    /// the input as it was read.
    pub(super) fn close(
        &mut self,
        i: usize,
        file: AtomicFile,
        not_whole: Option<&str>,
        stamp: Option<Stamp>,
    ) -> Closed {
        let closed = match &self.mode {
            Mode::OutDir => match file.commit() {
                Ok(()) => Closed::Written,
                Err(e) => {
                    self.lost(i, &e);
                    return Closed::Failed;
                }
            },
            Mode::InPlace => {
                if let Some(why) = not_whole {
                    drop(file);
                    return self.refuse(i, why);
                }
                match self.replace(i, file, stamp) {
                    Ok(c) => c,
                    Err(why) => return self.refuse(i, &why),
                }
            }
        };
        match closed {
            Closed::Written => self.written += 1,
            Closed::Unchanged => self.unchanged += 1,
            Closed::Failed => self.failed += 1,
        }
        closed
    }

    /// Input `i` is left as it was: say why, count it.
    fn refuse(&mut self, i: usize, why: &str) -> Closed {
        self.failed += 1;
        progress::message(&format!(
            "pdn: {}: left as it was, not replaced: {}",
            shown(self.target(i)),
            pdn::app::write::terminal::escape(why)
        ));
        Closed::Failed
    }

    /// Replace input `i` by `file` (see the module documentation); `Err` says why it was
    /// left as it was.
    fn replace(
        &mut self,
        i: usize,
        file: AtomicFile,
        stamp: Option<Stamp>,
    ) -> Result<Closed, String> {
        let target = self.target(i).to_path_buf();
        let say = |e: io::Error| e.to_string();
        let Some(done) = file.finish().map_err(say)? else {
            return Ok(Closed::Written);
        };
        let mut current = File::open(&target).map_err(say)?;
        // Held until `current` is dropped: another run replacing this file waits here, and
        // then finds it changed.
        current.lock().map_err(say)?;
        let meta = current.metadata().map_err(say)?;
        let now_there = fs::metadata(&target).map(|m| Stamp::of(&m)).ok();
        if stamp != Some(Stamp::of(&meta)) || now_there != Some(Stamp::of(&meta)) {
            return Err(
                "it changed since it was read (written or replaced by another run or \
                        program meanwhile): run again"
                    .to_string(),
            );
        }
        if done
            .same_content(&mut current, input::is_gzip(&target))
            .map_err(say)?
        {
            return Ok(Closed::Unchanged);
        }
        done.keep_owner(&meta).map_err(|e| {
            format!("its owner and group cannot be kept ({e}): fix it as its owner")
        })?;
        done.keep_mode(&meta).map_err(say)?;
        if let Some(backup) = self.backup(i) {
            keep_backup(&mut current, &meta, &backup)?;
        }
        done.persist().map_err(say)?;
        drop(current);
        Ok(Closed::Written)
    }
}

/// Keep the original (`current`, locked) as `backup`, which must not exist: written beside
/// it and put in place only if the name is still free (never replacing anything), synced,
/// with the original's permissions, owner and group as far as allowed.
fn keep_backup(current: &mut File, meta: &fs::Metadata, backup: &Path) -> Result<(), String> {
    use std::io::{Seek, SeekFrom};
    let exists = || {
        format!(
            "its backup {} exists, and a backup is never overwritten: remove it, or choose \
             another --backup",
            shown(backup)
        )
    };
    if fs::symlink_metadata(backup).is_ok() {
        return Err(exists());
    }
    let failed = |e: io::Error| format!("cannot write its backup {}: {e}", shown(backup));
    let mut out = AtomicFile::create(backup, false, Durability::Synced).map_err(failed)?;
    current.seek(SeekFrom::Start(0)).map_err(failed)?;
    io::copy(current, &mut out).map_err(failed)?;
    let Some(done) = out.finish().map_err(failed)? else {
        return Err(failed(io::Error::other("not a regular file")));
    };
    let _ = done.keep_owner(meta);
    let _ = done.keep_mode(meta);
    match done.persist_new(backup) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(exists()),
        Err(e) => Err(failed(e)),
    }
}

/// Why an input was not read whole, if it was not: `failed`, a read error (reported as it
/// came); `first_cut`, the first of `cut` games whose text the reader could not all read (a
/// game over the size limit: its syntax error says what was left out).
pub(super) fn whole(failed: bool, first_cut: Option<usize>, cut: u64) -> Option<String> {
    match first_cut {
        Some(game) => Some(format!(
            "game {game}{} could not be read whole (see {} syntax error)",
            match cut {
                0 | 1 => String::new(),
                2 => " and 1 more".to_string(),
                n => format!(" and {} more", n - 1),
            },
            if cut > 1 { "their" } else { "its" }
        )),
        None if failed => Some("it could not be read to its end".to_string()),
        None => None,
    }
}

/// The file a path leads to, for comparing paths: links followed, absolute, `.` and `..`
/// resolved (as far as the directories exist, lexically beyond).
fn file_key(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let p = resolve_links(p).unwrap_or_else(|_| p.to_path_buf());
    if let (Some(dir), Some(name)) = (p.parent(), p.file_name()) {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = dir.canonicalize() {
            return d.join(name);
        }
    }
    let abs = std::env::current_dir().map_or_else(|_| p.clone(), |cwd| cwd.join(&p));
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Check, before any work, every file a run writes: `-o` (`output`), `--audit`, and the
/// per-file outputs and backups of `per`. No two of them may be one file, none may be an
/// input, except an input that `--in-place` replaces itself, and none may be a file the run
/// reads besides its games (`read`: `--table` files, with the words that name them).
pub(super) fn check_targets(
    inputs: &InputList,
    output: Option<&Path>,
    audit: Option<&Path>,
    per: Option<&PerFile>,
    read: &[(&str, &Path)],
) -> Result<()> {
    let read: Vec<(&str, &Path, PathBuf)> =
        read.iter().map(|&(o, p)| (o, p, file_key(p))).collect();
    // The files are compared by their keys (`file_key`), kept as hashes: a key is made
    // again, from the path it came from, only to confirm a match (the memory of a run over
    // 100,000 files is a few words for each, not two paths and a description).
    let mut input_keys = Seen::with_capacity(inputs.len());
    for (k, i) in inputs.iter().enumerate() {
        if let Some(f) = i.path() {
            input_keys.insert(hash_of(&file_key(f)), k);
        }
    }
    let is_input = |k: usize, key: &Path| inputs.get(k).path().is_some_and(|f| file_key(f) == key);
    let mut claimed = Seen::with_capacity(per.map_or(2, |p| 2 * p.targets.len() + 2));
    let mut claim = |what: Claim, may_be_input: bool| -> Result<()> {
        let key = file_key(&what.path(output, audit, per));
        let hash = hash_of(&key);
        if !may_be_input && let Some(k) = input_keys.find(hash, |k| is_input(k, &key)) {
            bail!(
                "{} would replace the input {}: write it elsewhere",
                what.describe(output, audit, per),
                shown(Path::new(inputs.name(k).as_ref()))
            );
        }
        // (An input that --in-place replaces may be a table too: the tables are read whole
        // before any work.)
        if !may_be_input && let Some((named, p, _)) = read.iter().find(|(_, _, k)| *k == key) {
            bail!(
                "{} would replace {named} {}: write it elsewhere",
                what.describe(output, audit, per),
                shown(p)
            );
        }
        let same = |c: Claim| file_key(&c.path(output, audit, per)) == key;
        if let Some(first) = claimed.find(hash, same) {
            bail!(
                "{} and {} name the same file: each file is written once",
                first.describe(output, audit, per),
                what.describe(output, audit, per)
            );
        }
        claimed.insert(hash, what);
        Ok(())
    };
    if output.is_some() {
        claim(Claim::Output, false)?;
    }
    if let Some(per) = per {
        let in_place = per.in_place_mode();
        for k in 0..per.targets.len() {
            claim(Claim::Target(k), in_place)?;
            if per.backup.is_some() {
                claim(Claim::Backup(k), false)?;
            }
        }
    }
    if audit.is_some() {
        claim(Claim::Audit, false)?;
    }
    Ok(())
}

/// A file a run writes, as [`check_targets`] keeps it (the paths are in the run's options and
/// its `PerFile`).
#[derive(Clone, Copy)]
enum Claim {
    /// `-o`.
    Output,
    /// `--audit`.
    Audit,
    /// The output of input `k` (`--out-dir`, `--in-place`).
    Target(usize),
    /// The backup of input `k` (`--in-place --backup`).
    Backup(usize),
}

impl Claim {
    fn path(self, output: Option<&Path>, audit: Option<&Path>, per: Option<&PerFile>) -> PathBuf {
        let path = match self {
            Claim::Output => output.map(Path::to_path_buf),
            Claim::Audit => audit.map(Path::to_path_buf),
            Claim::Target(k) => per.map(|p| p.target(k).to_path_buf()),
            Claim::Backup(k) => per.and_then(|p| p.backup(k)),
        };
        path.unwrap_or_default()
    }

    /// How messages name it.
    fn describe(
        self,
        output: Option<&Path>,
        audit: Option<&Path>,
        per: Option<&PerFile>,
    ) -> String {
        let p = shown(&self.path(output, audit, per));
        match self {
            Claim::Output => format!("-o {p}"),
            Claim::Audit => format!("--audit {p}"),
            Claim::Target(_) if per.is_some_and(PerFile::in_place_mode) => {
                format!("--in-place (for {p})")
            }
            Claim::Target(_) => format!("--out-dir's {p}"),
            Claim::Backup(_) => format!("the backup {p}"),
        }
    }
}

/// Things found so far by the hash of a path, the path not kept (it is made again from the
/// thing to confirm a match): the first of each hash in a map, any other of the same hash
/// (another path: a collision) in a list.
struct Seen<T> {
    first: HashMap<u64, T>,
    more: Vec<(u64, T)>,
}

impl<T: Copy> Seen<T> {
    fn with_capacity(n: usize) -> Seen<T> {
        Seen {
            first: HashMap::with_capacity(n),
            more: Vec::new(),
        }
    }

    /// The thing of this hash that `is` confirms.
    fn find(&self, hash: u64, is: impl Fn(T) -> bool) -> Option<T> {
        let first = self.first.get(&hash).copied()?;
        if is(first) {
            return Some(first);
        }
        self.more
            .iter()
            .filter(|&&(h, _)| h == hash)
            .map(|&(_, t)| t)
            .find(|&t| is(t))
    }

    fn insert(&mut self, hash: u64, t: T) {
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(t);
            }
            std::collections::hash_map::Entry::Occupied(_) => self.more.push((hash, t)),
        }
    }
}

/// The hash of a path, to find equal paths without keeping them.
fn hash_of(p: &Path) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names() {
        assert_eq!(
            out_name(Path::new("a/b.pdn"), "jsonl"),
            Path::new("a/b.jsonl")
        );
        assert_eq!(out_name(Path::new("b.PDN.gz"), "pdn"), Path::new("b.pdn"));
        assert_eq!(
            out_name(Path::new("NKCS06.txt"), "pdn"),
            Path::new("NKCS06.pdn")
        );
        assert_eq!(out_name(Path::new("games"), "txt"), Path::new("games.txt"));
        assert_eq!(
            out_name(Path::new("x.pdn"), "plies.csv"),
            Path::new("x.plies.csv")
        );
    }

    #[test]
    fn a_path_list_gives_back_each_path_as_pushed() {
        let paths = [
            Path::new("a/b.pdn"),
            Path::new(""),
            Path::new("/tmp/x y/é.pdn"),
            Path::new("c"),
        ];
        let mut list = PathList::with_capacity(1);
        for p in paths {
            list.push(p);
        }
        list.shrink();
        assert_eq!(list.len(), paths.len());
        for (i, p) in paths.iter().enumerate() {
            assert_eq!(list.get(i), *p);
        }
        #[cfg(unix)]
        {
            // Bytes that are no UTF-8 stay as they are.
            use std::os::unix::ffi::OsStrExt;
            let odd = Path::new(std::ffi::OsStr::from_bytes(b"d/\xff.pdn"));
            list.push(odd);
            assert_eq!(list.get(4), odd);
            assert_eq!(list.get(3), Path::new("c"));
        }
    }

    #[test]
    fn seen_confirms_a_hash_with_the_thing() {
        let mut seen = Seen::with_capacity(2);
        seen.insert(7, 1usize);
        // Another thing of the same hash (a collision) is kept beside it.
        seen.insert(7, 2);
        seen.insert(9, 3);
        assert_eq!(seen.find(7, |t| t == 1), Some(1));
        assert_eq!(seen.find(7, |t| t == 2), Some(2));
        assert_eq!(seen.find(7, |t| t == 3), None);
        assert_eq!(seen.find(9, |_| true), Some(3));
        assert_eq!(seen.find(8, |_| true), None);
        assert_eq!(hash_of(Path::new("a/b")), hash_of(&PathBuf::from("a/b")));
    }

    #[test]
    fn file_keys_follow_links_and_resolve_dots() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("sub")).unwrap();
        std::fs::write(d.join("sub/a.pdn"), "x").unwrap();
        let a = file_key(&d.join("sub/a.pdn"));
        assert_eq!(file_key(&d.join("sub/../sub/./a.pdn")), a);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("sub/a.pdn", d.join("link.pdn")).unwrap();
            assert_eq!(file_key(&d.join("link.pdn")), a);
            // A dangling link leads to where its target would be.
            std::os::unix::fs::symlink("sub/new.pdn", d.join("dangling.pdn")).unwrap();
            assert_eq!(
                file_key(&d.join("dangling.pdn")),
                file_key(&d.join("sub/new.pdn"))
            );
        }
        // Not there, nor its directory: lexically.
        assert_eq!(
            file_key(&d.join("none/x/../y.pdn")),
            file_key(&d.join("none/y.pdn"))
        );
    }
}
