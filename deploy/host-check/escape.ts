/**
 * Everything `check:host` prints that came from the host (a header value, a `<meta>` content, a
 * title, a Location) goes through here first. A host controls those bytes: a carriage return or an
 * escape sequence (`\x1b[2J` clears the screen) would rewrite the table around it, and a bidi
 * override would show a verdict other than the one printed.
 */

/**
 * Characters a terminal acts on instead of showing: C0 controls (tab and newline too, which would
 * break a row), DEL, C1 controls (U+009B is a one-character CSI on some terminals), the bidi
 * controls, the line and paragraph separators, and lone surrogates.
 */
const ACTIVE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The active characters JSON.stringify leaves as they are (it escapes C0 and lone surrogates itself). */
const ACTIVE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

const NAMED: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };

function escapeCharacter(character: string): string {
  const named = NAMED[character];
  if (named) return named;
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Host text made safe to print: backslashes doubled, every active character shown as an escape. */
export function escapeForTerminal(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(ACTIVE, escapeCharacter);
}

/**
 * JSON whose every string is safe in a terminal: the active characters JSON.stringify leaves raw get
 * `\uXXXX` escapes (the same JSON value). Only strings can hold them, so the layout is untouched.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    ACTIVE_IN_JSON,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
