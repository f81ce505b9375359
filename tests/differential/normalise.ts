/**
 * What may differ between two correct backends and is not compared: generated ids (each distinct id
 * becomes `id#N`, numbered by first appearance in the row, so "the record just created" still has to
 * be the same record), timestamps (their format is compared: ISO 8601 in UTC or without an offset),
 * tokens, and the backend's own address in URLs it hands out (`<backend>`).
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/;
const ID_KEYS = /(^id$|_id$)/;
const TOKEN_KEYS = new Set(['access_token', 'token']);

export class Normaliser {
  private readonly ids = new Map<string, string>();

  /** `backendUrl`: the answering backend's own origin, written `<backend>` in every string (URLs it hands out). */
  constructor(private readonly backendUrl = '') {}

  private id(value: string): string {
    let mapped = this.ids.get(value);
    if (!mapped) {
      mapped = `id#${this.ids.size + 1}`;
      this.ids.set(value, mapped);
    }
    return mapped;
  }

  /** An id the row saved (to put it into a later path) is numbered like the ids in bodies. */
  known(value: string): string {
    return this.id(value);
  }

  value(input: unknown, key = ''): unknown {
    if (Array.isArray(input)) return input.map((item) => this.value(item, key));
    if (input !== null && typeof input === 'object') {
      const result: Record<string, unknown> = {};
      for (const name of Object.keys(input).sort()) {
        result[name] = this.value((input as Record<string, unknown>)[name], name);
      }
      return result;
    }
    if (typeof input !== 'string') return input;
    if (TOKEN_KEYS.has(key)) return '<token>';
    // The app's id is the same on both backends (the project's): compared as it is.
    if (ID_KEYS.test(key) && key !== 'app_id') return this.id(input);
    if (ISO_DATE.test(input)) return '<date>';
    // Ids quoted in messages ("Entity Note with ID … not found").
    let text = this.backendUrl === '' ? input : input.split(this.backendUrl).join('<backend>');
    for (const [raw, mapped] of this.ids) if (raw.length >= 8) text = text.split(raw).join(mapped);
    return text;
  }
}
