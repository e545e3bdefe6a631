/** Parses report HTML with a real HTML parser (htmlparser2) to see what a browser would build. */
import { Parser } from 'htmlparser2';

export interface ParsedPage {
  /** lower-case tag names in document order */
  readonly tags: string[];
  readonly attributes: { tag: string; name: string; value: string }[];
  /** text outside <script> and <style>, entities decoded */
  readonly text: string;
  /** script element contents by id ('' when none) */
  readonly scripts: { id: string; type: string; content: string }[];
}

export function parsePage(html: string): ParsedPage {
  const tags: string[] = [];
  const attributes: ParsedPage['attributes'] = [];
  const scripts: ParsedPage['scripts'] = [];
  let text = '';
  let inScript: { id: string; type: string; content: string } | null = null;
  let inStyle = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        tags.push(name);
        for (const [k, v] of Object.entries(attrs)) attributes.push({ tag: name, name: k, value: v });
        if (name === 'script') inScript = { id: attrs['id'] ?? '', type: attrs['type'] ?? '', content: '' };
        if (name === 'style') inStyle = true;
      },
      ontext(t) {
        if (inScript) inScript.content += t;
        else if (!inStyle) text += t;
      },
      onclosetag(name) {
        if (name === 'script' && inScript) {
          scripts.push(inScript);
          inScript = null;
        }
        if (name === 'style') inStyle = false;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { tags, attributes, text, scripts };
}
