import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../../harness/corpus/html.ts';

/**
 * The reference the scanner replaced: htmlparser2's Parser with the same rules (head, script
 * and style dropped, a space for every tag event). On well-formed pages both must agree.
 */
function viaHtmlparser2(html: string): string {
  let out = '';
  let atBoundary = true;
  let inHead = false;
  let dropped = 0;
  const boundary = () => {
    if (!atBoundary) out += ' ';
    atBoundary = true;
  };
  const headContent = ['title', 'meta', 'link', 'base', 'style', 'script', 'noscript'];
  const parser = new Parser(
    {
      onopentagname(name) {
        if (name === 'head') inHead = true;
        else if (inHead && !headContent.includes(name)) inHead = false;
        if (name === 'script' || name === 'style') dropped++;
        boundary();
      },
      onclosetag(name) {
        if (name === 'head') inHead = false;
        else if ((name === 'script' || name === 'style') && dropped > 0) dropped--;
        boundary();
      },
      ontext(text) {
        if (dropped > 0 || inHead || text === '') return;
        out += text;
        atBoundary = false;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return out.trim();
}

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

  it('keeps a ">" inside a quoted attribute value in the tag', () => {
    expect(htmlToText('<a title="x > y" href=\'a>b\'>link</a>after')).toBe('link after');
  });

  it('ends an unquoted attribute value at white space or ">", not at a quote', () => {
    // the value is x"y; the tag ends at the first '>'
    expect(htmlToText('<a href=x"y>z</a>')).toBe('z');
  });

  it('drops the rest of the input after an attribute quote that is never closed', () => {
    expect(htmlToText('kept <a title="never closed>lost</a>')).toBe('kept');
  });

  it('ends comments at "-->", "--!>" and the abrupt "<!-->" and "<!--->"', () => {
    expect(htmlToText('a<!-- x -- y -->b<!-- z --!>c<!-->d<!--->e')).toBe('abcde');
  });

  it('drops the rest of the input after a comment that is never closed', () => {
    expect(htmlToText('a<!-- b <p>c')).toBe('a');
  });

  it('drops CDATA, processing instructions and bogus comments without a space', () => {
    // `</ d>` is a bogus comment: the d inside it goes too
    expect(htmlToText('a<![CDATA[x<y]]>b<?php echo 1 ?>c</ d>e</>f<!x>g')).toBe('abcefg');
  });

  it('writes a space for an end tag that closes nothing', () => {
    expect(htmlToText('a</span>b')).toBe('a b');
  });

  it('ends a script only at "</script" followed by white space, "/" or ">"', () => {
    expect(htmlToText('<script>document.write("</div>"); if (a<b) x("</scripts>")</script >ok')).toBe('ok');
    expect(htmlToText('<style>p{}</STYLE/>ok')).toBe('ok');
  });

  it('keeps a title outside the head with its entities decoded and its tags as text', () => {
    expect(htmlToText('<body><title>a <b>&amp; c</title>d')).toBe('a <b>& c d');
  });

  it('keeps the text of a textarea as it is shown, tags included', () => {
    expect(htmlToText('x<textarea><p>1 &lt; 2</textarea>y')).toBe('x <p>1 < 2 y');
  });

  it('keeps the content of xmp and plaintext raw, entities included', () => {
    expect(htmlToText('<xmp><b>bold</b> &amp;</xmp>after')).toBe('<b>bold</b> &amp; after');
    expect(htmlToText('<plaintext><p>rest &amp; </p>')).toBe('<p>rest &amp; </p>');
  });

  it('reads the content of noframes, noembed and iframe as HTML', () => {
    // htmlparser2 takes it as raw text and would give "<body><p>No frames</p></body>"
    expect(htmlToText('<frameset></frameset><noframes><body><p>No frames</p></body></noframes>')).toBe('No frames');
    expect(htmlToText('<iframe src="a.html"><a href="a.html">the ad</a></iframe>')).toBe('the ad');
  });

  it('ends the head at </body>, </html> and </br> as well as </head>', () => {
    expect(htmlToText('<head><title>t</title></body>one')).toBe('one');
    expect(htmlToText('<head><meta></html>two')).toBe('two');
    expect(htmlToText('<head><link></br>three')).toBe('three');
    expect(htmlToText('<head><link></p>hidden')).toBe('');
  });

  it('keeps a "<" or "</" at the end of the input as text', () => {
    expect(htmlToText('a <')).toBe('a <');
    expect(htmlToText('a </')).toBe('a </');
  });

  it('drops a tag cut off inside its name at the end of the input', () => {
    expect(htmlToText('text <b')).toBe('text');
    expect(htmlToText('text </di')).toBe('text');
  });

  it('decodes an entity that ends where a tag begins', () => {
    expect(htmlToText('fish &amp<b>chips</b>&lt;3')).toBe('fish & chips <3');
  });

  it('gives the text htmlparser2 gives on well-formed pages', () => {
    const pages = [
      '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">\n<HTML><HEAD><TITLE>Agency &amp; Co</TITLE>' +
        '<META http-equiv="Content-Type" content="text/html; charset=utf-8">' +
        '<SCRIPT type="text/javascript">if (a < b && c > d) { document.write("<p>x</p>"); }</SCRIPT>' +
        '<STYLE>td > a { color: red }</STYLE></HEAD>\n<BODY bgcolor=white>' +
        '<TABLE><TR><TD><A HREF="/a?x=1&amp;y=2" title="a > b">Home</A></TD><TD>About&nbsp;us</TD></TR></TABLE>' +
        '<!-- navigation --><H1>Caf&eacute; prices</H1><P>Tea &pound;2 &mdash; coffee &#163;3 &#x2014; cake.</P>' +
        '<UL><LI>one<LI>two</UL><BR><IMG SRC="a.gif" ALT="pic">end</BODY></HTML>\n',
      '<html><head><title>t</title></head><body><div class="a"><p>First <b>bold</b>, <i>italic</i>.</p>' +
        '<p>Second\n   line &quot;quoted&quot; &copy; 2004</p></div><form action="/s"><input name=q value="x">' +
        '<select><option>A<option>B</select><textarea>typed &lt;here&gt;</textarea></form></body></html>',
    ];
    for (const page of pages) expect(htmlToText(page)).toBe(viaHtmlparser2(page));
    expect(htmlToText(pages[0]!).replace(/[ \n]+/g, ' ')).toBe('Home About\u00a0us Café prices Tea £2 — coffee £3 — cake. one two end');
  });
});


describe('htmlToDocument (title and tagged text for simhash, Seshasai 2009 §5.4)', () => {
  const page =
    '<HTML><HEAD><TITLE>Agency &amp;\n Co</TITLE></HEAD><BODY><TABLE><TR><TD><A HREF="/a">Home</A></TD><TD>About</TD></TR></TABLE>' +
    '<H1>Caf&eacute; <I>prices</I></H1><P>Tea is <b>cheap</b>, <strong>not</strong> <h4>this</h4> <h2>but <a>this</a></h2>.</P></BODY></HTML>';

  it('gives exactly the text of htmlToText', async () => {
    const { htmlToDocument } = await import('../../../harness/corpus/html.ts');
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../fixtures/html/site/', import.meta.url);
    const pages = [page, 'x<b>y', '<b>a</b></b></b>b', '<i><a>x</i>y</a>z'];
    for (const f of readdirSync(dir, { recursive: true }) as string[]) if (/\.html?$/.test(f)) pages.push(readFileSync(new URL(f, dir), 'latin1'));
    expect(pages.length).toBeGreaterThan(4);
    for (const p of pages) expect(htmlToDocument(p).text).toBe(htmlToText(p));
  });

  it('keeps the first title, decoded and collapsed, and the text of a, b, i and h1-h3, one element a line', async () => {
    const { htmlToDocument } = await import('../../../harness/corpus/html.ts');
    const d = htmlToDocument(page);
    expect(d.title).toBe('Agency & Co');
    // by hand: <A>Home</A>; <H1> with its nested <I>; <b>cheap</b>; <h2> with its nested <a>
    // (strong and h4 are not emphasis elements here)
    expect(d.tagged).toBe('Home\nCafé  prices\ncheap\nbut  this');
  });

  it('ignores end tags that close nothing and keeps an unclosed element open to the end', async () => {
    const { htmlToDocument } = await import('../../../harness/corpus/html.ts');
    expect(htmlToDocument('a</b>b<b>c').tagged).toBe('c');
    expect(htmlToDocument('<p>plain</p>').tagged).toBe('');
    expect(htmlToDocument('<p>plain</p>').title).toBeUndefined();
    expect(htmlToDocument('<title>  </title>x').title).toBeUndefined();
  });
});
