import { type BlockedSession, MAX_LISTED_SESSIONS } from '@flightdeck/schemas';
import {
  ActionIcon,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  ScrollArea,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../app/shell/icons';
import classes from '../Database.module.css';
import { DASH, formatClock, formatSeconds } from '../format';
import { type SessionRow, type SortDirection, sessionRows, shortQuery, visibleRows } from '../process-list';
import { processListQuery } from '../queries';
import { Chevron } from './Chevron';
import { InspectionError } from './InspectionError';

const COLUMNS = 7;

/**
 * The live process list: every client session, longest-running first, long queries highlighted
 * against the target's threshold, blocked sessions with the sessions blocking them. It is read
 * when the tab opens, on every global refresh and with the refresh button.
 */
export function ProcessListPanel({
  serverId,
  serviceId,
  offset,
}: {
  serverId: number;
  serviceId: number;
  offset: number;
}) {
  const { t, i18n } = useTranslation();
  const list = useQuery(processListQuery(serverId, serviceId));
  const [filter, setFilter] = useState('');
  const [direction, setDirection] = useState<SortDirection>('desc');
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const rows = useMemo(() => (list.data ? sessionRows(list.data) : []), [list.data]);
  const shown = useMemo(() => visibleRows(rows, filter, direction), [rows, filter, direction]);
  const data = list.data;

  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const toolbar = (
    <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
      <TextInput
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        label={t('database.process.filterLabel')}
        placeholder={t('database.process.filterPlaceholder')}
        leftSection={<Icon name="search" size={16} />}
        w={{ base: '100%', xs: 320 }}
        data-testid="process-filter"
      />
      <Group gap="sm" wrap="wrap">
        {data && (
          <Text size="sm" c="dimmed" data-testid="long-query-threshold">
            {t('database.process.threshold', { threshold: formatSeconds(data.long_query_s, i18n.language) })}
          </Text>
        )}
        <Button
          variant="default"
          size="sm"
          leftSection={<Icon name="refresh" size={16} />}
          loading={list.isFetching}
          onClick={() => void list.refetch()}
          data-testid="process-refresh"
        >
          {t('database.process.refresh')}
        </Button>
      </Group>
    </Group>
  );

  let body: React.ReactNode;
  if (list.isPending) {
    body = <Skeleton height={200} aria-label={t('common.loading')} />;
  } else if (!data) {
    body = (
      <InspectionError
        title={t('database.process.failed')}
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (rows.length === 0) {
    body = (
      <Text size="sm" c="dimmed" data-testid="process-empty">
        {t('database.process.empty')}
      </Text>
    );
  } else {
    const longCount = rows.filter((row) => row.long).length;
    body = (
      <Stack gap="xs">
        <Text size="sm" c="dimmed" data-testid="process-summary">
          {[
            t('database.process.sessions', { count: rows.length }),
            t('database.process.longCount', { count: longCount }),
            t('database.process.blockedCount', { count: data.blocked.length }),
            t('database.process.readAt', { time: formatClock(data.ts, offset) }),
          ].join(' · ')}
        </Text>
        {list.isError && (
          <InspectionError
            title={t('database.process.refreshFailed')}
            error={list.error}
            retrying={list.isFetching}
            onRetry={() => void list.refetch()}
          />
        )}
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="process-no-match">
            {t('database.process.noMatch')}
          </Text>
        ) : (
          <ScrollArea type="auto">
            <Table fz="sm" miw={760} verticalSpacing={6} data-testid="process-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={36}>
                    <VisuallyHidden>{t('database.process.details')}</VisuallyHidden>
                  </Table.Th>
                  <Table.Th ta="right">{t('database.process.id')}</Table.Th>
                  <Table.Th>{t('database.process.user')}</Table.Th>
                  <Table.Th>{t('database.process.database')}</Table.Th>
                  <Table.Th>{t('database.process.state')}</Table.Th>
                  <Table.Th
                    ta="right"
                    aria-sort={direction === 'desc' ? 'descending' : 'ascending'}
                    className={classes.nowrap}
                  >
                    <UnstyledButton
                      onClick={() => setDirection((d) => (d === 'desc' ? 'asc' : 'desc'))}
                      fw={700}
                      fz="sm"
                      data-testid="sort-duration"
                      data-direction={direction}
                      aria-label={t(
                        direction === 'desc'
                          ? 'database.process.sortAscending'
                          : 'database.process.sortDescending',
                      )}
                    >
                      {t('database.process.duration')} {direction === 'desc' ? '↓' : '↑'}
                    </UnstyledButton>
                  </Table.Th>
                  <Table.Th>{t('database.process.query')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((row) => (
                  <SessionLines
                    key={row.session.id}
                    row={row}
                    open={open.has(row.session.id)}
                    onToggle={() => toggle(row.session.id)}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
        {data.truncated && (
          <Text size="xs" c="dimmed">
            {t('database.process.truncated', { count: MAX_LISTED_SESSIONS })}
          </Text>
        )}
        {data.blocked.length > 0 && <BlockedList blocked={data.blocked} />}
      </Stack>
    );
  }

  return (
    <Stack gap="sm" data-testid="process-list">
      {toolbar}
      {body}
    </Stack>
  );
}

function SessionLines({ row, open, onToggle }: { row: SessionRow; open: boolean; onToggle: () => void }) {
  const { t, i18n } = useTranslation();
  const { session } = row;
  const query = shortQuery(session.query);
  const detailId = `session-${session.id}-detail`;
  const rowClass = row.long ? classes.longRow : row.blockedBy.length > 0 ? classes.blockedRow : undefined;
  return (
    <Fragment>
      <Table.Tr
        className={rowClass}
        onClick={onToggle}
        style={{ cursor: 'pointer' }}
        data-testid="session-row"
        data-session-id={session.id}
        data-long={row.long ? 'true' : 'false'}
        data-blocked={row.blockedBy.length > 0 ? 'true' : 'false'}
      >
        <Table.Td>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-expanded={open}
            aria-controls={detailId}
            aria-label={t(open ? 'database.process.collapse' : 'database.process.expand', { id: session.id })}
            onClick={(event) => {
              event.stopPropagation();
              onToggle();
            }}
            data-testid="session-expand"
          >
            <Chevron open={open} />
          </ActionIcon>
        </Table.Td>
        <Table.Td ta="right">{session.id}</Table.Td>
        <Table.Td className={classes.nowrap}>{session.user ?? DASH}</Table.Td>
        <Table.Td className={classes.nowrap}>{session.database ?? DASH}</Table.Td>
        <Table.Td>
          <Text size="sm">{session.state ?? DASH}</Text>
          {session.wait && (
            <Text size="xs" c="dimmed">
              {session.wait}
            </Text>
          )}
        </Table.Td>
        <Table.Td ta="right" className={classes.nowrap}>
          <Text size="sm" fw={row.long ? 700 : undefined} c={row.long ? 'orange' : undefined} span>
            {formatSeconds(session.duration_s, i18n.language)}
          </Text>
          {row.long && (
            <Badge color="orange" variant="filled" size="xs" ml={6} data-testid="long-badge">
              {t('database.process.long')}
            </Badge>
          )}
        </Table.Td>
        <Table.Td>
          {session.query ? (
            <div className={classes.query} title={session.query}>
              {query.text}
            </div>
          ) : (
            <Text size="xs" c="dimmed">
              {t('database.process.noQuery')}
            </Text>
          )}
          {(row.blockedBy.length > 0 || row.blocking.length > 0) && (
            <Group gap={4} mt={4}>
              {row.blockedBy.length > 0 && (
                <Badge color="red" variant="light" size="xs" tt="none" data-testid="blocked-by-badge">
                  {t('database.process.waitsFor', { ids: row.blockedBy.map((id) => `#${id}`).join(', ') })}
                </Badge>
              )}
              {row.blocking.length > 0 && (
                <Badge color="grape" variant="light" size="xs" tt="none" data-testid="blocking-badge">
                  {t('database.process.blocks', { ids: row.blocking.map((id) => `#${id}`).join(', ') })}
                </Badge>
              )}
            </Group>
          )}
        </Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr id={detailId} className={rowClass} data-testid="session-detail">
          <Table.Td colSpan={COLUMNS}>
            <Stack gap="xs" py={4} className={classes.detail}>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs" verticalSpacing={4}>
                <Fact label={t('database.process.client')} value={session.client} />
                <Fact label={t('database.process.application')} value={session.application} />
                <Fact label={t('database.process.wait')} value={session.wait} />
                <Fact
                  label={t('database.process.lockWait')}
                  value={row.waitS === null ? null : formatSeconds(row.waitS, i18n.language)}
                />
              </SimpleGrid>
              {session.query && (
                <Code block className={classes.fullQuery} data-testid="session-full-query">
                  {session.query}
                </Code>
              )}
            </Stack>
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
  );
}

function Fact({ label, value }: { label: string; value: string | null }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" fw={700} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value ?? DASH}
      </Text>
    </div>
  );
}

/** Each session waiting for a lock, with the sessions holding it and what they run. */
function BlockedList({ blocked }: { blocked: BlockedSession[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack gap="xs" mt="sm" data-testid="blocked-sessions">
      <Title order={3} fz="h5">
        {t('database.process.blockedTitle')}
      </Title>
      {blocked.map((b) => (
        <Paper key={b.id} withBorder p="sm" className={classes.blockedRow} data-testid="blocked-session">
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {t('database.process.blockedLine', {
              id: b.id,
              user: b.user ?? DASH,
              wait: b.wait_s === null ? DASH : formatSeconds(b.wait_s, i18n.language),
            })}
          </Text>
          {b.query && (
            <div className={classes.query} title={b.query}>
              {shortQuery(b.query).text}
            </div>
          )}
          <Text size="xs" c="dimmed" mt={6} fw={700} tt="uppercase">
            {t('database.process.blockers')}
          </Text>
          <Stack gap={2}>
            {b.blocked_by.map((h) => (
              <Text key={h.id} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="blocker">
                {`#${h.id} · ${h.user ?? DASH} · ${h.state ?? DASH} · ${formatSeconds(h.duration_s, i18n.language)}`}
                {h.query ? ` · ${shortQuery(h.query, 80).text}` : ''}
              </Text>
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
