/**
 * The chart as drawn, from its canvas: the PNG the browser saves, and the same image sent with an
 * Excel, Word or PDF export (ExportMenu) for the server to put beside the table.
 */

function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** File names keep letters of any script, digits and dashes. */
function fileStem(title: string): string {
  return title.replace(/[^\p{L}\p{N}-]+/gu, '-').replace(/^-+|-+$/g, '') || 'chart';
}

async function pngOf(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas'))), 'image/png'),
  );
}

export async function exportPng(canvas: HTMLCanvasElement, title: string): Promise<void> {
  save(await pngOf(canvas), `${fileStem(title)}.png`);
}

/** The canvas as a PNG in base64 (without the data URL's prefix), as the export routes take it. */
export function pngBase64(canvas: HTMLCanvasElement): string {
  return canvas.toDataURL('image/png').split(',')[1] ?? '';
}
