import { FilesSyncData } from '@flightdeck/schemas/api/files';
import { envelope } from '@flightdeck/schemas/envelope';
import type { FilesSync } from './contract';

export interface HttpFilesSyncOptions {
  /** Base URL of the api (the agent's AGENT_INGEST_URL); the call goes to `<url>/api/agent/files/sync`. */
  url: string;
  /** The agent access key (AGENT_ACCESS_KEY), sent as `Authorization: Bearer <key>`. */
  accessKey: string;
  /** A sync not answered within this time fails (default 30 s: the api stores up to 200 results). */
  timeoutMs?: number;
}

/** The endpoint a {@link httpFilesSync} of `url` calls. */
export function filesSyncEndpoint(url: string): string {
  return `${url.replace(/\/+$/, '')}/api/agent/files/sync`;
}

/**
 * The files sync over HTTP: `POST <url>/api/agent/files/sync` with the agent access key, the answer
 * checked against the shared schema. Rejects with a message naming the endpoint and the reason (no
 * answer, the api's error message, or an answer that is not a files sync).
 */
export function httpFilesSync(options: HttpFilesSyncOptions): FilesSync {
  const endpoint = filesSyncEndpoint(options.url);
  const timeoutMs = options.timeoutMs ?? 30_000;
  return async (request) => {
    let res: Response;
    try {
      res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.accessKey}` },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const reason =
        (err as Error)?.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : ((err as Error & { cause?: Error })?.cause?.message ?? (err as Error)?.message);
      throw new Error(`files sync not sent to ${endpoint}: ${reason}`, { cause: err });
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(
        `files sync: ${endpoint} answered ${res.status} ${res.statusText}: ${text.slice(0, 200)}`,
      );
    }
    const parsed = envelope(FilesSyncData).safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `files sync: ${endpoint} answered ${res.status} with an unexpected body (${issue?.path.join('.') || 'body'}: ${issue?.message})`,
      );
    }
    if (parsed.data.status === 'error') {
      const hint = res.status === 401 ? ' (check AGENT_ACCESS_KEY)' : '';
      throw new Error(
        `files sync refused by ${endpoint} (${res.status} ${parsed.data.code})${hint}: ${parsed.data.message}`,
      );
    }
    return parsed.data.data;
  };
}
