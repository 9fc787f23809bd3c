import type { ServerGraph } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { orderedCategories } from './api';
import { rangeKey } from './queries';

const graph = (graph_id: string, category: ServerGraph['category']): ServerGraph => ({
  graph_id,
  title: graph_id,
  category,
  unit: 'percent',
});

describe('orderedCategories', () => {
  it('orders the catalogue categories first, others after, and drops empty ones', () => {
    const ordered = orderedCategories({
      network: [graph('net', 'network')],
      zeta: [graph('z', 'system')],
      cpu: [graph('cpu', 'cpu')],
      disk: [],
      memory: [graph('mem', 'memory')],
    });
    expect(ordered.map(([name]) => name)).toEqual(['cpu', 'memory', 'network', 'zeta']);
  });
});

describe('rangeKey', () => {
  it('keys the period by type, custom ends and offset', () => {
    expect(rangeKey({}, 0)).toEqual({ type: 'last_hour', offset: 0 });
    expect(rangeKey({ range: 'custom', from: 10, to: 20 }, -180)).toEqual({
      type: 'custom',
      from: 10,
      to: 20,
      offset: -180,
    });
  });
});
