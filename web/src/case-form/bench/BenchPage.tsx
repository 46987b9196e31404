/**
 * The case-form benchmark page (scripts/bench/case-form.ts opens it in Chromium):
 * `?mode=ours` mounts the case form (tabs, stores, registered widgets) on the big case;
 * `?mode=baseline` renders the whole case schema in one plain @rjsf/core form with its defaults.
 * Both mark `window.__benchReady` (ms since navigation) once the form is on screen and interactive.
 * `&validators=<path>` (ours): the case check runs as on the case page, from `<path>.js` (the
 * configuration's standalone module) and `<path>.json` (its rule set), written by the bench script;
 * `window.__benchCheck` counts the results it posted.
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { FluentProvider, Tab, TabList, webLightTheme } from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { withTheme } from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { caseSchemas, caseTabs } from '@pv/engine';
import { LanguageProvider } from '../../i18n/LanguageContext';
import { CaseStore } from '../store';
import { startCaseCheck } from '../case-check';
import { CaseTabView } from '../CaseTabView';
import { bigCase } from './big-case';

/** @rjsf/core with its default (plain HTML) theme: the naive peer. */
const CoreForm = withTheme({});

declare global {
  interface Window {
    __benchReady?: number;
    __benchCheck?: number;
  }
}

/** The case schema as one document: each section file inlined where the root refers to it. */
export function bundledCaseSchema(): RJSFSchema {
  const byFile = new Map(caseSchemas.map((s) => [String(s.$id).split('/').pop()!, s]));
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (!node || typeof node !== 'object') return node;
    const object = node as Record<string, unknown>;
    if (typeof object.$ref === 'string' && byFile.has(object.$ref)) {
      const { $id: _id, $schema: _schema, ...target } = byFile.get(object.$ref)!;
      const { $ref: _ref, ...rest } = object;
      return inline({ ...target, ...rest });
    }
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, inline(v)]));
  };
  const { $id: _id, $schema: _schema, ...root } = caseSchemas[0]!;
  return inline(root) as RJSFSchema;
}

/**
 * Rendered after the form: its effect runs once the form's whole tree has committed; the mark is
 * taken in the first task after the next frame, i.e. once that tree is painted.
 */
function Ready() {
  useEffect(() => {
    requestAnimationFrame(() => {
      setTimeout(() => {
        window.__benchReady = performance.now();
      }, 0);
    });
  }, []);
  return null;
}

function Ours() {
  const [store] = useState(() => new CaseStore(bigCase()));
  const [tab, setTab] = useState('drug');
  const current = caseTabs.tabs.find((t) => t.id === tab)!;
  useEffect(() => {
    const validators = new URLSearchParams(window.location.search).get('validators');
    const hash = new URLSearchParams(window.location.search).get('hash');
    if (!validators || !hash) return;
    const stopCounting = store.findings.onCounts(() => {
      window.__benchCheck = (window.__benchCheck ?? 0) + 1;
    });
    const running = startCaseCheck(store, {
      configurationHash: hash,
      module: `${validators}.js`,
      rules: `${validators}.json`,
    });
    return () => {
      stopCounting();
      running.stop();
    };
  }, [store]);
  return (
    <>
      <TabList selectedValue={tab} onTabSelect={(_: unknown, d: SelectTabData) => setTab(String(d.value))}>
        {caseTabs.tabs.map((t) => (
          <Tab key={t.id} value={t.id} data-testid={`case-tab-${t.id}`}>
            {t.label.zh}
          </Tab>
        ))}
      </TabList>
      <CaseTabView key={tab} tab={current} store={store} readOnly={false} />
      <Ready />
    </>
  );
}

function Baseline() {
  const [schema] = useState(bundledCaseSchema);
  const [formData] = useState(bigCase);
  return (
    <>
      <CoreForm schema={schema} formData={formData} validator={validator} />
      <Ready />
    </>
  );
}

const mode = new URLSearchParams(window.location.search).get('mode') ?? 'ours';
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <FluentProvider theme={webLightTheme}>
      <LanguageProvider>{mode === 'baseline' ? <Baseline /> : <Ours />}</LanguageProvider>
    </FluentProvider>
  </StrictMode>,
);
