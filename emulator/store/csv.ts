import { badRequest } from '../http/errors';

/**
 * RFC 4180 CSV: the first row names the fields; quoted fields may hold commas, quotes ("") and line
 * breaks. Cells that are canonical numbers or true/false become numbers and booleans; empty cells
 * are left out of the record. Anything else stays text (so "01234" keeps its leading zero).
 */

function splitRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"' && cell === '') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += char;
    }
    index += 1;
  }
  if (quoted) throw badRequest('The CSV file has an unterminated quoted field', 'invalid_csv');
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((cells) => !(cells.length === 1 && cells[0] === ''));
}

function convertCell(cell: string): unknown {
  if (cell === 'true') return true;
  if (cell === 'false') return false;
  if (cell.trim() !== '' && String(Number(cell)) === cell) return Number(cell);
  return cell;
}

export function parseCsvRecords(text: string): Record<string, unknown>[] {
  const rows = splitRows(text.replace(/^\uFEFF/, ''));
  const header = rows[0];
  if (!header) throw badRequest('The CSV file is empty', 'invalid_csv');
  const names = header.map((name) => name.trim());
  if (names.some((name) => name === '')) throw badRequest('The CSV header has an empty column name', 'invalid_csv');
  if (new Set(names).size !== names.length) throw badRequest('The CSV header names a column twice', 'invalid_csv');
  return rows.slice(1).map((cells, rowIndex) => {
    if (cells.length !== names.length) {
      throw badRequest(`CSV row ${rowIndex + 2} has ${cells.length} cells, the header has ${names.length}`, 'invalid_csv');
    }
    const record: Record<string, unknown> = {};
    cells.forEach((cell, column) => {
      if (cell !== '') record[names[column] as string] = convertCell(cell);
    });
    return record;
  });
}
