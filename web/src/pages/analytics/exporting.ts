/**
 * Export of a chart and its table: PNG (the chart as drawn on its canvas) and Excel (exceljs: the
 * table's values in a sheet with the chart image beside it), both made in the browser from what
 * the screen shows.
 */
import ExcelJS from 'exceljs';

export interface ExportTable {
  title: string;
  headers: string[];
  rows: (string | number)[][];
}

function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** File names keep letters of any script, digits and dashes. */
export function fileStem(title: string): string {
  return title.replace(/[^\p{L}\p{N}-]+/gu, '-').replace(/^-+|-+$/g, '') || 'chart';
}

export async function pngOf(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas'))), 'image/png'),
  );
}

export async function exportPng(canvas: HTMLCanvasElement, title: string): Promise<void> {
  save(await pngOf(canvas), `${fileStem(title)}.png`);
}

export async function workbookOf(table: ExportTable, canvas: HTMLCanvasElement | null): Promise<Blob> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(table.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || 'Sheet1');
  sheet.addRow([table.title]);
  sheet.addRow(table.headers).font = { bold: true };
  for (const row of table.rows) sheet.addRow(row);
  table.headers.forEach((_, i) => (sheet.getColumn(i + 1).width = i === table.headers.length - 1 ? 12 : 28));
  if (canvas) {
    const base64 = canvas.toDataURL('image/png').split(',')[1]!;
    const image = book.addImage({ base64, extension: 'png' });
    sheet.addImage(image, {
      tl: { col: table.headers.length + 1, row: 1 },
      ext: { width: canvas.width, height: canvas.height },
    });
  }
  const buffer = await book.xlsx.writeBuffer();
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

export async function exportExcel(table: ExportTable, canvas: HTMLCanvasElement | null): Promise<void> {
  save(await workbookOf(table, canvas), `${fileStem(table.title)}.xlsx`);
}
