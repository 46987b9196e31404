/**
 * A file sent as the raw request body (the request layer sends JSON only), with the session's
 * headers and the file name in X-File-Name. A refused upload shows the server's message (as every
 * call does) and throws; the answer's `data` otherwise.
 */
import { notify } from './notify';
import { session } from './session';
import { langType, translate } from '../i18n';

export async function uploadFile<T>(url: string, file: File): Promise<T> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/octet-stream',
    'Lang-Type': langType(session.language()),
    'X-File-Name': encodeURIComponent(file.name),
    sysOrgId: session.sysOrgId() ?? '',
    projectId: session.projectId() ?? '',
    studyProjectIds: session.studyProjectIds().join(','),
  };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  type Answer = { code?: number; msg?: string; data?: T } | null;
  const body = await fetch(url, { method: 'POST', headers, body: file }).then(
    (response) => response.json().catch(() => null) as Promise<Answer>,
    () => {
      notify.toast('error', translate(session.language(), 'request.network'));
      throw new Error('network');
    },
  );
  session.touch();
  if (body?.code !== 200 || !body.data) {
    const message = body?.msg || translate(session.language(), 'request.unknown');
    notify.toast('error', message);
    throw new Error(message);
  }
  return body.data;
}
