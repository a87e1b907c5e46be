import { describe, expect, it } from 'vitest';
import { TAMPERING_BURST_MINUTES, tamperingMail } from './storage-tampering.js';

describe('the provider’s alert of a machine attacking its backups (issue 32 item 6)', () => {
  const base = {
    machineName: 'pc-7',
    customerName: 'Acme',
    at: new Date('2026-12-07T10:00:00Z'),
    machinePath: '/boltadmin/customers/1/backuppackages/2/backupmachines/3',
  };

  it('names the machine, the customer, what was tried from where, and that the backups are unchanged', () => {
    const mail = tamperingMail({
      ...base,
      attempt: { action: 'delete', object: 'data/3f/3f00', source: 'LOCAL', ipAddress: '203.0.113.9' },
    });
    expect(mail.subject).toBe('Backups attacked: machine pc-7 of Acme');
    expect(mail.lines[0]).toBe(
      'At 2026-12-07T10:00:00.000Z the machine pc-7 of Acme tried to delete data/3f/3f00 in its backup repository (from 203.0.113.9).',
    );
    expect(mail.lines[1]).toMatch(/refused it; the backups are unchanged/);
    expect(mail.lines[2]).toContain(`${TAMPERING_BURST_MINUTES} minutes`);
    expect(mail.link).toEqual({ label: 'Open the machine', path: base.machinePath });
  });

  it('says the portal put an S3 object back, and leaves out an unknown address', () => {
    const mail = tamperingMail({
      ...base,
      attempt: { action: 'policy', object: 'bucket-1', source: 'S3', ipAddress: null },
    });
    expect(mail.lines[0]).toMatch(/tried to change the bucket policy of bucket-1 in its backup repository\.$/);
    expect(mail.lines[1]).toMatch(/put its original content back/);
  });
});
