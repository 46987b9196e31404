/**
 * Below the message templates list: a template's texts rendered with the sample values of its
 * event (POST /api/operator/message-templates/preview), in zh and en, and the variables the event
 * offers. The texts can be changed here to try them; saving is the list's edit form.
 */
import { useEffect, useState } from 'react';
import {
  Body1,
  Button,
  Caption1,
  Card,
  Dropdown,
  Field,
  MessageBar,
  MessageBarBody,
  Option,
  Subtitle2,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { DropdownOpenChangeData, OptionOnSelectData } from '@fluentui/react-components';
import { api } from '../../app/api';
import { RequestError } from '../../api/request';
import { useLanguage } from '../../i18n/LanguageContext';
import type { MessagesKey } from './message-text';
import { useMessagesText } from './message-text';

interface EventInfo {
  event: string;
  labelZh: string;
  labelEn: string;
  variables: { name: string; labelZh: string; labelEn: string }[];
}

interface TemplateRow {
  id: string;
  event: string;
  subjectZh: string;
  bodyZh: string;
  subjectEn: string;
  bodyEn: string;
}

type Texts = Pick<TemplateRow, 'subjectZh' | 'bodyZh' | 'subjectEn' | 'bodyEn'>;
type Rendered = Record<'zh' | 'en', { subject: string; body: string }>;

/** The texts by language: each column a subject over its body. */
const COLUMNS: { lang: MessagesKey; fields: { key: keyof Texts; label: MessagesKey; rows: number }[] }[] = [
  {
    lang: 'uiPreviewZh',
    fields: [
      { key: 'subjectZh', label: 'uiPreviewSubject', rows: 1 },
      { key: 'bodyZh', label: 'uiPreviewBody', rows: 7 },
    ],
  },
  {
    lang: 'uiPreviewEn',
    fields: [
      { key: 'subjectEn', label: 'uiPreviewSubject', rows: 1 },
      { key: 'bodyEn', label: 'uiPreviewBody', rows: 7 },
    ],
  },
];

const useStyles = makeStyles({
  panel: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  columns: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: tokens.spacingHorizontalL },
  column: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  text: { whiteSpace: 'pre-wrap' },
  variables: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM },
});

export default function MessageTemplatePreview() {
  const styles = useStyles();
  const mt = useMessagesText();
  const { pick } = useLanguage();
  const [events, setEvents] = useState<EventInfo[]>([]);
  const [templates, setTemplates] = useState<TemplateRow[]>([]);
  const [chosen, setChosen] = useState<TemplateRow | null>(null);
  const [texts, setTexts] = useState<Texts | null>(null);
  const [rendered, setRendered] = useState<Rendered | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    void api.request<EventInfo[]>('/operator/message-events').then(setEvents);
  }, []);

  const eventLabel = (event: string) => {
    const info = events.find((e) => e.event === event);
    return info ? pick({ zh: info.labelZh, en: info.labelEn }) : event;
  };

  // The list is read when the dropdown opens: it may have changed in the list above.
  const loadTemplates = async () =>
    setTemplates(
      (await api.request<{ items: TemplateRow[] }>('/operator/message-templates', { params: { size: 200 } }))
        .items,
    );

  const choose = async (id: string) => {
    const row = await api.request<TemplateRow>(`/operator/message-templates/${encodeURIComponent(id)}`);
    setChosen(row);
    setTexts({ subjectZh: row.subjectZh, bodyZh: row.bodyZh, subjectEn: row.subjectEn, bodyEn: row.bodyEn });
    setRendered(null);
    setProblem(null);
  };

  const preview = async () => {
    if (!chosen || !texts) return;
    setProblem(null);
    try {
      setRendered(
        await api.request<Rendered>('/operator/message-templates/preview', {
          method: 'POST',
          body: { event: chosen.event, ...texts },
          silent: true,
        }),
      );
    } catch (error) {
      setRendered(null);
      if (error instanceof RequestError) setProblem(error.message);
    }
  };

  const variables = events.find((e) => e.event === chosen?.event)?.variables ?? [];
  return (
    <Card className={styles.panel} data-testid="message-preview">
      <Subtitle2>{mt('uiPreviewTitle')}</Subtitle2>
      <Caption1>{mt('uiPreviewNote')}</Caption1>
      <Field label={mt('uiPreviewTemplate')}>
        <Dropdown
          data-testid="preview-template"
          placeholder={mt('uiPreviewChoose')}
          value={chosen ? eventLabel(chosen.event) : ''}
          onOpenChange={(_: unknown, data: DropdownOpenChangeData) => void (data.open && loadTemplates())}
          onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
            void (data.optionValue && choose(data.optionValue))
          }
        >
          {templates.map((row) => (
            <Option key={row.id} value={row.id} text={eventLabel(row.event)}>
              {eventLabel(row.event)}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {chosen && texts ? (
        <>
          <div>
            <Body1>{mt('uiPreviewVariables')}</Body1>
            <div className={styles.variables} data-testid="preview-variables">
              {variables.map((v) => (
                <Caption1 key={v.name}>
                  {`{{${v.name}}}`} {pick({ zh: v.labelZh, en: v.labelEn })}
                </Caption1>
              ))}
            </div>
          </div>
          <div className={styles.columns}>
            {COLUMNS.map((column) => (
              <div key={column.lang} className={styles.column}>
                {column.fields.map((field) => (
                  <Field key={field.key} label={`${mt(column.lang)} · ${mt(field.label)}`}>
                    <Textarea
                      data-testid={`preview-${field.key}`}
                      rows={field.rows}
                      resize="vertical"
                      value={texts[field.key]}
                      onChange={(_: unknown, data: { value: string }) =>
                        setTexts({ ...texts, [field.key]: data.value })
                      }
                    />
                  </Field>
                ))}
              </div>
            ))}
          </div>
          <span>
            <Button appearance="primary" data-testid="preview-run" onClick={() => void preview()}>
              {mt('uiPreviewRun')}
            </Button>
          </span>
        </>
      ) : null}
      {problem ? (
        <MessageBar intent="error" data-testid="preview-problem">
          <MessageBarBody>{problem}</MessageBarBody>
        </MessageBar>
      ) : null}
      {rendered ? (
        <div className={styles.columns}>
          {(['zh', 'en'] as const).map((lang) => (
            <Card key={lang} data-testid={`preview-${lang}`}>
              <Caption1>{mt(lang === 'zh' ? 'uiPreviewZh' : 'uiPreviewEn')}</Caption1>
              <Subtitle2 data-testid={`preview-${lang}-subject`}>{rendered[lang].subject}</Subtitle2>
              <Body1 className={styles.text} data-testid={`preview-${lang}-body`}>
                {rendered[lang].body}
              </Body1>
            </Card>
          ))}
        </div>
      ) : null}
    </Card>
  );
}
