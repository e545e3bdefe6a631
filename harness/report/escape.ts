/**
 * Escaping for the reports. Everything a corpus or a config supplies (ids, subjects, file
 * names, experiment and variant names) passes through one of these before it reaches HTML.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * JSON safe inside `<script type="application/json">`: `<` becomes \u003c so that neither
 * `</script>` nor `<!--` can end or alter the script element; `>` and `&` likewise for good
 * measure, and U+2028/2029 because older parsers treat them as line ends in script text.
 */
export function jsonForScript(value: unknown): string {
  // One pass over the text, not one a character: a run's error browser carries megabytes of mail.
  const json = value instanceof SerializedJson ? value.json : JSON.stringify(value);
  return json.replace(/[<>&\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c] as string);
}

/** A value's JSON made already (JSON.stringify's text of it): jsonForScript escapes it without serializing it again. */
export class SerializedJson {
  constructor(readonly json: string) {}
}

const SCRIPT_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
