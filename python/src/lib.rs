//! The native module `pdn._pdn` of the Python package `pdn` (python/pdn/): the games of
//! files, directories and gzip archives read by the `pdn` library through the one pipeline
//! every command uses (`pdn::app::pipeline`, all cores, input order), handed to Python as
//! the JSON the CLI writes (`convert --to json`, `validate --format json`), which the
//! Python side turns into objects, or as Arrow tables (`read_arrow`) through the Arrow C
//! stream interface (`__arrow_c_stream__`).
//!
//! Reading runs on a thread of its own, the GIL released while Python waits for it; what it
//! reads comes through a bounded channel, so memory stays bounded however large the input.
//! Nothing panics across the boundary: a panic of the reading thread becomes a `PdnError`.

use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use pyo3::exceptions::{PyException, PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use pdn::app::input::{self, InputList};
use pdn::app::judge::diagnostic::{Format, Palette};
use pdn::app::judge::findings::{Policy, Totals, render_game_text};
use pdn::app::judge::validate::{self, validate_ref};
use pdn::app::model::pipeline::{self, Event, Plan};
use pdn::app::model::reading::GameRef;
use pdn::app::search::query::{Query, QueryOption, QueryOptions};
use pdn::app::search::render::{self, Summary};
use pdn::app::search::{GameResult, SearchOptions, Searcher};
use pdn::app::write::export::table::{CHUNK_TEXT, GameRow, GameTable, PlyChunk, PlyTable};
use pdn::app::write::export::{ExportOptions, Notation, ResultStyle, analyse, json};
use pdn::rules::{Color, Role, Variant};

pyo3::create_exception!(
    _pdn,
    PdnError,
    PyException,
    "An input that could not be read (to its end): args are (message, file, line)."
);

/// Games handed over the channel at a time.
const BATCH: usize = 256;

/// What the reading thread sends.
enum Msg<R> {
    /// Results of games, in order.
    Items(Vec<R>),
    /// An input could not be opened or read to its end (its name, why, and the line of the
    /// last game read from it).
    Failed(String, String, Option<u32>),
    /// Something not read that the reading went on past, to warn of (the whole message).
    Warned(String),
}

/// The inputs, for the pipeline.
struct Inputs<'a>(&'a InputList);

impl pipeline::Inputs for Inputs<'_> {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn open(&self, i: usize) -> io::Result<Box<dyn io::Read + Send>> {
        input::open(self.0.get(i))
    }
}

/// The inputs found, and the paths inside directories that could not be read (name, why).
type Found = (InputList, Vec<(String, String)>);

/// The inputs a path (or list of paths) names, and what a directory walk could not read
/// (name, why): a path given that is missing raises FileNotFoundError, one that cannot be
/// read a PdnError.
fn inputs(paths: Vec<PathBuf>) -> PyResult<Found> {
    if paths.iter().any(|p| p.as_os_str() == "-") {
        return Err(PyValueError::new_err(
            "pdn reads files and directories: `-` (standard input) is for the command line",
        ));
    }
    let given: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let expanded = input::expand(&paths);
    let mut inside = Vec::new();
    for (name, e) in expanded.errors {
        if !given.contains(&name) {
            inside.push((name, e.to_string()));
        } else if e.kind() == io::ErrorKind::NotFound {
            return Err(PyFileNotFoundError::new_err((2, e.to_string(), name)));
        } else {
            return Err(PdnError::new_err((
                format!("{name}: {e}"),
                name,
                None::<u32>,
            )));
        }
    }
    Ok((expanded.inputs, inside))
}

/// The paths of a `path` argument: one path, or a list of them.
fn paths_of(path: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(p) = path.extract::<PathBuf>() {
        return Ok(vec![p]);
    }
    path.extract::<Vec<PathBuf>>()
}

