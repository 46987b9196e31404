/** Test helpers of the unblinding tests: blinding-list workbooks and their upload. */
import ExcelJS from 'exceljs';
import { LIST_COLUMNS, GROUP_COLUMNS } from './workbook';

export interface ListRowInput {
  randomisationNumber?: string;
  subjectNumber?: string;
  treatmentGroup?: string;
  productNumber?: string;
  kitBatch?: string;
  route?: string;
}

/** A workbook as the template lays it out; `omit` leaves a list column out, `groups` false the Groups sheet. */
export async function listWorkbook(
  rows: ListRowInput[],
  options: { omit?: string; groups?: { name: string; kind: string; productName?: string }[] | false } = {},
): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const list = workbook.addWorksheet('List');
  const columns = LIST_COLUMNS.filter((c) => c.key !== options.omit);
  list.addRow(columns.map((c) => c.en));
  for (const row of rows) list.addRow(columns.map((c) => row[c.key] ?? ''));
  if (options.groups !== false) {
    const groups = workbook.addWorksheet('Groups');
    groups.addRow(GROUP_COLUMNS.map((c) => c.en));
    for (const group of options.groups ?? [
      { name: 'A', kind: 'active', productName: 'XY-101' },
      { name: 'B', kind: 'placebo', productName: '' },
    ])
      groups.addRow([group.name, group.kind, group.productName ?? '']);
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** Uploads bytes as the blinding list of a project; answers the envelope. */
export async function uploadList(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  token: string,
  projectId: string,
  fileName: string,
  bytes: Uint8Array,
  lang: 'en' | 'cn' = 'en',
): Promise<{ status: number; body: { code: number; msg: string; data: Record<string, unknown> | null } }> {
  const res = await app.request(`/api/unblinding/projects/${projectId}/blinding-list`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'x-file-name': encodeURIComponent(fileName),
      'lang-type': lang,
    },
    body: new Blob([bytes as BlobPart]),
  });
  return {
    status: res.status,
    body: (await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null },
  };
}
