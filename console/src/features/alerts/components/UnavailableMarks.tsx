import type { UnavailableMark } from '@flightdeck/schemas';
import {
  Button,
  Card,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { markKey } from '../management';

export interface UnavailableMarksProps {
  /** The marks in force, or undefined while they load (the history section shows load errors). */
  marks: UnavailableMark[] | undefined;
  servers: { id: number; name: string }[];
  /** Server the form starts on: the page's pick, else the first server. */
  defaultServerId: number | null;
  /** Key (markKey) of the mark being set or removed. */
  pending: string | null;
  onMark: (serverId: number, service: string | null) => void;
  onUnmark: (mark: UnavailableMark) => void;
  formatTime: (unixS: number) => string;
}

/**
 * Servers and services marked intentionally unavailable (spec 7, `set_unavailable` and
 * `remove_unavailable`): while marked, nothing new is raised for them. The form marks a whole
 * server, or one of its services by code.
 */
export function UnavailableMarks({
  marks,
  servers,
  defaultServerId,
  pending,
  onMark,
  onUnmark,
  formatTime,
}: UnavailableMarksProps) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string>('');
  const [service, setService] = useState('');
  const serverId = picked ? Number(picked) : (defaultServerId ?? servers[0]?.id ?? null);
  const names = new Map(servers.map((s) => [s.id, s.name]));
  const trimmed = service.trim();

  return (
    <Stack
      gap="sm"
      component="section"
      aria-labelledby="unavailable-heading"
      data-testid="unavailable-section"
    >
      <Stack gap={2}>
        <Title order={2} fz="h4" id="unavailable-heading">
          {t('alerts.management.unavailable.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('alerts.management.unavailable.intro')}
        </Text>
      </Stack>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (serverId !== null) onMark(serverId, trimmed === '' ? null : trimmed);
        }}
      >
        <Group gap="sm" align="flex-end" wrap="wrap">
          <NativeSelect
            label={t('alerts.management.server')}
            value={serverId === null ? '' : String(serverId)}
            onChange={(event) => setPicked(event.currentTarget.value)}
            data={servers.map((s) => ({ value: String(s.id), label: s.name }))}
            disabled={servers.length === 0}
            style={{ flex: '1 1 160px', maxWidth: 260 }}
            data-testid="unavailable-server"
          />
          <TextInput
            label={t('alerts.management.unavailable.service')}
            placeholder={t('alerts.management.unavailable.servicePlaceholder')}
            value={service}
            maxLength={64}
            onChange={(event) => setService(event.currentTarget.value)}
            style={{ flex: '1 1 160px', maxWidth: 260 }}
            data-testid="unavailable-service"
          />
          <Button
            type="submit"
            disabled={serverId === null || pending !== null}
            loading={serverId !== null && pending === markKey(serverId, trimmed || null)}
            data-testid="unavailable-mark"
          >
            {t('alerts.management.unavailable.mark')}
          </Button>
        </Group>
      </form>
      {marks && marks.length === 0 && (
        <Card withBorder padding="lg" data-testid="unavailable-empty">
          <Text size="sm" c="dimmed">
            {t('alerts.management.unavailable.empty')}
          </Text>
        </Card>
      )}
      {marks && marks.length > 0 && (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="xs" horizontalSpacing="sm" data-testid="unavailable-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('alerts.management.columns.server')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('alerts.management.columns.since')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('alerts.management.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {marks.map((mark) => {
                  const key = markKey(mark.server_id, mark.service);
                  const name = names.get(mark.server_id) ?? `#${mark.server_id}`;
                  const since = mark.since === null ? '—' : formatTime(mark.since);
                  return (
                    <Table.Tr key={key} data-testid="unavailable-row" data-key={key}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Text size="sm" fw={600}>
                          {name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {mark.service ?? t('alerts.management.wholeServer')}
                          <Text span hiddenFrom="sm" size="xs">
                            {' '}
                            · {t('alerts.management.columns.since')} {since}
                          </Text>
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                        {since}
                      </Table.Td>
                      <Table.Td ta="right">
                        <Button
                          size="compact-xs"
                          variant="light"
                          color="red"
                          loading={pending === key}
                          disabled={pending !== null && pending !== key}
                          onClick={() => onUnmark(mark)}
                          aria-label={t('alerts.management.unavailable.unmarkLabel', {
                            server: name,
                            service: mark.service ?? t('alerts.management.wholeServer'),
                          })}
                          data-testid="unavailable-unmark"
                        >
                          {t('alerts.management.unavailable.unmark')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </Stack>
  );
}
