"""Tests of the Python package against the CLI: the same games, tags and findings as
`pdn convert --to json`, the same row counts as the CLI's games and plies, the tables read
by pyarrow, polars and DuckDB from the stream and from `pdn convert --to parquet`, the
worked example of the README, the Dask recipe, and hostile inputs (an exception, never a
crash).

The CLI is $PDN_BIN (else target/release/pdn, else target/debug/pdn); the corpus $PDN_CORPUS (else
../shared/corpus from the project's root)."""

import gzip
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

# What the tests read the tables with: scripts/test-all.sh installs them, and a missing one
# fails the run rather than skipping its tests.
import dask  # noqa: F401  (the Dask recipe's test)
import distributed  # noqa: F401
import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

import pdn

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = pathlib.Path(os.environ.get("PDN_CORPUS", ROOT.parent / "shared" / "corpus"))
PDN = os.environ.get("PDN_BIN") or next(
    (str(p) for p in (ROOT / "target" / "release" / "pdn", ROOT / "target" / "debug" / "pdn") if p.is_file()),
    str(ROOT / "target" / "release" / "pdn"),
)
INTERNATIONAL = CORPUS / "international" / "wiegerw-draughts-wiersma.pdn"


def cli(*args, check=True):
    r = subprocess.run([PDN, *map(str, args)], capture_output=True)
    if check and r.returncode not in (0, 1):
        raise AssertionError(f"pdn {' '.join(map(str, args))}: {r.returncode}: {r.stderr.decode()}")
    return r


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.is_dir():
        pytest.fail(f"the corpus is not at {CORPUS} (set PDN_CORPUS)")
    if not pathlib.Path(PDN).is_file():
        pytest.fail(f"the CLI is not at {PDN} (set PDN_BIN or build it: cargo build --release, or run scripts/test-all.sh)")
    return CORPUS


@pytest.fixture(scope="session")
def corpus_json(corpus):
    r = cli("convert", "--quiet", "--to", "json", corpus)
    return [json.loads(line) for line in r.stdout.decode().splitlines()]


def test_read_games_gives_the_games_tags_and_findings_of_convert_json_on_the_whole_corpus(corpus, corpus_json):
    got = []
    try:
        for g in pdn.read_games(corpus):
            got.append(g)
    except pdn.PdnError as e:
        # The CLI reports an unreadable input and goes on; the package raises. The corpus
        # has none: say which if it does.
        pytest.fail(f"an input of the corpus could not be read: {e} ({e.file}, line {e.line})")
    assert len(got) == len(corpus_json) > 5000
    for g, want in zip(got, corpus_json):
        assert g.json == want, f"{want['file']} game {want['game']}"
        assert g.tags == want["tags"]
        assert [f.to_dict() for f in g.findings] == want["diagnostics"]
        assert g.mainline_moves() == [m["move"] for m in want["moves"] if m["move"] is not None]
    assert sum(1 for g in got if g.findings) > 100


def test_validate_gives_the_findings_of_validate_json(corpus):
    path = CORPUS / "international"
    r = cli("validate", "--format", "json", path)
    want = [json.loads(l) for l in r.stdout.decode().splitlines()]
    want = [d for d in want if d["type"] == "diagnostic"]
    got = list(pdn.validate(path))
    assert got == want
    assert len(got) > 100
    with_records = list(pdn.validate(path, records=True))
    assert sum(1 for d in with_records if d["type"] == "game") > 0


def test_read_arrow_row_counts_are_the_clis_games_and_plies(corpus, corpus_json):
    games = pa.table(pdn.read_arrow(corpus))
    assert games.num_rows == len(corpus_json)
    assert games.column("plies").to_pylist() == [d["plies"] for d in corpus_json]
    assert games.column("file").to_pylist() == [d["file"] for d in corpus_json]
    # The JSON's result is in the variant's standard form, as the table's `result`.
    assert games.column("result").to_pylist() == [d["result"] for d in corpus_json]
    assert [dict(t) for t in games.column("tags").to_pylist()] == [d["tags"] for d in corpus_json]
    plies = pa.table(pdn.read_arrow(corpus, plies=True))
    assert plies.num_rows == sum(d["plies"] for d in corpus_json)
    summary = json.loads(cli("validate", "--format", "json", corpus).stdout.decode().splitlines()[-1])
    assert summary["type"] == "summary"
    assert plies.num_rows == summary["plies"]
    assert games.num_rows == summary["games"]


