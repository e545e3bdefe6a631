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
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
