/**
 * The WHODrug list with advanced search and detail (SPEC 2, /reportmanagment/whodrug): drug name or
 * code, ATC code, company, country, generic or preferred names only; the detail shows the generic
 * and trade names, each ATC code with its texts from level 1 down, the company and country.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  Option,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData, DialogOpenChangeData } from '@fluentui/react-components';
import { RequestError } from '../../api/request';
import { dictionaries } from './api';
import type { DictionaryVersion, WhodrugDetail, WhodrugHit, WhodrugSearch } from './api';
import { useDictionaryText } from './text';
import { DataTable } from '../../renderers/table/DataTable';

const PAGE = 50;

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  muted: { color: tokens.colorNeutralForeground3 },
  error: { color: tokens.colorPaletteRedForeground1 },
});

export function WhodrugList() {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const [versions, setVersions] = useState<DictionaryVersion[]>([]);
  const [criteria, setCriteria] = useState<WhodrugSearch>({ version: '' });
  const [result, setResult] = useState<{ total: number; items: WhodrugHit[]; offset: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [detail, setDetail] = useState<WhodrugDetail | null>(null);

  useEffect(() => {
    void dictionaries.versions('whodrug').then(setVersions, () => setVersions([]));
  }, []);

  const set = (patch: Partial<WhodrugSearch>) => setCriteria((current) => ({ ...current, ...patch }));
  const ref = { version: criteria.version || undefined };

  const run = (offset: number) => {
    setBusy(true);
    setError(null);
    dictionaries
      .whodrugSearch({ ...criteria, version: criteria.version || undefined, offset, limit: PAGE })
      .then(
        (page) => setResult({ ...page, offset }),
        (failure: unknown) => {
          setResult(null);
          setError(failure instanceof RequestError ? failure.message : String(failure));
        },
      )
      .finally(() => setBusy(false));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    run(0);
  };

  return (
    <div className={styles.box} data-testid="whodrug-list">
      <form className={styles.row} onSubmit={submit}>
        <Field label={dt('uiVersion')}>
          <Dropdown
            value={criteria.version || dt('uiProjectVersion')}
            selectedOptions={[criteria.version ?? '']}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
              set({ version: data.optionValue ?? '' })
            }
          >
            <Option value="">{dt('uiProjectVersion')}</Option>
            {versions.map((v) => (
              <Option key={v.versionId} value={v.version}>
                {v.version}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label={dt('uiDrugNameOrCode')}>
          <Input
            value={criteria.query ?? ''}
            onChange={(_, d) => set({ query: d.value })}
            data-testid="whodrug-query"
          />
        </Field>
        <Field label={dt('uiAtcCode')}>
          <Input
            value={criteria.atcCode ?? ''}
            onChange={(_, d) => set({ atcCode: d.value.toUpperCase() })}
          />
        </Field>
        <Field label={dt('uiCompany')}>
          <Input value={criteria.company ?? ''} onChange={(_, d) => set({ company: d.value })} />
        </Field>
        <Field label={dt('uiCountryCode')}>
          <Input
            value={criteria.countryCode ?? ''}
            onChange={(_, d) => set({ countryCode: d.value.toUpperCase() })}
          />
        </Field>
        <Checkbox
          label={dt('uiGenericOnly')}
          checked={criteria.genericOnly === true}
          onChange={(_, d) => set({ genericOnly: d.checked === true })}
        />
        <Checkbox
          label={dt('uiPreferredOnly')}
          checked={criteria.preferredOnly === true}
          onChange={(_, d) => set({ preferredOnly: d.checked === true })}
        />
        <Button type="submit" appearance="primary" disabled={busy}>
          {dt('uiSearch')}
        </Button>
      </form>
      {error ? (
        <Text className={styles.error} role="alert">
          {error}
        </Text>
      ) : null}
      {busy ? <Spinner size="tiny" /> : null}
      {result ? (
        <>
          <Text className={styles.muted}>{dt('uiResultCount', { total: result.total })}</Text>
          <DataTable<(typeof result.items)[number]>
            id="whodrugSearch"
            ariaLabel={dt('uiWhodrugTitle')}
            serialOffset={result.offset}
            columns={[
              { key: 'drugCode', label: dt('uiDrugCode'), width: 130, text: (hit) => hit.drugCode },
              {
                key: 'name',
                label: dt('uiDrugName'),
                width: 260,
                text: (hit) => hit.name,
                render: (hit, text) => (
                  <>
                    {text}{' '}
                    {hit.kind === 'trade' ? <Badge appearance="outline">{dt('uiTradeName')}</Badge> : null}
                  </>
                ),
              },
              { key: 'genericName', label: dt('uiGenericName'), width: 220, text: (hit) => hit.genericName },
              { key: 'atc', label: dt('uiAtcCode'), width: 140, text: (hit) => hit.atcCodes.join(', ') },
              {
                key: 'company',
                label: dt('uiCompany'),
                width: 260,
                text: (hit) => (hit.company ? `${hit.company.name} (${hit.company.countryCode})` : ''),
              },
            ]}
            rows={result.items}
            rowKey={(hit) => hit.drugCode}
            onRowClick={(hit) => void dictionaries.whodrugDetail(ref, hit.drugCode).then(setDetail)}
            empty={dt('uiResultCount', { total: 0 })}
          />
          <div className={styles.row}>
            <Button
              disabled={result.offset === 0 || busy}
              onClick={() => run(Math.max(0, result.offset - PAGE))}
            >
              {dt('uiPrevious')}
            </Button>
            <Button
              disabled={result.offset + PAGE >= result.total || busy}
              onClick={() => run(result.offset + PAGE)}
            >
              {dt('uiNext')}
            </Button>
          </div>
        </>
      ) : null}
      <Dialog
        open={detail !== null}
        onOpenChange={(_: unknown, data: DialogOpenChangeData) => (data.open ? undefined : setDetail(null))}
        modalType="alert"
      >
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{detail ? `${detail.drugCode} ${detail.name}` : ''}</DialogTitle>
            <DialogContent>{detail ? <DrugDetail detail={detail} /> : null}</DialogContent>
          </DialogBody>
          <Button onClick={() => setDetail(null)}>{dt('uiClose')}</Button>
        </DialogSurface>
      </Dialog>
    </div>
  );
}

function DrugDetail({ detail }: { detail: WhodrugDetail }) {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  return (
    <div className={styles.box} data-testid="whodrug-detail">
      <Text>{`${dt('uiGenericName')}: ${detail.genericName}`}</Text>
      <Text>{`${dt('uiPreferredName')}: ${detail.preferredName}`}</Text>
      <Text>
        {`${dt('uiCompany')}: ${detail.company ? detail.company.name : '-'}`}
        {detail.countryName ? ` (${detail.countryName})` : ''}
      </Text>
      {detail.atc.map((atc) => (
        <Text key={atc.code}>
          {atc.official ? <Badge>{dt('uiOfficialAtc')}</Badge> : null}{' '}
          {atc.chain.map((level) => `${level.code} ${level.text}`).join(' › ')}
        </Text>
      ))}
      {detail.tradeNames.length ? (
        <Text>{`${dt('uiOtherNames')}: ${detail.tradeNames.map((t) => `${t.name} (${t.drugCode})`).join('; ')}`}</Text>
      ) : null}
    </div>
  );
}