/// The threads of a `jobs` argument: every core by default.
fn jobs_of(jobs: Option<usize>) -> PyResult<usize> {
    match jobs {
        Some(0) => Err(PyValueError::new_err("jobs: at least 1")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The variant forced by a `variant` argument.
fn variant_of(variant: Option<&str>) -> PyResult<Option<Variant>> {
    variant
        .map(|v| {
            v.parse::<Variant>()
                .map_err(|e| PyValueError::new_err(format!("variant {v:?}: {e}")))
        })
        .transpose()
}

/// Run `work` on every game of `inputs` on a thread of its own (the pipeline with every
/// core), sending the results in order; `end_file` adds what a file's end gives.
fn spawn<R: Send + 'static>(
    inputs: InputList,
    jobs: usize,
    work: impl Fn(&GameRef<'_>, &str) -> R + Send + Sync + 'static,
    mut end_file: impl FnMut(&str) -> Option<R> + Send + 'static,
) -> Receiver<Msg<R>> {
    let (tx, rx) = sync_channel::<Msg<R>>(16);
    std::thread::spawn(move || {
        let panicked = {
            let tx = tx.clone();
            catch_unwind(AssertUnwindSafe(move || {
                run(&inputs, jobs, &work, &mut end_file, &tx);
            }))
            .is_err()
        };
        if panicked {
            let _ = tx.send(Msg::Failed(
                String::new(),
                "internal error while reading (please report it)".into(),
                None,
            ));
        }
    });
    rx
}

fn run<R: Send>(
    inputs: &InputList,
    jobs: usize,
    work: &(impl Fn(&GameRef<'_>, &str) -> R + Sync),
    end_file: &mut impl FnMut(&str) -> Option<R>,
    tx: &SyncSender<Msg<R>>,
) {
    let names: Vec<std::borrow::Cow<'_, str>> = inputs.iter().map(|i| i.name()).collect();
    let mut pending: Vec<R> = Vec::with_capacity(BATCH);
    let mut last_line: Option<u32> = None;
    let gone = || io::Error::new(io::ErrorKind::BrokenPipe, "the reader was dropped");
    let consume = |ev: &mut Event<(Option<R>, u32)>| -> io::Result<()> {
        match ev {
            Event::FileStart(_) => last_line = None,
            Event::Game(_, (r, line)) => {
                last_line = Some(*line);
                pending.extend(r.take());
                if pending.len() >= BATCH {
                    let items = std::mem::replace(&mut pending, Vec::with_capacity(BATCH));
                    tx.send(Msg::Items(items)).map_err(|_| gone())?;
                }
            }
            Event::FileError(i, e) => {
                let items = std::mem::take(&mut pending);
                if !items.is_empty() {
                    tx.send(Msg::Items(items)).map_err(|_| gone())?;
                }
                tx.send(Msg::Failed(
                    names[*i].clone().into_owned(),
                    std::mem::take(e),
                    last_line,
                ))
                .map_err(|_| gone())?;
            }
            Event::FileEnd(i) => {
                if let Some(r) = end_file(&names[*i]) {
                    pending.push(r);
                }
            }
        }
        Ok(())
    };
    let result = pipeline::run(
        &Inputs(inputs),
        &Plan::new(jobs),
        &|_| {},
        || (),
        |(), g| (Some(work(g, &names[g.file])), g.line),
        consume,
    );
    if result.is_ok() && !pending.is_empty() {
        let _ = tx.send(Msg::Items(pending));
    }
}

/// What to say of an input that failed.
fn message(file: &str, why: &str, line: Option<u32>) -> String {
    match (file.is_empty(), line) {
        (true, _) => why.to_owned(),
        (false, Some(l)) => format!("{file}: {why} (after the game at line {l})"),
        (false, None) => format!("{file}: {why}"),
    }
}

/// The exception of an input that failed.
fn failed(file: String, why: String, line: Option<u32>) -> PyErr {
    PdnError::new_err((message(&file, &why, line), file, line))
}

/// An iterator over lines of JSON (one per game, or per record), read on a thread of its
/// own.
///
/// An input that cannot be read (to its end) raises a `PdnError` from `__next__`; the
/// iteration can go on after it, with the next input (the Python side decides).
#[pyclass(module = "pdn._pdn")]
struct JsonLines {
    rx: Option<Mutex<Receiver<Msg<String>>>>,
    ready: std::collections::VecDeque<String>,
    /// Paths inside the directories given that could not be read (name, why), raised first.
    skipped: std::collections::VecDeque<(String, String)>,
}

impl JsonLines {
    fn new(rx: Receiver<Msg<String>>, skipped: Vec<(String, String)>) -> JsonLines {
        JsonLines {
            rx: Some(Mutex::new(rx)),
            ready: Default::default(),
            skipped: skipped.into(),
        }
    }
}

#[pymethods]
impl JsonLines {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        if let Some((file, why)) = self.skipped.pop_front() {
            return Err(failed(file, why, None));
        }
        loop {
            if let Some(s) = self.ready.pop_front() {
                return Ok(Some(s));
            }
            let Some(rx) = &self.rx else { return Ok(None) };
            let msg = py.detach(|| rx.lock().unwrap_or_else(|e| e.into_inner()).recv());
            match msg {
                Ok(Msg::Items(items)) => self.ready.extend(items),
                Ok(Msg::Failed(file, why, line)) => return Err(failed(file, why, line)),
                Ok(Msg::Warned(_)) => {}
                Err(_) => self.rx = None,
            }
        }
    }
}

/// The games of `path` as the JSON lines of `pdn convert --to json`.
#[pyfunction]
#[pyo3(signature = (path, variant = None, jobs = None))]
fn games_json(
    path: &Bound<'_, PyAny>,
    variant: Option<&str>,
    jobs: Option<usize>,
) -> PyResult<JsonLines> {
    let (inputs, skipped) = inputs(paths_of(path)?)?;
    let jobs = jobs_of(jobs)?;
    let opts = ExportOptions {
        validate: validate::Options {
            variant: variant_of(variant)?,
            ..validate::Options::default()
        },
        notation: Notation::Native,
        result_style: ResultStyle::Strict,
    };
    let rx = spawn(
        inputs,
        jobs,
        move |g, name| {
            let game = g.to_game();
            let opts = ExportOptions {
                validate: g.options(&opts.validate),
                ..opts
            };
            let a = analyse(&game, &opts);
            let mut s = String::with_capacity(2 * game.source.len() + 256);
            json::write(&a, name, &mut s);
            s
        },
        |_| None,
    );
    Ok(JsonLines::new(rx, skipped))
}

/// The findings of `path` as the JSON lines of `pdn validate --format json` (findings and
/// game records; the findings reported once per file at its end), without the summary.
#[pyfunction]
#[pyo3(signature = (path, variant = None, jobs = None))]
fn validate_json(
    path: &Bound<'_, PyAny>,
    variant: Option<&str>,
    jobs: Option<usize>,
) -> PyResult<JsonLines> {
    let (inputs, skipped) = inputs(paths_of(path)?)?;
    let jobs = jobs_of(jobs)?;
    let opts = validate::Options {
        variant: variant_of(variant)?,
        ..validate::Options::default()
    };
    /// A game rendered, or the end of a file (whose once-per-file findings come then).
    enum Step {
        Game(Box<pdn::app::judge::findings::Rendered>),
        End(String),
    }
    let policy = Policy::default();
    let palette = Palette::new(false);
    let rx = spawn(
        inputs,
        jobs,
        move |g, name| {
            let mut report = validate_ref(g, &opts);
            policy.apply(&mut report);
            Step::Game(Box::new(render_game_text(
                Format::Json,
                &palette,
                &policy,
                name,
                &g.game_text(),
                &report,
            )))
        },
        |name| Some(Step::End(name.to_owned())),
    );
    // The lines of each game and of each file's end, in order, counted as the CLI counts
    // them (the once-per-file findings).
    let (tx, out) = sync_channel::<Msg<String>>(16);
    std::thread::spawn(move || {
        let policy = Policy::default();
        let mut totals = Totals::default();
        while let Ok(msg) = rx.recv() {
            let m = match msg {
                Msg::Items(items) => {
                    let mut lines = Vec::with_capacity(items.len());
                    for step in &items {
                        let mut s = String::new();
                        match step {
                            Step::Game(r) => {
                                let (shown, record) = totals.take(&policy, r);
                                s.push_str(shown);
                                if let Some(rec) = record {
                                    s.push_str(rec);
                                }
                            }
                            Step::End(name) => {
                                totals.end_file(Format::Json, &palette, &policy, name, &mut s)
                            }
                        }
                        if !s.is_empty() {
                            lines.push(s);
                        }
                    }
                    Msg::Items(lines)
                }
                Msg::Failed(f, w, l) => Msg::Failed(f, w, l),
                Msg::Warned(w) => Msg::Warned(w),
            };
            if tx.send(m).is_err() {
                return;
            }
        }
    });
    Ok(JsonLines::new(out, skipped))
}

/// The query of `pdn search`'s options, from the keyword arguments of the same names
/// (built by the library: [`QueryOptions::query`]); a value that cannot be read raises
/// ValueError naming the keyword.
#[allow(clippy::too_many_arguments)]
fn query_of(
    position: Option<&str>,
    any_side: bool,
    pieces: Vec<String>,
    not: Vec<String>,
    empty: Vec<String>,
    material: Option<&str>,
    moves: Option<String>,
    side: Option<&str>,
    piece: Option<&str>,
    from: Option<&str>,
    to: Option<&str>,
    captures: Option<&str>,
    promotion: bool,
    sacrifice: bool,
    mirror: bool,
) -> PyResult<Query> {
    let options = QueryOptions {
        position: position.map(str::to_owned),
        any_side,
        pieces,
        not,
        empty,
        material: material.map(str::to_owned),
        moves,
        side: side
            .map(|v| match v {
                "white" => Ok(Color::White),
                "black" => Ok(Color::Black),
                _ => Err(PyValueError::new_err(format!(
                    "side: \"white\" or \"black\", not {v:?}"
                ))),
            })
            .transpose()?,
        piece: piece
            .map(|p| match p {
                "man" => Ok(Role::Man),
                "king" => Ok(Role::King),
                _ => Err(PyValueError::new_err(format!(
                    "piece: \"man\" or \"king\", not {p:?}"
                ))),
            })
            .transpose()?,
        from: from.map(str::to_owned),
        to: to.map(str::to_owned),
        captures: captures.map(str::to_owned),
        promotion,
        sacrifice,
        mirror,
    };
    options.query().map_err(|e| {
        // The keyword arguments of Python: `not_` and `from_` for the keywords of Python.
        let keyword = match e.option {
            QueryOption::Not => "not_",
            QueryOption::From => "from_",
            o => o.name(),
        };
        PyValueError::new_err(format!("{keyword}: {}", e.error))
    })
}

/// The matches of a search of `path` as the JSON lines of `pdn search --format json`
/// (`match` records, then the `summary`); the query as `pdn search`'s options give it.
#[pyfunction]
#[pyo3(signature = (
    path, position = None, any_side = false, pieces = Vec::new(), not_ = Vec::new(),
    empty = Vec::new(), material = None, moves = None, side = None, piece = None,
    from_ = None, to = None, captures = None, promotion = false, sacrifice = false,
    mirror = false, variant = None, variations = false, all_occurrences = false, jobs = None
))]
#[allow(clippy::too_many_arguments)]
fn search_json(
    path: &Bound<'_, PyAny>,
    position: Option<&str>,
    any_side: bool,
    pieces: Vec<String>,
    not_: Vec<String>,
    empty: Vec<String>,
    material: Option<&str>,
    moves: Option<String>,
    side: Option<&str>,
    piece: Option<&str>,
    from_: Option<&str>,
    to: Option<&str>,
    captures: Option<&str>,
    promotion: bool,
    sacrifice: bool,
    mirror: bool,
    variant: Option<&str>,
    variations: bool,
    all_occurrences: bool,
    jobs: Option<usize>,
) -> PyResult<JsonLines> {
    let q = query_of(
        position, any_side, pieces, not_, empty, material, moves, side, piece, from_, to, captures,
        promotion, sacrifice, mirror,
    )?;
    let options = SearchOptions {
        variant: variant_of(variant)?,
        variations,
        all_occurrences,
        keep_text: false,
    };
    let searcher =
        Arc::new(Searcher::new(q, options).map_err(|e| PyValueError::new_err(e.to_string()))?);
    let (inputs, skipped) = inputs(paths_of(path)?)?;
    let jobs = jobs_of(jobs)?;
    /// A game searched (in the file named), or the end of a file.
    enum Step {
        Game(String, Box<GameResult>),
        End,
    }
    let rx = spawn(
        inputs,
        jobs,
        move |g, name| Step::Game(name.to_owned(), Box::new(searcher.search_ref(g))),
        |_| Some(Step::End),
    );
    // The lines of each game's matches, counted as the CLI counts them; the summary last.
    let (tx, out) = sync_channel::<Msg<String>>(16);
    let mut summary = Summary {
        unreadable_files: skipped.len() as u64,
        ..Summary::default()
    };
    std::thread::spawn(move || {
        while let Ok(msg) = rx.recv() {
            let m = match msg {
                Msg::Items(items) => {
                    let mut s = String::new();
                    for step in &items {
                        match step {
                            Step::Game(name, r) => {
                                summary.add(r);
                                render::push_json(&mut s, name, r);
                            }
                            Step::End => summary.files += 1,
                        }
                    }
                    Msg::Items(if s.is_empty() { Vec::new() } else { vec![s] })
                }
                Msg::Failed(f, w, l) => {
                    summary.unreadable_files += 1;
                    Msg::Failed(f, w, l)
                }
                Msg::Warned(w) => Msg::Warned(w),
            };
            if tx.send(m).is_err() {
                return;
            }
        }
        let mut s = String::new();
        summary.push_json(&mut s);
        let _ = tx.send(Msg::Items(vec![s]));
    });
    Ok(JsonLines::new(out, skipped))
}

/// Record batches received from the reading thread.
struct Batches {
    schema: SchemaRef,
    rx: Receiver<Msg<RecordBatch>>,
    /// Warnings to give before the next batch (the paths a directory walk could not read).
    warn: std::collections::VecDeque<String>,
    done: bool,
}

/// Warn with a `pdn.PdnWarning` (a `UserWarning` if the package cannot be imported), from
/// the thread that reads the stream: an error if the warning filters make it one.
fn warn(text: &str) -> Result<(), ArrowError> {
    Python::attach(|py| {
        let category = py
            .import("pdn")
            .and_then(|m| m.getattr("PdnWarning"))
            .unwrap_or_else(|_| py.get_type::<pyo3::exceptions::PyUserWarning>().into_any());
        let message = std::ffi::CString::new(text.replace('\0', "?")).unwrap_or_default();
        PyErr::warn(py, &category, &message, 1).map_err(|e| e.to_string())
    })
    .map_err(|e| ArrowError::ExternalError(Box::new(io::Error::other(e))))
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            if let Some(w) = self.warn.pop_front() {
                if let Err(e) = warn(&w) {
                    self.done = true;
                    return Some(Err(e));
                }
                continue;
            }
            match self.rx.recv() {
                Ok(Msg::Items(mut b)) => return b.pop().map(Ok),
                Ok(Msg::Warned(w)) => self.warn.push_back(w),
                Ok(Msg::Failed(file, why, _)) => {
                    self.done = true;
                    return Some(Err(ArrowError::ExternalError(Box::new(io::Error::other(
                        if file.is_empty() {
                            why
                        } else {
                            format!("{file}: {why}")
                        },
                    )))));
                }
                Err(_) => {
                    self.done = true;
                    return None;
                }
            }
        }
    }
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }
}

