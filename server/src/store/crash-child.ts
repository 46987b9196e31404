/** Child process of crash.test.ts: inserts documents one by one, printing each acknowledged id. */
import { openStore } from './index';

const dataDir = process.argv[2]!;
const store = await openStore({ dataDir });
await store.define({ name: 'burst', scope: 'tenant', audited: true, indexes: [{ fields: { seq: 1 } }] });
const burst = store.tenant('T1', { userId: 'system:crash-test' }).collection('burst');
for (let seq = 0; seq < 1000; seq++) {
  const doc = await burst.insertOne({ seq, payload: 'x'.repeat(200) });
  process.stdout.write(`${doc._id}\n`);
}
await store.close();
