import { describe, expect, it } from 'vitest';
import {
  ALERT_STATUS_PRECEDENCE,
  AlertStatus,
  alertStatusRank,
  combineStatus,
  LIST_ROLL_UP_STATUSES,
  moreSevere,
  rollUpList,
} from './alert-status';
import { ALERT_STATUSES } from './enums';

describe('AlertStatus', () => {
  it('accepts the six status letters and nothing else', () => {
    for (const s of ALERT_STATUSES) expect(AlertStatus.parse(s)).toBe(s);
    expect(AlertStatus.safeParse('r').success).toBe(false);
    expect(AlertStatus.safeParse('X').success).toBe(false);
  });
});

describe('alertStatusRank', () => {
  it('ranks R, Y, B, P, G, N from most to least severe', () => {
    expect(ALERT_STATUS_PRECEDENCE).toEqual(['R', 'Y', 'B', 'P', 'G', 'N']);
    expect(ALERT_STATUS_PRECEDENCE.map(alertStatusRank)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('ranks every status letter', () => {
    expect([...ALERT_STATUSES].sort((a, b) => alertStatusRank(a) - alertStatusRank(b))).toEqual([
      ...ALERT_STATUS_PRECEDENCE,
    ]);
  });
});

describe('combineStatus', () => {
  it('gives N for no statuses', () => {
    expect(combineStatus([])).toBe('N');
  });

  it('lets the most severe status win, whatever the order', () => {
    expect(combineStatus(['G', 'R', 'Y'])).toBe('R');
    expect(combineStatus(['G', 'Y', 'B'])).toBe('Y');
    expect(combineStatus(['P', 'B', 'G'])).toBe('B');
    expect(combineStatus(['G', 'P'])).toBe('P');
    expect(combineStatus(['N', 'G'])).toBe('G');
    expect(combineStatus(['N', 'N'])).toBe('N');
  });

  it('follows the precedence for every pair of statuses', () => {
    for (const a of ALERT_STATUSES) {
      for (const b of ALERT_STATUSES) {
        const expected = alertStatusRank(a) <= alertStatusRank(b) ? a : b;
        expect(combineStatus([a, b])).toBe(expected);
        expect(moreSevere(a, b)).toBe(expected);
      }
    }
  });

  it('ranks blue above purple, not in letter or colour order', () => {
    expect(combineStatus(['P', 'B'])).toBe('B');
  });

  it('accepts any iterable, such as a set', () => {
    expect(combineStatus(new Set(['G', 'Y'] as const))).toBe('Y');
  });
});

describe('rollUpList', () => {
  it('rolls a list up over R, Y, B, P, G', () => {
    expect(LIST_ROLL_UP_STATUSES).toEqual(['R', 'Y', 'B', 'P', 'G']);
    expect(rollUpList(['G', 'B', 'Y'])).toBe('Y');
    expect(rollUpList(['P', 'G'])).toBe('P');
    expect(rollUpList(['R', 'N'])).toBe('R');
  });

  it('ignores N entries', () => {
    expect(rollUpList(['N', 'P', 'N'])).toBe('P');
    expect(rollUpList(['N', 'G'])).toBe('G');
  });

  it('gives G for a list with nothing but N, or with nothing at all', () => {
    expect(rollUpList(['N', 'N'])).toBe('G');
    expect(rollUpList([])).toBe('G');
  });
});
