//! The one table type of the reports (`sizes`, `bench`, `bench game`): a
//! header and rows of typed cells, written as aligned text, as Markdown, as
//! CSV (through the `csv` crate) or as JSON (one object per row, keyed by
//! the header, numbers as numbers and empty cells as `null`).
//!
//! A row shorter than the header is a note: in text its last cell runs on
//! under the columns it does not fill; in Markdown and CSV it is padded with
//! empty cells; in JSON the missing cells are `null`.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq};

/// How a column is aligned in text and Markdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text, left-aligned.
    Left,
    /// Numbers, right-aligned.
    Right,
}

/// One cell: what it shows, and what it is in JSON.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Nothing (`null` in JSON, empty elsewhere).
    Empty,
    /// Free text.
    Text(String),
    /// A whole number.
    Int(u64),
    /// A number shown with this many decimals (JSON keeps every digit).
    Float(f64, usize),
    /// `true` / `false`.
    Bool(bool),
}

impl Cell {
    /// The text of the cell in text, Markdown and CSV.
    pub fn show(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(s) => s.clone(),
            Cell::Int(n) => n.to_string(),
            Cell::Float(x, decimals) => format!("{x:.decimals$}"),
            Cell::Bool(b) => b.to_string(),
        }
    }

    /// A whole number, or [`Cell::Empty`] for `None`.
    pub fn int(value: Option<impl Into<u64>>) -> Cell {
        value.map_or(Cell::Empty, |v| Cell::Int(v.into()))
    }

    /// A count, or [`Cell::Empty`] for `None`.
    pub fn count(value: Option<usize>) -> Cell {
        value.map_or(Cell::Empty, |v| Cell::Int(v as u64))
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Text(s.to_string())
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Text(s)
    }
}

impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Cell::Empty => s.serialize_none(),
            Cell::Text(t) => s.serialize_str(t),
            Cell::Int(n) => s.serialize_u64(*n),
            Cell::Float(x, _) => s.serialize_f64(*x),
            Cell::Bool(b) => s.serialize_bool(*b),
        }
    }
}

/// A header and rows of cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Alignment of each column.
    pub align: Vec<Align>,
    /// The rows; a shorter one is a note (see the module doc).
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table with these `(name, alignment)` columns.
    pub fn new<S: Into<String>>(columns: impl IntoIterator<Item = (S, Align)>) -> Table {
        let (header, align) = columns.into_iter().map(|(n, a)| (n.into(), a)).unzip();
        Table {
            header,
            align,
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub fn push(&mut self, row: Vec<Cell>) {
        self.rows.push(row);
    }

    /// The cells of `row` padded with empty cells to the header's width.
    fn padded(&self, row: &[Cell]) -> Vec<String> {
        let mut cells: Vec<String> = row.iter().map(Cell::show).collect();
        cells.resize(self.header.len().max(cells.len()), String::new());
        cells
    }

    /// A Markdown table: a header, a rule (`---:` for numbers), one line per row.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("| {} |\n", self.header.join(" | "));
        let rule: Vec<&str> = self
            .align
            .iter()
            .map(|&a| if a == Align::Right { "---:" } else { "---" })
            .collect();
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for row in &self.rows {
            let cells: Vec<String> = self
                .padded(row)
                .iter()
                .map(|c| c.replace('|', "\\|"))
                .collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        out
    }

    /// An aligned text table: columns two spaces apart, numbers right-aligned,
    /// no trailing blanks.
    pub fn to_text(&self) -> String {
        let n = self.header.len();
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| r.iter().map(Cell::show).collect())
            .collect();
        let widths: Vec<usize> = (0..n)
            .map(|i| {
                // A short row's last cell is a note that runs on; its other
                // cells are aligned as a full row's.
                rows.iter()
                    .filter(|r| r.len() == n || i + 1 < r.len())
                    .map(|r| r[i].chars().count())
                    .chain([self.header[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate() {
                let pad = widths[i].saturating_sub(c.chars().count());
                if i > 0 {
                    s.push_str("  ");
                }
                if self.align[i] == Align::Right {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                } else {
                    s.push_str(c);
                    if i + 1 < cells.len() {
                        s.push_str(&" ".repeat(pad));
                    }
                }
            }
            s.trim_end().to_string()
        };
        let mut out = line(&self.header);
        out.push('\n');
        for row in &rows {
            if row.len() >= n {
                out.push_str(&line(&row[..n]));
            } else {
                // A note running on under the columns it does not fill.
                let lead = &row[..row.len().saturating_sub(1)];
                let mut s = line(lead);
                let pad = widths[..lead.len()].iter().sum::<usize>() + 2 * lead.len();
                s.push_str(&" ".repeat(pad.saturating_sub(s.chars().count())));
                s.push_str(row.last().map_or("", String::as_str));
                out.push_str(&s);
            }
            out.push('\n');
        }
        out
    }

    /// CSV with a header line; fields quoted only where CSV needs it.
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let written = std::iter::once(self.header.clone())
            .chain(self.rows.iter().map(|r| self.padded(r)))
            .try_for_each(|record| w.write_record(&record));
        written.expect("writing to memory cannot fail");
        let bytes = w.into_inner().expect("writing to memory cannot fail");
        String::from_utf8(bytes).expect("the cells are UTF-8")
    }

    /// Pretty JSON: an array with one object per row, keyed by the header in order.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a table serialises")
    }
}

/// One row as a JSON object in column order.
struct RowObject<'a> {
    header: &'a [String],
    row: &'a [Cell],
}

impl Serialize for RowObject<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.header.len()))?;
        for (i, name) in self.header.iter().enumerate() {
            map.serialize_entry(name, self.row.get(i).unwrap_or(&Cell::Empty))?;
        }
        map.end()
    }
}