/// An input not read (to its end): its name, what was not read and why, the line of the
/// last game read from it (or of the game not read to its end).
type Unread = (String, String, Option<u32>);

/// Start reading the table of `inputs` into record batches, a game's plies limited to
/// `chunk_text` bytes of text; with `skipped`, an input that cannot be read (or a game
/// whose plies were cut) is listed there, warned of, and the table goes on without the
/// rest of it; without, the stream ends with an error.
fn batches(
    inputs: InputList,
    jobs: usize,
    plies: bool,
    opts: validate::Options,
    chunk_text: usize,
    skipped: Option<Arc<Mutex<Vec<Unread>>>>,
) -> Batches {
    let (schema, rx) = if plies {
        let rx = spawn(
            inputs,
            jobs,
            move |g, name| PlyChunk::of_ref_within(g, name, &opts, Notation::Native, chunk_text),
            |_| None,
        );
        (
            PlyTable::schema(),
            tables(
                rx,
                PlyTable::new(),
                PlyTable::push,
                PlyTable::finish,
                |c: &PlyChunk| {
                    c.cut_note()
                        .map(|note| (c.file.clone(), note, Some(c.line)))
                },
                skipped,
            ),
        )
    } else {
        let rx = spawn(
            inputs,
            jobs,
            move |g, name| GameRow::of_ref(g, name, &opts),
            |_| None,
        );
        (
            GameTable::schema(),
            tables(
                rx,
                GameTable::new(),
                GameTable::push,
                GameTable::finish,
                |_| None,
                skipped,
            ),
        )
    };
    Batches {
        schema,
        rx,
        warn: Default::default(),
        done: false,
    }
}

