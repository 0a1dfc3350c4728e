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

use pdn::app::diagnostic::{Format, Palette};
use pdn::app::export::table::{GameRow, GameTable, PlyChunk, PlyTable};
use pdn::app::export::{ExportOptions, Notation, ResultStyle, analyse, json};
use pdn::app::findings::{Policy, Totals, render_game_text};
use pdn::app::input::{self, Input};
use pdn::app::pipeline::{self, Event, Plan};
use pdn::app::reading::GameRef;
use pdn::app::validate::{self, validate_ref};
use pdn::rules::Variant;

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
}

/// The inputs, for the pipeline.
struct Inputs(Vec<Input>);

impl pipeline::Inputs for Inputs {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn open(&self, i: usize) -> io::Result<Box<dyn io::Read + Send>> {
        input::open(&self.0[i])
    }
}

/// The inputs a path (or list of paths) names: a missing path raises FileNotFoundError,
/// one that cannot be read a PdnError.
fn inputs(paths: Vec<PathBuf>) -> PyResult<Vec<Input>> {
    if paths.iter().any(|p| p.as_os_str() == "-") {
        return Err(PyValueError::new_err(
            "pdn reads files and directories: `-` (standard input) is for the command line",
        ));
    }
    let expanded = input::expand(&paths);
    if let Some((name, e)) = expanded.errors.into_iter().next() {
        return Err(if e.kind() == io::ErrorKind::NotFound {
            PyFileNotFoundError::new_err((2, e.to_string(), name))
        } else {
            PdnError::new_err((format!("{name}: {e}"), name, None::<u32>))
        });
    }
    Ok(expanded.inputs)
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
    inputs: Vec<Input>,
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
    inputs: &[Input],
    jobs: usize,
    work: &(impl Fn(&GameRef<'_>, &str) -> R + Sync),
    end_file: &mut impl FnMut(&str) -> Option<R>,
    tx: &SyncSender<Msg<R>>,
) {
    let names: Vec<&str> = inputs.iter().map(|i| i.name.as_str()).collect();
    let mut pending: Vec<R> = Vec::with_capacity(BATCH);
    let mut last_line: Option<u32> = None;
    let gone = || io::Error::new(io::ErrorKind::BrokenPipe, "the reader was dropped");
    let consume = |ev: Event<(R, u32)>| -> io::Result<()> {
        match ev {
            Event::FileStart(_) => last_line = None,
            Event::Game(_, (r, line)) => {
                last_line = Some(line);
                pending.push(r);
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
                tx.send(Msg::Failed(names[i].to_owned(), e, last_line))
                    .map_err(|_| gone())?;
            }
            Event::FileEnd(i) => {
                if let Some(r) = end_file(names[i]) {
                    pending.push(r);
                }
            }
        }
        Ok(())
    };
    let result = pipeline::run(
        &Inputs(inputs.to_vec()),
        &Plan::new(jobs),
        &|_| {},
        || (),
        |(), g| (work(g, names[g.file]), g.line),
        consume,
    );
    if result.is_ok() && !pending.is_empty() {
        let _ = tx.send(Msg::Items(pending));
    }
}

/// The exception of an input that failed.
fn failed(file: String, why: String, line: Option<u32>) -> PyErr {
    let message = match (file.is_empty(), line) {
        (true, _) => why,
        (false, Some(l)) => format!("{file}: {why} (after the game at line {l})"),
        (false, None) => format!("{file}: {why}"),
    };
    PdnError::new_err((message, file, line))
}

/// An iterator over lines of JSON (one per game, or per record), read on a thread of its
/// own.
#[pyclass(module = "pdn._pdn")]
struct JsonLines {
    rx: Option<Mutex<Receiver<Msg<String>>>>,
    ready: std::collections::VecDeque<String>,
}

#[pymethods]
impl JsonLines {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        loop {
            if let Some(s) = self.ready.pop_front() {
                return Ok(Some(s));
            }
            let Some(rx) = &self.rx else { return Ok(None) };
            let msg = py.detach(|| rx.lock().unwrap_or_else(|e| e.into_inner()).recv());
            match msg {
                Ok(Msg::Items(items)) => self.ready.extend(items),
                Ok(Msg::Failed(file, why, line)) => return Err(failed(file, why, line)),
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
    let inputs = inputs(paths_of(path)?)?;
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
    Ok(JsonLines {
        rx: Some(Mutex::new(rx)),
        ready: Default::default(),
    })
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
    let inputs = inputs(paths_of(path)?)?;
    let jobs = jobs_of(jobs)?;
    let opts = validate::Options {
        variant: variant_of(variant)?,
        ..validate::Options::default()
    };
    /// A game rendered, or the end of a file (whose once-per-file findings come then).
    enum Step {
        Game(pdn::app::findings::Rendered),
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
            Step::Game(render_game_text(
                Format::Json,
                &palette,
                &policy,
                name,
                &g.game_text(),
                &report,
            ))
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
            };
            if tx.send(m).is_err() {
                return;
            }
        }
    });
    Ok(JsonLines {
        rx: Some(Mutex::new(out)),
        ready: Default::default(),
    })
}

/// Record batches received from the reading thread.
struct Batches {
    schema: SchemaRef,
    rx: Receiver<Msg<RecordBatch>>,
    done: bool,
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.rx.recv() {
            Ok(Msg::Items(mut b)) => b.pop().map(Ok),
            Ok(Msg::Failed(file, why, _)) => {
                self.done = true;
                Some(Err(ArrowError::ExternalError(Box::new(io::Error::other(
                    if file.is_empty() {
                        why
                    } else {
                        format!("{file}: {why}")
                    },
                )))))
            }
            Err(_) => {
                self.done = true;
                None
            }
        }
    }
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }
}

