/**
 * The script of a page with a quality selector and sortable tables (the leaderboard, a run's
 * comparison): choosing a measure redraws the charts listed in a JSON block (chart id → measure
 * key → chart.js config) and sorts each table by that measure's column, best first; a click (or
 * Enter) on a header sorts by that column. Static code: data reaches it only as JSON.
 */
export function interactiveScript(dataId: string): string {
  return `
(function () {
  'use strict';
  var block = document.getElementById(${JSON.stringify(dataId)});
  var byChart = block ? JSON.parse(block.textContent) : {};
  var select = document.getElementById('measure');
  function sortKey(cell) {
    var v = cell.getAttribute('data-v');
    if (v === null) return { empty: false, text: cell.textContent };
    if (v === '') return { empty: true };
    return { empty: false, num: Number(v) };
  }
  function sortBy(table, col, th, dir) {
    dir = dir || (th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending');
    Array.prototype.forEach.call(th.parentNode.cells, function (c) { c.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir);
    var sign = dir === 'ascending' ? 1 : -1;
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.sort(function (a, b) {
      var x = sortKey(a.cells[col]), y = sortKey(b.cells[col]);
      if (x.empty || y.empty) return (x.empty ? 1 : 0) - (y.empty ? 1 : 0);
      if ('num' in x && 'num' in y) return sign * (x.num - y.num);
      return sign * String(x.text).localeCompare(String(y.text));
    });
    rows.forEach(function (r) { tbody.appendChild(r); });
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.classList.add('sortable');
      th.tabIndex = 0;
      th.addEventListener('click', function () { sortBy(table, col, th); });
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(table, col, th); }
      });
    });
  });
  if (select) select.addEventListener('change', function () {
    Object.keys(byChart).forEach(function (id) { window.benchDraw(id, byChart[id][select.value]); });
    document.querySelectorAll('table.sortable').forEach(function (table) {
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
        if (th.getAttribute('data-measure') !== select.value) return;
        sortBy(table, col, th, th.getAttribute('data-worse') === 'higher' ? 'ascending' : 'descending');
      });
    });
  });
})();
`;
}
