import { DEFAULT_LOGIN_TYPE } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { loginType } from './api';

describe('loginType', () => {
  it("defaults to the product's own login", () => {
    expect(loginType('')).toBe(DEFAULT_LOGIN_TYPE);
  });
  it('reads the login_type cookie', () => {
    expect(loginType('a=1; login_type=google; b=2')).toBe('google');
  });
  it('ignores a value that is not a login type', () => {
    expect(loginType('login_type=../../x')).toBe(DEFAULT_LOGIN_TYPE);
  });
});
