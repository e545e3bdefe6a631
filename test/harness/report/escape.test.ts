import { describe, expect, it } from 'vitest';
import { escapeHtml, jsonForScript } from '../../../harness/report/escape.ts';

describe('escapeHtml', () => {
  it('turns markup into text', () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')">&`)).toBe('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;');
  });
});

describe('jsonForScript', () => {
  it('leaves no < > or & that could end a script element or open a comment', () => {
    const s = jsonForScript({ a: '</script><!-- x & y -->' });
    expect(s).not.toMatch(/[<>&]/);
    expect(s).toBe('{"a":"\\u003c/script\\u003e\\u003c!-- x \\u0026 y --\\u003e"}');
  });

  it('writes U+2028 and U+2029 as escapes, not as raw line ends', () => {
    expect(jsonForScript({ l: 'a\u2028b\u2029c&<>' })).toBe('{"l":"a\\u2028b\\u2029c\\u0026\\u003c\\u003e"}');
  });

  it('parses back to the same value', () => {
    const value = { id: '</SCRIPT><img src=x onerror=alert(1)>', line: 'a\u2028b\u2029c', n: [1, 2.5, null] };
    expect(JSON.parse(jsonForScript(value))).toEqual(value);
  });
});