/// Append the rows received to `table`, sending each batch as it fills (and the last);
/// `lost` says what of a row's game is not in it (file, what, line), which `skipped`
/// lists (and the stream warns of), or else ends the stream with an error.
fn tables<R: Send + 'static, T: Send + 'static>(
    rx: Receiver<Msg<R>>,
    mut table: T,
    push: fn(&mut T, &R) -> Option<RecordBatch>,
    finish: fn(&mut T) -> RecordBatch,
    lost: fn(&R) -> Option<Unread>,
    skipped: Option<Arc<Mutex<Vec<Unread>>>>,
) -> Receiver<Msg<RecordBatch>> {
    let (tx, out) = sync_channel::<Msg<RecordBatch>>(2);
    std::thread::spawn(move || {
        let ok = catch_unwind(AssertUnwindSafe(|| {
            // List (and warn of) what was not read (the file, why, the line to list, what to
            // say), or end the stream with it: false to stop.
            let not_read = |f: String, w: String, l: Option<u32>, text: String| -> bool {
                match &skipped {
                    Some(list) if !f.is_empty() => {
                        list.lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((f, text.clone(), l));
                        tx.send(Msg::Warned(format!("not read (to its end): {text}")))
                            .is_ok()
                    }
                    _ => {
                        let _ = tx.send(Msg::Failed(f, w, None));
                        false
                    }
                }
            };
            while let Ok(msg) = rx.recv() {
                match msg {
                    Msg::Items(items) => {
                        for r in &items {
                            if let Some(b) = push(&mut table, r)
                                && tx.send(Msg::Items(vec![b])).is_err()
                            {
                                return;
                            }
                            if let Some((f, w, l)) = lost(r) {
                                let w = match l {
                                    Some(l) => format!("{w} (the game at line {l})"),
                                    None => w,
                                };
                                let text = format!("{f}: {w}");
                                if !not_read(f, w, l, text) {
                                    return;
                                }
                            }
                        }
                    }
                    Msg::Failed(f, w, l) => {
                        let text = message(&f, &w, l);
                        if !not_read(f, w, l, text) {
                            return;
                        }
                    }
                    Msg::Warned(w) => {
                        if tx.send(Msg::Warned(w)).is_err() {
                            return;
                        }
                    }
                }
            }
            let last = finish(&mut table);
            if last.num_rows() > 0 {
                let _ = tx.send(Msg::Items(vec![last]));
            }
        }));
        if ok.is_err() {
            let _ = tx.send(Msg::Failed(
                String::new(),
                "internal error while building the table (please report it)".into(),
                None,
            ));
        }
    });
    out
}

