import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { type Notification, type Recipient, recipientKey } from './contract';
import { createMemoryOutbox, type NotificationOutbox } from './outbox';
import { createSqliteOutbox } from './outbox-sqlite';

const logger = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'fd-outbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const newFile = () => join(dir, `outbox-${++files}.sqlite`);

function item(id: string, recipient: Recipient, at: number) {
  const notification: Notification = {
    id,
    tenant: 't1',
    recipient,
    locale: 'en',
    subject: id,
    text: `text ${id}`,
  };
  return {
    id,
    channel: recipient.channel,
    recipientKey: recipientKey(recipient),
    notification,
    enqueuedAt: at,
    nextAttemptAt: at,
  };
}

const ana: Recipient = { channel: 'email', address: 'ana@example.com' };
const bob: Recipient = { channel: 'email', address: 'bob@example.com' };
const chat: Recipient = { channel: 'telegram', chatId: '1' };

describe.each([
  ['in memory', () => createMemoryOutbox()],
  ['SQLite', () => createSqliteOutbox({ path: newFile(), logger })],
])('notification outbox %s', (_, create: () => NotificationOutbox) => {
  it('stores an id once, whatever state the first one is in', async () => {
    const box = create();
    expect(await box.add(item('a', ana, 1))).toBe(true);
    expect(await box.add(item('a', bob, 2))).toBe(false);
    await box.markSent('a', 1, 5);
    expect(await box.add(item('a', ana, 6))).toBe(false);
    expect(await box.get('a')).toMatchObject({
      state: 'sent',
      attempts: 1,
      doneAt: 5,
      recipientKey: 'email:ana@example.com',
    });
    await box.close();
  });

  it("offers only each recipient's oldest pending item, earliest next attempt first", async () => {
    const box = create();
    await box.add(item('a1', ana, 10));
    await box.add(item('a2', ana, 11));
    await box.add(item('b1', bob, 12));
    await box.add(item('t1', chat, 5));
    expect((await box.heads('email', 10)).map((i) => i.id)).toEqual(['a1', 'b1']);
    // a1 waits for a retry: ana's later item still waits behind it.
    await box.markRetry('a1', 1, 100, 'HTTP 500');
    expect((await box.heads('email', 10)).map((i) => i.id)).toEqual(['b1', 'a1']);
    expect((await box.heads('email', 1)).map((i) => i.id)).toEqual(['b1']);
    expect(await box.get('a1')).toMatchObject({ attempts: 1, nextAttemptAt: 100, lastError: 'HTTP 500' });
    await box.markSent('a1', 2, 120);
    await box.markFailed('b1', 1, 121, 'mailbox unavailable');
    expect((await box.heads('email', 10)).map((i) => i.id)).toEqual(['a2']);
    expect((await box.heads('telegram', 10)).map((i) => i.notification.text)).toEqual(['text t1']);
    await box.close();
  });

  it('counts queued and retrying items per channel', async () => {
    const box = create();
    await box.add(item('a1', ana, 1));
    await box.add(item('b1', bob, 1));
    await box.add(item('t1', chat, 1));
    await box.markRetry('b1', 1, 50, 'down');
    const counts = await box.counts();
    expect(counts.email).toEqual({ queued: 1, retrying: 1 });
    expect(counts.telegram).toEqual({ queued: 1, retrying: 0 });
    expect(counts.slack).toEqual({ queued: 0, retrying: 0 });
    await box.close();
  });

  it('prunes only delivered and given-up items done before the cut', async () => {
    const box = create();
    await box.add(item('old', ana, 1));
    await box.add(item('new', bob, 1));
    await box.add(item('wait', chat, 1));
    await box.markSent('old', 1, 100);
    await box.markFailed('new', 1, 300, 'x');
    expect(await box.prune(200)).toBe(1);
    expect(await box.get('old')).toBeUndefined();
    expect(await box.get('new')).toBeDefined();
    expect(await box.get('wait')).toMatchObject({ state: 'pending' });
    expect(await box.add(item('old', ana, 400))).toBe(true);
    await box.close();
  });
});

describe('SQLite notification outbox', () => {
  it('keeps pending items across a reopen', async () => {
    const path = newFile();
    const first = createSqliteOutbox({ path, logger });
    await first.add(item('a1', ana, 1));
    await first.add(item('a2', ana, 2));
    await first.markRetry('a1', 3, 40, 'down');
    await first.close();
    const again = createSqliteOutbox({ path, logger });
    const heads = await again.heads('email', 10);
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatchObject({
      id: 'a1',
      attempts: 3,
      nextAttemptAt: 40,
      lastError: 'down',
      enqueuedAt: 1,
    });
    expect(heads[0]!.notification).toEqual(item('a1', ana, 1).notification);
    await again.close();
  });

  it('gives up, with the reason, on a stored item that no longer reads as a notification', async () => {
    const path = newFile();
    const box = createSqliteOutbox({ path, logger });
    await box.add(item('a1', ana, 1));
    await box.add(item('b1', bob, 1));
    const raw = new Database(path);
    raw.prepare(`UPDATE notify_outbox SET payload = '{"id":"a1"}' WHERE id = 'a1'`).run();
    raw.close();
    expect((await box.heads('email', 10)).map((i) => i.id)).toEqual(['b1']);
    const reader = new Database(path, { readonly: true });
    const row = reader
      .prepare<[], { state: string; last_error: string }>(
        `SELECT state, last_error FROM notify_outbox WHERE id = 'a1'`,
      )
      .get();
    reader.close();
    expect(row?.state).toBe('failed');
    expect(row?.last_error).toMatch(/^the stored notification is not valid/);
    await box.close();
  });
});
