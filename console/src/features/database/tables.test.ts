import type { TableInfo } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { filterTables, qualifiedName, sameTable, tableRefOf } from './tables';

const table = (
  database: string,
  schema: string | null,
  name: string,
  over: Partial<TableInfo> = {},
): TableInfo => ({
  database,
  schema,
  name,
  type: 'table',
  engine: null,
  rows: 10,
  data_bytes: 8192,
  index_bytes: 0,
  size_bytes: 8192,
  ...over,
});

describe('tables', () => {
  it('qualifies a name with the parts the engine has', () => {
    expect(qualifiedName(table('shop', 'public', 'orders'))).toBe('shop.public.orders');
    expect(qualifiedName(table('shop', null, 'orders'))).toBe('shop.orders');
  });

  it('keeps the tables holding every word of the search in their name, type or engine', () => {
    const tables = [
      table('shop', 'public', 'orders'),
      table('shop', 'audit', 'order_log', { type: 'partitioned_table' }),
      table('crm', null, 'customers', { engine: 'InnoDB' }),
    ];
    expect(filterTables(tables, 'ORDER').map((t) => t.name)).toEqual(['orders', 'order_log']);
    expect(filterTables(tables, 'order audit').map((t) => t.name)).toEqual(['order_log']);
    expect(filterTables(tables, 'innodb').map((t) => t.name)).toEqual(['customers']);
    expect(filterTables(tables, 'partitioned').map((t) => t.name)).toEqual(['order_log']);
    expect(filterTables(tables, '')).toHaveLength(3);
    expect(filterTables(tables, 'invoices')).toEqual([]);
  });

  it('names a table for the definition and counters calls', () => {
    const ref = tableRefOf(table('shop', 'public', 'orders', { engine: 'x' }));
    expect(ref).toEqual({ database: 'shop', schema: 'public', name: 'orders' });
    expect(sameTable(ref, { database: 'shop', schema: 'public', name: 'orders' })).toBe(true);
    expect(sameTable(ref, { database: 'shop', schema: null, name: 'orders' })).toBe(false);
    expect(sameTable(null, ref)).toBe(false);
  });
});
