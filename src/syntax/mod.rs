//! The PDN syntax layer: reading, the grammar and writing of PDN files. It knows nothing of
//! legality (being built).
