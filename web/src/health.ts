/** The server's /health answer, as the skeleton shows it. */
export interface Health {
  status: string;
  backend: 'embedded' | 'mongodb';
  version: string;
  storeLatencyMs: number;
  uptimeSeconds: number;
  time: string;
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export async function fetchHealth(lang: 'cn' | 'en', signal?: AbortSignal): Promise<Health> {
  const response = await fetch('/health', { headers: { 'Lang-Type': lang }, signal });
  const body = (await response.json()) as Envelope<Health>;
  if (body.code !== 200) throw new Error(body.msg);
  return body.data;
}
