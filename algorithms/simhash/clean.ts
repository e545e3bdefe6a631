/**
 * "Stripping numbers and dates" (Seshasai 2009, §4.2 and §6.4.2): every feature that contains a
 * number or represents a date or time is removed. The thesis' example keeps
 * "japans trade surplus hit billion yen billion in growing percent" of
 * "Japan's trade surplus hit 791 billion yen ($6.7 billion) in December, growing 19.9 percent":
 * numbers and the month name go.
 *
 * Applied to the normalized words before features are formed, so that shingles are made of the
 * words that remain. A word is dropped when it holds a digit (any \p{N}, as `normalize` keeps
 * them) or is a month or weekday name or one of their usual abbreviations. Without context a
 * token cannot tell a date from a word, so the abbreviations that are also common English words
 * (may, mar, sat, sun, wed) are kept; "may" is far more often the verb in mail and news.
 */

const DATE_WORDS = new Set([
  'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'mon', 'tue', 'tues', 'thu', 'thur', 'thurs', 'fri',
]);

const NUMBER = /\p{N}/u;

/** Whether a normalized word is stripped: it holds a digit or names a month or weekday. */
export function isNumberOrDate(word: string): boolean {
  return DATE_WORDS.has(word) || NUMBER.test(word);
}

/** `normalized` (words separated by single spaces) without its numbers and dates. */
export function stripNumbersDates(normalized: string): string {
  if (normalized === '') return '';
  return normalized
    .split(' ')
    .filter((w) => !isNumberOrDate(w))
    .join(' ');
}