def test_the_plies_table_has_the_csv_plies(corpus, tmp_path):
    from pyarrow import csv as pacsv

    out = tmp_path / "plies.csv"
    cli("convert", "--quiet", "--to", "csv", "--plies", "-o", out, INTERNATIONAL)
    text = pacsv.ConvertOptions(column_types={c: pa.string() for c in ["move", "path", "captured", "fen_before", "fen_after"]}, strings_can_be_null=False)
    want = pacsv.read_csv(out, convert_options=text)
    got = pa.table(pdn.read_arrow(INTERNATIONAL, plies=True))
    assert got.column_names == want.column_names
    assert got.num_rows == want.num_rows > 2000
    for c in ["file", "game", "ply", "number", "side", "move", "path", "fen_before", "fen_after", "white_men", "black_kings", "promotion"]:
        assert got.column(c).to_pylist() == want.column(c).to_pylist(), c
    assert [" ".join(c) for c in got.column("captured").to_pylist()] == want.column("captured").to_pylist()


def test_polars_duckdb_and_pyarrow_read_the_stream(corpus):
    path = CORPUS / "international"
    t = pdn.read_arrow(path)
    n = pa.table(t).num_rows
    assert pl.DataFrame(t).height == n
    assert duckdb.sql("select count(*) from t").fetchall()[0][0] == n
    plies = pdn.read_arrow(path, plies=True)
    wins = duckdb.sql("select count(*) from plies where promotion").fetchall()[0][0]
    assert wins == pl.DataFrame(plies).filter(pl.col("promotion")).height > 0
    reader = pa.RecordBatchReader.from_stream(plies)
    assert sum(b.num_rows for b in reader) == pa.table(plies).num_rows


def test_the_parquet_files_are_the_arrow_tables(corpus, tmp_path):
    path = CORPUS / "international"
    for plies in (False, True):
        out = tmp_path / ("plies.parquet" if plies else "games.parquet")
        cli("convert", "--quiet", "--to", "parquet", *(["--plies"] if plies else []), "-o", out, path)
        table = pq.read_table(out)
        assert table.equals(pa.table(pdn.read_arrow(path, plies=plies)))
        assert pl.read_parquet(out).height == table.num_rows
        assert duckdb.sql(f"select count(*) from read_parquet('{out}')").fetchall()[0][0] == table.num_rows
    # One file per input with --out-dir, named for the table.
    outdir = tmp_path / "shards"
    cli("convert", "--quiet", "--to", "parquet", "--plies", "--out-dir", outdir, CORPUS / "english")
    files = sorted(outdir.rglob("*.plies.parquet"))
    assert files
    total = sum(pq.read_metadata(f).num_rows for f in files)
    assert total == pa.table(pdn.read_arrow(CORPUS / "english", plies=True)).num_rows


def test_the_readme_example_results_by_opening(corpus, tmp_path):
    archive = CORPUS / "international"
    out = tmp_path / "games.parquet"
    cli("convert", "--quiet", "--to", "parquet", "--classify", "-o", out, archive)
    by_opening = duckdb.sql(
        f"""select tags['Opening'] as opening, count(*) as games,
                   count(*) filter (where result = '2-0') as white_wins,
                   count(*) filter (where result = '0-2') as black_wins
            from read_parquet('{out}') where tags['Opening'] is not null
            group by opening order by games desc, opening"""
    ).fetchall()
    assert len(by_opening) >= 3
    assert sum(r[1] for r in by_opening) > 100
    df = (
        pl.read_parquet(out)
        .with_columns(
            pl.col("tags").map.get("Opening").alias("opening")
        )
        .filter(pl.col("opening").is_not_null())
        .group_by("opening")
        .agg(
            pl.len().alias("games"),
            (pl.col("result") == "2-0").sum().alias("white_wins"),
            (pl.col("result") == "0-2").sum().alias("black_wins"),
        )
        .sort(["games", "opening"], descending=[True, False])
    )
    assert [tuple(r) for r in df.iter_rows()] == [tuple(r) for r in by_opening]


