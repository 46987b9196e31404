/**
 * A refusal of interchange input or output. `key` is a message key of the `interchange` i18n
 * namespace (schemas/i18n/interchange/{zh,en}.json); `params` fill its `{name}` placeholders.
 */
export class InterchangeError extends Error {
  readonly key: string;
  readonly params: Record<string, string | number>;

  /** `key` is given without the namespace prefix (`xml.tooLarge` -> `interchange.xml.tooLarge`). */
  constructor(key: string, params: Record<string, string | number> = {}, detail?: string) {
    const full = `interchange.${key}`;
    const shown = Object.entries(params)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    super(`${full}${shown ? ` (${shown})` : ''}${detail ? `: ${detail}` : ''}`);
    this.name = 'InterchangeError';
    this.key = full;
    this.params = params;
  }
}

export const isInterchangeError = (e: unknown): e is InterchangeError => e instanceof InterchangeError;

/** Fills `{name}` placeholders of a catalogue message. */
export function formatMessage(
  catalogue: Record<string, string>,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const template = catalogue[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
