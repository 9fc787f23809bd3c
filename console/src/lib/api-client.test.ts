import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, createApiClient, parseEnvelope } from './api-client';

const Token = z.object({ token: z.string() });

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('parseEnvelope', () => {
  it('returns data of a success envelope', () => {
    expect(parseEnvelope(200, { status: 'ok', data: { token: 't1' } }, Token)).toEqual({ token: 't1' });
  });

  it('throws an ApiError with the code, message and path of an error envelope', () => {
    const body = { status: 'error', code: 'validation_failed', message: 'bad e-mail', path: ['email'] };
    const error = captureError(() => parseEnvelope(400, body, Token));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'bad e-mail',
      path: ['email'],
    });
  });

  it('reads a data shape that does not match the schema as an invalid response', () => {
    const error = captureError(() => parseEnvelope(200, { status: 'ok', data: { token: 42 } }, Token));
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    expect((error as ApiError).message).toContain('data.token');
  });

  it('reads an unknown error code as an invalid response', () => {
    const body = { status: 'error', code: 'teapot', message: 'no' };
    expect(captureError(() => parseEnvelope(418, body, Token))).toMatchObject({ code: 'invalid_response' });
  });

  it('reads a body that is not an envelope as an invalid response', () => {
    expect(captureError(() => parseEnvelope(200, { hello: 'world' }, Token))).toMatchObject({
      code: 'invalid_response',
      status: 200,
    });
  });

  it('reads a gateway error without a JSON body as no connection to the API', () => {
    expect(captureError(() => parseEnvelope(502, undefined, Token))).toMatchObject({
      code: 'network',
      status: 502,
    });
  });
});

describe('createApiClient', () => {
  it('prefixes /api, sends cookies and JSON, and returns the parsed data', async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { status: 'ok', data: { token: 'abc' } }));
    const client = createApiClient({ fetch });
    await expect(client.post('/signin', { email: 'a@b.c', password: 'x' }, Token)).resolves.toEqual({
      token: 'abc',
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/signin');
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'include',
      body: '{"email":"a@b.c","password":"x"}',
    });
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('turns a failed fetch into a network ApiError with status 0', async () => {
    const client = createApiClient({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(client.get('/health', z.unknown())).rejects.toMatchObject({ code: 'network', status: 0 });
  });

  it('ends the session on a 403 but not on a plan-gated 403 or a 401', async () => {
    const onSessionEnd = vi.fn();
    const answers = [
      jsonResponse(403, { status: 'error', code: 'forbidden', message: 'no' }),
      jsonResponse(403, { status: 'error', code: 'plan_gated', message: 'plan' }),
      jsonResponse(401, { status: 'error', code: 'unauthorized', message: 'sign in' }),
    ];
    const client = createApiClient({ fetch: async () => answers.shift()!, onSessionEnd });
    await expect(client.get('/x', z.unknown())).rejects.toMatchObject({ code: 'forbidden' });
    await expect(client.get('/x', z.unknown())).rejects.toMatchObject({ code: 'plan_gated' });
    await expect(client.get('/x', z.unknown())).rejects.toMatchObject({ code: 'unauthorized' });
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
  });
});

function captureError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
