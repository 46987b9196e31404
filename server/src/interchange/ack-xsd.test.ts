import { describe, expect, it } from 'vitest';
import { writeR3Acknowledgement } from '@pv/engine';
import { validateR3Xml } from './xsd';

describe('R3 acknowledgement we write', () => {
  it('validates against MCCI_IN200101UV01.xsd', async () => {
    const xml = writeR3Acknowledgement({
      ackBatchId: 'ACK-1',
      senderId: 'OURS',
      receiverId: 'THEIRS',
      date: '20260101120000+0000',
      icsrBatchId: 'B-1',
      icsrBatchDate: '20251231235959+0000',
      text: 'one report rejected',
      reports: [
        { messageId: 'M-1', code: 'CA', messageDate: '20251231' },
        { messageId: 'M-2', code: 'CR', text: 'C.1.1 missing' },
      ],
    });
    const result = await validateR3Xml(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
