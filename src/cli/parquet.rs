//! `convert --to parquet`: the Arrow tables of `pdn::app::write::export::table` written as one
//! Parquet file per output (Snappy-compressed pages, row groups of at most 256 Ki rows so
//! that memory stays bounded). The encoder writes into memory; what it has written is
//! passed on to the output after every batch, so the output need not be seekable (a pipe
//! is fine) and nothing but one row group waits in memory.

use std::io::Write;
use std::sync::Arc;

use anyhow::{Context, Result};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;
use pdn::app::write::export::table::{BATCH_ROWS, GameRow, GameTable, PlyChunk, PlyTable};

/// The table being written.
enum Table {
    Games(Box<GameTable>),
    Plies(Box<PlyTable>),
}

/// One Parquet output being written to `W`.
pub(super) struct ParquetOut<W: Write> {
    out: W,
    table: Table,
    writer: ArrowWriter<Vec<u8>>,
}

impl<W: Write> ParquetOut<W> {
    /// Start a file of the games table, or of the plies table with `plies`.
    pub(super) fn new(out: W, plies: bool) -> Result<ParquetOut<W>> {
        let (table, schema) = if plies {
            (Table::Plies(Box::new(PlyTable::new())), PlyTable::schema())
        } else {
            (
                Table::Games(Box::new(GameTable::new())),
                GameTable::schema(),
            )
        };
        let mut props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(4 * BATCH_ROWS))
            .set_created_by(format!("pdn {}", env!("CARGO_PKG_VERSION")));
        if plies {
            // Nearly every position is new: a dictionary of them costs a hash per row and
            // is given up at its size limit anyway, and their min/max say nothing.
            for column in ["fen_before", "fen_after"] {
                let path = ColumnPath::from(column);
                props = props
                    .set_column_dictionary_enabled(path.clone(), false)
                    .set_column_statistics_enabled(path, EnabledStatistics::None);
            }
        }
        let props = props.build();
        let writer = ArrowWriter::try_new(
            Vec::with_capacity(1 << 20),
            Arc::clone(&schema),
            Some(props),
        )
        .context("cannot start the Parquet file")?;
        Ok(ParquetOut { out, table, writer })
    }

    /// Append a game's row (games table).
    pub(super) fn game(&mut self, row: &GameRow) -> Result<()> {
        if let Table::Games(t) = &mut self.table
            && let Some(b) = t.push(row)
        {
            self.writer.write(&b)?;
            self.drain()?;
        }
        Ok(())
    }

    /// Append a game's plies (plies table).
    pub(super) fn plies(&mut self, chunk: &PlyChunk) -> Result<()> {
        if let Some(note) = chunk.cut_note() {
            super::progress::message(&format!(
                "pdn convert: {}: {note}",
                pdn::app::write::terminal::escape(&chunk.file),
            ));
        }
        if let Table::Plies(t) = &mut self.table
            && let Some(b) = t.push(chunk)
        {
            self.writer.write(&b)?;
            self.drain()?;
        }
        Ok(())
    }

    /// Pass what the encoder wrote on to the output.
    fn drain(&mut self) -> Result<()> {
        let buf = self.writer.inner_mut();
        if !buf.is_empty() {
            self.out.write_all(buf)?;
            buf.clear();
        }
        Ok(())
    }

    /// Write the last rows and the footer; the output, to be finished.
    pub(super) fn finish(mut self) -> Result<W> {
        let last = match &mut self.table {
            Table::Games(t) => t.finish(),
            Table::Plies(t) => t.finish(),
        };
        if last.num_rows() > 0 {
            self.writer.write(&last)?;
        }
        let ParquetOut {
            mut out, writer, ..
        } = self;
        let rest = writer
            .into_inner()
            .context("cannot finish the Parquet file")?;
        out.write_all(&rest)?;
        Ok(out)
    }
}