def test_the_dask_recipe_on_a_local_cluster_of_two_workers(corpus, tmp_path):
    sys.path.insert(0, str(ROOT / "python" / "examples"))
    import dask_shards

    shards = sorted((CORPUS / "english").rglob("*.pdn"))[:40] + [INTERNATIONAL]
    counts = dask_shards.results_by_variant(shards, tmp_path / "out", pdn_bin=PDN, workers=2)
    table = pa.table(pdn.read_arrow(shards))
    want = {}
    for v, r in zip(table.column("variant").to_pylist(), table.column("result").to_pylist()):
        want[(v, r)] = want.get((v, r), 0) + 1
    assert counts == want


# Hostile inputs: an exception, never a crash.


def test_a_missing_path_raises_file_not_found():
    with pytest.raises(FileNotFoundError):
        list(pdn.read_games("/nonexistent/x.pdn"))
    with pytest.raises(FileNotFoundError):
        pdn.read_arrow("/nonexistent/x.pdn")


def test_a_binary_file_raises_pdn_error_with_its_name(tmp_path):
    bad = tmp_path / "bad.pdn"
    bad.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(pdn.PdnError) as e:
        list(pdn.read_games(bad))
    assert e.value.file == str(bad)
    assert "binary" in str(e.value)
    with pytest.raises(Exception) as e:
        pa.table(pdn.read_arrow(bad))
    assert "binary" in str(e.value)


def test_a_cut_gzip_archive_raises_after_the_games_before_the_damage(tmp_path):
    text = INTERNATIONAL.read_bytes()
    packed = gzip.compress(text)
    cut = tmp_path / "cut.pdn.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    games = []
    with pytest.raises(pdn.PdnError) as e:
        for g in pdn.read_games(cut):
            games.append(g)
    assert len(games) > 10
    assert e.value.file == str(cut)
    assert e.value.line is not None and e.value.line > 1
    # The whole archive reads as the plain file does.
    whole = tmp_path / "whole.pdn.gz"
    whole.write_bytes(packed)
    assert [g.json["moves"] for g in pdn.read_games(whole)] == [g.json["moves"] for g in pdn.read_games(INTERNATIONAL)]


def test_garbage_text_gives_findings_not_a_crash(tmp_path):
    junk = tmp_path / "junk.pdn"
    junk.write_text(
        '[Event "x\n{ unclosed comment 1. 32-28\n' + "1. 99x1 ((( )))) 12-17-22 $$$ \x1b[31m\n" * 200 + '[White "\\"]\n1-0\x01\n' + "\u202e" * 50,
        encoding="utf-8",
    )
    games = list(pdn.read_games(junk))
    assert games and any(g.findings for g in games)
    assert pa.table(pdn.read_arrow(junk)).num_rows == len(games)
    pa.table(pdn.read_arrow(junk, plies=True))
    assert list(pdn.validate(junk))


def test_a_directory_without_games_reads_as_empty(tmp_path):
    assert list(pdn.read_games(tmp_path)) == []
    t = pa.table(pdn.read_arrow(tmp_path))
    assert t.num_rows == 0 and "tags" in t.column_names


def test_standard_input_and_bad_variants_are_refused():
    with pytest.raises(ValueError):
        pdn.read_arrow("-")
    with pytest.raises(ValueError):
        list(pdn.read_games(INTERNATIONAL, variant="chess"))


def test_a_reader_dropped_early_stops_cleanly(corpus):
    it = pdn.read_games(corpus)
    assert next(it).index == 1
    del it
    assert next(iter(pdn.read_games(INTERNATIONAL))).index == 1


# Search: the query language of `pdn search`, the records of its JSON output.


