import { CsvError, parse } from 'csv-parse/sync';

import { invalidInput } from '../core/errors';

/**
 * CSV import, parsed by csv-parse (RFC 4180: quoted fields may hold commas, quotes ("") and line
 * breaks). The first row names the fields. Cells that are canonical numbers or true/false become
 * numbers and booleans; empty cells are left out of the record. Anything else stays text (so
 * "01234" keeps its leading zero). Records are built with own properties only (Object.fromEntries),
 * so a column named `__proto__` is an ordinary key that record validation then refuses, never a
 * prototype.
 */

function readRows(text: string): string[][] {
  try {
    // Every line ending counts, even mixed in one file (csv-parse otherwise keeps the first one it sees).
    const options = {
      bom: true,
      skip_empty_lines: true,
      relax_quotes: true,
      relax_column_count: true,
      record_delimiter: ['\r\n', '\n', '\r'],
    };
    return parse(text, options) as string[][];
  } catch (error) {
    if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED') {
      throw invalidInput('The CSV file has an unterminated quoted field', 'invalid_csv');
    }
    throw invalidInput(
      'The CSV file cannot be parsed',
      'invalid_csv',
      error instanceof Error ? error.message : String(error),
    );
  }
}

function convertCell(cell: string): unknown {
  if (cell === 'true') return true;
  if (cell === 'false') return false;
  if (cell.trim() !== '' && String(Number(cell)) === cell) return Number(cell);
  return cell;
}

export function parseCsvRecords(text: string): Record<string, unknown>[] {
  const rows = readRows(text);
  const header = rows[0];
  if (!header) throw invalidInput('The CSV file is empty', 'invalid_csv');
  const names = header.map((name) => name.trim());
  if (names.some((name) => name === '')) throw invalidInput('The CSV header has an empty column name', 'invalid_csv');
  if (new Set(names).size !== names.length) throw invalidInput('The CSV header names a column twice', 'invalid_csv');
  return rows.slice(1).map((cells, rowIndex) => {
    if (cells.length !== names.length) {
      throw invalidInput(
        `CSV row ${rowIndex + 2} has ${cells.length} cells, the header has ${names.length}`,
        'invalid_csv',
      );
    }
    return Object.fromEntries(
      cells.flatMap((cell, column) => (cell === '' ? [] : [[names[column] as string, convertCell(cell)] as const])),
    );
  });
}
