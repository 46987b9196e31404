/**
 * The guided tour (SPEC 2): it points in turn at the version area, the top menu, the second-level
 * menu, the organisation switch, the personal menu, the language switch, the report entry and, on
 * the case page, the attachment information and the edit (save) button (each only when it is on
 * screen), then types a welcome message at 100 ms per character and offers to enter the system.
 * It starts by itself once per user and again from Help. Its case-page part (attachment
 * information, edit button) also runs on its own, without the welcome, at the user's first visit of
 * a case page.
 */
import { useEffect, useLayoutEffect, useState } from 'react';
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useLanguage } from '../i18n/LanguageContext';
import { finishTour } from './tour-state';
import type { TourId } from './tour-state';

export const TYPING_MS_PER_CHARACTER = 100;
/** data-tour targets of the case page, in order (catalogue keys `tour.<step>.title|text`). */
export const CASE_TOUR_STEPS = ['attachments', 'edit'] as const;
/** data-tour targets of the whole tour, in order, with the catalogue key of what is said there. */
export const TOUR_STEPS = [
  'version',
  'top-menu',
  'second-menu',
  'organisation',
  'personal',
  'language',
  'report-entry',
  ...CASE_TOUR_STEPS,
] as const;
/** The case page, where the case-page tour starts by itself at the user's first visit. */
export const CASE_PAGE_ROUTE = '/activecase';
/** The report entry the tour points at: the top menu holding case registration. */
export const REPORT_ENTRY_ROUTE = '/casemanagement/casebookin';

const useStyles = makeStyles({
  shade: { position: 'fixed', inset: 0, zIndex: 900000, backgroundColor: 'rgba(0,0,0,0.45)' },
  spot: {
    position: 'fixed',
    zIndex: 900001,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: '0 0 0 4px #fff, 0 0 0 9999px rgba(0,0,0,0.45)',
    pointerEvents: 'none',
    transition: 'all 200ms ease',
  },
  card: {
    position: 'fixed',
    zIndex: 900002,
    width: '320px',
    padding: tokens.spacingHorizontalL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow28,
  },
  welcome: {
    position: 'fixed',
    zIndex: 900002,
    top: '50%',
    left: '50%',
    transform: 'translate(-50%, -50%)',
    width: '420px',
    padding: tokens.spacingHorizontalXXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    alignItems: 'center',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusXLarge,
    boxShadow: tokens.shadow28,
    textAlign: 'center',
  },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
});

/** The tour's targets on screen now, in order. */
export function visibleTargets(steps: readonly string[]): { step: string; element: Element }[] {
  return steps.flatMap((step) => {
    const element = document.querySelector(`[data-tour="${step}"]`);
    return element && element.getBoundingClientRect().width > 0 ? [{ step, element }] : [];
  });
}

/** The text typed so far: one more character every 100 ms. */
export function useTyping(text: string, active: boolean): string {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (!active) return;
    setCount(0);
    const timer = setInterval(() => setCount((n) => (n >= text.length ? n : n + 1)), TYPING_MS_PER_CHARACTER);
    return () => clearInterval(timer);
  }, [text, active]);
  return text.slice(0, count);
}

export function Tour({ tour }: { tour: TourId }) {
  const styles = useStyles();
  const { t } = useLanguage();
  const [targets] = useState(() => visibleTargets(tour === 'case' ? CASE_TOUR_STEPS : TOUR_STEPS));
  const [index, setIndex] = useState(0);
  const [box, setBox] = useState<DOMRect | null>(null);
  const coveredCasePage = targets.some(({ step }) => (CASE_TOUR_STEPS as readonly string[]).includes(step));
  const finish = () => void finishTour(coveredCasePage);
  // The case-page part ends at its last step: the welcome belongs to the first-login tour.
  const last = tour === 'case' && index === targets.length - 1;
  const welcome = tour === 'main' && index >= targets.length;
  const welcomeText = t('tour.welcome');
  const typed = useTyping(welcomeText, welcome);

  useLayoutEffect(() => {
    const target = targets[index];
    setBox(target ? target.element.getBoundingClientRect() : null);
  }, [targets, index]);

  if (welcome) {
    return (
      <>
        <div className={styles.shade} />
        <div className={styles.welcome} data-testid="tour-welcome">
          <Text size={500} weight="semibold" data-testid="tour-welcome-text">
            {typed}
          </Text>
          <Button appearance="primary" onClick={finish} data-testid="tour-enter">
            {t('tour.enter')}
          </Button>
        </div>
      </>
    );
  }

  const target = targets[index];
  if (!target) return null;
  const step = target.step;
  const top = box ? Math.min(window.innerHeight - 200, box.bottom + 12) : 80;
  const left = box ? Math.max(12, Math.min(window.innerWidth - 332, box.left)) : 12;
  return (
    <>
      {box ? (
        <div
          className={styles.spot}
          style={{ top: box.top - 4, left: box.left - 4, width: box.width + 8, height: box.height + 8 }}
        />
      ) : null}
      <div className={styles.card} style={{ top, left }} data-testid="tour-step" data-step={step}>
        <Text weight="semibold">{t(`tour.${step}.title`)}</Text>
        <Text>{t(`tour.${step}.text`)}</Text>
        <div className={styles.buttons}>
          <Button onClick={finish} data-testid="tour-skip">
            {t('tour.skip')}
          </Button>
          {last ? (
            <Button appearance="primary" onClick={finish} data-testid="tour-done">
              {t('tour.done')}
            </Button>
          ) : (
            <Button appearance="primary" onClick={() => setIndex((i) => i + 1)} data-testid="tour-next">
              {t('tour.next')}
            </Button>
          )}
        </div>
      </div>
    </>
  );
}
