/** The labelled values of a record, in the order of its form's schema (nested objects flattened as `a.b`). */
import type { LocalisedText } from '../../i18n';
import type { FormDefinition } from '../definition';
import { valueAt } from '../definition';

export interface RecordField {
  path: string;
  label: LocalisedText;
  text: string;
}

type Schema = Record<string, unknown>;

export function recordFields(
  form: FormDefinition,
  record: Record<string, unknown>,
  pick: (text: LocalisedText) => string,
  t: (key: string) => string,
): RecordField[] {
  const fields: RecordField[] = [];
  const walk = (schema: Schema, prefix: string) => {
    for (const [name, child] of Object.entries((schema.properties as Record<string, Schema>) ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (child.type === 'object' && child.properties) {
        walk(child, path);
        continue;
      }
      const value = valueAt(record, path);
      const one = (v: unknown): string => {
        if (v === null || v === undefined) return '';
        if (typeof v === 'boolean') return t(v ? 'common.yes' : 'common.no');
        // An item of a list of objects (e.g. study staff): its values, in the schema's order.
        if (typeof v === 'object')
          return Object.values(v)
            .filter((x) => x !== null && x !== '')
            .join(' ');
        const option = form.labels[`${path}.${String(v)}`];
        return option ? pick(option) : String(v);
      };
      fields.push({
        path,
        label: form.labels[path] ?? { zh: path, en: path },
        text: Array.isArray(value) ? value.map(one).join(t('common.listSeparator')) : one(value),
      });
    }
  };
  walk(form.schema, '');
  return fields;
}
