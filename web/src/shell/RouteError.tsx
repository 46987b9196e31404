/** A route that failed: a chunk that did not load offers a reload; anything else says what happened. */
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
} from '@fluentui/react-components';
import { useRouteError } from 'react-router-dom';
import { ChunkLoadError } from '../app/lazy';
import { useLanguage } from '../i18n/LanguageContext';

export function RouteError() {
  const error = useRouteError();
  const { t } = useLanguage();
  const chunk = error instanceof ChunkLoadError;
  return (
    <MessageBar intent="error" layout="multiline" data-testid={chunk ? 'chunk-error' : 'route-error'}>
      <MessageBarBody>
        <MessageBarTitle>{t(chunk ? 'shell.chunkFailed' : 'shell.pageFailed')}</MessageBarTitle>
        {error instanceof Error ? error.message : null}
      </MessageBarBody>
      <MessageBarActions>
        <Button appearance="primary" onClick={() => window.location.reload()} data-testid="chunk-reload">
          {t('shell.reload')}
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