/// Start reading the table of `inputs` into record batches.
fn batches(inputs: Vec<Input>, jobs: usize, plies: bool, opts: validate::Options) -> Batches {
    let (schema, rx) = if plies {
        let rx = spawn(
            inputs,
            jobs,
            move |g, name| PlyChunk::of_ref(g, name, &opts, Notation::Native),
            |_| None,
        );
        (
            PlyTable::schema(),
            tables(rx, PlyTable::new(), PlyTable::push, PlyTable::finish),
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
            tables(rx, GameTable::new(), GameTable::push, GameTable::finish),
        )
    };
    Batches {
        schema,
        rx,
        done: false,
    }
}

/// Append the rows received to `table`, sending each batch as it fills (and the last).
fn tables<R: Send + 'static, T: Send + 'static>(
    rx: Receiver<Msg<R>>,
    mut table: T,
    push: fn(&mut T, &R) -> Option<RecordBatch>,
    finish: fn(&mut T) -> RecordBatch,
) -> Receiver<Msg<RecordBatch>> {
    let (tx, out) = sync_channel::<Msg<RecordBatch>>(2);
    std::thread::spawn(move || {
        let ok = catch_unwind(AssertUnwindSafe(|| {
            while let Ok(msg) = rx.recv() {
                match msg {
                    Msg::Items(items) => {
                        for r in &items {
                            if let Some(b) = push(&mut table, r)
                                && tx.send(Msg::Items(vec![b])).is_err()
                            {
                                return;
                            }
                        }
                    }
                    Msg::Failed(f, w, l) => {
                        let _ = tx.send(Msg::Failed(f, w, l));
                        return;
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
    inputs: Vec<Input>,
    jobs: usize,
    plies: bool,
    opts: validate::Options,
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
        let reader = batches(self.inputs.clone(), self.jobs, self.plies, self.opts);
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
        self.inputs.iter().map(|i| i.name.clone()).collect()
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

/// The games table (or, with `plies`, the plies table) of `path`.
#[pyfunction]
#[pyo3(signature = (path, plies = false, variant = None, jobs = None))]
fn read_arrow(
    path: &Bound<'_, PyAny>,
    plies: bool,
    variant: Option<&str>,
    jobs: Option<usize>,
) -> PyResult<ArrowTable> {
    Ok(ArrowTable {
        inputs: inputs(paths_of(path)?)?,
        jobs: jobs_of(jobs)?,
        plies,
        opts: validate::Options {
            variant: variant_of(variant)?,
            ..validate::Options::default()
        },
    })
}

#[pymodule]
fn _pdn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PdnError", m.py().get_type::<PdnError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(games_json, m)?)?;
    m.add_function(wrap_pyfunction!(validate_json, m)?)?;
    m.add_function(wrap_pyfunction!(read_arrow, m)?)?;
    m.add_class::<ArrowTable>()?;
    m.add_class::<JsonLines>()?;
    Ok(())
}
