import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import {
  FluentProvider,
  RendererProvider,
  createDOMRenderer,
  webLightTheme,
} from '@fluentui/react-components';
import { createAppRouter } from './app/router';
import { LanguageProvider } from './i18n/LanguageContext';
import { SessionProvider } from './app/SessionContext';
import { NotifyHost } from './shell/NotifyHost';
import { startWatchers } from './app/watchers';

const router = createAppRouter();

// Fluent UI writes its styles into <style> elements at run time; the page's CSP admits them by the
// nonce the server put in index.html (no 'unsafe-inline' for styles, none at all for scripts).
const styleNonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? undefined;
const renderer = createDOMRenderer(document, {
  styleElementAttributes: styleNonce ? { nonce: styleNonce } : {},
});

function App() {
  useEffect(startWatchers, []);
  return (
    <LanguageProvider>
      <SessionProvider>
        <RouterProvider router={router} />
        <NotifyHost />
      </SessionProvider>
    </LanguageProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RendererProvider renderer={renderer} targetDocument={document}>
      <FluentProvider theme={webLightTheme}>
        <App />
      </FluentProvider>
    </RendererProvider>
  </StrictMode>,
);
