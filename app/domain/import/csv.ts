// CSV for member import and export. Pure: a small RFC 4180 parser (quoted fields,
// doubled quotes, commas, semicolons or tabs, CRLF/LF), UTF-8 decoding that refuses other encodings,
// and spreadsheet formula-injection guards for both directions.

export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 50_000;
export const MAX_COLUMNS = 50;

export class CsvError extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/** UTF-8 (with or without BOM) only; anything else is a clear error rather than mangled names. */
export function decodeCsv(bytes: Uint8Array): string {
  if (bytes.length > MAX_IMPORT_BYTES) throw new CsvError("import.errors.tooBig");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CsvError("import.errors.encoding");
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\u0000")) throw new CsvError("import.errors.encoding");
  return text;
}

function detectDelimiter(firstLine: string): string {
  const counts = [",", ";", "\t"].map((d) => [d, firstLine.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0][1] > 0 ? counts[0][0] : ",";
}

/** Parses CSV text into rows of strings. Throws CsvError for an unterminated quote or too many rows/columns. */
export function parseCsv(text: string): string[][] {
  const firstBreak = text.search(/\r?\n/);
  const delimiter = detectDelimiter(firstBreak === -1 ? text : text.slice(0, firstBreak));
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const n = text.length;
  const endRow = () => {
    row.push(field);
    field = "";
    if (!(row.length === 1 && row[0].trim() === "")) rows.push(row);
    if (rows.length > MAX_IMPORT_ROWS + 1) throw new CsvError("import.errors.tooManyRows");
    if (row.length > MAX_COLUMNS) throw new CsvError("import.errors.tooManyColumns");
    row = [];
  };
  while (i < n) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field.trim() === "") {
      quoted = true;
      field = "";
      i++;
    } else if (c === delimiter) {
      row.push(field);
      field = "";
      i++;
    } else if (c === "\r" || c === "\n") {
      endRow();
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new CsvError("import.errors.malformed");
  if (field !== "" || row.length) endRow();
  return rows;
}

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * An imported text value made safe: control characters removed, and a leading formula character
 * (= + - @, or tab/CR) stripped so "=HYPERLINK(…)" is stored as plain text, never a formula.
 */
export function sanitiseCell(value: string): string {
  return value.replace(CONTROL, "").trim().replace(/^[=+\-@\t\r]+/, "").trim();
}

/** An exported cell: quoted, and a value a spreadsheet would read as a formula is prefixed with '. */
export function csvCell(value: string | number | null | undefined): string {
  let v = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n;]/.test(v) || v.startsWith("'") ? `"${v.replace(/"/g, '""')}"` : v;
}

export function csvLine(cells: (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
