/**
 * One line of a command's CSV output split into fields: commas separate them, and a field in
 * double quotes may hold commas and doubled quotes (RFC 4180, within one line). Undefined for a
 * line whose quotes do not close.
 */
export function csvFields(line: string): string[] | undefined {
  if (!line.includes('"')) return line.split(',');
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return undefined;
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      fields.push(value);
      if (i === line.length) return fields;
      if (line[i] !== ',') return undefined;
      i++;
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? line.length : comma;
      const value = line.slice(i, end);
      if (value.includes('"')) return undefined;
      fields.push(value);
      if (comma < 0) return fields;
      i = comma + 1;
    }
  }
}
