import { invalidInput } from '../core/errors';
import type { EmulatorContext } from '../instance/context';
import { createRecords } from './creates';
import { parseCsvRecords } from './csv';
import { requireRecordList, userFields } from './fields';
import { keptFields, type RecordScope } from './scope';

/** An uploaded file as the import reads it. */
export interface ImportFile {
  /** The file name as uploaded ('' when the part had none). */
  name: string;
  type: string;
  text: string;
}

/**
 * The records of an import file: CSV cells typed by the schema (a JSON cell may hold anything, so
 * they are checked again as every create is), or a JSON array of records.
 */
function recordsOf(scope: RecordScope, file: ImportFile): Record<string, unknown>[] {
  const name = file.name.toLowerCase();
  if (name.endsWith('.csv') || file.type === 'text/csv') {
    const rows = requireRecordList(parseCsvRecords(file.text), 'The CSV file', keptFields(scope));
    return rows.map((row, index) => userFields(scope.model.fromCsv(row), `CSV row ${index + 2}`, keptFields(scope)));
  }
  if (name.endsWith('.json') || file.type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(file.text) as unknown;
    } catch (error) {
      throw invalidInput('The JSON file is not valid JSON', 'invalid_json_file', (error as Error).message);
    }
    return requireRecordList(parsed, 'The JSON file', keptFields(scope));
  }
  throw invalidInput('Import accepts .csv or .json files', 'unsupported_file_type');
}

/** Creates every record of the file, or none; as many creates would. */
export async function importRecords(context: EmulatorContext, scope: RecordScope, file: ImportFile) {
  const records = await createRecords(context, scope, recordsOf(scope, file));
  return { imported: records.length, records };
}
