import type { TableInfo, TableRef } from '@flightdeck/schemas';

/** The table's name as the engine qualifies it: database.schema.name, without the parts it lacks. */
export function qualifiedName(table: Pick<TableInfo, 'database' | 'schema' | 'name'>): string {
  return [table.database, table.schema, table.name].filter((part) => part !== null && part !== '').join('.');
}

/** What the definition and counters calls take to name one table. */
export function tableRefOf(table: TableInfo): TableRef {
  return { database: table.database, schema: table.schema, name: table.name };
}

/**
 * The tables holding every word of `text` (any case) in their qualified name, type or engine.
 * The list keeps its order (largest first, as the call answers).
 */
export function filterTables(tables: readonly TableInfo[], text: string): TableInfo[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...tables];
  return tables.filter((table) => {
    const hay = [qualifiedName(table), table.type, table.engine ?? ''].join(' ').toLowerCase();
    return words.every((word) => hay.includes(word));
  });
}

/** Whether two refs name the same table. */
export function sameTable(a: TableRef | null, b: TableRef | null): boolean {
  if (a === null || b === null) return a === b;
  return a.database === b.database && a.schema === b.schema && a.name === b.name;
}