/// The games (or plies) table of some inputs, as an Arrow C stream: each call of
/// `__arrow_c_stream__` reads the inputs again.
#[pyclass(module = "pdn._pdn", frozen)]
struct ArrowTable {
    inputs: InputList,
    jobs: usize,
    plies: bool,
    opts: validate::Options,
    /// Paths inside the directories given that could not be read (name, why).
    missing: Vec<(String, String)>,
    /// Go on past an input that cannot be read (listed in `unreadable`), rather than end
    /// the stream with an error.
    skip: bool,
    /// The inputs not read (to their end) by the last read.
    unreadable: Arc<Mutex<Vec<Unread>>>,
    /// The most text of a game's rows in the plies table ([`PlyChunk::of_ref_within`]).
    chunk_text: usize,
}

#[pymethods]
impl ArrowTable {
    /// The stream of record batches (the Arrow PyCapsule interface).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // The schema asked for, if any, is not followed: the table has its own (allowed by
        // the interface; the consumer casts).
        let _ = requested_schema;
        let skipped = self.skip.then(|| {
            let mut list = self.unreadable.lock().unwrap_or_else(|e| e.into_inner());
            list.clear();
            list.extend(
                self.missing
                    .iter()
                    .map(|(f, w)| (f.clone(), message(f, w, None), None)),
            );
            Arc::clone(&self.unreadable)
        });
        let mut reader = batches(
            self.inputs.clone(),
            self.jobs,
            self.plies,
            self.opts,
            self.chunk_text,
            skipped,
        );
        if self.skip {
            reader.warn.extend(
                self.missing
                    .iter()
                    .map(|(f, w)| format!("not read (to its end): {}", message(f, w, None))),
            );
        }
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// True for the plies table.
    #[getter]
    fn plies(&self) -> bool {
        self.plies
    }

