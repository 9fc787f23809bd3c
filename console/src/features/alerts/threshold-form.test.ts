import { MAX_THRESHOLD_FOR_S, type Threshold } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  emptyThresholdForm,
  parseLabels,
  parseLevel,
  type ThresholdFormValues,
  thresholdRequest,
  thresholdToForm,
} from './threshold-form';

const form = (values: Partial<ThresholdFormValues>): ThresholdFormValues => ({
  ...emptyThresholdForm('server'),
  ...values,
});

describe('threshold form', () => {
  it('builds the request of a server threshold with levels typed as text', () => {
    const result = thresholdRequest(form({ yellow: '80', red: '90,5', recovery: '70', forSeconds: '60' }), 4);
    expect(result).toEqual({
      ok: true,
      request: {
        server_id: 4,
        metric: 'cpu.total',
        labels: null,
        operator: 'gt',
        yellow: 80,
        red: 90.5,
        recovery: 70,
        for_s: 60,
        enabled: true,
      },
    });
  });

  it('puts a threshold on every server when the scope says so or no server is shown', () => {
    const all = thresholdRequest(form({ scope: 'all', red: '1' }), 4);
    expect(all.ok && all.request.server_id).toBeNull();
    const noServer = thresholdRequest(form({ red: '1' }), null);
    expect(noServer.ok && noServer.request.server_id).toBeNull();
  });

  it('keeps the id when editing, so the threshold is replaced', () => {
    const result = thresholdRequest(form({ id: 12, red: '5' }), 4);
    expect(result.ok && result.request.id).toBe(12);
  });

  it('needs a level unless the operator is boolean', () => {
    expect(thresholdRequest(form({}), 4)).toEqual({ ok: false, errors: { red: { key: 'levelsRequired' } } });
    const bool = thresholdRequest(form({ operator: 'bool', yellow: 'ignored' }), 4);
    expect(bool.ok && bool.request).toMatchObject({ operator: 'bool', yellow: null, red: null });
  });

  it('says which level is out of order, in both directions', () => {
    expect(thresholdRequest(form({ yellow: '90', red: '80' }), 4)).toEqual({
      ok: false,
      errors: { red: { key: 'redBelowYellow' } },
    });
    expect(thresholdRequest(form({ operator: 'lt', yellow: '10', red: '20' }), 4)).toEqual({
      ok: false,
      errors: { red: { key: 'redAboveYellow' } },
    });
    expect(thresholdRequest(form({ yellow: '80', red: '90', recovery: '85' }), 4)).toEqual({
      ok: false,
      errors: { recovery: { key: 'recoveryAbove' } },
    });
  });

  it('marks text that is not a number, bad labels and a "for" out of range', () => {
    const result = thresholdRequest(
      form({ yellow: 'abc', labels: 'Mount=/', forSeconds: String(MAX_THRESHOLD_FOR_S + 1) }),
      4,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        yellow: { key: 'number' },
        labels: { key: 'labels' },
        forSeconds: { key: 'forRange', values: { max: MAX_THRESHOLD_FOR_S } },
      },
    });
  });

  it('refuses a metric outside the catalogue', () => {
    expect(thresholdRequest(form({ metric: 'cpu.nope', red: '1' }), 4)).toEqual({
      ok: false,
      errors: { metric: { key: 'metricUnknown' } },
    });
  });

  it('reads labels and levels as people type them', () => {
    expect(parseLabels(' mount=/ , device=sda ')).toEqual({ mount: '/', device: 'sda' });
    expect(parseLabels('')).toBeNull();
    expect(parseLabels('mount')).toBeUndefined();
    expect(parseLabels('a=1,a=2')).toBeUndefined();
    expect(parseLevel(' 1.5e3 ')).toBe(1500);
    expect(parseLevel('-0,25')).toBe(-0.25);
    expect(parseLevel('')).toBeNull();
    expect(parseLevel('12abc')).toBeUndefined();
  });

  it('fills the form from a saved threshold and back to the same request', () => {
    const saved: Threshold = {
      id: 3,
      server_id: null,
      service: null,
      metric: 'disk.used_pct',
      labels: { mount: '/' },
      mode: 'defined',
      operator: 'gte',
      yellow: 80,
      red: 95,
      recovery: null,
      for_s: 120,
      type_id: 5,
      enabled: false,
      sensitivity: null,
      direction: null,
      updated_at: 1,
    };
    const values = thresholdToForm(saved);
    expect(values).toMatchObject({
      scope: 'all',
      labels: 'mount=/',
      yellow: '80',
      recovery: '',
      enabled: false,
    });
    const result = thresholdRequest(values, 7);
    expect(result.ok && result.request).toMatchObject({
      id: 3,
      server_id: null,
      labels: { mount: '/' },
      yellow: 80,
      red: 95,
      recovery: null,
      for_s: 120,
      enabled: false,
    });
  });
});
