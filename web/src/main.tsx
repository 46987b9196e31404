import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { createAppRouter } from './app/router';
import { LanguageProvider } from './i18n/LanguageContext';
import { SessionProvider } from './app/SessionContext';
import { NotifyHost } from './shell/NotifyHost';
import { startWatchers } from './app/watchers';

const router = createAppRouter();

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
    <FluentProvider theme={webLightTheme}>
      <App />
    </FluentProvider>
  </StrictMode>,
);