    /// The inputs read, in order.
    #[getter]
    fn files(&self) -> Vec<String> {
        self.inputs.iter().map(|i| i.name().into_owned()).collect()
    }

    /// What the last read could not read (to its end): (file, message, line of the last
    /// game read from it, or of the game whose plies were cut).
    #[getter]
    fn unreadable(&self) -> Vec<Unread> {
        self.unreadable
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<pdn.ArrowTable of {} ({} file{})>",
            if self.plies { "plies" } else { "games" },
            self.inputs.len(),
            if self.inputs.len() == 1 { "" } else { "s" }
        )
    }
}

/// Whether a reader goes on past an input it cannot read: `errors` is `raise` or `warn`.
fn skip_of(errors: &str) -> PyResult<bool> {
    match errors {
        "raise" => Ok(false),
        "warn" => Ok(true),
        _ => Err(PyValueError::new_err(format!(
            "errors: \"raise\" or \"warn\", not {errors:?}"
        ))),
    }
}

/// The games table (or, with `plies`, the plies table) of `path`; `chunk_text` (for the
/// tests) lowers the most text of one game's rows in the plies table (1 GiB).
#[pyfunction]
#[pyo3(signature = (path, plies = false, variant = None, jobs = None, errors = "raise", chunk_text = None))]
fn read_arrow(
    path: &Bound<'_, PyAny>,
    plies: bool,
    variant: Option<&str>,
    jobs: Option<usize>,
    errors: &str,
    chunk_text: Option<usize>,
) -> PyResult<ArrowTable> {
    let skip = skip_of(errors)?;
    let (inputs, missing) = inputs(paths_of(path)?)?;
    if !skip && let Some((file, why)) = missing.first() {
        return Err(failed(file.clone(), why.clone(), None));
    }
    Ok(ArrowTable {
        inputs,
        jobs: jobs_of(jobs)?,
        plies,
        opts: validate::Options {
            variant: variant_of(variant)?,
            ..validate::Options::default()
        },
        missing,
        skip,
        unreadable: Arc::default(),
        chunk_text: chunk_text.unwrap_or(CHUNK_TEXT),
    })
}

#[pymodule]
fn _pdn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PdnError", m.py().get_type::<PdnError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(games_json, m)?)?;
    m.add_function(wrap_pyfunction!(validate_json, m)?)?;
    m.add_function(wrap_pyfunction!(search_json, m)?)?;
    m.add_function(wrap_pyfunction!(read_arrow, m)?)?;
    m.add_class::<ArrowTable>()?;
    m.add_class::<JsonLines>()?;
    Ok(())
}
