import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../../harness/corpus/html.ts';

describe('htmlToText', () => {
  it('turns every tag boundary into a space', () => {
    expect(htmlToText('a<br>b')).toBe('a b');
    expect(htmlToText('one<p>two</p>three')).toBe('one two three');
  });

  it('writes one space for consecutive tags, nested or not', () => {
    expect(htmlToText('<div><p><b>x</b></p></div><span>y</span>')).toBe('x y');
  });

  it('keeps the white space of the text itself', () => {
    expect(htmlToText('<p>a  b\n c</p>')).toBe('a  b\n c');
  });

  it('drops a comment without a boundary space', () => {
    expect(htmlToText('a<!-- note -->b')).toBe('ab');
  });

  it('drops the head, scripts, styles, comments and the doctype', () => {
    const html =
      '<!DOCTYPE html><html><head><title>Title</title><style>p { color: red }</style></head>' +
      '<body>visible<!-- hidden --> text<script>var s = "<b>no</b>";</script> end</body></html>';
    // The space before "end" is the source's; the one before it is the </script> boundary.
    expect(htmlToText(html)).toBe('visible text  end');
  });

  it('handles uppercase tags like lowercase ones', () => {
    expect(htmlToText('<HTML><HEAD><TITLE>t</TITLE></HEAD><BODY>A<BR>B<SCRIPT>x()</SCRIPT>C</BODY></HTML>')).toBe('A B C');
  });

  it('decodes named, numeric and legacy unterminated entities', () => {
    expect(htmlToText('caf&eacute; &#233; &#xE9; fish &amp; chips a&nbsp;b')).toBe('café é é fish & chips a\u00a0b');
  });

  it('drops everything after a script that is never closed', () => {
    expect(htmlToText('before <script>alert(1); <p>after</p>')).toBe('before');
  });

  it('drops a script tag cut off before its ">"', () => {
    expect(htmlToText('before <script src="x.js"')).toBe('before');
  });

  it('ends an unclosed head at the first body element', () => {
    expect(htmlToText('<head><title>t</title><p>body text')).toBe('body text');
  });

  it('keeps text that only looks like a tag', () => {
    expect(htmlToText('1 < 2 and 3 > 2')).toBe('1 < 2 and 3 > 2');
  });

  it('returns an empty string for markup with no text', () => {
    expect(htmlToText('<html><body><img src="a.gif"><br></body></html>')).toBe('');
  });
});
