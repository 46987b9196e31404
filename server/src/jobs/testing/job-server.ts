/**
 * A real server process for the multi-process job test: the platform plus a probe module whose
 * job appends "<jobId> <pid>" to PROBE_FILE. Started twice on one DATA_DIR by two-processes.test.ts.
 */
import { appendFileSync } from 'node:fs';
import { defineModule } from '../../http';
import { startServer } from '../../server';
import { defineJob } from '../types';

const probeFile = process.env.PROBE_FILE!;

const probe = defineModule({
  name: 'probe',
  jobs: [
    defineJob({
      type: 'probe.append',
      async handler({ job }) {
        appendFileSync(probeFile, `${job._id} ${process.pid}\n`);
        // Long enough that the other process polls while this one holds the lease.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { pid: process.pid };
      },
    }),
  ],
});

const server = await startServer({
  port: 0,
  dataDir: process.env.DATA_DIR!,
  modules: [probe],
  config: { webDist: null },
  logger: (line) => {
    if (line.msg === 'listening' || line.level === 'error') process.stdout.write(`${JSON.stringify(line)}\n`);
  },
  jobs: { pollMs: Number(process.env.JOB_POLL_MS ?? 50), concurrency: 2 },
});

process.on('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
