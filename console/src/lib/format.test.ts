import { describe, expect, it } from 'vitest';
import { formatDuration } from './format';

describe('formatDuration', () => {
  it('shows the two largest units', () => {
    expect(formatDuration(2 * 86_400 + 3 * 3_600 + 59, 'en')).toBe('2 days 3 hr');
    expect(formatDuration(5 * 60 + 2, 'en')).toBe('5 min 2 sec');
  });
  it('shows zero seconds for a process that just started', () => {
    expect(formatDuration(0, 'en')).toBe('0 sec');
  });
});
