/**
 * Submission plans (SPEC 1, 3, 4 regulatory submission): which receivers a case goes to and by
 * when, from the project's receivers and their authorities' reporting rules
 * (schemas/rules/reporting). This module gives case management its deadlines (the earliest open
 * due date over the receivers). See README.md.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { submissionDeadline, projectReceivers } from './deadline';

import { provideCaseDeadline, refreshCaseDeadlines } from '../cases';
import { defineModule } from '../http';
import { provideProjectReceiversListener } from '../projects';
import { submissionDeadline } from './deadline';
import { seedDemoReceivers } from './seed';

// Case management asks this module for a case's deadline on every save and transmission.
provideCaseDeadline(submissionDeadline);
// A project's receivers changed: its cases' deadlines follow at once.
provideProjectReceiversListener('submissions', async (handle, projectId) => {
  await refreshCaseDeadlines(handle, { 'report.studyProjectId': projectId });
});

export const submissionsModule = defineModule({
  name: 'submissions',
  dependsOn: ['cases', 'exports', 'projects'],
  seed: seedDemoReceivers,
});