impl Serialize for Table {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.rows.len()))?;
        for row in &self.rows {
            seq.serialize_element(&RowObject {
                header: &self.header,
                row,
            })?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new([("name", Align::Left), ("n", Align::Right)]);
        t.push(vec!["a|b".into(), Cell::Int(12)]);
        t.push(vec!["long name".into(), Cell::Empty]);
        t.push(vec!["note, with comma".into()]);
        t
    }

    #[test]
    fn text_aligns_numbers_right_and_notes_run_on() {
        assert_eq!(
            sample().to_text(),
            "name        n\na|b        12\nlong name\nnote, with comma\n"
        );
    }

    #[test]
    fn a_short_rows_leading_cells_set_the_widths_too() {
        // Every row a note after a name: the names were not aligned
        // ("direct,amo=pairwise  norefused: …").
        let mut t = Table::new([
            ("encoding", Align::Left),
            ("approximate", Align::Left),
            ("variables", Align::Right),
            ("clauses", Align::Right),
        ]);
        t.push(vec![
            "direct".into(),
            "no".into(),
            "refused: too large".into(),
        ]);
        t.push(vec![
            "direct,amo=pairwise".into(),
            "no".into(),
            "refused: too large".into(),
        ]);
        assert_eq!(
            t.to_text(),
            "encoding             approximate  variables  clauses\n\
             direct               no           refused: too large\n\
             direct,amo=pairwise  no           refused: too large\n"
        );
    }

    #[test]
    fn markdown_escapes_bars_and_pads_notes() {
        assert_eq!(
            sample().to_markdown(),
            "| name | n |\n|---|---:|\n| a\\|b | 12 |\n| long name |  |\n| note, with comma |  |\n"
        );
    }

    #[test]
    fn csv_quotes_only_where_needed() {
        assert_eq!(
            sample().to_csv(),
            "name,n\na|b,12\nlong name,\n\"note, with comma\",\n"
        );
    }

    #[test]
    fn json_keeps_types_and_column_order() {
        let mut t = Table::new([("z", Align::Left), ("a", Align::Right)]);
        t.push(vec![Cell::Bool(true), Cell::Float(0.123456, 2)]);
        t.push(vec![Cell::Empty]);
        let v: serde_json::Value = serde_json::from_str(&t.to_json()).unwrap();
        assert_eq!(v[0]["z"], true);
        assert_eq!(v[0]["a"], 0.123456);
        assert!(v[1]["a"].is_null());
        assert!(t.to_json().find("\"z\"").unwrap() < t.to_json().find("\"a\"").unwrap());
        assert_eq!(t.to_csv(), "z,a\ntrue,0.12\n,\n");
    }
}