@pytest.mark.parametrize(
    "options,kwargs",
    [
        (["--moves", "32-28 19-23"], {"moves": "32-28 19-23"}),
        (["--piece", "king", "--captures", "2+"], {"piece": "king", "captures": "2+"}),
        (["--material", "wk=1+,bk=1+", "--side", "white", "--all-occurrences"], {"material": "wk=1+,bk=1+", "side": "white", "all_occurrences": True}),
        (["--pieces", "W:W28:B19", "--not", "W:WK1", "--empty", "23", "--mirror"], {"pieces": "W:W28:B19", "not_": ["W:WK1"], "empty": "23", "mirror": True}),
        (["--from", "31-35", "--to", "26-30", "--variations"], {"from_": "31-35", "to": "26-30", "variations": True}),
    ],
)
def test_search_gives_the_records_of_search_json(corpus, options, kwargs):
    path = CORPUS / "international"
    r = cli("search", "--format", "json", *options, path)
    want = [json.loads(l) for l in r.stdout.decode().splitlines()]
    matches = pdn.search(path, **kwargs)
    got = list(matches)
    assert got == want[:-1]
    assert matches.summary == want[-1] and want[-1]["type"] == "summary"
    assert matches.unreadable == []
    if got:
        t = pdn.search(path, **kwargs).to_arrow()
        assert t.num_rows == len(got)
        assert t.column("ply").to_pylist() == [m["ply"] for m in got]


def test_search_matches_somewhere(corpus):
    assert sum(1 for _ in pdn.search(CORPUS / "international", moves="32-28 19-23")) > 100


def test_a_bad_query_raises_value_error():
    for kwargs in ({}, {"material": "xx=1"}, {"side": "red"}, {"piece": "queen"}, {"position": "not a fen"}):
        with pytest.raises(ValueError):
            list(pdn.search(INTERNATIONAL, **kwargs))


# An unreadable input among others: reported, and reading goes on.


