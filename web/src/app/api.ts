/**
 * The application's one requester: the request layer wired to the session, the display language
 * and the shell's toasts and dialogs. Pages call `api.request(...)`.
 */
import type { Requester } from '../api/request';
import { createRequester } from '../api/request';
import { langType, translate } from '../i18n';
import { notify } from './notify';
import { session } from './session';

type Navigate = (path: string) => void;
let navigate: Navigate = (path) => window.location.assign(path);

/** The router registers its navigate so that dialogs can move without a full reload. */
export function setNavigator(next: Navigate): void {
  navigate = next;
}

export function goTo(path: string): void {
  navigate(path);
}

const t = (key: string, params?: Record<string, string | number>) =>
  translate(session.language(), key, params);

export const api: Requester = createRequester({
  headers: () => ({
    token: session.token(),
    sysOrgId: session.sysOrgId(),
    studyProjectIds: session.studyProjectIds(),
    projectId: session.projectId(),
    lang: langType(session.language()),
  }),
  t,
  toast: (kind, message) => notify.toast(kind, message),
  sessionInvalid(message) {
    // Without a token there is no session to defend: a stray 400001 on the login page is silent.
    if (!session.token()) return;
    session.dropToken();
    void notify
      .ask({
        tag: 'session',
        titleKey: 'session.invalidTitle',
        message: { text: message },
        buttons: [{ labelKey: 'session.relogin', value: 'relogin', appearance: 'primary' }],
      })
      .then(() => goTo('/'));
  },
  loggedInElsewhere(message) {
    void notify
      .ask({
        tag: 'session',
        titleKey: 'session.elsewhereTitle',
        message: { text: message },
        buttons: [
          { labelKey: 'session.relogin', value: 'relogin', appearance: 'primary' },
          { labelKey: 'session.stay', value: 'stay' },
        ],
      })
      .then((choice) => {
        if (choice !== 'relogin') return;
        session.dropToken();
        goTo('/login');
      });
  },
  answered: () => session.touch(),
  startLoading: () => notify.startLoading(),
});
