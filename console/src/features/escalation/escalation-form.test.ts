import { SaveEscalationConfigRequest } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { canAddStep, moveRecipients, newStep, stepProblems, stepsOf, toRequest } from './escalation-form';

describe('escalation form', () => {
  it('builds a request the shared schema accepts, with the opening step first', () => {
    const request = toRequest('R', [
      { delay: 5, recipients: ['u:3'] },
      { delay: 30, recipients: ['i:7', 'u:4'] },
    ]);
    expect(request).toEqual({
      severity: 'R',
      steps: [
        { delay_minutes: 0, recipients: [] },
        { delay_minutes: 5, recipients: [{ kind: 'user', user_id: 3 }] },
        {
          delay_minutes: 30,
          recipients: [
            { kind: 'integration', integration_id: 7 },
            { kind: 'user', user_id: 4 },
          ],
        },
      ],
    });
    expect(SaveEscalationConfigRequest.safeParse(request).success).toBe(true);
  });

  it('names the problem of each step and builds no request while one is left', () => {
    const steps = [
      { delay: 10, recipients: ['u:1'] },
      { delay: 10, recipients: [] },
      { delay: '' as const, recipients: ['u:1'] },
    ];
    expect(stepProblems(steps)).toEqual([
      [],
      [{ key: 'delayOrder', values: { before: 10 } }, { key: 'noRecipient' }],
      [{ key: 'delayRange', values: { max: 1440 } }],
    ]);
    expect(toRequest('default', steps)).toBeNull();
    expect(stepProblems([{ delay: 1441, recipients: ['u:1'] }])[0]).toEqual([
      { key: 'delayRange', values: { max: 1440 } },
    ]);
  });

  it('moves recipients between steps and keeps the delays increasing', () => {
    const moved = moveRecipients(
      [
        { delay: 5, recipients: ['u:1'] },
        { delay: 15, recipients: ['u:2'] },
      ],
      1,
      0,
    );
    expect(moved).toEqual([
      { delay: 5, recipients: ['u:2'] },
      { delay: 15, recipients: ['u:1'] },
    ]);
  });

  it('adds steps 15 minutes apart up to ten in all, and reads the saved chain of a severity', () => {
    expect(newStep([])).toEqual({ delay: 15, recipients: [] });
    expect(newStep([{ delay: 1430, recipients: [] }]).delay).toBe(1440);
    expect(canAddStep(Array.from({ length: 8 }, () => newStep([])))).toBe(true);
    expect(canAddStep(Array.from({ length: 9 }, () => newStep([])))).toBe(false);
    const config = {
      chains: [
        {
          severity: 'Y' as const,
          updated_at: 1,
          steps: [
            { delay_minutes: 0, recipients: [] },
            { delay_minutes: 5, recipients: [{ kind: 'integration' as const, integration_id: 2 }] },
          ],
        },
      ],
      users: [],
      integrations: [],
    };
    expect(stepsOf(config, 'Y')).toEqual([{ delay: 5, recipients: ['i:2'] }]);
    expect(stepsOf(config, 'default')).toEqual([]);
  });
});