@pytest.fixture
def mixed_dir(tmp_path):
    d = tmp_path / "mixed"
    d.mkdir()
    text = INTERNATIONAL.read_bytes()
    (d / "a-good.pdn").write_bytes(text)
    (d / "b-binary.pdn").write_bytes(bytes(range(256)) * 64)
    packed = gzip.compress(text)
    (d / "c-cut.pdn.gz").write_bytes(packed[: len(packed) // 2])
    (d / "d-good.pdn").write_bytes(text)
    return d


def test_read_games_on_a_directory_goes_on_past_an_unreadable_file(mixed_dir):
    with pytest.warns(pdn.PdnWarning) as caught:
        games = pdn.read_games(mixed_dir)
        got = list(games)
    assert [u.file for u in games.unreadable] == [str(mixed_dir / "b-binary.pdn"), str(mixed_dir / "c-cut.pdn.gz")]
    assert "binary" in games.unreadable[0].message
    assert games.unreadable[1].line is not None
    assert len(caught) == 2
    # The games the CLI reads from the same directory, the last good file's among them.
    r = cli("convert", "--quiet", "--to", "json", mixed_dir, check=False)
    assert r.returncode != 0, "the CLI says some input was not read"
    want = [json.loads(l) for l in r.stdout.decode().splitlines()]
    assert [g.json for g in got] == want
    assert got[-1].file == str(mixed_dir / "d-good.pdn")
    # Asked to, it raises at the first.
    with pytest.raises(pdn.PdnError):
        list(pdn.read_games(mixed_dir, errors="raise"))
    # validate and read_arrow go on too.
    with pytest.warns(pdn.PdnWarning):
        findings = pdn.validate(mixed_dir)
        list(findings)
    assert len(findings.unreadable) == 2
    t = pdn.read_arrow(mixed_dir)
    with pytest.warns(pdn.PdnWarning) as caught:
        assert pa.table(t).num_rows == len(want)
    assert len(caught) == 2
    assert [u[0] for u in t.unreadable] == [u.file for u in games.unreadable]
    with pytest.raises(Exception):
        pa.table(pdn.read_arrow(mixed_dir, errors="raise"))


# A game whose plies pass the table's text limit (1 GiB of rows; lowered here through the
# native module's `chunk_text`, for the tests): never dropped in silence.


def test_plies_past_the_text_limit_raise_or_warn_and_are_listed(corpus):
    whole = pa.table(pdn.read_arrow(INTERNATIONAL, plies=True)).num_rows
    name = str(INTERNATIONAL)
    with pytest.raises(Exception, match=re.escape(name) + r": game 1: its last \d+ plies are not in the table"):
        pa.table(pdn._pdn.read_arrow(name, True, None, 1, "raise", chunk_text=2000))
    t = pdn._pdn.read_arrow(name, True, None, 2, "warn", chunk_text=2000)
    with pytest.warns(pdn.PdnWarning, match=r"game \d+: its last \d+ plies") as caught:
        got = pa.table(t).num_rows
    cut = t.unreadable
    assert len(cut) > 10 and len(caught) == len(cut)
    assert all(u[0] == name and re.search(r"game \d+: its last \d+ plies are not in the table \(over 2000 bytes", u[1]) for u in cut)
    assert all(u[2] is not None for u in cut)
    lost = sum(int(re.search(r"its last (\d+) plies", u[1]).group(1)) for u in cut)
    assert 0 < got and got + lost == whole
    # polars and DuckDB read the same stream, warned alike.
    with pytest.warns(pdn.PdnWarning):
        assert pl.DataFrame(t).height == got
    with pytest.warns(pdn.PdnWarning):
        assert duckdb.sql("select count(*) from t").fetchall() == [(got,)]
    # Under the limit, nothing is listed or warned of.
    t = pdn._pdn.read_arrow(name, True, None, 1, "warn")
    assert pa.table(t).num_rows == whole and t.unreadable == []


# The README's examples, extracted from README.md and run as written, so that they cannot
# drift from the package.


def readme_blocks(lang):
    text = (ROOT / "README.md").read_text()
    start = text.index("### Python and datasets")
    section = text[start : text.index("\n### ", start + 1)]
    return re.findall(r"```" + lang + r"\n(.*?)```", section, re.S)


def test_the_readme_python_and_duckdb_examples_run_as_written(corpus, tmp_path, monkeypatch):
    archive = tmp_path / "archive"
    archive.mkdir()
    files = sorted((CORPUS / "international").rglob("*.pdn"))
    for i, f in enumerate(files[:300] + [INTERNATIONAL]):
        (archive / f"{i:04}-{f.name}").write_bytes(f.read_bytes())
    monkeypatch.chdir(tmp_path)
    python, duckdb_block, polars_block = readme_blocks("python")
    install, convert, _dask = readme_blocks("sh")
    assert [l.split("#")[0].split() for l in install.splitlines()] == [
        ["pip", "install", "./python"],
        ["pip", "install", "duckdb", "polars", "pyarrow"],
    ]
    exec(compile(python, "README.md (Python and datasets)", "exec"), {})
    # `pdn convert ... -o games.parquet`, then the DuckDB query.
    args = shlex.split(convert)
    assert args[:2] == ["pdn", "convert"]
    subprocess.run([PDN, *args[1:]], check=True, capture_output=True)
    scope = {}
    exec(compile(duckdb_block, "README.md (DuckDB)", "exec"), scope)
    by_duckdb = scope["by_opening"].fetchall()
    assert len(by_duckdb) >= 3 and sum(r[1] for r in by_duckdb) > 50
    # The same in polars: its block is an import and one expression.
    head, expr = polars_block.split("\n", 1)
    scope = {}
    exec(head, scope)
    by_polars = [tuple(r) for r in eval(expr, scope).iter_rows()]
    # Both sort by games only: rows of equal games may come in any order, and the last
    # count may be cut at 20 rows differently.
    assert [r[1] for r in by_polars] == [r[1] for r in by_duckdb]
    last = by_duckdb[-1][1]
    assert {r for r in by_polars if r[1] > last} == {r for r in by_duckdb if r[1] > last}
