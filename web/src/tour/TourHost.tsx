/** Shows the tour when it runs; checks once per sign-in whether the user has seen it. */
import { useEffect, useState } from 'react';
import { Tour } from './Tour';
import { startTourIfUnseen, tourState } from './tour-state';

export function TourHost({ userId }: { userId: string }) {
  const [running, setRunning] = useState(tourState.running());
  useEffect(() => tourState.subscribe(setRunning), []);
  useEffect(() => {
    void startTourIfUnseen().catch(() => undefined);
  }, [userId]);
  return running ? <Tour /> : null;
}
