import { describe, expect, it } from 'vitest';
import { alertChipText } from './alert-status';

describe('alertChipText', () => {
  it('reads "Status Ok" with no open alert, the count up to 99 and "99+" above', () => {
    expect(alertChipText(0, 'Status Ok')).toBe('Status Ok');
    expect(alertChipText(1, 'Status Ok')).toBe('1');
    expect(alertChipText(99, 'Status Ok')).toBe('99');
    expect(alertChipText(100, 'Status Ok')).toBe('99+');
  });
});
