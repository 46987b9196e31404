/**
 * What may be uploaded for each purpose (SPEC section 5, Files). The route refuses other types
 * with a translated message listing the allowed ones.
 */
export const UPLOAD_KINDS = {
  attachment: [
    'pdf',
    'jpg',
    'jpeg',
    'txt',
    'rtf',
    'tif',
    'tiff',
    'doc',
    'docx',
    'xls',
    'xlsx',
    'dcm',
    'dicom',
  ],
  lineListing: ['xlsx'],
  cioms: ['pdf', 'zip'],
  e2b: ['xml', 'zip'],
  dsur: ['zip', 'pdf', 'jpg'],
  certificate: ['jpg', 'png'],
  literature: ['png', 'jpg', 'jpeg', 'mp3', 'wma', 'avi', 'viv', 'ram', 'mp4'],
} as const satisfies Record<string, readonly string[]>;

export type UploadKind = keyof typeof UPLOAD_KINDS;

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

export function isAllowed(kind: UploadKind, fileName: string): boolean {
  return (UPLOAD_KINDS[kind] as readonly string[]).includes(extensionOf(fileName));
}
