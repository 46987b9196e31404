/** Export of the rows shown to an XLSX file (exceljs, loaded only when exporting). */
import { saveFile } from '../../api/request';

export async function exportXlsx(
  fileName: string,
  sheetName: string,
  header: string[],
  rows: string[][],
): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
  sheet.addRow(header).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  sheet.columns.forEach((column, i) => {
    const longest = Math.max(header[i]?.length ?? 0, ...rows.map((r) => r[i]?.length ?? 0));
    column.width = Math.min(60, Math.max(10, longest + 2));
  });
  const buffer = await workbook.xlsx.writeBuffer();
  saveFile({
    blob: new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
    fileName: `${fileName}.xlsx`,
  });
}
