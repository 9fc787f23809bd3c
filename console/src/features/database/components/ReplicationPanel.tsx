import { Badge, Group, ScrollArea, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/time-range';
import classes from '../Database.module.css';
import { DASH, formatCount, formatSeconds } from '../format';
import { replicationMembersQuery } from '../queries';
import { InspectionError } from './InspectionError';

/** MongoDB: the members of the server's replica set, as replSetGetStatus tells them. */
export function ReplicationPanel({
  serverId,
  serviceId,
  offset,
}: {
  serverId: number;
  serviceId: number;
  offset: number;
}) {
  const { t, i18n } = useTranslation();
  const members = useQuery(replicationMembersQuery(serverId, serviceId));
  if (members.isPending) return <Skeleton height={160} aria-label={t('common.loading')} />;
  if (!members.data) {
    return (
      <InspectionError
        title={t('database.replication.failed')}
        error={members.error}
        retrying={members.isFetching}
        onRetry={() => void members.refetch()}
      />
    );
  }
  const { data } = members;
  const lang = i18n.language;
  if (data.set_name === null || data.members.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="replication-empty">
        {t('database.replication.standalone')}
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid="replication-panel">
      <Text size="sm">{t('database.replication.setName', { name: data.set_name })}</Text>
      <ScrollArea type="auto">
        <Table fz="sm" miw={820} data-testid="replication-members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('database.replication.member')}</Table.Th>
              <Table.Th>{t('database.replication.state')}</Table.Th>
              <Table.Th ta="right">{t('database.replication.lag')}</Table.Th>
              <Table.Th ta="right">{t('database.replication.ping')}</Table.Th>
              <Table.Th ta="right">{t('database.replication.uptime')}</Table.Th>
              <Table.Th>{t('database.replication.optime')}</Table.Th>
              <Table.Th>{t('database.replication.syncSource')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.members.map((member) => (
              <Table.Tr key={member.id} data-member={member.name} data-healthy={member.healthy}>
                <Table.Td className={classes.name}>
                  <Group gap={4} wrap="wrap">
                    <Text size="sm" fw={600}>
                      {member.name}
                    </Text>
                    {member.self && (
                      <Badge size="xs" variant="light">
                        {t('database.replication.self')}
                      </Badge>
                    )}
                  </Group>
                  {member.message && (
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {member.message}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={member.healthy ? 'teal' : 'red'} tt="none">
                    {member.state}
                  </Badge>
                  {!member.healthy && (
                    <Text size="xs" c="red">
                      {t('database.replication.unhealthy')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right" className={classes.nowrap}>
                  {formatSeconds(member.lag_s, lang)}
                </Table.Td>
                <Table.Td ta="right" className={classes.nowrap}>
                  {member.ping_ms === null ? DASH : `${formatCount(member.ping_ms, lang)} ms`}
                </Table.Td>
                <Table.Td ta="right" className={classes.nowrap}>
                  {formatSeconds(member.uptime_s, lang)}
                </Table.Td>
                <Table.Td className={classes.nowrap}>
                  {member.optime_ms === null
                    ? DASH
                    : formatDateTime(Math.floor(member.optime_ms / 1000), offset)}
                </Table.Td>
                <Table.Td className={classes.name}>{member.sync_source ?? DASH}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}
