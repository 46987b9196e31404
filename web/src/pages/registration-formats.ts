/**
 * The registration page's format checks: the shared formats of schemas/entities/formats.json, the
 * rules the server checks the registration with (policy.ts reads the same file).
 */
import formats from '../../../schemas/entities/formats.json';

/** Fields checked against the shared formats (schemas/entities/formats.json), as the server checks them. */
const FORMAT_OF: Readonly<Record<string, keyof typeof formats.$defs>> = {
  code: 'tenantCode',
  account: 'account',
  email: 'email',
  phone: 'phone',
};

export function breaksFormat(name: string, value: string): boolean {
  const format = FORMAT_OF[name]
    ? (formats.$defs[FORMAT_OF[name]] as { pattern: string; maxLength?: number })
    : null;
  if (!format || value === '') return false;
  return !new RegExp(format.pattern, 'u').test(value) || value.length > (format.maxLength ?? Infinity);
}
