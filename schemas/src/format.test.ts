import { describe, expect, it } from 'vitest';
import {
  abbreviateNumber,
  formatBytes,
  formatDuration,
  formatTimer,
  freemiumDaysLeft,
  initials,
} from './format';

describe('initials', () => {
  it('takes the first letters of the first two words', () => {
    expect(initials('Maria Clara Souza')).toBe('MC');
    expect(initials('ada lovelace')).toBe('AL');
  });

  it('takes the first two letters of a single word', () => {
    expect(initials('joana')).toBe('JO');
  });

  it('ignores surrounding and repeated white space', () => {
    expect(initials('  Ana   Paula ')).toBe('AP');
    expect(initials('\tBeto\n')).toBe('BE');
  });

  it('gives one letter for a one-letter name and nothing for an empty one', () => {
    expect(initials('x')).toBe('X');
    expect(initials('')).toBe('');
    expect(initials('   ')).toBe('');
  });

  it('upper-cases accented letters', () => {
    expect(initials('élodie ñúñez')).toBe('ÉÑ');
  });
});

describe('freemiumDaysLeft', () => {
  const registerIn = 1_700_000_000;

  it('counts whole days left of the lifetime', () => {
    expect(freemiumDaysLeft(registerIn, 30, registerIn)).toBe(30);
    expect(freemiumDaysLeft(registerIn, 30, registerIn + 86_400)).toBe(29);
  });

  it('rounds a partial day down', () => {
    expect(freemiumDaysLeft(registerIn, 30, registerIn + 1)).toBe(29);
    expect(freemiumDaysLeft(registerIn, 30, registerIn + 30 * 86_400 - 1)).toBe(0);
  });

  it('never goes below 0 once the lifetime is over', () => {
    expect(freemiumDaysLeft(registerIn, 30, registerIn + 30 * 86_400)).toBe(0);
    expect(freemiumDaysLeft(registerIn, 30, registerIn + 365 * 86_400)).toBe(0);
  });
});

describe('abbreviateNumber', () => {
  it('leaves numbers up to 999 as they are', () => {
    expect(abbreviateNumber(0)).toBe('0');
    expect(abbreviateNumber(999)).toBe('999');
    expect(abbreviateNumber(-999)).toBe('-999');
    expect(abbreviateNumber(12.5)).toBe('12.5');
  });

  it('abbreviates from 1000 with Mil, Mi, Bi, Tri and Qua', () => {
    expect(abbreviateNumber(1000)).toBe('1 Mil');
    expect(abbreviateNumber(1500)).toBe('1.5 Mil');
    expect(abbreviateNumber(2_000_000)).toBe('2 Mi');
    expect(abbreviateNumber(3_400_000_000)).toBe('3.4 Bi');
    expect(abbreviateNumber(5e12)).toBe('5 Tri');
    expect(abbreviateNumber(7.25e15)).toBe('7.3 Qua');
  });

  it('carries a value that rounds to 1000 into the next suffix', () => {
    expect(abbreviateNumber(999_960)).toBe('1 Mi');
    expect(abbreviateNumber(999_940)).toBe('999.9 Mil');
  });

  it('keeps Qua as the largest suffix', () => {
    expect(abbreviateNumber(2e18)).toBe('2000 Qua');
  });

  it('keeps the sign of negative numbers', () => {
    expect(abbreviateNumber(-1500)).toBe('-1.5 Mil');
  });
});

describe('formatBytes', () => {
  it('steps by 1024, not 1000', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1000)).toBe('1000 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 ** 2)).toBe('1 MB');
    expect(formatBytes(5.25 * 1024 ** 3)).toBe('5.25 GB');
    expect(formatBytes(1024 ** 4)).toBe('1 TB');
  });

  it('rounds to the asked decimals and carries into the next unit', () => {
    expect(formatBytes(1234567, 1)).toBe('1.2 MB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1 MB');
  });

  it('keeps the sign of a negative size, such as a shrink', () => {
    expect(formatBytes(-2048)).toBe('-2 KB');
  });
});

describe('formatTimer', () => {
  it('shows tracked seconds as HH:MM:SS', () => {
    expect(formatTimer(0)).toBe('00:00:00');
    expect(formatTimer(59)).toBe('00:00:59');
    expect(formatTimer(3661)).toBe('01:01:01');
    expect(formatTimer(360_000)).toBe('100:00:00');
  });

  it('drops fractions and shows 00:00:00 for negative or missing counts', () => {
    expect(formatTimer(61.9)).toBe('00:01:01');
    expect(formatTimer(-5)).toBe('00:00:00');
    expect(formatTimer(Number.NaN)).toBe('00:00:00');
  });
});

describe('formatDuration', () => {
  it('reads in the two largest units, from milliseconds to days', () => {
    expect(formatDuration(0.35)).toBe('350 ms');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(312)).toBe('5 m 12 s');
    expect(formatDuration(12_000)).toBe('3 h 20 m');
    expect(formatDuration(6 * 86_400 + 4 * 3_600 + 59)).toBe('6 d 4 h');
    expect(formatDuration(3_600)).toBe('1 h');
    expect(formatDuration(-90)).toBe('-1 m 30 s');
    expect(formatDuration(Number.NaN)).toBe('—');
  });
});
