/**
 * Content-Disposition with the file name: an ASCII fallback in `filename` for old clients and the
 * exact UTF-8 name in `filename*` (RFC 6266 / RFC 5987), so Chinese names survive the download.
 */
export function contentDisposition(fileName: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const name = fileName.replace(/[\r\n]/g, ' ').trim() || 'download';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Reads the name a client sent in X-File-Name (percent-encoded UTF-8, or plain ASCII). */
export function decodeFileName(header: string | undefined | null): string | null {
  if (!header) return null;
  let name = header;
  try {
    name = decodeURIComponent(header);
  } catch {
    // Not percent-encoded: take it as sent.
  }
  // Only the last path segment: a name is not a place in our file system.
  const last = name.split(/[\\/]/).pop()!;
  // Control characters (CR, LF, NUL ...) never belong in a name.
  name = [...last]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .trim();
  return name === '' || name === '.' || name === '..' ? null : name.slice(0, 255);
}
