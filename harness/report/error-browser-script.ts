/**
 * The error browser's script (error-browser.ts): static code, the errors reach it only as JSON.
 * It renders lazily: the rows of the variant shown, PAGE at a time, and the texts of the one
 * error opened (their block is parsed on the first opening). Every text goes into the page as
 * a text node (createTextNode, textContent), so markup in a document is shown, never run.
 */

/** Rows of the list built at a time. */
export const ERROR_ROWS_PAGE = 100;

export function errorBrowserScript(): string {
  return `
(function () {
  'use strict';
  var block = document.getElementById('error-data');
  if (!block) return;
  var PAGE = ${ERROR_ROWS_PAGE};
  var data = JSON.parse(block.textContent);
  var texts = null;
  function textsOf() {
    if (texts === null) texts = JSON.parse(document.getElementById('error-texts').textContent);
    return texts;
  }
  var variantSelect = document.getElementById('err-variant');
  var kindSelect = document.getElementById('err-kind');
  var rows = document.getElementById('err-rows');
  var more = document.getElementById('err-more');
  var detail = document.getElementById('err-detail');
  var summary = document.getElementById('err-summary');
  var shown = [];
  var built = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function num(x) { return x === null ? '–' : String(Number(x.toPrecision(4))); }
  function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

  function list() {
    var v = data.variants[Number(variantSelect.value)];
    var kind = kindSelect.value;
    shown = v.errors.filter(function (e) { return kind === '' || e.kind === kind; });
    built = 0;
    rows.textContent = '';
    detail.hidden = true;
    detail.textContent = '';
    summary.textContent = v.name + ': ' + plural(v.falsePositives, 'false positive') + ' and ' + plural(v.falseNegatives, 'false negative') +
      (v.clustered ? '; of its clusters, ' + plural(v.clustered.falsePositives, 'false positive') + ' and ' + plural(v.clustered.falseNegatives, 'false negative') : '') +
      (v.judged ? '; against the judges, ' + plural(v.judged.falsePositives, 'judged non-duplicate') + ' decided and ' + plural(v.judged.falseNegatives, 'judged duplicate') + ' missed' : '') +
      '; the sample holds ' + plural(v.errors.length, 'error') + (kind === '' ? '' : ', ' + shown.length + ' of them ' + kindSelect.options[kindSelect.selectedIndex].text) + '.';
    page();
  }

  function page() {
    var end = Math.min(shown.length, built + PAGE);
    var frag = document.createDocumentFragment();
    for (var i = built; i < end; i++) frag.appendChild(row(shown[i], i));
    rows.appendChild(frag);
    built = end;
    more.hidden = built >= shown.length;
    more.textContent = 'Show ' + Math.min(PAGE, shown.length - built) + ' more of ' + (shown.length - built);
  }

  function row(e, i) {
    var tr = el('tr');
    tr.tabIndex = 0;
    tr.setAttribute('data-i', String(i));
    [e.kind, String(e.rank), e.x.a.id, e.x.b.id, num(e.x.exact.resemblance), e.x.run.score === null ? 'not reported' : num(e.x.run.score), num(e.w)].forEach(function (t, c) {
      tr.appendChild(el('td', c === 2 || c === 3 ? 'id' : c >= 4 || c === 1 ? 'num' : '', t));
    });
    tr.cells[2].title = e.x.a.id;
    tr.cells[3].title = e.x.b.id;
    return tr;
  }

  // The text with the spans marked; the spans are merged and in text order. A text the run cut
  // (shorter than the document) shows what it holds of them and says what it left out.
  function marked(text, side) {
    var pre = el('pre', 'err-text');
    var at = 0;
    var beyond = 0;
    side.spans.forEach(function (s) {
      var start = Math.max(s[0], at), end = Math.min(s[1], text.length);
      if (start >= text.length) { beyond++; return; }
      if (start > at) pre.appendChild(document.createTextNode(text.slice(at, start)));
      if (end > start) {
        var m = el('mark', '', text.slice(start, end));
        m.setAttribute('data-start', String(s[0]));
        m.setAttribute('data-end', String(end));
        pre.appendChild(m);
      }
      at = Math.max(at, end);
    });
    if (at < text.length) pre.appendChild(document.createTextNode(text.slice(at)));
    if (text.length < side.chars) {
      pre.appendChild(el('span', 'err-cut', '[cut: the report carries the first ' + text.length + ' of ' + side.chars + ' characters' +
        (beyond > 0 ? '; ' + plural(beyond, 'more shared span') + (beyond === 1 ? ' lies' : ' lie') + ' in the rest' : '') + ']'));
    }
    return pre;
  }

  function sideBox(label, side, text) {
    var box = el('div', 'err-side');
    var covered = side.spans.reduce(function (n, s) { return n + s[1] - s[0]; }, 0);
    box.appendChild(el('div', 'side-head', label + ' ' + side.id + ' · ' + side.chars + ' characters, ' + side.words + ' words, ' + side.features + ' features · shared: ' +
      plural(side.spans.length, 'span') + ', ' + covered + ' characters'));
    box.appendChild(text === undefined ? el('p', 'err-cut', 'This run carries no texts of its errors (it was written before the report showed them): run it again to see them.') : marked(text, side));
    return box;
  }

  function open(i) {
    var e = shown[i];
    var x = e.x;
    var t = textsOf();
    Array.prototype.forEach.call(rows.rows, function (r) { r.setAttribute('aria-selected', String(Number(r.getAttribute('data-i')) === i)); });
    detail.textContent = '';
    // An error against the judges, or of the clusters, says so; the verdict is the exact truth's, of the pair.
    detail.appendChild(el('h3', '', x.variant + ' on ' + x.a.id + ' and ' + x.b.id + ': ' + (e.kind === x.verdict ? x.verdict : e.kind + ' (by the exact truth: ' + x.verdict + ')')));
    detail.appendChild(el('p', 'note', 'exact resemblance ' + num(x.exact.resemblance) + ' (' + x.exact.variant + ': ' + x.exact.shared + ' shared of ' +
      (x.a.features + x.b.features - x.exact.shared) + ' features); near-duplicates from ' + x.threshold + ': ' + (x.exact.near_duplicate ? 'yes' : 'no') + ' · ' +
      x.variant + ' (' + x.algorithm + '): ' + (x.run.score === null ? 'not reported' : 'score ' + num(x.run.score)) + ', decides ' + x.run.rule + ': ' +
      (x.run.decided ? 'a near-duplicate' : 'not a near-duplicate') +
      (x.clusters ? ' · its clusters: ' + (x.clusters.together ? 'both in one cluster of ' + x.clusters.size_a : 'in ' + (x.clusters.size_a > 1 ? 'a cluster of ' + x.clusters.size_a : 'no cluster') + ' and ' + (x.clusters.size_b > 1 ? 'a cluster of ' + x.clusters.size_b : 'no cluster')) + ' (' + x.clusters.verdict + ')' : '') +
      (e.judgment === undefined ? '' : ' · the judges: ' + (e.judgment === null ? 'not judged' : e.judgment))));
    var grid = el('div', 'err-grid');
    grid.appendChild(sideBox('A', x.a, e.ta < 0 ? undefined : t[e.ta]));
    grid.appendChild(sideBox('B', x.b, e.tb < 0 ? undefined : t[e.tb]));
    var why = el('div', 'err-evidence');
    if (x.chain) {
      var c = x.chain;
      why.appendChild(el('div', 'side-head', 'one cluster of ' + c.cluster_size + ' documents: ' + (c.bounded ? 'the chain of fewest links' : 'the strongest chain') + ' of ' +
        (c.made_of === 'decided pairs' ? 'the pairs it decided before closure' : 'the pairs inside the cluster (the links before closure are not known)') +
        ', ' + plural(c.links.length, 'link') + ', weakest first'));
      if (c.bounded) why.appendChild(el('p', 'err-summary', c.bounded));
      why.appendChild(el('pre', 'err-chain', c.links.map(function (l) { return num(l.resemblance) + '  ' + l.from + ' – ' + l.to + '  (link ' + l.step + ' from A)'; }).join('\\n')));
    }
    if (x.evidence) {
      why.appendChild(el('div', 'side-head', 'why (' + x.algorithm + ')'));
      why.appendChild(el('p', 'err-summary', x.evidence.summary));
      why.appendChild(el('pre', 'err-lines', x.evidence.lines.join('\\n')));
    } else {
      why.appendChild(el('div', 'side-head', x.algorithm + ' gives no evidence of its own (its adapter has no explain hook)'));
    }
    grid.appendChild(why);
    detail.appendChild(grid);
    detail.hidden = false;
  }

  function pick(ev) {
    var tr = ev.target.closest('tr[data-i]');
    if (tr) open(Number(tr.getAttribute('data-i')));
  }
  rows.addEventListener('click', pick);
  rows.addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); pick(ev); }
  });
  more.addEventListener('click', page);
  variantSelect.addEventListener('change', list);
  kindSelect.addEventListener('change', list);
  list();
})();
`;
}
