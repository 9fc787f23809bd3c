import {
  MonitoredFile,
  MonitoredFileDetail,
  MonitoredFileRemoved,
  MonitoredFilesData,
  PathTestCreated,
  PathTestResult,
} from '@flightdeck/schemas';
import { api } from '../../lib/api-client';

/**
 * Critical files (spec 7, "Files" and "Critical files"), paths spelled as the spec has them.
 * Every answer is checked against the shared schemas.
 */

const COCKPIT = '/flightdeck/cockpit/flies_critical';
const opts = (signal?: AbortSignal) => (signal ? { signal } : {});

/** Every monitored file of the customer, across its servers. */
export function fetchFiles(signal?: AbortSignal) {
  return api.get(`${COCKPIT}/list`, MonitoredFilesData, opts(signal));
}

/** One file with its change history, newest first. */
export function fetchFile(id: number, signal?: AbortSignal) {
  return api.post(`${COCKPIT}/get`, { id }, MonitoredFileDetail, opts(signal));
}

export function addFile(serverId: number, path: string) {
  return api.post(`${COCKPIT}/new`, { server_id: serverId, path }, MonitoredFile);
}

/** Accepts the file's current hash as its baseline. */
export function equalizeFile(id: number) {
  return api.post(`${COCKPIT}/equilize`, { id }, MonitoredFileDetail);
}

export function removeFile(id: number) {
  return api.post(`${COCKPIT}/remove`, { id }, MonitoredFileRemoved);
}

/** Asks the server's agent whether it can read `path`; poll {@link fetchPathTest} with the id. */
export function startPathTest(serverId: number, path: string) {
  return api.post('/server/test_full_path', { server_id: serverId, path }, PathTestCreated);
}

export function fetchPathTest(testId: number, signal?: AbortSignal) {
  return api.post('/server/test_result', { test_id: testId }, PathTestResult, opts(signal));
}
