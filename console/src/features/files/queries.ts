import type { MonitoredFile } from '@flightdeck/schemas';
import { queryOptions } from '@tanstack/react-query';
import { fetchFile, fetchFiles, fetchPathTest } from './api';

export const filesKeys = {
  all: ['files'] as const,
  list: ['files', 'list'] as const,
  file: (id: number) => ['files', id] as const,
  test: (id: number) => ['files', 'test', id] as const,
};

/** While a file waits for its first check the list asks every 2 s; otherwise every 10 s. */
export const PENDING_POLL_MS = 2_000;
export const LIST_POLL_MS = 10_000;
/** A path test asks for the agent's answer every second. */
export const TEST_POLL_MS = 1_000;

export function listPollMs(files: readonly MonitoredFile[] | undefined): number {
  return files?.some((f) => f.status === 'pending') ? PENDING_POLL_MS : LIST_POLL_MS;
}

export const filesListQuery = queryOptions({
  queryKey: filesKeys.list,
  queryFn: ({ signal }) => fetchFiles(signal),
  refetchInterval: (query) => listPollMs(query.state.data),
});

export const fileQuery = (id: number) =>
  queryOptions({ queryKey: filesKeys.file(id), queryFn: ({ signal }) => fetchFile(id, signal) });

/** A path test's answer, asked again every second until the agent answered (or the wait ended). */
export const pathTestQuery = (testId: number) =>
  queryOptions({
    queryKey: filesKeys.test(testId),
    queryFn: ({ signal }) => fetchPathTest(testId, signal),
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' || !query.state.data ? TEST_POLL_MS : false,
  });
