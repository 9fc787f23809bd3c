import { describe, expect, it } from 'vitest';
import { dynamicChangeRequest, dynamicToForm } from './dynamic-threshold';

describe('dynamic threshold form', () => {
  it('starts from the threshold, with the default sensitivity and direction when it has none', () => {
    expect(dynamicToForm({ sensitivity: 4.5, direction: 'below', for_s: 600 })).toEqual({
      sensitivity: '4.5',
      direction: 'below',
      forSeconds: '600',
    });
    expect(dynamicToForm({ sensitivity: null, direction: null, for_s: 0 })).toEqual({
      sensitivity: '3',
      direction: 'above',
      forSeconds: '0',
    });
  });

  it('makes the change request, reading a decimal comma and an empty duration as 0', () => {
    expect(dynamicChangeRequest(7, { sensitivity: ' 2,5 ', direction: 'both', forSeconds: '' })).toEqual({
      ok: true,
      request: { id: 7, sensitivity: 2.5, direction: 'both', for_s: 0 },
    });
  });

  it('names the range of a sensitivity or duration out of bounds', () => {
    const result = dynamicChangeRequest(7, { sensitivity: '20', direction: 'above', forSeconds: '1.5' });
    expect(result).toEqual({
      ok: false,
      errors: {
        sensitivity: { key: 'sensitivityRange', values: { min: 0.5, max: 10 } },
        forSeconds: { key: 'forRange', values: { max: 86_400 } },
      },
    });
    expect(dynamicChangeRequest(7, { sensitivity: '', direction: 'above', forSeconds: '0' }).ok).toBe(false);
    expect(dynamicChangeRequest(7, { sensitivity: 'abc', direction: 'above', forSeconds: '0' }).ok).toBe(
      false,
    );
    expect(dynamicChangeRequest(7, { sensitivity: '3', direction: 'above', forSeconds: '86401' }).ok).toBe(
      false,
    );
  });
});
