/**
 * The filters above every pooled-analysis chart (schemas/analytics/filters.json): a date range on
 * C.1.4 or on the reactions' onset (E.i.4), report type, seriousness, sex (code lists from the
 * declarations), age group (the bands of the caller's projects' rules), country and product (typed,
 * comma separated), and whether invalid cases count.
 */
import { useState } from 'react';
import { Button, Checkbox, Dropdown, Field, Input, Option, makeStyles } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { useLanguage } from '../../i18n/LanguageContext';
import type { AnalyticsQuery, Declarations } from './types';

const useStyles = makeStyles({
  bar: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'end' },
  field: { minWidth: '150px' },
});

const ANY = '';
const day = (iso: string) => (iso ? iso.replace(/-/g, '') : undefined);
const list = (text: string) =>
  text
    .split(/[,，]/)
    .map((s) => s.trim())
    .filter(Boolean);

export function FilterBar({
  declarations,
  onApply,
}: {
  declarations: Declarations;
  onApply(query: AnalyticsQuery): void;
}) {
  const styles = useStyles();
  const { t, pick, language } = useLanguage();
  const [dateBasis, setDateBasis] = useState<'received' | 'onset'>('received');
  const [ageStratum, setAgeStratum] = useState(ANY);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [reportType, setReportType] = useState(ANY);
  const [serious, setSerious] = useState(ANY);
  const [sex, setSex] = useState(ANY);
  const [country, setCountry] = useState('');
  const [product, setProduct] = useState('');
  const [includeInvalid, setIncludeInvalid] = useState(false);
  const filter = (id: string) => declarations.filters.find((f) => f.id === id);
  const optionText = (o: { zh: string; en: string }) => pick({ zh: o.zh, en: o.en });

  const choice = (
    id: string,
    value: string,
    set: (v: string) => void,
    options: { code: string; text: string }[],
  ) => (
    <Field className={styles.field} label={pick(filter(id)?.labels ?? { zh: id, en: id })}>
      <Dropdown
        data-testid={`analytics-filter-${id}`}
        value={value === ANY ? t('analytics.any') : (options.find((o) => o.code === value)?.text ?? value)}
        selectedOptions={[value]}
        onOptionSelect={(_: unknown, d: OptionOnSelectData) => set(d.optionValue ?? ANY)}
      >
        <Option value={ANY}>{t('analytics.any')}</Option>
        {options.map((o) => (
          <Option key={o.code} value={o.code}>
            {o.text}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );

  const apply = () =>
    onApply({
      includeInvalid,
      filters: {
        ...(from || to
          ? {
              [dateBasis]: { ...(day(from) ? { from: day(from) } : {}), ...(day(to) ? { to: day(to) } : {}) },
            }
          : {}),
        ...(reportType ? { reportType: [reportType] } : {}),
        ...(serious ? { serious: [serious === 'yes'] } : {}),
        ...(sex ? { sex: [sex] } : {}),
        ...(ageStratum ? { ageStratum: [ageStratum] } : {}),
        ...(list(country).length ? { country: list(country).map((c) => c.toUpperCase()) } : {}),
        ...(list(product).length ? { product: list(product) } : {}),
      },
    });

  return (
    <div className={styles.bar} data-testid="analytics-filters" lang={language === 'en' ? 'en' : 'zh-CN'}>
      <Field className={styles.field} label={t('analytics.dateBasis')}>
        <Dropdown
          data-testid="analytics-filter-dateBasis"
          value={pick(filter(dateBasis)?.labels ?? { zh: dateBasis, en: dateBasis })}
          selectedOptions={[dateBasis]}
          onOptionSelect={(_: unknown, d: OptionOnSelectData) =>
            setDateBasis(d.optionValue === 'onset' ? 'onset' : 'received')
          }
        >
          {(['received', 'onset'] as const).map((id) => (
            <Option key={id} value={id}>
              {pick(filter(id)?.labels ?? { zh: id, en: id })}
            </Option>
          ))}
        </Dropdown>
      </Field>
      <Field className={styles.field} label={`${pick(filter(dateBasis)?.labels ?? { zh: '', en: '' })} ≥`}>
        <Input
          type="date"
          value={from}
          onChange={(_, d) => setFrom(d.value)}
          data-testid="analytics-filter-from"
        />
      </Field>
      <Field className={styles.field} label={`${pick(filter(dateBasis)?.labels ?? { zh: '', en: '' })} ≤`}>
        <Input type="date" value={to} onChange={(_, d) => setTo(d.value)} data-testid="analytics-filter-to" />
      </Field>
      {choice(
        'reportType',
        reportType,
        setReportType,
        (filter('reportType')?.options ?? []).map((o) => ({ code: o.code, text: optionText(o) })),
      )}
      {choice('serious', serious, setSerious, [
        { code: 'yes', text: t('analytics.yes') },
        { code: 'no', text: t('analytics.no') },
      ])}
      {choice(
        'sex',
        sex,
        setSex,
        (filter('sex')?.options ?? []).map((o) => ({ code: o.code, text: optionText(o) })),
      )}
      {choice(
        'ageStratum',
        ageStratum,
        setAgeStratum,
        (filter('ageStratum')?.options ?? []).map((o) => ({ code: o.code, text: optionText(o) })),
      )}
      <Field className={styles.field} label={pick(filter('country')?.labels ?? { zh: '', en: '' })}>
        <Input
          value={country}
          placeholder="CN, US"
          onChange={(_, d) => setCountry(d.value)}
          data-testid="analytics-filter-country"
        />
      </Field>
      <Field className={styles.field} label={pick(filter('product')?.labels ?? { zh: '', en: '' })}>
        <Input
          value={product}
          onChange={(_, d) => setProduct(d.value)}
          data-testid="analytics-filter-product"
        />
      </Field>
      <Checkbox
        checked={includeInvalid}
        onChange={(_, d) => setIncludeInvalid(d.checked === true)}
        label={t('analytics.includeInvalid')}
      />
      <Button appearance="primary" onClick={apply} data-testid="analytics-apply">
        {t('analytics.apply')}
      </Button>
    </div>
  );
}
