/**
 * Shows the tour when it runs. Checks once per sign-in whether the user has seen the first-login
 * tour; on a case page, once that check is done and no tour runs, starts the case-page tour when
 * the user has never seen it, as soon as the case's attachment information is on screen.
 */
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { CASE_PAGE_ROUTE, CASE_TOUR_STEPS, Tour, visibleTargets } from './Tour';
import { caseTourPending, startCaseTour, startTourIfUnseen, tourState } from './tour-state';

/** How often to look for the case page's tour targets while the case loads. */
const TARGET_POLL_MS = 200;

export function TourHost({ userId }: { userId: string }) {
  const [running, setRunning] = useState(tourState.running());
  const [firstLoginChecked, setFirstLoginChecked] = useState(false);
  const { pathname, search } = useLocation();
  const onCasePage = pathname === CASE_PAGE_ROUTE;
  useEffect(() => tourState.subscribe(setRunning), []);
  useEffect(() => {
    setFirstLoginChecked(false);
    void startTourIfUnseen()
      .catch(() => undefined)
      .finally(() => setFirstLoginChecked(true));
  }, [userId]);
  useEffect(() => {
    if (!firstLoginChecked || running || !onCasePage) return;
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    void caseTourPending()
      .then((pending) => {
        if (!pending || cancelled) return;
        // The case page renders its tabs and edit button once the case has loaded.
        timer = setInterval(() => {
          if (visibleTargets(CASE_TOUR_STEPS).length === 0) return;
          clearInterval(timer);
          startCaseTour();
        }, TARGET_POLL_MS);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [firstLoginChecked, running, onCasePage, search]);
  return running ? <Tour key={running} tour={running} /> : null;
}
